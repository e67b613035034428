#!/bin/sh
# bench/own-table.sh - the cost of one more index on a user's table, measured
# on the table itself (its real DDL, rows appended through the SQLite library
# in the real data's pattern) and on idxlab's --schema-from copy of it, side by
# side, on four real-shaped tables: bench/own_table.py says how. Run by
# `make bench` (IDXLAB set); ROWS (default 200000) and SRC (default 20000)
# size it; DERIVE_ROWS (default 10000000) the table whose --schema-from is
# timed (under 2 s and 64 MiB; ~2 min to build).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
exec python3 "$here/own_table.py" --rows "${ROWS:-200000}" --src "${SRC:-20000}" \
	--derive "${DERIVE_ROWS:-10000000}"
