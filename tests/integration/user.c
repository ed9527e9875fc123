/* user.c - libuser.so for prog_rtld_local: a library linked to the CUDA
 * runtime, the way a Python extension is, and loaded privately with
 * dlopen(RTLD_LOCAL), so that the runtime is not in the global scope.
 */
#include "common.h"

/* Allocates, fills, checks and frees in a loop; returns the number of
 * failures (each also printed). */
__attribute__((visibility("default"))) int user_run(int iterations);

int user_run(int iterations)
{
	char what[96];
	int before = atomic_load(&integ_failures);

	for (int i = 0; i < iterations; i++) {
		size_t n = (size_t)512 << (i % 14); /* 512 B .. 4 MiB */
		int v = 1 + i % 255;
		void *p = NULL;
		CHECK(cudaMalloc(&p, n));
		CHECK(cudaMemset(p, v, n));
		snprintf(what, sizeof(what), "libuser, iteration %d, %zu bytes", i, n);
		check_fill(p, v, n, what);
		CHECK(cudaFree(p));
	}
	CHECK(cudaDeviceSynchronize());
	return atomic_load(&integ_failures) - before;
}
