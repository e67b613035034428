# tests/lib.sh - helpers for the shell tests (sourced).
# A test prints PASS/FAIL/SKIP lines through ok/bad/skip; run.sh tallies them.
# A helper that finds a test's ground missing (field: no such column; a
# wait that timed out) leaves a note (note); the next verdict is the test
# that relied on it: ok turns into FAIL with the note, bad adds it. A note
# no verdict took fails at exit (lib_exit).
set -u
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
# The test dir's name is padded to 64 characters (when TMPDIR is short), so
# every run sees what a user with a long TMPDIR sees: paths in messages wrap
# in the 100-column tmux pane and get cut at the dashboard's box edges. (cap
# joins wrapped lines; nothing may depend on where one wraps.) Not longer:
# the throwaway PostgreSQL's socket needs TMPDIR of at most 75 characters,
# and t_pg.sh gives idxlab TMPDIR=$T/pgfull (so a TMPDIR of up to 57
# characters still runs every test).
base=${TMPDIR:-/tmp}
pad=""
while [ $((${#base} + ${#pad} + 11)) -lt 64 ]; do pad=${pad}x; done
T=$(mktemp -d "$base/idxlab.${pad}XXX")
unset base pad
chmod 755 "$T"
export TMPDIR="$T/t"
mkdir -p "$TMPDIR"
chmod 1777 "$TMPDIR"
# Never read the developer's own config file.
export XDG_CONFIG_HOME="$T/xdg"
export HOME="$T/home"
mkdir -p "$HOME"
# lib_exit: what every test file's EXIT trap ends with. Its check name has
# the file's prefix, as every other check of the file (t_load_pg.sh:
# load-pg/...).
lib_exit() {
	[ -s "$T/notes" ] && echo "FAIL $(basename "$0" .sh | sed 's/^t_//' | tr _ -)/unreported-notes: $(tr '\n' ' ' <"$T/notes")"
	tmux -S "$T/tmux.sock" kill-server 2>/dev/null
	rm -rf "$T"
}
trap lib_exit EXIT

# pg_bindir: the newest installed PostgreSQL server's bin dir, or "".
pg_bindir() {
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
		[ -x "$d/initdb" ] && [ -x "$d/postgres" ] && echo "$d" && return
	done
}

# own_pg NAME: start a PostgreSQL server of the test's own in $T/own (as
# user postgres when root: the server refuses root), trust auth for user
# owner on a unix socket there; sets as and dsn, and stops it at exit.
# Needs bindir (pg_bindir). Returns 1 after FAIL NAME if it does not answer.
own_pg() {
	mkdir -p "$T/own"
	as=""
	if [ "$(id -u)" = 0 ]; then
		user=postgres
		id -u postgres >/dev/null 2>&1 || user=nobody
		chown "$user" "$T/own"
		as="setpriv --reuid=$(id -u $user) --regid=$(id -g $user) --clear-groups"
	fi
	$as "$bindir/initdb" -D "$T/own/data" -U owner --auth=trust -N >"$T/own/initdb.log" 2>&1 &&
		$as "$bindir/pg_ctl" -D "$T/own/data" -l "$T/own/log" -w -o "-k $T/own -c listen_addresses=''" start >/dev/null 2>&1
	trap '$as "$bindir/pg_ctl" -D "$T/own/data" -m immediate stop >/dev/null 2>&1; lib_exit' EXIT
	dsn="host=$T/own dbname=postgres user=owner"
	[ "$(psql_ 'SELECT 1')" = 1 ] && return 0
	bad "$1" "could not start a test server: $(tail -5 "$T/own/log" "$T/own/initdb.log")"
	return 1
}
# psql_ SQL: one query on own_pg's server, unaligned, its errors too.
psql_() { "$bindir/psql" -X -q -t -A -d "$dsn" -c "$1" 2>&1; }
# pg_idle: until no idxlab session is left on own_pg's server (a killed
# one's backend ends late); a note after 60 s.
pg_idle() {
	poll 60 pg_no_idxlab || note "an idxlab session was still on the test server after $((60 * slow)) s"
}
pg_no_idxlab() { [ "$(psql_ "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idxlab'")" = 0 ]; }
# hold_until SQL ARGS...: idxlab run on own_pg's server in the background
# ($pid, output in $T/hold.csv and .err) with ARGS; returns once SQL answers
# t (1: the run ended first, or 60 s passed).
hold_until() {
	sql=$1
	shift
	pg_idle
	"$IDXLAB" run --engine postgres --dsn "$dsn" --format csv "$@" >"$T/hold.csv" 2>"$T/hold.err" &
	pid=$!
	poll 60 hold_answered && [ "$(psql_ "$sql" 2>/dev/null)" = t ]
}
# hold_answered: hold_until's SQL answers t, or its run has ended.
hold_answered() { [ "$(psql_ "$sql" 2>/dev/null)" = t ] || ! kill -0 $pid 2>/dev/null; }
# release [SIGNAL]: end hold_until's run (TERM), reap it, let the server idle.
release() {
	kill -"${1:-TERM}" $pid 2>/dev/null
	wait $pid 2>/dev/null
	pg_idle
}

# note TEXT: a test's ground is missing; the next verdict fails with TEXT.
note() { printf '%s\n' "$*" >>"$T/notes"; }
# notes: the notes left since the last verdict, on one line (and forgets them).
notes() {
	[ -s "$T/notes" ] || return 0
	tr '\n' ' ' <"$T/notes"
	: >"$T/notes"
}
ok() {
	if [ -s "$T/notes" ]; then echo "FAIL $1: $(notes)"; else echo "PASS $1"; fi
}
bad() {
	if [ -s "$T/notes" ]; then echo "FAIL $1: $2 [$(notes)]"; else echo "FAIL $1: $2"; fi
}
skip() { echo "SKIP $1: $2"; }
# holds NAME DETAIL CMD...: PASS when CMD succeeds, else FAIL with DETAIL.
holds() {
	name=$1 detail=$2
	shift 2
	if "$@" >/dev/null 2>&1; then ok "$name"; else bad "$name" "$detail"; fi
}

# is_num TEXT...: every TEXT is a decimal number (what an empty or n/a
# field, a missing column or a word is not).
is_num() {
	for lib_x in "$@"; do
		printf '%s\n' "$lib_x" | grep -Eqx -- '[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?' || return 1
	done
}
# check NAME CONDITION-TEXT: awk-evaluated numeric condition, e.g. "3 >= 2*1".
# Every operand must be a number or a "string": awk reads a word (field's
# NOCOLUMN, nan) as 0 and an empty one as a syntax error, so a missing
# column must not pass "== 0" or "< k".
check() {
	lib_rest=$(printf '%s\n' "$2" | sed -E 's/"[^"]*"//g; s/(^|[^A-Za-z_0-9.])[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?/\1/g' |
		tr -d ' \t<>=!&|()+*/%?:^,.\n-')
	if [ -n "$lib_rest" ]; then
		bad "$1" "not a number in: $2"
	elif awk "BEGIN { exit !($2) }" </dev/null 2>"$T/check.err"; then
		ok "$1"
	else bad "$1" "not true: $2$(sed 's/^/; /' "$T/check.err" | head -2 | tr -d '\n')"; fi
}

# columns FILE NAME...: FILE (a CSV file written by idxlab --format csv) has
# every column NAME; else a note (the next verdict fails) and 1. For the
# tests' own readers of a CSV: awk reads a column it did not find as $0 or
# as empty, either of which can pass a check.
columns() {
	lib_f=$1
	shift
	for lib_c in "$@"; do
		head -1 "$lib_f" 2>/dev/null | tr ',' '\n' | grep -qx -- "$lib_c" && continue
		if [ ! -s "$lib_f" ]; then note "$lib_f is empty or missing (wanted column $lib_c)"
		else note "$(basename "$lib_f") has no column $lib_c (its header: $(head -1 "$lib_f" | cut -c1-300))"; fi
		return 1
	done
}
# field FILE NAME [ROW]: the value of column NAME in data row ROW (default 1)
# of a CSV file written by idxlab --format csv. No such column or row:
# NOCOLUMN(NAME) or NOROW(ROW), which no check takes for a number, and a
# note, which fails the next verdict.
field() {
	columns "$1" "$2" || { echo "NOCOLUMN($2)"; return 1; }
	if [ "$(($(wc -l <"$1") - 1))" -lt "${3:-1}" ]; then
		note "$(basename "$1") has no data row ${3:-1} (for column $2)"
		echo "NOROW(${3:-1})"
		return 1
	fi
	awk -F, -v name="$2" -v row="${3:-1}" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next }
		NR == row + 1 { print $col }' "$1"
}

# expect_exit NAME CODE PATTERN CMD...: CMD exits CODE and its stderr matches PATTERN
expect_exit() {
	name=$1 code=$2 pat=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne "$code" ]; then
		bad "$name" "exit $rc, expected $code; stderr: $(head -c 300 "$T/err")"
	elif ! grep -qE -- "$pat" "$T/err"; then
		bad "$name" "stderr does not match /$pat/: $(head -c 300 "$T/err")"
	else
		ok "$name"
	fi
}

# The temp dir idxlab makes must be gone after a run.
no_leftovers() {
	if [ -n "$(ls -A "$TMPDIR")" ]; then
		bad "$1" "left behind in TMPDIR: $(ls -A "$TMPDIR")"
	else
		ok "$1"
	fi
}

# ---- waiting -------------------------------------------------------------
# A wait polls its condition and ends as soon as it holds; its deadline only
# bounds a failure, so it is generous (a loaded 2-core machine takes many
# times an idle one's time), and three times that under the sanitizers.
slow=1
[ -n "${IDXLAB_SANITIZED:-}" ] && slow=3
# poll SECONDS CMD...: CMD every 0.1 s until it succeeds (0); 1 once SECONDS
# (times slow) have passed. Not nested: one deadline at a time.
poll() {
	lib_end=$(($(date +%s) + $1 * slow))
	shift
	until "$@"; do
		[ "$(date +%s)" -ge "$lib_end" ] && return 1
		sleep 0.1
	done
}
# alive PID: PID runs and is no zombie.
alive() {
	lib_st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$lib_st" ] && [ "$lib_st" != Z ]
}
# cpu_used PID SECONDS: PID has run SECONDS of CPU (user and system, all
# its threads), or has ended: how far a run got, which a loaded machine
# does not shrink as it shrinks what a sleep of the same length sees done.
cpu_used() {
	[ -e "/proc/$1/stat" ] || return 0
	awk -v s="$2" -v hz="$(getconf CLK_TCK)" '{ exit !(($14 + $15) / hz >= s) }' "/proc/$1/stat" 2>/dev/null
}
# bigger PATTERN KIB: a file matching the shell PATTERN (e.g.
# "$TMPDIR/idxlab-sqlite.*/idxlab.db") holds over KIB KiB: a run is past its
# set-up and writing rows.
bigger() {
	for lib_f in $1; do
		[ -f "$lib_f" ] && [ "$(($(wc -c <"$lib_f") / 1024))" -gt "$2" ] && return 0
	done
	return 1
}

# ---- tmux: drive the dashboard like a person ----------------------------
SOCK="$T/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }

# start NAME ARGS...: idxlab in a 100x30 session, in the directory $T; its
# exit code and the terminal settings afterwards land in $T/NAME.exit and
# $T/NAME.stty (the settings first: NAME.exit there means both are whole).
start() {
	name=$1
	shift
	tm new-session -d -s "$name" -x 100 -y 30 -c "$T" \
		"env $* ; e=\$?; stty -a >$T/$name.stty 2>&1; echo EXIT=\$e >$T/$name.exit; sleep 60"
}
# start_hup NAME ARGS...: like start, for a hangup (tm kill-session -t NAME,
# as when a terminal window closes or ssh drops): the pane's shell dies and
# idxlab gets SIGHUP; a shell between them outlives the hangup and writes
# idxlab's exit status to $T/NAME.exit (ARGS hold no single quote).
start_hup() {
	name=$1
	shift
	tm new-session -d -s "$name" -x 100 -y 30 -c "$T" \
		"sh -c 'trap : HUP; env $* ; echo EXIT=\$? >$T/$name.exit'; exit"
}
# owner_pid PREFIX: the pid in PREFIX.*/owner.pid (in the dir idxlab made,
# e.g. "$TMPDIR/idxlab-sqlite"), waiting for it to appear; "" and a note if
# none did within 60 s.
owner_pid() {
	if poll 60 owner_written "$1"; then
		cut -d' ' -f1 "$(ls "$1".*/owner.pid | head -1)"
	else note "no $1.*/owner.pid after $((60 * slow)) s"; fi
}
owner_written() { [ -s "$(ls "$1".*/owner.pid 2>/dev/null | head -1)" ]; }
# gone PID: wait for PID to end (30 s at most); 0 when it did, else a note.
gone() {
	poll 30 not_alive "$1" || { note "pid $1 still ran $((30 * slow)) s later"; return 1; }
}
not_alive() { ! alive "$1"; }
# The pane's text, a line the terminal wrapped joined again (-J).
cap() { tm capture-pane -p -J -t "$1"; }
# wait_for SESSION PATTERN SECONDS: 0 once PATTERN is on SESSION's screen.
# SECONDS is about what it takes on an idle machine; the deadline is three
# times that, at least 30 s. A timeout, or the session's end, leaves a note:
# the test that waited fails by name, also where it dropped the result.
wait_for() {
	lib_s=$(($3 * 3))
	[ $lib_s -ge 30 ] || lib_s=30
	lib_seen=""
	poll $lib_s on_screen "$1" "$2"
	[ -n "$lib_seen" ] && return 0
	if tm has-session -t "$1" 2>/dev/null; then
		note "waited $((lib_s * slow)) s in vain for /$2/ on $1"
	else note "session $1 ended while waiting for /$2/"; fi
	return 1
}
# on_screen SESSION PATTERN: PATTERN is on the screen (lib_seen=1: a screen
# may hold it only for a moment), or the session is gone.
on_screen() {
	cap "$1" 2>/dev/null | grep -qE -- "$2" && lib_seen=1 && return 0
	! tm has-session -t "$1" 2>/dev/null
}
# pin SESSION [PATTERN]: b until a baseline is pinned (PATTERN shows,
# default 'baseline pinned'): the dashboard refuses one while its window
# since a change is short ('press b again'), which on a loaded machine lasts
# longer. 1 and a note if none was within 60 s. Not in a demo (b blanks).
pin() {
	lib_pin_end=$(($(date +%s) + 60 * slow))
	while [ "$(date +%s)" -lt $lib_pin_end ]; do
		tm send-keys -t "$1" b
		lib_seen=""
		poll 5 on_screen "$1" "${2:-baseline pinned}"
		[ -n "$lib_seen" ] && return 0
	done
	note "no baseline pinned on $1 in $((60 * slow)) s of pressing b"
	return 1
}
# selected SESSION: the selected knob's name (its line starts with '>').
selected() { cap "$1" | grep -oE '^(│|\|)>[a-z-]+' | head -1; }
# moved SESSION KNOB: the selection is no longer KNOB (a key took effect).
moved() { [ "$(selected "$1")" != "$2" ]; }
# rows_flow NAME SESSION: after a live change, the workload runs again:
# no FAILED line, and a rows/s above 0 on a screen captured well after the
# change (the 1 s window then holds only rows done since).
rows_flow() {
	sleep $((2 * slow))
	if wait_for "$2" '││rows/s +[0-9.]*[1-9]' 10 && ! cap "$2" | grep -q 'FAILED'; then
		ok "$1"
	else bad "$1" "$(cap "$2")"; fi
}
# wait_exit NAME: the EXIT=N line of session NAME's idxlab once it ended;
# "" and a note if it still ran 60 s later.
wait_exit() {
	poll 60 test -s "$T/$1.exit" || note "session $1's idxlab still ran $((60 * slow)) s later"
	cat "$T/$1.exit" 2>/dev/null
}
