/* scripts/gpu/probe_neighbours.c - what NVIDIA's driver answers where the
 * library must answer as it does (issue 15), one "key: value" line each:
 *
 *   ctx-destroy.primary.v2 / .v1   cuCtxDestroy_v2 / cuCtxDestroy of the
 *                                  primary context (H200, CUDA 13.0,
 *                                  2026-12-01: CUDA_ERROR_INVALID_CONTEXT,
 *                                  the context stays usable; prog_ctx_refused
 *                                  skips where the driver accepts it)
 *   ctx-destroy.primary.after      cuMemAlloc in it afterwards
 *   range.N.size                   cuMemGetAddressRange's size of an N-byte
 *                                  cuMemAlloc (H200: the size asked)
 *   range-attr.N.size              CU_POINTER_ATTRIBUTE_RANGE_SIZE of it
 *   range.N.past                   cuMemGetAddressRange at base + N + 8
 *   range.freed                    cuMemGetAddressRange of a freed block
 *
 * Run plain (the driver's answers) by scripts/gpu-check, step
 * neighbours:probe; docs/design.md, "The driver layer", says what the
 * library answers. Build: cc -I$CUDA/include probe_neighbours.c -lcuda.
 * Run it last in a process: the primary context may be destroyed. */
#include <cuda.h>
#include <stdio.h>

#undef cuCtxDestroy
CUresult cuCtxDestroy(CUcontext ctx);

static const char *name_of(CUresult r)
{
	const char *s = NULL;
	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "unnamed";
}

static void ranges(void)
{
	static const size_t sizes[] = {1000, 4096, 100000, (size_t)3 << 20};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], size = 0, rsize = 0;
		CUdeviceptr p = 0, base = 0;
		CUresult r = cuMemAlloc(&p, n);
		if (r != CUDA_SUCCESS) {
			printf("range.%zu: cuMemAlloc %s\n", n, name_of(r));
			continue;
		}
		r = cuMemGetAddressRange(&base, &size, p + n / 2);
		printf("range.%zu.size: %s %zu (base %s)\n", n, name_of(r), size,
		       base == p ? "the block's" : "other");
		r = cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p);
		printf("range-attr.%zu.size: %s %zu\n", n, name_of(r), rsize);
		r = cuMemGetAddressRange(&base, &size, p + n + 8);
		printf("range.%zu.past: %s\n", n, name_of(r));
		cuMemFree(p);
		r = cuMemGetAddressRange(&base, &size, p);
		printf("range.%zu.freed: %s\n", n, name_of(r));
	}
}

int main(void)
{
	CUcontext ctx = NULL;
	CUdeviceptr p = 0;
	if (cuInit(0) != CUDA_SUCCESS || cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
		printf("no device: skipped\n");
		return 77;
	}
	ranges();
	CUresult r = cuCtxDestroy_v2(ctx);
	printf("ctx-destroy.primary.v2: %s\n", name_of(r));
	if (r != CUDA_SUCCESS) {
		r = cuCtxDestroy(ctx);
		printf("ctx-destroy.primary.v1: %s\n", name_of(r));
	}
	r = cuMemAlloc(&p, 1 << 20);
	printf("ctx-destroy.primary.after: cuMemAlloc %s\n", name_of(r));
	return 0;
}
