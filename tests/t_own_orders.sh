# Value orders read from the order of the rows (issue 19, items 1 and 7):
# an SQLite and a PostgreSQL table made here, each with an ordered column
# with repeats, a strictly decreasing one, a nearly ordered one with 2 %
# late arrivals, random text, a few-valued one, a counter id, a timestamp
# whose default is the clock, and uuids with a random and a time-ordered
# default. Each derived order is asserted from --print-config, the notes say
# what was seen and what was chosen (and no renames), the rows idxlab then
# writes have the property (counted in its own SQLite file), the spec
# language reads back to itself and refuses bad parameters at file:line,
# and the sources are unchanged.
. "$(dirname "$0")/lib.sh"

# order_of FILE COLUMN: the order word --print-config gave COLUMN ("id": the id's).
order_of() {
	awk -v c="$2" '$1 == "#" && $2 == "id" && c == "id" { print $4 } $1 == "#" && $2 == "column" && $3 == c { print $5 }' "$1"
}
# notes_of FILE: the "how it was read" line.
notes_of() { grep '^# how it was read: ' "$1"; }
# want NAME FILE COLUMN PATTERN: the column's order matches the ERE PATTERN.
want() {
	got=$(order_of "$2" "$3")
	if printf '%s\n' "$got" | grep -Eqx -- "$4"; then ok "$1"; else bad "$1" "$3 is '$got', want $4; $(notes_of "$2")"; fi
}
# stats DB ORDER COLS: for each column "name falls rises distinct rows", in
# ORDER (an ORDER BY), read from idxlab's own table.
stats() {
	/usr/bin/python3 - "$@" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
cols = sys.argv[3].split(",")
rows = db.execute("SELECT %s FROM idxlab_t ORDER BY %s" % (",".join(cols), sys.argv[2])).fetchall()
for j, c in enumerate(cols):
    v = [r[j] for r in rows]
    falls = sum(1 for i in range(1, len(v)) if v[i] < v[i - 1])
    rises = sum(1 for i in range(1, len(v)) if v[i] > v[i - 1])
    print(c, falls, rises, len(set(v)), len(v))
PY
}

# --- the SQLite fixture ----------------------------------------------------
mkdir "$T/src"
db=$T/src/lines.db
/usr/bin/python3 - "$db" <<'PY'
import random, sqlite3, sys
random.seed(19)
c = sqlite3.connect(sys.argv[1])
c.execute("""CREATE TABLE lines(id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL,
  countdown INTEGER, arrived INTEGER, word TEXT, kind TEXT,
  created TEXT DEFAULT CURRENT_TIMESTAMP, uid BLOB, cycle INTEGER)""")
c.execute("CREATE TABLE auto(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)")
rows, inv = [], 1
for i in range(3000):
    if i and random.random() < 1 / 5.4:
        inv += 1                                  # ~5.4 lines per invoice
    # every 50th row (2 %) arrives late: a value 1 to 500 rows back
    rows.append((inv, 1000000 - 7 * i, max(0, i - 1 - i * 37 % 500) if i % 50 == 25 else i,
                 "".join(random.choice("abcdefghijklmnop") for _ in range(12)),
                 random.choice("abcd"), random.randbytes(16), i % 300))
c.executemany("INSERT INTO lines(invoice_id, countdown, arrived, word, kind, uid, cycle) VALUES (?,?,?,?,?,?,?)", rows)
c.executemany("INSERT INTO auto(v) VALUES (?)", [("x%d" % i,) for i in range(50)])
c.commit()
PY
sum0=$(sha256sum "$db" | cut -d' ' -f1) ls0=$(ls -la --time-style=full-iso "$T/src" | grep -v " \.\.$")
if "$IDXLAB" --schema-from "$db:lines" --print-config >"$T/lite.out" 2>"$T/err"; then
	want own-orders/sqlite-repeats-seq-R "$T/lite.out" invoice_id 'seq:(5(\.[0-9])?|6(\.0)?)'
	want own-orders/sqlite-decreasing-desc "$T/lite.out" countdown desc
	want own-orders/sqlite-late-arrivals "$T/lite.out" arrived 'late:(1\.[89]|2(\.[0-2])?)%'
	want own-orders/sqlite-random-text-rand "$T/lite.out" word rand
	want own-orders/sqlite-few-valued-few "$T/lite.out" kind 'few:4'
	want own-orders/sqlite-rowid-seq "$T/lite.out" id seq
	want own-orders/sqlite-current-timestamp-seq "$T/lite.out" created seq
	want own-orders/sqlite-random-blob-uuid4 "$T/lite.out" uid uuid4
	# i % 300: it rises at nearly every row, but comes back to the bottom
	# 10 times, its index entered all over: few values, not a sequence
	want own-orders/sqlite-cycle-few "$T/lite.out" cycle 'few:300'
	n=$(notes_of "$T/lite.out")
	case "$n" in
	*"invoice_id: never decreases in 3000 sampled rows, ~5."*" rows per value -> seq:"*) ok own-orders/sqlite-note-evidence ;;
	*) bad own-orders/sqlite-note-evidence "$n" ;;
	esac
	case "$n" in
	*"created: default CURRENT_TIMESTAMP -> seq"*"id (id): INTEGER PRIMARY KEY (the rowid) -> seq"* | *"id (id): INTEGER PRIMARY KEY (the rowid) -> seq"*"created: default CURRENT_TIMESTAMP -> seq"*)
		ok own-orders/sqlite-note-default-and-counter ;;
	*) bad own-orders/sqlite-note-default-and-counter "$n" ;;
	esac
else bad own-orders/sqlite-derived "$(cat "$T/err")"; fi
"$IDXLAB" --schema-from "$db:auto" --print-config >"$T/auto.out" 2>&1
case "$(notes_of "$T/auto.out")" in
*"id (id): INTEGER PRIMARY KEY AUTOINCREMENT -> seq"*) ok own-orders/sqlite-autoincrement-seq ;;
*) bad own-orders/sqlite-autoincrement-seq "$(notes_of "$T/auto.out")" ;;
esac
# A renamed column is no note: the notes tell only what changes the answer.
/usr/bin/python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE R(\"Name\" TEXT, \"Total Sum\" INT)"); c.executemany("INSERT INTO R VALUES (?, ?)", [("n%d" % i, i % 7) for i in range(40)]); c.commit()' "$T/ren.db"
"$IDXLAB" --schema-from "$T/ren.db:R" --print-config >"$T/ren.out" 2>&1
if grep -q '^#   column total_sum ' "$T/ren.out" && ! grep -q 'here;\|is name here\|is total_sum here' "$T/ren.out"; then
	ok own-orders/no-rename-notes
else bad own-orders/no-rename-notes "$(grep -E '^# (how|  column)' "$T/ren.out")"; fi
if [ "$(sha256sum "$db" | cut -d' ' -f1)" = "$sum0" ] &&
	[ "$(ls -la --time-style=full-iso "$T/src" | grep -v " \.\.$")" = "$ls0" ]; then
	ok own-orders/sqlite-source-unchanged
else bad own-orders/sqlite-source-unchanged "checksum or the directory changed: $ls0 / $(ls -la --time-style=full-iso "$T/src" | grep -v " \.\.$")"; fi

# --- the derived spec, run: idxlab's own rows have the property ------------
# The spec as printed, saved as a file (the comment lines' "#   " cut).
sed -n 's/^#   //p' "$T/lite.out" >"$T/lite.spec"
if "$IDXLAB" run --schema "$T/lite.spec" --dsn "$T/copy.db" --rows 4000 --indexes 0 --format csv >/dev/null 2>"$T/err"; then
	stats "$T/copy.db" id invoice_id,countdown,arrived,word,kind,created >"$T/stats" 2>&1
	# name falls rises distinct rows
	check own-orders/copy-repeats-never-fall "$(awk '$1 == "invoice_id" { print $2 " == 0 && " $5 "/" $4 " > 4.5 && " $5 "/" $4 " < 6.5" }' "$T/stats")"
	check own-orders/copy-desc-always-falls "$(awk '$1 == "countdown" { print $3 " == 0 && " $2 " == " $5 " - 1" }' "$T/stats")"
	check own-orders/copy-late-share "$(awk '$1 == "arrived" { print $2 "/" $5 " > 0.01 && " $2 "/" $5 " < 0.03" }' "$T/stats")"
	check own-orders/copy-random-falls-half "$(awk '$1 == "word" { print $2 "/" $5 " > 0.4 && " $2 "/" $5 " < 0.6" }' "$T/stats")"
	check own-orders/copy-few-values "$(awk '$1 == "kind" { print $4 " == 4" }' "$T/stats")"
	check own-orders/copy-timestamp-grows "$(awk '$1 == "created" { print $2 " == 0 && " $4 " == " $5 }' "$T/stats")"
else bad own-orders/copy-run "$(tail -3 "$T/err")"; fi
# The same spec before this change (all the rows' order in counts): the
# invoice index came out few:N, random.
rm -f "$T/copy.db"

# --- the spec language: every new word reads back to itself; updates move
# a value as seq does; bad parameters are refused at file:line -------------
cat >"$T/words.spec" <<'EOF'
id bigint desc
column a bigint seq:5.4
column b timestamp desc:3
column c int late:2%
column d text(12) late:0.05:4
column e uuid seq:7
column f text(16) desc
column g uuid late:1%
column h bigint seq:1
index a
index f unique
EOF
"$IDXLAB" --schema "$T/words.spec" --print-config >"$T/w1.cfg" 2>&1
"$IDXLAB" -c "$T/w1.cfg" --print-config >"$T/w2.cfg" 2>&1
if grep -q '^#   column d text(12) late:5%:4$' "$T/w1.cfg" && grep -q '^#   column a bigint seq:5.4$' "$T/w1.cfg" &&
	grep -q '^#   column h bigint seq$' "$T/w1.cfg" && grep -q '^#   id bigint desc$' "$T/w1.cfg" &&
	[ "$(tail -n +2 "$T/w1.cfg")" = "$(tail -n +2 "$T/w2.cfg")" ]; then
	ok own-orders/words-read-back
else bad own-orders/words-read-back "$(diff "$T/w1.cfg" "$T/w2.cfg" | head -5; grep '^#   ' "$T/w1.cfg" | head -12)"; fi
if "$IDXLAB" run --schema "$T/words.spec" --indexes 2 --op insert,update-keys,delete --rows 2000 --format csv >"$T/ops.csv" 2>"$T/err" &&
	[ "$(columns "$T/ops.csv" rows && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rows") c = i; next } { printf "%s ", $c }' "$T/ops.csv")" = "2000 2000 2000 " ]; then
	ok own-orders/words-every-op
else bad own-orders/words-every-op "$(cat "$T/ops.csv") $(tail -3 "$T/err")"; fi
# bad: WORD EXPECTED-MESSAGE-PART
while IFS='|' read -r spec msg; do
	printf 'column x bigint rand\n%s\n' "$spec" >"$T/bad.spec"
	expect_exit "own-orders/bad-$(printf '%s' "$spec" | tr -c 'a-z0-9' '-')" 2 "bad.spec:2: $msg" \
		"$IDXLAB" --schema "$T/bad.spec" --print-config
done <<'EOF'
column y bigint seq:0.5|'seq:0.5': R, the rows per value, is a number from 1 to 1e9
column y bigint desc:abc|'desc:abc': R, the rows per value, is a number from 1 to 1e9
column y bigint late|late says its share of late rows
column y bigint late:60%|'late:60%': late's share of late rows is more than 0 and at most 50%
column y bigint late:0|'late:0': late's share of late rows is more than 0 and at most 50%
column y bigint late:2%:0|'late:2%:0': R, the rows per value, is a number from 1 to 1e9
column y uuid desc|y: desc values go in an int, bigint, timestamp or text column
EOF
printf 'id bigint seq:3\n' >"$T/bad.spec"
expect_exit own-orders/bad-id-repeats 2 "bad.spec:1: id bigint seq:3: a primary key needs a value per row .seq, desc, rand, uuid7, uuid4.$" \
	"$IDXLAB" --schema "$T/bad.spec" --print-config
printf 'id bigint late:2%%\n' >"$T/bad.spec"
expect_exit own-orders/bad-id-late 2 "bad.spec:1: id bigint late:2%: a primary key needs a value per row" \
	"$IDXLAB" --schema "$T/bad.spec" --print-config
printf 'column a bigint seq:2\nindex a unique\n' >"$T/bad.spec"
expect_exit own-orders/bad-unique-repeats 2 "bad.spec:2: index idxlab_a: unique, but its values repeat" \
	"$IDXLAB" --schema "$T/bad.spec" --print-config

# --- PostgreSQL ------------------------------------------------------------
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip own-orders/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
own_pg own-orders/pg-server || exit 0
# PostgreSQL 15 has no uuidv7(): a SQL function of the name the common
# extensions use (pg_uuidv7, pgcrypto-era snippets), time-ordered.
psql_ "SELECT setseed(0.19);
CREATE FUNCTION public.uuid_generate_v7() RETURNS uuid LANGUAGE sql VOLATILE AS \$\$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
    substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
    FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid \$\$;
CREATE TABLE public.lines (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  invoice_id int NOT NULL, countdown bigint, arrived bigint, word text, kind text,
  created timestamptz DEFAULT now(), uid uuid DEFAULT gen_random_uuid(),
  uid7 uuid DEFAULT public.uuid_generate_v7());
CREATE TABLE public.serial_t (id serial PRIMARY KEY, v int);
INSERT INTO public.lines (invoice_id, countdown, arrived, word, kind)
  SELECT 1 + i * 10 / 54, 1000000 - 7 * i,
    CASE WHEN i % 50 = 25 THEN greatest(0, i - 1 - i * 37 % 500) ELSE i END,
    md5(random()::text), (ARRAY['a','b','c','d'])[1 + floor(random() * 4)::int]
  FROM generate_series(0, 2999) i;
INSERT INTO public.serial_t (v) SELECT i FROM generate_series(1, 100) i;
ANALYZE public.lines; ANALYZE public.serial_t" >"$T/pg.log"
pgsum_sql="SELECT md5(string_agg(l::text, ',' ORDER BY id)) FROM public.lines l"
pgsum0=$(psql_ "$pgsum_sql")
if "$IDXLAB" --schema-from "$dsn:public.lines" --print-config >"$T/pg.out" 2>"$T/err"; then
	want own-orders/pg-repeats-seq-R "$T/pg.out" invoice_id 'seq:5(\.[0-9])?'
	want own-orders/pg-decreasing-desc "$T/pg.out" countdown desc
	want own-orders/pg-late-arrivals "$T/pg.out" arrived 'late:(1\.[89]|2(\.[0-2])?)%'
	want own-orders/pg-random-text-rand "$T/pg.out" word rand
	want own-orders/pg-few-valued-few "$T/pg.out" kind 'few:4'
	want own-orders/pg-identity-seq "$T/pg.out" id seq
	want own-orders/pg-now-seq "$T/pg.out" created seq
	want own-orders/pg-gen-random-uuid-uuid4 "$T/pg.out" uid uuid4
	want own-orders/pg-uuid-generate-v7-uuid7 "$T/pg.out" uid7 uuid7
	case "$(notes_of "$T/pg.out")" in
	*"id (id): GENERATED ALWAYS AS IDENTITY -> seq"*"created: default now() -> seq"*"uid: default gen_random_uuid() -> uuid4"*"uid7: default public.uuid_generate_v7() -> uuid7"* |\
	*"id (id): GENERATED ALWAYS AS IDENTITY -> seq"*"created: default now() -> seq"*"uid: default gen_random_uuid() -> uuid4"*"uid7: default uuid_generate_v7() -> uuid7"*)
		ok own-orders/pg-note-defaults ;;
	*) bad own-orders/pg-note-defaults "$(notes_of "$T/pg.out")" ;;
	esac
else bad own-orders/pg-derived "$(cat "$T/err")"; fi
"$IDXLAB" --schema-from "$dsn:public.serial_t" --print-config >"$T/ser.out" 2>&1
case "$(notes_of "$T/ser.out")" in
*"id (id): default nextval('serial_t_id_seq'::regclass) -> seq"*) ok own-orders/pg-serial-seq ;;
*) bad own-orders/pg-serial-seq "$(notes_of "$T/ser.out")" ;;
esac
[ "$(psql_ "$pgsum_sql")" = "$pgsum0" ] && ok own-orders/pg-source-unchanged ||
	bad own-orders/pg-source-unchanged "the table's rows changed"
