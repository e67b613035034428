/* errors.c - running a command, and what libmongoc's errors mean in words.
 *
 * mongo_fail turns a bson_error_t into a message a person can act on: a
 * stop the server did not answer, a throwaway mongod that died (with the
 * end of its log), an unreachable or lost server, a refused login, a
 * missing privilege, a foreign document, a full disk. */
#include <stdio.h>
#include <unistd.h>

#include "internal.h"

int mongo_is_denied(const bson_error_t *be)
{
	return be->code == CODE_DENIED || be->code == CODE_ATLAS;
}

/* A connection problem, as opposed to the server refusing one command. */
int mongo_is_connection(const bson_error_t *be)
{
	return be->domain == MONGOC_ERROR_STREAM || be->domain == MONGOC_ERROR_SERVER_SELECTION;
}

/* An error a person can act on, from a libmongoc error; what (NULL: none)
 * says what idxlab was doing. */
int mongo_fail(struct engine *en, const bson_error_t *be, struct err *e, const char *what)
{
	const char *sep = what ? ": " : "";

	if (!what)
		what = "";
	if (en->sctx.unanswered) {
		en->lost = 1;
		return err_set(e, ERR_RUNTIME,
		               "%s%sthe MongoDB server at %s did not answer within %.1f s of the "
		               "stop; idxlab gave up on it",
		               what, sep, en->hosts, MONGO_STREAM_STOP_MS / 1000.0);
	}
	if (en->mongod_dir[0] && mongo_is_connection(be)) {
		int i;

		/* Its socket closes while it dies: give the exit a moment to show. */
		for (i = 0; i < 10 && mongod_alive(en); i++)
			usleep(50000);
	}
	if (en->mongod_dir[0] && !mongod_alive(en) && en->mongod_died) {
		en->lost = 1;
		return mongod_died(en, e, what, be->message);
	}
	switch (be->domain) {
	case MONGOC_ERROR_SERVER_SELECTION:
		en->lost = 1;
		return err_set(e, ERR_RUNTIME,
		               "%s%scannot reach MongoDB at %s: %s - is mongod running there and "
		               "reachable from here? Check --dsn or MONGODB_URI "
		               "(mongodb://host:port/)",
		               what, sep, en->hosts, be->message);
	case MONGOC_ERROR_STREAM:
		en->lost = 1;
		return err_set(e, ERR_RUNTIME,
		               "%s%slost the connection to MongoDB at %s: %s - was the server "
		               "stopped or restarted?",
		               what, sep, en->hosts, be->message);
	case MONGOC_ERROR_CLIENT:
		if (be->code == MONGOC_ERROR_CLIENT_AUTHENTICATE)
			return err_set(e, ERR_RUNTIME,
			               "%s%sMongoDB at %s refused the login: %s - check the user, "
			               "password and authSource in the URI",
			               what, sep, en->hosts, be->message);
		break;
	default:
		break;
	}
	switch (be->code) {
	case CODE_DENIED:
	case CODE_ATLAS:
		return err_set(e, ERR_RUNTIME,
		               "%s%snot allowed: %s - connect as a user with readWrite on database "
		               "idxlab (and clusterMonitor for the server's statistics)",
		               what, sep, be->message);
	case CODE_DUP_KEY:
		return err_set(e, ERR_RUNTIME,
		               "%s%s%s - idxlab.t holds documents idxlab did not write there", what,
		               sep, be->message);
	case CODE_DISK_FULL:
		return err_set(e, ERR_RUNTIME,
		               "%s%sthe server's disk is full: %s - free space there or lower "
		               "--rows/--prefill",
		               what, sep, be->message);
	default:
		break;
	}
	return err_set(e, ERR_RUNTIME, "%s%sMongoDB said: %s (code %u)", what, sep, be->message,
	               be->code);
}

/* Run a command on database dbname; the reply goes into reply (the
 * caller's, destroy it) when not NULL. -1 with be filled on failure. */
int mongo_command(struct engine *en, const char *dbname, const bson_t *cmd, bson_t *reply,
                  bson_error_t *be)
{
	bson_t r;
	int ok = mongoc_client_command_simple(en->client, dbname, cmd, NULL, &r, be);

	if (ok && reply)
		bson_steal(reply, &r);
	else
		bson_destroy(&r);
	return ok ? 0 : -1;
}

/* The same, failing with a message. */
int mongo_command_or_fail(struct engine *en, const char *dbname, const bson_t *cmd, struct err *e,
                          const char *what)
{
	bson_error_t be;

	return mongo_command(en, dbname, cmd, NULL, &be) < 0 ? mongo_fail(en, &be, e, what) : 0;
}
