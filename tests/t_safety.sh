# idxlab never touches what it did not create, and says what to do when it
# cannot write; the temp dir of a killed run is removed by the next one, and
# nothing else is.
. "$(dirname "$0")/lib.sh"

sum() { sha256sum "$1" | cut -d' ' -f1; }

# A foreign SQLite database (even one with a table named idxlab_t).
python3 - "$T/foreign.db" <<'PY' 2>/dev/null || sqlite3 "$T/foreign.db" "CREATE TABLE idxlab_t(x); INSERT INTO idxlab_t VALUES(1);" 2>/dev/null
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE idxlab_t(x)")
c.execute("INSERT INTO idxlab_t VALUES(1)")
c.commit()
PY
if [ ! -s "$T/foreign.db" ]; then
	skip safety/foreign-sqlite "neither python3 nor sqlite3 can make a fixture database"
else
	before=$(sum "$T/foreign.db")
	expect_exit safety/foreign-sqlite 2 "did not create.*never touches it.*new file name" \
		"$IDXLAB" run --dsn "$T/foreign.db" --rows 10
	after=$(sum "$T/foreign.db")
	if [ "$before" = "$after" ] && [ ! -e "$T/foreign.db-journal" ]; then
		ok safety/foreign-sqlite-untouched
	else bad safety/foreign-sqlite-untouched "checksum changed or a journal appeared"; fi
fi

# A file that is not a database at all.
printf 'precious notes\n' >"$T/notes.txt"
before=$(sum "$T/notes.txt")
expect_exit safety/foreign-file 2 "not an SQLite database idxlab created" \
	"$IDXLAB" run --dsn "$T/notes.txt" --rows 10
[ "$before" = "$(sum "$T/notes.txt")" ] && ok safety/foreign-file-untouched ||
	bad safety/foreign-file-untouched "checksum changed"
: >"$T/empty.db"
expect_exit safety/empty-file 2 "not an SQLite database idxlab created" \
	"$IDXLAB" run --dsn "$T/empty.db" --rows 10
[ ! -s "$T/empty.db" ] && ok safety/empty-file-untouched || bad safety/empty-file-untouched "written to"
expect_exit safety/directory 2 "is not a regular file" "$IDXLAB" run --dsn "$T" --rows 10

# A file idxlab created is reused, step after step, and kept.
if "$IDXLAB" run --dsn "$T/mine.db" --rows 500 --indexes 1,2 --format csv >"$T/a.csv" 2>"$T/err" &&
	"$IDXLAB" run --dsn "$T/mine.db" --rows 700 --format csv >"$T/b.csv" 2>>"$T/err" &&
	[ -s "$T/mine.db" ] && [ "$(field "$T/b.csv" rows 1)" = 700 ]; then
	ok safety/own-file-reused
else bad safety/own-file-reused "$(cat "$T/err")"; fi

# Two idxlabs on one --dsn file: the second is told the file is in use (by
# which pid) and exits 1; the first runs on unharmed. A killed first run
# blocks nobody.
"$IDXLAB" run --dsn "$T/shared.db" --commit row --rows 3000 --format csv >"$T/first.csv" 2>"$T/first.err" &
pid=$!
poll 60 test -s "$T/shared.db-idxlab-lock" # its pid in the lock it holds
expect_exit safety/sqlite-second-idxlab-refused 1 "$T/shared.db is in use by another idxlab \(pid $pid\)" \
	"$IDXLAB" run --dsn "$T/shared.db" --rows 10
wait $pid
rc=$?
if [ $rc -eq 0 ] && [ "$(field "$T/first.csv" rows 1)" = 3000 ]; then
	ok safety/sqlite-first-idxlab-unharmed
else bad safety/sqlite-first-idxlab-unharmed "exit $rc: $(cat "$T/first.err")"; fi
if command -v tmux >/dev/null; then
	start shdash "$IDXLAB" --dsn "$T/shared.db" --commit row
	wait_for shdash '││rows/s +[0-9]' 5
	expect_exit safety/sqlite-dashboard-in-use 1 "$T/shared.db is in use by another idxlab \(pid [0-9]+\)" \
		"$IDXLAB" run --dsn "$T/shared.db" --rows 10
	if wait_for shdash 'running' 2 && ! cap shdash | grep -q 'FAILED'; then
		tm send-keys -t shdash q
		code=$(wait_exit shdash)
		[ "$code" = EXIT=0 ] && ok safety/sqlite-dashboard-unharmed || bad safety/sqlite-dashboard-unharmed "got '$code'"
	else bad safety/sqlite-dashboard-unharmed "$(cap shdash)"; fi
else
	skip safety/sqlite-dashboard-in-use "tmux is not installed"
fi
"$IDXLAB" run --dsn "$T/shared.db" --commit row --rows 1000000 --format csv >/dev/null 2>&1 &
pid=$!
poll 60 test -s "$T/shared.db-idxlab-lock"
kill -9 $pid
wait $pid 2>/dev/null
if "$IDXLAB" run --dsn "$T/shared.db" --rows 100 --format csv >"$T/after.csv" 2>"$T/err" &&
	[ "$(field "$T/after.csv" rows 1)" = 100 ] && [ ! -e "$T/shared.db-idxlab-lock" ]; then
	ok safety/sqlite-killed-idxlab-blocks-nobody
else bad safety/sqlite-killed-idxlab-blocks-nobody "$(cat "$T/err")"; fi

# An unwritable directory: exit 1 and say what to do. Root ignores
# permissions, so run as nobody when we are root.
mkdir "$T/ro"
chmod 555 "$T/ro"
cp "$IDXLAB" "$T/idxlab-copy"
chmod 755 "$T/idxlab-copy"
as_user=""
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null; then
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
fi
if [ "$(id -u)" = 0 ] && [ -z "$as_user" ]; then
	skip safety/unwritable-dir "running as root without setpriv: cannot drop privileges"
else
	expect_exit safety/unwritable-dir 1 "cannot write $T/ro/x.db.*writable" \
		$as_user env ASAN_OPTIONS=detect_leaks=0 "$T/idxlab-copy" run --dsn "$T/ro/x.db" --rows 10
	expect_exit safety/unwritable-tmpdir 1 "cannot create a temp dir in $T/ro.*TMPDIR" \
		$as_user env TMPDIR="$T/ro" ASAN_OPTIONS=detect_leaks=0 "$T/idxlab-copy" run --rows 10
fi
[ -z "$(ls -A "$T/ro")" ] && ok safety/unwritable-dir-empty || bad safety/unwritable-dir-empty "files appeared"
no_leftovers safety/temp-dir-removed

# A full disk: exit 1, the message names the cause and what to do.
mkdir "$T/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$T/full" 2>/dev/null; then
	expect_exit safety/disk-full 1 "disk full.*free space there or lower --rows" \
		"$IDXLAB" run --dsn "$T/full/x.db" --rows 100000
	# Nothing half-written: the next opener rolls the journal back to a sound file.
	if command -v python3 >/dev/null; then
		r=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('pragma integrity_check').fetchone()[0])" "$T/full/x.db" 2>&1)
		[ "$r" = ok ] && ok safety/disk-full-file-sound || bad safety/disk-full-file-sound "$r"
	else
		skip safety/disk-full-file-sound "python3 is not installed"
	fi
	# WiredTiger: a log write fails, it panics; the message says why.
	rm -f "$T/full"/x.db*
	if [ -n "${IDXLAB_SANITIZED:-}" ]; then
		skip safety/disk-full-wiredtiger "not under sanitizers: after a panic WiredTiger cannot free its memory, which LeakSanitizer reports"
	else
		expect_exit safety/disk-full-wiredtiger 1 "$T/full/wt.*full.*free space there or lower --rows" \
			"$IDXLAB" run --engine wiredtiger --dsn "$T/full/wt" --rows 200000
	fi
	umount "$T/full"
else
	skip safety/disk-full "needs root and permission to mount a 1 MiB tmpfs"
fi

# --record on a full disk: the header cannot be written. Exit 1 (no usage
# error), said before any screen, and no file left: an empty one refused
# the next try with "File exists".
mkdir -p "$T/recfull"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/recfull" 2>/dev/null; then
	head -c 1048576 /dev/zero >"$T/recfull/fill" 2>/dev/null
	for try in 1 2; do
		start "recfull$try" TMPDIR="$TMPDIR" "$IDXLAB" --rows 100000 --record "$T/recfull/a.rec"
		code=$(wait_exit "recfull$try")
		if [ "$code" = EXIT=1 ] && [ ! -e "$T/recfull/a.rec" ] &&
			cap "recfull$try" | grep -q "recording is not made (no file left): writing $T/recfull/a.rec: No space left"; then
			ok "safety/record-disk-full-$try"
		else bad "safety/record-disk-full-$try" "$code $(ls "$T/recfull") $(cap "recfull$try")"; fi
		tm kill-session -t "recfull$try" 2>/dev/null
	done
	umount "$T/recfull"
else
	skip safety/record-disk-full "needs root and permission to mount a 64 KiB tmpfs"
fi

# --- two signals: the same stop, or (a deliberate later one) the end at once
# `timeout -s INT` sends SIGINT to idxlab and to its process group: two
# signals at once, or a moment apart. Within a second of the first they
# are one stop: the partial result, exit 130, nothing left. A later one
# ends idxlab at once, and even then its server and temp dir go. The
# stop is held open by a throwaway PostgreSQL whose processes are all
# stopped: the orderly stop waits 1 s for an answer, then kills it.
bindir=$(pg_bindir)
# pg_held NAME: idxlab on a throwaway server in a session of its own
# ($pid, output $f.csv and .err, $f is $T/ and NAME without safety/),
# every server process SIGSTOPped
# once the workload runs; 1 (after FAIL NAME) if it never ran.
pg_held() {
	f=$T/${1#safety/}
	setsid "$IDXLAB" run --engine postgres --warmup off --commit 100 --rows 100000000 --interval 0.2 \
		--format csv >"$f.csv" 2>"$f.err" &
	pid=$!
	i=0
	# the step runs once it has written an interval record
	while [ $i -lt $((300 * slow)) ] && ! grep -q ',interval,' "$f.csv" && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	pm=$(pgrep -P $pid -x postgres | head -1)
	if [ -z "$pm" ] || ! grep -q ',interval,' "$f.csv" ||
		[ "$(ps -o pgid= -p $pid | tr -d ' ')" != $pid ]; then
		bad "$1" "the run did not get going: $(tail -3 "$f.err")"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		return 1
	fi
	kill -STOP $pm $(pgrep -P "$pm")
}
# nothing_left NAME: no temp dir and no server process of idxlab's.
nothing_left() {
	i=0
	while [ $i -lt 30 ] && pgrep -f "$TMPDIR/idxlab-pg\." >/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	if pgrep -f "$TMPDIR/idxlab-pg\." >/dev/null; then
		bad "$1-no-processes" "$(pgrep -af "$TMPDIR/idxlab-pg")"
		pkill -9 -f "$TMPDIR/idxlab-pg\."
	else ok "$1-no-processes"; fi
	no_leftovers "$1-no-temp-dir"
	rm -rf "$TMPDIR"/idxlab-pg.*
}
if [ -z "$bindir" ]; then
	skip safety/two-signals "no PostgreSQL server installed (apt-get install postgresql)"
elif pg_held safety/two-sigints-one-stop; then
	# To the process and its group at the same instant, then once more
	# 0.3 s later, while idxlab still waits for the server.
	kill -INT -$pid $pid
	sleep 0.3
	kill -INT $pid
	wait $pid
	rc=$?
	stepint=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "record") r = i; if ($i == "interrupted") c = i }; next }
		r && c && $r == "step" { print $c }' "$f.csv")
	if [ $rc = 130 ] && [ "$stepint" = 1 ] &&
		grep -q 'did not answer within 1.0 s of the stop' "$f.err" &&
		! grep -q 'a second signal' "$f.err"; then
		ok safety/two-sigints-one-stop
	else bad safety/two-sigints-one-stop "exit $rc: $(cat "$f.csv" "$f.err")"; fi
	nothing_left safety/two-sigints-one-stop
fi
if [ -n "$bindir" ] && pg_held safety/later-sigint-at-once; then
	# The first stop is under way (and cannot end: the server is
	# stopped); idxlab is frozen a while, then sent a second SIGINT that
	# it sees 1.5 s after the first.
	kill -INT $pid
	sleep 0.5
	kill -STOP $pid
	sleep 1
	kill -INT $pid
	kill -CONT $pid
	i=0
	while [ $i -lt $((50 * slow)) ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	wait $pid
	rc=$?
	if [ $rc = 130 ] && [ $i -lt 20 ] &&
		grep -q '^idxlab: a second signal: ending at once' "$f.err"; then
		ok safety/later-sigint-at-once
	else bad safety/later-sigint-at-once "exit $rc after ${i}0 ms: $(cat "$f.err")"; fi
	nothing_left safety/later-sigint-at-once
fi
# The same end at once with the dashboard on screen gives the terminal back
# (its modes, the normal screen): the shell after it reads its own stty.
if [ -n "$bindir" ] && command -v tmux >/dev/null; then
	start dsig2 TMPDIR="$TMPDIR" "$IDXLAB" --engine postgres --rows 100000000
	dpid=$(pgrep -P "$(tm display -p -t dsig2 '#{pane_pid}')" -x idxlab | head -1)
	if wait_for dsig2 '││rows/s +[0-9]' 20 && [ -n "$dpid" ] &&
		pm=$(pgrep -P "$dpid" -x postgres | head -1) && [ -n "$pm" ]; then
		kill -STOP $pm $(pgrep -P "$pm")
		kill -INT $dpid
		sleep 0.5 # the orderly stop under way (it waits for the server) ...
		kill -STOP $dpid
		sleep 1 # ... and the second signal seen more than a second after it
		kill -INT $dpid
		kill -CONT $dpid
		code=$(wait_exit dsig2)
		if [ "$code" = EXIT=130 ] && grep -q ' icanon' "$T/dsig2.stty" &&
			grep -q ' echo ' "$T/dsig2.stty"; then
			ok safety/dash-second-signal-terminal-restored
		else bad safety/dash-second-signal-terminal-restored "$code; $(cat "$T/dsig2.stty")"; fi
		nothing_left safety/dash-second-signal
	else bad safety/dash-second-signal-terminal-restored "the dashboard did not run: $(cap dsig2)"; fi
	tm kill-session -t dsig2 2>/dev/null
fi

# --- a killed idxlab's temp dir: left behind, removed by the next start ----
# In a TMPDIR of their own. The sweep must remove only what is a dead
# idxlab's own: not a live one's, not another kind's, not a stranger's, and
# never through a symlink.
S=$T/sweep
mkdir -p "$S"
dead_pid() { sh -c 'echo $$'; } # a process that has just ended
in_s() { env TMPDIR="$S" "$IDXLAB" run "$@"; }

# killed NAME ENGINE KIND: kill -9 a run; its dir stays, the next run removes
# it and says so.
killed() {
	env TMPDIR="$S" "$IDXLAB" run --engine "$2" --rows 3000000 --commit 100 --format csv \
		>/dev/null 2>&1 &
	pid=$!
	left=""
	poll 60 owned_dir "$3" # (sets left)
	kill -9 $pid
	wait $pid 2>/dev/null
	if [ -n "$left" ] && [ -d "$left" ] && [ "$(cut -d' ' -f1 "$left/owner.pid")" = "$pid" ]; then
		ok "safety/$1-killed-leaves-dir"
	else bad "safety/$1-killed-leaves-dir" "no $S/idxlab-$3.* with owner.pid $pid: $(ls -A "$S")"; fi
	in_s --engine "$2" --rows 100 --format csv >/dev/null 2>"$T/sweep.err"
	if [ -n "$left" ] && [ ! -e "$left" ] &&
		grep -q "removed the leftovers of a killed idxlab: $left\$" "$T/sweep.err"; then
		ok "safety/$1-next-run-removes-it"
	else bad "safety/$1-next-run-removes-it" "$(ls -A "$S"); stderr: $(cat "$T/sweep.err")"; fi
	[ -z "$(ls -A "$S")" ] && ok "safety/$1-sweep-leaves-nothing" ||
		bad "safety/$1-sweep-leaves-nothing" "left in $S: $(ls -A "$S")"
}
# owned_dir KIND: $S/idxlab-KIND.* (into left) has its owner.pid and more.
owned_dir() {
	left=$(ls -d "$S/idxlab-$1".* 2>/dev/null | head -1)
	[ -s "$left/owner.pid" ] && [ "$(ls -A "$left" | wc -l)" -ge 2 ]
}
killed sqlite sqlite sqlite
# libmongoc's counters file (/dev/shm/mongoc-PID, made as idxlab loads,
# whatever the engine) does not outlive a killed idxlab either.
if [ -d /dev/shm ] && ! "$IDXLAB" --version | grep -q 'engine mongo: not built'; then
	env TMPDIR="$S" "$IDXLAB" run --rows 3000000 --format csv >/dev/null 2>&1 &
	pid=$!
	poll 60 owned_dir sqlite # past its start (mongoc's counters made)
	kill -9 $pid
	wait $pid 2>/dev/null
	[ ! -e "/dev/shm/mongoc-$pid" ] && ok safety/killed-leaves-no-mongoc-counters ||
		bad safety/killed-leaves-no-mongoc-counters "/dev/shm/mongoc-$pid is left"
	in_s --rows 10 --format csv >/dev/null 2>&1 # sweeps the killed run's dir
fi
if "$IDXLAB" --version | grep -q 'engine wiredtiger: not built'; then
	skip safety/wiredtiger-killed "idxlab was built without WiredTiger"
else
	killed wiredtiger wiredtiger wt
fi

# What the sweep must leave alone, next to what it must remove.
leftover() { # leftover NAME OWNER-PID|"": a dir named like an SQLite leftover
	mkdir "$S/idxlab-sqlite.$1"
	[ -n "$2" ] && echo "$2" >"$S/idxlab-sqlite.$1/owner.pid"
	echo data >"$S/idxlab-sqlite.$1/idxlab.db"
	touch -d '10 minutes ago' "$S/idxlab-sqlite.$1"
}
leftover alive $$
leftover dead1 "$(dead_pid)"
leftover noown "" # killed before it wrote owner.pid, 10 minutes ago
# A dead pid of this PID namespace and boot (as idxlab writes owner.pid) goes;
# one of another namespace (a container sharing TMPDIR) or boot stays.
here="$(readlink /proc/self/ns/pid) $(cat /proc/sys/kernel/random/boot_id)"
leftover deadhere "$(dead_pid) $here"
leftover otherns "$(dead_pid) pid:[1] $(cat /proc/sys/kernel/random/boot_id)"
leftover otherboot "$(dead_pid) $(readlink /proc/self/ns/pid) 00000000-0000-0000-0000-000000000000"
leftover young ""
touch "$S/idxlab-sqlite.young" # ... or being made right now
mkdir "$T/outside"
echo precious >"$T/outside/keep"
ln -s "$T/outside" "$S/idxlab-sqlite.dead1/link" # inside a leftover: unlinked, not followed
echo "$(dead_pid)" >"$T/outside/owner.pid"
ln -s "$T/outside" "$S/idxlab-sqlite.symlnk" # a symlink named like a leftover
mkdir "$S/idxlab-wt.other" "$S/idxlab.oldstyle"
echo "$(dead_pid)" >"$S/idxlab-wt.other/owner.pid"
echo "$(dead_pid)" >"$S/idxlab.oldstyle/owner.pid"
if [ "$(id -u)" = 0 ]; then
	leftover stranger "$(dead_pid)"
	chown -R 65534:65534 "$S/idxlab-sqlite.stranger"
fi
in_s --rows 100 --format csv >/dev/null 2>"$T/sweep.err" || bad safety/sweep-run "$(cat "$T/sweep.err")"
gone_() { # gone_ NAME DIR: DIR was removed and the removal reported
	if [ ! -e "$2" ] && grep -q "removed the leftovers of a killed idxlab: $2\$" "$T/sweep.err"; then
		ok "$1"
	else bad "$1" "$2 is still there, or not reported: $(cat "$T/sweep.err")"; fi
}
kept() { # kept NAME PATH: PATH is untouched and no removal of it was reported
	if [ -e "$2" ] && ! grep -q "leftovers of a killed idxlab: $2\$" "$T/sweep.err"; then
		ok "$1"
	else bad "$1" "$2 was removed: $(cat "$T/sweep.err")"; fi
}
gone_ safety/sweep-dead-owner "$S/idxlab-sqlite.dead1"
gone_ safety/sweep-no-owner-old "$S/idxlab-sqlite.noown"
gone_ safety/sweep-dead-owner-here "$S/idxlab-sqlite.deadhere"
kept safety/sweep-keeps-other-pid-namespace "$S/idxlab-sqlite.otherns/idxlab.db"
kept safety/sweep-keeps-other-boot "$S/idxlab-sqlite.otherboot/idxlab.db"
kept safety/sweep-keeps-live-owner "$S/idxlab-sqlite.alive/idxlab.db"
kept safety/sweep-keeps-young-no-owner "$S/idxlab-sqlite.young/idxlab.db"
kept safety/sweep-keeps-other-kind "$S/idxlab-wt.other/owner.pid"
kept safety/sweep-keeps-old-style-name "$S/idxlab.oldstyle/owner.pid"
[ -L "$S/idxlab-sqlite.symlnk" ] && [ "$(cat "$T/outside/keep" 2>/dev/null)" = precious ] &&
	[ -e "$T/outside/owner.pid" ] && ok safety/sweep-symlinks-not-followed ||
	bad safety/sweep-symlinks-not-followed "$(ls -la "$S" "$T/outside")"
if [ "$(id -u)" = 0 ]; then
	kept safety/sweep-keeps-strangers "$S/idxlab-sqlite.stranger/idxlab.db"
else
	skip safety/sweep-keeps-strangers "needs root to make a directory of another user"
fi
rm -rf "$S"
