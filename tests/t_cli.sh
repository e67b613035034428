# Command line and config files: help, version, and every kind of bad input
# gets exit 2 and a message that says what is wrong and what is valid.
. "$(dirname "$0")/lib.sh"

if "$IDXLAB" --help >"$T/help" 2>&1 && grep -q -- "--indexes" "$T/help" &&
	grep -q "secondary indexes" "$T/help"; then ok cli/help; else bad cli/help "no knob list"; fi
if "$IDXLAB" -V | grep -Eq '^idxlab [0-9]+\.[0-9]+\.[0-9]+' && "$IDXLAB" --version | grep -q "SQLite 3"; then
	ok cli/version
else bad cli/version "$("$IDXLAB" -V 2>&1)"; fi

expect_exit cli/unknown-flag 2 "unknown option '--indexs' \(did you mean --indexes\?\)" \
	"$IDXLAB" run --indexs 2
expect_exit cli/indexes-9 2 "indexes: 9 is out of range \(valid: 0\.\.8\)" "$IDXLAB" run --indexes 9
expect_exit cli/bad-choice 2 "key-order: 'random' is not one of seq\|rand\|few\|uuid7\|uuid4" \
	"$IDXLAB" run --key-order random
expect_exit cli/bad-size 2 "cache: 'lots' is not a size" "$IDXLAB" run --cache lots
expect_exit cli/missing-value 2 "--rows needs a value" "$IDXLAB" run --rows
expect_exit cli/stray-argument 2 "unexpected argument 'go'" "$IDXLAB" run go
expect_exit cli/sweep-in-list 2 "indexes: 9 is out of range" "$IDXLAB" run --indexes 0,9
# Past what any table can have (16), the range named is still the table in
# force's: the users table's 6, a spec file's own count.
expect_exit cli/indexes-past-users 2 \
	"indexes: 17 is out of range \(valid: 0\.\.6\) - the users table has 6 indexes" \
	"$IDXLAB" run --schema users --indexes 17
expect_exit cli/indexes-past-users-dash 2 "valid: 0\.\.6\) - the users table" \
	"$IDXLAB" --schema users --indexes 0,99
awk 'BEGIN { for (i = 1; i <= 10; i++) printf "column c%d int rand\nindex c%d\n", i, i }' \
	>"$T/ten.spec"
expect_exit cli/indexes-past-spec-file 2 "indexes: 17 is out of range \(valid: 0\.\.10\) - the ten table has 10 indexes" \
	"$IDXLAB" run --schema "$T/ten.spec" --indexes 17
printf 'schema = %s\nindexes = 3,17\n' "$T/ten.spec" >"$T/ten.conf"
expect_exit cli/indexes-past-spec-config 2 "ten.conf:2: indexes: 17 is out of range \(valid: 0\.\.10\)" \
	"$IDXLAB" run -c "$T/ten.conf"
# The order of --indexes and --schema does not matter: the range is the
# table's in force once everything is read; the error names where it was given.
# (Not expect_exit: a run that says nothing on stderr matches no pattern.)
"$IDXLAB" run --indexes 9 --schema "$T/ten.spec" --rows 50 --format csv --fields indexes,rows \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] && ok cli/indexes-before-schema || bad cli/indexes-before-schema "exit $rc: $(cat "$T/err")"
check cli/indexes-before-schema-ran "\"$(tail -1 "$T/out")\" == \"9,50\""
printf 'indexes = 3,17\nschema = %s\n' "$T/ten.spec" >"$T/ten-late.conf"
expect_exit cli/indexes-before-schema-config 2 "ten-late.conf:1: indexes: 17 is out of range \(valid: 0\.\.10\)" \
	"$IDXLAB" run -c "$T/ten-late.conf"
expect_exit cli/indexes-then-smaller-schema 2 "^idxlab: --indexes: 7 is out of range \(valid: 0\.\.6\)" \
	"$IDXLAB" run --indexes 7 --schema users
expect_exit cli/indexes-word-no-default-range 2 "'two' is not a whole number \(valid: table\|all\|without\|0 up to the table's number of indexes\)" \
	"$IDXLAB" run --schema users --indexes two
expect_exit cli/delete-needs-rows 2 "exceeds prefill" "$IDXLAB" run --op delete --rows 10 --prefill 5

# Every on/off flag takes an on/off word after it, as the man page writes
# --vacuum on (it was "unexpected argument 'on'"); bare, it is on.
flags=$("$IDXLAB" --help | sed -n 's/^  --\([a-z-]*\) *(a flag.*/\1/p')
bad="" n=0
for f in $flags; do
	n=$((n + 1))
	for w in on off; do
		"$IDXLAB" --print-config "--$f" $w >"$T/out" 2>&1 && grep -q "^$f = $w\$" "$T/out" ||
			bad="$bad --$f $w: $(grep -v '^#' "$T/out" | grep -E "^$f |idxlab:")"
	done
	"$IDXLAB" --print-config "--$f" --rows 5 >"$T/out" 2>&1 && grep -q "^$f = on\$" "$T/out" ||
		bad="$bad --$f bare: $(grep -E "^$f |idxlab:" "$T/out")"
done
[ -z "$bad" ] && [ $n -ge 5 ] && ok cli/flag-on-off-word || bad cli/flag-on-off-word "$n flags;$bad"
if "$IDXLAB" run --vacuum on --rows 1k --format csv --fields rows,vacuum >"$T/out" 2>"$T/err" &&
	[ "$(tail -1 "$T/out")" = "1000,on" ] && grep -q 'VACUUM' "$T/err"; then
	ok cli/vacuum-on-runs
else bad cli/vacuum-on-runs "$(cat "$T/out" "$T/err")"; fi

# Row counts as the man page writes them: 100k, 1M, 1e6, on the command line,
# in a sweep and in a config file; a fraction of a row is still refused.
if "$IDXLAB" --print-config --rows 100k,1M,1e6,2.5k --prefill 1M --commit 10k >"$T/out" 2>&1 &&
	grep -q '^rows = 100000,1000000,1000000,2500$' "$T/out" && grep -q '^prefill = 1000000$' "$T/out" &&
	grep -q '^commit = 10000$' "$T/out"; then
	ok cli/row-count-suffixes
else bad cli/row-count-suffixes "$(grep -E '^(rows|prefill|commit) |idxlab:' "$T/out")"; fi
printf 'rows = 2k\ninterval-rows = 1k\n' >"$T/k.conf"
if "$IDXLAB" run -c "$T/k.conf" --format csv --fields rows >"$T/out" 2>"$T/err" &&
	[ "$(grep -c '^2000$' "$T/out")" -ge 1 ]; then
	ok cli/row-count-suffix-config
else bad cli/row-count-suffix-config "$(cat "$T/out" "$T/err")"; fi
expect_exit cli/row-count-fraction 2 "--rows: '1.5' is not a whole number .*100k, 1M, 1e6" \
	"$IDXLAB" run --rows 1.5

# kB, MB, GB are PostgreSQL's (1024-based), printed as KiB, MiB, GiB: 2MB
# was taken as 2,000,000 B.
if "$IDXLAB" --print-config --cache 2MB >"$T/out" 2>&1 && grep -q '^cache = 2MiB$' "$T/out" &&
	"$IDXLAB" --print-config --cache 512kB | grep -q '^cache = 512KiB$' &&
	"$IDXLAB" --print-config --cache 1GB | grep -q '^cache = 1GiB$'; then
	ok cli/cache-kb-mb-gb-binary
else bad cli/cache-kb-mb-gb-binary "$(grep -E '^cache |idxlab:' "$T/out")"; fi
if "$IDXLAB" run --cache 2MB --rows 100 --format csv --fields cache >"$T/out" 2>"$T/err" &&
	[ "$(tail -1 "$T/out")" = 2MiB ]; then
	ok cli/cache-mb-runs
else bad cli/cache-mb-runs "$(cat "$T/out" "$T/err")"; fi

# "did you mean": an abbreviation finds what it abbreviates (rowsps gave
# rows, two letters off; rows_per_s holds each of its letters in order).
expect_exit cli/fields-abbreviation-hint 2 "no field 'rowsps' \(did you mean rows_per_s\?\)" \
	"$IDXLAB" run --fields indexes,rowsps
expect_exit cli/fields-short-hint 2 "no field 'row' \(did you mean rows\?\)" \
	"$IDXLAB" run --fields indexes,row

printf 'rows = 100\n# fine so far\n\nindexes = 1,x\n' >"$T/bad.conf"
expect_exit cli/config-bad-value 2 "bad.conf:4: indexes: 'x' is not a whole number" \
	"$IDXLAB" run -c "$T/bad.conf"
printf 'rows = 100\ncahce = 1GiB\n' >"$T/typo.conf"
expect_exit cli/config-unknown-key 2 "typo.conf:2: unknown key 'cahce' \(did you mean 'cache'\?\)" \
	"$IDXLAB" run -c "$T/typo.conf"
printf 'rows 100\n' >"$T/noeq.conf"
expect_exit cli/config-no-equals 2 "noeq.conf:1: expected 'key = value'" "$IDXLAB" run -c "$T/noeq.conf"
expect_exit cli/config-missing 2 "cannot read config file $T/none.conf" "$IDXLAB" run -c "$T/none.conf"

# A file to read that is no regular file: a FIFO (its open waited for a
# writer), /dev/zero (read into memory without end), a directory (read as
# empty): each refused at once with exit 2, the file and what it is named;
# for config files, spec files, demos and recordings alike. (timeout: a
# hang fails the test instead of the suite.)
mkfifo "$T/in.fifo"
mkdir -p "$T/in.dir"
for kind in fifo zero dir; do
	case $kind in
	fifo) f=$T/in.fifo what='a FIFO' ;;
	zero) f=/dev/zero what='a character device' ;;
	dir) f=$T/in.dir what='a directory' ;;
	esac
	for use in config schema demo replay; do
		case $use in
		config) set -- --print-config -c "$f" ;;
		schema) set -- --print-config --schema "$f" ;;
		demo) set -- --print-config --demo "$f" ;;
		replay) set -- run --replay "$f" ;;
		esac
		expect_exit "cli/input-$kind-$use" 2 "cannot read .*$f: it is $what" \
			timeout -s KILL 10 "$IDXLAB" "$@"
	done
done
# A link to a regular file is read as the file.
printf 'rows = 77\n' >"$T/real.conf"
ln -s "$T/real.conf" "$T/linked.conf"
"$IDXLAB" --print-config -c "$T/linked.conf" >"$T/out" 2>&1 && grep -q '^rows = 77$' "$T/out" &&
	ok cli/input-link-to-file || bad cli/input-link-to-file "$(cat "$T/out")"
# A line is read up to its bound, not whole: a 64 MiB one is refused
# without taking its size in memory.
head -c 67108864 /dev/zero | tr '\0' a >"$T/long.conf"
# maxrss CMD...: CMD run, its peak RSS in kB on fd 3 (stdout, stderr as
# expect_exit keeps them).
maxrss() {
	python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=open(3, "w", closefd=False))
sys.exit(rc)' "$@"
}
maxrss "$IDXLAB" --print-config -c "$T/real.conf" 3>"$T/rss.short" >/dev/null 2>&1
expect_exit cli/input-long-line 2 "long.conf:1: line too long \(8191 bytes at most\)" \
	maxrss "$IDXLAB" --print-config -c "$T/long.conf" 3>"$T/rss.long"
long=$(cat "$T/rss.long") short=$(cat "$T/rss.short")
check cli/input-long-line-bounded "${long:-999999} < ${short:-0} + 32768"
printf '{"idxlab_recording":1,"x":"' >"$T/long.rec"
head -c 4194304 /dev/zero | tr '\0' a >>"$T/long.rec"
printf '"}\n' >>"$T/long.rec"
expect_exit cli/input-long-recording-line 2 "long.rec:1: a line longer than 1 MiB" \
	"$IDXLAB" run --replay "$T/long.rec"

printf 'rows = 100\nindexes = 1\000\n' >"$T/nul.conf"
expect_exit cli/config-nul-byte 2 "nul.conf:2: a NUL byte" "$IDXLAB" run -c "$T/nul.conf"
expect_exit cli/empty-list-item 2 "^idxlab: --indexes: an empty item in the list '1,,2'" "$IDXLAB" run --indexes 1,,2
expect_exit cli/empty-list-item-end 2 "^idxlab: --indexes: an empty item in the list '1,'" "$IDXLAB" run --indexes 1,
printf 'key-order = seq, ,rand\n' >"$T/empty.conf"
expect_exit cli/config-empty-list-item 2 "empty.conf:1: key-order: an empty item in the list" \
	"$IDXLAB" run -c "$T/empty.conf"

# Control characters in what the user typed show escaped, in one line; a
# dsn holding one is refused, so --print-config always prints a file that
# reads back as it was.
nl='
'
# one_line NAME PATTERN CMD...: exit 2, and stderr is one line matching
# PATTERN (not counting libmongoc's own log lines, which it may print at
# start: "mongoc: Falling back to malloc for counters").
one_line() {
	name=$1 pat=$2
	shift 2
	expect_exit "$name" 2 "$pat" "$@"
	[ "$(grep -v ' mongoc: ' "$T/err" | wc -l)" -eq 1 ] || bad "$name-one-line" "$(cat "$T/err")"
}
one_line cli/value-newline-escaped "indexes: '1\\\\n2' is not a whole number" "$IDXLAB" run --indexes "1${nl}2"
one_line cli/option-newline-escaped "unknown option '--ind\\\\nexes'" "$IDXLAB" run "--ind${nl}exes" 2
one_line cli/dsn-newline-refused "^idxlab: --dsn: .*/a\\\\nb\.db.* control character" \
	"$IDXLAB" --print-config --dsn "$T/a${nl}b.db"
printf 'dsn = %s/a\033b.db\n' "$T" >"$T/esc.conf"
one_line cli/config-dsn-escape-refused "esc.conf:1: dsn: .*/a\\\\x1bb\.db.* control character" \
	"$IDXLAB" --print-config -c "$T/esc.conf"
mkdir -p "$T/c${nl}d"
printf 'rows = 7\ndsn = %s/x#y.db\n' "$T" >"$T/c${nl}d/ok.conf"
if "$IDXLAB" --print-config -c "$T/c${nl}d/ok.conf" >"$T/printed.conf" 2>"$T/err" &&
	"$IDXLAB" --print-config -c "$T/printed.conf" | tail -n +2 >"$T/again.conf" &&
	tail -n +2 "$T/printed.conf" | cmp -s - "$T/again.conf" && grep -q "^dsn = $T/x#y.db\$" "$T/again.conf" &&
	[ "$(grep -c '^# idxlab' "$T/printed.conf")" -eq 1 ]; then
	ok cli/print-config-rereads
else bad cli/print-config-rereads "$(cat "$T/err" "$T/printed.conf")"; fi

# A symbolic link as --dsn whose target does not exist: refused, nothing
# created where it points (SQLite would make the file, WiredTiger's mkdir
# failed with 'File exists').
ln -s "$T/gone.db" "$T/link.db"
expect_exit cli/sqlite-dangling-link 2 "link.db is a symbolic link to $T/gone.db, which does not exist" \
	"$IDXLAB" run --dsn "$T/link.db" --rows 10
[ ! -e "$T/gone.db" ] && ok cli/sqlite-dangling-link-creates-nothing || bad cli/sqlite-dangling-link-creates-nothing "$(ls -l "$T/gone.db")"
ln -s "$T/gone-wt" "$T/link-wt"
expect_exit cli/wt-dangling-link 2 "link-wt is a symbolic link to $T/gone-wt, which does not exist" \
	"$IDXLAB" run --engine wiredtiger --dsn "$T/link-wt" --rows 10
[ ! -e "$T/gone-wt" ] && ok cli/wt-dangling-link-creates-nothing || bad cli/wt-dangling-link-creates-nothing "$(ls -ld "$T/gone-wt")"
# A link to a file idxlab made is used (through the link).
"$IDXLAB" run --dsn "$T/real.db" --rows 10 >/dev/null 2>&1
ln -s "$T/real.db" "$T/good-link.db"
if "$IDXLAB" run --dsn "$T/good-link.db" --rows 10 --format csv >"$T/gl.csv" 2>"$T/err" && [ "$(field "$T/gl.csv" rows)" = 10 ]; then
	ok cli/sqlite-link-to-ours
else bad cli/sqlite-link-to-ours "$(cat "$T/err")"; fi

# A config file drives a sweep; the command line overrides it.
printf 'indexes = 0,1 # two steps\nrows = 500\nformat = csv\n' >"$T/sweep.conf"
"$IDXLAB" run -c "$T/sweep.conf" --rows 300 >"$T/sweep.csv" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <"$T/sweep.csv")" -eq 3 ] && [ "$(field "$T/sweep.csv" rows 2)" = 300 ] &&
	[ "$(field "$T/sweep.csv" indexes 2)" = 1 ]; then
	ok cli/config-sweep
else bad cli/config-sweep "rc=$rc $(cat "$T/sweep.csv" "$T/err")"; fi

# The user's default config file is read, and --print-config shows the result.
mkdir -p "$XDG_CONFIG_HOME/idxlab"
printf 'payload = 33\n' >"$XDG_CONFIG_HOME/idxlab/idxlab.conf"
if "$IDXLAB" --print-config | grep -q '^payload = 33$' &&
	"$IDXLAB" --print-config --payload 44 | grep -q '^payload = 44$'; then
	ok cli/default-config
else bad cli/default-config "$("$IDXLAB" --print-config 2>&1)"; fi
rm -r "$XDG_CONFIG_HOME/idxlab"

# Plain idxlab with stdout not a tty is a headless run.
if "$IDXLAB" --rows 200 --format csv </dev/null 2>/dev/null | grep -q '^sqlite,insert,'; then
	ok cli/headless-when-piped
else bad cli/headless-when-piped "no CSV row"; fi

# Every shipped preset parses (and names only knobs that exist).
dir="$(dirname "$0")/../configs"
bad=""
for f in "$dir"/*.conf; do
	"$IDXLAB" --print-config -c "$f" >/dev/null 2>"$T/perr" || bad="$bad $(basename "$f"): $(cat "$T/perr")"
done
[ -z "$bad" ] && ok cli/presets-parse || bad cli/presets-parse "$bad"

# Every shipped demo script parses and plays on its engine.
bad="" n=0
for f in "$dir"/*.demo; do
	n=$((n + 1))
	"$IDXLAB" --print-config --demo "$f" >"$T/pout" 2>"$T/perr" && grep -q '^# demo .*: [1-9][0-9]* cues' "$T/pout" ||
		bad="$bad $(basename "$f"): $(cat "$T/perr")"
done
[ -z "$bad" ] && [ $n -ge 2 ] && ok cli/demos-parse || bad cli/demos-parse "$n demos;$bad"

# A bad demo line: exit 2, the file and line named, before any screen.
printf 'say hello\nwait 2\nindexs = 2\n' >"$T/typo.demo"
expect_exit cli/demo-bad-line 2 "typo.demo:3: unknown key 'indexs' \(did you mean 'indexes'\?\)" \
	"$IDXLAB" --demo "$T/typo.demo"
printf 'say hello\n' >"$T/ok.demo"
expect_exit cli/demo-headless 2 "--demo plays in the dashboard; .idxlab run. is headless" \
	"$IDXLAB" run --demo "$T/ok.demo"
expect_exit cli/demo-needs-terminal 2 "--demo plays in the dashboard: run it on a terminal" \
	"$IDXLAB" --demo "$T/ok.demo"
expect_exit cli/record-needs-terminal 2 "--record works in the dashboard: run it on a terminal" \
	"$IDXLAB" --record "$T/x.rec"
# `idxlab run --replay` exports a recording (t_plot.sh): a missing one is
# a usage error.
expect_exit cli/replay-headless 2 "cannot read the recording $T/x.rec" \
	"$IDXLAB" run --replay "$T/x.rec"
expect_exit cli/record-headless 2 "--record works in the dashboard; .idxlab run. is headless" \
	"$IDXLAB" run --record "$T/x.rec"
expect_exit cli/replay-no-demo 2 "--replay shows a recording as it was: it takes no --demo" \
	"$IDXLAB" --replay "$T/x.rec" --demo "$T/ok.demo"
[ ! -e "$T/x.rec" ] && ok cli/record-refused-writes-nothing || bad cli/record-refused-writes-nothing "$T/x.rec exists"

# make run checks (and installs) only what building and running need; the
# PostgreSQL server and the test and lint tools are make test's and make
# lint's (make -n prints the dpkg-query line that lists a target's packages).
top=$(cd "$(dirname "$0")/.." && pwd)
if command -v make >/dev/null && command -v dpkg-query >/dev/null && [ -f "$top/Makefile" ]; then
	for tg in run test lint; do
		make -n -C "$top" --no-print-directory "$tg" 2>/dev/null | grep 'dpkg-query' >"$T/mk.$tg"
	done
	words() { tr -s ' \t\\' '\n\n\n' <"$1"; }
	if words "$T/mk.run" | grep -qx libsqlite3-dev && words "$T/mk.run" | grep -qx pkg-config &&
		! words "$T/mk.run" | grep -Eqx 'postgresql(-[0-9]+)?|tmux|cppcheck|clang-format|strace|python3-mockupdb'; then
		ok cli/make-run-deps
	else bad cli/make-run-deps "make run checks: $(cat "$T/mk.run")"; fi
	if words "$T/mk.test" | grep -Eqx 'postgresql(-[0-9]+)?' && words "$T/mk.test" | grep -qx tmux &&
		words "$T/mk.test" | grep -qx python3-mockupdb && words "$T/mk.test" | grep -qx libsqlite3-dev &&
		words "$T/mk.lint" | grep -qx cppcheck && words "$T/mk.lint" | grep -qx clang-format; then
		ok cli/make-test-lint-deps
	else bad cli/make-test-lint-deps "make test checks: $(cat "$T/mk.test"); make lint: $(cat "$T/mk.lint")"; fi
	# make deps installs with a policy-rc.d in place (Debian's postgresql
	# package would start a system server), then removes it: apt-get and
	# dpkg here are stand-ins that note what they saw.
	if [ "$(id -u)" = 0 ]; then
		mkdir -p "$T/fakebin"
		printf '#!/bin/sh\nexit 1\n' >"$T/fakebin/dpkg"
		printf '#!/bin/sh\n[ "$1" = install ] || exit 0\n[ -x "$POLICY_RC" ] && "$POLICY_RC" postgresql start >/dev/null\necho "policy $?: $*" >>"%s/apt.log"\n' "$T" >"$T/fakebin/apt-get"
		chmod 755 "$T/fakebin/dpkg" "$T/fakebin/apt-get"
		PATH="$T/fakebin:$PATH" make -s -C "$top" --no-print-directory deps DEPS="postgresql tmux" \
			POLICY_RC="$T/policy-rc.d" >"$T/deps.out" 2>&1
		if grep -q '^policy 101: install .*postgresql tmux' "$T/apt.log" 2>/dev/null && [ ! -e "$T/policy-rc.d" ]; then
			ok cli/deps-start-no-service
		else bad cli/deps-start-no-service "$(cat "$T/deps.out" "$T/apt.log" 2>&1)"; fi
	fi
else
	skip cli/make-run-deps "needs make, dpkg-query and the source tree's Makefile"
fi
# Every option --help lists is described in the man page (a .TP heading of
# its own); --help and --print-config show the dashboard's defaults.
man="$(dirname "$0")/../man/idxlab.1"
sed -n '/^\.TP$/{n;s/\\-/-/g;p}' "$man" >"$T/man-heads"
missing=""
for o in $("$IDXLAB" --help | sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'); do
	grep -qE -- "(^|[ \"])$o([ \"=]|$)" "$T/man-heads" || missing="$missing $o"
done
[ -z "$missing" ] && [ -s "$T/man-heads" ] && ok cli/help-options-in-man || bad cli/help-options-in-man "not in $man:$missing"
if "$IDXLAB" --help | grep -q 'default all; dashboard: 1000\]' &&
	"$IDXLAB" --help | grep -q 'default 100000; dashboard: 5000000\]' &&
	"$IDXLAB" --print-config | grep -qF '# commit = all  (left unset: the dashboard uses 1000)' &&
	"$IDXLAB" --print-config --commit 5 | grep -q '^commit = 5$'; then
	ok cli/dashboard-defaults-shown
else bad cli/dashboard-defaults-shown "$("$IDXLAB" --help | grep -A1 -- '--commit')"; fi
