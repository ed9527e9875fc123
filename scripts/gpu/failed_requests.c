/* scripts/gpu/failed_requests.c - the failed-request sequence of issue 14 on
 * a real GPU: a request that cannot be served must take nothing.
 *
 *   failed_requests        (scripts/gpu-check runs it plain and preloaded,
 *                           in the default mode and expandable_segments:True,
 *                           with memgetinfo_counts_cache:false)
 *
 * The sequence measured on an H200 (issue 14): 1 MiB allocated, written,
 * read back and freed, a double free refused; then one request that fails;
 * then 4 KiB allocated and freed and two non-blocking streams created. Here
 * it is repeated for each size: just over the free memory, just over the
 * total, twice the total, 64 TiB, SIZE_MAX - 4096. For each, the driver's
 * free memory (cuMemGetInfo, which the library answers with the device's own
 * figure under memgetinfo_counts_cache:false) is printed right before and
 * right after the request; it must not fall. Exit 0 when every check held.
 *
 * Build: cc -O2 -I$CUDA/include failed_requests.c -L$CUDA/lib64 -lcudart -lcuda
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((size_t)1 << 20)

static int failures;

static void fail(const char *what, const char *detail)
{
	printf("FAIL %s: %s\n", what, detail);
	failures++;
}

static void check_call(const char *what, cudaError_t e)
{
	if (e != cudaSuccess)
		fail(what, cudaGetErrorName(e));
}

static size_t drv_free(size_t *total)
{
	size_t f = 0, t = 0;
	if (cuMemGetInfo(&f, &t) != CUDA_SUCCESS)
		fail("cuMemGetInfo", "failed");
	if (total)
		*total = t;
	return f;
}

static void before_sequence(void)
{
	void *p = NULL;
	unsigned char host[4096];
	check_call("cudaMalloc(1 MiB)", cudaMalloc(&p, MIB));
	check_call("cudaMemset(1 MiB)", cudaMemset(p, 0x3d, MIB));
	check_call("cudaMemcpy(back)", cudaMemcpy(host, (char *)p + MIB - sizeof(host), sizeof(host),
						 cudaMemcpyDeviceToHost));
	if (host[0] != 0x3d || host[sizeof(host) - 1] != 0x3d)
		fail("1 MiB block", "read back wrong bytes");
	check_call("cudaFree(1 MiB)", cudaFree(p));
	if (cudaFree(p) == cudaSuccess)
		fail("double free", "accepted");
	(void)cudaGetLastError();
}

static void after_sequence(const char *what)
{
	void *p = NULL;
	cudaStream_t s[2];
	check_call("cudaMalloc(4 KiB) after the failure", cudaMalloc(&p, 4096));
	check_call("cudaFree(4 KiB)", cudaFree(p));
	for (int i = 0; i < 2; i++) {
		cudaError_t e = cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking);
		if (e != cudaSuccess) {
			char msg[160];
			snprintf(msg, sizeof(msg), "non-blocking stream %d after %s: %s", i + 1, what,
				 cudaGetErrorName(e));
			fail("cudaStreamCreateWithFlags", msg);
			s[i] = NULL;
		}
	}
	for (int i = 0; i < 2; i++)
		if (s[i])
			cudaStreamDestroy(s[i]);
}

static void one(const char *what, size_t size)
{
	void *p = NULL;
	before_sequence();
	size_t before = drv_free(NULL);
	cudaError_t e = cudaMalloc(&p, size);
	size_t after = drv_free(NULL);
	printf("%-28s %20zu bytes: %-26s cuMemGetInfo free %zu MiB -> %zu MiB\n", what, size,
	       cudaGetErrorName(e), before / MIB, after / MIB);
	if (e != cudaErrorMemoryAllocation) {
		fail(what, "expected cudaErrorMemoryAllocation");
		if (e == cudaSuccess)
			cudaFree(p);
	}
	(void)cudaGetLastError();
	if (after < before) {
		char msg[160];
		snprintf(msg, sizeof(msg), "the device's free memory fell by %zu MiB",
			 (before - after) / MIB);
		fail(what, msg);
	}
	after_sequence(what);
}

int main(void)
{
	size_t total = 0;
	check_call("cudaFree(0)", cudaFree(0)); /* the context */
	size_t free0 = drv_free(&total);
	printf("start: cuMemGetInfo free %zu MiB of %zu MiB\n", free0 / MIB, total / MIB);
	one("just over the free memory", free0 + 64 * MIB);
	one("just over the total", total + 1);
	one("twice the total", 2 * total);
	one("64 TiB", (size_t)64 << 40);
	one("SIZE_MAX - 4096", SIZE_MAX - 4096);
	size_t free1 = drv_free(NULL);
	printf("end: cuMemGetInfo free %zu MiB of %zu MiB (start %zu MiB)\n", free1 / MIB,
	       total / MIB, free0 / MIB);
	if (free1 + 64 * MIB < free0)
		fail("end", "more than 64 MiB less free than at the start");
	printf("failed_requests: %s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
