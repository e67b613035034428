#!/usr/bin/env python3
"""bench/own_table_pg.py - own_table.py's question on PostgreSQL: does
idxlab's copy of a user's table cost what the table costs? (issue 19, "the
end-to-end agreement", PostgreSQL side; `own_table.py --engine postgres`
runs it).

One throwaway PostgreSQL cluster (initdb into a temp dir, as user postgres
when run as root; a unix socket in that dir, no TCP; a free port number
naming the socket) runs with idxlab's own server settings (SERVER below,
read from src/engines/postgres/cluster.c and idxlab's 128 MiB default cache
on PostgreSQL), unless --dsn names a server of the caller's (the tests' own).
Each fixture is made there as a real PostgreSQL table, public.<name>: its
real DDL (a composite primary key, numeric(10,2), boolean, date,
timestamptz, a domain, a uuid with DEFAULT gen_random_uuid(), identities, a
partial index, NULL-heavy columns) and SRC rows from a generator in the real
data's pattern (own_table.py's patterns, here with the types PostgreSQL
has), then ANALYZE (idxlab reads pg_stats). The cost of one more index (the
candidate) is then measured twice:

  real  a copy of the table made the way idxlab makes its own: the fixture's
        DDL under another name, the source's rows by INSERT ... SELECT in
        their physical order (identities continued), VACUUM (ANALYZE), the
        table's own keys and indexes (and the candidate, or not) built after
        the load, CHECKPOINT (so full-page images count alike on both sides);
        then ROWS rows appended by the generator continuing the pattern
        (growing keys keep growing, defaults such as gen_random_uuid() left
        to the server), in one transaction, by multi-row INSERTs through
        libpq (ctypes): each row one heap_insert and one entry per index,
        what idxlab's default --load insert does (its one-row prepared
        INSERTs), not COPY's multi-insert. Measured as idxlab measures:
        WAL bytes = pg_current_wal_insert_lsn() after COMMIT less before
        BEGIN; write() bytes = /proc/PID/io wchar summed over the postmaster
        and its children (a process that ends keeps its bytes: proc_tree.c);
  copy  `idxlab run --engine postgres --dsn <the cluster> --schema-from
        '<the cluster>:public.<name>' --add-index COL --indexes table,all
        --rows ROWS --format csv`: idxlab's derived copy in its own schema,
        prefill the source's rows, one transaction (its defaults).

Per fixture and figure it prints real vs copy with the table's own indexes,
with the candidate, and what the candidate adds; the verdict is on what the
candidate adds: within 25 %, or within FLOOR (5 B/row) of nothing on both
sides. An index entry's WAL record alone is some 60 bytes, so a candidate
under 5 B/row on both sides means neither side paid for one: nothing to
compare, not an agreement to claim.

--wrong-order adds a third side, "wrong": idxlab run on the derived spec
with the candidate column's order swapped (growing <-> random), as a
hand-written spec would have it: what the comparison says when the
derivation is wrong (tests/t_own_table_pg.sh checks that it says APART).

--make-sources makes the fixtures' sources and exits; --use-sources measures
sources already there and leaves them (a test checksums them between).
"""
import ctypes
import ctypes.util
import csv
import datetime
import io
import os
import pwd
import random
import shutil
import socket
import subprocess
import tempfile

import own_table

FLOOR = 5.0  # B/row: see the docstring
BATCH = 500  # rows per INSERT statement on the real side

# idxlab's throwaway server (src/engines/postgres/cluster.c boot()) and its
# default cache on PostgreSQL (driver.c: cache 128MiB = shared_buffers);
# wal_level is left at the server's default there: replica.
SERVER = ["fsync=on", "synchronous_commit=on", "full_page_writes=on", "wal_level=replica",
          "max_wal_size=16GB", "checkpoint_timeout=1d", "jit=off", "track_io_timing=on",
          "max_connections=20", "shared_buffers=128MB"]

pq = ctypes.CDLL(ctypes.util.find_library("pq") or "libpq.so.5")
pq.PQconnectdb.argtypes = [ctypes.c_char_p]
pq.PQconnectdb.restype = ctypes.c_void_p
pq.PQstatus.argtypes = [ctypes.c_void_p]
pq.PQerrorMessage.argtypes = [ctypes.c_void_p]
pq.PQerrorMessage.restype = ctypes.c_char_p
pq.PQexec.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
pq.PQexec.restype = ctypes.c_void_p
pq.PQresultStatus.argtypes = [ctypes.c_void_p]
pq.PQresultErrorMessage.argtypes = [ctypes.c_void_p]
pq.PQresultErrorMessage.restype = ctypes.c_char_p
pq.PQntuples.argtypes = [ctypes.c_void_p]
pq.PQgetvalue.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
pq.PQgetvalue.restype = ctypes.c_char_p
pq.PQclear.argtypes = [ctypes.c_void_p]
pq.PQfinish.argtypes = [ctypes.c_void_p]


class Pg:
    def __init__(self, dsn):
        self.h = pq.PQconnectdb(dsn.encode())
        if pq.PQstatus(self.h) != 0:  # CONNECTION_OK
            msg = pq.PQerrorMessage(self.h).decode().strip()
            pq.PQfinish(self.h)
            raise RuntimeError(f"{dsn}: {msg}")
        self.q("SET client_min_messages = warning")  # no NOTICE on stderr

    def q(self, sql):
        """Run sql; the first column of the first row, or None."""
        res = pq.PQexec(self.h, sql.encode())
        st = pq.PQresultStatus(res)
        if st not in (1, 2):  # PGRES_COMMAND_OK, PGRES_TUPLES_OK
            msg = (pq.PQresultErrorMessage(res) or b"").decode().strip()
            pq.PQclear(res)
            raise RuntimeError(f"{sql[:80]}: {msg}")
        v = pq.PQgetvalue(res, 0, 0).decode() if st == 2 and pq.PQntuples(res) else None
        pq.PQclear(res)
        return v

    def close(self):
        pq.PQfinish(self.h)


def lit(v):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def insert(db, table, cols, rows):
    head = f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
    for i in range(0, len(rows), BATCH):
        db.q(head + ",".join("(" + ",".join(map(lit, r)) + ")" for r in rows[i:i + BATCH]))


# ---- the fixtures: real DDL, a generator in the real data's pattern -------
# {t} is the table's name (the source's, or its copy's); gen(rng, i) gives
# row i (0-based over the source's rows, then the appended ones).
T0 = 1704067200  # 2024-01-01 UTC


def ts(s):
    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).isoformat()


def day(s):
    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).date().isoformat()


def invoice_lines(rng, i):
    inv, track, price, _ = own_table.invoice_lines(rng, i)
    line = i - -(-(inv - 1) * 54 // 10) + 1  # its place among its invoice's lines
    # ~40 invoices a day: the date grows with ~216 lines per value
    return (inv, line, day(T0 + (inv // 40) * 86400), track, price, rng.randint(1, 3),
            rng.random() < 0.1)


def users(rng, i):
    email, name, country, created, bio = own_table.users(rng, i)
    return (email, name, country, ts(created), rng.random() < 0.8, bio)


def events(rng, i):
    customer, status, amount, created_ms = own_table.events(rng, i)
    return (customer, status, amount, ts(created_ms / 1000))


def orders(rng, i):
    # ref is left to its DEFAULT gen_random_uuid(), as the application does
    _, customer, placed = own_table.orders(rng, i)
    return (customer, day(placed), round(rng.uniform(5, 900), 2),
            None if rng.random() < 0.6 else "gift")


FIXTURES = [
    {
        "name": "invoice_lines",  # a growing foreign key with repeats, a date
        "ddl": "CREATE TABLE {t} (invoice_id integer NOT NULL, line_no smallint NOT NULL, "
               "invoice_date date NOT NULL, track_id integer NOT NULL, "
               "unit_price numeric(10,2) NOT NULL, quantity own_qty NOT NULL, "
               "discounted boolean NOT NULL DEFAULT false)",
        "keys": ["ALTER TABLE {t} ADD PRIMARY KEY (invoice_id, line_no)"],
        "cols": ["invoice_id", "line_no", "invoice_date", "track_id", "unit_price", "quantity",
                 "discounted"],
        "gen": invoice_lines,
        "candidate": "invoice_date",
    },
    {
        "name": "users",  # an identity, a unique email, a partial index, 30 % NULL bio
        "ddl": "CREATE TABLE {t} (id bigint GENERATED BY DEFAULT AS IDENTITY, "
               "email text NOT NULL, name text, country text, "
               "created_at timestamptz NOT NULL DEFAULT now(), active boolean NOT NULL, "
               "bio text)",
        "keys": ["ALTER TABLE {t} ADD PRIMARY KEY (id)", "ALTER TABLE {t} ADD UNIQUE (email)",
                 "CREATE INDEX {t}_country_active ON {t} (country) WHERE active"],
        "cols": ["email", "name", "country", "created_at", "active", "bio"],
        "gen": users,
        "candidate": "created_at",
    },
    {
        "name": "events",  # hot customers, 2 % late timestamps, 30 % NULL status
        "ddl": "CREATE TABLE {t} (id bigint GENERATED ALWAYS AS IDENTITY, "
               "customer_id integer NOT NULL, status text, amount numeric(10,2), "
               "created timestamptz NOT NULL)",
        "keys": ["ALTER TABLE {t} ADD PRIMARY KEY (id)",
                 "CREATE INDEX {t}_created ON {t} (created)"],
        "cols": ["customer_id", "status", "amount", "created"],
        "gen": events,
        "candidate": "customer_id",
    },
    {
        "name": "orders",  # a random uuid key: a leaf anywhere per row
        "ddl": "CREATE TABLE {t} (id bigint GENERATED ALWAYS AS IDENTITY, "
               "ref uuid NOT NULL DEFAULT gen_random_uuid(), customer_id integer NOT NULL, "
               "placed date NOT NULL, total numeric(10,2) NOT NULL, note text)",
        "keys": ["ALTER TABLE {t} ADD PRIMARY KEY (id)",
                 "CREATE INDEX {t}_customer ON {t} (customer_id)"],
        "cols": ["customer_id", "placed", "total", "note"],
        "gen": orders,
        "candidate": "ref",
    },
]
PRELUDE = ("DO $$ BEGIN CREATE DOMAIN own_qty AS integer CHECK (VALUE > 0); "
           "EXCEPTION WHEN duplicate_object THEN NULL; END $$")


# ---- the server --------------------------------------------------------
class Cluster:
    """A throwaway cluster in dir (as user postgres when root)."""

    def __init__(self, work, bindir):
        self.bindir, self.dir = bindir, os.path.join(work, "pg")
        os.makedirs(self.dir)
        self.pre = []
        if os.getuid() == 0:
            try:
                u = pwd.getpwnam("postgres")
            except KeyError:
                u = pwd.getpwnam("nobody")
            os.chown(self.dir, u.pw_uid, u.pw_gid)
            os.chmod(work, 0o755)
            self.pre = ["setpriv", f"--reuid={u.pw_uid}", f"--regid={u.pw_gid}",
                        "--clear-groups"]
        with socket.socket() as s:  # a free number: it only names the socket
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        data = os.path.join(self.dir, "data")
        self.run("initdb", "-D", data, "-U", "owner", "--auth=trust", "-N")
        opts = f"-k {self.dir} -p {self.port} -c listen_addresses= " + \
            " ".join(f"-c {kv}" for kv in SERVER)
        try:
            self.run("pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "-o",
                     opts, "start")
        except RuntimeError:
            self.stop()  # one that started too late for -w's wait
            raise
        self.dsn = f"host={self.dir} port={self.port} dbname=postgres user=owner"

    def run(self, prog, *args):
        p = subprocess.run(self.pre + [os.path.join(self.bindir, prog), *args],
                           capture_output=True, text=True)
        if p.returncode:
            log = os.path.join(self.dir, "log")
            tail = open(log).read()[-600:] if os.path.exists(log) else ""
            raise RuntimeError(f"{prog}: exit {p.returncode}: {p.stderr.strip()[-600:]} {tail}")

    def stop(self):
        try:
            self.run("pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "immediate", "stop")
        except RuntimeError:
            pass


def server_wchar(state):
    """write() bytes of the postmaster and its children, as proc_tree.c sums
    them: state holds the postmaster's pid and each process's last reading
    (one that ended keeps its bytes)."""
    root, last = state["root"], state["last"]
    pids = [root]
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == root:
                        pids.append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    for pid in pids:
        try:
            with open(f"/proc/{pid}/io") as f:
                for line in f:
                    if line.startswith("wchar:"):
                        last[pid] = max(last.get(pid, 0), int(line.split()[1]))
        except OSError:
            pass
    return sum(last.values())


# ---- the two sides -------------------------------------------------------
def make_source(db, fx, nsrc, seed):
    t = fx["name"]
    db.q(f"DROP TABLE IF EXISTS public.{t}")
    db.q(fx["ddl"].format(t=f"public.{t}"))
    for k in fx["keys"]:
        db.q(k.format(t=t))
    rng = random.Random(seed)
    insert(db, t, fx["cols"], [fx["gen"](rng, i) for i in range(nsrc)])
    db.q(f"VACUUM (ANALYZE) public.{t}")  # nothing left for autovacuum to do mid-window


def real_side(db, fx, nsrc, nrows, seed, candidate, io_state):
    src, t = fx["name"], "own_real_" + fx["name"]
    db.q(f"DROP TABLE IF EXISTS {t}")
    db.q(fx["ddl"].format(t=t))
    db.q(f"INSERT INTO {t} OVERRIDING SYSTEM VALUE SELECT * FROM public.{src}")
    if "IDENTITY" in fx["ddl"]:
        db.q(f"SELECT setval(pg_get_serial_sequence('{t}', 'id'), max(id)) FROM {t}")
    db.q(f"VACUUM (ANALYZE) {t}")
    for k in fx["keys"] + ([f"CREATE INDEX {{t}}_cand ON {{t}} ({fx['candidate']})"]
                           if candidate else []):
        db.q(k.format(t=t))
    db.q("CHECKPOINT")
    rng = random.Random(seed + 1)  # the appended rows: not the source's again
    rows = [fx["gen"](rng, nsrc + i) for i in range(nrows)]
    lsn0 = int(db.q("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn"))
    w0 = server_wchar(io_state)
    db.q("BEGIN")
    insert(db, t, fx["cols"], rows)
    db.q("COMMIT")
    db.q("SELECT pg_stat_force_next_flush()")  # idxlab's step end (pg_settle)
    lsn1 = int(db.q("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn"))
    w1 = server_wchar(io_state)
    db.q(f"DROP TABLE {t}")
    return {"wal_bytes_per_row": (lsn1 - lsn0) / nrows, "wchar_per_row": (w1 - w0) / nrows}


def wrong_spec(idxlab, args, col, work, env):
    """The derived spec with col's order swapped (growing <-> random): a
    wrong derivation, written as a spec file."""
    p = subprocess.run([idxlab, "--print-config"] + args, capture_output=True, text=True, env=env)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("#   ")]
    spec, swapped = [], False
    for ln in (ln[4:] for ln in lines):
        w = ln.split()
        if len(w) >= 3 and (w[0] == "column" and len(w) >= 4 or w[0] == "id") and w[1] == col:
            i = 3 if w[0] == "column" else 2
            grows = w[i].startswith(("seq", "late", "uuid7"))
            w[i] = {(True, True): "uuid4", (True, False): "rand", (False, True): "uuid7",
                    (False, False): "seq"}[(grows, w[i - 1] == "uuid")]
            ln, swapped = " ".join(w), True
        spec.append(ln)
    if p.returncode or not swapped:
        raise RuntimeError(f"--print-config {' '.join(args)}: exit {p.returncode}, "
                           f"no spec line for {col}: {p.stderr.strip()[-300:]}")
    path = os.path.join(work, f"wrong-{col}.spec")
    with open(path, "w") as f:
        f.write("\n".join(spec) + "\n")
    return path


def copy_side(fx, dsn, nsrc, nrows, idxlab, work, wrong):
    src = ["--engine", "postgres", "--dsn", dsn, "--schema-from", f"{dsn}:public.{fx['name']}"]
    env = dict(os.environ, TMPDIR=work)
    if wrong:
        src = ["--engine", "postgres", "--dsn", dsn, "--prefill", str(nsrc),
               "--schema", wrong_spec(idxlab, src, fx["candidate"], work, env)]
    args = src + ["--add-index", fx["candidate"], "--indexes", "table,all"]
    cmd = [idxlab, "run"] + args + ["--rows", str(nrows), "--format", "csv"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-600:]}")
    steps = [r for r in csv.DictReader(io.StringIO(p.stdout)) if r.get("record") == "step"]
    if len(steps) != 2:
        raise RuntimeError(f"{' '.join(cmd)}: {len(steps)} step records, not 2")
    return [{k: float(s[k] or "nan") for k in ("wal_bytes_per_row", "wchar_per_row")}
            for s in steps]


def pg_bindir():
    for d in sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: -int(v)
                    if v.isdigit() else 0):
        b = f"/usr/lib/postgresql/{d}/bin"
        if os.access(f"{b}/initdb", os.X_OK):
            return b
    raise RuntimeError("no PostgreSQL server installed (apt-get install postgresql)")


def derive_wide(db, dsn, idxlab, ncols=200, nrows=100000):
    """How long --schema-from takes on a PostgreSQL table of ncols columns
    and nrows rows, and its peak memory (issue 19: under 2 s and 64 MB)."""
    kinds = ("int", "bigint", "text", "numeric(10,2)", "boolean", "date", "timestamptz",
             "uuid")
    exprs = ("(x %% %d)", "x * %d", "'v' || (x %% %d)", "(x %% %d) / 100.0", "x %% %d = 0",
             "date '2024-01-01' + (x %% %d)", "timestamptz '2024-01-01' + x * interval '%d s'",
             "md5((x * %d)::text)::uuid")
    cols = [f"c{i} {kinds[i % len(kinds)]}" for i in range(ncols)]
    vals = [exprs[i % len(exprs)] % (i + 2) for i in range(ncols)]
    db.q("DROP TABLE IF EXISTS public.wide")
    db.q(f"CREATE TABLE public.wide (id bigint PRIMARY KEY, {', '.join(cols)})")
    db.q(f"INSERT INTO public.wide SELECT x, {', '.join(vals)} FROM generate_series(1, {nrows}) x")
    db.q("CREATE INDEX wide_c1 ON public.wide (c1)")
    db.q("ANALYZE public.wide")
    rc, stdout, stderr, took, rss = own_table.run_measured(
        [idxlab, "--print-config", "--engine", "postgres", "--dsn", dsn,
         "--schema-from", f"{dsn}:public.wide"])
    db.q("DROP TABLE public.wide")
    if rc != 0:
        raise RuntimeError(f"--schema-from public.wide: exit {rc}: {stderr.strip()}")
    got = sum(1 for line in stdout.splitlines() if line.startswith("#   column "))
    ok = took < 2 and rss < 64 and got == ncols
    print(f"derivation of a {ncols}-column PostgreSQL table ({nrows} rows): {took:.2f} s, "
          f"{rss:.1f} MiB peak, "
          f"{got} value columns kept (target under 2 s and 64 MiB: {'met' if ok else 'MISSED'})")


def main(a, idxlab):
    """a: own_table.py's arguments (rows, src, seed, dsn, only, wrong_order,
    make_sources, use_sources). Returns 1 when a run failed."""
    fixtures = [fx for fx in FIXTURES if not a.only or fx["name"] in a.only.split(",")]
    work = tempfile.mkdtemp(prefix="idxlab-own-pg-")
    cluster, failed = None, False
    try:
        if a.dsn:
            dsn = a.dsn
        else:
            cluster = Cluster(work, pg_bindir())
            dsn = cluster.dsn
        db = Pg(dsn)
        db.q(PRELUDE)
        io_state = {"root": int(db.q("SELECT pg_backend_pid()")), "last": {}}
        with open(f"/proc/{io_state['root']}/stat") as f:  # the backend's parent
            io_state["root"] = int(f.read().rsplit(")", 1)[1].split()[1])
        if not a.use_sources:
            for fx in fixtures:
                make_source(db, fx, a.src, a.seed)
        if a.make_sources:
            return 0
        print(f"own table on PostgreSQL {db.q('SHOW server_version')}: {a.src} source rows, "
              f"{a.rows} rows appended, one transaction, shared_buffers "
              f"{db.q('SHOW shared_buffers')}, fsync={db.q('SHOW fsync')}, "
              f"synchronous_commit={db.q('SHOW synchronous_commit')}"
              + (", side wrong: the candidate's order swapped" if a.wrong_order else ""))
        print(f"{'table':14} {'figure':18} {'side':5} {'own idx':>10} {'+cand':>10} "
              f"{'cand adds':>10}  verdict")
        for fx in fixtures:
            try:
                real = [real_side(db, fx, a.src, a.rows, a.seed, c, io_state) for c in (0, 1)]
                sides = [("real", real),
                         ("copy", copy_side(fx, dsn, a.src, a.rows, idxlab, work, False))]
                if a.wrong_order:
                    sides.append(("wrong", copy_side(fx, dsn, a.src, a.rows, idxlab, work, True)))
            except RuntimeError as ex:
                print(f"{fx['name']}: FAILED: {ex}")
                failed = True
                continue
            for fig in ("wal_bytes_per_row", "wchar_per_row"):
                d = {}
                for side, v in sides:
                    d[side] = v[1][fig] - v[0][fig]
                    print(f"{fx['name']:14} {fig:18} {side:5} {v[0][fig]:10.1f} "
                          f"{v[1][fig]:10.1f} {d[side]:10.1f}", end="")
                    print("" if side == "real" else
                          ("  within 25 %" if own_table.agree(d["real"], d[side], FLOOR)
                           else "  APART"))
        if not a.use_sources and not a.only:
            derive_wide(db, dsn, idxlab)
        if not a.use_sources:
            for fx in fixtures:
                db.q(f"DROP TABLE IF EXISTS public.{fx['name']}")
            if len(fixtures) == len(FIXTURES):
                db.q("DROP DOMAIN IF EXISTS own_qty")
        db.close()
    except RuntimeError as ex:
        print(f"postgres: FAILED: {ex}")
        failed = True
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0
