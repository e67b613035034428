# A mixed workload (issue 22): --mix draws each operation by weight from
# the seed. A designed mix - half inserts, half lookups by email on the
# users table - costs least per 1,000 operations at 1 index: without it
# every lookup scans the table, with all six every insert pays five more
# btrees. The run's last line names the cheapest step; bad mixes exit 2.
. "$(dirname "$0")/lib.sh"

# The users table read by email alone: its spec without its query lines
# (the built-in's four queries read by created_at, country and status too).
"$IDXLAB" --schema users --print-config | sed -n 's/^#   //p' | grep -v '^query ' >"$T/users.spec"
"$IDXLAB" run --schema "$T/users.spec" --mix insert:50,lookup:50 --prefill 20000 --rows 1e9 \
	--duration 3 --warmup off --indexes 0,1,6 --seed 3 --format csv >"$T/m.csv" 2>"$T/m.err"
t0=$(field "$T/m.csv" mix_ms_per_1000_ops 1) t1=$(field "$T/m.csv" mix_ms_per_1000_ops 2)
t6=$(field "$T/m.csv" mix_ms_per_1000_ops 3)
# (under sanitizers the checks' own work outweighs five more btrees: the
# scan is still the dearest, and the cheapest of 1 and 6 is the one named)
best=1 marks=010
if [ -n "${IDXLAB_SANITIZED:-}" ] && is_num "$t1" "$t6" && awk "BEGIN { exit !($t6 < $t1) }"; then
	best=6 marks=001
fi
if [ -n "${IDXLAB_SANITIZED:-}" ]; then
	is_num "$t0" "$t1" "$t6" && check mix/one-index-cheapest "$t1 < $t0 && $t6 < $t0" ||
		bad mix/one-index-cheapest "ms per 1,000 ops at 0/1/6 indexes: '$t0' '$t1' '$t6'; $(cat "$T/m.err")"
else
	is_num "$t0" "$t1" "$t6" && check mix/one-index-cheapest "$t1 < $t0 && $t1 < $t6" ||
		bad mix/one-index-cheapest "ms per 1,000 ops at 0/1/6 indexes: '$t0' '$t1' '$t6'; $(cat "$T/m.err")"
fi
grep -q "^cheapest: indexes $best " "$T/m.err" && ok mix/cheapest-named ||
	bad mix/cheapest-named "$(cat "$T/m.err")"

# read by email alone, the other five of six indexes are used by no query,
# said beside what a write took at 6 and at 1 (the email index, used)
grep -Eq '^used by no query at indexes 6: idxlab_created_at, idxlab_country, idxlab_status, idxlab_country_created_at, idxlab_status_created_at \(5 of 6\); writes [0-9.e-]+ ms/row there, [0-9.e-]+ at indexes 1 \(every index used\)$' "$T/m.err" &&
	! grep -q 'used by no query at indexes 1' "$T/m.err" && ok mix/unused-named ||
	bad mix/unused-named "$(cat "$T/m.err")"

# the cheapest step marked in its record (cheapest 1), the others 0
c0=$(field "$T/m.csv" cheapest 1) c1=$(field "$T/m.csv" cheapest 2) c6=$(field "$T/m.csv" cheapest 3)
[ "$c0$c1$c6" = "$marks" ] && ok mix/cheapest-field || bad mix/cheapest-field "cheapest '$c0' '$c1' '$c6'"

# the queries' latencies apart from the writes' commits: percentiles of
# each; writes/s and reads/s the two parts of ops/s
q50=$(field "$T/m.csv" read_p50_ms 2) q99=$(field "$T/m.csv" read_p99_ms 2)
qmx=$(field "$T/m.csv" read_max_ms 2) c50=$(field "$T/m.csv" p50_ms 2)
ws=$(field "$T/m.csv" writes_per_s 2) rs=$(field "$T/m.csv" reads_per_s 2) ro=$(field "$T/m.csv" rows_per_s 2)
q0=$(field "$T/m.csv" read_p50_ms 1)
w50=$(field "$T/m.csv" write_p50_ms 2) w99=$(field "$T/m.csv" write_p99_ms 2) wmx=$(field "$T/m.csv" write_max_ms 2)
is_num "$w50" "$w99" "$wmx" && check mix/write-percentiles "$w50 > 0 && $w50 <= $w99 && $w99 <= $wmx && $w50 < $c50" ||
	bad mix/write-percentiles "write p50/p99/max '$w50' '$w99' '$wmx', commit p50 '$c50'"
is_num "$q50" "$q99" "$qmx" "$c50" "$ws" "$rs" "$ro" "$q0" &&
	check mix/query-percentiles "$q50 > 0 && $q50 <= $q99 && $q99 <= $qmx && $q0 > 10 * $q50 &&
		($ws + $rs) / $ro > 0.99 && ($ws + $rs) / $ro < 1.01" ||
	bad mix/query-percentiles "read p50/p99/max '$q50' '$q99' '$qmx' (0 indexes: '$q0'), commit p50 '$c50', writes/s '$ws' + reads/s '$rs' of '$ro'"

# a sweep over another knob too: each sweep's lines say which it is
"$IDXLAB" run --schema "$T/users.spec" --mix insert:50,lookup:50 --prefill 1000 --rows 400 \
	--indexes 0,1 --seed 1,2 >"$T/two.txt" 2>&1
[ "$(grep -c '^cheapest (seed=1): indexes [01] ' "$T/two.txt")" = 1 ] &&
	[ "$(grep -c '^cheapest (seed=2): indexes [01] ' "$T/two.txt")" = 1 ] && ok mix/cheapest-per-sweep ||
	bad mix/cheapest-per-sweep "$(tail -4 "$T/two.txt")"

# the windows of a sweep's steps are not held with them: --interval's
# records come as the steps run, the step records once the sweep is in
"$IDXLAB" run --schema "$T/users.spec" --mix insert:50,lookup:50 --prefill 2000 --rows 1e9 \
	--duration 2 --interval 1 --warmup off --indexes 0,1 --format csv \
	--fields record,step,cheapest,index_served >"$T/iv.csv" 2>"$T/iv.err"
order=$(sed 1d "$T/iv.csv" | cut -d, -f1,2 | uniq | tr '\n' ' ')
[ "$order" = "interval,1 interval,2 step,1 step,2 " ] && [ "$(tail -1 "$T/iv.csv" | cut -d, -f3)" != "" ] &&
	ok mix/windows-stream || bad mix/windows-stream "order '$order': $(cat "$T/iv.csv" "$T/iv.err" | head -c 400)"
# a window says what served the queries so far too (the email index, all)
[ "$(grep -c '^interval,2,,idxlab_email:1.00$' "$T/iv.csv")" -ge 1 ] && ok mix/windows-served ||
	bad mix/windows-served "$(head -c 400 "$T/iv.csv")"

# --repeat: the step's median record has it, a run's own record not; a
# step that is no sweep's (no other index count) has none either
"$IDXLAB" run --schema "$T/users.spec" --mix insert:50,lookup:50 --prefill 2000 --rows 600 \
	--indexes 0,1 --repeat 2 --format json --fields record,indexes,cheapest >"$T/r.json" 2>"$T/r.err"
"$IDXLAB" run --schema "$T/users.spec" --mix insert:50,lookup:50 --prefill 2000 --rows 600 \
	--indexes 1 --format csv --fields cheapest >"$T/one.csv" 2>>"$T/r.err"
runs=$(grep -c '"record":"run","indexes":[01],"cheapest":null' "$T/r.json")
steps=$(grep -c '"record":"step","indexes":[01],"cheapest":[01]' "$T/r.json")
ones=$(grep -c '"cheapest":1' "$T/r.json")
[ "$runs" = 4 ] && [ "$steps" = 2 ] && [ "$ones" = 1 ] && [ "$(sed -n 2p "$T/one.csv")" = "" ] &&
	ok mix/cheapest-repeat || bad mix/cheapest-repeat "$(cat "$T/r.json" "$T/one.csv" "$T/r.err")"

# each kind of operation timed apart, the queries' plan named
w1=$(field "$T/m.csv" write_ms_per_row 2) r1=$(field "$T/m.csv" read_ms_per_query 2)
r0=$(field "$T/m.csv" read_ms_per_query 1) pl=$(field "$T/m.csv" plan 2) op=$(field "$T/m.csv" op 2)
is_num "$w1" "$r1" "$r0" && [ "$pl" = "lookup_email=idxlab_email" ] && [ "$op" = insert ] &&
	check mix/kinds-apart "$r0 > 10 * $r1 && $w1 > 0" ||
	bad mix/kinds-apart "write ms/row '$w1', read ms/q '$r1' (no index '$r0'), plan '$pl', op '$op'"

# the reads' share is the weight's: reads/s over rows/s near 0.5
rs=$(field "$T/m.csv" reads_per_s 2) ro=$(field "$T/m.csv" rows_per_s 2)
is_num "$rs" "$ro" && check mix/share "$rs / $ro > 0.45 && $rs / $ro < 0.55" ||
	bad mix/share "reads/s '$rs' of ops/s '$ro'"

# the text table: the mix's columns and the line
"$IDXLAB" run --schema "$T/users.spec" --mix insert:80,lookup:20 --prefill 2000 --rows 1000 --indexes 0,1 >"$T/t.txt" 2>&1
grep -q 'ms/1k ops' "$T/t.txt" && grep -q 'mix=insert:80+lookup:20' "$T/t.txt" &&
	grep -Eq '^cheapest: indexes [01] - .* of the mix insert:80\+lookup:20 .*; indexes [01]: ' "$T/t.txt" &&
	ok mix/text || bad mix/text "$(cat "$T/t.txt")"

# the what-if on a user's table, answered for the mix: the email index
# makes the lookups faster and, at this mix, pays
python3 - "$T/src.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("create table users(id integer primary key, email text, name text)")
c.executemany("insert into users(email, name) values(?, ?)",
              [("u%d@example.org" % (i * 7919 % 100003), "n%d" % i) for i in range(3000)])
c.commit()
PY
"$IDXLAB" run --schema-from "$T/src.db:users" --add-index email --indexes table,all \
	--mix insert:80,lookup:20 --prefill 10000 --rows 3000 >"$T/w.txt" 2>&1
line=$(grep '^answer: + index idxlab_add_email on email:' "$T/w.txt")
case "$line" in
*"queries "*"x faster ("*"at the mix insert:80+lookup:20 it pays ("*) ok mix/whatif-answer ;;
*) bad mix/whatif-answer "$(cat "$T/w.txt")" ;;
esac

# a source read by guessed lookups (its own index's column) is read by the
# candidate's column too: the answer has a query the candidate serves
python3 - "$T/src2.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("create table users(id integer primary key, email text, name text)")
c.execute("create index users_name on users(name)")
c.executemany("insert into users(email, name) values(?, ?)",
              [("u%d@example.org" % (i * 7919 % 100003), "n%d" % (i % 300)) for i in range(3000)])
c.commit()
PY
"$IDXLAB" run --schema-from "$T/src2.db:users" --add-index email --indexes table,all \
	--mix insert:80,lookup:20 --prefill 5000 --rows 2000 --format csv >"$T/w2.csv" 2>"$T/w2.err"
p2=$(field "$T/w2.csv" plan 2)
case "$p2" in
*"by_name=idxlab_users_name"*"by_email=idxlab_add_email"* | *"by_email=idxlab_add_email"*"by_name=idxlab_users_name"*)
	ok mix/whatif-candidate-lookup ;;
*) bad mix/whatif-candidate-lookup "plan '$p2'; $(cat "$T/w2.err")" ;;
esac

# --read-share N (the dashboard's slider): lookups beside the op, from an
# empty table too (a lookup with no row yet inserts instead)
"$IDXLAB" run --schema users --op insert --read-share 30 --rows 3000 --indexes 1 --format csv \
	>"$T/rs.csv" 2>"$T/rs.err"
rs=$(field "$T/rs.csv" reads_per_s 1) ro=$(field "$T/rs.csv" rows_per_s 1)
eb=$(field "$T/rs.csv" ended_by 1) sh_=$(field "$T/rs.csv" read_share 1)
is_num "$rs" "$ro" && [ "$eb" = rows ] && [ "$sh_" = 30 ] &&
	check mix/read-share "$rs / $ro > 0.2 && $rs / $ro < 0.35" ||
	bad mix/read-share "reads/s '$rs' of ops/s '$ro', ended by '$eb', read_share '$sh_'; $(cat "$T/rs.err")"
expect_exit mix/read-share-not-with-mix 2 "give --mix or --read-share, not both" \
	"$IDXLAB" run --read-share 20 --mix insert:80,lookup:20

# the dashboard: read-share's lookups beside the inserts, their rows under
# the write rows (reads/s, read ms/q, examined/q), the slider on the screen
if command -v tmux >/dev/null; then
	tm new-session -d -s rd -x 140 -y 50 -c "$T" \
		"env TMPDIR=$TMPDIR $IDXLAB --warmup off --schema users --read-share 30 --indexes 6; echo EXIT=\$? >$T/rd.exit"
	# and what served the queries: by_email and recent use their indexes,
	# the (country) and (status) ones no query (the built-in's queries by
	# country and by status lead with the pairs' indexes): named first
	if wait_for rd '││reads/s +[0-9.]+[kM]? ' 10 && wait_for rd '││examined/q +[0-9.]+ ' 5 &&
		cap rd | grep -qE '│ read-share +30 ' &&
		wait_for rd '││used by no query: country, status; served: email [0-9]+ %, created_at [0-9]+ %' 10; then
		ok mix/dashboard-reads
	else bad mix/dashboard-reads "$(notes) $(cap rd)"; fi
	tm send-keys -t rd q
	[ "$(wait_exit rd)" = EXIT=0 ] && ok mix/dashboard-quit || bad mix/dashboard-quit "$(cat "$T/rd.exit" 2>/dev/null)"
	# --mix on a terminal: headless only, said (the knob panel has no row
	# for it, and would show the mix's op alone)
	tm new-session -d -s mx -x 140 -y 50 -c "$T" \
		"env TMPDIR=$TMPDIR $IDXLAB --mix insert:50,update:50 2>$T/mx.err; echo EXIT=\$? >$T/mx.exit"
	[ "$(wait_exit mx)" = EXIT=2 ] && grep -q -- '--mix runs headless: use `idxlab run' "$T/mx.err" &&
		ok mix/dashboard-mix-refused || bad mix/dashboard-mix-refused "$(cat "$T/mx.exit" "$T/mx.err" 2>/dev/null)"
else
	skip mix/dashboard-reads "tmux is not installed"
fi

# bad mixes, and a mix beside an op
expect_exit mix/weights-add 2 "adds to 90 %" "$IDXLAB" run --mix insert:70,lookup:20
expect_exit mix/unknown-op 2 "'select' in the mix is not an op" "$IDXLAB" run --mix insert:80,select:20
expect_exit mix/empty-item 2 "an empty item in the mix" "$IDXLAB" run --mix insert:50,,update:50
# the checks of an op hold for each op of a mix: an update needs rows
# there when the step begins, a multi-row or COPY load holds inserts back
# from the reads (every engine)
expect_exit mix/update-needs-rows 2 "op update needs rows to work on" \
	"$IDXLAB" run --mix insert:50,update:50 --prefill 0 --rows 100
expect_exit mix/multirow-refused 2 "with --load multirow: a mix's inserts go one statement a row" \
	"$IDXLAB" run --mix insert:50,lookup:50 --load multirow --rows 100

# several write ops in one mix, each its own statement: the file holds
# the rows the record says (prefill + inserts - deletes), about a fifth of
# them updated (hot > 0), and an update that names a row a delete took
# would stop the run (changed 0 rows); the same seed, the same table
mixed() {
	rm -f "$T/$1.db"
	"$IDXLAB" run --dsn "$T/$1.db" --mix insert:40,update:20,update-indexed:10,delete:10,lookup:20 \
		--prefill 20000 --rows 20000 --indexes 2 --seed 5 --format csv >"$T/$1.csv" 2>"$T/$1.err"
}
mixed w1
mixed w2
n=$(sqlite3 "$T/w1.db" 'select count(*) from idxlab_t' 2>&1) tr=$(field "$T/w1.csv" table_rows 1)
h=$(sqlite3 "$T/w1.db" 'select count(*) from idxlab_t where hot > 0' 2>&1)
w=$(field "$T/w1.csv" writes_per_s 1) r=$(field "$T/w1.csv" reads_per_s 1)
is_num "$n" "$tr" "$h" "$w" "$r" &&
	check mix/several-writes "$n == $tr && $n > 25000 && $n < 27000 && $h > 3400 && $h < 4600 &&
		$w / ($w + $r) > 0.77 && $w / ($w + $r) < 0.83" ||
	bad mix/several-writes "rows in the file '$n', table_rows '$tr', updated '$h', writes/s '$w' reads/s '$r': $(head -c 400 "$T/w1.err")"
# each kind counted and timed apart: the counts are the step's operations,
# the kinds the mix's, the inserts those the file gained
oc=$(field "$T/w1.csv" op_counts 1) om=$(field "$T/w1.csv" op_ms 1) rows=$(field "$T/w1.csv" rows 1)
sum=$(echo "$oc" | tr ' ' '\n' | awk -F: '{ s += $2 } END { print s + 0 }')
kinds=$(echo "$om" | tr ' ' '\n' | awk -F: '$2 > 0 && $2 < 100 { printf "%s ", $1 }')
ins=$(echo "$oc" | tr ' ' '\n' | awk -F: '$1 == "insert" { print $2 }')
del=$(echo "$oc" | tr ' ' '\n' | awk -F: '$1 == "delete" { print $2 }')
# and each kind's p50 <= p99 <= max, the same kinds
q=$(for f in op_p50_ms op_p99_ms op_max_ms; do field "$T/w1.csv" $f 1; done | awk '
	{ n = split($0, p, " "); for (i = 1; i <= n; i++) { split(p[i], kv, ":"); v[kv[1], NR] = kv[2]; if (NR == 1) k[++nk] = kv[1] } }
	END { for (i = 1; i <= nk; i++) if (v[k[i], 1] > 0 && v[k[i], 1] <= v[k[i], 2] && v[k[i], 2] <= v[k[i], 3]) printf "%s ", k[i] }')
# and the kinds' rates add up to the step's
ps=$(field "$T/w1.csv" op_per_s 1 | tr ' ' '\n' | awk -F: '{ s += $2 } END { print s + 0 }')
rps=$(field "$T/w1.csv" rows_per_s 1)
[ "$sum" = "$rows" ] && [ "$kinds" = "insert update update-indexed delete lookup " ] && [ "$q" = "$kinds" ] &&
	awk "BEGIN { exit !($ps > 0.99 * $rps && $ps < 1.01 * $rps) }" &&
	[ "$((20000 + ins - del))" = "$n" ] && ok mix/op-kinds ||
	bad mix/op-kinds "op_counts '$oc' (sum $sum of $rows rows), op_ms '$om' (quantiles in order: '$q'), rates $ps of $rps/s, $n rows in the file"
[ -s "$T/w2.db" ] && [ "$(sqlite3 "$T/w2.db" 'select count(*), sum(hot), sum(k1) from idxlab_t')" = \
	"$(sqlite3 "$T/w1.db" 'select count(*), sum(hot), sum(k1) from idxlab_t')" ] &&
	ok mix/several-writes-seeded || bad mix/several-writes-seeded "$(head -c 300 "$T/w2.err")"

# --repeat: the step's op_ms is each kind's median over its runs
"$IDXLAB" run --mix insert:50,update:30,lookup:20 --prefill 2000 --rows 2000 --indexes 1 --repeat 3 \
	--format csv --fields record,op_ms >"$T/rp.csv" 2>"$T/rp.err"
want=$(awk -F, '$1 == "run" { n = split($2, p, " "); for (i = 1; i <= n; i++) { split(p[i], kv, ":"); v[kv[1], ++c[kv[1]]] = kv[2]; if (!(kv[1] in seen)) { seen[kv[1]] = 1; order[++k] = kv[1] } } }
	END { for (i = 1; i <= k; i++) { x = order[i]; a = v[x, 1]; b = v[x, 2]; d = v[x, 3];
		m = (a <= b) ? ((b <= d) ? b : (a <= d ? d : a)) : ((a <= d) ? a : (b <= d ? d : b));
		printf "%s%s:%s", (i > 1 ? " " : ""), x, m } }' "$T/rp.csv")
got=$(awk -F, '$1 == "step" { print $2 }' "$T/rp.csv")
[ -n "$got" ] && [ "$got" = "$want" ] && ok mix/op-ms-median || bad mix/op-ms-median "step '$got', medians '$want': $(cat "$T/rp.csv")"

# a mix's deletes that would outrun the prefill are refused, as op
# delete's are; at the edge (about as many deletes as rows), a delete with
# nothing left runs the step's op (insert) instead: the step runs all its
# operations and the file holds prefill + inserts - deletes
expect_exit mix/deletes-past-prefill 2 "the mix's deletes \(about 1800 of its 2000 operations\) exceed prefill \(100\)" \
	"$IDXLAB" run --mix update:10,delete:90 --prefill 100 --rows 2000
"$IDXLAB" run --dsn "$T/d.db" --mix insert:50,delete:50 --prefill 1000 --rows 2000 --seed 2 --format csv \
	>"$T/d.csv" 2>"$T/d.err"
n=$(sqlite3 "$T/d.db" 'select count(*) from idxlab_t' 2>&1) rows=$(field "$T/d.csv" rows 1)
oc=$(field "$T/d.csv" op_counts 1)
ins=$(echo "$oc" | tr ' ' '\n' | awk -F: '$1 == "insert" { print $2 }')
del=$(echo "$oc" | tr ' ' '\n' | awk -F: '$1 == "delete" { print $2 }')
is_num "$n" "$rows" "$ins" "$del" &&
	check mix/deletes-run-out "$rows == 2000 && $ins + $del == 2000 && $del <= 1000 && $n == 1000 + $ins - $del" ||
	bad mix/deletes-run-out "rows '$rows', op_counts '$oc', in the file '$n': $(head -c 300 "$T/d.err")"

# both read ops in one mix: the lookups by email and a range of 100 rows
# from an email, each query drawn among its own op's (rows returned per
# query about (1 + 100) / 2), both served by the email index
"$IDXLAB" run --schema users --queries by_email --mix lookup:50,range:50 --prefill 3000 --rows 2000 \
	--indexes 1 --format csv >"$T/lr.csv" 2>"$T/lr.err"
rr=$(field "$T/lr.csv" rows_returned_per_query 1) pl=$(field "$T/lr.csv" plan 1)
is_num "$rr" && [ "$pl" = "by_email=idxlab_email range_email=idxlab_email" ] &&
	check mix/lookup-and-range "$rr > 40 && $rr < 61" ||
	bad mix/lookup-and-range "rows/query '$rr', plan '$pl': $(head -c 300 "$T/lr.err")"
# ... and each kind apart: a lookup returns its row, a range about 100,
# and SQLite, counting each query's examined rows itself, says them by
# kind too (a lookup through the index examines its row)
orq=$(field "$T/lr.csv" op_rows_per_query 1) oeq=$(field "$T/lr.csv" op_examined_per_query 1)
lk=$(echo "$orq" | tr ' ' '\n' | awk -F: '$1 == "lookup" { print $2 }')
rg=$(echo "$orq" | tr ' ' '\n' | awk -F: '$1 == "range" { print $2 }')
le=$(echo "$oeq" | tr ' ' '\n' | awk -F: '$1 == "lookup" { print $2 }')
opq=$(field "$T/lr.csv" op_pages_read_per_query 1 | sed 's/:[0-9.]*//g')
is_num "$lk" "$rg" "$le" && [ "$opq" = "lookup range" ] &&
	check mix/reads-by-kind "$lk > 0.95 && $lk <= 1 && $rg > 90 && $rg <= 100 && $le >= 1 && $le <= 3" ||
	bad mix/reads-by-kind "op_rows_per_query '$orq', op_examined_per_query '$oeq', pages kinds '$opq'"
expect_exit mix/not-with-op 2 "give --mix or --op, not both" "$IDXLAB" run --op update --mix insert:80,lookup:20
lib_exit
