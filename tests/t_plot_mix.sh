#!/bin/sh
# --plot of a mix's sweep over indexes (issue 22, item 5): the default
# panels are the trade's (write cost, read cost, the mix's total), the
# cheapest step is marked (a ring and "cheapest" in the total's panel, a
# dashed line at its index count in every panel) and it is the step the
# CSV and the "cheapest:" line name; a sweep without a mix is unchanged.
. "$(dirname "$0")/lib.sh"

mix="--schema users --queries by_email --mix insert:50,lookup:50 --prefill 5000 --rows 1e9 --warmup off --indexes 0,1,6"

# cheapest_csv CSV: "indexes key_order" of each series' lowest
# mix_ms_per_1000_ops, series in their first step's order.
cheapest_csv() {
	columns "$1" indexes key_order mix_ms_per_1000_ops || return 1
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ k = $c["key_order"]; v = $c["mix_ms_per_1000_ops"] + 0
		  if (!(k in best)) { order[n++] = k; best[k] = v; at[k] = $c["indexes"] }
		  else if (v < best[k]) { best[k] = v; at[k] = $c["indexes"] } }
		END { for (i = 0; i < n; i++) print at[order[i]] " " order[i] }' "$1"
}

# ---- one series: the three panels by default, the cheapest marked --------
# shellcheck disable=SC2086
"$IDXLAB" run $mix --duration 1 --format csv --plot "$T/m.pdf" >"$T/m.csv" 2>"$T/m.err"
rc=$?
want=$(cheapest_csv "$T/m.csv" | cut -d' ' -f1)
said=$(sed -n 's/^cheapest: indexes \([0-9]*\) .*/\1/p' "$T/m.err")
if [ $rc -eq 0 ] && [ -n "$want" ] &&
	grep -q "wrote $T/m.pdf: a sweep chart (x indexes): 3 panels, 1 series, 3 records, the cheapest marked: indexes $want$" "$T/m.err"; then
	ok plot_mix/summary-names-cheapest
else bad plot_mix/summary-names-cheapest "exit $rc, the CSV's cheapest: '$want'; $(cat "$T/m.err")"; fi
# The chart's mark, the CSV's lowest total and the "cheapest:" line agree.
if [ -n "$said" ] && [ "$said" = "$want" ]; then
	ok plot_mix/same-as-trade-line
else bad plot_mix/same-as-trade-line "trade line '$said', CSV '$want'"; fi
pdftotext -raw "$T/m.pdf" - >"$T/m.txt" 2>/dev/null
if grep -qx 'time per write (ms)' "$T/m.txt" && grep -qx 'time per query (ms)' "$T/m.txt" &&
	grep -qx 'time per 1,000 operations' "$T/m.txt" && ! grep -qx 'throughput' "$T/m.txt"; then
	ok plot_mix/default-panels
else bad plot_mix/default-panels "$(tr '\n' '|' <"$T/m.txt" | cut -c1-600)"; fi
# One label, in the total's panel (the last of the three, so after its title).
if [ "$(grep -c '^cheapest$' "$T/m.txt")" = 1 ] &&
	awk '/^time per 1,000 operations$/ { t = NR } /^cheapest$/ { c = NR } END { exit !(t && c > t) }' "$T/m.txt"; then
	ok plot_mix/label
else bad plot_mix/label "$(tr '\n' '|' <"$T/m.txt" | cut -c1-600)"; fi

# ---- SVG: the dashed line at the optimum, in each of the three panels ----
# shellcheck disable=SC2086
"$IDXLAB" run $mix --duration 0.5 --plot "$T/m.svg" >/dev/null 2>"$T/ms.err"
n=$(grep -c 'stroke-dasharray:10,7' "$T/m.svg" 2>/dev/null)
if xmllint --noout "$T/m.svg" 2>/dev/null && [ "$n" = 3 ]; then
	ok plot_mix/optimum-line-per-panel
else bad plot_mix/optimum-line-per-panel "$n dashed optimum lines; $(cat "$T/ms.err")"; fi

# ---- two series: each its own cheapest, named by series ------------------
# shellcheck disable=SC2086
"$IDXLAB" run $mix --key-order seq,rand --duration 0.5 --format csv --plot "$T/k.pdf" \
	>"$T/k.csv" 2>"$T/k.err"
want=$(cheapest_csv "$T/k.csv" | awk '{ printf "%s%s (%s)", (NR > 1 ? ", " : ""), $1, $2 }')
if [ -n "$want" ] && grep -q "3 panels, 2 series, 6 records, the cheapest marked: indexes $want$" "$T/k.err" &&
	[ "$(pdftotext -raw "$T/k.pdf" - 2>/dev/null | grep -cE '^cheapest: (seq|rand)$')" = 2 ]; then
	ok plot_mix/two-series
else bad plot_mix/two-series "the CSV's: '$want'; $(cat "$T/k.err")"; fi

# ---- --plot-metrics still picks the panels; the mark follows -------------
# shellcheck disable=SC2086
"$IDXLAB" run $mix --duration 0.5 --plot "$T/p.svg" --plot-metrics rows_per_s,mix_ms_per_1000_ops \
	>/dev/null 2>"$T/p.err"
n=$(grep -c 'stroke-dasharray:10,7' "$T/p.svg" 2>/dev/null)
if grep -q '2 panels, 1 series, 3 records, the cheapest marked: indexes [016]$' "$T/p.err" && [ "$n" = 2 ]; then
	ok plot_mix/metrics-given
else bad plot_mix/metrics-given "$n dashed lines; $(cat "$T/p.err")"; fi

# ---- no mix: the chart is as before (no mark, the usual panels) ----------
"$IDXLAB" run --schema users --indexes 0,1,6 --rows 2000 --plot "$T/n.pdf" >/dev/null 2>"$T/n.err"
pdftotext -raw "$T/n.pdf" - >"$T/n.txt" 2>/dev/null
if grep -qE "wrote $T/n.pdf: a sweep chart \(x indexes\): [234] panels, 1 series, 3 records$" "$T/n.err" &&
	grep -qx 'throughput' "$T/n.txt" && ! grep -q 'cheapest' "$T/n.txt" &&
	! grep -qx 'time per 1,000 operations' "$T/n.txt"; then
	ok plot_mix/no-mix-unchanged
else bad plot_mix/no-mix-unchanged "$(cat "$T/n.err") $(tr '\n' '|' <"$T/n.txt" | cut -c1-300)"; fi
