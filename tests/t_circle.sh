#!/bin/sh
# t_circle.sh - the layers below the knob table and the plan stay below
# them: no header reached from the table spec (schema*.c, schema*.h) or
# the question as a verb (whatif.[ch]) includes the knob table (knobs.h)
# or the plan (config.h), so knobs -> schema and plan -> whatif run one
# way; and the knob table stays below the engines: the engines read it
# (struct knobs, its names, knob_parse), so nothing of the knob module
# (knobs.[ch], knob_values.c) reaches an engine's header but the list of
# their names (engines/engine_list.h), and engines -> knobs runs one way
# (the compiler's -Werror=implicit-function-declaration makes an include
# the road of every call). SRC: the source tree (tests/../src).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SRC=${SRC:-$here/../src}

# reach FILE...: every quoted include reached from FILE (src-relative),
# following headers; one name a line.
reach() {
	todo="$*" seen=""
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		shift
		todo="$*"
		for inc in $(sed -n 's/^#include "\(.*\)"/\1/p' "$SRC/$f" 2>/dev/null); do
			case " $seen " in *" $inc "*) continue ;; esac
			seen="$seen $inc"
			todo="$todo $inc"
		done
	done
	printf '%s\n' $seen
}

below=$(cd "$SRC" && ls schema*.c schema*.h whatif.c whatif.h)
[ -n "$below" ] && [ -f "$SRC/knobs.h" ] || bad circle/sources "no schema or whatif files under $SRC"
for up in knobs.h config.h; do
	hits=""
	for f in $below; do
		reach "$f" | grep -qx "$up" && hits="$hits $f"
	done
	[ -z "$hits" ] && ok "circle/below-${up%.h}" ||
		bad "circle/below-${up%.h}" "these reach $up (the table spec and whatif sit below it; vocab.h has the words):$hits"
done
# The words are still there for them to read.
reach schema.h | grep -qx vocab.h && ok circle/schema-reads-vocab ||
	bad circle/schema-reads-vocab "schema.h does not reach vocab.h"
# The knob module reads no engine: the per-engine defaults, their --help
# text and the telling figure are pulled by the layers above (the plan,
# main, the presenter) from engines.c.
hits=""
for f in knobs.c knobs.h knob_values.c; do
	[ -f "$SRC/$f" ] || bad circle/knobs-below-engines "no $f under $SRC"
	up=$(reach "$f" | grep '^engines/' | grep -vx 'engines/engine_list.h' | tr '\n' ' ')
	[ -n "$up" ] && hits="$hits $f -> $up"
done
[ -z "$hits" ] && ok circle/knobs-below-engines ||
	bad circle/knobs-below-engines "the knob module reaches the engines (they sit above it; engines.c has what the layers above pull):$hits"
# Nor does the table spec: an engine reads a user's source for
# --schema-from (engine_read_source), handed to schema_from.c by main
# (schema_from_reader), so schema -> engines never runs.
hits=""
for f in $below; do
	up=$(reach "$f" | grep '^engines/' | grep -vx 'engines/engine_list.h' | tr '\n' ' ')
	[ -n "$up" ] && hits="$hits $f -> $up"
done
[ -z "$hits" ] && ok circle/schema-below-engines ||
	bad circle/schema-below-engines "the table spec reaches the engines (they sit above it; main hands schema_from its reader):$hits"
