/* redact.c - the cases of src/redact.c: secrets masked in a dsn, in messages
 * and in argv. */
#include <string.h>

#include "config.h"
#include "evlog.h"
#include "redact.h"
#include "unit.h"

static void test_redact(void)
{
	/* Every form a secret takes, by pattern alone (redact_dsn). */
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "host=h password=pw user=u", "host=h password=*** user=u" },
		{ "password=pw", "password=***" },
		{ "host=h password = pw", "host=h password = ***" },
		{ "host=h password='a b' user=u", "host=h password=*** user=u" },
		{ "host=h password='it\\'s x' user=u", "host=h password=*** user=u" },
		{ "host=h password='unterminated", "host=h password=***" },
		{ "host=h PASSWORD=pw", "host=h PASSWORD=***" },
		{ "host=h sslpassword=pw", "host=h sslpassword=***" },
		{ "host=h password=", "host=h password=" },
		{ "host=h mypassword=pw", "host=h mypassword=pw" },
		{ "postgres://u:pw@h/d", "postgres://u:***@h/d" },
		{ "postgresql://u:p@ss@h:5432/d", "postgresql://u:***@h:5432/d" },
		{ "postgres://u:p/w@h/d", "postgres://u:***@h/d" },
		{ "postgres://u@h/d", "postgres://u@h/d" },
		{ "postgres://h:5432/d", "postgres://h:5432/d" },
		{ "postgres://u@h/d?password=pw", "postgres://u@h/d?password=***" },
		{ "postgres://u@h/d?sslmode=require&password=pw&x=1",
		  "postgres://u@h/d?sslmode=require&password=***&x=1" },
		{ "postgres://u:pw@h/d?password=pw2", "postgres://u:***@h/d?password=***" },
		{ "mongodb://u:pw@h1,h2/?replicaSet=r", "mongodb://u:***@h1,h2/?replicaSet=r" },
		{ "mongodb+srv://u:pw@c.example/", "mongodb+srv://u:***@c.example/" },
		{ "mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_"
		  "TOKEN:tok,X:y&w=1",
		  "mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=***&w=1" },
		{ "mongodb://h/?tlsCertificateKeyFilePassword=pw",
		  "mongodb://h/?tlsCertificateKeyFilePassword=***" },
		/* whitespace around '=' as libpq takes it, an escaped space; a URI
		 * that is the whole dsn ends its password at '@' only */
		{ "host=h password=\tpw user=u", "host=h password=\t*** user=u" },
		{ "host=h password\t=pw", "host=h password\t=***" },
		{ "host=h password=\npw", "host=h password=\n***" },
		{ "host=h password=a\\ b user=u", "host=h password=*** user=u" },
		{ "postgresql://u:a b@h/d", "postgresql://u:***@h/d" },
		{ "postgresql://u:a'b\"c@h/d", "postgresql://u:***@h/d" },
		{ "postgresql://u@h/d?password=a b&x=1", "postgresql://u@h/d?password=***&x=1" },
		/* in messages that quote a dsn */
		{ "URI: \"postgres://u:pw@[::1/d\" - check",
		  "URI: \"postgres://u:***@[::1/d\" - check" },
		{ "'mongodb://u:pw@h:99999/' is not", "'mongodb://u:***@h:99999/' is not" },
		{ "argument 'password=pw' (the", "argument 'password=***' (the" },
		{ "--dsn 'host=x password=pw' holds", "--dsn 'host=x password=***' holds" },
		{ "write mongodb://[user:password@]host[:port]",
		  "write mongodb://[user:password@]host[:port]" },
		{ "/data/password=1/x.db", "/data/password=1/x.db" },
		{ "", "" },
	};
	char buf[256], arg[64];
	struct err e = { ERR_NONE, "" };
	struct ev ev[256];
	size_t i, n;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		redact_dsn(cases[i].in, buf, sizeof buf);
		if (strcmp(buf, cases[i].out) != 0) {
			printf("  redact_dsn(%s) = %s, want %s\n", cases[i].in, buf, cases[i].out);
			failed_checks++;
		}
		CHECK(redact_has_secret(cases[i].in) == (strcmp(cases[i].in, cases[i].out) != 0));
	}
	/* Cut at the end, and the full length returned. */
	CHECK(redact_dsn("password=secret x", buf, 12) == strlen("password=*** x") &&
	      strcmp(buf, "password=**") == 0);

	/* Learnt secrets: masked wherever a message quotes them, as written and
	 * as the library reads them; short ones only by pattern. */
	redact_forget();
	redact_learn("postgres://u:SECR%45TPW@h/d?x=1");
	redact_learn("host=h password='it\\'s longer' user=u");
	redact_learn("mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:TOKEN123,B:x");
	redact_learn("password=ab");
	redact_learn(NULL);
	redact_text("token: \"SECR%45TPW\", decoded SECRETPW", buf, sizeof buf);
	CHECK(strcmp(buf, "token: \"***\", decoded ***") == 0);
	redact_text("it's longer or it\\'s longer", buf, sizeof buf);
	CHECK(strcmp(buf, "*** or ***") == 0);
	redact_text("token TOKEN123; ab stays", buf, sizeof buf);
	CHECK(strcmp(buf, "token ***; ab stays") == 0);
	CHECK(redact_text("SECRETPW", NULL, 0) == 3);
	redact_learn("postgresql://u:SEC RETPW@h/d");
	redact_text("token \"SEC RETPW\"", buf, sizeof buf);
	CHECK(strcmp(buf, "token \"***\"") == 0);

	/* argv in place: never longer, the rest NUL. */
	snprintf(arg, sizeof arg, "host=h password=SECRETPW user=u");
	n = strlen(arg);
	redact_in_place(arg);
	CHECK(strcmp(arg, "host=h password=*** user=u") == 0);
	CHECK(memchr(arg, 'S', n) == NULL && arg[n - 1] == 0);
	snprintf(arg, sizeof arg, "mongodb://u:a b c d@h/");
	redact_in_place(arg);
	CHECK(strcmp(arg, "mongodb://u:***@h/") == 0);
	snprintf(arg, sizeof arg, "password=a");
	redact_in_place(arg);
	CHECK(strcmp(arg, "password=*") == 0);

	/* Every message: err_set, err_prefix, the event log. */
	err_set(&e, ERR_USAGE, "bad '%s'", "postgres://u:SECRETPW@[::1/d");
	CHECK(strcmp(e.msg, "bad 'postgres://u:***@[::1/d'") == 0);
	err_prefix(&e, "--dsn %s", "SECRETPW");
	CHECK(strstr(e.msg, "SECRETPW") == NULL && strstr(e.msg, "--dsn ***: bad"));
	evlog_add(EV_WARN, "libpq says: \"%s\"", "SECRETPW");
	n = evlog_since(0, ev, 256);
	CHECK(n > 0 && strcmp(ev[n - 1].text, "libpq says: \"***\"") == 0);
	/* A message cut to fit is masked first: no part of a password is left. */
	err_set(&e, ERR_USAGE, "%*s postgres://u:%s@h", (int)sizeof e.msg - 20, "x", "SECRETPW");
	CHECK(strstr(e.msg, "SECR") == NULL && strlen(e.msg) == sizeof e.msg - 1);
	evlog_add(EV_WARN, "%*s mongodb://u:%s@h", EVLOG_LINE - 20, "x", "SECRETPW");
	n = evlog_since(0, ev, 256);
	CHECK(n > 0 && strstr(ev[n - 1].text, "SECR") == NULL);
	redact_forget();
	redact_text("SECRETPW", buf, sizeof buf);
	CHECK(strcmp(buf, "SECRETPW") == 0);
	{
		/* plan_from_args masks every secret of argv (ps shows it) and
		 * runs on what was given: --dsn and --schema-from, both forms. */
		char a1[] = "--dsn=host=h password=SECRETPW", a2[] = "--schema-from";
		char a3[] = "postgresql://u:SECRETPW@/d?host=/nonexistent:t", a4[] = "--rows=5";
		char *argv[] = { (char *)"idxlab", a1, a2, a3, a4, NULL };
		struct plan p;

		CHECK(plan_from_args(&p, 5, argv, &e) < 0 && strstr(e.msg, "--schema-from") &&
		      !strstr(e.msg, "SECRETPW"));
		CHECK(strcmp(a1, "--dsn=host=h password=***") == 0);
		CHECK(strcmp(a3, "postgresql://u:***@/d?host=/nonexistent:t") == 0);
		CHECK(strcmp(a4, "--rows=5") == 0 &&
		      strcmp(p.args[1], "--dsn=host=h password=SECRETPW") == 0);
		plan_free(&p);
		snprintf(a1, sizeof a1, "--dsn=host=h password=SECRETPW");
		argv[2] = a4;
		CHECK(plan_from_args(&p, 3, argv, &e) == 0 &&
		      strcmp(p.dsn, "host=h password=SECRETPW") == 0 &&
		      strcmp(a1, "--dsn=host=h password=***") == 0);
		plan_free(&p);
		redact_forget();
	}
}

const struct unit_case unit_redact[] = {
	{ "unit/redact", test_redact },
	{ NULL, NULL },
};
