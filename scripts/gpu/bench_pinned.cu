/* scripts/gpu/bench_pinned.cu - pinned host memory and pitched allocation
 * on a real GPU (issue 17's table), and the staging loop.
 *
 *   bench_pinned raw     plain: NVIDIA's runtime
 *   bench_pinned lib     with libcachemalloc.so preloaded
 *   bench_pinned MODE staging   the staging loop only
 *
 * Build: nvcc -O2 -arch=sm_90 -cudart shared bench_pinned.cu -o bench_pinned -ldl
 * (it also builds as C, with a cudaMemsetAsync in place of the kernel, for
 * a syntax check where nvcc is missing: cc -x c -fsyntax-only).
 *
 * Pairs, in us per alloc+free pair (median over batches of pairs, each
 * batch about 1 ms or one pair; at most ~0.5 s per cell), at 4 KiB, 1 MiB,
 * 16 MiB and 256 MiB:
 *   host        cudaMallocHost + cudaFreeHost
 *   hostalloc   cudaHostAlloc(Mapped|Portable) + cudaFreeHost
 *   register    malloc + cudaHostRegister + cudaHostUnregister + free
 *   pitch       cudaMallocPitch (width 4 KiB, the same bytes in rows) + cudaFree
 *   malloc      cudaMalloc + cudaFree (the pitched pair's baseline)
 * No device work is queued while pairs run.
 *
 * Staging, in us per iteration at 1 MiB and 8 MiB: "staging" takes a pinned
 * buffer (cudaMallocHost), fills it on the host, copies it to the device
 * on a stream, runs a kernel on it and frees the buffer; "keep" is the same
 * program keeping one pinned buffer for the whole run, waiting for the
 * previous copy (an event) before refilling it; "ring2" keeps two and
 * alternates. Median of 7 rounds, the three alternated in each round;
 * each run is printed with the time spent inside the library's calls.
 *
 * Output: the table on stdout, then one line "BENCH_JSON {...}";
 * scripts/gpu/pinned_report.py prints raw and lib side by side and the
 * targets (pinned pair <= 1 us, staging <= 1.05x keep, pitch <= 2x malloc).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

enum pair { P_HOST, P_HOSTALLOC, P_REGISTER, P_PITCH, P_MALLOC, NPAIRS };
static const char *pair_names[NPAIRS] = { "host", "hostalloc", "register", "pitch", "malloc" };
static const size_t sizes[] = { 4 << 10, 1 << 20, 16 << 20, 256 << 20 };
static const char *size_names[] = { "4KiB", "1MiB", "16MiB", "256MiB" };
#define NSIZES 4

static void one_pair(enum pair k, size_t n)
{
	void *p = NULL;
	size_t pitch = 0;
	switch (k) {
	case P_HOST:
		CHECK(cudaMallocHost(&p, n));
		CHECK(cudaFreeHost(p));
		break;
	case P_HOSTALLOC:
		CHECK(cudaHostAlloc(&p, n, cudaHostAllocMapped | cudaHostAllocPortable));
		CHECK(cudaFreeHost(p));
		break;
	case P_REGISTER:
		p = malloc(n);
		if (!p)
			exit(1);
		CHECK(cudaHostRegister(p, n, cudaHostRegisterDefault));
		CHECK(cudaHostUnregister(p));
		free(p);
		break;
	case P_PITCH:
		CHECK(cudaMallocPitch(&p, &pitch, 4096, n / 4096));
		CHECK(cudaFree(p));
		break;
	default:
		CHECK(cudaMalloc(&p, n));
		CHECK(cudaFree(p));
		break;
	}
}

static double pair_us(enum pair k, size_t n)
{
	double v[15];
	int nb = 0;
	one_pair(k, n); /* warm: under a cache, the steady state */
	one_pair(k, n);
	double t0 = now_ns();
	one_pair(k, n);
	double one = now_ns() - t0, spent = one;
	long batch = one > 1e6 ? 1 : (long)(1e6 / (one > 1 ? one : 1)) + 1;
	while (nb < 15 && (nb < 3 || spent < 5e8)) {
		t0 = now_ns();
		for (long i = 0; i < batch; i++)
			one_pair(k, n);
		double t = now_ns() - t0;
		spent += t;
		v[nb++] = t / (double)batch / 1e3;
	}
	return median(v, nb);
}

/* ---- staging ---- */

#ifdef __CUDACC__
__global__ void touch(int *d, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		d[i] += 1;
}
static void kernel(int *d, size_t n, cudaStream_t s)
{
	size_t ints = n / sizeof(int);
	touch<<<(unsigned)((ints + 255) / 256), 256, 0, s>>>(d, ints);
	CHECK(cudaGetLastError());
}
#else
static void kernel(int *d, size_t n, cudaStream_t s)
{
	CHECK(cudaMemsetAsync(d, 1, n, s));
}
#endif

/* Staging variants: take a buffer from the allocator each iteration
 * ("staging"), keep one buffer and wait for its last copy ("keep"), or
 * keep two and alternate, waiting for the one reused ("ring2": what a
 * cache that overlaps the fill with the previous copy can at best do). */
enum staging { S_STAGING, S_KEEP, S_RING2, NSTAGING };
static const char *staging_names[NSTAGING] = { "staging", "keep", "ring2" };

typedef struct staging_run {
	double us;       /* per iteration */
	double alloc_us; /* per iteration, inside cudaMallocHost + cudaFreeHost */
	double max_alloc_us;
} staging_run;

static staging_run staging_once(size_t n, int iters, enum staging k, cudaStream_t s, void *d)
{
	void *kept[2] = { NULL, NULL };
	cudaEvent_t copied[2];
	staging_run r = { 0, 0, 0 };
	for (int b = 0; b < 2; b++) {
		CHECK(cudaEventCreateWithFlags(&copied[b], cudaEventDisableTiming));
		if (k != S_STAGING)
			CHECK(cudaMallocHost(&kept[b], n));
	}
	CHECK(cudaStreamSynchronize(s));
	double t0 = now_ns();
	for (int i = 0; i < iters; i++) {
		int b = k == S_RING2 ? i & 1 : 0;
		void *h = kept[b];
		if (k != S_STAGING) {
			CHECK(cudaEventSynchronize(copied[b])); /* its last copy read it */
		} else {
			double a0 = now_ns();
			CHECK(cudaMallocHost(&h, n));
			double a = now_ns() - a0;
			r.alloc_us += a / 1e3;
			r.max_alloc_us = a / 1e3 > r.max_alloc_us ? a / 1e3 : r.max_alloc_us;
		}
		memset(h, i, n);
		CHECK(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s));
		if (k != S_STAGING)
			CHECK(cudaEventRecord(copied[b], s));
		kernel((int *)d, n, s);
		if (k == S_STAGING) {
			double f0 = now_ns();
			CHECK(cudaFreeHost(h));
			r.alloc_us += (now_ns() - f0) / 1e3;
		}
	}
	CHECK(cudaStreamSynchronize(s));
	r.us = (now_ns() - t0) / iters / 1e3;
	r.alloc_us /= iters;
	for (int b = 0; b < 2; b++) {
		if (kept[b])
			CHECK(cudaFreeHost(kept[b]));
		CHECK(cudaEventDestroy(copied[b]));
	}
	return r;
}

/* Median per iteration of each variant over 7 rounds, the variants
 * alternated within a round; each run's figures on a line of its own. */
static void staging_us(size_t n, int iters, cudaStream_t s, void *d, double out[NSTAGING])
{
	double v[NSTAGING][7];
	for (int round = 0; round < 7; round++)
		for (int k = 0; k < NSTAGING; k++) {
			staging_run r = staging_once(n, iters, (enum staging)k, s, d);
			v[k][round] = r.us;
			printf("staging-run %zu MiB %s round %d: %.1f us per iteration", n >> 20,
			       staging_names[k], round, r.us);
			if (k == S_STAGING)
				printf(", %.2f us of it in cudaMallocHost + cudaFreeHost (slowest "
				       "cudaMallocHost %.1f us)",
				       r.alloc_us, r.max_alloc_us);
			printf("\n");
		}
	for (int k = 0; k < NSTAGING; k++)
		out[k] = median(v[k], 7);
}

static const char *provider_of(const char *sym)
{
	Dl_info info;
	void *f = dlsym(RTLD_DEFAULT, sym);
	if (f && dladdr(f, &info) && info.dli_fname)
		return info.dli_fname;
	return "?";
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode = argc > 1 ? argv[1] : "raw";
	bool staging_only = argc > 2 && strcmp(argv[2], "staging") == 0;
	if ((strcmp(mode, "raw") != 0 && strcmp(mode, "lib") != 0) || (argc > 2 && !staging_only)) {
		fprintf(stderr, "usage: bench_pinned raw|lib [staging]\n");
		return 2;
	}
	const char *provider = provider_of("cudaMallocHost");
	bool active = strstr(provider, "cachemalloc") != NULL;
	printf("mode %s; cudaMallocHost comes from %s\n", mode, provider);
	CHECK(cudaSetDevice(0));
	CHECK(cudaDeviceSynchronize());

	double us[NPAIRS][NSIZES] = { { 0 } };
	printf("%-10s", "pair (us)");
	for (int j = 0; j < NSIZES; j++)
		printf(" %12s", size_names[j]);
	printf("\n");
	for (int k = 0; k < NPAIRS && !staging_only; k++) {
		printf("%-10s", pair_names[k]);
		for (int j = 0; j < NSIZES; j++) {
			us[k][j] = pair_us((enum pair)k, sizes[j]);
			printf(" %12.2f", us[k][j]);
		}
		printf("\n");
	}

	static const size_t ssizes[] = { 1 << 20, 8 << 20 };
	double st[2][NSTAGING];
	cudaStream_t s;
	void *d = NULL;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaMalloc(&d, 8 << 20));
	for (int j = 0; j < 2; j++) {
		staging_us(ssizes[j], j == 0 ? 400 : 100, s, d, st[j]);
		printf("staging %s: %.1f us per iteration, keep-one-buffer %.1f us (%.3fx), "
		       "two buffers alternated %.1f us\n",
		       j == 0 ? "1MiB" : "8MiB", st[j][S_STAGING], st[j][S_KEEP],
		       st[j][S_STAGING] / st[j][S_KEEP], st[j][S_RING2]);
	}
	CHECK(cudaFree(d));
	CHECK(cudaStreamDestroy(s));

	printf("BENCH_JSON {\"mode\": \"%s\", \"lib_active\": %s, \"pairs\": {", mode,
	       active ? "true" : "false");
	for (int k = 0; k < NPAIRS; k++) {
		printf("%s\"%s\": {", k ? ", " : "", pair_names[k]);
		for (int j = 0; j < NSIZES; j++)
			printf("%s\"%s\": %.3f", j ? ", " : "", size_names[j], us[k][j]);
		printf("}");
	}
	printf("}, \"staging\": {");
	for (int j = 0; j < 2; j++)
		printf("%s\"%s\": {\"staging\": %.2f, \"keep\": %.2f, \"ring2\": %.2f}", j ? ", " : "",
		       j == 0 ? "1MiB" : "8MiB", st[j][S_STAGING], st[j][S_KEEP], st[j][S_RING2]);
	printf("}}\n");
	return 0;
}
