#!/bin/sh
# bench/wt.sh - how much idxlab's WiredTiger engine costs over a bare C loop,
# and what its probes cost there. Run by `make bench`, which sets:
#   IDXLAB  the idxlab binary
#   BARE    build/bench/bare_wt (bench/bare_wt.c)
# Optional: REPS (counted runs of each side in each case, default 3: with
# three sides in a rotating order, each side runs once in each position),
# REPS_A / REPS_B (the same for one case), ROWS_A (default 500000), ROWS_B
# (default 200000), BARE_ARGS (extra bare_wt options for the bare side),
# TMPDIR (where the databases go: a private dir is made in it and removed
# at exit), IR=1 (add (c), below; ROWS_IR_A, default 100000, ROWS_IR_B,
# default 20000).
#
# Two cases, each with three sides run alternately: idxlab with --probes
# off, idxlab with --probes on (the default), and the bare loop:
#   idxlab run --engine wiredtiger --op insert --format csv --probes on|off \
#       --warmup off ...   (cold, as the bare loop runs: the same work)
#   bare_wt ...   (the same options: it takes idxlab's syntax)
# (a) ROWS_A rows, 0 indexes, --commit 1000 --sync off (default cache
#     256MiB, seq keys, 100-byte payload): the per-row cost of the engine's
#     code path, the collection and _id tables only.
# (b) ROWS_B rows, 5 indexes, --key-order rand --commit 1000 --sync off
#     --cache 1GiB --payload 0: the shape of the MongoDB comparison.
# Judged, per case: idxlab's measured `seconds` / the bare loop's timed
# insert loop + last commit (time ratio: > 1 means idxlab is slower),
# target <= 1.10, for idxlab with probes off (the same statistics=(none)
# connection as the bare loop: the engine's own overhead) and with probes
# on (what a default run costs). Not judged: the rows/s lost with probes
# on, in %, and the whole-process wall and CPU time (start-up, table
# creation, the final checkpoint at close and cleanup included).
# (c) with IR=1, and valgrind: instructions executed (callgrind) in the
#     measured part only (bare_load; idxlab's wl_batch + wl_finish), each
#     side once per case, at fewer rows. Not judged: instructions are not
#     time (cache misses, contention with the eviction threads and system
#     calls are not weighted), but they do not depend on what else the
#     machine is doing, so on a busy machine they tell a real difference
#     from noise. ~2 minutes.
#
# The order of the sides rotates every repetition so drift (page cache, CPU
# frequency, other work on the machine) hits them alike; figures are
# medians, with the min..max spread beside them, and the ratio of the
# minimums and the median of the per-repetition ratios as cross-checks. One
# warm-up round runs first with a fifth of the rows (binaries and libraries
# into the page cache; it keeps the whole script under ~3 minutes) and is
# not counted. The load average is recorded at the start and the end; a
# NOTE says when the spread is too wide to trust small differences. Raw
# results go to bench/out/wt-<timestamp>/. A benchmark reports, it does not
# judge the build: exit 0 unless a run crashed or failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
: "${BARE:?set BARE to the bare_wt binary}"
REPS=${REPS:-3}
REPS_A=${REPS_A:-$REPS}
REPS_B=${REPS_B:-$REPS}
ROWS_A=${ROWS_A:-500000}
ROWS_B=${ROWS_B:-200000}
BARE_ARGS=${BARE_ARGS:-}
TARGET=1.10

bench_begin wt-

# Both sides' databases in one private dir (same file system; idxlab's
# sweep of dead idxlabs' leftovers only ever sees ours).
work=$(mktemp -d "${TMPDIR:-/tmp}/idxlab-bench-wt.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

load_now() {
	cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'
}

fstype=$(stat -f -c %T "$work" 2>/dev/null || echo unknown)
load0=$(load_now)
ncpu=$(nproc 2>/dev/null || echo '?')
say "idxlab WiredTiger bench  $(date '+%Y-%m-%d %H:%M:%S')  $(uname -srm)  $ncpu CPUs"
say "  load average at the start: $load0 (1, 5, 15 min)"
say "  $("$IDXLAB" --version 2>/dev/null | tr -s ' \n' ' ')"
wtver=$(dpkg-query -W -f='${Version}' libwiredtiger0 2>/dev/null || echo '?')
say "  libwiredtiger0 $wtver"
rev=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')
git -C "$here/.." diff --quiet HEAD -- src bench/bare_wt.c 2>/dev/null ||
	rev="$rev + uncommitted changes"
say "  built from $rev"
say "  databases in $work ($fstype); medians of $REPS_A (a) / $REPS_B (b) runs per side"
say "  raw results: $out"
case $fstype in
tmpfs | ramfs) say "  WARNING: $work is $fstype: not what a disk costs" ;;
esac
[ $have_ns = 1 ] || say "  WARNING: date +%N is not supported: wall times are n/a"
l1=${load0%% *}
if [ "$ncpu" != '?' ] && awk -v l="$l1" -v n="$ncpu" 'BEGIN { exit !(l > n / 4) }'; then
	say "  WARNING: the machine is busy (load $l1 on $ncpu CPUs): expect noisy figures"
fi

# side CASE REP SIDE ROWS: one run of one side. The options are the case's.
A_OPTS="--indexes 0 --commit 1000 --sync off"
B_OPTS="--indexes 5 --key-order rand --commit 1000 --sync off --cache 1GiB --payload 0"
# shellcheck disable=SC2086 # the option lists are word lists
side() {
	case $1 in
	a) opts=$A_OPTS ;;
	*) opts=$B_OPTS ;;
	esac
	case $3 in
	bare) run_one "$1" "$2" bare "$BARE" --rows "$4" $opts $BARE_ARGS ;;
	*) run_one "$1" "$2" "$3" "$IDXLAB" run --engine wiredtiger --op insert --rows "$4" \
		$opts --format csv --probes "${3#idxlab-}" --warmup off ;;
	esac
}

# run_case CASE REPS ROWS: a warm-up round (ROWS / 5), then REPS rounds of
# the three sides in a rotating order: bare off on, off on bare, on bare off.
run_case() {
	i=0
	while [ "$i" -le "$2" ]; do
		rows=$3
		[ "$i" = 0 ] && rows=$(($3 / 5 > 0 ? $3 / 5 : 1))
		j=0
		while [ $j -lt 3 ]; do
			case $(((i + j) % 3)) in
			0) side "$1" "$i" bare "$rows" ;;
			1) side "$1" "$i" idxlab-off "$rows" ;;
			2) side "$1" "$i" idxlab-on "$rows" ;;
			esac
			j=$((j + 1))
		done
		i=$((i + 1))
	done
}

say ""
say "(a) idxlab run --engine wiredtiger --op insert --rows $ROWS_A $A_OPTS --probes off|on"
say "    bare_wt --rows $ROWS_A $A_OPTS${BARE_ARGS:+ $BARE_ARGS}"
run_case a "$REPS_A" "$ROWS_A"
say "(b) idxlab run --engine wiredtiger --op insert --rows $ROWS_B $B_OPTS --probes off|on"
say "    bare_wt --rows $ROWS_B $B_OPTS${BARE_ARGS:+ $BARE_ARGS}"
run_case b "$REPS_B" "$ROWS_B"
load1=$(load_now)

# ---- (c) instruction counts (IR=1) -----------------------------------------

# ir_run NAME CMD...: run CMD under callgrind, counting only inside the
# measured functions (bare_load; idxlab's wl_batch and wl_finish, called by
# the worker thread for the step's rows and its last commit); prints the
# instructions (Ir), or n/a (it runs in a subshell: the caller sets failed).
ir_run() {
	name=$1
	shift
	case $name in
	*bare*) set -- '--toggle-collect=bare_load*' "$@" ;;
	*) set -- --toggle-collect=wl_batch --toggle-collect=wl_finish "$@" ;;
	esac
	if ! TMPDIR=$work valgrind --tool=callgrind --callgrind-out-file="$out/ir-$name.cg" \
		"$@" >"$out/ir-$name.out" 2>"$out/ir-$name.err"; then
		echo "wt.sh: (c) $name failed under valgrind: $*" >&2
		echo n/a
		return
	fi
	callgrind_annotate "$out/ir-$name.cg" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; found = 1 }
			END { if (!found) print "n/a" }'
}

# ir_case CASE ROWS: the three sides once each; prints "bare off on".
# shellcheck disable=SC2086 # the option lists are word lists
ir_case() {
	case $1 in
	a) opts=$A_OPTS ;;
	*) opts=$B_OPTS ;;
	esac
	echo "$(ir_run "$1-bare" "$BARE" --rows "$2" $opts $BARE_ARGS)" \
		"$(ir_run "$1-idxlab-off" "$IDXLAB" run --engine wiredtiger --op insert \
			--rows "$2" $opts --format csv --probes off --warmup off)" \
		"$(ir_run "$1-idxlab-on" "$IDXLAB" run --engine wiredtiger --op insert \
			--rows "$2" $opts --format csv --probes on --warmup off)"
}

ROWS_IR_A=${ROWS_IR_A:-100000}
ROWS_IR_B=${ROWS_IR_B:-20000}
if [ "${IR:-0}" = 1 ]; then
	if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
		say "(c) instructions (callgrind), the measured part only: (a) at $ROWS_IR_A rows," \
			"(b) at $ROWS_IR_B"
		read -r ir_a_bare ir_a_off ir_a_on <<EOF
$(ir_case a "$ROWS_IR_A")
EOF
		read -r ir_b_bare ir_b_off ir_b_on <<EOF
$(ir_case b "$ROWS_IR_B")
EOF
		case "$ir_a_bare $ir_a_off $ir_a_on $ir_b_bare $ir_b_off $ir_b_on" in
		*n/a*) failed=1 ;; # ir_run ran in a subshell: say it here
		esac
	else
		say "(c) skipped: valgrind (callgrind) is not installed"
		IR=0
	fi
fi

# ---- summary ---------------------------------------------------------------

# Field numbers in raw.csv.
F_SECS=5 F_RPS=6 F_WALL=7 F_CPU=8

# side_stats CASE SIDE: "secs secs_min secs_max wall cpu", medians.
side_stats() {
	read -r s s_min s_max <<EOF
$(col "$1" "$2" $F_SECS | stats)
EOF
	read -r w _ _ <<EOF
$(col "$1" "$2" $F_WALL | stats)
EOF
	read -r c _ _ <<EOF
$(col "$1" "$2" $F_CPU | stats)
EOF
	echo "$s $s_min $s_max $w $c"
}

# side_row NAME ROWS SECS MIN MAX WALL CPU: one line of a case's table.
side_row() {
	say "$(printf '  %-10s %7s (%-12s) %7s %8s  %7s        %6s' "$1" "$(fmt "$3" %.3f)" \
		"$(spread "$4" "$5")" "$(us "$3" "$2")" "$(fmt "$(calc "$2 / $3")" %.0f)" \
		"$(fmt "$6" %.3f)" "$(fmt "$7" %.2f)")"
}

# ratio_row NAME CASE SIDE MEDIAN MIN: idxlab SIDE / bare, judged.
ratio_row() {
	r=$(calc "$4 / $b_s")
	rmin=$(calc "$5 / $b_min")
	read -r rp _ _ <<EOF
$(pairs "$2" "$3" bare $F_SECS | stats)
EOF
	say "$(printf '  %-17s %6s  (%6s   %6s)   <= %s  %s' "$1" "$(fmt "$r" %.3f)" \
		"$(fmt "$rmin" %.3f)" "$(fmt "$rp" %.3f)" $TARGET "$(verdict "$r" $TARGET)")"
}

# widest: the widest min..max spread of any side, in % of its median.
widest=0
widen() {
	widest=$(calc "(100 * ($2 - $1) / $3 > $widest ? 100 * ($2 - $1) / $3 : $widest)")
}

# ir_row CASE ROWS BARE OFF ON: instructions per row and idxlab / bare.
ir_row() {
	say "$(printf '  (%s) per row: bare %s, idxlab-off %s (x%s), idxlab-on %s (x%s)' "$1" \
		"$(fmt "$(calc "$3 / $2")" %.0f)" "$(fmt "$(calc "$4 / $2")" %.0f)" \
		"$(fmt "$(calc "$4 / $3")" %.3f)" "$(fmt "$(calc "$5 / $2")" %.0f)" \
		"$(fmt "$(calc "$5 / $3")" %.3f)")"
}

# summarize CASE ROWS REPS TITLE
summarize() {
	read -r b_s b_min b_max b_w b_c <<EOF
$(side_stats "$1" bare)
EOF
	read -r f_s f_min f_max f_w f_c <<EOF
$(side_stats "$1" idxlab-off)
EOF
	read -r n_s n_min n_max n_w n_c <<EOF
$(side_stats "$1" idxlab-on)
EOF
	read -r pp _ _ <<EOF
$(pairs "$1" idxlab-off idxlab-on $F_RPS | stats)
EOF
	say ""
	say "($1) $4: median (min..max) of $3 runs"
	say "  side        measured s            us/row  rows/s    process wall s  cpu s"
	side_row bare "$2" "$b_s" "$b_min" "$b_max" "$b_w" "$b_c"
	side_row idxlab-off "$2" "$f_s" "$f_min" "$f_max" "$f_w" "$f_c"
	side_row idxlab-on "$2" "$n_s" "$n_min" "$n_max" "$n_w" "$n_c"
	widen "$b_min" "$b_max" "$b_s"
	widen "$f_min" "$f_max" "$f_s"
	widen "$n_min" "$n_max" "$n_s"
	say ""
	say "  time ratio        median  (min/min  per-run)  target   verdict"
	ratio_row "idxlab-off / bare" "$1" idxlab-off "$f_s" "$f_min"
	ratio_row "idxlab-on / bare" "$1" idxlab-on "$n_s" "$n_min"
	say "$(printf '  whole process, idxlab-on / bare (not judged): wall %s, cpu %s' \
		"$(fmt "$(calc "$n_w / $b_w")" %.3f)" "$(fmt "$(calc "$n_c / $b_c")" %.3f)")"
	say "$(printf '  rows/s lost with probes on: %s %% (per-run median %s %%; not judged)' \
		"$(fmt "$(calc "($n_s - $f_s) / $n_s * 100")" %.2f)" \
		"$(fmt "$(calc "($pp - 1) / $pp * 100")" %.2f)")"
}

say ""
say "== summary ===================================================================="
summarize a "$ROWS_A" "$REPS_A" "$ROWS_A rows, 0 indexes, commit 1000, sync off"
summarize b "$ROWS_B" "$REPS_B" "$ROWS_B rows, 5 indexes, rand keys, commit 1000, sync off, 1GiB"
if [ "${IR:-0}" = 1 ]; then
	say ""
	say "(c) instructions executed in the measured part (callgrind); not judged"
	ir_row a "$ROWS_IR_A" "$ir_a_bare" "$ir_a_off" "$ir_a_on"
	ir_row b "$ROWS_IR_B" "$ir_b_bare" "$ir_b_off" "$ir_b_on"
fi
say ""
say "  load average at the start: $load0; at the end: $load1"
bench_end "$widest" REPS
