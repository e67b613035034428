# A/B on the dashboard (issue 21, item 12): a takes the knobs in force as
# A, the knobs then set B, a again alternates them on the same table every
# --ab-period seconds, the status line showing B/A of rows/s, the events
# each switch; a B needing a new table is refused naming its knob; a (or
# Esc) ends it back at A; a resize to too small and back, and q during a
# switch, keep it whole; a recording of it replays. SQLite: A = 0 indexes,
# B = 3 on random keys with the dashboard's small cache, so B is slower.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	skip ab/all "tmux is not installed (apt-get install tmux)"
	exit 0
fi

# --ab-period's range: a usage error naming it (no terminal needed)
expect_exit ab/period-range 2 "^idxlab: --ab-period: 1 is out of range .valid: 2..3600 seconds" "$IDXLAB" --ab-period 1 </dev/null

knobs="--warmup off --indexes 0 --key-order rand --payload 10 --rows 1500000 --ab-period 3"
start ab TMPDIR="$TMPDIR" "$IDXLAB" $knobs --record "$T/ab.rec"
wait_for ab '││rows/s +[0-9.]*[1-9]' 10 || note "no rows/s before A/B"

# ---- a: A taken, B to set ---------------------------------------------
tm send-keys -t ab a
if wait_for ab 'A/B: set B with the knobs \(B: still A\), press a again to start' 3; then
	ok ab/set-b-said
else bad ab/set-b-said "$(cap ab)"; fi
# a again with B still A: nothing to compare, said
tm send-keys -t ab a
if wait_for ab 'A/B: B is still A' 3; then ok ab/b-same-refused; else bad ab/b-same-refused "$(cap ab)"; fi

# a key order switching to UUIDs needs a new table: refused, the knob named
tm send-keys -t ab Down
poll 10 moved ab '│>indexes'
tm send-keys -t ab Enter
wait_for ab 'key-order = ' 3 || note "no prompt for key-order"
tm send-keys -t ab uuid4 Enter
if wait_for ab 'A/B: B cannot change key-order: that needs a new table' 5; then
	ok ab/rebuild-refused
else bad ab/rebuild-refused "$(cap ab)"; fi
cap ab | grep -qE '│.key-order +rand' && ok ab/rebuild-not-applied ||
	bad ab/rebuild-not-applied "$(cap ab)"

# B: 3 indexes (applied live, as any knob)
tm send-keys -t ab Up
poll 10 moved ab '│>key-order'
tm send-keys -t ab Enter
wait_for ab 'indexes = ' 3 || note "no prompt for indexes"
tm send-keys -t ab 3 Enter
if wait_for ab '\(B: \+3 idx\)' 5; then ok ab/b-shown; else bad ab/b-shown "$(cap ab)"; fi

# ---- a again: A and B in turn ------------------------------------------
tm send-keys -t ab a
if wait_for ab 'A/B: B is A with \+3 idx; each runs 3 s in turn' 5; then
	ok ab/started
else bad ab/started "$(cap ab)"; fi
# the status line: B/A of rows/s once an A and a B phase after it ended
# (a switch's index build holds the status line a while: polled, and the
# ratio read from the screen that showed it)
pair='rows/s B/A [0-9.e+-]+x \[([0-9.e+-]+\.\.[0-9.e+-]+, [0-9]+ pairs|1 pair)\]'
ratio_on_screen() {
	r=$(cap ab | grep -oE "$pair" | tail -1 | sed 's/^rows.s B.A //; s/x .*//')
	[ -n "$r" ]
}
r=""
if poll 90 ratio_on_screen; then ok ab/ratio-shown; else bad ab/ratio-shown "$(cap ab)"; fi
# B (3 random indexes, a 2000 KiB cache) is slower than A: B/A under 1
if [ -n "$r" ] && awk -v r="$r" 'BEGIN { exit !(r < 1) }'; then
	ok ab/b-slower
else bad ab/b-slower "rows/s B/A '$r': $(cap ab)"; fi
# the events: each side in force in turn
if wait_for ab 'A/B [0-9][0-9, .]*: A in force \(-3 idx\)' 10 &&
	wait_for ab 'A/B [0-9][0-9, .]*: B in force \(\+3 idx\)' 10; then
	ok ab/events-alternate
else bad ab/events-alternate "$(cap ab)"; fi
# two traces drawn: A's columns in cyan, B's underlined (it reads without colour)
# (the gauge is cyan too: a second cyan run on the line is A's)
esc=$(printf '\033')
trace_b() { tm capture-pane -e -p -t ab | grep '││rows/s' | grep -qE "$esc\\[([0-9]+;)*4m"; }
trace_a() { [ "$(tm capture-pane -e -p -t ab | grep '││rows/s' | grep -oE "$esc\\[([0-9]+;)*36m" | wc -l)" -ge 2 ]; }
if poll 30 trace_b; then ok ab/trace-b-drawn; else bad ab/trace-b-drawn "$(tm capture-pane -e -p -t ab | grep 'rows/s' | cat -v)"; fi
if poll 30 trace_a; then ok ab/trace-a-drawn; else bad ab/trace-a-drawn "$(tm capture-pane -e -p -t ab | grep 'rows/s' | cat -v)"; fi
# the presenter view: the big rows/s figure with its B/A
tm send-keys -t ab v
if wait_for ab '^ rows/s.* B/A [0-9.e+-]+x \[' 5; then ok ab/presenter-ratio; else bad ab/presenter-ratio "$(cap ab)"; fi
tm send-keys -t ab v
wait_for ab '││rows/s' 5 || note "the normal view did not come back"
# no knob moves while it runs
tm send-keys -t ab Right
if wait_for ab 'A/B runs: press a or Esc to end it before moving a knob' 3; then
	ok ab/knobs-held
else bad ab/knobs-held "$(cap ab)"; fi

# too small and back: said, then A/B still on
tm resize-window -t ab -x 50 -y 12
if wait_for ab 'needs a 80x24 terminal' 3; then ok ab/too-small; else bad ab/too-small "$(cap ab)"; fi
tm resize-window -t ab -x 100 -y 30
if wait_for ab ' A/B ([0-9]+: [AB], [0-9]+ s left|switching to [AB])' 5; then
	ok ab/resize-keeps-it
else bad ab/resize-keeps-it "$(cap ab)"; fi

# ---- a again: ended, back to A -----------------------------------------
tm send-keys -t ab a
if wait_for ab 'A/B ended \(a\) after [0-9]+ phases, back to A: rows/s B/A [0-9.e+-]+x' 5; then
	ok ab/a-ends
else bad ab/a-ends "$(cap ab)"; fi
if wait_for ab '│>indexes +0 ' 30 && ! cap ab | grep -qE '^ A/B ([0-9]+:|switching)'; then
	ok ab/back-to-a
else bad ab/back-to-a "$(cap ab)"; fi
tm send-keys -t ab q
st=$(wait_exit ab)
[ "$st" = "EXIT=0" ] && ok ab/quit || bad ab/quit "'$st'"

# ---- q during a switch: the terminal back, exit 0 ----------------------
start sw TMPDIR="$TMPDIR" "$IDXLAB" $knobs
wait_for sw '││rows/s +[0-9.]*[1-9]' 10 || note "no rows/s before A/B"
# Esc while B is being set: cancelled, back to A
tm send-keys -t sw a
wait_for sw 'A/B: set B' 3 || note "A/B not begun"
tm send-keys -t sw Right
wait_for sw '\(B: \+1 idx\)' 5 || note "B not set"
tm send-keys -t sw Escape
if wait_for sw 'A/B cancelled \(Esc\): back to A' 5 && wait_for sw '│>indexes +0 ' 20; then
	ok ab/esc-cancels
else bad ab/esc-cancels "$(cap sw)"; fi
tm send-keys -t sw a
wait_for sw 'A/B: set B' 3 || note "A/B not begun"
tm send-keys -t sw Right Right Right
wait_for sw '\(B: \+3 idx\)' 5 || note "B not set"
tm send-keys -t sw a
# the first switch back to A (or, on a slow machine, what comes first)
wait_for sw 'switching to A|A/B [0-9]+: A' 15 || note "no switch to A"
tm send-keys -t sw q
st=$(wait_exit sw)
[ "$st" = "EXIT=0" ] && ok ab/quit-in-switch || bad ab/quit-in-switch "'$st'"
if grep -q ' icanon' "$T/sw.stty" && grep -q ' echo ' "$T/sw.stty"; then
	ok ab/terminal-restored
else bad ab/terminal-restored "$(cat "$T/sw.stty")"; fi

# ---- the recording replays: the switches as knob changes, no A/B -------
start rp TMPDIR="$TMPDIR" "$IDXLAB" --replay "$T/ab.rec"
tm send-keys -t rp '>' '>' '>' '>'
if wait_for rp 'A/B [0-9][0-9, .]*: [AB] in force' 30; then
	ok ab/replay-shows-switches
else bad ab/replay-shows-switches "$(cap rp)"; fi
tm send-keys -t rp a
if wait_for rp 'A/B: a replay shows the knobs as they were recorded' 3; then ok ab/replay-no-ab; else bad ab/replay-no-ab "$(cap rp)"; fi
tm send-keys -t rp q
st=$(wait_exit rp)
[ "$st" = "EXIT=0" ] && ok ab/replay-quit || bad ab/replay-quit "'$st'"
