#!/bin/sh
# Every knob a sweep can vary has a CSV column that tells the steps apart
# (issue 20: a swept --checkpoint was in no column, so a WiredTiger sweep
# over it printed rows nothing told apart). The knobs are read from
# `idxlab --help` (the knob table's listing: the workload knobs before
# "Run options:"), so a new knob is covered without touching this file;
# two values of each are taken from its listed range, and the sweep runs on
# the first engine of the --engine list whose column is not n/a for it
# (SQLite first; a throwaway PostgreSQL costs seconds, so it is tried
# too; an engine that cannot run here is passed over, loudly).
. "$(dirname "$0")/lib.sh"

"$IDXLAB" --help >"$T/help" 2>&1 || bad record/help "idxlab --help failed: $(head -c 200 "$T/help")"
# "--NAME RANGE" of the workload knobs
awk '/^Knobs /{on=1; next} /^Run options:/{on=0} on && /^  --/ {
	name=$1; sub(/^--/, "", name); $1=""; sub(/^ +/, ""); print name "\t" $0 }' "$T/help" >"$T/knobs"
engines=$(awk -F'\t' '$1 == "engine" { print $2 }' "$T/knobs" | tr '|' ' ')
[ -s "$T/knobs" ] && [ -n "$engines" ] || bad record/knob-list "no knobs in idxlab --help"

# Two values of a knob from its range text; nothing when a comma list is
# not a sweep of it (free text, a list of its own).
pair() {
	case $1 in
	text | *"comma list"*) return ;;
	"(a flag"*) echo off,on && return ;;
	esac
	# a numeric range: its low end and the next value (a size: twice it)
	lo=$(printf '%s\n' "$1" | tr '|' '\n' | grep -m1 -E '^[0-9.]+[A-Za-z]*\.\.' | sed 's/\.\..*//')
	if [ -n "$lo" ]; then
		num=${lo%%[A-Za-z]*}
		unit=${lo#"$num"}
		if [ -n "$unit" ]; then echo "$lo,$((num * 2))$unit"; else echo "$lo,$((num + 1))"; fi
		return
	fi
	# words: the first two (not a placeholder such as FILE)
	printf '%s\n' "${1%% *}" | tr '|' '\n' | grep -vE '^[A-Z]+$' | head -2 | paste -sd, -
}

swept=0
while IFS="$(printf '\t')" read -r name range; do
	col=$(echo "$name" | tr - _)
	values=$(pair "$range")
	if [ -z "$values" ] || [ "${values#*,}" = "$values" ]; then
		echo "# --$name: not swept (a comma list is one value: $range)"
		continue
	fi
	swept=$((swept + 1))
	done_=""
	tried=""
	for e in $engines; do
		[ "$name" = engine ] && [ "$e" != "${engines%% *}" ] && break
		eng="--engine $e"
		[ "$name" = engine ] && eng=""
		rows="--rows 200"
		[ "$name" = rows ] && rows=""
		out="$T/$name.$e.csv"
		# shellcheck disable=SC2086
		if ! "$IDXLAB" run $eng $rows --warmup off -q --format csv --"$name" "$values" \
			>"$out" 2>"$out.err"; then
			tried="$tried $e (failed: $(head -c 120 "$out.err" | tr '\n' ' '))"
			continue
		fi
		if ! columns "$out" "$col" >/dev/null; then
			bad "record/sweep-$name" "--$name $values on $e: no column $col in $(head -1 "$out" | cut -c1-120)..."
			done_=1
			break
		fi
		a=$(field "$out" "$col" 1)
		b=$(field "$out" "$col" 2)
		if [ -z "$a" ] && [ -z "$b" ]; then
			tried="$tried $e (n/a)"
			continue
		fi
		if [ "$a" != "$b" ]; then
			ok "record/sweep-$name"
		else
			bad "record/sweep-$name" "--$name $values on $e: column $col is '$a' in both rows"
		fi
		done_=1
		break
	done
	[ -n "$done_" ] || skip "record/sweep-$name" "no engine here honours --$name:$tried"
done <"$T/knobs"
# the listing was read: at least the knobs this test was written against
[ "$swept" -ge 18 ] && ok record/knobs-walked || bad record/knobs-walked "only $swept swept knobs in --help"

# The new column is appended: the CSV header up to vacuum_wal_bytes_per_row
# is the contract's (man idxlab), checkpoint after it.
"$IDXLAB" run --rows 100 --warmup off -q --format csv >"$T/h.csv" 2>"$T/h.err"
head -1 "$T/h.csv" | grep -qE ',vacuum_seconds,vacuum_wal_bytes_per_row,checkpoint(,|$)' &&
	ok record/checkpoint-appended ||
	bad record/checkpoint-appended "header: $(head -1 "$T/h.csv" | tail -c 160)"
