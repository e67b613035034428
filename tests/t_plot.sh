#!/bin/sh
# --plot: charts of headless runs (SVG, PNG, PDF from one drawing), the
# usage errors found before any engine starts, charts over time, and
# `idxlab run --replay FILE` exporting a dashboard recording.
. "$(dirname "$0")/lib.sh"

sweep="--indexes 0,1,2 --key-order seq,rand --rows 2000"

# series_colours SVG: the distinct colours of stroked paths that are not a
# grey (axes, grid, markers are greys; a series is the only colour).
series_colours() {
	grep -o 'stroke:rgb([^)]*)' "$1" | sort -u |
		awk -F'[(),%]+' '!($2 == $3 && $3 == $4)' | wc -l
}
# series_paths SVG: stroked series lines (3.5 wide): a series has one per
# panel with data, and one in the legend.
series_paths() { grep -c 'stroke-width:3.5;' "$1"; }

# ---- a sweep to each format ----------------------------------------------
# shellcheck disable=SC2086
"$IDXLAB" run $sweep --format csv --plot "$T/s.svg" \
	--plot-metrics rows_per_s,p99_ms,wal_bytes_per_row,fsyncs_per_commit >"$T/s.csv" 2>"$T/s.err"
rc=$?
if [ $rc -eq 0 ] && xmllint --noout "$T/s.svg" 2>"$T/xml.err"; then
	ok plot/svg-valid
else bad plot/svg-valid "exit $rc; $(cat "$T/s.err" "$T/xml.err" | tail -5)"; fi
# x = indexes (the first swept knob), a series per key order: 2 series.
n=$(series_colours "$T/s.svg")
[ "$n" = 2 ] && ok plot/svg-two-series || bad plot/svg-two-series "$n series colours: $(grep -o 'stroke:rgb([^)]*)' "$T/s.svg" | sort -u)"
if grep -q "wrote $T/s.svg: a sweep chart (x indexes): 4 panels, 2 series, 6 records" "$T/s.err"; then
	ok plot/summary
else bad plot/summary "$(cat "$T/s.err")"; fi
# 4 panels with data, a legend: 2 x 5 series lines.
n=$(series_paths "$T/s.svg")
[ "$n" = 10 ] && ok plot/svg-series-per-panel || bad plot/svg-series-per-panel "$n series lines"
# The records of the chart are the CSV's: 6 steps there too.
[ "$(($(wc -l <"$T/s.csv") - 1))" = 6 ] && ok plot/csv-still-written || bad plot/csv-still-written "$(cat "$T/s.csv")"

# shellcheck disable=SC2086
"$IDXLAB" run $sweep --plot "$T/s.png" >/dev/null 2>"$T/png.err"
rc=$?
# The default panels: rows/s and p99, then the per-row figures that move.
if grep -qE "wrote $T/s.png: a sweep chart \(x indexes\): [234] panels, 2 series, 6 records" "$T/png.err"; then
	ok plot/default-panels
else bad plot/default-panels "$(cat "$T/png.err")"; fi
# The IHDR: width and height, 4 bytes each, at offset 16.
wh=$(od -An -tu1 -j16 -N8 "$T/s.png" 2>/dev/null | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }')
size=$(wc -c <"$T/s.png" 2>/dev/null || echo 0)
if [ $rc -eq 0 ] && [ "$(head -c 8 "$T/s.png" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] &&
	[ "$wh" = 1600x900 ] && [ "$size" -gt 20000 ] && [ "$size" -lt 3000000 ]; then
	ok plot/png
else bad plot/png "exit $rc, ${wh}, $size bytes; $(tail -3 "$T/png.err")"; fi

# shellcheck disable=SC2086
"$IDXLAB" run $sweep --plot "$T/s.pdf" >/dev/null 2>"$T/pdf.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(head -c 4 "$T/s.pdf")" = %PDF ] &&
	pdfinfo "$T/s.pdf" 2>/dev/null | grep -qE '^Pages: +1$'; then
	ok plot/pdf
else bad plot/pdf "exit $rc; $(tail -3 "$T/pdf.err") $(pdfinfo "$T/s.pdf" 2>&1 | head -3)"; fi

# --plot-metrics: the panels by CSV field name. hot_pct is n/a on SQLite:
# its panel has no line at all (a gap, not a line at 0).
"$IDXLAB" run --indexes 0,1 --key-order seq,rand --rows 2000 --plot "$T/m.svg" \
	--plot-metrics rows_per_s,hot_pct >/dev/null 2>"$T/m.err"
n=$(series_paths "$T/m.svg" 2>/dev/null)
if grep -q '2 panels, 2 series, 4 records' "$T/m.err" && [ "$n" = 4 ]; then
	ok plot/metrics-na-is-a-gap
else bad plot/metrics-na-is-a-gap "$n series lines; $(cat "$T/m.err")"; fi

# pdf_text PDF: the chart's words (cairo keeps them as text in a PDF).
pdf_text() { pdftotext -raw "$1" - 2>/dev/null; }

# ---- panel titles say what, the ticks say the unit -------------------------
"$IDXLAB" run --indexes 0,1 --key-order seq,rand --rows 2000 --plot "$T/u.pdf" \
	--plot-metrics rows_per_s,p99_ms,fsyncs_per_commit,wal_bytes_per_row >/dev/null 2>"$T/u.err"
pdf_text "$T/u.pdf" >"$T/u.txt"
# Titles without a unit ("p99 ms" over ticks in seconds read wrong) ...
if grep -qx 'throughput' "$T/u.txt" && grep -qx 'p99 commit latency' "$T/u.txt" &&
	grep -qx 'fsyncs per commit' "$T/u.txt" && grep -q 'WAL/journal written per row' "$T/u.txt" &&
	! grep -qE '^(rows/s|p99 ms|wal B/row|fsync/c)$' "$T/u.txt"; then
	ok plot/titles-without-units
else bad plot/titles-without-units "$(head -30 "$T/u.txt" | tr '\n' '|')"; fi
# ... and every nonzero tick of a panel with a unit carries it.
if [ "$(grep -cE '^[0-9.]+[kM]? rows/s$' "$T/u.txt")" -ge 2 ] &&
	[ "$(grep -cE '^[0-9.]+ (µs|ms|s)$' "$T/u.txt")" -ge 2 ] &&
	[ "$(grep -cE '^[0-9.]+ (B|KiB)$' "$T/u.txt")" -ge 2 ]; then
	ok plot/ticks-carry-units
else bad plot/ticks-carry-units "$(head -30 "$T/u.txt" | tr '\n' '|')"; fi

# ---- series that coincide stay visible -------------------------------------
# fsyncs/commit is 4 at every step for both key orders (one commit, a
# rollback journal, synchronous=full): the panel says rand is under seq.
if [ "$(grep -c 'rand: same as seq' "$T/u.txt")" -ge 1 ]; then
	ok plot/same-as-noted
else bad plot/same-as-noted "$(head -30 "$T/u.txt" | tr '\n' '|')"; fi

# ---- --plot-x: which swept knob is x ----------------------------------------
"$IDXLAB" run --indexes 0,1 --key-order seq,rand --rows 2000 --plot "$T/x.pdf" --plot-x key-order \
	--plot-metrics rows_per_s >/dev/null 2>"$T/x.err"
# x = key-order (categories), a series per index count; the legend says indexes.
if grep -q "wrote $T/x.pdf: a sweep chart (x key-order): 1 panel, 2 series, 4 records" "$T/x.err" &&
	pdf_text "$T/x.pdf" | grep -qx 'indexes 0 1' && pdf_text "$T/x.pdf" | grep -qx 'seq rand'; then
	ok plot/x-knob
else bad plot/x-knob "$(cat "$T/x.err") $(pdf_text "$T/x.pdf" | tr '\n' '|')"; fi
# With no --plot-x, x is the first swept knob whose values are numbers: an
# engine sweep over index counts draws indexes along x, a line per engine.
"$IDXLAB" run --engine sqlite,wiredtiger --indexes 0,1,2 --rows 2000 --plot "$T/xe.pdf" \
	--plot-metrics rows_per_s >/dev/null 2>"$T/xe.err"
if grep -q "wrote $T/xe.pdf: a sweep chart (x indexes): 1 panel, 2 series, 6 records" "$T/xe.err" &&
	pdf_text "$T/xe.pdf" | grep -qx 'engine sqlite wiredtiger'; then
	ok plot/x-default-numeric-knob
else bad plot/x-default-numeric-knob "$(cat "$T/xe.err") $(pdf_text "$T/xe.pdf" | tr '\n' '|')"; fi
expect_exit plot/x-did-you-mean 2 "--plot-x key-ordr: no such knob \(did you mean key-order\?\); the swept knobs: indexes, key-order" \
	"$IDXLAB" run --indexes 0,1 --key-order seq,rand --rows 100 --plot "$T/x2.svg" --plot-x key-ordr
expect_exit plot/x-not-swept 2 "--plot-x cache: not swept \(it has one value\): the x axis is one of the swept knobs: indexes" \
	"$IDXLAB" run --indexes 0,1 --rows 100 --plot "$T/x2.svg" --plot-x cache
grep -q 'sqlite' "$T/err" && bad plot/x-no-engine "$(cat "$T/err")" || ok plot/x-no-engine
expect_exit plot/x-needs-plot 2 "--plot-x picks the x axis of a --plot chart" \
	"$IDXLAB" run --indexes 0,1 --rows 100 --plot-x indexes
[ ! -e "$T/x2.svg" ] && ok plot/x-nothing-written || bad plot/x-nothing-written "x2.svg exists"

# ---- three swept knobs: labels name=value, a refusal past 12 series --------
"$IDXLAB" run --indexes 0,1 --key-order seq,rand --commit 100,all --rows 2000 --plot "$T/k3.pdf" \
	--plot-metrics rows_per_s,wal_bytes_per_row >/dev/null 2>"$T/k3.err"
pdf_text "$T/k3.pdf" >"$T/k3.txt"
if grep -q "a sweep chart (x indexes): 2 panels, 4 series, 8 records" "$T/k3.err" &&
	grep -q 'key-order=rand commit=100' "$T/k3.txt" && grep -q 'key-order=seq commit=all' "$T/k3.txt" &&
	grep -q 'idxlab: indexes × key-order × commit' "$T/k3.txt"; then
	ok plot/three-knobs-legend
else bad plot/three-knobs-legend "$(cat "$T/k3.err") $(head -8 "$T/k3.txt" | tr '\n' '|')"; fi
expect_exit plot/too-many-series 2 "--plot: 16 series .* \(at most 12\): put the knob with the most values on x, --plot-x key-order \(12 series\)" \
	"$IDXLAB" run --indexes 0,1,2 --key-order seq,rand,few,uuid7 --commit 1,10,100,1000 --rows 100 --plot "$T/k4.svg"
expect_exit plot/too-many-series-no-x 2 "--plot: 32 series .*: sweep fewer knobs at once \(swept: indexes, key-order, cache, commit\)" \
	"$IDXLAB" run --indexes 0,1,2 --key-order seq,rand,few,uuid7 --commit 1,10,100,1000 --cache 1MiB,2MiB --rows 100 --plot "$T/k4.svg"

# ---- --plot-kind: a sweep chart of an --interval run -----------------------
"$IDXLAB" run --indexes 0,1 --rows 20000 --interval 0.05 --plot "$T/ks.svg" --plot-kind sweep \
	--format csv >"$T/ks.csv" 2>"$T/ks.err"
if grep -q "wrote $T/ks.svg: a sweep chart (x indexes): [0-9] panels*, 1 series, 2 records$" "$T/ks.err" &&
	xmllint --noout "$T/ks.svg" 2>/dev/null; then
	ok plot/kind-sweep-of-interval-run
else bad plot/kind-sweep-of-interval-run "$(cat "$T/ks.err")"; fi
expect_exit plot/kind-time-needs-interval 2 "--plot-kind time draws the records over time: give --interval S" \
	"$IDXLAB" run --indexes 0,1 --rows 100 --plot "$T/kt.svg" --plot-kind time
expect_exit plot/kind-did-you-mean 2 "--plot-kind swep: did you mean sweep\? \(valid: auto, sweep, time\)" \
	"$IDXLAB" run --rows 100 --plot "$T/kt.svg" --plot-kind swep
expect_exit plot/x-of-time-chart 2 "--plot-x picks the x axis of a sweep chart; this one is over time \(x in seconds\): add --plot-kind sweep" \
	"$IDXLAB" run --indexes 0,1 --rows 100 --interval 1 --plot "$T/kt.svg" --plot-x indexes

# ---- --plot-theme dark: a dark background, light text ----------------------
"$IDXLAB" run --indexes 0,1 --rows 2000 --plot "$T/dark.png" --plot-theme dark >/dev/null 2>"$T/dark.err"
"$IDXLAB" run --indexes 0,1 --rows 2000 --plot "$T/light.png" >/dev/null 2>&1
# The mean brightness (0..1) of the whole picture (luma of 8-bit grey or
# RGB, alpha ignored): python3 reads the PNG itself (zlib and the five row
# filters), for no imaging tool is installed by make test.
mean() {
	python3 - "$1" <<'PY' 2>/dev/null
import struct, sys, zlib
def mean(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG")
    pos, idat = 8, []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
        raise SystemExit("PNG of depth %d, colour type %d, interlace %d: not read here" % (depth, ctype, interlace))
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    total = 0.0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if ctype in (2, 6):
            total += 0.299 * sum(line[0::bpp]) + 0.587 * sum(line[1::bpp]) + 0.114 * sum(line[2::bpp])
        else:
            total += sum(line[0::bpp])
        prev = line
    return total / (w * h * 255)
print("%.4f" % mean(sys.argv[1]))
PY
}
d=$(mean "$T/dark.png") l=$(mean "$T/light.png")
if [ -n "$d" ] && [ -n "$l" ] && awk -v d="$d" -v l="$l" 'BEGIN { exit !(d < 0.25 && l > 0.75) }'; then
	ok plot/theme-dark
else bad plot/theme-dark "mean brightness dark $d, light $l; $(cat "$T/dark.err")"; fi
expect_exit plot/theme-bad 2 "--plot-theme blue: not a choice \(valid: light, dark\)" \
	"$IDXLAB" run --rows 100 --plot "$T/kt.svg" --plot-theme blue

# ---- usage errors: exit 2 before any engine starts -------------------------
expect_exit plot/bad-extension 2 "--plot $T/x.gif: unknown format '.gif': name the file .svg, .png or .pdf" \
	"$IDXLAB" run --rows 100 --plot "$T/x.gif"
grep -q 'sqlite' "$T/err" && bad plot/bad-extension-no-engine "$(cat "$T/err")" || ok plot/bad-extension-no-engine
expect_exit plot/no-extension 2 "--plot $T/chart: no extension" "$IDXLAB" run --rows 100 --plot "$T/chart"
cp "$T/s.csv" "$T/keep.svg"
expect_exit plot/no-overwrite 2 "the file exists \(idxlab overwrites nothing" \
	"$IDXLAB" run --rows 100 --plot "$T/keep.svg"
cmp -s "$T/s.csv" "$T/keep.svg" && ok plot/no-overwrite-untouched || bad plot/no-overwrite-untouched "changed"
expect_exit plot/unwritable-dir 2 "cannot write in $T/nodir" "$IDXLAB" run --rows 100 --plot "$T/nodir/x.png"
# A dangling symbolic link is a name that exists (the create at the end
# failed on it, after the whole run), a name too long for the file system
# cannot be created: both refused before any engine starts.
ln -s "$T/nowhere.svg" "$T/dangling.svg"
expect_exit plot/dangling-link 2 "--plot $T/dangling.svg: a symbolic link of that name exists" \
	"$IDXLAB" run --rows 20000 --plot "$T/dangling.svg"
grep -q 'sqlite' "$T/err" && bad plot/dangling-link-no-engine "$(cat "$T/err")" || ok plot/dangling-link-no-engine
[ ! -e "$T/nowhere.svg" ] && ok plot/dangling-link-untouched || bad plot/dangling-link-untouched "$T/nowhere.svg made"
long=$(printf '%0300d' 0)
expect_exit plot/name-too-long 2 "--plot $T/$long.png: the name is too long \(304 bytes; at most 255" \
	"$IDXLAB" run --rows 20000 --plot "$T/$long.png"
grep -q 'sqlite' "$T/err" && bad plot/name-too-long-no-engine "$(cat "$T/err")" || ok plot/name-too-long-no-engine
expect_exit plot/unknown-metric 2 "'rows_per_sec' is no metric field \(did you mean rows_per_s\?\)" \
	"$IDXLAB" run --rows 100 --plot "$T/y.svg" --plot-metrics rows_per_sec
expect_exit plot/metrics-need-plot 2 "--plot-metrics picks the panels of a --plot chart" \
	"$IDXLAB" run --rows 100 --plot-metrics rows_per_s
[ ! -e "$T/y.svg" ] && ok plot/nothing-written-on-error || bad plot/nothing-written-on-error "y.svg exists"

# ---- a full disk: exit 1, said, no file left (a PDF was left cut short,
# with exit 0 and "wrote") -------------------------------------------------
mkdir -p "$T/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null; then
	head -c 1048576 /dev/zero >"$T/full/fill" 2>/dev/null
	for ext in pdf png svg; do
		expect_exit "plot/disk-full-$ext" 1 "--plot $T/full/c.$ext: disk full \(ENOSPC\).*the file is removed" \
			"$IDXLAB" run --indexes 0,1 --rows 2000 --plot "$T/full/c.$ext"
		if [ ! -e "$T/full/c.$ext" ] && ! grep -q 'wrote' "$T/err"; then
			ok "plot/disk-full-$ext-nothing-left"
		else bad "plot/disk-full-$ext-nothing-left" "$(ls -l "$T/full") $(cat "$T/err")"; fi
	done
	umount "$T/full"
else
	skip plot/disk-full "needs root and permission to mount a 256 KiB tmpfs"
fi

# ---- over time: an --interval sweep, a marker at the knob change -----------
"$IDXLAB" run --indexes 0,1 --rows 200000 --commit 1000 --interval 0.05 --format csv \
	--plot "$T/i.svg" >"$T/i.csv" 2>"$T/i.err"
rc=$?
recs=$(grep -c ',interval,' "$T/i.csv")
if [ $rc -eq 0 ] && xmllint --noout "$T/i.svg" 2>/dev/null &&
	grep -qE "wrote $T/i.svg: an over-time chart \(the --interval records; --plot-kind sweep draws the steps\): [0-9]+ panels, 1 series, $recs records, 1 knob change$" "$T/i.err"; then
	ok plot/interval-chart
else bad plot/interval-chart "exit $rc, $recs interval records; $(tail -3 "$T/i.err")"; fi

# ---- --replay FILE headless: a recording as interval records ---------------
printf '%s\n' 'rows = 400000' 'say before the index' 'wait 2' 'indexes = 1' 'say one index' 'wait 2' \
	>"$T/talk.demo"
start rec TMPDIR="$TMPDIR" "$IDXLAB" --demo "$T/talk.demo" --record "$T/talk.rec"
wait_for rec 'one index' 15 >/dev/null
wait_for rec 'demo over \(' 5 # (after its last wait: samples after the change)
tm send-keys -t rec q
code=$(wait_exit rec)
if [ "$code" != EXIT=0 ] || [ ! -s "$T/talk.rec" ]; then
	bad plot/replay-recorded "got '$code': $(cap rec)"
else
	ok plot/replay-recorded
	"$IDXLAB" run --replay "$T/talk.rec" --format csv >"$T/r.csv" 2>"$T/r.err"
	rc=$?
	# The rows of the windows add up to the recording's own count, first
	# sample to last; each window's rows/s is its rows over its seconds.
	want=$(python3 -c '
import json, sys
rows = [json.loads(l)["c"]["rows"] for l in open(sys.argv[1]) if "\"c\":" in l]
print(rows[-1] - rows[0])' "$T/talk.rec")
	columns "$T/r.csv" rows seconds rows_per_s record step indexes
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s += $c["rows"] } END { print s }' "$T/r.csv")
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		ok plot/replay-rows-add-up
	else bad plot/replay-rows-add-up "exit $rc: $got rows in the CSV, $want in the recording; $(head -3 "$T/r.err")"; fi
	bad_rate=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ r = $c["rows"] / $c["seconds"]; d = r - $c["rows_per_s"]; if (d < 0) d = -d
		  # seconds is written to 3 decimals
		  if (d > r * 0.0006 / $c["seconds"] + 0.1) print NR ": " $c["rows"] "/" $c["seconds"] " vs " $c["rows_per_s"] }' "$T/r.csv")
	if [ -z "$bad_rate" ] && [ "$(wc -l <"$T/r.csv")" -gt 3 ]; then
		ok plot/replay-rates
	else bad plot/replay-rates "$bad_rate $(head -3 "$T/r.csv")"; fi
	# Every record is an interval; the index change starts step 2.
	if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["record"] != "interval" { exit 1 }
		{ seen[$c["step"] ":" $c["indexes"]] = 1 }
		END { exit !(seen["1:0"] && seen["2:1"]) }' "$T/r.csv"; then
		ok plot/replay-steps
	else bad plot/replay-steps "$(cut -d, -f1-12 "$T/r.csv" | head)"; fi
	"$IDXLAB" run --replay "$T/talk.rec" --format json >"$T/r.json" 2>/dev/null &&
		python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/r.json" &&
		[ "$(wc -l <"$T/r.json")" = "$(($(wc -l <"$T/r.csv") - 1))" ] &&
		ok plot/replay-json || bad plot/replay-json "$(head -2 "$T/r.json")"
	"$IDXLAB" run --replay "$T/talk.rec" >"$T/r.txt" 2>&1
	if grep -q '^ *indexes ' "$T/r.txt" && [ "$(grep -cE '^ +[01] ' "$T/r.txt")" = "$(($(wc -l <"$T/r.csv") - 1))" ]; then
		ok plot/replay-text
	else bad plot/replay-text "$(head -5 "$T/r.txt")"; fi
	"$IDXLAB" run --replay "$T/talk.rec" --plot "$T/r.png" >/dev/null 2>"$T/rp.err"
	if [ "$(head -c 4 "$T/r.png" | tail -c 3)" = PNG ] &&
		grep -q "an over-time chart (the recording's windows): .*, 1 knob change$" "$T/rp.err"; then
		ok plot/replay-plot
	else bad plot/replay-plot "$(cat "$T/rp.err")"; fi
	# A bad line is named FILE:LINE, and nothing is printed before it.
	head -n 12 "$T/talk.rec" >"$T/cut.rec"
	printf '{"t":9,"ev":"cut sho\n' >>"$T/cut.rec"
	expect_exit plot/replay-bad-line 2 "cut.rec:13: not JSON" "$IDXLAB" run --replay "$T/cut.rec" --format csv
	[ ! -s "$T/out" ] && ok plot/replay-bad-line-no-output || bad plot/replay-bad-line-no-output "$(head -2 "$T/out")"
fi
expect_exit plot/replay-not-found 2 "cannot read the recording $T/none.rec" "$IDXLAB" run --replay "$T/none.rec"
expect_exit plot/replay-piped-needs-run 2 "--replay works in the dashboard" "$IDXLAB" --replay "$T/none.rec"

# The dashboard draws no chart: --plot there is a usage error.
start dashplot TMPDIR="$TMPDIR" "$IDXLAB" --plot "$T/d.svg"
code=$(wait_exit dashplot)
if [ "$code" = EXIT=2 ] && cap dashplot | grep -q -- '--plot draws a headless run' && [ ! -e "$T/d.svg" ]; then
	ok plot/dashboard-refuses
else bad plot/dashboard-refuses "$code $(cap dashplot)"; fi
