/* prog_memlimit_ctx: memory_limit_mb is a cap per device, not per context
 * (issue 36: with a 64 MiB cap, 14 contexts of one device held 560 MiB).
 *
 * "limit MIB" (run with CACHEMALLOC_CONF=memory_limit_mb:MIB): the primary
 * context and CONTEXTS created ones of device 0 each take 8 MiB blocks
 * until one is refused; together they hold at most MIB. Without an
 * argument (no limit) every block is granted. Plain C against cuda.h and
 * the runtime: `cc -I/usr/local/cuda/include prog_memlimit_ctx.c -lcuda
 * -lcudart`. */
#include <cuda.h>

#include "common.h"

enum { CONTEXTS = 6, BLOCKS = 16 };

/* Takes up to BLOCKS blocks of 8 MiB in the current context; returns how
 * many were granted (each refusal must be an out of memory). */
static int fill(CUdeviceptr *p)
{
	int n = 0;
	while (n < BLOCKS) {
		CUresult r = cuMemAlloc(&p[n], 8 * INTEG_MIB);
		if (r == CUDA_ERROR_OUT_OF_MEMORY)
			break;
		if (r != CUDA_SUCCESS)
			FAIL("cuMemAlloc: %d", (int)r);
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	size_t limit = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) * INTEG_MIB : 0;
	CUdeviceptr p[CONTEXTS + 1][BLOCKS];
	CUcontext ctx[CONTEXTS + 1] = {0};
	int n[CONTEXTS + 1];
	size_t held = 0;
	CUdevice dev;

	CHECK(cudaFree(NULL)); /* the primary context, current */
	if (cuDeviceGet(&dev, 0) != CUDA_SUCCESS)
		FAIL("cuDeviceGet failed");
	for (int c = 0; c <= CONTEXTS; c++) {
		if (c && cuCtxCreate(&ctx[c], NULL, 0, dev) != CUDA_SUCCESS)
			FAIL("cuCtxCreate failed");
		n[c] = fill(p[c]);
		held += (size_t)n[c] * 8 * INTEG_MIB;
	}
	if (limit && held > limit)
		FAIL("%d contexts of one device hold %zu MiB under a cap of %zu MiB", CONTEXTS + 1,
		     held / INTEG_MIB, limit / INTEG_MIB);
	if (!limit && held != (size_t)(CONTEXTS + 1) * BLOCKS * 8 * INTEG_MIB)
		FAIL("no cap: %zu MiB granted of %d", held / INTEG_MIB, (CONTEXTS + 1) * BLOCKS * 8);
	for (int c = CONTEXTS; c >= 0; c--) {
		if (c && cuCtxSetCurrent(ctx[c]) != CUDA_SUCCESS)
			FAIL("cuCtxSetCurrent failed");
		for (int i = 0; i < n[c]; i++)
			if (cuMemFree(p[c][i]) != CUDA_SUCCESS)
				FAIL("cuMemFree failed");
		if (c && cuCtxDestroy(ctx[c]) != CUDA_SUCCESS)
			FAIL("cuCtxDestroy failed");
	}
	printf("memlimit_ctx: %zu MiB held in %d contexts\n", held / INTEG_MIB, CONTEXTS + 1);
	return integ_report("memlimit_ctx");
}
