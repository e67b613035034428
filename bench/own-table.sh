#!/bin/sh
# bench/own-table.sh - the cost of one more index on a user's table, measured
# on the table itself (its real DDL, rows appended in the real data's pattern
# through the engine's own library) and on idxlab's --schema-from copy of it,
# side by side, on four real-shaped tables per engine: SQLite
# (bench/own_table.py: write() bytes and spills per row) and PostgreSQL
# (bench/own_table_pg.py, on a throwaway server of its own with idxlab's
# settings: WAL and write() bytes per row). Run by `make bench` (IDXLAB set);
# ROWS (default 200000) and SRC (default 20000) size the SQLite side,
# PG_ROWS (default 20000) and PG_SRC (default 100000) the PostgreSQL side;
# DERIVE_ROWS (default 10000000) the table whose --schema-from is timed
# (under 2 s and 64 MiB; ~2 min to build). No PostgreSQL server installed:
# the SQLite side alone, and a line that says so.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${IDXLAB:?set IDXLAB to the idxlab binary}"
python3 "$here/own_table.py" --rows "${ROWS:-200000}" --src "${SRC:-20000}" \
	--derive "${DERIVE_ROWS:-10000000}"
rc=$?
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
	python3 "$here/own_table.py" --engine postgres --rows "${PG_ROWS:-20000}" --src "${PG_SRC:-100000}" || rc=1
else
	echo "own table on PostgreSQL: skipped, no PostgreSQL server installed (apt-get install postgresql)"
fi
exit $rc
