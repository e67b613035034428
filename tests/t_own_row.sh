# The table's own row (issue 19, item 3): --schema-from keeps a user's
# types (numeric(P,S), bool, date, timestamptz, a domain's base type), each
# column's NULL share, a text's length from its values (not the declared
# maximum), and neither idxlab's payload nor its hot column unless asked
# for. Checked on an SQLite table and a PostgreSQL table the test makes: the
# derived spec, then idxlab's copy itself (the SQLite file it keeps with
# --dsn; the PostgreSQL table on a --dsn server of the test's own, read
# while the run holds it): its average row within 15 % of the source's
# (dbstat's payload bytes; pg_column_size), each NULL share within 0.05;
# the sources unchanged.
. "$(dirname "$0")/lib.sh"

# has NAME TEXT PATTERN...: every extended regex PATTERN matches a whole
# line of TEXT.
has() {
	name=$1 text=$2
	shift 2
	for p in "$@"; do
		if ! printf '%s\n' "$text" | grep -qxE -- "$p"; then
			bad "$name" "no line /$p/ in: $(printf '%s' "$text" | tr '\n' '|' | cut -c1-900)"
			return
		fi
	done
	ok "$name"
}
# within NAME A B SHARE: A and B differ by at most SHARE of B.
within() { check "$1" "($2 - $3) <= $4 * $3 && ($3 - $2) <= $4 * $3"; }
# near NAME A B D: A and B differ by at most D.
near() { check "$1" "($2 - $3) <= $4 && ($3 - $2) <= $4"; }

# --- SQLite -----------------------------------------------------------------
# 5000 rows: a numeric(10,2) of REALs, a boolean, a date and a timestamp of
# text (as SQLite's date() and datetime() write them), a varchar(200) of
# 14..26 bytes (20 on average), a few-valued text with 30 % NULLs, a text
# with 28 % NULLs. Values from the row number, so the file is the same
# every run.
db=$T/src.db
sqlite3 "$db" "CREATE TABLE track(track_id INTEGER PRIMARY KEY, name VARCHAR(200) NOT NULL,
	amount NUMERIC(10,2), flag BOOLEAN, released DATE, sold_at TIMESTAMP, kind TEXT,
	composer NVARCHAR(220));
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
INSERT INTO track SELECT i, substr('abcdefghijklmnopqrstuvwxyz0123456789', 1 + i % 7, 14 + (i * 7) % 13),
	((i * 7919) % 100000) / 100.0 + 0.01, i % 2, date('2020-01-01', '+' || (i / 10) || ' days'),
	datetime('2020-01-01', '+' || i || ' minutes'),
	CASE WHEN (i * 37) % 10 < 3 THEN NULL ELSE 'k' || (i % 5) END,
	CASE WHEN (i * 53) % 100 < 28 THEN NULL ELSE 'Composer ' || (i * 7) % 1000 END FROM n;
CREATE INDEX track_kind ON track(kind);
CREATE TABLE allidx(id INTEGER PRIMARY KEY, a INTEGER, b TEXT);
INSERT INTO allidx SELECT value, value % 7, 'b' || value FROM generate_series(1, 500);
CREATE INDEX allidx_a ON allidx(a);
CREATE INDEX allidx_b ON allidx(b);" 2>"$T/sqlite.err" ||
	bad own-row/sqlite-fixture "$(cat "$T/sqlite.err")"
sum_before=$(sha256sum "$db" | cut -d' ' -f1)

"$IDXLAB" --schema-from "$db:track" --print-config >"$T/pc" 2>"$T/pc.err"
spec=$(sed -n 's/^#   //p' "$T/pc")
how=$(grep '^# how it was read' "$T/pc")
has own-row/sqlite-types "$spec" \
	'column amount numeric\(10,2\) .*' 'column flag bool .*' 'column released date .*' \
	'column sold_at timestamptz .*' 'column name text\(20\) .*' \
	'column kind text\([0-9]+\) few:5 null:30%' 'column composer text\([0-9]+\) .* null:28%'
has own-row/sqlite-no-payload-no-hot "$spec" 'payload none' 'hot (name|amount|flag|released|sold_at|composer)'
has own-row/sqlite-notes "$how" \
	'.*amount: numeric\(10,2\) kept.*' '.*sold_at: TIMESTAMP holding text.*timestamptz.*' \
	'.*kind: 30 % NULL.*' '.*composer: 28 % NULL.*' '.*no payload, no hot column.*op update changes [a-z_]+.*'
# The printed spec is a spec file: given back, it prints the same.
printf '%s\n' "$spec" >"$T/saved.spec"
"$IDXLAB" --schema "$T/saved.spec" --print-config >"$T/pc2" 2>&1
[ "$(sed -n 's/^#   //p' "$T/pc2")" = "$spec" ] && ok own-row/sqlite-spec-reads-back ||
	bad own-row/sqlite-spec-reads-back "$(diff "$T/saved.spec" "$T/pc2" | head -20 | tr '\n' '|')"

# idxlab's copy, kept in a file of its own (--dsn FILE).
if "$IDXLAB" run --schema-from "$db:track" --indexes 1 --rows 5000 --dsn "$T/copy.db" \
	--format csv >"$T/run.csv" 2>"$T/run.err" && [ "$(field "$T/run.csv" rows)" = 5000 ]; then
	ok own-row/sqlite-copy-runs
else bad own-row/sqlite-copy-runs "$(tail -3 "$T/run.err")"; fi
row_sql() { echo "SELECT round(sum(payload) * 1.0 / (SELECT count(*) FROM $1), 2) FROM dbstat WHERE name = '$1'"; }
src_row=$(sqlite3 "$db" "$(row_sql track)")
copy_row=$(sqlite3 "$T/copy.db" "$(row_sql idxlab_t)")
within own-row/sqlite-row-size-within-15pct "$copy_row" "$src_row" 0.15
cols=$(sqlite3 "$T/copy.db" "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('idxlab_t')")
[ "$cols" = "id INTEGER, name TEXT, amount NUMERIC(10,2), flag BOOLEAN, released DATE, sold_at TIMESTAMPTZ, kind TEXT, composer TEXT" ] &&
	ok own-row/sqlite-copy-columns || bad own-row/sqlite-copy-columns "$cols"
nulls_sql="SELECT round(avg(kind IS NULL), 3), round(avg(composer IS NULL), 3)"
src_nulls=$(sqlite3 "$db" "$nulls_sql FROM track")
copy_nulls=$(sqlite3 "$T/copy.db" "$nulls_sql FROM idxlab_t")
near own-row/sqlite-kind-null-share "${copy_nulls%%|*}" "${src_nulls%%|*}" 0.05
near own-row/sqlite-composer-null-share "${copy_nulls##*|}" "${src_nulls##*|}" 0.05
# stored as the source stores them (typeof)
types_sql="SELECT group_concat(t, ',') FROM (SELECT DISTINCT typeof(amount) || '/' || typeof(flag) || '/' || typeof(released) || '/' || typeof(sold_at) AS t FROM"
src_types=$(sqlite3 "$db" "$types_sql track WHERE amount <> round(amount))")
copy_types=$(sqlite3 "$T/copy.db" "$types_sql idxlab_t WHERE amount <> round(amount))")
[ "$copy_types" = "$src_types" ] && [ "$src_types" = "real/integer/text/text" ] &&
	ok own-row/sqlite-storage-classes || bad own-row/sqlite-storage-classes "source '$src_types', copy '$copy_types'"
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum_before" ] && [ ! -e "$db-journal" ] && [ ! -e "$db-wal" ] &&
	ok own-row/sqlite-source-unchanged || bad own-row/sqlite-source-unchanged "the source file changed"

# op update changes a column no index covers; --payload N adds a payload.
if "$IDXLAB" run --schema-from "$db:track" --indexes 1 --op update --prefill 2000 --rows 2000 \
	--dsn "$T/upd.db" --format csv >"$T/upd.csv" 2>"$T/upd.err" && [ "$(field "$T/upd.csv" rows)" = 2000 ]; then
	ok own-row/sqlite-update-runs
else bad own-row/sqlite-update-runs "$(tail -3 "$T/upd.err")"; fi
expect_exit own-row/update-every-column-indexed 2 "--op update: .*every column of the allidx table is indexed" \
	"$IDXLAB" run --schema-from "$db:allidx" --op update --rows 10
"$IDXLAB" run --schema-from "$db:track" --payload 100 --rows 100 --dsn "$T/pay.db" >/dev/null 2>"$T/pay.err"
pay=$(sqlite3 "$T/pay.db" "SELECT count(*) FILTER (WHERE name = 'payload'), count(*) FILTER (WHERE name = 'hot') FROM pragma_table_info('idxlab_t')" 2>&1)
nopay=$(sqlite3 "$T/copy.db" "SELECT count(*) FILTER (WHERE name IN ('payload', 'hot')) FROM pragma_table_info('idxlab_t')" 2>&1)
[ "$pay" = "1|0" ] && [ "$nopay" = 0 ] &&
	grep -q "^idxlab: payload: --payload adds a payload column of 100 bytes to each row of track" "$T/pay.err" &&
	ok own-row/payload-only-when-asked ||
	bad own-row/payload-only-when-asked "--payload 100: payload|hot '$pay'; without: '$nopay'; $(tail -2 "$T/pay.err")"
# A built-in table keeps its payload and hot.
"$IDXLAB" run --schema users --rows 100 --dsn "$T/users.db" >/dev/null 2>&1
b=$(sqlite3 "$T/users.db" "SELECT count(*) FROM pragma_table_info('idxlab_t') WHERE name IN ('payload', 'hot')" 2>&1)
[ "$b" = 2 ] && ok own-row/builtin-keeps-payload-and-hot || bad own-row/builtin-keeps-payload-and-hot "$b"

# --- PostgreSQL ---------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-row/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-row/pg-server || exit 0
psql_ "CREATE DOMAIN genre_ref AS integer;
	CREATE TABLE track(track_id int PRIMARY KEY, name varchar(200) NOT NULL, amount numeric(10,2),
	flag boolean, released date, sold_at timestamptz, genre_id genre_ref, kind text, composer varchar(220));
	INSERT INTO track SELECT i, substr('abcdefghijklmnopqrstuvwxyz0123456789', 1 + i % 7, 14 + (i * 7) % 13),
	((i * 7919) % 100000) / 100.0 + 0.01, i % 2 = 0, date '2020-01-01' + i / 10,
	timestamptz '2020-01-01' + i * interval '1 minute', (i * 13) % 25,
	CASE WHEN (i * 37) % 10 < 3 THEN NULL ELSE 'k' || (i % 5) END,
	CASE WHEN (i * 53) % 100 < 28 THEN NULL ELSE 'Composer ' || (i * 7) % 1000 END
	FROM generate_series(1, 5000) i;
	CREATE INDEX track_kind ON track(kind);
	ANALYZE track;" >"$T/pgfix.out"
grep -q ERROR "$T/pgfix.out" && bad own-row/pg-fixture "$(cat "$T/pgfix.out")"
state_sql="SELECT md5(string_agg(t::text, '|' ORDER BY track_id)) FROM track t;
	SELECT n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE relname = 'track';
	SELECT count(*) FROM pg_class"
before=$(psql_ "$state_sql")
"$IDXLAB" --schema-from "$dsn:track" --print-config >"$T/pg.pc" 2>"$T/pg.err"
spec=$(sed -n 's/^#   //p' "$T/pg.pc")
how=$(grep '^# how it was read' "$T/pg.pc")
has own-row/pg-types "$spec" \
	'column amount numeric\(10,2\) .*' 'column flag bool .*' 'column released date .*' \
	'column sold_at timestamptz .*' 'column genre_id int .*' 'column name text\((19|20|21)\) .*' \
	'column kind text\([0-9]+\) few:5 null:30%' 'column composer text\([0-9]+\) .* null:28%'
has own-row/pg-no-payload-no-hot "$spec" 'payload none' 'hot [a-z_]+'
has own-row/pg-notes "$how" '.*amount: numeric\(10,2\) kept.*' \
	'.*genre_id: a domain over integer: int.*' '.*kind: 30 % NULL.*' '.*composer: 28 % NULL.*'

# (a text's length from avg_width, which PostgreSQL truncates: 19..21 for
# 20 bytes on average, the declared 200 never)
# idxlab's copy on the same server (--dsn), read while the run holds it.
rows_sql="SELECT count(*) >= 5000 FROM idxlab.idxlab_t"
copy_sql="SELECT round(avg(pg_column_size(t.*)), 2), round(avg((kind IS NULL)::int), 3), round(avg((composer IS NULL)::int), 3) FROM"
if hold_until "$rows_sql" --schema-from "$dsn:track" --indexes 1 --rows 100000000 --commit 100; then
	copy=$(psql_ "$copy_sql idxlab.idxlab_t t")
	cols=$(psql_ "SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'idxlab.idxlab_t'::regclass AND attnum > 0 AND NOT attisdropped")
else
	copy="" cols="the run did not hold its table: $(tail -3 "$T/hold.err")"
fi
release
src=$(psql_ "$copy_sql track t")
[ "$cols" = "id bigint, name text, amount numeric(10,2), flag boolean, released date, sold_at timestamp with time zone, genre_id integer, kind text, composer text" ] &&
	ok own-row/pg-copy-columns || bad own-row/pg-copy-columns "$cols"
within own-row/pg-row-size-within-15pct "$(echo "$copy" | cut -d'|' -f1)" "$(echo "$src" | cut -d'|' -f1)" 0.15
near own-row/pg-kind-null-share "$(echo "$copy" | cut -d'|' -f2)" "$(echo "$src" | cut -d'|' -f2)" 0.05
near own-row/pg-composer-null-share "$(echo "$copy" | cut -d'|' -f3)" "$(echo "$src" | cut -d'|' -f3)" 0.05
# COPY writes the rows INSERT writes: NULLs, numerics, dates alike.
sum_sql="SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM (SELECT * FROM idxlab.idxlab_t WHERE id <= 2000) t"
sums=""
for load in insert multirow copy; do
	if hold_until "SELECT count(*) >= 2000 FROM idxlab.idxlab_t" --schema-from "$dsn:track" --load $load \
		--rows 100000000 --commit 2000; then
		sums="$sums $load=$(psql_ "$sum_sql")"
	else sums="$sums $load=none($(tail -1 "$T/hold.err"))"; fi
	release
done
set -- $sums
[ "${1#*=}" = "${2#*=}" ] && [ "${2#*=}" = "${3#*=}" ] && [ ${#1} -gt 32 ] &&
	ok own-row/pg-copy-multirow-insert-same-rows || bad own-row/pg-copy-multirow-insert-same-rows "$sums"
after=$(psql_ "$state_sql")
[ "$before" = "$after" ] && ok own-row/pg-source-unchanged ||
	bad own-row/pg-source-unchanged "before: $before after: $after"
