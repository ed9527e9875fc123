/* prog_ipc: cudaIpcGetMemHandle on blocks that do or do not start their
 * allocation.
 *
 * Argument "expect-success" (CUDA itself: every cudaMalloc is its own
 * allocation) or "expect-refusal" (under a cache that carves small blocks
 * from larger segments: a handle would map the whole segment, so the cache
 * refuses). The handle of the second of two 4 KiB allocations is asked
 * for and must succeed resp. be refused; the handle of a 64 MiB allocation
 * (a segment of its own) must succeed in both cases; with
 * "expect-refusal-all" (the cache under expandable_segments:True, whose
 * blocks all share one range) it must be refused too.
 */
#include "common.h"

int main(int argc, char **argv)
{
	bool expect_success, big_refused = false;
	void *a = NULL, *b = NULL, *big = NULL;
	cudaIpcMemHandle_t h;

	if (argc == 2 && strcmp(argv[1], "expect-success") == 0) {
		expect_success = true;
	} else if (argc == 2 && strcmp(argv[1], "expect-refusal") == 0) {
		expect_success = false;
	} else if (argc == 2 && strcmp(argv[1], "expect-refusal-all") == 0) {
		expect_success = false;
		big_refused = true;
	} else {
		printf("usage: %s expect-success|expect-refusal|expect-refusal-all\n", argv[0]);
		return 2;
	}

	CHECK(cudaMalloc(&a, 4096));
	CHECK(cudaMalloc(&b, 4096));
	cudaError_t e = cudaIpcGetMemHandle(&h, b);
	printf("ipc: handle of the second 4 KiB block: %s\n", cudaGetErrorName(e));
	if (expect_success && e != cudaSuccess)
		FAIL("cudaIpcGetMemHandle(second 4 KiB block): expected cudaSuccess, got %s",
		     cudaGetErrorName(e));
	if (!expect_success && e == cudaSuccess)
		FAIL("cudaIpcGetMemHandle(second 4 KiB block): expected a refusal, got cudaSuccess");
	(void)cudaGetLastError();

	CHECK(cudaMalloc(&big, 64 * INTEG_MIB));
	e = cudaIpcGetMemHandle(&h, big);
	printf("ipc: handle of the 64 MiB block: %s\n", cudaGetErrorName(e));
	if (!big_refused && e != cudaSuccess)
		FAIL("cudaIpcGetMemHandle(64 MiB block): expected cudaSuccess, got %s",
		     cudaGetErrorName(e));
	if (big_refused && e == cudaSuccess)
		FAIL("cudaIpcGetMemHandle(64 MiB block): expected a refusal, got cudaSuccess");
	(void)cudaGetLastError();

	CHECK(cudaFree(a));
	CHECK(cudaFree(b));
	CHECK(cudaFree(big));
	return integ_report("ipc");
}
