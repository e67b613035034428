/* demo.c - scripted demos: parsing a demo file and keeping its time. */
#include "demo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "conf_line.h"
#include "engines/engine.h"
#include "units.h"
#include "xalloc.h"

#define WAIT_MAX_MS (3600LL * 1000)

/* The first word of s is w (followed by the end or a blank)? *rest: after
 * it, blanks skipped. */
static int word_is(const char *s, const char *w, const char **rest)
{
	size_t n = strlen(w);

	if (strncmp(s, w, n) != 0 || (s[n] && !isspace((unsigned char)s[n])))
		return 0;
	for (s += n; isspace((unsigned char)*s); s++)
		;
	*rest = s;
	return 1;
}

static int cue_line(char *s, int lineno, void *ctx, struct err *e)
{
	struct demo *dm = ctx;
	struct cue c;
	const char *rest;

	memset(&c, 0, sizeof c);
	c.line = lineno;
	if (word_is(s, "say", &rest)) {
		c.kind = CUE_SAY;
		c.text = xstrdup(rest);
	} else if (word_is(s, "wait", &rest)) {
		long long ms;

		if (strcmp(rest, "key") == 0) {
			c.kind = CUE_WAIT_KEY;
		} else if (units_parse_seconds(rest, &ms) == 0 && ms > 0 && ms <= WAIT_MAX_MS) {
			c.kind = CUE_WAIT;
			c.seconds = (double)ms / 1000.0;
		} else {
			return err_set(
			    e, ERR_USAGE,
			    "wait takes seconds (0.001 to 3600: 'wait 5', 'wait 0.5') or "
			    "'key' (until Space), got '%s'",
			    rest);
		}
	} else if (word_is(s, "show", &rest)) {
		c.kind = CUE_SHOW;
		if (knob_parse(K_PRESENTER_METRICS, rest, &c.value, e) < 0)
			return err_prefix(e, "show");
		c.text = xstrdup(rest);
	} else if (word_is(s, "pin", &rest) || word_is(s, "unpin", &rest) ||
	           word_is(s, "hold", &rest) || word_is(s, "release", &rest)) {
		static const char *const names[] = { [CUE_PIN] = "pin",
			                             [CUE_UNPIN] = "unpin",
			                             [CUE_HOLD] = "hold",
			                             [CUE_RELEASE] = "release" };

		c.kind = s[0] == 'p'   ? CUE_PIN
		         : s[0] == 'u' ? CUE_UNPIN
		         : s[0] == 'h' ? CUE_HOLD
		                       : CUE_RELEASE;
		if (*rest)
			return err_set(e, ERR_USAGE, "'%s' takes nothing after it", names[c.kind]);
	} else if (strchr(s, '=')) {
		char *val;

		c.kind = CUE_SET;
		if (knob_read_line(s, &c.knob, &val, e) < 0)
			return -1;
		if (knob_table[c.knob].flags & KF_OPTION)
			return err_set(e, ERR_USAGE,
			               "%s is a run option, not a knob a demo sets (give it on the "
			               "command line)",
			               knob_table[c.knob].name);
		if (knob_parse(c.knob, val, &c.value, e) < 0 ||
		    knob_check(c.knob, c.value, &dm->k, e) < 0)
			return err_prefix(e, "%s", knob_table[c.knob].name);
		dm->k.v[c.knob] = c.value; /* what later cues are checked under */
		c.text = xstrdup(val);
	} else {
		return err_set(
		    e, ERR_USAGE,
		    "'%s' is not a cue: a demo line is 'key = value', 'say TEXT', "
		    "'wait SECONDS', 'wait key', 'pin', 'unpin', 'show FIELDS', 'hold' or "
		    "'release'",
		    s);
	}
	if (c.kind == CUE_SET && dm->header == dm->n)
		dm->header++;
	dm->cues = realloc(dm->cues, sizeof *dm->cues * (size_t)(dm->n + 1));
	if (!dm->cues)
		abort();
	dm->cues[dm->n++] = c;
	return 0;
}

int demo_load(struct demo *dm, const char *path, struct err *e)
{
	memset(dm, 0, sizeof *dm);
	knobs_defaults(&dm->k);
	dm->path = xstrdup(path);
	if (config_read(path, cue_line, dm, e) < 0)
		return err_prefix(e, "demo");
	if (dm->n == dm->header)
		return err_set(e, ERR_USAGE,
		               "demo: %s has no cue to play (say, wait, pin, or a knob after "
		               "one of these)",
		               path);
	dm->next = dm->header;
	return 0;
}

int demo_check(const struct demo *dm, int engine, struct err *e)
{
	int i;

	for (i = dm->header; i < dm->n; i++) {
		const struct cue *c = &dm->cues[i];
		const struct knob_def *d = &knob_table[c->knob];

		if (c->kind != CUE_SET)
			continue;
		if (d->flags & (KF_FIXED | KF_HEADLESS))
			return err_set(
			    e, ERR_USAGE,
			    "demo: %s:%d: %s cannot change while the dashboard runs: set "
			    "it in the lines before the first say/wait/pin",
			    dm->path, c->line, d->name);
		/* not judged on an engine that is not built: opening it says so */
		if (engine_table[engine] && !engine_has_knob(engine, c->knob))
			return err_set(e, ERR_USAGE, "demo: %s:%d: %s has no %s knob", dm->path,
			               c->line, knob_table[K_ENGINE].choices[engine], d->name);
	}
	return 0;
}

const struct cue *demo_next(struct demo *dm, double now)
{
	while (dm->next < dm->n) {
		const struct cue *c = &dm->cues[dm->next];

		if (c->kind == CUE_WAIT) {
			if (!dm->wait_until)
				dm->wait_until = now + c->seconds;
			if (now < dm->wait_until && !dm->skip)
				return NULL;
		} else if (c->kind == CUE_WAIT_KEY) {
			if (!dm->skip)
				return NULL;
		} else {
			dm->next++;
			return c;
		}
		dm->wait_until = 0;
		dm->skip = 0;
		dm->next++;
	}
	return NULL;
}

void demo_unget(struct demo *dm)
{
	if (dm->next > dm->header)
		dm->next--;
}

int demo_skip(struct demo *dm)
{
	enum cue_kind k;

	if (dm->next >= dm->n)
		return 0;
	k = dm->cues[dm->next].kind;
	if (k != CUE_WAIT && k != CUE_WAIT_KEY && k != CUE_PIN)
		return 0;
	dm->skip = 1;
	return 1;
}

int demo_waiting(const struct demo *dm, double now, double *left)
{
	const struct cue *c;

	if (dm->next >= dm->n)
		return 0;
	c = &dm->cues[dm->next];
	if (c->kind == CUE_WAIT_KEY) {
		*left = 0;
		return 1;
	}
	if (c->kind == CUE_WAIT && dm->wait_until) {
		*left = dm->wait_until > now ? dm->wait_until - now : 0;
		return 1;
	}
	return 0;
}

int demo_done(const struct demo *dm)
{
	return dm->next >= dm->n;
}

long long demo_figures(const struct demo *dm)
{
	int i;

	for (i = dm->next - 1; i >= dm->header; i--)
		if (dm->cues[i].kind == CUE_SHOW)
			return dm->cues[i].value;
	return -1;
}

int demo_holding(const struct demo *dm)
{
	int i;

	for (i = dm->next - 1; i >= dm->header; i--)
		if (dm->cues[i].kind == CUE_HOLD || dm->cues[i].kind == CUE_RELEASE)
			return dm->cues[i].kind == CUE_HOLD;
	return demo_holds_at_start(dm); /* before its first hold is played */
}

int demo_holds_at_start(const struct demo *dm)
{
	int i, held = 0;

	for (i = dm->header; i < dm->n; i++) {
		enum cue_kind k = dm->cues[i].kind;

		if (k == CUE_WAIT || k == CUE_WAIT_KEY || k == CUE_PIN)
			break;
		if (k == CUE_HOLD || k == CUE_RELEASE)
			held = k == CUE_HOLD;
	}
	return held;
}

/* The last `say` before cue i, or -1. */
static int say_before(const struct demo *dm, int i)
{
	while (--i >= dm->header)
		if (dm->cues[i].kind == CUE_SAY)
			return i;
	return -1;
}

const struct cue *demo_back(struct demo *dm, struct knobs *k)
{
	int shown = say_before(dm, dm->next), to = shown < 0 ? -1 : say_before(dm, shown), i;

	if (to < 0)
		return NULL;
	for (i = dm->header; i < to; i++)
		if (dm->cues[i].kind == CUE_SET)
			k->v[dm->cues[i].knob] = dm->cues[i].value;
	dm->next = to + 1;
	dm->wait_until = 0;
	dm->skip = 0;
	return &dm->cues[to];
}

void demo_free(struct demo *dm)
{
	int i;

	for (i = 0; i < dm->n; i++)
		free(dm->cues[i].text);
	free(dm->cues);
	free(dm->path);
	memset(dm, 0, sizeof *dm);
}
