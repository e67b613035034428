# PostgreSQL's WAL syncs by who made them (issue 21 item 1): fsync/c is the
# commits' alone, the WAL writer's background flushes and the flushes forced
# outside commits (evictions) are their own fields, and the three add up to
# the whole server's pg_stat_wal.wal_sync; the full-page-image figure says
# it is the whole server's (item 3). On idxlab's own throwaway server, and
# on a server of the test's own (--dsn), where nothing is preloaded.
. "$(dirname "$0")/lib.sh"

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip pgsync/all "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
pgrun() { "$IDXLAB" run --engine postgres "$@"; }

# --- one commit: 1 sync per commit, the WAL writer's apart ------------------
# 300,000 rows in one transaction take seconds, in which the WAL writer
# flushes every 200 ms (pg_stat_wal.wal_sync read 17 to 79 per commit).
pgrun --commit all --indexes 2 --rows 300000 --warmup off --format csv >"$T/one.csv" 2>"$T/err" ||
	bad pgsync/one-commit-run "$(cat "$T/err")"
fc=$(field "$T/one.csv" fsyncs_per_commit)
bg=$(field "$T/one.csv" bg_wal_syncs_per_s)
fo=$(field "$T/one.csv" forced_wal_syncs_per_row)
sv=$(field "$T/one.csv" server_wal_syncs_per_s)
secs=$(field "$T/one.csv" seconds)
rows=$(field "$T/one.csv" rows)
echo "  one commit of $rows rows in $secs s: fsync/c $fc, bg $bg/s, forced $fo/row, server $sv/s"
check pgsync/one-commit-fsync-per-commit-is-the-commits "$fc >= 1 && $fc <= 2"
check pgsync/one-commit-background-flushes-apart "$bg * $secs >= 2"
# The three are the server's count: what pg_stat_wal published over the
# window. pg_stat_wal holds a process's flushes once it publishes them (a
# backend at most once a second, PGSTAT_MIN_INTERVAL; the checkpointer after
# its checkpoint), where the parts are counted as they happen: the server's
# window can hold flushes made just before it or miss some at its end.
# Slack: a second of the WAL writer's flushes, and 2 more (ci27 read 17
# against 23 on a loaded machine, the WAL writer flushing 4.9 times a second).
check pgsync/one-commit-parts-add-up-to-server \
	"($fc + $bg * $secs + $fo * $rows) - $sv * $secs <= 2 + $bg + 0.1 * $sv * $secs && $sv * $secs - ($fc + $bg * $secs + $fo * $rows) <= 2 + $bg + 0.1 * $sv * $secs"

# --- a tiny shared_buffers: the evictions' flushes are not the commit's -----
pgrun --commit all --indexes 4 --key-order rand --cache 512kB --rows 20000 --warmup off \
	--format csv >"$T/small.csv" 2>"$T/err" || bad pgsync/small-cache-run "$(cat "$T/err")"
fc=$(field "$T/small.csv" fsyncs_per_commit)
fo=$(field "$T/small.csv" forced_wal_syncs_per_row)
sv=$(field "$T/small.csv" server_wal_syncs_per_s)
echo "  512 kB of shared_buffers, one commit: fsync/c $fc, forced $fo/row, server $sv/s"
check pgsync/small-cache-fsync-per-commit-is-the-commits "$fc >= 1 && $fc <= 2"
check pgsync/small-cache-evictions-forced "$fo > 0.01"

# --- commit per row: one each with sync on, none with it off ----------------
pgrun --commit row --sync full,off --rows 2000 --warmup off --format json >"$T/row.json" 2>"$T/err" ||
	bad pgsync/row-run "$(cat "$T/err")"
jf() { python3 -c 'import json,sys
recs=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
steps=[r for r in recs if r.get("record")=="step"]
v=steps[int(sys.argv[2])].get(sys.argv[3])
print("NOVALUE" if v is None else v)' "$@"; }
on=$(jf "$T/row.json" 0 fsyncs_per_commit) off=$(jf "$T/row.json" 1 fsyncs_per_commit)
bgj=$(jf "$T/row.json" 0 bg_wal_syncs_per_s)
echo "  commit per row: fsync/c $on with sync full, $off with sync off; JSON bg $bgj/s"
check pgsync/row-sync-on-one-each "$on >= 0.95 && $on <= 1.05"
check pgsync/row-sync-off-none "$off <= 0.01"
holds pgsync/json-has-background "not a number: $bgj" is_num "$bgj"

# --- the text table: the full-page images are the server's ------------------
# (named: at 100 columns the default table may leave it out for bg fsync/s)
pgrun --rows 2000 --warmup off --format text --fields rows_per_s,fsyncs_per_commit,fpi_bytes_per_row \
	>"$T/t.txt" 2>"$T/err" || bad pgsync/text-run "$(cat "$T/err")"
holds pgsync/text-fpi-says-server "$(head -3 "$T/t.txt")" grep -q 'srv FPI B/row' "$T/t.txt"
# the default table shows the background flushes beside fsync/c
pgrun --rows 2000 --warmup off --format text >"$T/d.txt" 2>"$T/err" || bad pgsync/text-run "$(cat "$T/err")"
holds pgsync/text-default-shows-background "$(head -3 "$T/d.txt")" grep -q 'fsync/c bg fsync/s' "$T/d.txt"

# --- SQLite: none of PostgreSQL's sync fields ------------------------------
"$IDXLAB" run --rows 1000 --format csv >"$T/sq.csv" 2>"$T/err" || bad pgsync/sqlite-run "$(cat "$T/err")"
# appended: after the columns that were there (checkpoint the last of them)
if head -1 "$T/sq.csv" | grep -qE ',checkpoint,(.*,)?bg_wal_syncs_per_s,forced_wal_syncs_per_row,server_wal_syncs_per_s(,|$)'; then
	ok pgsync/fields-appended
else bad pgsync/fields-appended "header: $(head -1 "$T/sq.csv")"; fi
v="$(field "$T/sq.csv" bg_wal_syncs_per_s)|$(field "$T/sq.csv" forced_wal_syncs_per_row)|$(field "$T/sq.csv" server_wal_syncs_per_s)"
if [ "$v" = "||" ]; then ok pgsync/sqlite-fields-na; else bad pgsync/sqlite-fields-na "got $v"; fi

# --- a server of the test's own (--dsn): the server's count only -------------
if own_pg pgsync/dsn-server; then
	pgrun --dsn "$dsn" --rows 3000 --commit 1000 --warmup off --format csv >"$T/dsn.csv" 2>"$T/err" ||
		bad pgsync/dsn-run "$(cat "$T/err")"
	v="$(field "$T/dsn.csv" fsyncs_per_commit)|$(field "$T/dsn.csv" bg_wal_syncs_per_s)"
	sv=$(field "$T/dsn.csv" server_wal_syncs_per_s)
	echo "  --dsn: fsync/c and bg '$v', server $sv/s"
	if [ "$v" = "|" ] && is_num "$sv"; then ok pgsync/dsn-server-count-only
	else bad pgsync/dsn-server-count-only "fsync/c|bg '$v', server '$sv'"; fi
fi

# --- the dashboard: the background flushes have their own row --------------
start pgsyncdash TMPDIR="$TMPDIR" "$IDXLAB" --engine postgres --commit all --rows 5000000
if wait_for pgsyncdash '││bg fsync/s +[0-9.]+' 30 && cap pgsyncdash | grep -q '││forced/row'; then
	ok pgsync/dashboard-rows
else bad pgsync/dashboard-rows "$(cap pgsyncdash)"; fi
tm send-keys -t pgsyncdash q
wait_exit pgsyncdash >/dev/null
