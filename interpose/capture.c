/* interpose/capture.c - graph capture as the core needs to hear of it
 * (docs/design.md, rule 7): the captures begun and ended, the graphs made
 * and destroyed, the thread's capture mode, and the allocations and frees
 * of a capture's era, which CUDA refuses in some modes. Translation only:
 * what an era keeps is the core's (core/capture.c). Calls library.c (the
 * heap, the stream names) and capture_state.c (the count of captures).
 */
#include "library.h"

static cm_status cm_lib_free_async_guarded(cm_heap *h, uintptr_t p, CUstream s, bool ptsz)
{
	if (!cm_lib_capturing(s)) {
		if (cm_capture_watching())
			return cm_lib_free_in_era(h, p, true, cm_lib_stream(s, ptsz));
		if (cm_nvtx_active())
			cm_nvtx_block_freeing(h, p);
		if (cm_ipc_watching())
			return cm_ipc_free(h, p, true, cm_lib_stream(s, ptsz));
		return cm_free_async(h, p, cm_lib_stream(s, ptsz));
	}
	/* A free node of a graph frees only memory the graph allocated: CUDA
	 * refuses any other pointer (cudaErrorInvalidValue, the capture goes
	 * on; probe-h200.txt, freeasync-outside-allocation), and the block
	 * stays the program's. */
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	return info.ours ? CM_ERR_INVALID : CM_ERR_NOT_OURS;
}

cm_status cm_lib_free_async(cm_heap *h, uintptr_t p, CUstream s, bool ptsz)
{
	cm_in_cuda++;
	cm_status st = cm_lib_free_async_guarded(h, p, s, ptsz);
	cm_in_cuda--;
	return st;
}

/* ---- graph capture (docs/design.md, rule 7): facts for the core ---- */

/* The calling thread's capture mode, read by exchanging it twice. */
static cm_capture_mode cm_lib_thread_capture_mode(void)
{
	CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
	if (!cm_real.cuThreadExchangeStreamCaptureMode ||
	    cm_real.cuThreadExchangeStreamCaptureMode(&m) != CUDA_SUCCESS)
		return CM_CAPTURE_GLOBAL; /* CUDA's default */
	CUstreamCaptureMode back = m;
	cm_real.cuThreadExchangeStreamCaptureMode(&back);
	_Static_assert(CU_STREAM_CAPTURE_MODE_GLOBAL == (int)CM_CAPTURE_GLOBAL &&
			       CU_STREAM_CAPTURE_MODE_THREAD_LOCAL == (int)CM_CAPTURE_THREAD_LOCAL &&
			       CU_STREAM_CAPTURE_MODE_RELAXED == (int)CM_CAPTURE_RELAXED,
		       "the core's capture modes are CUDA's");
	return (cm_capture_mode)m;
}

bool cm_lib_capture_forbidden(cm_heap *h)
{
	return cm_capture_in_progress(h) && cm_capture_forbids(h, cm_lib_thread_capture_mode());
}

/* A free CUDA forbids: the driver is made to refuse an allocation of one
 * byte in the caller's mode, with the error and the invalidation a free
 * gets (the same rule refuses both). True when it refused; if it did not
 * (a capture ended meanwhile), the byte goes back and the free is served. */
static bool cm_lib_refused_by_cuda(void)
{
	CUdeviceptr d = 0;
	if (!cm_real.cuMemAlloc_v2)
		return false;
	if (cm_real.cuMemAlloc_v2(&d, 1) != CUDA_SUCCESS)
		return true;
	cm_real.cuMemFree_v2(d);
	return false;
}

/* The free's answer where CUDA would refuse it: CM_ERR_CAPTURING for a
 * block the program holds (CUDA refused the stand-in), else CM_OK: serve
 * it (a pointer not the cache's goes to CUDA, which judges it). */
static cm_status cm_lib_free_allowed(cm_heap *h, uintptr_t p)
{
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	if (info.live && info.base == p && cm_lib_capture_forbidden(h) && cm_lib_refused_by_cuda())
		return CM_ERR_CAPTURING;
	return CM_OK;
}

cm_status cm_lib_malloc_in_era(cm_heap *h, int slot, size_t n, bool async, cm_stream s,
			       uintptr_t *out)
{
	*out = 0;
	cm_in_cuda++;
	cm_status st = CM_ERR_NOT_OURS; /* CUDA refuses it itself */
	if (!cm_lib_capture_forbidden(h)) {
		st = async ? cm_malloc_async(h, slot, n, s, out) : cm_malloc(h, slot, n, out);
		if (st == CM_OK && *out) {
			cm_capture_block_born(h, *out);
			if (cm_nvtx_active())
				cm_nvtx_block_added(*out, n);
		}
	}
	cm_in_cuda--;
	return st;
}

cm_status cm_lib_free_in_era(cm_heap *h, uintptr_t p, bool async, cm_stream s)
{
	cm_in_cuda++;
	cm_status st = cm_lib_free_allowed(h, p);
	if (st == CM_OK) {
		if (cm_nvtx_active())
			cm_nvtx_block_freeing(h, p);
		st = cm_capture_free(h, p, async, s);
	}
	cm_in_cuda--;
	return st;
}

cm_status cm_lib_host_free(cm_heap *h, uintptr_t p)
{
	unsigned flags;
	if (cm_capture_watching() && cm_host_flags_of(h, p, &flags) && cm_lib_capture_forbidden(h) &&
	    cm_lib_refused_by_cuda())
		return CM_ERR_CAPTURING;
	return cm_host_free(h, p);
}

void cm_lib_capture_began(CUstream s, bool ptsz, CUstreamCaptureMode m)
{
	cm_heap *h = cm_lib_heap();
	cm_capture_state_began();
	if (h)
		cm_capture_begin(h, cm_lib_stream(s, ptsz), (cm_capture_mode)m);
}

void cm_lib_capture_ended(CUstream s, bool ptsz)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	cm_in_cuda++; /* an era that ends frees its held blocks: the core's own calls */
	bool known = !h || cm_capture_end(h, cm_lib_stream(s, ptsz));
	cm_in_cuda--;
	if (!known)
		return; /* not a capture the library counted */
	cm_capture_state_ended();
}

void cm_lib_graph_made(uintptr_t graph)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	if (h) /* the core keeps it only in a capture's era */
		cm_capture_graph_made(h, graph);
}

void cm_lib_graph_gone(uintptr_t graph)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	if (h) {
		cm_in_cuda++; /* held blocks go back: the core's own calls */
		cm_capture_graph_gone(h, graph);
		cm_in_cuda--;
	}
}
