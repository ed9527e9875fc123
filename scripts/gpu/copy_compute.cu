/* scripts/gpu/copy_compute.cu - copy/compute overlap under cudaMalloc and
 * cudaFree (issue 16, target: preloaded with free_fence:gpu within 1.05x
 * of free_fence:none).
 *
 * Two non-blocking streams. Each step the copy stream allocates 8 MiB
 * with cudaMalloc, copies 8 MiB from pinned host memory into it and
 * frees it with cudaFree; the compute stream allocates 8 MiB, runs a
 * kernel of about 200 us writing it and frees it. Without a cache,
 * cudaFree synchronizes the device; a cache that orders every reuse
 * across streams makes the two take turns; one that proves reuse by
 * completion lets them overlap. Timed with events: from an event both
 * streams wait for to the later of their end events. Prints one line
 * "BENCH copy_compute LABEL ms=M" (median of 5 runs of 200 steps) and
 * checks the last buffers.
 *
 *   nvcc -O2 -arch=sm_90 copy_compute.cu -o copy_compute
 *   ./copy_compute plain;  LD_PRELOAD=libcachemalloc.so ./copy_compute gpu
 *   CACHEMALLOC_CONF=free_fence:none LD_PRELOAD=... ./copy_compute none
 */
#include "bench_common.h"

#include <string.h>

#define STEPS 200
#define RUNS 5
#define BYTES ((size_t)8 << 20)

__global__ void busy_fill(unsigned *p, size_t n, unsigned value, long long cycles)
{
	long long t0 = clock64();
	while (clock64() - t0 < cycles)
		;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = value;
}

static float run(cudaStream_t copy, cudaStream_t comp, const unsigned *host, long long cycles)
{
	cudaEvent_t start, end_copy, end_comp;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&end_copy));
	CHECK(cudaEventCreate(&end_comp));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaEventRecord(start, copy));
	CHECK(cudaStreamWaitEvent(comp, start, 0));
	void *last_copy = NULL, *last_comp = NULL;
	for (int step = 0; step < STEPS; step++) {
		void *a, *b;
		CHECK(cudaMalloc(&a, BYTES));
		CHECK(cudaMemcpyAsync(a, host, BYTES, cudaMemcpyHostToDevice, copy));
		CHECK(cudaMalloc(&b, BYTES));
		busy_fill<<<132, 256, 0, comp>>>((unsigned *)b, BYTES / 4, (unsigned)step, cycles);
		CHECK(cudaGetLastError());
		if (step == STEPS - 1) {
			last_copy = a;
			last_comp = b;
		} else {
			CHECK(cudaFree(a));
			CHECK(cudaFree(b));
		}
	}
	CHECK(cudaEventRecord(end_copy, copy));
	CHECK(cudaEventRecord(end_comp, comp));
	CHECK(cudaEventSynchronize(end_copy));
	CHECK(cudaEventSynchronize(end_comp));
	float ms_copy, ms_comp;
	CHECK(cudaEventElapsedTime(&ms_copy, start, end_copy));
	CHECK(cudaEventElapsedTime(&ms_comp, start, end_comp));
	unsigned *check = (unsigned *)malloc(BYTES);
	CHECK(cudaMemcpy(check, last_copy, BYTES, cudaMemcpyDeviceToHost));
	if (memcmp(check, host, BYTES) != 0) {
		fprintf(stderr, "copy_compute: the last copied buffer differs from its source\n");
		exit(1);
	}
	CHECK(cudaMemcpy(check, last_comp, BYTES, cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < BYTES / 4; i++)
		if (check[i] != STEPS - 1) {
			fprintf(stderr, "copy_compute: the last computed buffer holds %u at %zu\n",
				check[i], i);
			exit(1);
		}
	free(check);
	CHECK(cudaFree(last_copy));
	CHECK(cudaFree(last_comp));
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(end_copy));
	CHECK(cudaEventDestroy(end_comp));
	return ms_copy > ms_comp ? ms_copy : ms_comp;
}

int main(int argc, char **argv)
{
	const char *label = argc > 1 ? argv[1] : "plain";
	cudaStream_t copy, comp;
	unsigned *host;
	int clock_khz;
	CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
	long long cycles = (long long)clock_khz * 200 / 1000; /* about 200 us */
	CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&comp, cudaStreamNonBlocking));
	CHECK(cudaMallocHost((void **)&host, BYTES));
	for (size_t i = 0; i < BYTES / 4; i++)
		host[i] = (unsigned)(i * 2654435761u);
	run(copy, comp, host, cycles); /* warm-up: the cache fills */
	double ms[RUNS];
	for (int r = 0; r < RUNS; r++)
		ms[r] = run(copy, comp, host, cycles);
	printf("BENCH copy_compute %s ms=%.3f (runs:", label, median(ms, RUNS));
	for (int r = 0; r < RUNS; r++)
		printf(" %.3f", ms[r]);
	printf(")\n");
	CHECK(cudaFreeHost(host));
	CHECK(cudaStreamDestroy(copy));
	CHECK(cudaStreamDestroy(comp));
	return 0;
}
