# The reads (issue 22) on SQLite: op lookup and op range run the table's
# queries, and the engine says what served them. On the users table,
# lookups by email without its index scan every row; with it, they examine
# one; --miss makes them find nothing; a range reads --range-rows rows; an
# index no query used reads 0.00; a read step's latencies are its queries'.
. "$(dirname "$0")/lib.sh"

# The users table read by email alone: its spec without its query lines
# (the built-in's four queries read by created_at, country and status too),
# so a lookup is by its first index's column.
"$IDXLAB" --schema users --print-config | sed -n 's/^#   //p' | grep -v '^query ' >"$T/users.spec"
run() { "$IDXLAB" run --schema "$T/users.spec" --prefill 20000 --seed 7 "$@" 2>>"$T/err"; }

run --op lookup --rows 200 --indexes 0,1 --format csv >"$T/l.csv"
p0=$(field "$T/l.csv" plan 1) p1=$(field "$T/l.csv" plan 2)
x0=$(field "$T/l.csv" rows_examined_per_query 1) x1=$(field "$T/l.csv" rows_examined_per_query 2)
g0=$(field "$T/l.csv" pages_read_per_query 1) g1=$(field "$T/l.csv" pages_read_per_query 2)
r0=$(field "$T/l.csv" reads_per_s 1) r1=$(field "$T/l.csv" reads_per_s 2)
[ "$p0" = "lookup_email=scan" ] && [ "$p1" = "lookup_email=idxlab_email" ] &&
	ok reads/plan-from-engine || bad reads/plan-from-engine "plans '$p0' / '$p1'; $(cat "$T/err")"
is_num "$x0" "$x1" && check reads/examined-scan-vs-index "$x0 >= 19000 && $x1 <= 2" ||
	bad reads/examined-scan-vs-index "examined per query: no index '$x0', index '$x1'"
is_num "$g0" "$g1" && check reads/pages-scan-vs-index "$g0 > 100 * ($g1 + 1)" ||
	bad reads/pages-scan-vs-index "pages per query: '$g0' / '$g1'"
is_num "$r0" "$r1" && check reads/index-faster "$r1 > 10 * $r0" ||
	bad reads/index-faster "reads/s: '$r0' without the index, '$r1' with it"

# latencies: the queries', the commit latency fields n/a on a read step
q50=$(field "$T/l.csv" read_p50_ms 2) c50=$(field "$T/l.csv" p50_ms 2)
rr=$(field "$T/l.csv" rows_returned_per_query 2)
is_num "$q50" "$rr" && [ -z "$c50" ] && check reads/query-latency "$q50 > 0 && $rr >= 0.99 && $rr <= 1.01" ||
	bad reads/query-latency "read_p50_ms '$q50' p50_ms '$c50' (want n/a) rows/query '$rr'"

# --miss 1: values no row holds find nothing, and the search is still made
run --op lookup --rows 200 --indexes 1 --miss 1 --format csv >"$T/m.csv"
rm_=$(field "$T/m.csv" rows_returned_per_query 1) xm=$(field "$T/m.csv" rows_examined_per_query 1)
is_num "$rm_" && check reads/miss-finds-nothing "$rm_ == 0" ||
	bad reads/miss-finds-nothing "rows per query '$rm_' examined '$xm'"
run --op lookup --rows 400 --indexes 1 --miss 0.5 --format csv >"$T/mh.csv"
rh=$(field "$T/mh.csv" rows_returned_per_query 1)
is_num "$rh" && check reads/miss-share "$rh > 0.35 && $rh < 0.65" ||
	bad reads/miss-share "--miss 0.5: rows per query '$rh'"

# op range: --range-rows rows in the column's order
run --op range --rows 100 --indexes 1 --range-rows 50 --format csv >"$T/r.csv"
rg=$(field "$T/r.csv" rows_returned_per_query 1) pr=$(field "$T/r.csv" plan 1)
is_num "$rg" && check reads/range-rows "$rg > 40 && $rg <= 50" && [ "$pr" = "range_email=idxlab_email" ] ||
	bad reads/range-rows "rows per query '$rg' (want about 50), plan '$pr'"

# an index no query used: 0.00 beside the one that served them all
run --op lookup --rows 100 --indexes 6 --format csv >"$T/s.csv"
sv=$(field "$T/s.csv" index_served 1)
case "$sv" in
"idxlab_email:1.00 idxlab_created_at:0.00 idxlab_country:0.00 idxlab_status:0.00 "*) ok reads/unused-indexes ;;
*) bad reads/unused-indexes "index_served '$sv'" ;;
esac

# the same seed draws the same rows: the same pages, the same rows found
run --op lookup --rows 300 --indexes 0 --miss 0.3 --format csv >"$T/d1.csv"
run --op lookup --rows 300 --indexes 0 --miss 0.3 --format csv >"$T/d2.csv"
a=$(field "$T/d1.csv" rows_returned_per_query 1) b=$(field "$T/d2.csv" rows_returned_per_query 1)
is_num "$a" && [ "$a" = "$b" ] && ok reads/seeded || bad reads/seeded "'$a' vs '$b'"

# the text table names the read figures on a read step, not on a write step
run --op lookup --rows 100 --indexes 1 >"$T/t.txt"
run --op insert --rows 100 --indexes 1 >"$T/w.txt"
grep -q 'reads/s' "$T/t.txt" && grep -q 'examined/q' "$T/t.txt" && ! grep -q 'reads/s' "$T/w.txt" &&
	ok reads/text-columns || bad reads/text-columns "$(cat "$T/t.txt" "$T/w.txt")"

# --queries picks the table's query lines: the built-in users table read by
# email alone, in a mix; the five indexes no query uses read 0.00
"$IDXLAB" run --schema users --queries by_email --mix insert:80,lookup:20 --prefill 5000 \
	--rows 2000 --indexes 6 --format csv >"$T/q.csv" 2>>"$T/err"
qp=$(field "$T/q.csv" plan 1) qs=$(field "$T/q.csv" index_served 1)
[ "$qp" = "by_email=idxlab_email" ] &&
	[ "$qs" = "idxlab_email:1.00 idxlab_created_at:0.00 idxlab_country:0.00 idxlab_status:0.00 idxlab_country_created_at:0.00 idxlab_status_created_at:0.00" ] &&
	ok reads/queries-by-name || bad reads/queries-by-name "plan '$qp', served '$qs'"
"$IDXLAB" run --schema users --op lookup --prefill 5000 --rows 400 --indexes 6 --format csv >"$T/q4.csv" 2>>"$T/err"
n4=$(field "$T/q4.csv" plan 1 | wc -w)
[ "$n4" = 4 ] && ok reads/all-queries || bad reads/all-queries "plan '$(field "$T/q4.csv" plan 1)'"
qt=$(field "$T/q4.csv" query_text 1)
case "$qt" in
"by_email: email = ?; recent: created_at > ? order by created_at desc limit 10; "*) ok reads/query-text ;;
*) bad reads/query-text "query_text '$qt'" ;;
esac
# --miss on range terms: a value past the end the term looks toward, so
# `created_at > ?` finds nothing too (all four of the users table's queries)
"$IDXLAB" run --schema users --op lookup --miss 1 --prefill 5000 --rows 400 --indexes 6 --format csv \
	>"$T/m4.csv" 2>>"$T/err"
m4=$(field "$T/m4.csv" rows_returned_per_query 1)
[ "$m4" = 0.00 ] && ok reads/miss-range-terms || bad reads/miss-range-terms "rows per query '$m4'"
expect_exit reads/unknown-query 2 "the users table has no query 'by_name'" \
	"$IDXLAB" run --schema users --op lookup --queries by_email,by_name

# a read step that would scan the table once per row is warned of first
# (the default table's 100,000 lookups at 0 indexes: about 10^10 rows)
timeout 15 "$IDXLAB" run --op lookup --warmup off >/dev/null 2>"$T/scan.err"
grep -q "warning: step 1: query lookup_k1 has no index at --indexes 0: each of its 100000 lookups scans" "$T/scan.err" &&
	ok reads/scan-warning || bad reads/scan-warning "$(head -c 400 "$T/scan.err")"

# bad input: a miss share out of range, range-rows 0
expect_exit reads/bad-miss 2 "--miss: 2 is out of range" "$IDXLAB" run --op lookup --miss 2
expect_exit reads/bad-range-rows 2 "--range-rows: 0 is out of range" "$IDXLAB" run --op range --range-rows 0
lib_exit
