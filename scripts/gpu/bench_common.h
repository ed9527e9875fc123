/* scripts/gpu/bench_common.h - what the GPU benchmarks share: a checked
 * CUDA call, the host clock, the median, a calibrated median of batches,
 * and (where CM_BENCH_PROVIDER is
 * defined, with _GNU_SOURCE before the first include) which library
 * serves cudaMalloc, and the raw|lib mode. */
#ifndef CM_BENCH_COMMON_H
#define CM_BENCH_COMMON_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                  \
	do {                                                                         \
		cudaError_t e_ = (call);                                             \
		if (e_ != cudaSuccess) {                                             \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
				cudaGetErrorString(e_));                             \
			exit(1);                                                     \
		}                                                                    \
	} while (0)

static inline double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Median ns per item of batch(arg, n), which runs n items: after a
 * warm-up of 20, batches sized to last at least 1 ms (at most 200000
 * items), median of 31 of them. */
#define BATCHES 31

static inline double batch_median_ns(void (*batch)(void *arg, long n), void *arg)
{
	batch(arg, 20); /* warm up: fill the caches, load the code paths */
	long n = 1;
	for (;;) {
		double t0 = now_ns();
		batch(arg, n);
		double dt = now_ns() - t0;
		if (dt >= 1e6 || n >= 200000)
			break;
		n *= dt < 1e5 ? 8 : 2;
	}
	double per[BATCHES];
	for (int b = 0; b < BATCHES; b++) {
		double t0 = now_ns();
		batch(arg, n);
		per[b] = (now_ns() - t0) / (double)n;
	}
	return median(per, BATCHES);
}

#ifdef CM_BENCH_PROVIDER
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

/* The file the program's cudaMalloc comes from: the runtime, or the
 * library when preloaded. */
static const char *malloc_provider(void)
{
	Dl_info info;
	void *f = dlsym(RTLD_DEFAULT, "cudaMalloc");
	return f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : "?";
}

/* argv[1], "raw" (the default) or "lib": the mode a benchmark was asked
 * for, printed with where cudaMalloc comes from and a warning when the
 * two disagree; a bad mode exits 2 with usage. True for lib. */
static bool bench_mode(int argc, char **argv, const char *usage, const char **mode)
{
	*mode = argc > 1 ? argv[1] : "raw";
	bool lib = strcmp(*mode, "lib") == 0;
	if (!lib && strcmp(*mode, "raw") != 0) {
		fprintf(stderr, "usage: %s\n", usage);
		exit(2);
	}
	const char *provider = malloc_provider();
	bool active = strstr(provider, "cachemalloc") != NULL;
	printf("mode %s; cudaMalloc comes from %s\n", *mode, provider);
	if (lib != active)
		printf("WARNING: mode %s but libcachemalloc.so is %spreloaded\n", *mode,
		       active ? "" : "not ");
	return lib;
}
#endif

#endif
