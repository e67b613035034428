#!/usr/bin/python3
"""mongo_peer.py - a scripted MongoDB wire-protocol peer for tests/t_mongo.sh.

A real wire-protocol server (Debian's python3-mockupdb: OP_QUERY handshake,
OP_MSG with document sequences) that answers the commands idxlab sends the
way a standalone mongod 7.0 would, and RECORDS every command it receives as
one JSON line (BSON types kept: int64 as {"$numberLong": "..."}, binary as
{"$binary": hex, "subtype": n}) so the test can assert what idxlab SENT.

It keeps just enough state to be consistent: the collections of database
idxlab and the idxlab_meta marker. serverStatus replies with a fixture whose
journal counters move like a real server's would per write command - one
"log sync operations" per acknowledged write with j:true, 128 "log bytes
written" per document - so the test can see the counters reach the output;
these are the peer's numbers, not MongoDB's. It leaves out the top-level
sections a serverStatus command sets to 0, as mongod does.

For the reads (tests/t_reads_mongo.sh), with --keep-docs, it keeps the
documents inserted into idxlab.t (without their payload; updates and
deletes are not applied) and the indexes created on it, and answers find (the filter's $eq/$lt/$lte/$gt/
$gte, sort, limit, batchSize; getMore for the rest), and explain of a find
with a plan of its own choosing: an IXSCAN of the index whose first field
is the filter's first field (IDHACK for _id), else a COLLSCAN. Each find
moves serverStatus metrics.queryExecutor as that plan would: a COLLSCAN
examines every document (scannedObjects), an IXSCAN the keys in its range
(scanned) and the documents it fetches (scannedObjects), a limit with a
sort on that field stopping it early. Again the peer's numbers.

  mongo_peer.py --port-file F --log L --status FIXTURE [--collstats FIXTURE]
                [--scenario NAME] [--at N] [--port P] [--keep-docs]

Scenarios:
  normal          everything succeeds
  foreign         database idxlab already holds t (and data), no marker
  foreign-marked  the marker is there, plus a collection "people"
  error-at        the N-th write command (insert/update/delete) fails: ok 0
  write-error-at  the N-th write command has a writeErrors entry (E11000)
  hangup-at       the peer drops the connection on the N-th write command
  cache-denied    setParameter is refused (Unauthorized), like Atlas
  status-denied   serverStatus is refused (Unauthorized): a user without
                  clusterMonitor
  explain-scan    explain answers a COLLSCAN whatever the indexes (finds are
                  still answered by the peer's own plan)
  silent          accept connections and never answer (no mockupdb at all)
"""
import argparse
import copy
import datetime
import json
import os
import signal
import socket
import threading
import time
import uuid

ap = argparse.ArgumentParser()
ap.add_argument("--port-file", required=True)
ap.add_argument("--log", required=True)
ap.add_argument("--status")
ap.add_argument("--collstats")
ap.add_argument("--scenario", default="normal")
ap.add_argument("--at", type=int, default=3)
ap.add_argument("--port", type=int, default=0, help="0: any free port")
ap.add_argument("--keep-docs", action="store_true", help="keep idxlab.t's documents for finds")
args = ap.parse_args()

signal.signal(signal.SIGTERM, lambda *a: os._exit(0))


def publish_port(port):
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, args.port_file)


if args.scenario == "silent":
    s = socket.socket()
    s.bind(("127.0.0.1", args.port))
    s.listen(16)
    publish_port(s.getsockname()[1])
    held = []
    while True:
        c, _ = s.accept()
        held.append(c)  # never answer, never close

import bson  # noqa: E402  (pymongo's, installed with mockupdb)
from bson import json_util  # noqa: E402
from bson.int64 import Int64  # noqa: E402
from bson.binary import Binary  # noqa: E402
from mockupdb import MockupDB  # noqa: E402

lock = threading.Lock()
logf = open(args.log, "a")


def plain(v):
    """BSON value -> JSON value that keeps the BSON type visible."""
    if isinstance(v, bool):
        return v
    if isinstance(v, Int64):
        return {"$numberLong": str(int(v))}
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"$double": v}
    if isinstance(v, uuid.UUID):
        return {"$binary": v.bytes.hex(), "subtype": 4}
    if isinstance(v, Binary):
        return {"$binary": bytes(v).hex(), "subtype": v.subtype}
    if isinstance(v, (bytes, bytearray)):
        return {"$binary": bytes(v).hex(), "subtype": 0}
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, datetime.datetime):
        return {"$date": v.isoformat()}
    if v is None or isinstance(v, str):
        return v
    return {"$other": repr(v)}


def record(name, req):
    doc = dict(req.doc)
    for k in ("lsid", "$clusterTime", "client", "$readPreference"):
        doc.pop(k, None)
    line = {"cmd": name, "db": req.namespace, "doc": plain(doc)}
    with lock:
        logf.write(json.dumps(line) + "\n")
        logf.flush()


def load(path):
    with open(path) as f:
        return json_util.loads(f.read())


status = load(args.status) if args.status else {"ok": 1}
collstats = load(args.collstats) if args.collstats else None
state = {"colls": set(), "meta": [], "writes": 0, "indexes": {}, "docs": [],
         "cursors": {}, "next_cursor": 1000}
status.setdefault("metrics", {}).setdefault(
    "queryExecutor", {"scanned": Int64(0), "scannedObjects": Int64(0)})
if args.scenario == "foreign":
    state["colls"].add("t")
elif args.scenario == "foreign-marked":
    state["colls"].update(["people", "idxlab_meta"])
    state["meta"].append({"_id": "created_by", "v": "idxlab"})

HELLO = {
    "ismaster": True,
    "isWritablePrimary": True,
    "helloOk": True,
    "topologyVersion": {"processId": bson.ObjectId(), "counter": Int64(0)},
    "maxBsonObjectSize": 16 * 1024 * 1024,
    "maxMessageSizeBytes": 48000000,
    "maxWriteBatchSize": 100000,
    "localTime": datetime.datetime.utcnow(),
    "logicalSessionTimeoutMinutes": 30,
    "connectionId": 7,
    "minWireVersion": 0,
    "maxWireVersion": 17,
    "readOnly": False,
    "ok": 1.0,
}


def cursor(ns, docs):
    return {"cursor": {"id": Int64(0), "ns": ns, "firstBatch": docs}, "ok": 1}


def bump(path, by):
    """Move a counter of the serverStatus fixture, where it exists."""
    d = status
    for k in path[:-1]:
        d = d.get(k)
        if not isinstance(d, dict):
            return
    if path[-1] in d:
        d[path[-1]] = Int64(int(d[path[-1]]) + by)


CMP = {"$eq": lambda a, b: a == b, "$lt": lambda a, b: a < b,
       "$lte": lambda a, b: a <= b, "$gt": lambda a, b: a > b,
       "$gte": lambda a, b: a >= b}


def matches(doc, field, terms):
    if field not in doc:
        return False
    try:
        return all(CMP[op](doc[field], v) for op, v in terms.items())
    except TypeError:
        return False


def plan_of(filt, sort):
    """(stage, index name, its first field): the peer's plan for a find."""
    first = next(iter(filt), None) or next(iter(sort or {}), None)
    if first == "_id" and first in filt:
        return "IDHACK", "_id_", "_id"
    for name, fields in state["indexes"].items():
        if first is not None and fields[0] == first:
            return "IXSCAN", name, first
    return "COLLSCAN", None, None


def run_find(doc):
    """The documents a find returns, the serverStatus counters moved."""
    filt = doc.get("filter") or {}
    sort = doc.get("sort") or {}
    limit = int(doc.get("limit") or 0)
    docs = [d for d in state["docs"] if all(matches(d, f, t) for f, t in filt.items())]
    for f, way in reversed(list(sort.items())):
        docs.sort(key=lambda d: d.get(f), reverse=way < 0)
    stage, _, field = plan_of(filt, sort)
    if stage == "COLLSCAN":
        keys, objs = 0, len(state["docs"])
    else:
        inrange = [d for d in state["docs"] if field not in filt or
                   matches(d, field, filt[field])]
        keys = len(inrange)
        if limit and list(sort) == [field] and len(filt) <= 1:
            keys = min(keys, limit)
        objs = keys
    with lock:
        bump(["metrics", "queryExecutor", "scanned"], keys)
        bump(["metrics", "queryExecutor", "scannedObjects"], objs)
    return docs[:limit] if limit else docs


def explain(req, doc):
    inner = doc["explain"]
    filt = inner.get("filter") or {}
    stage, name, field = plan_of(filt, inner.get("sort"))
    if args.scenario == "explain-scan":
        stage = "COLLSCAN"
    if stage == "IXSCAN":
        plan = {"stage": "FETCH", "inputStage": {"stage": "IXSCAN", "keyPattern": {field: 1},
                                                 "indexName": name, "direction": "forward"}}
    elif stage == "IDHACK":
        plan = {"stage": "IDHACK"}
    else:
        plan = {"stage": "COLLSCAN", "filter": filt, "direction": "forward"}
        if inner.get("sort"):
            plan = {"stage": "SORT", "sortPattern": inner["sort"], "inputStage": plan}
    if inner.get("limit"):
        plan = {"stage": "LIMIT", "limitAmount": inner["limit"], "inputStage": plan}
    return req.replies({"explainVersion": "1",
                        "queryPlanner": {"namespace": req.namespace + "." + inner["find"],
                                         "winningPlan": plan, "rejectedPlans": []},
                        "command": inner, "ok": 1})


def batch_reply(ns, docs, size, first):
    """A cursor's batch of size (0: 101 in a first batch, all in a getMore)."""
    size = size or (101 if first else len(docs))
    cid = 0
    if len(docs) > size:
        cid = state["next_cursor"]
        state["next_cursor"] += 1
        state["cursors"][cid] = (ns, docs[size:])
    key = "firstBatch" if first else "nextBatch"
    return {"cursor": {"id": Int64(cid), "ns": ns, key: docs[:size]}, "ok": 1}


def write(req, name, items):
    """insert/update/delete: scripted failures, counters, the reply."""
    state["writes"] += 1
    nth = state["writes"]
    if args.scenario == "hangup-at" and nth == args.at:
        return req.hangup()
    if args.scenario == "error-at" and nth == args.at:
        return req.replies(ok=0, code=14031, codeName="OutOfDiskSpace",
                           errmsg="Scripted failure: out of disk space")
    n = len(items)
    if args.scenario == "write-error-at" and nth == args.at:
        return req.replies(ok=1, n=0, writeErrors=[{
            "index": 0, "code": 11000,
            "errmsg": "E11000 duplicate key error collection: idxlab.t index: _id_"}])
    with lock:
        wc = req.doc.get("writeConcern") or {}
        if wc.get("j") is True or wc.get("w") == "majority":
            bump(["wiredTiger", "log", "log sync operations"], 1)
            bump(["wiredTiger", "connection", "total fsync I/Os"], 1)
        bump(["wiredTiger", "log", "log bytes written"], 128 * n)
        bump(["opcounters", name], n)
    if name == "insert":
        return req.replies(n=n)
    return req.replies(n=n, nModified=n if name == "update" else 0)


def handle(req):
    name = (req.command_name or "").lower()
    if name in ("ismaster", "hello"):
        return req.replies(HELLO)
    record(req.command_name, req)
    db = req.namespace
    doc = req.doc
    if name in ("ping", "endsessions", "fsync", "compact"):
        return req.replies(ok=1)
    if name == "buildinfo":
        return req.replies(version=status.get("version", "7.0.14"), ok=1)
    if name == "serverstatus":
        if args.scenario == "status-denied":
            return req.replies(ok=0, code=13, codeName="Unauthorized",
                               errmsg="not authorized on admin to execute command "
                                      "{ serverStatus: 1 }")
        with lock:
            reply = copy.deepcopy(status)
        for k, v in doc.items():
            if v == 0 and k in reply and isinstance(reply[k], dict):
                del reply[k]
        return req.replies(reply)
    if name == "setparameter":
        if args.scenario == "cache-denied":
            return req.replies(ok=0, code=13, codeName="Unauthorized",
                               errmsg="not authorized on admin to execute command")
        return req.replies({"was": "", "ok": 1})
    if name == "listcollections":
        docs = [{"name": c, "type": "collection", "options": {},
                 "info": {"readOnly": False}} for c in sorted(state["colls"])]
        return req.replies(cursor(db + ".$cmd.listCollections", docs))
    if name == "find":
        coll = doc["find"]
        if coll == "idxlab_meta":
            return req.replies(cursor(db + "." + coll, state["meta"]))
        return req.replies(batch_reply(db + "." + coll, run_find(doc),
                                       int(doc.get("batchSize") or 0), True))
    if name == "getmore":
        ns, rest = state["cursors"].pop(int(doc["getMore"]), (None, None))
        if ns is None:
            return req.replies(ok=0, code=43, codeName="CursorNotFound",
                               errmsg="cursor id %d not found" % int(doc["getMore"]))
        return req.replies(batch_reply(ns, rest, int(doc.get("batchSize") or 0), False))
    if name == "killcursors":
        for c in doc.get("cursors", []):
            state["cursors"].pop(int(c), None)
        return req.replies(cursorsKilled=doc.get("cursors", []), ok=1)
    if name == "explain":
        return explain(req, doc)
    if name == "insert":
        coll = doc["insert"]
        items = doc.get("documents", [])
        if coll == "idxlab_meta":
            state["meta"].extend(items)
            state["colls"].add(coll)
            return req.replies(n=len(items))
        if coll == "t" and args.keep_docs:
            state["docs"].extend({k: v for k, v in d.items() if k != "payload"}
                                 for d in items)
        return write(req, "insert", items)
    if name == "update":
        return write(req, "update", doc.get("updates", []))
    if name == "delete":
        return write(req, "delete", doc.get("deletes", []))
    if name == "create":
        if doc["create"] in state["colls"]:
            return req.replies(ok=0, code=48, codeName="NamespaceExists",
                               errmsg="Collection idxlab.%s already exists." % doc["create"])
        state["colls"].add(doc["create"])
        return req.replies(ok=1)
    if name == "drop":
        if doc["drop"] not in state["colls"]:
            return req.replies(ok=0, code=26, codeName="NamespaceNotFound",
                               errmsg="ns not found")
        state["colls"].discard(doc["drop"])
        if doc["drop"] == "t":
            state["docs"] = []
            state["indexes"] = {}
        return req.replies(nIndexesWas=1, ns=db + "." + doc["drop"], ok=1)
    if name == "createindexes":
        for i in doc["indexes"]:
            state["indexes"][i["name"]] = list(i["key"])
        return req.replies(numIndexesBefore=1, numIndexesAfter=1 + len(doc["indexes"]),
                           createdCollectionAutomatically=False, ok=1)
    if name == "dropindexes":
        names = doc["index"] if isinstance(doc["index"], list) else [doc["index"]]
        for n in (list(state["indexes"]) if names == ["*"] else names):
            state["indexes"].pop(n, None)
        return req.replies(nIndexesWas=2, ok=1)
    if name == "aggregate":
        docs = [collstats] if collstats is not None else []
        return req.replies(cursor(db + "." + doc["aggregate"], docs))
    return req.replies(ok=0, code=59, codeName="CommandNotFound",
                       errmsg="no such command: '%s'" % req.command_name)


server = MockupDB(port=args.port, request_timeout=3600)
server.autoresponds(handle)
port = server.run()
publish_port(port)
while True:
    time.sleep(3600)
