# WiredTiger embedded builds every table spec (--schema) the way mongod lays
# out a collection: each built-in spec runs every op, and the tables
# WiredTiger holds are the spec's (read from WiredTiger's own metadata and a
# walk of each table: key formats per column type, composite keys in the
# spec's column order then the record id, a unique index keyed by its column
# alone, one entry per record, no dangling record id); a few/zipf column's
# distinct count; spec files of our own (zipf, a uuid id, a text(36) uuid7
# column, a unique text column, two index names that make one table name);
# the users index-count sweep; the dashboard builds and drops the spec's
# indexes by list position; and finding 3 on the fields table (id, counter,
# field1..field5): insert pays per index, the counter update does not, a
# field1 update pays for one index whatever the count, field1..5 for five.
. "$(dirname "$0")/lib.sh"
wt_test=schema-wt
. "$(dirname "$0")/wt_lib.sh"

# catalog DIR: WiredTiger's own view of the tables in DIR (into $T/cat).
catalog() {
	if [ -z "$cat" ]; then
		: >"$T/cat"
		return 1
	fi
	"$cat" "$1" >"$T/cat" 2>&1
}
# tbl TABLE WORD: WORD's value (key, value, rows, distinct, first, second) of TABLE
tbl() {
	awk -v t="$1" -v w="$2" '$1 == t { for (i = 2; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] == w) print substr($i, length(w) + 2) } }' "$T/cat"
}
# tables NAME EXPECTED_ROWS 'TABLE KEY VALUE' ...: exactly these index tables
# (besides the collection), each with these formats, EXPECTED_ROWS entries
# and no dangling record id.
# steps_of CSV ROWS: how many steps of CSV did ROWS rows
steps_of() {
	columns "$1" rows &&
		awk -F, -v r="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["rows"] == r { n++ } END { print n + 0 }' "$1"
}
tables() {
	name=$1 rows=$2
	shift 2
	if [ -z "$cat" ]; then
		skip "$name" "cannot build tests/fixtures/wt_catalog.c (cc and libwiredtiger-dev needed)"
		return
	fi
	want="collection-idxlab q u"
	for t in "$@"; do want="$want
$t"; done
	have=$(awk '{ split($2, k, "="); split($3, v, "="); print $1, k[2], v[2] }' "$T/cat" | sort)
	want=$(echo "$want" | sort)
	wrong=$(awk -v r="$rows" '{ split($4, n, "="); split($NF, d, "=");
		if (n[2] != r || d[2] != 0) print $1 ": " $4 " " $NF }' "$T/cat")
	if [ "$have" = "$want" ] && [ -z "$wrong" ]; then
		ok "$name"
	else
		bad "$name" "want (rows=$rows, dangling=0):
$want
have:
$(cat "$T/cat")"
	fi
}

# --- every built-in spec, every op ----------------------------------------
# One run per spec: a sweep over the ops (each step a fresh table); the
# directory keeps the last step's (delete: prefill - rows records).
ops=insert,update,update-indexed,update-keys,delete
for spec in default users textkey wal fields wide16 events; do
	rm -rf "$T/db"
	case $spec in default) nix=8 ;; users) nix=6 ;; textkey | events) nix=1 ;; wal) nix=8 ;;
	fields) nix=5 ;; wide16) nix=4 ;; esac
	if wt --dsn "$T/db" --schema $spec --indexes $nix --op $ops --prefill 3000 --rows 2000 \
		--commit 500 --format csv >"$T/$spec.csv" 2>"$T/$spec.err" &&
		[ "$(steps_of "$T/$spec.csv" 2000)" = 5 ]; then
		ok "schema-wt/$spec-every-op"
	else bad "schema-wt/$spec-every-op" "$(cat "$T/$spec.csv" "$T/$spec.err" | tail -5)"; fi
	catalog "$T/db"
	cp "$T/cat" "$T/$spec.cat" 2>/dev/null
done

cp "$T/default.cat" "$T/cat"
tables schema-wt/default-tables-as-before 1000 "index-idxlab-_id q q" \
	"index-idxlab-k1 qq u" "index-idxlab-k2 qq u" "index-idxlab-k3 qq u" "index-idxlab-k4 qq u" \
	"index-idxlab-k5 qq u" "index-idxlab-k6 qq u" "index-idxlab-k7 qq u" "index-idxlab-k8 qq u"
cp "$T/users.cat" "$T/cat"
# email text(26), created_at timestamptz, country text(2), status text(6)
tables schema-wt/users-tables 1000 "index-idxlab-_id q q" "index-idxlab-email uq u" \
	"index-idxlab-created_at qq u" "index-idxlab-country uq u" "index-idxlab-status uq u" \
	"index-idxlab-country_created_at uqq u" "index-idxlab-status_created_at uqq u"
cp "$T/textkey.cat" "$T/cat"
tables schema-wt/textkey-tables 1000 "index-idxlab-_id q q" "index-idxlab-k uq u"
check schema-wt/textkey-16-bytes "$(tbl index-idxlab-k first | wc -c) == 17"
cp "$T/wal.cat" "$T/cat"
tables schema-wt/wal-tables 1000 "index-idxlab-_id q q" "index-idxlab-k1 iq u" "index-idxlab-k2 iq u" \
	"index-idxlab-k3 iq u" "index-idxlab-k4 iq u" "index-idxlab-k5 iq u" "index-idxlab-k6 iq u" \
	"index-idxlab-k7 iq u" "index-idxlab-k8 iq u"
cp "$T/fields.cat" "$T/cat"
tables schema-wt/fields-tables 1000 "index-idxlab-_id q q" "index-idxlab-field1 qq u" \
	"index-idxlab-field2 qq u" "index-idxlab-field3 qq u" "index-idxlab-field4 qq u" \
	"index-idxlab-field5 qq u"
cp "$T/wide16.cat" "$T/cat"
tables schema-wt/wide16-tables 1000 "index-idxlab-_id q q" "index-idxlab-c1 iq u" \
	"index-idxlab-c2 iq u" "index-idxlab-c3 iq u" "index-idxlab-c4 iq u"
# events: a unique uuid index keyed by the uuid alone, the record id its value
cp "$T/events.cat" "$T/cat"
tables schema-wt/events-unique-tables 1000 "index-idxlab-_id q q" "index-idxlab-uid u q"

# --- users: composite order, few values, update-keys keeps the indexes sound --
rm -rf "$T/db"
wt --dsn "$T/db" --schema users --indexes 6 --op update-keys --prefill 3000 --rows 3000 \
	--commit 500 --format csv >"$T/uk.csv" 2>"$T/uk.err" || bad schema-wt/users-update-keys-run "$(cat "$T/uk.err")"
catalog "$T/db"
tables schema-wt/users-update-keys-tables-sound 3000 "index-idxlab-_id q q" "index-idxlab-email uq u" \
	"index-idxlab-created_at qq u" "index-idxlab-country uq u" "index-idxlab-status uq u" \
	"index-idxlab-country_created_at uqq u" "index-idxlab-status_created_at uqq u"
cc_first=$(tbl index-idxlab-country_created_at first)
cc_second=$(tbl index-idxlab-country_created_at second)
sc_first=$(tbl index-idxlab-status_created_at first)
echo "  (country, created_at) first entry: $cc_first, $cc_second; (status, created_at): $sc_first, $(tbl index-idxlab-status_created_at second)"
# country two letters first, then created_at (microseconds since 1970: 2026
# is ~1.77e15); status a 6-letter word first
if echo "$cc_first" | grep -Eq '^[a-z][a-z]$' && [ "${#cc_second}" -ge 16 ] &&
	echo "$sc_first" | grep -Eq '^[a-z0-9]{6}$'; then
	ok schema-wt/composite-column-order
else bad schema-wt/composite-column-order "$(cat "$T/cat")"; fi
# zipf:1:50: 3000 rows see most of the 50 codes, the (country, created_at)
# pairs as many
check schema-wt/country-skewed-distinct "$(tbl index-idxlab-country distinct) >= 40 && $(tbl index-idxlab-country distinct) <= 50 && $(tbl index-idxlab-country_created_at distinct) == $(tbl index-idxlab-country distinct)"
check schema-wt/status-4-distinct "$(tbl index-idxlab-status distinct) == 4"
check schema-wt/email-distinct "$(tbl index-idxlab-email distinct) == 3000"

# --- spec files of our own --------------------------------------------------
cat >"$T/mine.spec" <<'EOF'
# a uuid id, a zipf and a uniform column, a uuid7 text(36), a unique text column,
# a composite of three types, and a name another index's table has
id uuid uuid4
column hotkey bigint zipf:1.2:100000
column flat bigint few:100000
column tid text(36) uuid7
column code text(20) rand
column n int few:7
index hotkey
index tid
index code unique
index n,tid,hotkey
index n name idxlab__id
index flat
EOF
rm -rf "$T/db"
if wt --dsn "$T/db" --schema "$T/mine.spec" --indexes 6 --op $ops --prefill 4000 --rows 2000 \
	--commit 500 --format csv >"$T/mine.csv" 2>"$T/mine.err" &&
	[ "$(steps_of "$T/mine.csv" 2000)" = 5 ]; then
	ok schema-wt/spec-file-every-op
else bad schema-wt/spec-file-every-op "$(cat "$T/mine.csv" "$T/mine.err" | tail -5)"; fi
rm -rf "$T/db"
wt --dsn "$T/db" --schema "$T/mine.spec" --indexes 6 --rows 4000 --commit 500 --format csv \
	>/dev/null 2>"$T/mine.err" || bad schema-wt/spec-file-run "$(cat "$T/mine.err")"
catalog "$T/db"
# the index named idxlab__id (the id index's table name) makes table index-idxlab-_id-5
tables schema-wt/spec-file-tables 4000 "index-idxlab-_id u q" "index-idxlab-hotkey qq u" \
	"index-idxlab-tid uq u" "index-idxlab-code u q" "index-idxlab-n_tid_hotkey iuqq u" \
	"index-idxlab-_id-5 iq u" "index-idxlab-flat qq u"
# 4000 draws of 100000 values: uniform ones nearly all differ, zipf's repeat
z=$(tbl index-idxlab-hotkey distinct) f=$(tbl index-idxlab-flat distinct)
echo "  distinct of 4000 rows: zipf:1.2:100000 $z, few:100000 $f; uuid7 text: $(tbl index-idxlab-tid first)"
check schema-wt/zipf-skewed "${z:-0} >= 100 && ${z:-0} < ${f:-0} / 2 && ${f:-0} > 3600"
check schema-wt/few-7-distinct "$(tbl index-idxlab-n_tid_hotkey distinct) == 7"
if tbl index-idxlab-tid first | grep -Eq '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$'; then
	ok schema-wt/uuid7-text-column
else bad schema-wt/uuid7-text-column "$(cat "$T/cat")"; fi
check schema-wt/unique-text-distinct "$(tbl index-idxlab-code distinct) == 4000"
check schema-wt/uuid-id-16-bytes "$(tbl index-idxlab-_id first | wc -c) == 33"

# --- users: the article's index-count sweep ---------------------------------
wt --schema users --indexes 0,1,3,6 --rows 20000 --commit 1000 --cache 64MiB --format csv \
	>"$T/sw.csv" 2>"$T/sw.err" || bad schema-wt/users-sweep-run "$(cat "$T/sw.err")"
w0=$(field "$T/sw.csv" wal_bytes_per_row 1) w1=$(field "$T/sw.csv" wal_bytes_per_row 2)
w3=$(field "$T/sw.csv" wal_bytes_per_row 3) w6=$(field "$T/sw.csv" wal_bytes_per_row 4)
b1=$(field "$T/sw.csv" index_bytes 2) b6=$(field "$T/sw.csv" index_bytes 4)
echo "  users log B/row at 0/1/3/6 indexes: $w0 $w1 $w3 $w6; index bytes at 1/6: $b1 $b6"
check schema-wt/users-sweep-4-steps "$(($(wc -l <"$T/sw.csv") - 1)) == 4"
check schema-wt/users-log-grows-per-index "$w1 > $w0 && $w3 > $w1 && $w6 > $w3"
check schema-wt/users-index-bytes-grow "$b6 > $b1 && $b1 > 0"

# --- finding 3 on the fields table ------------------------------------------
wt --schema fields --op insert,update,update-indexed,update-keys --indexes 0,1,5 --rows 10000 \
	--commit 1000 --sync off --cache 64MiB --format csv >"$T/f.csv" 2>"$T/f.err" ||
	{ bad schema-wt/fields-run "$(cat "$T/f.err")"; exit 1; }
# w OP N: log bytes per row of op OP at N indexes
w() {
	columns "$T/f.csv" op indexes wal_bytes_per_row &&
		awk -F, -v op="$1" -v n="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$h["op"] == op && $h["indexes"] == n { print $h["wal_bytes_per_row"] }' "$T/f.csv"
}
i0=$(w insert 0) i5=$(w insert 5)
u0=$(w update 0) u1=$(w update 1) u5=$(w update 5)
k1=$(w update-indexed 1) k5=$(w update-indexed 5)
a0=$(w update-keys 0) a5=$(w update-keys 5)
echo "  fields log B/row: insert 0/5 $i0 $i5; counter 0/1/5 $u0 $u1 $u5; field1 1/5 $k1 $k5; field1..5 0/5 $a0 $a5"
check schema-wt/fields-insert-pays-5-indexes "$i5 >= 1.2 * $i0 && $i5 - $i0 >= 5 * 8"
check schema-wt/fields-counter-free-of-indexes "$u1 <= 1.05 * $u0 && $u1 >= 0.95 * $u0 && $u5 <= 1.05 * $u0 && $u5 >= 0.95 * $u0"
check schema-wt/fields-field1-one-index "$k5 <= 1.05 * $k1 && $k5 >= 0.95 * $k1 && $k1 > $u1"
check schema-wt/fields-field1to5-far-more "$a5 >= 2 * $a0"

# --- the dashboard: the slider builds and drops the spec's indexes in order --
if ! command -v tmux >/dev/null; then
	skip schema-wt/dash "tmux is not installed (apt-get install tmux)"
else
	start wtsdash TMPDIR="$TMPDIR" "$IDXLAB" --engine wiredtiger --schema users --cache 64MiB --rows 400000
	# rows flowing (a key before the first setup would be part of it); then
	# down to the indexes slider, wherever it is
	wait_for wtsdash '││rows/s +[0-9]' 8 && wait_for wtsdash 'wiredtiger: cache 64' 3
	i=0
	while [ $i -lt 20 ] && ! cap wtsdash | grep -q '│>indexes'; do
		sel=$(selected wtsdash)
		tm send-keys -t wtsdash Down
		poll 10 moved wtsdash "$sel" # (one Down at a time: a slow screen must not be overrun)
		i=$((i + 1))
	done
	tm send-keys -t wtsdash Right
	if wait_for wtsdash 'built table:index-idxlab-email' 20; then
		ok schema-wt/dash-builds-first-index
	else bad schema-wt/dash-builds-first-index "$(cap wtsdash)"; fi
	tm send-keys -t wtsdash Right
	if wait_for wtsdash 'built table:index-idxlab-created_at' 20; then
		ok schema-wt/dash-builds-second-index
	else bad schema-wt/dash-builds-second-index "$(cap wtsdash)"; fi
	tm send-keys -t wtsdash Left
	if wait_for wtsdash 'dropped index-idxlab-created_at' 10; then
		ok schema-wt/dash-drops-last-index
	else bad schema-wt/dash-drops-last-index "$(cap wtsdash)"; fi
	tm send-keys -t wtsdash q
	code=$(wait_exit wtsdash)
	[ "$code" = EXIT=0 ] && ok schema-wt/dash-q-exits-0 || bad schema-wt/dash-q-exits-0 "got '$code'"
fi
no_leftovers schema-wt/temp-dir-removed
