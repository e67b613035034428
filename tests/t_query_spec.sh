# Query lines in table specs (issue 22, item 2): a spec file's `query NAME:
# ...` lines are printed back by --print-config as they read, and that
# text read again prints the same (the round trip); each bad line exits 2
# at file:line naming the word; the users table carries the queries its
# indexes are for; --schema-from proposes one lookup per index's leading
# column, marked guessed, on SQLite and PostgreSQL, and on PostgreSQL with
# pg_stat_statements lists the table's most-called statements in the notes
# (never running them: the source is read-only as always).
. "$(dirname "$0")/lib.sh"

# spec FILE: the spec --print-config says FILE (or a built-in) is, as a spec file.
spec() { "$IDXLAB" --schema "$1" --print-config 2>"$T/err" | sed -n 's/^#   //p'; }
# has NAME PATTERN FILE: PASS when FILE holds a line matching PATTERN.
has() {
	if grep -qE -- "$2" "$3"; then ok "$1"; else bad "$1" "no /$2/ in: $(cat "$3")"; fi
}

cat >"$T/q.spec" <<'EOF'
table q
id bigint seq
column email text(26) rand
column created_at timestamptz seq
column country text(2) zipf:1:50
index email
index country,created_at
query by_email: email = ?
# SQL's spelling: upper case, $1, where, no spaces
query recent_cc: WHERE country=$1 AND created_at >= $2 ORDER BY created_at DESC LIMIT 10
query by_id: id = ? limit 1 guessed
query older: created_at < ? order by created_at
EOF
spec "$T/q.spec" >"$T/q1.spec"
want='query by_email: email = ?
query recent_cc: country = ? and created_at >= ? order by created_at desc limit 10
query by_id: id = ? limit 1 guessed
query older: created_at < ? order by created_at'
if [ "$(grep '^query ' "$T/q1.spec")" = "$want" ]; then
	ok query-spec/printed
else bad query-spec/printed "$(cat "$T/q1.spec" "$T/err")"; fi
spec "$T/q1.spec" >"$T/q2.spec"
if [ -s "$T/q2.spec" ] && cmp -s "$T/q1.spec" "$T/q2.spec"; then
	ok query-spec/round-trip
else bad query-spec/round-trip "$(diff "$T/q1.spec" "$T/q2.spec") $(cat "$T/err")"; fi

# --- each bad line: exit 2 at file:line (line 6), the word named ----------
printf 'id bigint seq\ncolumn email text(26) rand\ncolumn created_at timestamptz seq\nindex email\nindex created_at\n' >"$T/head"
n=0
while IFS='|' read -r line pat; do
	n=$((n + 1))
	{
		cat "$T/head"
		printf '%s\n' "$line"
	} >"$T/bad$n.spec"
	expect_exit "query-spec/bad-$n" 2 "bad$n.spec:6: $pat" "$IDXLAB" --schema "$T/bad$n.spec" --print-config
done <<'EOF'
query by_email: emial = ?|query by_email: the condition: unknown column 'emial' \(did you mean 'email'\?\)
query a: email like ?|query a: email like: a query compares a column with = < <= > >= and \?
query a: email in (?)|query a: email in: a query compares
query a: email = ? or created_at > ?|query a: 'or': a query compares
query a: lower(email) = ?|query a: 'lower\(': a query compares a column itself
query a: email = 'x@y.org'|query a: email = 'x@y.org': a constant; write \?
query a: email = ? and created_at > ? and id = ?|query a: 'and id': more than 2 terms
query a: email = ? order by created|query a: order by: unknown column 'created' \(did you mean 'created_at'\?\)
query a: email = ? limit 0|query a: limit 0: the rows a query returns at most, a whole number 1 .. 100000
query a: email = ? limit 100001|query a: limit 100001:
query 2a: email = ?|'2a' is not a query name
EOF
{
	cat "$T/head"
	printf 'query a: email = ?\nquery a: created_at > ?\n'
} >"$T/dup.spec"
expect_exit query-spec/bad-duplicate-name 2 "dup.spec:7: query a: a query of that name exists already" \
	"$IDXLAB" --schema "$T/dup.spec" --print-config
{
	cat "$T/head"
	for i in 1 2 3 4 5 6 7 8 9; do echo "query q$i: email = ?"; done
} >"$T/many.spec"
expect_exit query-spec/bad-too-many 2 "many.spec:14: query q9: more than 8 queries in one spec" \
	"$IDXLAB" --schema "$T/many.spec" --print-config

# --- the users table: the reads its indexes are for ------------------------
spec users >"$T/users.spec"
want='query by_email: email = ?
query recent: created_at > ? order by created_at desc limit 10
query recent_by_country: country = ? and created_at > ? order by created_at desc limit 10
query recent_by_status: status = ? and created_at > ? order by created_at desc limit 10'
if [ "$(grep '^query ' "$T/users.spec")" = "$want" ]; then
	ok query-spec/users-queries
else bad query-spec/users-queries "$(cat "$T/users.spec" "$T/err")"; fi
if [ -z "$(spec textkey | grep '^query ')" ] && [ -n "$(spec textkey | grep '^index ')" ]; then
	ok query-spec/textkey-none
else bad query-spec/textkey-none "$(spec textkey)"; fi

# --- --schema-from on SQLite: one guessed lookup per leading column --------
if command -v sqlite3 >/dev/null; then
	sqlite3 "$T/src.db" "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT, country TEXT, created_at INTEGER, nick TEXT);
		CREATE UNIQUE INDEX users_email ON users(email); CREATE INDEX users_cc ON users(country, created_at);
		CREATE INDEX users_c ON users(country); CREATE INDEX users_low ON users(lower(nick));
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
		INSERT INTO users SELECT i, 'u' || i || '@x.org', char(65 + i % 7) || 'X', i, 'N' || i FROM n; ANALYZE;"
	sum0=$(cksum <"$T/src.db")
	"$IDXLAB" --print-config --schema-from "$T/src.db:users" >"$T/from.pc" 2>&1
	if [ "$(sed -n 's/^#   query //p' "$T/from.pc")" = "by_email: email = ? guessed
by_country: country = ? guessed" ] && [ "$(cksum <"$T/src.db")" = "$sum0" ]; then
		ok query-spec/from-sqlite-guessed
	else bad query-spec/from-sqlite-guessed "$(cat "$T/from.pc")"; fi
	has query-spec/from-sqlite-noted "^# how it was read: queries by_email, by_country: guessed from the indexes, one lookup" "$T/from.pc"
	has query-spec/from-sqlite-expression-noted "index idxlab_users_low is on an expression of nick: no query line uses it" "$T/from.pc"
	# the derived spec saved as a file reads back the same, guessed kept
	sed -n 's/^#   //p' "$T/from.pc" >"$T/from.spec"
	if [ -s "$T/from.spec" ] && [ "$(spec "$T/from.spec")" = "$(cat "$T/from.spec")" ]; then
		ok query-spec/from-sqlite-round-trip
	else bad query-spec/from-sqlite-round-trip "$(spec "$T/from.spec") $(cat "$T/err")"; fi
else
	skip query-spec/from-sqlite "sqlite3 is not installed (apt-get install sqlite3)"
fi

# --- --schema-from on PostgreSQL: the guessed lookups, and with
# pg_stat_statements the table's most-called statements in the notes --------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip query-spec/from-pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg query-spec/pg-server || exit 0
psql_ "CREATE TABLE public.orders (id bigint PRIMARY KEY, customer int, placed timestamptz, status text);
	CREATE INDEX orders_customer ON public.orders (customer);
	CREATE INDEX orders_status_placed ON public.orders (status, placed);
	INSERT INTO public.orders SELECT i, i % 97, now() + i * interval '1 s', 's' || (i % 4) FROM generate_series(1, 2000) i;
	ANALYZE public.orders" >/dev/null
"$IDXLAB" --print-config --schema-from "$dsn:public.orders" >"$T/pg.pc" 2>&1
if [ "$(sed -n 's/^#   query //p' "$T/pg.pc")" = "by_customer: customer = ? guessed
by_status: status = ? guessed" ]; then
	ok query-spec/from-pg-guessed
else bad query-spec/from-pg-guessed "$(cat "$T/pg.pc")"; fi
has query-spec/from-pg-no-statements "the table's most-called statements: pg_stat_statements is not in that database" "$T/pg.pc"
if [ ! -f "$("$bindir/pg_config" --pkglibdir 2>/dev/null)/pg_stat_statements.so" ]; then
	skip query-spec/from-pg-statements "pg_stat_statements is not installed with this server"
	exit 0
fi
# created but not preloaded: the view cannot be read, and a note says why
psql_ "CREATE EXTENSION pg_stat_statements" >/dev/null
"$IDXLAB" --print-config --schema-from "$dsn:public.orders" >"$T/pgnl.pc" 2>&1
has query-spec/from-pg-statements-unread "the table's most-called statements: pg_stat_statements could not be read: .*shared_preload_libraries" "$T/pgnl.pc"
psql_ "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" >/dev/null
$as "$bindir/pg_ctl" -D "$T/own/data" -l "$T/own/log" -w -m fast restart >/dev/null 2>&1
# the application's statements: by customer most often, then by status, a
# write, and a statement on another table that names orders only inside a
# longer word (orders_archive)
psql_ "CREATE TABLE orders_archive (id int)" >/dev/null
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	psql_ "SELECT id, placed FROM public.orders
	         WHERE customer = $i" >/dev/null
done
for i in 1 2 3 4 5 6; do
	psql_ "SELECT * FROM orders WHERE status = 's$((i % 4))' AND placed > now() ORDER BY placed DESC LIMIT 10" >/dev/null
	psql_ "SELECT count(*) FROM orders_archive WHERE id = $i" >/dev/null
done
for i in 1 2 3; do psql_ "UPDATE orders SET status = 's9' WHERE id = $((5000 + i))" >/dev/null; done
rows0=$(psql_ "SELECT count(*) || ' ' || sum(calls) FROM pg_stat_statements WHERE query ~* 'customer = \\\$1'")
"$IDXLAB" --print-config --schema-from "$dsn:public.orders" >"$T/pgss.pc" 2>&1
notes=$(sed -n 's/^# how it was read: //p' "$T/pgss.pc")
first=$(echo "$notes" | grep -n "^  1\. " | cut -d: -f1)
# one line each, in order of calls, the constants as $N, never run (the
# customer statement's calls are what they were)
if echo "$notes" | grep -q "^the table's most-called statements (pg_stat_statements, by calls; idxlab never runs them)" &&
	echo "$notes" | grep -qx '  1\. 12 calls: SELECT id, placed FROM public.orders WHERE customer = \$1' &&
	echo "$notes" | grep -qx '  2\. 6 calls: SELECT \* FROM orders WHERE status = \$1 AND placed > now() ORDER BY placed DESC LIMIT \$2' &&
	echo "$notes" | grep -qx '  3\. 3 calls: UPDATE orders SET status = \$1 WHERE id = \$2' &&
	! echo "$notes" | grep -q "orders_archive" && [ -n "$first" ] &&
	[ "$(psql_ "SELECT count(*) || ' ' || sum(calls) FROM pg_stat_statements WHERE query ~* 'customer = \\\$1'")" = "$rows0" ]; then
	ok query-spec/from-pg-statements
else bad query-spec/from-pg-statements "$(cat "$T/pgss.pc")"; fi
# idxlab's own sample of the table is not among them
if ! echo "$notes" | grep -q " AS v0"; then
	ok query-spec/from-pg-statements-not-own
else bad query-spec/from-pg-statements-not-own "$notes"; fi
