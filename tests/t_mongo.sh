# threads
# MongoDB (libmongoc). No MongoDB server can be installed here (none in
# Debian), so the engine is tested against a real wire-protocol peer
# (tests/mongo_peer.py on python3-mockupdb) that records what idxlab SENDS,
# plus the failures (unreachable, silent, error replies, a dropped
# connection, a foreign database). The live-server tests run only when
# MONGODB_URI names a server; otherwise they are counted as skipped.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
# (no warm-up: the wire checks count the step's own commands)
mrun() { "$IDXLAB" run --engine mongo --warmup off "$@"; }
now_ms() { date +%s%3N; }

# --- no server at all: a clear error, fast --------------------------------
t0=$(now_ms)
expect_exit mongo/unreachable 1 "cannot reach MongoDB at 127\.0\.0\.1:1: .*--dsn or MONGODB_URI" \
	mrun --dsn "mongodb://127.0.0.1:1/" --rows 10
took=$(($(now_ms) - t0))
echo "  unreachable URI: failed after $took ms"
check mongo/unreachable-within-5s "$took <= 5000"
expect_exit mongo/bad-uri 2 "not a MongoDB connection string.*mongodb://" \
	mrun --dsn "http://nowhere" --rows 10
expect_exit mongo/no-uri-no-mongod 1 "no MongoDB server to use.*--dsn mongodb://.*MONGODB_URI" \
	env -u MONGODB_URI PATH=/nonexistent "$IDXLAB" run --engine mongo --rows 10

# --- a throwaway mongod when one is on PATH -------------------------------
if command -v mongod >/dev/null 2>&1; then
	if env -u MONGODB_URI "$IDXLAB" run --engine mongo --rows 2000 --indexes 1 --format csv \
		>"$T/tw.csv" 2>"$T/err" && [ "$(field "$T/tw.csv" rows 1)" = 2000 ]; then
		ok mongo/throwaway-mongod
	else bad mongo/throwaway-mongod "$(cat "$T/err")"; fi
	no_leftovers mongo/throwaway-removed
	pgrep -f "$TMPDIR/idxlab-mongo\." >/dev/null && bad mongo/throwaway-no-processes "$(pgrep -af "$TMPDIR/idxlab-mongo")" ||
		ok mongo/throwaway-no-processes
else
	skip mongo/throwaway-mongod "no mongod on PATH (MongoDB is not packaged in Debian): a real throwaway mongod is untested here; its life cycle is tested with a stand-in below"
fi

# --- the wire peer ----------------------------------------------------------
. "$here/mongo_peer.sh"

if [ -z "$PY" ]; then
	skip mongo/wire "python3-mockupdb is not installed (apt-get install python3-mockupdb)"
else
	peer main normal

	# Inserts: batches of the commit size, the write concern of sync, the
	# documents of the workload; the marker before anything else; the
	# indexes with their keys; everything dropped again at the end.
	if mrun --dsn "$URI" --rows 50 --commit 10 --sync off --indexes 2 --format csv \
		>"$T/ins.csv" 2>"$T/err"; then ok mongo/wire-insert-run; else bad mongo/wire-insert-run "$(cat "$T/err")"; fi
	qcheck mongo/wire-insert-batches-of-10 '[len(d["documents"]) for d in cmds("insert", "t")] == [10] * 5'
	qcheck mongo/wire-insert-write-concern-j-false 'all(d["writeConcern"] == {"w": 1, "j": False} and d["ordered"] for d in cmds("insert", "t"))'
	qcheck mongo/wire-insert-ids-int64-in-order '[num(x["_id"]) for d in cmds("insert", "t") for x in d["documents"]] == list(range(1, 51))'
	qcheck mongo/wire-insert-document-fields 'all(list(x) == ["_id", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "hot", "payload"] and x["hot"] == 0 and len(x["payload"]) == 100 and "$numberLong" in x["k8"] for d in cmds("insert", "t") for x in d["documents"])'
	qcheck mongo/wire-create-indexes-keys '[i for d in cmds("createIndexes", "t") for i in d["indexes"]] == [{"key": {"k1": 1}, "name": "k1_1"}, {"key": {"k2": 1}, "name": "k2_1"}]'
	qcheck mongo/wire-marker-first 'names().index("insert") < names().index("create") and cmds("insert")[0] == {"insert": "idxlab_meta", "ordered": True, "$db": "idxlab", "documents": [{"_id": "created_by", "v": "idxlab", "note": "idxlab drops this database when it exits"}]}'
	qcheck mongo/wire-drops-its-own-at-exit '[d["drop"] for d in cmds("drop")][-2:] == ["t", "idxlab_meta"]'
	qcheck mongo/wire-serverstatus-trimmed 'all(d.get("metrics") == 0 and d.get("repl") == 0 and d.get("locks") == 0 and "wiredTiger" not in d for d in cmds("serverStatus"))'
	qcheck mongo/wire-collstats 'cmds("aggregate", "t")[-1]["pipeline"] == [{"$collStats": {"storageStats": {}}}]'
	[ "$(field "$T/ins.csv" rows)" = 50 ] && [ "$(field "$T/ins.csv" commits)" = 5 ] &&
		ok mongo/wire-insert-counts || bad mongo/wire-insert-counts "$(cat "$T/ins.csv")"
	# Figures read from serverStatus/$collStats by key name reach the output.
	ib=$(field "$T/ins.csv" index_bytes)
	ip=$(field "$T/ins.csv" index_pages)
	wal=$(field "$T/ins.csv" wal_bytes_per_row)
	wch=$(field "$T/ins.csv" wchar_per_row)
	echo "  peer figures: index_bytes $ib, index_pages $ip, wal B/row $wal, write() B/row '$wch'"
	[ "$ib" = 5353472 ] && [ "$ip" = "682;625" ] && [ "$wal" = 128.0 ] && [ -z "$wch" ] &&
		ok mongo/wire-figures-by-key-name || bad mongo/wire-figures-by-key-name "index_bytes $ib pages $ip wal $wal wchar '$wch'"

	# One insert per round trip, j:true: the peer counts a journal sync per
	# acknowledged write with j:true, as WiredTiger would.
	: >"$LOG"
	mrun --dsn "$URI" --rows 5 --commit row --sync full --format csv >"$T/row.csv" 2>"$T/err" ||
		bad mongo/wire-commit-row-run "$(cat "$T/err")"
	qcheck mongo/wire-commit-row-one-per-insert '[len(d["documents"]) for d in cmds("insert", "t")] == [1] * 5'
	qcheck mongo/wire-commit-row-j-true 'all(d["writeConcern"] == {"w": 1, "j": True} for d in cmds("insert", "t"))'
	f=$(field "$T/row.csv" fsyncs_per_commit)
	check mongo/wire-fsyncs-per-commit-from-status "$f == 1"

	# commit all: the step is one bulk, one commit at its end (as on the
	# other engines; it was a bulk per step() call); sync extra: w:majority.
	: >"$LOG"
	mrun --dsn "$URI" --rows 3000 --commit all --sync extra --format csv >"$T/all.csv" 2>"$T/err" ||
		bad mongo/wire-commit-all-run "$(cat "$T/err")"
	n=$(q 'len(cmds("insert", "t"))')
	qcheck mongo/wire-commit-all-every-row 'sum(len(d["documents"]) for d in cmds("insert", "t")) == 3000'
	qcheck mongo/wire-majority 'all(d["writeConcern"] == {"w": "majority"} for d in cmds("insert", "t"))'
	[ "$n" = 1 ] && [ "$(field "$T/all.csv" commits)" = 1 ] && ok mongo/wire-commit-all-one-bulk-one-commit ||
		bad mongo/wire-commit-all-one-bulk-one-commit "$n insert commands, $(field "$T/all.csv" commits) commits"
	# A bulk is sent once it holds 100000 operations (mongod's
	# maxWriteBatchSize, where libmongoc splits anyway); still one commit.
	: >"$LOG"
	mrun --dsn "$URI" --rows 100001 --commit all --payload 0 --format csv >"$T/big.csv" 2>"$T/err" ||
		bad mongo/wire-commit-all-big-run "$(cat "$T/err")"
	qcheck mongo/wire-commit-all-sent-at-100000 '[len(d["documents"]) for d in cmds("insert", "t")] == [100000, 1]'
	[ "$(field "$T/big.csv" commits)" = 1 ] && [ "$(field "$T/big.csv" rows)" = 100001 ] &&
		ok mongo/wire-commit-all-big-one-commit || bad mongo/wire-commit-all-big-one-commit "$(cat "$T/big.csv")"
	# ... or once one more row would take it past 48 MB (maxMessageSizeBytes,
	# where libmongoc splits too): 150 rows of 1 MiB are 4 sends, and idxlab
	# holds one send's worth, not the whole step (about 170 MB).
	: >"$LOG"
	rss=$("$PY" -c 'import resource, subprocess, sys
subprocess.call(sys.argv[2:], stdout=open(sys.argv[1], "w"), stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$T/wide.csv" "$IDXLAB" run --engine mongo --warmup off \
		--dsn "$URI" --rows 150 --commit all --payload 1048576 --format csv)
	qcheck mongo/wire-commit-all-sent-at-48mb '[len(d["documents"]) for d in cmds("insert", "t")] == [45, 45, 45, 15]'
	[ "$(field "$T/wide.csv" commits)" = 1 ] && ok mongo/wire-commit-all-wide-one-commit ||
		bad mongo/wire-commit-all-wide-one-commit "$(cat "$T/wide.csv")"
	echo "  150 rows of 1 MiB in one commit: idxlab's peak RSS $rss KiB"
	if [ -n "${IDXLAB_SANITIZED:-}" ]; then
		skip mongo/wire-commit-all-wide-memory "a sanitizer's shadow memory inflates the RSS"
	else check mongo/wire-commit-all-wide-memory "${rss:-999999} < 120000"; fi

	# update = $inc of hot by _id, every row once per pass, batches of 5.
	: >"$LOG"
	mrun --dsn "$URI" --op update --rows 20 --prefill 20 --commit 5 --sync normal --format csv \
		>"$T/upd.csv" 2>"$T/err" || bad mongo/wire-update-run "$(cat "$T/err")"
	qcheck mongo/wire-update-inc-hot-by-id 'all(u["u"] == {"$inc": {"hot": 1}} and list(u["q"]) == ["_id"] for d in cmds("update", "t") for u in d["updates"])'
	qcheck mongo/wire-update-batches-of-5-j-true '[(len(d["updates"]), d["writeConcern"]) for d in cmds("update", "t")] == [(5, {"w": 1, "j": True})] * 4'
	qcheck mongo/wire-update-each-row-once 'sorted(num(u["q"]["_id"]) for d in cmds("update", "t") for u in d["updates"]) == list(range(1, 21))'
	qcheck mongo/wire-prefill-j-false 'sum(len(d["documents"]) for d in cmds("insert", "t")) == 20 and all(d["writeConcern"] == {"w": 1, "j": False} for d in cmds("insert", "t"))'

	# update-indexed = $set of k1; delete by _id.
	: >"$LOG"
	mrun --dsn "$URI" --op update-indexed --indexes 1 --rows 10 --prefill 10 --commit 10 \
		--format csv >/dev/null 2>"$T/err" || bad mongo/wire-update-indexed-run "$(cat "$T/err")"
	qcheck mongo/wire-update-indexed-set-k1 'all(list(u["u"]) == ["$set"] and list(u["u"]["$set"]) == ["k1"] and "$numberLong" in u["u"]["$set"]["k1"] for d in cmds("update", "t") for u in d["updates"]) and len(cmds("update", "t")) == 1'
	# update-keys = $set of k1..k8.
	: >"$LOG"
	mrun --dsn "$URI" --op update-keys --indexes 5 --rows 10 --prefill 10 --commit 10 \
		--format csv >/dev/null 2>"$T/err" || bad mongo/wire-update-keys-run "$(cat "$T/err")"
	qcheck mongo/wire-update-keys-set-k1-k8 'all(list(u["u"]) == ["$set"] and list(u["u"]["$set"]) == ["k%d" % i for i in range(1, 9)] for d in cmds("update", "t") for u in d["updates"]) and sum(len(d["updates"]) for d in cmds("update", "t")) == 10'
	: >"$LOG"
	mrun --dsn "$URI" --op delete --rows 10 --prefill 10 --commit 10 --format csv >"$T/del.csv" 2>"$T/err" ||
		bad mongo/wire-delete-run "$(cat "$T/err")"
	qcheck mongo/wire-delete-by-id 'sorted(num(x["q"]["_id"]) for d in cmds("delete", "t") for x in d["deletes"]) == list(range(1, 11)) and all(x["limit"] == 1 for d in cmds("delete", "t") for x in d["deletes"])'

	# uuid ids and keys: BSON binary subtype 4 (uuid4 / uuid7 version nibbles).
	: >"$LOG"
	mrun --dsn "$URI" --pk uuid4 --key-order uuid7 --rows 3 --commit row --format csv >/dev/null 2>"$T/err" ||
		bad mongo/wire-uuid-run "$(cat "$T/err")"
	qcheck mongo/wire-uuid-binary-subtype-4 'all(x["_id"]["subtype"] == 4 and len(x["_id"]["$binary"]) == 32 and x["_id"]["$binary"][12] == "4" and x["k1"]["subtype"] == 4 and x["k1"]["$binary"][12] == "7" for d in cmds("insert", "t") for x in d["documents"])'

	# cache = setParameter wiredTigerEngineRuntimeConfig, set back at exit.
	: >"$LOG"
	mrun --dsn "$URI" --cache 64MiB --rows 10 --format csv >/dev/null 2>"$T/err" ||
		bad mongo/wire-cache-run "$(cat "$T/err")"
	qcheck mongo/wire-cache-set-and-restored '[d["wiredTigerEngineRuntimeConfig"] for d in cmds("setParameter")] == ["cache_size=67108864", "cache_size=268435456"]'
	grep -q "WiredTiger cache_size set to 64MiB (was 256MiB; set back when idxlab exits)" "$T/err" &&
		ok mongo/wire-cache-logged || bad mongo/wire-cache-logged "$(cat "$T/err")"
	unpeer

	# A server that will not let us change the cache: shown read-only, runs.
	peer ro cache-denied
	expect_exit mongo/wire-cache-read-only 0 "cache is read-only on this server.*stays 256MiB" \
		mrun --dsn "$URI" --cache 64MiB --rows 10
	unpeer

	# No serverStatus for this user, or one without a wiredTiger section (a
	# mongos): the figures are n/a (empty), never 0; the cache is left alone
	# (idxlab could not set it back).
	peer denied status-denied
	if mrun --dsn "$URI" --cache 64MiB --rows 20 --commit 10 --format csv >"$T/den.csv" 2>"$T/err" &&
		grep -q "statistics are n/a: serverStatus is not allowed" "$T/err" &&
		[ -z "$(field "$T/den.csv" spills_per_row)$(field "$T/den.csv" fsyncs_per_commit)$(field "$T/den.csv" wal_bytes_per_row)" ] &&
		[ "$(field "$T/den.csv" rows)" = 20 ]; then
		ok mongo/wire-status-denied-n/a
	else bad mongo/wire-status-denied-n/a "$(cat "$T/err" "$T/den.csv")"; fi
	qcheck mongo/wire-status-denied-cache-untouched '"setParameter" not in names()'
	unpeer
	STATUS=serverstatus-nowt.json peer nowt normal
	if mrun --dsn "$URI" --rows 20 --commit 10 --format csv >"$T/nowt.csv" 2>"$T/err" &&
		[ -z "$(field "$T/nowt.csv" spills_per_row)$(field "$T/nowt.csv" misses_per_row)$(field "$T/nowt.csv" fsyncs_per_commit)$(field "$T/nowt.csv" wal_bytes_per_row)$(field "$T/nowt.csv" checkpoint_in_window)" ] &&
		[ "$(field "$T/nowt.csv" rows)" = 20 ]; then
		ok mongo/wire-no-wiredtiger-section-n/a
	else bad mongo/wire-no-wiredtiger-section-n/a "$(cat "$T/err" "$T/nowt.csv")"; fi
	unpeer

	# Failures: an error reply, a write error, a dropped connection.
	peer err error-at 3
	expect_exit mongo/wire-error-reply-exit-1 1 "insert of a batch of 10: the server's disk is full: Scripted failure" \
		mrun --dsn "$URI" --rows 100 --commit 10
	unpeer
	peer werr write-error-at 2
	expect_exit mongo/wire-write-error-exit-1 1 "E11000 duplicate key.*idxlab\.t holds documents idxlab did not write" \
		mrun --dsn "$URI" --rows 100 --commit 10
	unpeer
	peer hup hangup-at 3
	expect_exit mongo/wire-dropped-connection-exit-1 1 "lost the connection to MongoDB at 127\.0\.0\.1:$PORT: .*stopped or restarted" \
		mrun --dsn "$URI" --rows 100 --commit 10
	unpeer

	# The server stops answering mid-run (the peer stopped: the kernel still
	# takes the connection, nothing replies): one signal ends idxlab within
	# the bound (2 s; 5 s allowed here), with the partial result and why.
	# inserts LOG N: N inserts into collection t are in LOG.
	inserts() { [ "$(grep -c '"cmd": "insert", "db": "idxlab", "doc": {"insert": "t"' "$1")" -ge "$2" ]; }
	# statuses LOG: the serverStatus commands in LOG; past LOG N: more than N
	# (a sample taken since: the partial result has rows to report).
	statuses() { grep -c '"cmd": "serverStatus"' "$1"; }
	past() { [ "$(statuses "$1")" -gt "$2" ]; }
	for sig in TERM INT; do
		peer stall normal
		"$IDXLAB" run --engine mongo --warmup off --dsn "$URI" --rows 100000000 --commit 100 --format csv \
			>"$T/st.csv" 2>"$T/st.err" &
		pid=$!
		poll 60 inserts "$LOG" 10 # well into the run
		poll 60 past "$LOG" "$(statuses "$LOG")" # and sampled since
		kill -STOP "$PEER"
		sleep 0.3
		t0=$(now_ms)
		kill -$sig $pid
		i=0
		while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
		took=$(($(now_ms) - t0))
		if kill -0 $pid 2>/dev/null; then
			kill -9 $pid
			rc=killed
		else
			wait $pid
			rc=$?
		fi
		wait $pid 2>/dev/null
		# (SIGKILL: a SIGTERM right after SIGCONT may reach a thread of the
		# peer other than the one whose handler exits)
		kill -9 "$PEER"
		unpeer
		[ $sig = TERM ] && code=143 || code=130
		echo "  SIG$sig with the server silent: exit $rc after $took ms"
		if [ "$rc" = $code ] && [ $took -lt 5000 ] && [ "$(field "$T/st.csv" interrupted 1)" = 1 ] &&
			[ "$(field "$T/st.csv" rows 1)" -gt 0 ] &&
			grep -q "did not answer within 1.0 s of the stop" "$T/st.err"; then
			ok mongo/wire-silent-sig$sig-ends
		else bad mongo/wire-silent-sig$sig-ends "exit $rc after $took ms; stdout: $(tr '\n' '|' <"$T/st.csv"); stderr: $(tail -5 "$T/st.err" | tr '\n' '|')"; fi
	done

	# A database idxlab that is not ours: refused, nothing sent that writes.
	peer foreign foreign
	expect_exit mongo/wire-foreign-refused 2 "database idxlab that idxlab did not create.*untouched" \
		mrun --dsn "$URI" --rows 10
	qcheck mongo/wire-foreign-untouched 'set(names()) <= {"ping", "serverStatus", "listCollections", "find", "endSessions"}'
	unpeer
	peer marked foreign-marked
	expect_exit mongo/wire-foreign-collection-refused 2 "holds collections idxlab did not create \(people\)" \
		mrun --dsn "$URI" --rows 10
	qcheck mongo/wire-foreign-collection-untouched 'set(names()) <= {"ping", "serverStatus", "listCollections", "find", "endSessions"}'
	unpeer

	# A server that accepts and never answers: the connect timeout (3 s).
	peer silent silent
	t0=$(now_ms)
	expect_exit mongo/silent-server 1 "cannot reach MongoDB.*timeout" mrun --dsn "$URI" --rows 10
	took=$(($(now_ms) - t0))
	echo "  silent server: gave up after $took ms"
	check mongo/silent-server-within-5s "$took <= 5000"
	unpeer

	# The throwaway-server life cycle, with a stand-in mongod on PATH (this
	# peer on the --port idxlab gives it): started, used, killed and removed
	# on every exit path; a mongod that dies or will not start is named.
	mkdir -p "$T/fakebin"
	cat >"$T/fakebin/mongod" <<FAKE
#!/bin/sh
# a stand-in mongod for idxlab's throwaway-server code
port= logp= dbpath=
while [ \$# -gt 0 ]; do
	case \$1 in
	--port) port=\$2; shift ;;
	--logpath) logp=\$2; shift ;;
	--dbpath) dbpath=\$2; shift ;;
	esac
	shift
done
if [ -n "\${FAKE_MONGOD_FAIL:-}" ]; then
	echo "ERROR: scripted start failure" >"\$logp"
	exit 48
fi
echo "stand-in mongod on port \$port" >"\$logp"
awk '/^SigIgn/ { print \$2 }' /proc/\$\$/status >"$T/fake.sigign"
exec "$PY" "$here/mongo_peer.py" --port "\$port" --port-file "\$dbpath/port" --log "$T/fake.log" \
	--status "$fx/serverstatus-full.json" --collstats "$fx/collstats-t.json"
FAKE
	chmod 755 "$T/fakebin/mongod"
	fake() { env -u MONGODB_URI PATH="$T/fakebin:$PATH" "$IDXLAB" run --engine mongo "$@"; }
	# In the background, $! must be idxlab itself (env execs it), not a
	# subshell: a background sh ignores SIGINT. Row counts are bounded so a
	# failed kill cannot leave a run going for long.
	fake_bg() { env -u MONGODB_URI PATH="$T/fakebin:$PATH" "$IDXLAB" run --engine mongo "$@" & }
	gone() { ! pgrep -f "$TMPDIR/idxlab-mongo\." >/dev/null; }
	if fake --rows 100 --commit 10 --format csv >"$T/fk.csv" 2>"$T/err" &&
		[ "$(field "$T/fk.csv" rows)" = 100 ] &&
		grep -q "connected to throwaway mongod 6.0.19 in $TMPDIR/idxlab-mongo\." "$T/err"; then
		ok mongo/throwaway-stand-in-runs
	else bad mongo/throwaway-stand-in-runs "$(cat "$T/err")"; fi
	no_leftovers mongo/throwaway-stand-in-removed
	# Started as pg_cluster's programs are (spawn.h): no signal ignored
	# because idxlab ignores it (SIGPIPE, bit 13).
	sigign=$(cat "$T/fake.sigign" 2>/dev/null)
	[ -n "$sigign" ] && [ $((0x$sigign & 0x1000)) -eq 0 ] && ok mongo/throwaway-signals-default ||
		bad mongo/throwaway-signals-default "the stand-in mongod ignores signals $sigign"
	gone && ok mongo/throwaway-stand-in-stopped || bad mongo/throwaway-stand-in-stopped "$(pgrep -af "$TMPDIR/idxlab-mongo")"
	expect_exit mongo/throwaway-start-failure 1 "throwaway mongod \(.*/fakebin/mongod\) exited while starting; its log ends: ERROR: scripted start failure" \
		env -u MONGODB_URI FAKE_MONGOD_FAIL=1 PATH="$T/fakebin:$PATH" "$IDXLAB" run --engine mongo --rows 10
	no_leftovers mongo/throwaway-start-failure-removed
	# Killed under idxlab: exit 1, named, removed.
	: >"$T/fake.log"
	fake_bg --rows 300000 --commit row --format csv >/dev/null 2>"$T/k.err"
	pid=$!
	poll 60 inserts "$T/fake.log" 3 # the run under way
	srv=$(pgrep -f "$TMPDIR/idxlab-mongo\..*/port" | head -1)
	if [ -n "$srv" ]; then kill -9 "$srv"; else kill -TERM $pid; fi
	wait $pid
	rc=$?
	[ $rc -eq 1 ] && grep -q "the throwaway mongod died.*its log ends: stand-in mongod on port" "$T/k.err" &&
		ok mongo/throwaway-killed-exit-1 || bad mongo/throwaway-killed-exit-1 "exit $rc: $(cat "$T/k.err")"
	no_leftovers mongo/throwaway-killed-removed
	# Ctrl-C: exit 130, nothing left behind.
	: >"$T/fake.log"
	fake_bg --rows 3000000 --commit 100 --format csv >/dev/null 2>"$T/i.err"
	pid=$!
	poll 60 inserts "$T/fake.log" 3
	kill -INT $pid
	poll 60 not_alive $pid
	kill -0 $pid 2>/dev/null && kill -TERM $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] && ok mongo/throwaway-sigint-130 || bad mongo/throwaway-sigint-130 "exit $rc: $(cat "$T/i.err")"
	gone && ok mongo/throwaway-sigint-stopped || bad mongo/throwaway-sigint-stopped "$(pgrep -af "$TMPDIR/idxlab-mongo")"
	no_leftovers mongo/throwaway-sigint-removed
	# kill -9 of idxlab: the server dies with it (PR_SET_PDEATHSIG); its
	# directory stays behind, and the next start removes it.
	: >"$T/fake.log"
	fake_bg --rows 3000000 --commit 100 --format csv >/dev/null 2>&1
	pid=$!
	poll 60 inserts "$T/fake.log" 3
	kill -9 $pid
	wait $pid 2>/dev/null
	poll 30 gone # (the server's death signal takes a moment)
	gone && ok mongo/throwaway-dies-with-idxlab || bad mongo/throwaway-dies-with-idxlab "$(pgrep -af "$TMPDIR/idxlab-mongo")"
	left=$(ls -d "$TMPDIR"/idxlab-mongo.* 2>/dev/null | head -1)
	[ -n "$left" ] && [ "$(cut -d" " -f1 "$left/owner.pid")" = $pid ] && [ -s "$left/mongod.pid" ] &&
		ok mongo/throwaway-killed-dir-left || bad mongo/throwaway-killed-dir-left "$(ls -A "$TMPDIR" "$left")"
	# running PID: alive and not a zombie (the stand-ins below are our children)
	running() { st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) && [ -n "$st" ] && [ "$st" != Z ]; }
	# A leftover whose mongod outlived its idxlab (a copy of sleep named
	# mongod, run from the dir): killed. One whose recorded pid runs a mongod
	# elsewhere (the pid was reused): not killed, the dir still removed.
	mkdir -p "$TMPDIR/idxlab-mongo.outliv" "$T/elsewhere"
	cp "$(command -v sleep)" "$TMPDIR/idxlab-mongo.outliv/mongod"
	cp "$(command -v sleep)" "$T/elsewhere/mongod"
	"$TMPDIR/idxlab-mongo.outliv/mongod" 120 &
	outlived=$!
	"$T/elsewhere/mongod" 120 &
	other=$!
	sh -c 'echo $$' >"$TMPDIR/idxlab-mongo.outliv/owner.pid"
	echo $outlived >"$TMPDIR/idxlab-mongo.outliv/mongod.pid"
	mkdir "$TMPDIR/idxlab-mongo.reused"
	sh -c 'echo $$' >"$TMPDIR/idxlab-mongo.reused/owner.pid"
	echo $other >"$TMPDIR/idxlab-mongo.reused/mongod.pid"
	fake --rows 100 --commit 10 --format csv >/dev/null 2>"$T/sw.err" || bad mongo/sweep-run "$(cat "$T/sw.err")"
	[ -n "$left" ] && [ ! -e "$left" ] && grep -q "removed the leftovers of a killed idxlab: $left\$" "$T/sw.err" &&
		ok mongo/throwaway-leftover-removed || bad mongo/throwaway-leftover-removed "$(ls -A "$TMPDIR"); $(cat "$T/sw.err")"
	poll 30 not_alive $outlived
	! running $outlived && [ ! -e "$TMPDIR/idxlab-mongo.outliv" ] &&
		grep -q "killed mongod (pid $outlived), left running by a killed idxlab" "$T/sw.err" &&
		ok mongo/leftover-mongod-killed || bad mongo/leftover-mongod-killed "$(ls -A "$TMPDIR"); $(cat "$T/sw.err")"
	running $other && [ ! -e "$TMPDIR/idxlab-mongo.reused" ] && ok mongo/leftover-reused-pid-spared ||
		bad mongo/leftover-reused-pid-spared "$(ls -A "$TMPDIR"); $(cat "$T/sw.err")"
	kill -9 $outlived $other 2>/dev/null
	wait $outlived $other 2>/dev/null
	no_leftovers mongo/throwaway-sweep-leaves-nothing

	# The dashboard: live index builds and drops go to the server.
	if command -v tmux >/dev/null; then
		peer dash normal
		start mdash "$IDXLAB" --engine mongo --dsn "$URI" --commit 100
		if wait_for mdash '││rows/s +[0-9]' 15; then ok mongo/dashboard-live; else bad mongo/dashboard-live "$(cap mdash)"; fi
		tm send-keys -t mdash Right
		if wait_for mdash 'built k1_1 on' 10; then ok mongo/dashboard-index-build; else bad mongo/dashboard-index-build "$(cap mdash)"; fi
		tm send-keys -t mdash Left
		if wait_for mdash 'dropped k1_1' 10; then ok mongo/dashboard-index-drop; else bad mongo/dashboard-index-drop "$(cap mdash)"; fi
		tm send-keys -t mdash q
		code=$(wait_exit mdash)
		[ "$code" = EXIT=0 ] && ok mongo/dashboard-quits || bad mongo/dashboard-quits "got '$code'"
		qcheck mongo/dashboard-live-index-commands '[d.get("indexes", d.get("index")) for d in cmds("createIndexes", "t") + cmds("dropIndexes", "t")] == [[{"key": {"k1": 1}, "name": "k1_1"}], "k1_1"]'
		unpeer
	else
		skip mongo/dashboard "tmux is not installed"
	fi
fi

# --- a real server: only with MONGODB_URI -----------------------------------
if [ -z "${MONGODB_URI:-}" ]; then
	skip mongo/live-server "no MongoDB server (set MONGODB_URI=mongodb://… to run these)"
else
	# fsyncs per commit: j:true waits for a journal sync per commit, j:false not.
	mrun --commit row --sync full,off --rows 500 --format csv >"$T/lfs.csv" 2>"$T/err" ||
		bad mongo/live-fsync-run "$(cat "$T/err")"
	fon=$(field "$T/lfs.csv" fsyncs_per_commit 1)
	foff=$(field "$T/lfs.csv" fsyncs_per_commit 2)
	echo "  live fsyncs/commit: j:true $fon, j:false $foff"
	check mongo/live-fsync-j-true-1-per-commit "$fon >= 0.8 && $fon <= 1.2"
	check mongo/live-fsync-j-false-about-0 "$foff < 0.1"
	# Random keys in a small cache: dirty evictions per row far above sequential.
	mrun --key-order seq,rand --indexes 3 --cache 8MiB --rows 200000 --commit 1000 --sync off \
		--format csv >"$T/lsp.csv" 2>"$T/err" || bad mongo/live-spill-run "$(cat "$T/err")"
	sseq=$(field "$T/lsp.csv" spills_per_row 1)
	srand=$(field "$T/lsp.csv" spills_per_row 2)
	echo "  live spills/row: seq $sseq, rand $srand"
	check mongo/live-spills-rand-10x-seq "$srand >= 10 * $sseq && $srand > 0"
	# A database idxlab that is not ours: refused and left alone (needs pymongo).
	if [ -n "$PY" ] && "$PY" -c 'import pymongo' 2>/dev/null; then
		mongo_py() { "$PY" -c "import pymongo, sys; c = pymongo.MongoClient(sys.argv[1], serverSelectionTimeoutMS=3000); $1" "$MONGODB_URI"; }
		[ "$(mongo_py 'print("idxlab" in c.list_database_names())')" = False ] && ok mongo/live-cleans-up ||
			bad mongo/live-cleans-up "database idxlab is still there"
		mongo_py 'c.idxlab.t.insert_one({"_id": 42, "mine": True})'
		expect_exit mongo/live-foreign-refused 2 "database idxlab that idxlab did not create" mrun --rows 10
		[ "$(mongo_py 'print(c.idxlab.t.find_one({"_id": 42})["mine"])')" = True ] && ok mongo/live-foreign-untouched ||
			bad mongo/live-foreign-untouched "the foreign document is gone"
		mongo_py 'c.idxlab.t.drop()'
	else
		skip mongo/live-foreign "pymongo is not installed"
	fi
fi
