/* reads.c - the WiredTiger engine's reads (op lookup, range; ../reads.h).
 *
 * A query runs through the cursors mongod's plan would open on this layout
 * (schema.c). When its first term's column leads an index that is built
 * (the id: _id), a raw cursor on that index table is put at the term's
 * value - search_near to the start of the keys that hold it, packed as the
 * index packs its keys (wt_index_prefix) - and walked, forward or, for an
 * order by that column desc, backward, while the term holds (=, <, <=) or
 * to the limit (>, >=); each entry's record id fetches the record from the
 * collection through a second cursor (a read fetches its rows), where the
 * second term filters. Of the indexes that lead with the column, one that
 * also gives the query's order is taken (an equality on its first column,
 * the order on its second), then one whose second column is the second
 * term's: its entries for the value are in that column's order, so the
 * walk starts at that term's bound when it runs away from it, and ends
 * where the term stops holding for good when it runs toward it (a lower
 * bound is walked down to when no order is asked for). Otherwise the
 * collection is scanned whole and every term filters. An order the walk does not give (a scan's, another
 * column's) keeps the limit's first rows in a heap, as a sort with a limit
 * does. What served a query is the cursor opened: the index's name as the
 * spec names it ("primary key" for _id, as MongoDB's IDHACK says), or "scan".
 *
 * Rows examined are counted here as the cursors move, exact by
 * construction: every index entry whose key was read and compared to the
 * query's value (the one past the last match too: it ends the walk) and
 * every record a scan read; a record fetched by an entry's record id is
 * that entry's, not counted again. A lookup of one row through a plain
 * index examines 2 (the match, the entry after it), through a unique one
 * 1. Pages read are WiredTiger's "cache: pages read into cache" between
 * two samples of a read step (stats.c calls wt_reads_pages): on a read step
 * every page read into the cache is a query's, and a statistics cursor
 * around each query would cost more than an indexed query itself (120 us
 * a read of it, against 2 to 5 us a lookup through an index). In a mix the
 * writes read pages too: pages read per query are n/a there, as with
 * --probes off (no statistics). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Column col's values at a and b, as a record holds them: <0, 0, >0. */
static int col_cmp(const struct engine *en, int col, const unsigned char *a, const unsigned char *b)
{
	switch (en->col_fmt[col]) {
	case 'i': {
		int32_t x, y;

		memcpy(&x, a, sizeof x);
		memcpy(&y, b, sizeof y);
		return (x > y) - (x < y);
	}
	case 'q': {
		int64_t x, y;

		memcpy(&x, a, sizeof x);
		memcpy(&y, b, sizeof y);
		return (x > y) - (x < y);
	}
	default: /* text (zero-padded to its width), uuid: byte order */
		return memcmp(a, b, en->col_len[col]);
	}
}

/* Does a value that compares r (<0, 0, >0) to the term's meet cmp? */
static int holds(enum query_cmp cmp, int r)
{
	switch (cmp) {
	case QC_EQ:
		return r == 0;
	case QC_LT:
		return r < 0;
	case QC_LE:
		return r <= 0;
	case QC_GT:
		return r > 0;
	default:
		return r >= 0;
	}
}

/* Does index x hold q's second term's column second, under an equality
 * on its first (its entries for the value are in that column's order)? */
static int second(const struct wt_index *x, const struct query_spec *q)
{
	return q->nterms > 1 && q->term[0].cmp == QC_EQ && x->ncols > 1 &&
	       x->cols[1] == q->term[1].col;
}

/* The index table that serves q: a built one (0: _id) whose first column
 * is q's first term's; of those, first one that gives q's order
 * (*ordered), then one that holds the second term's column second; -1:
 * none, a scan. */
static int choose(const struct engine *en, const struct query_spec *q, int *ordered)
{
	int kc = q->term[0].col, best = -1, score = -1, i;

	*ordered = 0;
	for (i = 0; i <= en->nidx; i++) {
		const struct wt_index *x = &en->ix[i];
		int o, sc;

		if (x->cols[0] != kc)
			continue;
		o = q->order_col < 0 || q->order_col == kc ||
		    (q->term[0].cmp == QC_EQ && x->ncols > 1 && x->cols[1] == q->order_col);
		sc = 2 * o + second(x, q);
		if (sc > score) {
			best = i;
			score = sc;
			*ordered = o;
		}
	}
	return best;
}

/* Walking index x for q (backward: desc), record rec failed the second
 * term for good: its column is x's second, in the walk's order, and has
 * gone past what the term admits (the rest of the walk cannot meet it). */
static int past_second(const struct engine *en, const struct wt_index *x,
                       const struct query_spec *q, int desc, const unsigned char *rec)
{
	int col = q->term[1].col, r;

	if (!second(x, q))
		return 0;
	r = col_cmp(en, col, rec + en->col_off[col], en->rd.val[1]);
	switch (q->term[1].cmp) {
	case QC_EQ:
		return desc ? r < 0 : r > 0;
	case QC_LT:
		return !desc && r >= 0;
	case QC_LE:
		return !desc && r > 0;
	case QC_GT:
		return desc && r <= 0;
	default:
		return desc && r < 0;
	}
}

void wt_free_reads(struct engine *en)
{
	struct wt_reads *r = &en->rd;
	int i;

	for (i = 0; i < NIDX; i++) {
		if (r->cur[i])
			r->cur[i]->close(r->cur[i]);
		r->cur[i] = NULL;
	}
	r->rd.n = 0;
}

int wt_prepare_reads(struct engine *en, const struct knobs *k, struct err *e)
{
	struct wt_reads *r = &en->rd;
	int i, rc;

	wt_free_reads(en);
	reads_prepare(&r->rd, en->sc, k, k->v[K_OP]);
	for (i = 0; i < r->rd.n; i++) {
		const struct query_spec *q = &r->rd.q[i];
		int ordered = 0, x = choose(en, q, &ordered);

		r->ix[i] = x;
		r->desc[i] = x >= 0 && ordered && q->order_col >= 0 && q->order_desc;
		/* no order asked: a lower bound on the second column is walked
		 * down to, from the value's last entry (past_second ends it) */
		if (x >= 0 && q->order_col < 0 && second(&en->ix[x], q))
			r->desc[i] = q->term[1].cmp == QC_GT || q->term[1].cmp == QC_GE;
		r->sort[i] = q->order_col >= 0 && !(x >= 0 && ordered);
		snprintf(r->rd.served[i], sizeof r->rd.served[i], "%s",
		         x < 0    ? "scan"
		         : x == 0 ? "primary key"
		                  : en->ix[x].name);
		if (x < 0 || r->cur[x])
			continue;
		/* raw: keys as packed bytes, compared as WiredTiger orders them */
		if ((rc = en->s->open_cursor(en->s, en->ix[x].uri, NULL, "raw", &r->cur[x])) != 0) {
			char what[128];

			r->cur[x] = NULL;
			snprintf(what, sizeof what, "open %s for the queries", en->ix[x].uri);
			return wt_fail(en, e, what, rc);
		}
	}
	return 0;
}

/* ---- one query ------------------------------------------------------ */

/* Does a come after b in q's order (the worse row to keep)? */
static int after(const struct engine *en, const struct query_spec *q, const unsigned char *a,
                 const unsigned char *b)
{
	int r = col_cmp(en, q->order_col, a, b);

	return q->order_desc ? r < 0 : r > 0;
}

static void swap(unsigned char *a, unsigned char *b, size_t w)
{
	unsigned char t[SCHEMA_TEXT_MAX];

	memcpy(t, a, w);
	memcpy(a, b, w);
	memcpy(b, t, w);
}

/* Keep p, the order column of a row that matched, if it is among q's
 * limit first in q's order (every one without a limit): a heap whose root
 * is the last kept. */
static void keep(struct engine *en, const struct query_spec *q, const unsigned char *p)
{
	struct wt_reads *r = &en->rd;
	size_t w = en->col_len[q->order_col], i, c;
	unsigned char *h;

	if (q->limit && r->hn >= (size_t)q->limit) {
		if (!after(en, q, r->heap, p))
			return;
		memcpy(r->heap, p, w); /* in the root's place, then down */
		for (h = r->heap, i = 0; (c = 2 * i + 1) < r->hn; i = c) {
			if (c + 1 < r->hn && after(en, q, h + (c + 1) * w, h + c * w))
				c++;
			if (!after(en, q, h + c * w, h + i * w))
				break;
			swap(h + c * w, h + i * w, w);
		}
		return;
	}
	if ((r->hn + 1) * w > r->hcap) {
		r->hcap = r->hcap ? 2 * r->hcap : 4096;
		r->heap = realloc(r->heap, r->hcap);
		if (!r->heap)
			abort();
	}
	h = r->heap;
	memcpy(h + r->hn * w, p, w); /* at the end, then up */
	for (i = r->hn++; i > 0 && after(en, q, h + i * w, h + (i - 1) / 2 * w); i = (i - 1) / 2)
		swap(h + i * w, h + (i - 1) / 2 * w, w);
}

/* The record val, fetched or scanned: does it meet q's terms from the
 * from'th on? Kept (counted, or into the heap) when it does; 0 or
 * E_MISSING. */
static int take(struct engine *en, int i, int from, const WT_ITEM *val, uint64_t *rows)
{
	const struct query_spec *q = &en->rd.rd.q[i];
	const unsigned char *rec = val->data;
	int j;

	if (val->size < en->off_payload)
		return E_MISSING; /* not a record idxlab wrote */
	for (j = from; j < q->nterms; j++) {
		int col = q->term[j].col;

		if (!holds(q->term[j].cmp, col_cmp(en, col, rec + en->col_off[col], en->rd.val[j])))
			return 0;
	}
	if (en->rd.sort[i])
		keep(en, q, rec + en->col_off[q->order_col]);
	else
		(*rows)++;
	return 0;
}

/* An index cursor's walk: c on the index table, p the packed start of the
 * keys that hold the first term's value, the entries whose key it read. */
struct walk {
	WT_CURSOR *c;
	const unsigned char *p;
	size_t plen;
	unsigned char *s; /* where a seek starts: p, or p and the second term's
	                   * value; slen bytes and room for one more */
	size_t slen;
	uint64_t examined;
};

/* How the entry under the cursor's first column compares to the value:
 * its key read, the entry examined (counted). */
static int key_vs(struct walk *w, int *r)
{
	WT_ITEM k;
	int rc = w->c->get_key(w->c, &k);

	if (rc)
		return rc;
	w->examined++;
	*r = memcmp(k.data, w->p, k.size < w->plen ? k.size : w->plen);
	if (*r == 0 && k.size < w->plen)
		*r = -1;
	return 0;
}

/* To the first entry whose first column is >= the value (past: > it).
 * Past it is the value's packed start and a 0xff byte: above every key
 * that holds the value (what follows the start - a packed number, a
 * length - never begins with 0xff) and below every key past it (those
 * differ from the start within its bytes). */
static int seek(struct walk *w, int past)
{
	WT_ITEM key = { .data = w->s, .size = w->slen + (past != 0) };
	int exact = 0, rc;

	w->s[w->slen] = 0xff;
	w->c->set_key(w->c, &key);
	rc = w->c->search_near(w->c, &exact);
	if (rc == 0 && exact < 0)
		rc = w->c->next(w->c);
	return rc;
}

/* To the walk's first entry: forward, at the value (=, >=), past it (>)
 * or at the index's first (<, <=); backward, at the last entry with the
 * value (=, <=), the last before it (<) or the index's last (>, >=). A
 * cursor that ran off the end is unpositioned: prev() is then the last. */
static int start(struct walk *w, enum query_cmp cmp, int desc)
{
	int rc;

	if (!desc)
		return cmp == QC_LT || cmp == QC_LE ? w->c->next(w->c) : seek(w, cmp == QC_GT);
	if (cmp == QC_GE || cmp == QC_GT)
		return w->c->prev(w->c);
	rc = seek(w, cmp != QC_LT);
	return rc == 0 || rc == WT_NOTFOUND ? w->c->prev(w->c) : rc;
}

/* The record id of the entry under index x's cursor c: a unique index's
 * value, any other's key's last field. */
static int entry_recid(struct engine *en, const struct wt_index *x, WT_CURSOR *c, int64_t *recid)
{
	WT_PACK_STREAM *ps;
	WT_ITEM it;
	size_t used;
	int j, rc, rc2;

	if (x->unique)
		return (rc = c->get_value(c, &it)) != 0
		           ? rc
		           : wiredtiger_struct_unpack(en->s, it.data, it.size, "q", recid);
	if ((rc = c->get_key(c, &it)) != 0 ||
	    (rc = wiredtiger_unpack_start(en->s, x->key_format, it.data, it.size, &ps)) != 0)
		return rc;
	for (j = 0; rc == 0 && j < x->ncols; j++) {
		WT_ITEM skip;
		int64_t v;

		rc = x->key_format[j] == 'u' ? wiredtiger_unpack_item(ps, &skip)
		                             : wiredtiger_unpack_int(ps, &v);
	}
	if (rc == 0)
		rc = wiredtiger_unpack_int(ps, recid);
	rc2 = wiredtiger_pack_close(ps, &used);
	return rc ? rc : rc2;
}

/* Query i through its index: the walk, each entry's record fetched. */
static int run_index(struct engine *en, int i, uint64_t *rows, uint64_t *examined)
{
	struct wt_reads *r = &en->rd;
	const struct query_spec *q = &r->rd.q[i];
	const struct wt_index *x = &en->ix[r->ix[i]];
	enum query_cmp cmp = q->term[0].cmp;
	/* a unique index on the column alone holds the value once at most */
	int point = x->unique && x->ncols == 1 && cmp == QC_EQ, at = 0, rc;
	/* the second term bounds where the walk starts: its column is the
	 * index's second, and the walk runs from its bound (not toward it) */
	enum query_cmp c1 = q->nterms > 1 ? q->term[1].cmp : QC_EQ;
	int two =
	    second(x, q) &&
	    (c1 == QC_EQ || (r->desc[i] ? c1 == QC_LT || c1 == QC_LE : c1 == QC_GT || c1 == QC_GE));
	unsigned char p[KEY_MAX + 1], s2[KEY_MAX + 1];
	struct walk w = { .c = r->cur[r->ix[i]], .p = p, .s = p };

	if ((rc = wt_index_prefix(en, r->ix[i], r->val[0], NULL, p, sizeof p - 1, &w.plen)) != 0)
		return rc;
	w.slen = w.plen;
	if (two) {
		if ((rc = wt_index_prefix(en, r->ix[i], r->val[0], r->val[1], s2, sizeof s2 - 1,
		                          &w.slen)) != 0)
			return rc;
		w.s = s2;
	}
	if (point) {
		WT_ITEM key = { .data = p, .size = w.plen };

		w.c->set_key(w.c, &key);
		rc = w.c->search(w.c);
	} else {
		rc = start(&w, two ? c1 : cmp, r->desc[i]);
	}
	while (rc == 0) {
		int64_t recid;
		WT_ITEM val;

		if ((rc = key_vs(&w, &at)) != 0 || !holds(cmp, at))
			break;
		if ((rc = entry_recid(en, x, w.c, &recid)) != 0)
			break;
		en->coll->set_key(en->coll, recid);
		if ((rc = en->coll->search(en->coll)) == WT_NOTFOUND)
			rc = E_MISSING; /* an entry without its record: not what idxlab built */
		if (rc != 0 || (rc = en->coll->get_value(en->coll, &val)) != 0 ||
		    (rc = take(en, i, 1, &val, rows)) != 0)
			break;
		if (point || (!r->sort[i] && q->limit && *rows >= (uint64_t)q->limit) ||
		    past_second(en, x, q, r->desc[i], val.data))
			break;
		rc = r->desc[i] ? w.c->prev(w.c) : w.c->next(w.c);
	}
	w.c->reset(w.c);
	en->coll->reset(en->coll);
	*examined += w.examined;
	return rc == WT_NOTFOUND ? 0 : rc; /* the walk ran off the index's end */
}

/* Query i by a scan of the collection, every term a filter. */
static int run_scan(struct engine *en, int i, uint64_t *rows, uint64_t *examined)
{
	const struct query_spec *q = &en->rd.rd.q[i];
	WT_CURSOR *c = en->coll;
	WT_ITEM val;
	int rc;

	while ((rc = c->next(c)) == 0) {
		(*examined)++;
		if ((rc = c->get_value(c, &val)) != 0 || (rc = take(en, i, 0, &val, rows)) != 0)
			break;
		if (!en->rd.sort[i] && q->limit && *rows >= (uint64_t)q->limit)
			break;
	}
	c->reset(c);
	return rc == WT_NOTFOUND ? 0 : rc;
}

int wt_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw)
{
	struct wt_reads *r = &en->rd;
	int miss, i = reads_pick(&r->rd, op, draw, &miss), j, rc;
	const struct query_spec *q = &r->rd.q[i];
	uint64_t rows = 0, examined = 0;

	en->fail_idx = -1;
	for (j = 0; j < q->nterms; j++) {
		struct value v;

		schema_query_value(en->sc, &en->k, &q->term[j], row, miss, &v);
		wt_put_value(en, q->term[j].col, &v, r->val[j]);
	}
	r->hn = 0;
	rc = r->ix[i] >= 0 ? run_index(en, i, &rows, &examined) : run_scan(en, i, &rows, &examined);
	if (r->sort[i])
		rows = r->hn;
	if (rc)
		return rc;
	en->txn->read_rows += rows;
	en->txn->read_examined += examined;
	return 0;
}

void wt_reads_pages(struct engine *en, uint64_t cache_read, int mark_only)
{
	if (!mark_only && OP_READS(en->k.v[K_OP]) && !en->txn->mixed &&
	    cache_read > en->rd.pages_mark)
		en->txn->read_pages += cache_read - en->rd.pages_mark;
	en->rd.pages_mark = cache_read;
}

const struct reads *wt_reads_of(struct engine *en)
{
	return &en->rd.rd;
}
