/* recording.c - the cases of src/recording.c: what a recording writes is what
 * it reads back; bad files name the line. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "recording.h"
#include "unit.h"

/* Recordings: what is written is what is read back; bad files name the line. */
static void test_recording(void)
{
	static struct rec_item in, out;
	struct rec_head h;
	struct recorder *r;
	struct replay *p;
	struct err e = { ERR_NONE, "" };
	char path[PATH_MAX], name[64];
	FILE *f;

	snprintf(name, sizeof name, "idxlab-unit-%d.rec", (int)getpid());
	tmp_path(path, sizeof path, name);
	unlink(path);
	CHECK((r = rec_create(path, "sqlite", "9.9.9", &e)) != NULL);
	memset(&in, 0, sizeof in);
	in.kind = REC_SAMPLE;
	in.t = 1.5;
	knobs_defaults(&in.live.knobs);
	in.live.knobs.v[K_INDEXES] = 3;
	in.live.knobs.v[K_CACHE] = 1073741824LL;
	in.live.knobs.v[K_KEY_ORDER] = KO_RAND;
	in.live.knobs.dsn = "postgresql://u:secret@h/db";
	in.live.knobs_gen = 4;
	in.live.state = LS_APPLYING;
	snprintf(in.live.activity, sizeof in.live.activity, "building idxlab_k3");
	in.live.activity_t0 = 1.25;
	in.live.table_rows = 123456;
	in.live.c.t = 1.4;
	in.live.c.v[C_ROWS] = 123456;
	in.live.c.v[C_SPILLS] = 99;
	in.live.c.v[C_CACHE_USED] = 1ULL << 40;
	in.live.c.valid = (1u << C_ROWS) | (1u << C_SPILLS) | (1u << C_CACHE_USED);
	hist_add(&in.live.lat.commit, 870000);
	hist_add(&in.live.lat.commit, 5000000);
	hist_add(&in.live.lat.query, 41000); /* a query's: kept apart */
	in.live.sizes.db_bytes = 4096000;
	in.live.sizes.index_bytes = -1;
	in.live.sizes.nindex = 2;
	in.live.sizes.index_pages[1] = 77;
	snprintf(in.live.where, sizeof in.live.where, "/tmp/x/idxlab.db");
	CHECK(rec_write(r, &in, &e) == 0);
	memset(&in.live, 0, sizeof in.live);
	in.kind = REC_EVENT;
	in.t = 2;
	in.level = EV_WARN;
	snprintf(in.text, sizeof in.text, "a \"quoted\" \u25b2 event");
	CHECK(rec_write(r, &in, &e) == 0);
	in.kind = REC_PIN;
	CHECK(rec_write(r, &in, &e) == 0);
	CHECK(rec_finish(r, &e) == 0);
	CHECK(rec_create(path, "sqlite", "9.9.9", &e) == NULL &&
	      strstr(e.msg, "overwrites nothing"));
	{
		char line[4096];
		int secret = 0;

		f = fopen(path, "r");
		while (f && fgets(line, sizeof line, f))
			secret |= strstr(line, "secret") != NULL;
		if (f)
			fclose(f);
		CHECK(!secret); /* the dsn is never written */
	}

	CHECK((p = rec_open(path, &h, &e)) != NULL);
	CHECK(h.version == REC_VERSION && strcmp(h.engine, "sqlite") == 0 &&
	      strcmp(h.idxlab, "9.9.9") == 0);
	CHECK(rec_read(p, &out, &e) == 1 && out.kind == REC_SAMPLE && out.t == 1.5);
	CHECK(out.live.knobs.v[K_INDEXES] == 3 && out.live.knobs.v[K_CACHE] == 1073741824LL &&
	      out.live.knobs.v[K_KEY_ORDER] == KO_RAND && out.live.knobs_gen == 4);
	CHECK(out.live.state == LS_APPLYING &&
	      strcmp(out.live.activity, "building idxlab_k3") == 0 &&
	      out.live.activity_t0 == 1.25 && out.live.table_rows == 123456);
	CHECK(out.live.c.t == 1.4 &&
	      out.live.c.valid == ((1u << C_ROWS) | (1u << C_SPILLS) | (1u << C_CACHE_USED)));
	CHECK(out.live.c.v[C_ROWS] == 123456 && out.live.c.v[C_SPILLS] == 99 &&
	      out.live.c.v[C_CACHE_USED] == 1ULL << 40);
	CHECK(memcmp(&out.live.lat, &(struct live){ 0 }.lat, sizeof out.live.lat) != 0);
	{
		static struct live want;

		memset(&want, 0, sizeof want);
		hist_add(&want.lat.commit, 870000);
		hist_add(&want.lat.commit, 5000000);
		hist_add(&want.lat.query, 41000);
		CHECK(memcmp(&out.live.lat, &want.lat, sizeof want.lat) == 0);
	}
	CHECK(out.live.sizes.db_bytes == 4096000 && out.live.sizes.index_bytes == -1 &&
	      out.live.sizes.nindex == 2 && out.live.sizes.index_pages[1] == 77);
	CHECK(strcmp(out.live.where, "/tmp/x/idxlab.db") == 0);
	CHECK(rec_read(p, &out, &e) == 1 && out.kind == REC_EVENT && out.level == EV_WARN &&
	      strcmp(out.text, "a \"quoted\" \u25b2 event") == 0 && out.t == 2);
	CHECK(rec_read(p, &out, &e) == 1 && out.kind == REC_PIN);
	CHECK(rec_read(p, &out, &e) == 0);
	rec_close(p);

	/* A line cut short, and a file that is no recording. */
	f = fopen(path, "a");
	if (f) {
		fputs("{\"t\":3,\"ev\":\"cut", f);
		fclose(f);
	}
	CHECK((p = rec_open(path, &h, &e)) != NULL);
	while (rec_read(p, &out, &e) > 0)
		;
	CHECK(strstr(e.msg, ".rec:5: not JSON") != NULL);
	rec_close(p);
	f = fopen(path, "w");
	if (f) {
		fputs("indexes = 3\n", f);
		fclose(f);
	}
	CHECK(rec_open(path, &h, &e) == NULL && strstr(e.msg, ":1: not JSON"));
	/* ... which is no recording, not one cut short. */
	CHECK(strstr(e.msg, "not an idxlab recording") != NULL && !strstr(e.msg, "cut short"));
	f = fopen(path, "w");
	if (f) {
		fputs("{\"t\":1}\n", f);
		fclose(f);
	}
	CHECK(rec_open(path, &h, &e) == NULL && strstr(e.msg, ":1: not an idxlab recording"));
	f = fopen(path, "w");
	if (f) {
		fputs("{\"idxlab_recording\":99,\"idxlab\":\"7.0\"}\n", f);
		fclose(f);
	}
	CHECK(rec_open(path, &h, &e) == NULL && strstr(e.msg, "version 99") &&
	      strstr(e.msg, "update idxlab"));
	unlink(path);
}

const struct unit_case unit_recording[] = {
	{ "unit/recording", test_recording },
	{ NULL, NULL },
};
