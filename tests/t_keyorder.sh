# Key order: one random-key index spills the page cache about once per row
# fraction; sequential keys keep their hot pages cached; a big cache removes
# spills; and write() bytes far exceed device bytes (the kernel absorbs them).
. "$(dirname "$0")/lib.sh"

"$IDXLAB" run --indexes 1 --key-order seq,rand --rows 200000 --payload 0 --format csv \
	>"$T/ko.csv" 2>"$T/err" || { bad keyorder/run "$(cat "$T/err")"; exit 1; }
seq_sp=$(field "$T/ko.csv" spills_per_row 1)
rand_sp=$(field "$T/ko.csv" spills_per_row 2)
echo "  spills/row: seq $seq_sp rand $rand_sp"
check keyorder/rand-spills-10x-seq "$rand_sp >= 10 * $seq_sp && $rand_sp > 0.05"
wchar=$(field "$T/ko.csv" wchar_per_row 2)
wbytes=$(field "$T/ko.csv" write_bytes_per_row 2)
echo "  rand: wchar/row $wchar, write_bytes/row $wbytes"
check keyorder/wchar-much-more-than-device "$wchar >= 4 * $wbytes"
check keyorder/rand-misses "$(field "$T/ko.csv" misses_per_row 2) > 0.05"

"$IDXLAB" run --indexes 1 --key-order rand --rows 200000 --payload 0 --cache 1GiB --format csv \
	>"$T/big.csv" 2>"$T/err" || { bad keyorder/big-cache "$(cat "$T/err")"; exit 1; }
big=$(field "$T/big.csv" spills_per_row 1)
echo "  rand with 1GiB cache: spills/row $big"
check keyorder/big-cache-no-spills "$big == 0"
# The cache gauge: a 2000KiB cache that spills is full; a 1GiB one holds the
# whole table, far below its size. SQLite keeps no count of dirty pages: n/a.
full=$(field "$T/ko.csv" cache_bytes 2)
roomy=$(field "$T/big.csv" cache_bytes 1)
echo "  cache used: 2000KiB cache $full B, 1GiB cache $roomy B"
check keyorder/cache-gauge "$full > 0.9 * 2048000 && $full < 1.2 * 2048000 && $roomy > $full && $roomy < 0.5 * 1073741824"
check keyorder/cache-dirty-na "\"$(field "$T/ko.csv" cache_dirty_pct 2)\" == \"\""

# The index pages are counted by dbstat and random keys do not bloat the index much.
p_seq=$(field "$T/ko.csv" index_pages 1)
p_rand=$(field "$T/ko.csv" index_pages 2)
echo "  index pages: seq $p_seq rand $p_rand"
check keyorder/index-pages "$p_seq > 100 && $p_rand > $p_seq && $p_rand < 2 * $p_seq"
no_leftovers keyorder/temp-dir-removed
