/* sync_count.c - interposed fsync()/fdatasync() that count, then sync.
 *
 * The real work is the raw system call, so no dlsym(RTLD_NEXT) lookup or
 * recursion is involved. Counting is one relaxed atomic add: cheap enough to
 * stay on even when the other probes are off. */
#include "sync_count.h"

#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

static atomic_uint_fast64_t syncs;

int fsync(int fd);
int fdatasync(int fd);

int fsync(int fd)
{
	atomic_fetch_add_explicit(&syncs, 1, memory_order_relaxed);
	return (int)syscall(SYS_fsync, fd);
}

int fdatasync(int fd)
{
	atomic_fetch_add_explicit(&syncs, 1, memory_order_relaxed);
	return (int)syscall(SYS_fdatasync, fd);
}

uint64_t sync_count_total(void)
{
	return atomic_load_explicit(&syncs, memory_order_relaxed);
}
