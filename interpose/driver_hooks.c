/* interpose/driver_hooks.c - the driver API's allocation path, streams,
 * contexts and queries: plain functions, with the helpers of hook_shape.h.
 *
 * Every CUDA runtime, static or shared, and every driver-API program ends
 * here (docs/design.md, "The driver layer"): these hooks serve allocation
 * from the cache, tell the core about streams, synchronization, captures
 * and contexts, answer pointer queries with the block and the default
 * memory pool's attributes and trims with the cache's. They are
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
#include "driver_hooks.h"
#include "library.h"
#include "nvtx.h"

#include "hook_shape.h"

/* ---- allocation ---- */

static cm_status cm_serve_drv_malloc(cm_heap *h, int slot, CUdeviceptr *p, size_t n)
{
	uintptr_t out;
	cm_report_name_api("cuMemAlloc"); /* an out-of-memory report says what was called */
	cm_status st = cm_lib_malloc(h, slot, n, false, 0, &out);
	cm_report_name_api(NULL);
	*p = (CUdeviceptr)out;
	return st;
}

static cm_status cm_serve_drv_malloc_async(cm_heap *h, int slot, CUdeviceptr *p, size_t n,
					   CUstream s, bool ptsz)
{
	uintptr_t out;
	cm_status st = cm_lib_malloc(h, slot, n, true, cm_lib_stream(s, ptsz), &out);
	*p = (CUdeviceptr)out;
	return st;
}

/* The driver's allocation hooks: everything they do not serve (arguments
 * the driver judges, inside CUDA, no heap, a capturing stream, no context)
 * goes to the driver. */
static bool cm_driver_alloc_ready(CUdeviceptr *p, size_t n, cm_heap **h, int *slot, bool async,
				  CUstream s)
{
	if (cm_in_cuda || !p || !n || !(*h = cm_lib_heap()) || (async && cm_lib_capturing(s)) ||
	    !cm_lib_device(slot))
		return false;
	cm_lib_saw_here(CM_LEVEL_DRIVER);
	return true;
}

CM_MISS CUresult cm_miss_cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	cm_heap *h;
	int slot;
	if (!cm_driver_alloc_ready(p, n, &h, &slot, false, NULL))
		return cm_real_cuMemAlloc_v2(p, n);
	cm_status st = cm_serve_drv_malloc(h, slot, p, n);
	return st == CM_ERR_NOT_OURS ? cm_real_cuMemAlloc_v2(p, n) : cm_driver_answer(st);
}

/* The hot hook: the thread's cache first (hook_shape.h). */
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	cm_heap *h = cm_lib_cached_heap();
	int slot;
	uintptr_t addr;
	if (__builtin_expect(h && p && cm_lib_cached_slot(CM_LEVEL_DRIVER, &slot), 1) &&
	    (addr = cm_malloc_cached(h, slot, n))) {
		*p = (CUdeviceptr)addr;
		return CUDA_SUCCESS;
	}
	return cm_miss_cuMemAlloc_v2(p, n);
}

CM_MISS CUresult cm_miss_cuMemFree_v2(CUdeviceptr p)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return cm_real_cuMemFree_v2(p);
	cm_status st = cm_lib_free(h, (uintptr_t)p);
	return st == CM_ERR_NOT_OURS ? cm_real_cuMemFree_v2(p) : cm_driver_answer(st);
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
	cm_heap *h = cm_lib_cached_free_heap();
	if (__builtin_expect(h && p, 1) && cm_free_cached(h, (uintptr_t)p))
		return CUDA_SUCCESS;
	return cm_miss_cuMemFree_v2(p);
}

/* A stream capturing a graph keeps the driver's own allocation. */
static CUresult cm_drv_malloc_async(CUdeviceptr *p, size_t n, CUstream s, bool ptsz)
{
	cm_heap *h;
	int slot;
	CUresult (*real)(CUdeviceptr *, size_t, CUstream) =
		ptsz ? cm_real_cuMemAllocAsync_ptsz : cm_real_cuMemAllocAsync;
	if (!cm_driver_alloc_ready(p, n, &h, &slot, true, s))
		return real(p, n, s);
	cm_status st = cm_serve_drv_malloc_async(h, slot, p, n, s, ptsz);
	return st == CM_ERR_NOT_OURS ? real(p, n, s) : cm_driver_answer(st);
}

CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s)
{
	return cm_drv_malloc_async(p, n, s, false);
}

CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s)
{
	return cm_drv_malloc_async(p, n, s, true);
}

static CUresult cm_drv_free_async(CUdeviceptr p, CUstream s, bool ptsz)
{
	cm_heap *h;
	CUresult (*real)(CUdeviceptr, CUstream) =
		ptsz ? cm_real_cuMemFreeAsync_ptsz : cm_real_cuMemFreeAsync;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return real(p, s);
	cm_status st = cm_lib_free_async(h, (uintptr_t)p, s, ptsz);
	return st == CM_ERR_NOT_OURS ? real(p, s) : cm_driver_answer(st);
}

CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
	return cm_drv_free_async(p, s, false);
}

CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s)
{
	return cm_drv_free_async(p, s, true);
}

/* ---- synchronization proves completion ---- */

/* begin of cuCtxSynchronize_v2: the slot of ctx, or the current one. */
static bool cm_drv_ctx_sync_begin(cm_heap *h, CUcontext ctx, cm_sync_token *tok)
{
	int slot;
	if (!ctx)
		return cm_lib_device_sync_begin(h, tok);
	if ((slot = cm_ctx_find(ctx)) < 0)
		return false;
	*tok = cm_sync_begin(h, slot, CM_SYNC_DEVICE);
	return true;
}

static CUresult cm_drv_stream_sync(CUstream s, bool ptsz)
{
	CUresult (*real)(CUstream) = ptsz ? cm_real_cuStreamSynchronize_ptsz : cm_real_cuStreamSynchronize;
	cm_heap *h = cm_hook_heap();
	if (!h)
		return real(s);
	cm_sync_token tok = cm_lib_stream_sync_begin(h, s, ptsz);
	CUresult r = real(s);
	cm_lib_sync_end(h, tok, r == CUDA_SUCCESS);
	return r;
}

CUresult cuStreamSynchronize(CUstream s)
{
	return cm_drv_stream_sync(s, false);
}

CUresult cuStreamSynchronize_ptsz(CUstream s)
{
	return cm_drv_stream_sync(s, true);
}

CUresult cuCtxSynchronize(void)
{
	cm_sync_token tok;
	cm_heap *h = cm_hook_heap();
	if (!h || !cm_lib_device_sync_begin(h, &tok))
		return cm_real_cuCtxSynchronize();
	CUresult r = cm_real_cuCtxSynchronize();
	cm_lib_sync_end(h, tok, r == CUDA_SUCCESS);
	return r;
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	cm_sync_token tok;
	cm_heap *h = cm_hook_heap();
	if (!h || !cm_drv_ctx_sync_begin(h, ctx, &tok))
		return cm_real_cuCtxSynchronize_v2(ctx);
	CUresult r = cm_real_cuCtxSynchronize_v2(ctx);
	cm_lib_sync_end(h, tok, r == CUDA_SUCCESS);
	return r;
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

CUresult cuStreamCreate(CUstream *s, unsigned int flags)
{
	return cm_drv_stream_created(cm_real_cuStreamCreate(s, flags), s, flags);
}

CUresult cuStreamCreateWithPriority(CUstream *s, unsigned int flags, int priority)
{
	return cm_drv_stream_created(cm_real_cuStreamCreateWithPriority(s, flags, priority), s, flags);
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
		if (cm_capture_watching())
			cm_lib_capture_ended(s, false); /* a capture of s ends with it */
	}
}

CUresult cuStreamDestroy_v2(CUstream s)
{
	cm_drv_stream_destroying(s);
	return cm_real_cuStreamDestroy_v2(s);
}

/* ---- graph capture: while none is active, no stream needs asking ---- */

/* Counted before the real call, so an allocation racing the begin asks;
 * uncounted again if the begin failed. */
CUresult cm_drv_capture_begun(CUresult r, CUstream s, bool ptsz)
{
	if (r != CUDA_SUCCESS)
		cm_lib_capture_ended(s, ptsz);
	return r;
}

/* A capture ends whatever cuStreamEndCapture answers (an H200: after an
 * invalidation, on the wrong thread, unjoined), except on a stream that
 * joined it, not its origin (UNMATCHED: it goes on), or where none was
 * (ILLEGAL_STATE, INVALID_VALUE). Its graph is made first, so that the
 * capture's era goes on while the graph lives. */
static CUresult cm_drv_capture_ended(CUresult r, CUstream s, bool ptsz, CUgraph *g)
{
	if (r == CUDA_SUCCESS && g && *g)
		cm_lib_graph_made((uintptr_t)*g);
	if (r != CUDA_ERROR_STREAM_CAPTURE_UNMATCHED && r != CUDA_ERROR_ILLEGAL_STATE &&
	    r != CUDA_ERROR_INVALID_VALUE)
		cm_lib_capture_ended(s, ptsz);
	return r;
}

CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode)
{
	cm_lib_capture_began(s, false, mode);
	return cm_drv_capture_begun(cm_real_cuStreamBeginCapture_v2(s, mode), s, false);
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode mode)
{
	cm_lib_capture_began(s, true, mode);
	return cm_drv_capture_begun(cm_real_cuStreamBeginCapture_v2_ptsz(s, mode), s, true);
}

CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps,
				     const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode)
{
	cm_lib_capture_began(s, false, mode);
	return cm_drv_capture_begun(cm_real_cuStreamBeginCaptureToGraph(s, g, deps, edges, n, mode),
				    s, false);
}

CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream s, CUgraph g, const CUgraphNode *deps,
					  const CUgraphEdgeData *edges, size_t n,
					  CUstreamCaptureMode mode)
{
	cm_lib_capture_began(s, true, mode);
	return cm_drv_capture_begun(
		cm_real_cuStreamBeginCaptureToGraph_ptsz(s, g, deps, edges, n, mode), s, true);
}

CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
	return cm_drv_capture_ended(cm_real_cuStreamEndCapture(s, g), s, false, g);
}

CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g)
{
	return cm_drv_capture_ended(cm_real_cuStreamEndCapture_ptsz(s, g), s, true, g);
}

/* ---- graphs: a capture's era lasts while what it made may run ---- */

static CUresult cm_drv_graph_made(CUresult r, const void *handle)
{
	if (r == CUDA_SUCCESS && handle)
		cm_lib_graph_made((uintptr_t)handle);
	return r;
}

static CUresult cm_drv_graph_gone(CUresult r, const void *handle)
{
	if (r == CUDA_SUCCESS)
		cm_lib_graph_gone((uintptr_t)handle);
	return r;
}

CUresult cuGraphClone(CUgraph *g, CUgraph original)
{
	CUresult r = cm_real_cuGraphClone(g, original);
	return cm_drv_graph_made(r, g ? *g : NULL);
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags)
{
	CUresult r = cm_real_cuGraphInstantiateWithFlags(x, g, flags);
	return cm_drv_graph_made(r, x ? *x : NULL);
}

CUresult cuGraphDestroy(CUgraph g)
{
	return cm_drv_graph_gone(cm_real_cuGraphDestroy(g), g);
}

CUresult cuGraphExecDestroy(CUgraphExec x)
{
	return cm_drv_graph_gone(cm_real_cuGraphExecDestroy(x), x);
}

/* ---- contexts: a context's cache goes with it ---- */

void cm_lib_forget_slot(int slot)
{
	cm_heap *h = cm_lib_heap();
	if (!h || slot < 0)
		return;
	cm_in_cuda++;
	cm_nvtx_slot_forgotten(slot); /* its segments went with the context */
	cm_capture_forget_device(h, slot);
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

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	int slot = cm_drv_ctx_slot(ctx);
	return cm_drv_ctx_gone(cm_real_cuCtxDestroy_v2(ctx), slot);
}

/* The _v2 names and the older ones (the same signature) alike. */
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	int slot = cm_drv_primary_slot(dev);
	return cm_drv_ctx_gone(cm_real_cuDevicePrimaryCtxReset_v2(dev), slot);
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
	int slot = cm_drv_primary_slot(dev);
	return cm_drv_ctx_gone(cm_real_cuDevicePrimaryCtxReset(dev), slot);
}

void cm_drv_primary_gone(CUdevice dev, bool destroyed)
{
	unsigned flags = 0;
	int active = 1;
	int slot = cm_ctx_find_primary(dev);
	if (slot >= 0 && (destroyed || (cm_real.cuDevicePrimaryCtxGetState(dev, &flags, &active) ==
						CUDA_SUCCESS &&
					!active)))
		cm_lib_forget_slot(slot);
}

/* The last release destroys the primary context. */
static CUresult cm_drv_primary_released(CUresult r, CUdevice dev)
{
	if (r == CUDA_SUCCESS && !cm_in_cuda)
		cm_drv_primary_gone(dev, false);
	return r;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	return cm_drv_primary_released(cm_real_cuDevicePrimaryCtxRelease_v2(dev), dev);
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cm_drv_primary_released(cm_real_cuDevicePrimaryCtxRelease(dev), dev);
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

static CUresult cm_drv_mem_info_answer(CUresult r, size_t *free_bytes, size_t *total)
{
	if (r == CUDA_SUCCESS && free_bytes && total)
		cm_drv_mem_info(free_bytes, total);
	return r;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	return cm_drv_mem_info_answer(cm_real_cuMemGetInfo_v2(free_bytes, total), free_bytes, total);
}

/* ---- the default memory pool answered for the cache ---- */

/* The context slot whose cache the pool stands for: pool is the default
 * pool of a device (cuDeviceGetDefaultMemPool, asked each time: a reset
 * makes a new one); the slot of the calling thread's context when that is
 * on the device, else of the device's primary context. -1: none (an
 * explicit pool, a device without a slot, no heap): CUDA's answer alone. */
static int cm_drv_pool_slot(CUmemoryPool pool)
{
	int n = 0, slot;
	if (cm_in_cuda || !pool || !cm_lib_heap() || !cm_real.cuDeviceGetDefaultMemPool ||
	    cm_real.cuDeviceGetCount(&n) != CUDA_SUCCESS)
		return -1;
	for (CUdevice dev = 0; dev < n; dev++) {
		CUmemoryPool p = NULL;
		if (cm_real.cuDeviceGetDefaultMemPool(&p, dev) != CUDA_SUCCESS || p != pool)
			continue;
		if (cm_lib_device(&slot) && cm_ctx_device(slot) == dev)
			return slot;
		return cm_ctx_find_primary(dev);
	}
	return -1;
}

/* The driver's answer for its own (empty, or graph-only) pool plus the
 * cache's: used and reserved bytes and their high watermarks; the release
 * threshold is the cache's (UINT64_MAX: keep all). */
static CUresult cm_drv_pool_get_answer(CUresult r, int slot, CUmemPool_attribute attr, void *value)
{
	cm_heap *h;
	cm_pool_view v;
	if (r != CUDA_SUCCESS || slot < 0 || !value || !(h = cm_lib_heap()))
		return r;
	cm_in_cuda++;
	bool ok = cm_pool_view_get(h, slot, &v);
	cm_in_cuda--;
	cuuint64_t *u = value;
	if (!ok)
		return r;
	switch (attr) {
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		*u += v.used;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		*u += v.used_high;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
		*u += v.reserved;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		*u += v.reserved_high;
		break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		*u = v.release_threshold == SIZE_MAX ? UINT64_MAX : (cuuint64_t)v.release_threshold;
		break;
	default: /* the reuse policies: CUDA's */
		break;
	}
	return r;
}

/* Once the driver accepted the setting (it refuses a high watermark set to
 * anything but 0, and a current value): a watermark reset resets the
 * cache's peak, a release threshold becomes the cache's for the slot. */
static CUresult cm_drv_pool_set_answer(CUresult r, int slot, CUmemPool_attribute attr, void *value)
{
	cm_heap *h;
	if (r != CUDA_SUCCESS || slot < 0 || !value || !(h = cm_lib_heap()))
		return r;
	cuuint64_t u = *(cuuint64_t *)value;
	cm_in_cuda++;
	if (attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH || attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)
		cm_pool_reset_high(h, slot, attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH,
				   attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH);
	else if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
		cm_pool_set_release_threshold(h, slot, u >= SIZE_MAX ? SIZE_MAX : (size_t)u);
	cm_in_cuda--;
	return r;
}

/* After the driver trimmed its own pool: the cache keeps what the bytes
 * asked leave beside what the driver still reserves. */
static CUresult cm_drv_pool_trim_answer(CUresult r, int slot, CUmemoryPool pool, size_t keep)
{
	cm_heap *h;
	cuuint64_t held = 0;
	if (r != CUDA_SUCCESS || slot < 0 || !(h = cm_lib_heap()))
		return r;
	if (cm_real_cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &held) !=
	    CUDA_SUCCESS)
		held = 0;
	cm_in_cuda++;
	cm_pool_trim(h, slot, keep > held ? keep - held : 0);
	cm_in_cuda--;
	return r;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	int slot = cm_drv_pool_slot(pool);
	return cm_drv_pool_get_answer(cm_real_cuMemPoolGetAttribute(pool, attr, value), slot, attr,
				      value);
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	int slot = cm_drv_pool_slot(pool);
	return cm_drv_pool_set_answer(cm_real_cuMemPoolSetAttribute(pool, attr, value), slot, attr,
				      value);
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
	int slot = cm_drv_pool_slot(pool);
	return cm_drv_pool_trim_answer(cm_real_cuMemPoolTrimTo(pool, keep), slot, pool, keep);
}

/* Whether p lies in memory of the cache, or in a block another process
 * shared with this one (cuIpcOpenMemHandle of a token): info.base is then
 * the start of the block the program holds there, or 0 where it holds
 * none (freed, parked, never handed out, or past the size the program
 * asked for), which the driver, asked without the cache, would not know. */
bool cm_drv_block_of(CUdeviceptr p, cm_ptr_info *info)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return false;
	cm_pointer_info(h, (uintptr_t)p, info);
	if (!info->ours && cm_ipc_imported((uintptr_t)p, &info->base, &info->requested)) {
		info->ours = true; /* another process's block, opened here: its range */
		info->size = info->requested;
	}
	if (info->base && (uintptr_t)p - info->base >= info->requested)
		info->base = 0; /* past the size asked: the driver would not know it */
	return info->ours;
}

/* The block's range, or CUDA_ERROR_NOT_FOUND, the driver's answer for
 * memory it does not know (no block held there). */
static CUresult cm_drv_range_answer(const cm_ptr_info *info, CUdeviceptr *base, size_t *size)
{
	if (!info->base)
		return CUDA_ERROR_NOT_FOUND;
	if (base)
		*base = (CUdeviceptr)info->base;
	if (size)
		*size = info->requested;
	return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
	cm_ptr_info info;
	if (!cm_drv_block_of(p, &info))
		return cm_real_cuMemGetAddressRange_v2(base, size, p);
	return cm_drv_range_answer(&info, base, size);
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

/* Where the program holds no block: INVALID_VALUE, as for memory the
 * driver does not know. */
static CUresult cm_drv_attr_answer(const cm_ptr_info *info, void *data, CUpointer_attribute a,
				   CUdeviceptr p)
{
	if (!info->base)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = cm_real_cuPointerGetAttribute(data, a, p);
	if (r == CUDA_SUCCESS && data)
		cm_drv_block_attr(a, data, info);
	return r;
}

static CUresult cm_drv_attrs_answer(const cm_ptr_info *info, unsigned n, CUpointer_attribute *a,
				    void **data, CUdeviceptr p)
{
	if (!info->base) {
		/* The driver's answer for memory it does not know: a host stack
		 * address is none of CUDA's. */
		int not_cuda;
		return cm_real_cuPointerGetAttributes(n, a, data, (CUdeviceptr)(uintptr_t)&not_cuda);
	}
	CUresult r = cm_real_cuPointerGetAttributes(n, a, data, p);
	if (r != CUDA_SUCCESS || !a || !data)
		return r;
	for (unsigned i = 0; i < n; i++)
		if (data[i])
			cm_drv_block_attr(a[i], data[i], info);
	return r;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attr, CUdeviceptr p)
{
	cm_ptr_info info;
	if (!cm_drv_block_of(p, &info))
		return cm_real_cuPointerGetAttribute(data, attr, p);
	return cm_drv_attr_answer(&info, data, attr, p);
}

CUresult cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data,
				CUdeviceptr p)
{
	cm_ptr_info info;
	if (!cm_drv_block_of(p, &info))
		return cm_real_cuPointerGetAttributes(n, attrs, data, p);
	return cm_drv_attrs_answer(&info, n, attrs, data, p);
}

/* ---- IPC (core's ipc.c: a block is shared through a token) ---- */

static CUresult cm_drv_ipc_refusal(CUdeviceptr p)
{
	cm_log(cm_config_get(), CM_LOG_ERRORS,
		"cachemalloc: cuIpcGetMemHandle(0x%llx): memory of expandable segments cannot be "
		"shared with cudaIpcGetMemHandle (CUDA refuses its VMM mappings); set "
		"expandable_segments:false in CACHEMALLOC_CONF to share it\n",
		(unsigned long long)p);
	return CUDA_ERROR_INVALID_VALUE;
}

/* The token of the block holding p: CUDA's handle of its segment, which
 * the core keeps for the importers. */
static CUresult cm_drv_ipc_export(const cm_ptr_info *info, CUipcMemHandle *handle, CUdeviceptr p)
{
	if (info->expandable)
		return cm_drv_ipc_refusal(p);
	CUipcMemHandle segment;
	CUdeviceptr base = 0;
	size_t size = 0;
	CUresult r = cm_real_cuIpcGetMemHandle(&segment, (CUdeviceptr)info->base);
	if (r == CUDA_SUCCESS)
		r = cm_real_cuMemGetAddressRange_v2(&base, &size, (CUdeviceptr)info->base);
	if (r != CUDA_SUCCESS)
		return r;
	cm_in_cuda++;
	cm_status st = cm_ipc_export(cm_lib_heap(), (uintptr_t)p, (const uint8_t *)segment.reserved,
				     (uintptr_t)base, (uint8_t *)handle->reserved);
	cm_in_cuda--;
	return cm_driver_answer(st);
}

CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr p)
{
	cm_ptr_info info;
	if (!handle || !cm_drv_block_of(p, &info))
		return cm_real_cuIpcGetMemHandle(handle, p);
	if (!info.base)
		return CUDA_ERROR_INVALID_VALUE; /* no live block: as for memory CUDA does not know */
	return cm_drv_ipc_export(&info, handle, p);
}

/* A token's open: the segment's through CUDA, the block's pointer. */
static CUresult cm_drv_ipc_open_token(CUdeviceptr *p, cm_ipc_import *imp, unsigned int flags)
{
	if (imp->stale)
		return CUDA_ERROR_INVALID_VALUE; /* CUDA's answer to bytes that are no handle */
	CUipcMemHandle segment;
	memcpy(segment.reserved, imp->segment_handle, sizeof(segment.reserved));
	CUdeviceptr base = 0;
	CUresult r = cm_real_cuIpcOpenMemHandle_v2(&base, segment, flags);
	uintptr_t block = cm_ipc_import_end(imp, r == CUDA_SUCCESS ? (uintptr_t)base : 0);
	if (r == CUDA_SUCCESS && !block) {
		cm_real_cuIpcCloseMemHandle(base);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r == CUDA_SUCCESS)
		*p = (CUdeviceptr)block;
	return r;
}

bool cm_drv_ipc_open(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags, CUresult *r)
{
	cm_ipc_import imp;
	if (!p || !cm_ipc_import_begin((const uint8_t *)handle.reserved, &imp))
		return false;
	*r = cm_drv_ipc_open_token(p, &imp, flags);
	return true;
}

CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags)
{
	CUresult r;
	return cm_drv_ipc_open(p, handle, flags, &r) ? r : cm_real_cuIpcOpenMemHandle_v2(p, handle, flags);
}

CUresult cuIpcCloseMemHandle(CUdeviceptr p)
{
	uintptr_t base;
	return cm_real_cuIpcCloseMemHandle(cm_ipc_close((uintptr_t)p, &base) ? (CUdeviceptr)base : p);
}
