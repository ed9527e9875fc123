/* scripts/gpu/bench_streams.cu - what other streams cost a cudaMalloc +
 * cudaFree pair (docs/design.md, "Seeing every submission").
 *
 *   bench_streams raw   NVIDIA's runtime (the baseline of the same run)
 *   bench_streams lib   with libcachemalloc.so preloaded
 *
 * Rows, median ns per pair of one size over 11 batches of >= 1 ms (busy
 * rows: the mean of 3000 pairs while a kernel spins on one non-blocking
 * stream; raw mode skips them, cudaFree waits for the kernel):
 *   ns0, idle1, idle4, idle128: that many idle non-blocking streams alive;
 *   busy1, idle127_busy1: one of them (or of 128) runs a long kernel;
 *   async: cudaMallocAsync + cudaFreeAsync on one stream (CUDA's own pool);
 *   ns0_again: no stream again, at the end (drift of the host over the run).
 * Memory: device bytes in use (cudaMemGetInfo; run the library with
 * memgetinfo_counts_cache:false) before and after the busy rows.
 * Launch: ns per empty-kernel launch on a non-blocking stream, 20000
 * launches, median of 5 (the submission hooks' cost is the difference
 * between the two modes).
 * Output: a table, then one line "STREAMS_JSON {...}".
 *
 * Build: nvcc -O2 -arch=sm_90 -cudart shared bench_streams.cu -o bench_streams
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

__global__ void spin(long long cycles)
{
	long long t0 = clock64();
	while (clock64() - t0 < cycles)
		;
}

__global__ void empty(void) {}

static cudaStream_t g_async;

static void batch(size_t size, long n, bool async)
{
	void *p;
	for (long i = 0; i < n; i++) {
		if (async) {
			CHECK(cudaMallocAsync(&p, size, g_async));
			CHECK(cudaFreeAsync(p, g_async));
		} else {
			CHECK(cudaMalloc(&p, size));
			CHECK(cudaFree(p));
		}
	}
	if (async)
		CHECK(cudaStreamSynchronize(g_async));
}

static double pair_ns(size_t size, bool async)
{
	batch(size, 20, async);
	long n = 1;
	for (;;) {
		double t0 = now_ns();
		batch(size, n, async);
		double dt = now_ns() - t0;
		if (dt >= 1e6 || n >= 100000)
			break;
		n *= dt < 1e5 ? 8 : 2;
	}
	double per[11];
	for (int b = 0; b < 11; b++) {
		double t0 = now_ns();
		batch(size, n, async);
		per[b] = (now_ns() - t0) / (double)n;
	}
	return median(per, 11);
}

static double used_mib(void)
{
	size_t fr = 0, total = 0;
	CHECK(cudaMemGetInfo(&fr, &total));
	return (double)(total - fr) / (1 << 20);
}

/* The mean ns of 3000 pairs while a kernel spins on s. */
static double busy_ns(size_t size, cudaStream_t s, long long spin_cycles)
{
	spin<<<1, 1, 0, s>>>(spin_cycles);
	CHECK(cudaGetLastError());
	double t0 = now_ns();
	batch(size, 3000, false);
	double dt = (now_ns() - t0) / 3000;
	CHECK(cudaStreamSynchronize(s));
	return dt;
}

static double launch_ns(cudaStream_t s)
{
	double per[5];
	for (int r = 0; r < 5; r++) {
		double t0 = now_ns();
		for (int i = 0; i < 20000; i++)
			empty<<<1, 1, 0, s>>>();
		per[r] = (now_ns() - t0) / 20000;
		CHECK(cudaStreamSynchronize(s));
	}
	return median(per, 5);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode = argc > 1 ? argv[1] : "raw";
	bool lib = strcmp(mode, "lib") == 0;
	const size_t size = 16 << 20;
	CHECK(cudaSetDevice(0));
	CHECK(cudaDeviceSynchronize());
	cudaMemPool_t pool;
	CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
	uint64_t thr = UINT64_MAX;
	CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
	int rate_khz = 0;
	CHECK(cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0));
	long long spin_cycles = (long long)rate_khz * 1000 * 3; /* about 3 s */

	static cudaStream_t nb[128];
	int nnb = 0;
	double ns0 = pair_ns(size, false);
	CHECK(cudaStreamCreateWithFlags(&nb[nnb++], cudaStreamNonBlocking));
	double idle1 = pair_ns(size, false);
	double busy1 = -1, busy128 = -1, before = used_mib(), after = before;
	if (lib)
		busy1 = busy_ns(size, nb[0], spin_cycles);
	while (nnb < 4)
		CHECK(cudaStreamCreateWithFlags(&nb[nnb++], cudaStreamNonBlocking));
	double idle4 = pair_ns(size, false);
	while (nnb < 128)
		CHECK(cudaStreamCreateWithFlags(&nb[nnb++], cudaStreamNonBlocking));
	double idle128 = pair_ns(size, false);
	if (lib) {
		busy128 = busy_ns(size, nb[127], spin_cycles);
		after = used_mib();
	}
	g_async = nb[0];
	double async = pair_ns(size, true);
	double launch = launch_ns(nb[1]);
	double launch_legacy = launch_ns(0);
	for (int i = 0; i < nnb; i++)
		CHECK(cudaStreamDestroy(nb[i]));
	double ns0_again = pair_ns(size, false);

	printf("16 MiB cudaMalloc+cudaFree pair, ns (%s)\n", lib ? "library" : "runtime");
	printf("  %-22s %12.1f\n", "no other stream", ns0);
	printf("  %-22s %12.1f\n", "1 idle stream", idle1);
	printf("  %-22s %12.1f\n", "4 idle streams", idle4);
	printf("  %-22s %12.1f\n", "128 idle streams", idle128);
	printf("  %-22s %12.1f\n", "1 busy stream", busy1);
	printf("  %-22s %12.1f\n", "127 idle + 1 busy", busy128);
	printf("  %-22s %12.1f\n", "cudaMallocAsync pair", async);
	printf("  %-22s %12.1f\n", "no stream, at the end", ns0_again);
	printf("device MiB in use before / after the busy rows: %.0f / %.0f\n", before, after);
	printf("empty-kernel launch, ns: non-blocking stream %.1f, legacy stream %.1f\n", launch,
	       launch_legacy, ns0_again);
	printf("STREAMS_JSON {\"mode\": \"%s\", \"ns0\": %.1f, \"idle1\": %.1f, \"idle4\": %.1f, "
	       "\"idle128\": %.1f, \"busy1\": %.1f, \"idle127_busy1\": %.1f, \"async\": %.1f, "
	       "\"used_mib_before\": %.0f, \"used_mib_after\": %.0f, \"launch_ns\": %.1f, "
	       "\"launch_legacy_ns\": %.1f, \"ns0_again\": %.1f}\n",
	       mode, ns0, idle1, idle4, idle128, busy1, busy128, async, before, after, launch,
	       launch_legacy, ns0_again);
	return 0;
}
