/* redact.c - finding secrets in text and masking them.
 *
 * One scanner, secret_at(), knows the forms (see redact.h); the rest walks a
 * text with it. It errs on the side of masking: an '@' anywhere before the
 * host ends a URI's password at the last one, and a key found in a message
 * masks its value up to the next space (or the quote the text opened the
 * word with, so "argument 'password=PW'" keeps its closing quote). */
#include "redact.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Keys whose value is a secret (conninfo keywords, URI options). */
static const char *const secret_keys[] = {
	"password",
	"sslpassword",
	"authMechanismProperties",
	"tlsCertificateKeyFilePassword",
	"sslClientCertificateKeyPassword",
};

enum form {
	F_NONE,
	F_USERINFO, /* scheme://user:PW@ */
	F_QUERY,    /* ?key=PW or &key=PW: percent-encoded */
	F_BARE,     /* conninfo key=PW: backslash escapes */
	F_QUOTED,   /* conninfo key='P W': the span holds the quotes */
};

#define MAX_LEARNT 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *learnt[MAX_LEARNT]; /* owned, never freed before redact_forget */
static size_t n_learnt;

/* The quote a text put around what starts at s[i] ('\'' or '"'), or 0:
 * the one just before it, else the one that opens its word. */
static char opening_quote(const char *s, size_t i)
{
	if (i > 0 && (s[i - 1] == '\'' || s[i - 1] == '"'))
		return s[i - 1];
	while (i > 0 && !isspace((unsigned char)s[i - 1]))
		i--;
	return s[i] == '\'' || s[i] == '"' ? s[i] : 0;
}

/* The end of a value starting at v: the first of stop, whitespace, q (when
 * not 0) or the string's end. */
static size_t value_end(const char *s, size_t v, const char *stop, char q)
{
	while (s[v] && !isspace((unsigned char)s[v]) && s[v] != q && !strchr(stop, s[v]))
		v++;
	return v;
}

/* Is s[i] inside a quote c that the text opened before it? */
static int inside_quote(const char *s, size_t i, char c)
{
	int open = 0;

	while (i-- > 0)
		open ^= s[i] == c;
	return open;
}

/* Does s start with a scheme ("postgresql://")? */
static int is_uri(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '+')
		n++;
	return n > 0 && strncmp(s + n, "://", 3) == 0;
}

/* Is there a secret at s + i? Its form, and its bytes s[*from, *to). dsn:
 * s is a dsn, not a message: a URI that starts it is all of it, so its
 * password and ?password= may hold spaces and quotes (libpq takes them). */
static enum form secret_at(const char *s, size_t i, size_t *from, size_t *to, int dsn)
{
	char q;
	size_t k;
	int whole;

	if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') {
		size_t u = i + 3, at, scheme = i;

		while (scheme > 0 &&
		       (isalnum((unsigned char)s[scheme - 1]) || s[scheme - 1] == '+'))
			scheme--;
		whole = dsn && scheme == 0 && is_uri(s);
		u += strcspn(s + u, whole ? ":@/?#[]" : ":@/?#[] \t\n'\"");
		if (s[u] != ':')
			return F_NONE;
		q = whole ? 0 : opening_quote(s, scheme);
		at = whole ? u + 1 + strcspn(s + u + 1, "@") : value_end(s, u + 1, "@", q);
		if (s[at] != '@')
			return F_NONE;
		/* A later '@' before the host ends is the password's own. */
		for (k = at + 1; s[k] && (whole || (!isspace((unsigned char)s[k]) && s[k] != q)) &&
		                 !strchr("/?#", s[k]);
		     k++)
			if (s[k] == '@')
				at = k;
		*from = u + 1;
		*to = at;
		return F_USERINFO;
	}
	if (i > 0 && !isspace((unsigned char)s[i - 1]) && !strchr("?&;,('\"", s[i - 1]))
		return F_NONE;
	for (k = 0; k < sizeof secret_keys / sizeof secret_keys[0]; k++) {
		size_t n = strlen(secret_keys[k]), v = i + n;

		if (strncasecmp(s + i, secret_keys[k], n) != 0)
			continue;
		while (isspace((unsigned char)s[v])) /* libpq skips any, as around '=' */
			v++;
		if (s[v] != '=')
			continue;
		v++;
		q = opening_quote(s, i);
		if (i > 0 && (s[i - 1] == '?' || s[i - 1] == '&')) {
			*from = v;
			*to =
			    dsn && is_uri(s) ? v + strcspn(s + v, "&#") : value_end(s, v, "&#", q);
			return F_QUERY;
		}
		while (isspace((unsigned char)s[v]))
			v++;
		*from = v;
		if (s[v] != '\'') {
			/* "--dsn 'host=h password=PW' is": the quote ends it; "a\ b" is
			 * one value */
			for (*to = v; s[*to] && !isspace((unsigned char)s[*to]); ++*to) {
				if (s[*to] == '\\' && s[*to + 1])
					++*to;
				else if (s[*to] == q || ((s[*to] == '\'' || s[*to] == '"') &&
				                         inside_quote(s, i, s[*to])))
					break;
			}
			return F_BARE;
		}
		for (v++; s[v] && s[v] != '\''; v++)
			if (s[v] == '\\' && s[v + 1])
				v++;
		*to = s[v] ? v + 1 : v;
		return F_QUOTED;
	}
	return F_NONE;
}

/* ---- writing ------------------------------------------------------------ */

struct out {
	char *p;
	size_t n, len; /* capacity; length of the whole result */
};

static void put(struct out *o, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++, o->len++)
		if (o->len + 1 < o->n)
			o->p[o->len] = s[i];
}

/* The mask for a secret of len bytes: REDACT_MASK, or '*' per byte. */
static void put_mask(struct out *o, size_t len, int same_length)
{
	if (!same_length) {
		put(o, REDACT_MASK, strlen(REDACT_MASK));
		return;
	}
	while (len--)
		put(o, "*", 1);
}

/* The longest learnt secret at s, or 0. Called with the lock held. */
static size_t learnt_at(const char *s)
{
	size_t best = 0;

	for (size_t i = 0; i < n_learnt; i++) {
		size_t n = strlen(learnt[i]);

		if (n > best && strncmp(s, learnt[i], n) == 0)
			best = n;
	}
	return best;
}

static size_t mask(const char *in, char *out, size_t n, int dsn, int with_learnt, int same_length)
{
	struct out o = { out, n, 0 };
	size_t i = 0, from, to, len;

	while (in[i]) {
		if (secret_at(in, i, &from, &to, dsn) != F_NONE && to > from) {
			/* a learnt secret is longer than the pattern saw: all of it */
			if (with_learnt && from + (len = learnt_at(in + from)) > to)
				to = from + len;
			put(&o, in + i, from - i);
			put_mask(&o, to - from, same_length);
			i = to;
		} else if (with_learnt && (len = learnt_at(in + i)) > 0) {
			put_mask(&o, len, same_length);
			i += len;
		} else {
			put(&o, in + i, 1);
			i++;
		}
	}
	if (n > 0)
		out[o.len < n ? o.len : n - 1] = 0;
	return o.len;
}

size_t redact_dsn(const char *in, char *out, size_t n)
{
	return mask(in, out, n, 1, 0, 0);
}

int redact_has_secret(const char *dsn)
{
	size_t from, to;

	for (size_t i = 0; dsn[i]; i++)
		if (secret_at(dsn, i, &from, &to, 1) != F_NONE && to > from)
			return 1;
	return 0;
}

size_t redact_text(const char *in, char *out, size_t n)
{
	size_t len;

	pthread_mutex_lock(&lock);
	len = mask(in, out, n, 0, 1, 0);
	pthread_mutex_unlock(&lock);
	return len;
}

void redact_in_place(char *s)
{
	size_t len = strlen(s), need;
	char *tmp = malloc(len + 1);

	if (!tmp)
		abort();
	pthread_mutex_lock(&lock);
	need = mask(s, tmp, len + 1, 1, 1, 0);
	if (need > len)
		mask(s, tmp, len + 1, 1, 1, 1);
	pthread_mutex_unlock(&lock);
	if (strcmp(s, tmp) != 0) { /* untouched when nothing is secret */
		memset(s, 0, len);
		memcpy(s, tmp, strlen(tmp));
	}
	free(tmp);
}

/* ---- learning ----------------------------------------------------------- */

/* Remember s[0, len). Called with the lock held. */
static void learn(const char *s, size_t len)
{
	char *copy;

	if (len < REDACT_MIN_LEARNT || n_learnt == MAX_LEARNT)
		return;
	for (size_t i = 0; i < n_learnt; i++)
		if (strlen(learnt[i]) == len && strncmp(learnt[i], s, len) == 0)
			return;
	copy = strndup(s, len);
	if (!copy)
		abort();
	learnt[n_learnt++] = copy;
}

static int hex(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	                              : -1;
}

/* The secret s[0, len) as the library reads it: percent-decoded (URI) or
 * unescaped (conninfo), into buf (len + 1 bytes). */
static void decode(const char *s, size_t len, enum form f, char *buf)
{
	size_t i, j = 0;

	for (i = 0; i < len; i++) {
		if ((f == F_USERINFO || f == F_QUERY) && s[i] == '%' && i + 2 < len &&
		    hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
			buf[j++] = (char)(hex(s[i + 1]) * 16 + hex(s[i + 2]));
			i += 2;
		} else if ((f == F_BARE || f == F_QUOTED) && s[i] == '\\' && i + 1 < len) {
			buf[j++] = s[++i];
		} else {
			buf[j++] = s[i];
		}
	}
	buf[j] = 0;
}

/* Learn a secret as written, as read, and, for a list (MongoDB's
 * authMechanismProperties=KEY:VALUE,KEY:VALUE), each value on its own. */
static void learn_secret(const char *s, size_t len, enum form f, int list)
{
	char *buf = malloc(len + 1);
	const char *p, *end;

	if (!buf)
		abort();
	learn(s, len);
	decode(s, len, f, buf);
	learn(buf, strlen(buf));
	for (p = buf; list && (p = strchr(p, ':')) != NULL; p = end) {
		p++;
		end = p + strcspn(p, ",");
		learn(p, (size_t)(end - p));
	}
	free(buf);
}

void redact_learn(const char *dsn)
{
	size_t i, from, to;
	enum form f;
	int list;

	if (!dsn)
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; dsn[i]; i++) {
		f = secret_at(dsn, i, &from, &to, 1);
		if (f == F_NONE || to <= from)
			continue;
		list = strncasecmp(dsn + i, "authMechanismProperties", 23) == 0;
		if (f == F_QUOTED) /* without the quotes (an unterminated one has one) */
			learn_secret(dsn + from + 1,
			             to - from - 1 - (to - from > 1 && dsn[to - 1] == '\''), f,
			             list);
		else
			learn_secret(dsn + from, to - from, f, list);
		i = to - 1;
	}
	pthread_mutex_unlock(&lock);
}

void redact_forget(void)
{
	pthread_mutex_lock(&lock);
	while (n_learnt > 0)
		free(learnt[--n_learnt]);
	pthread_mutex_unlock(&lock);
}
