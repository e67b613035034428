/* sync_count.h - exact count of fsync/fdatasync calls made by this process.
 *
 * sync_count.c defines fsync() and fdatasync() in the executable. Shared
 * libraries (libsqlite3 and the rest) bind to them through their PLT, so
 * every call - including the directory syncs SQLite's unix VFS makes on its
 * own - is counted here and then issued as the real system call. The count
 * therefore equals what `strace -f -c -e trace=fsync,fdatasync` reports. */
#ifndef IDXLAB_SYNC_COUNT_H
#define IDXLAB_SYNC_COUNT_H

#include <stdint.h>

/* Cumulative fsync + fdatasync calls since the process started. */
uint64_t sync_count_total(void);

#endif
