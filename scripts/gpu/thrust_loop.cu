/* scripts/gpu/thrust_loop.cu - an allocation-heavy Thrust loop, to build
 * with nvcc's defaults (static runtime) and with -cudart shared: each
 * iteration makes a device_vector, fills it and reduces it (Thrust's
 * temporary storage is another cudaMalloc/cudaFree). Prints ms per
 * iteration (median of 5 runs of 500) and a checksum that must not
 * depend on the allocator: "THRUST_JSON {...}". */
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

static double run(int iters, double *checksum)
{
	auto t0 = std::chrono::steady_clock::now();
	double sum = 0;
	for (int i = 0; i < iters; i++) {
		size_t n = (size_t)(1 << 18) + (size_t)(i % 7) * 4096;
		thrust::device_vector<float> v(n);
		thrust::sequence(v.begin(), v.end(), (float)(i % 13));
		sum += thrust::reduce(v.begin(), v.end(), 0.0);
	}
	*checksum = sum;
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
	       iters;
}

int main()
{
	double checksum = 0, per[5];
	run(50, &checksum);
	for (int r = 0; r < 5; r++)
		per[r] = run(500, &checksum);
	std::sort(per, per + 5);
	std::printf("thrust loop: %.4f ms per iteration, checksum %.1f\n", per[2], checksum);
	std::printf("THRUST_JSON {\"ms_per_iter\": %.4f, \"checksum\": %.1f}\n", per[2], checksum);
	return 0;
}
