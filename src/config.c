/* config.c - argv and config files into a plan.
 *
 * Config files are `key = value` lines; `#` starts a comment at the start of
 * a line or after whitespace (so a dsn may still hold '#'); blank lines are
 * ignored. Keys are knob names. Every error names the file and line, the key
 * and the valid values, and nothing is half-applied: the caller exits. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"
#include "mix.h"
#include "redact.h"
#include "schema.h"
#include "schema_from.h"
#include "xalloc.h"

static void plan_defaults(struct plan *p)
{
	struct knobs k;
	int i;

	memset(p, 0, sizeof *p);
	knobs_defaults(&k);
	for (i = 0; i < K_COUNT; i++) {
		p->n[i] = 1;
		p->vals[i][0] = k.v[i];
	}
	p->dsn = xstrdup("");
}

/* Knobs whose range depends on the table (indexes: its index count) within
 * it, for every table of the plan: checked once everything is read, so the
 * order of --schema and --indexes does not matter; an error names where the
 * value was given (p->where: the option, or the config file's line). */
static int check_dependent(const struct plan *p, struct err *e)
{
	struct knobs k;
	int id, i, j;

	knobs_defaults(&k);
	for (id = 0; id < K_COUNT; id++)
		for (i = 0; knob_table[id].max_of && i < p->n[id]; i++)
			for (j = 0; j < p->n[K_SCHEMA]; j++) {
				k.v[K_SCHEMA] = p->vals[K_SCHEMA][j];
				if (knob_check(id, p->vals[id][i], &k, e) < 0)
					return *p->where[id]
					           ? err_prefix(e, "%s", p->where[id])
					           : err_prefix(e, "%s", knob_table[id].name);
			}
	for (i = 0; i < p->n[K_QUERIES]; i++) /* names the tables' query lines */
		for (j = 0; j < p->n[K_SCHEMA]; j++) {
			const struct schema *s = schema_get(p->vals[K_SCHEMA][j]);

			if (s && schema_queries_check(s, p->vals[K_QUERIES][i], e) < 0)
				return err_prefix(e, "%s", p->where[K_QUERIES]);
		}
	if (p->set[K_READ_SHARE] && p->set[K_MIX] && p->vals[K_MIX][0])
		return err_set(e, ERR_USAGE, "%s and %s: give --mix or --read-share, not both",
		               p->where[K_READ_SHARE], p->where[K_MIX]);
	if (p->set[K_OP] && p->set[K_MIX] && p->vals[K_MIX][0])
		return err_set(e, ERR_USAGE,
		               "%s and %s: a mix names its ops - give --mix or --op, not both",
		               p->where[K_OP], p->where[K_MIX]);
	/* op update on a table with no column it may change (hot none) */
	for (i = 0; i < p->n[K_OP]; i++)
		for (j = 0; p->vals[K_OP][i] == OP_UPDATE && j < p->n[K_SCHEMA]; j++) {
			const struct schema *s = schema_get(p->vals[K_SCHEMA][j]);
			int cols[SCHEMA_COLS_MAX];

			if (s && !schema_has_hot(s) && !schema_op_cols(s, OP_UPDATE, cols))
				return err_set(e, ERR_USAGE, "--op update: %s",
				               schema_no_update_why(s));
		}
	return 0;
}

/* A KF_REPEAT knob given again in the same place (where[id] starts with
 * place: "--", a config file's "path:") adds text to its list: the text
 * to set, in buf when joined. */
static const char *repeated(const struct plan *p, int id, const char *text, const char *place,
                            char *buf, size_t len)
{
	size_t n;

	if (!(knob_table[id].flags & KF_REPEAT) || !p->set[id] || !p->vals[id][0] ||
	    strncmp(p->where[id], place, strlen(place)) != 0)
		return text;
	knob_format(id, p->vals[id][0], buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, ",%s", text);
	return buf;
}

/* plan_set, with the place the value came from: errors are prefixed with
 * it, and it is kept for check_dependent. */
static int set_at(struct plan *p, int id, const char *text, const char *where, struct err *e)
{
	char buf[1024];

	if (strncmp(where, "--", 2) == 0)
		text = repeated(p, id, text, "--", buf, sizeof buf);
	if (plan_set(p, id, text, e) < 0)
		return err_prefix(e, "%s", where);
	snprintf(p->where[id], sizeof p->where[id], "%s", where);
	return 0;
}

/* --schema-from SOURCE:TABLE: the spec read from the user's table is the
 * schema knob's one value (a comma in a conninfo is no sweep). */
static int set_schema_from(struct plan *p, const char *text, struct err *e)
{
	long long v;

	if (schema_from_load(text, &v, e) < 0)
		return -1;
	p->vals[K_SCHEMA][0] = v;
	p->n[K_SCHEMA] = 1;
	p->set[K_SCHEMA] = 1;
	snprintf(p->where[K_SCHEMA], sizeof p->where[K_SCHEMA], "--schema-from");
	return 0;
}

int plan_set(struct plan *p, int id, const char *text, struct err *e)
{
	const struct knob_def *d = &knob_table[id];
	long long vals[PLAN_MAX_VALUES];
	char *copy, *item, *next;
	int n = 0, rc = 0;

	if (d->kind == KNOB_STRING) {
		/* One line of text, so --print-config can write it back. */
		for (const char *c = text; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return err_set(e, ERR_USAGE,
				               "'%s' holds a control character (byte %d): write it "
				               "without one",
				               text, (int)(c - text) + 1);
		free(p->dsn);
		p->dsn = xstrdup(text);
		redact_learn(text); /* no message may show its password */
		p->set[id] = 1;
		return 0;
	}
	if (!*text)
		return err_set(e, ERR_USAGE, "a value is needed");
	if (d->flags & KF_NOSWEEP && !(d->flags & KF_LIST) && strchr(text, ','))
		return err_set(e, ERR_USAGE, "takes one value, not a list");
	copy = xstrdup(text);
	for (next = copy; (item = strsep(&next, d->flags & KF_LIST ? "" : ","));) {
		while (isspace((unsigned char)*item))
			item++;
		for (char *end = item + strlen(item);
		     end > item && isspace((unsigned char)end[-1]);)
			*--end = 0;
		if (!*item) {
			rc = strchr(text, ',') ? err_set(e, ERR_USAGE,
			                                 "an empty item in the list '%s': write a "
			                                 "value between every two commas",
			                                 text)
			                       : err_set(e, ERR_USAGE, "a value is needed");
			break;
		}
		if (n == PLAN_MAX_VALUES) {
			rc =
			    err_set(e, ERR_USAGE, "at most %d values in one list", PLAN_MAX_VALUES);
			break;
		}
		if (knob_parse(id, item, &vals[n], e) < 0) {
			rc = -1;
			break;
		}
		n++;
	}
	free(copy);
	if (rc == 0) {
		memcpy(p->vals[id], vals, sizeof vals[0] * (size_t)n);
		p->n[id] = n;
		p->set[id] = 1;
	}
	return rc;
}

/* One config file line: a knob of p. */
static int plan_line(char *s, int lineno, void *ctx, struct err *e)
{
	struct plan *p = ctx;
	char *val, where[sizeof p->where[0]], buf[1024];
	const char *text;
	int id;

	if (knob_read_line(s, &id, &val, e) < 0)
		return -1;
	snprintf(where, sizeof where, "%s:", p->reading);
	text = repeated(p, id, val, where, buf, sizeof buf);
	if (plan_set(p, id, text, e) < 0)
		return err_prefix(e, "%s", knob_table[id].name); /* config_read adds file:line */
	snprintf(where, sizeof where, "%s:%d: %s", p->reading, lineno, knob_table[id].name);
	snprintf(p->where[id], sizeof p->where[id], "%s", where);
	return 0;
}

int plan_load_file(struct plan *p, const char *path, struct err *e)
{
	if (access(path, R_OK) < 0)
		return err_set(e, ERR_USAGE, "cannot read config file %s: %s", path,
		               strerror(errno));
	p->reading = path;
	if (config_read(path, plan_line, p, e) < 0)
		return -1;
	free(p->config_path);
	p->config_path = xstrdup(path);
	return 0;
}

/* The default config file, if the user has one; NULL otherwise. */
static char *default_config_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char buf[4096];

	if (xdg && *xdg) {
		snprintf(buf, sizeof buf, "%s/idxlab/idxlab.conf", xdg);
		if (access(buf, R_OK) == 0)
			return xstrdup(buf);
	}
	if (home && *home) {
		snprintf(buf, sizeof buf, "%s/.config/idxlab/idxlab.conf", home);
		if (access(buf, R_OK) == 0)
			return xstrdup(buf);
	}
	return NULL;
}

/* Is text an on/off word, or a comma list of them (a sweep)? */
static int bool_words(const char *text)
{
	size_t n;

	do {
		n = strcspn(text, ",");
		if (knob_bool_word(text, n) < 0)
			return 0;
		text += n;
	} while (*text++ == ',');
	return 1;
}

static int unknown_option(const char *arg, struct err *e)
{
	char name[128];
	const char *hint;

	snprintf(name, sizeof name, "%s", arg + (arg[1] == '-' ? 2 : 1));
	name[strcspn(name, "=")] = 0;
	hint = knob_closest(name);
	if (hint)
		return err_set(e, ERR_USAGE, "unknown option '%s' (did you mean --%s?)", arg, hint);
	return err_set(e, ERR_USAGE, "unknown option '%s' (idxlab --help lists them)", arg);
}

/* argv[*i] is the file option long/short (-c/--config, --demo)? *file: its
 * file name (from "--opt=FILE" or the next argument, *i then moves on). */
static int file_option(int argc, char **argv, int *i, const char *longopt, const char *shortopt,
                       const char **file, struct err *e)
{
	const char *a = argv[*i];
	size_t n = strlen(longopt);

	if (strcmp(a, longopt) == 0 || (shortopt && strcmp(a, shortopt) == 0)) {
		if (*i + 1 >= argc)
			return err_set(e, ERR_USAGE, "%s needs a file name", a);
		*file = argv[++*i];
		return 1;
	}
	if (strncmp(a, longopt, n) == 0 && a[n] == '=') {
		*file = a + n + 1;
		return 1;
	}
	return 0;
}

/* The options that hold a text of the plan's own (not knobs: no config
 * file sets them). */
static const struct text_option {
	const char *name;
	size_t at; /* offsetof(struct plan, the char * it fills) */
	const char *needs;
} text_options[] = {
	{ "--record", offsetof(struct plan, record_path), "a file name" },
	{ "--replay", offsetof(struct plan, replay_path), "a file name" },
	{ "--plot", offsetof(struct plan, plot_path), "a file name (.svg, .png or .pdf)" },
	{ "--plot-metrics", offsetof(struct plan, plot_metrics),
	  "a list of field names (rows_per_s,p99_ms)" },
	{ "--plot-x", offsetof(struct plan, plot_x), "a swept knob's name (e.g. indexes)" },
	{ "--plot-kind", offsetof(struct plan, plot_kind), "auto, sweep or time" },
	{ "--plot-theme", offsetof(struct plan, plot_theme), "light or dark" },
	{ "--fields", offsetof(struct plan, fields), "a list of field names (rows_per_s,p99_ms)" },
	{ "--compare", offsetof(struct plan, compare_path), "a saved run's CSV or JSON file" },
	{ "--compare-new", offsetof(struct plan, compare_new), "a saved run's CSV or JSON file" },
	{ "--baseline", offsetof(struct plan, baseline_path),
	  "a saved run's CSV or JSON file, or a recording" },
};

/* argv[*i] is one of text_options? Then its text is kept: 1 (0: it is
 * not; -1: its value is missing). */
static int text_option(int argc, char **argv, int *i, struct plan *p, struct err *e)
{
	const char *text;
	size_t j;
	int got;

	for (j = 0; j < sizeof text_options / sizeof text_options[0]; j++) {
		const struct text_option *o = &text_options[j];
		char **to = (char **)((char *)p + o->at);

		if ((got = file_option(argc, argv, i, o->name, NULL, &text, e)) == 0)
			continue;
		if (got < 0)
			return err_set(e, ERR_USAGE, "%s needs %s", o->name, o->needs);
		free(*to);
		*to = xstrdup(text);
		return 1;
	}
	return 0;
}

/* The demo's starting setting goes into the plan like a config file's. */
static int load_demo(struct plan *p, const char *path, struct err *e)
{
	int i;

	p->demo = calloc(1, sizeof *p->demo);
	if (!p->demo)
		abort();
	if (demo_load(p->demo, path, e) < 0)
		return -1;
	for (i = 0; i < p->demo->header; i++) {
		const struct cue *c = &p->demo->cues[i];
		char where[sizeof p->where[0]];

		snprintf(where, sizeof where, "demo: %s:%d: %s", path, c->line,
		         knob_table[c->knob].name);
		if (set_at(p, c->knob, c->text, where, e) < 0)
			return -1;
	}
	return 0;
}

/* argv as it was, into p->args; then every secret in argv masked, for ps
 * and /proc/PID/cmdline show argv for the whole run (a conninfo or URI
 * comes with --dsn and --schema-from, and whatever holds one is masked:
 * "--opt=VALUE" from its value on, so a URI value reads as a whole). The
 * secrets are learnt first: no message may show them either. */
static char **keep_args(struct plan *p, int argc, char **argv)
{
	int i;

	p->args = calloc((size_t)argc + 1, sizeof *p->args);
	if (!p->args)
		abort();
	p->nargs = argc;
	for (i = 0; i < argc; i++)
		p->args[i] = xstrdup(argv[i]);
	for (i = 1; i < argc; i++) {
		char *v = argv[i], *eq = strchr(v, '=');

		if (v[0] == '-' && v[1] == '-' && eq)
			v = eq + 1;
		redact_learn(v);
		redact_in_place(v);
	}
	return p->args;
}

int plan_from_args(struct plan *p, int argc, char **argv, struct err *e)
{
	const char *config = NULL, *demo = NULL;
	int i, got;

	plan_defaults(p);
	argv = keep_args(p, argc, argv);
	/* The config file and the demo's starting setting come first, so the
	 * command line can override them. */
	for (i = 1; i < argc; i++) {
		if ((got = file_option(argc, argv, &i, "--config", "-c", &config, e)) < 0 ||
		    (got == 0 && file_option(argc, argv, &i, "--demo", NULL, &demo, e) < 0))
			return -1;
	}
	if (config) {
		if (plan_load_file(p, config, e) < 0)
			return -1;
	} else {
		char *def = default_config_path();

		if (def) {
			int rc = plan_load_file(p, def, e);

			free(def);
			if (rc < 0)
				return -1;
		}
	}
	if (demo && load_demo(p, demo, e) < 0)
		return -1;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val, *file;
		char name[128];
		int id;

		if (file_option(argc, argv, &i, "--config", "-c", &file, e) ||
		    file_option(argc, argv, &i, "--demo", NULL, &file, e))
			continue;
		if ((got = file_option(argc, argv, &i, "--schema-from", NULL, &file, e)) != 0) {
			if (got < 0 || set_schema_from(p, file, e) < 0)
				return err_prefix(e, "--schema-from");
			continue;
		}
		if ((got = text_option(argc, argv, &i, p, e)) != 0) {
			if (got < 0)
				return -1;
			continue;
		}
		if (strcmp(arg, "-q") == 0) {
			if (set_at(p, K_QUIET, "on", "-q", e) < 0)
				return -1;
			continue;
		}
		if (strcmp(arg, "-v") == 0) {
			if (set_at(p, K_VERBOSE, "on", "-v", e) < 0)
				return -1;
			continue;
		}
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			p->mode = MODE_HELP;
			return 0;
		}
		if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
			p->mode = MODE_VERSION;
			return 0;
		}
		if (strcmp(arg, "--print-config") == 0) {
			p->mode = MODE_PRINT_CONFIG;
			continue;
		}
		if (arg[0] != '-') {
			if (i == 1 && strcmp(arg, "run") == 0) {
				p->mode = MODE_RUN;
				continue;
			}
			return err_set(e, ERR_USAGE,
			               "unexpected argument '%s' (the only command is 'run'; knobs "
			               "are given as --name value)",
			               arg);
		}
		if (arg[1] != '-')
			return unknown_option(arg, e);
		snprintf(name, sizeof name, "%s", arg + 2);
		name[strcspn(name, "=")] = 0;
		id = knob_find(name);
		if (id < 0 || strchr(name, '_'))
			return unknown_option(arg, e);
		val = strchr(arg, '=');
		if (val) {
			val++;
		} else if (knob_table[id].kind == KNOB_BOOL) {
			/* a bare --ascii means on; an on/off word may follow, as the
			 * man page writes --vacuum on */
			val = i + 1 < argc && bool_words(argv[i + 1]) ? argv[++i] : "on";
		} else {
			if (i + 1 >= argc)
				return err_set(e, ERR_USAGE,
				               "--%s needs a value (valid: see --help)",
				               knob_table[id].name);
			val = argv[++i];
		}
		snprintf(name, sizeof name, "--%s", knob_table[id].name);
		if (set_at(p, id, val, name, e) < 0)
			return -1;
	}
	if (plan_whatif_apply(p, e) < 0 || check_dependent(p, e) < 0 || plan_validate(p, e) < 0)
		return -1;
	if (p->record_path && p->mode == MODE_RUN)
		return err_set(e, ERR_USAGE,
		               "--record works in the dashboard; `idxlab run` is headless");
	if (p->baseline_path && p->mode == MODE_RUN)
		return err_set(e, ERR_USAGE,
		               "--baseline pins a saved run in the dashboard; `idxlab run` is "
		               "headless (it compares with one: --compare FILE)");
	if (p->replay_path && (p->record_path || p->demo))
		return err_set(e, ERR_USAGE, "--replay shows a recording as it was: it takes no %s",
		               p->demo ? "--demo" : "--record");
	if (p->record_path && p->steps > 1)
		return err_set(e, ERR_USAGE,
		               "--record records the dashboard, which takes one value "
		               "per knob");
	if (p->demo) {
		if (p->mode == MODE_RUN)
			return err_set(e, ERR_USAGE,
			               "--demo plays in the dashboard; `idxlab run` is headless");
		if (p->n[K_ENGINE] > 1)
			return err_set(e, ERR_USAGE, "--demo plays on one engine, not a sweep");
		return demo_check(p->demo, (int)p->vals[K_ENGINE][0], e);
	}
	return 0;
}

/* --scale F: every row count times F, at least 1 (a batch per transaction
 * stays one), and a step's --duration (in ms, at least 1): a preset whose
 * steps run for a time is the same shape in a tenth of it at 0.1 too. */
static void scale_rows(struct knobs *k)
{
	static const int counts[] = { K_ROWS, K_PREFILL, K_INTERVAL_ROWS, K_COMMIT, K_DURATION };
	double f = (double)k->v[K_SCALE] / 1000.0;
	int batch = k->v[K_COMMIT] == k->v[K_INTERVAL_ROWS], i;

	if (k->v[K_SCALE] == 1000)
		return;
	for (i = 0; i < (int)(sizeof counts / sizeof counts[0]); i++) {
		long long *v = &k->v[counts[i]];

		if (*v <= 0 || (counts[i] == K_COMMIT && !batch))
			continue; /* auto, all, off; a commit size of its own */
		*v = llround((double)*v * f);
		if (*v < 1)
			*v = 1;
	}
}

void plan_step_as_given(const struct plan *p, long i, struct knobs *out)
{
	int id;

	/* Mixed radix, last knob fastest: the first knob varies slowest. */
	for (id = K_COUNT - 1; id >= 0; id--) {
		out->v[id] = p->vals[id][i % p->n[id]];
		i /= p->n[id];
	}
	out->dsn = p->dsn;
	if (out->v[K_MIX]) /* the step runs the mix's ops: its write op, else its read */
		out->v[K_OP] = mix_op(out->v[K_MIX], 0) >= 0 ? mix_op(out->v[K_MIX], 0)
		                                             : mix_op(out->v[K_MIX], 1);
	plan_resolve_indexes(out); /* indexes table|all|without: a count */
	engine_defaults(out, p->set);
	/* a table that says `payload none` (a derived one) has no payload
	 * column unless --payload N asks for one */
	if (!p->set[K_PAYLOAD] && schema_of(out)->no_payload)
		out->v[K_PAYLOAD] = 0;
}

void plan_step(const struct plan *p, long i, struct knobs *out)
{
	plan_step_as_given(p, i, out);
	scale_rows(out);
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->dsn);
	free(p->config_path);
	free(p->record_path);
	free(p->replay_path);
	free(p->plot_path);
	free(p->plot_metrics);
	free(p->plot_x);
	free(p->plot_kind);
	free(p->plot_theme);
	free(p->fields);
	free(p->compare_path);
	free(p->compare_new);
	free(p->baseline_path);
	for (int i = 0; p->args && i < p->nargs; i++)
		free(p->args[i]);
	free(p->args);
	p->args = NULL;
	p->dsn = p->config_path = p->record_path = p->replay_path = NULL;
	p->plot_path = p->plot_metrics = p->plot_x = p->plot_kind = p->plot_theme = NULL;
	p->fields = p->compare_path = p->compare_new = p->baseline_path = NULL;
	if (p->demo)
		demo_free(p->demo);
	free(p->demo);
	p->demo = NULL;
}
