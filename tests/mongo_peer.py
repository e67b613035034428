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
these are the peer's numbers, not MongoDB's.

  mongo_peer.py --port-file F --log L --status FIXTURE [--collstats FIXTURE]
                [--scenario NAME] [--at N] [--port P]

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
state = {"colls": set(), "meta": [], "writes": 0, "indexes": {}}
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
            return req.replies(copy.deepcopy(status))
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
        docs = state["meta"] if coll == "idxlab_meta" else []
        return req.replies(cursor(db + "." + coll, docs))
    if name == "insert":
        coll = doc["insert"]
        items = doc.get("documents", [])
        if coll == "idxlab_meta":
            state["meta"].extend(items)
            state["colls"].add(coll)
            return req.replies(n=len(items))
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
        return req.replies(nIndexesWas=1, ns=db + "." + doc["drop"], ok=1)
    if name == "createindexes":
        return req.replies(numIndexesBefore=1, numIndexesAfter=1 + len(doc["indexes"]),
                           createdCollectionAutomatically=False, ok=1)
    if name == "dropindexes":
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
