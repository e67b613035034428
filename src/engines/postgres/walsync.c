/* walsync.c - the throwaway server's WAL syncs by who made them.
 *
 * The counter (src/shim/pg_walsync.c, built as a shared object and carried
 * inside idxlab) is written into the cluster's temp dir as pg_walsync.so,
 * with the file it counts into (walsync.counts, one page, zeroed, the
 * server user's); the server starts with LD_PRELOAD naming the one and
 * IDXLAB_WALSYNC the other. idxlab maps the counts read-only: they are
 * cumulative over the cluster's life (a restart for a new cache keeps the
 * file). As root both are created through the dir's fd, O_EXCL and
 * O_NOFOLLOW (the server user owns the dir), and the counts are mapped
 * through the fd that created them. Any failure leaves the cluster without
 * the counter: its figures are then n/a, nothing else changes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cluster_int.h"

#ifdef PG_WALSYNC_SO
/* The shared object's bytes (the Makefile builds it first and names it). */
extern const unsigned char pgc_walsync_so[], pgc_walsync_so_end[];
__asm__(".section .rodata\n"
        ".balign 16\n"
        ".globl pgc_walsync_so\n"
        "pgc_walsync_so:\n"
        ".incbin \"" PG_WALSYNC_SO "\"\n"
        ".globl pgc_walsync_so_end\n"
        "pgc_walsync_so_end:\n"
        ".previous\n");
#endif

#define COUNTS_BYTES 4096

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

void pgc_walsync_install(struct pg_cluster *c)
{
#ifdef PG_WALSYNC_SO
	static const unsigned char zero[COUNTS_BYTES];
	int so = -1, counts = -1;
	void *map;

	c->walsync = NULL;
	so = openat(c->dir_fd, "pg_walsync.so",
	            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	counts = openat(c->dir_fd, "walsync.counts",
	                O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (so < 0 || counts < 0 ||
	    write_all(so, pgc_walsync_so, (size_t)(pgc_walsync_so_end - pgc_walsync_so)) < 0 ||
	    write_all(counts, zero, sizeof zero) < 0 ||
	    (c->drop && fchown(counts, c->uid, c->gid) < 0))
		goto out;
	map = mmap(NULL, COUNTS_BYTES, PROT_READ, MAP_SHARED, counts, 0);
	if (map == MAP_FAILED)
		goto out;
	c->walsync = map;
	snprintf(c->ws_preload, sizeof c->ws_preload, "LD_PRELOAD=%s/pg_walsync.so", c->dir);
	snprintf(c->ws_counts, sizeof c->ws_counts, "IDXLAB_WALSYNC=%s/walsync.counts", c->dir);
out:
	if (so >= 0)
		close(so);
	if (counts >= 0)
		close(counts);
#else
	c->walsync = NULL;
#endif
}

void pgc_walsync_drop(struct pg_cluster *c)
{
	if (c->walsync)
		munmap((void *)c->walsync, COUNTS_BYTES);
	c->walsync = NULL;
}

int pg_cluster_walsync(const struct pg_cluster *c, uint64_t v[PG_WALSYNC_COUNT])
{
	if (!c || !c->walsync)
		return 0;
	for (int i = 0; i < PG_WALSYNC_COUNT; i++)
		v[i] = __atomic_load_n(&c->walsync[i], __ATOMIC_RELAXED);
	return 1;
}
