# --schema-from SOURCE:TABLE: the shape of a user's table, read read-only
# from an SQLite file or a PostgreSQL server, as a spec idxlab prints and
# runs on a table of its own. The user's file and database are unchanged.
. "$(dirname "$0")/lib.sh"


# --- SQLite ------------------------------------------------------------------
db=$T/app.db
/usr/bin/python3 - "$db" <<'PY'
import random, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, created_at TEXT,
                   country TEXT, status INTEGER, "Full Name" VARCHAR(40), hot INTEGER);
CREATE INDEX users_created ON users(created_at);
CREATE INDEX users_cc ON users(country, created_at);
CREATE INDEX users_lower ON users(lower(email));
CREATE TABLE other(x);
""")
r = random.Random(1)
c.executemany("INSERT INTO users(email, created_at, country, status, \"Full Name\", hot) "
              "VALUES (?, ?, ?, ?, ?, 0)",
              [("u%08x@example.com" % r.getrandbits(32), "2026-01-01 %08d" % i,
                r.choice(["de", "fr", "us", "uk", "jp"]), r.choice([0, 1, 2, 3]), "n%d" % i)
               for i in range(20000)])
c.commit()
PY
sum_before=$(sha256sum "$db" | cut -d' ' -f1)
"$IDXLAB" --schema-from "$db:users" --print-config >"$T/pc" 2>"$T/err"
spec=$(sed -n 's/^#   //p' "$T/pc")
holds schema-from/sqlite-columns "$(cat "$T/pc" "$T/err")" sh -c '
	echo "$1" | grep -qx "id bigint seq" &&
	echo "$1" | grep -qx "column email text(21) rand" &&
	echo "$1" | grep -qx "column created_at text(19) seq" &&
	echo "$1" | grep -qx "column country text(2) few:5" &&
	echo "$1" | grep -qx "column status bigint few:4" &&
	echo "$1" | grep -q "^column full_name text([0-9]*) " &&
	echo "$1" | grep -qx "column hot bigint few:1"' - "$spec"
holds schema-from/sqlite-indexes "$spec" sh -c '
	[ "$(echo "$1" | grep "^index")" = "index email unique name idxlab_sqlite_autoindex_users_1
index created_at name idxlab_users_created
index country,created_at name idxlab_users_cc
index lower(email) name idxlab_users_lower" ]' - "$spec"
# The notes say each order's evidence; a renamed column is no note (issue 19).
holds schema-from/sqlite-notes "$(cat "$T/pc")" sh -c '
	grep -qx "# how it was read: value orders from a sample of 10000 rows in 10 runs at spaced rowids over 20000 rows" "$1" &&
	grep -qx "# how it was read: created_at: never decreases in 10000 sampled rows -> seq" "$1" &&
	! grep -q "is full_name here" "$1"' - "$T/pc"
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum_before" ] && [ ! -e "$db-journal" ] &&
	[ ! -e "$db-wal" ] && ok schema-from/sqlite-file-unchanged ||
	bad schema-from/sqlite-file-unchanged "the user's file changed"
# The spec it prints is a spec file: saved and given back, it is the same.
echo "$spec" >"$T/saved.spec"
"$IDXLAB" --schema "$T/saved.spec" --print-config >"$T/pc2" 2>&1
holds schema-from/printed-spec-loads "$(cat "$T/pc2")" sh -c '
	[ "$(sed -n "s/^#   //p" "$1" | grep -v "^table")" = "$(echo "$2" | grep -v "^table")" ]' - "$T/pc2" "$spec"
expect_exit schema-from/no-such-table 2 "no table userz in this file \(its tables: other, users\)" \
	"$IDXLAB" run --schema-from "$db:userz"
expect_exit schema-from/no-such-file 2 "$T/nothing-here: no such file" \
	"$IDXLAB" run --schema-from "$T/nothing-here:users"
echo "not a database" >"$T/plain.txt"
expect_exit schema-from/no-reader 2 "no engine reads this source" \
	"$IDXLAB" run --schema-from "$T/plain.txt:users"
expect_exit schema-from/no-table-named 2 "write SOURCE:TABLE" "$IDXLAB" run --schema-from "$db"
# An unreachable PostgreSQL source: libpq's message on one line, its hint
# after a space, no escaped newline or tab ("\n\t") in it.
"$IDXLAB" run --schema-from "host=$T/no-server-here dbname=x:t" >/dev/null 2>"$T/pgun.err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'postgres: cannot connect: .*failed' "$T/pgun.err" &&
	! grep -qF '\n' "$T/pgun.err" && ! grep -qF '\t' "$T/pgun.err"; then
	ok schema-from/unreachable-pg-one-line
else bad schema-from/unreachable-pg-one-line "exit $rc: $(cat "$T/pgun.err")"; fi

# A text primary key and 263 more columns: the key keeps its place (one
# column k, a unique index on it first), the columns past the 255 a spec
# holds besides its id are named in the notes, nothing out of the arrays reaches the spec
# (the derivation once wrote past its column array: a column named \x01
# and a garbage index), and the spec it prints loads and runs.
/usr/bin/python3 - "$T/wide.db" <<'PY2'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
cols = ", ".join("c%d INT" % i for i in range(263))
c.execute("CREATE TABLE t(k TEXT PRIMARY KEY, %s)" % cols)
c.execute("CREATE TABLE last(%s, k TEXT PRIMARY KEY)" % cols)
c.execute("CREATE INDEX t_c5 ON t(c5)")
c.execute("CREATE INDEX t_c258 ON t(c258)")
for t in ("t", "last"):
    c.execute("INSERT INTO %s(k, %s) VALUES ('a', %s)" %
              (t, ", ".join("c%d" % i for i in range(263)), ", ".join(["1"] * 263)))
c.commit()
PY2
for t in t last; do
	"$IDXLAB" --schema-from "$T/wide.db:$t" --print-config >"$T/wide-$t.pc" 2>&1
	rc=$?
	sed -n 's/^#   //p' "$T/wide-$t.pc" >"$T/wide-$t.spec"
	holds schema-from/text-key-263-columns-$t "rc=$rc $(cat "$T/wide-$t.pc")" sh -c '
		[ $1 = 0 ] &&
		[ "$(grep -c "^column " "$2")" = 255 ] &&
		[ "$(grep -c "^column k " "$2")" = 1 ] &&
		grep -qx "column k text(14) rand" "$2" &&
		[ "$(grep "^index" "$2" | head -1)" = "index k unique name idxlab_sqlite_autoindex_${4}_1" ] &&
		grep -qx "column c253 int rand" "$2" && ! grep -q "^column c254 " "$2" &&
		! tr -d "\n" <"$3" | LC_ALL=C grep -q "[^[:print:]]" &&
		grep -q "how it was read: .*columns c254, c255, c256, c257, c258, c259, c260, c261, c262 are left out (a spec holds 255 columns besides its id)" "$3"' \
		- $rc "$T/wide-$t.spec" "$T/wide-$t.pc" $t
done
holds schema-from/text-key-263-columns-index-left-out "$(cat "$T/wide-t.pc")" sh -c '
	grep -qx "index c5 name idxlab_t_c5" "$1" && grep -q "index t_c258 left out: it covers a column left out" "$2"' \
	- "$T/wide-t.spec" "$T/wide-t.pc"
"$IDXLAB" run --schema "$T/wide-last.spec" --rows 300 --indexes 1 --format csv >"$T/wide.csv" 2>&1 &&
	"$IDXLAB" run --schema-from "$T/wide.db:t" --rows 300 --indexes 2 --format csv >>"$T/wide.csv" 2>&1 &&
	ok schema-from/text-key-263-columns-runs ||
	bad schema-from/text-key-263-columns-runs "$(tail -5 "$T/wide.csv")"

# A table name of 495 characters cut the LIMIT off the sample's query: the
# sample then wrote past its 10000 slots. It stops at 10000 rows (in 10 runs of 1000).
long=$(printf '%495s' '' | tr ' ' t)
/usr/bin/python3 - "$T/long.db" "$long" <<'PY2'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('CREATE TABLE "%s"(a INT)' % sys.argv[2])
c.executemany('INSERT INTO "%s" VALUES (?)' % sys.argv[2], [(i,) for i in range(10050)])
c.commit()
PY2
(cd "$T" && "$IDXLAB" --print-config --schema-from "long.db:$long") >"$T/long.pc" 2>&1
rc=$?
holds schema-from/long-table-name-sample-bounded "rc=$rc $(tail -c 600 "$T/long.pc")" sh -c '
	[ $1 = 0 ] && grep -q "a sample of 10000 rows in 10 runs at spaced rowids over" "$2"' - $rc "$T/long.pc"

# A hostile file: quoted names that hold a newline and config lines, a
# terminal escape (OSC title, clear screen), a C1 CSI, in columns, an index,
# the key and its declared type. --print-config escapes them, so its output
# reads back with -c to itself (the first line names the file read) and sets
# nothing (but the prefill: the source's rows); no control byte reaches the output or the terminal.
/usr/bin/python3 - "$T/evil.db" <<'PY2'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
nl = 'x\ndsn = host=/evil dbname=x\nsync = off\nrows = 7\n#'
esc = 'y\x1b]0;TITLE\x07\x1b[2J'
c.execute('CREATE TABLE t("k\nrows = 3" "TEXT\nsync = off" PRIMARY KEY, "%s" INT, "%s" INT,'
          ' "z\u009bq" INT)' % (nl, esc))
c.execute('CREATE INDEX "ix\nrows = 9" ON t(lower("%s"))' % esc)
c.execute('CREATE INDEX "iy\x1b[2J" ON t("%s")' % nl)
c.execute("INSERT INTO t VALUES ('a', 1, 2, 3)")
c.commit()
PY2
ctrl() { tr -d '\n' <"$1" | LC_ALL=C grep -c '[[:cntrl:]]'; }
"$IDXLAB" --print-config --schema-from "$T/evil.db:t" >"$T/evil.pc" 2>"$T/evil.err"
rc=$?
"$IDXLAB" -c "$T/evil.pc" --print-config >"$T/evil.pc2" 2>>"$T/evil.err"
rc2=$?
"$IDXLAB" --print-config --schema-from "$T/app.db:users" >"$T/plain.pc" 2>/dev/null
holds schema-from/hostile-names-read-back "rc=$rc rc2=$rc2 $(cat -A "$T/evil.pc" "$T/evil.err" | head -c 3000)" sh -c '
	[ $1 = 0 ] && [ $2 = 0 ] &&
	[ "$(sed 1d "$3")" = "$(sed 1d "$4")" ] &&
	[ "$(grep -v "^#" "$3" | grep -v "^schema = \|^prefill = ")" = "$(grep -v "^#" "$5" | grep -v "^schema = \|^prefill = ")" ] &&
	[ "$(grep -v "^# how it was read: " "$3" | grep -c "^dsn = \|^sync = \|^rows = ")" = 2 ] &&
	grep -q "^# how it was read: x\\\\ndsn = host=/evil dbname=x\\\\nsync = off" "$3" &&
	grep -q "^# how it was read: y\\\\x1b\]0;TITLE\\\\x07\\\\x1b\[2J: " "$3" &&
	grep -q "^# how it was read: z\\\\xc2\\\\x9bq: " "$3" &&
	grep -q "index ix\\\\nrows = 9 left out" "$3"' - $rc $rc2 "$T/evil.pc" "$T/evil.pc2" "$T/plain.pc"
[ "$(ctrl "$T/evil.pc")" = 0 ] && [ "$(ctrl "$T/evil.err")" = 0 ] &&
	ok schema-from/hostile-names-no-control-bytes ||
	bad schema-from/hostile-names-no-control-bytes "$(ctrl "$T/evil.pc") and $(ctrl "$T/evil.err") lines with one: $(cat -A "$T/evil.pc" | grep -F '^[' | head -3)"
# A run prints the derived spec on standard error: escaped there too.
"$IDXLAB" run --schema-from "$T/evil.db:t" --rows 50 --format csv >"$T/evil.csv" 2>"$T/evil.run"
rc=$?
[ $rc = 0 ] && [ "$(ctrl "$T/evil.run")" = 0 ] && [ "$(ctrl "$T/evil.csv")" = 0 ] &&
	grep -q '^idxlab: how: x\\ndsn' "$T/evil.run" &&
	ok schema-from/hostile-names-run-escaped ||
	bad schema-from/hostile-names-run-escaped "rc=$rc $(cat -A "$T/evil.run" | head -c 2000)"
# A --schema file's name with a newline or an escape is refused, escaped;
# another odd name becomes a spec name the rules admit.
printf 'column a int seq\n' >"$T/$(printf 'n\nx\033]0;T\007.spec')"
expect_exit schema-from/spec-file-name-control-refused 2 \
	"'.*/n\\\\nx\\\\x1b\]0;T\\\\x07\.spec' holds a control character" \
	"$IDXLAB" --print-config --schema "$T/$(printf 'n\nx\033]0;T\007.spec')"
[ "$(ctrl "$T/err")" = 0 ] || bad schema-from/spec-file-name-control-raw "$(cat -A "$T/err")"
expect_exit schema-from/source-control-refused 2 "holds a control character" \
	"$IDXLAB" --print-config --schema-from "$T/app.db:$(printf 'users\033[2J')"
# Nor can "schema = " hold a comma (a sweep's separator) or " #" (a comment)
# in a value --print-config writes: refused rather than written wrong.
/usr/bin/python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE \"a,b #c\"(v INT)"); c.commit()' "$T/evil.db"
expect_exit schema-from/source-unwritable-refused 2 "a config file reads back as it is: no ','" \
	"$IDXLAB" --print-config --schema-from "$T/evil.db:a,b #c"
printf 'column a int seq\n' >"$T/My Spec!.spec"
"$IDXLAB" --print-config --schema "$T/My Spec!.spec" >"$T/my.pc" 2>&1
holds schema-from/spec-file-name-admitted "$(cat "$T/my.pc")" grep -qx '#   table my_spec_' "$T/my.pc"

# Spec files: the SQL spellings of the types are idxlab's types, and a hot
# column named payload (idxlab's own) fails at its line before any run.
cat >"$T/sqltypes.spec" <<'EOF'
id BIGINT seq
column a integer rand
column b smallint few:10
column c int8 rand
column d varchar(20) rand
column e character varying(30) seq
column f double precision rand
column g timestamptz seq
column h timestamp with time zone rand
column i char(2) few:50
index a
index d,e
EOF
"$IDXLAB" --print-config --schema "$T/sqltypes.spec" >"$T/sqltypes.pc" 2>&1
rc=$?
holds schema-from/spec-sql-type-spellings "rc=$rc $(cat "$T/sqltypes.pc")" sh -c '
	[ $1 = 0 ] && [ "$(sed -n "s/^#   column //p" "$2")" = "a int rand
b int few:10
c bigint rand
d text(20) rand
e text(30) seq
f bigint rand
g timestamptz seq
h timestamptz rand
i text(2) few:50" ]' - $rc "$T/sqltypes.pc"
printf 'column a int rand\nhot payload\nindex a\n' >"$T/hotpayload.spec"
expect_exit schema-from/spec-hot-payload-at-its-line 2 "hotpayload.spec:2: hot payload: payload is a column of idxlab's own" \
	"$IDXLAB" --print-config --schema "$T/hotpayload.spec"

# --- PostgreSQL ----------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip schema-from/pg "no PostgreSQL server binaries (install postgresql)"
	exit 0
fi
own_pg schema-from/pg-server || exit 0
psql_ "CREATE SCHEMA app; CREATE TABLE app.orders(id bigint PRIMARY KEY, customer int NOT NULL,
	placed timestamptz NOT NULL, ref uuid NOT NULL, note text, state smallint,
	amount numeric(10,2));
	INSERT INTO app.orders SELECT i, (i * 7919) % 1000, timestamptz '2026-01-01' + i * interval '1 s',
	md5(i::text)::uuid, 'note ' || i, CASE WHEN i % 10 < 7 THEN 0 ELSE i % 5 END, i / 100.0
	FROM generate_series(1, 20000) i;
	CREATE INDEX orders_customer ON app.orders(customer);
	CREATE UNIQUE INDEX orders_ref ON app.orders(ref);
	CREATE INDEX orders_cust_placed ON app.orders(customer, placed);
	CREATE INDEX orders_open ON app.orders(placed) WHERE state = 0;
	CREATE INDEX orders_note ON app.orders USING hash (note);
	ANALYZE app.orders;" >/dev/null
before=$(psql_ "SELECT n_tup_ins, n_tup_upd, n_tup_del, n_live_tup FROM pg_stat_user_tables WHERE relname = 'orders';
	SELECT count(*) FROM pg_class; SELECT count(*) FROM pg_namespace")
"$IDXLAB" --schema-from "$dsn:app.orders" --print-config >"$T/pg.pc" 2>"$T/pg.err"
spec=$(sed -n 's/^#   //p' "$T/pg.pc")
holds schema-from/pg-columns "$(cat "$T/pg.pc" "$T/pg.err")" sh -c '
	echo "$1" | grep -qx "id bigint seq" &&
	echo "$1" | grep -qx "column customer int few:1000" &&
	echo "$1" | grep -qx "column placed timestamptz seq" &&
	echo "$1" | grep -qx "column ref uuid uuid4" &&
	echo "$1" | grep -q "^column note text([0-9]*) " &&
	echo "$1" | grep -qE "^column state int (few|zipf):[0-9.:]+" &&
	echo "$1" | grep -qx "column amount numeric(10,2) seq in:0.01..100.00"' - "$spec"
holds schema-from/pg-indexes "$spec" sh -c '
	[ "$(echo "$1" | grep "^index")" = "index customer name idxlab_orders_customer
index ref unique name idxlab_orders_ref
index customer,placed name idxlab_orders_cust_placed
index placed name idxlab_orders_open where state = 0" ]' - "$spec"
holds schema-from/pg-notes "$(cat "$T/pg.pc")" sh -c '
	grep -qx "# how it was read: amount: numeric(10,2) kept" "$1" &&
	grep -q "^# how it was read: index orders_note left out: not a btree" "$1" &&
	grep -q "^# how it was read: value orders from pg_stats.* over 20000 rows$" "$1"' - "$T/pg.pc"
after=$(psql_ "SELECT n_tup_ins, n_tup_upd, n_tup_del, n_live_tup FROM pg_stat_user_tables WHERE relname = 'orders';
	SELECT count(*) FROM pg_class; SELECT count(*) FROM pg_namespace")
[ "$before" = "$after" ] && ok schema-from/pg-database-unchanged ||
	bad schema-from/pg-database-unchanged "before: $before after: $after"
# A table never analysed: said, not guessed silently.
psql_ "CREATE TABLE app.fresh(id int PRIMARY KEY, v text)" >/dev/null
"$IDXLAB" --schema-from "$dsn:app.fresh" --print-config >"$T/fresh" 2>&1
holds schema-from/pg-no-statistics "$(cat "$T/fresh")" grep -q \
	"it has no statistics: run ANALYZE on it (idxlab writes nothing to your database)" "$T/fresh"
psql_ "CREATE ROLE nobody_here LOGIN; GRANT USAGE ON SCHEMA app TO nobody_here" >/dev/null
expect_exit schema-from/pg-no-privilege 2 "nobody_here may not read app.orders.*GRANT SELECT ON app.orders TO nobody_here" \
	"$IDXLAB" run --schema-from "host=$T/own dbname=postgres user=nobody_here:app.orders"
expect_exit schema-from/pg-no-such-table 2 "no table app.nope in this database \(its tables: app.fresh, app.orders\)" \
	"$IDXLAB" run --schema-from "$dsn:app.nope"
"$IDXLAB" run --schema-from "host=$T/nowhere password=sekrit-pw dbname=x:t" >"$T/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "cannot connect" "$T/out" && ! grep -q sekrit-pw "$T/out" &&
	ok schema-from/pg-unreachable-no-password || bad schema-from/pg-unreachable-no-password "rc=$rc $(cat "$T/out")"
# A catalog table (a text-typed primary key, 33 columns: it once segfaulted)
# and a table of the user's with a text key, 265 more columns and names that
# hold a newline and an escape: the spec stays in its arrays, the notes are
# escaped, and --print-config reads back to itself.
cols=$(i=0; while [ $i -lt 263 ]; do printf ', c%d int' $i; i=$((i + 1)); done)
psql_ "CREATE TABLE app.wide(k text PRIMARY KEY$cols, \"x
dsn = host=/evil
rows = 7\" int, \"y$(printf '\033')]0;TITLE$(printf '\007')\" int);
	INSERT INTO app.wide(k) VALUES ('a'); ANALYZE app.wide" >/dev/null
for t in pg_catalog.pg_class app.wide; do
	"$IDXLAB" --schema-from "$dsn:$t" --print-config >"$T/$t.pc" 2>&1
	rc=$?
	"$IDXLAB" -c "$T/$t.pc" --print-config >"$T/$t.pc2" 2>&1
	rc2=$?
	sed -n 's/^#   //p' "$T/$t.pc" >"$T/$t.spec"
	holds schema-from/pg-$t-bounded-read-back "rc=$rc rc2=$rc2 $(cat -A "$T/$t.pc" | tail -c 2500)" sh -c '
		[ $1 = 0 ] && [ $2 = 0 ] && [ "$(sed 1d "$3")" = "$(sed 1d "$4")" ] &&
		[ "$(grep -c "^column " "$5")" -le 255 ] &&
		[ "$(tr -d "\n" <"$3" | LC_ALL=C grep -c "[[:cntrl:]]")" = 0 ] &&
		"$6" --schema "$5" --print-config >/dev/null' - $rc $rc2 "$T/$t.pc" "$T/$t.pc2" "$T/$t.spec" "$IDXLAB"
done
holds schema-from/pg-wide-key-and-left-out "$(cat "$T/app.wide.pc")" sh -c '
	grep -qx "column k text(14) rand" "$1" && grep -q "^index k unique" "$1" &&
	grep -q "columns c254, c255, .*c262, x\\\\ndsn = host=/evil\\\\nrows = 7, y\\\\x1b\]0;TITLE\\\\x07 are left out" "$2"' \
	- "$T/app.wide.spec" "$T/app.wide.pc"
