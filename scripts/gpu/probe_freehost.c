/* scripts/gpu/probe_freehost.c - what real cudaFreeHost (and cuMemFreeHost,
 * cudaHostUnregister) wait for, and what becomes of pinned memory at a
 * context reset: the facts core/host/host.c's proof and reset rest on.
 *
 *   cc -O2 -I$CUDA/include probe_freehost.c -o probe_freehost -L$CUDA/lib64 -lcudart -lcuda -lpthread
 *   ./probe_freehost        (plain; preloaded, the library answers instead)
 *
 * Each case queues a host function that sleeps SLOW_MS on some stream and
 * then frees a pinned buffer; the free's duration says whether it waited:
 *   copy-same-stream   a copy from the buffer queued behind the sleep
 *   other-stream       the sleep on a non-blocking stream the buffer never met
 *   legacy             the sleep on the legacy stream
 *   no-use             the sleep on a stream, the buffer never used by any
 *   cuMemFreeHost      as copy-same-stream, through the driver
 *   unregister         cudaHostUnregister of malloc'd memory, as copy-same-stream
 *   other-device       the sleep on device 1 (when there is one)
 * and a line "freehost CASE: N ms: waits|does not wait". Then, after
 * cudaDeviceReset with a pinned buffer held: what cudaPointerGetAttributes
 * and cudaFreeHost say of it, and cudaHostGetFlags of cudaMallocHost memory
 * and of registered memory. Information only: exit status 0 unless CUDA
 * itself failed.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOW_MS 300
#define N ((size_t)1 << 20)

#define CHECK(call)                                                                    \
	do {                                                                           \
		cudaError_t e_ = (call);                                               \
		if (e_ != cudaSuccess) {                                               \
			printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,           \
			       cudaGetErrorString(e_));                                \
			exit(1);                                                       \
		}                                                                      \
	} while (0)

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void CUDART_CB sleep_fn(void *arg)
{
	struct timespec ts = { 0, (long)(uintptr_t)arg * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void slow(cudaStream_t s)
{
	CHECK(cudaLaunchHostFunc(s, sleep_fn, (void *)(uintptr_t)SLOW_MS));
}

static void report(const char *name, double ms)
{
	printf("freehost %s: %.1f ms: %s\n", name, ms, ms > SLOW_MS / 2 ? "waits" : "does not wait");
}

/* Times cudaFreeHost(p) as name, then lets the device finish. */
static void timed_free(void *p, const char *name)
{
	double t0 = now_ms();
	CHECK(cudaFreeHost(p));
	report(name, now_ms() - t0);
	CHECK(cudaDeviceSynchronize());
}

int main(void)
{
	void *p, *d;
	cudaStream_t s, t;
	int devices = 0;
	if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
		printf("probe_freehost: no CUDA device\n");
		return 77;
	}
	CHECK(cudaSetDevice(0));
	CHECK(cudaMalloc(&d, N));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));

	CHECK(cudaMallocHost(&p, N));
	slow(s);
	CHECK(cudaMemcpyAsync(d, p, N, cudaMemcpyHostToDevice, s));
	timed_free(p, "copy-same-stream");

	CHECK(cudaMallocHost(&p, N));
	CHECK(cudaMemcpyAsync(d, p, N, cudaMemcpyHostToDevice, s));
	CHECK(cudaStreamSynchronize(s));
	slow(t);
	timed_free(p, "other-stream");

	CHECK(cudaMallocHost(&p, N));
	slow(0);
	timed_free(p, "legacy");

	CHECK(cudaMallocHost(&p, N));
	slow(s);
	timed_free(p, "no-use");

	CHECK(cudaMallocHost(&p, N));
	slow(s);
	CHECK(cudaMemcpyAsync(d, p, N, cudaMemcpyHostToDevice, s));
	double t0 = now_ms();
	CUresult r = cuMemFreeHost(p);
	report("cuMemFreeHost", now_ms() - t0);
	if (r != CUDA_SUCCESS)
		printf("cuMemFreeHost: %d\n", (int)r);
	CHECK(cudaDeviceSynchronize());

	void *m = malloc(N);
	CHECK(cudaHostRegister(m, N, cudaHostRegisterDefault));
	slow(s);
	CHECK(cudaMemcpyAsync(d, m, N, cudaMemcpyHostToDevice, s));
	t0 = now_ms();
	CHECK(cudaHostUnregister(m));
	report("unregister", now_ms() - t0);
	CHECK(cudaDeviceSynchronize());

	if (devices > 1) {
		cudaStream_t s1;
		CHECK(cudaMallocHost(&p, N));
		CHECK(cudaSetDevice(1));
		CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
		slow(s1);
		CHECK(cudaSetDevice(0));
		t0 = now_ms();
		CHECK(cudaFreeHost(p));
		report("other-device", now_ms() - t0);
		CHECK(cudaSetDevice(1));
		CHECK(cudaDeviceSynchronize());
		CHECK(cudaSetDevice(0));
	} else {
		printf("freehost other-device: one device only, not probed\n");
	}

	unsigned flags = 0;
	CHECK(cudaMallocHost(&p, N));
	printf("cudaHostGetFlags(cudaMallocHost memory): %s, %#x\n",
	       cudaGetErrorName(cudaHostGetFlags(&flags, p)), flags);
	flags = 0;
	printf("cudaHostGetFlags(registered memory): %s, %#x\n",
	       cudaGetErrorName(cudaHostRegister(m, N, cudaHostRegisterMapped) == cudaSuccess
					? cudaHostGetFlags(&flags, m)
					: cudaErrorUnknown),
	       flags);
	cudaHostUnregister(m);
	cudaGetLastError();
	CHECK(cudaDeviceReset());
	struct cudaPointerAttributes a;
	memset(&a, 0, sizeof(a));
	cudaError_t e = cudaPointerGetAttributes(&a, p);
	printf("after cudaDeviceReset: cudaPointerGetAttributes(held pinned) %s, type %d\n",
	       cudaGetErrorName(e), (int)a.type);
	e = cudaFreeHost(p);
	printf("after cudaDeviceReset: cudaFreeHost(held pinned) %s\n", cudaGetErrorName(e));
	cudaGetLastError();
	free(m);
	printf("probe_freehost: done\n");
	return 0;
}
