/* stream.h - libmongoc connections that a stop can end.
 *
 * libmongoc waits for a reply up to socketTimeoutMS (5 minutes unless the
 * URI says) and cannot cancel a command. The stream initiator here connects
 * as libmongoc does (TCP with TCP_NODELAY and keepalives, or a unix socket)
 * and reads through a stream that waits in slices: once *stop is set, a
 * server that has not answered within MONGO_STREAM_STOP_MS is given up on
 * (the read fails as a timeout, ctx->unanswered is set, and every later
 * read fails at once, so nothing after it waits either). A URI with TLS
 * keeps libmongoc's own streams, without that bound: poll cannot see the
 * bytes TLS holds in its buffers. */
#ifndef IDXLAB_MONGO_STREAM_H
#define IDXLAB_MONGO_STREAM_H

#include <mongoc/mongoc.h>
#include <stdatomic.h>

#define MONGO_STREAM_STOP_MS 1000

struct mongo_stream_ctx {
	const atomic_int *stop; /* borrowed: the user's stop request */
	int unanswered;         /* a read gave up on the server (worker thread only) */
	int32_t connect_ms;     /* connectTimeoutMS */
};

/* Connect client's streams through ctx (borrowed: it must outlive the
 * client) unless uri asks for TLS. 1 if installed, 0 if not. The client is
 * single-threaded; ctx is read and written by the thread that uses it. */
int mongo_stream_install(mongoc_client_t *client, const mongoc_uri_t *uri,
                         struct mongo_stream_ctx *ctx);

#endif
