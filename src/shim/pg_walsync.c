/* pg_walsync.c - counts a PostgreSQL server's WAL syncs by who made them.
 *
 * Not part of idxlab's binary: built as a shared object, carried inside
 * idxlab (postgres/walsync.c) and preloaded (LD_PRELOAD) into the
 * throwaway server only. pg_stat_wal.wal_sync is one count for the whole
 * server: a one-commit step reads 17 to 79 there (the WAL writer flushing
 * every wal_writer_delay) and a step with a tiny shared_buffers over a
 * thousand (a dirty page may be written out only once the WAL up to it is
 * on disk). Here each fdatasync() of a file under pg_wal/ is counted in
 * one of three slots of a shared file (IDXLAB_WALSYNC names it;
 * idxlab reads it), by what the process was doing, as its own process title
 * says (update_process_title, on in the throwaway server):
 *   commit  a backend running COMMIT ("... [local] COMMIT"): what commits
 *           caused
 *   walwriter  the WAL writer's background flushes
 *   other   everything else: a backend inside a statement (evicting a dirty
 *           buffer, WAL buffers full at a segment's end), the checkpointer,
 *           the background writer, autovacuum
 * The title is the text at the address argv[0] had when the process began:
 * PostgreSQL writes its title over the original argv area on Linux, and
 * every server process is a fork of the postmaster, so the address stays
 * right. Then the real system call is made. The sum of the slots is what
 * pg_stat_wal.wal_sync counts: with wal_sync_method=fdatasync (Linux's
 * default, which idxlab's server sets) a WAL flush is an fdatasync(); the
 * fsync() of a new segment file is not a flush and pg_stat_wal does not
 * count it either. Nothing here may print or allocate. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SLOT_COMMIT, SLOT_WALWRITER, SLOT_OTHER, SLOT_COUNT };

static uint64_t *slots;   /* SLOT_COUNT counters in the shared file */
static const char *title; /* the process title (argv[0]'s area) */

int fdatasync(int fd);

__attribute__((constructor)) static void walsync_init(int argc, char **argv)
{
	const char *path = getenv("IDXLAB_WALSYNC");
	int fd;
	void *p;

	title = argc > 0 ? argv[0] : NULL;
	/* Nothing the server runs (an archive_command) inherits the preload. */
	unsetenv("LD_PRELOAD");
	if (!path)
		return;
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	unsetenv("IDXLAB_WALSYNC");
	if (fd < 0)
		return;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED)
		slots = p;
}

/* Is fd a WAL segment (a file under pg_wal/)? */
static int is_wal(int fd)
{
	char link[64], path[4096];
	ssize_t n;

	if (fd < 0)
		return 0;
	/* the fd's number in decimal, without snprintf (not async-signal-safe) */
	{
		char num[16];
		int i = 0, j = 0, v = fd;

		do
			num[i++] = (char)('0' + v % 10);
		while ((v /= 10) && i < (int)sizeof num);
		memcpy(link, "/proc/self/fd/", 14);
		for (j = 14; i > 0; j++)
			link[j] = num[--i];
		link[j] = 0;
	}
	n = readlink(link, path, sizeof path - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	return strstr(path, "/pg_wal/") != NULL;
}

/* Which slot a sync by this process goes in, from its title. */
static int slot_now(void)
{
	size_t n;

	if (!title)
		return SLOT_OTHER;
	if (strstr(title, "walwriter"))
		return SLOT_WALWRITER;
	n = strlen(title);
	while (n && title[n - 1] == ' ')
		n--;
	if (n >= 7 && memcmp(title + n - 7, " COMMIT", 7) == 0)
		return SLOT_COMMIT;
	return SLOT_OTHER;
}

static void count(int fd)
{
	if (slots && is_wal(fd))
		__atomic_fetch_add(&slots[slot_now()], 1, __ATOMIC_RELAXED);
}

int fdatasync(int fd)
{
	count(fd);
	return (int)syscall(SYS_fdatasync, fd);
}
