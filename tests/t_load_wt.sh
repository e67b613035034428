# --load on WiredTiger embedded: copy is the bulk cursor (the collection's
# records as they come, each index's entries sorted and bulk-loaded at the
# commit), and it leaves exactly the tables --load insert leaves (every
# entry of every table, read back by WiredTiger: tests/fixtures/wt_catalog.c
# -d) for the default table, a uuid4 id (the _id index's entries out of
# order), the users spec (text, timestamp, composite indexes) and a unique
# index (events); with --index-build after too. Its direction: no log
# records (wal B/row) and fewer seconds. What it refuses, and why: a
# prefill (a bulk cursor loads only a new, empty table), a commit size (the
# step is one bulk load), multirow (WiredTiger has no statements).
. "$(dirname "$0")/lib.sh"
wt_test=load-wt
. "$(dirname "$0")/wt_lib.sh"

# same NAME ARGS...: --load insert and --load copy of ARGS leave the same
# tables (every entry, and the catalog's summary: rows, no dangling id).
same() {
	name=$1
	shift
	if [ -z "$cat" ]; then
		skip "$name" "cannot build tests/fixtures/wt_catalog.c (cc and libwiredtiger-dev needed)"
		return
	fi
	for l in insert copy; do
		rm -rf "$T/db_$l"
		if ! wt --dsn "$T/db_$l" --load $l --commit all --format csv "$@" \
			>"$T/$l.csv" 2>"$T/$l.err"; then
			bad "$name" "--load $l failed: $(head -c 300 "$T/$l.err")"
			return
		fi
		"$cat" -d "$T/db_$l" >"$T/dump_$l"
		"$cat" "$T/db_$l" >"$T/cat_$l"
	done
	tables=$(grep -c '^[a-z]' "$T/cat_copy")
	entries=$(wc -l <"$T/dump_copy")
	if ! cmp -s "$T/dump_insert" "$T/dump_copy"; then
		bad "$name" "the tables differ (insert vs copy):
$(diff "$T/cat_insert" "$T/cat_copy")
$(diff "$T/dump_insert" "$T/dump_copy" | head -5)"
	elif grep -qv 'dangling=0$' "$T/cat_copy" || [ "$entries" -le "$tables" ]; then
		bad "$name" "the tables are not whole: $(cat "$T/cat_copy")"
	else
		ok "$name"
	fi
}

# --- copy leaves what insert leaves ------------------------------------
same load-wt/copy-default --rows 3000 --indexes 8
same load-wt/copy-uuid4-id --rows 2000 --indexes 2 --pk uuid4 --key-order uuid4
same load-wt/copy-users --schema users --rows 3000 --indexes 6
same load-wt/copy-events-unique --schema events --pk uuid7 --rows 2000 --indexes 1
same load-wt/copy-index-build-after --schema users --rows 2000 --indexes 6 --index-build after

# --- the catalog: the spec's tables, all of them bulk-loaded ------------
if [ -n "$cat" ]; then
	rm -rf "$T/db_u"
	wt --dsn "$T/db_u" --schema users --load copy --commit all --rows 1500 --indexes 6 \
		--format csv >/dev/null 2>"$T/u.err"
	"$cat" "$T/db_u" >"$T/cat_u"
	want="collection-idxlab 1500
index-idxlab-_id 1500
index-idxlab-country 1500
index-idxlab-country_created_at 1500
index-idxlab-created_at 1500
index-idxlab-email 1500
index-idxlab-status 1500
index-idxlab-status_created_at 1500"
	have=$(awk '{ split($4, r, "="); print $1, r[2] }' "$T/cat_u" | sort)
	# status a word of 4; country a code of zipf:1:50's (1500 rows see
	# most), each pair with its created_at distinct
	if [ "$have" = "$want" ] && grep -q 'index-idxlab-status key=uq value=u .*distinct=4 ' "$T/cat_u" &&
		grep -Eq 'index-idxlab-country_created_at key=uqq value=u .*distinct=(4[0-9]|50) ' "$T/cat_u"; then
		ok load-wt/copy-users-catalog
	else
		bad load-wt/copy-users-catalog "want
$want
have:
$(cat "$T/cat_u")"
	fi
	expect_exit load-wt/copy-said 0 'load copy: the step.s rows go through bulk cursors' \
		wt --load copy --commit all --rows 100 --format csv
else
	skip load-wt/copy-users-catalog "cannot build tests/fixtures/wt_catalog.c"
fi

# --- the direction: no log records, less time ---------------------------
# Each load twice, best of the two (the machine is shared): 20,000 rows
# into 8 random indexes.
wt --load insert,copy,insert,copy --commit all --rows 20000 --indexes 8 --key-order rand \
	--format csv >"$T/dir.csv" 2>"$T/dir.err"
columns "$T/dir.csv" wal_bytes_per_row seconds
wal_i=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	NR == 2 { print $h["wal_bytes_per_row"] }' "$T/dir.csv")
wal_c=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	NR == 3 { print $h["wal_bytes_per_row"] }' "$T/dir.csv")
best() { # best ROW ROW: the lower seconds of two data rows
	awk -F, -v a="$1" -v b="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		NR - 1 == a || NR - 1 == b { s = $h["seconds"]; if (m == "" || s < m) m = s }
		END { print m }' "$T/dir.csv"
}
s_i=$(best 1 3)
s_c=$(best 2 4)
if [ -n "$wal_i" ] && [ -n "$wal_c" ]; then
	check load-wt/copy-no-log "$wal_c < $wal_i / 10 && $wal_i > 100"
else
	bad load-wt/copy-no-log "no wal_bytes_per_row: $(head -c 300 "$T/dir.err")"
fi
if [ -n "$s_i" ] && [ -n "$s_c" ]; then
	check load-wt/copy-faster "$s_c < $s_i"
else
	bad load-wt/copy-faster "no seconds: $(head -c 300 "$T/dir.err")"
fi

# --- what it refuses ----------------------------------------------------
expect_exit load-wt/copy-prefill-refused 2 'only a new, empty table.*--prefill 0' \
	wt --load copy --commit all --prefill 100 --rows 100 --format csv
expect_exit load-wt/copy-commit-refused 2 'one bulk load.*--commit all' \
	wt --load copy --commit 1000 --rows 100 --format csv
expect_exit load-wt/multirow-refused 2 'no statements.*--load copy' \
	wt --load multirow --rows 100 --format csv
