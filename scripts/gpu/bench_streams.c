/* scripts/gpu/bench_streams.c - what stream creation and destruction cost
 * on a real GPU with 1, 128 and 10000 non-blocking streams alive:
 * tests/bench_scale.c's stream rows, through NVIDIA's runtime.
 *
 *   bench_streams raw   plain: the runtime alone (the baseline)
 *   bench_streams lib   with libcachemalloc.so preloaded
 *
 * Build: cc -O2 -I/usr/local/cuda/include bench_streams.c -L/usr/local/cuda/lib64
 *        -lcudart -ldl -Wl,-rpath,/usr/local/cuda/lib64
 *
 * Per count S: create, mean ns per cudaStreamCreateWithFlags(non-blocking)
 * while the S streams are made; churn, ns per create + destroy of one more
 * with the S alive (256 at a time, median of 7 rounds); pair, median ns
 * per cudaMalloc+cudaFree of 4 KiB with the S alive (31 batches of 1 ms);
 * destroy, mean ns per cudaStreamDestroy while the S end. Host clock; no
 * work on the streams. The figures under lib less those under raw are the
 * library's cost; gpu-check runs both in the same run.
 */
#define _GNU_SOURCE /* dladdr */
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CM_BENCH_PROVIDER
#include "bench_common.h" /* CHECK, now_ns, median, malloc_provider */

#define ROUNDS 7
#define CHURN 256

static double make_streams(cudaStream_t *s, size_t n)
{
	double t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
	return (now_ns() - t0) / (double)n;
}

static double end_streams(cudaStream_t *s, size_t n)
{
	double t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		CHECK(cudaStreamDestroy(s[i]));
	return (now_ns() - t0) / (double)n;
}

static double churn_ns(void)
{
	static cudaStream_t s[CHURN];
	double t[ROUNDS];
	for (int r = 0; r < ROUNDS; r++)
		t[r] = make_streams(s, CHURN) + end_streams(s, CHURN);
	return median(t, ROUNDS);
}

static void pairs_4k(void *arg, long n)
{
	(void)arg;
	void *p;
	for (long i = 0; i < n; i++) {
		CHECK(cudaMalloc(&p, 4096));
		CHECK(cudaFree(p));
	}
}

static double pair_ns(void)
{
	return batch_median_ns(pairs_4k, NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode;
	bench_mode(argc, argv, "bench_streams raw|lib", &mode);
	CHECK(cudaSetDevice(0));
	CHECK(cudaDeviceSynchronize());

	printf("\nnon-blocking streams alive (%s): ns per call\n%8s %10s %10s %10s %10s\n", mode,
	       "streams", "create", "churn", "pair 4KiB", "destroy");
	static const size_t counts[] = {1, 128, 10000};
	for (size_t c = 0; c < sizeof(counts) / sizeof(*counts); c++) {
		size_t n = counts[c];
		cudaStream_t *s = malloc(n * sizeof(*s));
		if (!s)
			return 1;
		double create = make_streams(s, n);
		double churn = churn_ns();
		double pair = pair_ns();
		double destroy = end_streams(s, n);
		printf("%8zu %10.0f %10.0f %10.1f %10.0f\n", n, create, churn, pair, destroy);
		free(s);
	}
	return 0;
}
