/* scripts/gpu/smoke.c - differential smoke test of the hooks on a real GPU.
 *
 *   smoke CASE      CASE: free0-first, memgetinfo-first, stream-first,
 *                   sync-first, reset-first, calls
 *
 * Each case prints one line per CUDA call, "call -> cudaErrorName" (never a
 * pointer or a byte count that the cache may change), and exits 0 unless
 * a data check failed. scripts/gpu-check runs every case plain and with
 * libcachemalloc.so preloaded and compares the two outputs line by line:
 * docs/design.md ("What it is, and the layers") says the errors must be
 * the real ones. The *-first cases make a hooked function the process's
 * first CUDA call.
 *
 * Build: cc -O2 -I$CUDA/include smoke.c -L$CUDA/lib64 -lcudart -o smoke
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static cudaError_t show(const char *what, cudaError_t e)
{
	printf("%-44s -> %s\n", what, cudaGetErrorName(e));
	return e;
}

static void check(const char *what, int ok)
{
	printf("%-44s -> %s\n", what, ok ? "ok" : "WRONG");
	if (!ok)
		failures++;
}

/* Every allocation call a program makes on a fresh context, with the
 * results that the runtime gives. */
static void calls(void)
{
	void *p = NULL, *q = NULL;
	size_t n = 1 << 20;

	show("cudaSetDevice(0)", cudaSetDevice(0));
	show("cudaMalloc(&p, 1 MiB)", cudaMalloc(&p, n));
	check("  p != NULL", p != NULL);
	check("  p aligned to 256", ((uintptr_t)p & 255) == 0);

	/* data round trip */
	unsigned char *h = (unsigned char *)malloc(n), *g = (unsigned char *)malloc(n);
	for (size_t i = 0; i < n; i++)
		h[i] = (unsigned char)(i * 131 + 7);
	memset(g, 0, n);
	show("cudaMemcpy(p, h, H2D)", cudaMemcpy(p, h, n, cudaMemcpyHostToDevice));
	show("cudaMemcpy(g, p, D2H)", cudaMemcpy(g, p, n, cudaMemcpyDeviceToHost));
	check("  round trip equal", memcmp(h, g, n) == 0);

	/* freeing inside an allocation and twice */
	show("cudaFree(p + 512)", cudaFree((char *)p + 512));
	show("cudaGetLastError()", cudaGetLastError());
	show("cudaFree(p)", cudaFree(p));
	show("cudaFree(p) again", cudaFree(p));
	show("cudaGetLastError()", cudaGetLastError());
	show("cudaGetLastError() again", cudaGetLastError());

	/* reuse after free: the block must hold what we write now */
	show("cudaMalloc(&q, 1 MiB)", cudaMalloc(&q, n));
	show("cudaMemset(q, 0x5a)", cudaMemset(q, 0x5a, n));
	show("cudaMemcpy(g, q, D2H)", cudaMemcpy(g, q, n, cudaMemcpyDeviceToHost));
	{
		size_t bad = 0;
		for (size_t i = 0; i < n; i++)
			bad += g[i] != 0x5a;
		check("  memset visible", bad == 0);
	}
	show("cudaFree(q)", cudaFree(q));

	/* odd arguments */
	show("cudaMalloc(NULL, 512)", cudaMalloc(NULL, 512));
	show("cudaGetLastError()", cudaGetLastError());
	p = (void *)1;
	show("cudaMalloc(&p, 0)", cudaMalloc(&p, 0));
	printf("%-44s -> %s\n", "  p after size 0", p == NULL ? "NULL" : "non-NULL");
	if (p && p != (void *)1)
		show("cudaFree(p size 0)", cudaFree(p));
	show("cudaFree(NULL)", cudaFree(NULL));
	int x = 0;
	show("cudaFree(host stack address)", cudaFree(&x));
	show("cudaGetLastError()", cudaGetLastError());

	/* out of memory, and the sticky-ness of its error */
	p = NULL;
	show("cudaMalloc(&p, 1 PiB)", cudaMalloc(&p, (size_t)1 << 50));
	check("  p still NULL or unchanged", p == NULL);
	show("cudaPeekAtLastError()", cudaPeekAtLastError());
	show("cudaGetLastError()", cudaGetLastError());
	show("cudaGetLastError() again", cudaGetLastError());

	/* stream-ordered allocation on a non-blocking stream */
	cudaStream_t s;
	show("cudaStreamCreateWithFlags(NonBlocking)", cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	p = NULL;
	show("cudaMallocAsync(&p, 1 MiB, s)", cudaMallocAsync(&p, n, s));
	show("cudaMemcpyAsync(p, h, H2D, s)", cudaMemcpyAsync(p, h, n, cudaMemcpyHostToDevice, s));
	show("cudaMemcpyAsync(g, p, D2H, s)", cudaMemcpyAsync(g, p, n, cudaMemcpyDeviceToHost, s));
	show("cudaFreeAsync(p, s)", cudaFreeAsync(p, s));
	show("cudaStreamSynchronize(s)", cudaStreamSynchronize(s));
	check("  async round trip equal", memcmp(h, g, n) == 0);
	show("cudaFreeAsync(NULL, s)", cudaFreeAsync(NULL, s));
	show("cudaStreamDestroy(s)", cudaStreamDestroy(s));

	/* memory info */
	size_t fr = 0, tot = 0;
	show("cudaMemGetInfo", cudaMemGetInfo(&fr, &tot));
	check("  0 < free <= total", fr > 0 && fr <= tot);

	/* IPC on a whole allocation of its own (>= 1 segment): allowed */
	p = NULL;
	show("cudaMalloc(&p, 64 MiB)", cudaMalloc(&p, (size_t)64 << 20));
	cudaIpcMemHandle_t ih;
	show("cudaIpcGetMemHandle(64 MiB block)", cudaIpcGetMemHandle(&ih, p));
	show("cudaFree(64 MiB)", cudaFree(p));

	show("cudaDeviceSynchronize()", cudaDeviceSynchronize());
	show("cudaGetLastError() at end", cudaGetLastError());
	free(h);
	free(g);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* interleave with stderr in logs */
	const char *c = argc > 1 ? argv[1] : "calls";
	if (strcmp(c, "free0-first") == 0) {
		show("first call: cudaFree(NULL)", cudaFree(NULL));
	} else if (strcmp(c, "memgetinfo-first") == 0) {
		size_t f = 0, t = 0;
		show("first call: cudaMemGetInfo", cudaMemGetInfo(&f, &t));
		check("  0 < free <= total", f > 0 && f <= t);
	} else if (strcmp(c, "stream-first") == 0) {
		cudaStream_t s = NULL;
		if (show("first call: cudaStreamCreate", cudaStreamCreate(&s)) == cudaSuccess)
			show("cudaStreamDestroy", cudaStreamDestroy(s));
	} else if (strcmp(c, "sync-first") == 0) {
		show("first call: cudaDeviceSynchronize", cudaDeviceSynchronize());
		show("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
	} else if (strcmp(c, "reset-first") == 0) {
		show("first call: cudaDeviceReset", cudaDeviceReset());
		void *p = NULL;
		show("cudaMalloc after reset", cudaMalloc(&p, 4096));
		show("cudaFree", cudaFree(p));
	} else if (strcmp(c, "calls") == 0) {
		calls();
	} else {
		fprintf(stderr, "smoke: unknown case %s\n", c);
		return 2;
	}
	return failures ? 1 : 0;
}
