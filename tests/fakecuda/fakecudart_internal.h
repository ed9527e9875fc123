/* tests/fakecuda/fakecudart_internal.h - the fake CUDA runtime's state.
 *
 * The fake runtime is libcudart.so.13, compiled against NVIDIA's
 * cuda_runtime_api.h so every exported signature is the real one, exported
 * with the real symbol version. Like NVIDIA's runtime it is built on the
 * driver: at its first call it opens libcuda.so.1 (dlopen, RTLD_NOW), finds
 * cuGetProcAddress_v2 with dlsym and fetches every driver function it uses
 * through it, for CUDA 13.0, once with the legacy-stream flag and once with
 * the per-thread one (the _ptsz / _ptds runtime entry points call the
 * latter). An interposer that wraps the driver's functions therefore sees
 * the runtime's calls. What has no public driver entry point (pitched
 * allocations, pointer classification) goes through the driver's private
 * export table (fakecu_export.h).
 *
 * The runtime keeps only runtime state: the per-thread last error and
 * current device, the primary context it retained per device, and the
 * translation of CUresult to cudaError_t.
 *
 * Files: fakecudart.c (driver loading, errors, contexts, devices,
 * versions, peer access), fakecudart_api.c (memory, streams, events,
 * capture).
 */
#ifndef FAKECUDART_INTERNAL_H
#define FAKECUDART_INTERNAL_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdbool.h>

#include "fakecu_export.h"

/* Exported entry points: the project builds with -fvisibility=hidden and the
 * version script (libcudart.map) picks cuda* among the default-visibility
 * symbols. */
#define RT_API __attribute__((visibility("default")))

/* CUDA 13.0's cuCtxSynchronize ABI, the one cuGetProcAddress gives for
 * 13000, takes the context (NULL: the current one); cuda.h keeps the name
 * for the old ABI, so the runtime names the new one as cuda.h names
 * cuMemAlloc_v2. */
#define cuCtxSynchronize cuCtxSynchronize_v2

/* The driver functions the runtime uses, by the name cuda.h gives the
 * current ABI (cuMemAlloc is cuMemAlloc_v2, ...): each is fetched by its
 * base name. */
#define RT_DRIVER(X)                                                                 \
	X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount)                            \
	X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)                       \
	X(cuDevicePrimaryCtxReset) X(cuCtxGetCurrent) X(cuCtxSetCurrent)               \
	X(cuCtxGetDevice) X(cuCtxSynchronize) X(cuCtxGetStreamPriorityRange)           \
	X(cuMemAlloc) X(cuMemFree) X(cuMemAllocManaged) X(cuMemAllocHost)              \
	X(cuMemFreeHost) X(cuMemAllocAsync) X(cuMemFreeAsync) X(cuMemGetInfo)          \
	X(cuIpcGetMemHandle) X(cuIpcOpenMemHandle) X(cuIpcCloseMemHandle) X(cuMemcpy) X(cuMemcpyAsync) X(cuMemsetD8)                \
	X(cuMemsetD8Async) X(cuLaunchHostFunc) X(cuStreamCreateWithPriority)           \
	X(cuStreamDestroy) X(cuStreamSynchronize) X(cuStreamQuery) X(cuStreamWaitEvent) \
	X(cuStreamIsCapturing) X(cuStreamBeginCapture) X(cuStreamEndCapture)           \
	X(cuThreadExchangeStreamCaptureMode) X(cuGraphDestroy) X(cuEventCreate)        \
	X(cuGraphInstantiateWithFlags) X(cuGraphExecDestroy)                          \
	X(cuEventRecord) X(cuEventQuery) X(cuEventSynchronize) X(cuEventDestroy)        \
	X(cuDeviceCanAccessPeer) X(cuCtxEnablePeerAccess) X(cuMemcpyPeer) X(cuMemcpyPeerAsync)    \
	X(cuMemHostAlloc) X(cuMemHostGetFlags) X(cuMemHostGetDevicePointer)            \
	X(cuMemHostRegister) X(cuMemHostUnregister) X(cuMemAllocPitch)                 \
	X(cuDeviceGetDefaultMemPool) X(cuMemPoolCreate) X(cuMemPoolDestroy)            \
	X(cuMemPoolGetAttribute) X(cuMemPoolSetAttribute) X(cuMemPoolTrimTo)           \
	X(cuMemAllocFromPoolAsync)

/* rt_cu.name[0]: the legacy-stream function, [1]: the per-thread one (the
 * same where the driver has no per-thread variant). */
typedef struct rt_driver {
#define RT_SLOT(name) __typeof__(&name) name[2];
	RT_DRIVER(RT_SLOT)
#undef RT_SLOT
	const fakecu_export_table *ex;
} rt_driver;

extern rt_driver rt_cu;

/* fakecudart.c */
cudaError_t rt_ret(cudaError_t e);   /* records e as the thread's last error */
cudaError_t rt_err(CUresult r);      /* CUresult to cudaError_t */
cudaError_t rt_call_result(CUresult r); /* rt_ret(rt_err(r)) */
/* rt_call_result of a driver call, made as the program's: no failure is
 * injected into it (fakecu_fault.c). */
#define rt_call(call) (rt_program_call_begin(), rt_program_call_end(call))
/* The comma sequences them: begin, then the call (end's argument), then end. */
static inline void rt_program_call_begin(void)
{
	if (rt_cu.ex)
		rt_cu.ex->program_call(1);
}

static inline cudaError_t rt_program_call_end(CUresult r)
{
	if (rt_cu.ex)
		rt_cu.ex->program_call(-1);
	return rt_call_result(r);
}
/* The driver loaded and initialized: cudaSuccess or the error. */
cudaError_t rt_init(void);
/* rt_init, then a current context: the driver's, or the primary context of
 * the thread's device, retained and made current (lazily, as NVIDIA's). */
cudaError_t rt_ctx(void);

#endif
