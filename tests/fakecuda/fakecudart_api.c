/* tests/fakecuda/fakecudart_api.c - the fake runtime's memory, stream,
 * event and capture calls, each on the driver call NVIDIA's runtime makes.
 *
 * What stays in the runtime, as NVIDIA documents it: cudaMalloc(NULL, n) is
 * cudaErrorInvalidValue and cudaMalloc(&p, 0) succeeds with NULL without
 * calling the driver (as do cudaMallocManaged, cudaMallocHost and
 * cudaMallocPitch; a capture that prohibits allocation still refuses them);
 * cudaFree(NULL) and cudaFreeHost(NULL) succeed; cudaMemcpy checks its
 * direction against the pointers (cudaErrorInvalidMemcpyDirection for an
 * unknown kind, cudaErrorInvalidValue for a device side that is not CUDA
 * memory) before the driver's cuMemcpy infers it; cudaPointerGetAttributes
 * classifies any pointer. Everything else is the driver's (fakecu*.c).
 *
 * Each _ptsz / _ptds entry point calls the driver's per-thread variant
 * (rt_cu.name[1]).
 */
#include "fakecudart_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "../fnptr.h"

#define RT_DP(p) ((CUdeviceptr)(uintptr_t)(p))

/* ---- allocation --------------------------------------------------------- */

/* FAKECUDA_REENTER=1: a runtime that calls its own exported API. The
 * global cudaMalloc (an interposer's, if one is preloaded) is called once
 * per fake cudaMalloc; the flag keeps the fake from recursing further. */
static _Thread_local bool rt_in_reenter;

static bool rt_reenter(void)
{
	static int on = -1;
	if (on < 0) {
		const char *e = secure_getenv("FAKECUDA_REENTER");
		on = e && strcmp(e, "1") == 0;
	}
	return on;
}

static void rt_reenter_scratch(void)
{
	typedef cudaError_t (*malloc_fn)(void **, size_t);
	typedef cudaError_t (*free_fn)(void *);
	malloc_fn m = (malloc_fn)fn_of(dlsym(RTLD_DEFAULT, "cudaMalloc"));
	free_fn f = (free_fn)fn_of(dlsym(RTLD_DEFAULT, "cudaFree"));
	void *scratch = NULL;

	if (!m)
		m = cudaMalloc; /* loaded privately: not in the global scope */
	if (!f)
		f = cudaFree;
	rt_in_reenter = true;
	if (m(&scratch, 512) == cudaSuccess)
		f(scratch);
	rt_in_reenter = false;
}

/* rt_ctx, then out (where the call writes its answer) given. */
static cudaError_t rt_ctx_out(const void *out)
{
	cudaError_t r = rt_ctx();
	return r == cudaSuccess && !out ? cudaErrorInvalidValue : r;
}

/* Size 0: NULL, after the checks the driver would make. */
static cudaError_t rt_alloc_none(void **out)
{
	cudaError_t r = rt_err(rt_cu.ex->alloc_check());
	if (r == cudaSuccess)
		*out = NULL;
	return rt_ret(r);
}

RT_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	cudaError_t r = rt_ctx_out(devPtr);
	if (r != cudaSuccess)
		return rt_ret(r);
	if (rt_reenter() && !rt_in_reenter)
		rt_reenter_scratch();
	if (size == 0)
		return rt_alloc_none(devPtr);
	return rt_call(rt_cu.cuMemAlloc[0]((CUdeviceptr *)devPtr, size));
}

/* NVIDIA's runtime uses cuMemAllocPitch; a zero extent is NULL, with the
 * driver's pitch. The element size is the largest the driver accepts. */
static cudaError_t rt_pitch(void **devPtr, size_t *pitch, size_t width, size_t rows)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!devPtr || !pitch)
		return rt_ret(cudaErrorInvalidValue);
	if (width == 0 || rows == 0) {
		r = rt_err(rt_cu.ex->alloc_check());
		if (r != cudaSuccess)
			return rt_ret(r);
		*pitch = (width + 511) & ~(size_t)511;
		*devPtr = NULL;
		return cudaSuccess;
	}
	return rt_call(rt_cu.cuMemAllocPitch[0]((CUdeviceptr *)devPtr, pitch, width, rows, 16));
}

RT_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
	return rt_pitch(devPtr, pitch, width, height);
}

RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
	void *p = NULL;
	size_t pitch = 0;
	if (!pitchedDevPtr)
		return rt_ret(cudaErrorInvalidValue);
	if (extent.depth && extent.height > SIZE_MAX / extent.depth)
		return rt_ret(cudaErrorMemoryAllocation);
	cudaError_t r = rt_pitch(&p, &pitch, extent.width, extent.height * extent.depth);
	if (r == cudaSuccess)
		*pitchedDevPtr = (struct cudaPitchedPtr){ .ptr = p, .pitch = pitch,
							  .xsize = extent.width, .ysize = extent.height };
	return r;
}

RT_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
		return rt_ret(cudaErrorInvalidValue);
	if (size == 0)
		return rt_alloc_none(devPtr);
	return rt_call(rt_cu.cuMemAllocManaged[0]((CUdeviceptr *)devPtr, size, flags));
}

RT_API cudaError_t cudaFree(void *devPtr)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!devPtr)
		return cudaSuccess;
	return rt_call(rt_cu.cuMemFree[0](RT_DP(devPtr)));
}

RT_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	cudaError_t r = rt_ctx_out(ptr);
	if (r != cudaSuccess)
		return rt_ret(r);
	if (size == 0)
		return rt_alloc_none(ptr);
	return rt_call(rt_cu.cuMemAllocHost[0](ptr, size));
}

RT_API cudaError_t cudaFreeHost(void *ptr)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!ptr)
		return cudaSuccess;
	return rt_call(rt_cu.cuMemFreeHost[0](ptr));
}

RT_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	cudaError_t r = rt_ctx_out(pHost);
	if (r != cudaSuccess)
		return rt_ret(r);
	if (size == 0)
		return rt_alloc_none(pHost);
	return rt_call(rt_cu.cuMemHostAlloc[0](pHost, size, flags));
}

RT_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemHostGetDevicePointer[0]((CUdeviceptr *)pDevice, pHost, flags));
}

RT_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemHostGetFlags[0](pFlags, pHost));
}

RT_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemHostRegister[0](ptr, size, flags));
}

RT_API cudaError_t cudaHostUnregister(void *ptr)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemHostUnregister[0](ptr));
}

static cudaError_t rt_malloc_async(void **devPtr, size_t size, cudaStream_t s, int pt)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemAllocAsync[pt]((CUdeviceptr *)devPtr, size, s));
}

static cudaError_t rt_free_async(void *devPtr, cudaStream_t s, int pt)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemFreeAsync[pt](RT_DP(devPtr), s));
}

RT_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	return rt_malloc_async(devPtr, size, hStream, 0);
}

RT_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	return rt_free_async(devPtr, hStream, 0);
}

/* ---- memory pools: the driver's, the same attribute numbers ------------- */

_Static_assert(sizeof(struct cudaMemPoolProps) == sizeof(CUmemPoolProps), "pool properties");
_Static_assert((int)cudaMemPoolAttrUsedMemHigh == (int)CU_MEMPOOL_ATTR_USED_MEM_HIGH,
	       "pool attributes");
_Static_assert((int)cudaMemPoolReuseFollowEventDependencies ==
	       (int)CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, "pool attributes");

RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuDeviceGetDefaultMemPool[0](memPool, device));
}

RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
	CUmemPoolProps props;
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!poolProps)
		return rt_ret(cudaErrorInvalidValue);
	memcpy(&props, poolProps, sizeof(props)); /* the same layout and values */
	return rt_call(rt_cu.cuMemPoolCreate[0](memPool, &props));
}

RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemPoolDestroy[0](memPool));
}

RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
					   void *value)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemPoolGetAttribute[0](memPool, (CUmemPool_attribute)attr, value));
}

RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
					   void *value)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemPoolSetAttribute[0](memPool, (CUmemPool_attribute)attr, value));
}

RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemPoolTrimTo[0](memPool, minBytesToKeep));
}

RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
					   cudaStream_t stream)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemAllocFromPoolAsync[0]((CUdeviceptr *)ptr, size, memPool, stream));
}

/* ---- queries ------------------------------------------------------------ */

RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuMemGetInfo[0](free_bytes, total));
}

RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
					    const void *ptr)
{
	fakecu_ptr m;
	cudaError_t r = rt_ctx_out(attributes);
	if (r != cudaSuccess)
		return rt_ret(r);
	memset(attributes, 0, sizeof(*attributes));
	if (!ptr || rt_cu.ex->pointer(ptr, 0, &m) != 1) {
		attributes->type = cudaMemoryTypeUnregistered;
		attributes->device = -2; /* CU_DEVICE_INVALID */
		attributes->hostPointer = (void *)ptr;
		return cudaSuccess;
	}
	attributes->device = m.dev;
	attributes->devicePointer = (void *)ptr;
	attributes->type = m.kind == FAKECU_MEM_HOST	? cudaMemoryTypeHost
			   : m.kind == FAKECU_MEM_MANAGED ? cudaMemoryTypeManaged
							  : cudaMemoryTypeDevice;
	if (m.kind != FAKECU_MEM_DEVICE)
		attributes->hostPointer = (void *)ptr;
	return cudaSuccess;
}

RT_API cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
	_Static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle), "IPC handle size");
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!handle || !devPtr)
		return rt_ret(cudaErrorInvalidValue);
	return rt_call(rt_cu.cuIpcGetMemHandle[0]((CUipcMemHandle *)handle, RT_DP(devPtr)));
}

RT_API cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!devPtr)
		return rt_ret(cudaErrorInvalidValue);
	CUipcMemHandle h;
	memcpy(&h, &handle, sizeof(h));
	CUdeviceptr p = 0;
	r = rt_call(rt_cu.cuIpcOpenMemHandle[0](&p, h, flags));
	if (r == cudaSuccess)
		*devPtr = (void *)p;
	return r;
}

RT_API cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuIpcCloseMemHandle[0](RT_DP(devPtr)));
}

/* ---- copies and sets ---------------------------------------------------- */

/* The runtime's own checks of a copy's direction. */
static cudaError_t rt_memcpy_check(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind)
{
	fakecu_ptr m;
	if ((unsigned)kind > (unsigned)cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	if (count == 0)
		return cudaSuccess;
	if (!dst || !src)
		return cudaErrorInvalidValue;
	int fd = rt_cu.ex->pointer(dst, count, &m);
	int fs = rt_cu.ex->pointer(src, count, &m);
	if (fd < 0 || fs < 0)
		return cudaErrorInvalidValue;
	if (((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) && fd != 1) ||
	    ((kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) && fs != 1))
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
			     cudaStream_t s, int pt, bool sync)
{
	cudaError_t r = rt_ctx();
	if (r == cudaSuccess)
		r = rt_memcpy_check(dst, src, count, kind);
	if (r != cudaSuccess || count == 0)
		return rt_ret(r);
	if (sync)
		return rt_call(rt_cu.cuMemcpy[pt](RT_DP(dst), RT_DP(src), count));
	return rt_call(rt_cu.cuMemcpyAsync[pt](RT_DP(dst), RT_DP(src), count, s));
}

static cudaError_t rt_memset(void *devPtr, int value, size_t count, cudaStream_t s, int pt,
			     bool sync)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (sync)
		return rt_call(rt_cu.cuMemsetD8[pt](RT_DP(devPtr), (unsigned char)value, count));
	return rt_call(rt_cu.cuMemsetD8Async[pt](RT_DP(devPtr), (unsigned char)value, count, s));
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	return rt_memcpy(dst, src, count, kind, 0, 0, true);
}

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_memcpy(dst, src, count, kind, stream, 0, false);
}

RT_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return rt_memset(devPtr, value, count, 0, 0, true);
}

RT_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return rt_memset(devPtr, value, count, stream, 0, false);
}

/* ---- streams and events ------------------------------------------------- */

/* Most stream and event calls: a context, then the driver's answer. */
#define RT_CTX_CALL(call)                          \
	do {                                       \
		cudaError_t rt_r_ = rt_ctx();      \
		if (rt_r_ != cudaSuccess)          \
			return rt_ret(rt_r_);      \
		return rt_call(call);              \
	} while (0)

RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{ RT_CTX_CALL(rt_cu.cuLaunchHostFunc[0](stream, fn, userData)); }

RT_API cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{ RT_CTX_CALL(rt_cu.cuStreamCreateWithPriority[0](pStream, 0, 0)); }

RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{ RT_CTX_CALL(rt_cu.cuStreamCreateWithPriority[0](pStream, flags, 0)); }

RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
						int priority)
{ RT_CTX_CALL(rt_cu.cuStreamCreateWithPriority[0](pStream, flags, priority)); }

RT_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuStreamDestroy[0](stream)); }

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuStreamSynchronize[0](stream)); }

RT_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuStreamQuery[0](stream)); }

RT_API cudaError_t cudaEventCreate(cudaEvent_t *event)
{ RT_CTX_CALL(rt_cu.cuEventCreate[0](event, 0)); }

RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{ RT_CTX_CALL(rt_cu.cuEventCreate[0](event, flags)); }

RT_API cudaError_t cudaEventDestroy(cudaEvent_t event)
{ RT_CTX_CALL(rt_cu.cuEventDestroy[0](event)); }

RT_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuEventRecord[0](event, stream)); }

RT_API cudaError_t cudaEventQuery(cudaEvent_t event)
{ RT_CTX_CALL(rt_cu.cuEventQuery[0](event)); }

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t event)
{ RT_CTX_CALL(rt_cu.cuEventSynchronize[0](event)); }

RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{ RT_CTX_CALL(rt_cu.cuStreamWaitEvent[0](stream, event, flags)); }

/* ---- capture ------------------------------------------------------------ */

RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{ RT_CTX_CALL(rt_cu.cuStreamBeginCapture[0](stream, (CUstreamCaptureMode)mode)); }

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{ RT_CTX_CALL(rt_cu.cuStreamEndCapture[0](stream, pGraph)); }

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
					 enum cudaStreamCaptureStatus *pCaptureStatus)
{ RT_CTX_CALL(rt_cu.cuStreamIsCapturing[0](stream, (CUstreamCaptureStatus *)pCaptureStatus)); }

RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuThreadExchangeStreamCaptureMode[0]((CUstreamCaptureMode *)mode));
}

RT_API cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{ RT_CTX_CALL(rt_cu.cuGraphDestroy[0](graph)); }

RT_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
					unsigned long long flags)
{ RT_CTX_CALL(rt_cu.cuGraphInstantiateWithFlags[0]((CUgraphExec *)exec, graph, flags)); }

RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph,
						 unsigned long long flags)
{ RT_CTX_CALL(rt_cu.cuGraphInstantiateWithFlags[0]((CUgraphExec *)exec, graph, flags)); }

RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{ RT_CTX_CALL(rt_cu.cuGraphExecDestroy[0]((CUgraphExec)exec)); }

/* ---- per-thread default stream entry points ----------------------------- */

#define RT_PTSZ(name) RT_API __typeof__(name) name##_ptsz;
RT_PTSZ(cudaMallocAsync)
RT_PTSZ(cudaFreeAsync)
RT_PTSZ(cudaMemcpyAsync)
RT_PTSZ(cudaMemsetAsync)
RT_PTSZ(cudaLaunchHostFunc)
RT_PTSZ(cudaStreamSynchronize)
RT_PTSZ(cudaStreamQuery)
RT_PTSZ(cudaEventRecord)
RT_PTSZ(cudaStreamWaitEvent)
RT_PTSZ(cudaStreamIsCapturing)
RT_PTSZ(cudaStreamBeginCapture)
RT_PTSZ(cudaStreamEndCapture)
#undef RT_PTSZ
RT_API __typeof__(cudaMemcpy) cudaMemcpy_ptds;
RT_API __typeof__(cudaMemset) cudaMemset_ptds;

RT_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{ return rt_malloc_async(devPtr, size, hStream, 1); }

RT_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{ return rt_free_async(devPtr, hStream, 1); }

RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind)
{ return rt_memcpy(dst, src, count, kind, 0, 1, true); }

RT_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{ return rt_memset(devPtr, value, count, 0, 1, true); }

RT_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
					enum cudaMemcpyKind kind, cudaStream_t stream)
{ return rt_memcpy(dst, src, count, kind, stream, 1, false); }

RT_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{ return rt_memset(devPtr, value, count, stream, 1, false); }

RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{ RT_CTX_CALL(rt_cu.cuLaunchHostFunc[1](stream, fn, userData)); }

RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuStreamSynchronize[1](stream)); }

RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuStreamQuery[1](stream)); }

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{ RT_CTX_CALL(rt_cu.cuEventRecord[1](event, stream)); }

RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
					    unsigned int flags)
{ RT_CTX_CALL(rt_cu.cuStreamWaitEvent[1](stream, event, flags)); }

RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
					      enum cudaStreamCaptureStatus *pCaptureStatus)
{ RT_CTX_CALL(rt_cu.cuStreamIsCapturing[1](stream, (CUstreamCaptureStatus *)pCaptureStatus)); }

RT_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					       enum cudaStreamCaptureMode mode)
{ RT_CTX_CALL(rt_cu.cuStreamBeginCapture[1](stream, (CUstreamCaptureMode)mode)); }

RT_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{ RT_CTX_CALL(rt_cu.cuStreamEndCapture[1](stream, pGraph)); }
