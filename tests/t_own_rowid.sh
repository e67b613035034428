# A table kept in its key (issue 19: "the user's table, faithfully"). A
# WITHOUT ROWID SQLite source made here (a composite text key, a secondary
# index): --schema-from writes `without rowid`, and idxlab's copy on SQLite
# is WITHOUT ROWID on the source's key, as many btrees as the source (not
# one more), its rows found by the key; --add-index candidates still run;
# index-build after keeps the rows in the key at the end; op update keeps a
# rowid table and the key an index, and says so; the source is unchanged.
# The spec word loads, writes back, and refuses a key it cannot keep rows in
# with file:line. Then the dashboard on such a table: indexes to 0 and back
# copies the rows out of the key and into it again; op insert -> update (the
# key binding and the rebuild's y) rebuilds it with the id's key, says so in
# the event log, and rows keep flowing.
. "$(dirname "$0")/lib.sh"

spec_of() { sed -n 's/^#   //p' "$1"; }
for c in sqlite3 md5sum; do
	if ! command -v $c >/dev/null; then
		skip own-rowid/all "$c is not installed (apt-get install sqlite3 coreutils)"
		exit 0
	fi
done
# btrees DB TABLE: the btrees of TABLE and its indexes (sqlite_schema rows
# with a root page: a WITHOUT ROWID table's key is the table's own).
btrees() { sqlite3 "$1" "SELECT count(*) FROM sqlite_schema WHERE tbl_name = '$2' AND rootpage > 0" 2>&1; }
ddl() { sqlite3 "$1" "SELECT sql FROM sqlite_schema WHERE name = 'idxlab_t'" 2>&1; }
# by_key DB: the copy's rows each found once by its key (region, code),
# "N N" (found, all).
by_key() {
	sqlite3 "$1" "SELECT (SELECT count(*) FROM idxlab_t a WHERE (SELECT count(*) FROM idxlab_t b
		WHERE b.region = a.region AND b.code = a.code) = 1), (SELECT count(*) FROM idxlab_t)" 2>&1 | tr '|' ' '
}

src=$T/src.db
/usr/bin/python3 - "$src" <<'PY'
import random, sqlite3, sys
random.seed(19)
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE item(region TEXT NOT NULL, code TEXT NOT NULL, qty INTEGER, note TEXT, "
          "PRIMARY KEY (region, code)) WITHOUT ROWID")
c.execute("CREATE INDEX item_qty ON item(qty)")
c.executemany("INSERT INTO item VALUES (?, ?, ?, ?)",
              [(random.choice(["eu", "us", "as", "af"]), "%016x" % random.getrandbits(64),
                random.randrange(1000), "n%05d" % i) for i in range(3000)])
c.commit()
PY
sum0=$(md5sum <"$src")
src_btrees=$(btrees "$src" item)
holds own-rowid/fixture "source btrees '$src_btrees'" [ "$src_btrees" = 2 ]

# --- the derived spec ---------------------------------------------------------
"$IDXLAB" --schema-from "$src:item" --print-config >"$T/d.pc" 2>&1
spec_of "$T/d.pc" >"$T/d.spec"
holds own-rowid/derives-without-rowid "$(grep '^#' "$T/d.pc")" sh -c '
	grep -qx "id bigint seq unindexed" "$1" && grep -qx "without rowid" "$1" &&
	sed -n "/^index/{p;q}" "$1" | grep -q "^index region,code unique"' - "$T/d.spec"
holds own-rowid/note-says-what-each-engine-builds "$(grep '^# ' "$T/d.pc" | grep -v '^#   ')" \
	grep -q "without rowid: on SQLite the copy is kept in its key idxlab_[a-z0-9_]* too (op insert" "$T/d.pc"
key=$(sed -n '/^index region,code/{s/.* name //p;q}' "$T/d.spec")
[ -n "$key" ] || key=$(sed -n 's/.*is kept in its key \(idxlab_[a-z0-9_]*\) too.*/\1/p' "$T/d.pc")
"$IDXLAB" --schema "$T/d.spec" --print-config >"$T/d2.pc" 2>&1
holds own-rowid/spec-written-loads-same "$(grep -v ' = ' "$T/d2.pc" | head -20)" sh -c '
	[ "$(sed -n "s/^#   //p" "$1" | grep -v "^table")" = "$(grep -v "^table" "$2")" ]' - "$T/d2.pc" "$T/d.spec"

# --- the copy on SQLite: kept in the key, as many btrees as the source --------
"$IDXLAB" run --schema-from "$src:item" --indexes table --rows 2000 --dsn "$T/copy.db" \
	--format csv >"$T/copy.csv" 2>"$T/copy.err"
rc=$?
d=$(ddl "$T/copy.db")
holds own-rowid/copy-runs "exit $rc: $(tail -3 "$T/copy.err")" [ $rc = 0 ]
holds own-rowid/copy-without-rowid-on-the-key "ddl: $d" sh -c '
	echo "$1" | grep -q "PRIMARY KEY(\"region\",\"code\")) WITHOUT ROWID$" &&
	echo "$1" | grep -q "^CREATE TABLE idxlab_t(id INTEGER, "' - "$d"
got=$(btrees "$T/copy.db" idxlab_t)
holds own-rowid/copy-btrees-as-source "copy $got btrees, source $src_btrees ($(sqlite3 "$T/copy.db" "SELECT name FROM sqlite_schema WHERE rootpage > 0" | tr '\n' ' '))" \
	[ "$got" = "$src_btrees" ]
found=$(by_key "$T/copy.db")
plan=$(sqlite3 "$T/copy.db" "EXPLAIN QUERY PLAN SELECT qty FROM idxlab_t WHERE region = 'eu' AND code = 'x'" 2>&1)
holds own-rowid/rows-found-by-key "found/all: '$found'; plan: $plan" sh -c '
	set -- $1 "$2"
	[ "$1" = "$2" ] && [ "$1" -ge 2000 ] && echo "$3" | grep -q "USING PRIMARY KEY (region=? AND code=?)"' - "$found" "$plan"

# --- a candidate index still runs: the table and the candidate ---------------
"$IDXLAB" run --schema-from "$src:item" --add-index note --indexes table,all --rows 1000 --prefill 0 \
	--dsn "$T/cand.db" --format csv >"$T/cand.csv" 2>"$T/cand.err"
rc=$?
d=$(ddl "$T/cand.db")
got=$(btrees "$T/cand.db" idxlab_t)
holds own-rowid/candidate-runs "exit $rc, $(($(wc -l <"$T/cand.csv") - 1)) steps, $got btrees, ddl $d: $(tail -3 "$T/cand.err")" sh -c '
	[ "$1" = 0 ] && [ "$(($(wc -l <"$2") - 1))" = 2 ] && [ "$3" = 3 ] &&
	echo "$4" | grep -q "WITHOUT ROWID$"' - $rc "$T/cand.csv" "$got" "$d"
# --drop-index of the key: a rowid table, and the note says so.
"$IDXLAB" --schema-from "$src:item" --drop-index "$key" --indexes without --print-config >"$T/drop.pc" 2>&1
holds own-rowid/drop-key-rowid-table "$(grep '^#' "$T/drop.pc" | tail -5)" sh -c '
	! grep -q "^#   without rowid" "$1" && grep -q -- "--drop-index $2: the key the table is kept in" "$1"' \
	- "$T/drop.pc" "$key"

# --- index-build after: the key built last is the table again ----------------
"$IDXLAB" run --schema-from "$src:item" --indexes table --index-build after --rows 1000 --prefill 0 \
	--dsn "$T/after.db" --format csv >"$T/after.csv" 2>"$T/after.err"
rc=$?
d=$(ddl "$T/after.db")
found=$(by_key "$T/after.db")
holds own-rowid/build-after-kept-in-key "exit $rc, ddl $d, found/all $found: $(tail -3 "$T/after.err")" sh -c '
	set -- "$1" "$2" $3
	[ "$1" = 0 ] && echo "$2" | grep -q "WITHOUT ROWID$" && [ "$3" = 1000 ] && [ "$4" = 1000 ]' \
	- $rc "$d" "$found"

# --- op update finds rows by id: a rowid table, the key an index, said -------
"$IDXLAB" run --schema-from "$src:item" --indexes table --op update --prefill 1000 --rows 500 \
	--dsn "$T/upd.db" --format csv >"$T/upd.csv" 2>"$T/upd.err"
rc=$?
d=$(ddl "$T/upd.db")
got=$(btrees "$T/upd.db" idxlab_t)
holds own-rowid/update-rowid-table "exit $rc, $got btrees, ddl $d: $(tail -3 "$T/upd.err")" sh -c '
	[ "$1" = 0 ] && [ "$2" = 3 ] && echo "$3" | grep -q "^CREATE TABLE idxlab_t(id INTEGER PRIMARY KEY," &&
	! echo "$3" | grep -q "WITHOUT ROWID"' - $rc "$got" "$d"
holds own-rowid/update-says-why "$(head -c 600 "$T/upd.err")" \
	grep -q "op update finds rows by idxlab's id: the rows are kept by id, the key $key an index, one btree more than the source's" "$T/upd.err"

# --- the other engines build an ordinary table, and say so -------------------
if "$IDXLAB" --help 2>&1 | grep -q wiredtiger; then
	"$IDXLAB" run --engine wiredtiger --schema "$T/d.spec" --indexes table --rows 500 --prefill 0 \
		--format csv >"$T/wt.csv" 2>"$T/wt.err"
	rc=$?
	holds own-rowid/wt-says-ordinary-table "exit $rc: $(head -c 600 "$T/wt.err")" sh -c '
		[ "$1" = 0 ] && grep -q "wiredtiger keeps no table in a key.s order: the copy is an ordinary table and its key $2 an index" "$3"' \
		- $rc "$key" "$T/wt.err"
else
	skip own-rowid/wt-says-ordinary-table "WiredTiger is not built in"
fi

# --- the spec word: refused with file:line where no key can hold the rows -----
i=0
while IFS='|' read -r text line pat; do
	i=$((i + 1))
	printf "$text" >"$T/bad$i.spec"
	expect_exit own-rowid/spec-refuses-$i 2 "bad$i.spec:$line: $pat" "$IDXLAB" --schema "$T/bad$i.spec" --print-config
done <<'EOF'
id bigint seq unindexed\nwithout rowid\ncolumn a bigint seq\n|2|without rowid: no index to keep the rows in
id bigint seq\ncolumn a bigint seq\nindex a unique\nwithout rowid\n|4|without rowid: the rows are kept in the first index.s key, .*write unindexed last on the id line
id bigint seq unindexed\ncolumn a bigint seq\nwithout rowid\nindex a\n|3|without rowid: the first index \(idxlab_a\) is the table.s primary key: say unique
id bigint seq unindexed\ncolumn a bigint seq\nwithout row id\n|3|'without row id': write without rowid
EOF
holds own-rowid/source-unchanged "md5 before $sum0, after $(md5sum <"$src")" [ "$(md5sum <"$src")" = "$sum0" ]

# --- the dashboard: op insert -> update rebuilds with the id's key -----------
if ! command -v tmux >/dev/null; then
	skip own-rowid/dash "tmux is not installed (apt-get install tmux)"
	exit 0
fi
# live_ddl: idxlab_t's DDL in the running dashboard's database, read as an
# immutable file (no lock: a reader's lock would fail idxlab's COMMIT with
# "database is locked"); a torn read fails, and the poll reads again.
live_ddl() { ddl "file:$(ls "$TMPDIR"/idxlab-sqlite.*/idxlab.db 2>/dev/null | head -1)?immutable=1"; }
ddl_has() { live_ddl | grep -q "$1"; }
start rid TMPDIR="$TMPDIR" "$IDXLAB" --schema-from src.db:item --indexes table --rows 20000
if wait_for rid '││rows/s +[0-9.]*[1-9]' 10 && poll 60 ddl_has 'WITHOUT ROWID$'; then
	ok own-rowid/dash-insert-kept-in-key
else bad own-rowid/dash-insert-kept-in-key "ddl '$(live_ddl)': $(cap rid)"; fi
# select_knob SESSION KNOB: Down until KNOB is the selected knob.
select_knob() {
	i=0
	while [ $i -lt 30 ] && [ "$(selected "$1" | sed 's/^.*>//')" != "$2" ]; do
		sel=$(selected "$1")
		tm send-keys -t "$1" Down
		poll 10 moved "$1" "$sel" # (one Down at a time: a slow screen must not be overrun)
		i=$((i + 1))
	done
}
# indexes 2 -> 0 drops the key: the rows are copied out into a rowid table;
# back to 1 copies them into the key again, each said in the event log.
ddl_lacks() { d=$(live_ddl) && [ -n "$d" ] && ! echo "$d" | grep -q "$1"; }
select_knob rid indexes
tm send-keys -t rid Left
wait_for rid '>indexes +1 ' 5
tm send-keys -t rid Left
if wait_for rid '>indexes +0 ' 5 && wait_for rid "dropped $key: the table is a rowid table again" 10 &&
	poll 60 ddl_lacks 'WITHOUT ROWID'; then
	ok own-rowid/dash-drop-key-rowid-table
else bad own-rowid/dash-drop-key-rowid-table "ddl '$(live_ddl)': $(cap rid)"; fi
tm send-keys -t rid Right
if wait_for rid '>indexes +1 ' 5 && wait_for rid "built $key: the table is kept in it" 10 &&
	poll 60 ddl_has 'WITHOUT ROWID$'; then
	ok own-rowid/dash-build-key-kept-in-it
else bad own-rowid/dash-build-key-kept-in-it "ddl '$(live_ddl)': $(cap rid)"; fi
select_knob rid op
tm send-keys -t rid Right
if wait_for rid 'Rebuild the table for .*\(y/n\)' 5; then
	tm send-keys -t rid y
	if wait_for rid 'op update finds rows by idxlab.s id' 20 && poll 60 ddl_has 'id INTEGER PRIMARY KEY'; then
		ok own-rowid/dash-update-rebuilds-and-says-so
	else bad own-rowid/dash-update-rebuilds-and-says-so "ddl '$(live_ddl)': $(cap rid)"; fi
	rows_flow own-rowid/dash-rows-flow-after rid
else
	bad own-rowid/dash-update-rebuilds-and-says-so "no rebuild to confirm (selected '$(selected rid)'): $(cap rid)"
fi
tm send-keys -t rid q
code=$(wait_exit rid)
[ "$code" = EXIT=0 ] && ok own-rowid/dash-quits || bad own-rowid/dash-quits "got '$code'"
no_leftovers own-rowid/temp-dir-removed
