/* prog_fault_hammer: the free-then-reuse race of race.h from several
 * threads at once, for the fault-injection runs (run_faults.py, issue 36).
 *
 * Each of THREADS threads owns two non-blocking streams, A and B. Per
 * round: p is allocated, a slow write of 0xEE is queued on A (a host
 * function sleeps, then a memset), p is freed at once; q of the same size
 * is allocated and written with the thread's value on B, and after
 * cudaDeviceSynchronize every byte of q must hold that value: were q
 * handed out while A's write could still land on it (p reused without
 * order), 0xEE would show. Every few rounds a thread destroys A and makes
 * a new one (streams that end with work queued). Every call must succeed.
 */
#include "common.h"

#include <pthread.h>

#define THREADS 4
#define ROUNDS 24
#define SLOW_MS 2

static void *hammer(void *arg)
{
	int me = (int)(uintptr_t)arg;
	static const size_t sizes[] = { 4096, 64 << 10, INTEG_MIB, 3 * INTEG_MIB };
	uint64_t rng = 0x1234567ull + (uint64_t)me * 7919;
	cudaStream_t a, b;
	char what[160];

	CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
	for (int r = 0; r < ROUNDS; r++) {
		size_t n = sizes[integ_rand(&rng) % 4];
		int v = 1 + me;
		void *p = NULL, *q = NULL;

		CHECK(cudaMalloc(&p, n));
		CHECK(cudaLaunchHostFunc(a, integ_sleep_fn, (void *)(uintptr_t)SLOW_MS));
		CHECK(cudaMemsetAsync(p, 0xEE, n, a));
		CHECK(cudaFree(p));
		CHECK(cudaMalloc(&q, n));
		CHECK(cudaMemsetAsync(q, v, n, b));
		CHECK(cudaDeviceSynchronize());
		snprintf(what, sizeof(what), "thread %d, round %d, %zu bytes (q %s p)", me, r, n,
			 p == q ? "==" : "!=");
		check_fill(q, v, n, what);
		CHECK(cudaFree(q));
		if (r % 8 == 7) {
			CHECK(cudaStreamDestroy(a));
			CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
		}
	}
	CHECK(cudaStreamDestroy(a));
	CHECK(cudaStreamDestroy(b));
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, hammer, (void *)(uintptr_t)i) != 0) {
			FAIL("pthread_create");
			return 1;
		}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return integ_report("fault_hammer");
}
