# tests/wt_lib.sh - what the WiredTiger spec and load tests share (sourced
# after lib.sh, with wt_test set to the tests' name prefix): wt (a run on
# WiredTiger, no warm-up), a skip when idxlab has no WiredTiger, and cat,
# the catalog reader tests/fixtures/wt_catalog.c built ("" when it cannot
# be).
here=$(cd "$(dirname "$0")" && pwd)
export TSAN_OPTIONS="${TSAN_OPTIONS:-} suppressions=$here/fixtures/tsan_wiredtiger.supp"

wt() { "$IDXLAB" run --engine wiredtiger --warmup off "$@"; }

if ! wt --rows 10 --format csv >"$T/probe.csv" 2>"$T/probe.err"; then
	if grep -q 'not built into this idxlab' "$T/probe.err"; then
		skip $wt_test/all "idxlab was built without WiredTiger (apt-get install libwiredtiger-dev, make)"
		exit 0
	fi
	bad $wt_test/runs "$(cat "$T/probe.err")"
	exit 1
fi

cat=""
if command -v cc >/dev/null && cc -o "$T/wt_catalog" "$here/fixtures/wt_catalog.c" \
	$(pkg-config --cflags --libs wiredtiger 2>/dev/null) -lwiredtiger 2>"$T/cc.err"; then
	cat="$T/wt_catalog"
fi
