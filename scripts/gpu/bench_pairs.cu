/* scripts/gpu/bench_pairs.cu - host cost of device allocation on a real GPU.
 *
 *   bench_pairs raw     run plain: NVIDIA's runtime
 *   bench_pairs lib     run with libcachemalloc.so preloaded: the library
 *   bench_pairs ideal   only the ideal free list loop
 *   bench_pairs MODE ns0   only the malloc_free_ns0 row (raw or lib):
 *                       what scripts/gpu/pair_ab alternates
 *
 * Build: nvcc -O2 -arch=sm_90 -cudart shared bench_pairs.cu -o bench_pairs -ldl
 * (-cudart shared: a statically linked runtime never calls an exported
 * cudaMalloc, so LD_PRELOAD could not reach it.)
 *
 * Pairs: median ns per alloc+free pair over 31 batches, timed on the host
 * with clock_gettime around each batch (the pairs are host API calls; no
 * device work is queued). A batch is sized to last at least 1 ms. Rows:
 *   malloc_free_ns0   cudaMalloc+cudaFree, no non-blocking stream alive
 *   malloc_free_ns1   the same with 1 idle non-blocking stream alive
 *   malloc_free_ns4   the same with 4 idle non-blocking streams alive
 *   async             cudaMallocAsync+cudaFreeAsync on one non-blocking
 *                     stream (default pool, release threshold UINT64_MAX)
 * In raw mode these are the runtime's own costs; under the library ns0 is
 * the no-fence path (target <= 40 ns) and ns1/ns4 pay a fence.
 *
 * Loop: each iteration allocates 8 buffers of mixed sizes (4 KiB..16 MiB),
 * launches a one-thread kernel writing one int into each (legacy stream),
 * frees them. Reported in us per iteration, median of 5 runs, for the
 * allocator under test ("malloc": cudaMalloc/cudaFree, i.e. the runtime in
 * raw mode and the library in lib mode) and for an ideal free list in the
 * same process: exact-size LIFO per size, no lock, no events, memory taken
 * once with cudaMalloc. Target: the library within 10% of the ideal.
 *
 * Output: a table on stdout, then one line "BENCH_JSON {...}".
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

/* ---- pairs ---- */

enum pair_kind { PAIR_MALLOC, PAIR_ASYNC };

static cudaStream_t g_async_stream;

typedef struct pair_arg {
	enum pair_kind kind;
	size_t size;
} pair_arg;

static void pair_batch(void *arg, long n)
{
	const pair_arg *a = (const pair_arg *)arg;
	void *p;
	for (long i = 0; i < n; i++) {
		if (a->kind == PAIR_MALLOC) {
			CHECK(cudaMalloc(&p, a->size));
			CHECK(cudaFree(p));
		} else {
			CHECK(cudaMallocAsync(&p, a->size, g_async_stream));
			CHECK(cudaFreeAsync(p, g_async_stream));
		}
	}
	if (a->kind == PAIR_ASYNC)
		CHECK(cudaStreamSynchronize(g_async_stream));
}

/* Median ns per pair. The stream sync that ends an async batch is inside
 * the batch's time but amortised over at least 1 ms of pairs. */
static double pair_median_ns(enum pair_kind k, size_t size)
{
	pair_arg a = {k, size};
	return batch_median_ns(pair_batch, &a);
}

/* ---- the alloc / launch / free loop ---- */

__global__ void touch(int *p, int v)
{
	*p = v;
}

#define LOOP_BUFS 8
#define LOOP_SIZES 8
static const size_t loop_sizes[LOOP_SIZES] = {
	4 << 10, 36 << 10, 256 << 10, 768 << 10, 1 << 20, (3 << 20) + (512 << 10), 8 << 20, 16 << 20,
};

/* The ideal free list: one LIFO stack per exact size; the sizes are known
 * in advance, so the bin is an index. No lock, no events: single thread,
 * single (legacy) stream, whose order protects reuse. */
#define IDEAL_DEPTH 64
static struct {
	void *stack[IDEAL_DEPTH];
	int n;
} ideal_bins[LOOP_SIZES];

static inline void *ideal_alloc(int bin)
{
	if (ideal_bins[bin].n > 0)
		return ideal_bins[bin].stack[--ideal_bins[bin].n];
	void *p;
	CHECK(cudaMalloc(&p, loop_sizes[bin])); /* only while warming up */
	return p;
}

static inline void ideal_free(int bin, void *p)
{
	if (ideal_bins[bin].n < IDEAL_DEPTH)
		ideal_bins[bin].stack[ideal_bins[bin].n++] = p;
	else
		CHECK(cudaFree(p));
}

/* Deterministic size pattern, the same in every mode. */
static int loop_bin(long iter, int j)
{
	uint32_t x = (uint32_t)(iter * 8 + j) * 2654435761u;
	return (int)((x >> 16) % LOOP_SIZES);
}

static void loop_run(bool ideal, long iters)
{
	void *p[LOOP_BUFS];
	int bin[LOOP_BUFS];
	for (long it = 0; it < iters; it++) {
		for (int j = 0; j < LOOP_BUFS; j++) {
			bin[j] = loop_bin(it, j);
			if (ideal)
				p[j] = ideal_alloc(bin[j]);
			else
				CHECK(cudaMalloc(&p[j], loop_sizes[bin[j]]));
			touch<<<1, 1>>>((int *)p[j], (int)it);
		}
		for (int j = 0; j < LOOP_BUFS; j++) {
			if (ideal)
				ideal_free(bin[j], p[j]);
			else
				CHECK(cudaFree(p[j]));
		}
	}
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
}

#define LOOP_REPS 5

static double loop_median_us(bool ideal, long iters)
{
	loop_run(ideal, 200); /* warm up */
	double per[LOOP_REPS];
	for (int r = 0; r < LOOP_REPS; r++) {
		double t0 = now_ns();
		loop_run(ideal, iters);
		per[r] = (now_ns() - t0) / (double)iters / 1e3;
	}
	return median(per, LOOP_REPS);
}

/* ---- main ---- */

/* Which object provides the cudaMalloc this program calls. */
static const char *malloc_provider(void)
{
	Dl_info info;
	void *f = dlsym(RTLD_DEFAULT, "cudaMalloc");
	if (f && dladdr(f, &info) && info.dli_fname)
		return info.dli_fname;
	return "?";
}

static const size_t pair_sizes[] = {512, 4 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20};
static const char *pair_size_names[] = {"512B", "4KiB", "64KiB", "1MiB", "16MiB", "256MiB"};
#define NSIZES (int)(sizeof pair_sizes / sizeof pair_sizes[0])
#define NROWS 4
static const char *row_names[NROWS] = {"malloc_free_ns0", "malloc_free_ns1", "malloc_free_ns4",
				       "async"};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* interleave with stderr in logs */
	const char *mode = argc > 1 ? argv[1] : "raw";
	bool lib = strcmp(mode, "lib") == 0, ideal_only = strcmp(mode, "ideal") == 0;
	bool ns0_only = argc > 2 && strcmp(argv[2], "ns0") == 0;
	if ((!lib && !ideal_only && strcmp(mode, "raw") != 0) || (argc > 2 && !ns0_only) ||
	    (ns0_only && ideal_only)) {
		fprintf(stderr, "usage: bench_pairs raw|lib|ideal, or bench_pairs raw|lib ns0\n");
		return 2;
	}
	const char *provider = malloc_provider();
	bool lib_active = strstr(provider, "cachemalloc") != NULL;
	printf("mode %s; cudaMalloc comes from %s\n", mode, provider);
	if (lib && !lib_active)
		printf("WARNING: mode lib but libcachemalloc.so is not what provides cudaMalloc "
		       "(not preloaded?): the numbers below are the runtime's\n");
	if (!lib && lib_active)
		printf("WARNING: mode %s but libcachemalloc.so is preloaded\n", mode);

	/* Create the context without cudaFree(0): smoke.c checks that case. */
	int dev = 0;
	CHECK(cudaSetDevice(dev));
	CHECK(cudaDeviceSynchronize());
	cudaMemPool_t pool;
	CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
	uint64_t thr = UINT64_MAX;
	CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));

	double pairs[NROWS][NSIZES];
	for (int r = 0; r < NROWS; r++)
		for (int s = 0; s < NSIZES; s++)
			pairs[r][s] = -1;
	cudaStream_t nb[4];
	int nnb = 0;
	if (!ideal_only) {
		for (int s = 0; s < NSIZES; s++)
			pairs[0][s] = pair_median_ns(PAIR_MALLOC, pair_sizes[s]);
	}
	if (!ideal_only && !ns0_only) {
		CHECK(cudaStreamCreateWithFlags(&nb[nnb++], cudaStreamNonBlocking));
		for (int s = 0; s < NSIZES; s++)
			pairs[1][s] = pair_median_ns(PAIR_MALLOC, pair_sizes[s]);
		while (nnb < 4)
			CHECK(cudaStreamCreateWithFlags(&nb[nnb++], cudaStreamNonBlocking));
		for (int s = 0; s < NSIZES; s++)
			pairs[2][s] = pair_median_ns(PAIR_MALLOC, pair_sizes[s]);
		g_async_stream = nb[0];
		for (int s = 0; s < NSIZES; s++)
			pairs[3][s] = pair_median_ns(PAIR_ASYNC, pair_sizes[s]);
		/* Loop under the allocator under test, with the streams gone
		 * again (destroying them is part of what the library sees). */
		for (int i = 0; i < nnb; i++)
			CHECK(cudaStreamDestroy(nb[i]));
		nnb = 0;
	}
	long iters = 2000;
	double loop_alloc = ideal_only || ns0_only ? -1 : loop_median_us(false, lib ? iters : iters / 4);
	double loop_ideal = ns0_only ? -1 : loop_median_us(true, iters);

	const char *who = lib ? "library" : "runtime";
	if (!ideal_only) {
		printf("\nalloc+free pair, median ns per pair (%s, host clock, %d batches)\n", who,
		       BATCHES);
		printf("%-16s", "row");
		for (int s = 0; s < NSIZES; s++)
			printf(" %10s", pair_size_names[s]);
		printf("\n");
		for (int r = 0; r < NROWS; r++) {
			printf("%-16s", row_names[r]);
			for (int s = 0; s < NSIZES; s++)
				printf(" %10.1f", pairs[r][s]);
			printf("\n");
		}
	}
	printf("\nalloc/launch/free loop, 8 buffers (4 KiB..16 MiB) per iteration, "
	       "median us per iteration\n");
	if (!ideal_only)
		printf("  %-26s %10.2f\n", lib ? "library (cudaMalloc hooked)" : "cudaMalloc/cudaFree",
		       loop_alloc);
	printf("  %-26s %10.2f\n", "ideal free list", loop_ideal);
	if (!ideal_only)
		printf("  %-26s %10.3f\n", "ratio to ideal", loop_alloc / loop_ideal);

	printf("BENCH_JSON {\"mode\": \"%s\", \"lib_active\": %s, \"provider\": \"%s\", "
	       "\"sizes\": [",
	       mode, lib_active ? "true" : "false", provider);
	for (int s = 0; s < NSIZES; s++)
		printf("%s\"%s\"", s ? ", " : "", pair_size_names[s]);
	printf("], \"pairs_ns\": {");
	for (int r = 0; r < NROWS; r++) {
		printf("%s\"%s\": [", r ? ", " : "", row_names[r]);
		for (int s = 0; s < NSIZES; s++)
			printf("%s%.1f", s ? ", " : "", pairs[r][s]);
		printf("]");
	}
	printf("}, \"loop_us\": {\"alloc\": %.3f, \"ideal\": %.3f}}\n", loop_alloc, loop_ideal);
	return 0;
}
