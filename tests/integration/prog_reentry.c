/* prog_reentry: a plain allocation loop. Registered with FAKECUDA_REENTER=1:
 * the fake runtime's cudaMalloc then calls the global cudaMalloc and
 * cudaFree itself, as a runtime calling its own exported API does; an
 * interposer must pass those calls through, not re-enter its cache. On a
 * GPU it is just a loop.
 */
#include "common.h"

int main(void)
{
	char what[96];
	for (int i = 0; i < 2000; i++) {
		size_t n = (size_t)512 << (i % 13);
		void *p = NULL;
		CHECK(cudaMalloc(&p, n));
		CHECK(cudaMemset(p, 1 + i % 255, n));
		snprintf(what, sizeof(what), "iteration %d, %zu bytes", i, n);
		check_fill(p, 1 + i % 255, n, what);
		CHECK(cudaFree(p));
	}
	CHECK(cudaDeviceSynchronize());
	return integ_report("reentry");
}
