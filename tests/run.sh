#!/bin/sh
# The test runner. Every test program prints lines "PASS name", "FAIL name: why"
# or "SKIP name: why"; a program that exits non-zero without a FAIL line counts
# as one failure. Ends with the line "N passed, N failed, N skipped".
#   sh tests/run.sh           everything
#   sh tests/run.sh threads   only the tests that exercise threads (for TSan)
#   sh tests/run.sh unit      only the unit tests (tests/unit/, the binary UNIT)
# Needs IDXLAB (the binary) and, for the unit tests, UNIT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
export IDXLAB
only=${1:-}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() {
	name=$1
	shift
	start=$(date +%s)
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL|SKIP) ' >>"$log"
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL|SKIP) ' | sed 's/^/  /'
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		echo "FAIL $name: exited $rc" >>"$log"
		echo "  FAIL $name: exited $rc; its output:"
		printf '%s\n' "$out" | tail -20 | sed 's/^/    | /'
	fi
	echo "  ($name: $(($(date +%s) - start)) s)"
}

if [ "$only" = unit ] && [ -z "${UNIT:-}" ]; then
	echo "FAIL unit: set UNIT to the unit test binary (make build/tests/unit)" >>"$log"
fi
if { [ -z "$only" ] || [ "$only" = unit ]; } && [ -n "${UNIT:-}" ]; then
	echo "== unit"
	run_one unit "$UNIT" "$here/fixtures"
fi
for t in "$here"/t_*.sh; do
	[ "$only" = unit ] && break
	if [ "$only" = threads ] && ! grep -q '^# threads' "$t"; then
		continue
	fi
	echo "== $(basename "$t")"
	run_one "$(basename "$t")" sh "$t"
done

grep '^SKIP ' "$log" | sed 's/^/skipped: /'
grep '^FAIL ' "$log" | sed 's/^/failed: /'
p=$(grep -c '^PASS ' "$log")
f=$(grep -c '^FAIL ' "$log")
s=$(grep -c '^SKIP ' "$log")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
