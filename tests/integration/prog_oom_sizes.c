/* prog_oom_sizes: requests that cannot be served take nothing (issue 14).
 *
 * Meant to run with memgetinfo_counts_cache:false under the cache, so that
 * cudaMemGetInfo's free memory is the device's own and falls whenever the
 * cache keeps memory. Sizes from cudaMemGetInfo, as on a GPU: just over the
 * free memory, just over the total, twice the total, 64 TiB and
 * SIZE_MAX - 4096 must each fail with cudaErrorMemoryAllocation (the last
 * error then cleared), leave the device's free memory no lower than before
 * the request, and leave small allocations and stream creation working; so
 * must a thousand such failures in a row.
 * Then the device is filled with 64 MiB blocks until a request fails (it
 * too must take nothing), every other block freed, and a request larger
 * than any freed block and than the device's free memory, but within what
 * the cache holds, must succeed: it fits only once the cache gives back (or
 * stitches) what it holds. On a GPU: cc prog_oom_sizes.c -lcudart.
 */
#include "common.h"

#define BLOCK (64 * INTEG_MIB)

static size_t free_now(void)
{
	size_t f = 0, t = 0;
	CHECK(cudaMemGetInfo(&f, &t));
	return f;
}

static void small_and_streams(const char *after)
{
	void *p = NULL;
	cudaStream_t s[2];
	CHECK(cudaMalloc(&p, 4096));
	CHECK(cudaMemset(p, 0x5a, 4096));
	check_fill_all(p, 0x5a, 4096, after);
	CHECK(cudaFree(p));
	for (int i = 0; i < 2; i++)
		CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
	for (int i = 0; i < 2; i++)
		CHECK(cudaStreamDestroy(s[i]));
}

/* One request that must fail and take nothing. */
static void must_fail(const char *what, size_t size)
{
	void *p = NULL;
	size_t before = free_now();
	cudaError_t e = cudaMalloc(&p, size);
	size_t after = free_now();
	printf("oom_sizes: %s (%zu bytes): %s; device free %zu -> %zu MiB\n", what, size,
	       cudaGetErrorName(e), before >> 20, after >> 20);
	if (e != cudaErrorMemoryAllocation) {
		FAIL("%s: cudaMalloc(%zu): expected cudaErrorMemoryAllocation, got %s", what, size,
		     cudaGetErrorName(e));
		if (e == cudaSuccess)
			cudaFree(p);
	}
	EXPECT_ERR(cudaGetLastError(), e);
	if (after < before)
		FAIL("%s: the device's free memory fell from %zu to %zu bytes: memory kept for a "
		     "request that failed", what, before, after);
	small_and_streams(what);
}

/* Fills the device with BLOCK allocations until one fails; returns n. */
static size_t fill(void **v, size_t cap)
{
	size_t n = 0, before = 0, after;
	cudaError_t e = cudaSuccess;
	while (n < cap) {
		before = free_now();
		if ((e = cudaMalloc(&v[n], BLOCK)) != cudaSuccess)
			break;
		n++;
	}
	after = free_now();
	(void)cudaGetLastError();
	if (e != cudaErrorMemoryAllocation)
		FAIL("fill: expected cudaErrorMemoryAllocation after %zu blocks, got %s", n,
		     cudaGetErrorName(e));
	if (after < before)
		FAIL("fill: the failed request took memory: device free %zu -> %zu bytes", before,
		     after);
	return n;
}

static void fits_after_release(size_t total)
{
	size_t cap = total / BLOCK + 16;
	void **v = calloc(cap, sizeof(*v));
	if (!v) {
		FAIL("host memory for %zu pointers", cap);
		return;
	}
	size_t n = fill(v, cap);
	for (size_t i = 0; i < n; i += 2) {
		CHECK(cudaFree(v[i]));
		v[i] = NULL;
	}
	size_t freed = (n + 1) / 2, dev_free = free_now();
	/* Larger than any freed block and than the device's free memory; one
	 * block's worth under what the cache holds, for its own rounding. */
	size_t want = (freed - 1) * BLOCK;
	printf("oom_sizes: %zu blocks of 64 MiB, %zu freed (device free %zu MiB); asking %zu MiB\n",
	       n, freed, dev_free >> 20, want >> 20);
	if (want <= dev_free)
		printf("oom_sizes: (the freed blocks went back to the device: no cache)\n");
	if (freed < 3) {
		FAIL("fill: %zu blocks freed: the case needs at least 3", freed);
	} else {
		void *big = NULL;
		cudaError_t e = cudaMalloc(&big, want);
		if (e != cudaSuccess) {
			FAIL("cudaMalloc(%zu MiB) within what the cache holds: expected cudaSuccess, "
			     "got %s", want >> 20, cudaGetErrorName(e));
			(void)cudaGetLastError();
		} else {
			CHECK(cudaMemset(big, 0x6b, want));
			check_fill(big, 0x6b, want, "the request served after the release");
			CHECK(cudaFree(big));
		}
	}
	for (size_t i = 0; i < n; i++)
		if (v[i])
			CHECK(cudaFree(v[i]));
	free(v);
	small_and_streams("the request that fits after the release");
}

int main(void)
{
	size_t free0, total;
	void *p = NULL;

	CHECK(cudaMalloc(&p, INTEG_MIB));
	CHECK(cudaMemset(p, 0x11, INTEG_MIB));
	check_fill_all(p, 0x11, INTEG_MIB, "the first block");
	CHECK(cudaFree(p));
	CHECK(cudaMemGetInfo(&free0, &total));
	printf("oom_sizes: device free %zu MiB of %zu MiB\n", free0 >> 20, total >> 20);

	must_fail("just over the free memory", free0 + BLOCK);
	must_fail("just over the total", total + 1);
	must_fail("twice the total", 2 * total);
	must_fail("64 TiB", (size_t)64 << 40);
	must_fail("SIZE_MAX - 4096", SIZE_MAX - 4096);
	/* A program that retries: a thousand failures in a row take nothing
	 * either (what one failure keeps, a thousand would multiply). */
	size_t before = free_now();
	for (int i = 0; i < 1000; i++) {
		void *q = NULL;
		size_t size = i % 2 ? total + (size_t)i * 4096 : free0 + BLOCK + (size_t)i * 4096;
		if (cudaMalloc(&q, size) == cudaSuccess) {
			FAIL("retry %d: cudaMalloc(%zu) succeeded", i, size);
			cudaFree(q);
		}
	}
	(void)cudaGetLastError();
	if (free_now() < before)
		FAIL("1000 failed requests: device free fell from %zu to %zu bytes", before, free_now());
	small_and_streams("1000 failed requests");
	fits_after_release(total);

	size_t free1 = free_now();
	printf("oom_sizes: device free at the end %zu MiB (at the start %zu MiB)\n", free1 >> 20,
	       free0 >> 20);
	return integ_report("oom_sizes");
}
