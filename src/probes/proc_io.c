/* proc_io.c - reading /proc/<pid>/io. */
#include "proc_io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

/* The value of "name: N" at the start of a line of text. */
static int field(const char *text, const char *name, uint64_t *out)
{
	size_t len = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, name, len) == 0 && p[len] == ':') {
			char *end;

			errno = 0;
			*out = strtoull(p + len + 1, &end, 10);
			if (errno || end == p + len + 1)
				return -1;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int proc_io_parse(const char *text, struct proc_io *out)
{
	if (field(text, "wchar", &out->wchar) < 0 ||
	    field(text, "write_bytes", &out->write_bytes) < 0)
		return -1;
	return 0;
}

/* /proc/<pid>/<file> (pid 0: ourselves), parsed. */
static int read_io(pid_t pid, const char *file, struct proc_io *out)
{
	char buf[1024];

	if (proc_read(pid, file, buf, sizeof buf) <= 0)
		return -1;
	if (proc_io_parse(buf, out) < 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int proc_io_read(pid_t pid, struct proc_io *out)
{
	return read_io(pid, "io", out);
}

int proc_io_read_engine(struct proc_io *out)
{
	struct proc_io all, main_thread;
	char path[64];

	/* The main thread is the one whose thread id is the process id. */
	snprintf(path, sizeof path, "task/%d/io", (int)getpid());
	if (read_io(0, "io", &all) < 0 || read_io(0, path, &main_thread) < 0)
		return -1;
	out->wchar = all.wchar - main_thread.wchar;
	out->write_bytes = all.write_bytes - main_thread.write_bytes;
	return 0;
}
