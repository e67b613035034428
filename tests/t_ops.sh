# Operations and key types: update, update-indexed, update-keys and delete visit existing
# rows; uuid primary keys make a clustered table; all of it at every key order.
. "$(dirname "$0")/lib.sh"

for op in update update-indexed update-keys delete; do
	if "$IDXLAB" run --op $op --rows 2000 --indexes 2 --format csv >"$T/$op.csv" 2>"$T/err" &&
		[ "$(field "$T/$op.csv" rows 1)" = 2000 ]; then
		ok ops/$op
	else bad ops/$op "$(cat "$T/err" "$T/$op.csv")"; fi
done
# Update more rows than exist: the visit order wraps around.
"$IDXLAB" run --op update --rows 3000 --prefill 1000 --format csv >"$T/wrap.csv" 2>"$T/err" &&
	[ "$(field "$T/wrap.csv" rows 1)" = 3000 ] && ok ops/update-wraps || bad ops/update-wraps "$(cat "$T/err")"
# Deleting everything leaves empty indexes.
"$IDXLAB" run --op delete --rows 5000 --indexes 1 --format csv >"$T/del.csv" 2>"$T/err"
check ops/delete-all "$(field "$T/del.csv" rows 1) == 5000"

for pk in int uuid7 uuid4; do
	for ko in seq rand few uuid7 uuid4; do
		if ! "$IDXLAB" run --pk $pk --key-order $ko --rows 300 --indexes 1 --op insert,update-keys,delete \
			--prefill 300 --format csv >"$T/k.csv" 2>"$T/err"; then
			bad ops/pk-$pk-keys-$ko "$(cat "$T/err")"
			continue
		fi
		[ "$(wc -l <"$T/k.csv")" -eq 4 ] && ok ops/pk-$pk-keys-$ko || bad ops/pk-$pk-keys-$ko "$(cat "$T/k.csv")"
	done
done
# A random uuid4 clustered key spills far more than a time-ordered uuid7 one.
"$IDXLAB" run --pk uuid7,uuid4 --rows 100000 --payload 200 --format csv >"$T/pk.csv" 2>"$T/err"
s7=$(field "$T/pk.csv" spills_per_row 1)
s4=$(field "$T/pk.csv" spills_per_row 2)
echo "  clustered pk spills/row: uuid7 $s7, uuid4 $s4"
check ops/uuid4-pk-spills-more "$s4 > 3 * $s7"
no_leftovers ops/temp-dir-removed
