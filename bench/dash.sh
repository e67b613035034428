#!/bin/sh
# bench/dash.sh - what the dashboard costs, measured in one run:
#  (a) first frame after start;
#  (b) the UI thread's CPU over 30 s at the default refresh (from
#      /proc/PID/task/PID/stat: the main thread is the UI);
#  (c) throughput, dashboard vs headless, same workload (updates of the
#      unindexed column on a fixed-size table, so nothing grows), A/B/A,
#      on each engine (ENGINES: SQLite, WiredTiger, PostgreSQL, MongoDB
#      when a server answers);
#  (d) knob change -> the worker applied it and the screen shows it;
#  (e) the presenter view at 160x45 and 10 fps (--presenter --refresh 100):
#      first frame (the chart's box) and the UI thread's CPU over SECS.
# Needs IDXLAB and tmux. Exits 0 unless something broke. THROUGHPUT=0
# skips (c), the long part.
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

# (b) UI thread CPU over SECS
ticks() { awk '{ print $14 + $15 }' "/proc/$1/task/$1/stat"; }
proc_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
c0=$(ticks "$pid")
sleep "$SECS"
c1=$(ticks "$pid")
ui_pct=$(awk -v a="$c0" -v b="$c1" -v hz="$hz" -v s="$SECS" 'BEGIN { printf "%.2f", (b - a) / hz / s * 100 }')

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

# (e) the presenter view: big digits, the chart, 10 frames a second.
t0=$(now)
tm new-session -d -s d -x 160 -y 45 "$PIN $IDXLAB $WORK --presenter --refresh 100"
while ! cap | grep -q 'over the last'; do sleep 0.01; done
pfirst=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
pid=$(pgrep -n -f "^$IDXLAB $WORK --presenter")
while ! cap | grep -qE '^ rows/s'; do sleep 0.1; done
sleep 2
c0=$(ticks "$pid")
sleep "$SECS"
c1=$(ticks "$pid")
pui_pct=$(awk -v a="$c0" -v b="$c1" -v hz="$hz" -v s="$SECS" 'BEGIN { printf "%.2f", (b - a) / hz / s * 100 }')
tm send-keys -t d q
while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done

# (c) throughput, dashboard vs headless, on each engine built here
# (ENGINES; MongoDB is skipped, loudly, when no server answers). Like with
# like: both sides are timed the same way, over the same stretch of the
# same knobs - the first TSECS seconds after the table is ready (its rows
# begin) - from idxlab's own counts, not off the screen:
#   headless   `run ... --duration TSECS`, no --interval (the cheapest
#              headless run: no record mid-step), its step's rows_per_s;
#   dashboard  the same knobs with --record: the rows of the first sample
#              TSECS s after the state became running (no row done yet),
#              over that time.
# (Before: headless --interval 1, whose own mid-step samples cost PostgreSQL
# ~10 % of its rows, against the dashboard read off the screen a second at
# a time after a 2 s wait: neither the same cost nor the same stretch.)
# The machine is shared and load drifts, so the sides alternate (H D H D ...
# H, REPS dashboard runs) and each dashboard run is divided by the mean of
# the headless runs either side of it: the ratio printed is the median of
# those pairs, with their middle half (quartiles) beside it; the load
# average is printed with each engine. WiredTiger's headless runs alone
# swing +-6 % from one to the next on this machine kind (its eviction
# threads share the pinned CPU): 4 pairs read 0.962 one day, 10 pairs of
# 8 s 0.993 the same day (2026-12-07), so 8 pairs of 10 s by default.
REPS=${REPS:-8}
TSECS=${TSECS:-10}
ENGINES=${ENGINES:-sqlite wiredtiger postgres mongo}
# quant Q: the Q-quantile (0..1) of the numbers on stdin, interpolated
quant() { sort -n | awk -v q="$1" '{ v[NR] = $1 } END { if (!NR) { print 0; exit } p = 1 + q * (NR - 1); i = int(p)
	print (i < NR) ? v[i] + (p - i) * (v[i + 1] - v[i]) : v[NR] }'; }
# One headless run of $work for TSECS s: prints its step's rows/s. In a
# tmux pane as the dashboard is (its own session, a terminal, the same
# pinning): the two sides differ by the dashboard alone.
head_run() {
	csv="$out/head.csv"
	tm new-session -d -s h -x 100 -y 30 \
		"$PIN $IDXLAB run $work --rows 1000000000 --duration $TSECS --warmup off --format csv >$csv 2>$out/head.err"
	while tm has-session -t h 2>/dev/null; do sleep 0.2; done
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rows_per_s") c = i; if ($i == "record") k = i } next }
		$k == "step" { print $c }' "$csv"
}
# One dashboard run of $work, recorded: prints its rows/s over the first
# TSECS s after the table was ready.
dash_run() {
	rec="$out/dash.rec"
	rm -f "$rec"
	tm new-session -d -s d -x 100 -y 30 "$PIN $IDXLAB $work --record $rec"
	dp=""
	t_end=$(($(date +%s) + TSECS + 120))
	while :; do
		# from the moment the table was ready (the state became running,
		# no row done yet) to the first sample TSECS s later
		r=$(jq -rs --argjson d "$TSECS" '[.[] | select(.state == "running" and .c.rows != null)] as $s
			| if ($s | length) == 0 then empty else $s[0].activity_t as $t0
			| [$s[] | select(.c.t >= $t0 + $d)] | if length == 0 then empty
			  else .[0] | .c.rows / (.c.t - $t0) end end' "$rec" 2>/dev/null)
		[ -n "$r" ] && break
		[ -n "$dp" ] || dp=$(pgrep -n -f "^$IDXLAB $work --record")
		[ "$(date +%s)" -lt "$t_end" ] || { r=0; break; }
		sleep 0.2
	done
	tm send-keys -t d q
	while [ -n "$dp" ] && kill -0 "$dp" 2>/dev/null; do sleep 0.1; done
	printf '%.1f\n' "$r"
}
# engine_throughput E: the alternating runs on engine E; its lines go to
# $out/through (printed below with the rest). Skips an engine that cannot
# run here (not built, no server), and says so.
engine_throughput() {
	e=$1
	work="$WORK --engine $e"
	if ! "$IDXLAB" run --engine "$e" --rows 100 --format csv >/dev/null 2>"$out/$e.check"; then
		printf '  %-52s %10s  (%s)\n' "dashboard / headless throughput, $e" "SKIPPED" \
			"$(head -c 120 "$out/$e.check" | tr '\n' ' ')" >>"$out/through"
		return
	fi
	load0=$(cut -d' ' -f1 /proc/loadavg)
	: >"$out/$e-head" && : >"$out/$e-dash"
	h=$(head_run)
	echo "$h" >>"$out/$e-head"
	rep=0
	while [ $rep -lt "$REPS" ]; do
		d=$(dash_run)
		h2=$(head_run)
		echo "$d" >>"$out/$e-dash"
		echo "$h2" >>"$out/$e-head"
		awk -v d="$d" -v a="$h" -v b="$h2" 'BEGIN { printf "%.4f\n", (a + b > 0) ? 2 * d / (a + b) : 0 }' >>"$out/$e-pairs"
		h=$h2
		rep=$((rep + 1))
	done
	load1=$(cut -d' ' -f1 /proc/loadavg)
	ratio=$(quant 0.5 <"$out/$e-pairs" | awk '{ printf "%.3f", $1 }')
	iqr=$(printf '%.3f-%.3f' "$(quant 0.25 <"$out/$e-pairs")" "$(quant 0.75 <"$out/$e-pairs")")
	{
		printf '  %-52s %s\n' "$e: rows/s in the dashboard, each of $REPS x $TSECS s" "$(tr '\n' ' ' <"$out/$e-dash")"
		printf '  %-52s %s\n' "$e: rows/s headless, each of $((REPS + 1)) x $TSECS s" "$(tr '\n' ' ' <"$out/$e-head")"
		printf '  %-52s %s\n' "$e: dashboard / its neighbours' mean, each" "$(tr '\n' ' ' <"$out/$e-pairs")"
		printf '  %-52s %10s  target %-8s %s  (middle half %s; load %s -> %s)\n' "dashboard / headless throughput, $e" "$ratio" ">= 0.97" "$(v "$ratio" '>=' 0.97)" "$iqr" "$load0" "$load1"
	} >>"$out/through"
}
v() { awk -v x="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == ">=") ? x >= t : x <= t; print ok ? "PASS" : "MISS" }'; }
: >"$out/through"
if [ "${THROUGHPUT:-1}" != 0 ]; then
	for e in $ENGINES; do engine_throughput "$e"; done
fi
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== dashboard benchmark (raw: $out; load average after: $load)"
printf '  %-52s %10s  target %-8s %s\n' "first frame after start" "$first s" "<= 0.3 s" "$(v "$first" '<=' 0.3)"
printf '  %-52s %10s  target %-8s %s\n' "UI thread CPU, refresh 250 ms, over $SECS s" "$ui_pct %" "<= 2 %" "$(v "$ui_pct" '<=' 2)"
cat "$out/through"
printf '  %-52s %10s  target %-8s %s\n' "knob change -> applied and on screen" "$knob s" "<= 0.5 s" "$(v "$knob" '<=' 0.5)"
printf '  %-52s %10s  target %-8s %s\n' "presenter view 160x45: first frame" "$pfirst s" "<= 0.3 s" "$(v "$pfirst" '<=' 0.3)"
printf '  %-52s %10s  target %-8s %s\n' "presenter view UI thread CPU, 10 fps, over $SECS s" "$pui_pct %" "<= 2 %" "$(v "$pui_pct" '<=' 2)"
