/* prog_memlimit: memory_limit_mb as the program sees it.
 *
 * "limit MIB" (run with CACHEMALLOC_CONF=memory_limit_mb:MIB): cudaMemGetInfo
 * reports MIB as the total and, with 256 MiB held, at most MIB - 256 MiB as
 * free; a second block that would take the cache past the cap fails with
 * cudaErrorMemoryAllocation even though the device has room; after the
 * free, a block of 3/4 of the cap fits again (the cache gives back what it
 * kept to stay under the cap). Without an argument (no limit): the same
 * allocations all succeed and the total is the device's.
 */
#include "common.h"

int main(int argc, char **argv)
{
	size_t limit = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) * INTEG_MIB : 0;
	size_t free_b, total, half = limit ? limit / 2 + 8 * INTEG_MIB : 300 * INTEG_MIB;
	void *a = NULL, *b = NULL;

	CHECK(cudaFree(NULL));
	CHECK(cudaMemGetInfo(&free_b, &total));
	if (limit && total != limit)
		FAIL("total: expected the cap %zu, got %zu", limit, total);
	if (!limit && total <= 2 * half)
		FAIL("total: expected the device's (more than %zu), got %zu", 2 * half, total);
	CHECK(cudaMalloc(&a, 256 * INTEG_MIB));
	CHECK(cudaMemGetInfo(&free_b, &total));
	if (limit && free_b > limit - 256 * INTEG_MIB)
		FAIL("free with 256 MiB held: expected at most %zu, got %zu",
		     limit - 256 * INTEG_MIB, free_b);
	CHECK(cudaFree(a));
	CHECK(cudaMalloc(&a, half));
	cudaError_t e = cudaMalloc(&b, half);
	if (limit && e != cudaErrorMemoryAllocation)
		FAIL("two blocks of %zu under a cap of %zu: expected cudaErrorMemoryAllocation, got %s",
		     half, limit, cudaGetErrorName(e));
	if (!limit && e != cudaSuccess)
		FAIL("two blocks of %zu, no cap: got %s", half, cudaGetErrorName(e));
	(void)cudaGetLastError();
	if (e == cudaSuccess)
		CHECK(cudaFree(b));
	CHECK(cudaFree(a));
	size_t big = limit ? limit / 4 * 3 : half;
	CHECK(cudaMalloc(&a, big));
	CHECK(cudaFree(a));
	printf("memlimit: total %zu, cap %zu\n", total, limit);
	return integ_report("memlimit");
}
