/* spark.c - sparkline and gauge maths. */
#include "spark.h"

#include <math.h>
#include <string.h>

static const char *const blocks[SPARK_LEVELS] = { "\u2581", "\u2582", "\u2583", "\u2584",
	                                          "\u2585", "\u2586", "\u2587", "\u2588" };
static const char *const ascii_levels[SPARK_LEVELS] = { "_", ".", ":", "-", "=", "+", "*", "#" };

int spark_level(double v, double max)
{
	int l;

	if (isnan(v) || v < 0)
		return -1;
	if (max <= 0)
		return v > 0 ? SPARK_LEVELS - 1 : 0;
	l = (int)floor(v / max * SPARK_LEVELS);
	if (l >= SPARK_LEVELS)
		l = SPARK_LEVELS - 1;
	return l < 0 ? 0 : l;
}

const char *spark_glyph(int level, int ascii)
{
	if (level < 0 || level >= SPARK_LEVELS)
		return " ";
	return ascii ? ascii_levels[level] : blocks[level];
}

size_t spark_render(const double *vals, int n, double max, int ascii, char *out, size_t len)
{
	size_t used = 0;
	int i;

	if (!len)
		return 0;
	for (i = 0; i < n; i++) {
		const char *g = spark_glyph(spark_level(vals[i], max), ascii);
		size_t gl = strlen(g);

		if (used + gl + 1 > len)
			break;
		memcpy(out + used, g, gl);
		used += gl;
	}
	out[used] = 0;
	return used;
}

double spark_nice(double v)
{
	double p, m;

	if (!(v > 0) || isinf(v))
		return 0;
	p = pow(10, floor(log10(v)));
	m = v / p;
	if (m <= 1.000001)
		return p;
	if (m <= 2.000001)
		return 2 * p;
	if (m <= 5.000001)
		return 5 * p;
	return 10 * p;
}

double spark_nice_bytes(double v)
{
	double k = 1;

	if (!(v > 0) || isinf(v))
		return 0;
	while (v / k >= 1024)
		k *= 1024;
	v = spark_nice(v / k);
	/* 1000 KiB reads worse than the 1 MiB it is under */
	return v > 500 ? 1024 * k : v * k;
}

int gauge_cells(double v, double max, int width)
{
	int c;

	if (isnan(v) || v <= 0 || max <= 0 || width <= 0)
		return 0;
	c = (int)lround(v / max * width);
	if (c < 1)
		c = 1; /* a nonzero value always shows */
	return c > width ? width : c;
}
