# Output formats: the CSV header is the documented contract, JSON lines parse
# with a real parser, n/a is empty/null, sweeps run every combination, interval
# records stream, and a fixed seed writes the same rows every run.
. "$(dirname "$0")/lib.sh"

contract="engine,op,indexes,key_order,pk,cache,commit,sync,journal,rows,seconds,rows_per_s,commits,fsyncs_per_commit,spills_per_row,misses_per_row,wal_bytes_per_row,wchar_per_row,write_bytes_per_row,p50_ms,p99_ms,db_bytes,index_bytes"
"$IDXLAB" run --rows 1000 --indexes 0,1,3 --key-order seq,rand --format csv >"$T/s.csv" 2>"$T/err"
head=$(head -1 "$T/s.csv")
case "$head" in
"$contract"*) ok output/csv-contract ;;
*) bad output/csv-contract "header is $head" ;;
esac
[ "$(wc -l <"$T/s.csv")" -eq 7 ] && ok output/sweep-6-steps || bad output/sweep-6-steps "$(cat "$T/s.csv")"
# The first knob varies slowest.
order=$(awk -F, 'NR > 1 { printf "%s/%s ", $3, $4 }' "$T/s.csv")
[ "$order" = "0/seq 0/rand 1/seq 1/rand 3/seq 3/rand " ] && ok output/sweep-order ||
	bad output/sweep-order "$order"

"$IDXLAB" run --rows 1000 --probes off --format csv >"$T/off.csv" 2>"$T/err"
sp=$(field "$T/off.csv" spills_per_row 1)
fs=$(field "$T/off.csv" fsyncs_per_commit 1)
[ -z "$sp" ] && [ -n "$fs" ] && ok output/csv-na-empty || bad output/csv-na-empty "spills='$sp' fsyncs='$fs'"

if command -v python3 >/dev/null; then
	"$IDXLAB" run --rows 1000 --indexes 0,2 --probes off --format json >"$T/j.json" 2>"$T/err"
	if python3 - "$T/j.json" <<'PY'; then ok output/json-lines; else bad output/json-lines "$(cat "$T/j.json")"; fi
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 2, recs
r = recs[1]
assert r["indexes"] == 2 and r["rows"] == 1000 and r["record"] == "step"
assert r["spills_per_row"] is None, r          # n/a is null, never 0
assert isinstance(r["rows_per_s"], float) and r["rows_per_s"] > 0
assert r["index_bytes"] > 0 and r["commit"] == "all"
PY
else
	skip output/json-lines "python3 is not installed"
fi

# A fixed seed writes the same rows: same sizes; another seed differs in values only.
"$IDXLAB" run --rows 20000 --indexes 2 --key-order rand --seed 7 --format csv >"$T/r1.csv" 2>/dev/null
"$IDXLAB" run --rows 20000 --indexes 2 --key-order rand --seed 7 --format csv >"$T/r2.csv" 2>/dev/null
a=$(field "$T/r1.csv" index_pages 1)
b=$(field "$T/r2.csv" index_pages 1)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$(field "$T/r1.csv" db_bytes 1)" = "$(field "$T/r2.csv" db_bytes 1)" ] &&
	ok output/seed-repeatable || bad output/seed-repeatable "$a vs $b"
# The rows themselves, kept in --dsn files: the same for one seed, others
# for another (sizes alike could not tell an ignored --seed).
for s in 7 7b 8; do
	"$IDXLAB" run --rows 2000 --indexes 2 --key-order rand --seed "${s%b}" --dsn "$T/seed$s.db" \
		--format csv >/dev/null 2>>"$T/seed.err"
done
table_sum() { sqlite3 "$1" 'SELECT count(*) FROM idxlab_t; SELECT * FROM idxlab_t ORDER BY id' 2>&1 | sha256sum | cut -c1-16; }
s7=$(table_sum "$T/seed7.db") s7b=$(table_sum "$T/seed7b.db") s8=$(table_sum "$T/seed8.db")
[ "$(sqlite3 "$T/seed7.db" 'SELECT count(*) FROM idxlab_t' 2>&1)" = 2000 ] && [ "$s7" = "$s7b" ] &&
	ok output/seed-same-rows || bad output/seed-same-rows "seed 7 twice: $s7 vs $s7b; $(cat "$T/seed.err")"
[ -n "$s8" ] && [ "$s8" != "$s7" ] && [ "$(sqlite3 "$T/seed8.db" 'SELECT count(*) FROM idxlab_t' 2>&1)" = 2000 ] &&
	ok output/seed-other-differs || bad output/seed-other-differs "seed 7 and seed 8 wrote the same table ($s7): --seed is not used"

# Text output: settings lines, a header, one row per step.
"$IDXLAB" run --rows 1000 --indexes 0,1 >"$T/t.txt" 2>"$T/err"
# Steps under a second say so: their rows/s is noisy.
if head -1 "$T/t.txt" | grep -q '^# engine=sqlite' && grep -v '^#' "$T/t.txt" | head -1 | grep -q 'spill/row' &&
	[ "$(grep -vc '^#' "$T/t.txt")" -eq 3 ] && [ "$(grep -c ' (short)$' "$T/t.txt")" -eq 2 ] &&
	grep -q '^# short: under 1 s' "$T/t.txt"; then
	ok output/text-table
else bad output/text-table "$(cat "$T/t.txt")"; fi
# write() bytes are the engine's, not idxlab's own output: in one big
# transaction with a cache that holds it, SQLite writes nothing until the
# commit, so the interval records in between (printed while the step runs,
# each itself a write of some 300 bytes) must show 0 write() bytes per row.
# (no warm-up: after one the inserts fill the cache so fast that the step is
# nearly all its commit, and few interval records fall inside the transaction;
# 300,000 rows of 1,000 bytes: 15,000 of 20,000 bytes went into the cache in
# 0.24 s on an idle machine, 2 records inside, where 3 are wanted; these
# take ~0.5 s, 8 records inside)
"$IDXLAB" run --warmup off --commit all --cache 1GiB --payload 1000 --rows 300000 --interval 0.05 --format csv \
	>"$T/iv.csv" 2>"$T/err" || bad output/wchar-run "$(cat "$T/err")"
columns "$T/iv.csv" wchar_per_row record
mid=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "wchar_per_row") w = i; if ($i == "record") r = i } next }
	$r == "interval" { v[++n] = $w } END { for (i = 2; i < n; i++) printf "%s ", v[i] }' "$T/iv.csv")
echo "  write() B/row of the interval records inside the transaction: $mid"
if [ "$(echo "$mid" | wc -w)" -ge 3 ] && [ -z "$(echo "$mid" | tr ' ' '\n' | grep -v '^0\.0$' | grep .)" ]; then
	ok output/wchar-excludes-own-output
else bad output/wchar-excludes-own-output "interval wchar_per_row: '$mid'"; fi
# A sweep over engines: each engine opens in turn, its rows say which, and
# each measures what it can (WiredTiger counts checkpoints, SQLite cannot).
"$IDXLAB" run -v --engine sqlite,wiredtiger --indexes 0,1 --rows 2000 --format csv >"$T/eng.csv" 2>"$T/err"
engines=$(awk -F, 'NR > 1 { printf "%s ", $1 }' "$T/eng.csv")
if [ "$engines" = "sqlite sqlite wiredtiger wiredtiger " ] &&
	[ -z "$(field "$T/eng.csv" checkpoint_in_window 1)" ] &&
	[ -n "$(field "$T/eng.csv" checkpoint_in_window 3)" ] && grep -q 'wiredtiger: closed' "$T/err"; then
	ok output/engine-sweep
else bad output/engine-sweep "engines '$engines': $(cat "$T/err")"; fi
# The text settings lines name only what every step shares: the cache, whose
# default differs by engine, is a column of such a sweep, not cache=256MiB.
"$IDXLAB" run --engine wiredtiger,sqlite --rows 2000 >"$T/eng.txt" 2>"$T/err"
if ! grep -q '^#.*cache=' "$T/eng.txt" && grep -v '^#' "$T/eng.txt" | head -1 | grep -q '^ *engine *cache ' &&
	grep -q '^ *wiredtiger *256MiB ' "$T/eng.txt" && grep -q '^ *sqlite *2000KiB ' "$T/eng.txt"; then
	ok output/engine-sweep-text-cache-column
else bad output/engine-sweep-text-cache-column "$(cat "$T/eng.txt")"; fi
expect_exit output/engine-sweep-one-dsn 2 'names one database, but the sweep has 2 engines' \
	"$IDXLAB" run --engine sqlite,wiredtiger --dsn "$T/x.db" --rows 10
no_leftovers output/temp-dir-removed
