#!/bin/sh
# bench/run.sh - how much idxlab's SQLite engine costs over a bare C loop, and
# what its probes cost. Run by `make bench`, which sets:
#   IDXLAB  the idxlab binary
#   BARE    build/bench/bare_sqlite (bench/bare_sqlite.c)
# Optional: REPS (runs of each side in (a), default 7), REPS_B (runs of each
# side in (b), default 11), REPS_U (runs of each side in (u), default REPS),
# ROWS_A (default 1000000), ROWS_B (default 200000), ROWS_U (default ROWS_A),
# BARE_ARGS (extra bare_sqlite options for the judged bare side, e.g.
# "--memstatus off" once idxlab turns SQLite's memory statistics off too),
# TMPDIR (where the databases go), IR=1 (add (c), below; ROWS_IR, default
# 200000).
#
# (a) overhead: 1M rows, no index, one transaction, default knobs (seq keys,
#     100-byte payload, 2000KiB cache, synchronous=FULL, rollback journal).
#     Ratio 1: idxlab's measured `seconds` / the bare loop's BEGIN..COMMIT.
#     Ratio 2: whole-process wall time of `idxlab run` / of bare_sqlite
#     (start-up, table creation, the final size queries and cleanup included).
#     Target <= 1.10, goal 1.05. A third side, bare_sqlite --memstatus off,
#     is shown for reference (the same work with SQLite's malloc statistics
#     off): it is not judged.
# (b) probe cost: --probes on vs off, random keys into one index
#     (--indexes 1 --key-order rand --rows 200000 --payload 0): the rows/s
#     lost with probes on, in %. Target <= 3 %.
# (u) the users table (--schema users: id, email text(24) random,
#     created_at timestamp, country text(2), status int; issue 11): idxlab's
#     generic binding (each value from schema_value(), bound by its type) vs
#     bare_sqlite --schema users, the same DDL, INSERT and rows (each value
#     from schema_value(), bound by its known type): 1M rows, no index, one
#     transaction, the same two ratios as (a). Target <= 1.10.
# (c) with IR=1, and valgrind: instructions executed (callgrind), which do
#     not depend on what else the machine is doing: (a), (u) and (b) once
#     each at ROWS_IR rows, the measured part (idxlab's wl_batch +
#     wl_finish, the worker's step loop; bare_load / bare_load_users) and the whole process. Not judged: instructions are not time
#     (system calls, cache misses and locked instructions are not weighted),
#     but on a busy machine they tell a real difference from noise. ~1 minute.
#
# The sides alternate (the order rotates every repetition) so drift (page
# cache, CPU frequency, other work on the machine) hits them alike; figures
# are medians, with the min..max spread beside them, and the ratio of the
# minimums and the median of the per-repetition ratios as cross-checks. One
# warm-up round runs first and is not counted. Raw results go to
# bench/out/<timestamp>/. A benchmark reports, it does not judge the build:
# exit 0 unless a run crashed or failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
work="" # the measured runs use TMPDIR as it is
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
: "${BARE:?set BARE to the bare_sqlite binary}"
REPS=${REPS:-7}
REPS_B=${REPS_B:-11}
ROWS_A=${ROWS_A:-1000000}
ROWS_B=${ROWS_B:-200000}
ROWS_U=${ROWS_U:-$ROWS_A}
REPS_U=${REPS_U:-$REPS}
BARE_ARGS=${BARE_ARGS:---memstatus off}
TARGET_A=1.10
GOAL_A=1.05
TARGET_B=3.0
TARGET_U=1.10

bench_begin ""

tmp=${TMPDIR:-/tmp}
fstype=$(stat -f -c %T "$tmp" 2>/dev/null || echo unknown)
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
ncpu=$(nproc 2>/dev/null || echo '?')
say "idxlab bench  $(date '+%Y-%m-%d %H:%M:%S')  $(uname -srm)  $ncpu CPUs  load $load"
say "  $("$IDXLAB" --version 2>/dev/null | tr -s ' \n' ' ')"
rev=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')
git -C "$here/.." diff --quiet HEAD -- src 2>/dev/null || rev="$rev + uncommitted src changes"
say "  idxlab built from $rev"
say "  databases in $tmp ($fstype); medians of $REPS (a) / $REPS_B (b) runs per side"
say "  raw results: $out"
case $fstype in
tmpfs | ramfs) say "  WARNING: $tmp is $fstype: fsync costs nothing there" ;;
esac
[ $have_ns = 1 ] || say "  WARNING: date +%N is not supported: wall times are n/a"
if [ "$ncpu" != '?' ] && awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l > n / 4) }'; then
	say "  WARNING: the machine is busy (load $load on $ncpu CPUs): expect noisy figures"
fi

# ---- (a) idxlab vs the bare loop -------------------------------------------

A_IDX="$IDXLAB run --rows $ROWS_A --indexes 0 --commit all --format csv"
A_BARE="$BARE --rows $ROWS_A $BARE_ARGS"
A_REF="$BARE --rows $ROWS_A --memstatus off"
say ""
say "(a) idxlab:   $A_IDX"
say "    bare:     $A_BARE"
say "    bare-ref: $A_REF"
# shellcheck disable=SC2086 # BARE_ARGS is a list of options
a_side() {
	case $1 in
	0) run_one a "$2" idxlab "$IDXLAB" run --rows "$ROWS_A" --indexes 0 --commit all \
		--format csv ;;
	1) run_one a "$2" bare "$BARE" --rows "$ROWS_A" $BARE_ARGS ;;
	2) run_one a "$2" bare-ref "$BARE" --rows "$ROWS_A" --memstatus off ;;
	esac
}
i=0
while [ $i -le "$REPS" ]; do
	# rep 0 is the warm-up; the order rotates: 012, 120, 201, ...
	a_side $((i % 3)) $i
	a_side $(((i + 1) % 3)) $i
	a_side $(((i + 2) % 3)) $i
	i=$((i + 1))
done

# ---- (b) probes on vs off --------------------------------------------------

B_CMD="$IDXLAB run --indexes 1 --key-order rand --rows $ROWS_B --payload 0 --commit all --format csv"
say "(b) $B_CMD --probes on|off"
b_side() {
	run_one b "$2" "$1" "$IDXLAB" run --indexes 1 --key-order rand --rows "$ROWS_B" \
		--payload 0 --commit all --format csv --probes "$1"
}
i=0
while [ $i -le "$REPS_B" ]; do
	if [ $((i % 2)) = 0 ]; then
		b_side on $i
		b_side off $i
	else
		b_side off $i
		b_side on $i
	fi
	i=$((i + 1))
done

# ---- (u) the users table: idxlab vs the bare loop --------------------------

say "(u) idxlab:   $IDXLAB run --schema users --rows $ROWS_U --indexes 0 --commit all --format csv"
say "    bare:     $BARE --schema users --rows $ROWS_U $BARE_ARGS"
# shellcheck disable=SC2086 # BARE_ARGS is a list of options
u_side() {
	case $1 in
	0) run_one u "$2" idxlab "$IDXLAB" run --schema users --rows "$ROWS_U" --indexes 0 \
		--commit all --format csv ;;
	1) run_one u "$2" bare "$BARE" --schema users --rows "$ROWS_U" $BARE_ARGS ;;
	esac
}
i=0
while [ $i -le "$REPS_U" ]; do
	# rep 0 is the warm-up; the order alternates
	u_side $((i % 2)) $i
	u_side $(((i + 1) % 2)) $i
	i=$((i + 1))
done

# ---- (c) instruction counts (IR=1) -----------------------------------------

# ir_run NAME CMD...: run CMD under callgrind; prints "whole measured" (Ir).
# The measured part is the inclusive cost of the functions that run it.
ir_run() {
	name=$1
	shift
	if ! valgrind --tool=callgrind --callgrind-out-file="$out/ir-$name.cg" "$@" \
		>"$out/ir-$name.out" 2>"$out/ir-$name.err"; then
		echo "run.sh: (c) $name failed under valgrind: $*" >&2
		failed=1
		echo "n/a n/a"
		return
	fi
	callgrind_annotate --inclusive=yes "$out/ir-$name.cg" 2>/dev/null | awk '
		/PROGRAM TOTALS/ { gsub(/,/, "", $1); total = $1 }
		/:(wl_batch|wl_finish|bare_load[._a-z0-9]*) \[/ { gsub(/,/, "", $1); part += $1 }
		END { printf "%s %s\n", total ? total : "n/a", part ? part : "n/a" }'
}

ROWS_IR=${ROWS_IR:-200000}
if [ "${IR:-0}" = 1 ]; then
	if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
		say "(c) instructions (callgrind), $ROWS_IR rows"
		read -r ir_i_w ir_i_m <<EOF
$(ir_run idxlab "$IDXLAB" run --rows "$ROWS_IR" --indexes 0 --commit all --format csv)
EOF
		read -r ir_b_w ir_b_m <<EOF
$(ir_run bare "$BARE" --rows "$ROWS_IR")
EOF
		read -r ir_ui_w ir_ui_m <<EOF
$(ir_run users-idxlab "$IDXLAB" run --schema users --rows "$ROWS_IR" --indexes 0 --commit all \
			--format csv)
EOF
		# shellcheck disable=SC2086 # BARE_ARGS is a list of options
		read -r ir_ub_w ir_ub_m <<EOF
$(ir_run users-bare "$BARE" --schema users --rows "$ROWS_IR" $BARE_ARGS)
EOF
		read -r ir_on_w _ <<EOF
$(ir_run on "$IDXLAB" run --indexes 1 --key-order rand --rows "$ROWS_IR" --payload 0 \
			--commit all --format csv --probes on)
EOF
		read -r ir_off_w _ <<EOF
$(ir_run off "$IDXLAB" run --indexes 1 --key-order rand --rows "$ROWS_IR" --payload 0 \
			--commit all --format csv --probes off)
EOF
	else
		say "(c) skipped: valgrind (callgrind) is not installed"
		IR=0
	fi
fi

# ---- summary ---------------------------------------------------------------

# Field numbers in raw.csv.
F_SECS=5 F_RPS=6 F_WALL=7 F_CPU=8

# Each: median, min and max.
read -r i_s i_s_min i_s_max <<EOF
$(col a idxlab $F_SECS | stats)
EOF
read -r b_s b_s_min b_s_max <<EOF
$(col a bare $F_SECS | stats)
EOF
read -r r_s r_s_min r_s_max <<EOF
$(col a bare-ref $F_SECS | stats)
EOF
read -r i_w i_w_min i_w_max <<EOF
$(col a idxlab $F_WALL | stats)
EOF
read -r b_w b_w_min b_w_max <<EOF
$(col a bare $F_WALL | stats)
EOF
read -r r_w r_w_min r_w_max <<EOF
$(col a bare-ref $F_WALL | stats)
EOF
read -r i_c _ _ <<EOF
$(col a idxlab $F_CPU | stats)
EOF
read -r b_c _ _ <<EOF
$(col a bare $F_CPU | stats)
EOF
read -r r_c _ _ <<EOF
$(col a bare-ref $F_CPU | stats)
EOF
read -r pair_s _ _ <<EOF
$(pairs a idxlab bare $F_SECS | stats)
EOF
read -r pair_w _ _ <<EOF
$(pairs a idxlab bare $F_WALL | stats)
EOF
read -r pair_c _ _ <<EOF
$(pairs a idxlab bare $F_CPU | stats)
EOF
read -r on_r on_r_min on_r_max <<EOF
$(col b on $F_RPS | stats)
EOF
read -r off_r off_r_min off_r_max <<EOF
$(col b off $F_RPS | stats)
EOF
read -r on_c _ _ <<EOF
$(col b on $F_CPU | stats)
EOF
read -r off_c _ _ <<EOF
$(col b off $F_CPU | stats)
EOF
read -r b_ratio _ _ <<EOF
$(pairs b off on $F_RPS | stats)
EOF
read -r ui_s ui_s_min ui_s_max <<EOF
$(col u idxlab $F_SECS | stats)
EOF
read -r ub_s ub_s_min ub_s_max <<EOF
$(col u bare $F_SECS | stats)
EOF
read -r ui_w ui_w_min ui_w_max <<EOF
$(col u idxlab $F_WALL | stats)
EOF
read -r ub_w ub_w_min ub_w_max <<EOF
$(col u bare $F_WALL | stats)
EOF
read -r ui_c _ _ <<EOF
$(col u idxlab $F_CPU | stats)
EOF
read -r ub_c _ _ <<EOF
$(col u bare $F_CPU | stats)
EOF
read -r upair_s _ _ <<EOF
$(pairs u idxlab bare $F_SECS | stats)
EOF
read -r upair_w _ _ <<EOF
$(pairs u idxlab bare $F_WALL | stats)
EOF
ratio_s=$(calc "$i_s / $b_s")
ratio_w=$(calc "$i_w / $b_w")
ratio_c=$(calc "$i_c / $b_c")
ratio_s_min=$(calc "$i_s_min / $b_s_min")
ratio_w_min=$(calc "$i_w_min / $b_w_min")
ref_s=$(calc "$i_s / $r_s")
ref_w=$(calc "$i_w / $r_w")
ref_c=$(calc "$i_c / $r_c")
uratio_s=$(calc "$ui_s / $ub_s")
uratio_w=$(calc "$ui_w / $ub_w")
uratio_s_min=$(calc "$ui_s_min / $ub_s_min")
uratio_w_min=$(calc "$ui_w_min / $ub_w_min")
b_pct=$(calc "($off_r - $on_r) / $off_r * 100")
b_pair=$(calc "($b_ratio - 1) / $b_ratio * 100")
b_cpu=$(calc "($on_c - $off_c) / $on_c * 100")
# The widest min..max spread of a judged side, in % of its median.
noise_a=$(calc "100 * (($i_s_max - $i_s_min) / $i_s > ($b_s_max - $b_s_min) / $b_s ? \
	($i_s_max - $i_s_min) / $i_s : ($b_s_max - $b_s_min) / $b_s)")
noise_u=$(calc "100 * (($ui_s_max - $ui_s_min) / $ui_s > ($ub_s_max - $ub_s_min) / $ub_s ? \
	($ui_s_max - $ui_s_min) / $ui_s : ($ub_s_max - $ub_s_min) / $ub_s)")
noise_b=$(calc "100 * (($on_r_max - $on_r_min) / $on_r > ($off_r_max - $off_r_min) / $off_r ? \
	($on_r_max - $on_r_min) / $on_r : ($off_r_max - $off_r_min) / $off_r)")

say ""
say "== summary ===================================================================="
say "(a) $ROWS_A rows, 0 indexes, one transaction: median (min..max) of $REPS runs"
say "  side      measured s           us/row  process wall s       us/row  process cpu s"
a_row() {
	say "$(printf '  %-8s %6s (%-12s) %6s  %6s (%-12s) %6s  %6s' "$1" "$(fmt "$2" %.3f)" \
		"$(spread "$3" "$4")" "$(us "$2" "$ROWS_A")" "$(fmt "$5" %.3f)" \
		"$(spread "$6" "$7")" "$(us "$5" "$ROWS_A")" "$(fmt "$8" %.2f)")"
}
a_row idxlab "$i_s" "$i_s_min" "$i_s_max" "$i_w" "$i_w_min" "$i_w_max" "$i_c"
a_row bare "$b_s" "$b_s_min" "$b_s_max" "$b_w" "$b_w_min" "$b_w_max" "$b_c"
a_row bare-ref "$r_s" "$r_s_min" "$r_s_max" "$r_w" "$r_w_min" "$r_w_max" "$r_c"
say ""
say "  idxlab / bare    median  (min/min  per-run)  target          verdict"
say "$(printf '  measured         %6s  (%6s   %6s)   <= %s (%s)  %s' "$(fmt "$ratio_s" %.3f)" \
	"$(fmt "$ratio_s_min" %.3f)" "$(fmt "$pair_s" %.3f)" $TARGET_A $GOAL_A \
	"$(verdict "$ratio_s" $TARGET_A $GOAL_A)")"
say "$(printf '  whole process    %6s  (%6s   %6s)   <= %s (%s)  %s' "$(fmt "$ratio_w" %.3f)" \
	"$(fmt "$ratio_w_min" %.3f)" "$(fmt "$pair_w" %.3f)" $TARGET_A $GOAL_A \
	"$(verdict "$ratio_w" $TARGET_A $GOAL_A)")"
say "$(printf '  process cpu      %6s  (         %6s)   not judged' "$(fmt "$ratio_c" %.3f)" \
	"$(fmt "$pair_c" %.3f)")"
say "$(printf '  idxlab / bare-ref (not judged): measured %s, whole process %s, cpu %s' \
	"$(fmt "$ref_s" %.3f)" "$(fmt "$ref_w" %.3f)" "$(fmt "$ref_c" %.3f)")"
say ""
say "(u) the users table, $ROWS_U rows, 0 indexes, one transaction: median (min..max) of $REPS_U runs"
say "  side      measured s           us/row  process wall s       us/row  process cpu s"
u_row() {
	say "$(printf '  %-8s %6s (%-12s) %6s  %6s (%-12s) %6s  %6s' "$1" "$(fmt "$2" %.3f)" \
		"$(spread "$3" "$4")" "$(us "$2" "$ROWS_U")" "$(fmt "$5" %.3f)" \
		"$(spread "$6" "$7")" "$(us "$5" "$ROWS_U")" "$(fmt "$8" %.2f)")"
}
u_row idxlab "$ui_s" "$ui_s_min" "$ui_s_max" "$ui_w" "$ui_w_min" "$ui_w_max" "$ui_c"
u_row bare "$ub_s" "$ub_s_min" "$ub_s_max" "$ub_w" "$ub_w_min" "$ub_w_max" "$ub_c"
say ""
say "  idxlab / bare    median  (min/min  per-run)  target          verdict"
say "$(printf '  measured         %6s  (%6s   %6s)   <= %s         %s' "$(fmt "$uratio_s" %.3f)" \
	"$(fmt "$uratio_s_min" %.3f)" "$(fmt "$upair_s" %.3f)" $TARGET_U \
	"$(verdict "$uratio_s" $TARGET_U)")"
say "$(printf '  whole process    %6s  (%6s   %6s)   <= %s         %s' "$(fmt "$uratio_w" %.3f)" \
	"$(fmt "$uratio_w_min" %.3f)" "$(fmt "$upair_w" %.3f)" $TARGET_U \
	"$(verdict "$uratio_w" $TARGET_U)")"
say ""
say "(b) $ROWS_B rows, 1 index, random keys, payload 0: median (min..max) of $REPS_B runs"
say "$(printf '  probes on:  %8s rows/s (%s..%s)  %s us/row  cpu %s s' "$(fmt "$on_r" %.0f)" \
	"$(fmt "$on_r_min" %.0f)" "$(fmt "$on_r_max" %.0f)" "$(us 1 "$on_r")" "$(fmt "$on_c" %.2f)")"
say "$(printf '  probes off: %8s rows/s (%s..%s)  %s us/row  cpu %s s' "$(fmt "$off_r" %.0f)" \
	"$(fmt "$off_r_min" %.0f)" "$(fmt "$off_r_max" %.0f)" "$(us 1 "$off_r")" \
	"$(fmt "$off_c" %.2f)")"
say "$(printf '  rows/s lost with probes on: %s %%   target <= %s %%   %s' "$(fmt "$b_pct" %.2f)" \
	$TARGET_B "$(verdict "$b_pct" $TARGET_B)")"
say "$(printf '  (per-run median %s %%; by process cpu time %s %%: not judged)' \
	"$(fmt "$b_pair" %.2f)" "$(fmt "$b_cpu" %.2f)")"
if [ "${IR:-0}" = 1 ]; then
	say ""
	say "(c) instructions executed (callgrind), $ROWS_IR rows; not judged"
	say "$(printf '  (a) measured part: idxlab %s, bare %s, ratio %s; per row %s vs %s' \
		"$ir_i_m" "$ir_b_m" "$(fmt "$(calc "$ir_i_m / $ir_b_m")" %.3f)" \
		"$(fmt "$(calc "$ir_i_m / $ROWS_IR")" %.0f)" "$(fmt "$(calc "$ir_b_m / $ROWS_IR")" %.0f)")"
	say "$(printf '      whole process: idxlab %s, bare %s, ratio %s' "$ir_i_w" "$ir_b_w" \
		"$(fmt "$(calc "$ir_i_w / $ir_b_w")" %.3f)")"
	say "$(printf '  (u) measured part: idxlab %s, bare %s, ratio %s; per row %s vs %s' \
		"$ir_ui_m" "$ir_ub_m" "$(fmt "$(calc "$ir_ui_m / $ir_ub_m")" %.3f)" \
		"$(fmt "$(calc "$ir_ui_m / $ROWS_IR")" %.0f)" "$(fmt "$(calc "$ir_ub_m / $ROWS_IR")" %.0f)")"
	say "$(printf '      whole process: idxlab %s, bare %s, ratio %s' "$ir_ui_w" "$ir_ub_w" \
		"$(fmt "$(calc "$ir_ui_w / $ir_ub_w")" %.3f)")"
	say "$(printf '  (b) whole process: probes on %s, off %s: %s %% more with probes on' \
		"$ir_on_w" "$ir_off_w" "$(fmt "$(calc "($ir_on_w - $ir_off_w) / $ir_off_w * 100")" %.2f)")"
fi
widest=$(awk -v a="$noise_a" -v b="$noise_b" -v u="$noise_u" 'BEGIN {
	w = a + 0 > b + 0 ? a : b; print (u + 0 > w + 0) ? u : w }')
bench_end "$widest" "REPS / REPS_B / REPS_U"
