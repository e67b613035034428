# A partitioned table and generated columns (issue 19 item 2): the spec's
# `partition by` line and `generated (EXPR)` column word load, write back
# and refuse what they do not admit with file:line; --schema-from a
# PostgreSQL table partitioned by range (payments by month, a composite
# primary key holding the key) and one by hash gives their partition
# lines; a table with an inheritance child is read as one table and the
# note says so; idxlab's copy on PostgreSQL is partitioned the same way,
# read from the server's catalog while idxlab works (pg_partitioned_table,
# pg_inherits), its rows land in every partition, its sizes are summed
# over them; generated columns of an SQLite and a PostgreSQL source are
# computed by the copy's engine when their expression is in idxlab's
# grammar (read from the copy's catalog, and its values checked), an
# ordinary column with a note when not; the sources are unchanged.
. "$(dirname "$0")/lib.sh"

spec_of() { sed -n 's/^#   //p' "$1"; }

# --- the spec language -----------------------------------------------------
printf 'column k bigint rand\ncolumn tag text(8) few:5\ncolumn d timestamptz seq\npartition by hash (k,tag) 4\nindex d\n' >"$T/ok.spec"
holds own-part/spec-writes-back "$("$IDXLAB" --schema "$T/ok.spec" --print-config 2>&1 | tail -3)" \
	sh -c '"$1" --schema "$2" --print-config | grep -qx "#   partition by hash (k,tag) 4"' - "$IDXLAB" "$T/ok.spec"
# literal TEXT: TEXT as an extended regular expression that matches it alone
literal() { printf '%s' "$1" | sed 's/[][().*+?|{}^$\\]/\\&/g'; }
# each refused line: exit 2, the file and line, what is wrong
bad_spec() {
	name=$1 line=$2 want=$3
	printf 'column k bigint rand\ncolumn d timestamptz seq\ncolumn tag text(8) few:5\n%s\n' "$line" >"$T/$name.spec"
	expect_exit "own-part/spec-$name" 2 "$(literal "$T/$name.spec:4: $want")" "$IDXLAB" --schema "$T/$name.spec" --print-config
}
bad_spec strategy "partition by ranged (d) 4" "partition by ranged: the strategy is hash, range or list"
bad_spec zero "partition by range (d) 0" "partition by range (...) N: N is the number of partitions, 1 .. 128"
bad_spec too-many "partition by hash (k) 129" "partition by hash (...) N: N is the number of partitions, 1 .. 128"
bad_spec no-column "partition by list (nope) 4" "partition by list (nope): no column nope declared above"
bad_spec range-text "partition by range (tag) 4" "partition by range (tag): a range key here is an int"
printf 'column k bigint rand\npartition by hash (k) 2\npartition by hash (k) 2\n' >"$T/twice.spec"
expect_exit own-part/spec-twice 2 "$(literal "$T/twice.spec:3: partition comes once")" "$IDXLAB" --schema "$T/twice.spec" --print-config
printf 'column k bigint rand\ncolumn d timestamptz seq\npartition by range (d) 4\nindex k unique\n' >"$T/uq.spec"
expect_exit own-part/spec-unique-without-key 2 "$(literal "$T/uq.spec:4: index idxlab_k: unique, but it does not hold the partition key's d")" \
	"$IDXLAB" --schema "$T/uq.spec" --print-config
# generated columns: written back in idxlab's spelling; an expression
# outside the grammar is refused with file:line
printf 'column price numeric(8,2) rand\ncolumn qty int few:10\ncolumn name text(12) rand\ncolumn total numeric(12,2) rand generated (price*qty) stored\ncolumn lname text(12) rand generated (lower(name))\n' >"$T/gen.spec"
"$IDXLAB" --schema "$T/gen.spec" --print-config >"$T/gen.pc" 2>&1
holds own-part/spec-generated-writes-back "$(grep generated "$T/gen.pc")" sh -c '
	grep -qx "#   column total numeric(12,2) rand generated (price \* qty) stored" "$1" &&
	grep -qx "#   column lname text(12) rand generated (lower(name))" "$1"' - "$T/gen.pc"
gen_bad() {
	name=$1 expr=$2 want=$3
	printf 'column price numeric(8,2) rand\ncolumn name text(12) rand\ncolumn x text(40) rand generated (%s)\n' "$expr" >"$T/$name.spec"
	expect_exit "own-part/spec-generated-$name" 2 "$(literal "$T/$name.spec:3: x: generated ($expr): $want")" "$IDXLAB" --schema "$T/$name.spec" --print-config
}
gen_bad function "md5(name)" "function md5: a generated column here calls lower, upper, length, abs or coalesce"
gen_bad no-column "price + nope" "no column nope"
gen_bad mixed "name || price + 1" "|| beside + - * / without parentheses"
gen_bad quote "name || 'a;b'" "';' in a text constant"
# SQLite has no partitioning: one table, and the event log says so
if "$IDXLAB" run --engine sqlite --schema "$T/ok.spec" --rows 200 --format csv >"$T/lite.csv" 2>"$T/lite.err" &&
	[ "$(field "$T/lite.csv" rows)" = 200 ]; then
	holds own-part/sqlite-one-table "$(cat "$T/lite.err")" \
		grep -q "table ok: sqlite has no partitioning: the copy is one table (partition by hash (k,tag) 4: on PostgreSQL)" "$T/lite.err"
else bad own-part/sqlite-one-table "$(tail -3 "$T/lite.err")"; fi

# WiredTiger (when built): no generated columns, the column written as an
# ordinary one, said in the event log
if "$IDXLAB" run --engine wiredtiger --schema "$T/gen.spec" --indexes 0 --rows 200 --format csv >"$T/wt.csv" 2>"$T/wt.err"; then
	holds own-part/wiredtiger-generated-ordinary "$(cat "$T/wt.err")" grep -q \
		"table gen: wiredtiger has no generated columns: total is written as an ordinary column, its values in its own order (the row keeps its size; generated (price \* qty) on PostgreSQL and SQLite)" "$T/wt.err"
elif grep -q "engine.*wiredtiger\|wiredtiger.*not built" "$T/wt.err"; then
	skip own-part/wiredtiger-generated-ordinary "WiredTiger is not built in: $(head -c 200 "$T/wt.err")"
else bad own-part/wiredtiger-generated-ordinary "$(tail -3 "$T/wt.err")"; fi

# --- SQLite: generated columns of a source ----------------------------------
/usr/bin/python3 - "$T/gen.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("""
CREATE TABLE item(id INTEGER PRIMARY KEY, price INT, qty INT, name TEXT,
                  total INT GENERATED ALWAYS AS (price * qty) STORED,
                  lname TEXT AS (lower(name)),
                  h TEXT AS (hex(name)) VIRTUAL);
CREATE INDEX item_lname ON item(lname);
""")
c.executemany("INSERT INTO item(id, price, qty, name) VALUES (?, ?, ?, ?)",
              [(i, i % 100, i % 7, "Name%d" % i) for i in range(1, 2001)])
c.commit()
PY
lite_sum=$(md5sum <"$T/gen.db")
"$IDXLAB" --schema-from "$T/gen.db:item" --print-config >"$T/lgen.pc" 2>&1
holds own-part/sqlite-derive-generated "$(grep "^#  \|^# how" "$T/lgen.pc")" sh -c '
	grep -qx "#   column total [a-z]* .* generated (price \* qty) stored" "$1" &&
	grep -qx "#   column lname text([0-9]*) .* generated (lower(name))" "$1" &&
	grep -q "^#   column h text([0-9]*) [a-z0-9:.]*$" "$1" &&
	grep -q "h is a generated column (VIRTUAL) there: here an ordinary one, its values in the order its statistics say (its expression: function hex: a generated column here calls" "$1"' - "$T/lgen.pc"
if "$IDXLAB" run --schema-from "$T/gen.db:item" --indexes table --prefill 500 --rows 1000 --op insert,update-keys \
	--dsn "$T/lcopy.db" --format csv >"$T/lgen.csv" 2>"$T/lgen.err"; then
	ddl=$(sqlite3 "$T/lcopy.db" "SELECT sql FROM sqlite_schema WHERE name = 'idxlab_t'")
	wrong=$(sqlite3 "$T/lcopy.db" "SELECT count(*) FROM idxlab_t WHERE total IS NOT price * qty OR lname IS NOT lower(name)")
	n=$(sqlite3 "$T/lcopy.db" "SELECT count(*) FROM idxlab_t")
	holds own-part/sqlite-copy-generated "ddl '$ddl', $wrong of $n rows wrong" sh -c '
		echo "$1" | grep -qF "total INTEGER GENERATED ALWAYS AS (\"price\" * \"qty\") STORED" &&
		echo "$1" | grep -qF "lname TEXT GENERATED ALWAYS AS (lower(\"name\")) VIRTUAL" &&
		echo "$1" | grep -qF ", h TEXT" && [ "$2" = 0 ] && [ "$3" -ge 500 ]' - "$ddl" "$wrong" "$n"
else bad own-part/sqlite-copy-generated "$(tail -3 "$T/lgen.err")"; fi
holds own-part/sqlite-source-unchanged "md5 $lite_sum -> $(md5sum <"$T/gen.db")" [ "$lite_sum" = "$(md5sum <"$T/gen.db")" ]

# --- PostgreSQL --------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-part/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-part/pg-server || exit 0
psql_ "
CREATE TABLE payment(payment_id bigint NOT NULL, customer_id int NOT NULL, amount numeric(5,2),
                     payment_date timestamptz NOT NULL, PRIMARY KEY (payment_date, payment_id))
       PARTITION BY RANGE (payment_date);
CREATE TABLE payment_p1 PARTITION OF payment FOR VALUES FROM ('2022-01-01') TO ('2022-02-01');
CREATE TABLE payment_p2 PARTITION OF payment FOR VALUES FROM ('2022-02-01') TO ('2022-03-01');
CREATE TABLE payment_p3 PARTITION OF payment FOR VALUES FROM ('2022-03-01') TO ('2022-04-01');
CREATE TABLE payment_p4 PARTITION OF payment FOR VALUES FROM ('2022-04-01') TO ('2022-05-01');
CREATE INDEX payment_customer ON payment(customer_id);
INSERT INTO payment SELECT i, i % 300, (i % 9000) / 100.0, timestamptz '2022-01-01' + i * interval '10 minutes'
  FROM generate_series(1, 12000) i;
CREATE TABLE hev(id bigint, k int NOT NULL, v text) PARTITION BY HASH (k);
CREATE TABLE hev0 PARTITION OF hev FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE hev1 PARTITION OF hev FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE hev2 PARTITION OF hev FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE INDEX hev_v ON hev(v);
INSERT INTO hev SELECT i, i % 1000, md5(i::text) FROM generate_series(1, 5000) i;
CREATE TABLE pexpr(a int, b text) PARTITION BY LIST (lower(b));
CREATE TABLE pexpr_d PARTITION OF pexpr DEFAULT;
INSERT INTO pexpr SELECT i, 'b' || i FROM generate_series(1, 100) i;
CREATE TABLE ml(id int, d date NOT NULL, k int NOT NULL) PARTITION BY RANGE (d);
CREATE TABLE ml1 PARTITION OF ml FOR VALUES FROM ('2022-01-01') TO ('2023-01-01') PARTITION BY HASH (k);
CREATE TABLE ml1a PARTITION OF ml1 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE ml1b PARTITION OF ml1 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE ml2 PARTITION OF ml FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
INSERT INTO ml SELECT i, date '2022-01-01' + i % 700, i FROM generate_series(1, 1000) i;
CREATE TABLE city(id int PRIMARY KEY, name text, pop int);
CREATE TABLE capital(country text) INHERITS (city);
INSERT INTO city SELECT i, 'c' || i, i * 10 FROM generate_series(1, 800) i;
INSERT INTO capital SELECT i, 'k' || i, i, 'x' FROM generate_series(801, 850) i;
CREATE TABLE item(id bigint PRIMARY KEY, price numeric(8,2), qty int, name varchar(20),
                  total numeric(12,2) GENERATED ALWAYS AS (price * qty) STORED,
                  lname text GENERATED ALWAYS AS (lower(name)) STORED,
                  h text GENERATED ALWAYS AS (md5(name)) STORED);
CREATE INDEX item_lname ON item(lname);
INSERT INTO item(id, price, qty, name) SELECT i, i % 100, i % 7, 'Name' || i FROM generate_series(1, 2000) i;
ANALYZE;" >"$T/pg-setup.log"
holds own-part/pg-fixture "$(cat "$T/pg-setup.log")" [ ! -s "$T/pg-setup.log" ]
catalog_sql="SELECT md5(string_agg(x, ';' ORDER BY x)) FROM (SELECT indexdef::text AS x FROM pg_indexes WHERE schemaname = 'public' UNION ALL SELECT relname::text || relkind::text || coalesce(pg_get_expr(relpartbound, oid), '') FROM pg_class WHERE relnamespace = 'public'::regnamespace UNION ALL SELECT inhrelid::regclass::text || inhparent::regclass::text FROM pg_inherits UNION ALL SELECT partrelid::regclass::text || partstrat::text FROM pg_partitioned_table) c"
rows_sql="SELECT md5(string_agg(t, ';' ORDER BY t)) FROM (SELECT p::text AS t FROM payment p UNION ALL SELECT h::text FROM hev h UNION ALL SELECT c::text FROM city c UNION ALL SELECT i::text FROM item i) x"
cat_before=$(psql_ "$catalog_sql")
rows_before=$(psql_ "$rows_sql")

"$IDXLAB" --schema-from "$dsn:public.payment" --print-config >"$T/pay.pc" 2>&1
holds own-part/pg-derive-range "$(grep "^#  \\|^# how" "$T/pay.pc")" sh -c '
	grep -qx "#   partition by range (payment_date) 4" "$1" &&
	grep -q "^#   index payment_date,payment_id\( unique\)\? name idxlab_payment_pkey$" "$1" &&
	grep -q "partition by range (payment_date) 4: built so on PostgreSQL, the bounds covering the values idxlab writes" "$1" &&
	! grep -q "not reproduced, idxlab.s copy is one table" "$1"' - "$T/pay.pc"
"$IDXLAB" --schema-from "$dsn:public.hev" --print-config >"$T/hev.pc" 2>&1
holds own-part/pg-derive-hash "$(grep "^#  \\|^# how" "$T/hev.pc")" sh -c '
	grep -qx "#   partition by hash (k) 3" "$1" && ! grep -qx "#   hot k" "$1"' - "$T/hev.pc"
"$IDXLAB" --schema-from "$dsn:public.pexpr" --print-config >"$T/px.pc" 2>&1
holds own-part/pg-derive-expression-key "$(grep "^# how" "$T/px.pc")" sh -c '
	! grep -q "^#   partition" "$1" &&
	grep -q "it is partitioned by LIST (lower(b)) into 1 partitions: not reproduced (its key holds an expression), idxlab.s copy is one table" "$1"' - "$T/px.pc"
"$IDXLAB" --schema-from "$dsn:public.ml" --print-config >"$T/ml.pc" 2>&1
holds own-part/pg-derive-two-levels "$(grep "^# how" "$T/ml.pc")" sh -c '
	! grep -q "^#   partition" "$1" &&
	grep -q "it is partitioned by RANGE (d) into 2 partitions: not reproduced (its partitions are partitioned in turn (1 of them)), idxlab.s copy is one table" "$1"' - "$T/ml.pc"
"$IDXLAB" --schema-from "$dsn:public.city" --print-config >"$T/city.pc" 2>&1
holds own-part/pg-inheritance-one-table "$(grep "^# how" "$T/city.pc")" sh -c '
	! grep -q "^#   partition" "$1" &&
	grep -q "1 table inherits from it: read with it as one table" "$1" &&
	grep -q "over 850 rows" "$1"' - "$T/city.pc"

# idxlab's copies on the test's server, read while idxlab works. The
# source's key is an index of the list (its id is `unindexed`), so under op
# insert the copy has no primary key of idxlab's: the source's two indexes
# only (t_own_idkey.sh checks the update side).
part_sql() { # STRATEGY N: the copy is partitioned so, with N partitions
	echo "SELECT (SELECT partstrat FROM pg_partitioned_table WHERE partrelid = to_regclass('idxlab.idxlab_t')) = '$1' AND (SELECT count(*) FROM pg_inherits WHERE inhparent = to_regclass('idxlab.idxlab_t')) = $2"
}
if hold_until "$(part_sql r 4)" --schema-from "$dsn:public.payment" --indexes table --prefill 2000 --rows 100000000 --commit 100; then
	key=$(psql_ "SELECT pg_get_partkeydef('idxlab.idxlab_t'::regclass)")
	pk=$(psql_ "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'idxlab.idxlab_t'::regclass AND contype = 'p'")
	pidx=$(psql_ "SELECT count(*) FROM pg_class WHERE relnamespace = 'idxlab'::regnamespace AND relkind = 'I'")
	release
	holds own-part/pg-copy-range "key '$key', pk '$pk', partitioned indexes $pidx" \
		sh -c '[ "$1" = "RANGE (payment_date)" ] && [ -z "$2" ] && [ "$3" = 2 ]' - "$key" "$pk" "$pidx"
else
	bad own-part/pg-copy-range "$(tail -3 "$T/hold.err")"
	release
fi
spread_sql="SELECT count(DISTINCT tableoid) = 3 AND count(*) >= 3000 FROM idxlab.idxlab_t"
if hold_until "$(part_sql h 3)" --schema-from "$dsn:public.hev" --indexes table --prefill 3000 --rows 100000000 --commit 100 &&
	poll 60 sh -c '[ "$("$1" -X -q -t -A -d "$2" -c "$3" 2>/dev/null)" = t ]' - "$bindir/psql" "$dsn" "$spread_sql"; then
	release
	ok own-part/pg-copy-hash-rows-in-every-partition
else
	bad own-part/pg-copy-hash-rows-in-every-partition "$(psql_ "SELECT tableoid::regclass, count(*) FROM idxlab.idxlab_t GROUP BY 1") $(tail -3 "$T/hold.err")"
	release
fi
# range and list of spec files: every partition takes rows (a rand range
# key is cut at its values' quantiles), a list has its DEFAULT
printf 'column k bigint rand\ncolumn tag text(8) few:12\npartition by range (k) 5\nindex tag\n' >"$T/rg.spec"
if hold_until "$(part_sql r 5)" --schema "$T/rg.spec" --indexes 1 --prefill 4000 --rows 100000000 --commit 100 &&
	poll 60 sh -c '[ "$("$1" -X -q -t -A -d "$2" -c "$3" 2>/dev/null)" = t ]' - "$bindir/psql" "$dsn" \
		"SELECT count(DISTINCT tableoid) = 5 FROM idxlab.idxlab_t"; then
	release
	ok own-part/pg-spec-range-rows-in-every-partition
else
	bad own-part/pg-spec-range-rows-in-every-partition "$(psql_ "SELECT tableoid::regclass, count(*) FROM idxlab.idxlab_t GROUP BY 1") $(tail -3 "$T/hold.err")"
	release
fi
printf 'column k bigint rand\ncolumn tag text(8) few:12\npartition by list (tag) 4\nindex k\n' >"$T/ls.spec"
if hold_until "$(part_sql l 4)" --schema "$T/ls.spec" --indexes 1 --prefill 4000 --rows 100000000 --commit 100 &&
	poll 60 sh -c '[ "$("$1" -X -q -t -A -d "$2" -c "$3" 2>/dev/null)" = t ]' - "$bindir/psql" "$dsn" \
		"SELECT count(DISTINCT tableoid) = 3 FROM idxlab.idxlab_t"; then
	dflt=$(psql_ "SELECT count(*) FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid WHERE i.inhparent = 'idxlab.idxlab_t'::regclass AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'")
	release
	holds own-part/pg-spec-list-lists-and-default "default partitions: $dflt" [ "$dflt" = 1 ]
else
	bad own-part/pg-spec-list-lists-and-default "$(psql_ "SELECT tableoid::regclass, count(*) FROM idxlab.idxlab_t GROUP BY 1") $(tail -3 "$T/hold.err")"
	release
fi
# generated columns on PostgreSQL: the admitted ones computed by the
# server (STORED, idxlab's expression), md5 an ordinary column
"$IDXLAB" --schema-from "$dsn:public.item" --print-config >"$T/item.pc" 2>&1
holds own-part/pg-derive-generated "$(grep "^#  \|^# how" "$T/item.pc")" sh -c '
	grep -qx "#   column total numeric(12,2) .* generated (price \* (qty)::numeric) stored" "$1" &&
	grep -qx "#   column lname text([0-9]*) .* generated (lower((name)::text)) stored" "$1" &&
	grep -q "h is a generated column (STORED) there: here an ordinary one, its values in the order its statistics say (its expression: function md5: " "$1"' - "$T/item.pc"
gen_sql="SELECT string_agg(attname || '=' || attgenerated::text, ' ' ORDER BY attnum) = 'total=s lname=s h=' FROM pg_attribute WHERE attrelid = to_regclass('idxlab.idxlab_t') AND attname IN ('total', 'lname', 'h')"
if hold_until "$gen_sql" --schema-from "$dsn:public.item" --indexes table --prefill 1000 --rows 100000000 --commit 100 &&
	poll 60 sh -c '[ "$("$1" -X -q -t -A -d "$2" -c "$3" 2>/dev/null)" = t ]' - "$bindir/psql" "$dsn" \
		"SELECT count(*) >= 1000 FROM idxlab.idxlab_t"; then
	expr=$(psql_ "SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = 'idxlab.idxlab_t'::regclass AND a.attname = 'total'")
	wrong=$(psql_ "SELECT count(*) FROM idxlab.idxlab_t WHERE total IS DISTINCT FROM round(price * qty, 2) OR lname IS DISTINCT FROM lower(name)")
	release
	holds own-part/pg-copy-generated "total AS '$expr', $wrong rows wrong" \
		sh -c '[ "$1" = "(price * (qty)::numeric)" ] && [ "$2" = 0 ]' - "$expr" "$wrong"
else
	bad own-part/pg-copy-generated "$(psql_ "$gen_sql") $(tail -3 "$T/hold.err")"
	release
fi
# sizes summed over the partitions (a partitioned parent has none of its own)
if "$IDXLAB" run --schema-from "$dsn:public.hev" --dsn "$dsn" --indexes table --prefill 2000 --rows 2000 \
	--format csv >"$T/hev.csv" 2>"$T/hev.err"; then
	db=$(field "$T/hev.csv" db_bytes)
	ix=$(field "$T/hev.csv" index_bytes)
	if is_num "$db" "$ix" && [ "$db" -gt 200000 ] && [ "$ix" -gt 100000 ]; then
		ok own-part/pg-sizes-over-partitions
	else bad own-part/pg-sizes-over-partitions "db_bytes $db, index_bytes $ix"; fi
else bad own-part/pg-sizes-over-partitions "$(tail -3 "$T/hev.err")"; fi
pg_idle
holds own-part/pg-schema-left-clean "$(psql_ "SELECT relname FROM pg_class WHERE relnamespace = to_regnamespace('idxlab')")" \
	[ -z "$(psql_ "SELECT relname FROM pg_class WHERE relnamespace = to_regnamespace('idxlab')")" ]
cat_after=$(psql_ "$catalog_sql")
rows_after=$(psql_ "$rows_sql")
holds own-part/pg-source-unchanged "catalog $cat_before -> $cat_after, rows $rows_before -> $rows_after" \
	sh -c 'echo "$1 $3" | grep -Eqx "[0-9a-f]{32} [0-9a-f]{32}" && [ "$1" = "$2" ] && [ "$3" = "$4" ]' - "$cat_before" "$cat_after" "$rows_before" "$rows_after"
