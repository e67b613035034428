# A short fuzz of the readers of outside text (tests/fuzz.py; make fuzz runs
# the long one on the sanitizer build): mutated table spec files and
# generated SQLite --schema-from sources. Each case must exit 0 or 2 with no
# crash, hang or raw control byte, refuse a spec at FILE:LINE, print a config
# that reads back to itself and leave the source's directory unchanged.
. "$(dirname "$0")/lib.sh"

fuzz() {
	name=$1
	shift
	out=$(FUZZ_KEEP=$T/keep-$1 /usr/bin/python3 "$(dirname "$0")/fuzz.py" "$@" 2>&1)
	if printf '%s\n' "$out" | grep -q "^fuzz $1: $2 cases, 0 failed$"; then
		ok "$name"
	else
		bad "$name" "$(printf '%s\n' "$out" | grep -m3 '^FAIL' | tr '\n' ' ')$(printf '%s\n' "$out" | tail -1)"
	fi
}

# The same inputs every run (FUZZ_SEED=N for others; make fuzz runs many more).
seed=${FUZZ_SEED:-7}
fuzz "fuzz/spec-files-seed-$seed" spec 300 "$seed"
fuzz "fuzz/schema-from-sources-seed-$seed" source 25 "$seed"
