# threads
# Passwords never show: not on stderr or stdout (libpq's, libmongoc's and
# idxlab's own messages), not in --print-config, the report's header, the
# dashboard, a recording, nor in the process's argv (ps, /proc/PID/cmdline).
# Every form a dsn can carry one in: conninfo password= (quoted or not),
# URI userinfo user:PW@, ?password= / &password=, sslpassword,
# authMechanismProperties.
. "$(dirname "$0")/lib.sh"

PW=SECRETPW
# shown NAME FILE...: PASS when no file holds the password.
shown() {
	name=$1
	shift
	if grep -q "$PW" "$@" 2>/dev/null; then
		bad "$name" "the password is shown: $(grep -h "$PW" "$@" | head -c 400)"
	else
		ok "$name"
	fi
}
# refused NAME CODE PATTERN CMD...: CMD exits CODE, says PATTERN on stderr
# (it still says what is wrong) and shows no password on stdout or stderr.
refused() {
	name=$1
	expect_exit "$@"
	shown "$name-no-password" "$T/out" "$T/err"
}

# --- unparsable URIs: the libraries quote them back -------------------------
refused secrets/pg-bad-ipv6-uri 1 'cannot connect to PostgreSQL: .*IPv6 host address in URI' \
	"$IDXLAB" run --engine postgres --dsn "postgres://u:$PW@[::1/d" --rows 10
refused secrets/pg-bad-percent-in-password 1 'invalid percent-encoded token' \
	"$IDXLAB" run --engine postgres --dsn "postgres://u:SECRETPW%zz@localhost/d" --rows 10
refused secrets/pg-bad-percent-in-query 1 'invalid percent-encoded token' \
	"$IDXLAB" run --engine postgres --dsn "postgres://u@localhost/d?password=SECRETPW%zz" --rows 10
refused secrets/mongo-bad-ipv6-uri 2 'is not a MongoDB connection string: Invalid host string' \
	"$IDXLAB" run --engine mongo --dsn "mongodb://u:$PW@[::1/" --rows 10
refused secrets/mongo-bad-port 2 'is not a MongoDB connection string' \
	"$IDXLAB" run --engine mongo --dsn "mongodb://u:$PW@127.0.0.1:99999/" --rows 10
refused secrets/mongo-env-uri 2 'is not a MongoDB connection string' \
	env MONGODB_URI="mongodb://u:$PW@[::1/" "$IDXLAB" run --engine mongo --rows 10
refused secrets/mongo-unreachable 1 'cannot reach MongoDB at 127\.0\.0\.1:1' \
	"$IDXLAB" run --engine mongo --rows 10 \
	--dsn "mongodb://u:$PW@127.0.0.1:1/?serverSelectionTimeoutMS=300&authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:$PW"
# A stray word of an unquoted conninfo is echoed as an unexpected argument.
refused secrets/stray-argument 2 "unexpected argument 'password=\*\*\*'" \
	"$IDXLAB" run --engine postgres --dsn host=x "password=$PW"

# --- every form, in --print-config and in a failed run's messages ----------
i=0
while IFS= read -r dsn; do
	i=$((i + 1))
	"$IDXLAB" --engine postgres --print-config --dsn "$dsn" >"$T/pc" 2>&1
	# (A tab in the dsn is refused: --print-config could not write it back.)
	if grep -q "^dsn = .*\*\*\*" "$T/pc" || grep -q "holds a control character" "$T/pc"; then
		shown "secrets/print-config-form-$i" "$T/pc"
	else bad "secrets/print-config-form-$i" "no masked dsn line for $dsn: $(cat "$T/pc")"; fi
	# The header names the dsn; the server is absent, so libpq fails.
	"$IDXLAB" run --engine postgres --dsn "$dsn" --rows 10 >"$T/out" 2>"$T/err"
	shown "secrets/run-form-$i" "$T/out" "$T/err"
done <<EOF
host=$T/nosock user=u password=$PW
host=$T/nosock user=u password='$PW with spaces'
host=$T/nosock user=u password = $PW
host=$T/nosock password='it\\'s $PW' user=u
host=$T/nosock user=u sslpassword=$PW
postgres://u:$PW@/d?host=$T/nosock
postgresql://u:$PW@localhost:1/d
postgresql://u@/d?host=$T/nosock&password=$PW
postgresql://u@/d?password=$PW&host=$T/nosock
mongodb://u@h/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:$PW
host=$T/nosock user=u password=	$PW
host=$T/nosock user=u password	=$PW
host=$T/nosock user=u password=a\\ $PW
postgresql://u:a $PW@/d?host=$T/nosock
postgresql://u:a'$PW@/d?host=$T/nosock
postgresql://u@/d?host=$T/nosock&password=a $PW
EOF
# What the mask leaves is still the dsn the user gave.
"$IDXLAB" --print-config --engine postgres --dsn "host=h password='$PW x' user=u" >"$T/pc"
grep -qx "dsn = host=h password=\*\*\* user=u" "$T/pc" && ok secrets/print-config-keeps-the-rest ||
	bad secrets/print-config-keeps-the-rest "$(grep '^dsn' "$T/pc")"
printf 'engine = postgres\ndsn = postgres://u:%s@h/d\n' "$PW" >"$T/pw.conf"
"$IDXLAB" --print-config -c "$T/pw.conf" >"$T/pc" 2>&1
grep -q '^dsn = postgres://u:\*\*\*@h/d$' "$T/pc" && shown secrets/print-config-from-file "$T/pc" ||
	bad secrets/print-config-from-file "$(cat "$T/pc")"

# --- a dsn with a password is no file name ----------------------------------
mkdir -p "$T/cwd"
for eng in sqlite wiredtiger; do
	(cd "$T/cwd" && exec "$IDXLAB" run --engine $eng --dsn "host=x password=$PW" --rows 10) \
		>"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc = 2 ] && grep -q 'holds a password' "$T/err" && [ -z "$(ls -A "$T/cwd")" ]; then
		shown "secrets/$eng-refuses-a-conninfo" "$T/out" "$T/err"
	else bad "secrets/$eng-refuses-a-conninfo" "exit $rc, made '$(ls -A "$T/cwd")': $(cat "$T/err")"; fi
	rm -rf "$T/cwd" && mkdir -p "$T/cwd"
done

# --- a server with a password: the run, ps, the dashboard, a recording -----
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip secrets/server "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
mkdir -p "$T/own"
as=""
if [ "$(id -u)" = 0 ]; then
	user=postgres
	id -u postgres >/dev/null 2>&1 || user=nobody
	chown "$user" "$T/own"
	as="setpriv --reuid=$(id -u $user) --regid=$(id -g $user) --clear-groups"
fi
printf '%s\n' "$PW" >"$T/own/pw"
chmod 644 "$T/own/pw"
$as "$bindir/initdb" -D "$T/own/data" -U owner --auth=scram-sha-256 --pwfile="$T/own/pw" -N \
	>"$T/own/initdb.log" 2>&1 &&
	$as "$bindir/pg_ctl" -D "$T/own/data" -l "$T/own/log" -w -o "-k $T/own -c listen_addresses=''" \
		start >/dev/null 2>&1
trap '$as "$bindir/pg_ctl" -D "$T/own/data" -m immediate stop >/dev/null 2>&1; lib_exit' EXIT
psql_() { PGPASSWORD=$PW "$bindir/psql" -X -q -t -A -h "$T/own" -U owner -d postgres -c "$1" 2>&1; }
if [ "$(psql_ 'SELECT 1')" != 1 ]; then
	bad secrets/own-server "could not start a test server: $(tail -5 "$T/own/log" "$T/own/initdb.log")"
	exit 0
fi
conninfo="host=$T/own dbname=postgres user=owner password=$PW"
uri="postgresql://owner:$PW@/postgres?host=$T/own"

# The password works, and is in no output.
if "$IDXLAB" run --engine postgres --dsn "$conninfo" --rows 500 >"$T/out" 2>"$T/err" &&
	grep -q "dsn=host=$T/own dbname=postgres user=owner password=\*\*\*" "$T/out"; then
	shown secrets/server-run "$T/out" "$T/err"
else bad secrets/server-run "$(cat "$T/out" "$T/err")"; fi
expect_exit secrets/server-wrong-password 1 'password authentication failed for user "owner"' \
	"$IDXLAB" run --engine postgres --dsn "host=$T/own dbname=postgres user=owner password=WRONG$PW"
shown secrets/server-wrong-password-not-shown "$T/out" "$T/err"

# While it runs, its argv no longer holds the password (--dsn X and --dsn=X).
its_schema() { [ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 1 ]; }
n=0
for form in sep eq; do
	if [ $form = sep ]; then
		"$IDXLAB" run --engine postgres --dsn "$conninfo" --rows 100000000 --format csv >"$T/out" 2>"$T/err" &
	else
		"$IDXLAB" run --engine postgres --dsn="$uri" --rows 100000000 --format csv >"$T/out" 2>"$T/err" &
	fi
	pid=$!
	going=no
	poll 60 its_schema && going=yes
	tr '\0' ' ' </proc/$pid/cmdline >"$T/cmdline"
	kill -INT $pid
	wait $pid
	rc=$?
	if [ $going = yes ] && grep -q -- '--dsn' "$T/cmdline" && grep -q 'owner' "$T/cmdline"; then
		shown "secrets/argv-$form" "$T/cmdline"
	else bad "secrets/argv-$form" "the run did not get going (exit $rc): $(cat "$T/cmdline" "$T/err")"; fi
	shown "secrets/argv-$form-output" "$T/out" "$T/err"
done

# --schema-from holds a conninfo or URI too: while the run it started
# goes on (the spec read, idxlab's own table filling, on SQLite: a
# PostgreSQL source would run on PostgreSQL), argv shows no password, in
# either form.
psql_ 'CREATE TABLE orders (id bigint PRIMARY KEY, customer int, note text)' >/dev/null
for form in sep eq; do
	rm -rf "$TMPDIR"/idxlab-sqlite.*
	if [ $form = sep ]; then
		"$IDXLAB" run --schema-from "$uri:public.orders" --engine sqlite --rows 100000000 >"$T/out" 2>"$T/err" &
	else
		"$IDXLAB" run --schema-from="$conninfo:orders" --engine sqlite --rows 100000000 >"$T/out" 2>"$T/err" &
	fi
	pid=$!
	owner=$(owner_pid "$TMPDIR/idxlab-sqlite")
	tr '\0' ' ' </proc/$pid/cmdline >"$T/cmdline" 2>/dev/null
	kill -INT $pid
	wait $pid
	rc=$?
	if [ "$owner" = $pid ] && grep -q -- '--schema-from' "$T/cmdline" && grep -q 'owner' "$T/cmdline"; then
		shown "secrets/argv-schema-from-$form" "$T/cmdline"
	else bad "secrets/argv-schema-from-$form" "the run did not get going (exit $rc): $(cat "$T/cmdline" "$T/err")"; fi
	shown "secrets/argv-schema-from-$form-output" "$T/out" "$T/err"
done

if ! command -v tmux >/dev/null; then
	skip secrets/dash "tmux is not installed (apt-get install tmux)"
	exit 0
fi
# The dashboard on the server, recorded: the title, the event log and the
# recording hold no password; nor does a ps listing taken meanwhile.
printf '#!/bin/sh\nexec "%s" --engine postgres --dsn "%s" --record "%s" --rows 100000\n' \
	"$IDXLAB" "$uri" "$T/pg.rec" >"$T/pgdash.sh"
start pgdash TMPDIR="$TMPDIR" sh "$T/pgdash.sh"
if wait_for pgdash 'socket:.*/postgres' 10 && wait_for pgdash '││rows/s +[0-9]' 10; then
	tm send-keys -t pgdash Right
	wait_for pgdash 'built idxlab_k1 on' 10
	cap pgdash >"$T/pgdash.txt"
	ps -ww -eo args >"$T/ps.txt"
	shown secrets/dash-server "$T/pgdash.txt" "$T/ps.txt"
else bad secrets/dash-server "$(cap pgdash)"; fi
tm send-keys -t pgdash q
wait_exit pgdash >/dev/null
grep -q '"where"' "$T/pg.rec" && shown secrets/dash-server-recording "$T/pg.rec" ||
	bad secrets/dash-server-recording "no samples recorded: $(head -c 300 "$T/pg.rec")"

# A recording that holds a password (an older idxlab's, or edited by hand):
# --replay shows none in the title or the caption.
sed 's|"where":"|"where":"pg://u:'"$PW"'@h |' "$T/pg.rec" >"$T/old.rec"
printf '{"t":0.5,"caption":"connect with password=%s"}\n' "$PW" >>"$T/old.rec"
start oldrec TMPDIR="$TMPDIR" "$IDXLAB" --replay "$T/old.rec"
if wait_for oldrec 'REPLAY 1x [0-9:]+ / [0-9:]+ postgres .*pg://u:' 10 &&
	wait_for oldrec '▶ connect with password' 10; then
	cap oldrec >"$T/oldrec.txt"
	shown secrets/replay-old-recording "$T/oldrec.txt"
else bad secrets/replay-old-recording "$(cap oldrec)"; fi
tm send-keys -t oldrec q
wait_exit oldrec >/dev/null

# A failed open in the dashboard: the message on screen and in the recording.
printf '#!/bin/sh\ncd "%s" && exec "%s" --dsn "host=x password=%s" --record "%s" --rows 100000\n' \
	"$T/cwd" "$IDXLAB" "$PW" "$T/sq.rec" >"$T/sqdash.sh"
start sqdash TMPDIR="$TMPDIR" sh "$T/sqdash.sh"
wait_for sqdash 'holds a password' 10
cap sqdash >"$T/sqdash.txt"
tm send-keys -t sqdash q
wait_exit sqdash >/dev/null
if [ -z "$(ls -A "$T/cwd")" ] && grep -q 'holds a password' "$T/sqdash.txt"; then
	shown secrets/dash-sqlite-conninfo "$T/sqdash.txt" "$T/sq.rec"
else bad secrets/dash-sqlite-conninfo "made '$(ls -A "$T/cwd")': $(cat "$T/sqdash.txt")"; fi
