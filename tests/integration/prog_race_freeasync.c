/* prog_race_freeasync: a stream-ordered free followed by a plain cudaMalloc.
 *
 * p = cudaMallocAsync on s1, the slow kernel writes 1 into it on s1, then
 * cudaFreeAsync(p, s1): the free happens when s1 gets there, 30 ms later.
 * The program at once allocates q of the same size with cudaMalloc and
 * writes 2 into it on the non-blocking stream s2. After cudaDeviceSynchronize
 * q must read 2. A cache that reuses p for q must order s2 after s1's free.
 */
#include "common.h"

int main(void)
{
	static const size_t sizes[] = { 4096, INTEG_MIB, 8 * INTEG_MIB };
	int reused = 0, total = 0;
	cudaStream_t s1, s2;
	char what[160];

	CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int r = 0; r < 3; r++) {
			size_t n = sizes[si];
			void *p = NULL, *q = NULL;

			CHECK(cudaMallocAsync(&p, n, s1));
			slow_fill(p, 1, n, s1);
			CHECK(cudaFreeAsync(p, s1));
			CHECK(cudaMalloc(&q, n));
			CHECK(cudaMemsetAsync(q, 2, n, s2));
			CHECK(cudaDeviceSynchronize());
			bool same = p == q;
			reused += same;
			total++;
			snprintf(what, sizeof(what), "race_freeasync, %zu bytes, round %d (q %s p)", n,
				 r, same ? "==" : "!=");
			check_fill_all(q, 2, n, what);
			printf("race_freeasync: %zu bytes, round %d: q %s p\n", n, r,
			       same ? "==" : "!=");
			CHECK(cudaFree(q));
		}
	}
	CHECK(cudaStreamDestroy(s1));
	CHECK(cudaStreamDestroy(s2));
	printf("race_freeasync: q == p in %d of %d rounds\n", reused, total);
	return integ_report("race_freeasync");
}
