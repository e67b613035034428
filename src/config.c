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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"
#include "redact.h"
#include "schema.h"
#include "schema_from.h"
#include "xalloc.h"

/* Levenshtein distance, for "did you mean". */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[64];

	if (la > 60 || lb > 60)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], cur;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			cur = row[j];
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

const char *config_closest(const char *word, const char *(*nth)(int i, const void *ctx),
                           const void *ctx)
{
	int i, best = 3;
	const char *hit = NULL, *cand;

	for (i = 0; (cand = nth(i, ctx)) != NULL; i++) {
		int d = distance(word, cand);

		if (d < best) {
			best = d;
			hit = cand;
		}
	}
	return hit;
}

static const char *nth_knob(int i, const void *ctx)
{
	(void)ctx;
	return i < K_COUNT ? knob_table[i].name : NULL;
}

static const char *closest_knob(const char *name)
{
	return config_closest(name, nth_knob, NULL);
}

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
 * it, for every table of the plan: checked as each value is set, so a
 * config file's error names its line. */
static int check_dependent(const struct plan *p, int set_id, struct err *e)
{
	struct knobs k;
	int id, i, j;

	knobs_defaults(&k);
	for (id = 0; id < K_COUNT; id++)
		for (i = 0; knob_table[id].max_of && i < p->n[id]; i++)
			for (j = 0; j < p->n[K_SCHEMA]; j++) {
				k.v[K_SCHEMA] = p->vals[K_SCHEMA][j];
				if (knob_check(id, p->vals[id][i], &k, e) < 0)
					return id == set_id
					           ? -1
					           : err_prefix(e, "%s", knob_table[id].name);
			}
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
	return check_dependent(p, K_SCHEMA, e);
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
	if (d->flags & KF_NOSWEEP && strchr(text, ','))
		return err_set(e, ERR_USAGE, "takes one value, not a list");
	copy = xstrdup(text);
	for (next = copy; (item = strsep(&next, ","));) {
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
		rc = check_dependent(p, id, e);
	}
	return rc;
}

int config_read(const char *path, config_line_fn *fn, void *ctx, struct err *e)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");
	int lineno = 0, rc = 0;

	if (!f)
		return err_set(e, ERR_USAGE, "cannot read %s: %s", path, strerror(errno));
	while (rc == 0 && (len = getline(&line, &size, f)) >= 0) {
		char *s = line, *end;

		lineno++;
		if (memchr(line, 0, (size_t)len)) {
			rc = err_set(e, ERR_USAGE,
			             "%s:%d: a NUL byte: this is no text file (a config file is "
			             "'key = value' lines)",
			             path, lineno);
			break;
		}
		if (len - (line[len - 1] == '\n') > 4095) {
			rc = err_set(e, ERR_USAGE, "%s:%d: line too long (4095 bytes at most)",
			             path, lineno);
			break;
		}
		for (char *c = s; *c; c++) {
			if (*c == '#' && (c == s || isspace((unsigned char)c[-1]))) {
				*c = 0;
				break;
			}
		}
		while (isspace((unsigned char)*s))
			s++;
		end = s + strlen(s);
		while (end > s && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (*s && fn(s, lineno, ctx, e) < 0)
			rc = err_prefix(e, "%s:%d", path, lineno);
	}
	free(line);
	fclose(f);
	return rc;
}

int config_knob_line(char *s, int *id, char **val, struct err *e)
{
	char *eq = strchr(s, '='), *end;

	if (!eq)
		return err_set(e, ERR_USAGE,
		               "expected 'key = value', got '%s' (see idxlab --help for the keys)",
		               s);
	*eq = 0;
	for (end = eq; end > s && isspace((unsigned char)end[-1]);)
		*--end = 0;
	*val = eq + 1;
	while (isspace((unsigned char)**val))
		(*val)++;
	*id = knob_find(s);
	if (*id < 0) {
		const char *hint = closest_knob(s);

		if (hint)
			return err_set(e, ERR_USAGE, "unknown key '%s' (did you mean '%s'?)", s,
			               hint);
		return err_set(e, ERR_USAGE, "unknown key '%s' (idxlab --help lists the keys)", s);
	}
	return 0;
}

/* One config file line: a knob of p. */
static int plan_line(char *s, int lineno, void *ctx, struct err *e)
{
	struct plan *p = ctx;
	char *val;
	int id;

	(void)lineno;
	if (config_knob_line(s, &id, &val, e) < 0)
		return -1;
	if (plan_set(p, id, val, e) < 0)
		return err_prefix(e, "%s", knob_table[id].name);
	return 0;
}

int plan_load_file(struct plan *p, const char *path, struct err *e)
{
	if (access(path, R_OK) < 0)
		return err_set(e, ERR_USAGE, "cannot read config file %s: %s", path,
		               strerror(errno));
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

static int unknown_option(const char *arg, struct err *e)
{
	char name[128];
	const char *hint;

	snprintf(name, sizeof name, "%s", arg + (arg[1] == '-' ? 2 : 1));
	name[strcspn(name, "=")] = 0;
	hint = closest_knob(name);
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

		if (plan_set(p, c->knob, c->text, e) < 0)
			return err_prefix(e, "demo: %s:%d: %s", path, c->line,
			                  knob_table[c->knob].name);
	}
	return 0;
}

int plan_from_args(struct plan *p, int argc, char **argv, struct err *e)
{
	const char *config = NULL, *demo = NULL;
	int i, got;

	plan_defaults(p);
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
		if ((got = file_option(argc, argv, &i, "--record", NULL, &file, e)) != 0 ||
		    (got = file_option(argc, argv, &i, "--replay", NULL, &file, e)) != 0) {
			char **to =
			    strncmp(arg, "--record", 8) == 0 ? &p->record_path : &p->replay_path;

			if (got < 0)
				return -1;
			free(*to);
			*to = xstrdup(file);
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
			val = "on"; /* a bare --ascii means on */
		} else {
			if (i + 1 >= argc)
				return err_set(e, ERR_USAGE,
				               "--%s needs a value (valid: see --help)",
				               knob_table[id].name);
			val = argv[++i];
		}
		if (plan_set(p, id, val, e) < 0)
			return err_prefix(e, "--%s", knob_table[id].name);
		if (knob_table[id].kind == KNOB_STRING) /* ps must not show its password */
			redact_in_place(argv[i] + (val - argv[i]));
	}
	if (plan_validate(p, e) < 0)
		return -1;
	if ((p->record_path || p->replay_path) && p->mode == MODE_RUN)
		return err_set(e, ERR_USAGE,
		               "--%s works in the dashboard; `idxlab run` is headless",
		               p->record_path ? "record" : "replay");
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
 * stays one). */
static void scale_rows(struct knobs *k)
{
	static const int counts[] = { K_ROWS, K_PREFILL, K_INTERVAL_ROWS, K_COMMIT };
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

void plan_step(const struct plan *p, long i, struct knobs *out)
{
	int id;

	/* Mixed radix, last knob fastest: the first knob varies slowest. */
	for (id = K_COUNT - 1; id >= 0; id--) {
		out->v[id] = p->vals[id][i % p->n[id]];
		i /= p->n[id];
	}
	out->dsn = p->dsn;
	knobs_engine_defaults(out, p->set);
	scale_rows(out);
}

/* update-indexed and update-keys need a column of the table to write. */
static int check_op_cols(const struct knobs *k, struct err *e)
{
	const struct schema *s = schema_of(k);
	int cols[SCHEMA_COLS_MAX];

	if ((k->v[K_OP] == OP_UPDATE_INDEXED || k->v[K_OP] == OP_UPDATE_KEYS) &&
	    schema_op_cols(s, k->v[K_OP], cols) == 0)
		return err_set(e, ERR_USAGE,
		               "op %s: the %s table has %s to update (use op update, which "
		               "changes %s)",
		               knob_table[K_OP].choices[k->v[K_OP]], s->name,
		               k->v[K_OP] == OP_UPDATE_INDEXED ? "no index, so no indexed column"
		                                               : "no value column",
		               s->hot);
	return 0;
}

/* --load: only inserts, and only the ways the engine has. */
static int check_load(const struct knobs *k, struct err *e)
{
	const struct engine_ops *ops = engine_table[k->v[K_ENGINE]];

	if (!ops)
		return 0; /* not built: said when it opens */
	if (k->v[K_LOAD] != LOAD_INSERT && k->v[K_OP] != OP_INSERT)
		return err_set(e, ERR_USAGE,
		               "--load %s: how inserted rows arrive; op %s inserts none (use "
		               "--load insert, or --op insert)",
		               knob_table[K_LOAD].choices[k->v[K_LOAD]],
		               knob_table[K_OP].choices[k->v[K_OP]]);
	if (k->v[K_LOAD] != LOAD_INSERT && !(ops->loads & (1u << k->v[K_LOAD])))
		return err_set(e, ERR_USAGE, "--load %s: the %s engine has no such path%s%s",
		               knob_table[K_LOAD].choices[k->v[K_LOAD]],
		               knob_table[K_ENGINE].choices[k->v[K_ENGINE]],
		               ops->why_no_load ? ": " : "",
		               ops->why_no_load ? ops->why_no_load : "");
	return 0;
}

int plan_validate(struct plan *p, struct err *e)
{
	long steps = 1, i;
	int id;

	for (id = 0; id < K_COUNT; id++) {
		steps *= p->n[id];
		if (steps > PLAN_MAX_STEPS)
			return err_set(e, ERR_USAGE,
			               "the sweep has more than %d steps: shorten the comma lists",
			               PLAN_MAX_STEPS);
	}
	p->steps = steps;
	if (p->n[K_ENGINE] > 1 && p->dsn && *p->dsn)
		return err_set(e, ERR_USAGE,
		               "--dsn names one database, but the sweep has %d engines: run one "
		               "engine per --dsn, or leave --dsn out to compare throwaway ones",
		               p->n[K_ENGINE]);
	for (i = 0; i < steps; i++) {
		struct knobs k;

		plan_step(p, i, &k);
		if (knobs_check(&k, e) < 0 || check_load(&k, e) < 0 || check_op_cols(&k, e) < 0)
			return -1;
		if (k.v[K_OP] == OP_DELETE && k.v[K_ROWS] > knobs_prefill(&k))
			return err_set(
			    e, ERR_USAGE,
			    "op delete: rows (%lld) exceeds prefill (%lld): a delete needs "
			    "a row to delete; raise --prefill or lower --rows",
			    k.v[K_ROWS], knobs_prefill(&k));
		if (k.v[K_OP] != OP_INSERT && knobs_prefill(&k) == 0)
			return err_set(e, ERR_USAGE,
			               "op %s needs rows to work on: --prefill must be above 0",
			               knob_table[K_OP].choices[k.v[K_OP]]);
	}
	return 0;
}

/* Does knob id mean something on one of the plan's engines? An engine that
 * is not built is not judged: opening it says so, and what to install. */
static int on_some_engine(const struct plan *p, int id)
{
	int j, kind;

	for (j = 0; j < p->n[K_ENGINE]; j++) {
		kind = (int)p->vals[K_ENGINE][j];
		if (!engine_table[kind] || engine_has_knob(kind, id))
			return 1;
	}
	return 0;
}

void plan_warn_unused(const struct plan *p, FILE *f)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (p->set[id] && !on_some_engine(p, id))
			fprintf(f, "idxlab: warning: --%s does nothing on %s: %s\n",
			        knob_table[id].name,
			        knob_table[K_ENGINE].choices[p->vals[K_ENGINE][0]],
			        knob_table[id].why);
}

void plan_print_derived(const struct plan *p, FILE *f)
{
	int j;

	for (j = 0; j < p->n[K_SCHEMA]; j++) {
		const struct schema *s = schema_get(p->vals[K_SCHEMA][j]);
		char buf[8192];

		if (!s || !s->notes[0])
			continue;
		schema_write(s, buf, sizeof buf);
		fprintf(f,
		        "idxlab: the table %s read from %s, as idxlab builds it (save it as a "
		        "spec file to edit it, then --schema FILE):\n%s"
		        "idxlab: how: %s\n",
		        s->name, s->source, buf, s->notes);
	}
}

/* A table spec as comment lines: strip the "# " to have a spec file. */
static void print_spec(const struct schema *s, FILE *f)
{
	char buf[8192], *line, *next;

	if (!s)
		return;
	schema_write(s, buf, sizeof buf);
	fprintf(f, "# table %s (%s), as a spec file says it (man idxlab, TABLE SPECS):\n", s->name,
	        s->source);
	for (line = buf; (next = strchr(line, '\n')) != NULL; line = next + 1)
		fprintf(f, "#   %.*s\n", (int)(next - line), line);
	if (s->notes[0])
		fprintf(f, "# how it was read: %s\n", s->notes);
}

void plan_print(const struct plan *p, FILE *f)
{
	struct knobs first;
	char path[1024]; /* the comments stay one line each */
	int id, j;

	plan_step(p, 0, &first); /* engine defaults for what the user left unset */
	err_escape(p->config_path ? p->config_path : "", path, sizeof path);
	if (p->config_path)
		fprintf(f, "# idxlab effective settings (config file: %s)\n", path);
	else
		fprintf(f, "# idxlab effective settings (no config file)\n");
	if (p->demo) {
		err_escape(p->demo->path, path, sizeof path);
		fprintf(f, "# demo %s: %d cues after the %d lines of its starting setting\n", path,
		        p->demo->n - p->demo->header, p->demo->header);
	}
	for (id = 0; id < K_COUNT; id++) {
		/* Left unset, a knob the dashboard gives a default of its own stays
		 * unset when this is read back: a comment line. */
		int per_mode = !p->set[id] && p->n[id] == 1 && knob_table[id].dash_def;

		fprintf(f, "%s%s = ", per_mode ? "# " : "", knob_table[id].name);
		if (knob_table[id].kind == KNOB_STRING) {
			char buf[1024];

			redact_dsn(p->dsn, buf, sizeof buf);
			fprintf(f, "%s", buf);
		} else if (!p->set[id] && p->n[id] == 1) {
			char buf[600];

			knob_format(id, first.v[id], buf, sizeof buf);
			fprintf(f, "%s", buf);
			if (per_mode)
				fprintf(f, "  (left unset: the dashboard uses %s)",
				        knob_table[id].dash_def);
		} else {
			for (j = 0; j < p->n[id]; j++) {
				char buf[600];

				knob_format(id, p->vals[id][j], buf, sizeof buf);
				fprintf(f, "%s%s", j ? "," : "", buf);
			}
		}
		fprintf(f, "\n");
	}
	for (j = 0; j < p->n[K_SCHEMA]; j++)
		if (p->vals[K_SCHEMA][j] != 0) /* the default table is man idxlab's */
			print_spec(schema_get(p->vals[K_SCHEMA][j]), f);
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->dsn);
	free(p->config_path);
	free(p->record_path);
	free(p->replay_path);
	p->dsn = p->config_path = p->record_path = p->replay_path = NULL;
	if (p->demo)
		demo_free(p->demo);
	free(p->demo);
	p->demo = NULL;
}
