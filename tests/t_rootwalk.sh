# What root does over a tree another account can write. As root, idxlab's
# throwaway PostgreSQL server runs as user postgres, who owns the server's
# temp dir and may change it while root works in it: swap a directory for a
# symlink in the middle of the sweep's removal, point data/ elsewhere before
# the template is copied in, forge postmaster.pid. None of it may make root
# remove, write or read anything outside that tree.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip rootwalk/all "needs root (these are holes only root can fall into)"
	exit 0
fi
bindir=$(pg_bindir)
if [ -z "$bindir" ] || ! id -u postgres >/dev/null 2>&1 || ! command -v setpriv >/dev/null ||
	[ ! -x /usr/bin/python3 ]; then
	skip rootwalk/all "needs a PostgreSQL server, user postgres, setpriv and /usr/bin/python3 (Debian's, which user postgres can run)"
	exit 0
fi
as_pg="setpriv --reuid=$(id -u postgres) --regid=$(id -g postgres) --clear-groups"
S=$T/s # a TMPDIR of its own, world-writable like /tmp
mkdir -p "$S"
chmod 1777 "$S"
pgrun() { env TMPDIR="$S" "$IDXLAB" run --engine postgres --rows 100 --format csv "$@"; }
dead_pid() { sh -c 'echo $$'; }
here="$(readlink /proc/self/ns/pid) $(cat /proc/sys/kernel/random/boot_id)"

# victim NAME: a root-owned dir of 2000 files named as in the leftover.
victim() {
	mkdir -p "$T/$1"
	(cd "$T/$1" && seq -f 'f%04g' 1 2000 | xargs touch)
}
count() { find "$1" -type f | wc -l; }

# --- 1. the sweep: a directory swapped for a symlink mid-walk -------------
# A dead idxlab's leftover owned by postgres, data/d holding 2000 files;
# postgres swaps data/d for a symlink to a root-owned dir of the same names,
# again and again, while root removes the leftover.
victim victim1
race() {
	L=$S/idxlab-pg.racer
	mkdir -p "$L/data/d"
	(cd "$L/data/d" && seq -f 'f%04g' 1 2000 | xargs touch)
	echo "$(dead_pid) $here" >"$L/owner.pid"
	chown -R postgres:postgres "$L"
	$as_pg /usr/bin/python3 - "$L/data" "$T/victim1" <<'PY' &
import os, sys, time
data, victim = sys.argv[1], sys.argv[2]
d, x = os.path.join(data, "d"), os.path.join(data, "x")
end = time.time() + 8
first = True
while time.time() < end and os.path.isdir(data):
    for op in (lambda: os.rename(d, x), lambda: os.symlink(victim, d),
               lambda: os.unlink(d), lambda: os.rename(x, d),
               lambda: os.symlink(victim, x), lambda: os.unlink(x)):
        try:
            op()
        except OSError:
            pass
    if first:
        open(os.path.join(data, "..", "..", "swapping." + os.path.basename(os.path.dirname(data))), "w").close()
        first = False
PY
	swapper=$!
	poll 60 test -e "$S/swapping.idxlab-pg.racer"
	rm -f "$S/swapping.idxlab-pg.racer"
	pgrun >/dev/null 2>"$T/race.err"
	kill $swapper 2>/dev/null
	wait $swapper 2>/dev/null
	rm -rf "$L"
}
# The old walk by path (nftw + remove) lost 750-1582 files in each of 4
# tries; three races make a miss unlikely.
race
race
race
n=$(count "$T/victim1")
[ "$n" = 2000 ] && ok rootwalk/sweep-swap-not-followed ||
	bad rootwalk/sweep-swap-not-followed "root deleted $((2000 - n)) of 2000 files outside the leftover"

# --- 1. the template copy: data/ pointed elsewhere before the copy --------
# A second idxlab's run copies the cached template into its new temp dir.
# postgres watches for that dir and makes data a symlink to a root-only
# dir: root must not write the copy there.
pgrun >/dev/null 2>&1 # a template in the cache ($HOME/.cache/idxlab)
victim_dir=$T/victim2
mkdir -m 700 "$victim_dir"
$as_pg /usr/bin/python3 - "$S" "$victim_dir" "$S/watching" <<'PY' &
import os, sys, time
tmp, victim = sys.argv[1], sys.argv[2]
seen = set(os.listdir(tmp))
open(sys.argv[3], "w").close()
end = time.time() + 20
while time.time() < end:
    for n in os.listdir(tmp):
        if n.startswith("idxlab-pg.") and n not in seen:
            try:
                os.symlink(victim, os.path.join(tmp, n, "data"))
                seen.add(n)
            except PermissionError:
                pass  # not handed over to postgres yet: try again
            except OSError:
                seen.add(n)  # too late (data is there), or gone: once per dir
PY
watcher=$!
poll 60 test -e "$S/watching" # it has listed what was there before
rm -f "$S/watching"
pgrun >/dev/null 2>"$T/tmpl.err"
rc=$?
kill $watcher 2>/dev/null
wait $watcher 2>/dev/null
if [ -z "$(ls -A "$victim_dir")" ]; then
	ok rootwalk/template-copy-not-redirected
else bad rootwalk/template-copy-not-redirected "root copied into $victim_dir: $(ls -A "$victim_dir" | head -5)"; fi
[ -z "$(ls -A "$S")" ] && ok rootwalk/template-race-leaves-nothing ||
	bad rootwalk/template-race-leaves-nothing "exit $rc, left in $S: $(ls -A "$S"): $(cat "$T/tmpl.err")"

# --- 1. the template cache in a dir another user can write -----------------
# XDG_CACHE_HOME (or HOME) under a world-writable dir: postgres made the
# cache dir first, or a symlink in its place to a root-only dir. Root must
# neither write a template there (postgres could change it for root's next
# run) nor follow the link; the run still works (initdb, no cache).
victim3=$T/victim3
mkdir -m 700 "$victim3"
$as_pg mkdir -p "$S/c1" "$S/c2/idxlab"
$as_pg ln -s "$victim3" "$S/c1/idxlab"
$as_pg ln -s "$victim3" "$S/c3"
for c in c1 c2 c3; do
	XDG_CACHE_HOME=$S/$c pgrun >/dev/null 2>"$T/cache-$c.err"
	echo "exit $?" >>"$T/cache-$c.err"
done
if [ -z "$(ls -A "$victim3")" ] && [ -z "$(ls -A "$S/c2/idxlab")" ] &&
	[ "$(cat "$T"/cache-c?.err | grep -c 'exit 0')" = 3 ]; then
	ok rootwalk/template-cache-of-another-user-unused
else bad rootwalk/template-cache-of-another-user-unused "in $victim3: $(ls -A "$victim3"); in $S/c2/idxlab: $(ls -A "$S/c2/idxlab"); $(cat "$T"/cache-c?.err)"; fi
rm -rf "$S/c1" "$S/c2" "$S/c3"

# --- 1. the server's log: root never reads through a link -----------------
echo 'root secret' >"$T/secret"
chmod 600 "$T/secret"
L=$S/idxlab-pg.logln
mkdir -p "$L/data"
echo "$(dead_pid) $here" >"$L/owner.pid"
ln -s "$T/secret" "$L/data/postmaster.pid"
chown -R postgres:postgres "$L"
pgrun >/dev/null 2>"$T/ln.err"
[ ! -e "$L" ] && [ "$(cat "$T/secret")" = 'root secret' ] && ok rootwalk/sweep-reads-no-link ||
	bad rootwalk/sweep-reads-no-link "$(ls -la "$L" 2>&1); $(cat "$T/ln.err")"

# --- 1. a dead server's log: the temp dir swapped for a link meanwhile -----
# postgres owns the running server's temp dir in a sticky TMPDIR, so it can
# rename it and leave a symlink to a root-only dir in its place, then kill
# its server: the message quoting the server's log must not read root's.
mkdir -m 700 "$T/victim4"
echo 'root only log secret' >"$T/victim4/server.log"
pgrun --rows 100000000 >/dev/null 2>"$T/swaplog.err" &
run=$!
# serving: a server in $S has a backend of user idxlab (idxlab works on it).
serving() {
	for f in "$S"/idxlab-pg.*/data/postmaster.pid; do
		p=$(head -1 "$f" 2>/dev/null)
		[ -n "$p" ] && pgrep -P "$p" -f '^postgres: idxlab ' >/dev/null && return 0
	done
	return 1
}
poll 60 serving
# The running server's dir: the one whose postmaster.pid names a live process.
L=""
for f in "$S"/idxlab-pg.*/data/postmaster.pid; do
	kill -0 "$(head -1 "$f" 2>/dev/null)" 2>/dev/null && L=${f%/data/postmaster.pid} && break
done
pm=$(head -1 "$L/data/postmaster.pid" 2>/dev/null)
# idxlab and the server's processes are stopped meanwhile, so idxlab sees
# the server dead and its dir swapped at once (a statistics query answered
# in between failed otherwise).
kill -STOP $run
[ -n "$pm" ] && pkill -STOP -P "$pm" # and its backends: no query is answered meanwhile
[ -n "$L" ] && $as_pg sh -c "mv '$L' '$S/moved' && ln -s '$T/victim4' '$L' && pkill -9 -P $pm; kill -9 $pm"
[ -n "$pm" ] && poll 30 not_alive "$pm"
kill -CONT $run
poll 60 not_alive $run
kill -9 $run 2>/dev/null # it must have ended when its server died
wait $run
if grep -q 'the throwaway PostgreSQL server died' "$T/swaplog.err" &&
	! grep -q 'root only log secret' "$T/swaplog.err"; then
	ok rootwalk/dead-server-log-not-through-link
else bad rootwalk/dead-server-log-not-through-link "$(cat "$T/swaplog.err")"; fi
# The dir in the server's place is not idxlab's: left, and not said removed.
if grep -q 'replaced by something idxlab did not make: left alone' "$T/swaplog.err" &&
	! grep -q 'stopped and removed' "$T/swaplog.err"; then
	ok rootwalk/swapped-dir-not-said-removed
else bad rootwalk/swapped-dir-not-said-removed "$(cat "$T/swaplog.err")"; fi
rm -rf "$L" "$S/moved"

# --- 2. System V shared memory named by a forged postmaster.pid ------------
# shm AS: make a segment as AS (root or postgres) in a process that then
# exits; prints "pid key id".
shm() {
	$1 /usr/bin/python3 -c '
import ctypes, os, random
libc = ctypes.CDLL(None, use_errno=True)
key = random.randint(0x10000000, 0x7fffffff)
shmid = libc.shmget(key, 4096, 0o1600)
print(os.getpid(), key, shmid)'
}
has_shm() { ipcs -m 2>/dev/null | awk -v id="$1" '$2 == id { f = 1 } END { exit !f }'; }
# forged NAME PID KEY ID: a dead idxlab's leftover whose postmaster.pid
# names server pid PID and segment KEY ID.
forged() {
	L=$S/idxlab-pg.$1
	mkdir -p "$L/data"
	echo "$(dead_pid) $here" >"$L/owner.pid"
	printf '%s\n%s\n0\n5432\n%s\n\n%10s %10s\nready\n' "$2" "$L/data" "$S" "$3" "$4" \
		>"$L/data/postmaster.pid"
	chown -R postgres:postgres "$L"
}
set -- $(shm "")
root_id=$3
forged rootseg "$1" "$2" "$3"
set -- $(shm "$as_pg")
pg_id=$3
forged pgseg "$1" "$2" "$3"
set -- $(shm "$as_pg")
other_id=$3
forged otherpid "$(dead_pid)" "$2" "$3" # a postgres segment, but not that server's
if [ "$root_id" -ge 0 ] 2>/dev/null && [ "$pg_id" -ge 0 ] 2>/dev/null && has_shm "$root_id"; then
	pgrun >/dev/null 2>"$T/shm.err"
	if has_shm "$root_id" && grep -q "left the System V shared memory segment $root_id .*alone: it belongs to uid 0" "$T/shm.err"; then
		ok rootwalk/shm-of-another-user-kept
	else bad rootwalk/shm-of-another-user-kept "root's segment $root_id: $(ipcs -m | grep -w "$root_id"); $(cat "$T/shm.err")"; fi
	if has_shm "$other_id" && grep -q "segment $other_id .*alone: it was made by pid" "$T/shm.err"; then
		ok rootwalk/shm-of-another-process-kept
	else bad rootwalk/shm-of-another-process-kept "segment $other_id: $(cat "$T/shm.err")"; fi
	! has_shm "$pg_id" && ok rootwalk/shm-of-dead-server-dropped ||
		bad rootwalk/shm-of-dead-server-dropped "segment $pg_id is still there: $(cat "$T/shm.err")"
else
	skip rootwalk/shm "cannot make System V segments here (ipcs, shmget)"
fi
ipcrm -m "$root_id" 2>/dev/null
ipcrm -m "$other_id" 2>/dev/null
ipcrm -m "$pg_id" 2>/dev/null
[ -z "$(ls -A "$S")" ] && ok rootwalk/leaves-nothing || bad rootwalk/leaves-nothing "$(ls -A "$S")"
