#!/usr/bin/env python3
"""Fuzz idxlab's readers of outside text: table spec files (--schema FILE)
and SQLite tables read by --schema-from.

    python3 tests/fuzz.py spec   N [SEED]   N mutated spec files
    python3 tests/fuzz.py source N [SEED]   N generated SQLite sources

Needs IDXLAB (best a sanitizer build: make fuzz builds one). Each case runs
`idxlab --print-config` on the input; a case fails when idxlab
  - is killed by a signal, or prints a sanitizer report,
  - runs past the time limit (a hang),
  - exits other than 0 (accepted) or 2 (refused),
  - refuses a spec file without naming FILE:LINE,
  - prints a control byte other than newline and tab,
  - prints a config that, read back with -c, is not the same config,
  - or (sources) changes the source's directory: a new file, a changed one.
Every failing input is kept under $FUZZ_KEEP (default: a temp dir, named in
the summary). The last line is "fuzz KIND: N cases, N failed". Standard
library only: it runs wherever the tests run.
"""
import hashlib
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

IDXLAB = os.environ.get("IDXLAB", "./idxlab")
LIMIT = float(os.environ.get("FUZZ_TIMEOUT", "20"))
SAN = re.compile(rb"runtime error|AddressSanitizer|LeakSanitizer|ThreadSanitizer")
CTRL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")

SEEDS = [
    "table users\nid bigint seq\ncolumn email text(24) rand\n"
    "column created_at timestamp seq\ncolumn country text(2) few:50\n"
    "column status int few:4\nhot hot\nindex email\nindex created_at\n"
    "index country\nindex status\nindex country,created_at\n"
    "index status,created_at\n",
    "table events\nid knob\ncolumn uid uuid uuid4\nindex uid unique\n",
    "table wal\nid bigint seq\n"
    + "".join("column k%d int few:1000000\n" % i for i in range(1, 9))
    + "hot hot_col\n"
    + "".join("index k%d\n" % i for i in range(1, 9)),
    "table t\nid uuid uuid7\ncolumn a bigint zipf:1.2:500\ncolumn b text(16) seq\n"
    "index a,b unique name my_idx\nindex b\n",
    "# a comment\ntable x\ncolumn a int rand  # trailing\nindex a\n",
    "table p\nid bigint seq\ncolumn e text(20) rand\ncolumn s text(4) few:3\n"
    "column n int few:9\ncolumn ts timestamp seq\nindex lower(e) unique\n"
    "index s,n name idxlab_p where n >= 3 and s <> 'v' and ts is not null\n"
    "index upper(e),n where (n > -2) and e is null\n",
    # this session's words: ranges, a generated column, a WITHOUT ROWID
    # table kept in its key, a partitioned one, a boolean partial index
    "table r\nid bigint seq unindexed\ncolumn a text(16) seq\ncolumn b int few:10 in:1..50\n"
    "column q bigint rand in:0..1000\ncolumn p numeric(10,2) rand in:0.50..99.99\n"
    "column t numeric(18,2) rand generated (q * p) stored\ncolumn f bool few:2\n"
    "without rowid\nindex a,b unique\nindex q where f\nindex p where not f\n",
    "table pt\nid bigint seq\ncolumn d date seq\ncolumn v int rand in:-5..5\n"
    "partition by range (d) 4\nindex v\n",
    # query lines (issue 22)
    "table u\nid bigint seq\ncolumn e text(20) rand\ncolumn ts timestamptz seq\n"
    "index e\nindex ts\nquery by_e: e = ?\n"
    "query recent: WHERE ts>$1 and id <= ? ORDER BY ts DESC LIMIT 10 guessed\n",
]
WORDS = [
    "table", "id", "column", "hot", "index", "unique", "name", "knob", "int",
    "bigint", "text(1)", "text(256)", "text(257)", "text(0)", "text(-1)",
    "text(99999999999999999999)", "text(", "text()", "uuid", "timestamp",
    "seq", "rand", "few:0", "few:1", "few:-5", "few:18446744073709551616",
    "zipf:0", "zipf:1e308", "zipf:nan", "zipf:1.1:0", "zipf:1:-1", "uuid7",
    "uuid4", "seq:5.4", "seq:0", "seq:1e9", "seq:1e10", "seq:nan", "desc",
    "desc:3", "late", "late:2%", "late:0.02:5", "late:50%", "late:51%",
    "late:-1", "late:nan%", "late:2%:0", "late:2%%",
    "payload", "id", "hot", "a", "b", "a,b", "a,a", ",", ",,", "a,",
    "integer", "varchar(10)", "double", "precision", "#", "\t", "\u00e9",
    "\x1b]0;T\x07", "x" * 300, "A", "_", "9a", "k1", "k2",
    "where", "and", "or", "is", "not", "null", "lower(a)", "upper(b)", "lower(",
    "lower()", "lower(lower(a))", "md5(a)", "=", "<>", "!=", "<=", ">", "'x'", "'",
    "''", "'a''b'", "\"a\"", "\"", "(", ")", "((", "::text", "-1",
    "99999999999999999999", "1.5", "a>1", "a=1and", "'%'",
    "without", "rowid", "without rowid", "unindexed", "in:0..1", "in:5..1", "in:..",
    "in:-9223372036854775808..9223372036854775807", "in:1e308..2", "in:0.001..0.01",
    "generated", "(a + b)", "(q * q * q)", "stored", "partition", "by", "range", "hash",
    "list", "(d)", "0", "129", "true", "false",
    "query", "q:", ":", "?", "$1", "$", "order", "limit", "asc", "guessed", "limit 100001",
    "e = ?", "ts >= ?", "id < ?",
]


def run(args, cwd=None):
    try:
        p = subprocess.run([IDXLAB] + args, capture_output=True, timeout=LIMIT,
                           cwd=cwd, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return p


def judge(p, name, spec_file=None):
    """What is wrong with one --print-config run, or None."""
    if p is None:
        return "hung (no exit in %.0f s)" % LIMIT
    out, err = p.stdout, p.stderr
    if p.returncode < 0 or p.returncode >= 128:
        return "killed by signal / crashed (%d)" % p.returncode
    if SAN.search(err):
        return "sanitizer: " + err.decode(errors="replace")[:300]
    if p.returncode not in (0, 2):
        return "exit %d: %s" % (p.returncode, err[:200])
    for stream, what in ((out, "stdout"), (err, "stderr")):
        m = CTRL.search(stream)
        if m:
            return "raw control byte %r on %s" % (m.group(0), what)
    if p.returncode == 2 and spec_file is not None:
        if not re.search(rb":\d+: ", err):
            # a file name with a control byte is refused (--print-config could
            # not write it back), escaped, before a line is read
            if (b"cannot read" not in err and b"no such" not in err
                    and b"holds a control character" not in err):
                return "refused without FILE:LINE: " + err.decode(errors="replace")[:200]
    return None


def round_trip(out, tmp):
    """--print-config output read back with -c prints itself again."""
    conf = os.path.join(tmp, "back.conf")
    with open(conf, "wb") as f:
        f.write(out)
    p = run(["--print-config", "-c", conf])
    if p is None:
        return "read back: hung"
    if p.returncode != 0:
        return "read back refused (%d): %s" % (p.returncode, p.stderr[:300])
    a = out.split(b"\n", 1)[1] if b"\n" in out else out
    b = p.stdout.split(b"\n", 1)[1] if b"\n" in p.stdout else p.stdout
    if a != b:
        return "read back differs"
    return None


def mutate(rng, text):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(12)
        i = rng.randrange(len(lines)) if lines else 0
        if op == 0 and lines:
            del lines[i]
        elif op == 1 and lines:
            lines.insert(i, lines[i])
        elif op == 2 and lines:
            w = lines[i].split(" ")
            w[rng.randrange(len(w))] = rng.choice(WORDS)
            lines[i] = " ".join(w)
        elif op == 3:
            lines.insert(i, "column c%d %s %s" % (
                rng.randrange(1000), rng.choice(WORDS), rng.choice(WORDS)))
        elif op == 4:
            n = rng.choice([40, 64, 100, 300, 2000])
            lines += ["column c%d int rand" % j for j in range(n)]
        elif op == 5:
            n = rng.choice([20, 40, 100, 600])
            lines += ["index " + ",".join(["a"] * rng.randint(1, 40)) for _ in range(n)]
        elif op == 6 and lines:
            b = bytearray(lines[i].encode())
            for _ in range(rng.randint(1, 4)):
                if b:
                    b[rng.randrange(len(b))] = rng.randrange(256)
            lines[i] = b.decode("latin-1")
        elif op == 7:
            lines.insert(i, "x" * rng.choice([1000, 5000, 70000, 300000]))
        elif op == 8 and lines:
            lines[i] += rng.choice(["\r", "\0", " \x1b[2J", "\ndsn = x", " # c"])
        elif op == 9:
            lines.insert(i, "index " + ",".join(
                "c%d" % rng.randrange(50) for _ in range(rng.randint(1, 70))))
        elif op == 10:
            rng.shuffle(lines)
        else:
            lines.insert(i, " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8))))
    return "\n".join(lines)


def fuzz_spec(rng, tmp, n, keep):
    failed = 0
    for k in range(n):
        text = mutate(rng, rng.choice(SEEDS))
        name = rng.choice(["t.spec", "t", "my table.spec", "a\x1bb.spec", "x\ny.spec"])
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(text.encode("latin-1", errors="replace"))
        p = run(["--print-config", "--schema", path])
        why = judge(p, name, spec_file=path)
        if why is None and p.returncode == 0:
            why = round_trip(p.stdout, tmp)
        if why:
            failed += 1
            dst = os.path.join(keep, "spec-%05d" % k)
            shutil.copyfile(path, dst)
            print("FAIL spec %d (%s): %s" % (k, dst, why), flush=True)
        os.unlink(path)
    return failed


NAMES = ["t", "T", "a b", "x\ny", "q\"uote", "e\x1b]0;T\x07", "dsn = x",
         "\u00fcber", "sel-ect", "select", "_", "a" * 200, "k", "id", "hot",
         "payload", "idxlab_t", "9c", "c.d", "c;drop table t"]
TYPES = ["INT", "INTEGER", "TEXT", "BLOB", "REAL", "NUMERIC(10,2)", "VARCHAR(20)",
         "BOOLEAN", "DATE", "DATETIME", "", "WEIRD TYPE", "UUID", "BIGINT",
         "DOUBLE PRECISION", "CHAR(2)", "JSON"]


def q(s):
    return '"' + s.replace('"', '""') + '"'


def gen_value(rng, ty, row):
    r = rng.random()
    if r < 0.1:
        return None
    if "INT" in ty:
        return rng.choice([row, -row, rng.randrange(-2**63, 2**63), rng.randrange(5)])
    if ty in ("REAL", "DOUBLE PRECISION"):
        return rng.random() * 1e6
    if ty == "BLOB":
        return os.urandom(rng.choice([0, 1, 16, 100, 5000]))
    return "".join(rng.choice("abc\n\x1bé") for _ in range(rng.choice([0, 1, 10, 40, 300])))


def gen_source(rng, path):
    db = sqlite3.connect(path)
    db.execute("pragma synchronous=off")
    if rng.random() < 0.5:
        db.execute("pragma journal_mode=wal")
    table = rng.choice(NAMES)
    ncols = rng.choice([0, 1, 2, 5, 10, 31, 32, 33, 40, 70])
    cols, seen = [], set()
    for j in range(ncols):
        c = rng.choice(NAMES + ["c%d" % j] * 4)
        if c.lower() in seen:
            c = "c%d_%d" % (j, rng.randrange(100))
        seen.add(c.lower())
        cols.append((c, rng.choice(TYPES)))
    pk = rng.randrange(4)
    defs = []
    for c, ty in cols:
        defs.append("%s %s" % (q(c), ty))
    if pk == 1 and cols:
        defs[0] += " PRIMARY KEY"
    elif pk == 2 and len(cols) >= 2:
        defs.append("PRIMARY KEY (%s, %s)" % (q(cols[0][0]), q(cols[1][0])))
    if not defs:
        defs = ["x"]
        cols = [("x", "")]
    tail = ""
    if pk in (1, 2) and rng.random() < 0.3 and cols:
        tail = " WITHOUT ROWID"
        if pk == 1 and "INT" in cols[0][1] and rng.random() < 0.5:
            tail = ""
    if rng.random() < 0.1 and len(cols) >= 1:
        defs.append("%s INT GENERATED ALWAYS AS (1) VIRTUAL" % q("gen_" + str(rng.randrange(9))))
    try:
        db.execute("CREATE TABLE %s (%s)%s" % (q(table), ", ".join(defs), tail))
    except sqlite3.DatabaseError:
        db.execute("CREATE TABLE %s (%s)" % (q(table), ", ".join(q(c) for c, _ in cols)))
    for j in range(rng.choice([0, 1, 3, 10, 40])):
        ic = [q(rng.choice(cols)[0]) for _ in range(rng.randint(1, 3))]
        uniq = "UNIQUE " if rng.random() < 0.2 else ""
        where = rng.choice([
            "", "", "", "", " WHERE %s IS NOT NULL" % ic[0], " WHERE %s > -3" % ic[0],
            " WHERE %s = 'a b' AND %s IS NULL" % (ic[0], ic[-1]),
            " WHERE (%s < 5) OR %s" % (ic[0], ic[-1]), " WHERE %s LIKE 'x%%'" % ic[0],
            " WHERE %s = '\x1b[31m'" % ic[0]])
        if rng.random() < 0.3:
            ic[0] = rng.choice(["lower(%s)", "upper(%s)", "%s COLLATE NOCASE",
                                "%s DESC", "abs(%s)", "(%s + 1)"]) % ic[0]
        name = rng.choice(NAMES) + str(j)
        try:
            db.execute("CREATE %sINDEX %s ON %s (%s)%s" % (
                uniq, q(name), q(table), ", ".join(ic), where))
        except sqlite3.DatabaseError:
            pass
    real = [c for c, _ in cols if not c.startswith("gen_")]
    types = dict(cols)
    for row in range(rng.choice([0, 1, 5, 50, 300])):
        vals = [gen_value(rng, types[c], row) for c in real]
        try:
            db.execute("INSERT INTO %s (%s) VALUES (%s)" % (
                q(table), ", ".join(q(c) for c in real), ", ".join("?" * len(real))), vals)
        except sqlite3.DatabaseError:
            pass
    if rng.random() < 0.2:
        db.execute("CREATE VIEW %s AS SELECT * FROM %s" % (q("v_" + table), q(table)))
        table = "v_" + table
    db.commit()
    db.close()
    return table


def snapshot(d):
    out = {}
    for n in sorted(os.listdir(d)):
        with open(os.path.join(d, n), "rb") as f:
            out[n] = hashlib.sha1(f.read()).hexdigest()
    return out


def fuzz_source(rng, tmp, n, keep):
    failed = 0
    for k in range(n):
        d = tempfile.mkdtemp(dir=tmp)
        path = os.path.join(d, rng.choice(["s.db", "my db.sqlite", "s:x.db"]))
        table = gen_source(rng, path)
        before = snapshot(d)
        p = run(["--print-config", "--schema-from", "%s:%s" % (path, table)])
        why = judge(p, table)
        if why is None and snapshot(d) != before:
            why = "the source's directory changed: %s -> %s" % (
                sorted(before), sorted(snapshot(d)))
        if why is None and p.returncode == 0:
            why = round_trip(p.stdout, tmp)
        if why:
            failed += 1
            dst = os.path.join(keep, "source-%05d" % k)
            shutil.copytree(d, dst)
            with open(os.path.join(dst, "TABLE"), "w", encoding="utf-8",
                      errors="backslashreplace") as f:
                f.write(table + "\n")
            print("FAIL source %d (%s): %s" % (k, dst, why[:400]), flush=True)
        shutil.rmtree(d)
    return failed


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("spec", "source"):
        sys.exit(__doc__)
    kind, n = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    keep = os.environ.get("FUZZ_KEEP") or tempfile.mkdtemp(prefix="idxlab-fuzz-keep.")
    os.makedirs(keep, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="idxlab-fuzz.") as tmp:
        f = (fuzz_spec if kind == "spec" else fuzz_source)(rng, tmp, n, keep)
    if f:
        print("failing inputs kept in %s" % keep)
    else:
        shutil.rmtree(keep, ignore_errors=True)
    print("fuzz %s: %d cases, %d failed" % (kind, n, f))
    sys.exit(1 if f else 0)


if __name__ == "__main__":
    main()
