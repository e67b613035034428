# Reads on WiredTiger embedded (issue 22): op lookup and op range run
# through the cursors idxlab opens - the built index the query's column
# leads, each entry's record fetched by its record id, else a scan of the
# collection - and say so. On the users table (its columns and indexes, in
# a spec file of its own with no query line, so the read is the one idxlab
# makes: equality on the first index's column, email): without the index
# the plan is a scan and a query examines every row (rows examined are
# counted by idxlab as the cursors move: exact); with it the plan names
# idxlab_email, a query examines the match and the entry after it, returns
# its row, and takes a fraction of the time; --miss 1 finds nothing; a
# range returns about --range-rows rows, the same through the index as by
# the scan and the same as SQLite's for the same seed; index_served gives
# email all the queries and the other five none; an index sweep that drops
# and builds indexes under the open read cursors runs; so does a mix of
# inserts and lookups, whose pages read per query are n/a.
. "$(dirname "$0")/lib.sh"
wt_test=reads-wt
. "$(dirname "$0")/wt_lib.sh"

rows=10000
cat >"$T/users.spec" <<'EOF'
# the built-in users table's columns and indexes, no query line
id bigint seq
column email text(26) rand
column created_at timestamptz seq
column country text(2) zipf:1:50
column status text(6) few:4
index email
index created_at
index country
index status
index country,created_at
index status,created_at
EOF

# reads NAME CSV ARGS...: a read sweep on the users spec into CSV.
reads() {
	name=$1 csv=$2
	shift 2
	if wt --schema "$T/users.spec" --prefill $rows --rows 200 --format csv "$@" \
		>"$csv" 2>"$T/err"; then
		ok "$name"
	else
		bad "$name" "$(tail -3 "$T/err")"
	fi
}
# is NAME GOT WANT: GOT is the text WANT.
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got '$2', want '$3'"; fi
}

# --- lookup by email: a scan without the index, the index with it ---------
reads reads-wt/lookup-runs "$T/l.csv" --op lookup --indexes 0,1
is reads-wt/lookup-scan-plan "$(field "$T/l.csv" plan 1)" lookup_email=scan
check reads-wt/lookup-scan-examines-every-row \
	"$(field "$T/l.csv" rows_examined_per_query 1) == $rows"
is reads-wt/lookup-index-plan "$(field "$T/l.csv" plan 2)" lookup_email=idxlab_email
ex=$(field "$T/l.csv" rows_examined_per_query 2)
check reads-wt/lookup-index-examines-a-few "$ex >= 1 && $ex <= 3"
r0=$(field "$T/l.csv" rows_returned_per_query 1)
r1=$(field "$T/l.csv" rows_returned_per_query 2)
check reads-wt/lookup-returns-its-row "$r0 >= 0.9 && $r0 <= 1.1 && $r1 == $r0"
check reads-wt/lookup-index-faster \
	"$(field "$T/l.csv" read_p50_ms 1) > 20 * $(field "$T/l.csv" read_p50_ms 2)"
p0=$(field "$T/l.csv" pages_read_per_query 1)
p1=$(field "$T/l.csv" pages_read_per_query 2)
check reads-wt/lookup-pages-counted "$p0 >= 0 && $p1 >= 0"
is reads-wt/lookup-served "$(field "$T/l.csv" index_served 2)" idxlab_email:1.00
is reads-wt/lookup-scan-served-none "$(field "$T/l.csv" index_served 1)" ""

# --- --miss 1: values no row holds, found by neither ----------------------
reads reads-wt/miss-runs "$T/m.csv" --op lookup --miss 1 --indexes 0,1
check reads-wt/miss-returns-nothing "$(field "$T/m.csv" rows_returned_per_query 1) == 0 &&
	$(field "$T/m.csv" rows_returned_per_query 2) == 0"
check reads-wt/miss-scan-examines-every-row \
	"$(field "$T/m.csv" rows_examined_per_query 1) == $rows"

# --- op range: about --range-rows rows, the index's the scan's -------------
reads reads-wt/range-runs "$T/r.csv" --op range --range-rows 50 --indexes 0,1
is reads-wt/range-plans "$(field "$T/r.csv" plan 1) $(field "$T/r.csv" plan 2)" \
	"range_email=scan range_email=idxlab_email"
r0=$(field "$T/r.csv" rows_returned_per_query 1)
r1=$(field "$T/r.csv" rows_returned_per_query 2)
check reads-wt/range-returns-range-rows "$r1 >= 40 && $r1 <= 50 && $r0 == $r1"
check reads-wt/range-index-examines-what-it-returns \
	"$(field "$T/r.csv" rows_examined_per_query 2) <= $r1 + 1"

# --- the same rows as SQLite for the same seed (misses and all) ------------
reads reads-wt/same-as-sqlite-runs "$T/w.csv" --op range --range-rows 50 --miss 0.3 --indexes 1
if "$IDXLAB" run --engine sqlite --warmup off --schema "$T/users.spec" --prefill $rows \
	--rows 200 --format csv --op range --range-rows 50 --miss 0.3 --indexes 1 \
	>"$T/s.csv" 2>"$T/err"; then
	is reads-wt/same-rows-as-sqlite "$(field "$T/w.csv" rows_returned_per_query)" \
		"$(field "$T/s.csv" rows_returned_per_query)"
else
	bad reads-wt/same-rows-as-sqlite "sqlite: $(tail -3 "$T/err")"
fi

# --- index_served at 6 indexes: email all, the other five none --------------
reads reads-wt/served-runs "$T/six.csv" --op lookup --indexes 6
is reads-wt/served-five-unused "$(field "$T/six.csv" index_served)" \
	"idxlab_email:1.00 idxlab_created_at:0.00 idxlab_country:0.00 idxlab_status:0.00 idxlab_country_created_at:0.00 idxlab_status_created_at:0.00"

# --- a sweep that drops and builds indexes under the read cursors ----------
reads reads-wt/sweep-runs "$T/sw.csv" --op lookup --indexes 6,0,1
is reads-wt/sweep-plans \
	"$(field "$T/sw.csv" plan 1) $(field "$T/sw.csv" plan 2) $(field "$T/sw.csv" plan 3)" \
	"lookup_email=idxlab_email lookup_email=scan lookup_email=idxlab_email"

# --- a mix: the reads beside inserts, each step on a table of its own ------
# (the next step's prefill loads with the mix's draws off: it once drew
# lookups there, on cursors not yet opened, and crashed); the inserts read
# pages too, so pages read per query are n/a in a mix.
if wt --schema "$T/users.spec" --prefill 3000 --rows 1000 --format csv \
	--mix insert:50,lookup:50 --indexes 0,1,6 >"$T/mix.csv" 2>"$T/err"; then
	ok reads-wt/mix-runs
else
	bad reads-wt/mix-runs "$(tail -3 "$T/err")"
fi
is reads-wt/mix-plans \
	"$(field "$T/mix.csv" plan 1) $(field "$T/mix.csv" plan 2) $(field "$T/mix.csv" plan 3)" \
	"lookup_email=scan lookup_email=idxlab_email lookup_email=idxlab_email"
is reads-wt/mix-pages-na "$(field "$T/mix.csv" pages_read_per_query 3)" ""

# several write ops in one mix on the default table (its updates by id,
# a cursor per index for update-indexed): each step of a sweep draws the
# same operations, so the same rows are left (prefill + inserts - deletes);
# an update of a row a delete took would stop the run (not found)
if wt --prefill 3000 --rows 3000 --format csv --seed 5 --indexes 2 --cache 1MB,64MB \
	--mix insert:40,update:20,update-indexed:10,delete:10,lookup:20 >"$T/mw.csv" 2>"$T/err"; then
	ok reads-wt/mix-writes-runs
else
	bad reads-wt/mix-writes-runs "$(tail -3 "$T/err")"
fi
t1=$(field "$T/mw.csv" table_rows 1) t2=$(field "$T/mw.csv" table_rows 2)
w=$(field "$T/mw.csv" writes_per_s 1) r=$(field "$T/mw.csv" reads_per_s 1)
is_num "$t1" "$w" "$r" && [ "$t1" = "$t2" ] &&
	check reads-wt/mix-several-writes "$t1 > 3700 && $t1 < 4200 && $w / ($w + $r) > 0.75 && $w / ($w + $r) < 0.85" ||
	bad reads-wt/mix-several-writes "table rows '$t1' '$t2', writes/s '$w', reads/s '$r'"
