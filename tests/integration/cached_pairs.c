/* cached_pairs: cudaMalloc+cudaFree (or cuMemAlloc+cuMemFree) pairs
 * of one size, with or without a non-blocking stream alive.
 * check_cached_pairs.py runs it under the library and reads
 * thread_cache_hits: the thread's cache serves every pair after the first
 * at every size up to 256 MiB, and with a user stream alive (the reuse
 * rules judge). Whether the hook's inline try or the miss path's own
 * first try served, the statistics cannot tell; test_fastpath.c checks
 * the inline try. (Not a prog_*: it needs the library's statistics, so
 * scripts/gpu-check does not run it plain.)
 *   cached_pairs BYTES none|stream runtime|driver PAIRS */
#include <cuda.h>

#include "common.h"

static void pair(size_t n, bool driver)
{
	if (driver) {
		CUdeviceptr p;
		if (cuMemAlloc(&p, n) != CUDA_SUCCESS || cuMemFree(p) != CUDA_SUCCESS)
			FAIL("cuMemAlloc/cuMemFree of %zu bytes failed", n);
		return;
	}
	void *p;
	CHECK(cudaMalloc(&p, n));
	CHECK(cudaFree(p));
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: cached_pairs BYTES none|stream runtime|driver PAIRS\n");
		return 2;
	}
	size_t n = strtoull(argv[1], NULL, 0);
	long pairs = strtol(argv[4], NULL, 10);
	bool stream = !strcmp(argv[2], "stream"), driver = !strcmp(argv[3], "driver");
	CHECK(cudaFree(0)); /* the runtime makes the primary context current */
	cudaStream_t s;
	if (stream)
		CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (long i = 0; i < pairs + 1; i++) /* the first free keys the bin */
		pair(n, driver);
	if (stream)
		CHECK(cudaStreamDestroy(s));
	return integ_report("cached_pairs");
}
