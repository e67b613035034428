# The table's own index list (issue 19 item 2): --schema-from a table made
# here, on SQLite and on PostgreSQL, with a composite primary key, a unique
# constraint, a partial index, an expression index (lower(email)), an index
# whose WHERE idxlab does not rebuild, a foreign key and a trigger (and on
# PostgreSQL a partitioned table and one with an inheritance child). The
# derived list (names, keys, unique, WHERE) as --print-config says it; the
# indexes idxlab's own table really has on each engine, read from the
# engine's catalog; the notes name what is not reproduced; the sources are
# unchanged. The spec language's new words load, write back, and refuse
# what they do not admit with file:line.
. "$(dirname "$0")/lib.sh"

spec_of() { sed -n 's/^#   //p' "$1"; }

# --- SQLite ------------------------------------------------------------------
db=$T/shop.db
/usr/bin/python3 - "$db" <<'PY'
import random, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE line(order_id INTEGER NOT NULL, line_no INTEGER NOT NULL,
                  customer_id INTEGER REFERENCES customer(id), email TEXT NOT NULL,
                  sku TEXT, status TEXT, qty INTEGER, deleted_at TEXT,
                  PRIMARY KEY (order_id, line_no), UNIQUE (sku));
CREATE INDEX line_open ON line(status, qty) WHERE deleted_at IS NULL AND qty > 0 AND status <> 'void';
CREATE INDEX "Line Email" ON line(lower(email));
CREATE INDEX line_like ON line(qty) WHERE status LIKE 'a%';
CREATE TRIGGER line_touch AFTER INSERT ON line
  BEGIN UPDATE customer SET name = name WHERE id = NEW.customer_id; END;
""")
r = random.Random(7)
c.executemany("INSERT INTO customer VALUES (?, ?)", [(i, "c%d" % i) for i in range(100)])
c.executemany("INSERT INTO line VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
              [(i // 3, i % 3, r.randrange(100), "U%08x@Example.com" % r.getrandbits(32),
                "sku-%016x" % r.getrandbits(64), r.choice(["open", "paid", "void"]),
                r.randrange(5)) for i in range(3000)])
c.commit()
PY
sum_before=$(sha256sum "$db" | cut -d' ' -f1)
"$IDXLAB" --schema-from "$db:line" --print-config >"$T/pc" 2>"$T/err"
spec_of "$T/pc" >"$T/spec"
pk=$(sqlite3 "$db" "SELECT name FROM pragma_index_list('line') WHERE origin = 'pk'")
uq=$(sqlite3 "$db" "SELECT name FROM pragma_index_list('line') WHERE origin = 'u'")
# The list in the table's order: the key's index first, then the others in
# creation order; the source's names behind idxlab's prefix.
want="index order_id,line_no name idxlab_$pk
index sku unique name idxlab_$uq
index status,qty name idxlab_line_open where deleted_at is null and qty > 0 and status <> 'void'
index lower(email) name idxlab_line_email"
got=$(grep '^index' "$T/spec" | sed 's/^\(index order_id,line_no\) unique/\1/')
holds own-index/sqlite-list "got '$got', want '$want' ($(cat "$T/err"))" [ "$got" = "$want" ]
notes=$(grep '^# how it was read' "$T/pc")
holds own-index/sqlite-key-unique-or-said "$notes" sh -c '
	grep -qx "index order_id,line_no unique name idxlab_$2" "$1" ||
	echo "$3" | grep -q "index $2 is unique there, not here"' - "$T/spec" "$pk" "$notes"
holds own-index/sqlite-notes-not-reproduced "$notes" sh -c '
	echo "$1" | grep -q "foreign keys (customer_id) -> customer are not reproduced (with PRAGMA foreign_keys on, each insert there looks its key up in the table it references" &&
	echo "$1" | grep -q "triggers line_touch are not reproduced" &&
	echo "$1" | grep -q "index line_like left out: its WHERE status LIKE .a%.: write COL op CONSTANT" &&
	echo "$1" | grep -q "its primary key (order_id, line_no) is the first index here" &&
	! echo "$1" | grep -qi "is idxlab_"' - "$notes"
# idxlab's own table has those indexes, as SQL idxlab wrote.
out=$T/copy.db
"$IDXLAB" run --schema-from "$db:line" --indexes 4 --rows 2000 --prefill 0 --dsn "$out" \
	--format csv >"$T/run.csv" 2>"$T/run.err"
rc=$?
got=$(sqlite3 "$out" "SELECT name || ': ' || sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'idxlab_t' AND sql IS NOT NULL ORDER BY rowid" 2>&1)
want="idxlab_$pk: CREATE INDEX idxlab_$pk ON idxlab_t(\"order_id\",\"line_no\")
idxlab_$uq: CREATE UNIQUE INDEX idxlab_$uq ON idxlab_t(\"sku\")
idxlab_line_open: CREATE INDEX idxlab_line_open ON idxlab_t(\"status\",\"qty\") WHERE \"deleted_at\" is null and \"qty\" > 0 and \"status\" <> 'void'
idxlab_line_email: CREATE INDEX idxlab_line_email ON idxlab_t(lower(\"email\"))"
grep -qx "index order_id,line_no unique name idxlab_$pk" "$T/spec" &&
	want=$(echo "$want" | sed "1s/CREATE INDEX/CREATE UNIQUE INDEX/")
holds own-index/sqlite-built "exit $rc, got '$got', want '$want': $(tail -3 "$T/run.err")" \
	sh -c '[ "$1" = 0 ] && [ "$2" = "$3" ]' - $rc "$got" "$want"
holds own-index/sqlite-rows-written "$(cat "$T/run.csv")" \
	[ "$(sqlite3 "$out" "SELECT count(*) FROM idxlab_t")" = 2000 ]
[ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum_before" ] && [ ! -e "$db-journal" ] && [ ! -e "$db-wal" ] &&
	ok own-index/sqlite-source-unchanged || bad own-index/sqlite-source-unchanged "the source file changed"

# A WITHOUT ROWID table whose key's values idxlab may repeat: not kept in
# its key (t_own_rowid.sh: one that is), said to cost one btree more.
/usr/bin/python3 - "$T/wr.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE pt(playlist_id INTEGER, track_id INTEGER, PRIMARY KEY (playlist_id, track_id)) WITHOUT ROWID")
c.executemany("INSERT INTO pt VALUES (?, ?)", [(i // 10, i % 10) for i in range(500)])
c.commit()
PY
"$IDXLAB" --schema-from "$T/wr.db:pt" --print-config >"$T/wr.pc" 2>&1
holds own-index/sqlite-without-rowid-key "$(grep "^#  \\|^# how" "$T/wr.pc")" sh -c '
	grep -q "^#   index playlist_id,track_id\( unique\)\? name idxlab_" "$1" &&
	grep -q "its primary key (playlist_id, track_id) keeps its rows in key order there (WITHOUT ROWID): here it is the first index" "$1" &&
	grep -q "not kept in its key here (the key.s values as idxlab writes them may repeat): a rowid table on SQLite, the key an index beside it, one btree more per insert" "$1" &&
	! grep -q "^#   without rowid" "$1"' - "$T/wr.pc"

# A partial index on a boolean flag (WHERE active, WHERE NOT active): PostgreSQL's
# and SQLite's own way to write it, derived as `= true` / `= false` and built.
/usr/bin/python3 - "$T/flag.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
CREATE TABLE acct(id INTEGER PRIMARY KEY, email TEXT NOT NULL, active BOOLEAN NOT NULL);
CREATE INDEX acct_on ON acct(email) WHERE active;
CREATE INDEX acct_off ON acct(email) WHERE NOT active;
""")
c.executemany("INSERT INTO acct(email, active) VALUES (?, ?)", [("u%d@x" % i, i % 2) for i in range(1000)])
c.commit()
PY
"$IDXLAB" --schema-from "$T/flag.db:acct" --print-config >"$T/flag.pc" 2>&1
holds own-index/sqlite-bool-where "$(grep "^#  \\|^# how" "$T/flag.pc")" sh -c '
	grep -qx "#   index email name idxlab_acct_on where active = true" "$1" &&
	grep -qx "#   index email name idxlab_acct_off where active = false" "$1"' - "$T/flag.pc"
"$IDXLAB" run --schema-from "$T/flag.db:acct" --indexes table --rows 2000 --format csv >"$T/flag.csv" 2>"$T/flag.err"
holds own-index/sqlite-bool-where-runs "exit $?: $(tail -3 "$T/flag.err")" grep -q '^sqlite,' "$T/flag.csv"

# --- the spec language -------------------------------------------------------
cat >"$T/own.spec" <<'EOF'
id bigint seq
column email text(20) rand
column status text(4) few:3
column n int few:10
column active bool few:2
index lower(email) unique
index status,n name idxlab_open where n >= 3 and status <> 'void' and email is not null
index upper(email),n
index n where active and (not active) and active <> false
EOF
"$IDXLAB" --schema "$T/own.spec" --print-config >"$T/own.pc" 2>&1
spec_of "$T/own.pc" | grep -v '^table' >"$T/own.out"
holds own-index/spec-words-write-back "$(grep -v " = " "$T/own.pc")" sh -c '
	grep -qx "index lower(email) unique" "$1" &&
	grep -qx "index status,n name idxlab_open where n >= 3 and status <> .void. and email is not null" "$1" &&
	grep -qx "index upper(email),n" "$1" &&
	grep -qx "index n where active = true and active = false and active <> false" "$1"' - "$T/own.out"
"$IDXLAB" --schema "$T/own.out" --print-config >"$T/own2.pc" 2>&1
holds own-index/spec-written-loads-same "$(grep -v " = " "$T/own2.pc")" sh -c '
	[ "$(sed -n "s/^#   //p" "$1" | grep -v "^table")" = "$(cat "$2")" ]' - "$T/own2.pc" "$T/own.out"
# Each refusal names file:line and what to write.
i=0
while IFS='|' read -r line pat; do
	i=$((i + 1))
	printf 'id bigint seq\ncolumn email text(20) rand\ncolumn n int few:10\ncolumn ts timestamp seq\ncolumn on bool few:2\n%s\n' "$line" >"$T/bad$i.spec"
	expect_exit own-index/spec-refuses-$i 2 "bad$i.spec:6: .*$pat" "$IDXLAB" --schema "$T/bad$i.spec" --print-config
done <<'EOF'
index n where n like 3|write COL op CONSTANT
index n where email = 'a;b'|one outside a-z A-Z 0-9
index n where n = 'abc'|n is a number here, compared with the text 'abc'
index n where ts > 5|ts is a timestamp column here: idxlab rebuilds only `is \[not\] null` on it
index n where n > 1 or n < 0|an OR: idxlab rebuilds terms joined by AND only
index n where nope is null|nope is not a column of this table's spec
index md5(email)|md5\(\.\.\.\) is an expression idxlab does not rebuild
index lower(n)|lower\(n\): n is not a text column here
index n where|an empty WHERE
index n where on > true|on is a boolean: write on, not on, on = true or on <> true
index n where n = true|n is no boolean: compare it with a number or .text.
index n where not n|NOT is followed by a boolean column alone
EOF

# On WiredTiger (no expression or partial indexes) the index is built on the
# column, every row in it, and the event log says so by the index's name.
if "$IDXLAB" --help 2>&1 | grep -q wiredtiger; then
	"$IDXLAB" run --engine wiredtiger --schema "$T/own.spec" --indexes 2 --rows 2000 --format csv \
		>"$T/wt.csv" 2>"$T/wt.err"
	rc=$?
	holds own-index/wt-builds-otherwise-and-says-so "exit $rc: $(cat "$T/wt.err")" sh -c '
		[ "$1" = 0 ] &&
		grep -q "warning: wiredtiger: index idxlab_lower_email: lower(email) is built on email itself (WiredTiger has no expression indexes" "$2" &&
		grep -q "warning: wiredtiger: index idxlab_open: its WHERE is left out on WiredTiger (it builds no partial index of that WHERE): every row enters it" "$2"' - $rc "$T/wt.err"
else
	skip own-index/wt-builds-otherwise-and-says-so "this idxlab was built without WiredTiger"
fi

# --- PostgreSQL --------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-index/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-index/pg-server || exit 0
psql_ "
CREATE TABLE customer(id bigint PRIMARY KEY, name text);
CREATE TABLE line(order_id bigint NOT NULL, line_no int NOT NULL,
                  customer_id bigint CONSTRAINT line_customer_fk REFERENCES customer(id),
                  email varchar(60) NOT NULL, sku text, status varchar(10), qty int,
                  deleted_at timestamptz, PRIMARY KEY (order_id, line_no),
                  CONSTRAINT line_sku_key UNIQUE (sku));
CREATE INDEX line_open ON line(status, qty) WHERE deleted_at IS NULL AND qty > 0 AND status <> 'void';
CREATE INDEX line_email ON line(lower(email));
CREATE INDEX line_like ON line(qty) WHERE status LIKE 'a%';
CREATE FUNCTION line_touch() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
CREATE TRIGGER line_touch BEFORE INSERT ON line FOR EACH ROW EXECUTE FUNCTION line_touch();
INSERT INTO customer SELECT i, 'c' || i FROM generate_series(0, 99) i;
INSERT INTO line SELECT i / 3, i % 3, i % 100, 'U' || md5(i::text) || '@Example.com',
       'sku-' || md5('s' || i), (ARRAY['open', 'paid', 'void'])[1 + i % 3], i % 5, NULL
  FROM generate_series(0, 2999) i;
CREATE TABLE payment(payment_id bigint NOT NULL, payment_date timestamptz NOT NULL, amount int,
                     PRIMARY KEY (payment_date, payment_id)) PARTITION BY RANGE (payment_date);
CREATE TABLE payment_p1 PARTITION OF payment FOR VALUES FROM ('2022-01-01') TO ('2022-02-01');
CREATE TABLE payment_p2 PARTITION OF payment FOR VALUES FROM ('2022-02-01') TO ('2022-03-01');
CREATE TABLE payment_p3 PARTITION OF payment FOR VALUES FROM ('2022-03-01') TO ('2022-04-01');
INSERT INTO payment SELECT i, timestamptz '2022-01-01' + i * interval '1 hour', i % 50 FROM generate_series(1, 2000) i;
CREATE TABLE event(id bigint PRIMARY KEY, kind text);
CREATE INDEX event_kind ON event(kind);
CREATE TABLE event_x (extra int) INHERITS (event);
INSERT INTO event SELECT i, 'k' || (i % 7) FROM generate_series(1, 500) i;
INSERT INTO event_x SELECT i, 'k' || (i % 7), i FROM generate_series(501, 900) i;
CREATE TABLE acct(id bigint PRIMARY KEY, email text NOT NULL, active boolean NOT NULL);
CREATE INDEX acct_on ON acct(email) WHERE active;
CREATE INDEX acct_off ON acct(email) WHERE NOT active;
INSERT INTO acct SELECT i, 'u' || i, i % 2 = 0 FROM generate_series(1, 1000) i;
ANALYZE;" >"$T/pg-setup.log"
holds own-index/pg-fixture "$(cat "$T/pg-setup.log")" [ ! -s "$T/pg-setup.log" ]
catalog_sql="SELECT md5(string_agg(x, ';' ORDER BY x)) FROM (SELECT indexdef::text AS x FROM pg_indexes WHERE schemaname = 'public' UNION ALL SELECT conname::text || contype::text FROM pg_constraint WHERE connamespace = 'public'::regnamespace UNION ALL SELECT tgname::text FROM pg_trigger UNION ALL SELECT relname::text || relkind::text FROM pg_class WHERE relnamespace = 'public'::regnamespace) c"
rows_sql="SELECT md5(string_agg(t::text, ';' ORDER BY t::text)) FROM line t"
cat_before=$(psql_ "$catalog_sql")
rows_before=$(psql_ "$rows_sql")
"$IDXLAB" --schema-from "$dsn:public.line" --print-config >"$T/pg.pc" 2>&1
spec_of "$T/pg.pc" >"$T/pg.spec"
want="index order_id,line_no name idxlab_line_pkey
index sku unique name idxlab_line_sku_key
index status,qty name idxlab_line_open where deleted_at is null and qty > 0 and status <> 'void'
index lower(email) name idxlab_line_email"
got=$(grep '^index' "$T/pg.spec" | sed 's/^\(index order_id,line_no\) unique/\1/')
holds own-index/pg-list "got '$got', want '$want' ($(cat "$T/pg.pc" | tail -1))" [ "$got" = "$want" ]
notes=$(grep '^# how it was read' "$T/pg.pc")
holds own-index/pg-notes-not-reproduced "$notes" sh -c '
	echo "$1" | grep -q "foreign keys line_customer_fk -> customer are not reproduced (each insert there looks its key up in the table it references: a lookup per row the copy does not pay)" &&
	echo "$1" | grep -q "triggers line_touch are not reproduced" &&
	echo "$1" | grep -q "index line_like left out: its WHERE .*: .~. is not a character idxlab reads here" &&
	echo "$1" | grep -q "its primary key (order_id, line_no) is the first index here"' - "$notes"
"$IDXLAB" --schema-from "$dsn:public.payment" --print-config >"$T/pay.pc" 2>&1
holds own-index/pg-partitioned "$(grep "^#  \\|^# how" "$T/pay.pc")" sh -c '
	grep -q "^#   index payment_date,payment_id\( unique\)\? name idxlab_payment_pkey$" "$1" &&
	grep -qx "#   partition by range (payment_date) 3" "$1"' - "$T/pay.pc"
"$IDXLAB" --schema-from "$dsn:public.event" --print-config >"$T/ev.pc" 2>&1
holds own-index/pg-inheritance "$(grep "^#  \\|^# how" "$T/ev.pc")" sh -c '
	grep -qx "#   index kind name idxlab_event_kind" "$1" && grep -qx "#   id bigint seq" "$1" &&
	grep -q "1 table inherits from it: read with it as one table" "$1"' - "$T/ev.pc"
"$IDXLAB" --schema-from "$dsn:public.acct" --print-config >"$T/acct.pc" 2>&1
holds own-index/pg-bool-where "$(grep "^#  \\|^# how" "$T/acct.pc")" sh -c '
	grep -qx "#   index email name idxlab_acct_on where active = true" "$1" &&
	grep -qx "#   index email name idxlab_acct_off where active = false" "$1"' - "$T/acct.pc"
# idxlab's table on the test's server has those indexes, read from
# pg_indexes while it runs: four, no idxlab_t_pkey (the derived id is
# unindexed under op insert: t_own_idkey.sh).
n_sql="SELECT count(*) = 4 FROM pg_indexes WHERE schemaname = 'idxlab' AND tablename = 'idxlab_t'"
if hold_until "$n_sql" --schema-from "$dsn:public.line" --indexes 4 --prefill 1000 --rows 100000000 --commit 100; then
	got=$(psql_ "SELECT indexdef FROM pg_indexes WHERE schemaname = 'idxlab' AND tablename = 'idxlab_t' AND indexname <> 'idxlab_t_pkey' ORDER BY indexname")
	release
	want="CREATE INDEX idxlab_line_email ON idxlab.idxlab_t USING btree (lower(email))
CREATE INDEX idxlab_line_open ON idxlab.idxlab_t USING btree (status, qty) WHERE ((deleted_at IS NULL) AND (qty > 0) AND (status <> 'void'::text))
CREATE INDEX idxlab_line_pkey ON idxlab.idxlab_t USING btree (order_id, line_no)
CREATE UNIQUE INDEX idxlab_line_sku_key ON idxlab.idxlab_t USING btree (sku)"
	grep -qx "index order_id,line_no unique name idxlab_line_pkey" "$T/pg.spec" &&
		want=$(echo "$want" | sed "3s/CREATE INDEX/CREATE UNIQUE INDEX/")
	holds own-index/pg-built "got '$got', want '$want'" [ "$got" = "$want" ]
else
	bad own-index/pg-built "$(tail -3 "$T/hold.err")"
	release
fi
cat_after=$(psql_ "$catalog_sql")
rows_after=$(psql_ "$rows_sql")
holds own-index/pg-source-unchanged "catalog $cat_before -> $cat_after, rows $rows_before -> $rows_after" \
	sh -c 'echo "$1 $3" | grep -Eqx "[0-9a-f]{32} [0-9a-f]{32}" && [ "$1" = "$2" ] && [ "$3" = "$4" ]' - "$cat_before" "$cat_after" "$rows_before" "$rows_after"
