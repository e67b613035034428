# A table of 200 columns (issue 19): --schema-from keeps all of them (a
# spec holds id + 255), from an SQLite source and from a PostgreSQL one,
# and each engine builds and fills the copy with every column: SQLite (its
# file, --dsn), PostgreSQL (a server of the test's own, read while the run
# holds the table) and WiredTiger (each record's bytes are the width of all
# 200 columns, read with WiredTiger's own cursor). The PostgreSQL
# derivation's wall time and peak RSS are printed, not asserted.
. "$(dirname "$0")/lib.sh"

# A 200-column table: id, then c1..c199, odd ones integers, even ones
# 6-byte texts; 3000 rows, no NULL; an index on c3.
db=$T/wide.db
python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE wide(id INTEGER PRIMARY KEY, %s)" % ", ".join(
    "c%d %s" % (i, "INTEGER" if i % 2 else "TEXT") for i in range(1, 200)))
c.executemany("INSERT INTO wide VALUES (%s)" % ", ".join("?" * 200),
              [[r] + [(r * i) % 1000 if i % 2 else "v%05d" % ((r * i) % 997)
                      for i in range(1, 200)] for r in range(1, 3001)])
c.execute("CREATE INDEX wide_c3 ON wide(c3)")
c.commit()
PY
[ -s "$db" ] || bad own-wide/fixture "python3 could not write $db"

# spec_cols FILE: the value columns of the spec --print-config wrote
spec_cols() { grep -c '^#   column ' "$1"; }
# row_width FILE: a record's bytes on WiredTiger for that spec: id 8, bigint 8,
# int 4, text(N) N
row_width() {
	sed -n 's/^#   column [^ ]* \([^ ]*\).*/\1/p' "$1" | awk '
		/^text\(/ { gsub(/[^0-9]/, ""); w += $0; next }
		/^(int|bool|date)$/ { w += 4; next }
		{ w += 8 } END { print w + 8 }'
}

"$IDXLAB" --schema-from "$db:wide" --print-config >"$T/pc" 2>"$T/pc.err" ||
	bad own-wide/sqlite-derive "$(cat "$T/pc.err")"
n=$(spec_cols "$T/pc")
if [ "$n" = 199 ] && ! grep -q 'left out' "$T/pc"; then
	ok own-wide/sqlite-all-200-kept
else
	bad own-wide/sqlite-all-200-kept "$n value columns; $(grep 'left out' "$T/pc" | cut -c1-300)"
fi

# SQLite: the copy (its file kept with --dsn) has the 200 columns, each
# row a value in every one
if "$IDXLAB" run --schema-from "$db:wide" --rows 1000 --prefill 0 --dsn "$T/copy.db" \
	--format csv >"$T/sq.csv" 2>"$T/sq.err"; then
	got=$(sqlite3 "$T/copy.db" "SELECT (SELECT count(*) FROM pragma_table_info('idxlab_t')) || ' ' ||
		(SELECT count(*) FROM idxlab_t WHERE c1 IS NOT NULL AND c100 IS NOT NULL AND c199 IS NOT NULL)")
	[ "$got" = "200 1000" ] && ok own-wide/sqlite-rows-200-columns ||
		bad own-wide/sqlite-rows-200-columns "columns, full rows: $got"
else
	bad own-wide/sqlite-rows-200-columns "$(tail -3 "$T/sq.err")"
fi

# Notes past their room are counted, never cut: 255 columns of 120-character
# names hold more order notes than 32 KB; every note shown is whole, and
# the last line counts the rest (shown + left out = 255).
python3 - "$T/long.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
names = ["c%03d_%s" % (i, "x" * 115) for i in range(255)]
c.execute("CREATE TABLE longnames(id INTEGER PRIMARY KEY, %s)" % ", ".join('"%s" INTEGER' % n for n in names))
c.executemany("INSERT INTO longnames VALUES (%s)" % ", ".join("?" * 256),
              [[r] + [(r * i) % 7 for i in range(255)] for r in range(1, 51)])
c.commit()
PY
"$IDXLAB" --schema-from "$T/long.db:longnames" --print-config >"$T/long.pc" 2>"$T/long.err" ||
	bad own-wide/notes-counted "$(cat "$T/long.err")"
shown=$(grep -cE '^# how it was read: c[0-9]{3}_x+: .* -> [a-z0-9:.%]+$' "$T/long.pc")
cut=$(grep -E '^# how it was read: c[0-9]{3}_x' "$T/long.pc" | grep -cvE ' -> [a-z0-9:.%]+$')
more=$(tail -1 "$T/long.pc" | sed -n 's/^# how it was read: \.\.\. and \([0-9]*\) more notes left out (the notes hold 32768 bytes)$/\1/p')
if [ -n "$more" ] && [ "$cut" = 0 ] && [ $((shown + more)) = 255 ]; then
	ok own-wide/notes-counted
else
	bad own-wide/notes-counted "$shown whole order notes, $cut cut, last line: $(tail -1 "$T/long.pc" | cut -c1-200)"
fi

# --- PostgreSQL ----------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-wide/pg "no PostgreSQL server installed (apt-get install postgresql)"
else
	own_pg own-wide/pg-server && {
		psql_ "$(python3 -c '
cols = range(1, 200)
print("CREATE TABLE wide(id bigint PRIMARY KEY, %s);" % ", ".join(
    "c%d %s" % (i, "bigint" if i % 2 else "text") for i in cols))
print("INSERT INTO wide SELECT r, %s FROM generate_series(1::bigint, 3000) r;" % ", ".join(
    "(r * %d) %% 1000" % i if i % 2 else "\x27v\x27 || lpad(((r * %d) %% 997)::text, 5, \x270\x27)" % i
    for i in cols))
print("CREATE INDEX wide_c3 ON wide(c3);")')
ANALYZE wide;" >"$T/pgfix.out"
		grep -q ERROR "$T/pgfix.out" && bad own-wide/pg-fixture "$(head -3 "$T/pgfix.out")"
		# wall time and the largest RSS of the derivation (python3: no time(1) here)
		python3 -c '
import resource, subprocess, sys, time
t = time.time()
with open(sys.argv[1], "w") as out, open(sys.argv[2], "w") as err:
    rc = subprocess.call(sys.argv[3:], stdout=out, stderr=err)
print("%.2f %d %d" % (time.time() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc))' \
			"$T/pgpc" "$T/pgpc.err" "$IDXLAB" --schema-from "$dsn:wide" --print-config >"$T/pg.time"
		[ "$(cut -d' ' -f3 "$T/pg.time")" = 0 ] || bad own-wide/pg-derive "$(cat "$T/pgpc.err")"
		echo "  200-column PostgreSQL derivation: $(cut -d' ' -f1 "$T/pg.time") s wall, $(cut -d' ' -f2 "$T/pg.time") KB max RSS"
		n=$(spec_cols "$T/pgpc")
		if [ "$n" = 199 ] && ! grep -q 'left out' "$T/pgpc"; then
			ok own-wide/pg-all-200-kept
		else
			bad own-wide/pg-all-200-kept "$n value columns; $(grep 'left out' "$T/pgpc" | cut -c1-300)"
		fi
		# the copy on the same server (--dsn), read while the run holds it
		full_sql="SELECT count(*) FROM idxlab.idxlab_t WHERE c1 IS NOT NULL AND c100 IS NOT NULL AND c199 IS NOT NULL"
		if hold_until "SELECT ($full_sql) >= 500" --schema-from "$dsn:wide" --rows 100000000 --prefill 0 --commit 100; then
			got=$(psql_ "SELECT count(*) FROM pg_attribute WHERE attrelid = 'idxlab.idxlab_t'::regclass AND attnum > 0 AND NOT attisdropped")
		else
			got="the run did not hold its table: $(tail -3 "$T/hold.err")"
		fi
		release
		[ "$got" = 200 ] && ok own-wide/pg-rows-200-columns || bad own-wide/pg-rows-200-columns "$got"
	}
fi

# --- WiredTiger --------------------------------------------------------------
wt_test=own-wide
. "$(dirname "$0")/wt_lib.sh"
if [ -z "$cat" ]; then
	skip own-wide/wt-rows-200-columns "cannot build tests/fixtures/wt_catalog.c (cc and libwiredtiger-dev needed)"
elif wt --schema-from "$db:wide" --rows 1000 --prefill 0 --dsn "$T/wt" --format csv \
	>"$T/wt.csv" 2>"$T/wt.err"; then
	want=$(row_width "$T/pc")
	# every record of the collection is that wide (its value's hex / 2)
	got=$("$cat" -d "$T/wt" | awk 'NF == 1 { on = $1 == "collection-idxlab"; next }
		on { n++; w[length($2) / 2]++ } END { for (x in w) printf "%s:%s ", x, w[x]; print n + 0 }')
	[ "$got" = "$want:1000 1000" ] && ok own-wide/wt-rows-200-columns ||
		bad own-wide/wt-rows-200-columns "want 1000 records of $want bytes; have (bytes:records, records) $got"
else
	bad own-wide/wt-rows-200-columns "$(tail -3 "$T/wt.err")"
fi
