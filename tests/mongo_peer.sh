# mongo_peer.sh - the wire peer's helpers for the MongoDB tests, sourced
# after lib.sh by t_mongo.sh and t_schema_mongo.sh (needs $here, $fx, $T).
# PY is a python3 with mockupdb, or empty: the caller skips loudly.
PY=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import mockupdb' 2>/dev/null; then
		PY=$p
		break
	fi
done

# peer NAME SCENARIO [N]: start a peer (serverStatus from fixture $STATUS,
# default serverstatus-full.json; $collStats from the file $COLLSTATS,
# default collstats-t.json; more options in $PEER_ARGS, e.g. --keep-docs);
# sets PORT, PEER and LOG.
peer() {
	rm -f "$T/$1.port"
	LOG=$T/$1.log
	: >"$LOG"
	"$PY" "$here/mongo_peer.py" --port-file "$T/$1.port" --log "$LOG" --scenario "$2" \
		--at "${3:-3}" ${PEER_ARGS:-} --status "$fx/${STATUS:-serverstatus-full.json}" --collstats "${COLLSTATS:-$fx/collstats-t.json}" \
		2>"$T/$1.peer.err" &
	PEER=$!
	poll 30 test -s "$T/$1.port"
	PORT=$(cat "$T/$1.port" 2>/dev/null)
	URI="mongodb://127.0.0.1:$PORT/"
}
unpeer() { kill "$PEER" 2>/dev/null; wait "$PEER" 2>/dev/null; }
# q EXPR: evaluate a python expression over the recorded commands of $LOG.
# cmds(name, coll) lists the documents of one command (on one collection).
q() {
	"$PY" - "$LOG" "$1" <<'EOF'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def cmds(name, coll=None):
    return [r["doc"] for r in L if r["cmd"] == name and (coll is None or r["doc"].get(name) == coll)]
def names():
    return [r["cmd"] for r in L]
def num(v):
    return int(v["$numberLong"]) if isinstance(v, dict) and "$numberLong" in v else v
print(eval(sys.argv[2]))
EOF
}
# qcheck NAME EXPR: the python expression is True.
qcheck() {
	got=$(q "$2" 2>&1)
	if [ "$got" = True ]; then ok "$1"; else bad "$1" "not true: $2 (got $got)"; fi
}

