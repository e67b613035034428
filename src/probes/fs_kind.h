/* fs_kind.h - what kind of file system the data lives on.
 *
 * fsync on tmpfs or ramfs returns at once: the fsyncs idxlab counts there
 * cost nothing, and a user should be told before trusting a latency. */
#ifndef IDXLAB_FS_KIND_H
#define IDXLAB_FS_KIND_H

/* Add a warning to the event log when dir is on tmpfs or ramfs. */
void fs_warn_if_memory(const char *dir);

#endif
