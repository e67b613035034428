# --schema-from's sources as they are found: nothing is created or written
# beside a user's SQLite file (a WAL-mode file, one a live writer holds, a
# crashed WAL, a side file that is a link, a path with URI characters, a
# symlink to the file), the sample's memory is bounded by what it keeps,
# not by the size of the values, and odd tables come out right (an SQLite
# table with generated columns, a PostgreSQL table with inheritance
# children).
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
# strace, when it can trace here (a container may forbid ptrace).
tracer=""
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	tracer=strace
fi

# snap DIR...: every entry's name, kind, size, mode, mtime (the dirs' own
# too) and every file's content hash.
snap() {
	for d; do
		find "$d" -printf '%p %y %s %m %T@ %l\n' | sort
		find "$d" -type f -exec sha256sum {} + | sort
	done
}

# derive NAME SOURCE:TABLE: --print-config --schema-from, the output in
# $T/NAME.pc and the derived spec in $T/NAME.spec; then once more under
# strace, what it opened in $T/NAME.trace (LeakSanitizer cannot run under
# ptrace: that run goes without it).
derive() {
	name=$1
	"$IDXLAB" --print-config --schema-from "$2" >"$T/$name.pc" 2>&1
	echo "rc=$?" >>"$T/$name.pc"
	sed -n 's/^#   //p' "$T/$name.pc" >"$T/$name.spec"
	[ -z "$tracer" ] && return
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$T/$name.trace" \
		-e trace=open,openat,creat,truncate,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat \
		"$IDXLAB" --print-config --schema-from "$2" >"$T/$name.tpc" 2>&1 ||
		bad "source/$name-traced" "exit $?: $(cat "$T/$name.tpc")"
}

# untouched NAME BEFORE DIR...: the dirs' listings, mtimes and contents
# are as in BEFORE (their snap), and the trace has no open of a path in a
# DIR other than for reading, and nothing made, renamed or removed there.
untouched() {
	name=$1 before=$2
	shift 2
	after=$(snap "$@")
	if [ "$before" != "$after" ]; then
		bad "source/$name-dir-unchanged" "before:
$before
after:
$after"
	else
		ok "source/$name-dir-unchanged"
	fi
	if [ -z "$tracer" ]; then
		skip "source/$name-no-write-open" "strace is missing or cannot trace here"
		return
	fi
	w="" seen=""
	for d; do
		w=$w$(grep -F "\"$d/" "$T/$name.trace" | grep -E 'O_CREAT|O_RDWR|O_WRONLY|O_TRUNC|creat\(|truncate\(|unlink|rename|mkdir')
		seen=$seen$(grep -F "\"$d/" "$T/$name.trace")
	done
	if [ -n "$w" ]; then
		bad "source/$name-no-write-open" "$w"
	elif [ -z "$seen" ]; then
		bad "source/$name-no-write-open" "the trace shows no open in $* at all: $(head -c 300 "$T/$name.trace")"
	else
		ok "source/$name-no-write-open"
	fi
}

# has NAME PATTERN FILE: PASS when grep -E finds PATTERN in FILE.
has() {
	if grep -qE -- "$2" "$3"; then ok "$1"; else bad "$1" "no /$2/ in: $(cat "$3")"; fi
}

# --- item 4: nothing beside the user's SQLite file ----------------------------
mkdir -p "$T/src/clean" "$T/src/live" "$T/src/crash" "$T/src/crashshm" "$T/src/link" \
	"$T/src/elsewhere" "$T/src/p%41?x#y" "$T/src/target" "$T/src/ln"
"$py" - "$T/src/clean/w.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA journal_mode=WAL")
c.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INT)")
c.executemany("INSERT INTO t(a, b) VALUES (?, ?)", [("x%019d" % i, i % 5) for i in range(1000)])
c.commit()
c.close()
PY
[ ! -e "$T/src/clean/w.db-wal" ] && [ ! -e "$T/src/clean/w.db-shm" ] ||
	bad source/setup "python left a -wal or -shm after closing: $(ls "$T/src/clean")"

# A WAL-mode file nobody has open.
before=$(snap "$T/src/clean")
derive wal-clean "$T/src/clean/w.db:t"
untouched wal-clean "$before" "$T/src/clean"
has source/wal-clean-read 'sample of its first 1000 rows over 1000 rows' "$T/wal-clean.pc"

# A WAL-mode file a live writer holds: a committed row still in its WAL, a
# write transaction open. Read through its -shm, read-only: the committed
# row is seen, the uncommitted one is not.
cp "$T/src/clean/w.db" "$T/src/live/w.db"
"$py" - "$T/src/live/w.db" "$T/live.ready" "$T/live.stop" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("INSERT INTO t(a, b) VALUES ('y%019d', 9)" % 1)
c.execute("BEGIN IMMEDIATE")
c.execute("INSERT INTO t(a, b) VALUES ('z%019d', 9)" % 2)
open(sys.argv[2], "w").close()
# until told, or until the test is gone (a test killed midway)
parent, end = os.getppid(), time.time() + 900
while not os.path.exists(sys.argv[3]) and os.getppid() == parent and time.time() < end:
	time.sleep(0.05)
PY
holder=$!
i=0
while [ ! -e "$T/live.ready" ] && [ $i -lt 600 ] && kill -0 $holder 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -e "$T/live.ready" ]; then
	bad source/wal-live-setup "the writer did not get ready in 60 s"
else
	# The crashed WALs: the file and its WAL as a writer that died left them,
	# without its -shm and with it.
	cp "$T/src/live/w.db" "$T/src/live/w.db-wal" "$T/src/crash/"
	cp "$T/src/live/w.db" "$T/src/live/w.db-wal" "$T/src/live/w.db-shm" "$T/src/crashshm/"
	before=$(snap "$T/src/live")
	derive wal-live "$T/src/live/w.db:t"
	untouched wal-live "$before" "$T/src/live"
	has source/wal-live-sees-committed-rows 'sample of its first 1001 rows over 1001 rows' "$T/wal-live.pc"
	has source/wal-live-sees-committed '^# how it was read: .*read while another process had it open' "$T/wal-live.pc"
fi
touch "$T/live.stop"
wait $holder

if [ -e "$T/src/crash/w.db-wal" ]; then
	before=$(snap "$T/src/crash")
	derive wal-crash "$T/src/crash/w.db:t"
	untouched wal-crash "$before" "$T/src/crash"
	has source/wal-crash-says-unseen-rows 'over 1000 rows$' "$T/wal-crash.pc"
	has source/wal-crash-says-unseen '^# how it was read: .*its WAL was left without its -shm, with up to 1 frame \([0-9]+ bytes\) that may not be in the file yet: not seen' "$T/wal-crash.pc"
	before=$(snap "$T/src/crashshm")
	derive wal-crash-shm "$T/src/crashshm/w.db:t"
	untouched wal-crash-shm "$before" "$T/src/crashshm"
	has source/wal-crash-shm-read 'sample of its first 1001 rows over 1001 rows' "$T/wal-crash-shm.pc"
fi

# A -wal beside the file that is a link (planted in a dir others can
# write): never opened, never followed.
cp "$T/src/clean/w.db" "$T/src/link/w.db"
echo "not yours" >"$T/src/elsewhere/secret"
ln -s "$T/src/elsewhere/secret" "$T/src/link/w.db-wal"
before=$(snap "$T/src/link" "$T/src/elsewhere")
derive side-link "$T/src/link/w.db:t"
untouched side-link "$before" "$T/src/link" "$T/src/elsewhere"
if [ -n "$tracer" ] && grep -qE 'w\.db-wal|/secret' "$T/side-link.trace"; then
	bad source/side-link-not-opened "$(grep -E 'w\.db-wal|/secret' "$T/side-link.trace")"
else
	ok source/side-link-not-opened
fi
has source/side-link-said 'a -wal, -shm or -journal beside it is not a regular file: not read' "$T/side-link.pc"
[ "$(cat "$T/src/elsewhere/secret")" = "not yours" ] && ok source/side-link-target-unchanged ||
	bad source/side-link-target-unchanged "$(cat "$T/src/elsewhere/secret")"

# A path with the characters a file: URI gives meaning to.
odd="$T/src/p%41?x#y"
cp "$T/src/clean/w.db" "$odd/a%3F#.db"
before=$(snap "$odd")
derive uri-chars "$odd/a%3F#.db:t"
untouched uri-chars "$before" "$odd"
has source/uri-chars-read 'sample of its first 1000 rows over 1000 rows' "$T/uri-chars.pc"

# A symlink to the file: nothing beside the link nor beside its target.
cp "$T/src/clean/w.db" "$T/src/target/w.db"
ln -s "$T/src/target/w.db" "$T/src/ln/l.db"
before=$(snap "$T/src/target" "$T/src/ln")
derive symlink "$T/src/ln/l.db:t"
untouched symlink "$before" "$T/src/target" "$T/src/ln"
has source/symlink-read 'sample of its first 1000 rows over 1000 rows' "$T/symlink.pc"

# A writer that died mid-transaction left a hot -journal: not rolled back
# (that would write the file), read as the file is, and said.
mkdir -p "$T/src/hot"
"$py" - "$T/src/hot/h.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT)")
c.execute("BEGIN")
c.executemany("INSERT INTO t(x) VALUES (?)", [("a" * 100,) for i in range(20000)])
c.execute("COMMIT")
c.execute("PRAGMA cache_size = 10")
c.execute("BEGIN")
c.execute("UPDATE t SET x = 'b' || x")
os._exit(0)
PY
if [ -s "$T/src/hot/h.db-journal" ]; then
	before=$(snap "$T/src/hot")
	derive hot-journal "$T/src/hot/h.db:t"
	untouched hot-journal "$before" "$T/src/hot"
	has source/hot-journal-said-rows 'over 20000 rows$' "$T/hot-journal.pc"
	has source/hot-journal-said '^# how it was read: .*a -journal a writer that did not finish left beside it was not rolled back' "$T/hot-journal.pc"
else
	bad source/hot-journal-setup "python left no -journal: $(ls -la "$T/src/hot")"
fi

# --- item 5: the sample keeps lengths, not values --------------------------------
# 40 rows of 8 MiB blobs (320 MB): the derivation's peak RSS stays far below
# that, and the lengths and orders still come out right.
avail=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
if [ "${avail:-0}" -lt 1000000 ]; then
	skip source/big-values "less than 1 GB free under $T"
else
	"$py" - "$T/src/big.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE docs(id INTEGER PRIMARY KEY, url TEXT, note TEXT, body BLOB)")
for i in range(40):
	c.execute("INSERT INTO docs(url, note, body) VALUES (?, ?, ?)",
	          ("https://example.com/a/rather/long/common/prefix/of/the/urls/item/%08d" % i,
	           "n" * (30 + i % 11), os.urandom(8 << 20)))
c.commit()
c.close()
PY
	"$py" - "$T/big.rss" "$IDXLAB" --print-config --schema-from "$T/src/big.db:docs" >"$T/big.pc" 2>&1 <<'PY'
import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], "w").write("%d %d\n" % (rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
	read -r rc kb <"$T/big.rss"
	[ "$rc" = 0 ] && check source/big-values-bounded-rss "$kb < 100 * 1024" ||
		bad source/big-values-bounded-rss "exit $rc: $(cat "$T/big.pc")"
	spec=$(sed -n 's/^#   //p' "$T/big.pc")
	# note: 30..40 characters, 35 on average; url: 73 bytes, in order
	if echo "$spec" | grep -qx "column url text(73) seq" && echo "$spec" | grep -q "^column note text(35) " &&
		echo "$spec" | grep -q "^column body text(256) "; then
		ok source/big-values-widths
	else
		bad source/big-values-widths "$(cat "$T/big.pc")"
	fi
	rm -f "$T/src/big.db"
fi

# --- item 10: generated columns are sampled by name, and kept as generated
# columns (issue 19: their expressions are in idxlab's grammar) ---------------
"$py" - "$T/src/gen.db" <<'PY'
import random, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("""CREATE TABLE g(id INTEGER PRIMARY KEY, a INT,
	v INT GENERATED ALWAYS AS (a * 2) VIRTUAL,
	s TEXT GENERATED ALWAYS AS ('s' || a) STORED, name TEXT)""")
c.execute("CREATE INDEX g_v ON g(v)")
c.execute("CREATE INDEX g_name ON g(name)")
r = random.Random(1)
c.executemany("INSERT INTO g(a, name) VALUES (?, ?)",
              [(i % 3, "%040x" % r.getrandbits(160)) for i in range(3000)])
c.commit()
c.close()
PY
derive gen "$T/src/gen.db:g"
if grep -qx "column name text(40) rand" "$T/gen.spec" && grep -qx "column a int few:3" "$T/gen.spec" &&
	grep -qx "column v int few:3 generated (a \* 2)" "$T/gen.spec" && grep -q "^index v name idxlab_g_v$" "$T/gen.spec"; then
	ok source/sqlite-generated-columns
else
	bad source/sqlite-generated-columns "$(cat "$T/gen.pc")"
fi
has source/sqlite-generated-said "^# how it was read: v: generated \\(a \\* 2\\), computed by SQLite and PostgreSQL" "$T/gen.pc"
has source/sqlite-generated-stored-said "^# how it was read: s: generated \\('s' \\|\\| a\\) stored, computed by" "$T/gen.pc"

# --- item 10: a PostgreSQL table with inheritance children --------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip source/pg "no PostgreSQL server binaries (install postgresql)"
	exit 0
fi
own_pg source/pg-server || exit 0
psql_ "CREATE TABLE ev(id bigint PRIMARY KEY, kind int NOT NULL, msg text);
	CREATE INDEX ev_kind ON ev(kind);
	CREATE TABLE ev_a(extra int) INHERITS (ev);
	CREATE TABLE ev_b() INHERITS (ev);
	INSERT INTO ev SELECT i, i % 4, repeat('m', 20) FROM generate_series(1, 1000) i;
	INSERT INTO ev_a SELECT i, i % 4, repeat('m', 20), 1 FROM generate_series(1001, 3000) i;
	INSERT INTO ev_b SELECT i, i % 4, repeat('m', 20) FROM generate_series(3001, 6000) i;
	ANALYZE ev; ANALYZE ev_a; ANALYZE ev_b;" >/dev/null
n=$(psql_ "SELECT count(*) FROM pg_stats WHERE tablename = 'ev' AND attname = 'kind'")
[ "$n" = 2 ] || bad source/pg-setup "pg_stats should hold 2 rows for ev.kind (inherited and not): $n"
"$IDXLAB" --print-config --schema-from "$dsn:public.ev" >"$T/pg.pc" 2>&1
spec=$(sed -n 's/^#   //p' "$T/pg.pc")
if [ "$(echo "$spec" | grep -c '^column')" = 2 ] && echo "$spec" | grep -qx "column kind int few:4" &&
	echo "$spec" | grep -q "^column msg text(20) " && ! echo "$spec" | grep -q "_1 "; then
	ok source/pg-inherited-columns-once
else
	bad source/pg-inherited-columns-once "$(cat "$T/pg.pc")"
fi
has source/pg-inherited-said '2 tables inherit from it: read with them as one table' "$T/pg.pc"
has source/pg-inherited-rows 'value orders from pg_stats.* over 6000 rows' "$T/pg.pc"

# A generated column (STORED, all PostgreSQL has) is read as a column, its
# index kept, its expression kept (issue 19), and said (it was left out
# without a word, and its index as "an expression index").
psql_ "CREATE TABLE pgen(id bigint PRIMARY KEY, a int, g int GENERATED ALWAYS AS (a * 2) STORED, name text);
	CREATE INDEX pgen_g ON pgen(g);
	INSERT INTO pgen(id, a, name) SELECT i, i % 3, md5(i::text) FROM generate_series(1, 3000) i;
	ANALYZE pgen;" >/dev/null
"$IDXLAB" --print-config --schema-from "$dsn:public.pgen" >"$T/pgen.pc" 2>&1
spec=$(sed -n 's/^#   //p' "$T/pgen.pc")
if echo "$spec" | grep -qx "column g int few:3 generated (a \* 2) stored" && echo "$spec" | grep -qx "index g name idxlab_pgen_g" &&
	echo "$spec" | grep -q "^column name text(32) "; then
	ok source/pg-generated-column
else
	bad source/pg-generated-column "$(cat "$T/pgen.pc")"
fi
has source/pg-generated-said 'g: generated \(a \* 2\) stored, computed by SQLite and PostgreSQL' "$T/pgen.pc"
