/* feed_replay.c - the cases of src/ui/feed_replay.c: seeking in a
 * recording: the outline (its length and knob changes), where "next/previous
 * change" lands, and a replay feed sought there: its snapshots, its news and
 * its events on the recording's clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evlog.h"
#include "recording.h"
#include "ui/feed.h"
#include "ui/history.h"
#include "unit.h"

/* A 40 s recording: a sample every 0.5 s, indexes 0, then 1 from t=12 and
 * 2 from t=30 (each announced by an event), a caption at 1 and 20, a pin
 * at 22. */
static int write_talk(const char *path)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return -1;
	fprintf(f, "{\"idxlab_recording\":1,\"idxlab\":\"0.1.0\",\"engine\":\"sqlite\"}\n");
	for (i = 0; i <= 80; i++) {
		double t = i * 0.5;
		int ix = t >= 30 ? 2 : t >= 12 ? 1 : 0;

		if (t == 12 || t == 30)
			fprintf(f, "{\"t\":%.1f,\"ev\":\"built idxlab_k%d\",\"level\":\"info\"}\n",
			        t, ix);
		if (t == 1 || t == 20)
			fprintf(f, "{\"t\":%.0f,\"caption\":\"%s\"}\n", t, t == 1 ? "one" : "two");
		if (t == 22)
			fprintf(f, "{\"t\":22,\"pin\":true}\n");
		fprintf(f,
		        "{\"t\":%.1f,\"knobs_gen\":%d,\"knobs\":{\"indexes\":\"%d\"},"
		        "\"c\":{\"t\":%.1f,\"rows\":%d}}\n",
		        t, ix + 1, ix, t, i * 1000);
	}
	return fclose(f);
}

static void test_outline(const char *path)
{
	struct rec_outline o;
	struct err e = { ERR_NONE, "" };

	CHECK(rec_outline(path, &o, &e) == 0);
	CHECK(o.first == 0 && o.end == 40 && o.nchanges == 2);
	if (o.nchanges == 2)
		CHECK(o.changes[0] == 12 && o.changes[1] == 30);
	CHECK(rec_change_near(&o, 0, 1, 0) == 0);
	CHECK(rec_change_near(&o, 12, 1, 0) == 1); /* at a change: the next one */
	CHECK(rec_change_near(&o, 30, 1, 0) == -1);
	CHECK(rec_change_near(&o, 30.5, -1, 1) == 0); /* just after one: the one before */
	CHECK(rec_change_near(&o, 31.5, -1, 1) == 1);
	CHECK(rec_change_near(&o, 12.5, -1, 1) == -1);
	rec_outline_free(&o);
	rec_outline_free(NULL);
	CHECK(rec_outline("/nonexistent/x.rec", &o, &e) < 0 && strstr(e.msg, "/nonexistent"));
	rec_outline_free(&o);
}

/* Poll until nothing more is due now; the news of every poll or'ed. */
static int drain(struct feed *f, struct live *l, struct feed_news *all)
{
	struct feed_news n;
	int polls = 0, played = 0;

	memset(all, 0, sizeof *all);
	do {
		memset(&n, 0, sizeof n);
		f->ops->poll(f, l, &n);
		all->rewound |= n.rewound;
		all->pin |= n.pin;
		if (n.caption) {
			all->caption = 1;
			memcpy(all->text, n.text, sizeof all->text);
		}
		played += n.played;
		polls++;
	} while (n.more && polls < 1000);
	return played;
}

/* The time of the last event that reads text, or -1. */
static double event_t(unsigned long after, const char *text)
{
	static struct ev evs[256];
	size_t n = evlog_since(after, evs, 256), i;
	double t = -1;

	for (i = 0; i < n; i++)
		if (strcmp(evs[i].text, text) == 0)
			t = evs[i].t;
	return t;
}

static unsigned long last_seq(void)
{
	static struct ev evs[256];
	size_t n = evlog_since(0, evs, 256);

	return n ? evs[n - 1].seq : 0;
}

static void test_replay_seek(void)
{
	char dir[4096], path[4160], msg[160];
	struct live *l = calloc(1, sizeof *l);
	struct knobs first;
	struct feed *f = NULL;
	struct feed_news all;
	struct err e = { ERR_NONE, "" };
	unsigned long seen;
	int i;

	if (!l || !mkdtemp(tmp_path(dir, sizeof dir, "idxlab-unit.XXXXXX"))) {
		CHECK(0);
		free(l);
		return;
	}
	snprintf(path, sizeof path, "%s/talk.rec", dir);
	CHECK(write_talk(path) == 0);
	test_outline(path);

	CHECK(feed_replay_open(&f, path, &first, &e) == 0 && f && f->ops->seek);
	if (!f) {
		free(l);
		return;
	}
	for (i = 0; i < 3; i++) /* 8x: a recorded time stays itself */
		f->ops->speed(f, 1, msg, sizeof msg);
	CHECK(f->speed == 8);
	f->ops->pause(f, 1);
	CHECK(drain(f, l, &all) == 1 && l->knobs.v[K_INDEXES] == 0); /* the sample at 0 */

	/* Next change: at 12, the knobs that came then, the event at its
	 * recorded time; the catch-up plays every sample up to it. */
	seen = last_seq();
	f->ops->seek(f, FEED_NEXT_CHANGE, msg, sizeof msg);
	CHECK(strstr(msg, "00:12 / 00:40") != NULL);
	CHECK(drain(f, l, &all) == 25 && all.rewound && l->knobs.v[K_INDEXES] == 1);
	CHECK(all.caption && strcmp(all.text, "one") == 0 && !all.pin);
	CHECK(event_t(seen, "built idxlab_k1") == 12.0);
	CHECK(strstr(f->tag, "REPLAY 8x 00:12 / 00:40") != NULL);
	CHECK(fabs(f->ops->now(f) - l->c.t) < 1e-6); /* paused at the sample's time */

	/* Again: at 30, past the caption at 20 and the pin at 22. */
	f->ops->seek(f, FEED_NEXT_CHANGE, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 61 && all.rewound && l->knobs.v[K_INDEXES] == 2);
	CHECK(all.caption && strcmp(all.text, "two") == 0 && all.pin);
	f->ops->seek(f, FEED_NEXT_CHANGE, msg, sizeof msg); /* none after 30 */
	CHECK(strstr(msg, "no knob change after 00:30") != NULL);
	CHECK(drain(f, l, &all) == 0 && !all.rewound);

	/* Back: 10 s (while paused, at 8x: 10 s of the recording), the
	 * change before (a press just after one goes to the one before). */
	f->ops->seek(f, FEED_BACK, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 41 && fabs(f->ops->now(f) - l->c.t) < 1e-6);
	CHECK(strstr(f->tag, "00:20 / 00:40") && l->knobs.v[K_INDEXES] == 1 && !all.pin);
	f->ops->seek(f, FEED_PREV_CHANGE, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 25 && strstr(f->tag, " 00:12 / ") != NULL);
	f->ops->seek(f, FEED_PREV_CHANGE, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 1 && strstr(f->tag, " 00:00 / ") != NULL);
	CHECK(l->knobs.v[K_INDEXES] == 0 && !f->over);

	/* On past the end: the end, said once. */
	seen = last_seq();
	for (i = 0; i < 5; i++)
		f->ops->seek(f, FEED_ON, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 81 && f->over && strstr(f->tag, "00:40 / 00:40"));
	CHECK(event_t(seen, "built idxlab_k2") == 30.0 &&
	      event_t(seen, "the recording is over: q quits, Home plays it again") == 40);
	f->ops->seek(f, FEED_START, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 1 && !f->over && strstr(f->tag, "00:00 / 00:40"));
	f->ops->close(f);
	free(l);
	unlink(path);
	rmdir(dir);
}

/* A long recording: a seek reads again only what the history reaches back
 * to (151 s at 1x) or the baseline in force needs; the events and the
 * caption before that come from the outline, at their recorded times. */
static void test_replay_seek_long(void)
{
	char dir[4096], path[4160], msg[160];
	struct live *l = calloc(1, sizeof *l);
	struct knobs first;
	struct feed *f = NULL;
	struct feed_news all;
	struct err e = { ERR_NONE, "" };
	unsigned long seen;
	FILE *out;
	int i;

	if (!l || !mkdtemp(tmp_path(dir, sizeof dir, "idxlab-unit.XXXXXX"))) {
		CHECK(0);
		free(l);
		return;
	}
	snprintf(path, sizeof path, "%s/long.rec", dir);
	out = fopen(path, "w");
	CHECK(out != NULL);
	if (!out) {
		free(l);
		return;
	}
	fprintf(out, "{\"idxlab_recording\":1}\n");
	for (i = 0; i <= 800; i++) { /* 400 s; changes at 100 and 350, a pin at 320 */
		double t = i * 0.5;

		if (i % 20 == 0)
			fprintf(out, "{\"t\":%.1f,\"ev\":\"e%d\"}\n", t, i / 2);
		if (t == 5)
			fprintf(out, "{\"t\":5,\"caption\":\"c1\"}\n");
		if (t == 320)
			fprintf(out, "{\"t\":320,\"pin\":true}\n");
		fprintf(out, "{\"t\":%.1f,\"knobs_gen\":%d,\"c\":{\"t\":%.1f}}\n", t,
		        t >= 350   ? 3
		        : t >= 100 ? 2
		                   : 1,
		        t);
	}
	CHECK(fclose(out) == 0);
	CHECK(feed_replay_open(&f, path, &first, &e) == 0 && f);
	if (!f) {
		free(l);
		return;
	}
	f->ops->pause(f, 1);
	f->ops->seek(f, FEED_NEXT_CHANGE, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 201 && strstr(f->tag, "01:40 / 06:40"));
	seen = last_seq();
	f->ops->seek(f, FEED_NEXT_CHANGE, msg, sizeof msg);
	CHECK(drain(f, l, &all) == 303 && all.rewound && all.pin && strstr(f->tag, "05:50 / "));
	CHECK(all.caption && strcmp(all.text, "c1") == 0 && l->knobs_gen == 3);
	CHECK(event_t(seen, "e10") == 10 && event_t(seen, "e190") == 190 &&
	      event_t(seen, "e350") == 350 && event_t(seen, "e360") < 0);
	f->ops->close(f);
	free(l);
	unlink(path);
	rmdir(dir);
}

/* A seek plays again the events before its position, each once: back and
 * on by 10 s, and to the next change, none of them comes out as a fold
 * of itself ("x2", then "x3") with the lines shown before the seek. */
static void test_replay_seek_events_once(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], path[600], msg[160];
	struct live *l = calloc(1, sizeof *l);
	struct knobs first;
	struct feed *f = NULL;
	struct feed_news all;
	struct err e = { ERR_NONE, "" };
	static const enum feed_seek seeks[] = { FEED_NEXT_CHANGE, FEED_ON,   FEED_BACK,
		                                FEED_ON,          FEED_BACK, FEED_NEXT_CHANGE,
		                                FEED_BACK,        FEED_ON,   FEED_START };
	size_t i;

	snprintf(dir, sizeof dir, "%s/idxlab-unit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!l || !mkdtemp(dir)) {
		CHECK(0);
		free(l);
		return;
	}
	snprintf(path, sizeof path, "%s/talk.rec", dir);
	CHECK(write_talk(path) == 0);
	CHECK(feed_replay_open(&f, path, &first, &e) == 0 && f);
	if (!f) {
		free(l);
		return;
	}
	f->ops->pause(f, 1);
	drain(f, l, &all);
	for (i = 0; i < sizeof seeks / sizeof seeks[0]; i++) {
		static struct ev evs[256];
		unsigned long seen = last_seq();
		size_t n, j, k1 = 0, twice = 0;

		f->ops->seek(f, seeks[i], msg, sizeof msg);
		drain(f, l, &all);
		CHECK(all.rewound);
		n = evlog_since(seen, evs, 256);
		for (j = 0; j < n; j++) {
			k1 += strcmp(evs[j].text, "built idxlab_k1") == 0;
			twice += evs[j].count > 1;
		}
		if (twice || k1 != (strstr(f->tag, " 00:00 / ") ? 0u : 1u))
			printf("  after seek %zu (%s): %zu folded, %zu idxlab_k1 lines\n", i,
			       f->tag, twice, k1);
		CHECK(twice == 0);
		CHECK(k1 == (strstr(f->tag, " 00:00 / ") ? 0u : 1u));
	}
	f->ops->close(f);
	free(l);
	unlink(path);
	rmdir(dir);
}

const struct unit_case unit_ui_feed_replay[] = {
	{ "unit/replay-seek", test_replay_seek },
	{ "unit/replay-seek-long", test_replay_seek_long },
	{ "unit/replay-seek-events-once", test_replay_seek_events_once },
	{ NULL, NULL },
};
