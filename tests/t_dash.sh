# threads
# The dashboard, driven through tmux like a person would: sliders, live
# numbers, keys that build indexes, help, resize, colours, ASCII, quitting.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	skip dash/all "tmux is not installed (apt-get install tmux)"
	exit 0
fi

start main TMPDIR="$TMPDIR" "$IDXLAB" --rows 400000
if wait_for main 'knobs' 3 && cap main | grep -q '>indexes    0' && cap main | grep -q 'cache      2000KiB'; then
	ok dash/sliders
else bad dash/sliders "$(cap main)"; fi
if wait_for main '││rows/s +[0-9]' 5 && wait_for main '││spill/row +[0-9]' 5; then
	ok dash/live-numbers
else bad dash/live-numbers "$(cap main)"; fi
cap main | grep -qE '││idx size +0 B' && ok dash/no-index-yet || bad dash/no-index-yet "$(cap main)"

tm send-keys -t main Right
wait_for main '>indexes    1' 3
tm send-keys -t main Right
if wait_for main '>indexes    2' 3 && wait_for main 'built idxlab_k1 on' 5 && wait_for main 'built idxlab_k2 on' 5; then
	ok dash/keys-build-indexes
else bad dash/keys-build-indexes "$(cap main)"; fi
if wait_for main '[+]1 idx|[+]2 idx' 3; then ok dash/marker-label; else bad dash/marker-label "$(cap main)"; fi
if wait_for main '││idx size +[1-9][0-9.]* [KMG]iB' 6; then ok dash/metrics-react; else bad dash/metrics-react "$(cap main)"; fi

# The help scrolls through every key, knob and metric with its why-line.
tm send-keys -t main '?'
wait_for main 'Keys' 3
knob_seen=0 metric_seen=0 i=0
while [ $i -lt 200 ] && [ $((knob_seen * metric_seen)) = 0 ]; do
	cap main >"$T/help.txt"
	grep -q 'every one is another btree' "$T/help.txt" && knob_seen=1
	grep -q 'dirty pages pushed out' "$T/help.txt" && metric_seen=1
	tm send-keys -t main j
	sleep 0.1
	i=$((i + 1))
done
if [ $knob_seen = 1 ] && [ $metric_seen = 1 ]; then
	ok dash/help-why-lines
else bad dash/help-why-lines "knob $knob_seen metric $metric_seen: $(cat "$T/help.txt")"; fi
tm send-keys -t main Escape
# The help says any other key closes it: q too (a speaker closing the help
# must not end the session); F10 still quits.
# help_closed SESSION: no help on the screen, the knobs back.
help_closed() { ! cap "$1" | grep -q '─ help ─' && cap "$1" | grep -q '─ knobs ─'; }
poll 30 help_closed main # (Escape read alone, not as Alt-? with the next key)
tm send-keys -t main '?'
wait_for main '─ help ─' 3
tm send-keys -t main q
poll 30 help_closed main
if ! cap main | grep -q '─ help ─' && [ ! -s "$T/main.exit" ] && cap main | grep -q '─ knobs ─'; then
	ok dash/help-q-closes
else bad dash/help-q-closes "$(cat "$T/main.exit" 2>/dev/null) $(cap main)"; fi

# Enter types an exact value; a bad one is refused with the valid range.
tm send-keys -t main Down Down Down Enter C-u
tm send-keys -t main BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace '1GiB' Enter
if wait_for main 'cache      1GiB' 3 && wait_for main 'cache 2000KiB . 1GiB' 4; then
	ok dash/enter-exact-value
else bad dash/enter-exact-value "$(cap main)"; fi
rows_flow dash/cache-change-rows-flow main

# W rewrites the table in place, between batches.
tm send-keys -t main W
if wait_for main 'rewrote the database \(VACUUM\)' 10; then ok dash/rewrite; else bad dash/rewrite "$(cap main)"; fi

# At 80x24 the hint line drops whole hints, never help and quit, and cuts none.
tm resize-window -t main -x 80 -y 24
# redrawn: the hint line (it names quit) is the 24th line again
hint_drawn() { tm capture-pane -p -t "$1" | tail -1 | grep -q quit; }
poll 30 hint_drawn main
hint=$(tm capture-pane -p -t main | tail -1)
case "$hint" in
*'? help  q quit') ok dash/hints-fit-80 ;;
*) bad dash/hints-fit-80 "the hint line at 80 columns: '$hint'" ;;
esac
# ... and the title says where whole or not at all ('idxlab's own tem' was cut).
title=$(tm capture-pane -p -t main | head -1)
if printf '%s' "$title" | grep -q "idxlab's" && ! printf '%s' "$title" | grep -q "idxlab's own temp db"; then
	bad dash/title-fits-80 "$title"
else ok dash/title-fits-80; fi
tm resize-window -t main -x 50 -y 12
if wait_for main 'needs a 80x24 terminal' 3; then ok dash/too-small; else bad dash/too-small "$(cap main)"; fi
tm send-keys -t main q
code=$(wait_exit main)
[ "$code" = EXIT=0 ] && ok dash/q-exits-0 || bad dash/q-exits-0 "got '$code'"
if grep -q ' icanon' "$T/main.stty" && grep -q ' echo ' "$T/main.stty"; then
	ok dash/terminal-restored
else bad dash/terminal-restored "$(cat "$T/main.stty")"; fi

# NO_COLOR: attributes, but not one colour escape.
start nocolor NO_COLOR=1 TMPDIR="$TMPDIR" "$IDXLAB" --rows 100000
wait_for nocolor '││rows/s +[0-9]' 5
if tm capture-pane -e -p -t nocolor | grep -qE "$(printf '\033')\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])(;[0-9;]*)?m"; then
	bad dash/no-color "colour escapes: $(tm capture-pane -e -p -t nocolor | head -5 | od -c | head)"
else ok dash/no-color; fi
tm send-keys -t nocolor q
wait_exit nocolor >/dev/null

# --ascii: not one byte outside ASCII on the screen.
start ascii TMPDIR="$TMPDIR" "$IDXLAB" --ascii --rows 400000
wait_for ascii '[|][|]rows/s +[0-9]' 5
sleep 1
n=$(cap ascii | tr -d '\000-\177' | wc -c)
[ "$n" -eq 0 ] && cap ascii | grep -q 'knobs' && ok dash/ascii || bad dash/ascii "$n non-ASCII bytes: $(cap ascii | head -5)"

# b pins a baseline: every metric then shows now/baseline, the title what
# changed since; B unpins it.
if pin ascii && wait_for ascii 'baseline pinned: [0-9.]+[kM]? rows/s over [0-9.]+ s' 3 &&
	wait_for ascii 'now/base \(same knobs\)' 2 && wait_for ascii 'rows/s .* [0-9.]+x[-+ ]' 2; then
	ok dash/baseline-pinned
else bad dash/baseline-pinned "$(cap ascii)"; fi
tm send-keys -t ascii Right
if wait_for ascii 'now/base \(\+1 idx\)' 6 && wait_for ascii 'idx size .* from 0 ' 6; then
	ok dash/baseline-ratios
else bad dash/baseline-ratios "$(cap ascii)"; fi
tm send-keys -t ascii B
if wait_for ascii 'baseline unpinned' 3 && ! cap ascii | grep -q 'now/base ('; then
	ok dash/baseline-unpinned
else bad dash/baseline-unpinned "$(cap ascii)"; fi
tm send-keys -t ascii q
wait_exit ascii >/dev/null

# Every gauge shows its scale, in the metric's unit, after the bar (SQLite's
# default rollback journal: its bytes are called journal); SQLite has no
# row that never applies there (HOT %, FPI B/row: PostgreSQL's;
# dirty %: SQLite keeps no count).
start scale TMPDIR="$TMPDIR" "$IDXLAB" --rows 300000
# (a fast machine writes over a million rows/s: "1.21M" on a "2M" scale;
# a scale under a byte reads "0.5B")
if wait_for scale '││rows/s +[0-9.]+[kM]? ■+ +[0-9.]+[kM] ' 5 &&
	wait_for scale '││fsync/c +[0-9.]+ ■+ +[0-9.]+ ' 3 &&
	wait_for scale '││journal B/row +[0-9.]+ [KM]?i?B ■+ +[0-9.]+[KM]?i?B ' 3; then
	ok dash/scales-shown
else bad dash/scales-shown "$(cap scale)"; fi
if cap scale | grep -qE 'HOT %|FPI B/row|dirty %|n/a'; then
	bad dash/sqlite-rows-apply "$(cap scale)"
else ok dash/sqlite-rows-apply; fi
# A scale never shrinks while a value that needed it is on screen: the
# table starts over every second or two, so db size falls and rises; the
# figure after its bar only ever grows (for two minutes: the sparkline's
# window).
scale_of() { # the db size scale in KiB, from a capture of session $1
	cap "$1" | sed -n 's/.*││db size  .* \([0-9][0-9]*\)\([KMG]\)iB .*/\1 \2/p' |
		awk '{ print $1 * ($2 == "K" ? 1 : $2 == "M" ? 1024 : 1048576) }'
}
# Looked at every half second for ten seconds, and on until the table has
# started over once (a loaded machine takes longer to fill it; up to 90 s).
prev=0 shrank="" fell=0 last_v="" i=0 seen=""
while [ $i -lt 20 ] || { [ $fell = 0 ] && [ $i -lt 180 ]; }; do
	sc=$(scale_of scale)
	v=$(cap scale | sed -n 's/.*││db size  *\([0-9.]*\) MiB.*/\1/p')
	seen="$seen $v/$sc"
	if [ -n "$sc" ]; then
		[ "$sc" -lt "$prev" ] && shrank="$shrank $prev->$sc"
		prev=$sc
	fi
	[ -n "$last_v" ] && [ -n "$v" ] && awk -v a="$v" -v b="$last_v" 'BEGIN { exit !(a < b) }' && fell=1
	last_v=$v
	sleep 0.5
	i=$((i + 1))
done
echo "  db size value/scale KiB:$seen"
if [ -z "$shrank" ] && [ "$prev" -gt 0 ] && [ $fell = 1 ]; then
	ok dash/scale-never-shrinks
else bad dash/scale-never-shrinks "fell $fell, shrank:$shrank; $(cap scale)"; fi
# s pins every scale, says so in the title; again releases them.
tm send-keys -t scale s
if wait_for scale 'scales pinned: every bar' 2 && wait_for scale 'metrics, scales pinned' 2; then
	ok dash/scales-pin-key
else bad dash/scales-pin-key "$(cap scale)"; fi
tm send-keys -t scale s
if wait_for scale 'scales released' 2 && ! cap scale | grep -q 'metrics, scales pinned'; then
	ok dash/scales-release-key
else bad dash/scales-release-key "$(cap scale)"; fi
tm send-keys -t scale q
wait_exit scale >/dev/null

# A ratio to the baseline says better or worse by the metric's good
# direction, readable with NO_COLOR: an index on random keys makes rows/s
# worse (a triangle down after the ratio) and p99 no better.
start ratio NO_COLOR=1 TMPDIR="$TMPDIR" "$IDXLAB" --rows 2000000 --key-order rand
wait_for ratio '││rows/s +[0-9]' 5
sleep $((2 * slow)) # a baseline of two seconds or more
pin ratio 'baseline pinned: [0-9.]+[kM]? rows/s' # (a number: an n/a one is pinned again)
tm send-keys -t ratio Right Right Right Right
if wait_for ratio 'now/base \(\+4 idx\)' 10 && wait_for ratio '││rows/s .* 0\.[0-9]+x▼ ' 15; then
	ok dash/ratio-worse-marked
else bad dash/ratio-worse-marked "$(cap ratio)"; fi
# Every mark agrees with its metric's good direction: below 1x, rows/s and
# commit/s are worse and the costs (latency, I/O per row) better; above
# 1x the other way round.
cap ratio >"$T/ratio.txt"
if awk '/││/ {
		row = $0; sub(/^.*││/, "", row)
		label = substr(row, 1, 13); sub(/ +$/, "", label)
		if (!match(row, /[0-9.]+x(▲|▼)/)) next
		r = substr(row, RSTART, RLENGTH); up = r ~ /▲/; sub(/x.*/, "", r); n++
		more = label == "rows/s" || label == "commit/s"
		if ((r + 0 < 1) == (more ? up : !up)) { print "wrong mark: " $0; bad = 1 }
	} END { exit bad || !n }' "$T/ratio.txt"; then
	ok dash/ratio-direction
else bad dash/ratio-direction "$(cat "$T/ratio.txt")"; fi
tm send-keys -t ratio q
wait_exit ratio >/dev/null

# Ctrl-C: the terminal comes back and the exit code is 130.
start ctrlc TMPDIR="$TMPDIR" "$IDXLAB" --rows 100000
wait_for ctrlc 'knobs' 3
tm send-keys -t ctrlc C-c
code=$(wait_exit ctrlc)
[ "$code" = EXIT=130 ] && grep -q ' icanon' "$T/ctrlc.stty" && ok dash/ctrl-c || bad dash/ctrl-c "got '$code'"

# --demo plays a script: captions, a timed wait, a knob change that waits
# for its index build, a pin, a wait for Space; then the knobs are the
# user's again (Space pauses).
printf '%s\n' '# a test talk' 'rows = 400000' 'say first caption' 'wait 1' 'indexes = 1' \
	'say second caption' 'wait 1.5' 'pin' 'wait key' 'say third caption' 'wait key' \
	'say fourth caption' >"$T/talk.demo"
start demo TMPDIR="$TMPDIR" "$IDXLAB" --demo "$T/talk.demo" --record "$T/talk.rec"
# first_cue SESSION: the first caption and its cue counter on one screen
# (the next cue comes a second later: two captures could straddle it).
first_cue() {
	cap "$1" >"$T/first_cue.txt"
	grep -q '▶ first caption' "$T/first_cue.txt" && grep -q 'demo 1/10  next cue in' "$T/first_cue.txt"
}
if poll 12 first_cue demo; then
	ok dash/demo-caption
else bad dash/demo-caption "$(cat "$T/first_cue.txt")"; fi
if wait_for demo 'built idxlab_k1 on' 8 && wait_for demo '▶ second caption' 3 &&
	wait_for demo 'baseline pinned' 6 && wait_for demo 'Space: next cue' 2; then
	ok dash/demo-knob-pin-wait
else bad dash/demo-knob-pin-wait "$(cap demo)"; fi
sleep 1
if cap demo | grep -q '▶ second caption'; then ok dash/demo-waits-for-key; else bad dash/demo-waits-for-key "$(cap demo)"; fi
tm send-keys -t demo Space
if wait_for demo '▶ third caption' 3; then ok dash/demo-space-next; else bad dash/demo-space-next "$(cap demo)"; fi
# A presenter's clicker: PgUp goes back a caption (the script's knobs
# then: still one index), never a big step of a knob; PgDn is the next cue.
tm send-keys -t demo PgUp
if wait_for demo '▶ second caption' 2 && cap demo | grep -q '>indexes    1 '; then
	ok dash/demo-pgup-moves-nothing
else bad dash/demo-pgup-moves-nothing "$(cap demo)"; fi
i=0
while [ $i -lt 8 ] && ! cap demo | grep -q '^ ▶ third caption'; do
	tm send-keys -t demo PgDn
	poll 3 on_screen demo '^ ▶ third caption'
	i=$((i + 1))
done
tm send-keys -t demo PgDn
if wait_for demo '▶ fourth caption' 3 && wait_for demo 'the demo is over' 2 &&
	cap demo | grep -q '>indexes    1 '; then
	ok dash/demo-pgdn-next
else bad dash/demo-pgdn-next "$(cap demo)"; fi
# After the end Space is still the demo's; D leaves demo mode, then it pauses.
tm send-keys -t demo Space
if wait_for demo 'that was the last cue' 2 && ! cap demo | grep -qE '│ +[0-9.]+s  paused'; then
	tm send-keys -t demo D
	wait_for demo 'left demo mode' 2
	tm send-keys -t demo Space
	if wait_for demo '│ +[0-9.]+s  paused' 3; then ok dash/demo-over-space-pauses; else bad dash/demo-over-space-pauses "$(cap demo)"; fi
else bad dash/demo-over-space-pauses "Space after the end: $(cap demo)"; fi
tm send-keys -t demo q
code=$(wait_exit demo)
[ "$code" = EXIT=0 ] && ok dash/demo-q-exits-0 || bad dash/demo-q-exits-0 "got '$code'"

# --record wrote the session; --replay shows it again with no engine: the
# captions, the index build, the pin, the knobs as they were, then the end.
if cap demo | grep -q "recorded [0-9]* s ([0-9]* lines) to $T/talk.rec" &&
	grep -q '"caption":"second caption"' "$T/talk.rec" && grep -q '"pin":true' "$T/talk.rec"; then
	ok dash/record-written
else bad dash/record-written "$(cap demo) $(head -c 300 "$T/talk.rec")"; fi
start replay TMPDIR="$TMPDIR" "$IDXLAB" --replay "$T/talk.rec"
if wait_for replay 'REPLAY 1x [0-9:]+ / [0-9:]+ sqlite' 3 && wait_for replay '▶ first caption' 3 &&
	wait_for replay 'built idxlab_k1 on' 8 && wait_for replay 'now/base \(same knobs\)' 8 &&
	cap replay | grep -q '>indexes    1'; then
	ok dash/replay-plays
else bad dash/replay-plays "$(cap replay)"; fi
tm send-keys -t replay Enter
if wait_for replay 'a replay shows the knobs as they were recorded' 2; then
	ok dash/replay-knobs-locked
else bad dash/replay-knobs-locked "$(cap replay)"; fi
# > plays it twice as fast: the title says so, the spans double.
tm send-keys -t replay '>'
if wait_for replay 'REPLAY 2x [0-9:]+ / [0-9:]+ sqlite' 2 && wait_for replay 'metrics \(last 2 s \| [0-9]+ s\)' 2; then
	ok dash/replay-faster
else bad dash/replay-faster "$(cap replay)"; fi
if wait_for replay 'the recording is over' 15 && wait_for replay 'REPLAY 2x ([0-9:]+) / \1 sqlite  over' 2; then
	ok dash/replay-over
else bad dash/replay-over "$(cap replay)"; fi
# Sought (tests/t_replay.sh has the details): back to the start, then
# (paused) on to the recorded knob change, where the index build begins;
# played on, its event comes.
# Paused at the start (Space right after Home): at 2x the replay would
# otherwise play past the knob change while the checks below look, and PgDn
# would then find no change after it.
tm send-keys -t replay Home Space
if wait_for replay 'REPLAY 2x 00:00 / [0-9:]+ sqlite' 3 && wait_for replay 'replay paused' 2 &&
	wait_for replay '>indexes    0 ' 2 && ! cap replay | grep -q 'built idxlab_k1'; then
	ok dash/replay-restart
else bad dash/replay-restart "$(cap replay)"; fi
tm send-keys -t replay PgDn
if wait_for replay 'replay at [0-9:]+ / [0-9:]+ \(knob change 1 of [0-9]+\)' 3 &&
	wait_for replay '>indexes    1 ' 2 && tm send-keys -t replay Space &&
	wait_for replay 'built idxlab_k1 on' 4; then
	ok dash/replay-next-change
else bad dash/replay-next-change "$(cap replay)"; fi
tm send-keys -t replay q
code=$(wait_exit replay)
[ "$code" = EXIT=0 ] && ok dash/replay-q-exits-0 || bad dash/replay-q-exits-0 "got '$code'"

# A recording is never overwritten; a file that is no recording is refused
# before the screen; a line cut short stops the replay there, and says so.
start recexists TMPDIR="$TMPDIR" "$IDXLAB" --record "$T/talk.rec"
code=$(wait_exit recexists)
if [ "$code" = EXIT=2 ] && cap recexists | grep -q 'File exists (idxlab overwrites'; then
	ok dash/record-no-overwrite
else bad dash/record-no-overwrite "$code $(cap recexists)"; fi
start notrec TMPDIR="$TMPDIR" "$IDXLAB" --replay "$T/talk.demo"
code=$(wait_exit notrec)
if [ "$code" = EXIT=2 ] && cap notrec | grep -q 'talk.demo:1: not JSON'; then
	ok dash/replay-not-a-recording
else bad dash/replay-not-a-recording "$code $(cap notrec)"; fi
head -n 12 "$T/talk.rec" >"$T/cut.rec"
printf '{"t":9,"ev":"cut sho' >>"$T/cut.rec"
# (A relative name: the events box cuts a long path at its edge.)
start cutrec TMPDIR="$TMPDIR" "$IDXLAB" --replay cut.rec
if wait_for cutrec 'the replay stops here: cut.rec:13: not JSON' 10; then
	ok dash/replay-cut-short
else bad dash/replay-cut-short "$(cap cutrec)"; fi
tm send-keys -t cutrec q
wait_exit cutrec >/dev/null

# A full disk under the recording: it stops, says so, the dashboard goes on,
# and the exit status says the recording is incomplete.
mkdir -p "$T/recfull"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/recfull" 2>/dev/null; then
	start recfull TMPDIR="$TMPDIR" "$IDXLAB" --rows 100000 --record "$T/recfull/a.rec"
	if wait_for recfull 'recording stopped: writing' 20 &&
		wait_for recfull '││rows/s +[0-9]' 3; then
		ok dash/record-disk-full
	else bad dash/record-disk-full "$(cap recfull)"; fi
	tm send-keys -t recfull q
	code=$(wait_exit recfull)
	if [ "$code" = EXIT=1 ] && cap recfull | grep -q 'stopped early' &&
		tail -c 1 "$T/recfull/a.rec" | od -c | grep -q '\\n'; then
		ok dash/record-disk-full-exit
	else bad dash/record-disk-full-exit "$code $(cap recfull)"; fi
	umount "$T/recfull"
else
	skip dash/record-disk-full "needs root and permission to mount a 64 KiB tmpfs"
fi

# A full disk under the dashboard: FAILED, the UI stays. Resuming rebuilds
# the table, and a knob moved meanwhile (the UI thread posts it while the
# worker rebuilds: the request state the worker reads under the lock, which
# TSan checks here) is applied after it. Quitting while failed exits 1 and
# says why once the screen is closed.
mkdir -p "$T/dfull"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=72m tmpfs "$T/dfull" 2>/dev/null; then
	chmod 1777 "$T/dfull"
	start dfull TMPDIR="$T/dfull" "$IDXLAB" --prefill 300000 --indexes 3 "2>$T/dfull.err"
	if wait_for dfull 'FAILED: .*disk full' 60 && cap dfull | grep -q 'knobs'; then
		ok dash/disk-full-shown
	else bad dash/disk-full-shown "$(cap dfull)"; fi
	tm send-keys -t dfull p # the worker paused itself: the first p pauses the dashboard too
	sleep 0.3
	tm send-keys -t dfull p
	if wait_for dfull 'rebuilding the table after the error' 10; then
		tm send-keys -t dfull Right
		if wait_for dfull 'built idxlab_k4 on' 60 && wait_for dfull 'FAILED: .*disk full' 60; then
			ok dash/disk-full-resume-and-knob
		else bad dash/disk-full-resume-and-knob "$(cap dfull)"; fi
	else bad dash/disk-full-resume-and-knob "no rebuild: $(cap dfull)"; fi
	tm send-keys -t dfull q
	code=$(wait_exit dfull)
	if [ "$code" = EXIT=1 ] && grep -q '^idxlab: .*disk full.*free space there' "$T/dfull.err"; then
		ok dash/disk-full-exit-1
	else bad dash/disk-full-exit-1 "got '$code', stderr: $(cat "$T/dfull.err")"; fi
	[ -z "$(ls -A "$T/dfull")" ] && ok dash/disk-full-nothing-left || bad dash/disk-full-nothing-left "$(ls -A "$T/dfull")"
	tm kill-session -t dfull
	umount "$T/dfull"
else
	skip dash/disk-full "needs root and permission to mount a 72 MiB tmpfs"
fi

# A closed terminal (SIGHUP): idxlab stops as on SIGTERM, removes its temp
# dir, writes nothing to the terminal that is gone, and exits 129.
mkdir -p "$T/hup"
start_hup hup TMPDIR="$T/hup" "$IDXLAB" --rows 400000
pid=$(owner_pid "$T/hup/idxlab-sqlite")
wait_for hup '││rows/s +[0-9]' 5
tm kill-session -t hup
if [ -n "$pid" ] && gone "$pid"; then ok dash/sighup-ends; else bad dash/sighup-ends "pid '$pid' still runs"; fi
code=$(wait_exit hup)
[ "$code" = EXIT=129 ] && ok dash/sighup-exit-129 || bad dash/sighup-exit-129 "got '$code'"
[ -z "$(ls -A "$T/hup")" ] && ok dash/sighup-nothing-left || bad dash/sighup-nothing-left "left in $T/hup: $(ls -A "$T/hup")"

# A fresh chart is full width from the start: its time axis covers what
# has been seen (at least 30 s, growing to its window), not a fixed two
# minutes right-aligned. At 160x45 the rows/s sparkline (87 columns) is a
# third full within about 10 s, the presenter's chart (150) half full within
# 15 s; over a fixed window they were after 40 s and 75 s.
# spark_cells SESSION PATTERN: the sparkline glyphs on the first line
# matching PATTERN.
spark_cells() { cap "$1" | grep -m1 -E -- "$2" | grep -o '[▁▂▃▄▅▆▇█]' | wc -l; }
# chart_cells SESSION LINE: the chart's glyphs on screen line LINE.
chart_cells() { cap "$1" | sed -n "$2p" | grep -o '[▁▂▃▄▅▆▇█]' | wc -l; }
# at_least MIN CMD...: CMD's count, read every 0.25 s until it is MIN or
# more (25 s at most).
at_least() {
	min=$1
	shift
	i=0
	while [ $i -lt 100 ] && [ "$("$@")" -lt "$min" ]; do
		sleep 0.25
		i=$((i + 1))
	done
	"$@"
}
start fresh TMPDIR="$TMPDIR" "$IDXLAB" --rows 4000000
tm resize-window -t fresh -x 160 -y 45
wait_for fresh '││rows/s +[0-9]' 5
n=$(at_least 30 spark_cells fresh '││rows/s')
if [ "$n" -ge 30 ] && cap fresh | grep -qE 'metrics \(last 1 s \| [0-9]+ s\)'; then
	ok dash/fresh-sparkline-full-width
else bad dash/fresh-sparkline-full-width "$n sparkline cells: $(cap fresh)"; fi
# At 160x45 the normal view's spare lines go to a chart of rows/s (with
# the knob change marked), not to an empty events box: that stops at 10.
tm send-keys -t fresh Right
if wait_for fresh '^┌─ rows/s over the last [0-9]+ s' 3 && wait_for fresh '[+]1 idx' 6 &&
	[ "$(cap fresh | grep -n '^┌─ events' | cut -d: -f1)" = 33 ]; then
	ok dash/big-terminal-chart
else bad dash/big-terminal-chart "$(cap fresh)"; fi
tm send-keys -t fresh v
wait_for fresh 'rows/s over the last' 3
n=$(at_least 75 chart_cells fresh 39)
[ "$n" -ge 75 ] && ok dash/fresh-chart-full-width || bad dash/fresh-chart-full-width "$n chart cells on the bottom line: $(cap fresh)"
tm send-keys -t fresh q
wait_exit fresh >/dev/null

# The help at 80x24 does not fit: its bottom edge says more follows and how
# to page it, whatever page shows; PgDn and Space page on, PgUp back, End to
# the last page (which says so); none of them closes it, q does.
start hp TMPDIR="$TMPDIR" "$IDXLAB" --rows 4000000
tm resize-window -t hp -x 80 -y 24
wait_for hp '\? help' 5
tm send-keys -t hp '?'
# help_first: the first line the help's bottom edge says it shows ("" none)
help_first() { cap hp | sed -n 's/.*└─ .*lines \([0-9]*\)-[0-9]* of [0-9]*.*/\1/p' | head -1; }
# help_moves OP N: within 3 s the first line shown is OP (-gt, -lt) N
help_moves() {
	i=0
	while [ $i -lt $((30 * slow)) ]; do
		f=$(help_first)
		[ -n "$f" ] && [ "$f" "$1" "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
if wait_for hp '└─ ▼ more  lines 1-[0-9]+ of [0-9]+  PgDn/Space: page' 3; then
	ok dash/help-80-says-more
else bad dash/help-80-says-more "$(cap hp)"; fi
tm send-keys -t hp NPage
if help_moves -gt 1 && p2=$(help_first) && tm send-keys -t hp Space && help_moves -gt "$p2" &&
	cap hp | grep -q '└─ ▼ more .*PgUp: back'; then
	ok dash/help-pgdn-space-page
else bad dash/help-pgdn-space-page "$(cap hp)"; fi
p3=$(help_first)
tm send-keys -t hp PPage
if [ -n "$p3" ] && help_moves -lt "$p3" && cap hp | grep -q '─ help ─'; then
	ok dash/help-pgup-back
else bad dash/help-pgup-back "$(cap hp)"; fi
tm send-keys -t hp End
if wait_for hp '└─ \(end\)  lines [0-9]+-([0-9]+) of \1 ' 3; then
	ok dash/help-end-says-end
else bad dash/help-end-says-end "$(cap hp)"; fi
tm send-keys -t hp q
if wait_for hp '─ knobs ─' 3 && ! cap hp | grep -q '─ help ─' && [ ! -s "$T/hp.exit" ]; then
	ok dash/help-q-still-closes
else bad dash/help-q-still-closes "$(cap hp)"; fi
tm send-keys -t hp q
wait_exit hp >/dev/null

# The selected knob's help line describes the table in force: on a
# --schema-from table, its indexes by column, not the default table's
# k1..kN; cut where a word ends, with an ellipsis.
if ! command -v sqlite3 >/dev/null; then
	skip dash/help-line-own-table "sqlite3 is not installed (apt-get install sqlite3)"
else
	rm -f "$T/app.db"
	sqlite3 "$T/app.db" "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INT, created_at INT, status TEXT);
		CREATE INDEX o_c ON orders(customer_id); CREATE INDEX o_cs ON orders(created_at, status);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
		INSERT INTO orders(customer_id, created_at, status) SELECT i % 50, i, 'ok' FROM n;"
	start own TMPDIR="$TMPDIR" "$IDXLAB" --schema-from app.db:orders --rows 4000000
	if wait_for own '^ indexes: secondary indexes, the first N of the orders table.s 2: \(customer_id\), \(created_at,' 5 &&
		! cap own | grep -q 'k1\.\.kN'; then
		ok dash/help-line-own-table
	else bad dash/help-line-own-table "$(cap own)"; fi
	# At 80 columns: whole words, the ellipsis last, no word cut.
	tm resize-window -t own -x 80 -y 24
	if wait_for own '^ indexes: secondary indexes, the first N .* …$' 3; then
		line=$(cap own | grep '^ indexes: secondary' | sed 's/ …$//')
		full=" indexes: secondary indexes, the first N of the orders table's 2: (customer_id), (created_at, status); every one is another btree each row must enter"
		case "$full" in
		"$line "*) ok dash/help-line-cut-at-a-word ;;
		*) bad dash/help-line-cut-at-a-word "'$line'" ;;
		esac
	else bad dash/help-line-cut-at-a-word "$(cap own)"; fi
	tm send-keys -t own q
	wait_exit own >/dev/null
fi

# TERM=dumb: say to use idxlab run.
start dumb TERM=dumb "$IDXLAB"
code=$(wait_exit dumb)
if [ "$code" = EXIT=1 ] && cap dumb | grep -q 'use `idxlab run`'; then ok dash/term-dumb; else bad dash/term-dumb "$code $(cap dumb)"; fi
no_leftovers dash/temp-dir-removed
