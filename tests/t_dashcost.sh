# threads
# What the dashboard's samples cost (issue 21 item 9): an engine's
# statistics are read at most 1 % of the worker's time (a PostgreSQL sample
# takes ~15-25 ms), with light samples between (the worker's own rows and
# commits), and every figure means what it meant. Checked on what the
# dashboard records (--record), not on time:
#  - PostgreSQL: light samples (c holds rows and commits only) carry the
#    last full reading ("full": the engine's counters), fewer readings than
#    samples; wal B/row on the screen is a figure, not n/a, between them;
#  - SQLite (a sample costs ~0.1 ms): readings come, light samples (if the
#    machine makes samples dear) are as PostgreSQL's;
#  - run --replay exports the PostgreSQL recording with a WAL figure in
#    every window (windows between full readings).
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	skip dashcost/all "tmux is not installed (apt-get install tmux)"
	exit 0
fi
WORK="--op update --prefill 20000 --commit 100 --sync off"

# samples FILE: the running samples of a recording, one JSON line each.
samples() { jq -c 'select(.state == "running" and .c.rows != null)' "$1" 2>/dev/null; }
# readings FILE: how many full readings its running samples span.
readings() { samples "$1" | jq -s '[.[] | (.full.t // .c.t)] | unique | length'; }
at_least_readings() { [ "$(readings "$1")" -ge "$2" ]; }
at_least_samples() { [ "$(samples "$1" | wc -l)" -ge "$2" ]; }
# exited SESSION: idxlab in SESSION has ended (its exit code written).
exited() { [ -s "$T/$1.exit" ]; }

# light_ok NAME FILE: the light samples of FILE (those with "full") hold
# only what the step loop counts itself (rows, commits, the reads' counts
# and a mix's times), and beside them the last reading, with the engine's
# counters in it, older than the sample.
light_ok() {
	lo_bad=$(samples "$2" | jq -s '[.[] | select(.full != null) |
		select((.c | keys - ["t", "rows", "commits", "reads", "read_rows", "read_ns",
		                   "write_ns", "writes", "writes_timed"] | length) != 0 or
		       (.full | has("wal_bytes") | not) or .full.t >= .c.t)] | length')
	if [ "$lo_bad" = 0 ]; then ok "$1"; else
		bad "$1" "$lo_bad malformed light samples: $(samples "$2" | jq -c 'select(.full != null) | [.c, .full]' | head -2)"
	fi
}

# --- SQLite: samples cost ~0.1 ms, nearly all full --------------------------
rec="$T/sqlite.rec"
start dsq TMPDIR="$TMPDIR" "$IDXLAB" --engine sqlite $WORK --record "$rec"
if poll 60 at_least_samples "$rec" 20 && [ "$(readings "$rec")" -ge 2 ]; then
	ok dashcost/sqlite-readings
else bad dashcost/sqlite-readings "$(samples "$rec" | wc -l) samples, $(readings "$rec") readings: $(cap dsq)"; fi
light_ok dashcost/sqlite-light-samples "$rec"
tm send-keys -t dsq q
poll 30 exited dsq || note "the SQLite dashboard did not end on q: $(cap dsq)"

# --- PostgreSQL: readings at their cost, light samples between -------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip dashcost/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
rec="$T/pg.rec"
start dpg TMPDIR="$TMPDIR" "$IDXLAB" --engine postgres $WORK --record "$rec"
if poll 120 at_least_readings "$rec" 4; then
	ok dashcost/pg-readings
else bad dashcost/pg-readings "$(readings "$rec") readings: $(cap dpg)"; fi
# light samples between the readings, well formed
light=$(samples "$rec" | jq -s '[.[] | select(.full != null)] | length')
total=$(samples "$rec" | wc -l)
if [ "$light" -gt 0 ] && [ "$(readings "$rec")" -lt "$total" ]; then
	ok dashcost/pg-light-between-readings
else bad dashcost/pg-light-between-readings "$light light of $total samples, $(readings "$rec") readings"; fi
light_ok dashcost/pg-light-samples "$rec"
# the figures between readings: wal B/row is a number on the screen while
# light samples come (it reads n/a between a light and a full sample
# otherwise)
if wait_for dpg 'wal B/row +[0-9.]+ [kMG]?i?B' 10; then
	ok dashcost/pg-wal-figure-shown
else bad dashcost/pg-wal-figure-shown "$(cap dpg)"; fi
tm send-keys -t dpg q
poll 30 exited dpg || note "the PostgreSQL dashboard did not end on q: $(cap dpg)"

# the recording exported: a WAL figure in every window that ran rows
csv="$T/pg-replay.csv"
if "$IDXLAB" run --replay "$rec" --format csv >"$csv" 2>"$T/pg-replay.err"; then
	empty=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "wal_bytes_per_row") w = i; if ($i == "rows_per_s") r = i } next }
		$r + 0 > 0 && ($w == "" || $w == "n/a") { n++ } $r + 0 > 0 { all++ } END { print n + 0, all + 0 }' "$csv")
	if [ "${empty%% *}" = 0 ] && [ "${empty#* }" -gt 0 ]; then
		ok dashcost/pg-replay-export-figures
	else bad dashcost/pg-replay-export-figures "windows without a WAL figure, of all: $empty: $(head -5 "$csv")"; fi
else bad dashcost/pg-replay-export-figures "$(cat "$T/pg-replay.err")"; fi
