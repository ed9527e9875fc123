/* interpose/driver_hooks.c - the driver API's allocation path, streams,
 * contexts and queries, each hook one line of hook_shape.h.
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
#include "context_hooks.h"
#include "driver_hooks.h"
#include "hook_entry.h"
#include "library.h"
#include "nvtx.h"

#include "hook_shape.h"

CM_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s);
CM_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s);
CM_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream s);
CM_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode m);
CM_EXPORT CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream s, CUgraph g, const CUgraphNode *d,
						    const CUgraphEdgeData *e, size_t n,
						    CUstreamCaptureMode m);
CM_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g);

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

CM_DRIVER_CACHED_ALLOC_HOOK(cuMemAlloc_v2, (CUdeviceptr *p, size_t n), (p, n), p, n, !p || !n,
			    cm_serve_drv_malloc(h, slot, p, n))
CM_DRIVER_CACHED_FREE_HOOK(CM_DRV, cuMemFree_v2, (CUdeviceptr p), (p), p,
			   cm_lib_free(h, (uintptr_t)p))
/* A stream capturing a graph keeps the driver's own allocation. */
CM_DRIVER_ALLOC_HOOK(cuMemAllocAsync, (CUdeviceptr *p, size_t n, CUstream s), (p, n, s),
		     !p || !n, !cm_lib_capturing(s), cm_serve_drv_malloc_async(h, slot, p, n, s, false))
CM_DRIVER_ALLOC_HOOK(cuMemAllocAsync_ptsz, (CUdeviceptr *p, size_t n, CUstream s), (p, n, s),
		     !p || !n, !cm_lib_capturing(s), cm_serve_drv_malloc_async(h, slot, p, n, s, true))
CM_DRIVER_FREE_HOOK(CM_DRV, cuMemFreeAsync, (CUdeviceptr p, CUstream s), (p, s), p,
		    cm_lib_free_async(h, (uintptr_t)p, s, false))
CM_DRIVER_FREE_HOOK(CM_DRV, cuMemFreeAsync_ptsz, (CUdeviceptr p, CUstream s), (p, s), p,
		    cm_lib_free_async(h, (uintptr_t)p, s, true))

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

CM_DRIVER_SYNC_HOOK(cuStreamSynchronize, (CUstream s), (s), CM_SYNC_STREAM(s, false))
CM_DRIVER_SYNC_HOOK(cuStreamSynchronize_ptsz, (CUstream s), (s), CM_SYNC_STREAM(s, true))
CM_DRIVER_SYNC_HOOK(cuCtxSynchronize, (void), (), cm_lib_device_sync_begin(h, &tok_))
CM_DRIVER_SYNC_HOOK(cuCtxSynchronize_v2, (CUcontext ctx), (ctx), cm_drv_ctx_sync_begin(h, ctx, &tok_))

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

CM_DRIVER_WATCH(cuStreamCreate, (CUstream *s, unsigned flags), (s, flags), 0,
		cm_drv_stream_created(r_, s, flags))
CM_DRIVER_WATCH(cuStreamCreateWithPriority, (CUstream *s, unsigned flags, int prio),
		(s, flags, prio), 0, cm_drv_stream_created(r_, s, flags))

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

CM_DRIVER_WATCH(cuStreamDestroy_v2, (CUstream s), (s), cm_drv_stream_destroying(s), r_)

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

CM_DRIVER_WATCH(cuStreamBeginCapture_v2, (CUstream s, CUstreamCaptureMode m), (s, m),
		cm_lib_capture_began(s, false, m), cm_drv_capture_begun(r_, s, false))
CM_DRIVER_WATCH(cuStreamBeginCapture_v2_ptsz, (CUstream s, CUstreamCaptureMode m), (s, m),
		cm_lib_capture_began(s, true, m), cm_drv_capture_begun(r_, s, true))
CM_DRIVER_WATCH(cuStreamBeginCaptureToGraph,
		(CUstream s, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t n,
		 CUstreamCaptureMode m),
		(s, g, d, e, n, m), cm_lib_capture_began(s, false, m), cm_drv_capture_begun(r_, s, false))
CM_DRIVER_WATCH(cuStreamBeginCaptureToGraph_ptsz,
		(CUstream s, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t n,
		 CUstreamCaptureMode m),
		(s, g, d, e, n, m), cm_lib_capture_began(s, true, m), cm_drv_capture_begun(r_, s, true))
CM_DRIVER_WATCH(cuStreamEndCapture, (CUstream s, CUgraph *g), (s, g), 0,
		cm_drv_capture_ended(r_, s, false, g))
CM_DRIVER_WATCH(cuStreamEndCapture_ptsz, (CUstream s, CUgraph *g), (s, g), 0,
		cm_drv_capture_ended(r_, s, true, g))

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

CM_DRIVER_WATCH(cuGraphClone, (CUgraph *g, CUgraph original), (g, original), 0,
		cm_drv_graph_made(r_, g ? *g : NULL))
CM_DRIVER_WATCH(cuGraphInstantiateWithFlags, (CUgraphExec *x, CUgraph g, unsigned long long flags),
		(x, g, flags), 0, cm_drv_graph_made(r_, x ? *x : NULL))
CM_DRIVER_WATCH(cuGraphDestroy, (CUgraph g), (g), 0, cm_drv_graph_gone(r_, g))
CM_DRIVER_WATCH(cuGraphExecDestroy, (CUgraphExec x), (x), 0, cm_drv_graph_gone(r_, x))

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

CM_DRIVER_WATCH(cuCtxDestroy_v2, (CUcontext ctx), (ctx), kept_ = cm_drv_ctx_slot(ctx),
		cm_drv_ctx_gone(r_, kept_))
/* The _v2 names and the older ones (the same signature) alike. */
CM_DRIVER_WATCH(cuDevicePrimaryCtxReset_v2, (CUdevice dev), (dev), kept_ = cm_drv_primary_slot(dev),
		cm_drv_ctx_gone(r_, kept_))
CM_DRIVER_WATCH(cuDevicePrimaryCtxReset, (CUdevice dev), (dev), kept_ = cm_drv_primary_slot(dev),
		cm_drv_ctx_gone(r_, kept_))

void cm_drv_primary_gone(CUdevice dev, bool destroyed)
{
	unsigned flags = 0;
	int active = 1;
	int slot = cm_ctx_find_primary(dev);
	if (slot >= 0 && (destroyed || (cm_drv.cuDevicePrimaryCtxGetState(dev, &flags, &active) ==
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

CM_DRIVER_WATCH(cuDevicePrimaryCtxRelease_v2, (CUdevice dev), (dev), 0,
		cm_drv_primary_released(r_, dev))
CM_DRIVER_WATCH(cuDevicePrimaryCtxRelease, (CUdevice dev), (dev), 0, cm_drv_primary_released(r_, dev))

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

CM_DRIVER_WATCH(cuMemGetInfo_v2, (size_t *free_bytes, size_t *total), (free_bytes, total), 0,
		cm_drv_mem_info_answer(r_, free_bytes, total))

/* ---- the default memory pool answered for the cache ---- */

/* The context slot whose cache the pool stands for: pool is the default
 * pool of a device (cuDeviceGetDefaultMemPool, asked each time: a reset
 * makes a new one); the slot of the calling thread's context when that is
 * on the device, else of the device's primary context. -1: none (an
 * explicit pool, a device without a slot, no heap): CUDA's answer alone. */
static int cm_drv_pool_slot(CUmemoryPool pool)
{
	int n = 0, slot;
	if (cm_in_cuda || !pool || !cm_lib_heap() || !cm_drv.cuDeviceGetDefaultMemPool ||
	    cm_drv.cuDeviceGetCount(&n) != CUDA_SUCCESS)
		return -1;
	for (CUdevice dev = 0; dev < n; dev++) {
		CUmemoryPool p = NULL;
		if (cm_drv.cuDeviceGetDefaultMemPool(&p, dev) != CUDA_SUCCESS || p != pool)
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
	if (CM_DRV(cuMemPoolGetAttribute, (pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &held)) !=
	    CUDA_SUCCESS)
		held = 0;
	cm_in_cuda++;
	cm_pool_trim(h, slot, keep > held ? keep - held : 0);
	cm_in_cuda--;
	return r;
}

CM_DRIVER_WATCH(cuMemPoolGetAttribute, (CUmemoryPool pool, CUmemPool_attribute attr, void *value),
		(pool, attr, value), kept_ = cm_drv_pool_slot(pool),
		cm_drv_pool_get_answer(r_, kept_, attr, value))
CM_DRIVER_WATCH(cuMemPoolSetAttribute, (CUmemoryPool pool, CUmemPool_attribute attr, void *value),
		(pool, attr, value), kept_ = cm_drv_pool_slot(pool),
		cm_drv_pool_set_answer(r_, kept_, attr, value))
CM_DRIVER_WATCH(cuMemPoolTrimTo, (CUmemoryPool pool, size_t keep), (pool, keep),
		kept_ = cm_drv_pool_slot(pool), cm_drv_pool_trim_answer(r_, kept_, pool, keep))

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

CM_DRIVER_QUERY(cuMemGetAddressRange_v2, (CUdeviceptr *base, size_t *size, CUdeviceptr p),
		(base, size, p), p, cm_drv_range_answer(&info, base, size))

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
	CUresult r = CM_DRV(cuPointerGetAttribute, (data, a, p));
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
		return CM_DRV(cuPointerGetAttributes, (n, a, data, (CUdeviceptr)(uintptr_t)&not_cuda));
	}
	CUresult r = CM_DRV(cuPointerGetAttributes, (n, a, data, p));
	if (r != CUDA_SUCCESS || !a || !data)
		return r;
	for (unsigned i = 0; i < n; i++)
		if (data[i])
			cm_drv_block_attr(a[i], data[i], info);
	return r;
}

CM_DRIVER_QUERY(cuPointerGetAttribute, (void *data, CUpointer_attribute a, CUdeviceptr p),
		(data, a, p), p, cm_drv_attr_answer(&info, data, a, p))
CM_DRIVER_QUERY(cuPointerGetAttributes,
		(unsigned n, CUpointer_attribute *a, void **data, CUdeviceptr p), (n, a, data, p), p,
		cm_drv_attrs_answer(&info, n, a, data, p))

static void cm_drv_ipc_refusal(CUdeviceptr p, const cm_ptr_info *info)
{
	if (info->live && info->expandable)
		cm_log(cm_config_get(), CM_LOG_ERRORS,
			"cachemalloc: cuIpcGetMemHandle(0x%llx): memory of expandable segments cannot "
			"be shared with cudaIpcGetMemHandle; run without expandable_segments:True to "
			"share it\n", (unsigned long long)p);
	else if (info->live)
		cm_log(cm_config_get(), CM_LOG_ERRORS,
			"cachemalloc: cuIpcGetMemHandle(0x%llx): this %zu-byte block shares a cached "
			"segment, so another process would map the wrong memory; the cache shares only "
			"a block that starts a segment of its own (a request above 10 MiB that no cached "
			"block served); to share any block, run the exporting process without "
			"libcachemalloc.so\n",
			(unsigned long long)p, info->size);
}

/* A block alone in its plain segment is shared as the segment; any other
 * block of the cache is refused, with why. */
static CUresult cm_drv_ipc_answer(const cm_ptr_info *info, CUipcMemHandle *handle, CUdeviceptr p)
{
	if (info->live && info->segment_start && !info->expandable)
		return CM_DRV(cuIpcGetMemHandle, (handle, p));
	cm_drv_ipc_refusal(p, info);
	return CUDA_ERROR_INVALID_VALUE;
}

CM_DRIVER_QUERY(cuIpcGetMemHandle, (CUipcMemHandle *handle, CUdeviceptr p), (handle, p), p,
		cm_drv_ipc_answer(&info, handle, p))

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
	CM_HOOK(cuGraphClone, "cuGraphClone", false),
	CM_HOOK(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", false),
	CM_HOOK(cuGraphDestroy, "cuGraphDestroy", false),
	CM_HOOK(cuGraphExecDestroy, "cuGraphExecDestroy", false),
	CM_HOOK(cuCtxDestroy_v2, "cuCtxDestroy", false),
	CM_HOOK(cuDevicePrimaryCtxReset_v2, "cuDevicePrimaryCtxReset", false),
	CM_HOOK(cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease", false),
	CM_HOOK(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset", false),
	CM_HOOK(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease", false),
	CM_HOOK(cuMemGetInfo_v2, "cuMemGetInfo", false),
	CM_HOOK(cuMemPoolGetAttribute, "cuMemPoolGetAttribute", false),
	CM_HOOK(cuMemPoolSetAttribute, "cuMemPoolSetAttribute", false),
	CM_HOOK(cuMemPoolTrimTo, "cuMemPoolTrimTo", false),
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
