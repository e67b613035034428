#!/bin/sh
# bench/repeat.sh - how steady a step's figures are under --repeat, and
# what --warmup does to a sweep's first step. Run by `make bench`, which
# sets IDXLAB. Optional: ROWS (default 1000000), RUNS (default 5),
# PROCS_W (processes per side in (b), default 5), ROWS_W (default 200000),
# TMPDIR (where the databases go).
#
# (a) spread: one SQLite step of ROWS rows (default knobs: no index, one
#     transaction, seq keys), `--repeat RUNS`: each run's rows/s, and the
#     step's median, min and max as idxlab reports them; the spread is the
#     larger distance from the median to the min or the max, in % of the
#     median (the text table's +-). Target: <= 5 % on an idle machine.
# (b) warm-up: a 5-step sweep of identical steps (--seed 1,1,1,1,1, ROWS_W
#     rows each), --warmup off and on, PROCS_W processes of each, the sides
#     alternating: the first step's rows/s over the median of steps 2-5, per
#     process; the median of those ratios per side. 1.00: the first step is
#     measured like the others. (One process is one cold start: --repeat
#     inside a process would measure the first step warm.)
#
# The load average is printed before and after: on a busy machine the
# spread says more about the neighbours than about idxlab. A benchmark
# reports, it does not judge the build: exit 0 unless a run failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
ROWS=${ROWS:-1000000}
RUNS=${RUNS:-5}
PROCS_W=${PROCS_W:-5}
ROWS_W=${ROWS_W:-200000}
TARGET=5
widest=0
bench_begin repeat-

load() { cut -d' ' -f1-3 /proc/loadavg; }
say "bench/repeat: $(nproc) CPUs, load average $(load) (1, 5, 15 min)"

# ---- (a) ---------------------------------------------------------------------
say ""
say "(a) --repeat $RUNS of one SQLite step, $ROWS rows (default knobs)"
if ! "$IDXLAB" run --rows "$ROWS" --repeat "$RUNS" --format csv \
	--fields record,run,runs,seconds,rows_per_s,rows_per_s_min,rows_per_s_max \
	>"$out/a.csv" 2>"$out/a.err"; then
	say "  FAILED: $(tail -3 "$out/a.err")"
	failed=1
else
	awk -F, 'NR > 1 && $1 == "run" { printf "  run %s: %s rows/s (%s s)\n", $2, $5, $4 }' "$out/a.csv" |
		tee -a "$summary"
	# shellcheck disable=SC2046
	set -- $(awk -F, 'NR > 1 && $1 == "step" { print $5, $6, $7, $3 }' "$out/a.csv") n/a n/a n/a n/a
	med=$1 lo=$2 hi=$3 n=$4
	pm=$(calc "100 * (($med - $lo > $hi - $med) ? $med - $lo : $hi - $med) / $med")
	range=$(calc "100 * ($hi - $lo) / $med")
	say "  step: median $med rows/s, min $lo, max $hi ($n runs)"
	say "  spread: +-$(fmt "$pm" %.1f) % (the larger distance from the median), range $(fmt "$range" %.1f) % of the median"
	say "  target +-$TARGET % on an idle machine: $(verdict "$pm" $TARGET)"
	widest=$pm
	# the same figures from the runs themselves: idxlab's median is theirs
	own=$(awk -F, 'NR > 1 && $1 == "run" { print $5 }' "$out/a.csv" | stats)
	say "  cross-check, the runs' own median min max: $own"
fi

# ---- (b) ---------------------------------------------------------------------
say ""
say "(b) --warmup: a sweep of 5 identical steps (--seed 1,1,1,1,1), $ROWS_W rows each, $PROCS_W processes a side"
: >"$out/b.txt"
i=1
while [ $i -le "$PROCS_W" ]; do
	for w in off on; do
		if "$IDXLAB" run --rows "$ROWS_W" --seed 1,1,1,1,1 --warmup $w --format csv \
			--fields step,rows_per_s >"$out/b-$w-$i.csv" 2>"$out/b-$w-$i.err"; then
			r=$(awk -F, 'NR > 1 { v[NR - 1] = $2 } END {
				n = 0; for (i = 2; i <= 5; i++) o[++n] = v[i]
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (o[j] < o[i]) { t = o[i]; o[i] = o[j]; o[j] = t }
				printf "%.4f %s %s\n", v[1] / ((o[2] + o[3]) / 2), v[1], (o[2] + o[3]) / 2 }' "$out/b-$w-$i.csv")
			echo "$w $r" >>"$out/b.txt"
		else
			say "  FAILED ($w, process $i): $(tail -2 "$out/b-$w-$i.err")"
			failed=1
		fi
	done
	i=$((i + 1))
done
for w in off on; do
	ratios=$(awk -v w=$w '$1 == w { printf "%s ", $2 }' "$out/b.txt")
	# shellcheck disable=SC2046
	set -- $(awk -v w=$w '$1 == w { print $2 }' "$out/b.txt" | stats)
	say "  --warmup $w: first step / median of steps 2-5 = $(fmt "$1" %.2f) (min $(fmt "$2" %.2f), max $(fmt "$3" %.2f)); per process: $ratios"
done

say ""
say "load average after: $(load)"
bench_end "$widest" "RUNS or PROCS_W"
