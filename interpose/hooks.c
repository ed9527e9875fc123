/* interpose/hooks.c - the exported CUDA runtime functions.
 *
 * Each hook is thin: pass through while the library itself is inside CUDA
 * (the re-entry guard) or has no heap, translate the arguments, call the
 * core, translate the result. Stream 0 means the legacy stream in the
 * plain hooks and the calling thread's per-thread stream in the _ptsz ones.
 * A pointer the cache does not own goes to the real function unchanged.
 * No policy lives here.
 */
#include <stdio.h>

#include "library.h"

#define CM_EXPORT __attribute__((visibility("default")))

/* The real function (resolved on first use), or the error a missing
 * runtime function means. */
#define CM_REAL(name, args) \
	(cm_real_resolve(), cm_real.name ? cm_real.name args : cudaErrorNotSupported)

/* _ptsz entry points exist only under CUDA_API_PER_THREAD_DEFAULT_STREAM
 * in the headers; these are their real signatures. */
CM_EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s);
CM_EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s);
CM_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
CM_EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, enum cudaStreamCaptureMode m);
CM_EXPORT cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t g,
							 const cudaGraphNode_t *d,
							 const cudaGraphEdgeData *e, size_t n,
							 enum cudaStreamCaptureMode m);
CM_EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *g);

static cm_stream cm_hook_stream(cudaStream_t s, bool ptsz)
{
	if (s == NULL)
		return ptsz ? CM_STREAM_PER_THREAD : CM_STREAM_LEGACY;
	if (s == cudaStreamLegacy)
		return CM_STREAM_LEGACY;
	return (cm_stream)s; /* cudaStreamPerThread is CM_STREAM_PER_THREAD */
}

static cudaError_t cm_hook_result(cm_status st)
{
	return st == CM_OK ? cudaSuccess : cm_lib_fail(st);
}

/* ---- allocation ---- */

CM_EXPORT cudaError_t cudaMalloc(void **p, size_t n)
{
	cm_heap *h;
	int dev;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()) || !cm_lib_device(&dev))
		return CM_REAL(cudaMalloc, (p, n));
	uintptr_t out = 0;
	cm_in_cuda++;
	cm_status st = cm_malloc(h, dev, n, &out);
	cm_in_cuda--;
	*p = (void *)out;
	return cm_hook_result(st);
}

CM_EXPORT cudaError_t cudaFree(void *p)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return CM_REAL(cudaFree, (p));
	cm_in_cuda++;
	cm_status st = cm_free(h, (uintptr_t)p);
	cm_in_cuda--;
	if (st == CM_ERR_NOT_OURS)
		return CM_REAL(cudaFree, (p));
	return cm_hook_result(st);
}

static cudaError_t cm_hook_malloc_async(void **p, size_t n, cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	int dev;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()) || cm_lib_capturing(s) || !cm_lib_device(&dev))
		return ptsz ? CM_REAL(cudaMallocAsync_ptsz, (p, n, s)) : CM_REAL(cudaMallocAsync, (p, n, s));
	uintptr_t out = 0;
	cm_in_cuda++;
	cm_status st = cm_malloc_async(h, dev, n, cm_hook_stream(s, ptsz), &out);
	cm_in_cuda--;
	*p = (void *)out;
	return cm_hook_result(st);
}

CM_EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
	return cm_hook_malloc_async(p, n, s, false);
}

CM_EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s)
{
	return cm_hook_malloc_async(p, n, s, true);
}

static cudaError_t cm_hook_free_async_real(void *p, cudaStream_t s, bool ptsz)
{
	return ptsz ? CM_REAL(cudaFreeAsync_ptsz, (p, s)) : CM_REAL(cudaFreeAsync, (p, s));
}

static cudaError_t cm_hook_free_async(void *p, cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return cm_hook_free_async_real(p, s, ptsz);
	cm_status st;
	cm_in_cuda++;
	if (cm_lib_capturing(s)) {
		/* A graph would free it at replay, long after now: a cached block
		 * can neither be handed to the graph nor reused. It stays out. */
		cm_ptr_info info;
		cm_pointer_info(h, (uintptr_t)p, &info);
		st = info.ours ? CM_OK : CM_ERR_NOT_OURS;
		if (info.ours)
			fprintf(stderr, "cachemalloc: cudaFreeAsync(%p) on a capturing stream: the "
					"block is kept out of the cache for good\n", p);
	} else {
		st = cm_free_async(h, (uintptr_t)p, cm_hook_stream(s, ptsz));
	}
	cm_in_cuda--;
	if (st == CM_ERR_NOT_OURS)
		return cm_hook_free_async_real(p, s, ptsz);
	return cm_hook_result(st);
}

CM_EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
	return cm_hook_free_async(p, s, false);
}

CM_EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
	return cm_hook_free_async(p, s, true);
}

/* ---- synchronization proves completion ---- */

static cudaError_t cm_hook_stream_sync(cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	if (cm_in_cuda || !(h = cm_lib_heap()))
		return ptsz ? CM_REAL(cudaStreamSynchronize_ptsz, (s)) : CM_REAL(cudaStreamSynchronize, (s));
	cm_stream cs = cm_hook_stream(s, ptsz);
	int dev = -1;
	if ((cs == CM_STREAM_LEGACY || cs == CM_STREAM_PER_THREAD) && !cm_lib_device(&dev))
		dev = -1;
	cm_sync_token tok = cm_sync_begin(h, dev, cs);
	cudaError_t err = ptsz ? CM_REAL(cudaStreamSynchronize_ptsz, (s)) : CM_REAL(cudaStreamSynchronize, (s));
	cm_in_cuda++;
	cm_sync_end(h, tok, err == cudaSuccess ? CM_OK : CM_ERR_BACKEND);
	cm_in_cuda--;
	return err;
}

CM_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	return cm_hook_stream_sync(s, false);
}

CM_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s)
{
	return cm_hook_stream_sync(s, true);
}

CM_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	cm_heap *h;
	int dev;
	if (cm_in_cuda || !(h = cm_lib_heap()) || !cm_lib_device(&dev))
		return CM_REAL(cudaDeviceSynchronize, ());
	cm_sync_token tok = cm_sync_begin(h, dev, CM_SYNC_DEVICE);
	cudaError_t err = CM_REAL(cudaDeviceSynchronize, ());
	cm_in_cuda++;
	cm_sync_end(h, tok, err == cudaSuccess ? CM_OK : CM_ERR_BACKEND);
	cm_in_cuda--;
	return err;
}

/* ---- streams: the fence protocol needs to know them ---- */

static cudaError_t cm_hook_stream_created(cudaError_t err, cudaStream_t *s, unsigned int flags)
{
	cm_heap *h;
	int dev;
	if (err != cudaSuccess || cm_in_cuda || !(h = cm_lib_heap()) || !cm_lib_device(&dev))
		return err;
	cm_in_cuda++;
	cm_stream_created(h, dev, (cm_stream)*s, (flags & cudaStreamNonBlocking) != 0);
	cm_in_cuda--;
	return err;
}

CM_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s)
{
	return cm_hook_stream_created(CM_REAL(cudaStreamCreate, (s)), s, cudaStreamDefault);
}

CM_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
	return cm_hook_stream_created(CM_REAL(cudaStreamCreateWithFlags, (s, flags)), s, flags);
}

CM_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int prio)
{
	return cm_hook_stream_created(CM_REAL(cudaStreamCreateWithPriority, (s, flags, prio)), s,
				      flags);
}

CM_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s)
{
	cm_heap *h;
	cm_stream cs = cm_hook_stream(s, false);
	if (!cm_in_cuda && cs != CM_STREAM_LEGACY && cs != CM_STREAM_PER_THREAD &&
	    (h = cm_lib_heap())) {
		cm_in_cuda++;
		cm_stream_destroying(h, -1, cs); /* records its tail first (rule 5) */
		cm_in_cuda--;
	}
	return CM_REAL(cudaStreamDestroy, (s));
}

/* ---- graph capture: while none is active, no stream needs asking ---- */

/* Counted before the real call, so an allocation racing the begin asks;
 * uncounted again if the begin failed. */
static cudaError_t cm_hook_capture_begin_result(cudaError_t err)
{
	if (err != cudaSuccess)
		cm_lib_capture_ended();
	return err;
}

static cudaError_t cm_hook_capture_ended(cudaError_t err)
{
	if (err == cudaSuccess || err == cudaErrorStreamCaptureInvalidated)
		cm_lib_capture_ended();
	return err;
}

CM_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t s, enum cudaStreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_hook_capture_begin_result(CM_REAL(cudaStreamBeginCapture, (s, m)));
}

CM_EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, enum cudaStreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_hook_capture_begin_result(CM_REAL(cudaStreamBeginCapture_ptsz, (s, m)));
}

CM_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g,
						    const cudaGraphNode_t *d,
						    const cudaGraphEdgeData *e, size_t n,
						    enum cudaStreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_hook_capture_begin_result(CM_REAL(cudaStreamBeginCaptureToGraph, (s, g, d, e, n, m)));
}

CM_EXPORT cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t g,
							 const cudaGraphNode_t *d,
							 const cudaGraphEdgeData *e, size_t n,
							 enum cudaStreamCaptureMode m)
{
	cm_lib_capture_began();
	return cm_hook_capture_begin_result(
		CM_REAL(cudaStreamBeginCaptureToGraph_ptsz, (s, g, d, e, n, m)));
}

CM_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g)
{
	return cm_hook_capture_ended(CM_REAL(cudaStreamEndCapture, (s, g)));
}

CM_EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *g)
{
	return cm_hook_capture_ended(CM_REAL(cudaStreamEndCapture_ptsz, (s, g)));
}

/* ---- device-wide calls ---- */

CM_EXPORT cudaError_t cudaDeviceReset(void)
{
	cm_heap *h;
	int dev;
	if (!cm_in_cuda && (h = cm_lib_heap()) && cm_lib_device(&dev))
		cm_device_reset(h, dev); /* the reset frees it all: forget, do not free */
	return CM_REAL(cudaDeviceReset, ());
}

CM_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	cm_heap *h;
	int dev;
	cudaError_t err = CM_REAL(cudaMemGetInfo, (free_bytes, total));
	if (err != cudaSuccess || cm_in_cuda || !free_bytes || !total || !(h = cm_lib_heap()) ||
	    !cm_config_get()->memgetinfo_counts_cache || !cm_lib_device(&dev))
		return err;
	size_t idle = cm_idle_bytes(h, dev);
	*free_bytes = *free_bytes + idle > *total ? *total : *free_bytes + idle;
	return err;
}

CM_EXPORT cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *p)
{
	cm_heap *h;
	if (cm_in_cuda || !(h = cm_lib_heap()))
		return CM_REAL(cudaIpcGetMemHandle, (handle, p));
	cm_ptr_info info;
	cm_pointer_info(h, (uintptr_t)p, &info);
	if (!info.ours || (info.live && info.segment_start && !info.expandable))
		return CM_REAL(cudaIpcGetMemHandle, (handle, p));
	if (info.live && info.expandable)
		fprintf(stderr,
			"cachemalloc: cudaIpcGetMemHandle(%p): memory of expandable segments cannot be "
			"shared with cudaIpcGetMemHandle; run without expandable_segments:True to "
			"share it\n", p);
	else if (info.live)
		fprintf(stderr,
			"cachemalloc: cudaIpcGetMemHandle(%p): this %zu-byte block shares a cached "
			"segment, so another process would map the wrong memory; allocations of at "
			"least max_split_size_mb get segments of their own "
			"(CACHEMALLOC_CONF=max_split_size_mb:N, N in MiB)\n",
			p, info.size);
	return cm_lib_fail(CM_ERR_INVALID);
}
