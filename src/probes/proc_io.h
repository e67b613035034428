/* proc_io.h - /proc/<pid>/io: bytes written by a process.
 *
 * wchar counts every byte handed to write()-family calls (rewrites of the same
 * page included); write_bytes counts bytes the process caused to be sent to
 * the block layer (the kernel absorbs rewrites of still-dirty pages). Both
 * are cumulative. */
#ifndef IDXLAB_PROC_IO_H
#define IDXLAB_PROC_IO_H

#include <stdint.h>
#include <sys/types.h>

struct proc_io {
	uint64_t wchar;
	uint64_t write_bytes;
};

/* Parse the text of a /proc/<pid>/io file. 0, or -1 if a field is missing. */
int proc_io_parse(const char *text, struct proc_io *out);

/* Read /proc/<pid>/io (pid 0: this process). 0 or -1 (errno set). */
int proc_io_read(pid_t pid, struct proc_io *out);

/* This process's bytes less its main thread's: what an embedded engine
 * wrote. idxlab's own output - records, messages, the dashboard's
 * terminal, recordings - is written by the main thread only, and the
 * engine runs in the worker thread and threads of its own (WiredTiger's
 * eviction and log threads), which all count, as do threads that ended.
 * 0 or -1 (errno set). */
int proc_io_read_engine(struct proc_io *out);

#endif
