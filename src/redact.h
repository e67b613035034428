/* redact.h - passwords out of everything idxlab shows.
 *
 * A dsn carries a secret in one of these forms, each found by pattern in any
 * text (a dsn, or a library's message that quotes one):
 *   conninfo   password=PW, password = PW (any white space around '=', as
 *              libpq takes it), password='P W' (\' inside quotes),
 *              password=P\ W, sslpassword=PW
 *   URI        scheme://user:PW@host (an '@' before the host is the
 *              password's own), ?password=PW, &password=PW; in a dsn that
 *              is a URI, PW may hold spaces and quotes (libpq takes them)
 *   MongoDB    authMechanismProperties=AWS_SESSION_TOKEN:PW,...,
 *              tlsCertificateKeyFilePassword=PW
 * Each is replaced by "***". Key names match in any case. A secret that a
 * message quotes without its key ("invalid percent-encoded token: "PW"") is
 * found because redact_learn() remembered it: redact_text() masks every
 * learnt secret of REDACT_MIN_LEARNT bytes or more wherever it occurs
 * (shorter ones only where a pattern finds them, so that a password "ab"
 * does not mask every "ab" of every message).
 *
 * Every message passes redact_text() on its way out: err_set/err_prefix,
 * evlog_add, the recording's lines, the engine's "where" (the dashboard's
 * title); --print-config and the report's header show redact_dsn(). Thread-
 * safe: the learnt secrets are kept under a mutex. */
#ifndef IDXLAB_REDACT_H
#define IDXLAB_REDACT_H

#include <stddef.h>

#define REDACT_MASK       "***"
#define REDACT_MIN_LEARNT 4

/* in with every secret the patterns find replaced by REDACT_MASK, into out
 * (n bytes, always terminated when n > 0; cut at the end when too long).
 * Returns the length of the whole result, as snprintf does. */
size_t redact_dsn(const char *in, char *out, size_t n);

/* 1 when a pattern finds a secret in dsn. */
int redact_has_secret(const char *dsn);

/* Remember the secrets of dsn (NULL or "" is fine) for redact_text(): each
 * as written and, where it differs, as the library reads it (unquoted and
 * unescaped; percent-decoded in a URI). */
void redact_learn(const char *dsn);

/* redact_dsn(), and every learnt secret masked too. out may be NULL when n
 * is 0 (to learn the length). */
size_t redact_text(const char *in, char *out, size_t n);

/* Overwrite the string s (an argv entry: /proc/PID/cmdline shows it) with
 * redact_text(s), padded with NULs; when that would be longer than s, each
 * secret's bytes become '*' one for one instead. Never grows s; never
 * writes it when it holds no secret (a literal is safe). */
void redact_in_place(char *s);

/* Forget every learnt secret (for tests). */
void redact_forget(void);

#endif
