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

/* One round: into_host copies device memory holding 1 into pinned p (q
 * must read 2 after), else p holding 1 into device memory d (d must read
 * 1); either copy queued behind the slow kernel, p freed at once. */
static void race_round(size_t n, unsigned flags, cudaStream_t a, int round, bool into_host)
{
	void *p = NULL, *q = NULL, *d = NULL;
	char what[128];
	CHECK(cudaMalloc(&d, n));
	if (into_host)
		CHECK(cudaMemset(d, 1, n));
	CHECK(cudaHostAlloc(&p, n, flags));
	if (!into_host)
		memset(p, 1, n);
	CHECK(cudaLaunchHostFunc(a, integ_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	if (into_host)
		CHECK(cudaMemcpyAsync(p, d, n, cudaMemcpyDeviceToHost, a));
	else
		CHECK(cudaMemcpyAsync(d, p, n, cudaMemcpyHostToDevice, a));
	CHECK(cudaFreeHost(p));
	CHECK(cudaHostAlloc(&q, n, flags));
	memset(q, 2, n);
	CHECK(cudaDeviceSynchronize());
	rounds_reused += p == q;
	snprintf(what, sizeof(what), "%s, %zu bytes, flags %u, round %d (q %s p)",
		 into_host ? "device to host" : "host to device", n, flags, round,
		 p == q ? "==" : "!=");
	if (into_host)
		check_host(q, 2, n, what);
	else
		check_fill_all(d, 1, n, what);
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
				race_round(sizes[si], flags[fi], a, r, false);
				race_round(sizes[si], flags[fi], a, r, true);
			}
	CHECK(cudaStreamDestroy(a));
	printf("race_pinned: q == p in %d of %zu rounds\n", rounds_reused,
	       2 * 2 * sizeof(sizes) / sizeof(sizes[0]) * 2);
	return integ_report("race_pinned");
}
