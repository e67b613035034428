# threads
# PostgreSQL: a real throwaway cluster that idxlab starts itself (as user
# postgres when we are root), and a second server this test starts for the
# --dsn cases. Covers the published numbers (WAL per index, HOT, fsyncs per
# commit) and the failures (a killed server, a killed idxlab's leftovers, a
# foreign schema, a second idxlab on one database, a full disk, no server, a
# TMPDIR too long for the socket).
. "$(dirname "$0")/lib.sh"

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip pg/all "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
# The longest TMPDIR given to idxlab here is $T/pgfull: the server's socket
# needs it at most 75 characters (pg/tmpdir-too-long checks the refusal).
if [ ${#T} -gt 68 ]; then
	skip pg/all "TMPDIR is too long for the throwaway server's unix socket ($T/pgfull is over 75 characters): run the tests with a shorter TMPDIR"
	exit 0
fi
pgrun() { "$IDXLAB" run --engine postgres "$@"; }
# start_with_server OUT ERR: a long run in the background; sets pid, and pm
# to its throwaway server's postmaster once that runs (empty after 10 s).
start_with_server() {
	"$IDXLAB" run --engine postgres --commit row --rows 100000000 --format csv >"$1" 2>"$2" &
	pid=$!
	pm=""
	poll 60 postmaster_up
}
postmaster_up() { pm=$(pgrep -P $pid -x postgres | head -1) && [ -n "$pm" ]; }
# rows_in N: idxlab's throwaway server has taken N rows or more (its own
# statistics, which its backends flush about once a second): the run is past
# its set-up.
rows_in() {
	d=$(ls -d "$TMPDIR"/idxlab-pg.* 2>/dev/null | head -1)
	[ -S "$d/.s.PGSQL.5432" ] && [ "$("$bindir/psql" -X -q -t -A -h "$d" -U idxlab -d postgres -c \
		"SELECT sum(tup_inserted) >= $1 FROM pg_stat_database" 2>/dev/null)" = t ]
}
# no_pg_left: no process of a throwaway server of ours runs.
no_pg_left() { ! pgrep -f "$TMPDIR/idxlab-pg\." >/dev/null; }

# stop_unanswered NAME SIG CODE BACKEND [POSTMASTER]: idxlab ($pid, its
# output in $T/su.csv and $T/su.err) works against a server; SIGSTOP its
# backend (and the postmaster: no cancel request is served either), send
# idxlab SIG, and it must end within the bound (2 s; 5 s allowed here),
# with CODE, the partial result row on stdout and the reason on stderr.
stop_unanswered() {
	name=$1 sig=$2 code=$3 be=$4 pmx=${5:-}
	if [ -z "$be" ]; then
		bad "$name" "found no backend serving idxlab: $(cat "$T/su.err")"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		return
	fi
	kill -STOP "$be" $pmx
	sleep 0.3
	t0=$(date +%s.%N)
	kill -"$sig" $pid
	i=0
	while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	t1=$(date +%s.%N)
	if kill -0 $pid 2>/dev/null; then
		kill -CONT "$be" $pmx
		kill -9 $pid
		wait $pid 2>/dev/null
		bad "$name" "still running 10 s after one SIG$sig: $(tail -3 "$T/su.err")"
		return
	fi
	wait $pid
	rc=$?
	kill -CONT "$be" $pmx
	took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "  $name: SIG$sig with the server stopped: exit $rc after $took s"
	if [ $rc -eq "$code" ] && awk "BEGIN { exit !($took < 5) }" &&
		[ "$(step_field interrupted)" = 1 ] && [ "$(step_field rows)" -gt 0 ] 2>/dev/null &&
		grep -q "did not answer within 1.0 s of the stop" "$T/su.err"; then
		ok "$name"
	else bad "$name" "exit $rc after $took s; stdout: $(grep -v ',interval,' "$T/su.csv" | tr '\n' '|'); stderr: $(tail -5 "$T/su.err" | tr '\n' '|')"; fi
}
su_run() {
	"$IDXLAB" run --engine postgres --warmup off --commit 100 --rows 100000000 --interval 0.3 --format csv "$@" \
		>"$T/su.csv" 2>"$T/su.err" &
	pid=$!
}
# measured: su_run's step has written an interval record, so a sample was
# taken after its rows began (the partial result has rows to report).
measured() { grep -q ',interval,' "$T/su.csv"; }
# step_field COL: COL of su.csv's step record (empty when there is none).
step_field() {
	awk -F, -v col="$1" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "record") r = i; if ($i == col) c = i }; next }
		r && c && $r == "step" { print $c }' "$T/su.csv"
}

# --- WAL per row grows by one index entry per index (FPI excluded) ------
pgrun --indexes 0,1,2,4 --key-order rand --rows 50000 --format csv >"$T/wal.csv" 2>"$T/err" ||
	{ bad pg/wal-run "$(cat "$T/err")"; exit 1; }
net() { awk -v w="$(field "$T/wal.csv" wal_bytes_per_row "$1")" -v f="$(field "$T/wal.csv" fpi_bytes_per_row "$1")" 'BEGIN { print w - f }'; }
w0=$(net 1) w1=$(net 2) w2=$(net 3) w4=$(net 4)
echo "  WAL B/row without FPI at 0/1/2/4 indexes: $w0 $w1 $w2 $w4"
check pg/wal-per-index-1 "$w1 - $w0 >= 60 && $w1 - $w0 <= 95"
check pg/wal-per-index-2 "($w2 - $w0) / 2 >= 60 && ($w2 - $w0) / 2 <= 95"
check pg/wal-per-index-4 "($w4 - $w0) / 4 >= 60 && ($w4 - $w0) / 4 <= 95"
no_leftovers pg/temp-dir-removed

# --- HOT: fillfactor is the lever, an indexed column kills it ------------
pgrun --op update --fillfactor 25,100 --indexes 2 --rows 20000 --format csv >"$T/hot.csv" 2>"$T/err" ||
	bad pg/hot-run "$(cat "$T/err")"
h25=$(field "$T/hot.csv" hot_pct 1)
h100=$(field "$T/hot.csv" hot_pct 2)
pgrun --op update-indexed --fillfactor 25 --indexes 1 --rows 20000 --format csv >"$T/hoti.csv" 2>"$T/err"
hk1=$(field "$T/hoti.csv" hot_pct 1)
echo "  HOT %: ff 25 $h25, ff 100 $h100, update of k1 $hk1"
check pg/hot-fillfactor-25 "$h25 >= 99"
check pg/hot-fillfactor-100 "$h100 != \"\" && $h100 <= 5"
check pg/hot-indexed-column "$hk1 != \"\" && $hk1 == 0"
# Updating every key column: HOT with no index on them, never with one, and
# then every index gets an entry (about 75 B of WAL each).
pgrun --op update-keys --fillfactor 25 --indexes 0,1,5 --rows 20000 --format csv >"$T/hotk.csv" 2>"$T/err" ||
	bad pg/update-keys-run "$(cat "$T/err")"
hka=$(field "$T/hotk.csv" hot_pct 1) hkb=$(field "$T/hotk.csv" hot_pct 2)
wka=$(field "$T/hotk.csv" wal_bytes_per_row 1) wkb=$(field "$T/hotk.csv" wal_bytes_per_row 2)
wkc=$(field "$T/hotk.csv" wal_bytes_per_row 3)
echo "  update-keys at 0/1/5 indexes: HOT % $hka $hkb; WAL B/row $wka $wkb $wkc"
check pg/update-keys-hot-only-unindexed "$hka >= 99 && $hkb == 0"
check pg/update-keys-wal-per-index "$wkc - $wkb >= 4 * 50"

# --- HOT % and FPI B/row live: inside transactions of 1000 rows every
# interval record has them (FPIs read under a savepoint mid-transaction, HOT
# with the backend's unreported counts), and the intervals add up to the
# step record (which covers a last part no interval record shows). An
# interval of 0.4 s: the step takes 2 to 3 s on an idle machine, and with
# --interval 1 it once printed 2 records, where the checks want 3.
pgrun --op update --commit 1000 --interval 0.4 --indexes 2 --rows 300000 --format csv >"$T/live.csv" 2>"$T/err" ||
	bad pg/live-run "$(cat "$T/err")"
columns "$T/live.csv" record rows hot_pct fpi_bytes_per_row
live=$(awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["record"] == "interval" {
		n++; r += $col["rows"]
		if ($col["hot_pct"] == "") nh++; else h += $col["hot_pct"] * $col["rows"] / 100
		if ($col["fpi_bytes_per_row"] == "") nf++
		else { f = $col["fpi_bytes_per_row"] * $col["rows"]; fs += f; if (f > fmax) fmax = f }
	}
	$col["record"] == "step" { R = $col["rows"]; H = $col["hot_pct"] * R / 100; F = $col["fpi_bytes_per_row"] * R }
	END {
		tail = R - r; th = 0.0005 * (R + r) + 1; tf = 0.05 * (R + r) + 1
		printf "%d %d %d %d %.0f %.0f %.0f %.0f %.0f\n", n, nh + 0, nf + 0,
			H - th - tail <= h && h <= H + th, h, H, F - tf - fmax <= fs && fs <= F + tf, fs, F
	}' "$T/live.csv")
set -- $live
echo "  commit 1000, --interval 0.4: $1 interval records, $2 without HOT %, $3 without FPI B/row; HOT updates $5 in the intervals, $6 in the step; FPI bytes $8 in the intervals, $9 in the step"
check pg/live-hot-in-every-interval "$1 >= 3 && $2 <= $1 / 4"
check pg/live-fpi-in-every-interval "$1 >= 3 && $3 <= $1 / 4"
check pg/live-hot-adds-up "$4 == 1 && $2 == 0"
check pg/live-fpi-adds-up "$7 == 1 && $3 == 0"

# --- the cache gauges (pg_buffercache): a small pool fills and stays dirty,
# a big one holds the table with room to spare.
pgrun --indexes 5 --key-order rand --rows 50000 --cache 16MiB,1GiB --format csv >"$T/bc.csv" 2>"$T/err" ||
	bad pg/cache-gauges-run "$(cat "$T/err")"
u16=$(field "$T/bc.csv" cache_bytes 1) d16=$(field "$T/bc.csv" cache_dirty_pct 1)
u1g=$(field "$T/bc.csv" cache_bytes 2) d1g=$(field "$T/bc.csv" cache_dirty_pct 2)
echo "  shared_buffers 16MiB: used $u16 B, dirty $d16 %; 1GiB: used $u1g B, dirty $d1g %"
check pg/cache-gauges-small-pool-full "$u16 > 0.8 * 16777216 && $u16 <= 16777216 && $d16 > 50"
check pg/cache-gauges-big-pool-roomy "$u1g > 1000000 && $u1g < 0.25 * 1073741824 && $d1g < 25"

# --- fsyncs per commit ----------------------------------------------------
pgrun --commit row --sync full,off --rows 500 --format csv >"$T/fs.csv" 2>"$T/err" ||
	bad pg/fsync-run "$(cat "$T/err")"
fon=$(field "$T/fs.csv" fsyncs_per_commit 1)
foff=$(field "$T/fs.csv" fsyncs_per_commit 2)
echo "  fsyncs/commit: sync on $fon, off $foff"
check pg/fsync-on-1-per-commit "$fon >= 0.95 && $fon <= 1.05"
check pg/fsync-off-about-0 "$foff < 0.1"

# --- spills: dirty buffers the workload's own statements wrote out to make
# room. Not pg_stat_bgwriter.buffers_backend, which also counts relation
# extensions and is published in lumps of 8192: 0.0410/row here.
pgrun --indexes 4 --key-order rand --rows 200000 --cache 128MiB --format csv >"$T/sp1.csv" 2>"$T/err" ||
	bad pg/spills-run "$(cat "$T/err")"
pgrun --indexes 4 --key-order rand --rows 30000 --cache 512kB --format csv >"$T/sp2.csv" 2>"$T/err" ||
	bad pg/spills-run "$(cat "$T/err")"
sbig=$(field "$T/sp1.csv" spills_per_row 1) ssmall=$(field "$T/sp2.csv" spills_per_row 1)
echo "  spills/row: 128MiB $sbig, 512kB $ssmall"
check pg/spills-none-when-it-fits "\"$sbig\" != \"\" && $sbig == 0"
check pg/spills-tiny-cache-thrashes "\"$ssmall\" != \"\" && $ssmall > 1"

# --- a checkpoint in the middle of a step marks its row, in every format;
# the full-page-image figure its WAL recycling loses says why it is empty.
# forced_checkpoint FORMAT OUT: a one-transaction step, and a CHECKPOINT
# from psql once 40 MB of WAL were written since the set-up's checkpoint.
forced_checkpoint() {
	"$IDXLAB" run --engine postgres --warmup off --rows 600000 --format "$1" >"$2" 2>"$2.err" &
	cpid=$!
	i=0
	done=""
	while [ $i -lt 1200 ] && [ -z "$done" ] && kill -0 $cpid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
		d=$(ls -d "$TMPDIR"/idxlab-pg.* 2>/dev/null | head -1)
		[ -n "$d" ] && [ -S "$d/.s.PGSQL.5432" ] || continue
		far=$("$bindir/psql" -X -q -t -A -h "$d" -U idxlab -d postgres -c \
			"SELECT pg_current_wal_insert_lsn() - redo_lsn > 40000000 AND
			 EXISTS (SELECT 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO idxlab%')
			 FROM pg_control_checkpoint()" 2>/dev/null)
		[ "$far" = t ] && "$bindir/psql" -X -q -h "$d" -U idxlab -d postgres -c CHECKPOINT 2>>"$2.err" && done=1
	done
	wait $cpid
	echo "${done:-0}"
}
if [ "$(forced_checkpoint csv "$T/ck.csv")" = 1 ]; then
	ck=$(field "$T/ck.csv" checkpoint_in_window 1) fpi=$(field "$T/ck.csv" fpi_bytes_per_row 1)
	echo "  forced CHECKPOINT: checkpoint_in_window $ck, fpi_bytes_per_row '$fpi'"
	check pg/checkpoint-marks-row "\"$ck\" == 1"
	# One transaction (commit all) across the checkpoint: the WAL is read
	# at every sample, inside it, so none is lost to the checkpoint.
	if [ -n "$fpi" ] && ! grep -q "full-page-image bytes are n/a" "$T/ck.csv.err"; then
		ok pg/fpi-read-across-checkpoint
	else bad pg/fpi-read-across-checkpoint "fpi_bytes_per_row '$fpi': $(cat "$T/ck.csv.err")"; fi
else bad pg/checkpoint-marks-row "could not force a checkpoint mid-step: $(cat "$T/ck.csv.err")"; fi
if [ "$(forced_checkpoint text "$T/ck.txt")" = 1 ] && grep -q ' (checkpoint)$' "$T/ck.txt" &&
	grep -q '^# checkpoint: ' "$T/ck.txt"; then
	ok pg/checkpoint-marks-text-row
else bad pg/checkpoint-marks-text-row "$(cat "$T/ck.txt" "$T/ck.txt.err")"; fi
# No checkpoint in the window, none flagged (every step starts right after one).
flags=$(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "checkpoint_in_window") c = i; next } { printf "%s", $c }' "$T/wal.csv" "$T/sp1.csv" "$T/sp2.csv" | tr -d '\n')
[ "$flags" = 000000 ] && ok pg/no-checkpoint-no-flag || bad pg/no-checkpoint-no-flag "checkpoint_in_window: $flags"

# --- a killed server: exit 1, a message, nothing left behind -------------
start_with_server "$T/k.csv" "$T/k.err"
poll 60 rows_in 1000
if [ -n "$pm" ]; then
	kill -9 "$pm"
else
	kill -TERM $pid # never hang the suite: this fails below
fi
wait $pid
rc=$?
if [ $rc -eq 1 ] && grep -q "throwaway PostgreSQL server.*died" "$T/k.err"; then
	ok pg/killed-server-exit-1
else bad pg/killed-server-exit-1 "exit $rc: $(cat "$T/k.err")"; fi
poll 30 no_pg_left
if pgrep -f "$TMPDIR/idxlab-pg\." >/dev/null; then bad pg/killed-server-no-processes "$(pgrep -af "$TMPDIR/idxlab-pg")"; else ok pg/killed-server-no-processes; fi
no_leftovers pg/killed-server-no-temp-dir

# --- a throwaway server whose backend stops answering: one signal ends
# idxlab within the bound, with the partial result; nothing is left --------
for sig in TERM INT; do
	su_run
	i=0
	be=""
	# The backend that serves the workload: one still there a while later
	# (the server's readiness ping makes a backend that ends at once).
	while [ $i -lt 100 ] && { [ -z "$be" ] || ! kill -0 "$be" 2>/dev/null; }; do
		sleep 0.3
		pmt=$(pgrep -P $pid -x postgres | head -1)
		be=""
		[ -n "$pmt" ] && be=$(pgrep -P "$pmt" -f '^postgres: idxlab ' | head -1)
		[ -n "$be" ] && sleep 0.5
		i=$((i + 1))
	done
	poll 60 measured # into the measurement
	[ $sig = TERM ] && code=143 || code=130
	stop_unanswered pg/stopped-backend-sig$sig-ends $sig $code "$be"
	kill -9 "$be" 2>/dev/null
done
poll 30 no_pg_left
if pgrep -f "$TMPDIR/idxlab-pg\." >/dev/null; then bad pg/stopped-backend-no-processes "$(pgrep -af "$TMPDIR/idxlab-pg")"; else ok pg/stopped-backend-no-processes; fi
no_leftovers pg/stopped-backend-no-temp-dir

# --- a killed idxlab: its server dies with it, its dir (and shared memory)
# stay, and the next start removes them, with a postmaster still running in
# a leftover (a copy of sleep named postgres, run from the dir) -------------
start_with_server /dev/null /dev/null
poll 60 rows_in 1000
kill -9 $pid
wait $pid 2>/dev/null
left=$(ls -d "$TMPDIR"/idxlab-pg.* 2>/dev/null | head -1)
poll 30 no_pg_left # the server dies with it (its death signal)
shm=$(sed -n 7p "$left/data/postmaster.pid" 2>/dev/null | awk '{ print $2 }')
if [ -n "$pm" ] && [ -n "$left" ] && ! pgrep -f "$left/" >/dev/null && [ "$(cut -d" " -f1 "$left/owner.pid")" = $pid ]; then
	ok pg/killed-idxlab-dir-left
else bad pg/killed-idxlab-dir-left "postmaster '$pm', dir '$left': $(pgrep -af "$TMPDIR/idxlab-pg")"; fi
has_shm() { ipcs -m 2>/dev/null | awk -v id="$1" '$2 == id { f = 1 } END { exit !f }'; }
[ -n "$shm" ] && has_shm "$shm" || shm="" # none to drop
mkdir -p "$TMPDIR/idxlab-pg.outliv/data"
cp "$(command -v sleep)" "$TMPDIR/idxlab-pg.outliv/postgres"
"$TMPDIR/idxlab-pg.outliv/postgres" 120 &
outlived=$!
sh -c 'echo $$' >"$TMPDIR/idxlab-pg.outliv/owner.pid"
echo $outlived >"$TMPDIR/idxlab-pg.outliv/data/postmaster.pid"
pgrun --rows 100 --format csv >/dev/null 2>"$T/sw.err" || bad pg/sweep-run "$(cat "$T/sw.err")"
if [ -n "$left" ] && [ ! -e "$left" ] && grep -q "removed the leftovers of a killed idxlab: $left\$" "$T/sw.err"; then
	ok pg/killed-idxlab-dir-removed
else bad pg/killed-idxlab-dir-removed "$(ls -A "$TMPDIR"); $(cat "$T/sw.err")"; fi
if [ -z "$shm" ]; then
	skip pg/killed-idxlab-shm-dropped "no System V segment was left (ipcs missing?)"
elif ! has_shm "$shm"; then
	ok pg/killed-idxlab-shm-dropped
else bad pg/killed-idxlab-shm-dropped "segment $shm is still there"; fi
poll 30 not_alive $outlived
st=$(awk '{ print $3 }' /proc/$outlived/stat 2>/dev/null)
if { [ -z "$st" ] || [ "$st" = Z ]; } && grep -q "killed the PostgreSQL server (pid $outlived)" "$T/sw.err"; then
	ok pg/leftover-postmaster-killed
else bad pg/leftover-postmaster-killed "state '$st': $(cat "$T/sw.err")"; fi
kill -9 $outlived 2>/dev/null
wait $outlived 2>/dev/null
no_leftovers pg/sweep-leaves-nothing

# A TMPDIR too long for the server's socket path: said before any server
# starts, and nothing left there.
long=$T/$(printf 'x%.0s' $(seq 1 90))
mkdir -p "$long"
expect_exit pg/tmpdir-too-long 1 "TMPDIR=$long is too long to hold the server's unix socket \(at most [0-9]+ characters\)" \
	env TMPDIR="$long" "$IDXLAB" run --engine postgres --rows 10
[ -z "$(ls -A "$long")" ] && ok pg/tmpdir-too-long-nothing-left || bad pg/tmpdir-too-long-nothing-left "$(ls -A "$long")"

# --- our own server for the --dsn cases -----------------------------------
if own_pg pg/own-server; then
	# Works on a user's server, and leaves it as it was.
	if pgrun --dsn "$dsn" --rows 2000 --indexes 1 --format csv >"$T/d.csv" 2>"$T/err" &&
		[ "$(field "$T/d.csv" rows 1)" = 2000 ] &&
		[ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 0 ] &&
		[ "$(psql_ "SELECT count(*) FROM pg_extension WHERE extname <> 'plpgsql'")" = 0 ]; then
		ok pg/dsn-runs-and-cleans-up
	else bad pg/dsn-runs-and-cleans-up "$(cat "$T/err") $(psql_ '\dn') $(psql_ '\dx')"; fi
	# idxlab's own statistics queries make the server write nothing of their
	# own (write() bytes would count it): reading the FPI bytes of 100k rows
	# of WAL once spilled pg_walinspect's rows to temp files. (idxlab uses
	# pg_walinspect where the user installed it, and creates none there.)
	psql_ "CREATE EXTENSION pg_walinspect" >/dev/null
	tf0=$(psql_ "SELECT temp_files FROM pg_stat_database WHERE datname = 'postgres'")
	pgrun --dsn "$dsn" --rows 50000 --indexes 2 --key-order rand --format csv >"$T/tf.csv" 2>"$T/err"
	pg_idle # the backend reports its statistics as it ends
	tf1=$(psql_ "SELECT temp_files FROM pg_stat_database WHERE datname = 'postgres'")
	[ -n "$(field "$T/tf.csv" fpi_bytes_per_row 1)" ] && [ "$tf0" = "$tf1" ] &&
		ok pg/stats-queries-write-no-temp-files ||
		bad pg/stats-queries-write-no-temp-files "temp files $tf0 -> $tf1, fpi '$(field "$T/tf.csv" fpi_bytes_per_row 1)': $(cat "$T/err")"
	psql_ "DROP EXTENSION pg_walinspect" >/dev/null
	# The cache knob cannot change a user's server: the records say what ran.
	kib=$(psql_ "SELECT setting::bigint * 8 FROM pg_settings WHERE name = 'shared_buffers'")
	if [ $((kib % 1024)) -eq 0 ]; then want="$((kib / 1024))MiB"; else want="${kib}KiB"; fi
	pgrun --dsn "$dsn" --rows 100 --cache 1GiB --format csv >"$T/dc.csv" 2>"$T/err"
	got=$(field "$T/dc.csv" cache 1)
	[ "$got" = "$want" ] && grep -q "cache is read-only on your server" "$T/err" &&
		ok pg/dsn-cache-in-force || bad pg/dsn-cache-in-force "cache field '$got', shared_buffers $want: $(cat "$T/err")"
	# Killed there: its marked schema stays (no extension: idxlab creates
	# none on a server of the user's); the next run takes it over and
	# leaves nothing.
	"$IDXLAB" run --engine postgres --dsn "$dsn" --rows 100000000 --format csv >/dev/null 2>&1 &
	pid=$!
	# its_table: the run has made its table in its schema (its set-up done).
	its_table() { [ "$(psql_ "SELECT count(*) FROM pg_class WHERE relname = 'idxlab_t'")" = 1 ]; }
	poll 60 its_table
	# While it runs, a second idxlab on the same database is refused.
	expect_exit pg/dsn-second-idxlab-refused 1 "another idxlab is working in schema idxlab" \
		pgrun --dsn "$dsn" --rows 100
	kill -9 $pid
	wait $pid 2>/dev/null
	exts=$(psql_ "SELECT count(*) FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE n.nspname = 'idxlab'")
	if [ "$exts" = 0 ] && pgrun --dsn "$dsn" --rows 100 --format csv >/dev/null 2>"$T/err" &&
		[ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 0 ] &&
		[ "$(psql_ "SELECT count(*) FROM pg_extension WHERE extname <> 'plpgsql'")" = 0 ]; then
		ok pg/dsn-killed-run-taken-over
	else bad pg/dsn-killed-run-taken-over "extensions left by the killed run: '$exts'; $(cat "$T/err") $(psql_ '\dx')"; fi
	# The server stops answering (backend and postmaster stopped, so even
	# the cancel request waits): one signal still ends idxlab in time.
	for sig in TERM INT; do
		i=0
		while [ $i -lt 100 ] && [ "$(psql_ "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idxlab'")" != 0 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		su_run --dsn "$dsn"
		i=0
		be=""
		while [ $i -lt 100 ] && [ -z "$be" ]; do
			sleep 0.1
			be=$(psql_ "SELECT pid FROM pg_stat_activity WHERE application_name = 'idxlab'" | head -1)
			i=$((i + 1))
		done
		poll 60 measured # into the measurement
		[ $sig = TERM ] && code=143 || code=130
		stop_unanswered pg/dsn-server-stopped-sig$sig-ends $sig $code "$be" "$(head -1 "$T/own/data/postmaster.pid")"
	done
	pg_idle
	if pgrun --dsn "$dsn" --rows 100 --format csv >/dev/null 2>"$T/err" &&
		[ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 0 ]; then
		ok pg/dsn-after-stopped-server-taken-over
	else bad pg/dsn-after-stopped-server-taken-over "$(cat "$T/err") $(psql_ '\dn')"; fi
	# A schema named idxlab that is not ours: refused, untouched.
	psql_ "CREATE SCHEMA idxlab; CREATE TABLE idxlab.foo(x int); INSERT INTO idxlab.foo VALUES (42)" >/dev/null
	expect_exit pg/foreign-schema-refused 2 "schema named idxlab that idxlab did not create" \
		pgrun --dsn "$dsn" --rows 100
	[ "$(psql_ 'SELECT x FROM idxlab.foo')" = 42 ] && ok pg/foreign-schema-untouched ||
		bad pg/foreign-schema-untouched "$(psql_ 'SELECT x FROM idxlab.foo')"
	# Our marked schema holding someone else's table: refused too.
	psql_ "COMMENT ON SCHEMA idxlab IS 'created by idxlab'" >/dev/null
	expect_exit pg/foreign-table-refused 2 "holds objects idxlab did not create \(foo\)" \
		pgrun --dsn "$dsn" --rows 100
	[ "$(psql_ 'SELECT x FROM idxlab.foo')" = 42 ] && ok pg/foreign-table-untouched ||
		bad pg/foreign-table-untouched "$(psql_ 'SELECT x FROM idxlab.foo')"
	$as "$bindir/pg_ctl" -D "$T/own/data" -m immediate stop >/dev/null 2>&1
fi

# --- a full disk under the throwaway server: exit 1, said, nothing left --
mkdir "$T/pgfull"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=80m tmpfs "$T/pgfull" 2>/dev/null; then
	chmod 1777 "$T/pgfull"
	expect_exit pg/disk-full 1 "disk is full.*No space left on device.*free space there or lower --rows" \
		env TMPDIR="$T/pgfull" "$IDXLAB" run --engine postgres --rows 2000000 --indexes 4 --key-order rand
	[ -z "$(ls -A "$T/pgfull")" ] && ok pg/disk-full-nothing-left || bad pg/disk-full-nothing-left "$(ls -A "$T/pgfull")"
	umount "$T/pgfull"
	# Too small for the data dir itself: said first, naming the dir, with
	# and without a cached template to copy.
	mount -t tmpfs -o size=20m tmpfs "$T/pgfull" && chmod 1777 "$T/pgfull"
	for how in template initdb; do
		[ $how = initdb ] && h=$T/no-template || h=$HOME
		expect_exit "pg/disk-full-data-dir-$how" 1 \
			"^idxlab: cannot create the PostgreSQL data dir in $T/pgfull: the disk is full \(No space left on device\) - free space there" \
			env HOME="$h" TMPDIR="$T/pgfull" "$IDXLAB" run --engine postgres --rows 10
	done
	[ -z "$(ls -A "$T/pgfull")" ] && ok pg/disk-full-data-dir-nothing-left || bad pg/disk-full-data-dir-nothing-left "$(ls -A "$T/pgfull")"
	umount "$T/pgfull"
else
	skip pg/disk-full "needs root and permission to mount an 80 MiB tmpfs"
fi

# --- no server there: a clear error, fast --------------------------------
start=$(date +%s)
expect_exit pg/unreachable 1 "cannot connect to PostgreSQL.*--dsn" pgrun --dsn "host=127.0.0.1 port=1 user=x" --rows 10
expect_exit pg/bad-conninfo 1 "cannot connect to PostgreSQL" pgrun --dsn "host=$T/nothing-here port=5432" --rows 10
expect_exit pg/bad-uri 1 "cannot connect to PostgreSQL" pgrun --dsn "postgres://nobody@[::1:bad" --rows 10
echo "  three failed connections took $(($(date +%s) - start)) s"
# A server that accepts the connection and then says nothing: the connect
# timeout gives up (5 s, unless the conninfo sets connect_timeout).
if command -v python3 >/dev/null; then
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(30)' >"$T/port" &
lpid=$!
poll 30 test -s "$T/port"
start=$(date +%s)
expect_exit pg/silent-server 1 "cannot connect to PostgreSQL.*timeout" pgrun --dsn "host=127.0.0.1 port=$(cat "$T/port")" --rows 10
took=$(($(date +%s) - start))
echo "  silent server: gave up after $took s"
check pg/silent-server-gives-up "$took <= 8"
kill $lpid 2>/dev/null
else
	skip pg/silent-server "python3 is not installed"
fi

# --- not root: the cluster runs as ourselves ------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp "$IDXLAB" "$T/idxlab-copy"
	chmod 755 "$T/idxlab-copy"
	mkdir -p "$T/nobody"
	chown 65534 "$T/nobody"
	if setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T/nobody" TMPDIR="$T/nobody" \
		ASAN_OPTIONS=detect_leaks=0 "$T/idxlab-copy" run --engine postgres --rows 1000 --format csv \
		>"$T/nb.csv" 2>"$T/err" && [ "$(field "$T/nb.csv" rows 1)" = 1000 ]; then
		ok pg/as-normal-user
	else bad pg/as-normal-user "$(cat "$T/err")"; fi
else
	skip pg/as-normal-user "needs root to switch to an unprivileged user"
fi

# --- the dashboard on PostgreSQL: live numbers; a killed server is shown,
# the UI stays up, and q still quits cleanly --------------------------------
if command -v tmux >/dev/null; then
	start pgdash TMPDIR="$TMPDIR" "$IDXLAB" --engine postgres --commit 100 "2>$T/pgdash.err"
	if wait_for pgdash '││rows/s +[0-9]' 15 && cap pgdash | grep -q 'fillfactor 100'; then
		ok pg/dashboard-live
	else bad pg/dashboard-live "$(cap pgdash)"; fi
	# A checkpoint while it runs is marked over the figures it is in.
	d=$(ls -d "$TMPDIR"/idxlab-pg.* 2>/dev/null | head -1)
	"$bindir/psql" -X -q -h "$d" -U idxlab -d postgres -c CHECKPOINT >/dev/null 2>&1
	if wait_for pgdash 'metrics .*CHECKPOINT in the last' 10; then ok pg/dashboard-checkpoint-marked; else bad pg/dashboard-checkpoint-marked "$(cap pgdash)"; fi
	tm send-keys -t pgdash Right
	if wait_for pgdash 'built idxlab_k1 on' 10; then ok pg/dashboard-index-build; else bad pg/dashboard-index-build "$(cap pgdash)"; fi
	tm send-keys -t pgdash W
	if wait_for pgdash 'rewrote idxlab_t \(VACUUM FULL\)' 10; then ok pg/dashboard-rewrite; else bad pg/dashboard-rewrite "$(cap pgdash)"; fi
	# The cache knob restarts the throwaway server: the workload goes on,
	# on a new connection that has its statement prepared again.
	tm send-keys -t pgdash Down Down Down Enter C-u
	tm send-keys -t pgdash BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace '256MiB' Enter
	if wait_for pgdash 'restarting the throwaway server with shared_buffers = 256MiB' 10 &&
		wait_for pgdash 'cache 128MiB . 256MiB' 15; then
		ok pg/dashboard-cache-restart
	else bad pg/dashboard-cache-restart "$(cap pgdash)"; fi
	rows_flow pg/dashboard-cache-change-rows-flow pgdash
	pm=$(pgrep -f "postgres -D $TMPDIR/idxlab-pg\..*/data" | head -1)
	[ -n "$pm" ] && kill -9 "$pm"
	if wait_for pgdash 'FAILED: .*died' 10 && cap pgdash | grep -q 'knobs'; then
		ok pg/dashboard-survives-killed-server
	else bad pg/dashboard-survives-killed-server "$(cap pgdash)"; fi
	# Quitting while failed: exit 1, and the failure said once the screen is closed.
	tm send-keys -t pgdash q
	code=$(wait_exit pgdash)
	if [ "$code" = EXIT=1 ] && grep -q '^idxlab: .*throwaway PostgreSQL server.*died' "$T/pgdash.err"; then
		ok pg/dashboard-failed-exit-1
	else bad pg/dashboard-failed-exit-1 "got '$code', stderr: $(cat "$T/pgdash.err")"; fi
	poll 30 no_pg_left
	pgrep -f "$TMPDIR/idxlab-pg\." >/dev/null && bad pg/dashboard-no-processes "$(pgrep -af "$TMPDIR/idxlab-pg")" || ok pg/dashboard-no-processes
	no_leftovers pg/dashboard-temp-dir-removed

	# PostgreSQL's own rows on the dashboard: HOT % (an update workload:
	# a figure, not n/a) and FPI B/row after wal B/row; no row that never
	# applies there (db B/row: the server's own file writes are not counted).
	start pgrows TMPDIR="$TMPDIR" "$IDXLAB" --engine postgres --op update --rows 20000
	if wait_for pgrows '││HOT % +[0-9.]+ ■* +100% ' 20 &&
		cap pgrows | grep -A1 '││wal B/row' | grep -q '││srv FPI B/row' &&
		! cap pgrows | grep -q '││db B/row'; then
		ok pg/dashboard-engine-rows
	else bad pg/dashboard-engine-rows "$(cap pgrows)"; fi
	tm send-keys -t pgrows q
	wait_exit pgrows >/dev/null

	# A closed terminal (SIGHUP): the server stopped, its shared memory
	# segment and its dir removed, exit 129.
	start_hup pghup TMPDIR="$TMPDIR" "$IDXLAB" --engine postgres --commit 100
	pid=$(owner_pid "$TMPDIR/idxlab-pg")
	wait_for pghup '││rows/s +[0-9]' 15
	data=$(ls -d "$TMPDIR"/idxlab-pg.*/data 2>/dev/null | head -1)
	pm=$(head -1 "$data/postmaster.pid" 2>/dev/null)
	shm=$(sed -n 7p "$data/postmaster.pid" 2>/dev/null | awk '{ print $2 }')
	tm kill-session -t pghup
	code=$(wait_exit pghup)
	if [ -n "$pid" ] && gone "$pid" && [ -n "$pm" ] && gone "$pm" && [ "$code" = EXIT=129 ]; then
		ok pg/sighup-stops-server
	else bad pg/sighup-stops-server "idxlab '$pid', postmaster '$pm', $code: $(pgrep -af "$TMPDIR/idxlab-pg")"; fi
	if [ -z "$shm" ]; then
		skip pg/sighup-shm-dropped "the server made no System V segment (ipcs missing?)"
	elif ! ipcs -m 2>/dev/null | awk -v id="$shm" '$2 == id { f = 1 } END { exit !f }'; then
		ok pg/sighup-shm-dropped
	else bad pg/sighup-shm-dropped "segment $shm is still there"; fi
	no_leftovers pg/sighup-temp-dir-removed
else
	skip pg/dashboard "tmux is not installed"
fi
no_leftovers pg/all-temp-dirs-removed

# --- every process of the throwaway server stopped (SIGSTOP), on a loaded
# machine (two busy loops beside it): one SIGTERM still ends idxlab within
# the man page's bound, 2 s (1 s for the server to answer, the kill at once:
# no wait for a shutdown it cannot do, every wait a deadline from the stop)
# beside the file system's time to delete the temp dir (said in the log:
# on a busy disk that alone can take a second); and the server's processes,
# its System V segment, its dynamic segments in /dev/shm and its temp dir
# are all gone --------------------------------------------------------------
busy=""
for n in 1 2; do
	sh -c 'while :; do :; done' &
	busy="$busy $!"
done
su_run
i=0
be="" pmt=""
while [ $i -lt 100 ] && { [ -z "$be" ] || ! kill -0 "$be" 2>/dev/null; }; do
	sleep 0.3
	pmt=$(pgrep -P $pid -x postgres | head -1)
	be=""
	[ -n "$pmt" ] && be=$(pgrep -P "$pmt" -f '^postgres: idxlab ' | head -1)
	[ -n "$be" ] && sleep 0.5
	i=$((i + 1))
done
# into the measurement: a result row needs a sample after the step began
i=0
while [ $i -lt 50 ] && ! grep -q 'first query' "$T/su.err"; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
tree="$pmt $(pgrep -P "${pmt:-0}" | tr '\n' ' ')"
data=$(ls -d "$TMPDIR"/idxlab-pg.*/data 2>/dev/null | head -1)
shm=$(sed -n 7p "$data/postmaster.pid" 2>/dev/null | awk '{ print $2 }')
dsm=$(for p in $tree; do cat "/proc/$p/maps" 2>/dev/null; done | grep -o '/dev/shm/PostgreSQL\.[0-9]*' | sort -u)
if [ -z "$be" ] || [ -z "$dsm" ]; then
	bad pg/all-stopped-sigTERM-loaded-ends "found no server processes ('$tree') or dynamic segments ('$dsm'): $(tail -3 "$T/su.err")"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
else
	kill -STOP $tree
	t0=$(date +%s.%N)
	kill -TERM $pid
	i=0
	while [ $i -lt 1000 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.01
		i=$((i + 1))
	done
	t1=$(date +%s.%N)
	kill -9 $pid 2>/dev/null
	wait $pid
	rc=$?
	took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	# "stopped and removed in X s (Y s of it deleting its directory)"
	stopped=$(sed -n 's/.*throwaway server stopped and removed in \([0-9.]*\) s (\([0-9.]*\) s of it deleting its directory).*/\1 \2/p' "$T/su.err")
	echo "  every server process stopped, two busy loops: SIGTERM to exit $rc in $took s; stop, deletion: ${stopped:-not said}"
	if [ $rc -eq 143 ] && [ -n "$stopped" ] &&
		echo "$stopped" | awk -v took="$took" -v s="$slow" '{ exit !(took - $2 <= 2.0 * s && $1 - $2 <= 0.6 * s) }' &&
		[ "$(step_field interrupted)" = 1 ] &&
		grep -q "did not answer within 1.0 s of the stop" "$T/su.err"; then
		ok pg/all-stopped-sigTERM-loaded-ends
	else bad pg/all-stopped-sigTERM-loaded-ends "exit $rc after $took s (at most $((2 * slow)) s beside the deletion; the kill at most 0.6 x $slow s): stop, deletion '$stopped'; stdout: $(cat "$T/su.csv"); stderr: $(tail -5 "$T/su.err")"; fi
fi
kill $busy 2>/dev/null
wait $busy 2>/dev/null
# The kernel ends killed processes a moment later: poll, then free any left.
i=0
while [ $i -lt 50 ] && [ -n "$(for p in $tree; do [ -d "/proc/$p" ] && echo "$p"; done)" ]; do
	sleep 0.1
	i=$((i + 1))
done
left=$(for p in $tree; do [ -d "/proc/$p" ] && echo "$p"; done | tr '\n' ' ')
if [ -z "$left" ]; then ok pg/all-stopped-no-processes; else
	bad pg/all-stopped-no-processes "still there: $left"
	kill -9 $left 2>/dev/null
	kill -CONT $left 2>/dev/null
fi
leaked=$(for f in $dsm; do [ -e "$f" ] && echo "$f"; done | tr '\n' ' ')
if [ -n "$shm" ] && ipcs -m 2>/dev/null | awk -v id="$shm" '$2 == id { f = 1 } END { exit !f }'; then
	leaked="$leaked System V segment $shm"
fi
if [ -z "$leaked" ]; then ok pg/all-stopped-no-shared-memory; else
	bad pg/all-stopped-no-shared-memory "left: $leaked"
	rm -f $(for f in $dsm; do [ -e "$f" ] && echo "$f"; done) # ours: the test made this server
fi
no_leftovers pg/all-stopped-no-temp-dir

# --- a server killed under idxlab (SIGKILL: no shutdown of its own), and
# an idxlab killed with its server: the dynamic shared memory segments the
# server had in /dev/shm go too (its System V segment names them), at once
# for the first, at the next start's sweep for the second ------------------
# server_dsm: the /dev/shm segments $pm and its children map now.
server_dsm() {
	for p in $pm $(pgrep -P "${pm:-0}"); do cat "/proc/$p/maps" 2>/dev/null; done |
		grep -o '/dev/shm/PostgreSQL\.[0-9]*' | sort -u
}
# dsm_left NAME SEGMENTS: none of SEGMENTS is left (removes any, the test's own).
dsm_left() {
	leaked=$(for f in $2; do [ -e "$f" ] && echo "$f"; done | tr '\n' ' ')
	if [ -n "$2" ] && [ -z "$leaked" ]; then ok "$1"; else
		bad "$1" "segments '$2', left: '$leaked'"
		rm -f $leaked
	fi
}
for how in server idxlab; do
	start_with_server "$T/kd.csv" "$T/kd.err"
	i=0
	while [ $i -lt 100 ] && [ -n "$pm" ] && [ -z "$(pgrep -P "$pm" -f '^postgres: idxlab ')" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	dsm=$(server_dsm | tr '\n' ' ')
	if [ $how = server ]; then
		[ -n "$pm" ] && kill -9 "$pm"
		wait $pid
	else
		kill -9 $pid
		wait $pid 2>/dev/null
		pgrun --rows 100 --format csv >/dev/null 2>"$T/kd.err" # its start sweeps the leftovers
	fi
	dsm_left pg/killed-$how-no-dynamic-shared-memory "$dsm"
done
no_leftovers pg/killed-no-temp-dir
