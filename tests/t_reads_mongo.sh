# Reads on MongoDB (issue 22): op lookup and op range on the users table,
# checked on what idxlab SENDS and on what it reports from the replies
# (tests/mongo_peer.py records every command and answers find, getMore and
# explain from the documents it was sent; no MongoDB server exists here).
# A query is a find whose filter holds the query's terms ($eq, $gte) on the
# documents' fields with values of rows present (a miss: a value no row
# holds), a range's sort and limit, its cursor read to the end (getMore);
# what served it is explain's winning plan (an explain that says COLLSCAN
# makes the plan "scan" though the index exists); rows examined come from
# serverStatus metrics.queryExecutor deltas over the step (the peer moves
# them as its plan would: every document for a scan, a few keys with the
# index; asked for on a read step only), n/a when serverStatus is refused.
# The live-server part runs only when MONGODB_URI names a server (skipped
# loudly otherwise).
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
. "$here/mongo_peer.sh"
PEER_ARGS=--keep-docs # finds answered from the documents sent
mrun() { "$IDXLAB" run --engine mongo --warmup off --format csv --schema users --queries by_email "$@"; }

if [ -z "$PY" ]; then
	skip reads-mongo/wire "python3-mockupdb is not installed (apt-get install python3-mockupdb)"
else
	peer main normal

	# lookup by email without its index: a scan of the whole table
	if mrun --dsn "$URI" --op lookup --rows 200 --prefill 2000 --indexes 0 >"$T/l0.csv" 2>"$T/err"; then
		ok reads-mongo/lookup-runs
	else bad reads-mongo/lookup-runs "$(cat "$T/err")"; fi
	qcheck reads-mongo/wire-lookup-one-find-per-query 'len(cmds("find", "t")) == 200'
	qcheck reads-mongo/wire-lookup-filter-eq-email 'all(list(d["filter"]) == ["email"] and list(d["filter"]["email"]) == ["$eq"] and isinstance(d["filter"]["email"]["$eq"], str) and "sort" not in d and "limit" not in d and "projection" not in d for d in cmds("find", "t"))'
	qcheck reads-mongo/wire-lookup-values-of-rows-present '{d["filter"]["email"]["$eq"] for d in cmds("find", "t")} <= {x["email"] for d in cmds("insert", "t") for x in d["documents"]} and len({d["filter"]["email"]["$eq"] for d in cmds("find", "t")}) > 150'
	qcheck reads-mongo/wire-explain-planned-not-run '[(list(d["explain"]), list(d["explain"]["filter"]), d["verbosity"]) for d in cmds("explain")] == [(["find", "filter"], ["email"], "queryPlanner")]'
	# serverStatus's metrics section: asked for on the read step (the
	# samples of the step), never left out there
	qcheck reads-mongo/wire-status-metrics-on-reads 'sum(1 for d in cmds("serverStatus") if "metrics" not in d) >= 2'
	plan=$(field "$T/l0.csv" plan)
	ex=$(field "$T/l0.csv" rows_examined_per_query)
	rr=$(field "$T/l0.csv" rows_returned_per_query)
	served=$(field "$T/l0.csv" index_served)
	rps=$(field "$T/l0.csv" reads_per_s)
	p50=$(field "$T/l0.csv" read_p50_ms)
	echo "  indexes 0: plan '$plan', examined $ex, returned $rr, served '$served', $rps q/s, p50 $p50 ms"
	[ "$plan" = by_email=scan ] && ok reads-mongo/lookup-0-plan-scan || bad reads-mongo/lookup-0-plan-scan "plan '$plan'"
	check reads-mongo/lookup-0-examined-table-size "$ex >= 1900 && $ex <= 2100"
	check reads-mongo/lookup-0-returned-about-1 "$rr >= 0.9 && $rr <= 1.1"
	[ -z "$served" ] && ok reads-mongo/lookup-0-no-index-served || bad reads-mongo/lookup-0-no-index-served "'$served'"
	check reads-mongo/lookup-0-timed "$rps > 0 && $p50 > 0"

	# with the email index: the plan names it, a few keys examined
	: >"$LOG"
	mrun --dsn "$URI" --op lookup --rows 200 --prefill 2000 --indexes 1 >"$T/l1.csv" 2>"$T/err" ||
		bad reads-mongo/lookup-1-run "$(cat "$T/err")"
	plan=$(field "$T/l1.csv" plan)
	ex=$(field "$T/l1.csv" rows_examined_per_query)
	rr=$(field "$T/l1.csv" rows_returned_per_query)
	served=$(field "$T/l1.csv" index_served)
	echo "  indexes 1: plan '$plan', examined $ex, returned $rr, served '$served'"
	[ "$plan" = by_email=idxlab_email ] && ok reads-mongo/lookup-1-plan-names-index ||
		bad reads-mongo/lookup-1-plan-names-index "plan '$plan'"
	check reads-mongo/lookup-1-examined-a-few "$ex >= 1 && $ex <= 4"
	check reads-mongo/lookup-1-returned-about-1 "$rr >= 0.9 && $rr <= 1.1"
	[ "$served" = idxlab_email:1.00 ] && ok reads-mongo/lookup-1-served || bad reads-mongo/lookup-1-served "'$served'"

	# --miss 1: values no row holds, nothing found
	: >"$LOG"
	mrun --dsn "$URI" --op lookup --miss 1 --rows 100 --prefill 1000 --indexes 1 >"$T/miss.csv" 2>"$T/err" ||
		bad reads-mongo/miss-run "$(cat "$T/err")"
	rr=$(field "$T/miss.csv" rows_returned_per_query)
	[ "$rr" = 0.00 ] && ok reads-mongo/miss-returns-nothing || bad reads-mongo/miss-returns-nothing "returned $rr"
	qcheck reads-mongo/wire-miss-values-no-row-holds 'len(cmds("find", "t")) == 100 and all(d["filter"]["email"]["$eq"].startswith("~") for d in cmds("find", "t"))'

	# op range: $gte, sorted up email, limit --range-rows (int64); 150 rows
	# are more than a first batch (101): the rest by getMore
	: >"$LOG"
	mrun --dsn "$URI" --op range --range-rows 150 --rows 60 --prefill 1000 --indexes 6 >"$T/range.csv" 2>"$T/err" ||
		bad reads-mongo/range-run "$(cat "$T/err")"
	qcheck reads-mongo/wire-range-gte-sort-limit 'len(cmds("find", "t")) == 60 and all(list(d["filter"]) == ["email"] and list(d["filter"]["email"]) == ["$gte"] and d["sort"] == {"email": 1} and d["limit"] == {"$numberLong": "150"} for d in cmds("find", "t"))'
	qcheck reads-mongo/wire-range-getmore 'len(cmds("getMore")) >= 30'
	rr=$(field "$T/range.csv" rows_returned_per_query)
	plan=$(field "$T/range.csv" plan)
	served=$(field "$T/range.csv" index_served)
	echo "  range 150: returned $rr, plan '$plan', served '$served'"
	check reads-mongo/range-returns-about-range-rows "$rr >= 120 && $rr <= 150"
	[ "$plan" = range_email=idxlab_email ] && ok reads-mongo/range-plan || bad reads-mongo/range-plan "plan '$plan'"
	[ "$served" = "idxlab_email:1.00 idxlab_created_at:0.00 idxlab_country:0.00 idxlab_status:0.00 idxlab_country_created_at:0.00 idxlab_status_created_at:0.00" ] &&
		ok reads-mongo/range-6-five-unused || bad reads-mongo/range-6-five-unused "'$served'"

	# --mix: finds beside the batches of writes; a commit of reads only
	# sends no batch. Inserts examine nothing, so the rows examined are
	# the finds' (pages n/a: inserts read pages too); with updates (each
	# examines its row by _id) neither is counted.
	: >"$LOG"
	mrun --dsn "$URI" --mix insert:50,lookup:50 --commit 5 --rows 200 --prefill 1000 --indexes 1 \
		>"$T/mix.csv" 2>"$T/err" || bad reads-mongo/mix-run "$(cat "$T/err")"
	qcheck reads-mongo/wire-mix-finds-and-inserts '70 <= len(cmds("find", "t")) <= 130 and len(cmds("find", "t")) + sum(len(d["documents"]) for d in cmds("insert", "t")) == 1200'
	ex=$(field "$T/mix.csv" rows_examined_per_query)
	pg=$(field "$T/mix.csv" pages_read_per_query)
	[ "$(field "$T/mix.csv" plan)" = by_email=idxlab_email ] && check reads-mongo/mix-insert-examined "$ex >= 1 && $ex <= 4" ||
		bad reads-mongo/mix-insert-examined "plan $(field "$T/mix.csv" plan)"
	[ -z "$pg" ] && ok reads-mongo/mix-insert-pages-na || bad reads-mongo/mix-insert-pages-na "pages '$pg'"
	mrun --dsn "$URI" --mix update:50,lookup:50 --commit 5 --rows 100 --prefill 500 --indexes 1 \
		>"$T/mixu.csv" 2>"$T/err" || bad reads-mongo/mix-update-run "$(cat "$T/err")"
	ex=$(field "$T/mixu.csv" rows_examined_per_query)
	rr=$(field "$T/mixu.csv" rows_returned_per_query)
	[ -z "$ex" ] && [ "$rr" = 1.00 ] && ok reads-mongo/mix-update-examined-na || bad reads-mongo/mix-update-examined-na "examined '$ex', returned '$rr'"

	# several write ops in one mix, queued in the same ordered bulks: the
	# wire carries each kind, and with the finds they are the step's
	# operations (the prefill's 1,000 inserts aside)
	: >"$LOG"
	"$IDXLAB" run --engine mongo --warmup off --format csv --dsn "$URI" --commit 5 --rows 200 \
		--prefill 1000 --indexes 1 --mix insert:40,update:20,update-indexed:10,delete:10,lookup:20 \
		>"$T/mixw.csv" 2>"$T/err" || bad reads-mongo/mix-writes-run "$(cat "$T/err")"
	qcheck reads-mongo/wire-mix-several-writes '(lambda i, u, x, f: min(i, u, x, f) > 0 and i + u + x + f == 200)(sum(len(d["documents"]) for d in cmds("insert", "t")) - 1000, sum(len(d["updates"]) for d in cmds("update", "t")), sum(len(d["deletes"]) for d in cmds("delete", "t")), len(cmds("find", "t")))'

	# a write step still leaves serverStatus's metrics section out
	: >"$LOG"
	mrun --dsn "$URI" --rows 20 --indexes 1 >/dev/null 2>"$T/err" || bad reads-mongo/insert-run "$(cat "$T/err")"
	qcheck reads-mongo/wire-status-trimmed-on-writes 'len(cmds("serverStatus")) >= 2 and all(d.get("metrics") == 0 for d in cmds("serverStatus"))'
	unpeer

	# The plan is explain's: one that says COLLSCAN though the index exists
	peer scan explain-scan
	mrun --dsn "$URI" --op lookup --rows 50 --prefill 500 --indexes 1 >"$T/xs.csv" 2>"$T/err" ||
		bad reads-mongo/explain-scan-run "$(cat "$T/err")"
	plan=$(field "$T/xs.csv" plan)
	served=$(field "$T/xs.csv" index_served)
	[ "$plan" = by_email=scan ] && [ "$served" = idxlab_email:0.00 ] &&
		ok reads-mongo/plan-from-explain || bad reads-mongo/plan-from-explain "plan '$plan', served '$served'"
	unpeer

	# serverStatus refused: rows examined and pages read are n/a, not 0
	peer denied status-denied
	mrun --dsn "$URI" --op lookup --rows 50 --prefill 500 --indexes 1 >"$T/den.csv" 2>"$T/err" ||
		bad reads-mongo/status-denied-run "$(cat "$T/err")"
	ex=$(field "$T/den.csv" rows_examined_per_query)
	pg=$(field "$T/den.csv" pages_read_per_query)
	rr=$(field "$T/den.csv" rows_returned_per_query)
	[ -z "$ex" ] && [ -z "$pg" ] && [ "$rr" = 1.00 ] && ok reads-mongo/status-denied-examined-na ||
		bad reads-mongo/status-denied-examined-na "examined '$ex', pages '$pg', returned '$rr'"
	unpeer
fi

if [ -z "${MONGODB_URI:-}" ]; then
	skip reads-mongo/live-server "no MongoDB server (set MONGODB_URI=mongodb://… to run these)"
else
	mrun --op lookup --rows 300 --prefill 20000 --indexes 0,1 >"$T/live.csv" 2>"$T/err" ||
		bad reads-mongo/live-run "$(cat "$T/err")"
	ex0=$(field "$T/live.csv" rows_examined_per_query 1)
	ex1=$(field "$T/live.csv" rows_examined_per_query 2)
	echo "  live: examined $ex0 without the index, $ex1 with it"
	check reads-mongo/live-scan-examines-table "$ex0 >= 19000"
	check reads-mongo/live-index-examines-few "$ex1 <= 4"
	[ "$(field "$T/live.csv" plan 2)" = by_email=idxlab_email ] && ok reads-mongo/live-plan ||
		bad reads-mongo/live-plan "$(field "$T/live.csv" plan 2)"
fi
