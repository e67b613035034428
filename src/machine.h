/* machine.h - what a result needs to be compared with another: the
 * machine it ran on (CPU model, kernel) and the file system under a path.
 * Read from /proc and uname; nothing here prints or fails: what cannot be
 * read is "" (the record's field is then n/a). */
#ifndef IDXLAB_MACHINE_H
#define IDXLAB_MACHINE_H

#include <stddef.h>

/* The CPU's model name (/proc/cpuinfo), "" when none is said. Valid for
 * the process' life; read once. */
const char *machine_cpu(void);

/* The kernel, "Linux 6.1.0-13-amd64" (uname). Valid for the process' life. */
const char *machine_kernel(void);

/* The file system path lies on (path itself, or its nearest existing
 * parent): its type ("ext4", "tmpfs") into type and its device (the
 * mount's source, "/dev/nvme0n1p2") into dev, from /proc/self/mountinfo.
 * -1 (both "") when path is not a local file name or no mount is found. */
int machine_fs(const char *path, char *type, size_t tlen, char *dev, size_t dlen);

#endif
