/* vfs.c - the counting VFS shim.
 *
 * Built the way SQLite's ext/misc/vfsstat.c is: our sqlite3_file embeds the
 * base struct first and holds the real file right behind it; each method
 * forwards to the real one. The kind of a file is decided once, in xOpen,
 * from the SQLITE_OPEN_* flags. Only xWrite and xSync do any accounting. */
#include "vfs.h"

#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>

struct shim_file {
	sqlite3_file base; /* must be first */
	enum vfs_kind kind;
	sqlite3_file *real; /* points just past this struct */
};

static sqlite3_vfs shim_vfs;
static sqlite3_vfs *root;
static atomic_uint_fast64_t c_bytes[VFS_KINDS], c_writes[VFS_KINDS], c_syncs[VFS_KINDS];

#define REAL(f) (((struct shim_file *)(f))->real)

static int x_close(sqlite3_file *f)
{
	int rc = SQLITE_OK;

	if (REAL(f)->pMethods)
		rc = REAL(f)->pMethods->xClose(REAL(f));
	return rc;
}

static int x_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int x_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	struct shim_file *s = (struct shim_file *)f;
	int rc = s->real->pMethods->xWrite(s->real, buf, n, off);

	if (rc == SQLITE_OK) {
		atomic_fetch_add_explicit(&c_bytes[s->kind], (uint64_t)n, memory_order_relaxed);
		atomic_fetch_add_explicit(&c_writes[s->kind], 1, memory_order_relaxed);
	}
	return rc;
}

static int x_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int x_sync(sqlite3_file *f, int flags)
{
	struct shim_file *s = (struct shim_file *)f;

	atomic_fetch_add_explicit(&c_syncs[s->kind], 1, memory_order_relaxed);
	return s->real->pMethods->xSync(s->real, flags);
}

static int x_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int x_lock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xLock(REAL(f), lock);
}

static int x_unlock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), lock);
}

static int x_check_reserved(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int x_file_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int x_sector_size(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int x_device_chars(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int x_shm_map(sqlite3_file *f, int pg, int pgsz, int extend, void volatile **pp)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, pgsz, extend, pp);
}

static int x_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}

static void x_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int x_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int x_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **pp)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, amt, pp);
}

static int x_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods shim_io = {
	.iVersion = 3,
	.xClose = x_close,
	.xRead = x_read,
	.xWrite = x_write,
	.xTruncate = x_truncate,
	.xSync = x_sync,
	.xFileSize = x_file_size,
	.xLock = x_lock,
	.xUnlock = x_unlock,
	.xCheckReservedLock = x_check_reserved,
	.xFileControl = x_file_control,
	.xSectorSize = x_sector_size,
	.xDeviceCharacteristics = x_device_chars,
	.xShmMap = x_shm_map,
	.xShmLock = x_shm_lock,
	.xShmBarrier = x_shm_barrier,
	.xShmUnmap = x_shm_unmap,
	.xFetch = x_fetch,
	.xUnfetch = x_unfetch,
};

static enum vfs_kind kind_of(int flags)
{
	if (flags & SQLITE_OPEN_MAIN_DB)
		return VFS_DB;
	if (flags & SQLITE_OPEN_MAIN_JOURNAL)
		return VFS_JOURNAL;
	if (flags & SQLITE_OPEN_WAL)
		return VFS_WAL;
	return VFS_OTHER;
}

static int x_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
	struct shim_file *s = (struct shim_file *)f;
	int rc;

	(void)vfs;
	s->kind = kind_of(flags);
	s->real = (sqlite3_file *)&s[1];
	rc = root->xOpen(root, name, s->real, flags, out_flags);
	/* Only expose methods when the real file opened: SQLite then calls
	 * xClose, and only then. */
	f->pMethods = s->real->pMethods ? &shim_io : NULL;
	return rc;
}

static int x_delete(sqlite3_vfs *vfs, const char *name, int dirsync)
{
	(void)vfs;
	return root->xDelete(root, name, dirsync);
}

static int x_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	(void)vfs;
	return root->xAccess(root, name, flags, out);
}

static int x_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	return root->xFullPathname(root, name, n, out);
}

static void *x_dl_open(sqlite3_vfs *vfs, const char *name)
{
	(void)vfs;
	return root->xDlOpen(root, name);
}

static void x_dl_error(sqlite3_vfs *vfs, int n, char *msg)
{
	(void)vfs;
	root->xDlError(root, n, msg);
}

static void (*x_dl_sym(sqlite3_vfs *vfs, void *h, const char *sym))(void)
{
	(void)vfs;
	return root->xDlSym(root, h, sym);
}

static void x_dl_close(sqlite3_vfs *vfs, void *h)
{
	(void)vfs;
	root->xDlClose(root, h);
}

static int x_randomness(sqlite3_vfs *vfs, int n, char *out)
{
	(void)vfs;
	return root->xRandomness(root, n, out);
}

static int x_sleep(sqlite3_vfs *vfs, int us)
{
	(void)vfs;
	return root->xSleep(root, us);
}

static int x_current_time(sqlite3_vfs *vfs, double *out)
{
	(void)vfs;
	return root->xCurrentTime(root, out);
}

static int x_get_last_error(sqlite3_vfs *vfs, int n, char *out)
{
	(void)vfs;
	return root->xGetLastError ? root->xGetLastError(root, n, out) : 0;
}

static int x_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out)
{
	(void)vfs;
	return root->xCurrentTimeInt64(root, out);
}

int sqlite_vfs_register(void)
{
	if (root)
		return SQLITE_OK;
	root = sqlite3_vfs_find(NULL);
	if (!root)
		return SQLITE_ERROR;
	shim_vfs = (sqlite3_vfs){
		.iVersion = 2,
		.szOsFile = (int)sizeof(struct shim_file) + root->szOsFile,
		.mxPathname = root->mxPathname,
		.zName = SQLITE_VFS_NAME,
		.xOpen = x_open,
		.xDelete = x_delete,
		.xAccess = x_access,
		.xFullPathname = x_full_pathname,
		.xDlOpen = x_dl_open,
		.xDlError = x_dl_error,
		.xDlSym = x_dl_sym,
		.xDlClose = x_dl_close,
		.xRandomness = x_randomness,
		.xSleep = x_sleep,
		.xCurrentTime = x_current_time,
		.xGetLastError = x_get_last_error,
		.xCurrentTimeInt64 = x_current_time_int64,
	};
	return sqlite3_vfs_register(&shim_vfs, 0);
}

void sqlite_vfs_sample(struct vfs_counts *out)
{
	int i;

	for (i = 0; i < VFS_KINDS; i++) {
		out->write_bytes[i] = atomic_load_explicit(&c_bytes[i], memory_order_relaxed);
		out->writes[i] = atomic_load_explicit(&c_writes[i], memory_order_relaxed);
		out->syncs[i] = atomic_load_explicit(&c_syncs[i], memory_order_relaxed);
	}
}
