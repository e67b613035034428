# bench/lib.sh - what the benchmarks share (sourced by run.sh, wt.sh, pg.sh
# and presets.sh).
# The caller sets here (bench/), calls bench_begin, and may set work (a
# private TMPDIR for the measured runs).

# bench_begin PREFIX: a results dir bench/out/PREFIX<timestamp>/ (BENCH_OUT
# in place of bench/out: the tests) with an
# empty raw CSV; sets start_s, out, raw, summary and failed=0.
bench_begin() {
	start_s=$(date +%s)
	out="${BENCH_OUT:-$here/out}/$1$(date +%Y%m%d-%H%M%S)"
	mkdir -p "$out" || exit 1
	raw="$out/raw.csv"
	summary="$out/summary.txt"
	failed=0
	echo "part,rep,side,rows,seconds,rows_per_s,wall_s,cpu_s" >"$raw"
}

# bench_end WIDEST KNOBS: the closing lines, and the exit status. WIDEST is
# the largest spread of one side's runs around their median, in % (a noise
# note above 10 %); KNOBS names the variables that raise the repetitions.
bench_end() {
	if awk -v w="$1" 'BEGIN { exit !(w + 0 > 10) }'; then
		say ""
		say "NOTE: the runs of one side spread over up to $(fmt "$1" %.0f) % of their median:"
		say "      differences smaller than that are noise. Rerun on an idle machine, or raise"
		say "      $2."
	fi
	rm -f "$out/.cpu0" "$out/.cpu1"
	say ""
	say "bench took $(($(date +%s) - start_s)) s; raw results and each run's output: $out"
	if [ "$failed" = 1 ]; then
		say "some runs FAILED: see the messages above and $out/*.err"
		exit 1
	fi
	exit 0
}

# Nanosecond wall clock (GNU date); without it wall times are n/a.
case $(date +%N 2>/dev/null) in
'' | *N*) have_ns=0 ;;
*) have_ns=1 ;;
esac

now_ns() {
	if [ $have_ns = 1 ]; then date +%s%N; else echo 0; fi
}

say() {
	printf '%s\n' "$*" | tee -a "$summary"
}

# The value of column $2 in the CSV file $1 (header line + first data line).
csv_field() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		NR == 2 { if (c) print $c; exit }' "$1"
}

# Median, minimum and maximum of the numbers on stdin, as "med min max".
stats() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a n/a n/a"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.9g %.9g %.9g\n", m, v[1], v[NR] }'
}

# calc EXPR: floating point arithmetic ("n/a" in, "n/a" out).
calc() {
	case "$*" in
	*n/a*) echo n/a ;;
	*) awk "BEGIN { printf \"%.9g\n\", $* }" ;;
	esac
}

# fmt VALUE PRINTF-FORMAT
fmt() {
	case "$1" in
	n/a) echo n/a ;;
	*) awk -v v="$1" -v f="$2" 'BEGIN { printf f, v }' ;;
	esac
}

# verdict VALUE TARGET [GOAL]: PASS (with whether the goal is met) or MISS.
verdict() {
	case "$1" in
	n/a) echo "n/a" ;;
	*) awk -v v="$1" -v t="$2" -v g="${3:-}" 'BEGIN {
		if (v > t) print "MISS"
		else if (g != "") print "PASS" (v <= g ? " (goal met)" : " (goal missed)")
		else print "PASS" }' ;;
	esac
}

# Children's user+sys CPU seconds in the file `times` wrote (its 2nd line,
# "1m2.345s 0m0.678s"; clock-tick resolution, 0.01 s in dash).
cpu_of() {
	awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] }
		printf "%.3f\n", t }' "$1"
}

# run_one PART REP SIDE CMD...: run CMD, keep its output, append a raw line:
# part,rep,side,rows,seconds,rows_per_s,wall_s,cpu_s
# SIDE bare* means the output is "ROWS SECONDS", else idxlab's CSV.
run_one() {
	part=$1 rep=$2 side=$3
	shift 3
	base="$out/$part-$side-$rep"
	# `times` must run in this shell, not in a $(...) subshell.
	times >"$out/.cpu0"
	t0=$(now_ns)
	if [ -n "$work" ]; then
		TMPDIR=$work "$@" >"$base.out" 2>"$base.err"
	else
		"$@" >"$base.out" 2>"$base.err"
	fi
	rc=$?
	t1=$(now_ns)
	times >"$out/.cpu1"
	cpu=$(calc "$(cpu_of "$out/.cpu1") - $(cpu_of "$out/.cpu0")")
	if [ $rc -ne 0 ]; then
		echo "$(basename "$0"): $part $side rep $rep exited $rc: $*" >&2
		sed 's/^/  | /' "$base.err" >&2
		failed=1
		return
	fi
	case $side in
	bare*)
		read -r rows secs <"$base.out"
		rps=$(calc "$rows / $secs")
		;;
	*)
		# idxlab prints `seconds` with 3 decimals; rows / rows_per_s is finer.
		rows=$(csv_field "$base.out" rows)
		rps=$(csv_field "$base.out" rows_per_s)
		secs=$(calc "$rows / $rps")
		;;
	esac
	if [ $have_ns = 1 ]; then
		wall=$(calc "($t1 - $t0) / 1e9")
	else
		wall=n/a
	fi
	echo "$part,$rep,$side,$rows,$secs,$rps,$wall,$cpu" >>"$raw"
}

# col PART SIDE FIELD: one raw column of the counted runs, one per line.
col() {
	awk -F, -v p="$1" -v s="$2" -v f="$3" \
		'NR > 1 && $1 == p && $3 == s && $2 > 0 && $f != "n/a" { print $f }' "$raw"
}

# pairs PART SIDE1 SIDE2 FIELD: SIDE1/SIDE2 per repetition, one per line.
pairs() {
	awk -F, -v p="$1" -v a="$2" -v b="$3" -v f="$4" '
		NR > 1 && $1 == p && $2 > 0 && $f != "n/a" { v[$2, $3] = $f; r[$2] = 1 }
		END { for (i in r) if (((i, a) in v) && ((i, b) in v) && v[i, b] > 0)
			print v[i, a] / v[i, b] }' "$raw"
}

us() {
	case "$1" in n/a) echo n/a ;; *) fmt "$(calc "$1 * 1e6 / $2")" "%.3f" ;; esac
}

spread() {
	echo "$(fmt "$1" %.3f)..$(fmt "$2" %.3f)"
}

# bench_pg_server: a PostgreSQL server of the bench's own, in a fresh temp
# dir (as user postgres when root: the server refuses root), trust auth for
# user bench on a unix socket there, no checkpoint mid-run; sets bindir, as,
# dir and dsn, and stops and removes it at exit (a fast shutdown: an
# immediate one leaves the server's shared memory behind in /dev/shm).
# Needs out (its initdb log goes there). Returns 1 when no server is
# installed. $1, when given: its shared_buffers in idxlab's units (1GiB,
# 512KiB: PostgreSQL's GB and kB are the same sizes).
bench_pg_server() {
	sb=""
	[ -n "${1:-}" ] && sb="-c shared_buffers=$(printf '%s' "$1" | sed 's/KiB$/kB/; s/MiB$/MB/; s/GiB$/GB/; s/TiB$/TB/')"
	bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r | head -1)
	[ -x "$bindir/pg_ctl" ] || return 1
	dir=$(mktemp -d /tmp/idxlab-bench-pg.XXXXXX)
	chmod 755 "$dir"
	as=""
	if [ "$(id -u)" = 0 ]; then
		chown postgres "$dir"
		as="setpriv --reuid=$(id -u postgres) --regid=$(id -g postgres) --clear-groups"
	fi
	trap '$as "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1; rm -rf "$dir"' EXIT
	$as "$bindir/initdb" -D "$dir/data" -U bench --auth=trust -N >"$out/initdb.log" 2>&1
	$as "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
		-o "-k $dir -c listen_addresses='' -c max_wal_size=16GB -c checkpoint_timeout=1d -c jit=off $sb" start >/dev/null
	dsn="host=$dir dbname=postgres user=bench"
}
