/* prog_single_stream: cudaMalloc / cudaMemset / cudaMemcpy check / cudaFree
 * on the default stream, 20000 iterations over sizes from 512 B to 64 MiB.
 *
 * Eight blocks stay live at a time (a ring): each block is checked again
 * just before it is freed, so a block handed out twice while live (or
 * written by work meant for another block) shows up as a changed pattern.
 * Most sizes are small: three in four from 512 B to 32 KiB, the others from
 * 64 KiB to 1 MiB, a third of them not multiples of 512. Every 500th
 * iteration takes a large size, cycling through 2 MiB + 1, 4 MiB, 10 MiB,
 * 20 MiB + 512, 33 MiB and 64 MiB (the pool boundaries of a caching
 * allocator and a few around them).
 */
#include "common.h"

#define ITERATIONS 20000
#define RING 8

static size_t pick_size(uint64_t *rng, int i)
{
	static const size_t large[] = {
		2 * INTEG_MIB + 1, 4 * INTEG_MIB, 10 * INTEG_MIB,
		20 * INTEG_MIB + 512, 33 * INTEG_MIB, 64 * INTEG_MIB,
	};
	if (i % 500 == 499)
		return large[(i / 500) % (sizeof(large) / sizeof(large[0]))];
	size_t n = integ_rand(rng) % 4
		   ? (size_t)512 << (integ_rand(rng) % 7)        /* 512 B .. 32 KiB */
		   : (size_t)65536 << (integ_rand(rng) % 5);     /* 64 KiB .. 1 MiB */
	if (integ_rand(rng) % 3 == 0)
		n += integ_rand(rng) % 512;
	return n;
}

int main(void)
{
	struct { void *p; size_t n; int v; } ring[RING] = { { NULL, 0, 0 } };
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	char what[128];

	for (int i = 0; i < ITERATIONS; i++) {
		int slot = i % RING;
		if (ring[slot].p) {
			snprintf(what, sizeof(what), "iteration %d: block of %zu bytes before its free",
				 i, ring[slot].n);
			check_fill(ring[slot].p, ring[slot].v, ring[slot].n, what);
			CHECK(cudaFree(ring[slot].p));
		}
		size_t n = pick_size(&rng, i);
		int v = 1 + i % 255;
		void *p = NULL;
		CHECK(cudaMalloc(&p, n));
		if (!p) {
			FAIL("iteration %d: cudaMalloc(%zu) returned cudaSuccess and NULL", i, n);
			return 1;
		}
		CHECK(cudaMemset(p, v, n));
		snprintf(what, sizeof(what), "iteration %d: fresh block of %zu bytes", i, n);
		check_fill(p, v, n, what);
		ring[slot].p = p;
		ring[slot].n = n;
		ring[slot].v = v;
	}
	for (int i = 0; i < RING; i++) {
		if (ring[i].p) {
			check_fill(ring[i].p, ring[i].v, ring[i].n, "block at the end");
			CHECK(cudaFree(ring[i].p));
		}
	}
	CHECK(cudaDeviceSynchronize());
	return integ_report("single_stream");
}
