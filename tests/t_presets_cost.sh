#!/bin/sh
# What a preset costs beyond its own work (issue 21 item 8): the warm-up
# builds its throwaway table with at most 100,000 of the step's prefilled
# rows (each step builds its table afresh, so the rest warmed nothing),
# while the measured step keeps its whole prefill; and bench/presets.sh
# sets each preset beside the same work done bare, step by step from the
# preset's own CSV, printing preset / bare, or why bare cannot do a step.
# Behaviour only: no time is asserted.
. "$(dirname "$0")/lib.sh"

# field FILE NAME: column NAME of the first step record of a CSV.
field() {
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["record"] == "step" { print (c[n] ? $c[n] : "no-such-column"); exit }' "$1"
}

# ---- the warm-up's prefill, capped ----------------------------------------------
"$IDXLAB" run -v --engine sqlite --op update --prefill 150000 --rows 2000 --payload 0 \
	--format csv >"$T/cap.csv" 2>"$T/cap.err"
if grep -q 'warm-up: step 1 ran .*on 100000 of its 150000 prefilled rows' "$T/cap.err"; then
	ok presets-cost/warmup-prefill-capped
else bad presets-cost/warmup-prefill-capped "$(cat "$T/cap.err")"; fi
# ... and the step measured on its whole table, as before
p=$(field "$T/cap.csv" prefill)
t=$(field "$T/cap.csv" table_rows)
[ "$p" = 150000 ] && [ "$t" = 150000 ] && ok presets-cost/step-keeps-its-prefill ||
	bad presets-cost/step-keeps-its-prefill "prefill $p, table_rows $t: $(cat "$T/cap.err")"

# Under the cap the warm-up's table is the step's: no note (a step of
# under 100 rows: its warm-up is the whole of it).
"$IDXLAB" run -v --engine sqlite --op update --prefill 5000 --rows 80 --payload 0 \
	--format csv >"$T/small.csv" 2>"$T/small.err"
if grep -q 'warm-up: step 1 ran once unmeasured' "$T/small.err" &&
	! grep -q 'prefilled rows' "$T/small.err"; then
	ok presets-cost/warmup-small-prefill-whole
else bad presets-cost/warmup-small-prefill-whole "$(cat "$T/small.err")"; fi

# The warm-up runs a tenth of a longer step (at least 100 rows), and says so.
"$IDXLAB" run -v --engine sqlite --rows 5000 --payload 0 --format csv >/dev/null 2>"$T/tenth.err"
grep -q 'warm-up: step 1 ran its start unmeasured (500 of its 5000 rows' "$T/tenth.err" &&
	ok presets-cost/warmup-a-tenth || bad presets-cost/warmup-a-tenth "$(cat "$T/tenth.err")"
"$IDXLAB" run -v --engine sqlite --rows 300 --payload 0 --format csv >/dev/null 2>"$T/floor.err"
grep -q 'warm-up: step 1 ran its start unmeasured (100 of its 300 rows' "$T/floor.err" &&
	ok presets-cost/warmup-at-least-100 || bad presets-cost/warmup-at-least-100 "$(cat "$T/floor.err")"

# ---- bench/presets.sh: preset / bare per preset ---------------------------------
# The bare loops are built beside the unit tests (make builds them with them).
build=$(cd "$(dirname "${UNIT:-.}")/.." 2>/dev/null && pwd)
bare_sqlite=$build/bench/bare_sqlite
bare_pg=$build/bench/bare_pg
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$bare_sqlite" ] || [ ! -x "$bare_pg" ] || [ ! -x "$build/bench/bare_wt" ]; then
	skip presets-cost/bench "no bare loops in $build/bench (make build/bench/bare_sqlite build/bench/bare_pg build/bench/bare_wt)"
	exit 0
fi
# and a config of its own, whose journal bare_sqlite does not set
cat >"$T/sqlite-journal-memory.conf" <<'EOF'
engine  = sqlite
journal = memory
rows    = 200000
EOF
bare_wt=$build/bench/bare_wt
presets="sqlite-key-order sqlite-commit-shape sqlite-textkey wt-size-growth $T/sqlite-journal-memory.conf"
bindir=$(pg_bindir)
[ -n "$bindir" ] && presets="pg-hot-fillfactor mongo-vs-pg-five-indexes $presets"
BENCH_OUT=$T/bench SCALE=0.005 PRESETS=$presets BARE_PG=$bare_pg BARE_SQLITE=$bare_sqlite BARE_WT=$bare_wt \
	sh "$here/bench/presets.sh" >"$T/bench.out" 2>"$T/bench.err"
# A preset bare can do: the load, preset seconds, the throwaway server's
# part of them, bare seconds, their ratio and a flag.
line_ok() {
	grep -E "^  $1( +[0-9.]+){5} (ok|OVER) " "$T/bench.out" >/dev/null
}
# server_s of preset $1: the fourth column
server_s() { awk -v p="$1" '$1 == p { print $4; exit }' "$T/bench.out"; }
line_ok sqlite-key-order && ok presets-cost/bench-sqlite-ratio ||
	bad presets-cost/bench-sqlite-ratio "$(cat "$T/bench.out" "$T/bench.err")"
# ... from one bare run per step of the preset's CSV (its 4 steps), each
# with the step's own knobs
bare=$(ls "$T"/bench/*/sqlite-key-order.1.bare 2>/dev/null | head -1)
n=$(grep -c 'bare_sqlite .*--key-order \(seq\|rand\) .*--cache \(2000KiB\|1GiB\) --commit all --prefill 0 ' "${bare:-/dev/null}")
[ "$n" = 4 ] && ok presets-cost/bench-bare-per-step ||
	bad presets-cost/bench-bare-per-step "$n bare steps: $(cat "${bare:-/dev/null}")"
if [ -n "$bindir" ]; then
	line_ok pg-hot-fillfactor && ok presets-cost/bench-pg-update-ratio ||
		bad presets-cost/bench-pg-update-ratio "$(cat "$T/bench.out" "$T/bench.err")"
	# its throwaway server's start and stop, apart (bare's is not timed)
	check presets-cost/bench-pg-server-apart "$(server_s pg-hot-fillfactor) > 0"
	check presets-cost/bench-sqlite-no-server "$(server_s sqlite-key-order) == 0"
	# WiredTiger and PostgreSQL, inserts and the three updates: every step
	# of its 24 has its bare loop, each with the step's op
	line_ok mongo-vs-pg-five-indexes && ok presets-cost/bench-mongo-vs-pg-ratio ||
		bad presets-cost/bench-mongo-vs-pg-ratio "$(cat "$T/bench.out" "$T/bench.err")"
	bare=$(ls "$T"/bench/*/mongo-vs-pg-five-indexes.1.bare 2>/dev/null | head -1)
	n=$(grep -cE 'bare_(wt|pg) .*--op (insert|update|update-indexed|update-keys) ' "${bare:-/dev/null}")
	[ "$n" = 24 ] && ok presets-cost/bench-mongo-vs-pg-per-step ||
		bad presets-cost/bench-mongo-vs-pg-per-step "$n bare steps: $(cat "${bare:-/dev/null}")"
else
	skip presets-cost/bench-pg-update-ratio "no PostgreSQL server installed"
fi
# A commit per row, a prefill loaded first, WAL and synchronous=NORMAL:
# bare does them too, so the preset has its ratio.
line_ok sqlite-commit-shape && ok presets-cost/bench-commit-shape-ratio ||
	bad presets-cost/bench-commit-shape-ratio "$(cat "$T/bench.out" "$T/bench.err")"
# A table of its own (textkey) and a WiredTiger preset: bare builds them
# as idxlab does, so they have their ratio.
line_ok sqlite-textkey && ok presets-cost/bench-textkey-ratio ||
	bad presets-cost/bench-textkey-ratio "$(cat "$T/bench.out" "$T/bench.err")"
line_ok wt-size-growth && ok presets-cost/bench-wiredtiger-ratio ||
	bad presets-cost/bench-wiredtiger-ratio "$(cat "$T/bench.out" "$T/bench.err")"
# ... each step's bare_wt with the fields table and the step's rows
bare=$(ls "$T"/bench/*/wt-size-growth.1.bare 2>/dev/null | head -1)
n=$(grep -c 'bare_wt --schema fields --op insert --indexes [05] .*--commit 1000 --sync off' "${bare:-/dev/null}")
[ "$n" = 6 ] && ok presets-cost/bench-bare-wt-per-step ||
	bad presets-cost/bench-bare-wt-per-step "$n bare steps: $(cat "${bare:-/dev/null}")"
# A step bare cannot do (a journal bare_sqlite does not set): said, no ratio.
grep -E "^  sqlite-journal-memory .*n/a +\(bare: op insert, journal memory, sync full, load insert\)" "$T/bench.out" >/dev/null &&
	ok presets-cost/bench-says-why-no-bare ||
	bad presets-cost/bench-says-why-no-bare "$(cat "$T/bench.out" "$T/bench.err")"

# bare_pg refuses a table it cannot write as idxlab does, naming the column.
"$bare_pg" "host=/nonexistent" --schema users >/dev/null 2>"$T/users.err"
rc=$?
[ $rc = 2 ] && grep -q 'column .* is not a plain int or bigint' "$T/users.err" &&
	ok presets-cost/bare-pg-refuses-users ||
	bad presets-cost/bare-pg-refuses-users "exit $rc: $(cat "$T/users.err")"

# bare_sqlite refuses a table idxlab builds otherwise (kept in its first
# index), bare_wt one that is not all int64 columns (users' text).
cat >"$T/kept.spec" <<'SPEC'
id bigint seq unindexed
column email text(20) rand
index email unique
without rowid
SPEC
"$bare_sqlite" --schema "$T/kept.spec" --indexes 1 >/dev/null 2>"$T/kept.err"
rc=$?
[ $rc = 2 ] && grep -q 'a table idxlab builds otherwise' "$T/kept.err" &&
	ok presets-cost/bare-sqlite-refuses-kept-table ||
	bad presets-cost/bare-sqlite-refuses-kept-table "exit $rc: $(cat "$T/kept.err")"
"$build/bench/bare_wt" --schema users >/dev/null 2>"$T/wtusers.err"
rc=$?
[ $rc = 2 ] && grep -q 'a table of int64 columns' "$T/wtusers.err" &&
	ok presets-cost/bare-wt-refuses-users ||
	bad presets-cost/bare-wt-refuses-users "exit $rc: $(cat "$T/wtusers.err")"
