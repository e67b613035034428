/* schema_from_order.c - a column's value order from what a reader saw of it
 * (--schema-from), and the words that say what was seen.
 *
 * The evidence, strongest first:
 *   - a counter (SQLite's INTEGER PRIMARY KEY or AUTOINCREMENT, PostgreSQL's
 *     identity) or a default that says the order: a sequence or a clock
 *     (nextval(), now(), CURRENT_TIMESTAMP, datetime('now')) is seq, a random
 *     uuid (gen_random_uuid()) uuid4, a time-ordered one (uuidv7()) uuid7 -
 *     unless a sample of the rows shows the opposite (the application writes
 *     values of its own);
 *   - a sample read in the table's order (SQLite: rowid order, PostgreSQL:
 *     the heap's): how many rows are at or above every row before them
 *     (where an index on the column appends at its right-hand leaf), how
 *     many at or below, and how often the value rose or fell from the row
 *     before. Random order and a cycle (i % 1000) put few rows at the top:
 *       all but a share P <= 25 % at the top (and 8 rises or more): it
 *         grows - seq, or seq:R with R the rows per distinct value, and
 *         late:P when P is 0.1 % or more (a late row takes a value below
 *         the largest so far);
 *       all but 10 % or less at the bottom (8 falls or more): desc, desc:R;
 *       else the distinct values decide;
 *   - PostgreSQL's correlation (value order against the heap's): above 0.9
 *     grows, below -0.9 falls, with R = rows / n_distinct; where a sample
 *     exists, only for a growing column it misread (grows_page_by_page);
 *   - the distinct values: nearly one per row is rand (uuid4); fewer is few:N,
 *     or zipf:S:N when the most common value is far more common than 1/N
 *     (S solved from its share).
 * A growing column needs 10 distinct values or more: a status that went
 * from 'new' to 'old' once is few:2, not a sequence. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "schema_from.h"

/* Words of a default, lower-cased, and the order they give; the first
 * that matches wins (current_timestamp before a bare now). */
static const struct {
	const char *word;
	enum col_order order;
} default_orders[] = {
	{ "nextval(", ORD_SEQ },
	{ "gen_random_uuid(", ORD_UUID4 },
	{ "uuid_generate_v4(", ORD_UUID4 },
	{ "uuidv4(", ORD_UUID4 },
	{ "uuidv7(", ORD_UUID7 },
	{ "uuid_generate_v7(", ORD_UUID7 },
	{ "uuid_generate_v1", ORD_UUID7 }, /* v1, v1mc: a clock, its low bits first */
	{ "uuid_generate_v6(", ORD_UUID7 },
	{ "uuid7(", ORD_UUID7 },
	{ "gen_uuid_v7(", ORD_UUID7 },
	{ "uuid_time_nextval(", ORD_UUID7 }, /* sequential-uuids */
	{ "uuid_sequence_nextval(", ORD_UUID7 },
	{ "ulid(", ORD_UUID7 },
	{ "gen_ulid(", ORD_UUID7 },
	{ "current_timestamp", ORD_SEQ },
	{ "current_date", ORD_SEQ },
	{ "localtimestamp", ORD_SEQ },
	{ "now()", ORD_SEQ },
	{ "clock_timestamp(", ORD_SEQ },
	{ "statement_timestamp(", ORD_SEQ },
	{ "transaction_timestamp(", ORD_SEQ },
	{ "'now'", ORD_SEQ }, /* datetime('now'), strftime('%s', 'now'), 'now'::timestamp */
	{ "unixepoch(", ORD_SEQ },
};

enum col_order schema_from_default(const char *dflt)
{
	char low[64];
	size_t i;

	for (i = 0; dflt[i] && i + 1 < sizeof low; i++)
		low[i] = dflt[i] >= 'A' && dflt[i] <= 'Z' ? (char)(dflt[i] - 'A' + 'a') : dflt[i];
	low[i] = 0;
	for (i = 0; i < sizeof default_orders / sizeof default_orders[0]; i++)
		if (strstr(low, default_orders[i].word))
			return default_orders[i].order;
	return ORD_KNOB;
}

/* The share of the most common of n values under zipf exponent s. */
static double zipf_top(double n, double s)
{
	double h = 0;
	long i;

	for (i = 1; i <= (long)n && i <= 100000; i++)
		h += pow((double)i, -s);
	return 1 / h;
}

/* Rows per value as the spec says it: 1 (0) below 1.05, one decimal below
 * 10, two significant digits above. */
static double round_per(double r)
{
	double unit;

	if (!(r >= 1.05))
		return 0;
	if (r > SCHEMA_PER_MAX)
		return SCHEMA_PER_MAX;
	if (r < 10)
		return round(r * 10) / 10;
	unit = pow(10, floor(log10(r)) - 1);
	return round(r / unit) * unit;
}

/* A share in two significant digits (0.0193 -> 0.019). */
static double round_share(double p)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%.2g", p);
	return strtod(buf, NULL);
}

/* The most common value's share that a uniform draw of m rows over n
 * values reaches by chance (the largest of n counts, mean mu = m/n, is
 * about mu + sqrt(2 mu ln n); twice that margin): a top share below it is
 * no evidence of skew. m is the rows the share was counted in: the sample,
 * else PostgreSQL's ANALYZE sample (30,000 rows at the default target). */
static double chance_top(const struct shape_col *c, double n, double rows)
{
	double m = c->sampled > 0 ? c->sampled : rows < 30000 ? rows : 30000, mu;

	if (!(m > 0) || n < 2)
		return 1;
	mu = m / n;
	return (mu + 2 * sqrt(2 * mu * log(n)) + 1) / m;
}

static void few_or_zipf(const struct shape_col *c, double nd, double rows, struct column *out)
{
	out->n = nd < 1 ? 1 : (uint64_t)llround(nd);
	out->order = ORD_FEW;
	/* Skewed: the top value holds 3 times its fair share or more, and more
	 * than a uniform sample's top value holds by chance. */
	if (!isnan(c->top_freq) && out->n > 2 && c->top_freq * (double)out->n > 3 &&
	    c->top_freq > chance_top(c, (double)out->n, rows)) {
		double lo = 0.05, hi = 10;
		int i;

		for (i = 0; i < 50; i++) { /* zipf_top grows with s */
			double mid = (lo + hi) / 2;

			if (zipf_top((double)out->n, mid) < c->top_freq)
				lo = mid;
			else
				hi = mid;
		}
		out->order = ORD_ZIPF;
		out->s = round(lo * 100) / 100;
	}
}

/* A growing order: seq[:R], late:P[:R], uuid7 on a uuid. */
static void grows(struct column *out, int is_uuid, double per, double late)
{
	out->per = per;
	out->late = late;
	out->order = late > 0 ? ORD_LATE : is_uuid && !per ? ORD_UUID7 : ORD_SEQ;
}

/* What the sample saw of a column that moves one way: "never decreases in
 * 2240 sampled rows, ~5.4 rows per value", "below an earlier row at 60 of
 * 3000 sampled rows (2%)". */
static void said_sample(char *buf, size_t len, const struct shape_col *c, const char *dir,
                        const char *side, double off, double per)
{
	char reps[48] = "";
	int n;

	if (per > 0)
		snprintf(reps, sizeof reps, ", ~%.3g rows per value", c->sampled / c->s_distinct);
	if (off < 0.5)
		n = snprintf(buf, len, "never %ss in %.0f sampled rows%s", dir, c->sampled, reps);
	else
		n = snprintf(buf, len, "%s an earlier row at %.0f of %.0f sampled rows (%.2g%%)%s",
		             side, off, c->sampled, 100 * off / (c->sampled - 1), reps);
	(void)n;
}

int schema_from_sample_moves(const struct shape_col *c)
{
	double n = c->sampled, below = n - 1 - c->s_atmax, above = n - 1 - c->s_atmin;

	if (!(n > 1))
		return 0;
	if (c->s_up >= 8 && below <= (n - 1) * SCHEMA_LATE_MAX / 2)
		return 1;
	return c->s_down >= 8 && above <= (n - 1) * 0.1 ? -1 : 0;
}

/* From a sample in the table's order; 0 when it does not say (random, a
 * cycle, or too few moves), and the distinct values decide. A growing
 * column's rows are nearly all at or above every row before them (at_max:
 * its index appends at the right); the rest are its late rows. */
static int from_sample(const struct shape_col *c, struct column *out, int is_uuid, char *seen,
                       size_t len)
{
	double n = c->sampled, per, p = 0, below = n - 1 - c->s_atmax, above = n - 1 - c->s_atmin;
	int moves = schema_from_sample_moves(c);

	if (!moves || !(c->s_distinct >= 10))
		return 0;
	per = round_per(n / c->s_distinct);
	if (moves > 0) {
		if (below / (n - 1) >= 0.001)
			p = round_share(below / (n - 1));
		/* late rows repeat earlier values: one value per row that is on time */
		if (p > 0 && n * (1 - p) / c->s_distinct < 1.05)
			per = 0;
		grows(out, is_uuid, per, p);
		said_sample(seen, len, c, "decrease", "below", p > 0 ? below : 0, per);
		return 1;
	}
	if (!is_uuid) {
		out->order = ORD_DESC;
		out->per = per;
		said_sample(seen, len, c, "increase", "above", above, per);
		return 1;
	}
	return 0;
}

/* PostgreSQL's heap holds the rows in their insertion order only page by
 * page: a row that does not fit the page being filled goes to an earlier
 * page with room for it (the free space map), and the rows after it follow
 * it there. A growing column then has many sampled rows below an earlier
 * one (a third, with rows of varying width), which the sample alone reads
 * as unordered; yet its value falls from the row before only at those few
 * jumps, and pg_stats' correlation (the values' order against the heap's)
 * stays near 1. An index on it still appends at its right-hand leaf: it
 * grows. (A cycle falls as seldom but has no correlation; random values
 * and late rows fall often. SQLite's sample is in rowid order, the
 * insertion order itself, and its correlation is read from the sample's
 * falls: not evidence of its own.) */
static int grows_page_by_page(const struct shape_col *c)
{
	double moves = c->s_up + c->s_down;

	return c->paged && c->sampled > 1 && !isnan(c->correlation) && c->correlation > 0.9 &&
	       moves >= 8 && c->s_down <= 0.05 * moves;
}

void schema_from_order(const struct shape_col *c, double rows, struct column *out, char *why,
                       size_t wlen)
{
	double nd = c->ndistinct;
	char seen[192] = "", chosen[32];
	int is_uuid = out->type == COL_UUID ||
	              (out->type == COL_TEXT && out->len == 36 && strcasestr(c->decl, "uuid"));
	int moving = c->sampled > 1 && c->s_up + c->s_down >= 8;
	int rising =
	    (moving && c->sampled - 1 - c->s_atmax <= (c->sampled - 1) * SCHEMA_LATE_MAX / 2) ||
	    grows_page_by_page(c);
	enum col_order by_default = c->counter ? ORD_SEQ : schema_from_default(c->dflt);

	out->n = 0;
	out->s = 0;
	out->per = 0;
	out->late = 0;
	/* A uuid7 default stands whatever the sample: many in one millisecond
	 * are random among themselves (and uuid7 here is so too). */
	if (by_default != ORD_KNOB &&
	    (by_default == ORD_UUID7 || !(moving && (by_default == ORD_UUID4) == rising))) {
		if (c->counter)
			snprintf(seen, sizeof seen, "%s", c->counter);
		else
			snprintf(seen, sizeof seen, "default %s", c->dflt);
		if (by_default == ORD_SEQ)
			grows(out, is_uuid, 0, 0);
		else if (is_uuid)
			out->order = by_default;
		else
			out->order = by_default == ORD_UUID4 ? ORD_RAND : ORD_SEQ;
	} else if (from_sample(c, out, is_uuid, seen, sizeof seen)) {
		if (by_default != ORD_KNOB) /* a default the data does not follow */
			snprintf(seen + strlen(seen), sizeof seen - strlen(seen),
			         " (its default %s is not used)", c->dflt);
	} else if (!isnan(c->correlation) && fabs(c->correlation) > 0.9 && nd >= 10 && rows > 0 &&
	           !(c->correlation < 0 && is_uuid) &&
	           (!(c->sampled > 1) || grows_page_by_page(c))) {
		double per = nd < 0.9 * rows ? round_per(rows / nd) : 0;

		if (c->correlation > 0) {
			grows(out, is_uuid, per, 0);
		} else {
			out->order = ORD_DESC;
			out->per = per;
		}
		if (c->sampled > 1)
			snprintf(
			    seen, sizeof seen,
			    "correlation %.2f, falls %.0f times in %.0f sampled rows (the heap's "
			    "order is the insertion order page by page)",
			    c->correlation, c->s_down, c->sampled);
		else
			snprintf(seen, sizeof seen, "correlation %.2f, %.0f distinct in %.0f rows",
			         c->correlation, nd, rows);
	} else if (nd < 0 || rows <= 0 || nd >= 0.9 * rows) {
		out->order = is_uuid ? ORD_UUID4 : ORD_RAND;
		if (nd < 0 || rows <= 0)
			snprintf(seen, sizeof seen, "no statistics");
		else if (moving)
			snprintf(seen, sizeof seen,
			         "rises %.0f and falls %.0f times in %.0f sampled rows, nearly all "
			         "distinct",
			         c->s_up, c->s_down, c->sampled);
		else
			snprintf(seen, sizeof seen, "%.0f distinct in %.0f rows%s", nd, rows,
			         isnan(c->correlation) ? "" : ", unordered");
	} else {
		few_or_zipf(c, nd, rows, out);
		snprintf(seen, sizeof seen, "%.0f distinct in %.0f rows%s", nd, rows,
		         out->order == ORD_ZIPF ? ", the most common far ahead" : "");
	}
	if (why) {
		schema_order_text(out, chosen, sizeof chosen);
		snprintf(why, wlen, "%s -> %s", seen, chosen);
	}
}

void schema_from_range(const struct shape_col *c, struct column *out, int unique, char *why,
                       size_t wlen)
{
	long double scale = 1, lo, hi, tmin = -9223372036854775807.0L - 1,
	            tmax = 9223372036854775807.0L;
	uint64_t n = out->order == ORD_FEW || out->order == ORD_ZIPF ? out->n : 1;
	char r[96];
	size_t at;
	int i;

	out->ranged = 0;
	if (!c->s_ranged || c->gen[0] || !(c->sampled >= 2) || !isfinite(c->s_min) ||
	    !isfinite(c->s_max) || c->s_min > c->s_max ||
	    (out->order == ORD_RAND && !(c->s_min < c->s_max)) ||
	    (out->type != COL_INT && out->type != COL_BIGINT && out->type != COL_NUMERIC) ||
	    out->order == ORD_KNOB || out->order == ORD_UUID7 || out->order == ORD_UUID4 ||
	    (unique && out->order == ORD_RAND)) /* a draw over its span would collide */
		return;
	if (out->type == COL_INT) {
		tmin = -2147483648.0L;
		tmax = 2147483647.0L;
	} else if (out->type == COL_NUMERIC) {
		for (i = 0; i < out->scale; i++)
			scale *= 10;
		tmax = powl(10, out->prec) - 1;
		tmin = -tmax;
	}
	lo = floorl((long double)c->s_min * scale);
	hi = ceill((long double)c->s_max * scale);
	lo = lo < tmin ? tmin : lo > tmax ? tmax : lo;
	hi = hi < tmin ? tmin : hi > tmax ? tmax : hi;
	if (n > 1 && hi - lo + 1 < (long double)n) { /* few:N's values need room */
		hi = lo + (long double)n - 1;
		if (hi > tmax) {
			hi = tmax;
			lo = tmax - (long double)n + 1;
		}
	}
	/* the order's own values already: an integer's few:N from 0 to N-1,
	 * seq and late from 0 (their top is where the table grows to) */
	if (out->type != COL_NUMERIC && lo == 0 &&
	    (((out->order == ORD_FEW || out->order == ORD_ZIPF) && hi == (long double)n - 1) ||
	     out->order == ORD_SEQ || out->order == ORD_LATE))
		return;
	out->lo = (int64_t)lo;
	out->hi = (int64_t)hi;
	out->ranged = 1;
	if (!why || (at = strlen(why)) >= wlen)
		return;
	schema_range_text(out, r, sizeof r);
	snprintf(why + at, wlen - at, " %s", r);
}
