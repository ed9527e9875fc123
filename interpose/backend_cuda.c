/* interpose/backend_cuda.c - the backend ops table over the real runtime.
 *
 * Every operation calls the real function (never a hook) with the re-entry
 * guard raised by the caller. Operations that act on "the current device"
 * (allocation, event creation, memory info, device synchronization) switch
 * to the requested device and back when it differs. An error the runtime
 * recorded for a call the core recovers from is cleared here, unless the
 * program had an error of its own pending: the hooks set the error the
 * program should see themselves.
 */
#include "backend_cuda.h"

#include "library.h"
#include "real.h"

static cm_status cm_cuda_status(cudaError_t err)
{
	switch (err) {
	case cudaSuccess: return CM_OK;
	case cudaErrorNotReady: return CM_NOT_READY;
	case cudaErrorMemoryAllocation: return CM_ERR_OOM;
	case cudaErrorInvalidValue:
	case cudaErrorInvalidResourceHandle:
	case cudaErrorInvalidDevice: return CM_ERR_INVALID;
	case cudaErrorCudartUnloading: return CM_ERR_UNLOADING;
	case cudaErrorStreamCaptureUnsupported:
	case cudaErrorStreamCaptureInvalidated:
	case cudaErrorStreamCaptureImplicit:
	case cudaErrorStreamCaptureIsolation:
	case cudaErrorStreamCaptureMerge:
	case cudaErrorStreamCaptureUnmatched:
	case cudaErrorStreamCaptureUnjoined:
	case cudaErrorStreamCaptureWrongThread:
	case cudaErrorCapturedEvent: return CM_ERR_CAPTURING;
	default: return CM_ERR_BACKEND;
	}
}

/* Runs after a real call: a failure the program did not cause must not
 * stay in its last-error state. */
static cm_status cm_cuda_result(cudaError_t err, cudaError_t pending)
{
	if (err != cudaSuccess && err != cudaErrorNotReady && pending == cudaSuccess)
		cm_real.cudaGetLastError();
	return cm_cuda_status(err);
}

static cudaStream_t cm_cuda_stream(cm_stream s)
{
	return s == CM_STREAM_LEGACY ? cudaStreamLegacy : (cudaStream_t)s;
}

/* The current device becomes dev; returns the previous one, or -1. */
static int cm_cuda_enter(int dev)
{
	int cur = -1;
	if (cm_real.cudaGetDevice(&cur) != cudaSuccess || cur == dev)
		return cur;
	return cm_real.cudaSetDevice(dev) == cudaSuccess ? cur : -1;
}

static void cm_cuda_leave(int prev, int dev)
{
	if (prev >= 0 && prev != dev)
		cm_real.cudaSetDevice(prev);
}

#define CM_ON_DEVICE(dev, call)                                  \
	({                                                       \
		enum cudaStreamCaptureMode mode_;                 \
		bool relaxed_ = cm_lib_relax(&mode_);            \
		cudaError_t pending_ = cm_real.cudaPeekAtLastError(); \
		int prev_ = cm_cuda_enter(dev);                  \
		cudaError_t err_ = (call);                        \
		cm_cuda_leave(prev_, dev);                        \
		cm_status st_ = cm_cuda_result(err_, pending_);   \
		cm_lib_unrelax(relaxed_, mode_);                 \
		st_;                                              \
	})

#define CM_CALL(call)                                            \
	({                                                       \
		enum cudaStreamCaptureMode mode_;                 \
		bool relaxed_ = cm_lib_relax(&mode_);            \
		cudaError_t pending_ = cm_real.cudaPeekAtLastError(); \
		cm_status st_ = cm_cuda_result((call), pending_); \
		cm_lib_unrelax(relaxed_, mode_);                 \
		st_;                                              \
	})

static cm_status cm_cuda_mem_alloc(void *ctx, int dev, size_t size, uintptr_t *out)
{
	(void)ctx;
	void *p = NULL;
	cm_status st = CM_ON_DEVICE(dev, cm_real.cudaMalloc(&p, size));
	*out = (uintptr_t)p;
	return st;
}

static cm_status cm_cuda_mem_free(void *ctx, int dev, uintptr_t ptr)
{
	(void)ctx;
	(void)dev;
	cm_status st = CM_CALL(cm_real.cudaFree((void *)ptr));
	return st == CM_ERR_UNLOADING ? CM_OK : st; /* at exit the driver frees it */
}

static cm_status cm_cuda_mem_get_info(void *ctx, int dev, size_t *free_bytes, size_t *total)
{
	(void)ctx;
	return CM_ON_DEVICE(dev, cm_real.cudaMemGetInfo(free_bytes, total));
}

static cm_status cm_cuda_event_create(void *ctx, int dev, cm_event *out)
{
	(void)ctx;
	cudaEvent_t ev = NULL;
	cm_status st = CM_ON_DEVICE(dev, cm_real.cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	*out = ev;
	return st;
}

static cm_status cm_cuda_event_destroy(void *ctx, int dev, cm_event ev)
{
	(void)ctx;
	(void)dev;
	return CM_CALL(cm_real.cudaEventDestroy(ev));
}

static cm_status cm_cuda_event_record(void *ctx, int dev, cm_event ev, cm_stream s)
{
	(void)ctx;
	(void)dev;
	return CM_CALL(cm_real.cudaEventRecord(ev, cm_cuda_stream(s)));
}

static cm_status cm_cuda_event_query(void *ctx, int dev, cm_event ev)
{
	(void)ctx;
	(void)dev;
	return CM_CALL(cm_real.cudaEventQuery(ev));
}

static cm_status cm_cuda_event_synchronize(void *ctx, int dev, cm_event ev)
{
	(void)ctx;
	(void)dev;
	return CM_CALL(cm_real.cudaEventSynchronize(ev));
}

static cm_status cm_cuda_stream_wait_event(void *ctx, int dev, cm_stream s, cm_event ev)
{
	(void)ctx;
	(void)dev;
	return CM_CALL(cm_real.cudaStreamWaitEvent(cm_cuda_stream(s), ev, 0));
}

static cm_status cm_cuda_stream_query(void *ctx, int dev, cm_stream s)
{
	(void)ctx;
	(void)dev;
	return CM_CALL(cm_real.cudaStreamQuery(cm_cuda_stream(s)));
}

static cm_status cm_cuda_stream_synchronize(void *ctx, int dev, cm_stream s)
{
	(void)ctx;
	(void)dev;
	if (cm_lib_capture_active())
		return CM_ERR_CAPTURING;
	return CM_CALL(cm_real.cudaStreamSynchronize(cm_cuda_stream(s)));
}

static cm_status cm_cuda_stream_is_capturing(void *ctx, int dev, cm_stream s, bool *capturing)
{
	(void)ctx;
	(void)dev;
	enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
	cm_status st = CM_CALL(cm_real.cudaStreamIsCapturing(cm_cuda_stream(s), &cs));
	*capturing = cs != cudaStreamCaptureStatusNone;
	return st;
}

/* A device synchronization ends any capture in progress, even a relaxed
 * one: none while one is active. */
static cm_status cm_cuda_device_synchronize(void *ctx, int dev)
{
	(void)ctx;
	if (cm_lib_capture_active())
		return CM_ERR_CAPTURING;
	return CM_ON_DEVICE(dev, cm_real.cudaDeviceSynchronize());
}

void cm_cuda_backend_init(cm_backend *be, int devices)
{
	*be = (cm_backend){
		.device_count = devices,
		.mem_alloc = cm_cuda_mem_alloc,
		.mem_free = cm_cuda_mem_free,
		.mem_get_info = cm_cuda_mem_get_info,
		.event_create = cm_cuda_event_create,
		.event_destroy = cm_cuda_event_destroy,
		.event_record = cm_cuda_event_record,
		.event_query = cm_cuda_event_query,
		.event_synchronize = cm_cuda_event_synchronize,
		.stream_wait_event = cm_cuda_stream_wait_event,
		.stream_query = cm_cuda_stream_query,
		.stream_synchronize = cm_cuda_stream_synchronize,
		.stream_is_capturing = cm_cuda_stream_is_capturing,
		.device_synchronize = cm_cuda_device_synchronize,
		/* vmm_*: NULL until expandable segments use the driver API. */
	};
}
