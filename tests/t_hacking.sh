# The front door and the builder's map: README.md is at most 170 lines and
# every idxlab command in its sh code blocks parses (run with --print-config
# appended: exit 0); its dashboard keys are the binding table's
# (src/ui/input.c); HACKING.md's file list is every src/**/*.c and *.h with
# its first comment line (tests/hacking_files.sh prints it, make hacking
# writes it), and the check fails on a tree with one file more.
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/.." && pwd)

# list_diff DIR: what differs between DIR/HACKING.md's file list and DIR/src,
# one line each (missing, stale, differs); empty when they agree.
list_diff() {
	(cd "$1" && sh tests/hacking_files.sh) >"$T/want" || {
		echo "tests/hacking_files.sh failed in $1"
		return
	}
	awk '/^<!-- files: end -->$/ { on = 0 } on; /^<!-- files: begin -->$/ { on = 1 }' \
		"$1/HACKING.md" >"$T/have"
	awk -F'`' 'NR == FNR { want[$2] = $0; next } { have[$2] = $0 }
		END {
			for (f in want) if (!(f in have)) print "missing from HACKING.md: " f
			for (f in have) if (!(f in want)) print "listed, no such file: " f
			for (f in want) if ((f in have) && want[f] != have[f])
				print "differs: " have[f] " (the file says: " want[f] ")"
		}' "$T/want" "$T/have" | sort
}

grep -q '^<!-- files: begin -->$' "$top/HACKING.md" 2>/dev/null ||
	bad hacking/markers "HACKING.md has no <!-- files: begin --> line"
out=$(list_diff "$top")
if [ -n "$out" ]; then
	bad hacking/file-list "$(echo "$out" | head -5) (make hacking rewrites the list)"
else
	ok hacking/file-list
fi

# The check itself: a copy of the tree with a dummy src/x.c must fail, and
# one with a file's first line changed must too.
mkdir -p "$T/copy/tests"
cp -R "$top/src" "$T/copy/"
cp "$top/HACKING.md" "$T/copy/"
cp "$top/tests/hacking_files.sh" "$T/copy/tests/"
printf '/* x.c - a dummy */\n' >"$T/copy/src/x.c"
case $(list_diff "$T/copy") in
*"missing from HACKING.md: src/x.c"*) ok hacking/catches-new-file ;;
*) bad hacking/catches-new-file "a dummy src/x.c went unnoticed" ;;
esac
rm "$T/copy/src/x.c"
sed -i '1s|.*|/* main.c - something else|' "$T/copy/src/main.c"
case $(list_diff "$T/copy") in
*"differs: "*src/main.c*) ok hacking/catches-changed-line ;;
*) bad hacking/catches-changed-line "a changed first line of src/main.c went unnoticed" ;;
esac
rm "$T/copy/src/main.c"
case $(list_diff "$T/copy") in
*"listed, no such file: src/main.c"*) ok hacking/catches-removed-file ;;
*) bad hacking/catches-removed-file "a removed src/main.c went unnoticed" ;;
esac

n=$(wc -l <"$top/README.md")
if [ "$n" -le 170 ]; then ok readme/length; else bad readme/length "README.md has $n lines (at most 170)"; fi

# The sh blocks' commands; a line ending in \ goes on on the next.
awk '/^```/ { sh = ($0 == "```sh"); next }
	sh { line = line $0; if (line ~ /\\$/) { sub(/\\$/, "", line); next } print line; line = "" }' \
	"$top/README.md" >"$T/cmds"
grep -q '^make test$' "$T/cmds" && grep -q '^test:' "$top/Makefile" &&
	grep -q 'make test' "$top/.ci/run" && ok readme/make-test ||
	bad readme/make-test "README.md's sh blocks lost 'make test', the command CI runs"
# They run from a directory with the presets and a small app.db (the
# "your own table" example's table users).
mkdir -p "$T/rd" "$T/bin"
ln -s "$top/configs" "$T/rd/configs"
ln -s "$IDXLAB" "$T/bin/idxlab"
sqlite3 "$T/rd/app.db" "create table users(id integer primary key, email text, created_at text);
	insert into users(email, created_at) values ('a@b.c', '2024-01-01'), ('d@e.f', '2024-01-02');" ||
	bad readme/app-db "sqlite3 could not make app.db"
count=0
while IFS= read -r cmd; do
	case $cmd in
	idxlab* | ./idxlab*) ;;
	*) continue ;;
	esac
	count=$((count + 1))
	cmd=${cmd#./}
	if (cd "$T/rd" && PATH="$T/bin:$PATH" sh -c "$cmd --print-config") >"$T/out" 2>"$T/err"; then
		ok "readme/command-$count"
	else
		bad "readme/command-$count" "'$cmd --print-config' failed: $(head -c 300 "$T/err")"
	fi
done <"$T/cmds"
[ "$count" -ge 5 ] && ok readme/commands || bad readme/commands "only $count idxlab commands in README.md's sh blocks"

# The dashboard's keys: each row's key is a binding's name in input.c.
awk '/^## The dashboard/ { on = 1; next } /^## / { on = 0 }
	on && /^\| [^-k]/ { sub(/^\| /, ""); sub(/ \|.*/, ""); print }' "$top/README.md" >"$T/keys"
keys=0
while IFS= read -r k; do
	keys=$((keys + 1))
	grep -qF ".names = \"$k" "$top/src/ui/input.c" ||
		bad readme/key "the README's key '$k' is no binding's name in src/ui/input.c"
done <"$T/keys"
[ "$keys" = 10 ] && ok readme/ten-keys || bad readme/ten-keys "README.md's dashboard table has $keys keys, not 10"
