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

static void capture_with(CUresult (*begin)(CUstream), const char *name)
{
	CUstream s;
	CUdeviceptr warm = 0, g = 0;
	CUgraph graph = NULL;
	size_t before = 0, during = 0, total = 0;
	CU_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CU_CHECK(cuMemAlloc(&warm, BIG));
	CU_CHECK(cuMemFree(warm));
	/* The last round's stream-ordered free given back first: the fake's
	 * reaper thread gave it back between the two readings below now and
	 * then (2 of 30 runs), hiding the capture's allocation. */
	CU_CHECK(cuCtxSynchronize());
	CU_CHECK(cuMemGetInfo(&before, &total));
	CU_CHECK(begin(s));
	CU_CHECK(cuMemAllocAsync(&g, BIG, s));
	CU_CHECK(cuMemGetInfo(&during, &total));
	CU_CHECK(cuMemFreeAsync(g, s));
	CU_CHECK(cuStreamEndCapture(s, &graph));
	if (before < during + BIG)
		FAIL("%s: an allocation inside the capture left the driver's free memory at %zu "
		     "of %zu bytes: it did not come from the driver", name, during, before);
	if (graph)
		CU_CHECK(cuGraphDestroy(graph));
	CU_CHECK(cuStreamDestroy(s));
}

int main(void)
{
	integ_cu_start();
	capture_with(cuStreamBeginCapture, "cuStreamBeginCapture");
	capture_with(cuStreamBeginCapture_ptsz, "cuStreamBeginCapture_ptsz");
	CU_CHECK(cuCtxSetCurrent(NULL));
	CU_CHECK(cuDevicePrimaryCtxRelease(0));
	return integ_report("capture_v1");
}
