/* machine.c - the machine and file system a result was measured on
 * (machine.h): the CPU model from /proc/cpuinfo, the kernel from uname,
 * a path's file system and device from /proc/self/mountinfo, matched by
 * the device number stat gives (so a bind mount or a symlinked TMPDIR
 * still finds its own mount). */
#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

const char *machine_cpu(void)
{
	static char model[128];
	static int done;
	char line[512];
	FILE *f;

	if (done)
		return model;
	done = 1;
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');

		/* x86: "model name"; arm64: none, but "CPU part" says little;
		 * some kernels: "Hardware" or "cpu model" */
		if (!colon ||
		    (strncmp(line, "model name", 10) != 0 && strncmp(line, "cpu model", 9) != 0 &&
		     strncmp(line, "Hardware", 8) != 0))
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = 0;
		snprintf(model, sizeof model, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
	return model;
}

const char *machine_kernel(void)
{
	static char text[160];
	struct utsname u;

	if (!text[0] && uname(&u) == 0)
		snprintf(text, sizeof text, "%s %s", u.sysname, u.release);
	return text;
}

/* The st_dev of path or of its nearest existing parent; -1: none. */
static int dev_of(const char *path, dev_t *dev)
{
	char buf[4096];
	struct stat st;
	char *slash;

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return -1;
	for (;;) {
		if (stat(buf, &st) == 0) {
			*dev = st.st_dev;
			return 0;
		}
		slash = strrchr(buf, '/');
		if (!slash)
			return -1;
		if (slash == buf) {
			buf[1] = 0;
		} else {
			*slash = 0;
		}
	}
}

int machine_fs(const char *path, char *type, size_t tlen, char *dev, size_t dlen)
{
	char line[4096];
	dev_t want;
	FILE *f;
	int rc = -1;

	type[0] = dev[0] = 0;
	if (!path || !*path || dev_of(path, &want) < 0)
		return -1;
	f = fopen("/proc/self/mountinfo", "r");
	/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw" */
	while (f && rc < 0 && fgets(line, sizeof line, f)) {
		unsigned ma, mi;
		char fs[64], src[256];
		const char *dash = strstr(line, " - ");

		if (sscanf(line, "%*s %*s %u:%u", &ma, &mi) != 2 || !dash ||
		    makedev(ma, mi) != want || sscanf(dash + 3, "%63s %255s", fs, src) != 2)
			continue;
		snprintf(type, tlen, "%s", fs);
		snprintf(dev, dlen, "%s", src);
		rc = 0;
	}
	if (f)
		fclose(f);
	return rc;
}
