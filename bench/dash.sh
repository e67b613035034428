#!/bin/sh
# bench/dash.sh - what the dashboard costs, measured in one run:
#  (a) first frame after start;
#  (b) the UI thread's CPU over 30 s at the default refresh (from
#      /proc/PID/task/PID/stat: the main thread is the UI);
#  (c) throughput, dashboard vs headless, same workload (updates of the
#      unindexed column on a fixed-size table, so nothing grows), A/B/A;
#  (d) knob change -> the worker applied it and the screen shows it.
# Needs IDXLAB and tmux. Exits 0 unless something broke.
set -u
: "${IDXLAB:?set IDXLAB}"
command -v tmux >/dev/null || { echo "bench/dash: tmux not installed"; exit 0; }
SECS=${SECS:-30}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out/dash-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
export TMPDIR="$out/tmp"
mkdir -p "$TMPDIR"
SOCK="$out/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPDIR"' EXIT
now() { date +%s.%N; }
cap() { tm capture-pane -p -t d; }
WORK="--op update --prefill 200000 --commit 1000 --sync off --seed 4242"
# idxlab runs pinned to one CPU in both modes, tmux (the terminal that draws
# the dashboard) and this script on the other: the comparison is idxlab's
# own cost, not the terminal emulator's.
PIN=""
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	PIN="taskset -c 1"
	taskset -p -c 0 $$ >/dev/null 2>&1
fi

# (a) first frame
t0=$(now)
tm new-session -d -s d -x 100 -y 30 "$PIN $IDXLAB $WORK"
while ! cap | grep -q 'knobs'; do sleep 0.01; done
first=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
pid=$(pgrep -n -f "^$IDXLAB $WORK")
while ! cap | grep -qE '││rows/s +[0-9]'; do sleep 0.1; done

# (b) UI thread CPU over SECS, and (c) the dashboard's rows/s
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/task/$pid/stat"; }
hz=$(getconf CLK_TCK)
c0=$(ticks)
: >"$out/dash-rates"
i=0
while [ $i -lt "$SECS" ]; do
	sleep 1
	cap | sed -n 's/.*││rows\/s *\([0-9.]*\)\([kM]*\) .*/\1 \2/p' |
		awk '{ m = $2 == "k" ? 1e3 : $2 == "M" ? 1e6 : 1; print $1 * m }' >>"$out/dash-rates"
	i=$((i + 1))
done
c1=$(ticks)
ui_pct=$(awk -v a="$c0" -v b="$c1" -v hz="$hz" -v s="$SECS" 'BEGIN { printf "%.2f", (b - a) / hz / s * 100 }')
dash_rate=$(sort -n "$out/dash-rates" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')

# (d) knob change: sync off -> normal on the selected row list (sync is 7 down
# from indexes). Time until the event log shows the change was applied.
tm send-keys -t d Down Down Down Down Down Down Down
sleep 1
t0=$(now)
tm send-keys -t d Right
while ! cap | grep -q 'sync off . normal'; do sleep 0.01; done
knob=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
tm send-keys -t d q
sleep 1

# headless, same workload, before and after. Rates drift over a run (here
# 44k-64k rows/s from one 2 s window to the next), so compare like with
# like: the median of 1 s interval records over the same stretch of the run
# the dashboard was sampled over (after the first 3 s, for SECS seconds).
head_rate() {
	$PIN "$IDXLAB" run $WORK --rows 100000000 --interval 1 --format csv 2>/dev/null &
	hp=$!
	sleep $((SECS + 4))
	kill -INT $hp 2>/dev/null
	wait $hp 2>/dev/null
}
head_median() {
	awk -F, -v secs="$SECS" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rows_per_s") c = i; if ($i == "record") k = i } next }
		$k == "interval" { n++; if (n > 3 && n <= 3 + secs) print $c }' | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
h1=$(head_rate | head_median)
h2=$(head_rate | head_median)
head=$(awk -v a="$h1" -v b="$h2" 'BEGIN { printf "%.1f", (a + b) / 2 }')
ratio=$(awk -v d="$dash_rate" -v h="$head" 'BEGIN { printf "%.3f", (h > 0) ? d / h : 0 }')

v() { awk -v x="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == ">=") ? x >= t : x <= t; print ok ? "PASS" : "MISS" }'; }
echo "== dashboard benchmark (raw: $out)"
printf '  %-52s %10s  target %-8s %s\n' "first frame after start" "$first s" "<= 0.3 s" "$(v "$first" '<=' 0.3)"
printf '  %-52s %10s  target %-8s %s\n' "UI thread CPU, refresh 250 ms, over $SECS s" "$ui_pct %" "<= 2 %" "$(v "$ui_pct" '<=' 2)"
printf '  %-52s %10s\n' "rows/s in the dashboard (median of the screen)" "$dash_rate"
printf '  %-52s %10s\n' "rows/s headless, same stretch (mean of two medians)" "$head ($h1, $h2)"
printf '  %-52s %10s  target %-8s %s\n' "dashboard / headless throughput" "$ratio" ">= 0.97" "$(v "$ratio" '>=' 0.97)"
printf '  %-52s %10s  target %-8s %s\n' "knob change -> applied and on screen" "$knob s" "<= 0.5 s" "$(v "$knob" '<=' 0.5)"
