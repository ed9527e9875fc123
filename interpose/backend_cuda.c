/* interpose/backend_cuda.c - the backend ops table over the real driver.
 *
 * The core's device index is a context slot (context.h). Every operation
 * calls the real driver function (never a hook) with the re-entry guard
 * raised by the caller. Operations that act on "the current context"
 * (allocation, event creation, memory info, synchronization) make the
 * slot's context current for the call and restore the caller's. While a
 * capture is active, the library's own calls run in relaxed capture mode
 * (library.h). The driver keeps no last-error state, so nothing needs
 * clearing after a failure the core recovers from.
 */
#include "backend_cuda.h"

#include <string.h>

#include "capture_state.h"
#include "context.h"
#include "nvtx.h"
#include "real.h"

static cm_status cm_cu_status(CUresult r)
{
	switch (r) {
	case CUDA_SUCCESS: return CM_OK;
	case CUDA_ERROR_NOT_READY: return CM_NOT_READY;
	case CUDA_ERROR_OUT_OF_MEMORY: return CM_ERR_OOM;
	case CUDA_ERROR_INVALID_VALUE:
	case CUDA_ERROR_INVALID_HANDLE:
	case CUDA_ERROR_INVALID_CONTEXT:
	case CUDA_ERROR_INVALID_DEVICE: return CM_ERR_INVALID;
	case CUDA_ERROR_DEINITIALIZED: return CM_ERR_UNLOADING;
	case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
	case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
	case CUDA_ERROR_STREAM_CAPTURE_IMPLICIT:
	case CUDA_ERROR_STREAM_CAPTURE_ISOLATION:
	case CUDA_ERROR_STREAM_CAPTURE_MERGE:
	case CUDA_ERROR_STREAM_CAPTURE_UNMATCHED:
	case CUDA_ERROR_STREAM_CAPTURE_UNJOINED:
	case CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD:
	case CUDA_ERROR_CAPTURED_EVENT: return CM_ERR_CAPTURING;
	default: return CM_ERR_BACKEND;
	}
}

static CUstream cm_cu_stream(cm_stream s)
{
	return (CUstream)s; /* CM_STREAM_LEGACY is NULL, CM_STREAM_PER_THREAD CU_STREAM_PER_THREAD */
}

/* A call in the slot's context, in relaxed capture mode while a capture
 * is active. */
#define CM_IN_CTX(slot, call)                                    \
	__extension__({                                         \
		CUstreamCaptureMode mode_;                       \
		bool relaxed_ = cm_lib_relax(&mode_);            \
		bool pushed_ = cm_ctx_enter(slot);               \
		CUresult r_ = (call);                            \
		cm_ctx_leave(pushed_);                           \
		cm_lib_unrelax(relaxed_, mode_);                 \
		cm_cu_status(r_);                                \
	})

static cm_status cm_cu_mem_alloc(void *ctx, int slot, size_t size, uintptr_t *out)
{
	(void)ctx;
	CUdeviceptr p = 0;
	cm_status st = CM_IN_CTX(slot, cm_real.cuMemAlloc_v2(&p, size));
	*out = (uintptr_t)p;
	if (st == CM_OK)
		cm_nvtx_segment_added(slot, (uintptr_t)p, size);
	return st;
}

static cm_status cm_cu_mem_free(void *ctx, int slot, uintptr_t ptr)
{
	(void)ctx;
	cm_nvtx_segment_removed(ptr);
	cm_status st = CM_IN_CTX(slot, cm_real.cuMemFree_v2((CUdeviceptr)ptr));
	return st == CM_ERR_UNLOADING ? CM_OK : st; /* at exit the driver frees it */
}

static cm_status cm_cu_mem_get_info(void *ctx, int slot, size_t *free_bytes, size_t *total)
{
	(void)ctx;
	return CM_IN_CTX(slot, cm_real.cuMemGetInfo_v2(free_bytes, total));
}

static cm_status cm_cu_event_create(void *ctx, int slot, cm_event *out)
{
	(void)ctx;
	CUevent ev = NULL;
	cm_status st = CM_IN_CTX(slot, cm_real.cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	*out = ev;
	return st;
}

static cm_status cm_cu_event_destroy(void *ctx, int slot, cm_event ev)
{
	(void)ctx;
	(void)slot;
	return cm_cu_status(cm_real.cuEventDestroy_v2(ev));
}

static cm_status cm_cu_event_record(void *ctx, int slot, cm_event ev, cm_stream s)
{
	(void)ctx;
	return CM_IN_CTX(slot, cm_real.cuEventRecord(ev, cm_cu_stream(s)));
}

static cm_status cm_cu_event_query(void *ctx, int slot, cm_event ev)
{
	(void)ctx;
	(void)slot;
	return cm_cu_status(cm_real.cuEventQuery(ev));
}

static cm_status cm_cu_event_synchronize(void *ctx, int slot, cm_event ev)
{
	(void)ctx;
	(void)slot;
	return cm_cu_status(cm_real.cuEventSynchronize(ev));
}

static cm_status cm_cu_stream_wait_event(void *ctx, int slot, cm_stream s, cm_event ev)
{
	(void)ctx;
	return CM_IN_CTX(slot, cm_real.cuStreamWaitEvent(cm_cu_stream(s), ev, 0));
}

static cm_status cm_cu_stream_query(void *ctx, int slot, cm_stream s)
{
	(void)ctx;
	return CM_IN_CTX(slot, cm_real.cuStreamQuery(cm_cu_stream(s)));
}

static cm_status cm_cu_stream_synchronize(void *ctx, int slot, cm_stream s)
{
	(void)ctx;
	if (cm_lib_capture_active())
		return CM_ERR_CAPTURING;
	return CM_IN_CTX(slot, cm_real.cuStreamSynchronize(cm_cu_stream(s)));
}

/* No capture begun and not ended in the process (the hooks see every
 * begin and end), no stream captures: no driver call, as cm_lib_capturing.
 * Each collect, cover and fence asks it for every stream it records on. */
static cm_status cm_cu_stream_is_capturing(void *ctx, int slot, cm_stream s, bool *capturing)
{
	(void)ctx;
	*capturing = false;
	if (!cm_lib_capture_active())
		return CM_OK;
	CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
	cm_status st = CM_IN_CTX(slot, cm_real.cuStreamIsCapturing(cm_cu_stream(s), &cs));
	*capturing = cs != CU_STREAM_CAPTURE_STATUS_NONE;
	return st;
}

static cm_status cm_cu_stream_flags(void *ctx, int slot, cm_stream s, bool *nonblocking)
{
	(void)ctx;
	unsigned flags = 0;
	CUcontext sctx = NULL;
	if (!cm_real.cuStreamGetFlags || !cm_real.cuStreamGetCtx)
		return CM_ERR_UNSUPPORTED;
	CUresult r = cm_real.cuStreamGetCtx(cm_cu_stream(s), &sctx);
	if (r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_CONTEXT_IS_DESTROYED)
		return CM_ERR_BAD_HANDLE; /* the handle is no stream the driver knows */
	cm_status st = cm_cu_status(r);
	if (st == CM_OK && sctx != cm_ctx_handle(slot))
		return CM_ERR_INVALID; /* another context's stream */
	if (st == CM_OK)
		st = cm_cu_status(cm_real.cuStreamGetFlags(cm_cu_stream(s), &flags));
	*nonblocking = (flags & CU_STREAM_NON_BLOCKING) != 0;
	return st;
}

/* A context synchronization ends any capture in progress, even a relaxed
 * one: none while one is active. */
static cm_status cm_cu_device_synchronize(void *ctx, int slot)
{
	(void)ctx;
	if (cm_lib_capture_active())
		return CM_ERR_CAPTURING;
	return CM_IN_CTX(slot, cm_real.cuCtxSynchronize());
}

static int cm_cu_device_ordinal(void *ctx, int slot)
{
	(void)ctx;
	return (int)cm_ctx_device(slot);
}

/* The UUID names the device's registry of processes (core/share.c). */
static cm_status cm_cu_device_uuid(void *ctx, int slot, uint8_t uuid[16])
{
	(void)ctx;
	CUuuid u;
	if (cm_real.cuDeviceGetUuid_v2(&u, cm_ctx_device(slot)) != CUDA_SUCCESS)
		return CM_ERR_BACKEND;
	memcpy(uuid, u.bytes, 16);
	return CM_OK;
}

/* ---- pinned host memory: the core's flags are translated here ---- */

static unsigned cm_cu_host_flags(unsigned flags)
{
	return ((flags & CM_HOST_PORTABLE) ? CU_MEMHOSTALLOC_PORTABLE : 0) |
	       ((flags & CM_HOST_MAPPED) ? CU_MEMHOSTALLOC_DEVICEMAP : 0) |
	       ((flags & CM_HOST_WRITE_COMBINED) ? CU_MEMHOSTALLOC_WRITECOMBINED : 0);
}

static cm_status cm_cu_host_alloc(void *ctx, int slot, size_t size, unsigned flags, uintptr_t *out)
{
	(void)ctx;
	void *p = NULL;
	cm_status st = flags ? CM_IN_CTX(slot, cm_real.cuMemHostAlloc(&p, size, cm_cu_host_flags(flags)))
			     : CM_IN_CTX(slot, cm_real.cuMemAllocHost_v2(&p, size));
	*out = (uintptr_t)p;
	return st;
}

/* cuMemFreeHost waits for the work that may still use the memory. */
static cm_status cm_cu_host_free(void *ctx, int slot, uintptr_t ptr)
{
	(void)ctx;
	cm_status st = CM_IN_CTX(slot, cm_real.cuMemFreeHost((void *)ptr));
	return st == CM_ERR_UNLOADING ? CM_OK : st;
}

static cm_status cm_cu_host_register(void *ctx, int slot, uintptr_t ptr, size_t size, unsigned flags)
{
	(void)ctx;
	unsigned f = ((flags & CM_HOST_PORTABLE) ? CU_MEMHOSTREGISTER_PORTABLE : 0) |
		     ((flags & CM_HOST_MAPPED) ? CU_MEMHOSTREGISTER_DEVICEMAP : 0);
	return CM_IN_CTX(slot, cm_real.cuMemHostRegister_v2((void *)ptr, size, f));
}

static cm_status cm_cu_host_unregister(void *ctx, int slot, uintptr_t ptr)
{
	(void)ctx;
	cm_status st = CM_IN_CTX(slot, cm_real.cuMemHostUnregister((void *)ptr));
	return st == CM_ERR_UNLOADING ? CM_OK : st;
}

void cm_cuda_backend_init(cm_backend *be, int slots)
{
	*be = (cm_backend){
		.device_count = slots,
		.mem_alloc = cm_cu_mem_alloc,
		.mem_free = cm_cu_mem_free,
		.mem_get_info = cm_cu_mem_get_info,
		.event_create = cm_cu_event_create,
		.event_destroy = cm_cu_event_destroy,
		.event_record = cm_cu_event_record,
		.event_query = cm_cu_event_query,
		.event_synchronize = cm_cu_event_synchronize,
		.stream_wait_event = cm_cu_stream_wait_event,
		.stream_query = cm_cu_stream_query,
		.stream_synchronize = cm_cu_stream_synchronize,
		.stream_is_capturing = cm_cu_stream_is_capturing,
		.stream_flags = cm_cu_stream_flags,
		.device_synchronize = cm_cu_device_synchronize,
		.device_ordinal = cm_cu_device_ordinal,
	};
	if (cm_real.cuMemAllocHost_v2 && cm_real.cuMemHostAlloc && cm_real.cuMemFreeHost) {
		be->host_alloc = cm_cu_host_alloc;
		be->host_free = cm_cu_host_free;
	}
	if (cm_real.cuDeviceGetUuid_v2)
		be->device_uuid = cm_cu_device_uuid;
	if (cm_real.cuMemHostRegister_v2 && cm_real.cuMemHostUnregister) {
		be->host_register = cm_cu_host_register;
		be->host_unregister = cm_cu_host_unregister;
	}
}
