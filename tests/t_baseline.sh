# --baseline FILE (issue 21, item 11): a saved run's step pinned as the
# dashboard's baseline at the start - the step with the dashboard's knobs,
# else the nearest - each metric then showing now/saved and the title which
# saved step; B unpins, b pins a live one. A bad file exits 2 naming the
# file and line before the terminal is touched. SQLite, small row counts.
. "$(dirname "$0")/lib.sh"

# The knobs the dashboard and the saved run share (the dashboard's own
# defaults for commit and rows set, so a saved step can match them).
same="--rows 30000 --commit 1000"
"$IDXLAB" run --warmup off -q $same --indexes 0,1 --format csv >"$T/saved.csv" 2>"$T/save.err" ||
	bad baseline/save "$(head -c 300 "$T/save.err")"
"$IDXLAB" run --warmup off -q $same --indexes 1 --format json >"$T/saved.json" 2>"$T/save.err" ||
	bad baseline/save-json "$(head -c 300 "$T/save.err")"

# ---- bad files: exit 2, file:line, nothing on stdout (no terminal touched) --
# dash_bad NAME PATTERN FILE: the dashboard's command line (stdout not a
# tty) with --baseline FILE exits 2 with PATTERN on stderr, stdout empty.
dash_bad() {
	expect_exit "$1" 2 "$2" "$IDXLAB" --baseline "$3" </dev/null
	[ -s "$T/out" ] && bad "$1-stdout-empty" "$(head -c 200 "$T/out")" ||
		ok "$1-stdout-empty"
}
printf 'record,nonsense\nstep,1\n' >"$T/foreign.csv"
dash_bad baseline/bad-header "^idxlab: --baseline .*foreign\.csv:1: 'nonsense' is not a field" "$T/foreign.csv"
# a record cut short on line 3: its field count named with the line
{ head -2 "$T/saved.csv"; sed -n 3p "$T/saved.csv" | cut -d, -f1-5; } >"$T/cut.csv"
dash_bad baseline/bad-line "^idxlab: --baseline .*cut\.csv:3: 5 fields where the header" "$T/cut.csv"
printf '{"record":"step"\n' >"$T/broken.json"
dash_bad baseline/bad-json "^idxlab: --baseline .*broken\.json:1: not a JSON object" "$T/broken.json"
# a recording with no stretch of running to take figures from
printf '{"idxlab_recording":2,"idxlab":"x","engine":"sqlite"}\n' >"$T/rec.jsonl"
dash_bad baseline/recording-empty "^idxlab: --baseline .*rec\.jsonl: a recording with no second of running" "$T/rec.jsonl"
dash_bad baseline/missing "^idxlab: --baseline: cannot read .*nothere\.csv: No such file" "$T/nothere.csv"
# a good file off a terminal: the dashboard's option, said so
dash_bad baseline/needs-terminal "^idxlab: --baseline pins a saved run in the dashboard: run it on a terminal" "$T/saved.csv"
expect_exit baseline/not-headless 2 "^idxlab: --baseline pins a saved run in the dashboard; .idxlab run. is headless" \
	"$IDXLAB" run --baseline "$T/saved.csv"

if ! command -v tmux >/dev/null; then
	skip baseline/dashboard "tmux is not installed (apt-get install tmux)"
	exit 0
fi

# ---- the dashboard: pinned from the start ---------------------------------
# indexes 1: the saved run's second step has the dashboard's knobs
start csv TMPDIR="$TMPDIR" "$IDXLAB" --warmup off $same --indexes 1 --baseline "$T/saved.csv"
if wait_for csv 'baseline: saved step 2 of saved\.csv' 5; then
	ok baseline/event-names-step
else bad baseline/event-names-step "$(cap csv)"; fi
cap csv | grep -q "its knobs the dashboard's" && ok baseline/step-matches ||
	bad baseline/step-matches "$(cap csv)"
if wait_for csv 'now/base vs saved\.csv step 2' 3; then
	ok baseline/title-names-saved
else bad baseline/title-names-saved "$(cap csv)"; fi
# each metric row's ratio now/saved: rows/s (its value, then NNx)
if wait_for csv '││rows/s +[0-9.]+[kM]? .* [0-9.]+x' 8; then
	ok baseline/ratio-marks
else bad baseline/ratio-marks "$(cap csv)"; fi
# the ratio is now over the saved figure: a wal B/row one too
if wait_for csv '││(wal|journal) B/row +[0-9.]+ [KM]?i?B .* [0-9.]+x' 8; then
	ok baseline/ratio-per-row
else bad baseline/ratio-per-row "$(cap csv)"; fi
# B unpins: the title loses the saved run (not when the dashboard ended:
# nothing to press keys on)
if ! tm has-session -t csv 2>/dev/null; then
	bad baseline/B-unpins "the dashboard ended: $(cat "$T/csv.exit" 2>/dev/null)"
	bad baseline/b-pins-live "the dashboard ended"
	exit 0
fi
tm send-keys -t csv B
if wait_for csv 'baseline unpinned' 3 && poll 30 sh -c "! tmux -S '$SOCK' capture-pane -p -J -t csv | grep -q 'now/base vs saved'"; then
	ok baseline/B-unpins
else bad baseline/B-unpins "$(cap csv)"; fi
# b pins a live one, no longer named as the saved run
if pin csv && ! cap csv | grep -q 'now/base vs saved'; then
	ok baseline/b-pins-live
else bad baseline/b-pins-live "$(cap csv)"; fi
tm send-keys -t csv q
st=$(wait_exit csv)
[ "$st" = "EXIT=0" ] && ok baseline/quit || bad baseline/quit "'$st'"

# A JSON file, and no step with the dashboard's knobs (indexes 2): the
# nearest, and which knobs differ said.
start json TMPDIR="$TMPDIR" "$IDXLAB" --warmup off $same --indexes 2 --baseline "$T/saved.json"
if wait_for json "baseline: saved step 1 of saved\.json, the nearest of 1: indexes 1 \(now 2\)" 5; then
	ok baseline/json-nearest
else bad baseline/json-nearest "$(cap json)"; fi
if wait_for json '││rows/s +[0-9.]+[kM]? .* [0-9.]+x' 8; then
	ok baseline/json-ratio
else bad baseline/json-ratio "$(cap json)"; fi
tm send-keys -t json q
st=$(wait_exit json)
[ "$st" = "EXIT=0" ] && ok baseline/json-quit || bad baseline/json-quit "'$st'"

# ---- a recording as the baseline: "now vs what we measured yesterday" ----
# a session recorded at indexes 1, then the dashboard at indexes 0 pinned to
# it from the start: its stretch at indexes 1 named, with the knob it
# differs in, and each metric's ratio against it
start recd TMPDIR="$TMPDIR" "$IDXLAB" --warmup off $same --indexes 1 --record "$T/day1.rec"
# recorded_s SECONDS: the recording holds that long a stretch of running
recorded_s() {
	[ "$(jq -rs --argjson s "$1" '[.[] | select(.state == "running") | .c.t]
		| length > 1 and .[-1] - .[0] > $s' "$T/day1.rec" 2>/dev/null)" = true ]
}
if poll 60 recorded_s 4; then
	ok baseline/recorded
else bad baseline/recorded "$(cap recd)"; fi
tm send-keys -t recd q
st=$(wait_exit recd)
start recb TMPDIR="$TMPDIR" "$IDXLAB" --warmup off $same --indexes 0 --baseline "$T/day1.rec"
if wait_for recb 'baseline: day1\.rec from [0-9.]+ to [0-9.]+ s, the nearest of [0-9]+ stretches: indexes 1 \(now 0\)' 5; then
	ok baseline/recording-stretch
else bad baseline/recording-stretch "$(cap recb)"; fi
if wait_for recb 'now/base vs day1\.rec [0-9]+-[0-9]+ s' 3 && wait_for recb '││rows/s +[0-9.]+[kM]? .* [0-9.]+x' 8; then
	ok baseline/recording-ratios
else bad baseline/recording-ratios "$(cap recb)"; fi
tm send-keys -t recb q
st=$(wait_exit recb)
[ "$st" = "EXIT=0" ] && ok baseline/recording-quit || bad baseline/recording-quit "'$st'"
