# Labels that say what a figure is (issue 21, items 3, 4 and 5): SQLite's
# rollback-journal bytes are called journal, HOT % is n/a where nothing is
# updated, build s stays a column when the first step has none, the index
# build's syncs are not the load's commits', the step's own record after
# its --interval-rows batches is marked, sizes are 1024-based as
# PostgreSQL writes them and printed KiB/MiB, and a fold of events names
# every value (a real cache sweep on the throwaway PostgreSQL).
. "$(dirname "$0")/lib.sh"

run() { "$IDXLAB" run "$@" 2>>"$T/err"; }

# ---- SQLite: the rollback journal is a journal ----
run --rows 2000 --journal delete,wal --format csv >"$T/j.csv"
jd=$(field "$T/j.csv" journal_bytes_per_row 1) wd=$(field "$T/j.csv" wal_bytes_per_row 1)
jw=$(field "$T/j.csv" journal_bytes_per_row 2) ww=$(field "$T/j.csv" wal_bytes_per_row 2)
is_num "$jd" "$ww" && [ "$jd" = "$wd" ] && [ -z "$jw" ] && ok labels/journal-field ||
	bad labels/journal-field "journal delete: journal_bytes_per_row '$jd' (wal_bytes_per_row '$wd'); wal: '$jw' (want empty: n/a)"
run --rows 2000 --journal delete >"$T/jd.txt"
run --rows 2000 --journal wal >"$T/jw.txt"
run --rows 2000 --journal delete,wal >"$T/jm.txt"
grep -q 'journal B/row' "$T/jd.txt" && ! grep -q 'wal B/row' "$T/jd.txt" &&
	grep -q 'wal B/row' "$T/jw.txt" && ! grep -q 'journal B/row' "$T/jw.txt" &&
	grep -q 'wal|jrnl B/row' "$T/jm.txt" && ok labels/journal-header ||
	bad labels/journal-header "delete: $(grep -m1 B/row "$T/jd.txt"); wal: $(grep -m1 B/row "$T/jw.txt"); both: $(grep -m1 B/row "$T/jm.txt")"

# ---- the preset's build s, n/a in its first step (before) ----
run -c "$(dirname "$0")/../configs/sqlite-users-index-build.conf" --scale 0.005 >"$T/b.txt"
hdr=$(grep -m1 'rows/s' "$T/b.txt")
after=$(grep -E '^ *after ' "$T/b.txt")
case "$hdr" in
*"build s"*) case "$after" in *n/a*) bad labels/build-s-column "after's row: $after" ;; *) ok labels/build-s-column ;; esac ;;
*) bad labels/build-s-column "no build s in: $hdr" ;;
esac

# ---- index-build after: the build's syncs apart from the load's commit ----
run --rows 2000 --indexes 6 --commit all --index-build before,after --format csv >"$T/ib.csv"
fb=$(field "$T/ib.csv" fsyncs_per_commit 1) fa=$(field "$T/ib.csv" fsyncs_per_commit 2)
bb=$(field "$T/ib.csv" build_fsyncs 1) ba=$(field "$T/ib.csv" build_fsyncs 2)
cm=$(field "$T/ib.csv" commits 2)
is_num "$fb" "$fa" "$ba" "$cm" && [ -z "$bb" ] &&
	check labels/build-fsyncs-apart "$cm == 1 && $fa <= $fb + 1 && $ba >= 6" ||
	bad labels/build-fsyncs-apart "before: fsync/c '$fb' build_fsyncs '$bb'; after: fsync/c '$fa' build_fsyncs '$ba' commits '$cm'"

# ---- --interval-rows: the step's own record is marked ----
run --rows 3000 --commit 1000 --interval-rows 1000 >"$T/ir.txt"
run --rows 3000 --commit 1000 --interval-rows 1000 --format csv >"$T/ir.csv"
marked=$(grep -c '(whole step)' "$T/ir.txt")
kinds=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "record") c = i; next } { printf "%s ", $c }' "$T/ir.csv")
[ "$marked" = 1 ] && [ "$kinds" = "rows rows rows step " ] && grep -q '^# whole step:' "$T/ir.txt" &&
	ok labels/interval-rows-whole-step ||
	bad labels/interval-rows-whole-step "marked $marked rows; csv records: $kinds; $(cat "$T/ir.txt")"
run --rows 3000 --commit 1000 >"$T/noir.txt"
grep -q 'whole step' "$T/noir.txt" && bad labels/no-mark-without-batches "$(cat "$T/noir.txt")" ||
	ok labels/no-mark-without-batches

# ---- sizes: PostgreSQL's kB, MB, GB are 1024-based, printed KiB/MiB ----
"$IDXLAB" --cache 512kB --print-config >"$T/pc" 2>&1
"$IDXLAB" --cache 2MB --print-config >"$T/pc2" 2>&1
grep -Eq '^cache *= *512KiB' "$T/pc" && grep -Eq '^cache *= *2MiB' "$T/pc2" && ok labels/size-kb-1024 ||
	bad labels/size-kb-1024 "$(grep cache "$T/pc" "$T/pc2")"
"$IDXLAB" --help >"$T/help" 2>&1
grep -q 'kB, MB, GB as PostgreSQL' "$T/help" && ok labels/size-help || bad labels/size-help "$(grep -A1 -- '--cache' "$T/help")"

# ---- PostgreSQL: HOT % of an insert step; a cache sweep's events ----
bindir=$(pg_bindir)
if [ -z "$bindir" ]; then
	skip labels/pg "no PostgreSQL server installed (apt-get install postgresql)"
	exit 0
fi
if [ ${#T} -gt 68 ]; then
	skip labels/pg "TMPDIR is too long for the throwaway server's unix socket"
	exit 0
fi
: >"$T/err"
run --engine postgres --rows 2000 --cache 1MiB,2MiB,4MiB,8MiB --format csv >"$T/pg.csv"
hi=$(field "$T/pg.csv" hot_pct 1)
[ "$(($(wc -l <"$T/pg.csv") - 1))" = 4 ] && [ -z "$hi" ] && ok labels/hot-insert-na ||
	bad labels/hot-insert-na "insert: hot_pct '$hi' (want empty: n/a); $(cat "$T/pg.csv" | cut -c1-200) $(head -c 300 "$T/err")"
# every restart's size named, in KiB/MiB (no kB), however the lines fold
named=1
for v in 2MiB 4MiB 8MiB; do
	grep 'shared_buffers' "$T/err" | grep -q "$v" || named=0
done
[ "$named" = 1 ] && ! grep 'shared_buffers' "$T/err" | grep -q '[0-9]kB' && ok labels/fold-names-values ||
	bad labels/fold-names-values "$(grep shared_buffers "$T/err")"
run --engine postgres --rows 2000 --op insert >"$T/pgi.txt"
grep -E '^ *[0-9]' "$T/pgi.txt" | grep -q '\.\.\.' && bad labels/hot-insert-text "$(cat "$T/pgi.txt")" ||
	ok labels/hot-insert-text
