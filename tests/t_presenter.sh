# threads
# The presenter view and the keys of a talk, driven through tmux: big
# digits at 80x24, 100x30 and 160x45 (and in ASCII), the caption on a line
# of its own while an index builds, demo keys that never move a knob (after
# the demo's end too, until D), panels hidden and shown, the themes.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	skip presenter/all "tmux is not installed (apt-get install tmux)"
	exit 0
fi

# --presenter-metrics takes a comma list of field names (not a sweep).
if "$IDXLAB" --presenter-metrics rows_per_s,p99_ms --print-config 2>&1 |
	grep -qx 'presenter-metrics = rows_per_s,p99_ms'; then
	ok presenter/metrics-list
else bad presenter/metrics-list "$("$IDXLAB" --presenter-metrics rows_per_s,p99_ms --print-config 2>&1 | tail -3)"; fi
expect_exit presenter/metrics-unknown 2 "'nope' is not a metric" "$IDXLAB" --presenter-metrics rows_per_s,nope --print-config

# big_rows SESSION GLYPHS: how many screen lines hold a run of three block
# glyphs (a big digit's rows), GLYPHS a bracket expression.
big_rows() { cap "$1" | grep -cE "$2{3}"; }
# title SESSION: the title line.
title() { cap "$1" | head -1; }
# hint_drawn SESSION: the hint line (it names quit) is the last line, as it
# is once a resize is redrawn (tmux cuts or pads the old screen at once).
hint_drawn() { cap "$1" | tail -1 | grep -q quit; }
# digits_drawn SESSION: $want lines of $glyphs, and the hint line last.
digits_drawn() { [ "$(big_rows "$1" "$glyphs")" -ge "$want" ] && hint_drawn "$1"; }

start pres TMPDIR="$TMPDIR" "$IDXLAB" --presenter --rows 400000
for size in 80x24 100x30 160x45; do
	tm resize-window -t pres -x "${size%x*}" -y "${size#*x}"
	wait_for pres '^ rows/s' 5
	case $size in
	80x24) want=3 glyphs='[▀▄█]' ;; # two pixel rows to a cell
	100x30) want=5 glyphs='█' ;;
	*) want=10 glyphs='█' ;;
	esac
	poll 30 digits_drawn pres
	n=$(big_rows pres "$glyphs")
	if [ "$n" -ge "$want" ] && cap pres | grep -q 'rows/s over the last' &&
		cap pres | grep -qE '^ engine sqlite +indexes 0'; then
		ok "presenter/big-digits-$size"
	else bad "presenter/big-digits-$size" "$n lines of $glyphs, want $want: $(cap pres)"; fi
	# (no path at all: the temp one is under $TMPDIR, and cut at the edge)
	if title pres | grep -q 'rows in table' && ! title pres | grep -q /; then
		ok "presenter/no-temp-path-$size"
	else bad "presenter/no-temp-path-$size" "$(title pres)"; fi
	# the key back to the normal view stays on the hint line, beside help and quit
	if cap pres | tail -1 | grep -q ' v [a-z].*? help  q quit'; then
		ok "presenter/hint-v-kept-$size"
	else bad "presenter/hint-v-kept-$size" "$(cap pres | tail -1)"; fi
done
title pres | grep -q "own temp db" && ok presenter/title-says-own-db || bad presenter/title-says-own-db "$(title pres)"
# A knob change is marked on the chart, labelled.
tm send-keys -t pres v Right v
if wait_for pres '^ engine sqlite +indexes 1' 6 && wait_for pres '[+]1 idx' 4; then
	ok presenter/chart-marker-label
else bad presenter/chart-marker-label "$(cap pres)"; fi
# s pins the scales: the chart's title says so, as the metrics panel's does.
tm send-keys -t pres s
if wait_for pres 'rows/s over the last [0-9]+ s, scale pinned' 3; then
	ok presenter/chart-says-scale-pinned
else bad presenter/chart-says-scale-pinned "$(cap pres | sed -n '/over the last/p')"; fi
tm send-keys -t pres q
wait_exit pres >/dev/null

# --ascii: '#' blocks, not one byte outside ASCII.
start presa TMPDIR="$TMPDIR" "$IDXLAB" --presenter --ascii --rows 400000
wait_for presa '^ rows/s' 5
want=5 glyphs='#'
poll 30 digits_drawn presa
n=$(cap presa | tr -d '\000-\177' | wc -c)
if [ "$n" -eq 0 ] && [ "$(big_rows presa '#')" -ge 5 ]; then
	ok presenter/ascii-blocks
else bad presenter/ascii-blocks "$n non-ASCII bytes: $(cap presa)"; fi
tm send-keys -t presa q
wait_exit presa >/dev/null

# The caption keeps its lines while an index build has the status line.
printf '%s\n' 'rows = 3000000' 'prefill = 1000000' 'commit = 100000' \
	'say three indexes on a million rows: watch the status line' 'wait 2' 'indexes = 3' \
	'say done' \
	>"$T/build.demo"
for view in presenter normal; do
	opt=""
	[ $view = presenter ] && opt=--presenter
	start "b$view" TMPDIR="$TMPDIR" "$IDXLAB" $opt --demo "$T/build.demo"
	[ $view = presenter ] && tm resize-window -t "b$view" -x 160 -y 45
	if wait_for "b$view" 'building idxlab_k1' 60 && cap "b$view" | grep -q '^ ▶ three indexes on a million rows'; then
		ok "presenter/caption-during-index-build-$view"
	else bad "presenter/caption-during-index-build-$view" "$(cap "b$view")"; fi
	tm send-keys -t "b$view" q
	wait_exit "b$view" >/dev/null
done

# Demo keys: after the demo's last cue, a clicker's keys move no knob, and
# b pins no baseline (it blanks the screen but for the caption); D leaves
# demo mode, and then Right moves the selected knob again.
printf '%s\n' 'rows = 400000' 'say the only caption' >"$T/end.demo"
start dend TMPDIR="$TMPDIR" "$IDXLAB" --demo "$T/end.demo"
wait_for dend 'the demo is over' 5
wait_for dend '││rows/s +[0-9]' 5
# At 80 columns the demo-over line still names D, the key that gives the
# keys back, beside help and quit.
tm resize-window -t dend -x 80 -y 24
poll 30 hint_drawn dend
if cap dend | tail -1 | grep -q 'demo over.*D[: ].*? help  q quit'; then
	ok presenter/demo-over-names-D-at-80
else bad presenter/demo-over-names-D-at-80 "$(cap dend | tail -1)"; fi
tm resize-window -t dend -x 100 -y 30
poll 30 hint_drawn dend
knobs() { cap dend | sed -n '2,17p' | cut -c1-32; }
before=$(knobs)
for k in PgDn Right Down Left Up PgUp Space; do
	tm send-keys -t dend "$k"
	sleep 0.2
done
sleep $((slow))
after=$(knobs)
if [ "$before" = "$after" ] && printf '%s\n' "$after" | grep -q '>indexes    0' &&
	cap dend | grep -q 'that was the last cue'; then
	ok presenter/demo-keys-after-end-move-no-knob
else bad presenter/demo-keys-after-end-move-no-knob "before: $before after: $after $(cap dend)"; fi
tm send-keys -t dend b
# blanked SESSION: no knobs, the caption still there.
blanked() { ! cap "$1" | grep -q 'knobs' && cap "$1" | grep -q '▶ the only caption'; }
poll 30 blanked dend
if ! cap dend | grep -q 'knobs' && cap dend | grep -q '▶ the only caption'; then
	ok presenter/demo-b-blanks
else bad presenter/demo-b-blanks "$(cap dend)"; fi
tm send-keys -t dend .
if wait_for dend 'knobs' 3 && ! cap dend | grep -q 'baseline pinned' &&
	[ "$(knobs)" = "$before" ]; then
	ok presenter/demo-dot-unblanks-no-pin
else bad presenter/demo-dot-unblanks-no-pin "$(cap dend)"; fi
tm send-keys -t dend D
if wait_for dend 'left demo mode' 3; then
	tm send-keys -t dend Right
	if wait_for dend '>indexes    1' 3; then ok presenter/demo-D-leaves; else bad presenter/demo-D-leaves "$(cap dend)"; fi
else bad presenter/demo-D-leaves "$(cap dend)"; fi
tm send-keys -t dend q
wait_exit dend >/dev/null

# PgUp goes back a caption, with the knobs the script had then.
printf '%s\n' 'rows = 400000' 'say first' 'wait key' 'indexes = 1' 'say second' 'wait key' >"$T/back.demo"
start dback TMPDIR="$TMPDIR" "$IDXLAB" --demo "$T/back.demo"
wait_for dback '▶ first' 5
tm send-keys -t dback PgDn
if wait_for dback '▶ second' 6 && wait_for dback '>indexes    1' 3; then
	tm send-keys -t dback PgUp
	if wait_for dback '▶ first' 3 && wait_for dback 'indexes    0' 6; then
		ok presenter/demo-pgup-back
	else bad presenter/demo-pgup-back "$(cap dback)"; fi
else bad presenter/demo-pgup-back "no second caption: $(cap dback)"; fi
tm send-keys -t dback q
wait_exit dback >/dev/null

# A demo's pin waits until its window holds a committed row: one endless
# transaction commits none (commit = 1000000000), so the pin holds the demo (and says
# why) instead of pinning a baseline whose every ratio reads '-'.
printf '%s\n' 'rows = 20000' 'op = update' 'commit = 1000000000' 'say before the pin' 'wait 1' 'pin' \
	'say after the pin' >"$T/pinwait.demo"
start dpin TMPDIR="$TMPDIR" "$IDXLAB" --demo "$T/pinwait.demo"
if wait_for dpin 'the pin waits for a commit \(commit 1000000000\)' 15 &&
	wait_for dpin '▶ before the pin' 1 && sleep $((slow)) &&
	! cap dpin | grep -q 'after the pin' && ! cap dpin | grep -q 'baseline pinned'; then
	ok presenter/demo-pin-waits-for-a-commit
else bad presenter/demo-pin-waits-for-a-commit "$(cap dpin)"; fi
# Space gives the pin up, and the demo goes on.
tm send-keys -t dpin Space
if wait_for dpin 'pin at line 6 skipped \(Space\): no commit in its window' 5 &&
	wait_for dpin '▶ after the pin' 5 && ! cap dpin | grep -q 'baseline pinned'; then
	ok presenter/demo-space-gives-up-a-pin
else bad presenter/demo-space-gives-up-a-pin "$(cap dpin)"; fi
tm send-keys -t dpin q
wait_exit dpin >/dev/null

# A demo's hold keeps its table past the rows knob (the index a later cue
# talks about stays), up to 8 times it (the disk's sake); release lets it
# start over again, at once when it is past the knob. A hold before the
# first wait holds from the first row. 100,000 rows: a fast machine fills
# 8 times 20,000 in a quarter of a second, between two looks.
printf '%s\n' 'rows = 100000' 'commit = 1000' 'say before' 'hold' 'say held' 'wait key' 'release' \
	'say released' 'wait key' >"$T/hold.demo"
start dhold TMPDIR="$TMPDIR" "$IDXLAB" --demo "$T/hold.demo"
if wait_for dhold 'the table passed 100000 rows \(the rows knob\): held for the demo' 20 &&
	wait_for dhold '[3-7][0-9][0-9](\.[0-9])?k rows in table' 20 &&
	! cap dhold | grep -q 'the table reached 100000 rows'; then
	ok presenter/demo-hold-keeps-table
else bad presenter/demo-hold-keeps-table "$(cap dhold)"; fi
if wait_for dhold 'held table reached 8 times the rows knob' 60; then
	ok presenter/demo-hold-bounded
else bad presenter/demo-hold-bounded "$(cap dhold)"; fi
tm send-keys -t dhold Space
if wait_for dhold '▶ released' 10 && wait_for dhold 'the table reached 100000 rows \(the rows knob\): starting over' 20; then
	ok presenter/demo-release-starts-over
else bad presenter/demo-release-starts-over "$(cap dhold)"; fi
tm send-keys -t dhold q
wait_exit dhold >/dev/null

# A demo's show sets the presenter's figures at its cue (a caption that
# says "watch fsync/c" shows fsync/c); the chart says it draws means; a
# recording keeps the view: replayed without --presenter, it is in it, with
# the figures of then.
printf '%s\n' 'rows = 400000' 'say rows first' 'wait 1' 'say watch fsync/c' \
	'show fsyncs_per_commit,rows_per_s' 'wait key' >"$T/show.demo"
start dshow TMPDIR="$TMPDIR" "$IDXLAB" --presenter --demo "$T/show.demo" --record "$T/show.rec"
if wait_for dshow '▶ watch fsync/c' 15 && wait_for dshow '^ fsync/c .* rows/s' 5; then
	ok presenter/demo-show-sets-figures
else bad presenter/demo-show-sets-figures "$(cap dshow | head -3)"; fi
if wait_for dshow 'fsync/c over the last [0-9]+ s, each point the mean of the [0-9]+ s before it' 5; then
	ok presenter/chart-says-means
else bad presenter/chart-says-means "$(cap dshow | grep 'over the last')"; fi
# rec_has FILE PATTERN N: within 5 s (more under sanitizers), FILE has N
# samples after its first line matching PATTERN.
rec_has() {
	i=0
	while [ $i -lt $((50 * slow)) ]; do
		awk -v p="$2" -v want="$3" '$0 ~ p { on = 1 } on && /"c":/ { n++ } END { exit !(n >= want) }' "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
rec_has "$T/show.rec" fsyncs_per_commit 2 || bad presenter/replay-keeps-demo-figures "no samples after the show: $(tail -c 300 "$T/show.rec")"
tm send-keys -t dshow q
wait_exit dshow >/dev/null
start rshow TMPDIR="$TMPDIR" "$IDXLAB" --replay "$T/show.rec"
if wait_for rshow '^ fsync/c .* rows/s' 15 && ! cap rshow | grep -q '─ knobs ─'; then
	ok presenter/replay-keeps-demo-figures
else bad presenter/replay-keeps-demo-figures "$(cap rshow | head -5)"; fi
tm send-keys -t rshow q
wait_exit rshow >/dev/null
# (a plain --presenter session too)
start rpres TMPDIR="$TMPDIR" "$IDXLAB" --presenter --rows 400000 --record "$T/pres.rec"
if ! wait_for rpres '^ rows/s' 10 || ! rec_has "$T/pres.rec" presenter 2; then
	bad presenter/replay-keeps-presenter-view "no presenter session recorded: $(cap rpres | head -3)"
fi
tm send-keys -t rpres q
wait_exit rpres >/dev/null
start rpres2 TMPDIR="$TMPDIR" "$IDXLAB" --replay "$T/pres.rec"
if wait_for rpres2 '^ rows/s' 10 && wait_for rpres2 'rows/s over the last' 3 &&
	! cap rpres2 | grep -q '─ knobs ─'; then
	ok presenter/replay-keeps-presenter-view
else bad presenter/replay-keeps-presenter-view "$(cap rpres2 | head -5)"; fi
tm send-keys -t rpres2 q
wait_exit rpres2 >/dev/null

# A big figure's ratio reads like a metric row's: marked better or worse by
# the metric's good direction (rows/s down with three indexes: worse), and
# a baseline near 0 reads 'from ~0', not a ratio of noise.
start pratio TMPDIR="$TMPDIR" "$IDXLAB" --presenter --ascii --rows 400000 --key-order rand \
	--presenter-metrics rows_per_s,spills_per_row
tm resize-window -t pratio -x 160 -y 45
wait_for pratio '^ rows/s' 5
sleep $((2 * slow)) # a baseline of two seconds or more
pin pratio 'rows/s +[0-9.]+x' # (a ratio: an n/a baseline is pinned again)
tm send-keys -t pratio Right Right Right
if wait_for pratio 'rows/s +[0-9.]+x- of the baseline' 20; then
	ok presenter/ratio-marked-worse
else bad presenter/ratio-marked-worse "$(cap pratio | head -3)"; fi
if wait_for pratio 'spill/row +(from ~?0|-)' 10 && ! cap pratio | grep -qE 'spill/row +[0-9]{4,}x'; then
	ok presenter/ratio-from-near-0
else bad presenter/ratio-from-near-0 "$(cap pratio | head -3)"; fi
tm send-keys -t pratio q
wait_exit pratio >/dev/null

# 1, 2, 3 hide and show the knobs, the metrics, the events.
start hide TMPDIR="$TMPDIR" "$IDXLAB" --rows 400000
wait_for hide '││rows/s +[0-9]' 5
tm send-keys -t hide 1
if wait_for hide '^│rows/s' 3 && ! cap hide | grep -q '─ knobs ─'; then
	ok presenter/hide-knobs
else bad presenter/hide-knobs "$(cap hide)"; fi
tm send-keys -t hide 1 3
if wait_for hide '││rows/s' 3 && ! cap hide | grep -q '─ events ─'; then
	ok presenter/show-knobs-hide-events
else bad presenter/show-knobs-hide-events "$(cap hide)"; fi
tm send-keys -t hide 2
if wait_for hide 'metrics panel hidden' 3 && ! cap hide | grep -q 'rows/s'; then
	ok presenter/hide-metrics
else bad presenter/hide-metrics "$(cap hide)"; fi
tm send-keys -t hide q
wait_exit hide >/dev/null

# Themes: light uses no cyan or green (they fade on white), high contrast
# paints a black background; an inactive knob is marked in each.
esc=$(printf '\033')
# coloured SESSION CODE: an SGR escape with colour CODE (a regex) is on the screen.
coloured() { tm capture-pane -e -p -t "$1" | grep -q "$esc\[\([0-9;]*;\)\?$2\(;[0-9;]*\)\?m"; }
for theme in dark light high-contrast; do
	start "th$theme" TMPDIR="$TMPDIR" "$IDXLAB" --theme "$theme" --rows 400000
	wait_for "th$theme" '││rows/s +[0-9]' 5
	case $theme in # what must show, polled for; what must not, a second's look
	dark) poll 30 coloured "th$theme" '3[26]' ;;
	high-contrast) poll 30 coloured "th$theme" 40 ;;
	*) sleep 1 ;;
	esac
	tm capture-pane -e -p -t "th$theme" >"$T/$theme.ansi"
	cyan=$(grep -c "$esc\[\([0-9;]*;\)\?3[26]\(;[0-9;]*\)\?m" "$T/$theme.ansi")
	black_bg=$(grep -c "$esc\[\([0-9;]*;\)\?40\(;[0-9;]*\)\?m" "$T/$theme.ansi")
	case $theme in
	dark) [ "$cyan" -gt 0 ] && r=ok || r=bad ;;
	light) [ "$cyan" = 0 ] && r=ok || r=bad ;;
	high-contrast) [ "$black_bg" -gt 0 ] && r=ok || r=bad ;;
	esac
	if [ $r = ok ] && cap "th$theme" | grep -q '×engine'; then
		ok "presenter/theme-$theme"
	else bad "presenter/theme-$theme" "cyan/green $cyan, black bg $black_bg: $(cap "th$theme" | head -5)"; fi
	tm send-keys -t "th$theme" q
	wait_exit "th$theme" >/dev/null
done
# auto: COLORFGBG's background decides.
start thauto "COLORFGBG='0;15'" TMPDIR="$TMPDIR" "$IDXLAB" --rows 400000
if ! wait_for thauto '││rows/s +[0-9]' 5; then
	bad presenter/theme-auto-light "no dashboard: $(cap thauto)"
elif sleep 1 && tm capture-pane -e -p -t thauto | grep -q "$esc\[\([0-9;]*;\)\?3[26]\(;[0-9;]*\)\?m"; then
	bad presenter/theme-auto-light "cyan or green on a light background"
else ok presenter/theme-auto-light; fi
tm send-keys -t thauto q
wait_exit thauto >/dev/null
# The knob line is cut only where a knob ends, with an ellipsis: what shows
# at 80 and 160 columns is the start of the whole line (read at 250) up to
# a knob's end, never `commit 100` for 1000 nor `payload 100   seed` with
# the seed left off; --ascii says it with "...".
knob_line() { cap "$1" | grep -E '^ engine sqlite ' | head -1 | sed 's/ *$//'; }
# whole_knobs NAME LINE FULL: LINE is FULL, or FULL's start to a knob's end
# and the ellipsis ELL
whole_knobs() {
	cut=${2%" $ELL"}
	if [ "$2" = "$3" ] || { [ "$cut" != "$2" ] && [ -n "$cut" ] && case "$3   " in "$cut   "*) true ;; *) false ;; esac; }; then
		ok "$1"
	else bad "$1" "shown '$2', the whole line '$3'"; fi
}
for mode in utf8 ascii; do
	if [ $mode = ascii ]; then ELL=... flag=--ascii; else ELL=… flag=; fi
	start "kl$mode" TMPDIR="$TMPDIR" "$IDXLAB" --presenter $flag --commit 1000 --seed 12345 --rows 400000
	tm resize-window -t "kl$mode" -x 250 -y 45
	wait_for "kl$mode" '^ engine sqlite .* seed 12345' 5 || bad presenter/knob-line-whole "no knob line at 250: $(cap "kl$mode")"
	full=$(knob_line "kl$mode")
	for size in 80x24 160x45; do
		tm resize-window -t "kl$mode" -x "${size%x*}" -y "${size#*x}"
		wait_for "kl$mode" "^ engine sqlite .*$(printf '%s' "$ELL" | sed 's/\./\\./g') *\$" 5
		whole_knobs "presenter/knob-line-whole-$mode-$size" "$(knob_line "kl$mode")" "$full"
	done
	tm send-keys -t "kl$mode" q
	wait_exit "kl$mode" >/dev/null
done

no_leftovers presenter/temp-dir-removed
