# The test suite itself: every command the test files call is installed by
# make test (the Makefile's DEB_RUN and DEB_TEST) or comes with base Debian,
# so a clean machine runs what this one runs (plot/theme-dark once measured
# with ImageMagick's convert, which nothing installed: it failed on a clean
# clone). tests/sh_commands.py finds the commands; the table below says
# which package has each; the Makefile says what make test installs.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
if ! command -v python3 >/dev/null; then
	skip suite/commands "python3 is not installed (apt-get install python3)"
	exit 0
fi

# COMMAND PACKAGE [DPKG-OWNER]: the package that gives each command the tests
# call (DPKG-OWNER: the one dpkg names as the file's owner when it is another,
# or - for none to compare: an alternative, a link).
cat >"$T/owners" <<'EOF'
awk mawk
basename coreutils
cat coreutils
cc gcc -
chmod coreutils
chown coreutils
cksum coreutils
cmp diffutils
cp coreutils
cut coreutils
date coreutils
df coreutils
diff diffutils
dirname coreutils
dpkg dpkg
env coreutils
find findutils
getconf libc-bin
grep grep
head coreutils
id coreutils
ipcrm util-linux
ipcs util-linux
jq jq
ln coreutils
ls coreutils
make make
md5sum coreutils
mkdir coreutils
mkfifo coreutils
mktemp coreutils
mv coreutils
mount mount
nice coreutils
od coreutils
paste coreutils
pdfinfo poppler-utils
pdftotext poppler-utils
pgrep procps
pkg-config pkg-config pkgconf
pkill procps
ps procps
python3 python3 -
readlink coreutils
rm coreutils
script bsdutils
sed sed
seq coreutils
setpriv util-linux
setsid util-linux
sh dash -
sha256sum coreutils
sleep coreutils
sort coreutils
sqlite3 sqlite3
strace strace
tail coreutils
timeout coreutils
tmux tmux
touch coreutils
tr coreutils
umount mount
uniq coreutils
wc coreutils
xargs findutils
xmllint libxml2-utils
EOF
# Base Debian: the essential packages (and mawk, Debian's awk) that every
# install has. Build: what builds idxlab, before make test runs a test.
base="bsdutils coreutils dash diffutils dpkg findutils grep libc-bin mawk mount sed util-linux"
build="gcc make"
# The Makefile's DEB_RUN and DEB_TEST (continued lines joined).
deb=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$top/Makefile" |
	sed -n 's/^DEB_\(RUN\|TEST\) *:= *//p' | tr -s ' \t' '\n\n')
if [ -z "$deb" ]; then
	bad suite/makefile-packages "no DEB_RUN or DEB_TEST in $top/Makefile"
	exit 0
fi

python3 "$here/sh_commands.py" "$here"/*.sh >"$T/calls" 2>"$T/scan.err" ||
	bad suite/scan "$(cat "$T/scan.err")"
echo "  $(wc -l <"$T/calls") commands called by tests/*.sh"
# Every command called has its package in the table ...
unknown=$(awk 'NR == FNR { known[$1] = 1; next } !($1 in known) { printf "%s (%s) ", $1, $2 }' "$T/owners" "$T/calls")
if [ -z "$unknown" ] && [ -s "$T/calls" ]; then
	ok suite/commands-known
else bad suite/commands-known "no package known for: $unknown- add each to t_suite.sh's table, and its package to DEB_TEST unless base Debian has it (or measure with what is there)"; fi
# ... and that package is make test's or base Debian's.
missing=""
while read -r cmd pkg _; do
	grep -q "^$cmd " "$T/calls" || continue
	if ! printf '%s\n' $deb $base $build | grep -qx -- "$pkg"; then
		missing="$missing $cmd ($pkg)"
	fi
done <"$T/owners"
[ -z "$missing" ] && ok suite/commands-installed ||
	bad suite/commands-installed "not installed by make test (DEB_RUN, DEB_TEST) nor by base Debian:$missing"
# The table is true where dpkg knows the file (one dpkg -S for all: each
# reads its whole database). A /bin path and its /usr/bin twin are one file.
if command -v dpkg >/dev/null; then
	while read -r cmd pkg owner; do
		[ "${owner:-$pkg}" = - ] && continue
		path=$(command -v "$cmd") || continue
		case $path in
		/usr/*) echo "$cmd ${owner:-$pkg} $path ${path#/usr}" ;;
		/*) echo "$cmd ${owner:-$pkg} $path /usr$path" ;;
		esac
	done <"$T/owners" >"$T/paths"
	# shellcheck disable=SC2046
	dpkg -S $(cut -d' ' -f3- "$T/paths") 2>/dev/null | grep -v '^diversion' >"$T/dpkg"
	wrong=$(awk -F': ' 'NR == FNR { sub(/:.*/, "", $1); owner[$2] = $1; next }
		{ got = ($3 in owner) ? owner[$3] : ($4 in owner) ? owner[$4] : "" }
		got != "" && got != $2 { printf "%s: %s, not %s; ", $1, got, $2 }' "$T/dpkg" FS=' ' "$T/paths")
	[ -z "$wrong" ] && ok suite/owners-true || bad suite/owners-true "dpkg says otherwise: $wrong"
else
	skip suite/owners-true "no dpkg to compare the table with"
fi
