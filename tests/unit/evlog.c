/* evlog.c - the cases of src/evlog.c: the event log folds repeats. */
#include <string.h>

#include "evlog.h"
#include "unit.h"

static double fake_now;

static double fake_clock(void *arg)
{
	(void)arg;
	return fake_now;
}

/* evlog: a repeat folds into its line among the last EVLOG_FOLD_BACK (numbers
 * may differ, a name such as idxlab_k1 may not, nor the level); the line
 * keeps its id, shows the latest text and the count, and a reader gets it
 * again under a new seq, once, at its latest repeat. */
static void test_evlog_fold(void)
{
	static struct ev ev[256];
	unsigned long seen, id;
	char buf[EVLOG_LINE + 16];
	size_t n;
	int i;

	n = evlog_since(0, ev, 256);
	seen = n ? ev[n - 1].seq : 0;
	evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 20000);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 1 && ev[0].count == 1 && ev[0].id == ev[0].seq);
	id = ev[0].id;
	seen = ev[0].seq;
	/* WiredTiger's restart: two lines again and again, one folded line each */
	evlog_add(EV_INFO, "fold: previous table: %d log syncs", 25);
	for (i = 0; i < 11; i++) {
		evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 20000);
		evlog_add(EV_INFO, "fold: previous table: %d log syncs", 26 + i);
	}
	n = evlog_since(seen, ev, 256);
	CHECK(n == 2);
	CHECK(n == 2 && ev[0].id == id && ev[0].count == 12 && ev[0].seq > id);
	CHECK(n == 2 && ev[1].count == 12 &&
	      strcmp(ev[1].text, "fold: previous table: 25, 26, 27 ... 36 log syncs") == 0);
	evlog_format(&ev[0], 1, buf, sizeof buf);
	CHECK(strcmp(buf, "fold: the table reached 20000 rows: starting over x12") == 0);
	evlog_format(&ev[0], 0, buf, sizeof buf);
	CHECK(strcmp(buf, "fold: the table reached 20000 rows: starting over \u00d712") == 0);
	seen = ev[n - 1].seq;
	/* a number glued to a name is part of the name */
	evlog_add(EV_INFO, "fold: built idxlab_k1 on %d rows in %.2f s", 0, 0.01);
	evlog_add(EV_INFO, "fold: built idxlab_k2 on %d rows in %.2f s", 0, 0.01);
	evlog_add(EV_INFO, "fold: built idxlab_k1 on %d rows in %.2f s", 5000, 0.02);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 2 && ev[0].count == 1 && strstr(ev[0].text, "idxlab_k2"));
	CHECK(n == 2 && ev[1].count == 2 &&
	      strcmp(ev[1].text, "fold: built idxlab_k1 on 0, 5000 rows in 0.01, 0.02 s") == 0);
	seen = ev[n - 1].seq;
	/* another level is another line; so is a repeat beyond the look-back */
	evlog_add(EV_WARN, "fold: built idxlab_k1 on %d rows in %.2f s", 1, 0.01);
	for (i = 0; i < EVLOG_FOLD_BACK; i++)
		evlog_add(EV_INFO, "fold: other line %c", 'a' + i);
	evlog_add(EV_WARN, "fold: built idxlab_k1 on %d rows in %.2f s", 2, 0.01);
	n = evlog_since(seen, ev, 256);
	CHECK(n == EVLOG_FOLD_BACK + 2 && ev[0].level == EV_WARN && ev[0].count == 1);
	CHECK(n == EVLOG_FOLD_BACK + 2 && ev[n - 1].count == 1 && ev[n - 1].id == ev[n - 1].seq);
	CHECK(strcmp(evlog_level_prefix(&ev[0]), "warning: ") == 0);
	/* on the log's clock: SQLite's "starting over" every ~10 s still folds
	 * (the "starting over x12"); after a minute's quiet a new line */
	seen = ev[n - 1].seq;
	fake_now = 1000;
	evlog_set_clock(fake_clock, NULL);
	for (i = 0; i < 6; i++, fake_now += 10)
		evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 3000);
	fake_now += EVLOG_FOLD_S + 1;
	evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 3000);
	evlog_set_clock(NULL, NULL);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 2 && ev[0].count == 6 && ev[1].count == 1 && ev[1].id != ev[0].id);
}

/* evlog: a fold names every value its line took (issue 21: a cache
 * sweep's restarts at 1024, 2048 and 4096 KiB read "= 1024kB" then
 * "= 4096kB x3", 2048 never named); a value glued to its unit is one
 * number, and a value said again is not listed twice. */
static void test_evlog_fold_values(void)
{
	static struct ev ev[256];
	unsigned long seen;
	size_t n;
	char buf[EVLOG_LINE + 16];

	n = evlog_since(0, ev, 256);
	seen = n ? ev[n - 1].seq : 0;
	evlog_add(EV_INFO, "values: restarting with shared_buffers = %s", "1MiB");
	evlog_add(EV_INFO, "values: restarting with shared_buffers = %s", "2MiB");
	evlog_add(EV_INFO, "values: restarting with shared_buffers = %s", "512KiB");
	evlog_add(EV_INFO, "values: restarting with shared_buffers = %s", "2MiB");
	n = evlog_since(seen, ev, 256);
	CHECK(n == 1 && ev[0].count == 4);
	evlog_format(&ev[0], 1, buf, sizeof buf);
	CHECK(strcmp(buf, "values: restarting with shared_buffers = 1MiB, 2MiB, 512KiB x4") == 0);
	seen = ev[n - 1].seq;
	evlog_add(EV_INFO, "values: the table reached %d rows", 7);
	evlog_add(EV_INFO, "values: the table reached %d rows", 7);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 1 && strcmp(ev[0].text, "values: the table reached 7 rows") == 0);
}

const struct unit_case unit_evlog[] = {
	{ "unit/evlog-fold", test_evlog_fold },
	{ "unit/evlog-fold-values", test_evlog_fold_values },
	{ NULL, NULL },
};
