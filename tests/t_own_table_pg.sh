#!/bin/sh
# The cost of one more index on a user's PostgreSQL table, measured on the
# table itself and on idxlab's --schema-from copy of it (issue 19, the
# end-to-end agreement): bench/own_table.py --engine postgres on a server of
# the test's own makes two real tables (invoice_lines: a composite primary
# key over a growing foreign key with repeats, a growing date, numeric(10,2),
# a domain, a boolean; orders: an identity, a uuid with DEFAULT
# gen_random_uuid(), a date, 60 % NULL notes; users: a BY DEFAULT identity,
# a unique email, a partial index, a timestamptz growing in rows of varying
# width, which the heap holds in order only page by page: before
# grows_page_by_page, idxlab took it for random and its index cost 240 B of
# WAL per row against the real 70), appends rows to a copy of each
# through libpq in the real data's pattern, and runs idxlab run --dsn
# --schema-from --add-index on it. The candidate's WAL per row (the growing
# date; the random uuid) must agree within 25 %; the sources' catalog and
# rows are the same after the runs (idxlab writes nothing there, and leaves
# no schema behind). And the comparison can fail: the same copy with the
# candidate's order swapped by a hand-written spec (the date random, the
# uuid growing) must come out APART. Sizes: 2,000 rows onto 12,000, so a
# random index's leaves outnumber what the rows would touch in order and
# the full-page images after the checkpoint tell the orders apart.
. "$(dirname "$0")/lib.sh"

bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-table-pg/all "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-table-pg/server || exit 0
bench="$(cd "$(dirname "$0")/.." && pwd)/bench/own_table.py"
pgb() { python3 "$bench" --engine postgres --dsn "$dsn" --src 12000 --rows 2000 "$@"; }
# The sources' catalog (columns, types, defaults, identities, indexes,
# constraints, sequences, the schemas there are) and their rows, as hashes.
tables="'public.invoice_lines'::regclass, 'public.orders'::regclass, 'public.users'::regclass"
catalog() {
	psql_ "SELECT md5(string_agg(x, '|' ORDER BY x)) FROM (
	SELECT a.attrelid::regclass || a.attnum || a.attname || format_type(a.atttypid, a.atttypmod)
		|| a.attnotnull || a.attidentity || coalesce(pg_get_expr(d.adbin, d.adrelid), '') AS x
	FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	WHERE a.attrelid IN ($tables) AND a.attnum > 0 AND NOT a.attisdropped
	UNION ALL SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid IN ($tables)
	UNION ALL SELECT conname || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid IN ($tables)
	UNION ALL SELECT sequencename || coalesce(last_value::text, '-') FROM pg_sequences
	UNION ALL SELECT nspname FROM pg_namespace
	UNION ALL SELECT relname || relkind FROM pg_class WHERE relnamespace = 'public'::regnamespace) s"
}
rowsum() {
	psql_ "SELECT (SELECT count(*) || md5(string_agg(t::text, '|' ORDER BY ctid)) FROM public.invoice_lines t)
		|| (SELECT count(*) || md5(string_agg(t::text, '|' ORDER BY ctid)) FROM public.orders t)
		|| (SELECT count(*) || md5(string_agg(t::text, '|' ORDER BY ctid)) FROM public.users t)"
}

if pgb --only invoice_lines,orders,users --make-sources >"$T/make.out" 2>&1 && [ "$(psql_ 'SELECT count(*) FROM public.orders')" = 12000 ]; then
	ok own-table-pg/sources-made
else bad own-table-pg/sources-made "$(tail -3 "$T/make.out")"; fi
cat0=$(catalog) rows0=$(rowsum)

pgb --only invoice_lines,orders --use-sources --wrong-order >"$T/out" 2>&1
rc=$?
pgb --only users --use-sources >>"$T/out" 2>&1
rc=$((rc + $?))
sed 's/^/  /' "$T/out"

# line FILE TABLE SIDE: that side's WAL line of the table.
line() { grep "^$2  *wal_bytes_per_row  *$3 " "$1"; }
for t in invoice_lines orders users; do
	if line "$T/out" $t copy | grep -q "within 25 %$"; then
		ok own-table-pg/$t-candidate-wal-agrees
	else bad own-table-pg/$t-candidate-wal-agrees "exit $rc: $(grep "^$t " "$T/out" | tr '\n' '|') $(grep FAILED "$T/out")"; fi
	[ $t = users ] && continue
	if line "$T/out" $t wrong | grep -q "APART$"; then
		ok own-table-pg/$t-wrong-order-apart
	else bad own-table-pg/$t-wrong-order-apart "the candidate's order swapped, yet: $(grep "^$t " "$T/out" | tr '\n' '|') $(grep FAILED "$T/out")"; fi
done
# what each candidate adds ($6), real and copy: the random uuid costs more
# than twice the growing date on both sides (two nothings do not agree here)
date_real=$(line "$T/out" invoice_lines real | awk '{ print $6 }')
date_copy=$(line "$T/out" invoice_lines copy | awk '{ print $6 }')
uuid_real=$(line "$T/out" orders real | awk '{ print $6 }')
uuid_copy=$(line "$T/out" orders copy | awk '{ print $6 }')
check own-table-pg/uuid-costs-more "\"$date_real$date_copy$uuid_real$uuid_copy\" != \"\" &&
	$date_real >= 30 && $date_copy >= 30 && $uuid_real > 2 * $date_real && $uuid_copy > 2 * $date_copy"

[ "$(catalog)" = "$cat0" ] && ok own-table-pg/source-catalog-unchanged ||
	bad own-table-pg/source-catalog-unchanged "the sources' catalog (or the schemas) changed: idxlab left $(psql_ "SELECT string_agg(nspname, ' ') FROM pg_namespace WHERE nspname = 'idxlab'")"
[ -n "$rows0" ] && [ "$(rowsum)" = "$rows0" ] && ok own-table-pg/source-rows-unchanged ||
	bad own-table-pg/source-rows-unchanged "before '$rows0', after '$(rowsum)'"
