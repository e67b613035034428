#!/bin/sh
# bench/plot.sh - how long --plot takes to draw a 24-step sweep's chart
# (issue 12: <= 0.5 s): the drawing alone, not the sweep, by
# build/bench/plot_time (bench/plot_time.c: the report's own records of 24
# synthetic steps, each format drawn REPS times). Run by `make bench`, which
# sets PLOT_TIME. Optional: REPS (default 10). Reports, never fails the build:
# exit 0 unless plot_time itself failed.
set -u
: "${PLOT_TIME:?set PLOT_TIME to the plot_time binary}"
REPS=${REPS:-10}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out/plot-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
"$PLOT_TIME" "$out" "$REPS" >"$out/times" 2>"$out/log" || { cat "$out/log"; exit 1; }
echo "== --plot benchmark: a 24-step sweep's chart (raw: $out)"
while read -r fmt med max; do
	v=$(awk -v x="$max" 'BEGIN { print (x <= 500) ? "PASS" : "MISS" }')
	printf '  %-52s %10s  target %-8s %s\n' "$fmt: drawn and written, median (slowest) of $REPS" \
		"$med ms ($max)" "<= 500 ms" "$v"
done <"$out/times"
