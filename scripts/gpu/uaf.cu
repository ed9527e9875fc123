// scripts/gpu/uaf.cu - memory errors for compute-sanitizer's memcheck, run
// plain and under the library (docs/design.md, "Blocks visible to
// compute-sanitizer"; scripts/gpu/driver-check, step memcheck).
//
//   nvcc -O2 -arch=sm_90 -cudart shared scripts/gpu/uaf.cu -o uaf
//   compute-sanitizer --tool memcheck ./uaf MODE
//   LD_PRELOAD=build-gpu/interpose/libcachemalloc.so compute-sanitizer --tool memcheck ./uaf MODE
//
// MODE (one error kind a run, so that each count says one thing):
//   uaf       a kernel writes a 4 KiB block after cudaFree (1024 invalid writes)
//   overrun   a kernel reads one int past the end of a 4 KiB block; under the
//             library the block lies inside a 2 MiB segment, followed by
//             another held block (1 invalid read)
//   overrun_alone  the same read, with nothing held after the block (under the
//             library the rest of its segment is free: 1 invalid read)
//   inflight  cudaFree of a block a running kernel still writes, which
//             cudaFree allows (it waits for the device): no error
//   clean     allocations, kernels in bounds, frees, reuse: no error
// The program exits 0 whatever memcheck finds; memcheck's ERROR SUMMARY
// line and its "Invalid ..." lines are the result.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#define CK(call)                                                                        \
	do {                                                                            \
		cudaError_t e_ = (call);                                                \
		if (e_ != cudaSuccess) {                                                \
			printf("uaf: %s: %s\n", #call, cudaGetErrorString(e_));         \
			return 1;                                                       \
		}                                                                       \
	} while (0)

__global__ void fill(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v;
}

__global__ void read_at(const int *p, int i, int *out)
{
	*out = p[i];
}

// Spins about `cycles` clocks, then fills: still running when the host frees.
__global__ void slow_fill(int *p, int n, long long cycles)
{
	long long t0 = clock64();
	while (clock64() - t0 < cycles)
		;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = 7;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const int n = 1024; // ints in a 4 KiB block
	int *out = nullptr, host = 0;
	CK(cudaMalloc(&out, sizeof(int)));
	if (!strcmp(mode, "uaf")) {
		int *p = nullptr;
		CK(cudaMalloc(&p, n * sizeof(int)));
		fill<<<4, 256>>>(p, n, 1);
		CK(cudaDeviceSynchronize());
		CK(cudaFree(p));
		fill<<<4, 256>>>(p, n, 2); // use after free
		printf("uaf: kernel on the freed block: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
	} else if (!strcmp(mode, "overrun")) {
		int *a = nullptr, *b = nullptr;
		CK(cudaMalloc(&a, n * sizeof(int)));
		CK(cudaMalloc(&b, n * sizeof(int))); // under the library: right after a
		fill<<<4, 256>>>(a, n, 1);
		fill<<<4, 256>>>(b, n, 2);
		read_at<<<1, 1>>>(a, n, out); // one int past a's end
		printf("uaf: read past the end: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
		cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost);
		printf("uaf: a[%d] read %d (b %s at a + 4 KiB)\n", n, host,
		       (char *)b == (char *)a + n * sizeof(int) ? "is" : "is not");
		CK(cudaFree(a));
		CK(cudaFree(b));
	} else if (!strcmp(mode, "overrun_alone")) {
		int *a = nullptr;
		CK(cudaMalloc(&a, n * sizeof(int)));
		fill<<<4, 256>>>(a, n, 1);
		read_at<<<1, 1>>>(a, n, out); // one int past a's end
		printf("uaf: read past the end: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
		CK(cudaFree(a));
	} else if (!strcmp(mode, "inflight")) {
		for (int round = 0; round < 4; round++) {
			int *p = nullptr;
			CK(cudaMalloc(&p, n * sizeof(int)));
			slow_fill<<<4, 256>>>(p, n, 20000000LL); // about 10 ms
			CK(cudaFree(p)); // legal: the kernel completes first
		}
		CK(cudaDeviceSynchronize());
	} else if (!strcmp(mode, "clean")) {
		for (int round = 0; round < 20; round++) {
			size_t words = round % 2 ? n : (size_t)1 << 18; // 4 KiB, 1 MiB
			int *p = nullptr;
			CK(cudaMalloc(&p, words * sizeof(int)));
			fill<<<(unsigned)((words + 255) / 256), 256>>>(p, (int)words, round);
			read_at<<<1, 1>>>(p, (int)words - 1, out);
			CK(cudaFree(p));
		}
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost));
	} else {
		fprintf(stderr, "usage: uaf uaf|overrun|overrun_alone|inflight|clean\n");
		return 2;
	}
	cudaFree(out);
	printf("uaf %s: done\n", mode);
	return 0;
}
