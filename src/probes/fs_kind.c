/* fs_kind.c - telling a memory file system from a disk. */
#include "fs_kind.h"

#include <sys/vfs.h>

#include "../evlog.h"

#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6

void fs_warn_if_memory(const char *dir)
{
	struct statfs s;

	if (statfs(dir, &s) == 0 &&
	    ((unsigned long)s.f_type == TMPFS_MAGIC_ || (unsigned long)s.f_type == RAMFS_MAGIC_))
		evlog_add(EV_WARN,
		          "fsync is a no-op here: %s is on tmpfs (fsyncs are counted, but cost "
		          "nothing)",
		          dir);
}
