/* messages.c - what WiredTiger says, and what idxlab says about it.
 *
 * The event handler routes WiredTiger's own messages into the event log
 * (never onto the screen) and remembers what explains a later failure (an
 * ENOSPC before a panic); wt_fail() turns an error code into a message that
 * says what to do. */
#include <errno.h>
#include <string.h>

#include "../../evlog.h"
#include "../../units.h"
#include "internal.h"

/* WiredTiger prefixes "[secs:usecs][pid:thread], " - drop it. */
static const char *strip_prefix(const char *m)
{
	const char *p = m;

	while (*p == '[') {
		const char *q = strchr(p, ']');

		if (!q)
			return m;
		p = q + 1;
	}
	if (p != m && p[0] == ',' && p[1] == ' ')
		p += 2;
	return p;
}

static int on_error(WT_EVENT_HANDLER *h, WT_SESSION *session, int error, const char *message)
{
	struct engine *en = (struct engine *)h;

	(void)session;
	if (atomic_load(&en->quiet) && error == EBUSY)
		return 0;
	/* The cause of a panic that follows (a log write that found no room). */
	if (error == ENOSPC)
		atomic_store(&en->first_errno, ENOSPC);
	/* Rollbacks are handled (retried smaller) and reported by the engine. */
	evlog_add(error == WT_ROLLBACK || error == WT_CACHE_FULL ? EV_INFO : EV_WARN,
	          "wiredtiger: %s", strip_prefix(message));
	return 0;
}

static int on_message(WT_EVENT_HANDLER *h, WT_SESSION *session, const char *message)
{
	(void)h;
	(void)session;
	evlog_add(EV_INFO, "wiredtiger: %s", strip_prefix(message));
	return 0;
}

static int on_progress(WT_EVENT_HANDLER *h, WT_SESSION *session, const char *operation,
                       uint64_t progress)
{
	(void)h;
	(void)session;
	(void)operation;
	(void)progress;
	return 0;
}

void wt_events_init(WT_EVENT_HANDLER *h)
{
	h->handle_error = on_error;
	h->handle_message = on_message;
	h->handle_progress = on_progress;
}

int wt_retryable(int rc)
{
	return rc == WT_ROLLBACK || rc == WT_CACHE_FULL;
}

void wt_cache_text(long long bytes, char *buf, size_t len)
{
	units_human((double)bytes, "B", buf, len);
}

/* An error from WiredTiger, with what to do about the common causes. */
int wt_fail(struct engine *en, struct err *e, const char *what, int rc)
{
	char cache[32];

	wt_cache_text(en->cache, cache, sizeof cache);
	switch (rc) {
	case ENOSPC:
		return err_set(e, ERR_RUNTIME,
		               "%s: disk full (ENOSPC) writing %s - free space there or lower "
		               "--rows/--prefill",
		               what, en->home);
	case EACCES:
	case EPERM:
	case EROFS:
		return err_set(e, ERR_RUNTIME,
		               "%s: cannot write %s: %s - choose a writable place with --dsn DIR "
		               "or TMPDIR",
		               what, en->home, wiredtiger_strerror(rc));
	case ENOMEM:
		return err_set(e, ERR_RUNTIME, "%s: out of memory - lower --cache", what);
	case WT_ROLLBACK:
	case WT_CACHE_FULL:
		return err_set(e, ERR_RUNTIME,
		               "%s: WiredTiger rolled back even a one-row transaction: the "
		               "cache (%s) cannot hold what one row changes - raise --cache",
		               what, cache);
	case WT_PANIC:
		if (atomic_load(&en->first_errno) == ENOSPC)
			return err_set(e, ERR_RUNTIME,
			               "%s: the disk holding %s is full, and WiredTiger stopped "
			               "(a panic: the database there is unusable) - free space "
			               "there or lower --rows/--prefill",
			               what, en->home);
		return err_set(e, ERR_RUNTIME,
		               "%s: WiredTiger panicked (see the event log) - the database in %s "
		               "is unusable; is the disk full or failing?",
		               what, en->home);
	default:
		return err_set(e, ERR_RUNTIME, "%s: %s (WiredTiger error %d)", what,
		               wiredtiger_strerror(rc), rc);
	}
}
