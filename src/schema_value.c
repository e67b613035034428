/* schema_value.c - the values a spec's columns take: pure functions of
 * (seed, column, row, version), so every engine writes the same rows and an
 * update finds row n again (schema.h, schema_value). Each order is a number
 * per row (seq, desc, late by the row; few and zipf by a hash of it), then
 * written in the column's type; a column's NULLs come from a hash stream of
 * their own. */
#include "schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "keys.h"
#include "schema_int.h"

/* ---- values -------------------------------------------------------------- */

#define TS_BASE_US   1767225600000000LL             /* 2026-01-01 00:00:00 UTC */
#define TS_SPAN_US   (10LL * 365 * 86400 * 1000000) /* rand: the ten years before */
#define VERSION_STEP (1ULL << 40)  /* seq: an update moves a value past every row */
#define DAY_BASE     20454         /* 2026-01-01 in days since 1970-01-01 */
#define NULL_STREAM  0x6e756c6cULL /* "null": the stream NULLs are drawn from */

/* Is row's value of column c at version NULL (c->nulls of the rows)? Drawn
 * from a stream of its own, so the values are those without NULLs. */
static int value_null(const struct column *c, uint64_t seed, int col, uint64_t row,
                      uint64_t version)
{
	uint64_t h;

	if (!(c->nulls > 0))
		return 0;
	h = keys_hash(seed, (NULL_STREAM << 32) + (uint64_t)col * 65599 + version, row);
	return (double)(h >> 11) * 0x1p-53 < c->nulls;
}

static uint64_t pow10u(int n)
{
	uint64_t p = 1;

	while (n-- > 0 && p < 1000000000000000000ULL)
		p *= 10;
	return p;
}

uint64_t schema_numeric_room(const struct column *c)
{
	return pow10u(c->scale && c->prec > c->scale ? c->prec - c->scale : c->prec);
}

#define DESC_TOP (1LL << 62) /* desc: row 0's bigint; the rows go down from it */

/* The values type t holds, in its units (a numeric's 10^-scale). */
static void type_span(const struct column *c, enum col_type t, int64_t *min, int64_t *max)
{
	if (t == COL_INT) {
		*min = INT32_MIN;
		*max = INT32_MAX;
	} else if (t == COL_NUMERIC) {
		*max = (int64_t)pow10u(c->prec) - 1;
		*min = -*max;
	} else {
		*min = INT64_MIN;
		*max = INT64_MAX;
	}
}

/* Is column c's `in:LO..HI` in force for a value of type t? */
static int ranged(const struct column *c, enum col_type t)
{
	return c->ranged && (t == COL_INT || t == COL_BIGINT || t == COL_NUMERIC);
}

/* A value of an `in:LO..HI` column: h the row's hash (rand), x the order's
 * number (few and zipf: the rank of n; seq, late, desc: the count with an
 * update's step). seq and late go up from lo, desc down from hi, wrapping
 * within the type where a run goes past its end. Unsigned arithmetic: the
 * spans may pass INT64_MAX. */
static int64_t in_range(const struct column *c, enum col_type t, enum col_order ord, uint64_t h,
                        uint64_t x, uint64_t n)
{
	uint64_t span = (uint64_t)c->hi - (uint64_t)c->lo, room;
	int64_t tmin, tmax;

	type_span(c, t, &tmin, &tmax);
	switch (ord) {
	case ORD_RAND:
		return (int64_t)((uint64_t)c->lo + (span == UINT64_MAX ? h : h % (span + 1)));
	case ORD_FEW:
	case ORD_ZIPF: /* n <= span + 1 (schema_check) */
		return (int64_t)((uint64_t)c->lo + x * (n > 1 ? span / (n - 1) : 0));
	case ORD_DESC:
		room = (uint64_t)c->hi - (uint64_t)tmin;
		return (int64_t)((uint64_t)c->hi - (room == UINT64_MAX ? x : x % (room + 1)));
	default: /* seq, late */
		room = (uint64_t)tmax - (uint64_t)c->lo;
		return (int64_t)((uint64_t)c->lo + (room == UINT64_MAX ? x : x % (room + 1)));
	}
}

/* The number behind a value of the seq family, before an update's step:
 * floor(m / per), m the row, or for a late row (a share c->late of them,
 * drawn from the row's hash) a row 1..SCHEMA_LATE_BACK before it. It never
 * falls but at a late row, and a value holds about per rows. */
static uint64_t seq_number(const struct column *c, enum col_order ord, uint64_t seed, int col,
                           uint64_t row, uint64_t version)
{
	uint64_t m = row;

	if (ord == ORD_LATE) {
		uint64_t h = keys_col_hash(seed, col, row, version);

		if ((double)(h >> 11) * 0x1p-53 < c->late) {
			uint64_t back = 1 + keys_hash(seed, (uint64_t)col * 1000003ULL + 2, row) %
			                        SCHEMA_LATE_BACK;

			m = row > back ? row - back : 0;
		}
	}
	return c->per > 1 ? (uint64_t)floor((double)m / c->per) : m;
}

/* Rank 0..n-1 of a Zipf-like draw with exponent s: the continuous inverse
 * CDF of 1/r^s over 1..n (rank 0 the hottest). */
static uint64_t zipf_rank(uint64_t h, uint64_t n, double s)
{
	double u = (double)(h >> 11) * 0x1p-53, r;

	if (fabs(s - 1) < 1e-9)
		r = pow((double)n, u);
	else
		r = pow((pow((double)n, 1 - s) - 1) * u + 1, 1 / (1 - s));
	return r < 1 ? 0 : (uint64_t)r - 1 >= n ? n - 1 : (uint64_t)r - 1;
}

/* x in len digits (the lowest ones when it needs more): decimal, or base
 * 26 written as letters (aa, ab, ...). */
static void text_of_number(uint64_t x, int letters, struct value *v, int len)
{
	uint64_t base = letters ? 26 : 10;
	int i;

	for (i = len - 1; i >= 0; i--) {
		v->b[i] = (unsigned char)((letters ? 'a' : '0') + x % base);
		x /= base;
	}
	v->len = (size_t)len;
}

static void uuid_text(const unsigned char u[KEYS_UUID_LEN], struct value *v)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < KEYS_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			v->b[o++] = '-';
		v->b[o++] = (unsigned char)hex[u[i] >> 4];
		v->b[o++] = (unsigned char)hex[u[i] & 15];
	}
	v->len = o;
}

void schema_time_text(struct value *v)
{
	int64_t secs = v->type == COL_DATE ? v->i * 86400 : v->i / 1000000 - (v->i % 1000000 < 0);
	time_t t = (time_t)secs;
	struct tm tm;
	int n;

	if (v->null || !gmtime_r(&t, &tm)) {
		v->len = 0;
		return;
	}
	n = v->type == COL_DATE
	        ? snprintf((char *)v->b, sizeof v->b, "%04d-%02d-%02d", tm.tm_year + 1900,
	                   tm.tm_mon + 1, tm.tm_mday)
	        : snprintf((char *)v->b, sizeof v->b, "%04d-%02d-%02d %02d:%02d:%02d",
	                   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	                   tm.tm_sec);
	v->len = n > 0 ? (size_t)n : 0;
}

void schema_value(const struct schema *s, const struct knobs *k, int col, uint64_t row,
                  uint64_t version, struct value *v)
{
	const struct column *c = &s->cols[col];
	uint64_t seed = (uint64_t)k->v[K_SEED], n, h, x;
	enum col_order ord = schema_order(s, k, col, &n);
	int i, seqish;

	v->type = schema_type(s, k, col);
	v->null = 0;
	v->scale = c->type == COL_NUMERIC ? c->scale : 0;
	if (col == 0)
		version = 0;
	else if (value_null(c, seed, col, row, version)) {
		v->null = 1;
		v->i = 0;
		v->len = 0;
		return;
	}
	if (v->type == COL_UUID || ord == ORD_UUID7 || ord == ORD_UUID4) {
		unsigned char u[KEYS_UUID_LEN];

		if (ord == ORD_FEW || ord == ORD_ZIPF) /* one of n uuids */
			keys_uuid(seed, 0, col,
			          ord == ORD_FEW
			              ? keys_col_hash(seed, col, row, version) % n
			              : zipf_rank(keys_col_hash(seed, col, row, version), n, c->s),
			          0, u);
		else if (ord == ORD_SEQ || ord == ORD_LATE) /* uuid7 of the value's number */
			keys_uuid(seed, 1, col, seq_number(c, ord, seed, col, row, version),
			          version, u);
		else
			keys_uuid(seed, ord == ORD_UUID7, col, row, version, u);
		if (v->type == COL_UUID) {
			memcpy(v->b, u, KEYS_UUID_LEN);
			v->len = KEYS_UUID_LEN;
		} else {
			uuid_text(u, v);
		}
		return;
	}
	if (col == 0 && ord == ORD_SEQ) {
		v->i = (int64_t)row + 1;
		return;
	}
	if (col == 0 && ord == ORD_DESC && v->type == COL_BIGINT) {
		v->i = DESC_TOP - (int64_t)row;
		return;
	}
	seqish = ord == ORD_SEQ || ord == ORD_DESC || ord == ORD_LATE;
	h = seqish ? 0 : keys_col_hash(seed, col, row, version);
	switch (ord) {
	case ORD_SEQ:
	case ORD_DESC:
	case ORD_LATE:
		x = seq_number(c, ord, seed, col, row, version) + version * VERSION_STEP;
		break;
	case ORD_FEW:
		x = h % n;
		break;
	case ORD_ZIPF:
		x = zipf_rank(h, n, c->s);
		break;
	default: /* ORD_RAND */
		x = h >> 1;
		break;
	}
	if (ranged(c, v->type)) {
		v->i = in_range(c, v->type, ord, h, x, n);
		return;
	}
	switch (v->type) {
	case COL_INT:
		v->i = ord == ORD_RAND   ? (int64_t)(h >> 33)
		       : ord == ORD_DESC ? 0x7fffffff - (int64_t)(x & 0x7fffffff)
		                         : (int64_t)(x & 0x7fffffff);
		return;
	case COL_BIGINT:
		v->i = ord == ORD_DESC ? DESC_TOP - (int64_t)x : (int64_t)x;
		return;
	case COL_NUMERIC: /* within its precision: seq wraps, rand is uniform */
		if ((ord == ORD_FEW || ord == ORD_ZIPF) && c->scale && c->prec > c->scale)
			/* a price list: 0.99, 1.99, ... (not a whole number, as
			 * a user's few values seldom are) */
			x = x * pow10u(c->scale) + pow10u(c->scale) - 1;
		v->i = (int64_t)((ord == ORD_RAND ? h >> 1 : x) % pow10u(c->prec));
		return;
	case COL_BOOL:
		v->i = (int64_t)((ord == ORD_RAND ? h >> 7 : x) & 1);
		return;
	case COL_DATE:
		v->i = ord == ORD_RAND
		           ? DAY_BASE - (int64_t)(h % 3650)     /* the ten years before */
		           : DAY_BASE + (int64_t)(x % 1000000); /* a day a row, or rank */
		return;
	case COL_TIMESTAMPTZ:
	case COL_TIMESTAMP:
		v->i = ord == ORD_DESC   ? TS_BASE_US - (int64_t)x * 1000
		       : seqish          ? TS_BASE_US + (int64_t)x * 1000
		       : ord == ORD_RAND ? TS_BASE_US - (int64_t)(h % (uint64_t)TS_SPAN_US)
		                         : TS_BASE_US + (int64_t)x * 86400000000LL;
		return;
	case COL_TEXT:
		if (seqish) {
			text_of_number(x, 0, v, c->len);
			for (i = 0; ord == ORD_DESC && i < c->len; i++) /* 99..9 - x */
				v->b[i] = (unsigned char)('9' - (v->b[i] - '0'));
		} else if (ord == ORD_RAND) {
			for (i = 0; i < c->len; i++) {
				if (i % 15 == 0 && i)
					h = keys_hash(seed, (uint64_t)col * 1000003ULL + 1, h);
				v->b[i] =
				    (unsigned char)"0123456789abcdef"[(h >> (4 * (i % 15))) & 15];
			}
			v->len = (size_t)c->len;
		} else {
			text_of_number(x, 1, v, c->len);
		}
		return;
	default:
		return;
	}
}

/* The largest count x a seq-family order reaches over rows rows at
 * version vmax (saturating). */
static uint64_t seq_top(const struct column *c, uint64_t rows, uint64_t vmax)
{
	uint64_t m = rows ? rows - 1 : 0, step;

	if (c->per > 1)
		m = (uint64_t)floor((double)m / c->per);
	step = vmax > UINT64_MAX / VERSION_STEP ? UINT64_MAX : vmax * VERSION_STEP;
	return m > UINT64_MAX - step ? UINT64_MAX : m + step;
}

int schema_value_span(const struct schema *s, const struct knobs *k, int col, uint64_t rows,
                      uint64_t vmax, long double *lo, long double *hi)
{
	const struct column *c = &s->cols[col];
	enum col_type t = schema_type(s, k, col);
	uint64_t n, xmax, p;
	enum col_order ord = schema_order(s, k, col, &n);
	int64_t tmin, tmax;
	int seqish = ord == ORD_SEQ || ord == ORD_LATE || ord == ORD_DESC;

	if (t != COL_INT && t != COL_BIGINT && t != COL_NUMERIC)
		return -1;
	if (ord == ORD_UUID7 || ord == ORD_UUID4)
		return -1;
	type_span(c, t, &tmin, &tmax);
	xmax = seqish ? seq_top(c, rows, col ? vmax : 0) : n ? n - 1 : 0;
	p = t == COL_NUMERIC ? pow10u(c->prec) : 0;
	if (ranged(c, t) && col) {
		if (ord == ORD_RAND || ord == ORD_FEW || ord == ORD_ZIPF) {
			*lo = (long double)c->lo;
			*hi = (long double)c->hi;
		} else if (ord == ORD_DESC) {
			*hi = (long double)c->hi;
			*lo = xmax <= (uint64_t)c->hi - (uint64_t)tmin ? *hi - (long double)xmax
			                                               : (long double)tmin;
		} else {
			*lo = (long double)c->lo;
			*hi = xmax <= (uint64_t)tmax - (uint64_t)c->lo ? *lo + (long double)xmax
			                                               : (long double)tmax;
		}
	} else if (col == 0) { /* id: row + 1, DESC_TOP - row, or a hash */
		*lo = ord == ORD_DESC ? (long double)DESC_TOP - (long double)xmax : 0;
		*hi = ord == ORD_DESC  ? (long double)DESC_TOP
		      : ord == ORD_SEQ ? (long double)xmax + 1
		                       : (long double)INT64_MAX;
	} else if (t == COL_INT) {
		*lo = ord == ORD_DESC && xmax < 0x7fffffff ? 0x7fffffff - (long double)xmax : 0;
		*hi = ord == ORD_RAND || ord == ORD_DESC || xmax >= 0x7fffffff ? 0x7fffffff
		                                                               : (long double)xmax;
	} else if (t == COL_BIGINT) {
		*lo = ord == ORD_DESC ? (long double)DESC_TOP - (long double)xmax : 0;
		*hi = ord == ORD_DESC                       ? (long double)DESC_TOP
		      : ord == ORD_RAND || xmax > INT64_MAX ? (long double)INT64_MAX
		                                            : (long double)xmax;
		if (ord != ORD_DESC && xmax > INT64_MAX) /* (int64_t) of the count wraps */
			*lo = (long double)INT64_MIN;
	} else { /* numeric: below 10^prec; few and zipf N.99-like */
		uint64_t u = c->scale && c->prec > c->scale ? pow10u(c->scale) : 1,
		         top = ord == ORD_RAND || xmax >= p ? p - 1 : xmax;

		*lo = 0;
		if ((ord == ORD_FEW || ord == ORD_ZIPF) && u > 1) {
			*lo = (long double)(u - 1);
			top = xmax < (p - u + 1) / u ? xmax * u + u - 1 : p - 1;
			if (top == p - 1)
				*lo = 0;
		}
		*hi = (long double)top;
	}
	if (t == COL_NUMERIC && c->scale > 0) {
		*lo /= (long double)pow10u(c->scale);
		*hi /= (long double)pow10u(c->scale);
	}
	return 0;
}
