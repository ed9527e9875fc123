/* prog_race_pinned: a copy from (and into) a freed pinned buffer, queued
 * behind slow work, must still see the old buffer.
 *
 * Host-to-device: the program fills pinned p with 1, queues on stream a
 * the slow kernel and then a copy of p to device buffer d, frees p with
 * cudaFreeHost (legal: CUDA's waits for the copy), allocates pinned q of
 * the same size and fills it with 2 on the host at once. d must read 1.
 * Device-to-host: the slow kernel and then a copy of device memory holding
 * 1 into pinned p; p is freed, q allocated and filled with 2 by the host;
 * after cudaDeviceSynchronize q must read 2 (the late copy would land 1s
 * on it if q were p). Without a cache both hold trivially; under a cache
 * that hands p out as q (prints "q == p") only if it waited for the copy.
 */
#include "common.h"

static int rounds_reused;

static void check_host(const unsigned char *h, int value, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (h[i] != (unsigned char)value) {
			FAIL("%s: expected every byte 0x%02x, got 0x%02x at offset %zu", what,
			     (unsigned)value, h[i], i);
			return;
		}
}

static void to_device(size_t n, unsigned flags, cudaStream_t a, int round)
{
	void *p = NULL, *q = NULL, *d = NULL;
	char what[128];
	CHECK(cudaMalloc(&d, n));
	CHECK(cudaHostAlloc(&p, n, flags));
	memset(p, 1, n);
	CHECK(cudaLaunchHostFunc(a, integ_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	CHECK(cudaMemcpyAsync(d, p, n, cudaMemcpyHostToDevice, a));
	CHECK(cudaFreeHost(p));
	CHECK(cudaHostAlloc(&q, n, flags));
	memset(q, 2, n);
	CHECK(cudaDeviceSynchronize());
	rounds_reused += p == q;
	snprintf(what, sizeof(what), "host to device, %zu bytes, flags %u, round %d (q %s p)", n,
		 flags, round, p == q ? "==" : "!=");
	check_fill_all(d, 1, n, what);
	printf("%s\n", what);
	CHECK(cudaFreeHost(q));
	CHECK(cudaFree(d));
}

static void to_host(size_t n, unsigned flags, cudaStream_t a, int round)
{
	void *p = NULL, *q = NULL, *d = NULL;
	char what[128];
	CHECK(cudaMalloc(&d, n));
	CHECK(cudaMemset(d, 1, n));
	CHECK(cudaHostAlloc(&p, n, flags));
	CHECK(cudaLaunchHostFunc(a, integ_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	CHECK(cudaMemcpyAsync(p, d, n, cudaMemcpyDeviceToHost, a));
	CHECK(cudaFreeHost(p));
	CHECK(cudaHostAlloc(&q, n, flags));
	memset(q, 2, n);
	CHECK(cudaDeviceSynchronize());
	rounds_reused += p == q;
	snprintf(what, sizeof(what), "device to host, %zu bytes, flags %u, round %d (q %s p)", n,
		 flags, round, p == q ? "==" : "!=");
	check_host(q, 2, n, what);
	printf("%s\n", what);
	CHECK(cudaFreeHost(q));
	CHECK(cudaFree(d));
}

int main(void)
{
	static const size_t sizes[] = { 4096, INTEG_MIB, 8 * INTEG_MIB };
	static const unsigned flags[] = { cudaHostAllocDefault,
					  cudaHostAllocMapped | cudaHostAllocPortable };
	cudaStream_t a;
	CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (size_t fi = 0; fi < sizeof(flags) / sizeof(flags[0]); fi++)
			for (int r = 0; r < 2; r++) {
				to_device(sizes[si], flags[fi], a, r);
				to_host(sizes[si], flags[fi], a, r);
			}
	CHECK(cudaStreamDestroy(a));
	printf("race_pinned: q == p in %d of %zu rounds\n", rounds_reused,
	       2 * 2 * sizeof(sizes) / sizeof(sizes[0]) * 2);
	return integ_report("race_pinned");
}
