/* scripts/gpu/bench_scale.c - what an allocation costs on a real GPU as
 * blocks pile up, and at every size up to 256 MiB: tests/bench_scale.c's
 * figures, through NVIDIA's runtime.
 *
 *   bench_scale raw [MAX_LIVE]   plain: the runtime's own cudaMalloc
 *   bench_scale lib [MAX_LIVE]   with libcachemalloc.so preloaded
 *
 * Build: cc -O2 -I/usr/local/cuda/include bench_scale.c -L/usr/local/cuda/lib64
 *        -lcudart -ldl -Wl,-rpath,/usr/local/cuda/lib64
 * (the shared runtime: a static one never calls an exported cudaMalloc).
 *
 * Pairs by size: median ns per cudaMalloc+cudaFree pair over 31 batches
 * (host clock, no device work, no non-blocking stream: the no-fence path
 * under the library), sizes 4 KiB to 256 MiB including 2-10 MiB, which the
 * library's per-thread cache used to skip.
 * Live blocks, per count N from 1e3 to MAX_LIVE (default 1e6 under lib,
 * 1e5 raw): mean ns per cudaMalloc while building N live blocks (512 B,
 * 1, 4, 16 KiB in turn), then ns per cudaMalloc and per cudaFree for 1000
 * more (median of 7 rounds), and the 4 KiB pair with N live.
 * Under lib, target lines for scripts/gpu-check ("name: ...: MET|MISSED"):
 * the no-fence 4 KiB pair at most 25 ns; cudaMalloc at 1e5 live within 2x
 * of 1e4.
 */
#define _GNU_SOURCE /* dladdr */
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CM_BENCH_PROVIDER
#include "bench_common.h" /* CHECK, now_ns, median, malloc_provider */

#define ROUNDS 7
#define MORE 1000

static const size_t live_sizes[] = {512, 1024, 4096, 16384};

static void pairs(void *size, long n)
{
	void *p;
	for (long i = 0; i < n; i++) {
		CHECK(cudaMalloc(&p, *(size_t *)size));
		CHECK(cudaFree(p));
	}
}

/* Median ns per pair, batches of at least 1 ms (at most 200000 pairs). */
static double pair_ns(size_t size)
{
	return batch_median_ns(pairs, &size);
}

typedef struct live_row {
	size_t n;
	double build, malloc_ns, free_ns, pair;
} live_row;

static live_row live(size_t n)
{
	live_row r = {.n = n};
	void **p = malloc(n * sizeof(*p)), *more[MORE];
	if (!p)
		exit(1);
	double t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		CHECK(cudaMalloc(&p[i], live_sizes[i % 4]));
	r.build = (now_ns() - t0) / (double)n;
	double ta[ROUNDS], tf[ROUNDS];
	for (int k = 0; k < ROUNDS; k++) {
		double a = now_ns();
		for (int i = 0; i < MORE; i++)
			CHECK(cudaMalloc(&more[i], live_sizes[i % 4]));
		double b = now_ns();
		for (int i = 0; i < MORE; i++)
			CHECK(cudaFree(more[i]));
		ta[k] = (b - a) / MORE;
		tf[k] = (now_ns() - b) / MORE;
	}
	r.malloc_ns = median(ta, ROUNDS);
	r.free_ns = median(tf, ROUNDS);
	r.pair = pair_ns(4096);
	for (size_t i = 0; i < n; i++)
		CHECK(cudaFree(p[i]));
	free(p);
	return r;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode;
	bool lib = bench_mode(argc, argv, "bench_scale raw|lib [MAX_LIVE]", &mode);
	size_t max_live = argc > 2 ? strtoul(argv[2], NULL, 10) : lib ? 1000000 : 100000;
	CHECK(cudaSetDevice(0));
	CHECK(cudaDeviceSynchronize());

	static const size_t sizes[] = {4096, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 10 << 20,
				       16 << 20, 64 << 20, 256 << 20};
	printf("\ncudaMalloc+cudaFree pair by size, median ns (%s, no non-blocking stream)\n", mode);
	double pair4k = 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		double ns = pair_ns(sizes[i]);
		if (i == 0)
			pair4k = ns;
		if (sizes[i] >= (1 << 20))
			printf("  %6zu MiB %10.1f\n", sizes[i] >> 20, ns);
		else
			printf("  %6zu KiB %10.1f\n", sizes[i] >> 10, ns);
	}

	printf("\nlive blocks (%s): ns per call\n%9s %10s %10s %10s %10s\n", mode, "live", "build",
	       "malloc", "free", "pair 4KiB");
	double malloc_1e4 = 0, malloc_1e5 = 0;
	for (size_t n = 1000; n <= max_live; n *= 10) {
		live_row r = live(n);
		printf("%9zu %10.0f %10.0f %10.0f %10.1f\n", r.n, r.build, r.malloc_ns, r.free_ns, r.pair);
		if (n == 10000)
			malloc_1e4 = r.malloc_ns;
		if (n == 100000)
			malloc_1e5 = r.malloc_ns;
	}
	if (lib) {
		printf("\npair_no_fence_25ns: 4 KiB pair %.1f ns (target <= 25): %s\n", pair4k,
		       pair4k <= 25 ? "MET" : "MISSED");
		if (malloc_1e4 > 0 && malloc_1e5 > 0)
			printf("malloc_1e5_vs_1e4: %.0f vs %.0f ns, %.2fx (target <= 2x): %s\n",
			       malloc_1e5, malloc_1e4, malloc_1e5 / malloc_1e4,
			       malloc_1e5 <= 2 * malloc_1e4 ? "MET" : "MISSED");
	}
	return 0;
}
