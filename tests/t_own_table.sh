#!/bin/sh
# The cost of one more index, measured on a user's table and on idxlab's
# --schema-from copy of it (issue 19): four real-shaped SQLite tables, each
# made by bench/own_table.py with its real DDL and rows in the real data's
# pattern (growing foreign keys with repeats, random uuids, timestamps with
# late rows, NULLs, decimals); the candidate index's write() bytes and cache
# spills per row, appended through the SQLite library itself, against
# idxlab's run of the copy (--add-index COL --indexes table,all). Each must
# agree within 25 % (or both be nearly nothing). Smaller than `make bench`'s
# run (60,000 rows onto 10,000, a 400 KiB cache): the tables outgrow the
# cache, so an index whose keys come out random where the real ones grow
# spills where the real one appends.
. "$(dirname "$0")/lib.sh"

out=$(python3 "$(dirname "$0")/../bench/own_table.py" --rows 60000 --src 10000 --cache 400 2>&1)
rc=$?
echo "$out" | sed 's/^/  /'
for t in invoice_lines users events orders; do
	for f in wchar_per_row spills_per_row; do
		line=$(echo "$out" | grep "^$t  *$f  *copy ")
		if echo "$line" | grep -q "within 25 %$"; then
			ok "own-table/$t-$f"
		else
			bad "own-table/$t-$f" "exit $rc: real and copy apart: $(echo "$out" | grep "^$t  *$f" | tr '\n' '|')"
		fi
	done
done
# the costly candidate is costly on both sides (not two nothings agreeing)
if echo "$out" | awk '$1 == "orders" && $2 == "spills_per_row" { if ($6 < 0.02) bad = 1; n++ } END { exit !(n == 2 && !bad) }'; then
	ok own-table/costly-candidate-spills
else bad own-table/costly-candidate-spills "$(echo "$out" | grep '^orders' | tr '\n' '|')"; fi
