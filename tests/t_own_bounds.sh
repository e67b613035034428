# A range-partitioned PostgreSQL copy is partitioned like its source
# whatever the run's --rows (issue 19): the bounds are cut over the rows
# the prefill writes (the table as big as the source), the last partition
# open to MAXVALUE takes what the run appends. A source made here holds
# its rows in 4 monthly partitions; idxlab's copy, run with --rows far
# above the source's count (as the dashboard's 5,000,000), has rows in
# each of its 4 partitions once the prefill is in, read per partition
# through the test's server while idxlab works (before: the bounds were
# quantiles of prefill + rows, and the whole prefill of a growing key
# landed in the first partition). The source is unchanged.
. "$(dirname "$0")/lib.sh"

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-bounds/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-bounds/pg-server || exit 0
psql_ "
CREATE TABLE ev(id bigint NOT NULL, created_at timestamptz NOT NULL, kind int,
                PRIMARY KEY (created_at, id)) PARTITION BY RANGE (created_at);
CREATE TABLE ev_jan PARTITION OF ev FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE ev_feb PARTITION OF ev FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
CREATE TABLE ev_mar PARTITION OF ev FOR VALUES FROM ('2024-03-01') TO ('2024-04-01');
CREATE TABLE ev_apr PARTITION OF ev FOR VALUES FROM ('2024-04-01') TO ('2024-05-01');
CREATE INDEX ev_kind ON ev(kind);
INSERT INTO ev SELECT i, timestamptz '2024-01-01' + i * interval '43 minutes', i % 10
  FROM generate_series(1, 4000) i;
ANALYZE;" >"$T/pg-setup.log"
spread_src=$(psql_ "SELECT string_agg(n::text, ' ' ORDER BY p) FROM (SELECT tableoid::regclass::text AS p, count(*) AS n FROM ev GROUP BY 1) x")
holds own-bounds/pg-fixture "$(cat "$T/pg-setup.log") rows per partition: $spread_src" \
	sh -c '[ ! -s "$1" ] && set -- $2 && [ $# = 4 ] && [ "$1" -ge 900 ] && [ "$4" -ge 900 ]' - "$T/pg-setup.log" "$spread_src"
rows_sql="SELECT md5(string_agg(e::text, ';' ORDER BY e::text)) FROM ev e"
rows_before=$(psql_ "$rows_sql")

"$IDXLAB" --schema-from "$dsn:public.ev" --print-config >"$T/ev.pc" 2>&1
holds own-bounds/derive "$(grep '^#   \|^# how' "$T/ev.pc" | head -12)" sh -c '
	grep -qx "#   partition by range (created_at) 4" "$1" &&
	grep -q "^#   column created_at timestamptz seq" "$1" &&
	grep -q "prefill.* 4000" "$1"' - "$T/ev.pc"

# after the prefill (the source's 4000 rows), each partition holds rows
per_part="SELECT string_agg(n::text, ' ' ORDER BY p) FROM (SELECT c.relname AS p, (SELECT count(*) FROM idxlab.idxlab_t t WHERE t.tableoid = c.oid) AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'idxlab.idxlab_t'::regclass) x"
if hold_until "SELECT count(*) >= 4000 FROM idxlab.idxlab_t" --schema-from "$dsn:public.ev" --indexes table \
	--rows 5000000 --commit 100; then
	got=$(psql_ "$per_part")
	release
	set -- $got
	if [ $# = 4 ]; then
		check own-bounds/pg-copy-rows-in-every-partition "$1 >= 500 && $2 >= 500 && $3 >= 500 && $4 >= 500"
	else bad own-bounds/pg-copy-rows-in-every-partition "partitions: $got"; fi
else
	bad own-bounds/pg-copy-rows-in-every-partition "$(psql_ "$per_part") $(grep -v '^$' "$T/hold.err" | tail -3)"
	release
fi

pg_idle
holds own-bounds/pg-source-unchanged "rows $rows_before -> $(psql_ "$rows_sql")" \
	sh -c 'echo "$1" | grep -Eqx "[0-9a-f]{32}" && [ "$1" = "$2" ]' - "$rows_before" "$(psql_ "$rows_sql")"
