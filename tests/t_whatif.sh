# The question as a verb (issue 19, items 4 and 5): --add-index,
# --drop-index and --indexes table,all,without on SQLite, a throwaway
# PostgreSQL and WiredTiger; the answer lines' numbers are the differences
# of the step records' figures (computed here from the CSV records); the
# candidates read back from --print-config; every bad input exits 2 naming
# it; a table read from a source (--schema-from) runs at the source's size
# and on the source's engine.
. "$(dirname "$0")/lib.sh"

cat >"$T/t.spec" <<'EOF'
id bigint seq
column email text(24) rand
column created_at timestamp seq
column n int few:5
index created_at
EOF

# fig FILE COLUMN INDEXES: the column of the step at that index count.
fig() {
	columns "$1" "$2" indexes || { echo "NOCOLUMN($2)"; return 1; }
	awk -F, -v name="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["indexes"] == n { print $h[name]; exit }' "$1"
}
# ans ERR SIGN WHAT: a number from the answer line starting "answer: SIGN "
# (WHAT: rows, write, spills, wal, index - the index's in bytes).
ans() {
	line=$(grep -m1 "^answer: $2 " "$1")
	[ -n "$line" ] || { note "no answer line '$2' in: $(head -c 400 "$1")"; echo NOLINE; return 1; }
	# a per-row figure that moved by under 2 % is named without a number
	# (wal: WAL, or journal under SQLite's rollback journal)
	case $3 in write) word='write[(][)]' ;; spills) word=spills ;; wal) word='WAL|journal' ;; *) word=NONE ;; esac
	if printf '%s\n' "$line" | sed -n 's/.*no clear change in //p' | tr ',' '\n' | sed 's/^ *//' | grep -qxE "$word"; then
		echo SAME
		return 0
	fi
	case $3 in
	rows) printf '%s\n' "$line" | sed -nE 's/.*rows\/s ([-+][0-9]+) %.*/\1/p' ;;
	write) printf '%s\n' "$line" | sed -nE 's/.*write\(\) ([-+][0-9.]+) B\/row.*/\1/p' ;;
	spills) printf '%s\n' "$line" | sed -nE 's/.*spills ([-+][0-9.]+)\/row.*/\1/p' ;;
	wal) printf '%s\n' "$line" | sed -nE 's/.*(WAL|journal) ([-+][0-9.]+) B\/row.*/\2/p' ;;
	index) printf '%s\n' "$line" | sed -nE 's/.*index ([-+])([0-9.]+) (B|KiB|MiB|GiB).*/\1 \2 \3/p' |
		awk '{ m = $3 == "KiB" ? 1024 : $3 == "MiB" ? 1048576 : $3 == "GiB" ? 1073741824 : 1;
			printf "%s%.0f\n", $1 == "-" ? "-" : "", $2 * m }' ;;
	esac
}
# answer_matches NAME CSV ERR SIGN FROM TO [FIGURES]: the answer line's
# numbers are the differences of the records' figures from the step at
# FROM indexes to the step at TO (within the rounding either prints).
answer_matches() {
	name=$1 csv=$2 err=$3 sign=$4 from=$5 to=$6
	figs=${7:-rows write spills wal index}
	for f in $figs; do
		case $f in
		rows) col=rows_per_s tol=0.6 ;;
		write) col=wchar_per_row tol=0.11 ;;
		spills) col=spills_per_row tol=0.0002 ;;
		wal) col=wal_bytes_per_row tol=0.11 ;;
		index) col=index_bytes tol=0 ;;
		esac
		a=$(fig "$csv" $col "$from") b=$(fig "$csv" $col "$to") got=$(ans "$err" "$sign" $f)
		if [ "$got" = SAME ] && is_num "$a" "$b"; then
			check "$name-$f-no-clear-change" "($b > $a ? $b - $a : $a - $b) <= 0.02 * ($a > $b ? ($a < 0 ? -$a : $a) : ($b < 0 ? -$b : $b)) + $tol"
			continue
		fi
		if ! is_num "$a" "$b" "$got"; then
			bad "$name-$f" "not numbers: $col $a -> $b, answer '$got'"
			continue
		fi
		if [ $f = rows ]; then
			check "$name-$f" "($got - 100 * ($b - $a) / $a) <= $tol && (100 * ($b - $a) / $a - $got) <= $tol"
		elif [ $f = index ]; then
			# printed with 3 significant digits: within 0.6 % and 1 B
			check "$name-idxsize" "($got - ($b - $a)) <= 0.006 * ($b > $a ? $b - $a : $a - $b) + 1 && (($b - $a) - $got) <= 0.006 * ($b > $a ? $b - $a : $a - $b) + 1"
		else
			check "$name-$f" "($got - ($b - $a)) <= $tol && (($b - $a) - $got) <= $tol"
		fi
	done
}

# --- SQLite: a candidate, the words, the answer ---------------------------
run() { "$IDXLAB" run --warmup off "$@"; }
if run --schema "$T/t.spec" --add-index email --indexes table,all --rows 20000 --format csv \
	>"$T/a.csv" 2>"$T/a.err" && [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "indexes") c = i; next } { printf "%s ", $c }' "$T/a.csv")" = "1 2 " ]; then
	ok whatif/sqlite-words-table-all-are-counts
else bad whatif/sqlite-words-table-all-are-counts "$(cat "$T/a.err" | tail -3) $(cut -c1-200 "$T/a.csv")"; fi
if grep -q "^answer: + index idxlab_add_email on email: rows/s" "$T/a.err"; then
	ok whatif/sqlite-answer-line
else bad whatif/sqlite-answer-line "$(tail -3 "$T/a.err")"; fi
answer_matches whatif/sqlite-answer "$T/a.csv" "$T/a.err" + 1 2
# The candidate costs write() bytes: a random text index on every row.
check whatif/sqlite-candidate-costs-writes "$(ans "$T/a.err" + write) > 10"
# The text output ends with the answer.
run --schema "$T/t.spec" --add-index email --indexes table,all --rows 5000 >"$T/a.txt" 2>"$T/a.terr"
if tail -1 "$T/a.txt" | grep -q "^answer: + index idxlab_add_email on email: rows/s .* index +"; then
	ok whatif/sqlite-text-last-line-answer
else bad whatif/sqlite-text-last-line-answer "$(tail -3 "$T/a.txt")"; fi
# With --repeat the answer is read from the steps' medians (record=step),
# and its header says so.
run --schema "$T/t.spec" --add-index email --indexes table,all --rows 5000 --repeat 3 --format csv \
	>"$T/r.csv" 2>"$T/r.err"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "record") c = i; print; next } $c == "step"' \
	"$T/r.csv" >"$T/r.step.csv"
answer_matches whatif/sqlite-repeat-answer "$T/r.step.csv" "$T/r.err" + 1 2 "write index"
# rows/s: "within noise" exactly when the two steps' min..max ranges overlap
overlap=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rows_per_s_min") a = i; if ($i == "rows_per_s_max") b = i }; next }
	{ lo[NR] = $a; hi[NR] = $b } END { print (lo[2] <= hi[3] && lo[3] <= hi[2]) ? "yes" : "no" }' "$T/r.step.csv")
said=no
grep -q "^answer: .*rows/s within noise" "$T/r.err" && said=yes
if [ "$overlap" = "$said" ] && { [ $said = yes ] || grep -q "^answer: .*rows/s [+-][0-9]* %" "$T/r.err"; }; then
	ok whatif/sqlite-repeat-answer-noise-iff-overlap
else bad whatif/sqlite-repeat-answer-noise-iff-overlap "ranges overlap: $overlap, said within noise: $said: $(grep '^answer' "$T/r.err")"; fi
if grep -q "^# the answer, per row: .*medians of the runs (--repeat)" "$T/r.err" &&
	[ "$(grep -c . "$T/r.step.csv")" = 3 ]; then
	ok whatif/sqlite-repeat-answer-says-medians
else bad whatif/sqlite-repeat-answer-says-medians "$(tail -3 "$T/r.err" | tr '\n' '|')"; fi
# Candidates no step measures: a warning says which words would.
run --schema "$T/t.spec" --add-index email --drop-index created_at --indexes 1 --rows 100 >/dev/null 2>"$T/w1.err"
run --schema "$T/t.spec" --add-index email --indexes table,all --rows 100 >/dev/null 2>"$T/w2.err"
if grep -q "warning: --add-index: no step measures the candidates .*--indexes table,all" "$T/w1.err" &&
	grep -q "warning: --drop-index: no step measures the table without it: --indexes without,table" "$T/w1.err" &&
	! grep -q "warning" "$T/w2.err"; then
	ok whatif/unmeasured-candidates-warned
else bad whatif/unmeasured-candidates-warned "$(cat "$T/w1.err" "$T/w2.err")"; fi
# No question, no answer.
run --schema "$T/t.spec" --indexes 0,1 --rows 2000 >"$T/n.txt" 2>&1
if ! grep -q "^answer" "$T/n.txt" && grep -q "^ *1 " "$T/n.txt"; then
	ok whatif/no-question-no-answer
else bad whatif/no-question-no-answer "$(tail -3 "$T/n.txt")"; fi

# --drop-index: the table without its index, the reverse question.
if run --schema "$T/t.spec" --drop-index idxlab_created_at --add-index n+email \
	--indexes without,table,all --rows 20000 --format csv >"$T/d.csv" 2>"$T/d.err" &&
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "indexes") c = i; next } { printf "%s ", $c }' "$T/d.csv")" = "0 1 2 " ] &&
	grep -q "^answer: - index idxlab_created_at on created_at: " "$T/d.err" &&
	grep -q "^answer: + index idxlab_add_n_email on (n, email): " "$T/d.err"; then
	ok whatif/sqlite-drop-index-answer-lines
else bad whatif/sqlite-drop-index-answer-lines "$(tail -4 "$T/d.err")"; fi
answer_matches whatif/sqlite-drop "$T/d.csv" "$T/d.err" - 1 0
answer_matches whatif/sqlite-composite "$T/d.csv" "$T/d.err" + 1 2 "write spills index"
# The built-in users table has all six of its indexes; a spec's words in a
# sweep of tables count each table's own.
if run --schema users,"$T/t.spec" --add-index created_at --indexes table --rows 100 --format csv \
	>"$T/u.csv" 2>"$T/u.err"; then
	bad whatif/users-has-created-at "ran: $(cut -c1-200 "$T/u.csv")"
else
	grep -q "the users table has this index already (idxlab_created_at)" "$T/u.err" &&
		ok whatif/users-has-created-at || bad whatif/users-has-created-at "$(cat "$T/u.err")"
fi
if run --schema users,"$T/t.spec" --indexes table --rows 100 --format csv >"$T/u.csv" 2>"$T/u.err" &&
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "indexes") c = i; next } { printf "%s ", $c }' "$T/u.csv")" = "6 1 " ]; then
	ok whatif/table-word-per-table
else bad whatif/table-word-per-table "$(tail -2 "$T/u.err") $(cut -c1-200 "$T/u.csv")"; fi

# --- --print-config reads back, candidates included -----------------------
"$IDXLAB" --schema "$T/t.spec" --add-index email --add-index n+created_at:unique \
	--drop-index created_at --indexes without,table,all --print-config >"$T/p1.conf" 2>"$T/p.err"
"$IDXLAB" -c "$T/p1.conf" --print-config >"$T/p2.conf" 2>>"$T/p.err"
if grep -qx "add-index = email,n+created_at:unique" "$T/p1.conf" &&
	grep -qx "drop-index = created_at" "$T/p1.conf" &&
	grep -qx "indexes = without,table,all" "$T/p1.conf" &&
	tail -n +2 "$T/p1.conf" >"$T/p1.tail" && tail -n +2 "$T/p2.conf" >"$T/p2.tail" &&
	diff "$T/p1.tail" "$T/p2.tail" >"$T/p.diff"; then
	ok whatif/print-config-reads-back
else bad whatif/print-config-reads-back "$(cat "$T/p.err" "$T/p.diff" | head -c 400)"; fi
# Two add-index lines of one config file add up; the command line's
# replace the file's.
printf 'schema = %s\nadd-index = email\nadd-index = n+email\nindexes = table,all\n' "$T/t.spec" >"$T/two.conf"
"$IDXLAB" -c "$T/two.conf" --print-config >"$T/two.out" 2>&1
"$IDXLAB" -c "$T/two.conf" --add-index n --print-config >"$T/two2.out" 2>&1
if grep -qx "add-index = email,n+email" "$T/two.out" && grep -qx "add-index = n" "$T/two2.out"; then
	ok whatif/config-lines-add-up
else bad whatif/config-lines-add-up "$(grep add-index "$T/two.out" "$T/two2.out")"; fi
if run -c "$T/two.conf" --rows 2000 --format csv >"$T/two.csv" 2>"$T/two.err" &&
	[ "$(field "$T/two.csv" indexes 2)" = 3 ] && grep -q "^answer: + index idxlab_add_email on email and index idxlab_add_n_email on (n, email)" "$T/two.err"; then
	ok whatif/config-candidates-run
else bad whatif/config-candidates-run "$(tail -3 "$T/two.err")"; fi

# --- bad input: exit 2, naming it -----------------------------------------
expect_exit whatif/missing-column-did-you-mean 2 "--add-index: emial: the t table has no column emial \(did you mean email\?\)" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index emial --rows 10
expect_exit whatif/missing-column-in-composite 2 "n\+nope: the t table has no column nope" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index n+nope --rows 10
expect_exit whatif/drop-missing-lists-names 2 "--drop-index: the t table has no index nosuch \(its indexes: idxlab_created_at\)" \
	"$IDXLAB" run --schema "$T/t.spec" --drop-index nosuch --rows 10
expect_exit whatif/drop-misspelt-did-you-mean 2 "no index idxlab_created \(did you mean idxlab_created_at\?" \
	"$IDXLAB" run --schema "$T/t.spec" --drop-index idxlab_created --rows 10
expect_exit whatif/duplicate-candidate 2 "--add-index: email: a duplicate candidate" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index email --add-index email --rows 10
expect_exit whatif/candidate-the-table-has 2 "created_at: the t table has this index already \(idxlab_created_at\)" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index created_at --rows 10
expect_exit whatif/candidate-on-primary-key 2 "id is the primary key" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index id --rows 10
expect_exit whatif/candidate-bad-form 2 "'email;n' is no candidate index" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index 'email;n' --rows 10
expect_exit whatif/candidate-bad-word 2 "after the columns only ':unique'" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index email:uniq --rows 10
expect_exit whatif/unique-on-repeating-values 2 "unique, but its values repeat" \
	"$IDXLAB" run --schema "$T/t.spec" --add-index n:unique --rows 10
expect_exit whatif/drop-twice 2 "created_at: the index idxlab_created_at is named twice" \
	"$IDXLAB" run --schema "$T/t.spec" --drop-index idxlab_created_at,created_at --rows 10
printf 'schema = %s\nadd-index = emial\n' "$T/t.spec" >"$T/bad.conf"
expect_exit whatif/config-line-named 2 "bad.conf:2: add-index: emial: the t table has no column emial" \
	"$IDXLAB" run -c "$T/bad.conf" --rows 10
expect_exit whatif/indexes-word-misspelt 2 "'tabel' is not a whole number \(valid: table\|all\|without\|" \
	"$IDXLAB" run --schema "$T/t.spec" --indexes tabel --rows 10

# --- the dashboard's slider: the candidates are positions past the table's
# own, and its why says which (knob_why, as the dashboard's status line).
if "$IDXLAB" --schema "$T/t.spec" --add-index email --indexes 2 --print-config >"$T/s.conf" 2>"$T/s.err" &&
	grep -qx "indexes = 2" "$T/s.conf"; then
	ok whatif/slider-max-is-list-length
else bad whatif/slider-max-is-list-length "$(cat "$T/s.err")"; fi
expect_exit whatif/slider-max-says-candidates 2 "the t table has 1 index and 1 candidate \(--add-index\)" \
	"$IDXLAB" --schema "$T/t.spec" --add-index email --indexes 3 --print-config

# --- a table read from a source: its size and its engine ------------------
if command -v sqlite3 >/dev/null; then
	sqlite3 "$T/src.db" "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT, n INT);
		WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3000)
		INSERT INTO users(email, n) SELECT 'user' || i || '@example.org', i % 7 FROM c;"
	if run --schema-from "$T/src.db:users" --rows 100 --format csv >"$T/s.csv" 2>"$T/s.err" &&
		[ "$(field "$T/s.csv" prefill)" = 3000 ] && [ "$(field "$T/s.csv" engine)" = sqlite ] &&
		[ "$(field "$T/s.csv" table_rows)" = 3100 ]; then
		ok whatif/source-sqlite-prefills-its-rows
	else bad whatif/source-sqlite-prefills-its-rows "prefill $(field "$T/s.csv" prefill) table_rows $(field "$T/s.csv" table_rows): $(tail -2 "$T/s.err")"; fi
	if run --schema-from "$T/src.db:users" --scale 2 --rows 100 --format csv >"$T/s.csv" 2>"$T/s.err" &&
		[ "$(field "$T/s.csv" prefill)" = 6000 ]; then
		ok whatif/source-prefill-scaled
	else bad whatif/source-prefill-scaled "prefill $(field "$T/s.csv" prefill): $(tail -2 "$T/s.err")"; fi
	if run --schema-from "$T/src.db:users" --prefill 10 --rows 100 --format csv >"$T/s.csv" 2>"$T/s.err" &&
		[ "$(field "$T/s.csv" prefill)" = 10 ]; then
		ok whatif/source-explicit-prefill-wins
	else bad whatif/source-explicit-prefill-wins "prefill $(field "$T/s.csv" prefill): $(tail -2 "$T/s.err")"; fi
	run --schema-from "$T/src.db:users" --rows 100 >"$T/s.txt" 2>"$T/s.err"
	if grep -q "^# table .*src.db:users: 3000 rows at the source; prefill 3000 (the source's); engine sqlite (the source's)" "$T/s.txt"; then
		ok whatif/source-said-in-header
	else bad whatif/source-said-in-header "$(head -4 "$T/s.txt")"; fi
	# --print-config keeps the prefill unscaled: it reads back to the same run
	"$IDXLAB" --schema-from "$T/src.db:users" --scale 2 --add-index email --print-config >"$T/sp.conf" 2>&1
	if grep -qx "prefill = 3000" "$T/sp.conf" && grep -qx "engine = sqlite" "$T/sp.conf" &&
		run -c "$T/sp.conf" --rows 100 --indexes all --format csv >"$T/s.csv" 2>"$T/s.err" &&
		[ "$(field "$T/s.csv" prefill)" = 6000 ] && [ "$(field "$T/s.csv" indexes)" = 1 ]; then
		ok whatif/source-print-config-reads-back
	else bad whatif/source-print-config-reads-back "$(grep -E '^(prefill|engine|add-index)' "$T/sp.conf") $(tail -2 "$T/s.err")"; fi
	# A candidate on a table read from a source, and its answer.
	if run --schema-from "$T/src.db:users" --add-index email --indexes table,all --rows 20000 \
		--format csv >"$T/sa.csv" 2>"$T/sa.err" && grep -q "^answer: + index idxlab_add_email on email" "$T/sa.err"; then
		ok whatif/source-candidate-answer
	else bad whatif/source-candidate-answer "$(tail -3 "$T/sa.err")"; fi
	# A candidate on the column op update changes (a derived table's hot:
	# the last column no index covers, n here): update then changes another
	# one, and the notes say so (it was refused as "a bug in idxlab").
	if run --schema-from "$T/src.db:users" --add-index n --indexes table,all --rows 2000 \
		--format csv >"$T/sh.csv" 2>"$T/sh.err" && grep -q "^answer: + index idxlab_add_n on n" "$T/sh.err" &&
		"$IDXLAB" --schema-from "$T/src.db:users" --add-index n --print-config 2>&1 |
		grep -q "^# how it was read: .*--add-index covers n: op update changes email"; then
		ok whatif/source-candidate-on-hot-column
	else bad whatif/source-candidate-on-hot-column "$(tail -3 "$T/sh.err" | tr '\n' '|')"; fi
	# The dashboard: the copy starts at the source's rows and starts over at
	# twice them, a small table's 50000 rows past them (not at 5000000); the
	# indexes slider's positions past the table's own are the candidates, and
	# its why says so; Right builds one.
	if ! command -v tmux >/dev/null; then
		skip whatif/dash "tmux is not installed (apt-get install tmux)"
	else
		start wdash TMPDIR="$TMPDIR" "$IDXLAB" --schema-from "$T/src.db:users" --add-index email
		if wait_for wdash '││rows/s +[0-9]' 8 && cap wdash | grep -q '│.rows       53000 ' &&
			cap wdash | grep -q '│ prefill    3000 '; then
			ok whatif/dash-rows-follow-the-source
		else bad whatif/dash-rows-follow-the-source "$(cap wdash)"; fi
		if wait_for wdash "users table's 0: none; then the candidates" 3; then
			ok whatif/dash-why-says-candidates
		else bad whatif/dash-why-says-candidates "$(cap wdash)"; fi
		tm send-keys -t wdash Right
		if wait_for wdash '>indexes    1 ' 3 && wait_for wdash 'built idxlab_add_email on' 5; then
			ok whatif/dash-slider-builds-candidate
		else bad whatif/dash-slider-builds-candidate "$(cap wdash)"; fi
		tm send-keys -t wdash q
		wait_exit wdash >/dev/null
	fi
else
	skip whatif/source-sqlite "no sqlite3 command"
fi

# --- PostgreSQL: a source on a server of the test's own; the candidate on
# idxlab's throwaway server -----------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip whatif/pg "no PostgreSQL server installed (apt-get install postgresql)"
elif own_pg whatif/pg-server; then
	psql_ "CREATE TABLE public.acct(id bigint PRIMARY KEY, email text, n int);
		INSERT INTO public.acct SELECT i, 'user' || i || '@example.org', i % 7 FROM generate_series(1, 2000) i;
		ANALYZE public.acct;" >"$T/pg.log"
	if run --schema-from "$dsn:public.acct" --add-index email --indexes table,all --rows 5000 \
		--format csv >"$T/pg.csv" 2>"$T/pg.err" &&
		[ "$(field "$T/pg.csv" engine)" = postgres ] && [ "$(field "$T/pg.csv" prefill)" = 2000 ]; then
		ok whatif/pg-source-runs-on-postgres
	else bad whatif/pg-source-runs-on-postgres "engine $(field "$T/pg.csv" engine) prefill $(field "$T/pg.csv" prefill): $(tail -3 "$T/pg.err")"; fi
	if grep -q "^idxlab: table .*public.acct: 2000 rows at the source; prefill 2000 (the source's); engine postgres (the source's)" "$T/pg.err"; then
		ok whatif/pg-source-said
	else bad whatif/pg-source-said "$(grep -v '^answer' "$T/pg.err" | tail -3)"; fi
	answer_matches whatif/pg-answer "$T/pg.csv" "$T/pg.err" + 0 1
	# no index of the source was in use by the run: the server's table is as it was
	if [ "$(psql_ "SELECT count(*) FROM pg_indexes WHERE tablename = 'acct'")" = 1 ]; then
		ok whatif/pg-source-untouched
	else bad whatif/pg-source-untouched "$(psql_ "SELECT indexname FROM pg_indexes WHERE tablename = 'acct'")"; fi
	if run --schema-from "$dsn:public.acct" --engine sqlite --rows 100 --format csv >"$T/pg.csv" 2>"$T/pg.err" &&
		[ "$(field "$T/pg.csv" engine)" = sqlite ]; then
		ok whatif/pg-source-explicit-engine-wins
	else bad whatif/pg-source-explicit-engine-wins "$(tail -2 "$T/pg.err")"; fi
	# --drop-index on PostgreSQL, on the spec's own list
	if run --engine postgres --schema "$T/t.spec" --drop-index created_at --indexes without,table \
		--rows 5000 --format csv >"$T/pgd.csv" 2>"$T/pgd.err" &&
		grep -q "^answer: - index idxlab_created_at on created_at: " "$T/pgd.err"; then
		ok whatif/pg-drop-index-answer-line
	else bad whatif/pg-drop-index-answer-line "$(tail -3 "$T/pgd.err")"; fi
	answer_matches whatif/pg-drop "$T/pgd.csv" "$T/pgd.err" - 1 0 "write wal index"
fi

# --- MongoDB: no server here; what idxlab sends to the wire peer ----------
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
. "$here/mongo_peer.sh"
if [ -z "$PY" ]; then
	skip whatif/mongo "python3-mockupdb is not installed (apt-get install python3-mockupdb)"
else
	peer wm normal
	if "$IDXLAB" run --engine mongo --warmup off --dsn "$URI" --schema "$T/t.spec" \
		--add-index n+email:unique --drop-index created_at --indexes without,table,all \
		--rows 200 --format csv >"$T/m.csv" 2>"$T/m.err" &&
		grep -q "^answer: + unique index idxlab_add_n_email on (n, email): " "$T/m.err" &&
		grep -q "^answer: - index idxlab_created_at on created_at: " "$T/m.err"; then
		ok whatif/mongo-answer-lines
	else bad whatif/mongo-answer-lines "$(tail -3 "$T/m.err")"; fi
	# each step's table gets the list's prefix: none, the table's own, then
	# the candidate, unique, its key in the candidate's column order
	qcheck whatif/mongo-candidate-indexes "[[(list(i['key']), i['name'], i.get('unique')) for i in d['indexes']] for d in cmds('createIndexes', 't')] == [[(['created_at'], 'idxlab_created_at', None)], [(['created_at'], 'idxlab_created_at', None), (['n', 'email'], 'idxlab_add_n_email', True)]]"
	unpeer
fi

# --- WiredTiger -------------------------------------------------------------
wt_test=whatif-wt
. "$(dirname "$0")/wt_lib.sh"
if wt --schema "$T/t.spec" --add-index email --indexes table,all --rows 20000 --format csv \
	>"$T/w.csv" 2>"$T/w.err" && grep -q "^answer: + index idxlab_add_email on email: " "$T/w.err"; then
	ok whatif/wt-answer-line
else bad whatif/wt-answer-line "$(tail -3 "$T/w.err")"; fi
answer_matches whatif/wt-answer "$T/w.csv" "$T/w.err" + 1 2 "rows write index"
