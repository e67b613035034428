# MongoDB builds every table spec (--schema), checked on what idxlab SENDS
# (tests/mongo_peer.py records every command; no MongoDB server exists
# here): the documents hold the spec's fields by name in its order and in
# the BSON types of its column types (int32, int64, UTF-8 text of its
# length, binary subtype 4 uuids, a BSON date in milliseconds for a
# timestamp), _id is the id, the hot field is named as the spec says;
# createIndexes names each index as the spec does, its key in the spec's
# column order, unique where it says, in list order (the users sweep
# 0,1,3,6), drops in reverse; update-indexed / update-keys $set the spec's
# columns; index sizes are read by the spec's names; a few/zipf column's
# distinct count; spec files of our own (zipf, a uuid id, a text(36) uuid7
# column, a column named _id refused). --load copy is one unordered
# insert_many per transaction that writes exactly the documents of
# --load insert; multirow is refused with why. The live-server part runs
# only when MONGODB_URI names a server (skipped loudly otherwise).
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
. "$here/mongo_peer.sh"
mrun() { "$IDXLAB" run --engine mongo --warmup off --format csv "$@"; }

if [ -z "$PY" ]; then
	skip schema-mongo/wire "python3-mockupdb is not installed (apt-get install python3-mockupdb)"
else
	# index sizes by the spec's names (the peer's $collStats fixture)
	cat >"$T/collstats-users.json" <<'JSON'
{ "storageStats": { "totalSize": 9000, "indexSizes": { "_id_": 100, "idxlab_email": 4096,
  "idxlab_created_at": 8192, "idxlab_country": 409600 } } }
JSON
	COLLSTATS=$T/collstats-users.json peer main normal
	# m NAME ARGS...: a run against the peer, its log emptied first
	m() {
		name=$1
		shift
		: >"$LOG"
		if mrun --dsn "$URI" "$@" >"$T/out.csv" 2>"$T/err"; then ok "$name"; else bad "$name" "$(tail -3 "$T/err")"; fi
	}

	# --- every built-in spec runs every op --------------------------------
	for sc in users textkey wal fields wide16 events; do
		fails=""
		for op in insert update update-indexed update-keys delete; do
			pre=0
			[ $op = insert ] || pre=20
			: >"$LOG"
			if ! mrun --dsn "$URI" --schema $sc --op $op --indexes 1 --rows 20 --prefill $pre \
				--commit 10 >"$T/o.csv" 2>"$T/err" || [ "$(field "$T/o.csv" rows)" != 20 ]; then
				fails="$fails $op: $(tail -1 "$T/err")"
			fi
		done
		[ -z "$fails" ] && ok schema-mongo/$sc-every-op || bad schema-mongo/$sc-every-op "$fails"
	done

	# --- users: fields, types, indexes -------------------------------------
	m schema-mongo/users-run --schema users --indexes 6 --rows 300 --commit 100
	docs='[x for d in cmds("insert", "t") for x in d["documents"]]'
	qcheck schema-mongo/users-field-names "all(list(x) == ['_id', 'email', 'created_at', 'country', 'status', 'hot', 'payload'] for x in $docs) and len($docs) == 300"
	qcheck schema-mongo/users-types "all('\$numberLong' in x['_id'] and isinstance(x['email'], str) and len(x['email']) == 26 and '\$date' in x['created_at'] and isinstance(x['country'], str) and len(x['country']) == 2 and isinstance(x['status'], str) and len(x['status']) == 6 and x['hot'] == 0 for x in $docs) and len($docs) > 0"
	# created_at seq: 2026-01-01 plus one millisecond a row, as a BSON date
	qcheck schema-mongo/users-timestamp-ms "[x['created_at']['\$date'] for x in $docs][:3] == ['2026-01-01T00:00:00', '2026-01-01T00:00:00.001000', '2026-01-01T00:00:00.002000']"
	qcheck schema-mongo/users-country-few-50 "len({x['country'] for x in $docs}) <= 50 and len({x['country'] for x in $docs}) >= 30"
	qcheck schema-mongo/users-status-few-4 "len({x['status'] for x in $docs}) == 4"
	qcheck schema-mongo/users-create-indexes "[(list(i['key'].items()), i['name'], i.get('unique')) for d in cmds('createIndexes', 't') for i in d['indexes']] == [([('email', 1)], 'idxlab_email', None), ([('created_at', 1)], 'idxlab_created_at', None), ([('country', 1)], 'idxlab_country', None), ([('status', 1)], 'idxlab_status', None), ([('country', 1), ('created_at', 1)], 'idxlab_country_created_at', None), ([('status', 1), ('created_at', 1)], 'idxlab_status_created_at', None)]"
	qcheck schema-mongo/users-one-create-indexes 'len(cmds("createIndexes", "t")) == 1'
	# index_bytes: the spec's index names in $collStats (3 of the fixture's)
	m schema-mongo/users-sizes-run --schema users --indexes 3 --rows 10
	ib=$(field "$T/out.csv" index_bytes)
	[ "$ib" = 421888 ] && ok schema-mongo/users-index-sizes-by-name || bad schema-mongo/users-index-sizes-by-name "index_bytes $ib, want 421888"

	# the sweep 0,1,3,6: each step builds the first N of the list
	m schema-mongo/users-sweep-run --schema users --indexes 0,1,3,6 --rows 20
	qcheck schema-mongo/users-sweep-first-n "[[i['name'] for i in d['indexes']] for d in cmds('createIndexes', 't')] == [['idxlab_email'], ['idxlab_email', 'idxlab_created_at', 'idxlab_country'], ['idxlab_email', 'idxlab_created_at', 'idxlab_country', 'idxlab_status', 'idxlab_country_created_at', 'idxlab_status_created_at']]"
	[ "$(awk -F, 'NR > 1' "$T/out.csv" | wc -l)" = 4 ] && ok schema-mongo/users-sweep-4-steps || bad schema-mongo/users-sweep-4-steps "$(cat "$T/out.csv")"

	# update-indexed: $set of email (the first index's column); update-keys all four
	m schema-mongo/users-update-indexed-run --schema users --op update-indexed --indexes 1 --rows 10 --prefill 10 --commit 10
	qcheck schema-mongo/users-update-indexed-set-email "all(list(u['u']) == ['\$set'] and list(u['u']['\$set']) == ['email'] and len(u['u']['\$set']['email']) == 26 for d in cmds('update', 't') for u in d['updates']) and len(cmds('update', 't')) > 0"
	m schema-mongo/users-update-keys-run --schema users --op update-keys --indexes 2 --rows 10 --prefill 10 --commit 10
	qcheck schema-mongo/users-update-keys-set-all "all(list(u['u']['\$set']) == ['email', 'created_at', 'country', 'status'] and '\$date' in u['u']['\$set']['created_at'] and isinstance(u['u']['\$set']['status'], str) for d in cmds('update', 't') for u in d['updates']) and sum(len(d['updates']) for d in cmds('update', 't')) == 10"

	# --- fields (finding 3's table): hot named counter ---------------------
	m schema-mongo/fields-run --schema fields --indexes 5 --rows 20 --commit 10
	qcheck schema-mongo/fields-documents "all(list(x) == ['_id', 'field1', 'field2', 'field3', 'field4', 'field5', 'counter', 'payload'] and all('\$numberLong' in x['field%d' % i] for i in range(1, 6)) and x['counter'] == 0 for x in $docs) and len($docs) > 0"
	qcheck schema-mongo/fields-indexes "[(list(i['key']), i['name']) for d in cmds('createIndexes', 't') for i in d['indexes']] == [(['field%d' % i], 'idxlab_field%d' % i) for i in range(1, 6)]"
	m schema-mongo/fields-update-run --schema fields --op update --indexes 5 --rows 10 --prefill 10 --commit 10
	qcheck schema-mongo/fields-update-inc-counter "all(u['u'] == {'\$inc': {'counter': 1}} for d in cmds('update', 't') for u in d['updates']) and len(cmds('update', 't')) == 1"
	# update-indexed writes field1 only, at 1 index and at 5: one index's worth
	for n in 1 5; do
		m schema-mongo/fields-update-indexed-$n-run --schema fields --op update-indexed --indexes $n --rows 10 --prefill 10 --commit 10
		qcheck schema-mongo/fields-update-indexed-$n-set-field1 "all(list(u['u']['\$set']) == ['field1'] and '\$numberLong' in u['u']['\$set']['field1'] for d in cmds('update', 't') for u in d['updates']) and sum(len(d['updates']) for d in cmds('update', 't')) == 10"
	done
	m schema-mongo/fields-update-keys-run --schema fields --op update-keys --indexes 5 --rows 10 --prefill 10 --commit 10
	qcheck schema-mongo/fields-update-keys-set-5 "all(list(u['u']['\$set']) == ['field%d' % i for i in range(1, 6)] for d in cmds('update', 't') for u in d['updates']) and len(cmds('update', 't')) > 0"
	# wal: int32 columns, hot_col; a live index change drops in reverse
	m schema-mongo/wal-run --schema wal --indexes 2 --rows 10
	qcheck schema-mongo/wal-int32-hot-col "all(type(x['k1']) is int and type(x['k8']) is int and 0 <= x['k1'] < 1000000 and x['hot_col'] == 0 and 'hot' not in x for x in $docs) and len($docs) > 0"
	m schema-mongo/wal-update-run --schema wal --op update --indexes 2 --rows 10 --prefill 10 --commit 10
	qcheck schema-mongo/wal-update-inc-hot-col "all(u['u'] == {'\$inc': {'hot_col': 1}} for d in cmds('update', 't') for u in d['updates']) and len(cmds('update', 't')) > 0"

	# --- events: a unique uuid index, the id per --pk -------------------------
	m schema-mongo/events-run --schema events --indexes 1 --rows 10
	qcheck schema-mongo/events-unique-index "[i for d in cmds('createIndexes', 't') for i in d['indexes']] == [{'key': {'uid': 1}, 'name': 'idxlab_uid', 'unique': True}]"
	qcheck schema-mongo/events-uid-uuid4 "all(x['uid']['subtype'] == 4 and len(x['uid']['\$binary']) == 32 and x['uid']['\$binary'][12] == '4' and '\$numberLong' in x['_id'] for x in $docs) and len($docs) > 0"
	m schema-mongo/events-uuid7-run --schema events --pk uuid7 --indexes 1 --rows 10
	qcheck schema-mongo/events-id-uuid7 "all(x['_id']['subtype'] == 4 and x['_id']['\$binary'][12] == '7' for x in $docs) and len($docs) > 0"
	m schema-mongo/events-update-indexed-run --schema events --pk uuid7 --op update-indexed --indexes 1 --rows 10 --prefill 10 --commit 10
	qcheck schema-mongo/events-update-indexed-set-uid "all(list(u['u']['\$set']) == ['uid'] and u['u']['\$set']['uid']['subtype'] == 4 and u['q']['_id']['subtype'] == 4 for d in cmds('update', 't') for u in d['updates']) and len(cmds('update', 't')) > 0"

	# --- spec files of our own --------------------------------------------------
	cat >"$T/mine.spec" <<'SPEC'
id uuid uuid4
column hotkey int zipf:1.1:20
column tag text(36) uuid7
column at timestamp rand
index hotkey,tag name idxlab_hk_tag
index tag unique
SPEC
	m schema-mongo/own-spec-run --schema "$T/mine.spec" --indexes 2 --rows 400 --commit 100
	qcheck schema-mongo/own-uuid-id "all(x['_id']['subtype'] == 4 and x['_id']['\$binary'][12] == '4' for x in $docs) and len({x['_id']['\$binary'] for x in $docs}) == 400 and len($docs) > 0"
	qcheck schema-mongo/own-zipf-distinct "len({x['hotkey'] for x in $docs}) <= 20 and len({x['hotkey'] for x in $docs}) >= 5 and max([x['hotkey'] for x in $docs].count(v) for v in {x['hotkey'] for x in $docs}) >= 400 // 10"
	qcheck schema-mongo/own-text36-uuid7 "all(isinstance(x['tag'], str) and len(x['tag']) == 36 and x['tag'][8] == '-' and x['tag'][14] == '7' for x in $docs) and len($docs) > 0"
	qcheck schema-mongo/own-timestamp-date "all('\$date' in x['at'] for x in $docs) and len($docs) > 0"
	qcheck schema-mongo/own-indexes "[i for d in cmds('createIndexes', 't') for i in d['indexes']] == [{'key': {'hotkey': 1, 'tag': 1}, 'name': 'idxlab_hk_tag'}, {'key': {'tag': 1}, 'name': 'idxlab_tag', 'unique': True}]"
	printf 'id bigint seq\ncolumn _id int rand\n' >"$T/clash.spec"
	expect_exit schema-mongo/own-column-_id-refused 2 "a column named _id - MongoDB's _id is the spec's id; rename the column" \
		mrun --dsn "$URI" --schema "$T/clash.spec" --rows 10

	# --- --load copy: insert_many, unordered; the same documents ------------
	# cmdsof OP: the insert commands on t less "ordered"; and the documents
	for sc in default users; do
		m schema-mongo/load-insert-$sc-run --schema $sc --indexes 2 --rows 25 --prefill 5 --commit 10
		cp "$LOG" "$T/ins-$sc.log"
		m schema-mongo/load-copy-$sc-run --schema $sc --load copy --indexes 2 --rows 25 --prefill 5 --commit 10
		[ "$(field "$T/out.csv" rows)" = 25 ] && [ "$(field "$T/out.csv" commits)" = 3 ] &&
			ok schema-mongo/load-copy-$sc-counts || bad schema-mongo/load-copy-$sc-counts "$(cat "$T/out.csv")"
		qcheck schema-mongo/load-copy-$sc-unordered "[(d['ordered'], len(d['documents'])) for d in cmds('insert', 't')] == [(True, 5), (False, 10), (False, 10), (False, 5)]"
		# the same commands but for ordered (the prefill is ordered in both)
		qcheck schema-mongo/load-copy-$sc-same-documents "(lambda a, b: a == b and len(a) == 4)([{k: v for k, v in d.items() if k != 'ordered'} for d in cmds('insert', 't')], [{k: v for k, v in d.items() if k != 'ordered'} for d in (json.loads(l)['doc'] for l in open('$T/ins-$sc.log')) if d.get('insert') == 't'])"
	done
	m schema-mongo/load-copy-all-run --load copy --rows 3000 --commit all
	qcheck schema-mongo/load-copy-all-one-insert-many "[(d['ordered'], len(d['documents'])) for d in cmds('insert', 't')] == [(False, 3000)]"
	[ "$(field "$T/out.csv" commits)" = 1 ] && ok schema-mongo/load-copy-all-one-commit || bad schema-mongo/load-copy-all-one-commit "$(cat "$T/out.csv")"
	# the sends' bounds hold for insert_many too (mongod's maxWriteBatchSize)
	m schema-mongo/load-copy-big-run --load copy --rows 100001 --commit all --payload 0
	qcheck schema-mongo/load-copy-sent-at-100000 "[len(d['documents']) for d in cmds('insert', 't')] == [100000, 1]"
	expect_exit schema-mongo/load-multirow-refused 2 "--load multirow: the mongo engine has no such path: --load insert already sends the rows of a commit as one insert command" \
		mrun --dsn "$URI" --load multirow --rows 10
	unpeer
	# a failed insert_many fails the step, named
	peer err error-at 2
	expect_exit schema-mongo/load-copy-error-named 1 "insert_many of 10 documents: the server's disk is full" \
		mrun --dsn "$URI" --load copy --rows 100 --commit 10
	unpeer
	peer werr write-error-at 2
	expect_exit schema-mongo/load-copy-write-error 1 "insert_many of 10 documents.*E11000 duplicate key" \
		mrun --dsn "$URI" --load copy --rows 100 --commit 10
	unpeer

	# --- the dashboard: the slider builds and drops the spec's indexes ------
	if ! command -v tmux >/dev/null; then
		skip schema-mongo/dash "tmux is not installed (apt-get install tmux)"
	else
		peer dash normal
		start msdash "$IDXLAB" --engine mongo --dsn "$URI" --schema users --commit 100
		wait_for msdash '││rows/s +[0-9]' 15
		i=0
		while [ $i -lt 20 ] && ! cap msdash | grep -q '│>indexes'; do
			sel=$(selected msdash)
			tm send-keys -t msdash Down
			poll 10 moved msdash "$sel" # (one Down at a time: a slow screen must not be overrun)
			i=$((i + 1))
		done
		tm send-keys -t msdash Right
		wait_for msdash 'built idxlab_email on' 10 && ok schema-mongo/dash-builds-first || bad schema-mongo/dash-builds-first "$(cap msdash)"
		tm send-keys -t msdash Right
		wait_for msdash 'built idxlab_created_at on' 10 && ok schema-mongo/dash-builds-second || bad schema-mongo/dash-builds-second "$(cap msdash)"
		tm send-keys -t msdash Left
		wait_for msdash 'dropped idxlab_created_at' 10 && ok schema-mongo/dash-drops-last || bad schema-mongo/dash-drops-last "$(cap msdash)"
		tm send-keys -t msdash q
		code=$(wait_exit msdash)
		[ "$code" = EXIT=0 ] && ok schema-mongo/dash-q-exits-0 || bad schema-mongo/dash-q-exits-0 "got '$code'"
		qcheck schema-mongo/dash-index-commands "[d.get('indexes', d.get('index')) for d in cmds('createIndexes', 't') + cmds('dropIndexes', 't')] == [[{'key': {'email': 1}, 'name': 'idxlab_email'}], [{'key': {'created_at': 1}, 'name': 'idxlab_created_at'}], 'idxlab_created_at']"
		unpeer
	fi
fi

# --- a real server: only with MONGODB_URI -----------------------------------
if [ -z "${MONGODB_URI:-}" ]; then
	skip schema-mongo/live-server "no MongoDB server (set MONGODB_URI=mongodb://… to run these)"
else
	lrun() { "$IDXLAB" run --engine mongo --warmup off --format csv "$@"; }
	fails=""
	for sc in users textkey wal fields wide16 events; do
		for op in insert update update-indexed update-keys delete; do
			pre=0
			[ $op = insert ] || pre=500
			lrun --schema $sc --op $op --indexes 1 --rows 500 --prefill $pre --commit 100 >"$T/l.csv" 2>"$T/err" &&
				[ "$(field "$T/l.csv" rows)" = 500 ] || fails="$fails $sc/$op: $(tail -1 "$T/err")"
		done
	done
	[ -z "$fails" ] && ok schema-mongo/live-every-spec-every-op || bad schema-mongo/live-every-spec-every-op "$fails"
	# the server's own catalog while a run holds the collection (needs pymongo)
	if [ -n "$PY" ] && "$PY" -c 'import pymongo' 2>/dev/null; then
		"$IDXLAB" run --engine mongo --schema users --indexes 6 --rows 50000000 --commit 1000 --sync off \
			--format csv >/dev/null 2>"$T/lc.err" &
		pid=$!
		"$PY" - "$MONGODB_URI" >"$T/lc.out" 2>&1 <<'PYEOF'
import sys, time, datetime, pymongo
c = pymongo.MongoClient(sys.argv[1], serverSelectionTimeoutMS=3000)
t = c.idxlab.t
for _ in range(200):
    if "idxlab_status_created_at" in t.index_information() and t.find_one():
        break
    time.sleep(0.1)
ix = t.index_information()
want = [("idxlab_email", [("email", 1)]), ("idxlab_created_at", [("created_at", 1)]),
        ("idxlab_country", [("country", 1)]), ("idxlab_status", [("status", 1)]),
        ("idxlab_country_created_at", [("country", 1), ("created_at", 1)]),
        ("idxlab_status_created_at", [("status", 1), ("created_at", 1)])]
ok_ix = all(n in ix and [(k, int(v)) for k, v in ix[n]["key"]] == key for n, key in want)
d = t.find_one({"_id": 2})
ok_doc = (d is not None and list(d) == ["_id", "email", "created_at", "country", "status", "hot", "payload"]
          and isinstance(d["created_at"], datetime.datetime) and isinstance(d["status"], int))
print("indexes", ok_ix, "doc", ok_doc)
PYEOF
		kill -INT $pid
		wait $pid
		grep -q "indexes True doc True" "$T/lc.out" && ok schema-mongo/live-catalog-users ||
			bad schema-mongo/live-catalog-users "$(cat "$T/lc.out")"
	else
		skip schema-mongo/live-catalog "pymongo is not installed"
	fi
	# copy writes what insert writes, at a rate of the same order (insert_many
	# is the same insert command, unordered)
	lrun --schema users --indexes 3 --load insert,copy --rows 20000 --commit 1000 --sync off >"$T/lcp.csv" 2>"$T/err" ||
		bad schema-mongo/live-copy-run "$(cat "$T/err")"
	ri=$(field "$T/lcp.csv" rows_per_s 1) rc=$(field "$T/lcp.csv" rows_per_s 2)
	echo "  live users rows/s: insert $ri, copy $rc"
	[ "$(field "$T/lcp.csv" rows 1)" = 20000 ] && [ "$(field "$T/lcp.csv" rows 2)" = 20000 ] &&
		ok schema-mongo/live-copy-rows || bad schema-mongo/live-copy-rows "$(cat "$T/lcp.csv")"
	check schema-mongo/live-copy-same-order "$rc >= 0.5 * $ri && $rc <= 2 * $ri"
	# finding 3 on fields: insert pays for its 5 indexes, the counter update does not
	lrun --schema fields --indexes 0,5 --op insert,update --rows 100000 --prefill 100000 --commit 1000 --sync off \
		--cache 1GiB --payload 0 >"$T/lf.csv" 2>"$T/err" || bad schema-mongo/live-fields-run "$(cat "$T/err")"
	i0=$(field "$T/lf.csv" rows_per_s 1) i5=$(field "$T/lf.csv" rows_per_s 3)
	u0=$(field "$T/lf.csv" rows_per_s 2) u5=$(field "$T/lf.csv" rows_per_s 4)
	echo "  live fields rows/s: insert 0/5 $i0 $i5; counter update 0/5 $u0 $u5"
	check schema-mongo/live-fields-insert-pays "$i5 < 0.9 * $i0"
	check schema-mongo/live-fields-counter-free "$u5 >= 0.6 * $u0"
fi
