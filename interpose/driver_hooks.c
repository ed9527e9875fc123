/* interpose/driver_hooks.c - the driver API's allocation path, by hand.
 *
 * Every CUDA runtime, static or shared, and every driver-API program ends
 * here (docs/design.md, "The driver layer"): these hooks serve allocation
 * from the cache, tell the core about streams, synchronization, captures
 * and contexts, and answer pointer queries with the block. They are
 * reached through the exported symbol, through dlsym on the driver's
 * handle and through cuGetProcAddress (lookup.c), and are as thin as the
 * runtime-level hooks: pass through while the library is inside CUDA (the
 * re-entry guard) or has no heap, translate, call the core, translate the
 * result. Stream 0 is the legacy stream in the plain entry points and the
 * calling thread's per-thread stream in the _ptsz ones. A pointer the
 * cache does not own goes to the driver unchanged. A hook changes the
 * cache's state only once the driver accepted the call (a context's slot
 * is forgotten after its destruction succeeded), or undoes it when the
 * driver refuses (a capture begin, counted before). The first ABI versions
 * are in driver_hooks_v1.c, through the helpers of driver_hooks.h.
 */
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "context_hooks.h"
#include "driver_hooks.h"
#include "hook_entry.h"
#include "library.h"
#include "nvtx.h"

#include "hook_shape.h" /* CM_EXPORT, CM_DRV */

CM_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s);
CM_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s);
CM_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream s);
CM_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode m);
CM_EXPORT CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream s, CUgraph g, const CUgraphNode *d,
						    const CUgraphEdgeData *e, size_t n,
						    CUstreamCaptureMode m);
CM_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g);

/* ---- allocation ---- */

CM_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !p || !n || !(h = cm_lib_heap()) || !cm_lib_device(&slot))
		return CM_DRV(cuMemAlloc_v2, (p, n));
	cm_lib_saw(CM_LEVEL_DRIVER);
	uintptr_t out;
	cm_report_name_api("cuMemAlloc"); /* an out-of-memory report says what was called */
	cm_status st = cm_lib_malloc(h, slot, n, false, 0, &out);
	cm_report_name_api(NULL);
	*p = (CUdeviceptr)out;
	return cm_lib_cu_fail(st);
}

CM_EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return CM_DRV(cuMemFree_v2, (p));
	cm_status st = cm_lib_free(h, (uintptr_t)p);
	if (st == CM_ERR_NOT_OURS)
		return CM_DRV(cuMemFree_v2, (p));
	return cm_lib_cu_fail(st);
}

static CUresult cm_drv_malloc_async(CUdeviceptr *p, size_t n, CUstream s, bool ptsz)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !p || !n || !(h = cm_lib_heap()) || cm_lib_capturing(s) ||
	    !cm_lib_device(&slot))
		return ptsz ? CM_DRV(cuMemAllocAsync_ptsz, (p, n, s)) : CM_DRV(cuMemAllocAsync, (p, n, s));
	cm_lib_saw(CM_LEVEL_DRIVER);
	uintptr_t out;
	cm_status st = cm_lib_malloc(h, slot, n, true, cm_lib_stream(s, ptsz), &out);
	*p = (CUdeviceptr)out;
	return cm_lib_cu_fail(st);
}

CM_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s)
{
	return cm_drv_malloc_async(p, n, s, false);
}

CM_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s)
{
	return cm_drv_malloc_async(p, n, s, true);
}

static CUresult cm_drv_free_async_real(CUdeviceptr p, CUstream s, bool ptsz)
{
	return ptsz ? CM_DRV(cuMemFreeAsync_ptsz, (p, s)) : CM_DRV(cuMemFreeAsync, (p, s));
}

static CUresult cm_drv_free_async(CUdeviceptr p, CUstream s, bool ptsz)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return cm_drv_free_async_real(p, s, ptsz);
	cm_status st = cm_lib_free_async(h, (uintptr_t)p, s, ptsz);
	if (st == CM_ERR_NOT_OURS)
		return cm_drv_free_async_real(p, s, ptsz);
	return cm_lib_cu_fail(st);
}

CM_EXPORT CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
	return cm_drv_free_async(p, s, false);
}

CM_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s)
{
	return cm_drv_free_async(p, s, true);
}

/* ---- synchronization proves completion ---- */

static CUresult cm_drv_stream_sync(CUstream s, bool ptsz)
{
	cm_heap *h;
	if (cm_in_cuda || !(h = cm_lib_heap()))
		return ptsz ? CM_DRV(cuStreamSynchronize_ptsz, (s)) : CM_DRV(cuStreamSynchronize, (s));
	cm_sync_token tok = cm_lib_stream_sync_begin(h, s, ptsz);
	CUresult r = ptsz ? CM_DRV(cuStreamSynchronize_ptsz, (s)) : CM_DRV(cuStreamSynchronize, (s));
	cm_lib_sync_end(h, tok, r == CUDA_SUCCESS);
	return r;
}

CM_EXPORT CUresult cuStreamSynchronize(CUstream s)
{
	return cm_drv_stream_sync(s, false);
}

CM_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream s)
{
	return cm_drv_stream_sync(s, true);
}

/* A context synchronization: slot < 0 when the library has none for it. */
static CUresult cm_drv_ctx_sync(cm_heap *h, int slot, CUresult (*real)(CUcontext), CUcontext ctx)
{
	cm_sync_token tok = cm_sync_begin(h, slot, CM_SYNC_DEVICE);
	CUresult r = ctx ? real(ctx) : cm_drv.cuCtxSynchronize();
	cm_lib_sync_end(h, tok, r == CUDA_SUCCESS);
	return r;
}

CM_EXPORT CUresult cuCtxSynchronize(void)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !(h = cm_lib_heap()) || !cm_lib_device(&slot))
		return CM_DRV(cuCtxSynchronize, ());
	return cm_drv_ctx_sync(h, slot, NULL, NULL);
}

CM_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	cm_heap *h;
	int slot = -1;
	if (cm_in_cuda || !(h = cm_lib_heap()) || (ctx ? (slot = cm_ctx_find(ctx)) < 0 : !cm_lib_device(&slot)))
		return CM_DRV(cuCtxSynchronize_v2, (ctx));
	return cm_drv_ctx_sync(h, slot, cm_drv.cuCtxSynchronize_v2, ctx);
}

/* ---- streams: the fence protocol needs to know them ---- */

static CUresult cm_drv_stream_created(CUresult r, CUstream *s, unsigned flags)
{
	cm_heap *h;
	int slot;
	if (r != CUDA_SUCCESS || cm_in_cuda || !(h = cm_lib_heap()) || !cm_lib_device(&slot))
		return r;
	cm_in_cuda++;
	cm_stream_created(h, slot, (cm_stream)*s, (flags & CU_STREAM_NON_BLOCKING) != 0);
	cm_in_cuda--;
	return r;
}

CM_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
	return cm_drv_stream_created(CM_DRV(cuStreamCreate, (s, flags)), s, flags);
}

CM_EXPORT CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int prio)
{
	return cm_drv_stream_created(CM_DRV(cuStreamCreateWithPriority, (s, flags, prio)), s, flags);
}

void cm_drv_stream_destroying(CUstream s)
{
	cm_heap *h;
	cm_stream cs = cm_lib_stream(s, false);
	if (!cm_in_cuda && cs != CM_STREAM_LEGACY && cs != CM_STREAM_PER_THREAD &&
	    (h = cm_lib_heap())) {
		cm_in_cuda++;
		cm_stream_destroying(h, -1, cs); /* records its tail first (rule 5) */
		cm_in_cuda--;
	}
}

CM_EXPORT CUresult cuStreamDestroy_v2(CUstream s)
{
	cm_drv_stream_destroying(s);
	return CM_DRV(cuStreamDestroy_v2, (s));
}

/* ---- graph capture: while none is active, no stream needs asking ---- */

/* Counted before the real call, so an allocation racing the begin asks;
 * uncounted again if the begin failed. */
CUresult cm_drv_capture_begun(CUresult r)
{
	if (r != CUDA_SUCCESS)
		cm_lib_capture_ended();
	return r;
}

static CUresult cm_drv_capture_ended(CUresult r)
{
	if (r == CUDA_SUCCESS || r == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
		cm_lib_capture_ended();
	return r;
}

CM_EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_drv_capture_begun(CM_DRV(cuStreamBeginCapture_v2, (s, m)));
}

CM_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_drv_capture_begun(CM_DRV(cuStreamBeginCapture_v2_ptsz, (s, m)));
}

CM_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *d,
					       const CUgraphEdgeData *e, size_t n,
					       CUstreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_drv_capture_begun(CM_DRV(cuStreamBeginCaptureToGraph, (s, g, d, e, n, m)));
}

CM_EXPORT CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream s, CUgraph g, const CUgraphNode *d,
						    const CUgraphEdgeData *e, size_t n,
						    CUstreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_drv_capture_begun(CM_DRV(cuStreamBeginCaptureToGraph_ptsz, (s, g, d, e, n, m)));
}

CM_EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
	return cm_drv_capture_ended(CM_DRV(cuStreamEndCapture, (s, g)));
}

CM_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g)
{
	return cm_drv_capture_ended(CM_DRV(cuStreamEndCapture_ptsz, (s, g)));
}

/* ---- contexts: a context's cache goes with it ---- */

void cm_lib_forget_slot(int slot)
{
	cm_heap *h = cm_lib_heap();
	if (!h || slot < 0)
		return;
	cm_in_cuda++;
	cm_nvtx_slot_forgotten(slot); /* its segments went with the context */
	cm_device_reset(h, slot);
	cm_ctx_forget(slot);
	cm_in_cuda--;
}

/* The slot is found before the driver's call (the handle and the device
 * name it then) and forgotten only once the driver destroyed or reset the
 * context: a refused call leaves the context, and the cache, as they were. */
CUresult cm_drv_ctx_gone(CUresult r, int slot)
{
	if (r == CUDA_SUCCESS)
		cm_lib_forget_slot(slot);
	cm_ctx_changed(); /* a destroyed current context is popped */
	return r;
}

int cm_drv_ctx_slot(CUcontext ctx)
{
	return cm_in_cuda ? -1 : cm_ctx_find(ctx);
}

static int cm_drv_primary_slot(CUdevice dev)
{
	return cm_in_cuda ? -1 : cm_ctx_find_primary(dev);
}

CM_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	int slot = cm_drv_ctx_slot(ctx);
	return cm_drv_ctx_gone(CM_DRV(cuCtxDestroy_v2, (ctx)), slot);
}

/* The _v2 names and the older ones (the same signature) alike. */
CM_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	int slot = cm_drv_primary_slot(dev);
	return cm_drv_ctx_gone(CM_DRV(cuDevicePrimaryCtxReset_v2, (dev)), slot);
}

CM_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
	int slot = cm_drv_primary_slot(dev);
	return cm_drv_ctx_gone(CM_DRV(cuDevicePrimaryCtxReset, (dev)), slot);
}

/* The last release destroys the primary context. */
static CUresult cm_drv_primary_released(CUresult r, CUdevice dev)
{
	unsigned flags = 0;
	int active = 1;
	if (r == CUDA_SUCCESS && !cm_in_cuda &&
	    cm_drv.cuDevicePrimaryCtxGetState(dev, &flags, &active) == CUDA_SUCCESS && !active)
		cm_lib_forget_slot(cm_ctx_find_primary(dev));
	return r;
}

CM_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	return cm_drv_primary_released(CM_DRV(cuDevicePrimaryCtxRelease_v2, (dev)), dev);
}

CM_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cm_drv_primary_released(CM_DRV(cuDevicePrimaryCtxRelease, (dev)), dev);
}

/* ---- queries answered with the block ---- */

void cm_drv_mem_info(size_t *free_bytes, size_t *total)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !(h = cm_lib_heap()) || !cm_lib_device(&slot))
		return;
	cm_in_cuda++;
	cm_mem_info_view(h, slot, free_bytes, total);
	cm_in_cuda--;
}

CM_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	CUresult r = CM_DRV(cuMemGetInfo_v2, (free_bytes, total));
	if (r == CUDA_SUCCESS && free_bytes && total)
		cm_drv_mem_info(free_bytes, total);
	return r;
}

/* Whether p lies in memory of the cache: info.base is then the start of
 * the block the program holds there, or 0 where it holds none (freed,
 * parked, never handed out, or past the size the program asked for),
 * which the driver, asked without the cache, would not know. */
bool cm_drv_block_of(CUdeviceptr p, cm_ptr_info *info)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return false;
	cm_pointer_info(h, (uintptr_t)p, info);
	if (info->base && (uintptr_t)p - info->base >= info->requested)
		info->base = 0; /* past the size asked: the driver would not know it */
	return info->ours;
}

CM_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
	cm_ptr_info info;
	if (!cm_drv_block_of(p, &info))
		return CM_DRV(cuMemGetAddressRange_v2, (base, size, p));
	if (!info.base)
		return CUDA_ERROR_NOT_FOUND; /* the driver's answer for memory it does not know */
	if (base)
		*base = (CUdeviceptr)info.base;
	if (size)
		*size = info.requested;
	return CUDA_SUCCESS;
}

/* The range attributes describe the block as the program asked for it;
 * the others are the segment's, which the block shares. */
static void cm_drv_block_attr(CUpointer_attribute a, void *data, const cm_ptr_info *info)
{
	if (a == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR)
		*(CUdeviceptr *)data = (CUdeviceptr)info->base;
	else if (a == CU_POINTER_ATTRIBUTE_RANGE_SIZE)
		*(size_t *)data = info->requested;
}

CM_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p)
{
	cm_ptr_info info;
	bool ours = cm_drv_block_of(p, &info);
	if (ours && !info.base)
		return CUDA_ERROR_INVALID_VALUE; /* as for memory the driver does not know */
	CUresult r = CM_DRV(cuPointerGetAttribute, (data, a, p));
	if (r == CUDA_SUCCESS && data && ours)
		cm_drv_block_attr(a, data, &info);
	return r;
}

CM_EXPORT CUresult cuPointerGetAttributes(unsigned n, CUpointer_attribute *a, void **data,
					  CUdeviceptr p)
{
	cm_ptr_info info;
	bool ours = cm_drv_block_of(p, &info);
	if (ours && !info.base) {
		/* The driver's answer for memory it does not know: a host stack
		 * address is none of CUDA's. */
		int not_cuda;
		return CM_DRV(cuPointerGetAttributes, (n, a, data, (CUdeviceptr)(uintptr_t)&not_cuda));
	}
	CUresult r = CM_DRV(cuPointerGetAttributes, (n, a, data, p));
	if (r != CUDA_SUCCESS || !a || !data || !ours)
		return r;
	for (unsigned i = 0; i < n; i++)
		if (data[i])
			cm_drv_block_attr(a[i], data[i], &info);
	return r;
}

static void cm_drv_ipc_refusal(CUdeviceptr p, const cm_ptr_info *info)
{
	if (info->live && info->expandable)
		fprintf(stderr,
			"cachemalloc: cuIpcGetMemHandle(0x%llx): memory of expandable segments cannot "
			"be shared with cudaIpcGetMemHandle; run without expandable_segments:True to "
			"share it\n", (unsigned long long)p);
	else if (info->live)
		fprintf(stderr,
			"cachemalloc: cuIpcGetMemHandle(0x%llx): this %zu-byte block shares a cached "
			"segment, so another process would map the wrong memory; allocations of at "
			"least max_split_size_mb get segments of their own "
			"(CACHEMALLOC_CONF=max_split_size_mb:N, N in MiB)\n",
			(unsigned long long)p, info->size);
}

CM_EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr p)
{
	cm_heap *h;
	if (cm_in_cuda || !(h = cm_lib_heap()))
		return CM_DRV(cuIpcGetMemHandle, (handle, p));
	cm_ptr_info info;
	cm_pointer_info(h, (uintptr_t)p, &info);
	if (!info.ours || (info.live && info.segment_start && !info.expandable))
		return CM_DRV(cuIpcGetMemHandle, (handle, p));
	cm_drv_ipc_refusal(p, &info);
	return CUDA_ERROR_INVALID_VALUE;
}

/* ---- the table the lookup wrappers substitute from ---- */

#define CM_HOOK(sym, look, pt) \
	{.symbol = #sym, .lookup = look, .ptsz = pt, .hook = (void *)sym, .real = NULL}
#define CM_HOOK_CTX(sym, fn, look, i) \
	{.symbol = #sym, .lookup = look, .ptsz = false, .hook = (void *)fn, .real = &cm_ctx_hook_real[i]}

const cm_hook_entry cm_driver_table[] = {
	CM_HOOK(cuMemAlloc_v2, "cuMemAlloc", false),
	CM_HOOK(cuMemFree_v2, "cuMemFree", false),
	CM_HOOK(cuMemAllocAsync, "cuMemAllocAsync", false),
	CM_HOOK(cuMemAllocAsync_ptsz, "cuMemAllocAsync", true),
	CM_HOOK(cuMemFreeAsync, "cuMemFreeAsync", false),
	CM_HOOK(cuMemFreeAsync_ptsz, "cuMemFreeAsync", true),
	CM_HOOK(cuStreamSynchronize, "cuStreamSynchronize", false),
	CM_HOOK(cuStreamSynchronize_ptsz, "cuStreamSynchronize", true),
	CM_HOOK(cuCtxSynchronize, "cuCtxSynchronize", false),
	CM_HOOK(cuCtxSynchronize_v2, "cuCtxSynchronize", false),
	CM_HOOK(cuStreamCreate, "cuStreamCreate", false),
	CM_HOOK(cuStreamCreateWithPriority, "cuStreamCreateWithPriority", false),
	CM_HOOK(cuStreamDestroy_v2, "cuStreamDestroy", false),
	CM_HOOK(cuStreamBeginCapture_v2, "cuStreamBeginCapture", false),
	CM_HOOK(cuStreamBeginCapture_v2_ptsz, "cuStreamBeginCapture", true),
	CM_HOOK(cuStreamBeginCaptureToGraph, "cuStreamBeginCaptureToGraph", false),
	CM_HOOK(cuStreamBeginCaptureToGraph_ptsz, "cuStreamBeginCaptureToGraph", true),
	CM_HOOK(cuStreamEndCapture, "cuStreamEndCapture", false),
	CM_HOOK(cuStreamEndCapture_ptsz, "cuStreamEndCapture", true),
	CM_HOOK(cuCtxDestroy_v2, "cuCtxDestroy", false),
	CM_HOOK(cuDevicePrimaryCtxReset_v2, "cuDevicePrimaryCtxReset", false),
	CM_HOOK(cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease", false),
	CM_HOOK(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset", false),
	CM_HOOK(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease", false),
	CM_HOOK(cuMemGetInfo_v2, "cuMemGetInfo", false),
	CM_HOOK(cuMemGetAddressRange_v2, "cuMemGetAddressRange", false),
	CM_HOOK(cuPointerGetAttribute, "cuPointerGetAttribute", false),
	CM_HOOK(cuPointerGetAttributes, "cuPointerGetAttributes", false),
	CM_HOOK(cuIpcGetMemHandle, "cuIpcGetMemHandle", false),
	/* The calls that change the current context (context_hooks.c): the
	 * hook's C name tells the ABIs apart, its symbol is the driver's. */
	CM_HOOK_CTX(cuCtxSetCurrent, cm_ctxh_set, "cuCtxSetCurrent", CM_CTXH_SET),
	CM_HOOK_CTX(cuCtxPushCurrent, cm_ctxh_push, "cuCtxPushCurrent", CM_CTXH_PUSH),
	CM_HOOK_CTX(cuCtxPushCurrent_v2, cm_ctxh_push_v2, "cuCtxPushCurrent", CM_CTXH_PUSH_V2),
	CM_HOOK_CTX(cuCtxPopCurrent, cm_ctxh_pop, "cuCtxPopCurrent", CM_CTXH_POP),
	CM_HOOK_CTX(cuCtxPopCurrent_v2, cm_ctxh_pop_v2, "cuCtxPopCurrent", CM_CTXH_POP_V2),
	CM_HOOK_CTX(cuCtxCreate, cm_ctxh_create, "cuCtxCreate", CM_CTXH_CREATE),
	CM_HOOK_CTX(cuCtxCreate_v2, cm_ctxh_create_v2, "cuCtxCreate", CM_CTXH_CREATE_V2),
	CM_HOOK_CTX(cuCtxCreate_v3, cm_ctxh_create_v3, "cuCtxCreate", CM_CTXH_CREATE_V3),
	CM_HOOK_CTX(cuCtxCreate_v4, cm_ctxh_create_v4, "cuCtxCreate", CM_CTXH_CREATE_V4),
	CM_HOOK_CTX(cuCtxDetach, cm_ctxh_detach, "cuCtxDetach", CM_CTXH_DETACH),
};
const size_t cm_driver_count = sizeof(cm_driver_table) / sizeof(cm_driver_table[0]);
