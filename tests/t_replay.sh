# A recording sought in the dashboard: the position in the title, 10 s on
# and back, the next and previous knob change, the start; each seek shows
# the new position as played up to it (knobs, events, caption, baseline,
# sparklines); event times on the recording's clock at any speed.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	skip replay/all "tmux is not installed (apt-get install tmux)"
	exit 0
fi

# A 60 s recording (recording.h's format), a sample every 0.25 s: indexes 0,
# then 1 from t=12 and 2 from t=30, each with its build event; captions at
# 1, 20 and 41; a baseline pinned at 22.
awk 'BEGIN {
	print "{\"idxlab_recording\":1,\"idxlab\":\"0.1.0\",\"engine\":\"sqlite\",\"started\":\"2026-01-01T00:00:00Z\"}"
	rows = 0; commits = 0
	for (i = 0; i <= 240; i++) {
		t = i * 0.25
		ix = t >= 30 ? 2 : t >= 12 ? 1 : 0
		if (t == 1) print "{\"t\":1.0,\"caption\":\"caption one\"}"
		if (t == 12) print "{\"t\":12.0,\"ev\":\"built idxlab_k1 on 48000 rows in 0.05 s\",\"level\":\"info\"}"
		if (t == 20) print "{\"t\":20.0,\"caption\":\"caption two\"}"
		if (t == 22) print "{\"t\":22.0,\"pin\":true}"
		if (t == 30) print "{\"t\":30.0,\"ev\":\"built idxlab_k2 on 84000 rows in 0.08 s\",\"level\":\"info\"}"
		if (t == 41) print "{\"t\":41.0,\"caption\":\"caption three\"}"
		printf "{\"t\":%.2f,\"state\":\"running\",\"activity\":\"running\",\"activity_t\":0,", t
		printf "\"knobs_gen\":%d,\"knobs\":{\"engine\":\"sqlite\",\"indexes\":\"%d\"},", ix + 1, ix
		printf "\"table_rows\":%d,\"c\":{\"t\":%.2f,\"rows\":%d,\"commits\":%d},", rows, t, rows, commits
		printf "\"lat\":{\"n\":%d,\"max_ns\":1000000,\"b\":[[300,%d]]},", commits, commits
		printf "\"sizes\":{\"db_bytes\":%d,\"index_bytes\":%d,\"index_pages\":[]},\"where\":\"talk.db\"}\n", 4096 + rows * 50, ix * rows * 20
		rows += ix == 0 ? 1000 : ix == 1 ? 500 : 250
		commits += 1
	}
}' >"$T/talk.rec"

title() { cap "$1" | head -1; }
events() { cap "$1" | sed -n '/─ events ─/,/└/p'; }

start rp TMPDIR="$TMPDIR" "$IDXLAB" --replay talk.rec
if wait_for rp 'REPLAY 1x 00:0[0-9] / 01:00 sqlite' 3 && cap rp | grep -q 'PgDn/Up change'; then
	ok replay/position-in-title
else bad replay/position-in-title "$(cap rp)"; fi

# Paused, everything below lands where the keys say (no clock runs).
tm send-keys -t rp Space
wait_for rp 'replay paused' 2
tm send-keys -t rp Home
if wait_for rp 'REPLAY 1x 00:00 / 01:00' 3 && cap rp | grep -q '>indexes    0 '; then
	ok replay/paused-restart
else bad replay/paused-restart "$(cap rp)"; fi
tm send-keys -t rp Right
if wait_for rp 'REPLAY 1x 00:10 / 01:00 sqlite  running  40.0k rows' 3 &&
	cap rp | grep -q '>indexes    0 '; then
	ok replay/seek-on-10s
else bad replay/seek-on-10s "$(cap rp)"; fi

# The next knob change: at its time, the knobs of then, its event at 12.0 s.
tm send-keys -t rp PgDn
if wait_for rp 'REPLAY 1x 00:12 / 01:00' 3 && wait_for rp '>indexes    1 ' 2 &&
	events rp | grep -qE '│ +12\.0s  built idxlab_k1' && ! events rp | grep -q idxlab_k2; then
	ok replay/next-change
else bad replay/next-change "$(cap rp)"; fi

# Again: past the caption at 20 and the pin at 22. The sparklines show the
# 30 s before (a history rebuilt, not one sample), the baseline is there.
tm send-keys -t rp PgDn
if wait_for rp 'REPLAY 1x 00:30 / 01:00' 3 && wait_for rp '>indexes    2 ' 2 &&
	wait_for rp 'now/base \(\+1 idx\)' 2 &&
	events rp | grep -qE '│ +30\.0s  built idxlab_k2'; then
	ok replay/next-change-baseline
else bad replay/next-change-baseline "$(cap rp)"; fi
n=$(cap rp | grep '││rows/s' | grep -o '[▁▂▃▄▅▆▇█]' | wc -l)
check replay/seek-rebuilds-sparklines "$n >= 4"
if wait_for rp '▶ caption two' 6; then ok replay/seek-caption-in-force; else bad replay/seek-caption-in-force "$(cap rp)"; fi

# 10 s back: before the pin and the second build; the caption of 20 stays.
tm send-keys -t rp Left
if wait_for rp 'REPLAY 1x 00:20 / 01:00' 3 && wait_for rp '>indexes    1 ' 2 &&
	! cap rp | grep -q 'now/base' && ! events rp | grep -q idxlab_k2 &&
	events rp | grep -q idxlab_k1 && wait_for rp '▶ caption two' 6; then
	ok replay/seek-back-rebuilds
else bad replay/seek-back-rebuilds "$(cap rp)"; fi

# The change before: 12; then (none before) the start.
tm send-keys -t rp PgUp
if wait_for rp 'REPLAY 1x 00:12 / 01:00' 3 && wait_for rp '▶ caption one' 6; then
	ok replay/prev-change
else bad replay/prev-change "$(cap rp)"; fi
tm send-keys -t rp PgUp
if wait_for rp 'REPLAY 1x 00:00 / 01:00' 3 && wait_for rp '>indexes    0 ' 2 &&
	! events rp | grep -q idxlab_k1; then
	ok replay/prev-change-to-start
else bad replay/prev-change-to-start "$(cap rp)"; fi

# At 8x, the events box counts seconds of the recording: the build of
# t=12 reads 12.0 s, not the 1.5 s of wall time it took to get there.
tm send-keys -t rp '>' '>' '>'
wait_for rp 'REPLAY 8x 00:00' 2
tm send-keys -t rp Space
if wait_for rp 'built idxlab_k1' 5 && events rp | grep -qE '│ +12\.0s  built idxlab_k1' &&
	cap rp | grep -q 'REPLAY 8x'; then
	ok replay/event-times-recording-clock
else bad replay/event-times-recording-clock "$(events rp)"; fi

# At 16x, paused, 10 s on is 10 s of the recording; playing, the next
# change still lands on it.
tm send-keys -t rp '>' Space Home
wait_for rp 'REPLAY 16x 00:00' 3
tm send-keys -t rp Right
if wait_for rp 'REPLAY 16x 00:10 / 01:00' 3; then ok replay/seek-16x-paused; else bad replay/seek-16x-paused "$(cap rp)"; fi
tm send-keys -t rp Space PgDn
if wait_for rp 'replay at 00:12 / 01:00 \(knob change 1 of 2\)' 3; then
	ok replay/seek-16x-playing
else bad replay/seek-16x-playing "$(cap rp)"; fi

# To the end; a seek back from there plays again.
if wait_for rp 'the recording is over' 10 && wait_for rp 'REPLAY 16x 01:00 / 01:00 sqlite  over' 2; then
	ok replay/over
else bad replay/over "$(cap rp)"; fi
tm send-keys -t rp Space Left
if wait_for rp 'REPLAY 16x 00:50 / 01:00 sqlite  running' 3; then
	ok replay/seek-back-after-end
else bad replay/seek-back-after-end "$(cap rp)"; fi
# Up/Down still select a knob (to read its why-line), though
# none can move.
tm send-keys -t rp Down
if wait_for rp '>key-order' 2; then ok replay/up-down-select; else bad replay/up-down-select "$(cap rp)"; fi
# b pins a baseline on the replayed figures (as the man page says), B
# unpins it.
tm send-keys -t rp B
unpinned() { ! cap "$1" | grep -q 'now/base'; }
poll 30 unpinned rp
if ! cap rp | grep -q 'now/base'; then
	tm send-keys -t rp b
	if wait_for rp 'now/base' 3; then ok replay/b-pins; else bad replay/b-pins "$(cap rp)"; fi
else bad replay/b-pins "B left the baseline: $(cap rp)"; fi
tm send-keys -t rp q
code=$(wait_exit rp)
[ "$code" = EXIT=0 ] && ok replay/q-exits-0 || bad replay/q-exits-0 "got '$code'"

# Seeks back and on play the events before the new position again, each
# once: no line comes back as a fold of itself (×2, then ×3), at 1x and
# paused as after PgDn.
start rs TMPDIR="$TMPDIR" "$IDXLAB" --replay talk.rec
wait_for rs 'REPLAY 1x' 3 || bad replay/seek-events-once "no replay: $(cap rs)"
tm send-keys -t rs Space
wait_for rs 'replay paused' 2 || bad replay/seek-events-once "no pause: $(cap rs)"
ok_so_far=1
for step in 'PgDn 00:12' 'Right 00:22' 'Left 00:12' 'Right 00:22' 'Left 00:12'; do
	set -- $step
	tm send-keys -t rs "$1"
	if ! wait_for rs "REPLAY 1x $2 / 01:00" 3 || ! wait_for rs '│ +12\.0s  built idxlab_k1' 3; then
		ok_so_far=0
		bad replay/seek-events-once "after $1 to $2: $(cap rs)"
		break
	fi
done
if [ $ok_so_far = 1 ]; then
	n=$(events rs | grep -c 'built idxlab_k1')
	if [ "$n" = 1 ] && ! events rs | grep -qE '(×|x)[0-9]+ *│'; then
		ok replay/seek-events-once
	else bad replay/seek-events-once "$n lines, or folded: $(events rs)"; fi
fi
tm send-keys -t rs q
[ "$(wait_exit rs)" = EXIT=0 ] || bad replay/seek-events-once-exit "$(cat "$T/rs.exit" 2>/dev/null)"

# An event too long for its box is cut where a word ends (never inside a
# number, nor between a number and its unit), with an ellipsis, and keeps
# its fold count.
awk 'BEGIN {
	print "{\"idxlab_recording\":1,\"idxlab\":\"0.1.0\",\"engine\":\"sqlite\"}"
	for (i = 0; i <= 40; i++) {
		t = i * 0.25
		if (i == 2 || i == 4)
			printf "{\"t\":%.2f,\"ev\":\"the table reached 48000 rows: starting over (previous table: %d log syncs, 5678 page writes, 91011 bytes of WAL in 12.5 s)\",\"level\":\"info\"}\n", t, 1234 + i
		printf "{\"t\":%.2f,\"state\":\"running\",\"knobs_gen\":1,\"knobs\":{\"engine\":\"sqlite\",\"indexes\":\"0\"},\"c\":{\"t\":%.2f,\"rows\":%d}}\n", t, t, i * 1000
	}
}' >"$T/long.rec"
start rl TMPDIR="$TMPDIR" "$IDXLAB" --replay long.rec
tm resize-window -t rl -x 80 -y 30
full="the table reached 48000 rows: starting over (previous table: 1238 log syncs, 5678 page writes, 91011 bytes of WAL in 12.5 s)"
if wait_for rl 'the table reached .* … ×2 *│' 5; then
	shown=$(events rl | grep -o 'the table reached .* … ×2' | sed 's/ … ×2$//')
	last=${shown##* }
	case "$full" in
	"$shown "*)
		case "$last" in
		*[0-9]) bad replay/event-cut-at-a-word "a number left without its unit: '$shown'" ;;
		*) ok replay/event-cut-at-a-word ;;
		esac
		;;
	*) bad replay/event-cut-at-a-word "'$shown' is not the start of the event up to a word" ;;
	esac
else bad replay/event-cut-at-a-word "$(cap rl)"; fi
tm send-keys -t rl q
wait_exit rl >/dev/null

# Its chart (run --replay F --plot): every caption, numbered at its line
# and listed whole, however close together; the figures the talk showed
# among the panels (here a recording of an idxlab before view lines: its
# knobs' presenter-metrics, fsync/c, which never moves), and the summary
# names them.
awk 'BEGIN {
	print "{\"idxlab_recording\":1,\"idxlab\":\"0.1.0\",\"engine\":\"sqlite\",\"started\":\"2026-01-01T00:00:00Z\"}"
	rows = 0; commits = 0; spills = 0
	for (i = 0; i <= 240; i++) {
		t = i * 0.25
		ix = t >= 30 ? 1 : 0
		if (i % 20 == 4) printf "{\"t\":%.2f,\"caption\":\"caption %d of the talk, long enough to need room\"}\n", t, i / 20 + 1
		printf "{\"t\":%.2f,\"state\":\"running\",\"activity\":\"running\",\"activity_t\":0,", t
		printf "\"knobs_gen\":%d,\"knobs\":{\"engine\":\"sqlite\",\"indexes\":\"%d\",\"presenter-metrics\":\"fsyncs_per_commit\"},", ix + 1, ix
		printf "\"table_rows\":%d,\"c\":{\"t\":%.2f,\"rows\":%d,\"commits\":%d,\"spills\":%d,\"fsyncs\":%d},", rows, t, rows, commits, spills, commits * 4
		printf "\"lat\":{\"n\":%d,\"max_ns\":1000000,\"b\":[[300,%d]]},", commits, commits
		printf "\"sizes\":{\"db_bytes\":%d,\"index_bytes\":%d,\"index_pages\":[]},\"where\":\"talk.db\"}\n", 4096 + rows * 50, ix * rows * 20
		rows += 1000; commits += 1; spills += ix ? 300 : 2
	}
}' >"$T/captions.rec"
"$IDXLAB" run --replay "$T/captions.rec" --plot "$T/captions.png" >/dev/null 2>"$T/captions.err"
if grep -q 'panels (rows/s, p99 ms, fsync/c, spill/row)' "$T/captions.err"; then
	ok replay/plot-has-the-talks-figures
else bad replay/plot-has-the-talks-figures "$(cat "$T/captions.err")"; fi
if grep -q '12 captions (numbered at their lines, listed whole above them)' "$T/captions.err" &&
	[ "$(head -c 4 "$T/captions.png" | tail -c 3)" = PNG ]; then
	ok replay/plot-draws-every-caption
else bad replay/plot-draws-every-caption "$(cat "$T/captions.err")"; fi
