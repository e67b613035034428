# --load on PostgreSQL (issue 11): multirow (multi-row INSERTs in the
# pipeline) and copy (binary COPY FROM STDIN per transaction) write exactly
# the rows one INSERT per row writes (md5 of the table by id, read while
# idxlab holds it on a test server), for the default table and users; every
# row of a step is in the table at its end (commit all, a commit's
# remainder, a stop's); COPY is the cheaper path (less WAL per row, more
# rows/s than one INSERT per row, by far); a stop mid-COPY ends in time,
# also when the server no longer answers; an op that inserts nothing
# refuses any load but insert.
. "$(dirname "$0")/lib.sh"

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip load-pg/all "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
pgrun() { "$IDXLAB" run --engine postgres "$@"; }

# --- refusals (the core's, before any server starts) ----------------------
expect_exit load-pg/copy-refused-for-update 2 "--load copy.*op update inserts none" \
	pgrun --op update --load copy --rows 10
expect_exit load-pg/multirow-refused-for-delete 2 "--load multirow.*op delete inserts none" \
	pgrun --op delete --load multirow --rows 10

# --- every row of a step is in the table: commit all (1234 = 1000 + the
# prepared remainder of 234), a commit size that leaves one (2345), a step
# of wide16 and of users ----------------------------------------------------
for args in "--commit all --rows 1234" "--commit 2345 --rows 5000" "--schema wide16 --indexes 4 --commit all --rows 3000" "--schema users --indexes 6 --commit 700 --rows 3000"; do
	for load in multirow copy; do
		name=$(echo "$load $args" | tr -cs 'a-z0-9' '-' | sed 's/-$//')
		# shellcheck disable=SC2086
		if pgrun --load $load $args --format csv >"$T/a.csv" 2>"$T/err" &&
			[ "$(field "$T/a.csv" rows)" = "$(field "$T/a.csv" table_rows)" ] &&
			[ "$(field "$T/a.csv" rows)" = "$(echo "$args" | sed 's/.*--rows //')" ]; then
			ok "load-pg/all-rows-$name"
		else bad "load-pg/all-rows-$name" "rows '$(field "$T/a.csv" rows)' table_rows '$(field "$T/a.csv" table_rows)': $(tail -3 "$T/err")"; fi
	done
done

# --- the direction: COPY writes less WAL per row than an INSERT per row
# (heap multi-insert records) and runs faster (about 3x measured on an idle
# machine: asserted only as faster) ----------------------------------------
pgrun --load insert,copy --rows 20000 --commit all --schema wide16 --indexes 0 --format csv >"$T/d.csv" 2>"$T/err"
wi=$(field "$T/d.csv" wal_bytes_per_row 1) wc=$(field "$T/d.csv" wal_bytes_per_row 2)
ri=$(field "$T/d.csv" rows_per_s 1) rc=$(field "$T/d.csv" rows_per_s 2)
echo "  wide16, 20000 rows, commit all: insert $ri rows/s $wi B WAL/row; copy $rc rows/s $wc B WAL/row"
check load-pg/copy-less-wal-per-row "$wc > 0 && $wc < $wi"
check load-pg/copy-faster-than-insert-per-row "$rc > $ri"

# --- our own server: the table's rows, read while idxlab holds it ---------
own_pg load-pg/own-server || exit 0
# hold ROWS ARGS...: idxlab inserts on the test server in the background
# ($pid); returns once ROWS rows are committed (1: it ended or took 20 s).
hold() {
	min=$1
	shift
	hold_until "SELECT count(*) >= $min FROM idxlab.idxlab_t" "$@"
}
# sums SPEC: md5 of rows 1..2345 (the first transaction of 2345 rows: full
# multi-row statements and the remainder) by each load.
sum_sql="SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM (SELECT * FROM idxlab.idxlab_t WHERE id <= 2345) t"
for spec in default users; do
	sums=""
	for load in insert multirow copy; do
		if hold 2345 --schema $spec --indexes 2 --load $load --rows 100000000 --commit 2345; then
			sums="$sums $load=$(psql_ "$sum_sql")"
		else
			sums="$sums $load=none($(tail -1 "$T/hold.err"))"
		fi
		release
	done
	echo "  $spec rows 1..2345:$sums"
	first=$(echo "$sums" | sed 's/^ insert=\([^ ]*\).*/\1/')
	if echo "$first" | grep -qx '[0-9a-f]\{32\}' &&
		[ "$sums" = " insert=$first multirow=$first copy=$first" ]; then
		ok load-pg/same-rows-as-insert-$spec
	else bad load-pg/same-rows-as-insert-$spec "$sums"; fi
done

# --- a headless step's samples cost it little: each one ends the COPY and
# starts another (load.c), so without --interval they come no more often
# than keeps their time under 2 % of the step's (about every 0.5-1 s here,
# where a sample mid-COPY takes 10-20 ms); they came every 50 ms before,
# ~16 COPYs for these 400,000 rows. The server logs every statement.
psql_ "ALTER SYSTEM SET log_statement = 'all'" >/dev/null
psql_ "SELECT pg_reload_conf()" >/dev/null
# (no warm-up: its own COPYs are not the step's samples)
before=$(grep -c 'COPY idxlab.idxlab_t' "$T/own/log")
"$IDXLAB" run --warmup off --engine postgres --dsn "$dsn" --load copy --rows 400000 --commit all \
	--format csv >"$T/s.csv" 2>"$T/err"
copies=$(($(grep -c 'COPY idxlab.idxlab_t' "$T/own/log") - before))
secs=$(field "$T/s.csv" seconds)
echo "  --load copy, 400000 rows in one transaction: $copies COPY statements in $secs s"
check load-pg/copy-few-samples "$copies >= 1 && $copies <= 1 + $secs / 0.2"
psql_ "ALTER SYSTEM RESET log_statement" >/dev/null
psql_ "SELECT pg_reload_conf()" >/dev/null

# --- the WAL not yet read for its full-page images is held by a temporary
# replication slot of idxlab's session (so the mid-step samples may leave
# the reading to the closing one, and no checkpoint recycles it first);
# the slot goes with the session ------------------------------------------
slots="SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE 'idxlab_fpi_%' AND temporary"
psql_ "CREATE EXTENSION pg_walinspect" >/dev/null # the full-page images are read where the user has it
if hold_until "SELECT ($slots) = 1" --rows 100000000 --commit all; then
	ok load-pg/wal-held-by-a-temporary-slot
else bad load-pg/wal-held-by-a-temporary-slot "$(psql_ "SELECT * FROM pg_replication_slots") $(tail -3 "$T/hold.err")"; fi
release
left=$(psql_ "SELECT count(*) FROM pg_replication_slots")
[ "$left" = 0 ] && ok load-pg/no-slot-left || bad load-pg/no-slot-left "$left slots: $(psql_ "SELECT * FROM pg_replication_slots")"
psql_ "DROP EXTENSION pg_walinspect" >/dev/null

# --- a stop mid-COPY (commit all: one open COPY) ends at once, and every
# row it counted is in the table; a stopped backend still lets it end in
# time (STOP_ANSWER_MS), with the partial result -----------------------------
# started: once idxlab's table has its index (its set-up is done) and
# idxlab has spent 0.3 s of CPU more on rows.
started() {
	pg_idle
	"$IDXLAB" run --engine postgres --dsn "$dsn" --warmup off --format csv "$@" >"$T/hold.csv" 2>"$T/hold.err" &
	pid=$!
	poll 60 indexed
	lib_cpu0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
	poll 60 cpu_used $pid "$(awk -v t="${lib_cpu0:-0}" -v hz="$(getconf CLK_TCK)" 'BEGIN { print t / hz + 0.3 }')"
}
# indexed: started's run has made its index (or has ended).
indexed() {
	! kill -0 $pid 2>/dev/null ||
		[ "$(psql_ "SELECT count(*) FROM pg_indexes WHERE schemaname = 'idxlab' AND indexname = 'idxlab_k1'" 2>/dev/null)" = 1 ]
}
for load in copy multirow; do
	started --load $load --rows 100000000 --commit all --indexes 1
	t0=$(date +%s%N)
	release TERM
	code=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	rows=$(field "$T/hold.csv" rows) trows=$(field "$T/hold.csv" table_rows)
	echo "  $load stopped after $ms ms: rows $rows, table_rows $trows"
	if [ "$ms" -lt 5000 ] && [ -n "$rows" ] && [ "$rows" = "$trows" ] && [ "$rows" -gt 0 ]; then
		ok load-pg/stop-mid-$load-commits-what-it-counted
	else bad load-pg/stop-mid-$load-commits-what-it-counted "$ms ms, rows '$rows' table_rows '$trows': $(tail -3 "$T/hold.err")"; fi
done
started --load copy --rows 100000000 --commit all --indexes 1
be=$(psql_ "SELECT pid FROM pg_stat_activity WHERE application_name = 'idxlab'" | head -1)
if [ -n "$be" ]; then
	kill -STOP "$be"
	t0=$(date +%s%N)
	kill -TERM $pid
	i=0
	while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	if kill -0 $pid 2>/dev/null; then
		bad load-pg/stop-mid-copy-silent-server-ends "still running after 10 s"
		kill -KILL $pid
	elif [ "$ms" -lt 5000 ]; then
		ok load-pg/stop-mid-copy-silent-server-ends
	else bad load-pg/stop-mid-copy-silent-server-ends "took $ms ms"; fi
	wait $pid 2>/dev/null
	kill -CONT "$be"
	grep -q "did not answer" "$T/hold.err" && ok load-pg/stop-mid-copy-silent-server-says-so ||
		bad load-pg/stop-mid-copy-silent-server-says-so "$(tail -3 "$T/hold.err")"
else
	bad load-pg/stop-mid-copy-silent-server-ends "no idxlab backend found: $(tail -3 "$T/hold.err")"
	release KILL
fi
$as "$bindir/pg_ctl" -D "$T/own/data" -m immediate stop >/dev/null 2>&1
