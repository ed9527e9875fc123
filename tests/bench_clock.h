/* tests/bench_clock.h - what the host-side benchmarks share: the host
 * clock and the median of a run's batches. Header-only. */
#ifndef CM_BENCH_CLOCK_H
#define CM_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Sorts t (n values) and returns its middle one. */
static inline double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	return t[n / 2];
}

#endif
