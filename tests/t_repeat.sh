#!/bin/sh
# --repeat N: each step N times on a fresh table, the runs interleaved; the
# step's figures the medians of its runs' records, with FIELD_min/FIELD_max
# and runs; the text table's +-% and within-noise lines; range bars on a
# chart; --repeat 1 the output of a run without it; bad values refused.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null; then
	skip repeat/all "python3 is not installed (apt-get install python3)"
	exit 0
fi

# medians FILE N STEPS: the CSV's record=step rows against its record=run
# rows: each step has N runs (run 1..N), the step's runs field is N, every
# figure with a FIELD_min column is the median of its runs' values (the
# mean of the middle two when N is even) and FIELD_min/FIELD_max are their
# extremes; the fields that are not figures are the first run's. Prints
# what differs, exits 1 then.
medians() {
	python3 - "$@" <<'PY'
import csv, sys
path, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(path)))
bad = []
runs = [r for r in rows if r["record"] == "run"]
meds = [r for r in rows if r["record"] == "step"]
if len(meds) != steps or len(runs) != n * steps:
    bad.append(f"{len(meds)} step and {len(runs)} run records, wanted {steps} and {n * steps}")
figures = [k[:-4] for k in rows[0] if k.endswith("_min")]
if "rows_per_s" not in figures or "seconds" not in figures:
    bad.append(f"figures with _min: {figures}")
checked = 0
for m in meds:
    mine = [r for r in runs if r["step"] == m["step"]]
    if sorted(int(r["run"]) for r in mine) != list(range(1, n + 1)):
        bad.append(f"step {m['step']}: runs {[r['run'] for r in mine]}")
    if m["runs"] != str(n) or m["run"] != "":
        bad.append(f"step {m['step']}: runs={m['runs']} run={m['run']!r}")
    for f in figures:
        vals = sorted(float(r[f]) for r in mine if r[f] != "")
        if not vals:
            if m[f] or m[f + "_min"] or m[f + "_max"]:
                bad.append(f"step {m['step']} {f}: no run measured it, step says {m[f]}")
            continue
        if f in ("checkpoint_in_window",):
            want = vals[-1]
        else:
            k = len(vals)
            want = vals[k // 2] if k % 2 else (vals[k // 2 - 1] + vals[k // 2]) / 2
        dec = len(m[f].split(".")[1]) if "." in m[f] else 0
        if abs(float(m[f]) - want) > 0.5 * 10 ** -dec + 1e-9:
            bad.append(f"step {m['step']} {f}: {m[f]}, the runs' median is {want} of {vals}")
        if float(m[f + "_min"]) != vals[0] or float(m[f + "_max"]) != vals[-1]:
            bad.append(f"step {m['step']} {f}: min/max {m[f + '_min']}/{m[f + '_max']}, runs {vals}")
        checked += 1
    for k in ("engine", "indexes", "key_order", "index_pages", "schema"):
        if m[k] != mine[0][k]:
            bad.append(f"step {m['step']} {k}: {m[k]} vs its first run's {mine[0][k]}")
    # a run record has no range of its own
    for r in mine:
        if r["rows_per_s_min"] != "" or r["runs"] != "1":
            bad.append(f"run record with a range: {r['rows_per_s_min']}, runs={r['runs']}")
if checked < steps * 10:
    bad.append(f"only {checked} figures checked")
print("; ".join(bad[:6]))
sys.exit(1 if bad else 0)
PY
}

# ---- medians, min, max, runs ----------------------------------------------
out=""
"$IDXLAB" run --rows 3000 --indexes 0,2 --key-order rand --repeat 3 --format csv \
	>"$T/r3.csv" 2>"$T/r3.err"
rc=$?
if [ $rc = 0 ] && out=$(medians "$T/r3.csv" 3 2); then ok repeat/medians-of-runs
else bad repeat/medians-of-runs "exit $rc: $out $(head -c 300 "$T/r3.err")"; fi
# An even count: the mean of the middle two.
"$IDXLAB" run --rows 2000 --indexes 1 --repeat 4 --format csv >"$T/r4.csv" 2>"$T/r4.err"
rc=$?
if [ $rc = 0 ] && out=$(medians "$T/r4.csv" 4 1); then ok repeat/medians-even
else bad repeat/medians-even "exit $rc: $out $(head -c 300 "$T/r4.err")"; fi

# Interleaved: run 1 of every step, then run 2 of every one...; a step's
# median record comes right after its last run.
order=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s:%s:%s ", $c["record"], $c["step"], $c["run"] }' "$T/r3.csv")
want="run:1:1 run:2:1 run:1:2 run:2:2 run:1:3 step:1: run:2:3 step:2: "
[ "$order" = "$want" ] && ok repeat/interleaved || bad repeat/interleaved "order $order"

# JSON: the same fields, runs a number, n/a run null.
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 --format json >"$T/r.json" 2>"$T/rj.err"
if python3 - "$T/r.json" 2>"$T/py.err" <<'PY'; then ok repeat/json; else bad repeat/json "$(tail -1 "$T/py.err") $(head -c 300 "$T/r.json") $(cat "$T/rj.err")"; fi
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["record"] for r in recs] == ["run", "run", "run", "step", "run", "step"], recs
s = recs[3]
assert s["runs"] == 2 and s["run"] is None and s["step"] == 1, s
vals = sorted(r["rows_per_s"] for r in recs if r["record"] == "run" and r["step"] == 1)
assert s["rows_per_s_min"] == vals[0] and s["rows_per_s_max"] == vals[1], (s, vals)
assert abs(s["rows_per_s"] - (vals[0] + vals[1]) / 2) < 0.051, (s, vals)
# the spreads come last, each figure's _min and _max, in the figures' order
keys = list(recs[0])
last = keys[-1]
assert last.endswith("_max") and last[:-4] in keys and last[:-4] + "_min" in keys, keys[-3:]
assert keys.index("vacuum_wal_bytes_per_row_max") > keys.index("engine_version"), keys[-6:]
PY

# ---- --repeat 1: today's output ---------------------------------------------
"$IDXLAB" run --rows 2000 --indexes 0,1 --format csv >"$T/r0.csv" 2>/dev/null
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 1 --format csv >"$T/r1.csv" 2>"$T/r1.err"
h0=$(head -1 "$T/r0.csv")
h1=$(head -1 "$T/r1.csv")
if [ -n "$h0" ] && [ "$h0" = "$h1" ] && ! printf '%s\n' "$h1" | tr , '\n' | grep -qE '^runs?$|_min$|_max$' &&
	[ "$(wc -l <"$T/r1.csv")" = 3 ] && [ "$(awk -F, 'END { print NF }' "$T/r1.csv")" = "$(printf '%s\n' "$h0" | awk -F, '{ print NF }')" ]; then
	ok repeat/one-run-header-unchanged
else bad repeat/one-run-header-unchanged "$h1 vs $h0"; fi
# The fixed fields of a record (all but the timings) are the same too; a
# failure names each field that differs (step: field: without vs with).
differ() { python3 -c '
import csv, sys
t = ("seconds", "rows_per_s", "_ms", "commits_per_s", "date")
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
if len(a) != len(b) or not a:
    print("%d records against %d" % (len(a), len(b)))
for i, (x, y) in enumerate(zip(a, b)):
    for k, v in x.items():
        if not any(s in k for s in t) and v != y.get(k):
            print("step %d: %s: %s vs %s;" % (i + 1, k, v, y.get(k)), end=" ")' "$1" "$2"; }
d=$(differ "$T/r0.csv" "$T/r1.csv")
[ -z "$d" ] && ok repeat/one-run-same-values || bad repeat/one-run-same-values "$d"
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 1 >"$T/t1.txt" 2>&1
if ! grep -q 'within noise\|median' "$T/t1.txt" && ! grep -q '%' "$T/t1.txt" && grep -q '^ *indexes ' "$T/t1.txt"; then
	ok repeat/one-run-text-plain
else bad repeat/one-run-text-plain "$(cat "$T/t1.txt")"; fi
# --fields may ask for the spread of one run: min = max = the figure.
"$IDXLAB" run --rows 2000 --fields indexes,rows_per_s,rows_per_s_min,rows_per_s_max,runs --format csv \
	>"$T/f1.csv" 2>"$T/f1.err"
if [ "$(head -1 "$T/f1.csv")" = indexes,rows_per_s,rows_per_s_min,rows_per_s_max,runs ] &&
	awk -F, 'NR == 2 { exit !($2 == $3 && $3 == $4 && $5 == 1 && $2 > 0) } END { exit NR != 2 }' "$T/f1.csv"; then
	ok repeat/fields-one-run-spread
else bad repeat/fields-one-run-spread "$(cat "$T/f1.csv" "$T/f1.err")"; fi

# --fields without record or run: the median records only (a run's line
# could not be told from its step's); with run, the runs too.
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 --fields indexes,rows_per_s,runs --format csv \
	>"$T/fm.csv" 2>"$T/fm.err"
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 --fields indexes,run,rows_per_s,runs --format csv \
	>"$T/fr.csv" 2>>"$T/fm.err"
if [ "$(cut -d, -f1,3 "$T/fm.csv" | tr '\n' ' ')" = "indexes,runs 0,2 1,2 " ] &&
	[ "$(cut -d, -f1,2,4 "$T/fr.csv" | tr '\n' ' ')" = "indexes,run,runs 0,1,1 1,1,1 0,2,1 0,,2 1,2,1 1,,2 " ]; then
	ok repeat/fields-runs-told-apart
else bad repeat/fields-runs-told-apart "$(cat "$T/fm.csv" "$T/fr.csv" "$T/fm.err")"; fi

# ---- bad values ---------------------------------------------------------------
expect_exit repeat/zero-exit-2 2 '^idxlab: --repeat: 0 is out of range \(valid: 1\.\.1000\)' "$IDXLAB" run --repeat 0 --rows 10
expect_exit repeat/junk-exit-2 2 "^idxlab: --repeat: 'x' is not a whole number \\(valid: 1\\.\\.1000\\)" "$IDXLAB" run --repeat x --rows 10
expect_exit repeat/negative-exit-2 2 '^idxlab: --repeat: -3 is out of range' "$IDXLAB" run --repeat -3 --rows 10
printf 'rows = 10\nrepeat = 0\n' >"$T/bad.conf"
expect_exit repeat/config-zero-exit-2 2 "bad\.conf:2: repeat" "$IDXLAB" run -c "$T/bad.conf"
expect_exit repeat/not-a-sweep 2 '^idxlab: --repeat: takes one value' "$IDXLAB" run --repeat 2,3 --rows 10
printf 'rows = 10\nrepeat = 2\n' >"$T/good.conf"
"$IDXLAB" --print-config -c "$T/good.conf" >"$T/pc.txt" 2>&1
grep -qx 'repeat = 2' "$T/pc.txt" && ok repeat/config-key || bad repeat/config-key "$(cat "$T/pc.txt")"
"$IDXLAB" --help >"$T/help.txt" 2>&1
grep -q -- '--repeat' "$T/help.txt" && ok repeat/in-help || bad repeat/in-help "$(grep -c . "$T/help.txt") lines"

# ---- text: the medians with +-, within-noise lines ------------------------------
# --fields puts each step's range beside its median: a pair whose rows/s
# ranges overlap has its within-noise line, and only such a pair; fsync/c,
# the same in every run (one commit), never has one.
"$IDXLAB" run --rows 3000 --indexes 0,1,2,3 --repeat 3 \
	--fields indexes,rows_per_s,rows_per_s_min,rows_per_s_max,fsyncs_per_commit >"$T/t3.txt" 2>"$T/t3.err"
rc=$?
if [ $rc = 0 ] && python3 - "$T/t3.txt" <<'PY'; then ok repeat/text-within-noise; else bad repeat/text-within-noise "exit $rc: $(cat "$T/t3.txt" "$T/t3.err")"; fi
import re, sys
lines = open(sys.argv[1]).read().splitlines()
rows = {}
for l in lines:
    m = re.match(r"^\s+(\d+)\s+([\d.]+) (?:±|\+-)([\d.]+)%\s+([\d.]+)\s+([\d.]+)\s+([\d.]+) (?:±|\+-)0%", l)
    if m:
        i, med, pct, lo, hi = int(m[1]), *map(float, m.group(2, 3, 4, 5))
        # the +-%: the larger distance to min or max, in % of the median
        want = 100 * max(med - lo, hi - med) / med
        assert abs(pct - want) <= (0.05 if want < 9.95 else 0.5) + 1e-9, (l, want)
        rows[i] = (lo, hi)
assert sorted(rows) == [0, 1, 2, 3], lines
said = {(int(a), int(b)) for a, b in re.findall(r"^# indexes (\d) and (\d): within noise \(ranges overlap\): rows/s$", "\n".join(lines), re.M)}
want = {(i, i + 1) for i in range(3) if rows[i][0] <= rows[i + 1][1] and rows[i + 1][0] <= rows[i][1]}
assert said == want, (said, want, lines)
assert not any("fsync" in l for l in lines if "within noise" in l), lines
assert any(re.match(r"^# (±|\+-): each figure is the median of its step's 3 runs", l) for l in lines), lines
PY

# The default table: a figure's cell is its median and +-N%.
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 >"$T/t2.txt" 2>"$T/t2.err"
if grep -qE '^ +1 +[0-9.]+ (±|\+-)[0-9.]+% ' "$T/t2.txt" && grep -q "median of its step's 2 runs (the mean of the middle two)" "$T/t2.txt"; then
	ok repeat/text-cells
else bad repeat/text-cells "$(cat "$T/t2.txt" "$T/t2.err")"; fi
LC_ALL=C "$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 >"$T/tc.txt" 2>&1
LC_ALL=C.UTF-8 "$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 >"$T/tu.txt" 2>&1
if grep -q -- '+-' "$T/tc.txt" && ! grep -q '±' "$T/tc.txt" && grep -q '±' "$T/tu.txt"; then
	ok repeat/text-sign-by-locale
else bad repeat/text-sign-by-locale "$(head -4 "$T/tc.txt" "$T/tu.txt")"; fi

# ---- the chart: range bars ----------------------------------------------------
"$IDXLAB" run --rows 2000 --indexes 0,1,2 --repeat 3 --plot "$T/c.svg" --format csv >/dev/null 2>"$T/c.err"
rc=$?
if [ $rc = 0 ] && xmllint --noout "$T/c.svg" 2>"$T/xml.err" &&
	grep -q 'wrote .*c.svg: a sweep chart (x indexes): .* 3 records' "$T/c.err"; then
	ok repeat/chart-svg
else bad repeat/chart-svg "exit $rc: $(cat "$T/c.err" "$T/xml.err" 2>/dev/null | head -5)"; fi
# Bars: 2-wide strokes in the series' colour, none without --repeat.
"$IDXLAB" run --rows 2000 --indexes 0,1,2 --plot "$T/c1.svg" --format csv >/dev/null 2>&1
b3=$(grep -c 'stroke-width:2;' "$T/c.svg" 2>/dev/null)
b1=$(grep -c 'stroke-width:2;' "$T/c1.svg" 2>/dev/null)
check repeat/chart-range-bars "${b3:-0} > ${b1:-0}"
"$IDXLAB" run --rows 2000 --indexes 0,1 --repeat 2 --plot "$T/c.png" --format csv >/dev/null 2>"$T/cp.err"
sz=$(wc -c <"$T/c.png" 2>/dev/null || echo 0)
if [ "$(head -c 4 "$T/c.png" | tail -c 3)" = PNG ] && [ "$sz" -gt 20000 ]; then ok repeat/chart-png
else bad repeat/chart-png "$sz bytes: $(cat "$T/cp.err")"; fi

# ---- warm-up: on by default, once per engine, before run 1 ----------------------
"$IDXLAB" run -v --rows 2000 --indexes 0,1 --repeat 2 --format csv >"$T/w.csv" 2>"$T/w.err"
n=$(grep -cE 'warm-up: step [0-9]* ran (once|its start) unmeasured' "$T/w.err")
[ "$n" = 1 ] && grep -q 'warm-up: step 1 ' "$T/w.err" && ok repeat/warmup-default-once ||
	bad repeat/warmup-default-once "$n warm-ups: $(cat "$T/w.err")"
"$IDXLAB" run --rows 2000 --format csv >/dev/null 2>"$T/w2.err"
! grep -q 'warm-up' "$T/w2.err" && ok repeat/warmup-quiet-without-v || bad repeat/warmup-quiet-without-v "$(cat "$T/w2.err")"
"$IDXLAB" run -v --warmup off --rows 2000 --format csv >/dev/null 2>"$T/w3.err"
! grep -q 'warm-up' "$T/w3.err" && ok repeat/warmup-off || bad repeat/warmup-off "$(cat "$T/w3.err")"

# ---- --interval: the windows of each run, with its run --------------------------
"$IDXLAB" run --rows 100000 --commit 1000 --repeat 2 --interval 0.05 --format csv >"$T/i.csv" 2>"$T/i.err"
ir=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["record"] == "interval" { print $c["run"] }' "$T/i.csv" | sort -u | tr '\n' ' ')
[ "$ir" = "1 2 " ] && ok repeat/interval-records-per-run || bad repeat/interval-records-per-run "runs of interval records: '$ir' $(head -3 "$T/i.err")"

# ---- a stop: the runs done, marked interrupted ------------------------------------
"$IDXLAB" run --rows 1000000 --commit 1000 --indexes 0,1 --repeat 3 --warmup off --format csv \
	>"$T/s.csv" 2>"$T/s.err" &
pid=$!
grep_run() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["record"] == "run" { n++ } END { exit !n }' "$T/s.csv" || ! kill -0 $pid 2>/dev/null; }
poll 300 grep_run || note "no run record after 300 s"
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["record"] == "step" { printf "%s:%s:%s ", $c["step"], $c["runs"], $c["interrupted"] }' "$T/s.csv")
# step 1 had its first run, step 2 was in its first: each reports 1 run
case $rc:$got in
130:"1:1:1 2:1:1 ") ok repeat/stop-reports-runs-done ;;
*) bad repeat/stop-reports-runs-done "exit $rc, steps $got: $(tail -3 "$T/s.err")" ;;
esac

# ---- PostgreSQL: a throwaway server -------------------------------------------------
if [ -z "$(pg_bindir)" ]; then
	skip repeat/pg-medians "no PostgreSQL server installed (apt-get install postgresql)"
else
	"$IDXLAB" run --engine postgres --rows 2000 --indexes 0,1 --repeat 3 --format csv >"$T/pg.csv" 2>"$T/pg.err"
	rc=$?
	if [ $rc = 0 ] && out=$(medians "$T/pg.csv" 3 2); then ok repeat/pg-medians
	else bad repeat/pg-medians "exit $rc: $out $(tail -3 "$T/pg.err")"; fi
fi
