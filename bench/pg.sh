#!/bin/sh
# bench/pg.sh - PostgreSQL numbers, measured side by side in one run:
#  (a) idxlab's pipelined batched INSERT rows/s vs pgbench running the same
#      INSERT, 100 per transaction in \startpipeline mode, against one server;
#  (b) the throwaway cluster: start to first query, and shutdown + cleanup,
#      as idxlab itself reports them (median of several runs);
#  (c) idxlab --load copy vs BARE (bench/bare_pg.c), a bare libpq COPY loop
#      of the same rows in one transaction, binary and text, on the same
#      server: rows/s, and the CPU seconds of the client and of the server.
#      idxlab's server seconds include what its measurement asks of the
#      server: the full-page-image count (pg_walinspect over the step's WAL,
#      ~0.35 s per 1M rows here, outside the step's window) and the samples
#      mid-step, about one a second, each of which ends the COPY for a
#      moment (load.c).
# Needs IDXLAB (BARE: (c) is skipped without it); prints a table with the
# targets; exits 0 unless something broke.
set -u
: "${IDXLAB:?set IDXLAB}"
ROWS=${ROWS:-200000}
# (c) loads more: a 200k-row COPY is over in ~0.4 s, where one run to the
# next varies by +-30 % on this kind of machine (both tools alike).
COPY_ROWS=${COPY_ROWS:-1000000}
REPS=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out/pg-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
. "$here/lib.sh"
command -v pgbench >/dev/null || { echo "bench/pg: pgbench not installed"; exit 0; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- one server for both tools -------------------------------------------
bench_pg_server || { echo "bench/pg: no PostgreSQL server installed"; exit 0; }
psql_() { "$bindir/psql" -X -q -d "$dsn" -c "$1" >/dev/null; }

# pgbench runs the INSERT idxlab sends (same table, same values shape:
# sequential id, 8 random bigints, hot 0, 100 bytes of payload).
cat >"$out/insert100.sql" <<'SQL'
\startpipeline
BEGIN;
SQL
i=0
while [ $i -lt 100 ]; do
	cat >>"$out/insert100.sql" <<'SQL'
INSERT INTO bench_t (k1, k2, k3, k4, k5, k6, k7, k8, hot, payload) VALUES (random(1, 9000000000000000000), random(1, 9000000000000000000), random(1, 9000000000000000000), random(1, 9000000000000000000), random(1, 9000000000000000000), random(1, 9000000000000000000), random(1, 9000000000000000000), random(1, 9000000000000000000), 0, 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv');
SQL
	i=$((i + 1))
done
printf 'COMMIT;\n\\endpipeline\n' >>"$out/insert100.sql"
# pgbench's random() is a \set function, not SQL: one fresh value per row,
# used for its k1..k8 (idxlab draws eight; pgbench gets the cheaper deal).
awk '/^INSERT/ { print "\\set a random(1, 9000000000000000000)"; gsub(/random\(1, 9000000000000000000\)/, ":a") } { print }' \
	"$out/insert100.sql" >"$out/insert100.pgb"

pgb_rate() {
	psql_ "DROP TABLE IF EXISTS bench_t; CREATE TABLE bench_t (id bigserial PRIMARY KEY, k1 bigint, k2 bigint, k3 bigint, k4 bigint, k5 bigint, k6 bigint, k7 bigint, k8 bigint, hot int NOT NULL DEFAULT 0, payload text) WITH (autovacuum_enabled = false); CHECKPOINT"
	pgbench -n -M prepared -c 1 -t $((ROWS / 100)) -f "$out/insert100.pgb" "$dsn" >"$out/pgbench.$1.log" 2>&1
	awk '/^tps = / { printf "%.1f\n", $3 * 100 }' "$out/pgbench.$1.log"
}
idx_rate() {
	"$IDXLAB" run --engine postgres --dsn "$dsn" --rows "$ROWS" --commit 100 --key-order rand \
		--format csv >"$out/idxlab.$1.csv" 2>"$out/idxlab.$1.err"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rows_per_s") c = i; next } { print $c }' "$out/idxlab.$1.csv"
}
: >"$out/a.txt"
r=0
while [ $r -lt "$REPS" ]; do
	p=$(pgb_rate $r)
	x=$(idx_rate $r)
	echo "$p $x" >>"$out/a.txt"
	r=$((r + 1))
done
pg_med=$(awk '{ print $1 }' "$out/a.txt" | median)
ix_med=$(awk '{ print $2 }' "$out/a.txt" | median)
ratio=$(awk -v a="$ix_med" -v b="$pg_med" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')

# --- (c) --load copy vs a bare libpq COPY loop ----------------------------
# The server's CPU seconds so far, in clock ticks: the postmaster's own, its
# reaped children's (cutime + cstime: a backend that ended) and its live
# children's. A backend reaped between reading the postmaster and reading
# its children would count nowhere (or twice): read both again until two
# readings agree.
pm_ticks() { sed 's/.*) //' "/proc/$pm/stat" | awk '{ print $12 + $13, $14 + $15 }'; }
srv_ticks() {
	pm=$(head -1 "$dir/data/postmaster.pid")
	tries=0
	while :; do
		a=$(pm_ticks)
		kids=$(cat "/proc/$pm/task/$pm/children" 2>/dev/null)
		live=0
		for c in $kids; do
			t=$(sed 's/.*) //' "/proc/$c/stat" 2>/dev/null | awk '{ print $12 + $13 }')
			live=$((live + ${t:-0}))
		done
		b=$(pm_ticks)
		[ "${a#* }" = "${b#* }" ] && [ "$kids" = "$(cat "/proc/$pm/task/$pm/children" 2>/dev/null)" ] && break
		tries=$((tries + 1))
		[ $tries -lt 100 ] || break
	done
	echo "$b" | awk -v l="$live" '{ print $1 + $2 + l }'
}
# The postmaster's children, the same PIDs as in $1 again (the client's
# backend gone and reaped), for at most 10 s.
srv_settle() {
	pm=$(head -1 "$dir/data/postmaster.pid")
	w=0
	while [ "$(cat "/proc/$pm/task/$pm/children" 2>/dev/null)" != "$1" ] && [ $w -lt 100 ]; do
		sleep 0.1
		w=$((w + 1))
	done
}
# copy_run NAME CMD...: "rows/s client_cpu server_cpu" of one run; the
# server's CPU read with its background processes only, before and after.
copy_run() {
	name=$1
	shift
	pm=$(head -1 "$dir/data/postmaster.pid")
	bg=$(cat "/proc/$pm/task/$pm/children" 2>/dev/null)
	s0=$(srv_ticks)
	/usr/bin/time -f "%U %S" -o "$out/$name.time" "$@" >"$out/$name.out" 2>"$out/$name.err"
	srv_settle "$bg"
	s1=$(srv_ticks)
	case $name in
	idxlab*) rate=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rows_per_s") c = i; next } { print $c }' "$out/$name.out") ;;
	*) rate=$(awk -F, 'NR == 2 { print $3 }' "$out/$name.out") ;;
	esac
	echo "$rate $(awk '{ print $1 + $2 }' "$out/$name.time") $(awk -v a="$s0" -v b="$s1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')"
}
copy_on=0
if [ -n "${BARE:-}" ] && [ -x "$BARE" ]; then
	copy_on=1
	: >"$out/c.txt"
	r=0
	while [ $r -lt "$REPS" ]; do
		x=$(copy_run idxlab-copy.$r "$IDXLAB" run --engine postgres --dsn "$dsn" --load copy \
			--rows "$COPY_ROWS" --commit all --key-order rand --format csv)
		b=$(copy_run bare-binary.$r "$BARE" "$dsn" --rows "$COPY_ROWS" --key-order rand --format csv)
		t=$(copy_run bare-text.$r "$BARE" "$dsn" --rows "$COPY_ROWS" --key-order rand --format csv \
			--copy-format text)
		echo "$x $b $t" >>"$out/c.txt"
		r=$((r + 1))
	done
fi
col() { awk -v c="$1" '{ print $c }' "$out/c.txt" | median; }

# --- the throwaway cluster's own start and stop ---------------------------
: >"$out/b.txt"
r=0
while [ $r -lt "$REPS" ]; do
	"$IDXLAB" run --engine postgres --rows 1 --format csv >/dev/null 2>"$out/life.$r.err"
	up=$(sed -n 's/.*up in \([0-9.]*\) s, first query \([0-9.]*\) s later.*/\1 \2/p' "$out/life.$r.err")
	down=$(sed -n 's/.*stopped and removed in \([0-9.]*\) s.*/\1/p' "$out/life.$r.err")
	echo "$up $down" >>"$out/b.txt"
	r=$((r + 1))
done
start_med=$(awk '{ print $1 + $2 }' "$out/b.txt" | median)
stop_med=$(awk '{ print $3 }' "$out/b.txt" | median)

meets() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == ">=") ? v >= t : v <= t; print ok ? "PASS" : "MISS" }'; }
echo "== PostgreSQL benchmark ($ROWS rows, (c) $COPY_ROWS; $REPS runs each, medians; raw: $out)"
printf '  %-44s %12s   target %-8s %s\n' "pgbench, 100 INSERTs/txn, \\startpipeline" "$pg_med rows/s" "" ""
printf '  %-44s %12s   target %-8s %s\n' "idxlab --commit 100 (pipelined, binary)" "$ix_med rows/s" "" ""
printf '  %-44s %12s   target %-8s %s\n' "idxlab / pgbench" "$ratio" ">= 1.5" "$(meets "$ratio" '>=' 1.5)"
printf '  %-44s %12s   target %-8s %s\n' "throwaway cluster: start to first query" "$start_med s" "<= 1 s" "$(meets "$start_med" '<=' 1)"
printf '  %-44s %12s   target %-8s %s\n' "throwaway cluster: shutdown + cleanup" "$stop_med s" "<= 0.5 s" "$(meets "$stop_med" '<=' 0.5)"
if [ $copy_on = 1 ]; then
	copy_ratio=$(awk -v a="$(col 1)" -v b="$(col 4)" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
	printf '  %-44s %12s   CPU: client %s s, server %s s\n' "idxlab --load copy (binary, commit all)" "$(col 1) rows/s" "$(col 2)" "$(col 3)"
	printf '  %-44s %12s   CPU: client %s s, server %s s\n' "bare libpq COPY loop, binary" "$(col 4) rows/s" "$(col 5)" "$(col 6)"
	printf '  %-44s %12s   CPU: client %s s, server %s s\n' "bare libpq COPY loop, text" "$(col 7) rows/s" "$(col 8)" "$(col 9)"
	printf '  %-44s %12s   target %-8s %s\n' "idxlab copy / bare binary COPY" "$copy_ratio" ">= 0.9" "$(meets "$copy_ratio" '>=' 0.9)"
	# The same ratio by CPU seconds (client + server), far less sensitive to
	# a shared machine's load than rows/s: bare's CPU / idxlab's.
	cpu_ratio=$(awk -v a="$(col 2)" -v b="$(col 3)" -v c="$(col 5)" -v d="$(col 6)" 'BEGIN { printf "%.2f", (a + b > 0) ? (c + d) / (a + b) : 0 }')
	printf '  %-44s %12s   target %-8s %s\n' "  by CPU s: bare binary / idxlab copy" "$cpu_ratio" ">= 0.9" "$(meets "$cpu_ratio" '>=' 0.9)"
else
	echo "  (c) skipped: set BARE to build/bench/bare_pg (make bench does)"
fi
