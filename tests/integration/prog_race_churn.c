/* prog_race_churn: the free-then-reuse race (race.h) after 100000 streams
 * were created, given work and destroyed: a server that makes a stream
 * per request reaches that many in minutes. A cache whose stream records
 * run out (a fixed table of handles ever seen) stops seeing the new
 * streams' work, finds the device quiet and hands the block freed under
 * the slow writer on stream A to the owner on stream B while A's write is
 * pending. The first half of the churn streams are blocking, the second
 * non-blocking (mixed, the simulator's legacy stream would wait on every
 * blocking stream not yet drained: slow here, not on a GPU); each runs one
 * small memset before it is destroyed. INTEG_CHURN overrides the count. */
#include "race.h"

static void churn(int n)
{
	void *scratch = NULL;
	CHECK(cudaMalloc(&scratch, 512));
	for (int i = 0; i < n; i++) {
		cudaStream_t s;
		if (i == n / 2)
			CHECK(cudaDeviceSynchronize());
		CHECK(cudaStreamCreateWithFlags(&s, i < n / 2 ? cudaStreamDefault : cudaStreamNonBlocking));
		CHECK(cudaMemsetAsync(scratch, i & 0xff, 512, s));
		CHECK(cudaStreamDestroy(s));
	}
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaFree(scratch));
}

int main(void)
{
	const char *env = getenv("INTEG_CHURN");
	int n = env ? atoi(env) : 100000;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	churn(n);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("race_churn: %d streams created and destroyed in %.0f ms\n", n,
	       (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	return run_race(cudaStreamNonBlocking, "race_churn", false);
}
