# A generated column's arithmetic on a PostgreSQL copy (issue 19): the
# values idxlab writes in the columns it reads stay in the source's own
# range (--schema-from writes in:LO..HI, the sample's least and greatest),
# so a copy of `total bigint GENERATED ALWAYS AS (qty * price)` over
# bigints, and of an int4 pair, runs to its end with the server computing
# every row (before: "bigint out of range" / "integer out of range" killed
# the run at its first rows); where a spec's expression can still leave
# its type over the values a step writes, the plan refuses it with exit 2
# naming the column, before any table is made; the sources are unchanged.
. "$(dirname "$0")/lib.sh"

literal() { printf '%s' "$1" | sed 's/[][().*+?|{}^$\\]/\\&/g'; }

# --- the spec language: in:LO..HI read and written back ---------------------
printf 'column qty bigint rand in:1..100\ncolumn price numeric(8,2) few:20 in:0.50..99.99 null:5%%\ncolumn total numeric(12,2) rand generated (qty * price) stored\n' >"$T/in.spec"
"$IDXLAB" --schema "$T/in.spec" --print-config >"$T/in.pc" 2>&1
holds own-gen/spec-range-writes-back "$(grep '^#   column' "$T/in.pc")" sh -c '
	grep -qx "#   column qty bigint rand in:1..100" "$1" &&
	grep -qx "#   column price numeric(8,2) few:20 in:0.50..99.99 null:5%" "$1"' - "$T/in.pc"
printf 'column qty int rand in:9..1\n' >"$T/rev.spec"
expect_exit own-gen/spec-range-reversed 2 "$(literal "$T/rev.spec:1: qty int in:9..1: LO is at most HI")" \
	"$IDXLAB" --schema "$T/rev.spec" --print-config

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-gen/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-gen/pg-server || exit 0
psql_ "
CREATE TABLE orders(id bigint PRIMARY KEY, qty bigint NOT NULL, price bigint NOT NULL,
                    total bigint GENERATED ALWAYS AS (qty * price) STORED);
CREATE INDEX orders_total ON orders(total);
INSERT INTO orders(id, qty, price)
  SELECT i, 1 + (i * 7919) % 100, 100 + (i * 104729) % 99901 FROM generate_series(1, 3000) i;
CREATE TABLE pairs(id int PRIMARY KEY, a int NOT NULL, b int NOT NULL,
                   c int GENERATED ALWAYS AS (a * b + 1) STORED);
INSERT INTO pairs(id, a, b) SELECT i, 1 + (i * 7919) % 30011, 1 + (i * 104729) % 50021 FROM generate_series(1, 3000) i;
ANALYZE;" >"$T/pg-setup.log"
holds own-gen/pg-fixture "$(cat "$T/pg-setup.log")" [ ! -s "$T/pg-setup.log" ]
rows_sql="SELECT md5(string_agg(t, ';' ORDER BY t)) FROM (SELECT o::text AS t FROM orders o UNION ALL SELECT p::text FROM pairs p) x"
rows_before=$(psql_ "$rows_sql")

# the derived spec: each operand within what the source holds
"$IDXLAB" --schema-from "$dsn:public.orders" --print-config >"$T/orders.pc" 2>&1
lo_hi() { sed -n "s/^#   column $2 bigint [a-z0-9:.]* in:\([-0-9]*\)\.\.\([-0-9]*\)$/\1 \2/p" "$1"; }
set -- $(lo_hi "$T/orders.pc" qty) $(lo_hi "$T/orders.pc" price)
if [ $# = 4 ]; then
	check own-gen/derive-source-range "$1 >= 1 && $2 <= 100 && $3 >= 100 && $4 <= 100000 && $2 > $1 && $4 > $3"
else bad own-gen/derive-source-range "no in:LO..HI on qty and price: $(grep '^#   column\|^# how' "$T/orders.pc" | head -8)"; fi
holds own-gen/derive-note "$(grep '^# how' "$T/orders.pc")" grep -q "qty: .* -> [a-z0-9:.]* in:[0-9]*\.\.[0-9]*" "$T/orders.pc"

# the copy runs to its end, the server computing total on every row
run_copy() { # NAME TABLE: idxlab run on the test's server, its copy of TABLE
	"$IDXLAB" run --schema-from "$dsn:public.$2" --dsn "$dsn" --indexes table --rows 20000 \
		--format csv >"$T/$1.csv" 2>"$T/$1.err"
}
if run_copy orders orders && [ "$(field "$T/orders.csv" rows)" = 20000 ]; then
	ok own-gen/pg-copy-bigint-product-runs
else bad own-gen/pg-copy-bigint-product-runs "exit $?; $(grep -v '^$' "$T/orders.err" | tail -3)"; fi
if run_copy pairs pairs && [ "$(field "$T/pairs.csv" rows)" = 20000 ]; then
	ok own-gen/pg-copy-int-product-runs
else bad own-gen/pg-copy-int-product-runs "exit $?; $(grep -v '^$' "$T/pairs.err" | tail -3)"; fi
# and while it runs, its rows are in the source's range, total computed
range_sql="SELECT count(*) >= 2000 FROM idxlab.idxlab_t"
if hold_until "$range_sql" --schema-from "$dsn:public.orders" --indexes table --rows 100000000 --commit 100; then
	got=$(psql_ "SELECT min(qty) || ' ' || max(qty) || ' ' || min(price) || ' ' || max(price) || ' ' || count(*) FILTER (WHERE total IS DISTINCT FROM qty * price) FROM idxlab.idxlab_t")
	release
	set -- $got
	if [ $# = 5 ]; then
		check own-gen/pg-copy-values-in-range "$1 >= 1 && $2 <= 100 && $3 >= 100 && $4 <= 100000 && $5 == 0"
	else bad own-gen/pg-copy-values-in-range "$got"; fi
else
	bad own-gen/pg-copy-values-in-range "$(grep -v '^$' "$T/hold.err" | tail -3)"
	release
fi

# a spec whose product leaves bigint: refused before any table is made
printf 'column qty bigint rand\ncolumn price bigint rand\ncolumn total bigint rand generated (qty * price) stored\n' >"$T/over.spec"
expect_exit own-gen/pg-refused-before-table 2 \
	'table over: column total generated \(qty \* price\) reaches .* past bigint .*"bigint out of range".*\(in:LO\.\.HI' \
	"$IDXLAB" run --engine postgres --dsn "$dsn" --schema "$T/over.spec" --rows 1000 --format csv
holds own-gen/pg-no-table-made "$(psql_ "SELECT relname FROM pg_class WHERE relnamespace = to_regnamespace('idxlab')")" \
	[ -z "$(psql_ "SELECT relname FROM pg_class WHERE relnamespace = to_regnamespace('idxlab')")" ]
# updates move a growing value 2^40 up: a product of two then leaves bigint
printf 'column a bigint seq\ncolumn b bigint seq\ncolumn c bigint rand generated (a * b) stored\n' >"$T/upd.spec"
expect_exit own-gen/pg-refused-under-updates 2 'column c generated \(a \* b\) .*updates moving growing values up' \
	"$IDXLAB" run --engine postgres --dsn "$dsn" --schema "$T/upd.spec" --op update-keys --prefill 1000 --rows 1000 --format csv
# the same spec inserts: 1100 x 1100 fits
if "$IDXLAB" run --engine postgres --dsn "$dsn" --schema "$T/upd.spec" --prefill 100 --rows 1000 \
	--format csv >"$T/ins.csv" 2>"$T/ins.err" && [ "$(field "$T/ins.csv" rows)" = 1000 ]; then
	ok own-gen/pg-inserts-that-fit-run
else bad own-gen/pg-inserts-that-fit-run "$(grep -v '^$' "$T/ins.err" | tail -3)"; fi
# SQLite turns an overflow into a real: not refused there
if "$IDXLAB" run --engine sqlite --schema "$T/over.spec" --rows 1000 --format csv >"$T/lite.csv" 2>"$T/lite.err" &&
	[ "$(field "$T/lite.csv" rows)" = 1000 ]; then
	ok own-gen/sqlite-not-refused
else bad own-gen/sqlite-not-refused "$(grep -v '^$' "$T/lite.err" | tail -3)"; fi

pg_idle
holds own-gen/pg-source-unchanged "rows $rows_before -> $(psql_ "$rows_sql")" \
	sh -c 'echo "$1" | grep -Eqx "[0-9a-f]{32}" && [ "$1" = "$2" ]' - "$rows_before" "$(psql_ "$rows_sql")"
