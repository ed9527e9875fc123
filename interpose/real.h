/* interpose/real.h - the real CUDA functions, resolved once.
 *
 * CM_REAL_FUNCS lists every runtime function the library calls or wraps;
 * the list generates the table of pointers and its resolution. Resolution
 * uses dlsym(RTLD_NEXT) and, when the runtime was loaded privately
 * (RTLD_LOCAL, as Python extensions do), dlopen(RTLD_NOLOAD) plus dlvsym
 * with the runtime's symbol version. A function the runtime lacks stays
 * NULL; callers check.
 *
 * The re-entry guard: while the library itself is inside a CUDA call on a
 * thread, hooks called on that thread go straight to the real function.
 */
#ifndef CM_REAL_H
#define CM_REAL_H

#include <cuda_runtime_api.h>
#include <stdbool.h>

#define CM_REAL_FUNCS(X)                                                                   \
	X(cudaMalloc, (void **p, size_t n))                                                \
	X(cudaFree, (void *p))                                                             \
	X(cudaMallocAsync, (void **p, size_t n, cudaStream_t s))                           \
	X(cudaFreeAsync, (void *p, cudaStream_t s))                                        \
	X(cudaMallocAsync_ptsz, (void **p, size_t n, cudaStream_t s))                      \
	X(cudaFreeAsync_ptsz, (void *p, cudaStream_t s))                                   \
	X(cudaStreamSynchronize, (cudaStream_t s))                                         \
	X(cudaStreamSynchronize_ptsz, (cudaStream_t s))                                    \
	X(cudaDeviceSynchronize, (void))                                                   \
	X(cudaStreamCreate, (cudaStream_t * s))                                            \
	X(cudaStreamCreateWithFlags, (cudaStream_t * s, unsigned int flags))               \
	X(cudaStreamCreateWithPriority, (cudaStream_t * s, unsigned int flags, int prio))  \
	X(cudaStreamDestroy, (cudaStream_t s))                                             \
	X(cudaStreamBeginCapture, (cudaStream_t s, enum cudaStreamCaptureMode m))          \
	X(cudaStreamBeginCapture_ptsz, (cudaStream_t s, enum cudaStreamCaptureMode m))     \
	X(cudaStreamBeginCaptureToGraph,                                                   \
	  (cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *d,                        \
	   const cudaGraphEdgeData *e, size_t n, enum cudaStreamCaptureMode m))            \
	X(cudaStreamBeginCaptureToGraph_ptsz,                                              \
	  (cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *d,                        \
	   const cudaGraphEdgeData *e, size_t n, enum cudaStreamCaptureMode m))            \
	X(cudaStreamEndCapture, (cudaStream_t s, cudaGraph_t * g))                         \
	X(cudaStreamEndCapture_ptsz, (cudaStream_t s, cudaGraph_t * g))                    \
	X(cudaDeviceReset, (void))                                                         \
	X(cudaMemGetInfo, (size_t * free_bytes, size_t * total_bytes))                     \
	X(cudaIpcGetMemHandle, (cudaIpcMemHandle_t * handle, void *p))                     \
	X(cudaGetDevice, (int *dev))                                                       \
	X(cudaSetDevice, (int dev))                                                        \
	X(cudaGetDeviceCount, (int *n))                                                    \
	X(cudaEventCreateWithFlags, (cudaEvent_t * ev, unsigned int flags))                \
	X(cudaEventDestroy, (cudaEvent_t ev))                                              \
	X(cudaEventRecord, (cudaEvent_t ev, cudaStream_t s))                               \
	X(cudaEventQuery, (cudaEvent_t ev))                                                \
	X(cudaEventSynchronize, (cudaEvent_t ev))                                          \
	X(cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t ev, unsigned int flags))       \
	X(cudaStreamQuery, (cudaStream_t s))                                               \
	X(cudaStreamIsCapturing, (cudaStream_t s, enum cudaStreamCaptureStatus * st))      \
	X(cudaDeviceCanAccessPeer, (int *can, int dev, int peer))                          \
	X(cudaThreadExchangeStreamCaptureMode, (enum cudaStreamCaptureMode * mode))        \
	X(cudaGetLastError, (void))                                                        \
	X(cudaPeekAtLastError, (void))

typedef struct cm_real_table {
#define CM_X(name, params) cudaError_t(*name) params;
	CM_REAL_FUNCS(CM_X)
#undef CM_X
	/* From the driver, for the current device without cudaGetDevice. */
	int (*cuCtxGetCurrent)(void **ctx);
} cm_real_table;

extern cm_real_table cm_real;

/* Resolves the table (once, thread-safe). False if the runtime is missing. */
bool cm_real_resolve(void);
/* The driver's cuCtxGetCurrent, once the runtime has loaded the driver. */
void cm_real_resolve_driver(void);

extern __thread int cm_in_cuda __attribute__((tls_model("initial-exec")));

#endif
