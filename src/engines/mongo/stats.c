/* stats.c - the server's counters and sizes.
 *
 * serverStatus (trimmed to the sections idxlab reads) is parsed by
 * status.c, whose table says where each value lives and which
 * counter it feeds, every value by key name and n/a when absent; sizes
 * come from $collStats storageStats; write() and device bytes from /proc of
 * a mongod running on this machine, through io_table below. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../evlog.h"
#include "../../probes/proc.h"
#include "internal.h"

/* serverStatus without the sections idxlab never reads (replication,
 * locks, ... can be large); metrics only when the reads count from it
 * (reads.c). */
int mongo_server_status(struct engine *en, bson_error_t *be)
{
	static const char *const skip[] = {
		"asserts",     "connections",   "electionMetrics", "extra_info",
		"flowControl", "globalLock",    "locks",           "logicalSessionRecordCache",
		"metrics",     "mirroredReads", "network",         "repl",
		"security",    "tcmalloc",      "transactions",    "twoPhaseCommitCoordinator"
	};
	bson_t cmd = BSON_INITIALIZER, reply;
	size_t i;
	int rc;

	BSON_APPEND_INT32(&cmd, "serverStatus", 1);
	for (i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (strcmp(skip[i], "metrics") != 0 ||
		    !(mongo_reads_counted(en) & 1u << C_READ_EXAMINED))
			BSON_APPEND_INT32(&cmd, skip[i], 0);
	rc = mongo_command(en, "admin", &cmd, &reply, be);
	bson_destroy(&cmd);
	if (rc < 0)
		return -1;
	mongo_status_parse(&reply, &en->st);
	bson_destroy(&reply);
	return 0;
}

/* Is the server this URI names on this machine? */
static int is_local(const struct engine *en)
{
	const mongoc_host_list_t *h = mongoc_uri_get_hosts(en->uri);
	char me[256] = "";
	size_t len;

	if (h && h->family != AF_UNIX && strcmp(h->host, "localhost") != 0 &&
	    strncmp(h->host, "127.", 4) != 0 && strcmp(h->host, "::1") != 0) {
		/* serverStatus says "host": "<hostname>:<port>" */
		if (gethostname(me, sizeof me - 1) < 0)
			return 0;
		len = strlen(me);
		return len && strncmp(en->st.host, me, len) == 0 &&
		       (en->st.host[len] == ':' || en->st.host[len] == 0);
	}
	return h != NULL;
}

/* Where the server runs here and its /proc is readable, sample its io. */
void mongo_find_server_processes(struct engine *en)
{
	char comm[64] = "";
	struct proc_io io;
	pid_t pid = en->mongod;

	en->has_server_io = 0;
	if (pid <= 0 && is_local(en) && en->st.have & 1u << MS_PID) {
		pid = (pid_t)en->st.v[MS_PID];
		if (proc_comm(pid, comm, sizeof comm) < 0 || strncmp(comm, "mongod", 6) != 0)
			pid = 0;
	}
	if (pid > 0) {
		proc_tree_init(&en->tree, pid);
		if (proc_tree_sample(&en->tree, &io) == 0)
			en->has_server_io = 1;
	}
	if (!en->has_server_io)
		evlog_add(EV_INFO, "write() and device bytes are n/a: the MongoDB server is not a "
		                   "process on this machine that idxlab may read");
}

/* The counters the server's /proc io feeds: {counter, source}, as
 * status.c's table does for serverStatus. */
static const struct {
	enum ctr counter;
	size_t source; /* offset of a uint64_t in struct proc_io */
} io_table[] = {
	{ .counter = C_WCHAR, .source = offsetof(struct proc_io, wchar) },
	{ .counter = C_WRITE_BYTES, .source = offsetof(struct proc_io, write_bytes) },
};

int mongo_sample(struct engine *en, struct counters *c, struct err *e)
{
	struct proc_io io;
	bson_error_t be;
	size_t i;

	if (!en->status_denied) {
		if (mongo_server_status(en, &be) < 0) {
			if (!mongo_is_denied(&be))
				return mongo_fail(en, &be, e, "serverStatus");
			en->status_denied = 1;
			memset(&en->st, 0, sizeof en->st);
			evlog_add(EV_WARN, "the server's statistics are n/a: serverStatus is not "
			                   "allowed for this user (grant clusterMonitor)");
		}
		mongo_status_counters(&en->st, c);
	}
	mongo_reads_sample(en, c);
	if (en->has_server_io && proc_tree_sample(&en->tree, &io) == 0)
		for (i = 0; i < sizeof io_table / sizeof io_table[0]; i++) {
			memcpy(&c->v[io_table[i].counter], (const char *)&io + io_table[i].source,
			       sizeof(uint64_t));
			c->valid |= 1u << io_table[i].counter;
		}
	return 0;
}

const struct engine_stats mongo_io_stats = ENGINE_STATS(io_table, counter);

int mongo_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	bson_t pipeline = BSON_INITIALIZER, stage, spec, cs, ss;
	mongoc_cursor_t *cur;
	const bson_t *doc;
	bson_error_t be;
	int rc = 0;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (en->sizes_denied)
		return 0;
	/* [ { $collStats: { storageStats: {} } } ] */
	BSON_APPEND_ARRAY_BEGIN(&pipeline, "pipeline", &stage);
	BSON_APPEND_DOCUMENT_BEGIN(&stage, "0", &spec);
	BSON_APPEND_DOCUMENT_BEGIN(&spec, "$collStats", &cs);
	BSON_APPEND_DOCUMENT_BEGIN(&cs, "storageStats", &ss);
	bson_append_document_end(&cs, &ss);
	bson_append_document_end(&spec, &cs);
	bson_append_document_end(&stage, &spec);
	bson_append_array_end(&pipeline, &stage);
	cur = mongoc_collection_aggregate(en->coll, MONGOC_QUERY_NONE, &pipeline, NULL, NULL);
	if (mongoc_cursor_next(cur, &doc)) {
		const struct schema *sc = schema_of(&en->k);
		char buf[SCHEMA_IDX_MAX][SCHEMA_NAME_MAX * SCHEMA_IDX_COLS];
		const char *names[SCHEMA_IDX_MAX];
		int i, n = (int)en->k.v[K_INDEXES];

		if (n > SCHEMA_IDX_MAX)
			n = SCHEMA_IDX_MAX;
		for (i = 0; i < n; i++) {
			mongo_doc_index_name(sc, i, buf[i], sizeof buf[i]);
			names[i] = buf[i];
		}
		mongo_collstats_index_sizes(doc, names, n, s);
	}
	if (mongoc_cursor_error(cur, &be)) {
		if (mongo_is_denied(&be)) {
			en->sizes_denied = 1;
			evlog_add(EV_WARN, "sizes are n/a: $collStats is not allowed here (%s)",
			          be.message);
		} else if (be.code != CODE_NOT_FOUND) {
			rc = mongo_fail(en, &be, e, "$collStats");
		}
	}
	mongoc_cursor_destroy(cur);
	bson_destroy(&pipeline);
	return rc;
}
