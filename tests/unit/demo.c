/* demo.c - the cases of src/demo.c: demo scripts: the parser, the starting
 * setting in the plan, time, "back", hold and release. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "demo.h"
#include "knobs.h"
#include "recording.h"
#include "unit.h"

/* Demo scripts: the parser, the starting setting in the plan, and time. */
static void test_demo(void)
{
	struct demo dm;
	struct plan p;
	struct err e = { ERR_NONE, "" };
	const struct cue *c;
	char *path = write_file("# a talk\nengine = wiredtiger\nrows = 5000 # small\n\n"
	                        "say one # two\nwait 1.5\nindexes = 2\npin\nwait key\n"
	                        "say\nunpin\n");

	CHECK(demo_load(&dm, path, &e) == 0);
	CHECK(dm.n == 9 && dm.header == 2 && dm.next == 2);
	CHECK(dm.cues[0].kind == CUE_SET && dm.cues[0].knob == K_ENGINE &&
	      dm.cues[0].value == E_WIREDTIGER && dm.cues[0].line == 2);
	CHECK(dm.cues[2].kind == CUE_SAY && strcmp(dm.cues[2].text, "one") == 0 &&
	      dm.cues[2].line == 5);
	CHECK(dm.cues[3].kind == CUE_WAIT && dm.cues[3].seconds == 1.5);
	CHECK(demo_check(&dm, E_WIREDTIGER, &e) == 0);
	/* Time: the say at once, then nothing for 1.5 s, then the knob. */
	c = demo_next(&dm, 100.0);
	CHECK(c && c->kind == CUE_SAY);
	CHECK(demo_next(&dm, 100.0) == NULL);
	CHECK(demo_next(&dm, 101.4) == NULL);
	{
		double left = 0;

		CHECK(demo_waiting(&dm, 101.0, &left) && left > 0.49 && left < 0.51);
	}
	c = demo_next(&dm, 101.5);
	CHECK(c && c->kind == CUE_SET && c->knob == K_INDEXES && c->value == 2);
	c = demo_next(&dm, 101.5);
	CHECK(c && c->kind == CUE_PIN);
	demo_unget(&dm); /* could not pin yet: the same cue again */
	c = demo_next(&dm, 101.6);
	CHECK(c && c->kind == CUE_PIN);
	/* wait key: nothing until Space, however long. */
	CHECK(demo_next(&dm, 1e6) == NULL && !demo_done(&dm));
	CHECK(demo_skip(&dm) == 1);
	c = demo_next(&dm, 1e6);
	CHECK(c && c->kind == CUE_SAY && *c->text == 0);
	c = demo_next(&dm, 1e6);
	CHECK(c && c->kind == CUE_UNPIN && !demo_next(&dm, 1e6) && demo_done(&dm));
	CHECK(demo_skip(&dm) == 0);
	demo_free(&dm);

	/* The starting setting goes into the plan; the command line wins. */
	{
		char *argv[] = { (char *)"idxlab", (char *)"--demo", path, (char *)"--rows=7",
			         NULL };

		CHECK(plan_from_args(&p, 4, argv, &e) == 0 && p.demo);
		CHECK(p.vals[K_ENGINE][0] == E_WIREDTIGER && p.vals[K_ROWS][0] == 7);
		plan_free(&p);
		argv[3] = (char *)"--engine=sqlite,wiredtiger";
		CHECK(plan_from_args(&p, 4, argv, &e) < 0 && strstr(e.msg, "one engine"));
		plan_free(&p);
	}
	unlink(path);

	/* Bad lines name the line. */
	{
		static const struct {
			const char *text, *msg;
		} bad[] = {
			{ "say x\nwait soon\n", ":2: wait takes seconds" },
			{ "say x\nwait 0\n", ":2: wait takes seconds" },
			{ "say x\npin now\n", ":2: 'pin' takes nothing" },
			{ "say x\ndance\n", ":2: 'dance' is not a cue" },
			{ "indxes = 2\nsay x\n",
			  ":1: unknown key 'indxes' (did you mean 'indexes'?)" },
			{ "say x\nindexes = 9\n", ":2: indexes: 9 is out of range" },
			{ "say x\nformat = csv\n", ":2: format is a run option" },
			{ "indexes = 2\n", "has no cue to play" },
		};
		size_t i;

		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			char *f = write_file(bad[i].text);

			CHECK(demo_load(&dm, f, &e) < 0 && e.cls == ERR_USAGE);
			if (!strstr(e.msg, bad[i].msg))
				printf("  demo case %zu: got '%s'\n", i, e.msg);
			CHECK(strstr(e.msg, bad[i].msg) != NULL);
			demo_free(&dm);
			unlink(f);
		}
	}
	/* After the starting setting: only knobs the dashboard changes live,
	 * and only the engine's. */
	{
		char *f = write_file("say x\nengine = postgres\n");

		CHECK(demo_load(&dm, f, &e) == 0 && demo_check(&dm, E_SQLITE, &e) < 0 &&
		      strstr(e.msg, ":2: engine cannot change while the dashboard runs"));
		demo_free(&dm);
		unlink(f);
		f = write_file("say x\nfillfactor = 50\n");
		CHECK(demo_load(&dm, f, &e) == 0 && demo_check(&dm, E_SQLITE, &e) < 0 &&
		      strstr(e.msg, ":2: sqlite has no fillfactor knob"));
		CHECK(demo_check(&dm, E_POSTGRES, &e) == 0);
		demo_free(&dm);
		unlink(f);
	}
}

/* hold / release: parsed, and held from a hold until a release (back
 * included); talk-sqlite.demo holds its table through the captions that talk
 * about the index outgrowing the cache and the cache that undoes it. */
static void demo_hold(void)
{
	char path[4096], talk[4096];
	const char *text = "rows = 5000\nsay one\nhold\nsay two\nrelease\nsay three\n";
	struct demo dm;
	struct knobs k;
	struct err e = { ERR_NONE, "" };
	const struct cue *c;
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-demo.XXXXXX")),
	    held_at_outgrew = -1, held_at_fits = -1, held_at_end = -1;
	int fsync_first = -1;

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK(demo_load(&dm, path, &e) == 0);
	CHECK(dm.cues[2].kind == CUE_HOLD && dm.cues[4].kind == CUE_RELEASE);
	CHECK(!demo_holding(&dm));
	CHECK(!demo_holds_at_start(&dm)); /* released before anything waits */
	CHECK(demo_skip(&dm) == 0);       /* a say is next: nothing waits */
	while ((c = demo_next(&dm, 1)) != NULL && !(c->kind == CUE_SAY && c->text[1] == 'w'))
		;
	CHECK(c && demo_holding(&dm)); /* at "two" */
	c = demo_next(&dm, 1);
	CHECK(c && c->kind == CUE_RELEASE && !demo_holding(&dm));
	(void)demo_next(&dm, 1);
	knobs_defaults(&k);
	CHECK(demo_back(&dm, &k) && demo_holding(&dm)); /* back at "two": held */
	demo_free(&dm);
	/* a word after either is refused, with its line */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "say a\nhold on\n", 14) == 14);
	close(fd);
	CHECK(demo_load(&dm, path, &e) < 0 && strstr(e.msg, ":2:") &&
	      strstr(e.msg, "'hold' takes nothing after it"));
	demo_free(&dm);
	/* held from the start: a hold before the first wait, not one after it */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "rows = 9\nhold\nsay a\nwait key\nrelease\n", 37) == 37);
	close(fd);
	CHECK(demo_load(&dm, path, &e) == 0 && demo_holds_at_start(&dm));
	CHECK(demo_holding(&dm)); /* before its hold is played, as well */
	demo_free(&dm);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "say a\nwait 1\nhold\n", 18) == 18);
	close(fd);
	CHECK(demo_load(&dm, path, &e) == 0 && !demo_holds_at_start(&dm));
	demo_free(&dm);
	unlink(path);

	snprintf(talk, sizeof talk, "%s/../../configs/talk-sqlite.demo", fixtures);
	CHECK(demo_load(&dm, talk, &e) == 0);
	while ((c = demo_next(&dm, 1)) != NULL || demo_skip(&dm)) {
		if (!c)
			continue;
		if (c->kind == CUE_SAY && strstr(c->text, "outgrew"))
			held_at_outgrew = demo_holding(&dm);
		if (c->kind == CUE_SAY && strstr(c->text, "the index fits"))
			held_at_fits = demo_holding(&dm);
		/* the caption that says fsync/c has it as the presenter's first */
		if (c->kind == CUE_SAY && strstr(c->text, "fsync/c"))
			fsync_first =
			    knobs_presenter_metric(demo_figures(&dm), 0) == M_FSYNCS_PER_COMMIT;
	}
	held_at_end = demo_holding(&dm);
	CHECK(held_at_outgrew == 1 && held_at_fits == 1 && held_at_end == 0 && fsync_first == 1);
	demo_free(&dm);
}

/* show FIELDS sets the presenter's figures from its cue on (back too); a
 * recording keeps the view, and reads it back as it was. */
static void demo_show_and_view(void)
{
	char path[4096], rec[4096];
	const char *text = "say one\nshow fsyncs_per_commit,rows_per_s\nsay two\nshow auto\n"
	                   "say three\n";
	struct demo dm;
	struct err e = { ERR_NONE, "" };
	struct rec_item *it = calloc(1, sizeof *it);
	struct recorder *w;
	struct replay *r;
	struct rec_head head;
	long long packed = 0;
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-demo.XXXXXX"));

	CHECK(it && fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK(demo_load(&dm, path, &e) == 0);
	CHECK(dm.cues[1].kind == CUE_SHOW && demo_figures(&dm) == -1);
	CHECK(knob_parse(K_PRESENTER_METRICS, "fsyncs_per_commit,rows_per_s", &packed, &e) == 0);
	(void)demo_next(&dm, 1);
	(void)demo_next(&dm, 1);
	CHECK(demo_figures(&dm) == packed &&
	      knobs_presenter_metric(packed, 0) == M_FSYNCS_PER_COMMIT);
	(void)demo_next(&dm, 1);
	(void)demo_next(&dm, 1);
	CHECK(demo_figures(&dm) == 0); /* auto */
	demo_free(&dm);
	/* Space gives up a pin that waits (put back: it is next) */
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, "say a\npin\nsay b\n", 16) == 16);
	close(fd);
	CHECK(demo_load(&dm, path, &e) == 0);
	(void)demo_next(&dm, 1);
	CHECK(demo_next(&dm, 1) && dm.cues[dm.next - 1].kind == CUE_PIN);
	demo_unget(&dm);
	CHECK(demo_skip(&dm) == 1 && dm.skip);
	demo_free(&dm);
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, "say a\nshow rows_per_s,nope\n", 27) == 27);
	close(fd);
	CHECK(demo_load(&dm, path, &e) < 0 && strstr(e.msg, ":2:") &&
	      strstr(e.msg, "'nope' is not a metric"));
	demo_free(&dm);
	unlink(path);

	/* the view in a recording */
	fd = mkstemp(tmp_path(rec, sizeof rec, "idxlab-unit-rec.XXXXXX"));
	close(fd);
	unlink(rec);
	w = rec_create(rec, "sqlite", "0.1.0", &e);
	CHECK(w != NULL);
	it->kind = REC_VIEW;
	it->presenter = 1;
	it->figures = packed;
	CHECK(w && rec_write(w, it, &e) == 0 && rec_finish(w, &e) == 0);
	memset(it, 0, sizeof *it);
	r = rec_open(rec, &head, &e);
	CHECK(r && rec_read(r, it, &e) == 1 && it->kind == REC_VIEW && it->presenter == 1 &&
	      it->figures == packed);
	rec_close(r);
	unlink(rec);
	free(it);
}

static void test_demo_back(void)
{
	char path[4096];
	const char *text = "rows = 5000\nsay one\nindexes = 2\nwait key\nsay two\n"
	                   "key-order = rand\nsay three\n";
	struct demo dm;
	struct knobs k;
	struct err e = { ERR_NONE, "" };
	const struct cue *c;
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-demo.XXXXXX"));

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK(demo_load(&dm, path, &e) == 0);
	unlink(path);
	knobs_defaults(&k);
	CHECK(demo_back(&dm, &k) == NULL); /* nothing shown yet */
	c = demo_next(&dm, 1);
	CHECK(c && c->kind == CUE_SAY && demo_back(&dm, &k) == NULL); /* the first */
	c = demo_next(&dm, 1);                                        /* indexes = 2 */
	CHECK(demo_skip(&dm));
	while ((c = demo_next(&dm, 1)) != NULL && c->kind != CUE_SAY)
		;
	CHECK(c && strcmp(c->text, "two") == 0);
	while ((c = demo_next(&dm, 1)) != NULL)
		; /* to the end: three */
	CHECK(demo_done(&dm));
	/* Back from "three": "two", with the script's setting then. */
	knobs_defaults(&k);
	c = demo_back(&dm, &k);
	CHECK(c && strcmp(c->text, "two") == 0 && k.v[K_INDEXES] == 2 &&
	      k.v[K_KEY_ORDER] == KO_SEQ);
	CHECK(!demo_done(&dm));
	c = demo_next(&dm, 2);
	CHECK(c && c->kind == CUE_SET && c->knob == K_KEY_ORDER);
	demo_free(&dm);
	demo_hold();
	demo_show_and_view();
}

const struct unit_case unit_demo[] = {
	{ "unit/demo", test_demo },
	{ "unit/demo-back", test_demo_back },
	{ NULL, NULL },
};
