# tests/lib.sh - helpers for the shell tests (sourced).
# A test prints PASS/FAIL/SKIP lines through ok/bad/skip; run.sh tallies them.
set -u
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/idxlab-test.XXXXXX")
chmod 755 "$T"
export TMPDIR="$T/tmp"
mkdir -p "$TMPDIR"
chmod 1777 "$TMPDIR"
# Never read the developer's own config file.
export XDG_CONFIG_HOME="$T/xdg"
export HOME="$T/home"
mkdir -p "$HOME"
trap 'rm -rf "$T"' EXIT

ok() { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME CONDITION-TEXT: awk-evaluated numeric condition, e.g. "3 >= 2*1"
check() {
	if awk "BEGIN { exit !($2) }" </dev/null; then ok "$1"; else bad "$1" "not true: $2"; fi
}

# field FILE NAME [ROW]: the value of column NAME in data row ROW (default 1)
# of a CSV file written by idxlab --format csv.
field() {
	awk -F, -v name="$2" -v row="${3:-1}" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next }
		NR == row + 1 { if (col) print $col; else print "NOCOLUMN" }' "$1"
}

# expect_exit NAME CODE PATTERN CMD...: CMD exits CODE and its stderr matches PATTERN
expect_exit() {
	name=$1 code=$2 pat=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne "$code" ]; then
		bad "$name" "exit $rc, expected $code; stderr: $(head -c 300 "$T/err")"
	elif ! grep -qE -- "$pat" "$T/err"; then
		bad "$name" "stderr does not match /$pat/: $(head -c 300 "$T/err")"
	else
		ok "$name"
	fi
}

# The temp dir idxlab makes must be gone after a run.
no_leftovers() {
	if [ -n "$(ls -A "$TMPDIR")" ]; then
		bad "$1" "left behind in TMPDIR: $(ls -A "$TMPDIR")"
	else
		ok "$1"
	fi
}
