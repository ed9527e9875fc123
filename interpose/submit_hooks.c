/* interpose/submit_hooks.c - GENERATED: do not edit.
 *
 * Made by scripts/gen_hooks.py from interpose/hooks.table and cuda.h
 * (CUDA_VERSION 13000); the unit test hooks-generated fails when it
 * differs from what the script makes (--check).
 * docs/design.md, "Seeing every submission", gives the rules.
 *
 * One wrapper per exported driver function that queues work on a stream or
 * makes one wait: it tells cm_lib_submit which stream, calls the driver,
 * then tells cm_lib_submitted that the work is queued (docs/design.md says
 * why the mark comes after). Like the
 * driver. 176 wrappers: 112 with a stream argument, 2 through a launch
 * config's hStream, 59 on the implicit default stream, 3 with the stream
 * inside a struct.
 *
 * Hooked by hand elsewhere (HAND_HOOKED), not defined here, each calling
 * cm_lib_submit itself where it queues work: every export of
 * cuMemAllocAsync, cuMemFreeAsync, cuStreamBeginCapture,
 * cuStreamBeginCaptureToGraph, cuStreamCreate, cuStreamCreateWithPriority,
 * cuStreamDestroy, cuStreamEndCapture, cuStreamSynchronize:
 *   cuMemAllocAsync, cuMemAllocAsync_ptsz, cuMemFreeAsync,
 *   cuMemFreeAsync_ptsz, cuStreamBeginCapture, cuStreamBeginCaptureToGraph,
 *   cuStreamBeginCaptureToGraph_ptsz, cuStreamBeginCapture_ptsz,
 *   cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz, cuStreamCreate,
 *   cuStreamCreateWithPriority, cuStreamDestroy, cuStreamDestroy_v2,
 *   cuStreamEndCapture, cuStreamEndCapture_ptsz, cuStreamSynchronize,
 *   cuStreamSynchronize_ptsz
 */
#include "hook_entry.h"
#include "real.h"

#define CM_SUBMIT_COUNT 176

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuEventRecord) cm_fn = __atomic_load_n(&cm_real.cuEventRecord, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuEventRecord)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hEvent, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuEventRecordWithFlags) cm_fn = __atomic_load_n(&cm_real.cuEventRecordWithFlags, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuEventRecordWithFlags)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hEvent, hStream, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuEventRecordWithFlags_ptsz) cm_fn = __atomic_load_n(&cm_real.cuEventRecordWithFlags_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuEventRecordWithFlags_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hEvent, hStream, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuEventRecord_ptsz) cm_fn = __atomic_load_n(&cm_real.cuEventRecord_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuEventRecord_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hEvent, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	if (instantiateParams && (instantiateParams->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
		cm_lib_submit(instantiateParams->hUploadStream, false);
	__typeof__(cm_real.cuGraphInstantiateWithParams) cm_fn = __atomic_load_n(&cm_real.cuGraphInstantiateWithParams, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphInstantiateWithParams)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(phGraphExec, hGraph, instantiateParams);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	if (instantiateParams && (instantiateParams->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
		cm_lib_submit(instantiateParams->hUploadStream, true);
	__typeof__(cm_real.cuGraphInstantiateWithParams_ptsz) cm_fn = __atomic_load_n(&cm_real.cuGraphInstantiateWithParams_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphInstantiateWithParams_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(phGraphExec, hGraph, instantiateParams);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuGraphLaunch) cm_fn = __atomic_load_n(&cm_real.cuGraphLaunch, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphLaunch)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuGraphLaunch_ptsz) cm_fn = __atomic_load_n(&cm_real.cuGraphLaunch_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphLaunch_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuGraphUpload) cm_fn = __atomic_load_n(&cm_real.cuGraphUpload, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphUpload)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuGraphUpload_ptsz) cm_fn = __atomic_load_n(&cm_real.cuGraphUpload_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphUpload_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphicsMapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuGraphicsMapResources) cm_fn = __atomic_load_n(&cm_real.cuGraphicsMapResources, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphicsMapResources)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphicsMapResources_ptsz(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuGraphicsMapResources_ptsz) cm_fn = __atomic_load_n(&cm_real.cuGraphicsMapResources_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphicsMapResources_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuGraphicsUnmapResources) cm_fn = __atomic_load_n(&cm_real.cuGraphicsUnmapResources, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphicsUnmapResources)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuGraphicsUnmapResources_ptsz(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuGraphicsUnmapResources_ptsz) cm_fn = __atomic_load_n(&cm_real.cuGraphicsUnmapResources_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuGraphicsUnmapResources_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunch(CUfunction f)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuLaunch) cm_fn = __atomic_load_n(&cm_real.cuLaunch, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunch)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuLaunchCooperativeKernel) cm_fn = __atomic_load_n(&cm_real.cuLaunchCooperativeKernel, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchCooperativeKernel)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices, unsigned int flags)
{
	for (unsigned int cm_i = 0; launchParamsList && cm_i < numDevices; cm_i++)
		cm_lib_submit(launchParamsList[cm_i].hStream, false);
	__typeof__(cm_real.cuLaunchCooperativeKernelMultiDevice) cm_fn = __atomic_load_n(&cm_real.cuLaunchCooperativeKernelMultiDevice, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchCooperativeKernelMultiDevice)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(launchParamsList, numDevices, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuLaunchCooperativeKernel_ptsz) cm_fn = __atomic_load_n(&cm_real.cuLaunchCooperativeKernel_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchCooperativeKernel_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchGrid(CUfunction f, int grid_width, int grid_height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuLaunchGrid) cm_fn = __atomic_load_n(&cm_real.cuLaunchGrid, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchGrid)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f, grid_width, grid_height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuLaunchGridAsync) cm_fn = __atomic_load_n(&cm_real.cuLaunchGridAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchGridAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f, grid_width, grid_height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuLaunchHostFunc) cm_fn = __atomic_load_n(&cm_real.cuLaunchHostFunc, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchHostFunc)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, fn, userData);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuLaunchHostFunc_ptsz) cm_fn = __atomic_load_n(&cm_real.cuLaunchHostFunc_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchHostFunc_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, fn, userData);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuLaunchKernel) cm_fn = __atomic_load_n(&cm_real.cuLaunchKernel, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchKernel)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	cm_lib_submit(config ? config->hStream : NULL, false);
	__typeof__(cm_real.cuLaunchKernelEx) cm_fn = __atomic_load_n(&cm_real.cuLaunchKernelEx, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchKernelEx)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(config, f, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	cm_lib_submit(config ? config->hStream : NULL, true);
	__typeof__(cm_real.cuLaunchKernelEx_ptsz) cm_fn = __atomic_load_n(&cm_real.cuLaunchKernelEx_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchKernelEx_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(config, f, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuLaunchKernel_ptsz) cm_fn = __atomic_load_n(&cm_real.cuLaunchKernel_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuLaunchKernel_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemAllocFromPoolAsync) cm_fn = __atomic_load_n(&cm_real.cuMemAllocFromPoolAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemAllocFromPoolAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptr, bytesize, pool, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemAllocFromPoolAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemAllocFromPoolAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemAllocFromPoolAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptr, bytesize, pool, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemBatchDecompressAsync(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuMemBatchDecompressAsync) cm_fn = __atomic_load_n(&cm_real.cuMemBatchDecompressAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemBatchDecompressAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(paramsArray, count, flags, errorIndex, stream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemBatchDecompressAsync_ptsz(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuMemBatchDecompressAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemBatchDecompressAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemBatchDecompressAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(paramsArray, count, flags, errorIndex, stream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemDiscardAndPrefetchBatchAsync) cm_fn = __atomic_load_n(&cm_real.cuMemDiscardAndPrefetchBatchAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemDiscardAndPrefetchBatchAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemDiscardAndPrefetchBatchAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemDiscardAndPrefetchBatchAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemDiscardAndPrefetchBatchAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemDiscardBatchAsync) cm_fn = __atomic_load_n(&cm_real.cuMemDiscardBatchAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemDiscardBatchAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptrs, sizes, count, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemDiscardBatchAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemDiscardBatchAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemDiscardBatchAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptrs, sizes, count, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemMapArrayAsync) cm_fn = __atomic_load_n(&cm_real.cuMemMapArrayAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemMapArrayAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(mapInfoList, count, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemMapArrayAsync_ptsz(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemMapArrayAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemMapArrayAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemMapArrayAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(mapInfoList, count, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemPrefetchAsync) cm_fn = __atomic_load_n(&cm_real.cuMemPrefetchAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemPrefetchAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(devPtr, count, dstDevice, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemPrefetchAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemPrefetchAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemPrefetchAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(devPtr, count, dstDevice, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemPrefetchAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemPrefetchAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemPrefetchAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(devPtr, count, location, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemPrefetchAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemPrefetchAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemPrefetchAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(devPtr, count, location, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemPrefetchBatchAsync) cm_fn = __atomic_load_n(&cm_real.cuMemPrefetchBatchAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemPrefetchBatchAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemPrefetchBatchAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemPrefetchBatchAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemPrefetchBatchAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy) cm_fn = __atomic_load_n(&cm_real.cuMemcpy, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dst, src, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy2D) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2D, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2D)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy2DAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2DAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2DAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy2DAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2DAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2DAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpy2DAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2DAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2DAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy2DUnaligned) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2DUnaligned, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2DUnaligned)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy2DUnaligned_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2DUnaligned_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2DUnaligned_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpy2DUnaligned_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2DUnaligned_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2DUnaligned_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy2D_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2D_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2D_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpy2D_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpy2D_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy2D_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy3D) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3D, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3D)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy3DAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy3DAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpy3DAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy3DBatchAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DBatchAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DBatchAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(numOps, opList, failIdx, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DBatchAsync_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpy3DBatchAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DBatchAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DBatchAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(numOps, opList, failIdx, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy3DBatchAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DBatchAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DBatchAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(numOps, opList, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpy3DBatchAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DBatchAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DBatchAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(numOps, opList, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy3DPeer) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DPeer, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DPeer)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpy3DPeerAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DPeerAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DPeerAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpy3DPeerAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DPeerAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DPeerAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpy3DPeer_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3DPeer_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3DPeer_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpy3D_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3D_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3D_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpy3D_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpy3D_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy3D_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dst, src, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dst, src, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyAtoA) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoA, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoA)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyAtoA_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoA_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoA_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyAtoA_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoA_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoA_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoD(CUdeviceptr_v1 dstDevice, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyAtoD) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoD, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoD)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyAtoD_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoD_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoD_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyAtoD_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoD_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoD_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyAtoH) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoH, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoH)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyAtoHAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoHAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoHAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcArray, srcOffset, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyAtoHAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoHAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoHAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcArray, srcOffset, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyAtoHAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoHAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoHAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcArray, srcOffset, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyAtoH_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoH_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoH_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyAtoH_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyAtoH_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyAtoH_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyBatchAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyBatchAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyBatchAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyBatchAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyBatchAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyBatchAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyBatchAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyBatchAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyBatchAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyBatchAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyBatchAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyBatchAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoA(CUarray dstArray, unsigned int dstOffset, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyDtoA) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoA, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoA)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyDtoA_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoA_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoA_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyDtoA_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoA_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoA_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoD(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyDtoD) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoD, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoD)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyDtoDAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoDAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoDAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyDtoDAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoDAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoDAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyDtoDAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoDAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoDAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyDtoD_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoD_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoD_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyDtoD_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoD_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoD_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyDtoH) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoH, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoH)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyDtoHAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoHAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoHAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyDtoHAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoHAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoHAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyDtoHAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoHAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoHAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyDtoH_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoH_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoH_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyDtoH_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyDtoH_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyDtoH_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstHost, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyHtoA) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoA, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoA)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyHtoAAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoAAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoAAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyHtoAAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoAAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoAAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyHtoAAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoAAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoAAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyHtoA_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoA_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoA_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyHtoA_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoA_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoA_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstArray, dstOffset, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoD(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyHtoD) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoD, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoD)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyHtoDAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoDAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoDAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyHtoDAsync_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoDAsync_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoDAsync_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyHtoDAsync_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoDAsync_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoDAsync_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyHtoD_v2) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoD_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoD_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyHtoD_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyHtoD_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyHtoD_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemcpyPeer) cm_fn = __atomic_load_n(&cm_real.cuMemcpyPeer, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyPeer)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstContext, srcDevice, srcContext, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemcpyPeerAsync) cm_fn = __atomic_load_n(&cm_real.cuMemcpyPeerAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyPeerAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemcpyPeerAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemcpyPeerAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyPeerAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpyPeer_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpyPeer_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpyPeer_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstContext, srcDevice, srcContext, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemcpy_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemcpy_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemcpy_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dst, src, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD16(CUdeviceptr_v1 dstDevice, unsigned short us, unsigned int N)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD16) cm_fn = __atomic_load_n(&cm_real.cuMemsetD16, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD16)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, us, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemsetD16Async) cm_fn = __atomic_load_n(&cm_real.cuMemsetD16Async, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD16Async)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, us, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemsetD16Async_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemsetD16Async_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD16Async_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, us, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD16_v2) cm_fn = __atomic_load_n(&cm_real.cuMemsetD16_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD16_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, us, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemsetD16_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemsetD16_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD16_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, us, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D16(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned short us, unsigned int Width, unsigned int Height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD2D16) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D16, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D16)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, us, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemsetD2D16Async) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D16Async, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D16Async)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, us, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemsetD2D16Async_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D16Async_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D16Async_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, us, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD2D16_v2) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D16_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D16_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, us, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemsetD2D16_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D16_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D16_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, us, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D32(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned int ui, unsigned int Width, unsigned int Height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD2D32) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D32, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D32)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, ui, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemsetD2D32Async) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D32Async, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D32Async)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, ui, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemsetD2D32Async_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D32Async_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D32Async_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, ui, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD2D32_v2) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D32_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D32_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, ui, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemsetD2D32_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D32_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D32_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, ui, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D8(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned char uc, unsigned int Width, unsigned int Height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD2D8) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D8, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D8)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, uc, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemsetD2D8Async) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D8Async, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D8Async)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, uc, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemsetD2D8Async_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D8Async_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D8Async_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, uc, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD2D8_v2) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D8_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D8_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, uc, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemsetD2D8_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemsetD2D8_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD2D8_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, dstPitch, uc, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui, unsigned int N)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD32) cm_fn = __atomic_load_n(&cm_real.cuMemsetD32, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD32)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, ui, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemsetD32Async) cm_fn = __atomic_load_n(&cm_real.cuMemsetD32Async, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD32Async)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, ui, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemsetD32Async_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemsetD32Async_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD32Async_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, ui, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD32_v2) cm_fn = __atomic_load_n(&cm_real.cuMemsetD32_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD32_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, ui, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemsetD32_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemsetD32_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD32_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, ui, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc, unsigned int N)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD8) cm_fn = __atomic_load_n(&cm_real.cuMemsetD8, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD8)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, uc, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuMemsetD8Async) cm_fn = __atomic_load_n(&cm_real.cuMemsetD8Async, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD8Async)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, uc, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuMemsetD8Async_ptsz) cm_fn = __atomic_load_n(&cm_real.cuMemsetD8Async_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD8Async_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, uc, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	cm_lib_submit(NULL, false);
	__typeof__(cm_real.cuMemsetD8_v2) cm_fn = __atomic_load_n(&cm_real.cuMemsetD8_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD8_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, uc, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	cm_lib_submit(NULL, true);
	__typeof__(cm_real.cuMemsetD8_v2_ptds) cm_fn = __atomic_load_n(&cm_real.cuMemsetD8_v2_ptds, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuMemsetD8_v2_ptds)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(dstDevice, uc, N);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuSignalExternalSemaphoresAsync) cm_fn = __atomic_load_n(&cm_real.cuSignalExternalSemaphoresAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuSignalExternalSemaphoresAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuSignalExternalSemaphoresAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuSignalExternalSemaphoresAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuSignalExternalSemaphoresAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuStreamAddCallback) cm_fn = __atomic_load_n(&cm_real.cuStreamAddCallback, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamAddCallback)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, callback, userData, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuStreamAddCallback_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamAddCallback_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamAddCallback_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, callback, userData, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuStreamAttachMemAsync) cm_fn = __atomic_load_n(&cm_real.cuStreamAttachMemAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamAttachMemAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, dptr, length, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuStreamAttachMemAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamAttachMemAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamAttachMemAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, dptr, length, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamBatchMemOp) cm_fn = __atomic_load_n(&cm_real.cuStreamBatchMemOp, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamBatchMemOp)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamBatchMemOp_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamBatchMemOp_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamBatchMemOp_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamBatchMemOp_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamBatchMemOp_v2(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamBatchMemOp_v2) cm_fn = __atomic_load_n(&cm_real.cuStreamBatchMemOp_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamBatchMemOp_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamBatchMemOp_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamBatchMemOp_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamBatchMemOp_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	cm_lib_submit(hStream, false);
	__typeof__(cm_real.cuStreamWaitEvent) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitEvent, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitEvent)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, hEvent, Flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	cm_lib_submit(hStream, true);
	__typeof__(cm_real.cuStreamWaitEvent_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitEvent_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitEvent_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(hStream, hEvent, Flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWaitValue32) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue32, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue32)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWaitValue32_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue32_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue32_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWaitValue32_v2) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue32_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue32_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWaitValue32_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue32_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue32_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWaitValue64) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue64, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue64)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWaitValue64_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue64_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue64_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWaitValue64_v2) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue64_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue64_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWaitValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWaitValue64_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWaitValue64_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWaitValue64_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWriteValue32) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue32, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue32)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWriteValue32_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue32_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue32_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWriteValue32_v2) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue32_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue32_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWriteValue32_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue32_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue32_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWriteValue64) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue64, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue64)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWriteValue64_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue64_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue64_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuStreamWriteValue64_v2) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue64_v2, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue64_v2)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuStreamWriteValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuStreamWriteValue64_v2_ptsz) cm_fn = __atomic_load_n(&cm_real.cuStreamWriteValue64_v2_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuStreamWriteValue64_v2_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, false);
	__typeof__(cm_real.cuWaitExternalSemaphoresAsync) cm_fn = __atomic_load_n(&cm_real.cuWaitExternalSemaphoresAsync, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuWaitExternalSemaphoresAsync)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

CUresult cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, true);
	__typeof__(cm_real.cuWaitExternalSemaphoresAsync_ptsz) cm_fn = __atomic_load_n(&cm_real.cuWaitExternalSemaphoresAsync_ptsz, __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (!cm_drv_resolve() || !(cm_fn = cm_real.cuWaitExternalSemaphoresAsync_ptsz)))
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = cm_fn(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

const cm_hook_entry cm_submit_table[CM_SUBMIT_COUNT] = {
	{ .symbol = "cuEventRecord", .lookup = "cuEventRecord", .ptsz = false, .hook = (cm_fn)cuEventRecord, .real = (void **)&cm_real.cuEventRecord },
	{ .symbol = "cuEventRecordWithFlags", .lookup = "cuEventRecordWithFlags", .ptsz = false, .hook = (cm_fn)cuEventRecordWithFlags, .real = (void **)&cm_real.cuEventRecordWithFlags },
	{ .symbol = "cuEventRecordWithFlags_ptsz", .lookup = "cuEventRecordWithFlags", .ptsz = true, .hook = (cm_fn)cuEventRecordWithFlags_ptsz, .real = (void **)&cm_real.cuEventRecordWithFlags_ptsz },
	{ .symbol = "cuEventRecord_ptsz", .lookup = "cuEventRecord", .ptsz = true, .hook = (cm_fn)cuEventRecord_ptsz, .real = (void **)&cm_real.cuEventRecord_ptsz },
	{ .symbol = "cuGraphInstantiateWithParams", .lookup = "cuGraphInstantiateWithParams", .ptsz = false, .hook = (cm_fn)cuGraphInstantiateWithParams, .real = (void **)&cm_real.cuGraphInstantiateWithParams },
	{ .symbol = "cuGraphInstantiateWithParams_ptsz", .lookup = "cuGraphInstantiateWithParams", .ptsz = true, .hook = (cm_fn)cuGraphInstantiateWithParams_ptsz, .real = (void **)&cm_real.cuGraphInstantiateWithParams_ptsz },
	{ .symbol = "cuGraphLaunch", .lookup = "cuGraphLaunch", .ptsz = false, .hook = (cm_fn)cuGraphLaunch, .real = (void **)&cm_real.cuGraphLaunch },
	{ .symbol = "cuGraphLaunch_ptsz", .lookup = "cuGraphLaunch", .ptsz = true, .hook = (cm_fn)cuGraphLaunch_ptsz, .real = (void **)&cm_real.cuGraphLaunch_ptsz },
	{ .symbol = "cuGraphUpload", .lookup = "cuGraphUpload", .ptsz = false, .hook = (cm_fn)cuGraphUpload, .real = (void **)&cm_real.cuGraphUpload },
	{ .symbol = "cuGraphUpload_ptsz", .lookup = "cuGraphUpload", .ptsz = true, .hook = (cm_fn)cuGraphUpload_ptsz, .real = (void **)&cm_real.cuGraphUpload_ptsz },
	{ .symbol = "cuGraphicsMapResources", .lookup = "cuGraphicsMapResources", .ptsz = false, .hook = (cm_fn)cuGraphicsMapResources, .real = (void **)&cm_real.cuGraphicsMapResources },
	{ .symbol = "cuGraphicsMapResources_ptsz", .lookup = "cuGraphicsMapResources", .ptsz = true, .hook = (cm_fn)cuGraphicsMapResources_ptsz, .real = (void **)&cm_real.cuGraphicsMapResources_ptsz },
	{ .symbol = "cuGraphicsUnmapResources", .lookup = "cuGraphicsUnmapResources", .ptsz = false, .hook = (cm_fn)cuGraphicsUnmapResources, .real = (void **)&cm_real.cuGraphicsUnmapResources },
	{ .symbol = "cuGraphicsUnmapResources_ptsz", .lookup = "cuGraphicsUnmapResources", .ptsz = true, .hook = (cm_fn)cuGraphicsUnmapResources_ptsz, .real = (void **)&cm_real.cuGraphicsUnmapResources_ptsz },
	{ .symbol = "cuLaunch", .lookup = "cuLaunch", .ptsz = false, .hook = (cm_fn)cuLaunch, .real = (void **)&cm_real.cuLaunch },
	{ .symbol = "cuLaunchCooperativeKernel", .lookup = "cuLaunchCooperativeKernel", .ptsz = false, .hook = (cm_fn)cuLaunchCooperativeKernel, .real = (void **)&cm_real.cuLaunchCooperativeKernel },
	{ .symbol = "cuLaunchCooperativeKernelMultiDevice", .lookup = "cuLaunchCooperativeKernelMultiDevice", .ptsz = false, .hook = (cm_fn)cuLaunchCooperativeKernelMultiDevice, .real = (void **)&cm_real.cuLaunchCooperativeKernelMultiDevice },
	{ .symbol = "cuLaunchCooperativeKernel_ptsz", .lookup = "cuLaunchCooperativeKernel", .ptsz = true, .hook = (cm_fn)cuLaunchCooperativeKernel_ptsz, .real = (void **)&cm_real.cuLaunchCooperativeKernel_ptsz },
	{ .symbol = "cuLaunchGrid", .lookup = "cuLaunchGrid", .ptsz = false, .hook = (cm_fn)cuLaunchGrid, .real = (void **)&cm_real.cuLaunchGrid },
	{ .symbol = "cuLaunchGridAsync", .lookup = "cuLaunchGridAsync", .ptsz = false, .hook = (cm_fn)cuLaunchGridAsync, .real = (void **)&cm_real.cuLaunchGridAsync },
	{ .symbol = "cuLaunchHostFunc", .lookup = "cuLaunchHostFunc", .ptsz = false, .hook = (cm_fn)cuLaunchHostFunc, .real = (void **)&cm_real.cuLaunchHostFunc },
	{ .symbol = "cuLaunchHostFunc_ptsz", .lookup = "cuLaunchHostFunc", .ptsz = true, .hook = (cm_fn)cuLaunchHostFunc_ptsz, .real = (void **)&cm_real.cuLaunchHostFunc_ptsz },
	{ .symbol = "cuLaunchKernel", .lookup = "cuLaunchKernel", .ptsz = false, .hook = (cm_fn)cuLaunchKernel, .real = (void **)&cm_real.cuLaunchKernel },
	{ .symbol = "cuLaunchKernelEx", .lookup = "cuLaunchKernelEx", .ptsz = false, .hook = (cm_fn)cuLaunchKernelEx, .real = (void **)&cm_real.cuLaunchKernelEx },
	{ .symbol = "cuLaunchKernelEx_ptsz", .lookup = "cuLaunchKernelEx", .ptsz = true, .hook = (cm_fn)cuLaunchKernelEx_ptsz, .real = (void **)&cm_real.cuLaunchKernelEx_ptsz },
	{ .symbol = "cuLaunchKernel_ptsz", .lookup = "cuLaunchKernel", .ptsz = true, .hook = (cm_fn)cuLaunchKernel_ptsz, .real = (void **)&cm_real.cuLaunchKernel_ptsz },
	{ .symbol = "cuMemAllocFromPoolAsync", .lookup = "cuMemAllocFromPoolAsync", .ptsz = false, .hook = (cm_fn)cuMemAllocFromPoolAsync, .real = (void **)&cm_real.cuMemAllocFromPoolAsync },
	{ .symbol = "cuMemAllocFromPoolAsync_ptsz", .lookup = "cuMemAllocFromPoolAsync", .ptsz = true, .hook = (cm_fn)cuMemAllocFromPoolAsync_ptsz, .real = (void **)&cm_real.cuMemAllocFromPoolAsync_ptsz },
	{ .symbol = "cuMemBatchDecompressAsync", .lookup = "cuMemBatchDecompressAsync", .ptsz = false, .hook = (cm_fn)cuMemBatchDecompressAsync, .real = (void **)&cm_real.cuMemBatchDecompressAsync },
	{ .symbol = "cuMemBatchDecompressAsync_ptsz", .lookup = "cuMemBatchDecompressAsync", .ptsz = true, .hook = (cm_fn)cuMemBatchDecompressAsync_ptsz, .real = (void **)&cm_real.cuMemBatchDecompressAsync_ptsz },
	{ .symbol = "cuMemDiscardAndPrefetchBatchAsync", .lookup = "cuMemDiscardAndPrefetchBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemDiscardAndPrefetchBatchAsync, .real = (void **)&cm_real.cuMemDiscardAndPrefetchBatchAsync },
	{ .symbol = "cuMemDiscardAndPrefetchBatchAsync_ptsz", .lookup = "cuMemDiscardAndPrefetchBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemDiscardAndPrefetchBatchAsync_ptsz, .real = (void **)&cm_real.cuMemDiscardAndPrefetchBatchAsync_ptsz },
	{ .symbol = "cuMemDiscardBatchAsync", .lookup = "cuMemDiscardBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemDiscardBatchAsync, .real = (void **)&cm_real.cuMemDiscardBatchAsync },
	{ .symbol = "cuMemDiscardBatchAsync_ptsz", .lookup = "cuMemDiscardBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemDiscardBatchAsync_ptsz, .real = (void **)&cm_real.cuMemDiscardBatchAsync_ptsz },
	{ .symbol = "cuMemMapArrayAsync", .lookup = "cuMemMapArrayAsync", .ptsz = false, .hook = (cm_fn)cuMemMapArrayAsync, .real = (void **)&cm_real.cuMemMapArrayAsync },
	{ .symbol = "cuMemMapArrayAsync_ptsz", .lookup = "cuMemMapArrayAsync", .ptsz = true, .hook = (cm_fn)cuMemMapArrayAsync_ptsz, .real = (void **)&cm_real.cuMemMapArrayAsync_ptsz },
	{ .symbol = "cuMemPrefetchAsync", .lookup = "cuMemPrefetchAsync", .ptsz = false, .hook = (cm_fn)cuMemPrefetchAsync, .real = (void **)&cm_real.cuMemPrefetchAsync },
	{ .symbol = "cuMemPrefetchAsync_ptsz", .lookup = "cuMemPrefetchAsync", .ptsz = true, .hook = (cm_fn)cuMemPrefetchAsync_ptsz, .real = (void **)&cm_real.cuMemPrefetchAsync_ptsz },
	{ .symbol = "cuMemPrefetchAsync_v2", .lookup = "cuMemPrefetchAsync", .ptsz = false, .hook = (cm_fn)cuMemPrefetchAsync_v2, .real = (void **)&cm_real.cuMemPrefetchAsync_v2 },
	{ .symbol = "cuMemPrefetchAsync_v2_ptsz", .lookup = "cuMemPrefetchAsync", .ptsz = true, .hook = (cm_fn)cuMemPrefetchAsync_v2_ptsz, .real = (void **)&cm_real.cuMemPrefetchAsync_v2_ptsz },
	{ .symbol = "cuMemPrefetchBatchAsync", .lookup = "cuMemPrefetchBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemPrefetchBatchAsync, .real = (void **)&cm_real.cuMemPrefetchBatchAsync },
	{ .symbol = "cuMemPrefetchBatchAsync_ptsz", .lookup = "cuMemPrefetchBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemPrefetchBatchAsync_ptsz, .real = (void **)&cm_real.cuMemPrefetchBatchAsync_ptsz },
	{ .symbol = "cuMemcpy", .lookup = "cuMemcpy", .ptsz = false, .hook = (cm_fn)cuMemcpy, .real = (void **)&cm_real.cuMemcpy },
	{ .symbol = "cuMemcpy2D", .lookup = "cuMemcpy2D", .ptsz = false, .hook = (cm_fn)cuMemcpy2D, .real = (void **)&cm_real.cuMemcpy2D },
	{ .symbol = "cuMemcpy2DAsync", .lookup = "cuMemcpy2DAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy2DAsync, .real = (void **)&cm_real.cuMemcpy2DAsync },
	{ .symbol = "cuMemcpy2DAsync_v2", .lookup = "cuMemcpy2DAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy2DAsync_v2, .real = (void **)&cm_real.cuMemcpy2DAsync_v2 },
	{ .symbol = "cuMemcpy2DAsync_v2_ptsz", .lookup = "cuMemcpy2DAsync", .ptsz = true, .hook = (cm_fn)cuMemcpy2DAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpy2DAsync_v2_ptsz },
	{ .symbol = "cuMemcpy2DUnaligned", .lookup = "cuMemcpy2DUnaligned", .ptsz = false, .hook = (cm_fn)cuMemcpy2DUnaligned, .real = (void **)&cm_real.cuMemcpy2DUnaligned },
	{ .symbol = "cuMemcpy2DUnaligned_v2", .lookup = "cuMemcpy2DUnaligned", .ptsz = false, .hook = (cm_fn)cuMemcpy2DUnaligned_v2, .real = (void **)&cm_real.cuMemcpy2DUnaligned_v2 },
	{ .symbol = "cuMemcpy2DUnaligned_v2_ptds", .lookup = "cuMemcpy2DUnaligned", .ptsz = true, .hook = (cm_fn)cuMemcpy2DUnaligned_v2_ptds, .real = (void **)&cm_real.cuMemcpy2DUnaligned_v2_ptds },
	{ .symbol = "cuMemcpy2D_v2", .lookup = "cuMemcpy2D", .ptsz = false, .hook = (cm_fn)cuMemcpy2D_v2, .real = (void **)&cm_real.cuMemcpy2D_v2 },
	{ .symbol = "cuMemcpy2D_v2_ptds", .lookup = "cuMemcpy2D", .ptsz = true, .hook = (cm_fn)cuMemcpy2D_v2_ptds, .real = (void **)&cm_real.cuMemcpy2D_v2_ptds },
	{ .symbol = "cuMemcpy3D", .lookup = "cuMemcpy3D", .ptsz = false, .hook = (cm_fn)cuMemcpy3D, .real = (void **)&cm_real.cuMemcpy3D },
	{ .symbol = "cuMemcpy3DAsync", .lookup = "cuMemcpy3DAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy3DAsync, .real = (void **)&cm_real.cuMemcpy3DAsync },
	{ .symbol = "cuMemcpy3DAsync_v2", .lookup = "cuMemcpy3DAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy3DAsync_v2, .real = (void **)&cm_real.cuMemcpy3DAsync_v2 },
	{ .symbol = "cuMemcpy3DAsync_v2_ptsz", .lookup = "cuMemcpy3DAsync", .ptsz = true, .hook = (cm_fn)cuMemcpy3DAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpy3DAsync_v2_ptsz },
	{ .symbol = "cuMemcpy3DBatchAsync", .lookup = "cuMemcpy3DBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy3DBatchAsync, .real = (void **)&cm_real.cuMemcpy3DBatchAsync },
	{ .symbol = "cuMemcpy3DBatchAsync_ptsz", .lookup = "cuMemcpy3DBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemcpy3DBatchAsync_ptsz, .real = (void **)&cm_real.cuMemcpy3DBatchAsync_ptsz },
	{ .symbol = "cuMemcpy3DBatchAsync_v2", .lookup = "cuMemcpy3DBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy3DBatchAsync_v2, .real = (void **)&cm_real.cuMemcpy3DBatchAsync_v2 },
	{ .symbol = "cuMemcpy3DBatchAsync_v2_ptsz", .lookup = "cuMemcpy3DBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemcpy3DBatchAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpy3DBatchAsync_v2_ptsz },
	{ .symbol = "cuMemcpy3DPeer", .lookup = "cuMemcpy3DPeer", .ptsz = false, .hook = (cm_fn)cuMemcpy3DPeer, .real = (void **)&cm_real.cuMemcpy3DPeer },
	{ .symbol = "cuMemcpy3DPeerAsync", .lookup = "cuMemcpy3DPeerAsync", .ptsz = false, .hook = (cm_fn)cuMemcpy3DPeerAsync, .real = (void **)&cm_real.cuMemcpy3DPeerAsync },
	{ .symbol = "cuMemcpy3DPeerAsync_ptsz", .lookup = "cuMemcpy3DPeerAsync", .ptsz = true, .hook = (cm_fn)cuMemcpy3DPeerAsync_ptsz, .real = (void **)&cm_real.cuMemcpy3DPeerAsync_ptsz },
	{ .symbol = "cuMemcpy3DPeer_ptds", .lookup = "cuMemcpy3DPeer", .ptsz = true, .hook = (cm_fn)cuMemcpy3DPeer_ptds, .real = (void **)&cm_real.cuMemcpy3DPeer_ptds },
	{ .symbol = "cuMemcpy3D_v2", .lookup = "cuMemcpy3D", .ptsz = false, .hook = (cm_fn)cuMemcpy3D_v2, .real = (void **)&cm_real.cuMemcpy3D_v2 },
	{ .symbol = "cuMemcpy3D_v2_ptds", .lookup = "cuMemcpy3D", .ptsz = true, .hook = (cm_fn)cuMemcpy3D_v2_ptds, .real = (void **)&cm_real.cuMemcpy3D_v2_ptds },
	{ .symbol = "cuMemcpyAsync", .lookup = "cuMemcpyAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyAsync, .real = (void **)&cm_real.cuMemcpyAsync },
	{ .symbol = "cuMemcpyAsync_ptsz", .lookup = "cuMemcpyAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyAsync_ptsz, .real = (void **)&cm_real.cuMemcpyAsync_ptsz },
	{ .symbol = "cuMemcpyAtoA", .lookup = "cuMemcpyAtoA", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoA, .real = (void **)&cm_real.cuMemcpyAtoA },
	{ .symbol = "cuMemcpyAtoA_v2", .lookup = "cuMemcpyAtoA", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoA_v2, .real = (void **)&cm_real.cuMemcpyAtoA_v2 },
	{ .symbol = "cuMemcpyAtoA_v2_ptds", .lookup = "cuMemcpyAtoA", .ptsz = true, .hook = (cm_fn)cuMemcpyAtoA_v2_ptds, .real = (void **)&cm_real.cuMemcpyAtoA_v2_ptds },
	{ .symbol = "cuMemcpyAtoD", .lookup = "cuMemcpyAtoD", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoD, .real = (void **)&cm_real.cuMemcpyAtoD },
	{ .symbol = "cuMemcpyAtoD_v2", .lookup = "cuMemcpyAtoD", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoD_v2, .real = (void **)&cm_real.cuMemcpyAtoD_v2 },
	{ .symbol = "cuMemcpyAtoD_v2_ptds", .lookup = "cuMemcpyAtoD", .ptsz = true, .hook = (cm_fn)cuMemcpyAtoD_v2_ptds, .real = (void **)&cm_real.cuMemcpyAtoD_v2_ptds },
	{ .symbol = "cuMemcpyAtoH", .lookup = "cuMemcpyAtoH", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoH, .real = (void **)&cm_real.cuMemcpyAtoH },
	{ .symbol = "cuMemcpyAtoHAsync", .lookup = "cuMemcpyAtoHAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoHAsync, .real = (void **)&cm_real.cuMemcpyAtoHAsync },
	{ .symbol = "cuMemcpyAtoHAsync_v2", .lookup = "cuMemcpyAtoHAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoHAsync_v2, .real = (void **)&cm_real.cuMemcpyAtoHAsync_v2 },
	{ .symbol = "cuMemcpyAtoHAsync_v2_ptsz", .lookup = "cuMemcpyAtoHAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyAtoHAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpyAtoHAsync_v2_ptsz },
	{ .symbol = "cuMemcpyAtoH_v2", .lookup = "cuMemcpyAtoH", .ptsz = false, .hook = (cm_fn)cuMemcpyAtoH_v2, .real = (void **)&cm_real.cuMemcpyAtoH_v2 },
	{ .symbol = "cuMemcpyAtoH_v2_ptds", .lookup = "cuMemcpyAtoH", .ptsz = true, .hook = (cm_fn)cuMemcpyAtoH_v2_ptds, .real = (void **)&cm_real.cuMemcpyAtoH_v2_ptds },
	{ .symbol = "cuMemcpyBatchAsync", .lookup = "cuMemcpyBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyBatchAsync, .real = (void **)&cm_real.cuMemcpyBatchAsync },
	{ .symbol = "cuMemcpyBatchAsync_ptsz", .lookup = "cuMemcpyBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyBatchAsync_ptsz, .real = (void **)&cm_real.cuMemcpyBatchAsync_ptsz },
	{ .symbol = "cuMemcpyBatchAsync_v2", .lookup = "cuMemcpyBatchAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyBatchAsync_v2, .real = (void **)&cm_real.cuMemcpyBatchAsync_v2 },
	{ .symbol = "cuMemcpyBatchAsync_v2_ptsz", .lookup = "cuMemcpyBatchAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyBatchAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpyBatchAsync_v2_ptsz },
	{ .symbol = "cuMemcpyDtoA", .lookup = "cuMemcpyDtoA", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoA, .real = (void **)&cm_real.cuMemcpyDtoA },
	{ .symbol = "cuMemcpyDtoA_v2", .lookup = "cuMemcpyDtoA", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoA_v2, .real = (void **)&cm_real.cuMemcpyDtoA_v2 },
	{ .symbol = "cuMemcpyDtoA_v2_ptds", .lookup = "cuMemcpyDtoA", .ptsz = true, .hook = (cm_fn)cuMemcpyDtoA_v2_ptds, .real = (void **)&cm_real.cuMemcpyDtoA_v2_ptds },
	{ .symbol = "cuMemcpyDtoD", .lookup = "cuMemcpyDtoD", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoD, .real = (void **)&cm_real.cuMemcpyDtoD },
	{ .symbol = "cuMemcpyDtoDAsync", .lookup = "cuMemcpyDtoDAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoDAsync, .real = (void **)&cm_real.cuMemcpyDtoDAsync },
	{ .symbol = "cuMemcpyDtoDAsync_v2", .lookup = "cuMemcpyDtoDAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoDAsync_v2, .real = (void **)&cm_real.cuMemcpyDtoDAsync_v2 },
	{ .symbol = "cuMemcpyDtoDAsync_v2_ptsz", .lookup = "cuMemcpyDtoDAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyDtoDAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpyDtoDAsync_v2_ptsz },
	{ .symbol = "cuMemcpyDtoD_v2", .lookup = "cuMemcpyDtoD", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoD_v2, .real = (void **)&cm_real.cuMemcpyDtoD_v2 },
	{ .symbol = "cuMemcpyDtoD_v2_ptds", .lookup = "cuMemcpyDtoD", .ptsz = true, .hook = (cm_fn)cuMemcpyDtoD_v2_ptds, .real = (void **)&cm_real.cuMemcpyDtoD_v2_ptds },
	{ .symbol = "cuMemcpyDtoH", .lookup = "cuMemcpyDtoH", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoH, .real = (void **)&cm_real.cuMemcpyDtoH },
	{ .symbol = "cuMemcpyDtoHAsync", .lookup = "cuMemcpyDtoHAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoHAsync, .real = (void **)&cm_real.cuMemcpyDtoHAsync },
	{ .symbol = "cuMemcpyDtoHAsync_v2", .lookup = "cuMemcpyDtoHAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoHAsync_v2, .real = (void **)&cm_real.cuMemcpyDtoHAsync_v2 },
	{ .symbol = "cuMemcpyDtoHAsync_v2_ptsz", .lookup = "cuMemcpyDtoHAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyDtoHAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpyDtoHAsync_v2_ptsz },
	{ .symbol = "cuMemcpyDtoH_v2", .lookup = "cuMemcpyDtoH", .ptsz = false, .hook = (cm_fn)cuMemcpyDtoH_v2, .real = (void **)&cm_real.cuMemcpyDtoH_v2 },
	{ .symbol = "cuMemcpyDtoH_v2_ptds", .lookup = "cuMemcpyDtoH", .ptsz = true, .hook = (cm_fn)cuMemcpyDtoH_v2_ptds, .real = (void **)&cm_real.cuMemcpyDtoH_v2_ptds },
	{ .symbol = "cuMemcpyHtoA", .lookup = "cuMemcpyHtoA", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoA, .real = (void **)&cm_real.cuMemcpyHtoA },
	{ .symbol = "cuMemcpyHtoAAsync", .lookup = "cuMemcpyHtoAAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoAAsync, .real = (void **)&cm_real.cuMemcpyHtoAAsync },
	{ .symbol = "cuMemcpyHtoAAsync_v2", .lookup = "cuMemcpyHtoAAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoAAsync_v2, .real = (void **)&cm_real.cuMemcpyHtoAAsync_v2 },
	{ .symbol = "cuMemcpyHtoAAsync_v2_ptsz", .lookup = "cuMemcpyHtoAAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyHtoAAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpyHtoAAsync_v2_ptsz },
	{ .symbol = "cuMemcpyHtoA_v2", .lookup = "cuMemcpyHtoA", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoA_v2, .real = (void **)&cm_real.cuMemcpyHtoA_v2 },
	{ .symbol = "cuMemcpyHtoA_v2_ptds", .lookup = "cuMemcpyHtoA", .ptsz = true, .hook = (cm_fn)cuMemcpyHtoA_v2_ptds, .real = (void **)&cm_real.cuMemcpyHtoA_v2_ptds },
	{ .symbol = "cuMemcpyHtoD", .lookup = "cuMemcpyHtoD", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoD, .real = (void **)&cm_real.cuMemcpyHtoD },
	{ .symbol = "cuMemcpyHtoDAsync", .lookup = "cuMemcpyHtoDAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoDAsync, .real = (void **)&cm_real.cuMemcpyHtoDAsync },
	{ .symbol = "cuMemcpyHtoDAsync_v2", .lookup = "cuMemcpyHtoDAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoDAsync_v2, .real = (void **)&cm_real.cuMemcpyHtoDAsync_v2 },
	{ .symbol = "cuMemcpyHtoDAsync_v2_ptsz", .lookup = "cuMemcpyHtoDAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyHtoDAsync_v2_ptsz, .real = (void **)&cm_real.cuMemcpyHtoDAsync_v2_ptsz },
	{ .symbol = "cuMemcpyHtoD_v2", .lookup = "cuMemcpyHtoD", .ptsz = false, .hook = (cm_fn)cuMemcpyHtoD_v2, .real = (void **)&cm_real.cuMemcpyHtoD_v2 },
	{ .symbol = "cuMemcpyHtoD_v2_ptds", .lookup = "cuMemcpyHtoD", .ptsz = true, .hook = (cm_fn)cuMemcpyHtoD_v2_ptds, .real = (void **)&cm_real.cuMemcpyHtoD_v2_ptds },
	{ .symbol = "cuMemcpyPeer", .lookup = "cuMemcpyPeer", .ptsz = false, .hook = (cm_fn)cuMemcpyPeer, .real = (void **)&cm_real.cuMemcpyPeer },
	{ .symbol = "cuMemcpyPeerAsync", .lookup = "cuMemcpyPeerAsync", .ptsz = false, .hook = (cm_fn)cuMemcpyPeerAsync, .real = (void **)&cm_real.cuMemcpyPeerAsync },
	{ .symbol = "cuMemcpyPeerAsync_ptsz", .lookup = "cuMemcpyPeerAsync", .ptsz = true, .hook = (cm_fn)cuMemcpyPeerAsync_ptsz, .real = (void **)&cm_real.cuMemcpyPeerAsync_ptsz },
	{ .symbol = "cuMemcpyPeer_ptds", .lookup = "cuMemcpyPeer", .ptsz = true, .hook = (cm_fn)cuMemcpyPeer_ptds, .real = (void **)&cm_real.cuMemcpyPeer_ptds },
	{ .symbol = "cuMemcpy_ptds", .lookup = "cuMemcpy", .ptsz = true, .hook = (cm_fn)cuMemcpy_ptds, .real = (void **)&cm_real.cuMemcpy_ptds },
	{ .symbol = "cuMemsetD16", .lookup = "cuMemsetD16", .ptsz = false, .hook = (cm_fn)cuMemsetD16, .real = (void **)&cm_real.cuMemsetD16 },
	{ .symbol = "cuMemsetD16Async", .lookup = "cuMemsetD16Async", .ptsz = false, .hook = (cm_fn)cuMemsetD16Async, .real = (void **)&cm_real.cuMemsetD16Async },
	{ .symbol = "cuMemsetD16Async_ptsz", .lookup = "cuMemsetD16Async", .ptsz = true, .hook = (cm_fn)cuMemsetD16Async_ptsz, .real = (void **)&cm_real.cuMemsetD16Async_ptsz },
	{ .symbol = "cuMemsetD16_v2", .lookup = "cuMemsetD16", .ptsz = false, .hook = (cm_fn)cuMemsetD16_v2, .real = (void **)&cm_real.cuMemsetD16_v2 },
	{ .symbol = "cuMemsetD16_v2_ptds", .lookup = "cuMemsetD16", .ptsz = true, .hook = (cm_fn)cuMemsetD16_v2_ptds, .real = (void **)&cm_real.cuMemsetD16_v2_ptds },
	{ .symbol = "cuMemsetD2D16", .lookup = "cuMemsetD2D16", .ptsz = false, .hook = (cm_fn)cuMemsetD2D16, .real = (void **)&cm_real.cuMemsetD2D16 },
	{ .symbol = "cuMemsetD2D16Async", .lookup = "cuMemsetD2D16Async", .ptsz = false, .hook = (cm_fn)cuMemsetD2D16Async, .real = (void **)&cm_real.cuMemsetD2D16Async },
	{ .symbol = "cuMemsetD2D16Async_ptsz", .lookup = "cuMemsetD2D16Async", .ptsz = true, .hook = (cm_fn)cuMemsetD2D16Async_ptsz, .real = (void **)&cm_real.cuMemsetD2D16Async_ptsz },
	{ .symbol = "cuMemsetD2D16_v2", .lookup = "cuMemsetD2D16", .ptsz = false, .hook = (cm_fn)cuMemsetD2D16_v2, .real = (void **)&cm_real.cuMemsetD2D16_v2 },
	{ .symbol = "cuMemsetD2D16_v2_ptds", .lookup = "cuMemsetD2D16", .ptsz = true, .hook = (cm_fn)cuMemsetD2D16_v2_ptds, .real = (void **)&cm_real.cuMemsetD2D16_v2_ptds },
	{ .symbol = "cuMemsetD2D32", .lookup = "cuMemsetD2D32", .ptsz = false, .hook = (cm_fn)cuMemsetD2D32, .real = (void **)&cm_real.cuMemsetD2D32 },
	{ .symbol = "cuMemsetD2D32Async", .lookup = "cuMemsetD2D32Async", .ptsz = false, .hook = (cm_fn)cuMemsetD2D32Async, .real = (void **)&cm_real.cuMemsetD2D32Async },
	{ .symbol = "cuMemsetD2D32Async_ptsz", .lookup = "cuMemsetD2D32Async", .ptsz = true, .hook = (cm_fn)cuMemsetD2D32Async_ptsz, .real = (void **)&cm_real.cuMemsetD2D32Async_ptsz },
	{ .symbol = "cuMemsetD2D32_v2", .lookup = "cuMemsetD2D32", .ptsz = false, .hook = (cm_fn)cuMemsetD2D32_v2, .real = (void **)&cm_real.cuMemsetD2D32_v2 },
	{ .symbol = "cuMemsetD2D32_v2_ptds", .lookup = "cuMemsetD2D32", .ptsz = true, .hook = (cm_fn)cuMemsetD2D32_v2_ptds, .real = (void **)&cm_real.cuMemsetD2D32_v2_ptds },
	{ .symbol = "cuMemsetD2D8", .lookup = "cuMemsetD2D8", .ptsz = false, .hook = (cm_fn)cuMemsetD2D8, .real = (void **)&cm_real.cuMemsetD2D8 },
	{ .symbol = "cuMemsetD2D8Async", .lookup = "cuMemsetD2D8Async", .ptsz = false, .hook = (cm_fn)cuMemsetD2D8Async, .real = (void **)&cm_real.cuMemsetD2D8Async },
	{ .symbol = "cuMemsetD2D8Async_ptsz", .lookup = "cuMemsetD2D8Async", .ptsz = true, .hook = (cm_fn)cuMemsetD2D8Async_ptsz, .real = (void **)&cm_real.cuMemsetD2D8Async_ptsz },
	{ .symbol = "cuMemsetD2D8_v2", .lookup = "cuMemsetD2D8", .ptsz = false, .hook = (cm_fn)cuMemsetD2D8_v2, .real = (void **)&cm_real.cuMemsetD2D8_v2 },
	{ .symbol = "cuMemsetD2D8_v2_ptds", .lookup = "cuMemsetD2D8", .ptsz = true, .hook = (cm_fn)cuMemsetD2D8_v2_ptds, .real = (void **)&cm_real.cuMemsetD2D8_v2_ptds },
	{ .symbol = "cuMemsetD32", .lookup = "cuMemsetD32", .ptsz = false, .hook = (cm_fn)cuMemsetD32, .real = (void **)&cm_real.cuMemsetD32 },
	{ .symbol = "cuMemsetD32Async", .lookup = "cuMemsetD32Async", .ptsz = false, .hook = (cm_fn)cuMemsetD32Async, .real = (void **)&cm_real.cuMemsetD32Async },
	{ .symbol = "cuMemsetD32Async_ptsz", .lookup = "cuMemsetD32Async", .ptsz = true, .hook = (cm_fn)cuMemsetD32Async_ptsz, .real = (void **)&cm_real.cuMemsetD32Async_ptsz },
	{ .symbol = "cuMemsetD32_v2", .lookup = "cuMemsetD32", .ptsz = false, .hook = (cm_fn)cuMemsetD32_v2, .real = (void **)&cm_real.cuMemsetD32_v2 },
	{ .symbol = "cuMemsetD32_v2_ptds", .lookup = "cuMemsetD32", .ptsz = true, .hook = (cm_fn)cuMemsetD32_v2_ptds, .real = (void **)&cm_real.cuMemsetD32_v2_ptds },
	{ .symbol = "cuMemsetD8", .lookup = "cuMemsetD8", .ptsz = false, .hook = (cm_fn)cuMemsetD8, .real = (void **)&cm_real.cuMemsetD8 },
	{ .symbol = "cuMemsetD8Async", .lookup = "cuMemsetD8Async", .ptsz = false, .hook = (cm_fn)cuMemsetD8Async, .real = (void **)&cm_real.cuMemsetD8Async },
	{ .symbol = "cuMemsetD8Async_ptsz", .lookup = "cuMemsetD8Async", .ptsz = true, .hook = (cm_fn)cuMemsetD8Async_ptsz, .real = (void **)&cm_real.cuMemsetD8Async_ptsz },
	{ .symbol = "cuMemsetD8_v2", .lookup = "cuMemsetD8", .ptsz = false, .hook = (cm_fn)cuMemsetD8_v2, .real = (void **)&cm_real.cuMemsetD8_v2 },
	{ .symbol = "cuMemsetD8_v2_ptds", .lookup = "cuMemsetD8", .ptsz = true, .hook = (cm_fn)cuMemsetD8_v2_ptds, .real = (void **)&cm_real.cuMemsetD8_v2_ptds },
	{ .symbol = "cuSignalExternalSemaphoresAsync", .lookup = "cuSignalExternalSemaphoresAsync", .ptsz = false, .hook = (cm_fn)cuSignalExternalSemaphoresAsync, .real = (void **)&cm_real.cuSignalExternalSemaphoresAsync },
	{ .symbol = "cuSignalExternalSemaphoresAsync_ptsz", .lookup = "cuSignalExternalSemaphoresAsync", .ptsz = true, .hook = (cm_fn)cuSignalExternalSemaphoresAsync_ptsz, .real = (void **)&cm_real.cuSignalExternalSemaphoresAsync_ptsz },
	{ .symbol = "cuStreamAddCallback", .lookup = "cuStreamAddCallback", .ptsz = false, .hook = (cm_fn)cuStreamAddCallback, .real = (void **)&cm_real.cuStreamAddCallback },
	{ .symbol = "cuStreamAddCallback_ptsz", .lookup = "cuStreamAddCallback", .ptsz = true, .hook = (cm_fn)cuStreamAddCallback_ptsz, .real = (void **)&cm_real.cuStreamAddCallback_ptsz },
	{ .symbol = "cuStreamAttachMemAsync", .lookup = "cuStreamAttachMemAsync", .ptsz = false, .hook = (cm_fn)cuStreamAttachMemAsync, .real = (void **)&cm_real.cuStreamAttachMemAsync },
	{ .symbol = "cuStreamAttachMemAsync_ptsz", .lookup = "cuStreamAttachMemAsync", .ptsz = true, .hook = (cm_fn)cuStreamAttachMemAsync_ptsz, .real = (void **)&cm_real.cuStreamAttachMemAsync_ptsz },
	{ .symbol = "cuStreamBatchMemOp", .lookup = "cuStreamBatchMemOp", .ptsz = false, .hook = (cm_fn)cuStreamBatchMemOp, .real = (void **)&cm_real.cuStreamBatchMemOp },
	{ .symbol = "cuStreamBatchMemOp_ptsz", .lookup = "cuStreamBatchMemOp", .ptsz = true, .hook = (cm_fn)cuStreamBatchMemOp_ptsz, .real = (void **)&cm_real.cuStreamBatchMemOp_ptsz },
	{ .symbol = "cuStreamBatchMemOp_v2", .lookup = "cuStreamBatchMemOp", .ptsz = false, .hook = (cm_fn)cuStreamBatchMemOp_v2, .real = (void **)&cm_real.cuStreamBatchMemOp_v2 },
	{ .symbol = "cuStreamBatchMemOp_v2_ptsz", .lookup = "cuStreamBatchMemOp", .ptsz = true, .hook = (cm_fn)cuStreamBatchMemOp_v2_ptsz, .real = (void **)&cm_real.cuStreamBatchMemOp_v2_ptsz },
	{ .symbol = "cuStreamWaitEvent", .lookup = "cuStreamWaitEvent", .ptsz = false, .hook = (cm_fn)cuStreamWaitEvent, .real = (void **)&cm_real.cuStreamWaitEvent },
	{ .symbol = "cuStreamWaitEvent_ptsz", .lookup = "cuStreamWaitEvent", .ptsz = true, .hook = (cm_fn)cuStreamWaitEvent_ptsz, .real = (void **)&cm_real.cuStreamWaitEvent_ptsz },
	{ .symbol = "cuStreamWaitValue32", .lookup = "cuStreamWaitValue32", .ptsz = false, .hook = (cm_fn)cuStreamWaitValue32, .real = (void **)&cm_real.cuStreamWaitValue32 },
	{ .symbol = "cuStreamWaitValue32_ptsz", .lookup = "cuStreamWaitValue32", .ptsz = true, .hook = (cm_fn)cuStreamWaitValue32_ptsz, .real = (void **)&cm_real.cuStreamWaitValue32_ptsz },
	{ .symbol = "cuStreamWaitValue32_v2", .lookup = "cuStreamWaitValue32", .ptsz = false, .hook = (cm_fn)cuStreamWaitValue32_v2, .real = (void **)&cm_real.cuStreamWaitValue32_v2 },
	{ .symbol = "cuStreamWaitValue32_v2_ptsz", .lookup = "cuStreamWaitValue32", .ptsz = true, .hook = (cm_fn)cuStreamWaitValue32_v2_ptsz, .real = (void **)&cm_real.cuStreamWaitValue32_v2_ptsz },
	{ .symbol = "cuStreamWaitValue64", .lookup = "cuStreamWaitValue64", .ptsz = false, .hook = (cm_fn)cuStreamWaitValue64, .real = (void **)&cm_real.cuStreamWaitValue64 },
	{ .symbol = "cuStreamWaitValue64_ptsz", .lookup = "cuStreamWaitValue64", .ptsz = true, .hook = (cm_fn)cuStreamWaitValue64_ptsz, .real = (void **)&cm_real.cuStreamWaitValue64_ptsz },
	{ .symbol = "cuStreamWaitValue64_v2", .lookup = "cuStreamWaitValue64", .ptsz = false, .hook = (cm_fn)cuStreamWaitValue64_v2, .real = (void **)&cm_real.cuStreamWaitValue64_v2 },
	{ .symbol = "cuStreamWaitValue64_v2_ptsz", .lookup = "cuStreamWaitValue64", .ptsz = true, .hook = (cm_fn)cuStreamWaitValue64_v2_ptsz, .real = (void **)&cm_real.cuStreamWaitValue64_v2_ptsz },
	{ .symbol = "cuStreamWriteValue32", .lookup = "cuStreamWriteValue32", .ptsz = false, .hook = (cm_fn)cuStreamWriteValue32, .real = (void **)&cm_real.cuStreamWriteValue32 },
	{ .symbol = "cuStreamWriteValue32_ptsz", .lookup = "cuStreamWriteValue32", .ptsz = true, .hook = (cm_fn)cuStreamWriteValue32_ptsz, .real = (void **)&cm_real.cuStreamWriteValue32_ptsz },
	{ .symbol = "cuStreamWriteValue32_v2", .lookup = "cuStreamWriteValue32", .ptsz = false, .hook = (cm_fn)cuStreamWriteValue32_v2, .real = (void **)&cm_real.cuStreamWriteValue32_v2 },
	{ .symbol = "cuStreamWriteValue32_v2_ptsz", .lookup = "cuStreamWriteValue32", .ptsz = true, .hook = (cm_fn)cuStreamWriteValue32_v2_ptsz, .real = (void **)&cm_real.cuStreamWriteValue32_v2_ptsz },
	{ .symbol = "cuStreamWriteValue64", .lookup = "cuStreamWriteValue64", .ptsz = false, .hook = (cm_fn)cuStreamWriteValue64, .real = (void **)&cm_real.cuStreamWriteValue64 },
	{ .symbol = "cuStreamWriteValue64_ptsz", .lookup = "cuStreamWriteValue64", .ptsz = true, .hook = (cm_fn)cuStreamWriteValue64_ptsz, .real = (void **)&cm_real.cuStreamWriteValue64_ptsz },
	{ .symbol = "cuStreamWriteValue64_v2", .lookup = "cuStreamWriteValue64", .ptsz = false, .hook = (cm_fn)cuStreamWriteValue64_v2, .real = (void **)&cm_real.cuStreamWriteValue64_v2 },
	{ .symbol = "cuStreamWriteValue64_v2_ptsz", .lookup = "cuStreamWriteValue64", .ptsz = true, .hook = (cm_fn)cuStreamWriteValue64_v2_ptsz, .real = (void **)&cm_real.cuStreamWriteValue64_v2_ptsz },
	{ .symbol = "cuWaitExternalSemaphoresAsync", .lookup = "cuWaitExternalSemaphoresAsync", .ptsz = false, .hook = (cm_fn)cuWaitExternalSemaphoresAsync, .real = (void **)&cm_real.cuWaitExternalSemaphoresAsync },
	{ .symbol = "cuWaitExternalSemaphoresAsync_ptsz", .lookup = "cuWaitExternalSemaphoresAsync", .ptsz = true, .hook = (cm_fn)cuWaitExternalSemaphoresAsync_ptsz, .real = (void **)&cm_real.cuWaitExternalSemaphoresAsync_ptsz },
};
const size_t cm_submit_count = CM_SUBMIT_COUNT;
