/* mix.c - a mixed workload (--mix insert:80,lookup:20; issue 22): ops
 * drawn by weight, per operation, from the seed.
 *
 * A mix is kept as a registry index (the mix knob's value, 0: none), its
 * weights in percent by op kind: knobs stay plain numbers and a sweep over
 * mixes is a sweep over the knob. A step under a mix runs its write op
 * (the op knob: the mix sets it) and its read ops (lookup, range, both:
 * reads.h), each operation drawn with the mix's weights from a hash of the
 * seed and the operation's number, so the same seed runs the same
 * sequence. A mix may hold several write ops (insert:60,update:20,
 * lookup:20): an engine keeps a write statement per op kind beside its
 * queries, and the step's op (the op knob) is the mix's first write op, the
 * one a drawn op with nothing to work on runs instead (txn.c). */
#include "mix.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "knobs.h"

#define MIX_MAX 64

static struct {
	unsigned char w[OP_COUNT];
	char text[96];
} mixes[MIX_MAX] = { { { 0 }, "none" } };
static int nmixes = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int op_of(const char *word)
{
	int op;

	for (op = 0; op < OP_COUNT; op++)
		if (strcmp(knob_table[K_OP].choices[op], word) == 0)
			return op;
	return -1;
}

/* text as weights into w; -1 and what to write. */
static int parse(const char *text, unsigned char *w, struct err *e)
{
	char buf[256], *tok, *next;
	int sum = 0, last = 0;

	memset(w, 0, OP_COUNT);
	snprintf(buf, sizeof buf, "%s", text);
	for (tok = buf; !last; tok = next + 1) {
		char *colon, *end;
		long pct;
		int op;

		next = tok + strcspn(tok, ",+");
		last = !*next;
		*next = 0;
		if (!*tok)
			return err_set(e, ERR_USAGE, "an empty item in the mix '%s'", text);
		if (!(colon = strchr(tok, ':')))
			return err_set(e, ERR_USAGE,
			               "'%s' in the mix: write OP:PERCENT (insert:80,lookup:20)",
			               tok);
		*colon = 0;
		if ((op = op_of(tok)) < 0)
			return err_set(
			    e, ERR_USAGE,
			    "'%s' in the mix is not an op (insert, update, update-indexed, "
			    "update-keys, delete, lookup, range)",
			    tok);
		pct = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || *end || pct < 1 || pct > 100)
			return err_set(e, ERR_USAGE,
			               "'%s:%s' in the mix: its weight is a whole percent, 1..100",
			               tok, colon + 1);
		if (w[op])
			return err_set(e, ERR_USAGE, "%s is twice in the mix '%s'", tok, text);
		w[op] = (unsigned char)pct;
		sum += (int)pct;
	}
	if (sum != 100)
		return err_set(e, ERR_USAGE,
		               "the mix '%s' adds to %d %%: its weights must add to 100", text,
		               sum);
	return 0;
}

int mix_resolve(const char *text, long long *out, struct err *e)
{
	unsigned char w[OP_COUNT];
	size_t n = 0;
	int i, op;

	if (strcmp(text, "none") == 0) {
		*out = 0;
		return 0;
	}
	if (parse(text, w, e) < 0)
		return -1;
	pthread_mutex_lock(&lock);
	for (i = 1; i < nmixes && memcmp(mixes[i].w, w, OP_COUNT) != 0; i++)
		;
	if (i == nmixes && nmixes == MIX_MAX) {
		pthread_mutex_unlock(&lock);
		return err_set(e, ERR_USAGE, "more than %d mixes in one run", MIX_MAX - 1);
	}
	if (i == nmixes) {
		memcpy(mixes[i].w, w, OP_COUNT);
		for (op = 0; op < OP_COUNT; op++) /* written in op order: one text a mix */
			if (w[op])
				n += (size_t)snprintf(mixes[i].text + n, sizeof mixes[i].text - n,
				                      "%s%s:%d", n ? "+" : "",
				                      knob_table[K_OP].choices[op], w[op]);
		nmixes++;
	}
	pthread_mutex_unlock(&lock);
	*out = i;
	return 0;
}

const char *mix_label(long long v)
{
	const char *t;

	pthread_mutex_lock(&lock);
	t = v >= 0 && v < nmixes ? mixes[v].text : NULL;
	pthread_mutex_unlock(&lock);
	return t;
}

int mix_weights(long long v, unsigned char w[OP_COUNT])
{
	int some;

	pthread_mutex_lock(&lock);
	some = v > 0 && v < nmixes;
	memcpy(w, mixes[some ? v : 0].w, OP_COUNT);
	pthread_mutex_unlock(&lock);
	return some;
}

int mix_of(const struct knobs *k, unsigned char w[OP_COUNT])
{
	unsigned char own[OP_COUNT];
	long long share = k->v[K_READ_SHARE];

	if (!w)
		w = own;
	if (mix_weights(k->v[K_MIX], w))
		return 1;
	if (share <= 0 || OP_READS(k->v[K_OP]))
		return 0;
	w[k->v[K_OP]] = (unsigned char)(100 - share);
	w[OP_LOOKUP] = (unsigned char)share;
	return 1;
}

unsigned mix_ops(const struct knobs *k)
{
	unsigned char w[OP_COUNT];
	unsigned ops = 0;
	int op;

	if (!mix_of(k, w))
		return 1u << k->v[K_OP];
	for (op = 0; op < OP_COUNT; op++)
		if (w[op])
			ops |= 1u << op;
	return ops;
}

int mix_read_op(const struct knobs *k)
{
	unsigned char w[OP_COUNT];
	int op;

	if (!mix_of(k, w))
		return -1;
	for (op = 0; op < OP_COUNT; op++)
		if (w[op] && OP_READS(op))
			return op;
	return -1;
}

void mix_text(const struct knobs *k, char *buf, size_t len)
{
	unsigned char w[OP_COUNT];
	size_t n = 0;
	int op;

	buf[0] = 0;
	if (!mix_of(k, w))
		return;
	for (op = 0; op < OP_COUNT && n < len; op++)
		if (w[op])
			n += (size_t)snprintf(buf + n, len - n, "%s%s:%d", n ? "+" : "",
			                      knob_table[K_OP].choices[op], w[op]);
}

int mix_op(long long v, int reads)
{
	unsigned char w[OP_COUNT];
	int op;

	if (!mix_weights(v, w))
		return -1;
	for (op = 0; op < OP_COUNT; op++)
		if (w[op] && (OP_READS(op) != 0) == (reads != 0))
			return op;
	return -1;
}

int mix_draw(const unsigned char w[OP_COUNT], uint64_t seed, uint64_t n)
{
	int x = (int)(keys_hash(seed, 0x6d6978ULL /* "mix" */, n) % 100), op;

	for (op = 0; op < OP_COUNT - 1; op++) {
		if (x < w[op])
			return op;
		x -= w[op];
	}
	return op;
}
