/* prog_memgetinfo: cudaMemGetInfo after an allocation and its free.
 *
 * After cudaMalloc + cudaFree of 256 MiB the free memory reported must be
 * within 2 MiB of what it was before the allocation (a cache that keeps the
 * block must count it as free), and while the block is allocated it must be
 * at least 254 MiB lower.
 */
#include "common.h"

#define SIZE (256 * INTEG_MIB)
#define SLACK (2 * INTEG_MIB)

int main(void)
{
	size_t before, during, after, total;
	void *p = NULL;

	CHECK(cudaFree(NULL));
	CHECK(cudaMemGetInfo(&before, &total));
	CHECK(cudaMalloc(&p, SIZE));
	CHECK(cudaMemset(p, 1, SIZE));
	CHECK(cudaMemGetInfo(&during, &total));
	CHECK(cudaFree(p));
	CHECK(cudaMemGetInfo(&after, &total));
	printf("memgetinfo: free before %zu, with 256 MiB allocated %zu, after the free %zu "
	       "(total %zu)\n", before, during, after, total);
	if (during + SIZE - SLACK > before)
		FAIL("while 256 MiB are allocated: expected free <= %zu, got %zu",
		     before - (SIZE - SLACK), during);
	if (after + SLACK < before || after > before + SLACK)
		FAIL("after the free: expected free within 2 MiB of %zu, got %zu (%+lld bytes)",
		     before, after, (long long)after - (long long)before);
	return integ_report("memgetinfo");
}
