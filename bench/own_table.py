#!/usr/bin/env python3
"""bench/own_table.py - does idxlab's copy of a user's table cost what the
table costs? (issue 19: "the end-to-end agreement on at least three
real-shaped tables").

For each fixture, a real-shaped SQLite table is made in a temp dir: its real
DDL, its own indexes, SRC rows from a generator in the real data's pattern
(growing foreign keys with repeats, random ids, timestamps, NULLs, decimals).
Then the cost of one more index (the candidate) is measured twice:

  real  the source file copied, the candidate created (or not) on the copy,
        ROWS more rows appended by the same generator, continuing the pattern
        (growing keys keep growing), through the SQLite library itself
        (ctypes, no idxlab): write() bytes from /proc/self/io wchar and cache
        spills from sqlite3_db_status(SQLITE_DBSTATUS_CACHE_SPILL) around the
        appends, in one transaction under idxlab's defaults (cache 2000 KiB
        unless --cache says, journal=delete, synchronous=full);
  copy  `idxlab run --schema-from SRC:TABLE` with the candidate added
        (--add-index, or the index made on a second source when idxlab has
        no --add-index yet), the table's own indexes then all of them,
        ROWS rows, prefill = the source's rows, one transaction.

Per fixture it prints, per side, write() B/row and spills/row with the table's
own indexes and with the candidate, and what the candidate adds; the verdict
is on the candidate's cost: within 25 % (or within 5 B/row and 0.01
spills/row, where the cost is nearly nothing on both sides).

  python3 bench/own_table.py [--rows N] [--src N] [--cache KIB] [--keep DIR]
  python3 bench/own_table.py --engine postgres [--rows N] [--src N] [--dsn CONNINFO]

--engine postgres asks the same on PostgreSQL tables (own_table_pg.py: WAL
and write() B/row, a throwaway server of the bench's own).

Needs IDXLAB (the binary) in the environment. Exit 0 unless a run failed: a
benchmark reports, it does not judge the build.
"""
import argparse
import ctypes
import ctypes.util
import csv
import io
import os
import random
import shutil
import subprocess
import sys
import tempfile

SQLITE_DBSTATUS_CACHE_SPILL = 12
lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
lib.sqlite3_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
lib.sqlite3_exec.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p,
                             ctypes.c_void_p, ctypes.c_void_p]
lib.sqlite3_prepare_v2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.sqlite3_bind_int64.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64]
lib.sqlite3_bind_double.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double]
lib.sqlite3_bind_text.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p,
                                  ctypes.c_int, ctypes.c_void_p]
lib.sqlite3_bind_null.argtypes = [ctypes.c_void_p, ctypes.c_int]
lib.sqlite3_step.argtypes = [ctypes.c_void_p]
lib.sqlite3_reset.argtypes = [ctypes.c_void_p]
lib.sqlite3_finalize.argtypes = [ctypes.c_void_p]
lib.sqlite3_close.argtypes = [ctypes.c_void_p]
lib.sqlite3_errmsg.argtypes = [ctypes.c_void_p]
lib.sqlite3_errmsg.restype = ctypes.c_char_p
lib.sqlite3_db_status.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                  ctypes.POINTER(ctypes.c_int), ctypes.c_int]
SQLITE_TRANSIENT = ctypes.c_void_p(-1)


class Db:
    def __init__(self, path):
        self.h = ctypes.c_void_p()
        if lib.sqlite3_open(path.encode(), ctypes.byref(self.h)) != 0:
            raise RuntimeError(f"{path}: cannot open")

    def exec(self, sql):
        if lib.sqlite3_exec(self.h, sql.encode(), None, None, None) != 0:
            raise RuntimeError(f"{sql[:60]}: {lib.sqlite3_errmsg(self.h).decode()}")

    def spills(self):
        cur, hi = ctypes.c_int(), ctypes.c_int()
        lib.sqlite3_db_status(self.h, SQLITE_DBSTATUS_CACHE_SPILL, ctypes.byref(cur),
                              ctypes.byref(hi), 1)
        return cur.value

    def insert(self, sql, rows):
        st = ctypes.c_void_p()
        if lib.sqlite3_prepare_v2(self.h, sql.encode(), -1, ctypes.byref(st), None) != 0:
            raise RuntimeError(f"{sql}: {lib.sqlite3_errmsg(self.h).decode()}")
        for row in rows:
            for i, v in enumerate(row, 1):
                if v is None:
                    lib.sqlite3_bind_null(st, i)
                elif isinstance(v, int):
                    lib.sqlite3_bind_int64(st, i, v)
                elif isinstance(v, float):
                    lib.sqlite3_bind_double(st, i, v)
                else:
                    b = v.encode()
                    lib.sqlite3_bind_text(st, i, b, len(b), SQLITE_TRANSIENT)
            if lib.sqlite3_step(st) != 101:  # SQLITE_DONE
                err = lib.sqlite3_errmsg(self.h).decode()
                lib.sqlite3_finalize(st)
                raise RuntimeError(f"{sql}: {err}")
            lib.sqlite3_reset(st)
        lib.sqlite3_finalize(st)

    def close(self):
        lib.sqlite3_close(self.h)


def wchar():
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("wchar:"):
                return int(line.split()[1])
    return 0


# ---- the fixtures: real DDL, a generator in the real data's pattern ---------
# gen(rng, i) gives row i (0-based over the source's rows, then the appended
# ones): growing keys keep growing past the source's last row.

def invoice_lines(rng, i):
    # ~5.4 lines per invoice (1..10), invoices in order; tracks at random
    inv = 1 + (i * 10) // 54
    return (inv, rng.randint(1, 3503), rng.choice((0.99, 1.99)), 1)


def users(rng, i):
    name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(5, 12)))
    email = f"{name}.{rng.randint(0, 99999)}@{rng.choice(('gmail.com', 'example.org', 'mail.net'))}"
    created = 1704067200 + i * 37 + rng.randint(0, 36)  # seconds, growing
    country = rng.choice(("US", "US", "US", "DE", "FR", "BR", "IN", "GB", "JP", "CA"))
    bio = None if rng.random() < 0.3 else "x" * rng.randint(10, 60)
    return (email, name.title(), country, created, bio)


def events(rng, i):
    customer = int(rng.paretovariate(1.2)) % 5000 + 1  # a few hot customers
    status = None if rng.random() < 0.3 else rng.choice(("new", "paid", "shipped", "done"))
    late = rng.random() < 0.02
    created = 1704067200000 + (i - (rng.randint(1, 500) if late else 0)) * 1000
    return (customer, status, round(rng.uniform(1, 500), 2), created)


def orders(rng, i):
    ref = "%08x-%04x-4%03x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16),
                                          rng.getrandbits(12), rng.getrandbits(16),
                                          rng.getrandbits(48))
    return (ref, rng.randint(1, 20000), 1704067200 + i * 11)


FIXTURES = [
    {
        "name": "invoice_lines",
        "ddl": "CREATE TABLE invoice_lines (line_id INTEGER PRIMARY KEY, "
               "invoice_id INTEGER NOT NULL, track_id INTEGER NOT NULL, "
               "unit_price NUMERIC(10,2) NOT NULL, quantity INTEGER NOT NULL);"
               "CREATE INDEX ifk_invoice ON invoice_lines(invoice_id);",
        "insert": "INSERT INTO invoice_lines(invoice_id, track_id, unit_price, quantity) "
                  "VALUES (?,?,?,?)",
        "gen": invoice_lines,
        "candidate": ("track_id", "ifk_track"),
    },
    {
        "name": "users",
        "ddl": "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, "
               "email TEXT NOT NULL UNIQUE, name TEXT, country TEXT, created_at INTEGER, "
               "bio TEXT);",
        "insert": "INSERT INTO users(email, name, country, created_at, bio) VALUES (?,?,?,?,?)",
        "gen": users,
        "candidate": ("created_at", "users_created"),
    },
    {
        "name": "events",
        "ddl": "CREATE TABLE events (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, "
               "status TEXT, amount NUMERIC(10,2), created INTEGER NOT NULL);"
               "CREATE INDEX events_created ON events(created);",
        "insert": "INSERT INTO events(customer_id, status, amount, created) VALUES (?,?,?,?)",
        "gen": events,
        "candidate": ("customer_id", "events_customer"),
    },
    {  # a costly candidate: random uuid text, a leaf anywhere per row
        "name": "orders",
        "ddl": "CREATE TABLE orders (id INTEGER PRIMARY KEY, ref TEXT NOT NULL, "
               "customer_id INTEGER NOT NULL, placed INTEGER NOT NULL);"
               "CREATE INDEX orders_customer ON orders(customer_id);",
        "insert": "INSERT INTO orders(ref, customer_id, placed) VALUES (?,?,?)",
        "gen": orders,
        "candidate": ("ref", "orders_ref"),
    },
]


def make_source(fx, path, nsrc, seed):
    db = Db(path)
    db.exec("PRAGMA journal_mode=delete;" + fx["ddl"])
    rng = random.Random(seed)
    db.exec("BEGIN")
    db.insert(fx["insert"], (fx["gen"](rng, i) for i in range(nsrc)))
    db.exec("COMMIT")
    db.close()


def real_side(fx, src, work, nsrc, nrows, seed, candidate, cache):
    path = os.path.join(work, f"real-{fx['name']}-{int(candidate)}.db")
    shutil.copyfile(src, path)
    db = Db(path)
    db.exec(f"PRAGMA journal_mode=delete; PRAGMA synchronous=full; PRAGMA cache_size=-{cache}")
    if candidate:
        col, name = fx["candidate"]
        db.exec(f"CREATE INDEX {name} ON {fx['name']}({col})")
    rng = random.Random(seed + 1)  # the appended rows: not the source's again
    rows = [fx["gen"](rng, nsrc + i) for i in range(nrows)]
    db.spills()  # reset
    w0 = wchar()
    db.exec("BEGIN")
    db.insert(fx["insert"], rows)
    db.exec("COMMIT")
    w1, sp = wchar(), db.spills()
    db.close()
    os.unlink(path)
    return {"wchar_per_row": (w1 - w0) / nrows, "spills_per_row": sp / nrows}


def idxlab_has(idxlab, flag):
    out = subprocess.run([idxlab, "--help"], capture_output=True, text=True).stdout
    return flag in out


def copy_side(fx, src, work, nsrc, nrows, idxlab, cache):
    col, name = fx["candidate"]
    args = [idxlab, "run", "--engine", "sqlite", "--rows", str(nrows), "--commit", "all",
            "--prefill", str(nsrc), "--cache", f"{cache}KiB", "--format", "csv"]
    if idxlab_has(idxlab, "--add-index"):
        args += ["--schema-from", f"{src}:{fx['name']}", "--add-index", col,
                 "--indexes", "table,all"]
    else:  # the candidate made on a second source, last in its list
        src2 = os.path.join(work, f"cand-{fx['name']}.db")
        shutil.copyfile(src, src2)
        db = Db(src2)
        db.exec(f"CREATE INDEX {name} ON {fx['name']}({col})")
        db.close()
        own = fx["ddl"].count("CREATE INDEX") + fx["ddl"].count("UNIQUE")
        args += ["--schema-from", f"{src2}:{fx['name']}", "--indexes", f"{own},{own + 1}"]
    env = dict(os.environ, TMPDIR=work)
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    steps = [r for r in csv.DictReader(io.StringIO(p.stdout)) if r.get("record") == "step"]
    if len(steps) != 2:
        raise RuntimeError(f"{' '.join(args)}: {len(steps)} step records, not 2")
    return [{k: float(s[k] or 0) for k in ("wchar_per_row", "spills_per_row")} for s in steps]


def run_measured(argv):
    """Run argv; its exit code, stdout, stderr, wall seconds and peak
    memory in MiB: its own (wait4's rusage), not the largest of every child
    this script ran before it."""
    import time
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, use = os.wait4(proc.pid, 0)
        took = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), out.read(), err.read(), took, use.ru_maxrss / 1024


def derive_big(idxlab, work, nrows):
    """How long --schema-from takes on a big table, and its peak memory
    (issue 19: a 10M-row SQLite table in under 2 s and 64 MB)."""
    path = os.path.join(work, "big.db")
    db = Db(path)
    db.exec("PRAGMA journal_mode=off; PRAGMA synchronous=off;"
            "CREATE TABLE lines(id INTEGER PRIMARY KEY, invoice_id INT, track_id INT, "
            "price NUMERIC(10,2), qty INT, note TEXT);"
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < "
            f"{nrows}) INSERT INTO lines SELECT x, x / 5, abs(random()) % 3500, 0.99, 1, "
            "CASE WHEN x % 4 = 0 THEN NULL ELSE 'n' || x END FROM c;"
            "CREATE INDEX li ON lines(invoice_id); CREATE INDEX lt ON lines(track_id);")
    db.close()
    rc, out, err, took, rss = run_measured([idxlab, "--print-config", "--schema-from", f"{path}:lines"])
    os.unlink(path)
    if rc != 0:
        raise RuntimeError(f"--schema-from {path}:lines: exit {rc}: {err.strip()}")
    ok = took < 2 and rss < 64
    print(f"derivation of a {nrows}-row SQLite table: {took:.2f} s, {rss:.1f} MiB peak "
          f"(target under 2 s and 64 MiB: {'met' if ok else 'MISSED'})")


def agree(real, copy, slack):
    if abs(real) <= slack and abs(copy) <= slack:
        return True
    return abs(copy - real) <= 0.25 * max(abs(real), abs(copy))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200000, help="rows appended (default 200000)")
    ap.add_argument("--src", type=int, default=20000, help="rows in each source (default 20000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", type=int, default=2000, help="page cache in KiB (default 2000)")
    ap.add_argument("--keep", help="keep the sources in this dir")
    ap.add_argument("--derive", type=int, default=0, metavar="ROWS",
                    help="also time --schema-from on a table of ROWS rows (10000000 in make bench)")
    ap.add_argument("--engine", choices=("sqlite", "postgres"), default="sqlite")
    pg = ap.add_argument_group("postgres (own_table_pg.py)")
    pg.add_argument("--dsn", help="a server of yours (superuser) instead of a throwaway one")
    pg.add_argument("--only", help="these fixtures, a comma list")
    pg.add_argument("--wrong-order", action="store_true",
                    help="a side more: the copy with the candidate's order swapped")
    pg.add_argument("--make-sources", action="store_true", help="make the sources and exit")
    pg.add_argument("--use-sources", action="store_true",
                    help="measure the sources already there, and leave them")
    a = ap.parse_args()
    idxlab = os.environ.get("IDXLAB")
    if not idxlab:
        sys.exit("set IDXLAB to the idxlab binary")
    if a.engine == "postgres":
        import own_table_pg
        sys.exit(own_table_pg.main(a, idxlab))
    work = tempfile.mkdtemp(prefix="idxlab-own-")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    failed = False
    print(f"own table: {a.src} source rows, {a.rows} rows appended, one transaction, "
          f"cache {a.cache} KiB, journal=delete, synchronous=full")
    print(f"{'table':14} {'figure':15} {'side':5} {'own idx':>10} {'+cand':>10} "
          f"{'cand adds':>10}  verdict")
    try:
        for fx in FIXTURES:
            src = os.path.join(a.keep or work, f"{fx['name']}.db")
            if os.path.exists(src):
                os.unlink(src)
            make_source(fx, src, a.src, a.seed)
            try:
                real = [real_side(fx, src, work, a.src, a.rows, a.seed, c, a.cache) for c in (0, 1)]
                copy = copy_side(fx, src, work, a.src, a.rows, idxlab, a.cache)
            except RuntimeError as ex:
                print(f"{fx['name']}: FAILED: {ex}")
                failed = True
                continue
            for fig, slack in (("wchar_per_row", 5.0), ("spills_per_row", 0.01)):
                d = {}
                for side, v in (("real", real), ("copy", copy)):
                    d[side] = v[1][fig] - v[0][fig]
                    print(f"{fx['name']:14} {fig:15} {side:5} {v[0][fig]:10.3f} "
                          f"{v[1][fig]:10.3f} {d[side]:10.3f}", end="")
                    print("" if side == "real" else
                          ("  within 25 %" if agree(d["real"], d["copy"], slack)
                           else "  APART"))
        if a.derive:
            derive_big(idxlab, work, a.derive)
    except RuntimeError as ex:
        print(f"derivation: FAILED: {ex}")
        failed = True
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
