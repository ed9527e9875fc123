/* interpose/hook_table.h - GENERATED: do not edit.
 *
 * Made by scripts/gen_hooks.py from interpose/hooks.table and cuda.h
 * (CUDA_VERSION 13000); the unit test hooks-generated fails when it
 * differs from what the script makes (--check).
 * Included by real.h. Every hook the library exports, declared once with its
 * visibility (each defined once, as a plain function of its name, in the
 * file its row names), and cm_real: one typed slot per real function, filled
 * when the runtime or the driver is found (real.c), with cm_real_<name>, the
 * call of a hand row's real function: the runtime's under the re-entry
 * guard.
 */
#ifndef CM_HOOK_TABLE_H
#define CM_HOOK_TABLE_H

#ifndef CM_REAL_H
#error "include real.h, which includes this header"
#endif

#define CM_EXPORT __attribute__((visibility("default")))

/* ---- the hooks (shape, file) ---- */
CM_EXPORT __attribute__((hot)) cudaError_t cudaMalloc(void **p, size_t n); /* cached_alloc, hooks.c */
CM_EXPORT __attribute__((hot)) cudaError_t cudaFree(void *p); /* cached_free, hooks.c */
CM_EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s); /* alloc, hooks.c */
CM_EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s); /* alloc, hooks.c */
CM_EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s); /* free, hooks.c */
CM_EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s); /* free, hooks.c */
CM_EXPORT cudaError_t cudaDeviceReset(void); /* watch, hooks.c */
CM_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s); /* sync, hooks.c */
CM_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s); /* sync, hooks.c */
CM_EXPORT cudaError_t cudaDeviceSynchronize(void); /* sync, hooks.c */
CM_EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height); /* serve, host_hooks.c */
CM_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e); /* serve, host_hooks.c */
CM_EXPORT cudaError_t cudaMallocHost(void **p, size_t n); /* serve, host_hooks.c */
CM_EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags); /* serve, host_hooks.c */
CM_EXPORT cudaError_t cudaHostGetFlags(unsigned int *flags, void *p); /* watch, host_hooks.c */
CM_EXPORT cudaError_t cudaFreeHost(void *p); /* serve, host_hooks.c */
CM_EXPORT __attribute__((hot)) CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n); /* cached_alloc, driver_hooks.c */
CM_EXPORT __attribute__((hot)) CUresult cuMemFree_v2(CUdeviceptr p); /* cached_free, driver_hooks.c */
CM_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s); /* alloc, driver_hooks.c */
CM_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s); /* alloc, driver_hooks.c */
CM_EXPORT CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s); /* free, driver_hooks.c */
CM_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s); /* free, driver_hooks.c */
CM_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t width, size_t height, unsigned int element); /* serve, host_hooks.c */
CM_EXPORT CUresult cuMemAllocHost_v2(void **p, size_t n); /* serve, host_hooks.c */
CM_EXPORT CUresult cuMemHostAlloc(void **p, size_t n, unsigned int flags); /* serve, host_hooks.c */
CM_EXPORT CUresult cuMemFreeHost(void *p); /* serve, host_hooks.c */
CM_EXPORT CUresult cuStreamSynchronize(CUstream s); /* sync, driver_hooks.c */
CM_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream s); /* sync, driver_hooks.c */
CM_EXPORT CUresult cuCtxSynchronize(void); /* sync, driver_hooks.c */
CM_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx); /* sync, driver_hooks.c */
CM_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned int flags); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamCreateWithPriority(CUstream *s, unsigned int flags, int priority); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamDestroy_v2(CUstream s); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode mode); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *g); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuGraphClone(CUgraph *g, CUgraph original); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuGraphDestroy(CUgraph g); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuGraphExecDestroy(CUgraphExec x); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxPopCurrent(CUcontext *ctx); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *ctx); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned int flags, CUdevice dev); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxCreate_v3(CUcontext *ctx, CUexecAffinityParam *params, int n, unsigned int flags, CUdevice dev); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxCreate_v4(CUcontext *ctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev); /* context, context_hooks.c */
CM_EXPORT CUresult cuCtxDetach(CUcontext ctx); /* context, context_hooks.c */
CM_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep); /* watch, driver_hooks.c */
CM_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p); /* query, driver_hooks.c */
CM_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attr, CUdeviceptr p); /* query, driver_hooks.c */
CM_EXPORT CUresult cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data, CUdeviceptr p); /* query, driver_hooks.c */
CM_EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr p); /* serve, driver_hooks.c */
CM_EXPORT CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags); /* serve, driver_hooks.c */
CM_EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr p); /* serve, driver_hooks.c */
CM_EXPORT CUresult cuMemAlloc(CUdeviceptr_v1 *p, unsigned int n); /* pass, driver_hooks_v1.c */
CM_EXPORT CUresult cuMemAllocPitch(CUdeviceptr_v1 *p, unsigned int *pitch, unsigned int width, unsigned int height, unsigned int element); /* pass, driver_hooks_v1.c */
CM_EXPORT CUresult cuMemAllocHost(void **p, unsigned int n); /* serve, driver_hooks_v1.c */
CM_EXPORT CUresult cuMemFree(CUdeviceptr_v1 p); /* free, driver_hooks_v1.c */
CM_EXPORT CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total); /* watch, driver_hooks_v1.c */
CM_EXPORT CUresult cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size, CUdeviceptr_v1 p); /* query, driver_hooks_v1.c */
CM_EXPORT CUresult cuIpcOpenMemHandle(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags); /* serve, driver_hooks_v1.c */
CM_EXPORT CUresult cuStreamDestroy(CUstream s); /* watch, driver_hooks_v1.c */
CM_EXPORT CUresult cuStreamBeginCapture(CUstream s); /* watch, driver_hooks_v1.c */
CM_EXPORT CUresult cuStreamBeginCapture_ptsz(CUstream s); /* watch, driver_hooks_v1.c */
CM_EXPORT CUresult cuCtxDestroy(CUcontext ctx); /* watch, driver_hooks_v1.c */
CM_EXPORT void *dlsym(void *handle, const char *name); /* lookup, lookup.c */
CM_EXPORT CUresult cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags); /* lookup, lookup.c */
CM_EXPORT CUresult cuGetProcAddress_v2(const char *sym, void **fn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *status); /* lookup, lookup.c */
/* The submission wrappers (submit_hooks.c). */
CM_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CM_EXPORT CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CM_EXPORT CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags);
CM_EXPORT CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream);
CM_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);
CM_EXPORT CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);
CM_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
CM_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream);
CM_EXPORT CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream);
CM_EXPORT CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream);
CM_EXPORT CUresult cuGraphicsMapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
CM_EXPORT CUresult cuGraphicsMapResources_ptsz(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
CM_EXPORT CUresult cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
CM_EXPORT CUresult cuGraphicsUnmapResources_ptsz(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
CM_EXPORT CUresult cuLaunch(CUfunction f);
CM_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams);
CM_EXPORT CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices, unsigned int flags);
CM_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams);
CM_EXPORT CUresult cuLaunchGrid(CUfunction f, int grid_width, int grid_height);
CM_EXPORT CUresult cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream);
CM_EXPORT CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CM_EXPORT CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData);
CM_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
CM_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
CM_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
CM_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
CM_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream);
CM_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream);
CM_EXPORT CUresult cuMemBatchDecompressAsync(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream);
CM_EXPORT CUresult cuMemBatchDecompressAsync_ptsz(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream);
CM_EXPORT CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream);
CM_EXPORT CUresult cuMemMapArrayAsync_ptsz(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream);
CM_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
CM_EXPORT CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
CM_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream);
CM_EXPORT CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream);
CM_EXPORT CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CM_EXPORT CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy);
CM_EXPORT CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy);
CM_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy);
CM_EXPORT CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CM_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy);
CM_EXPORT CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy);
CM_EXPORT CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *pCopy);
CM_EXPORT CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DBatchAsync_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy);
CM_EXPORT CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
CM_EXPORT CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy);
CM_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy);
CM_EXPORT CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy);
CM_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyAtoD(CUdeviceptr_v1 dstDevice, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream);
CM_EXPORT CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream);
CM_EXPORT CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream);
CM_EXPORT CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoA(CUarray dstArray, unsigned int dstOffset, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyDtoD(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount);
CM_EXPORT CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
CM_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
CM_EXPORT CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
CM_EXPORT CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CM_EXPORT CUresult cuMemsetD16(CUdeviceptr_v1 dstDevice, unsigned short us, unsigned int N);
CM_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
CM_EXPORT CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
CM_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N);
CM_EXPORT CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N);
CM_EXPORT CUresult cuMemsetD2D16(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned short us, unsigned int Width, unsigned int Height);
CM_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
CM_EXPORT CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
CM_EXPORT CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
CM_EXPORT CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
CM_EXPORT CUresult cuMemsetD2D32(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned int ui, unsigned int Width, unsigned int Height);
CM_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);
CM_EXPORT CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);
CM_EXPORT CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
CM_EXPORT CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
CM_EXPORT CUresult cuMemsetD2D8(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned char uc, unsigned int Width, unsigned int Height);
CM_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
CM_EXPORT CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
CM_EXPORT CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
CM_EXPORT CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
CM_EXPORT CUresult cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui, unsigned int N);
CM_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
CM_EXPORT CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
CM_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CM_EXPORT CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CM_EXPORT CUresult cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc, unsigned int N);
CM_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CM_EXPORT CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
CM_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CM_EXPORT CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CM_EXPORT CUresult cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
CM_EXPORT CUresult cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
CM_EXPORT CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
CM_EXPORT CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
CM_EXPORT CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags);
CM_EXPORT CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags);
CM_EXPORT CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
CM_EXPORT CUresult cuStreamBatchMemOp_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
CM_EXPORT CUresult cuStreamBatchMemOp_v2(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
CM_EXPORT CUresult cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CM_EXPORT CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags);
CM_EXPORT CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWaitValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuStreamWriteValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
CM_EXPORT CUresult cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
CM_EXPORT CUresult cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);

/* ---- the real functions: one store ---- */
typedef struct cm_real_fns {
	cudaError_t (*cudaMalloc)(void **p, size_t n);
	cudaError_t (*cudaFree)(void *p);
	cudaError_t (*cudaMallocAsync)(void **p, size_t n, cudaStream_t s);
	cudaError_t (*cudaMallocAsync_ptsz)(void **p, size_t n, cudaStream_t s);
	cudaError_t (*cudaFreeAsync)(void *p, cudaStream_t s);
	cudaError_t (*cudaFreeAsync_ptsz)(void *p, cudaStream_t s);
	cudaError_t (*cudaDeviceReset)(void);
	cudaError_t (*cudaStreamSynchronize)(cudaStream_t s);
	cudaError_t (*cudaStreamSynchronize_ptsz)(cudaStream_t s);
	cudaError_t (*cudaDeviceSynchronize)(void);
	cudaError_t (*cudaMallocPitch)(void **p, size_t *pitch, size_t width, size_t height);
	cudaError_t (*cudaMalloc3D)(struct cudaPitchedPtr *pp, struct cudaExtent e);
	cudaError_t (*cudaMallocHost)(void **p, size_t n);
	cudaError_t (*cudaHostAlloc)(void **p, size_t n, unsigned int flags);
	cudaError_t (*cudaHostGetFlags)(unsigned int *flags, void *p);
	cudaError_t (*cudaFreeHost)(void *p);
	cudaError_t (*cudaGetLastError)(void);
	cudaError_t (*cudaGetDevice)(int *dev);
	CUresult (*cuMemAlloc_v2)(CUdeviceptr *p, size_t n);
	CUresult (*cuMemFree_v2)(CUdeviceptr p);
	CUresult (*cuMemAllocAsync)(CUdeviceptr *p, size_t n, CUstream s);
	CUresult (*cuMemAllocAsync_ptsz)(CUdeviceptr *p, size_t n, CUstream s);
	CUresult (*cuMemFreeAsync)(CUdeviceptr p, CUstream s);
	CUresult (*cuMemFreeAsync_ptsz)(CUdeviceptr p, CUstream s);
	CUresult (*cuMemAllocPitch_v2)(CUdeviceptr *p, size_t *pitch, size_t width, size_t height, unsigned int element);
	CUresult (*cuMemAllocHost_v2)(void **p, size_t n);
	CUresult (*cuMemHostAlloc)(void **p, size_t n, unsigned int flags);
	CUresult (*cuMemFreeHost)(void *p);
	CUresult (*cuStreamSynchronize)(CUstream s);
	CUresult (*cuStreamSynchronize_ptsz)(CUstream s);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuCtxSynchronize_v2)(CUcontext ctx);
	CUresult (*cuStreamCreate)(CUstream *s, unsigned int flags);
	CUresult (*cuStreamCreateWithPriority)(CUstream *s, unsigned int flags, int priority);
	CUresult (*cuStreamDestroy_v2)(CUstream s);
	CUresult (*cuStreamBeginCapture_v2)(CUstream s, CUstreamCaptureMode mode);
	CUresult (*cuStreamBeginCapture_v2_ptsz)(CUstream s, CUstreamCaptureMode mode);
	CUresult (*cuStreamBeginCaptureToGraph)(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode);
	CUresult (*cuStreamBeginCaptureToGraph_ptsz)(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode);
	CUresult (*cuStreamEndCapture)(CUstream s, CUgraph *g);
	CUresult (*cuStreamEndCapture_ptsz)(CUstream s, CUgraph *g);
	CUresult (*cuGraphClone)(CUgraph *g, CUgraph original);
	CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *x, CUgraph g, unsigned long long flags);
	CUresult (*cuGraphDestroy)(CUgraph g);
	CUresult (*cuGraphExecDestroy)(CUgraphExec x);
	CUresult (*cuCtxDestroy_v2)(CUcontext ctx);
	CUresult (*cuDevicePrimaryCtxReset_v2)(CUdevice dev);
	CUresult (*cuDevicePrimaryCtxReset)(CUdevice dev);
	CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice dev);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
	CUresult (*cuCtxSetCurrent)(CUcontext ctx);
	CUresult (*cuCtxPushCurrent)(CUcontext ctx);
	CUresult (*cuCtxPushCurrent_v2)(CUcontext ctx);
	CUresult (*cuCtxPopCurrent)(CUcontext *ctx);
	CUresult (*cuCtxPopCurrent_v2)(CUcontext *ctx);
	CUresult (*cuCtxCreate)(CUcontext *ctx, unsigned int flags, CUdevice dev);
	CUresult (*cuCtxCreate_v2)(CUcontext *ctx, unsigned int flags, CUdevice dev);
	CUresult (*cuCtxCreate_v3)(CUcontext *ctx, CUexecAffinityParam *params, int n, unsigned int flags, CUdevice dev);
	CUresult (*cuCtxCreate_v4)(CUcontext *ctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev);
	CUresult (*cuCtxDetach)(CUcontext ctx);
	CUresult (*cuMemGetInfo_v2)(size_t *free_bytes, size_t *total);
	CUresult (*cuMemPoolGetAttribute)(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
	CUresult (*cuMemPoolSetAttribute)(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
	CUresult (*cuMemPoolTrimTo)(CUmemoryPool pool, size_t keep);
	CUresult (*cuMemGetAddressRange_v2)(CUdeviceptr *base, size_t *size, CUdeviceptr p);
	CUresult (*cuPointerGetAttribute)(void *data, CUpointer_attribute attr, CUdeviceptr p);
	CUresult (*cuPointerGetAttributes)(unsigned int n, CUpointer_attribute *attrs, void **data, CUdeviceptr p);
	CUresult (*cuIpcGetMemHandle)(CUipcMemHandle *handle, CUdeviceptr p);
	CUresult (*cuIpcOpenMemHandle_v2)(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags);
	CUresult (*cuIpcCloseMemHandle)(CUdeviceptr p);
	CUresult (*cuMemAlloc)(CUdeviceptr_v1 *p, unsigned int n);
	CUresult (*cuMemAllocPitch)(CUdeviceptr_v1 *p, unsigned int *pitch, unsigned int width, unsigned int height, unsigned int element);
	CUresult (*cuMemAllocHost)(void **p, unsigned int n);
	CUresult (*cuMemFree)(CUdeviceptr_v1 p);
	CUresult (*cuMemGetInfo)(unsigned int *free_bytes, unsigned int *total);
	CUresult (*cuMemGetAddressRange)(CUdeviceptr_v1 *base, unsigned int *size, CUdeviceptr_v1 p);
	CUresult (*cuIpcOpenMemHandle)(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags);
	CUresult (*cuStreamDestroy)(CUstream s);
	CUresult (*cuStreamBeginCapture)(CUstream s);
	CUresult (*cuStreamBeginCapture_ptsz)(CUstream s);
	CUresult (*cuCtxDestroy)(CUcontext ctx);
	CUresult (*cuGetProcAddress)(const char *sym, void **fn, int ver, cuuint64_t flags);
	CUresult (*cuGetProcAddress_v2)(const char *sym, void **fn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *status);
	CUresult (*cuDeviceGetCount)(int *n);
	CUresult (*cuDeviceGetUuid_v2)(CUuuid *uuid, CUdevice dev);
	CUresult (*cuDeviceCanAccessPeer)(int *can, CUdevice dev, CUdevice peer);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
	CUresult (*cuDevicePrimaryCtxGetState)(CUdevice dev, unsigned int *flags, int *active);
	CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *pool, CUdevice dev);
	CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
	CUresult (*cuCtxGetDevice)(CUdevice *dev);
	CUresult (*cuEventCreate)(CUevent *ev, unsigned int flags);
	CUresult (*cuEventDestroy_v2)(CUevent ev);
	CUresult (*cuEventQuery)(CUevent ev);
	CUresult (*cuEventSynchronize)(CUevent ev);
	CUresult (*cuStreamGetFlags)(CUstream s, unsigned int *flags);
	CUresult (*cuStreamGetCtx)(CUstream s, CUcontext *ctx);
	CUresult (*cuStreamQuery)(CUstream s);
	CUresult (*cuStreamIsCapturing)(CUstream s, CUstreamCaptureStatus *status);
	CUresult (*cuThreadExchangeStreamCaptureMode)(CUstreamCaptureMode *mode);
	CUresult (*cuMemAddressReserve)(CUdeviceptr *p, size_t size, size_t align, CUdeviceptr addr, unsigned long long flags);
	CUresult (*cuMemAddressFree)(CUdeviceptr p, size_t size);
	CUresult (*cuMemCreate)(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop, unsigned long long flags);
	CUresult (*cuMemRelease)(CUmemGenericAllocationHandle handle);
	CUresult (*cuMemMap)(CUdeviceptr p, size_t size, size_t offset, CUmemGenericAllocationHandle handle, unsigned long long flags);
	CUresult (*cuMemUnmap)(CUdeviceptr p, size_t size);
	CUresult (*cuMemSetAccess)(CUdeviceptr p, size_t size, const CUmemAccessDesc *desc, size_t count);
	CUresult (*cuMemGetAllocationGranularity)(size_t *granularity, const CUmemAllocationProp *prop, CUmemAllocationGranularity_flags option);
	CUresult (*cuMemHostRegister_v2)(void *p, size_t n, unsigned int flags);
	CUresult (*cuMemHostUnregister)(void *p);
	CUresult (*cuEventRecord)(CUevent hEvent, CUstream hStream);
	CUresult (*cuEventRecordWithFlags)(CUevent hEvent, CUstream hStream, unsigned int flags);
	CUresult (*cuEventRecordWithFlags_ptsz)(CUevent hEvent, CUstream hStream, unsigned int flags);
	CUresult (*cuEventRecord_ptsz)(CUevent hEvent, CUstream hStream);
	CUresult (*cuGraphInstantiateWithParams)(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);
	CUresult (*cuGraphInstantiateWithParams_ptsz)(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams);
	CUresult (*cuGraphLaunch)(CUgraphExec hGraphExec, CUstream hStream);
	CUresult (*cuGraphLaunch_ptsz)(CUgraphExec hGraphExec, CUstream hStream);
	CUresult (*cuGraphUpload)(CUgraphExec hGraphExec, CUstream hStream);
	CUresult (*cuGraphUpload_ptsz)(CUgraphExec hGraphExec, CUstream hStream);
	CUresult (*cuGraphicsMapResources)(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
	CUresult (*cuGraphicsMapResources_ptsz)(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
	CUresult (*cuGraphicsUnmapResources)(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
	CUresult (*cuGraphicsUnmapResources_ptsz)(unsigned int count, CUgraphicsResource *resources, CUstream hStream);
	CUresult (*cuLaunch)(CUfunction f);
	CUresult (*cuLaunchCooperativeKernel)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams);
	CUresult (*cuLaunchCooperativeKernelMultiDevice)(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices, unsigned int flags);
	CUresult (*cuLaunchCooperativeKernel_ptsz)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams);
	CUresult (*cuLaunchGrid)(CUfunction f, int grid_width, int grid_height);
	CUresult (*cuLaunchGridAsync)(CUfunction f, int grid_width, int grid_height, CUstream hStream);
	CUresult (*cuLaunchHostFunc)(CUstream hStream, CUhostFn fn, void *userData);
	CUresult (*cuLaunchHostFunc_ptsz)(CUstream hStream, CUhostFn fn, void *userData);
	CUresult (*cuLaunchKernel)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
	CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
	CUresult (*cuLaunchKernelEx_ptsz)(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra);
	CUresult (*cuLaunchKernel_ptsz)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra);
	CUresult (*cuMemAllocFromPoolAsync)(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream);
	CUresult (*cuMemAllocFromPoolAsync_ptsz)(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream);
	CUresult (*cuMemBatchDecompressAsync)(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream);
	CUresult (*cuMemBatchDecompressAsync_ptsz)(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream);
	CUresult (*cuMemDiscardAndPrefetchBatchAsync)(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemDiscardAndPrefetchBatchAsync_ptsz)(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemDiscardBatchAsync)(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemDiscardBatchAsync_ptsz)(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemMapArrayAsync)(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream);
	CUresult (*cuMemMapArrayAsync_ptsz)(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream);
	CUresult (*cuMemPrefetchAsync)(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
	CUresult (*cuMemPrefetchAsync_ptsz)(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
	CUresult (*cuMemPrefetchAsync_v2)(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream);
	CUresult (*cuMemPrefetchAsync_v2_ptsz)(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream);
	CUresult (*cuMemPrefetchBatchAsync)(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemPrefetchBatchAsync_ptsz)(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemcpy)(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
	CUresult (*cuMemcpy2D)(const CUDA_MEMCPY2D_v1 *pCopy);
	CUresult (*cuMemcpy2DAsync)(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream);
	CUresult (*cuMemcpy2DAsync_v2)(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
	CUresult (*cuMemcpy2DAsync_v2_ptsz)(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
	CUresult (*cuMemcpy2DUnaligned)(const CUDA_MEMCPY2D_v1 *pCopy);
	CUresult (*cuMemcpy2DUnaligned_v2)(const CUDA_MEMCPY2D *pCopy);
	CUresult (*cuMemcpy2DUnaligned_v2_ptds)(const CUDA_MEMCPY2D *pCopy);
	CUresult (*cuMemcpy2D_v2)(const CUDA_MEMCPY2D *pCopy);
	CUresult (*cuMemcpy2D_v2_ptds)(const CUDA_MEMCPY2D *pCopy);
	CUresult (*cuMemcpy3D)(const CUDA_MEMCPY3D_v1 *pCopy);
	CUresult (*cuMemcpy3DAsync)(const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream);
	CUresult (*cuMemcpy3DAsync_v2)(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
	CUresult (*cuMemcpy3DAsync_v2_ptsz)(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
	CUresult (*cuMemcpy3DBatchAsync)(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemcpy3DBatchAsync_ptsz)(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemcpy3DBatchAsync_v2)(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemcpy3DBatchAsync_v2_ptsz)(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream);
	CUresult (*cuMemcpy3DPeer)(const CUDA_MEMCPY3D_PEER *pCopy);
	CUresult (*cuMemcpy3DPeerAsync)(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
	CUresult (*cuMemcpy3DPeerAsync_ptsz)(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream);
	CUresult (*cuMemcpy3DPeer_ptds)(const CUDA_MEMCPY3D_PEER *pCopy);
	CUresult (*cuMemcpy3D_v2)(const CUDA_MEMCPY3D *pCopy);
	CUresult (*cuMemcpy3D_v2_ptds)(const CUDA_MEMCPY3D *pCopy);
	CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyAsync_ptsz)(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyAtoA)(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
	CUresult (*cuMemcpyAtoA_v2)(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*cuMemcpyAtoA_v2_ptds)(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*cuMemcpyAtoD)(CUdeviceptr_v1 dstDevice, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
	CUresult (*cuMemcpyAtoD_v2)(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*cuMemcpyAtoD_v2_ptds)(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*cuMemcpyAtoH)(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount);
	CUresult (*cuMemcpyAtoHAsync)(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount, CUstream hStream);
	CUresult (*cuMemcpyAtoHAsync_v2)(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyAtoHAsync_v2_ptsz)(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyAtoH_v2)(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*cuMemcpyAtoH_v2_ptds)(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
	CUresult (*cuMemcpyBatchAsync)(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream);
	CUresult (*cuMemcpyBatchAsync_ptsz)(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream);
	CUresult (*cuMemcpyBatchAsync_v2)(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream);
	CUresult (*cuMemcpyBatchAsync_v2_ptsz)(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream);
	CUresult (*cuMemcpyDtoA)(CUarray dstArray, unsigned int dstOffset, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
	CUresult (*cuMemcpyDtoA_v2)(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*cuMemcpyDtoA_v2_ptds)(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*cuMemcpyDtoD)(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
	CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream);
	CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyDtoDAsync_v2_ptsz)(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyDtoD_v2)(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*cuMemcpyDtoD_v2_ptds)(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*cuMemcpyDtoH)(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
	CUresult (*cuMemcpyDtoHAsync)(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream);
	CUresult (*cuMemcpyDtoHAsync_v2)(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyDtoHAsync_v2_ptsz)(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyDtoH_v2)(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*cuMemcpyDtoH_v2_ptds)(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
	CUresult (*cuMemcpyHtoA)(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount);
	CUresult (*cuMemcpyHtoAAsync)(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount, CUstream hStream);
	CUresult (*cuMemcpyHtoAAsync_v2)(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyHtoAAsync_v2_ptsz)(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyHtoA_v2)(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
	CUresult (*cuMemcpyHtoA_v2_ptds)(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount);
	CUresult (*cuMemcpyHtoD)(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount);
	CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount, CUstream hStream);
	CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyHtoDAsync_v2_ptsz)(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
	CUresult (*cuMemcpyHtoD_v2_ptds)(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
	CUresult (*cuMemcpyPeer)(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
	CUresult (*cuMemcpyPeerAsync)(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyPeerAsync_ptsz)(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream);
	CUresult (*cuMemcpyPeer_ptds)(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount);
	CUresult (*cuMemcpy_ptds)(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
	CUresult (*cuMemsetD16)(CUdeviceptr_v1 dstDevice, unsigned short us, unsigned int N);
	CUresult (*cuMemsetD16Async)(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
	CUresult (*cuMemsetD16Async_ptsz)(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
	CUresult (*cuMemsetD16_v2)(CUdeviceptr dstDevice, unsigned short us, size_t N);
	CUresult (*cuMemsetD16_v2_ptds)(CUdeviceptr dstDevice, unsigned short us, size_t N);
	CUresult (*cuMemsetD2D16)(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned short us, unsigned int Width, unsigned int Height);
	CUresult (*cuMemsetD2D16Async)(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
	CUresult (*cuMemsetD2D16Async_ptsz)(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream);
	CUresult (*cuMemsetD2D16_v2)(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
	CUresult (*cuMemsetD2D16_v2_ptds)(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height);
	CUresult (*cuMemsetD2D32)(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned int ui, unsigned int Width, unsigned int Height);
	CUresult (*cuMemsetD2D32Async)(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);
	CUresult (*cuMemsetD2D32Async_ptsz)(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream);
	CUresult (*cuMemsetD2D32_v2)(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
	CUresult (*cuMemsetD2D32_v2_ptds)(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height);
	CUresult (*cuMemsetD2D8)(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned char uc, unsigned int Width, unsigned int Height);
	CUresult (*cuMemsetD2D8Async)(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
	CUresult (*cuMemsetD2D8Async_ptsz)(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream);
	CUresult (*cuMemsetD2D8_v2)(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
	CUresult (*cuMemsetD2D8_v2_ptds)(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height);
	CUresult (*cuMemsetD32)(CUdeviceptr_v1 dstDevice, unsigned int ui, unsigned int N);
	CUresult (*cuMemsetD32Async)(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
	CUresult (*cuMemsetD32Async_ptsz)(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
	CUresult (*cuMemsetD32_v2)(CUdeviceptr dstDevice, unsigned int ui, size_t N);
	CUresult (*cuMemsetD32_v2_ptds)(CUdeviceptr dstDevice, unsigned int ui, size_t N);
	CUresult (*cuMemsetD8)(CUdeviceptr_v1 dstDevice, unsigned char uc, unsigned int N);
	CUresult (*cuMemsetD8Async)(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
	CUresult (*cuMemsetD8Async_ptsz)(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
	CUresult (*cuMemsetD8_v2)(CUdeviceptr dstDevice, unsigned char uc, size_t N);
	CUresult (*cuMemsetD8_v2_ptds)(CUdeviceptr dstDevice, unsigned char uc, size_t N);
	CUresult (*cuSignalExternalSemaphoresAsync)(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
	CUresult (*cuSignalExternalSemaphoresAsync_ptsz)(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
	CUresult (*cuStreamAddCallback)(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
	CUresult (*cuStreamAddCallback_ptsz)(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags);
	CUresult (*cuStreamAttachMemAsync)(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags);
	CUresult (*cuStreamAttachMemAsync_ptsz)(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags);
	CUresult (*cuStreamBatchMemOp)(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
	CUresult (*cuStreamBatchMemOp_ptsz)(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
	CUresult (*cuStreamBatchMemOp_v2)(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
	CUresult (*cuStreamBatchMemOp_v2_ptsz)(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags);
	CUresult (*cuStreamWaitEvent)(CUstream hStream, CUevent hEvent, unsigned int Flags);
	CUresult (*cuStreamWaitEvent_ptsz)(CUstream hStream, CUevent hEvent, unsigned int Flags);
	CUresult (*cuStreamWaitValue32)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue32_ptsz)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue32_v2)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue32_v2_ptsz)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue64)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue64_ptsz)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue64_v2)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWaitValue64_v2_ptsz)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue32)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue32_ptsz)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue32_v2)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue32_v2_ptsz)(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue64)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue64_ptsz)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue64_v2)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuStreamWriteValue64_v2_ptsz)(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags);
	CUresult (*cuWaitExternalSemaphoresAsync)(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
	CUresult (*cuWaitExternalSemaphoresAsync_ptsz)(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream);
} cm_real_fns;
extern cm_real_fns cm_real;

/* The store's slots by name, for real.c: the runtime's and the driver's. */
typedef struct cm_real_slot {
	const char *name;
	void **slot;
} cm_real_slot;
extern const cm_real_slot cm_real_runtime_slots[];
extern const size_t cm_real_runtime_count;
extern const cm_real_slot cm_real_driver_slots[];
extern const size_t cm_real_driver_count;

/* ---- the hand rows' real calls: the runtime's under the re-entry guard ---- */

static inline cudaError_t cm_real_cudaMalloc(void **p, size_t n)
{
	if (!cm_real_resolve() || !cm_real.cudaMalloc)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaMalloc(p, n);
	cm_in_cuda--;
	return r;
}

/* Without the guard: the runtime's driver call reaches the cache. */
static inline cudaError_t cm_real_cudaMalloc_unguarded(void **p, size_t n)
{
	if (!cm_real_resolve() || !cm_real.cudaMalloc)
		return cudaErrorNotSupported;
	return cm_real.cudaMalloc(p, n);
}

static inline cudaError_t cm_real_cudaFree(void *p)
{
	if (!cm_real_resolve() || !cm_real.cudaFree)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaFree(p);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaMallocAsync)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaMallocAsync(p, n, s);
	cm_in_cuda--;
	return r;
}

/* Without the guard: the runtime's driver call reaches the cache. */
static inline cudaError_t cm_real_cudaMallocAsync_unguarded(void **p, size_t n, cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaMallocAsync)
		return cudaErrorNotSupported;
	return cm_real.cudaMallocAsync(p, n, s);
}

static inline cudaError_t cm_real_cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaMallocAsync_ptsz)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaMallocAsync_ptsz(p, n, s);
	cm_in_cuda--;
	return r;
}

/* Without the guard: the runtime's driver call reaches the cache. */
static inline cudaError_t cm_real_cudaMallocAsync_ptsz_unguarded(void **p, size_t n, cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaMallocAsync_ptsz)
		return cudaErrorNotSupported;
	return cm_real.cudaMallocAsync_ptsz(p, n, s);
}

static inline cudaError_t cm_real_cudaFreeAsync(void *p, cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaFreeAsync)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaFreeAsync(p, s);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaFreeAsync_ptsz)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaFreeAsync_ptsz(p, s);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaDeviceReset(void)
{
	if (!cm_real_resolve() || !cm_real.cudaDeviceReset)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaDeviceReset();
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaStreamSynchronize(cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaStreamSynchronize)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaStreamSynchronize(s);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaStreamSynchronize_ptsz(cudaStream_t s)
{
	if (!cm_real_resolve() || !cm_real.cudaStreamSynchronize_ptsz)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaStreamSynchronize_ptsz(s);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaDeviceSynchronize(void)
{
	if (!cm_real_resolve() || !cm_real.cudaDeviceSynchronize)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaDeviceSynchronize();
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
	if (!cm_real_resolve() || !cm_real.cudaMallocPitch)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaMallocPitch(p, pitch, width, height);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e)
{
	if (!cm_real_resolve() || !cm_real.cudaMalloc3D)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaMalloc3D(pp, e);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaMallocHost(void **p, size_t n)
{
	if (!cm_real_resolve() || !cm_real.cudaMallocHost)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaMallocHost(p, n);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
	if (!cm_real_resolve() || !cm_real.cudaHostAlloc)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaHostAlloc(p, n, flags);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaHostGetFlags(unsigned int *flags, void *p)
{
	if (!cm_real_resolve() || !cm_real.cudaHostGetFlags)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaHostGetFlags(flags, p);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaFreeHost(void *p)
{
	if (!cm_real_resolve() || !cm_real.cudaFreeHost)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaFreeHost(p);
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaGetLastError(void)
{
	if (!cm_real_resolve() || !cm_real.cudaGetLastError)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaGetLastError();
	cm_in_cuda--;
	return r;
}

static inline cudaError_t cm_real_cudaGetDevice(int *dev)
{
	if (!cm_real_resolve() || !cm_real.cudaGetDevice)
		return cudaErrorNotSupported;
	cm_in_cuda++;
	cudaError_t r = cm_real.cudaGetDevice(dev);
	cm_in_cuda--;
	return r;
}

static inline CUresult cm_real_cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	return cm_drv_resolve() && cm_real.cuMemAlloc_v2 ? cm_real.cuMemAlloc_v2(p, n) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemFree_v2(CUdeviceptr p)
{
	return cm_drv_resolve() && cm_real.cuMemFree_v2 ? cm_real.cuMemFree_v2(p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s)
{
	return cm_drv_resolve() && cm_real.cuMemAllocAsync ? cm_real.cuMemAllocAsync(p, n, s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s)
{
	return cm_drv_resolve() && cm_real.cuMemAllocAsync_ptsz ? cm_real.cuMemAllocAsync_ptsz(p, n, s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
	return cm_drv_resolve() && cm_real.cuMemFreeAsync ? cm_real.cuMemFreeAsync(p, s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s)
{
	return cm_drv_resolve() && cm_real.cuMemFreeAsync_ptsz ? cm_real.cuMemFreeAsync_ptsz(p, s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t width, size_t height, unsigned int element)
{
	return cm_drv_resolve() && cm_real.cuMemAllocPitch_v2 ? cm_real.cuMemAllocPitch_v2(p, pitch, width, height, element) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAllocHost_v2(void **p, size_t n)
{
	return cm_drv_resolve() && cm_real.cuMemAllocHost_v2 ? cm_real.cuMemAllocHost_v2(p, n) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemHostAlloc(void **p, size_t n, unsigned int flags)
{
	return cm_drv_resolve() && cm_real.cuMemHostAlloc ? cm_real.cuMemHostAlloc(p, n, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemFreeHost(void *p)
{
	return cm_drv_resolve() && cm_real.cuMemFreeHost ? cm_real.cuMemFreeHost(p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamSynchronize(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamSynchronize ? cm_real.cuStreamSynchronize(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamSynchronize_ptsz(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamSynchronize_ptsz ? cm_real.cuStreamSynchronize_ptsz(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxSynchronize(void)
{
	return cm_drv_resolve() && cm_real.cuCtxSynchronize ? cm_real.cuCtxSynchronize() : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxSynchronize_v2(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxSynchronize_v2 ? cm_real.cuCtxSynchronize_v2(ctx) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamCreate(CUstream *s, unsigned int flags)
{
	return cm_drv_resolve() && cm_real.cuStreamCreate ? cm_real.cuStreamCreate(s, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamCreateWithPriority(CUstream *s, unsigned int flags, int priority)
{
	return cm_drv_resolve() && cm_real.cuStreamCreateWithPriority ? cm_real.cuStreamCreateWithPriority(s, flags, priority) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamDestroy_v2(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamDestroy_v2 ? cm_real.cuStreamDestroy_v2(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode)
{
	return cm_drv_resolve() && cm_real.cuStreamBeginCapture_v2 ? cm_real.cuStreamBeginCapture_v2(s, mode) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode mode)
{
	return cm_drv_resolve() && cm_real.cuStreamBeginCapture_v2_ptsz ? cm_real.cuStreamBeginCapture_v2_ptsz(s, mode) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode)
{
	return cm_drv_resolve() && cm_real.cuStreamBeginCaptureToGraph ? cm_real.cuStreamBeginCaptureToGraph(s, g, deps, edges, n, mode) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamBeginCaptureToGraph_ptsz(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, CUstreamCaptureMode mode)
{
	return cm_drv_resolve() && cm_real.cuStreamBeginCaptureToGraph_ptsz ? cm_real.cuStreamBeginCaptureToGraph_ptsz(s, g, deps, edges, n, mode) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamEndCapture(CUstream s, CUgraph *g)
{
	return cm_drv_resolve() && cm_real.cuStreamEndCapture ? cm_real.cuStreamEndCapture(s, g) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamEndCapture_ptsz(CUstream s, CUgraph *g)
{
	return cm_drv_resolve() && cm_real.cuStreamEndCapture_ptsz ? cm_real.cuStreamEndCapture_ptsz(s, g) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuGraphClone(CUgraph *g, CUgraph original)
{
	return cm_drv_resolve() && cm_real.cuGraphClone ? cm_real.cuGraphClone(g, original) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags)
{
	return cm_drv_resolve() && cm_real.cuGraphInstantiateWithFlags ? cm_real.cuGraphInstantiateWithFlags(x, g, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuGraphDestroy(CUgraph g)
{
	return cm_drv_resolve() && cm_real.cuGraphDestroy ? cm_real.cuGraphDestroy(g) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuGraphExecDestroy(CUgraphExec x)
{
	return cm_drv_resolve() && cm_real.cuGraphExecDestroy ? cm_real.cuGraphExecDestroy(x) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxDestroy_v2(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxDestroy_v2 ? cm_real.cuCtxDestroy_v2(ctx) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDevicePrimaryCtxReset_v2 ? cm_real.cuDevicePrimaryCtxReset_v2(dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDevicePrimaryCtxReset(CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDevicePrimaryCtxReset ? cm_real.cuDevicePrimaryCtxReset(dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDevicePrimaryCtxRelease_v2 ? cm_real.cuDevicePrimaryCtxRelease_v2(dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDevicePrimaryCtxRelease ? cm_real.cuDevicePrimaryCtxRelease(dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxSetCurrent(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxSetCurrent ? cm_real.cuCtxSetCurrent(ctx) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxPushCurrent(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxPushCurrent ? cm_real.cuCtxPushCurrent(ctx) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxPushCurrent_v2(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxPushCurrent_v2 ? cm_real.cuCtxPushCurrent_v2(ctx) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxPopCurrent(CUcontext *ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxPopCurrent ? cm_real.cuCtxPopCurrent(ctx) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxPopCurrent_v2(CUcontext *ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxPopCurrent_v2 ? cm_real.cuCtxPopCurrent_v2(ctx) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuCtxCreate ? cm_real.cuCtxCreate(ctx, flags, dev) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxCreate_v2(CUcontext *ctx, unsigned int flags, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuCtxCreate_v2 ? cm_real.cuCtxCreate_v2(ctx, flags, dev) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxCreate_v3(CUcontext *ctx, CUexecAffinityParam *params, int n, unsigned int flags, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuCtxCreate_v3 ? cm_real.cuCtxCreate_v3(ctx, params, n, flags, dev) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxCreate_v4(CUcontext *ctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuCtxCreate_v4 ? cm_real.cuCtxCreate_v4(ctx, params, flags, dev) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuCtxDetach(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxDetach ? cm_real.cuCtxDetach(ctx) : CUDA_ERROR_NOT_FOUND;
}

static inline CUresult cm_real_cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	return cm_drv_resolve() && cm_real.cuMemGetInfo_v2 ? cm_real.cuMemGetInfo_v2(free_bytes, total) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	return cm_drv_resolve() && cm_real.cuMemPoolGetAttribute ? cm_real.cuMemPoolGetAttribute(pool, attr, value) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	return cm_drv_resolve() && cm_real.cuMemPoolSetAttribute ? cm_real.cuMemPoolSetAttribute(pool, attr, value) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
	return cm_drv_resolve() && cm_real.cuMemPoolTrimTo ? cm_real.cuMemPoolTrimTo(pool, keep) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
	return cm_drv_resolve() && cm_real.cuMemGetAddressRange_v2 ? cm_real.cuMemGetAddressRange_v2(base, size, p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuPointerGetAttribute(void *data, CUpointer_attribute attr, CUdeviceptr p)
{
	return cm_drv_resolve() && cm_real.cuPointerGetAttribute ? cm_real.cuPointerGetAttribute(data, attr, p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data, CUdeviceptr p)
{
	return cm_drv_resolve() && cm_real.cuPointerGetAttributes ? cm_real.cuPointerGetAttributes(n, attrs, data, p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr p)
{
	return cm_drv_resolve() && cm_real.cuIpcGetMemHandle ? cm_real.cuIpcGetMemHandle(handle, p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuIpcOpenMemHandle_v2(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags)
{
	return cm_drv_resolve() && cm_real.cuIpcOpenMemHandle_v2 ? cm_real.cuIpcOpenMemHandle_v2(p, handle, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuIpcCloseMemHandle(CUdeviceptr p)
{
	return cm_drv_resolve() && cm_real.cuIpcCloseMemHandle ? cm_real.cuIpcCloseMemHandle(p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAlloc(CUdeviceptr_v1 *p, unsigned int n)
{
	return cm_drv_resolve() && cm_real.cuMemAlloc ? cm_real.cuMemAlloc(p, n) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAllocPitch(CUdeviceptr_v1 *p, unsigned int *pitch, unsigned int width, unsigned int height, unsigned int element)
{
	return cm_drv_resolve() && cm_real.cuMemAllocPitch ? cm_real.cuMemAllocPitch(p, pitch, width, height, element) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAllocHost(void **p, unsigned int n)
{
	return cm_drv_resolve() && cm_real.cuMemAllocHost ? cm_real.cuMemAllocHost(p, n) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemFree(CUdeviceptr_v1 p)
{
	return cm_drv_resolve() && cm_real.cuMemFree ? cm_real.cuMemFree(p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemGetInfo(unsigned int *free_bytes, unsigned int *total)
{
	return cm_drv_resolve() && cm_real.cuMemGetInfo ? cm_real.cuMemGetInfo(free_bytes, total) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size, CUdeviceptr_v1 p)
{
	return cm_drv_resolve() && cm_real.cuMemGetAddressRange ? cm_real.cuMemGetAddressRange(base, size, p) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuIpcOpenMemHandle(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags)
{
	return cm_drv_resolve() && cm_real.cuIpcOpenMemHandle ? cm_real.cuIpcOpenMemHandle(p, handle, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamDestroy(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamDestroy ? cm_real.cuStreamDestroy(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamBeginCapture(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamBeginCapture ? cm_real.cuStreamBeginCapture(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamBeginCapture_ptsz(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamBeginCapture_ptsz ? cm_real.cuStreamBeginCapture_ptsz(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxDestroy(CUcontext ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxDestroy ? cm_real.cuCtxDestroy(ctx) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags)
{
	return cm_drv_resolve() && cm_real.cuGetProcAddress ? cm_real.cuGetProcAddress(sym, fn, ver, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuGetProcAddress_v2(const char *sym, void **fn, int ver, cuuint64_t flags, CUdriverProcAddressQueryResult *status)
{
	return cm_drv_resolve() && cm_real.cuGetProcAddress_v2 ? cm_real.cuGetProcAddress_v2(sym, fn, ver, flags, status) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDeviceGetCount(int *n)
{
	return cm_drv_resolve() && cm_real.cuDeviceGetCount ? cm_real.cuDeviceGetCount(n) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDeviceGetUuid_v2 ? cm_real.cuDeviceGetUuid_v2(uuid, dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	return cm_drv_resolve() && cm_real.cuDeviceCanAccessPeer ? cm_real.cuDeviceCanAccessPeer(can, dev, peer) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDevicePrimaryCtxRetain ? cm_real.cuDevicePrimaryCtxRetain(ctx, dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	return cm_drv_resolve() && cm_real.cuDevicePrimaryCtxGetState ? cm_real.cuDevicePrimaryCtxGetState(dev, flags, active) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return cm_drv_resolve() && cm_real.cuDeviceGetDefaultMemPool ? cm_real.cuDeviceGetDefaultMemPool(pool, dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxGetCurrent(CUcontext *ctx)
{
	return cm_drv_resolve() && cm_real.cuCtxGetCurrent ? cm_real.cuCtxGetCurrent(ctx) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuCtxGetDevice(CUdevice *dev)
{
	return cm_drv_resolve() && cm_real.cuCtxGetDevice ? cm_real.cuCtxGetDevice(dev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuEventCreate(CUevent *ev, unsigned int flags)
{
	return cm_drv_resolve() && cm_real.cuEventCreate ? cm_real.cuEventCreate(ev, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuEventDestroy_v2(CUevent ev)
{
	return cm_drv_resolve() && cm_real.cuEventDestroy_v2 ? cm_real.cuEventDestroy_v2(ev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuEventQuery(CUevent ev)
{
	return cm_drv_resolve() && cm_real.cuEventQuery ? cm_real.cuEventQuery(ev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuEventSynchronize(CUevent ev)
{
	return cm_drv_resolve() && cm_real.cuEventSynchronize ? cm_real.cuEventSynchronize(ev) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamGetFlags(CUstream s, unsigned int *flags)
{
	return cm_drv_resolve() && cm_real.cuStreamGetFlags ? cm_real.cuStreamGetFlags(s, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamGetCtx(CUstream s, CUcontext *ctx)
{
	return cm_drv_resolve() && cm_real.cuStreamGetCtx ? cm_real.cuStreamGetCtx(s, ctx) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamQuery(CUstream s)
{
	return cm_drv_resolve() && cm_real.cuStreamQuery ? cm_real.cuStreamQuery(s) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status)
{
	return cm_drv_resolve() && cm_real.cuStreamIsCapturing ? cm_real.cuStreamIsCapturing(s, status) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	return cm_drv_resolve() && cm_real.cuThreadExchangeStreamCaptureMode ? cm_real.cuThreadExchangeStreamCaptureMode(mode) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAddressReserve(CUdeviceptr *p, size_t size, size_t align, CUdeviceptr addr, unsigned long long flags)
{
	return cm_drv_resolve() && cm_real.cuMemAddressReserve ? cm_real.cuMemAddressReserve(p, size, align, addr, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemAddressFree(CUdeviceptr p, size_t size)
{
	return cm_drv_resolve() && cm_real.cuMemAddressFree ? cm_real.cuMemAddressFree(p, size) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop, unsigned long long flags)
{
	return cm_drv_resolve() && cm_real.cuMemCreate ? cm_real.cuMemCreate(handle, size, prop, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemRelease(CUmemGenericAllocationHandle handle)
{
	return cm_drv_resolve() && cm_real.cuMemRelease ? cm_real.cuMemRelease(handle) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemMap(CUdeviceptr p, size_t size, size_t offset, CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	return cm_drv_resolve() && cm_real.cuMemMap ? cm_real.cuMemMap(p, size, offset, handle, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemUnmap(CUdeviceptr p, size_t size)
{
	return cm_drv_resolve() && cm_real.cuMemUnmap ? cm_real.cuMemUnmap(p, size) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemSetAccess(CUdeviceptr p, size_t size, const CUmemAccessDesc *desc, size_t count)
{
	return cm_drv_resolve() && cm_real.cuMemSetAccess ? cm_real.cuMemSetAccess(p, size, desc, count) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop, CUmemAllocationGranularity_flags option)
{
	return cm_drv_resolve() && cm_real.cuMemGetAllocationGranularity ? cm_real.cuMemGetAllocationGranularity(granularity, prop, option) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemHostRegister_v2(void *p, size_t n, unsigned int flags)
{
	return cm_drv_resolve() && cm_real.cuMemHostRegister_v2 ? cm_real.cuMemHostRegister_v2(p, n, flags) : CUDA_ERROR_NOT_INITIALIZED;
}

static inline CUresult cm_real_cuMemHostUnregister(void *p)
{
	return cm_drv_resolve() && cm_real.cuMemHostUnregister ? cm_real.cuMemHostUnregister(p) : CUDA_ERROR_NOT_INITIALIZED;
}

#endif
