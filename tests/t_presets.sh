# The presets (configs/*.conf): every one loads (`idxlab --print-config -c
# FILE`); the SQLite ones also run, shrunk with --scale, and give one step
# record per point of their sweep (the product of the lengths of the comma
# lists --print-config shows) - and, with interval-rows, a record per batch.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/.." && pwd)
SCALE=${PRESET_SCALE:-0.01}

for f in "$here"/configs/*.conf; do
	p=$(basename "$f" .conf)
	if ! "$IDXLAB" --print-config -c "$f" >"$T/$p.cfg" 2>"$T/err"; then
		bad presets/$p/print-config "$(head -c 300 "$T/err")"
		continue
	fi
	ok presets/$p/print-config
	grep -q '^engine = sqlite$' "$T/$p.cfg" || continue
	# The sweep's size: the product of its knobs' list lengths.
	steps=$(awk -F' = ' '/^[a-z-]+ = / { n = split($2, v, ","); p = (p ? p : 1) * n }
		END { print p }' "$T/$p.cfg")
	batches=$(awk -F' = ' '$1 == "interval-rows" { print $2 }' "$T/$p.cfg")
	if ! "$IDXLAB" run -c "$f" --scale "$SCALE" --format csv >"$T/$p.csv" 2>"$T/err"; then
		bad presets/$p/run "$(head -c 300 "$T/err")"
		continue
	fi
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "record") r = i; next }
		{ n[$r]++ } END { printf "%d %d", n["step"], n["rows"] }' "$T/$p.csv")
	want="$steps 0"
	if [ "$batches" != 0 ]; then
		# A record per interval-rows rows of each step (both scaled alike).
		rows=$(awk -F' = ' '$1 == "rows" { print $2 }' "$T/$p.cfg")
		want="$steps $((steps * (rows / batches)))"
	fi
	echo "  $p at --scale $SCALE: $got step/rows records"
	if [ "$got" = "$want" ]; then
		ok presets/$p/scaled-run
	else bad presets/$p/scaled-run "step/rows records '$got', want '$want' (--scale $SCALE)"; fi
done
no_leftovers presets/temp-dir-removed

# The shipped talks end in demo mode, where the arrows and b are the demo's
# until D: a last caption that tells the audience how to take the knobs
# names D, never the arrows alone.
for f in "$here"/configs/*.demo; do
	p=$(basename "$f" .demo)
	last=$(grep '^say ' "$f" | tail -1)
	case $last in
	*arrow* | *' b '*)
		if printf '%s' "$last" | grep -q '\bD\b'; then ok "presets/$p-last-caption-true"; else bad "presets/$p-last-caption-true" "$last"; fi ;;
	*) ok "presets/$p-last-caption-true" ;;
	esac
done
