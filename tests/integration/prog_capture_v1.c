/* prog_capture_v1: a capture begun through the first ABI of
 * cuStreamBeginCapture (CUDA 10.0's, no mode; and its _ptsz export) is
 * seen as one: an allocation on the capturing stream is the graph's, made
 * by the driver, never a block of the cache (which the cache would hand
 * out again after cuStreamEndCapture, while the graph still owns it).
 *
 * A 64 MiB block is allocated and freed first, so that a cache holds it
 * idle; run with memgetinfo_counts_cache:false, cuMemGetInfo then tells the
 * driver's free memory. Inside the capture, cuMemAllocAsync of 64 MiB on
 * the capturing stream must take the driver's memory (free drops by at
 * least 64 MiB); a cache that missed the begin serves it from its idle
 * block and free stays. Linked to the driver (-lcuda). */
#include <cuda.h>

#include "common.h"

#undef cuStreamBeginCapture
CUresult cuStreamBeginCapture(CUstream s);      /* the first ABIs, still exported */
CUresult cuStreamBeginCapture_ptsz(CUstream s);

#define BIG ((size_t)64 << 20)

#define D(call)                                                                       \
	do {                                                                          \
		CUresult r_ = (call);                                                 \
		if (r_ != CUDA_SUCCESS) {                                             \
			FAIL("%s: expected CUDA_SUCCESS, got %d", #call, (int)r_);    \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

static void capture_with(CUresult (*begin)(CUstream), const char *name)
{
	CUstream s;
	CUdeviceptr warm = 0, g = 0;
	CUgraph graph = NULL;
	size_t before = 0, during = 0, total = 0;
	D(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	D(cuMemAlloc(&warm, BIG));
	D(cuMemFree(warm));
	D(cuMemGetInfo(&before, &total));
	D(begin(s));
	D(cuMemAllocAsync(&g, BIG, s));
	D(cuMemGetInfo(&during, &total));
	D(cuMemFreeAsync(g, s));
	D(cuStreamEndCapture(s, &graph));
	if (before < during + BIG)
		FAIL("%s: an allocation inside the capture left the driver's free memory at %zu "
		     "of %zu bytes: it did not come from the driver", name, during, before);
	if (graph)
		D(cuGraphDestroy(graph));
	D(cuStreamDestroy(s));
}

int main(void)
{
	CUcontext ctx;
	D(cuInit(0));
	D(cuDevicePrimaryCtxRetain(&ctx, 0));
	D(cuCtxSetCurrent(ctx));
	capture_with(cuStreamBeginCapture, "cuStreamBeginCapture");
	capture_with(cuStreamBeginCapture_ptsz, "cuStreamBeginCapture_ptsz");
	D(cuCtxSetCurrent(NULL));
	D(cuDevicePrimaryCtxRelease(0));
	return integ_report("capture_v1");
}
