/* prog_race_driver: the free-then-reuse race of race.h on the driver API.
 *
 * Stream A (non-blocking) runs a host function that sleeps INTEG_SLOW_MS
 * and then cuMemsetD8Async writes 1 into p. The program frees p with
 * cuMemFree_v2 (legal: CUDA's cuMemFree waits for earlier work on every
 * stream), allocates q of the same size with cuMemAlloc_v2 and writes 2
 * into q on stream B (non-blocking), with no synchronization in between.
 * After cuCtxSynchronize q must read 2 everywhere. Without a cache that
 * holds trivially; a cache that reuses p for q (prints "q == p") must order
 * B's write after A's, or A's late write of 1 lands on q. Linked with
 * -lcuda; on a GPU: `cc -I/usr/local/cuda/include prog_race_driver.c -lcuda`.
 */
#include "driver.h"

static void race_round(const drv *d, CUstream a, CUstream b, size_t n, int r, int *reused)
{
	CUdeviceptr p = 0, q = 0;
	char what[160];

	DCHECK(d->cuMemAlloc(&p, n));
	DCHECK(d->cuLaunchHostFunc(a, drv_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	DCHECK(d->cuMemsetD8Async(p, 1, n, a));
	DCHECK(d->cuMemFree(p));
	DCHECK(d->cuMemAlloc(&q, n));
	DCHECK(d->cuMemsetD8Async(q, 2, n, b));
	DCHECK(d->cuCtxSynchronize());
	*reused += p == q;
	snprintf(what, sizeof(what), "race_driver, %zu bytes, round %d (q %s p)", n, r,
		 p == q ? "==" : "!=");
	drv_check(d, q, n, 2, what);
	printf("race_driver: %zu bytes, round %d: q %s p\n", n, r, p == q ? "==" : "!=");
	DCHECK(d->cuMemFree(q));
}

int main(void)
{
	static const size_t sizes[] = { 4096, INTEG_MIB, 8 * INTEG_MIB };
	drv d = DRV_LINKED;
	CUstream a, b;
	int reused = 0, total = 0;

	drv_start(&d);
	DCHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	DCHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (int r = 0; r < 3; r++, total++)
			race_round(&d, a, b, sizes[si], r, &reused);
	DCHECK(cuStreamDestroy(a));
	DCHECK(cuStreamDestroy(b));
	printf("race_driver: q == p in %d of %d rounds\n", reused, total);
	return integ_report("race_driver");
}
