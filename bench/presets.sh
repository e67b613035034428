#!/bin/sh
# bench/presets.sh - every article preset at the article's own size, timed
# whole, against the same work done bare (issue 21 item 8: preset / bare
# <= 1.2).
#
# The two sides, interleaved (preset, bare, preset, bare ... with REPS):
#   preset  `idxlab run -c configs/P.conf`, wall seconds of the whole run:
#           its throwaway server's start and stop (PostgreSQL), the warm-up
#           (--warmup, on by default), and per step the set-up (table,
#           prefill, indexes, checkpoint), the measured rows, and the
#           closing sample (statistics, sizes, the full-page-image count)
#   bare    per step of the preset's own CSV (the knobs each step ran
#           with, so the same work), the plain loop of bench/: for
#           PostgreSQL bare_pg (the same table, prefill by COPY + VACUUM
#           (ANALYZE), indexes, CHECKPOINT, then the same statements with the
#           same protocol, pipelining and commit cadence: per-row prepared
#           UPDATEs in the same shuffled order, the columns an
#           update-indexed or update-keys sets, multi-row INSERTs of 1,000,
#           simple-protocol INSERTs one round trip each, or COPY), on a
#           server of the bench's own with the steps' shared_buffers,
#           started before the clock (its start is not counted: idxlab's
#           is); for SQLite bare_sqlite (the same
#           file, pragmas, prefill and its indexes, INSERTs, rows and
#           commit cadence); for WiredTiger bare_wt (the same tables,
#           prefill loaded the same way, cache, rows, updates in the same
#           order, commit cadence and sync). Wall seconds
#           of those commands, summed: no warm-up, no sampling, no
#           statistics; each command's wall less the loop's process start
#           (its --help's wall: the bare loops link every engine's
#           library, idxlab starts once)
# server_s is the part of preset_s spent starting and stopping idxlab's
# throwaway PostgreSQL server (its own events: "up in", "stopped and
# removed in"); bare's server is started outside its clock, so the ratio
# compares the same work: (preset_s - server_s) / bare_s, what idxlab adds
# to it; over 1.2 is flagged OVER. "whole" is preset_s / bare_s. "window" compares the measured part alone: the sum of the
# steps' `seconds` against bare's timed loops. A preset with a step bare
# cannot do (knobs its loop lacks: journal or sync other than delete/wal
# and full/normal on SQLite, --index-build after on PostgreSQL, steps of
# one preset with different caches on PostgreSQL...) says so and has no
# ratio. Beside it, the article's own
# time where it gives one (../shared/brief/findings.md).
#
#   make bench-presets                            every preset (~40 min)
#   PRESETS="pg-wal-per-index sqlite-textkey" ... some of them (or a path
#                                                 to a config of one's own)
#   SCALE=0.1                                     --scale for every run
#   REPS=2                                        preset, bare, preset, bare
# mongo-five-indexes.conf needs a mongod and is left out.
# Needs BARE_PG, BARE_SQLITE and BARE_WT (make bench-presets builds and
# sets them).
set -u
: "${IDXLAB:?set IDXLAB}"
here=$(cd "$(dirname "$0")" && pwd)
configs=$(cd "$here/../configs" && pwd)
. "$here/lib.sh"
: "${BARE_PG:=$here/../build/bench/bare_pg}" "${BARE_SQLITE:=$here/../build/bench/bare_sqlite}"
: "${BARE_WT:=$here/../build/bench/bare_wt}"
: "${SCALE:=}" "${REPS:=1}"
bench_begin presets-
: "${PRESETS:=$(cd "$configs" && ls ./*.conf | sed 's|^\./||; s|\.conf$||' | grep -vx mongo-five-indexes)}"

# The article's own time for a preset, in seconds ("" where it gives none).
article_s() {
	case $1 in
	sqlite-random-index) calc "0.79 + 4.18 + 5.53 + 8.45" ;;
	sqlite-users-index-build) calc "8.45 + 3.68" ;;
	# 1M rows at the article's rows/s for 0, 1, 2, 4, 8 indexes
	pg-wal-per-index) calc "1e6 / 1103042 + 1e6 / 534868 + 1e6 / 303880 + 1e6 / 167175 + 1e6 / 80441" ;;
	# COPY and INSERTs at 0..4 indexes, on the hardware of 2000
	pg-copy-vs-insert) calc "24.45 + 48.88 + 62.65 + 96.84 + 134.09 + 194.95 + 247.21 + 269.69 + 307.33 + 352.72" ;;
	# 8 of its 24 steps at 1M rows (insert and update field1, MongoDB and
	# PostgreSQL, the timings it gives); the preset runs 100,000 rows
	mongo-vs-pg-five-indexes) calc "4.24 + 25.21 + 4.52 + 11.82 + 31.82 + 31.81 + 10.95 + 22.30" ;;
	# int, uuid4 and uuid7 (~1.31 s a batch) over ten 1M-row batches
	sqlite-uuid-growth) calc "(838 + 762 + 819 + 713 + 721 + 757 + 692 + 702 + 696 + 715 + 2649 + 5644 + 7137 + 8352 + 9359 + 9817 + 10490 + 11130 + 11668 + 12586) / 1000 + 10 * 1.31" ;;
	*) echo "" ;;
	esac
}

# The knobs of each step of an idxlab CSV ($1), a line each, in this order.
STEP_COLS="engine op indexes key_order commit sync journal rows fillfactor prefill payload seed schema load protocol pipeline cache index_build pk vacuum checkpoint"
step_knobs() {
	awk -F, -v want="$STEP_COLS" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(want, w, " "); next }
	$c["record"] == "step" { l = ""; for (i = 1; i <= n; i++) l = l (i > 1 ? " " : "") (c[w[i]] && $c[w[i]] != "" ? $c[w[i]] : "-"); print l }' "$1"
}

# one_of VALUE WORD...: is VALUE one of the words?
one_of() {
	v=$1
	shift
	for w; do [ "$v" = "$w" ] && return 0; done
	return 1
}

# bare_cmd KNOBS...: the bare loop's command for one step (a PostgreSQL
# one ends with the DSN placeholder @DSN), or nothing and why on stderr
# when no bare loop does that step's work.
bare_cmd() {
	engine=$1 op=$2 idx=$3 ko=$4 commit=$5 sync=$6 journal=$7 rows=$8 ff=$9
	shift 9
	prefill=$1 payload=$2 seed=$3 schema=$4 load=$5 proto=$6 pipe=$7 cache=$8 build=$9
	shift 9
	pk=$1 vacuum=$2 checkpoint=$3
	[ "$build" = - ] && build=before
	[ "$build" = before ] || [ "$engine" = sqlite ] || { echo "index-build $build" >&2; return 1; }
	[ "$pk" = - ] && pk=int
	[ "$pk" = int ] || [ "$engine" = sqlite ] || { echo "pk $pk" >&2; return 1; }
	case $engine in
	postgres)
		one_of "$sync" full off || { echo "sync $sync" >&2; return 1; }
		# the bench server's shared_buffers: one for all the preset's steps
		if [ -s "$out/pg.cache" ] && [ "$(cat "$out/pg.cache")" != "$cache" ]; then
			echo "caches $(cat "$out/pg.cache") and $cache (one bench server a preset)" >&2
			return 1
		fi
		echo "$cache" >"$out/pg.cache"
		echo "$BARE_PG @DSN --schema $schema --op $op --indexes $idx --key-order $ko --commit $commit" \
			"--rows $rows --fillfactor $ff --prefill $prefill --payload $payload --seed $seed" \
			"--load $load --protocol $proto --pipeline $pipe --sync $sync --vacuum $vacuum"
		;;
	sqlite)
		# (a table bare_sqlite does not build as idxlab does: it says why)
		one_of "$op" insert && one_of "$journal" delete wal && one_of "$sync" full normal &&
			one_of "$load" insert || { echo "op $op, journal $journal, sync $sync, load $load" >&2; return 1; }
		echo "$BARE_SQLITE --schema $schema --indexes $idx --key-order $ko --rows $rows" \
			"--payload $payload --seed $seed --cache $cache --commit $commit --prefill $prefill" \
			"--journal $journal --sync $sync --index-build $build --pk $pk"
		;;
	wiredtiger)
		one_of "$op" insert update update-indexed update-keys && one_of "$load" insert ||
			{ echo "op $op, load $load" >&2; return 1; }
		[ "$prefill" = - ] && prefill=0
		echo "$BARE_WT --schema $schema --op $op --indexes $idx --key-order $ko --rows $rows" \
			"--prefill $prefill --payload $payload --seed $seed --cache $cache --commit $commit" \
			"--sync $sync --checkpoint $checkpoint"
		;;
	*)
		echo "engine $engine" >&2
		return 1
		;;
	esac
}

# start_s PROG: the wall seconds of PROG --help (loading its libraries,
# nothing else), the median of three, remembered per program.
start_s() {
	f="$out/start.$(basename "$1")"
	if [ ! -s "$f" ]; then
		for i in 1 2 3; do
			t0=$(now_ns)
			"$1" --help >/dev/null 2>&1
			calc "($(now_ns) - $t0) / 1e9"
		done | stats | cut -d' ' -f1 >"$f"
	fi
	cat "$f"
}

# bare_side CSV: runs the bare loop of every step of the preset's CSV;
# "WALL WINDOW" (seconds: all of it, the timed loops) on stdout (and per
# step, with the command, in CSV's name with .bare for .csv), or fails
# (why in $out/bare.why). A PostgreSQL preset's server is started first,
# in a subshell (its trap stops it), outside the clock.
bare_side() (
	step_knobs "$1" >"$out/steps.txt"
	: >"$out/bare.cmds"
	: >"$out/pg.cache"
	while read -r line; do
		# shellcheck disable=SC2086
		bare_cmd $line >>"$out/bare.cmds" 2>"$out/bare.why" || return 1
	done <"$out/steps.txt"
	if grep -q @DSN "$out/bare.cmds"; then
		bench_pg_server "$(cat "$out/pg.cache")" || { echo "no PostgreSQL server installed" >"$out/bare.why"; return 1; }
	fi
	work=$(mktemp -d)
	wall=0 window=0
	while read -r cmd; do
		cmd=$(printf '%s' "$cmd" | sed "s|@DSN|'${dsn:-}'|")
		t0=$(now_ns)
		(cd "$work" && eval "$cmd") >"$out/bare.out" 2>>"$out/bare.err" || {
			echo "exited $?: $cmd: $(tail -1 "$out/bare.err")" >"$out/bare.why"
			rm -rf "$work"
			return 1
		}
		# less the loop's own process start (it links every engine's
		# library; idxlab starts once): its --help's wall
		w=$(calc "($(now_ns) - $t0) / 1e9 - $(start_s "${cmd%% *}")")
		win=$(awk 'END { print $2 }' "$out/bare.out")
		# never below its own timed loop (the start is measured apart)
		w=$(awk -v a="$w" -v b="$win" 'BEGIN { print (a > b) ? a : b }')
		wall=$(calc "$wall + $w")
		window=$(calc "$window + $win")
		echo "$w $win $cmd" >>"${1%.csv}.bare"
	done <"$out/bare.cmds"
	rm -rf "$work"
	echo "$wall $window"
)

# The users table's row against the article's (issue 21): the file at
# 0/1/3/6 indexes and the email index's pages, from sqlite-random-index's
# CSV, each within 5 % of the article's (findings.md: 67,457,024 /
# 106,086,400 / 150,507,520 / 244,502,528 B, 9,431 pages).
users_sizes() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["record"] != "step" { next }
	{
		n = $c["indexes"]; got = $c["db_bytes"]
		want = n == 0 ? 67457024 : n == 1 ? 106086400 : n == 3 ? 150507520 : 244502528
		d = (got / want - 1) * 100
		printf "    file at %d indexes %14d B, the article %11d B: %+5.1f %%  %s\n", n, got, want, d,
			(d < 5 && d > -5) ? "PASS" : "MISS"
		if (n == 1) {
			split($c["index_pages"], pg, ";"); d = (pg[1] / 9431 - 1) * 100
			printf "    email index %d pages, the article 9431: %+5.1f %%  %s\n", pg[1], d,
				(d < 5 && d > -5) ? "PASS" : "MISS"
		}
	}' "$1"
}

say "== article presets against the same work bare ($(nproc) cores; REPS=$REPS${SCALE:+, --scale $SCALE})"
say "$(printf '  %-26s %5s %9s %8s %9s %6s %-5s %10s %6s %s' preset load preset_s server_s bare_s ratio '' 'window' whole 'article')"
for p in $PRESETS; do
	case $p in
	*/*) f=$p p=$(basename "$p" .conf) ;; # a config file of one's own
	*) f="$configs/$p.conf" ;;
	esac
	[ -f "$f" ] || { say "  $p: no such preset ($f)"; failed=1; continue; }
	a=$(article_s "$p")
	rep=1
	: >"$out/$p.ratios"
	while [ "$rep" -le "$REPS" ]; do
		load=$(cut -d' ' -f1 /proc/loadavg)
		t0=$(now_ns)
		"$IDXLAB" run -v -c "$f" ${SCALE:+--scale "$SCALE"} --format csv >"$out/$p.$rep.csv" 2>"$out/$p.$rep.err"
		rc=$?
		wall=$(calc "($(now_ns) - $t0) / 1e9")
		if [ $rc -ne 0 ]; then
			say "  $p: exited $rc: $(tail -1 "$out/$p.$rep.err")"
			failed=1
			break
		fi
		steps=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["record"] == "step" { s += $c["seconds"] } END { print s + 0 }' "$out/$p.$rep.csv")
		if ! b=$(bare_side "$out/$p.$rep.csv"); then
			say "$(printf '  %-26s %5s %9.1f %8s %9s   (bare: %s)' "$p" "$load" "$wall" '' n/a "$(cat "$out/bare.why")")"
			break
		fi
		bw=${b% *} bwin=${b#* }
		# the throwaway server's start and stop, from idxlab's own events
		srv=$(sed -n 's/.*throwaway server .* up in \([0-9.]*\) s.*/\1/p; s/.*throwaway server stopped and removed in \([0-9.]*\) s.*/\1/p' \
			"$out/$p.$rep.err" | awk '{ s += $1 } END { print s + 0 }')
		r=$(calc "($wall - $srv) / $bw")
		echo "$r" >>"$out/$p.ratios"
		flag=$(awk -v r="$r" 'BEGIN { print (r > 1.2) ? "OVER" : "ok" }')
		say "$(printf '  %-26s %5s %9.1f %8.1f %9.1f %6.2f %-5s %10s %6.2f %s' "$p" "$load" "$wall" "$srv" "$bw" "$r" \
			"$flag" "$(fmt "$steps" %.1f)/$(fmt "$bwin" %.1f)=$(fmt "$(calc "$steps / $bwin")" %.2f)" \
			"$(calc "$wall / $bw")" "${a:+$(fmt "$a" %.1f) s}")"
		rep=$((rep + 1))
	done
	if [ "$REPS" -gt 1 ] && [ -s "$out/$p.ratios" ]; then
		m=$(stats <"$out/$p.ratios")
		say "$(printf '  %-26s median ratio %.2f (%.2f..%.2f over %d runs)' "$p" "${m%% *}" \
			"$(echo "$m" | cut -d' ' -f2)" "${m##* }" "$(wc -l <"$out/$p.ratios")")"
	fi
	[ "$p" = sqlite-random-index ] && [ -f "$out/$p.1.csv" ] && [ -z "$SCALE" ] && say "$(users_sizes "$out/$p.1.csv")"
done
say "  ratio: (preset_s - server_s) / bare_s (OVER: > 1.2); window: the steps' measured seconds / bare's timed loops; whole: preset_s / bare_s"
bench_end 0 ""
