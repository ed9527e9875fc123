/* prog_device_reset: the device works after cudaDeviceReset.
 *
 * Allocations and a stream exist when cudaDeviceReset destroys them; then
 * allocation, memset, copy back and free must work again, repeatedly.
 */
#include "common.h"

int main(void)
{
	for (int round = 0; round < 3; round++) {
		void *p = NULL, *q = NULL, *big = NULL;
		cudaStream_t s;
		char what[96];

		CHECK(cudaMalloc(&p, INTEG_MIB));
		CHECK(cudaMalloc(&big, 32 * INTEG_MIB));
		CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
		CHECK(cudaMemsetAsync(p, 1, INTEG_MIB, s));
		CHECK(cudaFree(big));
		CHECK(cudaDeviceReset()); /* frees p and destroys s */

		CHECK(cudaMalloc(&q, INTEG_MIB));
		CHECK(cudaMemset(q, 0x33, INTEG_MIB));
		snprintf(what, sizeof(what), "round %d: block allocated after the reset", round);
		check_fill_all(q, 0x33, INTEG_MIB, what);
		CHECK(cudaFree(q));
		CHECK(cudaMalloc(&big, 32 * INTEG_MIB));
		CHECK(cudaMemset(big, 0x44, 32 * INTEG_MIB));
		snprintf(what, sizeof(what), "round %d: 32 MiB block after the reset", round);
		check_fill(big, 0x44, 32 * INTEG_MIB, what);
		CHECK(cudaFree(big));
	}
	return integ_report("device_reset");
}
