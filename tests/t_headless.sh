# Headless ergonomics (issue 12): a default text table that fits 100
# columns, --fields for every format, -q, --progress lines, repeated events
# folded on stderr; and, in the dashboard, the SQLITE_SCHEMA retry after an
# index drop said as routine and the events box scrolled with [ and ].
. "$(dirname "$0")/lib.sh"

# widest FILE: the longest line's length.
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"; }

# --- the text table fits 100 columns: settings lines, header, rows, notes
fits() {
	name=$1
	shift
	if "$IDXLAB" run "$@" >"$T/w.txt" 2>"$T/err"; then
		w=$(widest "$T/w.txt")
		echo "  $name: widest line $w"
		if [ "$w" -le 100 ] && [ "$(grep -vc '^#' "$T/w.txt")" -ge 2 ]; then
			ok "$name"
		else bad "$name" "widest line $w: $(cat "$T/w.txt")"; fi
	else bad "$name" "$(cat "$T/err")"; fi
}
fits headless/text-fits-100 --rows 2000 --indexes 0,1,3 --key-order seq,rand
fits headless/text-fits-100-engines --engine sqlite,wiredtiger --indexes 0,1 --rows 2000
fits headless/text-fits-100-step-end --rows 2000 --indexes 2 --index-build after --vacuum \
	--op update --pk int,uuid7
if [ -n "$(pg_bindir)" ]; then
	fits headless/text-fits-100-postgres --engine postgres --rows 2000 --indexes 0,1 --op update
else skip headless/text-fits-100-postgres "no PostgreSQL server binaries"; fi
# What is left out of the table is in CSV, by name: a step's seconds and
# rows (the settings line names rows=2000).
"$IDXLAB" run --rows 2000 --indexes 0,1 --format csv >"$T/w.csv" 2>/dev/null
[ "$(field "$T/w.csv" rows 2)" = 2000 ] && [ -n "$(field "$T/w.csv" seconds 2)" ] &&
	ok headless/csv-keeps-every-field || bad headless/csv-keeps-every-field "$(cat "$T/w.csv")"

# --- --fields: the same fields in the same order in every format
"$IDXLAB" run --rows 1000 --indexes 0,2 --fields indexes,p99_ms,rows_per_s --format csv >"$T/f.csv" 2>"$T/err"
if [ "$(head -1 "$T/f.csv")" = "indexes,p99_ms,rows_per_s" ] && [ "$(wc -l <"$T/f.csv")" -eq 3 ] &&
	[ "$(sed -n 3p "$T/f.csv" | cut -d, -f1)" = 2 ]; then
	ok headless/fields-csv
else bad headless/fields-csv "$(cat "$T/f.csv" "$T/err")"; fi
"$IDXLAB" run --rows 1000 --indexes 0,2 --fields=indexes,p99_ms,rows_per_s --format json >"$T/f.json" 2>"$T/err"
if python3 -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [list(r) for r in recs] == [["indexes", "p99_ms", "rows_per_s"]] * 2, recs
assert recs[1]["indexes"] == 2' "$T/f.json" 2>"$T/py"; then
	ok headless/fields-json
else bad headless/fields-json "$(cat "$T/f.json" "$T/py")"; fi
"$IDXLAB" run --rows 1000 --indexes 0,2 --fields wchar_per_row,indexes,seconds >"$T/f.txt" 2>"$T/err"
if grep -v '^#' "$T/f.txt" | head -1 | grep -qE '^ *write\(\) B/row +indexes +sec $' &&
	[ "$(awk '!/^#/ && NR > 3 { printf "%s ", $2 }' "$T/f.txt")" = "0 2 " ]; then
	ok headless/fields-text
else bad headless/fields-text "$(cat "$T/f.txt")"; fi
# An unknown field is a usage error before any engine starts.
expect_exit headless/fields-unknown 2 "^idxlab: --fields: no field 'p99' \(did you mean p99_ms\?\)" \
	"$IDXLAB" run --rows 1000 --fields rows_per_s,p99
expect_exit headless/fields-misspelt 2 "no field 'rows_per_sec' \(did you mean rows_per_s\?\)" \
	"$IDXLAB" run --engine postgres --fields rows_per_sec
expect_exit headless/fields-twice 2 "'indexes' is in the list twice" \
	"$IDXLAB" run --fields indexes,rows,indexes
no_leftovers headless/fields-unknown-nothing-started

# --- -q: nothing on stderr but errors
"$IDXLAB" run --rows 1000 --indexes 1 --index-build after --interval 0.01 >"$T/q0.txt" 2>"$T/q0.err"
"$IDXLAB" run -q --rows 1000 --indexes 1 --index-build after --interval 0.01 >"$T/q.txt" 2>"$T/q.err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$T/q0.err" ] && [ ! -s "$T/q.err" ] && grep -q '^ *[0-9]' "$T/q.txt"; then
	ok headless/quiet
else bad headless/quiet "exit $rc; without -q: $(cat "$T/q0.err"); with -q: $(cat "$T/q.err")"; fi
printf 'precious notes\n' >"$T/notes.txt"
expect_exit headless/quiet-keeps-errors 2 "^idxlab: .*notes.txt" \
	"$IDXLAB" run -q --dsn "$T/notes.txt" --rows 10

# --- progress: `step N/M (engine, knobs), P %, ETA T` at most once a second,
# only when asked (stderr is a file here), never with -q; T is `86 s`, or
# `7 min 46 s` / `1 h 02 min` on a slow (sanitized, loaded) build
"$IDXLAB" run --rows 400000 --indexes 0,1,2 --progress >"$T/p.txt" 2>"$T/p.err"
grep '^step ' "$T/p.err" >"$T/p.lines"
echo "  progress: $(head -2 "$T/p.lines" | tr '\n' '|')"
if [ -s "$T/p.lines" ] &&
	! grep -vqE '^step [1-3]/3 \(sqlite, indexes=[0-2]\), [0-9]+ %(, ETA ([0-9]+ s|[0-9]+ min [0-5][0-9] s|[0-9]+ h [0-5][0-9] min))?$' "$T/p.lines"; then
	ok headless/progress-lines
else bad headless/progress-lines "$(cat "$T/p.err")"; fi
"$IDXLAB" run --rows 400000 --indexes 0,1 >/dev/null 2>"$T/p0.err"
"$IDXLAB" run -q --progress --rows 400000 --indexes 0,1 >/dev/null 2>"$T/p1.err"
if ! grep -q '^step ' "$T/p0.err" && [ ! -s "$T/p1.err" ]; then
	ok headless/progress-only-when-asked
else bad headless/progress-only-when-asked "$(cat "$T/p0.err" "$T/p1.err")"; fi

# --- repeated events fold: said once, then once more with the count (no
# warm-up: its build would be a fourth)
"$IDXLAB" run --warmup off --rows 2000 --indexes 1 --index-build after --key-order seq,rand,few >/dev/null 2>"$T/fold.err"
if [ "$(grep -c 'built idxlab_k1 on 2000 rows' "$T/fold.err")" = 2 ] &&
	grep 'built idxlab_k1' "$T/fold.err" | tail -1 | grep -q ' x3$'; then
	ok headless/events-fold
else bad headless/events-fold "$(cat "$T/fold.err")"; fi

# --- what a run says on stderr: the syncs made while closing are a detail
# (-v); -q leaves out "wrote FILE" too
"$IDXLAB" run --rows 1000 --format csv >/dev/null 2>"$T/v0.err"
"$IDXLAB" run -v --rows 1000 --format csv >/dev/null 2>"$T/v1.err"
"$IDXLAB" run --verbose --rows 1000 --format csv >/dev/null 2>"$T/v2.err"
if ! grep -q 'closed: ' "$T/v0.err" &&
	grep -q '^idxlab: sqlite: closed: [0-9]* fsync+fdatasync calls while closing' "$T/v1.err" &&
	grep -q '^idxlab: sqlite: closed: ' "$T/v2.err"; then
	ok headless/close-syncs-only-verbose
else bad headless/close-syncs-only-verbose "without -v: $(cat "$T/v0.err"); -v: $(cat "$T/v1.err"); --verbose: $(cat "$T/v2.err")"; fi
"$IDXLAB" run -q --rows 1000 --indexes 0,1 --plot "$T/q.svg" >/dev/null 2>"$T/qp.err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$T/q.svg" ] && [ ! -s "$T/qp.err" ]; then
	ok headless/quiet-no-wrote
else bad headless/quiet-no-wrote "exit $rc, svg $(ls -l "$T/q.svg" 2>&1): $(cat "$T/qp.err")"; fi

# --- on a terminal the sweep's progress is one line rewriting itself,
# cleared before each row (no progress line stays between the rows); in a
# file, plain lines (above)
if ! command -v script >/dev/null || ! command -v python3 >/dev/null; then
	skip headless/progress-tty-one-line "script (util-linux) or python3 is not installed"
else
	TERM=xterm script -q -e -c "$IDXLAB run --rows 400000 --indexes 0,1,2,3" /dev/null >"$T/tty.out" 2>&1
	rc=$?
	# The screen as a terminal leaves it: each line's text after its last
	# carriage return, the erase-line sequences dropped.
	python3 - "$T/tty.out" >"$T/tty.txt" <<'PY'
import sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace').replace('\r\n', '\n')
for line in raw.split('\n'):
    print(line.split('\r')[-1].replace('\x1b[K', ''))
PY
	rows=$(grep -cE '^ +[0-3] +[0-9]' "$T/tty.txt")
	ups=$(grep -o "$(printf '\r')step [0-9]/4" "$T/tty.out" | wc -l)
	if [ $rc -eq 0 ] && [ "$rows" = 4 ] && [ "$ups" -ge 1 ] && ! grep -q 'step [0-9]/4' "$T/tty.txt"; then
		ok headless/progress-tty-one-line
	else bad headless/progress-tty-one-line "exit $rc, $rows rows, $ups progress lines drawn; screen: $(cat "$T/tty.txt")"; fi
fi
if ! grep -q "$(printf '\033')" "$T/p.err"; then
	ok headless/progress-file-plain-lines
else bad headless/progress-file-plain-lines "$(cat -A "$T/p.err")"; fi

# --- the dashboard: an index dropped under SQLite's prepared insert is routine
if ! command -v tmux >/dev/null; then
	skip headless/dash-sqlite-schema "tmux is not installed"
	exit 0
fi
start ev TMPDIR="$TMPDIR" "$IDXLAB" --rows 4000000
wait_for ev '││rows/s +[0-9]' 5
for i in 1 2 3 4; do
	tm send-keys -t ev Right
	wait_for ev "built idxlab_k$i on" 10
done
# (the first drop, while its line is in the box)
tm send-keys -t ev Left
if wait_for ev 'dropped idxlab_k4' 10 && wait_for ev 'sqlite: SQLITE_SCHEMA, routine' 5 &&
	! cap ev | grep -q 'statement aborts' &&
	cap ev | grep -E '[0-9]s +sqlite: SQLITE_SCHEMA, routine: an index' >/dev/null; then
	ok headless/dash-sqlite-schema-routine
else bad headless/dash-sqlite-schema-routine "$(cap ev)"; fi
for i in 3 2 1; do
	tm send-keys -t ev Left
	wait_for ev "dropped idxlab_k$i" 10
done
# [ scrolls the events box back: the newest line leaves it, the title says so
newest=$(cap ev | grep -o 'dropped idxlab_k1' | head -1)
tm send-keys -t ev '['
if wait_for ev 'events \([0-9]+ newer: \]\)' 3 && ! cap ev | grep -q 'dropped idxlab_k1'; then
	ok headless/dash-events-scroll-back
else bad headless/dash-events-scroll-back "newest '$newest': $(cap ev)"; fi
tm send-keys -t ev ']'
if wait_for ev 'dropped idxlab_k1' 3 && ! cap ev | grep -q 'newer: \]'; then
	ok headless/dash-events-scroll-forward
else bad headless/dash-events-scroll-forward "$(cap ev)"; fi
tm send-keys -t ev q
[ "$(wait_exit ev)" = EXIT=0 ] && ok headless/dash-quit || bad headless/dash-quit "$(cat "$T/ev.exit" 2>/dev/null)"
no_leftovers headless/temp-dir-removed
