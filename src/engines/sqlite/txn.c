/* txn.c - the SQLite engine's step: its hooks into the shared step loop
 * (../txn.c): BEGIN, one operation, COMMIT, acknowledged when it returns
 * (--load multirow: the rows kept go first, multirow.c). */
#include "sqlite_int.h"

static int begin(struct engine *en, struct err *e)
{
	return sqlite_run(en, "BEGIN", e);
}

static int commit(struct engine *en, struct txn *t, struct err *e)
{
	(void)t;
	if (sqlite_multirow_flush(en, e) < 0)
		return -1;
	return sqlite_run(en, "COMMIT", e);
}

const struct txn_hooks sqlite_txn_hooks = {
	.begin = begin,
	.op = sqlite_do_op,
	.commit = commit,
};
