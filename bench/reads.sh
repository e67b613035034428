#!/bin/sh
# bench/reads.sh - the reads (issue 22): what idxlab's lookups cost over a
# bare C loop, and what an index buys a lookup beside what it costs an
# insert. Run by `make bench`, which sets IDXLAB and BARE
# (build/bench/bare_sqlite). Optional: REPS (default 5), ROWS_PK (default
# 1000000), ROWS_U (default 1000000), TMPDIR.
#
# (a) lookups by primary key: the default table of ROWS_PK rows and a
#     `query by_id: id = ?` line, ROWS_PK lookups in one transaction, each
#     row drawn from the seed and fetched whole: idxlab's measured seconds
#     over bare_sqlite --op lookup's loop (the same statement, rows and
#     fetch). The sides alternate; the median of the per-repetition
#     ratios. Target <= 1.10.
# (b) the users table of ROWS_U rows: lookups by email without its index
#     (every lookup scans the table) and with it, queries/s and the ratio
#     (target: at least 1,000x at 1M rows), beside the insert cost the same
#     index adds (100,000 inserts into the table, rows/s and write() bytes
#     per row at 0 and 1 index).
# A benchmark reports, it does not judge the build: exit 0 unless a run
# failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
: "${BARE:?set BARE to build/bench/bare_sqlite}"
REPS=${REPS:-5}
ROWS_PK=${ROWS_PK:-1000000}
ROWS_U=${ROWS_U:-1000000}
bench_begin reads-
load() { cut -d' ' -f1-3 /proc/loadavg; }
say "bench/reads: $(nproc) CPUs, load average $(load) (1, 5, 15 min)"

spec="$out/pk.spec"
{
	cat <<'SPEC'
id knob
column k1 bigint knob
column k2 bigint knob
column k3 bigint knob
column k4 bigint knob
column k5 bigint knob
column k6 bigint knob
column k7 bigint knob
column k8 bigint knob
index k1
query by_id: id = ?
SPEC
} >"$spec"

# ---- (a) ---------------------------------------------------------------------
say ""
say "(a) $ROWS_PK lookups by primary key on a $ROWS_PK-row table, one transaction:"
ratios=""
rep=0
while [ $rep -lt "$REPS" ]; do
	rep=$((rep + 1))
	"$IDXLAB" run --schema "$spec" --indexes 0 --op lookup --prefill "$ROWS_PK" \
		--rows "$ROWS_PK" --warmup off --format csv >"$out/a-idxlab-$rep.csv" 2>"$out/a-idxlab-$rep.err" ||
		{ failed=1; say "  idxlab run $rep FAILED: $(head -c 300 "$out/a-idxlab-$rep.err")"; continue; }
	bare=$("$BARE" --op lookup --prefill "$ROWS_PK" --rows "$ROWS_PK" 2>"$out/a-bare-$rep.err") ||
		{ failed=1; say "  bare run $rep FAILED: $(head -c 300 "$out/a-bare-$rep.err")"; continue; }
	is=$(csv_field "$out/a-idxlab-$rep.csv" seconds)
	bs=${bare#* }
	r=$(calc "$is / $bs")
	echo "a,$rep,idxlab,$ROWS_PK,$is,,," >>"$raw"
	echo "a,$rep,bare,$ROWS_PK,$bs,,," >>"$raw"
	say "  run $rep: idxlab $(fmt "$is" %.3f) s, bare $(fmt "$bs" %.3f) s, ratio $(fmt "$r" %.3f)"
	ratios="$ratios $r"
done
set -- $(printf '%s\n' $ratios | stats)
say "  idxlab/bare: median $(fmt "$1" %.3f) (min $(fmt "$2" %.3f), max $(fmt "$3" %.3f)); target <= 1.10"

# ---- (b) ---------------------------------------------------------------------
say ""
say "(b) users, $ROWS_U rows: lookups by email without and with its index"
# read by email alone: the users spec without its four query lines
"$IDXLAB" --schema users --print-config | sed -n 's/^#   //p' | grep -v '^query ' >"$out/users.spec"
u() { "$IDXLAB" run --schema "$out/users.spec" --prefill "$ROWS_U" --warmup off --format csv "$@"; }
u --op lookup --indexes 0 --rows 20 >"$out/b-scan.csv" 2>"$out/b-scan.err" || failed=1
u --op lookup --indexes 1 --rows 100000 >"$out/b-index.csv" 2>"$out/b-index.err" || failed=1
u --op insert --indexes 0,1 --rows 100000 >"$out/b-insert.csv" 2>"$out/b-insert.err" || failed=1
q0=$(csv_field "$out/b-scan.csv" reads_per_s) q1=$(csv_field "$out/b-index.csv" reads_per_s)
x0=$(csv_field "$out/b-scan.csv" rows_examined_per_query)
x1=$(csv_field "$out/b-index.csv" rows_examined_per_query)
i0=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR == 2 { print $h["rows_per_s"] }' "$out/b-insert.csv")
i1=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR == 3 { print $h["rows_per_s"] }' "$out/b-insert.csv")
w0=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR == 2 { print $h["wchar_per_row"] }' "$out/b-insert.csv")
w1=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } NR == 3 { print $h["wchar_per_row"] }' "$out/b-insert.csv")
say "  lookups by email: $q0 queries/s without the index ($x0 rows examined each), $q1 with it ($x1)"
say "  the index makes a lookup $(fmt "$(calc "$q1 / $q0")" %.0f)x faster (target >= 1000)"
say "  and costs an insert: $i0 -> $i1 rows/s ($(fmt "$(calc "100 * ($i1 / $i0 - 1)")" %+.0f) %), write() $w0 -> $w1 B/row"
say "  load average now $(load)"
bench_end 0 REPS
