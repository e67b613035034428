# threads
# The worker thread and the reporter: interval records stream while a step
# runs, Ctrl-C stops cleanly with the partial result and exit 130, SIGTERM too.
# The runs a signal stops have --warmup off: the signal is meant for the
# measured step (one during the warm-up ends a run with nothing measured).
. "$(dirname "$0")/lib.sh"

"$IDXLAB" run --commit row --rows 600 --interval 0.2 --format csv >"$T/i.csv" 2>"$T/err"
rc=$?
n=$(grep -c ',interval,' "$T/i.csv")
steps=$(grep -c ',step,[0-9]' "$T/i.csv")
if [ $rc -eq 0 ] && [ "$steps" -eq 1 ]; then ok live/interval-run; else bad live/interval-run "rc=$rc $(cat "$T/err")"; fi
# 600 commits with sync full take about half a second or more; every
# interval record must carry a real rate.
columns "$T/i.csv" rows_per_s && [ "$n" -ge 1 ] &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rows_per_s") c = i; next }
	/,interval,/ && $c == "" { bad = 1 } END { exit bad }' "$T/i.csv" &&
	ok live/interval-records-have-rates || bad live/interval-records-have-rates "$(cat "$T/i.csv")"
echo "  interval records: $n"

# A step too long to run twice (--rows 100000000, as a demo or a bench
# runs "until stopped"): the warm-up (on by default) takes its first
# seconds only, so interval records come within seconds, not after 100M
# unmeasured rows.
"$IDXLAB" run -v --sync off --commit 1000 --rows 100000000 --interval 0.5 --format csv >"$T/w.csv" 2>"$T/w.err" &
pid=$!
poll 60 grep -q ',interval,' "$T/w.csv"
kill -INT $pid
wait $pid
if grep -q ',interval,' "$T/w.csv" && grep -q 'warm-up: step 1 ran its start unmeasured' "$T/w.err"; then
	ok live/long-step-warm-up-is-bounded
else bad live/long-step-warm-up-is-bounded "$(tail -3 "$T/w.err")"; fi

"$IDXLAB" run --warmup off --commit row --rows 100000 --interval 0.2 >"$T/p.txt" 2>"$T/p.err" &
pid=$!
poll 30 grep -q '^progress: step 1' "$T/p.err"
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ]; then ok live/ctrl-c-exit-130; else bad live/ctrl-c-exit-130 "exit $rc: $(tail -3 "$T/p.err")"; fi
grep -q 'interrupted' "$T/p.txt" && ok live/ctrl-c-partial-result || bad live/ctrl-c-partial-result "$(cat "$T/p.txt")"
grep -q '^progress: step 1' "$T/p.err" && ok live/progress-lines || bad live/progress-lines "$(cat "$T/p.err")"

# Ctrl-C in the middle of one big transaction (commit all): the worker stops
# between rows and commits, so the partial result is there, and no statement
# was cut (no "interrupted" warning from SQLite).
"$IDXLAB" run --warmup off --rows 50000000 --format csv >"$T/big.csv" 2>"$T/big.err" &
pid=$!
poll 30 bigger "$TMPDIR/idxlab-sqlite.*/idxlab.db" 1024 # rows going in
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && [ "$(field "$T/big.csv" interrupted 1)" = 1 ] &&
	[ "$(field "$T/big.csv" rows 1)" -gt 0 ] && ! grep -q 'interrupted (code 9)' "$T/big.err"; then
	ok live/ctrl-c-one-transaction-partial-result
else bad live/ctrl-c-one-transaction-partial-result "exit $rc: $(cat "$T/big.csv" "$T/big.err")"; fi

# stopped_by NAME SIG CODE: a run sent SIG once it writes rows exits CODE
# with the partial result.
stopped_by() {
	"$IDXLAB" run --warmup off --commit row --rows 100000 --format csv >"$T/q.csv" 2>"$T/q.err" &
	pid=$!
	poll 30 bigger "$TMPDIR/idxlab-sqlite.*/idxlab.db" 16 # rows past the empty table's 16 KiB
	kill -"$2" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$3" ] && [ "$(field "$T/q.csv" interrupted 1)" = 1 ] && ok "$1" ||
		bad "$1" "exit $rc: $(cat "$T/q.csv" "$T/q.err")"
}
stopped_by live/sigterm TERM 143
# SIGQUIT (Ctrl-\) too: the partial result, exit 131, the temp dir removed.
stopped_by live/sigquit QUIT 131
no_leftovers live/sigquit-temp-dir-removed

# A headless run in a terminal that closes (SIGHUP): the same, exit 129.
if command -v tmux >/dev/null; then
	start_hup hup TMPDIR="$TMPDIR" "$IDXLAB" run --warmup off --commit row --rows 1000000 --format csv ">$T/hup.csv"
	pid=$(owner_pid "$TMPDIR/idxlab-sqlite")
	poll 30 bigger "$TMPDIR/idxlab-sqlite.*/idxlab.db" 16 # rows past the empty table's 16 KiB
	tm kill-session -t hup
	code=$(wait_exit hup)
	if [ -n "$pid" ] && gone "$pid" && [ "$code" = EXIT=129 ] &&
		[ "$(field "$T/hup.csv" interrupted 1)" = 1 ]; then
		ok live/sighup
	else bad live/sighup "pid '$pid', $code: $(cat "$T/hup.csv")"; fi
	no_leftovers live/sighup-temp-dir-removed
else
	skip live/sighup "tmux is not installed"
fi
# ... unless SIGHUP is ignored (nohup): then the run goes on.
(
	trap '' HUP
	exec "$IDXLAB" run --warmup off --commit row --rows 1000000 --format csv >/dev/null 2>&1
) &
pid=$!
poll 30 owner_written "$TMPDIR/idxlab-sqlite" # under way, its handlers set
kill -HUP $pid
sleep 0.5 # (it must not end meanwhile)
if kill -0 $pid 2>/dev/null; then ok live/nohup-ignores-sighup; else bad live/nohup-ignores-sighup "it ended"; fi
kill -TERM $pid
wait $pid


# Interval windows tile the step: they never add up to more than the step
# (a window may hold no row at all: a long commit, a slow machine).
"$IDXLAB" run --indexes 0,1 --key-order rand --rows 150000 --interval 0.1 --format csv >"$T/tile.csv" 2>/dev/null
columns "$T/tile.csv" rows record step &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rows") r = i; if ($i == "record") k = i; if ($i == "step") s = i } next }
	$k == "interval" { sum[$s] += $r; n++ } $k == "step" { total[$s] = $r }
	END { for (x in total) if (sum[x] > total[x]) bad = 1; exit bad || !n }' "$T/tile.csv" &&
	ok live/intervals-tile-steps || bad live/intervals-tile-steps "$(cut -d, -f10-13,32- "$T/tile.csv")"
no_leftovers live/temp-dir-removed
