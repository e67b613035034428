# Commit shape: a commit per row with a rollback journal and synchronous=FULL
# is exactly 4 fsyncs; WAL with synchronous=NORMAL almost none; and idxlab's
# count equals strace's for the same run.
. "$(dirname "$0")/lib.sh"

"$IDXLAB" run -v --commit row --journal delete --sync full --rows 300 --indexes 0,3 --format csv \
	>"$T/c.csv" 2>"$T/err" || { bad commit/run "$(cat "$T/err")"; exit 1; }
f0=$(field "$T/c.csv" fsyncs_per_commit 1)
f3=$(field "$T/c.csv" fsyncs_per_commit 2)
echo "  fsyncs/commit: 0 indexes $f0, 3 indexes $f3"
check commit/delete-full-4-fsyncs "$f0 == 4.0 && $f3 == 4.0"
check commit/row-commits "$(field "$T/c.csv" commits 1) == 300"
check commit/latency "$(field "$T/c.csv" p50_ms 1) > 0 && $(field "$T/c.csv" p99_ms 1) >= $(field "$T/c.csv" p50_ms 1)"
# The closing message (a detail: -v) speaks of the WAL checkpoint only in WAL mode.
if grep -q 'sqlite: closed: [0-9]* fsync+fdatasync calls while closing, ' "$T/err" &&
	! grep -q 'WAL' "$T/err"; then
	ok commit/close-message-no-wal-in-delete-mode
else
	bad commit/close-message-no-wal-in-delete-mode "$(cat "$T/err")"
fi

"$IDXLAB" run -v --commit row --journal wal --sync normal --rows 2000 --format csv \
	>"$T/w.csv" 2>"$T/err" || { bad commit/wal "$(cat "$T/err")"; exit 1; }
fw=$(field "$T/w.csv" fsyncs_per_commit 1)
echo "  fsyncs/commit, wal+normal: $fw"
check commit/wal-normal-under-0.1 "$fw < 0.1"
check commit/wal-bytes "$(field "$T/w.csv" wal_bytes_per_row 1) > 4096"
if grep -q 'sqlite: closed: [0-9]* fsync+fdatasync calls while closing (the checkpoint of the WAL' "$T/err"; then
	ok commit/close-message-wal-checkpoint
else
	bad commit/close-message-wal-checkpoint "$(cat "$T/err")"
fi

"$IDXLAB" run --commit 100 --rows 1000 --format csv >"$T/b.csv" 2>"$T/err" || { bad commit/batch "$(cat "$T/err")"; exit 1; }
check commit/batch-of-100 "$(field "$T/b.csv" commits 1) == 10"

if ! command -v strace >/dev/null; then
	skip commit/strace-equal "strace is not installed (apt-get install strace)"
elif [ -n "${IDXLAB_SANITIZED:-}" ]; then
	skip commit/strace-equal "not under sanitizers (they add their own syscalls)"
else
	strace -f -c -e trace=fsync,fdatasync -o "$T/strace.txt" \
		"$IDXLAB" run --commit row --journal delete --sync full --rows 200 --indexes 2 --format csv \
		>"$T/s.csv" 2>"$T/err"
	rc=$?
	ours=$(field "$T/s.csv" fsyncs_total 1)
	theirs=$(awk '$NF == "fsync" || $NF == "fdatasync" { n += $4 } END { print n + 0 }' "$T/strace.txt")
	echo "  fsync+fdatasync: idxlab $ours, strace $theirs"
	if [ $rc -eq 0 ] && [ "$ours" -eq "$theirs" ] && [ "$ours" -gt 800 ]; then
		ok commit/strace-equal
	else
		bad commit/strace-equal "rc=$rc idxlab=$ours strace=$theirs: $(cat "$T/strace.txt")"
	fi
	# WAL mode: closing the last connection checkpoints the WAL into the
	# database and syncs both, after the last record; idxlab says how many.
	strace -f -c -e trace=fsync,fdatasync -o "$T/strace.txt" \
		"$IDXLAB" run -v --commit row --journal wal --sync full --rows 200 --format csv \
		>"$T/s.csv" 2>"$T/err"
	rc=$?
	ours=$(field "$T/s.csv" fsyncs_total 1)
	theirs=$(awk '$NF == "fsync" || $NF == "fdatasync" { n += $4 } END { print n + 0 }' "$T/strace.txt")
	closing=$(sed -n 's/.*sqlite: closed: \([0-9]*\) fsync+fdatasync calls while closing.*/\1/p' "$T/err")
	all=$(sed -n 's/.*sqlite: closed: .*, \([0-9]*\) in all since idxlab started.*/\1/p' "$T/err")
	echo "  WAL mode: idxlab $ours at the report + ${closing:-?} while closing = ${all:-?}, strace $theirs"
	if [ $rc -eq 0 ] && [ -n "$closing" ] && [ "$closing" -gt 0 ] && [ "$all" -eq "$theirs" ] &&
		[ $((ours + closing)) -eq "$theirs" ]; then
		ok commit/strace-equal-wal-close
	else
		bad commit/strace-equal-wal-close "rc=$rc idxlab=$ours+$closing=$all strace=$theirs: $(cat "$T/err")"
	fi
fi
no_leftovers commit/temp-dir-removed
