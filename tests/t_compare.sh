# --compare FILE (issue 21, item 10): a run's steps beside a saved run's,
# every figure's ratio and verdict, in text and in appended CSV/JSON fields;
# steps whose knobs differ are named, not compared; --repeat's spreads
# judge the noise; bad files exit 2 naming the file and line. And
# --duration S (item 13): a step ends at its rows or its time, whichever
# first, and ended_by says which. SQLite, small row counts.
. "$(dirname "$0")/lib.sh"

run() { "$IDXLAB" run --warmup off -q "$@"; }

# ---- --duration ----------------------------------------------------------
run --rows 1e9 --duration 1 --commit 100 --format csv >"$T/d1.csv" 2>"$T/d1.err"
by=$(field "$T/d1.csv" ended_by 1)
secs=$(field "$T/d1.csv" seconds 1)
int=$(field "$T/d1.csv" interrupted 1)
[ "$by" = duration ] && [ "$int" = 0 ] && ok compare/duration-ends-by-time ||
	bad compare/duration-ends-by-time "ended_by='$by' interrupted='$int' ($(head -c 300 "$T/d1.err"))"
is_num "$secs" && check compare/duration-seconds "$secs >= 0.95 && $secs < 1.0 + 5 * $slow" ||
	bad compare/duration-seconds "seconds='$secs'"
run --rows 1000 --duration 60 --format csv >"$T/d2.csv" 2>"$T/d2.err"
by=$(field "$T/d2.csv" ended_by 1)
rows=$(field "$T/d2.csv" rows 1)
[ "$by" = rows ] && [ "$rows" = 1000 ] && ok compare/duration-rows-first ||
	bad compare/duration-rows-first "ended_by='$by' rows='$rows' ($(head -c 300 "$T/d2.err"))"
# the text table's run says it in JSON too, and the knob's value is its field
run --rows 1000 --duration 60 --format json >"$T/d2.json" 2>/dev/null
grep -q '"duration":"60"\|"duration":60' "$T/d2.json" && grep -q '"ended_by":"rows"' "$T/d2.json" &&
	ok compare/duration-json || bad compare/duration-json "$(head -c 300 "$T/d2.json")"
# --scale shrinks a step's time as it does its rows: a preset of 2 s steps
# (pg-commit-shape) is a quick look at 0.1 too
run --rows 1e9 --duration 10 --scale 0.05 --format csv >"$T/d3.csv" 2>"$T/d3.err"
by=$(field "$T/d3.csv" ended_by 1)
secs=$(field "$T/d3.csv" seconds 1)
d=$(field "$T/d3.csv" duration 1)
[ "$by" = duration ] && [ "$d" = 0.5 ] && is_num "$secs" && check compare/duration-scaled "$secs >= 0.45 && $secs < 9" ||
	bad compare/duration-scaled "ended_by='$by' duration='$d' seconds='$secs' ($(head -c 300 "$T/d3.err"))"
# --print-config says the knobs as given (read back, --scale applies once)
# and, in a comment, what the scaled step runs
"$IDXLAB" run -c "$(dirname "$0")/../configs/pg-commit-shape.conf" --scale 0.1 --print-config >"$T/pc.txt" 2>&1
grep -qx 'duration = 2' "$T/pc.txt" && grep -qx 'rows = 1000000' "$T/pc.txt" &&
	grep -qx '# at this --scale the first step runs rows = 100000, duration = 0.2' "$T/pc.txt" &&
	ok compare/print-config-scaled || bad compare/print-config-scaled "$(grep -E 'rows|duration|scale' "$T/pc.txt")"

# Steps that ran for a time: the text table shows the rows each measured,
# and a short one's footnote says to raise the time, not the rows.
run --rows 1e9 --duration 0.3 --indexes 0,2 >"$T/d4.txt" 2>"$T/d4.err"
grep -q '^indexes  *rows  *rows/s' "$T/d4.txt" && grep -q '(short)$' "$T/d4.txt" &&
	tr '\n' ' ' <"$T/d4.txt" | grep -q 'raise *# *--duration (or --scale)' &&
	! grep -q 'raise --rows' "$T/d4.txt" && ok compare/duration-short-says-time ||
	bad compare/duration-short-says-time "$(head -c 600 "$T/d4.txt") $(head -c 200 "$T/d4.err")"
# a time finer than a millisecond would read 0, which is no limit at all
expect_exit compare/duration-too-fine 2 "'0\.0004' is finer than idxlab reads: 0\.001 at the least, or 0" \
	"$IDXLAB" run --rows 100 --duration 0.0004

# ---- the saved runs --------------------------------------------------------
run --rows 2000 --indexes 0,1 --format csv >"$T/a.csv" 2>"$T/a.err" ||
	bad compare/save "$(head -c 300 "$T/a.err")"
run --rows 2000 --indexes 0,1 --format json >"$T/a.json" 2>"$T/a.err" ||
	bad compare/save-json "$(head -c 300 "$T/a.err")"
# what a comparison needs travels with every record
v=$(field "$T/a.csv" idxlab_version 1)
k=$(field "$T/a.csv" kernel 1)
ev=$(field "$T/a.csv" engine_version 1)
[ -n "$v" ] && [ -n "$k" ] && [ -n "$ev" ] && "$IDXLAB" --version | grep -q "$v" &&
	ok compare/provenance || bad compare/provenance "version='$v' kernel='$k' engine='$ev'"

# A saved run compared with itself: every figure within noise.
for f in a.csv a.json; do
	run --compare "$T/$f" --compare-new "$T/$f" >"$T/self.txt" 2>"$T/self.err"
	n=$(grep -c ' (threshold)$\| (short step)$\| (spread)$' "$T/self.txt")
	if grep -q '^compared: 0 better, 0 worse, [1-9][0-9]* within noise, 0 neither' "$T/self.txt" &&
		[ "$n" -ge 10 ] && ! grep -q 'not compared' "$T/self.txt"; then
		ok "compare/self-within-noise-$f"
	else
		bad "compare/self-within-noise-$f" "$n figures: $(head -c 600 "$T/self.txt") $(head -c 200 "$T/self.err")"
	fi
done

# --compare-new in CSV and JSON: the saved steps' records written as a run's
# (their own values), each with the comparison's fields: within noise on
# every figure compared with themselves; the table on stderr (not with -q)
"$IDXLAB" run --warmup off --compare "$T/a.csv" --compare-new "$T/a.csv" --format csv \
	>"$T/self.csv" 2>"$T/selfc.err"
rp=$(field "$T/self.csv" rows_per_s 2) rs=$(field "$T/a.csv" rows_per_s 2)
vr=$(field "$T/self.csv" rows_per_s_vs 2) vd=$(field "$T/self.csv" p99_ms_verdict 2)
vs=$(field "$T/self.csv" vs_step 2)
[ "$(grep -c . "$T/self.csv")" = 3 ] && [ "$rp" = "$rs" ] && [ "$vr" = 1.000 ] &&
	[ "$vd" = "within noise" ] && [ "$vs" = 2 ] && grep -q '^step 2 vs saved step 2' "$T/selfc.err" &&
	ok compare/new-csv || bad compare/new-csv "rows/s '$rp' (saved '$rs'), ratio '$vr', p99 '$vd', vs step '$vs': $(head -c 300 "$T/self.csv") $(head -c 200 "$T/selfc.err")"
run --compare "$T/a.json" --compare-new "$T/a.json" --format json >"$T/self.json" 2>"$T/selfj.err"
nj=$(jq -s '[.[] | select(.record == "step" and .rows_per_s_verdict == "within noise"
	and .wal_bytes_per_row_verdict == "within noise" and (.rows_per_s | type) == "number")] | length' "$T/self.json" 2>/dev/null)
[ "$nj" = 2 ] && [ ! -s "$T/selfj.err" ] && ok compare/new-json ||
	bad compare/new-json "$nj of 2: $(head -c 300 "$T/self.json") $(head -c 200 "$T/selfj.err")"

# The reader is a CSV reader: every field quoted, a quote, a comma and a
# line break inside one (the cpu's, which then differs: named, still
# compared).
if command -v python3 >/dev/null; then
	python3 - "$T/a.csv" "$T/q.csv" 2>"$T/q.py" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
c = rows[0].index("cpu")
for r in rows[1:]:
    r[c] = 'Fast, "new"\nCPU'
csv.writer(open(sys.argv[2], "w", newline=""), quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
PY
	run --compare "$T/q.csv" --compare-new "$T/a.csv" >"$T/q.txt" 2>"$T/q.err"
	grep -q "^step 1 vs saved step 1 (indexes=0): measured apart: cpu '.*' vs 'Fast, \"new\"" "$T/q.txt" &&
		grep -q '^compared: 0 better, 0 worse, [1-9][0-9]* within noise, 0 neither' "$T/q.txt" &&
		ok compare/csv-quoted || bad compare/csv-quoted "$(head -c 500 "$T/q.txt") $(head -c 200 "$T/q.err")"
else
	skip compare/csv-quoted "python3 is not installed"
fi

# A run at another index count: the differing knob is named, nothing compared.
run --rows 2000 --indexes 3 --compare "$T/a.csv" >"$T/other.txt" 2>"$T/other.err"
grep -q '^step 1: not compared: .*indexes 3 vs 0' "$T/other.txt" && ! grep -q '(threshold)$' "$T/other.txt" &&
	ok compare/names-differing-knob ||
	bad compare/names-differing-knob "$(grep -A3 '^compared with' "$T/other.txt" | head -c 400) $(head -c 200 "$T/other.err")"

# The same knobs, in CSV: the step's record carries the match and per figure
# a ratio and a verdict; the figures themselves are the run's own.
run --rows 2000 --indexes 1 --compare "$T/a.csv" --format csv >"$T/same.csv" 2>"$T/same.err"
if command -v python3 >/dev/null; then
	if python3 - "$T/same.csv" "$T/a.csv" >"$T/py.out" 2>&1 <<'PY'; then ok compare/csv-fields; else bad compare/csv-fields "$(head -c 400 "$T/py.out")"; fi
import csv, sys
new = list(csv.DictReader(open(sys.argv[1])))
old = list(csv.DictReader(open(sys.argv[2])))
assert len(new) == 1, new
r = new[0]
assert r["vs_step"] == "2", r["vs_step"]            # the saved step with indexes=1
assert r["vs_noise"] == "short step", r["vs_noise"]  # 2000 rows: well under 1 s
ratio = float(r["rows_per_s_vs"])
want = float(r["rows_per_s"]) / float(old[1]["rows_per_s"])
assert abs(ratio - want) < 0.002 * want, (ratio, want)
assert r["rows_per_s_verdict"] in ("better", "worse", "within noise"), r["rows_per_s_verdict"]
# a figure that is deterministic on SQLite: the same bytes
assert r["index_bytes_verdict"] == "within noise", r["index_bytes_verdict"]
PY
	run --rows 2000 --indexes 5 --compare "$T/a.json" --format json >"$T/no.json" 2>/dev/null
	if python3 - "$T/no.json" >"$T/py.out" 2>&1 <<'PY'; then ok compare/json-unmatched; else bad compare/json-unmatched "$(head -c 400 "$T/py.out")"; fi
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
assert r["vs_step"] is None and r["rows_per_s_vs"] is None and r["rows_per_s_verdict"] is None, r
assert "indexes 5 vs" in r["vs_note"], r["vs_note"]
PY
else
	skip compare/csv-fields "python3 is not installed"
	skip compare/json-unmatched "python3 is not installed"
fi

# A step under a second is judged at 20 %, not 10 % (its rows/s moves by a
# fifth from run to run): the same saved step with rows/s 15 % higher is
# within noise while the steps are short, worse once they took 2 s.
if command -v python3 >/dev/null; then
	python3 - "$T/a.csv" "$T" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
r, s = h.index("rows_per_s"), h.index("seconds")
def write(name, f):
    out = [h] + [f(list(x)) for x in rows[1:]]
    csv.writer(open(sys.argv[2] + "/" + name, "w", newline=""), lineterminator="\n").writerows(out)
def hi(x): x[r] = "%.1f" % (float(x[r]) * 1.15); return x
def slow(x): x[s] = "2.000"; return x
write("hi.csv", hi)
write("long.csv", slow)
write("hilong.csv", lambda x: slow(hi(x)))
PY
	"$IDXLAB" run --compare "$T/hi.csv" --compare-new "$T/a.csv" >"$T/hi.txt" 2>&1
	"$IDXLAB" run --compare "$T/hilong.csv" --compare-new "$T/long.csv" >"$T/hil.txt" 2>&1
	grep -q '^  rows_per_s .* 0\.870  within noise (short step)$' "$T/hi.txt" &&
		grep -q '^  rows_per_s .* 0\.870  worse (threshold)$' "$T/hil.txt" && ok compare/short-step-wider ||
		bad compare/short-step-wider "$(grep rows_per_s "$T/hi.txt" "$T/hil.txt" | head -c 400)"
else
	skip compare/short-step-wider "python3 is not installed"
fi

# --fields: the ratios of the fields chosen, after them
run --rows 2000 --indexes 1 --compare "$T/a.csv" --format csv --fields indexes,rows_per_s >"$T/fl.csv" 2>"$T/fl.err"
[ "$(head -1 "$T/fl.csv")" = "indexes,rows_per_s,vs_step,vs_note,vs_noise,rows_per_s_vs,rows_per_s_verdict" ] &&
	[ "$(field "$T/fl.csv" vs_step 1)" = 2 ] && ok compare/fields ||
	bad compare/fields "$(head -c 300 "$T/fl.csv") $(head -c 200 "$T/fl.err")"

# --repeat 3: the runs' spreads judge the noise (their ranges overlap, or not).
run --rows 1000 --repeat 3 --format csv >"$T/r.csv" 2>"$T/r.err" ||
	bad compare/repeat-save "$(head -c 300 "$T/r.err")"
run --rows 1000 --repeat 3 --compare "$T/r.csv" >"$T/r.txt" 2>"$T/r.err"
grep -q '^step 1 vs saved step 1' "$T/r.txt" && grep -q 'rows_per_s .* (spread)$' "$T/r.txt" &&
	! grep -q '(threshold)$' "$T/r.txt" && ok compare/repeat-spread ||
	bad compare/repeat-spread "$(grep -A6 '^compared with' "$T/r.txt" | head -c 500) $(head -c 200 "$T/r.err")"
run --rows 1000 --repeat 3 --compare "$T/r.csv" --format csv >"$T/r2.csv" 2>/dev/null
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "record") c = i }
	NR > 1 && $c == "step" { print }' "$T/r2.csv" | grep -c ',spread,')" = 1 ] &&
	ok compare/repeat-noise-field || bad compare/repeat-noise-field "$(tail -1 "$T/r2.csv" | head -c 300)"
run --compare "$T/r.csv" --compare-new "$T/r.csv" >"$T/rself.txt" 2>&1
grep -q '^compared: 0 better, 0 worse, [1-9][0-9]* within noise, 0 neither' "$T/rself.txt" &&
	ok compare/repeat-self || bad compare/repeat-self "$(head -c 400 "$T/rself.txt")"

# ---- bad files: exit 2, the file (and line) named, before any run ----------
expect_exit compare/missing-file 2 "nope\.csv" "$IDXLAB" run --rows 100 --compare "$T/nope.csv"
printf 'hello,world\n1,2\n' >"$T/hello.csv"
expect_exit compare/not-idxlab 2 "hello\.csv:1: 'hello' is not a field" \
	"$IDXLAB" run --rows 100 --compare "$T/hello.csv"
# another version's columns: one this idxlab does not write, or one missing
sed '1s/$/,from_the_future/; 2,$s/$/,1/' "$T/a.csv" >"$T/newer.csv"
expect_exit compare/newer-columns 2 "newer\.csv:1: 'from_the_future'" \
	"$IDXLAB" run --rows 100 --compare "$T/newer.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "duration") c = i }
	{ out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out (out == "" ? "" : ",") $i; print out }' \
	"$T/a.csv" >"$T/older.csv"
expect_exit compare/older-columns 2 "older\.csv:1: no field 'duration'" \
	"$IDXLAB" run --rows 100 --compare "$T/older.csv"
# a figure's column missing too: not compared silently without it
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "p99_ms") c = i }
	{ out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out (out == "" ? "" : ",") $i; print out }' \
	"$T/a.csv" >"$T/nop99.csv"
expect_exit compare/figure-missing 2 "nop99\.csv:1: no field 'p99_ms'" \
	"$IDXLAB" run --rows 100 --compare "$T/nop99.csv"
{ head -2 "$T/a.csv"; echo "sqlite,insert,0"; } >"$T/short.csv"
expect_exit compare/short-row 2 "short\.csv:3: 3 fields where the header" \
	"$IDXLAB" run --rows 100 --compare "$T/short.csv"
{ head -1 "$T/a.json"; echo '{"engine": '; } >"$T/broken.json"
expect_exit compare/broken-json 2 "broken\.json:2: not a JSON object" \
	"$IDXLAB" run --rows 100 --compare "$T/broken.json"
: >"$T/empty.csv"
expect_exit compare/empty 2 "empty\.csv: empty" "$IDXLAB" run --rows 100 --compare "$T/empty.csv"
expect_exit compare/new-needs-saved 2 "give --compare" "$IDXLAB" run --compare-new "$T/a.csv"
expect_exit compare/bad-new 2 "compare-new .*hello\.csv:1" \
	"$IDXLAB" run --compare "$T/a.csv" --compare-new "$T/hello.csv"
