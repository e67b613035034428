/* vfs.h - a counting VFS shim over SQLite's default VFS.
 *
 * sqlite_vfs_register() adds a VFS named "idxlab" that forwards every call to
 * the default (unix) VFS and counts the bytes written to each kind of file:
 * the main database, its rollback journal and its write-ahead log. Counters
 * are cumulative and process-wide (one SQLite engine runs at a time). */
#ifndef IDXLAB_SQLITE_VFS_H
#define IDXLAB_SQLITE_VFS_H

#include <stdint.h>

#define SQLITE_VFS_NAME "idxlab"

enum vfs_kind { VFS_DB, VFS_JOURNAL, VFS_WAL, VFS_OTHER, VFS_KINDS };

struct vfs_counts {
	uint64_t write_bytes[VFS_KINDS];
	uint64_t writes[VFS_KINDS];
	uint64_t syncs[VFS_KINDS]; /* xSync calls (directory syncs are inside these) */
};

/* Register the shim once (idempotent). 0, or an SQLite error code. */
int sqlite_vfs_register(void);

/* Copy the cumulative counters. */
void sqlite_vfs_sample(struct vfs_counts *out);

#endif
