/* interpose/real.h - the real CUDA functions, resolved once.
 *
 * Two tables. cm_real: the runtime functions the runtime-level hooks wrap
 * or call, from libcudart (dlsym(RTLD_NEXT), or dlopen(RTLD_NOLOAD) plus
 * dlvsym when the runtime was loaded privately). cm_drv: the driver
 * functions the backend calls and the driver-level hooks wrap, from the
 * libcuda.so.1 the process loaded (never loaded by us: the program's own
 * search path found it). A function missing stays NULL; callers check.
 * Both are resolved with the real dlsym (cm_real_dlsym), never the one the
 * library exports (lookup.c).
 *
 * The re-entry guard: while the library itself is inside a CUDA call on a
 * thread, hooks called on that thread go straight to the real function. A
 * runtime-level hook raises it around the real runtime call, so that the
 * driver-level hooks the runtime reaches pass it through: one request
 * enters the cache once (docs/design.md, "One cache per process").
 */
#ifndef CM_REAL_H
#define CM_REAL_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdbool.h>

/* cuda.h maps cuGetProcAddress to cuGetProcAddress_v2; the library needs
 * both names as the driver exports them (11.x and 12.x signatures). */
#undef cuGetProcAddress
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxRelease

#define CM_REAL_FUNCS(X)                                                                   \
	X(cudaMalloc, (void **p, size_t n))                                                \
	X(cudaFree, (void *p))                                                             \
	X(cudaMallocAsync, (void **p, size_t n, cudaStream_t s))                           \
	X(cudaFreeAsync, (void *p, cudaStream_t s))                                        \
	X(cudaMallocAsync_ptsz, (void **p, size_t n, cudaStream_t s))                      \
	X(cudaFreeAsync_ptsz, (void *p, cudaStream_t s))                                   \
	X(cudaDeviceReset, (void))                                                         \
	X(cudaStreamSynchronize, (cudaStream_t s))                                         \
	X(cudaStreamSynchronize_ptsz, (cudaStream_t s))                                    \
	X(cudaDeviceSynchronize, (void))                                                   \
	X(cudaGetLastError, (void))                                                        \
	X(cudaGetDevice, (int *dev))                                                       \
	CM_REAL_HOST_FUNCS(X)

/* Pitched and pinned host allocation (host_hooks.c). */
#define CM_REAL_HOST_FUNCS(X)                                                              \
	X(cudaMallocPitch, (void **p, size_t *pitch, size_t w, size_t h))                  \
	X(cudaMalloc3D, (struct cudaPitchedPtr * pp, struct cudaExtent e))                 \
	X(cudaMallocHost, (void **p, size_t n))                                            \
	X(cudaHostAlloc, (void **p, size_t n, unsigned flags))                             \
	X(cudaFreeHost, (void *p))                                                          \
	X(cudaHostGetFlags, (unsigned *flags, void *p))

typedef struct cm_real_table {
#define CM_X(name, params) cudaError_t(*name) params;
	CM_REAL_FUNCS(CM_X)
#undef CM_X
} cm_real_table;

/* The driver: every function the library calls or hooks by hand. */
#define CM_DRV_FUNCS(X)                                                                    \
	X(cuDeviceGetCount, (int *n))                                                      \
	X(cuDeviceGetUuid_v2, (CUuuid * uuid, CUdevice dev))                               \
	X(cuDeviceCanAccessPeer, (int *can, CUdevice dev, CUdevice peer))                  \
	X(cuDevicePrimaryCtxRetain, (CUcontext * ctx, CUdevice dev))                       \
	X(cuDevicePrimaryCtxRelease_v2, (CUdevice dev))                                    \
	X(cuDevicePrimaryCtxReset_v2, (CUdevice dev))                                      \
	X(cuDevicePrimaryCtxReset, (CUdevice dev))                                         \
	X(cuDevicePrimaryCtxRelease, (CUdevice dev))                                       \
	X(cuDevicePrimaryCtxGetState, (CUdevice dev, unsigned *flags, int *active))        \
	X(cuCtxGetCurrent, (CUcontext * ctx))                                              \
	X(cuCtxGetDevice, (CUdevice * dev))                                                \
	X(cuCtxPushCurrent_v2, (CUcontext ctx))                                            \
	X(cuCtxPopCurrent_v2, (CUcontext * ctx))                                           \
	X(cuCtxSynchronize, (void))                                                        \
	X(cuCtxSynchronize_v2, (CUcontext ctx))                                            \
	X(cuCtxDestroy_v2, (CUcontext ctx))                                                \
	X(cuMemAlloc_v2, (CUdeviceptr * p, size_t n))                                      \
	X(cuMemFree_v2, (CUdeviceptr p))                                                   \
	X(cuMemAllocAsync, (CUdeviceptr * p, size_t n, CUstream s))                        \
	X(cuMemAllocAsync_ptsz, (CUdeviceptr * p, size_t n, CUstream s))                   \
	X(cuMemFreeAsync, (CUdeviceptr p, CUstream s))                                     \
	X(cuMemFreeAsync_ptsz, (CUdeviceptr p, CUstream s))                                \
	X(cuMemGetInfo_v2, (size_t * free_bytes, size_t *total))                           \
	X(cuDeviceGetDefaultMemPool, (CUmemoryPool * pool, CUdevice dev))                  \
	X(cuMemPoolGetAttribute, (CUmemoryPool pool, CUmemPool_attribute attr, void *value)) \
	X(cuMemPoolSetAttribute, (CUmemoryPool pool, CUmemPool_attribute attr, void *value)) \
	X(cuMemPoolTrimTo, (CUmemoryPool pool, size_t keep))                               \
	X(cuMemGetAddressRange_v2, (CUdeviceptr * base, size_t *size, CUdeviceptr p))      \
	X(cuPointerGetAttribute, (void *data, CUpointer_attribute a, CUdeviceptr p))       \
	X(cuPointerGetAttributes,                                                          \
	  (unsigned n, CUpointer_attribute *a, void **data, CUdeviceptr p))                \
	X(cuIpcGetMemHandle, (CUipcMemHandle * handle, CUdeviceptr p))                     \
	X(cuEventCreate, (CUevent * ev, unsigned flags))                                   \
	X(cuEventDestroy_v2, (CUevent ev))                                                 \
	X(cuEventRecord, (CUevent ev, CUstream s))                                         \
	X(cuEventQuery, (CUevent ev))                                                      \
	X(cuEventSynchronize, (CUevent ev))                                                \
	X(cuStreamCreate, (CUstream * s, unsigned flags))                                  \
	X(cuStreamCreateWithPriority, (CUstream * s, unsigned flags, int prio))            \
	X(cuStreamDestroy_v2, (CUstream s))                                                \
	X(cuStreamGetFlags, (CUstream s, unsigned *flags))                                 \
	X(cuStreamGetCtx, (CUstream s, CUcontext *ctx))                                    \
	X(cuStreamWaitEvent, (CUstream s, CUevent ev, unsigned flags))                     \
	X(cuStreamQuery, (CUstream s))                                                     \
	X(cuStreamSynchronize, (CUstream s))                                               \
	X(cuStreamSynchronize_ptsz, (CUstream s))                                          \
	X(cuStreamIsCapturing, (CUstream s, CUstreamCaptureStatus * st))                   \
	X(cuStreamBeginCapture_v2, (CUstream s, CUstreamCaptureMode m))                    \
	X(cuStreamBeginCapture_v2_ptsz, (CUstream s, CUstreamCaptureMode m))               \
	X(cuStreamBeginCaptureToGraph,                                                     \
	  (CUstream s, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t n, \
	   CUstreamCaptureMode m))                                                         \
	X(cuStreamBeginCaptureToGraph_ptsz,                                                \
	  (CUstream s, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t n, \
	   CUstreamCaptureMode m))                                                         \
	X(cuStreamEndCapture, (CUstream s, CUgraph * g))                                   \
	X(cuStreamEndCapture_ptsz, (CUstream s, CUgraph * g))                              \
	X(cuThreadExchangeStreamCaptureMode, (CUstreamCaptureMode * m))                    \
	X(cuGraphClone, (CUgraph * g, CUgraph original))                                   \
	X(cuGraphInstantiateWithFlags, (CUgraphExec * x, CUgraph g, unsigned long long flags)) \
	X(cuGraphDestroy, (CUgraph g))                                                     \
	X(cuGraphExecDestroy, (CUgraphExec x))                                             \
	X(cuGetProcAddress, (const char *sym, void **fn, int ver, cuuint64_t flags))       \
	X(cuGetProcAddress_v2, (const char *sym, void **fn, int ver, cuuint64_t flags,     \
				CUdriverProcAddressQueryResult *status))                   \
	X(cuMemAddressReserve, (CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long)) \
	X(cuMemAddressFree, (CUdeviceptr, size_t))                                         \
	X(cuMemCreate, (CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, \
			unsigned long long))                                               \
	X(cuMemRelease, (CUmemGenericAllocationHandle))                                    \
	X(cuMemMap, (CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,              \
		     unsigned long long))                                                    \
	X(cuMemUnmap, (CUdeviceptr, size_t))                                                 \
	X(cuMemSetAccess, (CUdeviceptr, size_t, const CUmemAccessDesc *, size_t))            \
	X(cuMemGetAllocationGranularity, (size_t *, const CUmemAllocationProp *,            \
					  CUmemAllocationGranularity_flags))                 \
	CM_DRV_HOST_FUNCS(X)

/* Pitched and pinned host allocation (host_hooks.c, backend_cuda.c). */
#define CM_DRV_HOST_FUNCS(X)                                                               \
	X(cuMemAllocPitch_v2, (CUdeviceptr * p, size_t *pitch, size_t w, size_t h, unsigned e)) \
	X(cuMemAllocHost_v2, (void **p, size_t n))                                         \
	X(cuMemHostAlloc, (void **p, size_t n, unsigned flags))                            \
	X(cuMemFreeHost, (void *p))                                                        \
	X(cuMemHostRegister_v2, (void *p, size_t n, unsigned flags))                       \
	X(cuMemHostUnregister, (void *p))

typedef struct cm_drv_table {
#define CM_X(name, params) CUresult(*name) params;
	CM_DRV_FUNCS(CM_X)
#undef CM_X
} cm_drv_table;

extern cm_real_table cm_real;
extern cm_drv_table cm_drv;

/* Code that runs inside the exported dlsym, which a sanitizer's runtime
 * calls while it initializes, before its shadow memory exists. */
#define CM_NO_SANITIZE __attribute__((no_sanitize("address", "thread", "undefined")))

/* glibc's dlsym, never the one this library exports. */
typedef void *(*cm_dlsym_fn)(void *, const char *);
cm_dlsym_fn cm_real_dlsym_fn(void);
void *cm_real_dlsym(void *handle, const char *name);

/* Resolves cm_real (once, thread-safe). False if the runtime is missing. */
bool cm_real_resolve(void);
/* Resolves cm_drv once libcuda.so.1 is loaded; false until it is. Cheap
 * once it has succeeded. */
bool cm_drv_resolve(void);
/* The driver's handle (after cm_drv_resolve succeeded). */
void *cm_drv_handle(void);

extern __thread int cm_in_cuda __attribute__((tls_model("initial-exec")));

#endif
