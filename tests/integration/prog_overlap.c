/* prog_overlap: two non-blocking streams that should run side by side.
 * Each step, for each stream: cudaMalloc a 1 MiB buffer, fill its first
 * 64 KiB on the stream, ~300 us of simulated work (a host function that sleeps in
 * stream order), cudaFree; the last step's buffers are checked. The steps
 * run once untimed first (the cache's memory then is touched). Without
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

/* The fake device's fill is the CPU's memset: a fill of the whole block
 * would time the host's caches (under free_fence:gpu the blocks rotate
 * through more memory than under none), not the streams. */
#define OVERLAP_TOUCHED ((size_t)64 << 10)

/* One step: each stream allocates, fills, works and frees; keep: the
 * buffers are kept in last[] instead of freed. */
static void overlap_step(cudaStream_t s[2], bool keep, void *last[2])
{
	for (int i = 0; i < 2; i++) {
		void *p;
		CHECK(cudaMalloc(&p, INTEG_MIB));
		CHECK(cudaMemsetAsync(p, 1 + i, OVERLAP_TOUCHED, s[i]));
		CHECK(cudaLaunchHostFunc(s[i], overlap_work, NULL));
		if (keep)
			last[i] = p;
		else
			CHECK(cudaFree(p));
	}
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 200;
	bool check = !(argc > 2 && strcmp(argv[2], "nocheck") == 0);
	cudaStream_t s[2];
	void *last[2] = {NULL, NULL};
	struct timespec t0, t1;

	for (int i = 0; i < 2; i++)
		CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
	/* The same steps once untimed: the steady state is timed, not the
	 * fake device's first touch of fresh memory (a page fault per 4 KiB,
	 * which a GPU does not pay). */
	for (int step = 0; step < steps; step++)
		overlap_step(s, false, last);
	CHECK(cudaDeviceSynchronize());
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int step = 0; step < steps; step++)
		overlap_step(s, step == steps - 1, last);
	struct timespec th;
	clock_gettime(CLOCK_MONOTONIC, &th);
	CHECK(cudaDeviceSynchronize());
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int i = 0; i < 2; i++) {
		if (check)
			check_fill(last[i], 1 + i, OVERLAP_TOUCHED, "the last step's buffer");
		CHECK(cudaFree(last[i]));
		CHECK(cudaStreamDestroy(s[i]));
	}
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	double host_ms = (double)(th.tv_sec - t0.tv_sec) * 1e3 + (double)(th.tv_nsec - t0.tv_nsec) / 1e6;
	printf("overlap: %d steps of 2 x %d us on two streams: %.1f ms (ideal %.1f ms; the host "
	       "queued it in %.1f ms)\n", steps, OVERLAP_WORK_US, ms, steps * OVERLAP_WORK_US / 1e3, host_ms);
	return integ_report("overlap");
}
