#!/bin/sh
# hacking_files.sh - the file list of HACKING.md, generated from the sources.
#
# Prints one line per src/**/*.c and *.h, sorted by path: "- `PATH` - WHAT",
# WHAT being the file's first comment line (each file starts
# "/* name.c - what it is"). With -w FILE it rewrites FILE's list: the lines
# between the markers "<!-- files: begin -->" and "<!-- files: end -->"
# (make hacking does this on HACKING.md); tests/t_hacking.sh checks that the
# list in HACKING.md is what this prints. Run from the top of the tree.
set -eu
list() {
	find src -name '*.[ch]' | LC_ALL=C sort | while IFS= read -r f; do
		first=$(head -n 1 "$f" | sed -e 's|^/\* *||' -e 's| *\*/ *$||' \
			-e 's|^[^ ]* - ||')
		printf -- '- `%s` - %s\n' "$f" "$first"
	done
}
case "${1:-}" in
-w)
	file=$2
	grep -q '^<!-- files: begin -->$' "$file" && grep -q '^<!-- files: end -->$' "$file" || {
		echo "hacking_files.sh: $file has no <!-- files: begin --> / <!-- files: end --> lines" >&2
		exit 2
	}
	list >"$file.list"
	awk -v lf="$file.list" '
		/^<!-- files: begin -->$/ { print; while ((getline l < lf) > 0) print l; skip = 1; next }
		/^<!-- files: end -->$/ { skip = 0 }
		!skip' "$file" >"$file.tmp"
	rm -f "$file.list"
	mv -f "$file.tmp" "$file"
	;;
"") list ;;
*)
	echo "usage: sh tests/hacking_files.sh [-w HACKING.md]" >&2
	exit 2
	;;
esac
