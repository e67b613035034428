# How a step's rows arrive and how it ends: --index-build after (the indexes
# built inside the step, timed), --interval-rows (a record per batch of rows,
# with the table's size), --vacuum (the engine's reclaim, measured apart).
# SQLite in a temp dir, and PostgreSQL's throwaway server for VACUUM's WAL.
. "$(dirname "$0")/lib.sh"

# num A OP B: a numeric comparison of two CSV values, B maybe "VALUE * k" (empty
# or no number: false).
num() { is_num "$1" "${3%% *}" && awk "BEGIN { exit !($1 $2 $3) }"; }

# --- index-build after ---------------------------------------------------------
"$IDXLAB" run --rows 20000 --indexes 4 --key-order rand --index-build before,after \
	--format csv >"$T/b.csv" 2>"$T/err"
before=$(field "$T/b.csv" build_seconds 1) after=$(field "$T/b.csv" build_seconds 2)
if [ -z "$before" ] && num "$after" '>' 0 && num "$after" '<' "$(field "$T/b.csv" seconds 2)" &&
	[ "$(field "$T/b.csv" index_pages 2 | tr ';' '\n' | wc -l)" = 4 ] &&
	[ "$(field "$T/b.csv" index_build 2)" = after ]; then
	ok stepend/index-build-after-timed
else bad stepend/index-build-after-timed "before '$before' after '$after': $(cat "$T/b.csv" "$T/err")"; fi
# Built after the load, the random-key indexes are packed: no bigger than
# when each row went in one by one (split pages half full).
num "$(field "$T/b.csv" index_bytes 2)" '<=' "$(field "$T/b.csv" index_bytes 1)" &&
	ok stepend/index-build-after-packs || bad stepend/index-build-after-packs "$(cat "$T/b.csv")"

# --- interval-rows ---------------------------------------------------------------
"$IDXLAB" run --rows 3000 --commit 1000 --interval-rows 1000 --format csv >"$T/r.csv" 2>"$T/err"
kinds=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "record") k = i; if ($i == "table_rows") t = i; if ($i == "rows") r = i }; next }
	{ printf "%s:%s:%s ", $k, $r, $t }' "$T/r.csv")
[ "$kinds" = "rows:1000:1000 rows:1000:2000 rows:1000:3000 step:3000:3000 " ] &&
	ok stepend/interval-rows-batches || bad stepend/interval-rows-batches "'$kinds' $(cat "$T/err")"
# Each batch of a commit per 1000 rows holds its own commit.
[ "$(field "$T/r.csv" commits 1)" = 1 ] && [ "$(field "$T/r.csv" commits 3)" = 1 ] &&
	ok stepend/interval-rows-commits || bad stepend/interval-rows-commits "$(cat "$T/r.csv")"
"$IDXLAB" run --rows 2500 --interval-rows 1000 >"$T/r.txt" 2>&1
grep -q "table rows" "$T/r.txt" && [ "$(grep -c '^ *[0-9]' "$T/r.txt")" = 4 ] &&
	ok stepend/interval-rows-text || bad stepend/interval-rows-text "$(cat "$T/r.txt")"

# --- scale ---------------------------------------------------------------------
"$IDXLAB" run --rows 20000 --commit 5000 --interval-rows 5000 --scale 0.1 --format csv >"$T/s.csv" 2>"$T/err"
[ "$(field "$T/s.csv" rows 5)" = 2000 ] && [ "$(field "$T/s.csv" rows 1)" = 500 ] &&
	[ "$(field "$T/s.csv" commits 5)" = 4 ] && ok stepend/scale ||
	bad stepend/scale "$(cat "$T/s.csv" "$T/err")"
expect_exit stepend/scale-zero 2 "scale: 0 is out of range \(valid: 0.001..1000\)" "$IDXLAB" run --scale 0

# --- load multirow (SQLite): the same rows as a statement per row -----------------
for schema in default users; do
	for l in insert multirow; do
		rm -f "$T/ml-$l.db"
		"$IDXLAB" run --dsn "$T/ml-$l.db" --schema $schema --indexes 2 --rows 5500 --commit 2500 \
			--load $l --format csv >"$T/ml-$l.csv" 2>"$T/err" || bad stepend/multirow-$schema "$(cat "$T/err")"
		sqlite3 "$T/ml-$l.db" "SELECT * FROM idxlab_t ORDER BY id" | md5sum >"$T/ml-$l.md5"
	done
	if cmp -s "$T/ml-insert.md5" "$T/ml-multirow.md5" && [ "$(field "$T/ml-multirow.csv" rows)" = 5500 ] &&
		[ "$(field "$T/ml-multirow.csv" commits)" = 3 ] && [ "$(field "$T/ml-multirow.csv" load)" = multirow ]; then
		ok stepend/multirow-$schema-same-rows
	else bad stepend/multirow-$schema-same-rows "$(cat "$T/ml-multirow.csv" "$T"/ml-*.md5)"; fi
done
expect_exit stepend/copy-not-on-sqlite 2 "load copy: the sqlite engine has no such path: SQLite has no bulk path like COPY \(use --load multirow\)" \
	"$IDXLAB" run --load copy --rows 10

# --- an op that has no column to write in the table -------------------------------
printf 'column a int seq\n' >"$T/noidx.spec"
expect_exit stepend/update-indexed-needs-an-index 2 "op update-indexed: the noidx table has no index" \
	"$IDXLAB" run --schema "$T/noidx.spec" --op update-indexed --prefill 10 --rows 5

# --- vacuum on SQLite --------------------------------------------------------------
"$IDXLAB" run --op delete --prefill 20000 --rows 10000 --indexes 2 --vacuum \
	--format csv >"$T/v.csv" 2>"$T/err"
num "$(field "$T/v.csv" vacuum_seconds)" '>' 0 && [ "$(field "$T/v.csv" vacuum)" = on ] &&
	grep -q "rewrote the database (VACUUM)" "$T/err" &&
	ok stepend/vacuum-sqlite || bad stepend/vacuum-sqlite "$(cat "$T/v.csv" "$T/err")"
"$IDXLAB" run --op delete --prefill 2000 --rows 1000 --format csv >"$T/nv.csv" 2>"$T/err"
[ -z "$(field "$T/nv.csv" vacuum_seconds)" ] && [ "$(field "$T/nv.csv" vacuum)" = off ] &&
	ok stepend/vacuum-off-na || bad stepend/vacuum-off-na "$(cat "$T/nv.csv")"

# --- PostgreSQL: DELETE's WAL is flat across index counts; VACUUM's is not ----------
bindir=$(pg_bindir)
if [ -z "$bindir" ] || [ ${#T} -gt 68 ]; then
	skip stepend/pg-vacuum-bill "no PostgreSQL server binaries, or TMPDIR too long for its socket"
	exit 0
fi
"$IDXLAB" run --engine postgres --op delete --prefill 30000 --rows 20000 --commit 1000 \
	--key-order rand --indexes 0,4 --vacuum --format csv >"$T/pg.csv" 2>"$T/err"
d0=$(field "$T/pg.csv" wal_bytes_per_row 1) d4=$(field "$T/pg.csv" wal_bytes_per_row 2)
v0=$(field "$T/pg.csv" vacuum_wal_bytes_per_row 1) v4=$(field "$T/pg.csv" vacuum_wal_bytes_per_row 2)
# The delete marks heap tuples only: its WAL per row barely moves with 4
# indexes (within 25 %); the VACUUM removes each index's entries: at least 5
# bytes per row per index more.
if num "$d4" '<' "$d0 * 1.25" && num "$v4" '>' "$v0 + 20" && grep -q "vacuumed idxlab_t (VACUUM)" "$T/err"; then
	ok stepend/pg-vacuum-bill
else bad stepend/pg-vacuum-bill "delete WAL/row $d0 -> $d4, vacuum WAL/row $v0 -> $v4: $(tail -5 "$T/err")"; fi
echo "  delete WAL B/row at 0 and 4 indexes: $d0 $d4; VACUUM WAL B/row: $v0 $v4"
