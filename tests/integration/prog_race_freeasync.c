/* prog_race_freeasync: a stream-ordered free followed by a plain cudaMalloc.
 *
 * p = cudaMallocAsync on s1, the slow kernel writes 1 into it on s1, then
 * cudaFreeAsync(p, s1): the free happens when s1 gets there, 30 ms later.
 * The program at once allocates q of the same size with cudaMalloc and
 * writes 2 into it on the non-blocking stream s2. After cudaDeviceSynchronize
 * q must read 2. A cache that reuses p for q must order s2 after s1's free.
 */
#include "race.h"

int main(void)
{
	return run_race(cudaStreamNonBlocking, "race_freeasync", true);
}
