# A sample spread over the table (issue 19): --schema-from on an SQLite
# table reads 10 runs of up to 1,000 consecutive rows at evenly spaced
# rowids, not its first 10,000 rows, so a table whose start differs from
# the rest (short texts and no NULLs first, long texts and 30 % NULLs
# later) is derived as the whole table is: each length and NULL share
# within tolerance of the whole table's (read here with SQL over all its
# rows). The order evidence still comes from consecutive rows: a column
# that grows over the table is seq across the runs (a run's first row is
# compared with the last of the run before), a random one is rand. A
# WITHOUT ROWID table is read from its start, and the notes say so.
. "$(dirname "$0")/lib.sh"

# near NAME A B D: A and B differ by at most D.
near() { check "$1" "($2 - $3) <= $4 && ($3 - $2) <= $4"; }

# 200,000 rows; the first 20,000 unlike the rest: s 4 bytes then 40, n never
# NULL then NULL in 3 of 10 rows; g grows (3 rows per value); r is random;
# h grows over the first 20,000 rows only, then is random.
db=$T/src.db
sqlite3 "$db" "CREATE TABLE lines(id INTEGER PRIMARY KEY, g INTEGER, r INTEGER, h INTEGER, s TEXT, n TEXT);
INSERT INTO lines SELECT value, value / 3, (value * 7919) % 200003,
	CASE WHEN value <= 20000 THEN value ELSE (value * 104729) % 200003 END,
	CASE WHEN value <= 20000 THEN printf('%04d', value % 10000)
	     ELSE printf('%040d', value) END,
	CASE WHEN value > 20000 AND (value * 37) % 10 < 3 THEN NULL ELSE 'n' || (value % 50) END
	FROM generate_series(1, 200000);
CREATE INDEX lines_g ON lines(g);
CREATE TABLE kv(k INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID;
INSERT INTO kv SELECT value, printf('%08d', value) FROM generate_series(1, 20000);" \
	2>"$T/fixture.err" || bad own-sample/fixture "$(cat "$T/fixture.err")"
sum_before=$(sha256sum "$db" | cut -d' ' -f1)
# The whole table's own figures: s's mean length, n's NULL share.
whole_len=$(sqlite3 "$db" "SELECT avg(length(s)) FROM lines")
whole_nulls=$(sqlite3 "$db" "SELECT avg(n IS NULL) FROM lines")

"$IDXLAB" --schema-from "$db:lines" --print-config >"$T/pc" 2>"$T/pc.err" ||
	bad own-sample/derive "$(cat "$T/pc.err")"
spec=$(sed -n 's/^#   //p' "$T/pc")
len=$(printf '%s\n' "$spec" | sed -n 's/^column s text(\([0-9]*\)).*/\1/p')
nulls=$(printf '%s\n' "$spec" | sed -n 's/^column n .* null:\([0-9.]*\)%.*/\1/p')
# the mean length of the whole table (36.4), not of its start (4): within 10 %
near own-sample/text-length-of-whole-table "${len:-0}" "$whole_len" "$whole_len * 0.1"
# the NULL share of the whole table (0.27), not of its start (0): within 0.05
near own-sample/null-share-of-whole-table "${nulls:--100} / 100" "$whole_nulls" 0.05
# order evidence from the runs: g grows across all of them, r does not, nor
# h (it grows at the start only)
if printf '%s\n' "$spec" | grep -qxE 'column g (big)?int seq:3( in:[0-9]+\.\.[0-9]+)?' &&
	printf '%s\n' "$spec" | grep -qxE 'column r (big)?int rand( in:[0-9]+\.\.[0-9]+)?' &&
	printf '%s\n' "$spec" | grep -qxE 'column h (big)?int rand( in:[0-9]+\.\.[0-9]+)?'; then
	ok own-sample/orders-across-runs
else
	bad own-sample/orders-across-runs "$(printf '%s' "$spec" | tr '\n' '|')"
fi
if grep -q '10 runs of up to 1000 consecutive rows at evenly spaced rowids from 1 to 200000, 10000 rows in all' "$T/pc"; then
	ok own-sample/note-says-runs
else
	bad own-sample/note-says-runs "$(grep '^# ' "$T/pc" | tr '\n' '|' | cut -c1-900)"
fi
# g's evidence: never decreasing in all 10,000 sampled rows, runs included
if grep -q 'g: never decreases in 10000 sampled rows' "$T/pc"; then
	ok own-sample/growing-evidence
else
	bad own-sample/growing-evidence "$(grep '^# ' "$T/pc" | tr '\n' '|' | cut -c1-900)"
fi

# WITHOUT ROWID: no rowid to seek; its start is the sample, and it says so
"$IDXLAB" --schema-from "$db:kv" --print-config >"$T/kv" 2>"$T/kv.err" ||
	bad own-sample/without-rowid "$(cat "$T/kv.err")"
if grep -q 'WITHOUT ROWID: its first 10000 rows in primary key order are the sample' "$T/kv"; then
	ok own-sample/without-rowid-note
else
	bad own-sample/without-rowid-note "$(grep '^# ' "$T/kv" | tr '\n' '|' | cut -c1-900)"
fi

# the source is read, never written
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum_before" ] && ok own-sample/source-unchanged ||
	bad own-sample/source-unchanged "the file's checksum changed"

# --- PostgreSQL --------------------------------------------------------------
# The same table on a server of the test's own: lengths and NULLs come from
# pg_stats (ANALYZE samples the whole table); the order sample is read from
# pages spread over the heap (TABLESAMPLE SYSTEM), so h, growing over its
# first 20,000 rows only, is not taken for a growing column, and g still is.
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-sample/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-sample/pg-server || exit 0
psql_ "CREATE TABLE lines(id bigint PRIMARY KEY, g bigint, r bigint, h bigint, s text, n text);
INSERT INTO lines SELECT i, i / 3, (i * 7919) % 200003,
	CASE WHEN i <= 20000 THEN i ELSE (i * 104729) % 200003 END,
	CASE WHEN i <= 20000 THEN lpad((i % 10000)::text, 4, '0') ELSE lpad(i::text, 40, '0') END,
	CASE WHEN i > 20000 AND (i * 37) % 10 < 3 THEN NULL ELSE 'n' || (i % 50) END
	FROM generate_series(1::bigint, 200000) i;
CREATE INDEX lines_g ON lines(g);
ANALYZE lines;" >"$T/pgfix.out"
if grep -q ERROR "$T/pgfix.out"; then
	bad own-sample/pg-fixture "$(cat "$T/pgfix.out")"
	exit 0
fi
pg_len=$(psql_ "SELECT avg(length(s)) FROM lines")
pg_nulls=$(psql_ "SELECT avg((n IS NULL)::int) FROM lines")
"$IDXLAB" --schema-from "$dsn:lines" --print-config >"$T/pgpc" 2>"$T/pgpc.err" ||
	bad own-sample/pg-derive "$(cat "$T/pgpc.err")"
spec=$(sed -n 's/^#   //p' "$T/pgpc")
len=$(printf '%s\n' "$spec" | sed -n 's/^column s text(\([0-9]*\)).*/\1/p')
nulls=$(printf '%s\n' "$spec" | sed -n 's/^column n .* null:\([0-9.]*\)%.*/\1/p')
near own-sample/pg-text-length "${len:-0}" "$pg_len" "$pg_len * 0.1"
near own-sample/pg-null-share "${nulls:--100} / 100" "$pg_nulls" 0.05
# g grows: seq:3, or late with a small share where the heap itself is out
# of order (a bulk INSERT leaves a few pages behind later ones; a parallel
# scan's Gather, which the old sample read through, showed 17 %)
late=$(printf '%s\n' "$spec" | sed -n 's/^column g bigint late:\([0-9.]*\)%:.*/\1/p')
if printf '%s\n' "$spec" | grep -qxE 'column g bigint (seq|late:[0-9.]+%):(2\.9|3)( in:[0-9]+\.\.[0-9]+)?' &&
	[ "$(awk -v p="${late:-0}" 'BEGIN { print (p <= 3) }')" = 1 ] &&
	printf '%s\n' "$spec" | grep -qxE 'column r bigint rand( in:[0-9]+\.\.[0-9]+)?' &&
	! printf '%s\n' "$spec" | grep -qE '^column h bigint (seq|late)'; then
	ok own-sample/pg-orders-from-spread-pages
else
	bad own-sample/pg-orders-from-spread-pages "$(printf '%s' "$spec" | tr '\n' '|')"
fi
if grep -q 'rows of pages spread over its heap, in its order' "$T/pgpc"; then
	ok own-sample/pg-note-says-pages
else
	bad own-sample/pg-note-says-pages "$(grep '^# how' "$T/pgpc" | cut -c1-900)"
fi
