# PostgreSQL builds every table spec (issue 11): each built-in spec runs
# every operation; the table the server holds is the spec (columns and
# their types, the indexes, their columns in order, uniqueness, the rows),
# read from the server's own catalog while idxlab works on a test server;
# the values COPY loads and the values the binary INSERTs write are the
# same; a table a killed run of another spec left is idxlab's, anything
# else in its schema is still refused; and the published effects on the
# article tables (findings #2 and #3): WAL per index, HOT.
. "$(dirname "$0")/lib.sh"

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip schema-pg/all "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
pgrun() { "$IDXLAB" run --engine postgres "$@"; }
# vals FILE COLUMN: the column's values in step order, one line.
vals() { columns "$1" "$2" && awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { printf "%s ", $c }' "$1"; }
# fieldof FILE COLUMN OP INDEXES: the column of the step with that op and index count.
fieldof() {
	columns "$1" "$2" op indexes &&
		awk -F, -v name="$2" -v op="$3" -v n="$4" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["op"] == op && $h["indexes"] == n { print $h[name] }' "$1"
}
# net FILE OP INDEXES: WAL bytes per row without the full-page images.
net() {
	awk -v w="$(fieldof "$1" wal_bytes_per_row "$2" "$3")" -v f="$(fieldof "$1" fpi_bytes_per_row "$2" "$3")" 'BEGIN { print w - f }'
}

# --- spec files of our own -------------------------------------------------
# every type, a column named like a keyword, zipf and few values, a unique
# uuid, a composite index; a uuid primary key; no index at all.
cat >"$T/types.spec" <<'EOF'
id bigint seq
column a int rand
column b bigint rand
column txt text(36) uuid7
column u uuid uuid4
column ts timestamp rand
column z int zipf:1.1:100
column order int few:5
hot select
index z
index order
index u unique
index ts,a
index txt
EOF
printf 'id uuid uuid4\ncolumn k bigint seq\ncolumn tag text(8) few:3\nindex k\nindex tag,k\n' >"$T/uuidpk.spec"
printf 'id bigint seq\ncolumn v int rand\n' >"$T/noindex.spec"
printf 'id bigint seq\ncolumn t int rand\nindex t\n' >"$T/clash.spec"

# --- every built-in spec, every operation, on a throwaway server ----------
for s in default users textkey wal fields wide16 events; do
	if pgrun --schema $s --indexes 1 --op insert,update,update-indexed,update-keys,delete \
		--rows 1000 --format csv >"$T/b.csv" 2>"$T/err" &&
		[ "$(vals "$T/b.csv" rows)" = "1000 1000 1000 1000 1000 " ]; then
		ok schema-pg/builtin-$s-every-op
	else bad schema-pg/builtin-$s-every-op "rows '$(vals "$T/b.csv" rows)': $(tail -3 "$T/err")"; fi
done
for f in types uuidpk; do
	if pgrun --schema "$T/$f.spec" --indexes 2 --op insert,update,update-indexed,update-keys,delete \
		--rows 1000 --format csv >"$T/b.csv" 2>"$T/err" &&
		[ "$(vals "$T/b.csv" rows)" = "1000 1000 1000 1000 1000 " ]; then
		ok schema-pg/file-$f-every-op
	else bad schema-pg/file-$f-every-op "rows '$(vals "$T/b.csv" rows)': $(tail -3 "$T/err")"; fi
done
expect_exit schema-pg/update-indexed-without-index 2 "op update-indexed: the noindex table has no index" \
	pgrun --schema "$T/noindex.spec" --op update-indexed --rows 10
# An index on a column t would be named like idxlab's own table: the spec
# names it idxlab_i1 instead.
if pgrun --schema "$T/clash.spec" --indexes 1 --rows 10 --format csv >"$T/c.csv" 2>"$T/err" &&
	[ "$(field "$T/c.csv" rows)" = 10 ] &&
	"$IDXLAB" --schema "$T/clash.spec" --print-config | grep -q "^#   index t name idxlab_i1$"; then
	ok schema-pg/index-named-like-table
else bad schema-pg/index-named-like-table "$(tail -3 "$T/err")"; fi
no_leftovers schema-pg/temp-dir-removed

# --- the users table at 0/1/3/6 indexes: each index its own tree, in list
# order; every index adds WAL to an inserted row.
pgrun --schema users --indexes 0,1,3,6 --rows 5000 --format csv >"$T/u.csv" 2>"$T/err" ||
	bad schema-pg/users-sweep-run "$(tail -3 "$T/err")"
pages=$(vals "$T/u.csv" index_pages)
columns "$T/u.csv" index_pages
n_pages=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "index_pages") c = i; next } { printf "%d ", ($c == "" ? 0 : split($c, p, ";")) }' "$T/u.csv")
ib=$(vals "$T/u.csv" index_bytes)
w0=$(net "$T/u.csv" insert 0) w1=$(net "$T/u.csv" insert 1) w3=$(net "$T/u.csv" insert 3) w6=$(net "$T/u.csv" insert 6)
echo "  users at 0/1/3/6 indexes: index pages '$pages', index bytes $ib, WAL B/row (no FPI) $w0 $w1 $w3 $w6"
[ "$n_pages" = "0 1 3 6 " ] && ok schema-pg/users-index-pages-per-index ||
	bad schema-pg/users-index-pages-per-index "index_pages '$pages'"
check schema-pg/users-index-bytes-grow "$(echo "$ib" | awk '{ print ($1 == 0 && $2 > 0 && $3 > $2 && $4 > $3) }') == 1"
check schema-pg/users-wal-grows-per-index "$w1 - $w0 >= 50 && $w3 - $w1 >= 2 * 50 && $w6 - $w3 >= 3 * 50"

# --- finding #2: the WAL table. An index costs ~76 B of WAL per inserted
# row and per non-HOT update; an update of hot_col stays HOT (fillfactor
# 25) and flat whatever the index count.
pgrun --schema wal --fillfactor 25 --op insert,update,update-indexed --indexes 0,4 --rows 20000 \
	--format csv >"$T/w.csv" 2>"$T/err" || bad schema-pg/wal-run "$(tail -3 "$T/err")"
wi0=$(net "$T/w.csv" insert 0) wi4=$(net "$T/w.csv" insert 4)
wu0=$(net "$T/w.csv" update 0) wu4=$(net "$T/w.csv" update 4)
wk0=$(net "$T/w.csv" update-indexed 0) wk4=$(net "$T/w.csv" update-indexed 4)
hu4=$(fieldof "$T/w.csv" hot_pct update 4) hk4=$(fieldof "$T/w.csv" hot_pct update-indexed 4)
echo "  wal table, WAL B/row (no FPI) at 0/4 indexes: insert $wi0 $wi4, update $wu0 $wu4 (HOT $hu4 %), update-indexed $wk0 $wk4 (HOT $hk4 %)"
check schema-pg/wal-insert-per-index "($wi4 - $wi0) / 4 >= 55 && ($wi4 - $wi0) / 4 <= 100"
check schema-pg/wal-update-hot-flat "$hu4 >= 99 && $wu4 - $wu0 <= 10 && $wu0 - $wu4 <= 10"
check schema-pg/wal-update-indexed-per-index "$hk4 == 0 && ($wk4 - $wk0) / 4 >= 55"

# --- finding #3: the fields table as the comparison ran it (batches of
# 1,000, no payload; sync full here so the full-page images can be read).
pgrun --schema fields --op insert,update,update-indexed --indexes 0,1,5 --commit 1000 --payload 0 \
	--rows 20000 --format csv >"$T/f.csv" 2>"$T/err" || bad schema-pg/fields-run "$(tail -3 "$T/err")"
fi0=$(net "$T/f.csv" insert 0) fi5=$(net "$T/f.csv" insert 5)
fu0=$(net "$T/f.csv" update 0) fu5=$(net "$T/f.csv" update 5)
fk1=$(net "$T/f.csv" update-indexed 1) fk5=$(net "$T/f.csv" update-indexed 5)
columns "$T/f.csv" op hot_pct
hot=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["op"] == "update" { printf "%s ", $h["hot_pct"] }' "$T/f.csv")
echo "  fields, WAL B/row (no FPI): insert 0/5 $fi0 $fi5; update of counter 0/5 $fu0 $fu5 (HOT % at 0/1/5: $hot); update of field1 1/5 $fk1 $fk5"
check schema-pg/fields-insert-5-costs-more "$fi5 - $fi0 >= 4 * 50"
# the counter's update: mostly HOT at every index count, and the index
# count adds a small share of what it adds to an insert
check schema-pg/fields-update-counter-hot "$(echo "$hot" | awk '{ print ($1 >= 80 && $1 - $3 <= 2 && $3 - $1 <= 2) }') == 1 && $fu5 - $fu0 < ($fi5 - $fi0) / 3"
check schema-pg/fields-update-field1-5-vs-1 "$fk1 > 0 && $fk5 >= 1.6 * $fk1"

# --- our own server: the table as the catalog has it ----------------------
own_pg schema-pg/own-server || exit 0
# hold INDEXES ROWS ARGS...: idxlab works on the test server in the
# background ($pid) with ARGS; returns once its table has INDEXES secondary
# indexes and at least ROWS rows (1: it ended or took over 20 s).
hold() {
	want=$1 min=$2
	shift 2
	hold_until "SELECT (SELECT count(*) FROM pg_index WHERE indrelid = 'idxlab.idxlab_t'::regclass AND NOT indisprimary) = $want AND (SELECT count(*) FROM idxlab.idxlab_t) >= $min" "$@"
}
cols_sql="SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'idxlab.idxlab_t'::regclass AND attnum > 0 AND NOT attisdropped"
idx_sql="SELECT string_agg(c.relname || CASE WHEN i.indisunique THEN ' unique' ELSE '' END || ' (' || (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(att, n) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.att) || ')', '; ' ORDER BY c.oid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'idxlab.idxlab_t'::regclass AND NOT i.indisprimary"
# seq_list PREFIX FROM TO SUFFIX: "PREFIXi SUFFIX, ..." for i = FROM..TO.
seq_list() { seq "$2" "$3" | awk -v p="$1" -v s="$4" '{ printf "%s%s%d%s", (NR > 1 ? ", " : ""), p, $1, s }'; }
# catalog NAME INDEXES COLUMNS INDEX-LIST ARGS...: the table of a run with
# ARGS (an update: the load stays as it is) is what the spec says.
catalog() {
	name=$1 n=$2 want_cols=$3 want_idx=$4
	shift 4
	if ! hold "$n" 3000 --op update --prefill 3000 --rows 100000000 --commit 100 --indexes "$n" "$@"; then
		bad "schema-pg/catalog-$name" "the table never had $n indexes and 3000 rows: $(tail -3 "$T/hold.err")"
		release KILL
		return
	fi
	got_cols=$(psql_ "$cols_sql") got_idx=$(psql_ "$idx_sql")
	got_rows=$(psql_ "SELECT count(*) FROM idxlab.idxlab_t")
	release
	if [ "$got_cols" = "$want_cols" ] && [ "$got_idx" = "$want_idx" ] && [ "$got_rows" = 3000 ]; then
		ok "schema-pg/catalog-$name"
	else bad "schema-pg/catalog-$name" "rows $got_rows; columns '$got_cols' (want '$want_cols'); indexes '$got_idx' (want '$want_idx')"; fi
}
tail_cols() { echo "${1:-hot} integer, payload text"; }
catalog default 8 "id bigint, $(seq_list k 1 8 ' bigint'), $(tail_cols)" \
	"$(seq 1 8 | awk '{ printf "%sidxlab_k%d (k%d)", (NR > 1 ? "; " : ""), $1, $1 }')"
catalog default-uuid 2 "id uuid, $(seq_list k 1 8 ' uuid'), $(tail_cols)" \
	"idxlab_k1 (k1); idxlab_k2 (k2)" --pk uuid4 --key-order uuid7
catalog users 6 "id bigint, email text, created_at timestamp with time zone, country text, status text, $(tail_cols)" \
	"idxlab_email (email); idxlab_created_at (created_at); idxlab_country (country); idxlab_status (status); idxlab_country_created_at (country, created_at); idxlab_status_created_at (status, created_at)" \
	--schema users
catalog textkey 1 "id bigint, k text, $(tail_cols)" "idxlab_k (k)" --schema textkey
catalog wal 8 "id bigint, $(seq_list k 1 8 ' integer'), $(tail_cols hot_col)" \
	"$(seq 1 8 | awk '{ printf "%sidxlab_k%d (k%d)", (NR > 1 ? "; " : ""), $1, $1 }')" --schema wal
catalog fields 5 "id bigint, $(seq_list field 1 5 ' bigint'), $(tail_cols counter)" \
	"$(seq 1 5 | awk '{ printf "%sidxlab_field%d (field%d)", (NR > 1 ? "; " : ""), $1, $1 }')" --schema fields
catalog wide16 4 "id bigint, $(seq_list c 1 14 ' integer'), $(tail_cols)" \
	"$(seq 1 4 | awk '{ printf "%sidxlab_c%d (c%d)", (NR > 1 ? "; " : ""), $1, $1 }')" --schema wide16
catalog events 1 "id uuid, uid uuid, $(tail_cols)" "idxlab_uid unique (uid)" --schema events --pk uuid7
catalog types 5 "id bigint, a integer, b bigint, txt text, u uuid, ts timestamp with time zone, z integer, order integer, $(tail_cols select)" \
	"idxlab_z (z); idxlab_order (order); idxlab_u unique (u); idxlab_ts_a (ts, a); idxlab_txt (txt)" --schema "$T/types.spec"
catalog uuidpk 2 "id uuid, k bigint, tag text, $(tail_cols)" "idxlab_k (k); idxlab_tag_k (tag, k)" --schema "$T/uuidpk.spec"

# --- the values: as the spec orders them, and the same whether the prefill's
# COPY loaded them or the INSERTs wrote them (binary parameters).
sum_sql="SELECT md5(string_agg(x::text, '|' ORDER BY x.id)) FROM (SELECT id, a, b, txt, u, ts, z, \"order\" FROM idxlab.idxlab_t WHERE id <= 1000) x"
shape_sql="SELECT count(DISTINCT z) <= 100 AND count(DISTINCT z) >= 20 AND (SELECT max(c) FROM (SELECT count(*) c FROM idxlab.idxlab_t GROUP BY z) m) >= 5 * count(*) / 100 AND count(DISTINCT \"order\") = 5 AND count(*) FILTER (WHERE txt !~ '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\$') = 0 AND count(*) FILTER (WHERE u::text !~ '^[0-9a-f]{8}-[0-9a-f]{4}-4') = 0 AND min(ts) >= '2015-12-31' AND max(ts) <= '2026-01-01' FROM idxlab.idxlab_t WHERE id <= 1000"
users_sql="SELECT count(DISTINCT country) BETWEEN 40 AND 50 AND count(DISTINCT status) = 4 AND count(*) FILTER (WHERE created_at <> timestamptz '2026-01-01 00:00:00+00' + (id - 1) * interval '1 ms' OR length(email) <> 26 OR length(country) <> 2 OR length(status) <> 6) = 0 FROM idxlab.idxlab_t WHERE id <= 3000"
hold 5 1000 --schema "$T/types.spec" --indexes 5 --op update --prefill 1000 --rows 100000000 --commit 100
copied=$(psql_ "$sum_sql") copied_shape=$(psql_ "$shape_sql")
release
hold 5 1000 --schema "$T/types.spec" --indexes 5 --op insert --rows 100000000 --commit 100
inserted=$(psql_ "$sum_sql") inserted_shape=$(psql_ "$shape_sql")
release
echo "  types.spec rows 1..1000: COPY $copied, INSERT $inserted; shape $copied_shape $inserted_shape"
echo "$copied" | grep -qx '[0-9a-f]\{32\}' && [ "$copied" = "$inserted" ] && ok schema-pg/copy-and-insert-same-values ||
	bad schema-pg/copy-and-insert-same-values "md5 COPY '$copied', INSERT '$inserted'"
[ "$copied_shape" = t ] && [ "$inserted_shape" = t ] && ok schema-pg/values-follow-their-order ||
	bad schema-pg/values-follow-their-order "zipf/few/uuid7/uuid4/timestamp checks: COPY '$copied_shape', INSERT '$inserted_shape'"
hold 6 3000 --schema users --indexes 6 --op update --prefill 3000 --rows 100000000 --commit 100
u_copy=$(psql_ "$users_sql")
# a country of about 2 % of the rows (zipf:1:50's eleventh commonest) and
# two thirds of the times: the (country, created_at) index serves both
cc=$(psql_ "SELECT country FROM idxlab.idxlab_t GROUP BY 1 ORDER BY count(*) DESC, 1 OFFSET 10 LIMIT 1")
plan=$(psql_ "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT count(*) FROM idxlab.idxlab_t WHERE country = '$cc' AND created_at > '2026-01-01 00:00:01+00'")
plan_text=$(psql_ "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT id FROM idxlab.idxlab_t WHERE email = 'abc'")
release
hold 6 3000 --schema users --indexes 6 --op insert --rows 100000000 --commit 100
u_ins=$(psql_ "$users_sql")
release
[ "$u_copy" = t ] && [ "$u_ins" = t ] && ok schema-pg/users-values ||
	bad schema-pg/users-values "countries 40..50, 4 statuses, created_at 2026-01-01 + 1 ms per row, 26-character emails, 6-character statuses: COPY '$u_copy', INSERT '$u_ins'"
echo "$plan" | grep -q "Index Cond: ((country = '$cc'::text) AND (created_at >" && echo "$plan" | grep -q "using idxlab_country_created_at" &&
	ok schema-pg/composite-index-used || bad schema-pg/composite-index-used "$plan"
echo "$plan_text" | grep -q "using idxlab_email" && ok schema-pg/text-index-used || bad schema-pg/text-index-used "$plan_text"

# --- a killed run's table is idxlab's, whatever the spec; nothing else is
if hold 6 3000 --schema users --indexes 6 --op update --prefill 3000 --rows 100000000 --commit 100; then
	release KILL
	left=$(psql_ "SELECT count(*) FROM pg_class WHERE relnamespace = 'idxlab'::regnamespace AND relname LIKE 'idxlab\_%'")
	if [ "$left" = 8 ] && pgrun --dsn "$dsn" --rows 100 --format csv >/dev/null 2>"$T/err" &&
		[ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 0 ]; then
		ok schema-pg/killed-users-run-taken-over
	else bad schema-pg/killed-users-run-taken-over "relations left: $left; $(tail -3 "$T/err")"; fi
else
	bad schema-pg/killed-users-run-taken-over "$(tail -3 "$T/hold.err")"
	release KILL
fi
if hold 5 3000 --schema "$T/types.spec" --indexes 5 --op update --prefill 3000 --rows 100000000 --commit 100; then
	release KILL
	pg_idle
	if pgrun --dsn "$dsn" --schema "$T/types.spec" --rows 100 --format csv >/dev/null 2>"$T/err"; then
		ok schema-pg/killed-file-run-taken-over-by-its-spec
	else bad schema-pg/killed-file-run-taken-over-by-its-spec "$(tail -3 "$T/err")"; fi
else
	bad schema-pg/killed-file-run-taken-over-by-its-spec "$(tail -3 "$T/hold.err")"
	release KILL
fi
if hold 1 3000 --schema users --indexes 1 --op update --prefill 3000 --rows 100000000 --commit 100; then
	release KILL
	psql_ "CREATE INDEX idxlab_foo ON idxlab.idxlab_t (id)" >/dev/null
	expect_exit schema-pg/foreign-index-refused 2 "holds objects idxlab did not create \(idxlab_foo\)" \
		pgrun --dsn "$dsn" --schema users --rows 100
	[ "$(psql_ "SELECT count(*) FROM idxlab.idxlab_t")" = 3000 ] && ok schema-pg/foreign-index-untouched ||
		bad schema-pg/foreign-index-untouched "$(psql_ "SELECT count(*) FROM idxlab.idxlab_t")"
	psql_ "DROP SCHEMA idxlab CASCADE" >/dev/null
else
	bad schema-pg/foreign-index-refused "$(tail -3 "$T/hold.err")"
	release KILL
fi

# --- the dashboard's indexes slider: idx[N..M-1] built in list order, then
# dropped from the last, each named in the event log (its last lines) -----
if command -v tmux >/dev/null; then
	pg_idle
	start pgdash "$IDXLAB" --engine postgres --dsn "'$dsn'" --schema users --commit 100
	if wait_for pgdash '││rows/s +[0-9]' 15; then
		i=0
		while [ $i -lt 5 ] && ! cap pgdash | grep -q '>indexes'; do
			sel=$(selected pgdash)
			tm send-keys -t pgdash Down
			poll 10 moved pgdash "$sel" # (one Down at a time: a slow screen must not be overrun)
			i=$((i + 1))
		done
		tm send-keys -t pgdash Right Right Right Right Right
		wait_for pgdash 'built idxlab_country_created_at on' 20
		built=$(psql_ "$idx_sql")
		# the events box holds a few lines: its builds read now, its drops
		# after them
		log=$(cap pgdash | grep -oE 'built idxlab_[a-z_]+' | tr '\n' ' ')
		tm send-keys -t pgdash Left Left Left
		wait_for pgdash 'dropped idxlab_country +│' 20
		log="$log$(cap pgdash | grep -oE 'dropped idxlab_[a-z_]+' | tr '\n' ' ')"
		dropped=$(psql_ "$idx_sql")
		if [ "$built" = "idxlab_email (email); idxlab_created_at (created_at); idxlab_country (country); idxlab_status (status); idxlab_country_created_at (country, created_at)" ] &&
			[ "$dropped" = "idxlab_email (email); idxlab_created_at (created_at)" ]; then
			ok schema-pg/dashboard-indexes-by-position
		else bad schema-pg/dashboard-indexes-by-position "at 5: '$built'; at 2: '$dropped'"; fi
		case "$log" in
		*"built idxlab_status built idxlab_country_created_at dropped idxlab_country_created_at dropped idxlab_status dropped idxlab_country ")
			ok schema-pg/dashboard-event-log-names ;;
		*) bad schema-pg/dashboard-event-log-names "event log: '$log'" ;;
		esac
	else bad schema-pg/dashboard-indexes-by-position "$(cap pgdash)"; fi
	tm send-keys -t pgdash q
	code=$(wait_exit pgdash)
	[ "$code" = EXIT=0 ] && ok schema-pg/dashboard-quits || bad schema-pg/dashboard-quits "got '$code'"
else
	skip schema-pg/dashboard-indexes-by-position "tmux is not installed"
fi

# --- a killed run of a file spec or a derived spec (--schema-from) on a
# server of the user's: the next default run knows the leftovers as
# idxlab's by their mark, whatever spec made them, says what they were and
# takes them over; idxlab creates no extension there (an extension is the
# database's, not its schema's), says which figures that leaves n/a and how
# to enable them, and leaves the extensions as they were -------------------
# pg_stat_statements loaded, as on many servers: still not created.
ss=0
if [ -f "$("$bindir/pg_config" --pkglibdir 2>/dev/null)/pg_stat_statements.so" ]; then
	psql_ "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" >/dev/null
	$as "$bindir/pg_ctl" -D "$T/own/data" -l "$T/own/log" -w -m fast restart >/dev/null 2>&1
	if [ "$(psql_ "SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'")" = pg_stat_statements ]; then
		ss=1
	else bad schema-pg/own-server-preloads "could not restart the test server with pg_stat_statements: $(tail -3 "$T/own/log")"; fi
else
	skip schema-pg/own-server-preloads "pg_stat_statements is not installed with this server: its cases are left out"
fi
exts_sql="SELECT coalesce(string_agg(x.extname || '@' || n.nspname, ' ' ORDER BY x.extname), '') FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace"
# (note: a column no index covers, which op update changes on the derived
# table: it has no hot column of idxlab's own)
psql_ "CREATE TABLE public.orders (id bigint PRIMARY KEY, customer int, placed timestamptz, status text, note text); CREATE INDEX orders_customer ON public.orders (customer); CREATE INDEX orders_status_placed ON public.orders (status, placed); INSERT INTO public.orders SELECT i, i % 97, now() + i * interval '1 s', 's' || (i % 4), 'n' || i FROM generate_series(1, 2000) i; ANALYZE public.orders" >/dev/null
exts0=$(psql_ "$exts_sql")
for how in file derived; do
	if [ $how = file ]; then
		set -- --schema "$T/types.spec"
		n=5
	else
		set -- --schema-from "$dsn:public.orders"
		n=2
	fi
	if hold $n 3000 "$1" "$2" --indexes $n --op update --prefill 3000 --rows 100000000 --commit 100; then
		during=$(psql_ "$exts_sql")
		release KILL
		left=$(psql_ "SELECT 'table ' || (SELECT string_agg(relname, ', ') FROM pg_class WHERE relnamespace = 'idxlab'::regnamespace AND relkind = 'r') || '; ' || count(*) || ' indexes (' || string_agg(relname, ', ' ORDER BY relname) || ')' FROM pg_class WHERE relnamespace = 'idxlab'::regnamespace AND relkind = 'i'")
		after_kill=$(psql_ "$exts_sql")
		pgrun --dsn "$dsn" --rows 100 --format csv >"$T/next.csv" 2>"$T/next.err"
		rc=$?
		if [ $rc -eq 0 ] && grep -qF "schema idxlab: taking over what an earlier idxlab left (it was killed, or gave up on the server): $left" "$T/next.err" &&
			[ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 0 ]; then
			ok schema-pg/killed-$how-spec-run-taken-over-by-default
		else bad schema-pg/killed-$how-spec-run-taken-over-by-default "left: $left; exit $rc: $(tail -5 "$T/next.err")"; fi
		if [ "$during" = "$exts0" ] && [ "$after_kill" = "$exts0" ] && [ "$(psql_ "$exts_sql")" = "$exts0" ]; then
			ok schema-pg/killed-$how-spec-run-extensions-as-before
		else bad schema-pg/killed-$how-spec-run-extensions-as-before "before '$exts0', during '$during', after the kill '$after_kill', after the next run '$(psql_ "$exts_sql")'"; fi
		psql_ "DROP SCHEMA IF EXISTS idxlab CASCADE" >/dev/null # after a failure: the next case starts clean
	else
		bad schema-pg/killed-$how-spec-run-taken-over-by-default "$(tail -3 "$T/hold.err")"
		release KILL
	fi
done
# Which figures are n/a on a server without the extensions, and the SQL
# that enables them.
said="is not in this database, and idxlab adds nothing outside its schema on your server: CREATE EXTENSION"
if grep -q "the cache gauges are n/a: pg_buffercache $said pg_buffercache; enables them" "$T/next.err" &&
	grep -q "full-page-image bytes are n/a: pg_walinspect $said pg_walinspect; enables them" "$T/next.err" &&
	{ [ $ss = 0 ] || grep -q "cache spills (the buffers idxlab's statements wrote out) are n/a: pg_stat_statements $said pg_stat_statements; enables them" "$T/next.err"; }; then
	ok schema-pg/dsn-missing-extensions-said
else bad schema-pg/dsn-missing-extensions-said "$(cat "$T/next.err")"; fi
# The extensions the user has are used (the figures are there) and left
# as they were.
psql_ "CREATE EXTENSION pg_buffercache" >/dev/null
[ $ss = 1 ] && psql_ "CREATE EXTENSION pg_stat_statements" >/dev/null
exts1=$(psql_ "$exts_sql")
if pgrun --dsn "$dsn" --rows 2000 --format csv >"$T/next.csv" 2>"$T/next.err" &&
	[ "$(psql_ "$exts_sql")" = "$exts1" ] && ! grep -q "are n/a: pg_buffercache" "$T/next.err" &&
	[ -n "$(field "$T/next.csv" cache_dirty_pct 1)" ] && { [ $ss = 0 ] || {
		! grep -q "are n/a: pg_stat_statements" "$T/next.err" && [ -n "$(field "$T/next.csv" spills_per_row 1)" ]
	}; }; then
	ok schema-pg/dsn-users-extensions-used-and-kept
else bad schema-pg/dsn-users-extensions-used-and-kept "before '$exts1', after '$(psql_ "$exts_sql")'; spills_per_row '$(field "$T/next.csv" spills_per_row 1)', cache_dirty_pct '$(field "$T/next.csv" cache_dirty_pct 1)': $(tail -5 "$T/next.err")"; fi
psql_ "DROP EXTENSION pg_buffercache; DROP EXTENSION IF EXISTS pg_stat_statements" >/dev/null
# Unmarked objects are not idxlab's: refused, named, with the SQL that
# would remove them, and left as they are.
if hold 1 3000 --schema-from "$dsn:public.orders" --indexes 1 --op update --prefill 3000 --rows 100000000 --commit 100; then
	release KILL
	psql_ "CREATE INDEX idxlab_mine ON idxlab.idxlab_t (id); CREATE TABLE idxlab.notes (x int)" >/dev/null
	expect_exit schema-pg/unmarked-objects-refused-with-sql 2 "holds objects idxlab did not create \(idxlab_mine, notes\).*remove them \(DROP INDEX idxlab\.idxlab_mine; DROP TABLE idxlab\.notes;\) or the whole schema \(DROP SCHEMA idxlab CASCADE;\)" \
		pgrun --dsn "$dsn" --rows 100
	[ "$(psql_ "SELECT count(*) FROM idxlab.idxlab_t")" = 3000 ] && [ "$(psql_ "SELECT count(*) FROM pg_class WHERE relname IN ('idxlab_mine', 'notes')")" = 2 ] &&
		ok schema-pg/unmarked-objects-untouched || bad schema-pg/unmarked-objects-untouched "$(psql_ '\dt idxlab.*')"
	psql_ "DROP SCHEMA idxlab CASCADE" >/dev/null
else
	bad schema-pg/unmarked-objects-refused-with-sql "$(tail -3 "$T/hold.err")"
	release KILL
fi
[ "$(psql_ "SELECT count(*) FROM public.orders")" = 2000 ] && ok schema-pg/source-table-untouched ||
	bad schema-pg/source-table-untouched "$(psql_ "SELECT count(*) FROM public.orders")"
# An extension in schema idxlab that an older idxlab created there: used,
# left as it was (idxlab drops only what it created in this run), and the
# schema with it, said with the SQL that removes both.
psql_ "CREATE SCHEMA idxlab; COMMENT ON SCHEMA idxlab IS 'created by idxlab'; CREATE EXTENSION pg_buffercache SCHEMA idxlab" >/dev/null
exts1=$(psql_ "$exts_sql")
if pgrun --dsn "$dsn" --rows 2000 --format csv >"$T/next.csv" 2>"$T/next.err" &&
	[ "$(psql_ "$exts_sql")" = "$exts1" ] && [ -n "$(field "$T/next.csv" cache_dirty_pct 1)" ] &&
	[ "$(psql_ "SELECT count(*) FROM pg_class WHERE relnamespace = 'idxlab'::regnamespace AND relname = 'idxlab_t'")" = 0 ] &&
	grep -q "schema idxlab stays on the server: it holds extensions that were there before this run, which idxlab leaves as they were: DROP EXTENSION pg_buffercache; DROP SCHEMA idxlab; removes it" "$T/next.err"; then
	ok schema-pg/older-extension-left-as-it-was
else bad schema-pg/older-extension-left-as-it-was "before '$exts1', after '$(psql_ "$exts_sql")': $(tail -5 "$T/next.err")"; fi
psql_ "DROP EXTENSION pg_buffercache; DROP SCHEMA idxlab" >/dev/null
[ "$(psql_ "SELECT count(*) FROM pg_namespace WHERE nspname = 'idxlab'")" = 0 ] && [ "$(psql_ "$exts_sql")" = "$exts0" ] &&
	ok schema-pg/older-extension-said-sql-removes-it || bad schema-pg/older-extension-said-sql-removes-it "$(psql_ '\dn') $(psql_ '\dx')"
$as "$bindir/pg_ctl" -D "$T/own/data" -m immediate stop >/dev/null 2>&1
