/* prog_ctx_refused: a context destruction the driver refuses changes
 * nothing (docs/design.md, "The driver layer").
 *
 * Two blocks a and b of one 2 MiB segment (cuMemAlloc_v2, 512 KiB each),
 * b filled with 0x5b; cuCtxDestroy of the primary context, through each of
 * its ABI versions (_v2 and the first), is refused (an H200 answered
 * CUDA_ERROR_INVALID_CONTEXT, scripts/gpu/probe_neighbours.c, and so does
 * the fake driver); then a is freed,
 * 1 MiB allocated and filled with 0xee, and b must still hold 0x5b: a
 * cache that dropped the context's blocks on the refused call hands its
 * cuMemFree to the driver, which frees the whole segment, and the next
 * allocation covers b. A driver that accepts the destruction leaves
 * nothing to check: exit 77 (skip). Linked to the driver (-lcuda). */
#include <cuda.h>

#include "common.h"

#undef cuCtxDestroy
CUresult cuCtxDestroy(CUcontext ctx); /* the first ABI, still exported */

static void check_bytes(CUdeviceptr p, size_t n, int value, const char *what)
{
	unsigned char *h = malloc(n);
	if (!h)
		exit(1);
	CU_CHECK(cuMemcpyDtoH(h, p, n));
	for (size_t i = 0; i < n; i++)
		if (h[i] != (unsigned char)value) {
			FAIL("%s: expected 0x%02x at offset %zu, got 0x%02x", what, value, i, h[i]);
			break;
		}
	free(h);
}

/* One round through destroy, the refused destruction. */
static void round_with(CUresult (*destroy)(CUcontext), CUcontext ctx, const char *name)
{
	const size_t half = INTEG_MIB / 2;
	CUdeviceptr a = 0, b = 0, c = 0;
	CU_CHECK(cuMemAlloc(&a, half));
	CU_CHECK(cuMemAlloc(&b, half));
	CU_CHECK(cuMemsetD8(b, 0x5b, half));
	CUresult r = destroy(ctx);
	if (r == CUDA_SUCCESS) { /* a driver that destroys it leaves nothing to check */
		printf("ctx_refused: %s(primary context) succeeded: skipped\n", name);
		exit(77);
	}
	CU_CHECK(cuMemFree(a));
	CU_CHECK(cuMemAlloc(&c, INTEG_MIB));
	CU_CHECK(cuMemsetD8(c, 0xee, INTEG_MIB));
	check_bytes(b, half, 0x5b, name);
	CU_CHECK(cuMemFree(b));
	CU_CHECK(cuMemFree(c));
}

int main(void)
{
	CUcontext ctx = integ_cu_start();
	round_with(cuCtxDestroy_v2, ctx, "cuCtxDestroy_v2");
	round_with(cuCtxDestroy, ctx, "cuCtxDestroy");
	CU_CHECK(cuCtxSetCurrent(NULL));
	CU_CHECK(cuDevicePrimaryCtxRelease(0));
	return integ_report("ctx_refused");
}
