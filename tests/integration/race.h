/* tests/integration/race.h - the free-then-reuse race of prog_race_blocking,
 * prog_race_nonblocking, prog_race_churn and (stream-ordered) of
 * prog_race_freeasync.
 *
 * Stream A runs the slow kernel and then writes 1 into p. The program frees
 * p with cudaFree (legal: CUDA's cudaFree waits for the device), allocates q
 * of the same size and writes 2 into q on stream B (same kind as A), with
 * no synchronization in between. After cudaDeviceSynchronize q must read 2
 * everywhere. Without a cache that holds trivially. Under a cache that
 * reuses p for q (prints "q == p"), it holds only if the cache ordered B's
 * write after A's: A's late write of 1 would otherwise land on q. By
 * default the cache takes new memory for q while p awaits its order
 * (max_pending_mb); with a bound below a segment it orders p and reuses
 * it, which INTEG_EXPECT_REUSE makes the program require.
 *
 * With async_free p is taken with cudaMallocAsync and given back with
 * cudaFreeAsync, both on A: the free itself waits for the slow kernel.
 */
#ifndef INTEG_RACE_H
#define INTEG_RACE_H

#include "common.h"

static int run_race(unsigned stream_flags, const char *name, bool async_free)
{
	static const size_t sizes[] = { 4096, INTEG_MIB, 8 * INTEG_MIB };
	const int rounds = 3;
	int reused = 0, total = 0;
	cudaStream_t a, b;
	char what[160];

	CHECK(cudaStreamCreateWithFlags(&a, stream_flags));
	CHECK(cudaStreamCreateWithFlags(&b, stream_flags));
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int r = 0; r < rounds; r++) {
			size_t n = sizes[si];
			void *p = NULL, *q = NULL;

			if (async_free)
				CHECK(cudaMallocAsync(&p, n, a));
			else
				CHECK(cudaMalloc(&p, n));
			slow_fill(p, 1, n, a);
			if (async_free)
				CHECK(cudaFreeAsync(p, a));
			else
				CHECK(cudaFree(p));
			CHECK(cudaMalloc(&q, n));
			CHECK(cudaMemsetAsync(q, 2, n, b));
			CHECK(cudaDeviceSynchronize());
			bool same = p == q;
			reused += same;
			total++;
			snprintf(what, sizeof(what), "%s, %zu bytes, round %d (q %s p)", name, n, r,
				 same ? "==" : "!=");
			check_fill_all(q, 2, n, what);
			printf("%s: %zu bytes, round %d: q %s p\n", name, n, r, same ? "==" : "!=");
			CHECK(cudaFree(q));
		}
	}
	CHECK(cudaStreamDestroy(a));
	CHECK(cudaStreamDestroy(b));
	printf("%s: q == p in %d of %d rounds\n", name, reused, total);
	/* Set where the configuration makes the cache reuse p at once (its
	 * ordering is then what is tested, not the fresh memory). */
	if (getenv("INTEG_EXPECT_REUSE") && reused == 0) {
		printf("%s: FAIL: q never reused p\n", name);
		atomic_fetch_add(&integ_failures, 1);
	}
	return integ_report(name);
}

#endif
