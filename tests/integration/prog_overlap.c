/* prog_overlap: two non-blocking streams that should run side by side.
 * Each step, for each stream: cudaMalloc a 1 MiB buffer, fill it on the
 * stream, ~300 us of simulated work (a host function that sleeps in
 * stream order), a fill that checks nothing was lost, cudaFree. Without
 * the cache (or under free_fence:none) the streams overlap; a cache that
 * orders every reuse across streams makes them take turns. Prints its
 * wall time; bench_overlap.py runs it under free_fence:gpu beside none
 * (a benchmark: the figures are printed, not asserted). Arguments: steps,
 * and "nocheck" for free_fence:none, under which the reuse races. */
#include "common.h"

#define OVERLAP_WORK_US 300

static void CUDART_CB overlap_work(void *arg)
{
	(void)arg;
	struct timespec ts = {0, OVERLAP_WORK_US * 1000L};
	while (nanosleep(&ts, &ts) != 0)
		;
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 200;
	bool check = !(argc > 2 && strcmp(argv[2], "nocheck") == 0);
	const size_t n = INTEG_MIB;
	cudaStream_t s[2];
	void *last[2] = {NULL, NULL};
	struct timespec t0, t1;

	for (int i = 0; i < 2; i++)
		CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
	CHECK(cudaDeviceSynchronize());
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int step = 0; step < steps; step++) {
		for (int i = 0; i < 2; i++) {
			void *p;
			CHECK(cudaMalloc(&p, n));
			CHECK(cudaMemsetAsync(p, 1 + i, n, s[i]));
			CHECK(cudaLaunchHostFunc(s[i], overlap_work, NULL));
			if (step == steps - 1) {
				last[i] = p; /* kept, checked below */
				continue;
			}
			CHECK(cudaFree(p));
		}
	}
	CHECK(cudaDeviceSynchronize());
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int i = 0; i < 2; i++) {
		if (check)
			check_fill(last[i], 1 + i, n, "the last step's buffer");
		CHECK(cudaFree(last[i]));
		CHECK(cudaStreamDestroy(s[i]));
	}
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("overlap: %d steps of 2 x %d us on two streams: %.1f ms (ideal %.1f ms)\n", steps,
	       OVERLAP_WORK_US, ms, steps * OVERLAP_WORK_US / 1e3);
	return integ_report("overlap");
}
