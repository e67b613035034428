# idxlab's id beside the table's own key (issue 19 item 2): a source whose
# primary key is composite (or one idxlab's id cannot be) keeps that key as
# the first index of the list, and idxlab's id is `unindexed`, so the copy
# pays no btree the source does not. The spec word loads, writes back and
# refuses what it does not admit with file:line; --schema-from writes it
# for a composite key on SQLite and PostgreSQL (a partitioned table too);
# idxlab's table on PostgreSQL, read from pg_indexes while it runs, has
# exactly the source's indexes under op insert, and keeps idxlab_t_pkey
# (and says why in the event log) under op update; on SQLite the derived
# spec runs and a uuid id is a plain column of a rowid table.
. "$(dirname "$0")/lib.sh"

spec_of() { sed -n 's/^#   //p' "$1"; }

# --- the spec word -----------------------------------------------------------
printf 'id bigint seq unindexed\ncolumn a bigint seq\ncolumn b int rand\nindex a,b unique\n' >"$T/k.spec"
"$IDXLAB" --schema "$T/k.spec" --print-config >"$T/k.pc" 2>&1
spec_of "$T/k.pc" >"$T/k.out"
holds idkey/spec-writes-back "$(cat "$T/k.pc" | grep -v ' = ')" grep -qx "id bigint seq unindexed" "$T/k.out"
"$IDXLAB" --schema "$T/k.out" --print-config >"$T/k2.pc" 2>&1
holds idkey/spec-written-loads-same "$(grep -v ' = ' "$T/k2.pc")" sh -c '
	[ "$(sed -n "s/^#   //p" "$1" | grep -v "^table")" = "$(grep -v "^table" "$2")" ]' - "$T/k2.pc" "$T/k.out"
printf 'id knob unindexed\ncolumn a bigint seq\n' >"$T/knob.spec"
"$IDXLAB" --schema "$T/knob.spec" --print-config >"$T/knob.pc" 2>&1
holds idkey/spec-knob-writes-back "$(grep -v ' = ' "$T/knob.pc")" grep -qx "#   id knob unindexed" "$T/knob.pc"
i=0
while IFS='|' read -r line pat; do
	i=$((i + 1))
	printf 'column a bigint seq\n%s\n' "$line" >"$T/bad$i.spec"
	expect_exit idkey/spec-refuses-$i 2 "bad$i.spec:2: .*$pat" "$IDXLAB" --schema "$T/bad$i.spec" --print-config
done <<'EOF'
column b int seq unindexed|unindexed: only the id line takes it
column b int seq null:5% unindexed|unindexed: only the id line takes it
EOF
i=0
while IFS='|' read -r line pat; do
	i=$((i + 1))
	printf '%s\ncolumn a bigint seq\n' "$line" >"$T/badid$i.spec"
	expect_exit idkey/spec-refuses-id-$i 2 "badid$i.spec:1: .*$pat" "$IDXLAB" --schema "$T/badid$i.spec" --print-config
done <<'EOF'
id bigint seq unindexed seq|'seq' after unindexed: it ends the id line
id knob unindexed null:0%|'null:0%' after unindexed: it ends the id line
id bigint seq unindexd|'unindexd' after the order: .* or unindexed \(the id\)
EOF

# --- SQLite ------------------------------------------------------------------
/usr/bin/python3 - "$T/pl.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE pt(playlist_id INTEGER NOT NULL, track_id INTEGER NOT NULL, PRIMARY KEY (playlist_id, track_id))")
c.executemany("INSERT INTO pt VALUES (?, ?)", [(i // 10, i % 10) for i in range(2000)])
c.execute("CREATE TABLE solo(id INTEGER PRIMARY KEY, v INTEGER)")
c.executemany("INSERT INTO solo VALUES (?, ?)", [(i, i % 7) for i in range(500)])
c.commit()
PY
"$IDXLAB" --schema-from "$T/pl.db:pt" --print-config >"$T/pl.pc" 2>&1
holds idkey/sqlite-composite-derives-unindexed "$(grep '^#  \|^# how' "$T/pl.pc")" sh -c '
	grep -qx "#   id bigint seq unindexed" "$1" &&
	grep -q "^#   index playlist_id,track_id" "$1" &&
	grep -q "idxlab.s id is unindexed: it has no index of its own on PostgreSQL" "$1"' - "$T/pl.pc"
"$IDXLAB" --schema-from "$T/pl.db:solo" --print-config >"$T/solo.pc" 2>&1
holds idkey/sqlite-single-key-stays-indexed "$(grep '^#  ' "$T/solo.pc")" sh -c '
	grep -q "^#   id " "$1" && ! grep -q "unindexed" "$1"' - "$T/solo.pc"
"$IDXLAB" run --schema-from "$T/pl.db:pt" --indexes table --rows 2000 --prefill 0 --dsn "$T/plcopy.db" \
	--format csv >"$T/pl.csv" 2>"$T/pl.err"
rc=$?
holds idkey/sqlite-composite-runs "exit $rc: $(tail -3 "$T/pl.err")" sh -c '
	[ "$1" = 0 ] && [ "$(sqlite3 "$2" "SELECT count(*) FROM idxlab_t")" = 2000 ] &&
	sqlite3 "$2" "SELECT sql FROM sqlite_schema WHERE name = '"'idxlab_t'"'" | grep -q "id INTEGER PRIMARY KEY"' \
	- $rc "$T/plcopy.db"
# A uuid id that is unindexed: a plain column of a rowid table under op insert.
printf 'id uuid uuid4 unindexed\ncolumn a bigint seq\nindex a unique\n' >"$T/u.spec"
"$IDXLAB" run --schema "$T/u.spec" --indexes 1 --rows 1000 --prefill 0 --dsn "$T/u.db" --format csv \
	>"$T/u.csv" 2>"$T/u.err"
rc=$?
ddl=$(sqlite3 "$T/u.db" "SELECT sql FROM sqlite_schema WHERE name = 'idxlab_t'" 2>&1)
holds idkey/sqlite-uuid-rowid-table "exit $rc, ddl '$ddl': $(tail -3 "$T/u.err")" sh -c '
	[ "$1" = 0 ] && echo "$2" | grep -q "^CREATE TABLE idxlab_t(id BLOB," &&
	! echo "$2" | grep -qi "PRIMARY KEY\|WITHOUT ROWID"' - $rc "$ddl"

# --- PostgreSQL --------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip idkey/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg idkey/pg-server || exit 0
psql_ "
CREATE TABLE line(invoice_id bigint NOT NULL, line_no int NOT NULL, track_id int NOT NULL,
                  qty int, PRIMARY KEY (invoice_id, line_no));
CREATE INDEX line_track ON line(track_id);
INSERT INTO line SELECT i / 4, i % 4, i % 97, 1 + i % 3 FROM generate_series(0, 3999) i;
CREATE TABLE payment(payment_id bigint NOT NULL, payment_date timestamptz NOT NULL, amount int,
                     PRIMARY KEY (payment_date, payment_id)) PARTITION BY RANGE (payment_date);
CREATE TABLE payment_p1 PARTITION OF payment FOR VALUES FROM ('2022-01-01') TO ('2022-02-01');
CREATE TABLE payment_p2 PARTITION OF payment FOR VALUES FROM ('2022-02-01') TO ('2022-03-01');
CREATE TABLE payment_p3 PARTITION OF payment FOR VALUES FROM ('2022-03-01') TO ('2022-04-01');
INSERT INTO payment SELECT i, timestamptz '2022-01-01' + i * interval '1 hour', i % 50 FROM generate_series(1, 2000) i;
ANALYZE;" >"$T/pg-setup.log"
holds idkey/pg-fixture "$(cat "$T/pg-setup.log")" [ ! -s "$T/pg-setup.log" ]
"$IDXLAB" --schema-from "$dsn:public.line" --print-config >"$T/pg.pc" 2>&1
holds idkey/pg-composite-derives-unindexed "$(grep '^#  \|^# how' "$T/pg.pc")" sh -c '
	grep -qx "#   id bigint seq unindexed" "$1" &&
	grep -q "^#   index invoice_id,line_no\( unique\)\? name idxlab_line_pkey$" "$1" &&
	grep -q "its primary key (invoice_id, line_no) is the first index here and idxlab.s id is unindexed: it has no index of its own on PostgreSQL" "$1"' - "$T/pg.pc"
"$IDXLAB" --schema-from "$dsn:public.payment" --print-config >"$T/pay.pc" 2>&1
holds idkey/pg-partitioned-derives-unindexed "$(grep '^#  \|^# how' "$T/pay.pc")" sh -c '
	grep -qx "#   id bigint seq unindexed" "$1" &&
	grep -qx "#   partition by range (payment_date) 3" "$1"' - "$T/pay.pc"

# The copy's indexes, read from pg_indexes while it runs: under op insert
# exactly the source's (names behind idxlab's prefix), no idxlab_t_pkey.
idx_sql() { echo "SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'idxlab' AND tablename = '$1'"; }
src_idx=$(psql_ "SELECT string_agg('idxlab_' || indexname, ' ' ORDER BY 'idxlab_' || indexname) FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'line'")
n_sql="SELECT count(*) >= 2 AND (SELECT count(*) FROM idxlab.idxlab_t) > 0 FROM pg_indexes WHERE schemaname = 'idxlab' AND tablename = 'idxlab_t'"
if hold_until "$n_sql" --schema-from "$dsn:public.line" --indexes table --prefill 1000 --rows 100000000 --commit 100; then
	got=$(psql_ "$(idx_sql idxlab_t)")
	release
	holds idkey/pg-insert-only-source-indexes "got '$got', want '$src_idx'" \
		sh -c '[ -n "$2" ] && [ "$1" = "$2" ]' - "$got" "$src_idx"
else
	bad idkey/pg-insert-only-source-indexes "$(tail -3 "$T/hold.err")"
	release
fi
# op update finds rows by id: idxlab_t_pkey is kept, and the log says why.
if hold_until "$n_sql" --schema-from "$dsn:public.line" --op update --indexes table --prefill 2000 --rows 100000000 --commit 100; then
	got=$(psql_ "$(idx_sql idxlab_t)")
	release
	want=$(echo "$src_idx idxlab_t_pkey" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
	got=$(echo "$got" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
	holds idkey/pg-update-keeps-pkey "got '$got', want '$want'" [ "$got" = "$want" ]
	holds idkey/pg-update-says-why "$(head -c 600 "$T/hold.err")" \
		grep -q "op update finds rows by idxlab's id: its btree is kept, one more than the source's" "$T/hold.err"
else
	bad idkey/pg-update-keeps-pkey "$(tail -3 "$T/hold.err")"
	release
fi
# A partitioned copy: the parent's indexes are the source's key's alone.
p_sql="SELECT count(*) >= 1 AND (SELECT count(*) FROM idxlab.idxlab_t) > 0 FROM pg_indexes WHERE schemaname = 'idxlab' AND tablename = 'idxlab_t'"
if hold_until "$p_sql" --schema-from "$dsn:public.payment" --indexes table --prefill 1000 --rows 100000000 --commit 100; then
	got=$(psql_ "$(idx_sql idxlab_t)")
	release
	holds idkey/pg-partitioned-only-source-key "got '$got', want 'idxlab_payment_pkey'" \
		[ "$got" = "idxlab_payment_pkey" ]
else
	bad idkey/pg-partitioned-only-source-key "$(tail -3 "$T/hold.err")"
	release
fi
