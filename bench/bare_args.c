/* bare_args.c - see bare_args.h. */
#include "bare_args.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"

int bare_parse_args(const char *prog, int argc, char **argv, const struct bare_opt *opts,
                    size_t nopts, struct knobs *k, void (*usage)(FILE *))
{
	struct err e = { ERR_NONE, "" };
	int i;

	for (i = 1; i < argc; i += 2) {
		size_t j;

		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			exit(0);
		}
		for (j = 0; j < nopts && strcmp(argv[i], opts[j].opt) != 0; j++)
			;
		if (j == nopts || i + 1 >= argc) {
			fprintf(stderr, "%s: %s %s\n", prog, argv[i],
			        j == nopts ? "is not an option" : "needs a value");
			usage(stderr);
			return 2;
		}
		if (knob_parse(opts[j].knob, argv[i + 1], &k->v[opts[j].knob], &e) < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[i], e.msg);
			return 2;
		}
	}
	if (k->v[K_FORMAT] == FMT_JSON) {
		fprintf(stderr, "%s: --format: text or csv\n", prog);
		return 2;
	}
	return 0;
}

uint64_t bare_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void bare_on_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void bare_print(int csv, uint64_t rows, double seconds)
{
	if (csv)
		printf("rows,seconds,rows_per_s,us_per_row\n%llu,%.6f,%.1f,%.4f\n",
		       (unsigned long long)rows, seconds, (double)rows / seconds,
		       seconds * 1e6 / (double)rows);
	else
		printf("%llu %.6f\n", (unsigned long long)rows, seconds);
}

int bare_integer_keys(const char *prog, const struct knobs *k)
{
	if (k->v[K_KEY_ORDER] == KO_SEQ || k->v[K_KEY_ORDER] == KO_RAND ||
	    k->v[K_KEY_ORDER] == KO_FEW)
		return 0;
	fprintf(stderr, "%s: --key-order: seq, rand or few (integer keys)\n", prog);
	return 2;
}
