/* stream.c - libmongoc connections that a stop can end (see the
 * header). The stream wraps libmongoc's socket stream and forwards every
 * call to it; only readv differs: it polls the socket in slices of
 * SLICE_MS before it reads, so it can look at the stop request in between.
 * Nothing is read before poll says the socket is readable, so no byte is
 * lost when it gives up. */
#include "stream.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#define SLICE_MS    50
#define STREAM_TYPE 0x1d1 /* none of libmongoc's own stream types */

struct stop_stream {
	mongoc_stream_t vtable;       /* first: libmongoc calls through it */
	mongoc_stream_t *inner;       /* the socket stream, owned */
	struct mongo_stream_ctx *ctx; /* borrowed */
	int timed_out;                /* the last read gave up */
};

static struct stop_stream *of(mongoc_stream_t *s)
{
	return (struct stop_stream *)s;
}

static void s_destroy(mongoc_stream_t *s)
{
	mongoc_stream_destroy(of(s)->inner);
	bson_free(s);
}

static void s_failed(mongoc_stream_t *s)
{
	mongoc_stream_failed(of(s)->inner);
	bson_free(s);
}

static int s_close(mongoc_stream_t *s)
{
	return mongoc_stream_close(of(s)->inner);
}

static int s_flush(mongoc_stream_t *s)
{
	return mongoc_stream_flush(of(s)->inner);
}

static ssize_t s_writev(mongoc_stream_t *s, mongoc_iovec_t *iov, size_t iovcnt, int32_t ms)
{
	return mongoc_stream_writev(of(s)->inner, iov, iovcnt, ms);
}

static int s_setsockopt(mongoc_stream_t *s, int level, int name, void *val, mongoc_socklen_t len)
{
	return mongoc_stream_setsockopt(of(s)->inner, level, name, val, len);
}

static mongoc_stream_t *s_base(mongoc_stream_t *s)
{
	return of(s)->inner;
}

static bool s_check_closed(mongoc_stream_t *s)
{
	return mongoc_stream_check_closed(of(s)->inner);
}

static bool s_timed_out(mongoc_stream_t *s)
{
	return of(s)->timed_out || mongoc_stream_timed_out(of(s)->inner);
}

static bool s_should_retry(mongoc_stream_t *s)
{
	return mongoc_stream_should_retry(of(s)->inner);
}

/* ms < 0: no limit (libmongoc's convention), 0: what is there now. */
static ssize_t s_readv(mongoc_stream_t *s, mongoc_iovec_t *iov, size_t iovcnt, size_t min_bytes,
                       int32_t ms)
{
	struct stop_stream *ss = of(s);
	int64_t t0 = bson_get_monotonic_time(), stopped = 0;

	ss->timed_out = 0;
	for (;;) {
		mongoc_stream_poll_t p = { ss->inner, POLLIN, 0 };
		int64_t now = bson_get_monotonic_time(), left = -1;

		if (ss->ctx->stop && atomic_load(ss->ctx->stop)) {
			if (!stopped)
				stopped = now;
			if (ss->ctx->unanswered || now - stopped >= MONGO_STREAM_STOP_MS * 1000LL) {
				ss->ctx->unanswered = 1;
				ss->timed_out = 1;
				errno = ETIMEDOUT;
				return -1;
			}
		}
		if (ms >= 0) {
			left = ms - (now - t0) / 1000;
			if (left <= 0)
				return mongoc_stream_readv(ss->inner, iov, iovcnt, min_bytes, 0);
		}
		/* Readable, closed or failed: the read says which. */
		if (mongoc_stream_poll(&p, 1,
		                       left < 0 || left > SLICE_MS ? SLICE_MS : (int32_t)left))
			return mongoc_stream_readv(ss->inner, iov, iovcnt, min_bytes,
			                           left < 0 ? -1 : (int32_t)left);
	}
}

static void tune_tcp(mongoc_socket_t *sock)
{
	int one = 1, idle = 10, intvl = 5, cnt = 3;

	/* As libmongoc's own connections: no Nagle delay, keepalives that
	 * find a peer gone in under a minute. */
	(void)mongoc_socket_setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	(void)mongoc_socket_setsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
	(void)mongoc_socket_setsockopt(sock, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	(void)mongoc_socket_setsockopt(sock, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	(void)mongoc_socket_setsockopt(sock, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

static mongoc_socket_t *connect_host(const mongoc_host_list_t *h, int32_t ms, bson_error_t *be)
{
	int64_t expire = bson_get_monotonic_time() + (int64_t)ms * 1000;
	struct addrinfo hints, *res = NULL, *ai;
	mongoc_socket_t *sock = NULL;
	char port[8];

	if (h->family == AF_UNIX) {
		struct sockaddr_un sa;

		memset(&sa, 0, sizeof sa);
		sa.sun_family = AF_UNIX;
		if (strlen(h->host) < sizeof sa.sun_path) {
			memcpy(sa.sun_path, h->host, strlen(h->host));
			sock = mongoc_socket_new(AF_UNIX, SOCK_STREAM, 0);
		}
		if (sock &&
		    mongoc_socket_connect(sock, (struct sockaddr *)&sa, sizeof sa, expire) != 0) {
			mongoc_socket_destroy(sock);
			sock = NULL;
		}
	} else {
		memset(&hints, 0, sizeof hints);
		hints.ai_family =
		    h->family == AF_INET || h->family == AF_INET6 ? h->family : AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		snprintf(port, sizeof port, "%u", (unsigned)h->port);
		if (getaddrinfo(h->host, port, &hints, &res) != 0) {
			bson_set_error(be, MONGOC_ERROR_STREAM, MONGOC_ERROR_STREAM_NAME_RESOLUTION,
			               "Failed to resolve '%s'", h->host);
			return NULL;
		}
		for (ai = res; ai && !sock; ai = ai->ai_next) {
			sock = mongoc_socket_new(ai->ai_family, SOCK_STREAM, 0);
			if (sock &&
			    mongoc_socket_connect(sock, ai->ai_addr,
			                          (mongoc_socklen_t)ai->ai_addrlen, expire) != 0) {
				mongoc_socket_destroy(sock);
				sock = NULL;
			}
		}
		freeaddrinfo(res);
		if (sock)
			tune_tcp(sock);
	}
	if (!sock)
		bson_set_error(be, MONGOC_ERROR_STREAM, MONGOC_ERROR_STREAM_CONNECT,
		               "Failed to connect to target host: %s", h->host_and_port);
	return sock;
}

static mongoc_stream_t *initiate(const mongoc_uri_t *uri, const mongoc_host_list_t *host, void *arg,
                                 bson_error_t *be)
{
	struct mongo_stream_ctx *ctx = arg;
	mongoc_socket_t *sock;
	struct stop_stream *ss;

	(void)uri;
	/* Given up on: no new connection either (a full listen queue would
	 * hold it for connectTimeoutMS); after a stop, at most the bound. */
	if (ctx->unanswered) {
		bson_set_error(be, MONGOC_ERROR_STREAM, MONGOC_ERROR_STREAM_CONNECT,
		               "%s did not answer: given up after the stop", host->host_and_port);
		return NULL;
	}
	sock = connect_host(host,
	                    ctx->stop && atomic_load(ctx->stop) &&
	                            ctx->connect_ms > MONGO_STREAM_STOP_MS
	                        ? MONGO_STREAM_STOP_MS
	                        : ctx->connect_ms,
	                    be);
	if (!sock)
		return NULL;
	ss = bson_malloc0(sizeof *ss);
	ss->inner = mongoc_stream_socket_new(sock);
	ss->ctx = ctx;
	ss->vtable.type = STREAM_TYPE;
	ss->vtable.destroy = s_destroy;
	ss->vtable.failed = s_failed;
	ss->vtable.close = s_close;
	ss->vtable.flush = s_flush;
	ss->vtable.writev = s_writev;
	ss->vtable.readv = s_readv;
	ss->vtable.setsockopt = s_setsockopt;
	ss->vtable.get_base_stream = s_base;
	ss->vtable.check_closed = s_check_closed;
	ss->vtable.timed_out = s_timed_out;
	ss->vtable.should_retry = s_should_retry;
	return &ss->vtable;
}

int mongo_stream_install(mongoc_client_t *client, const mongoc_uri_t *uri,
                         struct mongo_stream_ctx *ctx)
{
	if (mongoc_uri_get_tls(uri))
		return 0;
	ctx->connect_ms = mongoc_uri_get_option_as_int32(uri, MONGOC_URI_CONNECTTIMEOUTMS, 10000);
	mongoc_client_set_stream_initiator(client, initiate, ctx);
	return 1;
}
