/* scripts/gpu/growing.c - allocation sizes that grow step by step, as the
 * activations of a model whose sequence length grows: each step allocates
 * 12 buffers proportional to the length, uses them, frees them. A cache
 * without expandable segments keeps the segments of every earlier length;
 * expandable segments grow one range instead. Peak device use comes from
 * the library's statistics (stats:exit-json) in scripts/gpu-check.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>

#define CHECK(x)                                                                   \
	do {                                                                       \
		cudaError_t e_ = (x);                                              \
		if (e_ != cudaSuccess) {                                           \
			fprintf(stderr, "growing: %s: %s\n", #x, cudaGetErrorString(e_)); \
			return 1;                                                  \
		}                                                                  \
	} while (0)

int main(void)
{
	enum { STEPS = 48, BUFS = 12 };
	void *p[BUFS];
	size_t peak = 0;
	for (int step = 1; step <= STEPS; step++) {
		size_t seq = 128 * (size_t)step; /* tokens */
		size_t total = 0;
		for (int i = 0; i < BUFS; i++) {
			size_t n = seq * 4096 * (size_t)(1 + i % 3); /* 0.5 - 72 MiB */
			CHECK(cudaMalloc(&p[i], n));
			CHECK(cudaMemsetAsync(p[i], i, n, 0));
			total += n;
		}
		for (int i = BUFS - 1; i >= 0; i--)
			CHECK(cudaFree(p[i]));
		if (total > peak)
			peak = total;
	}
	CHECK(cudaDeviceSynchronize());
	printf("growing: %d steps, peak live %.1f MiB\n", STEPS, (double)peak / (1 << 20));
	return 0;
}
