/* stats.c - the SQLite engine's statistics: one table says where each
 * counter comes from.
 *
 * sqlite3_db_status() cache spill/miss/hit counters are 31-bit, so they are
 * read with reset and summed in 64 bits (en->status); bytes written per
 * file kind come from the counting VFS shim (vfs.c); fsyncs
 * from the interposer (probes/sync_count.c), with or without --probes;
 * wchar/write_bytes from /proc/self/io less the main thread's
 * (proc_io_read_engine). Sizes: the page count, and dbstat's pages per
 * index. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../evlog.h"
#include "../../probes/proc_io.h"
#include "../../probes/sync_count.h"
#include "sqlite_int.h"
#include "vfs.h"

enum stat_source {
	SRC_SYNC,    /* fsync + fdatasync calls (the interposer): read without --probes too */
	SRC_STATUS,  /* a sqlite3_db_status counter: read with reset, summed in en->status */
	SRC_GAUGE,   /* a sqlite3_db_status level, now (no reset) */
	SRC_VFS,     /* bytes the VFS shim saw written to the file kinds in .kinds */
	SRC_PROC_IO, /* the struct proc_io field at .io */
};

#define IO_FIELD(f) offsetof(struct proc_io, f)

/* Where each counter comes from. */
static const struct stat_row {
	enum ctr counter;
	enum stat_source source;
	int status;     /* SRC_STATUS, SRC_GAUGE: SQLITE_DBSTATUS_* */
	unsigned kinds; /* SRC_VFS: bits 1u << VFS_*, summed */
	size_t io;      /* SRC_PROC_IO: IO_FIELD(the struct proc_io field) */
} stats[] = {
	{ .counter = C_FSYNCS, .source = SRC_SYNC },
	{ .counter = C_SPILLS, .source = SRC_STATUS, .status = SQLITE_DBSTATUS_CACHE_SPILL },
	{ .counter = C_MISSES, .source = SRC_STATUS, .status = SQLITE_DBSTATUS_CACHE_MISS },
	{ .counter = C_HITS, .source = SRC_STATUS, .status = SQLITE_DBSTATUS_CACHE_HIT },
	{ .counter = C_WAL_BYTES, .source = SRC_VFS, .kinds = 1u << VFS_JOURNAL | 1u << VFS_WAL },
	{ .counter = C_DB_WRITE_BYTES, .source = SRC_VFS, .kinds = 1u << VFS_DB },
	/* The pager cache's heap; SQLite has no count of its dirty pages. */
	{ .counter = C_CACHE_USED, .source = SRC_GAUGE, .status = SQLITE_DBSTATUS_CACHE_USED },
	{ .counter = C_WCHAR, .source = SRC_PROC_IO, .io = IO_FIELD(wchar) },
	{ .counter = C_WRITE_BYTES, .source = SRC_PROC_IO, .io = IO_FIELD(write_bytes) },
};

#define NSTATS (sizeof stats / sizeof stats[0])

/* Reset the SRC_STATUS counters, adding what they held into en->status if
 * keep (else the counts are idxlab's own queries', thrown away). */
static void read_status(struct engine *en, int keep)
{
	size_t i;

	if (!en->probes || !en->db)
		return;
	for (i = 0; i < NSTATS; i++) {
		int cur = 0, hi = 0;

		if (stats[i].source != SRC_STATUS)
			continue;
		sqlite3_db_status(en->db, stats[i].status, &cur, &hi, 1);
		if (keep)
			en->status[stats[i].counter] += (uint64_t)cur;
	}
}

void sqlite_status_absorb(struct engine *en)
{
	read_status(en, 1);
}

int sqlite_sample(struct engine *en, struct counters *c, struct err *e)
{
	struct vfs_counts vc = { 0 };
	struct proc_io io = { 0 };
	int have_io = 0;
	size_t i;

	(void)e;
	if (en->probes) {
		sqlite_status_absorb(en);
		sqlite_vfs_sample(&vc);
		have_io = proc_io_read_engine(&io) == 0;
	}
	for (i = 0; i < NSTATS; i++) {
		const struct stat_row *r = &stats[i];
		uint64_t v = 0;
		int cur = 0, hi = 0, kind;

		if (r->source != SRC_SYNC && !en->probes)
			continue;
		switch (r->source) {
		case SRC_SYNC:
			v = sync_count_total();
			break;
		case SRC_STATUS:
			v = en->status[r->counter];
			break;
		case SRC_GAUGE:
			if (!en->db)
				continue;
			sqlite3_db_status(en->db, r->status, &cur, &hi, 0);
			v = (uint64_t)cur;
			break;
		case SRC_VFS:
			for (kind = 0; kind < VFS_KINDS; kind++)
				if (r->kinds & 1u << kind)
					v += vc.write_bytes[kind];
			break;
		case SRC_PROC_IO:
			if (!have_io)
				continue;
			memcpy(&v, (const char *)&io + r->io, sizeof v);
			break;
		}
		c->v[r->counter] = v;
		c->valid |= 1u << r->counter;
	}
	return 0;
}

const struct engine_stats sqlite_stats = ENGINE_STATS(stats, counter);

int sqlite_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	sqlite3_stmt *st;
	int64_t pages = 0, psize = 0;
	int rc, i;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (sqlite_query_int(en, "PRAGMA page_count", &pages, e) < 0 ||
	    sqlite_query_int(en, "PRAGMA page_size", &psize, e) < 0)
		return -1;
	s->db_bytes = pages * psize;
	/* One index at a time: dbstat then walks only that btree (name =). It
	 * reads through our page cache: absorb the workload's cache counts
	 * before, and throw away the walk's own misses and hits after. */
	sqlite_status_absorb(en);
	if (sqlite3_prepare_v2(
	        en->db, "SELECT count(*), coalesce(sum(pgsize), 0) FROM dbstat WHERE name = ?1", -1,
	        &st, NULL) != SQLITE_OK) {
		evlog_add(EV_WARN, "sqlite: dbstat is not available: index sizes are n/a");
		return 0;
	}
	s->index_bytes = 0;
	for (i = 1; i <= en->k.v[K_INDEXES]; i++) {
		sqlite3_bind_text(st, 1, en->s->idx[i - 1].name, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW) {
			sqlite3_finalize(st);
			return sqlite_fail(en, e, "dbstat");
		}
		s->index_bytes += sqlite3_column_int64(st, 1); /* all; pages of the first 8 */
		if (i <= SIZES_MAX_INDEXES) {
			s->index_pages[i - 1] = sqlite3_column_int64(st, 0);
			s->nindex = i;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	read_status(en, 0);
	return 0;
}
