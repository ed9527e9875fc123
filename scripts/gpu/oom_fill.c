/* scripts/gpu/oom_fill.c - running a GPU out of memory on two streams and
 * recovering (issue 14).
 *
 *   oom_fill        (scripts/gpu-check: plain and preloaded, default mode and
 *                    expandable_segments:True, memgetinfo_counts_cache:false)
 *
 * Fills the device with cudaMallocAsync blocks of 96 MiB and 40 MiB in turn
 * on two non-blocking streams until a request fails (it must take nothing:
 * cuMemGetInfo's free memory no lower after it); frees the 96 MiB blocks on
 * the other stream, synchronizes, and asks for one block of 90% of what was
 * freed on the first stream: larger than any freed block and than the
 * device's free memory under a cache, so it fits only once the cache gives
 * back (or stitches) what it holds. That block is written and read back.
 * Then a request larger than the device must fail and take nothing.
 * cuMemGetInfo is printed at the start and the end (the cache may still
 * hold what was freed). Exit 0 when every check held.
 *
 * Build: cc -O2 -I$CUDA/include oom_fill.c -L$CUDA/lib64 -lcudart -lcuda
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MIB ((size_t)1 << 20)

static int failures;

#define FAIL(...)                               \
	do {                                    \
		printf("FAIL ");                \
		printf(__VA_ARGS__);            \
		printf("\n");                   \
		failures++;                     \
	} while (0)

static size_t drv_free(void)
{
	size_t f = 0, t = 0;
	if (cuMemGetInfo(&f, &t) != CUDA_SUCCESS)
		FAIL("cuMemGetInfo failed");
	return f;
}

int main(void)
{
	cudaStream_t s[2];
	size_t total = 0, free0 = 0;
	cudaFree(0);
	cuMemGetInfo(&free0, &total);
	printf("start: cuMemGetInfo free %zu MiB of %zu MiB\n", free0 / MIB, total / MIB);
	for (int i = 0; i < 2; i++)
		if (cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking) != cudaSuccess) {
			printf("FAIL cudaStreamCreateWithFlags\n");
			return 1;
		}
	size_t cap = total / (40 * MIB) + 16, n = 0, before = 0;
	void **v = calloc(cap, sizeof(*v));
	size_t *sz = calloc(cap, sizeof(*sz));
	if (!v || !sz)
		return 1;
	cudaError_t e = cudaSuccess;
	while (n < cap) {
		sz[n] = n % 2 ? 40 * MIB : 96 * MIB;
		before = drv_free();
		if ((e = cudaMallocAsync(&v[n], sz[n], s[n % 2])) != cudaSuccess)
			break;
		n++;
	}
	size_t after = drv_free();
	(void)cudaGetLastError();
	printf("fill: %zu blocks, then %s; cuMemGetInfo free %zu MiB -> %zu MiB\n", n,
	       cudaGetErrorName(e), before / MIB, after / MIB);
	if (e != cudaErrorMemoryAllocation)
		FAIL("fill: expected cudaErrorMemoryAllocation, got %s", cudaGetErrorName(e));
	if (after < before)
		FAIL("fill: the failed request took %zu MiB", (before - after) / MIB);

	size_t freed = 0;
	for (size_t i = 0; i < n; i += 2) {
		cudaFreeAsync(v[i], s[1]);
		freed += sz[i];
		v[i] = NULL;
	}
	cudaDeviceSynchronize();
	size_t want = freed / 10 * 9 / (2 * MIB) * (2 * MIB);
	void *big = NULL;
	before = drv_free();
	e = cudaMallocAsync(&big, want, s[0]);
	printf("after freeing %zu MiB in 96 MiB blocks (free %zu MiB): one block of %zu MiB: %s\n",
	       freed / MIB, before / MIB, want / MIB, cudaGetErrorName(e));
	if (e != cudaSuccess) {
		FAIL("the block within what was freed: %s", cudaGetErrorName(e));
		(void)cudaGetLastError();
	} else {
		unsigned char host[4096];
		cudaMemsetAsync(big, 0x7e, want, s[0]);
		cudaMemcpyAsync(host, (char *)big + want - sizeof(host), sizeof(host),
				cudaMemcpyDeviceToHost, s[0]);
		cudaStreamSynchronize(s[0]);
		if (host[0] != 0x7e || host[sizeof(host) - 1] != 0x7e)
			FAIL("the large block read back wrong bytes");
		cudaFreeAsync(big, s[0]);
	}
	cudaDeviceSynchronize();
	before = drv_free();
	e = cudaMallocAsync(&big, total + 2 * MIB, s[0]);
	after = drv_free();
	printf("a request over the total: %s; cuMemGetInfo free %zu MiB -> %zu MiB\n",
	       cudaGetErrorName(e), before / MIB, after / MIB);
	if (e != cudaErrorMemoryAllocation)
		FAIL("over the total: expected cudaErrorMemoryAllocation, got %s", cudaGetErrorName(e));
	(void)cudaGetLastError();
	if (after < before)
		FAIL("over the total: the failed request took %zu MiB", (before - after) / MIB);
	for (size_t i = 0; i < n; i++)
		if (v[i])
			cudaFreeAsync(v[i], s[i % 2]);
	cudaDeviceSynchronize();
	for (int i = 0; i < 2; i++)
		cudaStreamDestroy(s[i]);
	printf("end: cuMemGetInfo free %zu MiB of %zu MiB (start %zu MiB; the cache may hold "
	       "what was freed)\n", drv_free() / MIB, total / MIB, free0 / MIB);
	free(v);
	free(sz);
	printf("oom_fill: %s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
