/* prog_oom: running out of device memory and recovering.
 *
 * Registered with CACHEMALLOC_SIM_MEMORY=1G on the simulated device; on a
 * GPU it sizes itself from cudaMemGetInfo. Allocates 64 MiB chunks until
 * cudaErrorMemoryAllocation; cudaGetLastError must then return that error
 * once and cudaSuccess after. Frees every other chunk and allocates 128 MiB
 * chunks until the next failure: at least (chunks freed) / 2 must succeed,
 * less one (a cache must give its cached 64 MiB blocks back to the device
 * for them, or stitch them; an expandable range keeps its first 2 MiB
 * mapped while it lives, docs/design.md section 6). Frees everything and fills the device with 64 MiB chunks again: at
 * least as many as the first time, less one.
 */
#include "common.h"

#define CHUNK (64 * INTEG_MIB)

static size_t fill(void **v, size_t cap, size_t size, const char *what)
{
	size_t n = 0;
	cudaError_t e = cudaSuccess;

	while (n < cap && (e = cudaMalloc(&v[n], size)) == cudaSuccess)
		n++;
	if (n == cap) {
		FAIL("%s: expected cudaErrorMemoryAllocation within %zu allocations of %zu MiB, "
		     "none failed", what, cap, size >> 20);
		return n;
	}
	if (e != cudaErrorMemoryAllocation)
		FAIL("%s: allocation %zu of %zu MiB: expected cudaErrorMemoryAllocation, got %s",
		     what, n, size >> 20, cudaGetErrorName(e));
	e = cudaGetLastError();
	if (e != cudaErrorMemoryAllocation)
		FAIL("%s: cudaGetLastError after the failure: expected "
		     "cudaErrorMemoryAllocation, got %s", what, cudaGetErrorName(e));
	e = cudaGetLastError();
	if (e != cudaSuccess)
		FAIL("%s: second cudaGetLastError: expected cudaSuccess, got %s", what,
		     cudaGetErrorName(e));
	return n;
}

int main(void)
{
	size_t free0, total;

	CHECK(cudaMemGetInfo(&free0, &total));
	size_t cap = total / CHUNK + 16;
	void **chunks = calloc(cap, sizeof(void *));
	void **big = calloc(cap, sizeof(void *));
	if (!chunks || !big) {
		FAIL("host memory for %zu pointers: out of memory", cap);
		return 1;
	}
	printf("oom: device has %zu MiB free of %zu MiB\n", free0 >> 20, total >> 20);

	size_t n = fill(chunks, cap, CHUNK, "first fill");
	printf("oom: first fill: %zu chunks of 64 MiB\n", n);
	if (n < 2) {
		FAIL("first fill: expected at least 2 chunks of 64 MiB, got %zu", n);
		return integ_report("oom");
	}
	for (size_t i = 0; i < n; i++) {
		if (i % 2 == 0) {
			CHECK(cudaFree(chunks[i]));
			chunks[i] = NULL;
		}
	}
	size_t freed = (n + 1) / 2;

	size_t m = fill(big, cap, 2 * CHUNK, "128 MiB fill");
	printf("oom: %zu chunks of 64 MiB freed, then %zu chunks of 128 MiB allocated\n", freed, m);
	if (m + 1 < freed / 2)
		FAIL("128 MiB fill: expected at least %zu chunks of 128 MiB, got %zu", freed / 2 - 1,
		     m);
	for (size_t i = 0; i < m; i++)
		CHECK(cudaFree(big[i]));
	for (size_t i = 0; i < n; i++)
		if (chunks[i])
			CHECK(cudaFree(chunks[i]));

	size_t again = fill(chunks, cap, CHUNK, "second fill");
	printf("oom: second fill: %zu chunks of 64 MiB\n", again);
	if (again + 1 < n)
		FAIL("second fill: expected at least %zu chunks of 64 MiB, got %zu", n - 1, again);
	for (size_t i = 0; i < again; i++)
		CHECK(cudaFree(chunks[i]));

	/* The device still works. */
	void *p = NULL;
	CHECK(cudaMalloc(&p, INTEG_MIB));
	CHECK(cudaMemset(p, 0x3c, INTEG_MIB));
	check_fill_all(p, 0x3c, INTEG_MIB, "block after the out-of-memory rounds");
	CHECK(cudaFree(p));
	free(chunks);
	free(big);
	return integ_report("oom");
}
