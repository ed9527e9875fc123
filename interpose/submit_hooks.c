/* interpose/submit_hooks.c - GENERATED: do not edit.
 *
 * Generated from cuda.h (CUDA_VERSION 13000) by
 *     scripts/gen_submit_hooks.py [--cuda-include DIR]
 * and checked by the unit test submit-hooks-generated (--check).
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
/* The older ABIs and the _ptsz/_ptds names are declared only under this
 * define; with them declared each wrapper below is checked against the
 * header's prototype of the same name. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>

#include "hook_entry.h"

#ifndef CM_EXPORT
#define CM_EXPORT __attribute__((visibility("default")))
#endif

#define CM_SUBMIT_COUNT 176

/* The driver's functions, filled by cm_submit_resolve (atomic stores). */
static void *cm_submit_real[CM_SUBMIT_COUNT];

__attribute__((noinline, cold)) static void *cm_submit_slow(size_t i)
{
	cm_submit_resolve();
	return __atomic_load_n(&cm_submit_real[i], __ATOMIC_RELAXED);
}

CM_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[0], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(0)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuEventRecord))cm_fn)(hEvent, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[1], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(1)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuEventRecordWithFlags))cm_fn)(hEvent, hStream, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[2], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(2)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuEventRecordWithFlags_ptsz))cm_fn)(hEvent, hStream, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[3], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(3)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuEventRecord_ptsz))cm_fn)(hEvent, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	if (instantiateParams && (instantiateParams->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
		cm_lib_submit(instantiateParams->hUploadStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[4], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(4)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphInstantiateWithParams))cm_fn)(phGraphExec, hGraph, instantiateParams);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec, CUgraph hGraph, CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams)
{
	if (instantiateParams && (instantiateParams->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
		cm_lib_submit(instantiateParams->hUploadStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[5], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(5)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphInstantiateWithParams_ptsz))cm_fn)(phGraphExec, hGraph, instantiateParams);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[6], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(6)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphLaunch))cm_fn)(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[7], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(7)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphLaunch_ptsz))cm_fn)(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[8], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(8)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphUpload))cm_fn)(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[9], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(9)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphUpload_ptsz))cm_fn)(hGraphExec, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphicsMapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[10], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(10)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphicsMapResources))cm_fn)(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphicsMapResources_ptsz(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[11], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(11)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphicsMapResources_ptsz))cm_fn)(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[12], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(12)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphicsUnmapResources))cm_fn)(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuGraphicsUnmapResources_ptsz(unsigned int count, CUgraphicsResource *resources, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[13], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(13)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuGraphicsUnmapResources_ptsz))cm_fn)(count, resources, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunch(CUfunction f)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[14], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(14)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunch))cm_fn)(f);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[15], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(15)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchCooperativeKernel))cm_fn)(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices, unsigned int flags)
{
	for (unsigned int cm_i = 0; launchParamsList && cm_i < numDevices; cm_i++)
		cm_lib_submit(launchParamsList[cm_i].hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[16], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(16)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchCooperativeKernelMultiDevice))cm_fn)(launchParamsList, numDevices, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[17], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(17)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchCooperativeKernel_ptsz))cm_fn)(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchGrid(CUfunction f, int grid_width, int grid_height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[18], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(18)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchGrid))cm_fn)(f, grid_width, grid_height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[19], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(19)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchGridAsync))cm_fn)(f, grid_width, grid_height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[20], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(20)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchHostFunc))cm_fn)(hStream, fn, userData);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[21], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(21)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchHostFunc_ptsz))cm_fn)(hStream, fn, userData);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[22], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(22)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchKernel))cm_fn)(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	cm_lib_submit(config ? config->hStream : NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[23], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(23)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchKernelEx))cm_fn)(config, f, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
	cm_lib_submit(config ? config->hStream : NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[24], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(24)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchKernelEx_ptsz))cm_fn)(config, f, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[25], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(25)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuLaunchKernel_ptsz))cm_fn)(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[26], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(26)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemAllocFromPoolAsync))cm_fn)(dptr, bytesize, pool, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[27], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(27)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemAllocFromPoolAsync_ptsz))cm_fn)(dptr, bytesize, pool, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemBatchDecompressAsync(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[28], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(28)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemBatchDecompressAsync))cm_fn)(paramsArray, count, flags, errorIndex, stream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemBatchDecompressAsync_ptsz(CUmemDecompressParams *paramsArray, size_t count, unsigned int flags, size_t *errorIndex, CUstream stream)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[29], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(29)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemBatchDecompressAsync_ptsz))cm_fn)(paramsArray, count, flags, errorIndex, stream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[30], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(30)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemDiscardAndPrefetchBatchAsync))cm_fn)(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[31], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(31)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemDiscardAndPrefetchBatchAsync_ptsz))cm_fn)(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[32], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(32)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemDiscardBatchAsync))cm_fn)(dptrs, sizes, count, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[33], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(33)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemDiscardBatchAsync_ptsz))cm_fn)(dptrs, sizes, count, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[34], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(34)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemMapArrayAsync))cm_fn)(mapInfoList, count, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemMapArrayAsync_ptsz(CUarrayMapInfo *mapInfoList, unsigned int count, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[35], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(35)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemMapArrayAsync_ptsz))cm_fn)(mapInfoList, count, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[36], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(36)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemPrefetchAsync))cm_fn)(devPtr, count, dstDevice, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[37], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(37)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemPrefetchAsync_ptsz))cm_fn)(devPtr, count, dstDevice, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[38], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(38)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemPrefetchAsync_v2))cm_fn)(devPtr, count, location, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[39], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(39)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemPrefetchAsync_v2_ptsz))cm_fn)(devPtr, count, location, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[40], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(40)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemPrefetchBatchAsync))cm_fn)(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes, size_t count, CUmemLocation *prefetchLocs, size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[41], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(41)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemPrefetchBatchAsync_ptsz))cm_fn)(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[42], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(42)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy))cm_fn)(dst, src, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[43], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(43)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2D))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[44], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(44)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2DAsync))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[45], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(45)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2DAsync_v2))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[46], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(46)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2DAsync_v2_ptsz))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[47], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(47)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2DUnaligned))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[48], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(48)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2DUnaligned_v2))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[49], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(49)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2DUnaligned_v2_ptds))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[50], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(50)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2D_v2))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[51], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(51)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy2D_v2_ptds))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[52], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(52)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3D))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[53], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(53)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DAsync))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[54], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(54)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DAsync_v2))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[55], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(55)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DAsync_v2_ptsz))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[56], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(56)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DBatchAsync))cm_fn)(numOps, opList, failIdx, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DBatchAsync_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[57], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(57)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DBatchAsync_ptsz))cm_fn)(numOps, opList, failIdx, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[58], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(58)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DBatchAsync_v2))cm_fn)(numOps, opList, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[59], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(59)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DBatchAsync_v2_ptsz))cm_fn)(numOps, opList, flags, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[60], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(60)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DPeer))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[61], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(61)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DPeerAsync))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[62], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(62)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DPeerAsync_ptsz))cm_fn)(pCopy, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[63], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(63)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3DPeer_ptds))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[64], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(64)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3D_v2))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[65], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(65)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy3D_v2_ptds))cm_fn)(pCopy);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[66], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(66)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAsync))cm_fn)(dst, src, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[67], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(67)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAsync_ptsz))cm_fn)(dst, src, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[68], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(68)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoA))cm_fn)(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[69], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(69)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoA_v2))cm_fn)(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[70], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(70)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoA_v2_ptds))cm_fn)(dstArray, dstOffset, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoD(CUdeviceptr_v1 dstDevice, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[71], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(71)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoD))cm_fn)(dstDevice, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[72], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(72)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoD_v2))cm_fn)(dstDevice, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[73], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(73)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoD_v2_ptds))cm_fn)(dstDevice, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[74], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(74)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoH))cm_fn)(dstHost, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[75], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(75)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoHAsync))cm_fn)(dstHost, srcArray, srcOffset, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[76], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(76)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoHAsync_v2))cm_fn)(dstHost, srcArray, srcOffset, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[77], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(77)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoHAsync_v2_ptsz))cm_fn)(dstHost, srcArray, srcOffset, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[78], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(78)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoH_v2))cm_fn)(dstHost, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[79], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(79)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyAtoH_v2_ptds))cm_fn)(dstHost, srcArray, srcOffset, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[80], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(80)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyBatchAsync))cm_fn)(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[81], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(81)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyBatchAsync_ptsz))cm_fn)(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[82], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(82)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyBatchAsync_v2))cm_fn)(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[83], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(83)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyBatchAsync_v2_ptsz))cm_fn)(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoA(CUarray dstArray, unsigned int dstOffset, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[84], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(84)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoA))cm_fn)(dstArray, dstOffset, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[85], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(85)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoA_v2))cm_fn)(dstArray, dstOffset, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[86], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(86)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoA_v2_ptds))cm_fn)(dstArray, dstOffset, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoD(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[87], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(87)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoD))cm_fn)(dstDevice, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[88], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(88)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoDAsync))cm_fn)(dstDevice, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[89], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(89)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoDAsync_v2))cm_fn)(dstDevice, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[90], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(90)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoDAsync_v2_ptsz))cm_fn)(dstDevice, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[91], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(91)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoD_v2))cm_fn)(dstDevice, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[92], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(92)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoD_v2_ptds))cm_fn)(dstDevice, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[93], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(93)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoH))cm_fn)(dstHost, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[94], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(94)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoHAsync))cm_fn)(dstHost, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[95], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(95)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoHAsync_v2))cm_fn)(dstHost, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[96], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(96)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoHAsync_v2_ptsz))cm_fn)(dstHost, srcDevice, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[97], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(97)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoH_v2))cm_fn)(dstHost, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[98], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(98)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyDtoH_v2_ptds))cm_fn)(dstHost, srcDevice, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[99], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(99)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoA))cm_fn)(dstArray, dstOffset, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[100], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(100)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoAAsync))cm_fn)(dstArray, dstOffset, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[101], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(101)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoAAsync_v2))cm_fn)(dstArray, dstOffset, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[102], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(102)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoAAsync_v2_ptsz))cm_fn)(dstArray, dstOffset, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[103], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(103)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoA_v2))cm_fn)(dstArray, dstOffset, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[104], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(104)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoA_v2_ptds))cm_fn)(dstArray, dstOffset, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[105], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(105)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoD))cm_fn)(dstDevice, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[106], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(106)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoDAsync))cm_fn)(dstDevice, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[107], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(107)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoDAsync_v2))cm_fn)(dstDevice, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[108], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(108)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoDAsync_v2_ptsz))cm_fn)(dstDevice, srcHost, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[109], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(109)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoD_v2))cm_fn)(dstDevice, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[110], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(110)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyHtoD_v2_ptds))cm_fn)(dstDevice, srcHost, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[111], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(111)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyPeer))cm_fn)(dstDevice, dstContext, srcDevice, srcContext, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[112], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(112)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyPeerAsync))cm_fn)(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[113], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(113)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyPeerAsync_ptsz))cm_fn)(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[114], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(114)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpyPeer_ptds))cm_fn)(dstDevice, dstContext, srcDevice, srcContext, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[115], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(115)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemcpy_ptds))cm_fn)(dst, src, ByteCount);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD16(CUdeviceptr_v1 dstDevice, unsigned short us, unsigned int N)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[116], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(116)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD16))cm_fn)(dstDevice, us, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[117], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(117)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD16Async))cm_fn)(dstDevice, us, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[118], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(118)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD16Async_ptsz))cm_fn)(dstDevice, us, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[119], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(119)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD16_v2))cm_fn)(dstDevice, us, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[120], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(120)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD16_v2_ptds))cm_fn)(dstDevice, us, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D16(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned short us, unsigned int Width, unsigned int Height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[121], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(121)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D16))cm_fn)(dstDevice, dstPitch, us, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[122], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(122)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D16Async))cm_fn)(dstDevice, dstPitch, us, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[123], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(123)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D16Async_ptsz))cm_fn)(dstDevice, dstPitch, us, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[124], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(124)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D16_v2))cm_fn)(dstDevice, dstPitch, us, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[125], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(125)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D16_v2_ptds))cm_fn)(dstDevice, dstPitch, us, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D32(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned int ui, unsigned int Width, unsigned int Height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[126], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(126)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D32))cm_fn)(dstDevice, dstPitch, ui, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[127], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(127)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D32Async))cm_fn)(dstDevice, dstPitch, ui, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[128], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(128)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D32Async_ptsz))cm_fn)(dstDevice, dstPitch, ui, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[129], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(129)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D32_v2))cm_fn)(dstDevice, dstPitch, ui, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[130], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(130)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D32_v2_ptds))cm_fn)(dstDevice, dstPitch, ui, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D8(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned char uc, unsigned int Width, unsigned int Height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[131], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(131)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D8))cm_fn)(dstDevice, dstPitch, uc, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[132], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(132)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D8Async))cm_fn)(dstDevice, dstPitch, uc, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[133], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(133)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D8Async_ptsz))cm_fn)(dstDevice, dstPitch, uc, Width, Height, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[134], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(134)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D8_v2))cm_fn)(dstDevice, dstPitch, uc, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[135], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(135)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD2D8_v2_ptds))cm_fn)(dstDevice, dstPitch, uc, Width, Height);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui, unsigned int N)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[136], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(136)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD32))cm_fn)(dstDevice, ui, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[137], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(137)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD32Async))cm_fn)(dstDevice, ui, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[138], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(138)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD32Async_ptsz))cm_fn)(dstDevice, ui, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[139], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(139)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD32_v2))cm_fn)(dstDevice, ui, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[140], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(140)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD32_v2_ptds))cm_fn)(dstDevice, ui, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc, unsigned int N)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[141], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(141)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD8))cm_fn)(dstDevice, uc, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[142], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(142)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD8Async))cm_fn)(dstDevice, uc, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[143], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(143)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD8Async_ptsz))cm_fn)(dstDevice, uc, N, hStream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	cm_lib_submit(NULL, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[144], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(144)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD8_v2))cm_fn)(dstDevice, uc, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	cm_lib_submit(NULL, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[145], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(145)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuMemsetD8_v2_ptds))cm_fn)(dstDevice, uc, N);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[146], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(146)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuSignalExternalSemaphoresAsync))cm_fn)(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[147], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(147)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuSignalExternalSemaphoresAsync_ptsz))cm_fn)(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[148], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(148)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamAddCallback))cm_fn)(hStream, callback, userData, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[149], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(149)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamAddCallback_ptsz))cm_fn)(hStream, callback, userData, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[150], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(150)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamAttachMemAsync))cm_fn)(hStream, dptr, length, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[151], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(151)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamAttachMemAsync_ptsz))cm_fn)(hStream, dptr, length, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[152], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(152)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamBatchMemOp))cm_fn)(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamBatchMemOp_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[153], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(153)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamBatchMemOp_ptsz))cm_fn)(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamBatchMemOp_v2(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[154], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(154)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamBatchMemOp_v2))cm_fn)(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamBatchMemOp_v2_ptsz(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[155], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(155)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamBatchMemOp_v2_ptsz))cm_fn)(stream, count, paramArray, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	cm_lib_submit(hStream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[156], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(156)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitEvent))cm_fn)(hStream, hEvent, Flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
	cm_lib_submit(hStream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[157], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(157)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitEvent_ptsz))cm_fn)(hStream, hEvent, Flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[158], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(158)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue32))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[159], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(159)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue32_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[160], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(160)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue32_v2))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[161], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(161)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue32_v2_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[162], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(162)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue64))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[163], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(163)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue64_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[164], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(164)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue64_v2))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWaitValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[165], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(165)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWaitValue64_v2_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[166], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(166)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue32))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue32_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[167], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(167)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue32_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue32_v2(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[168], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(168)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue32_v2))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue32_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[169], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(169)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue32_v2_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[170], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(170)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue64))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue64_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[171], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(171)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue64_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue64_v2(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[172], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(172)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue64_v2))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuStreamWriteValue64_v2_ptsz(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[173], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(173)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuStreamWriteValue64_v2_ptsz))cm_fn)(stream, addr, value, flags);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, false);
	void *cm_fn = __atomic_load_n(&cm_submit_real[174], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(174)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuWaitExternalSemaphoresAsync))cm_fn)(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

CM_EXPORT CUresult cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *extSemArray, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray, unsigned int numExtSems, CUstream stream)
{
	cm_lib_submit(stream, true);
	void *cm_fn = __atomic_load_n(&cm_submit_real[175], __ATOMIC_RELAXED);
	if (__builtin_expect(cm_fn == NULL, 0) && (cm_fn = cm_submit_slow(175)) == NULL)
		return CUDA_ERROR_NOT_FOUND;
	CUresult cm_r = ((__typeof__(&cuWaitExternalSemaphoresAsync_ptsz))cm_fn)(extSemArray, paramsArray, numExtSems, stream);
	cm_lib_submitted();
	return cm_r;
}

const cm_hook_entry cm_submit_table[CM_SUBMIT_COUNT] = {
	{ .symbol = "cuEventRecord", .lookup = "cuEventRecord", .ptsz = false, .hook = (void *)cuEventRecord, .real = &cm_submit_real[0] },
	{ .symbol = "cuEventRecordWithFlags", .lookup = "cuEventRecordWithFlags", .ptsz = false, .hook = (void *)cuEventRecordWithFlags, .real = &cm_submit_real[1] },
	{ .symbol = "cuEventRecordWithFlags_ptsz", .lookup = "cuEventRecordWithFlags", .ptsz = true, .hook = (void *)cuEventRecordWithFlags_ptsz, .real = &cm_submit_real[2] },
	{ .symbol = "cuEventRecord_ptsz", .lookup = "cuEventRecord", .ptsz = true, .hook = (void *)cuEventRecord_ptsz, .real = &cm_submit_real[3] },
	{ .symbol = "cuGraphInstantiateWithParams", .lookup = "cuGraphInstantiateWithParams", .ptsz = false, .hook = (void *)cuGraphInstantiateWithParams, .real = &cm_submit_real[4] },
	{ .symbol = "cuGraphInstantiateWithParams_ptsz", .lookup = "cuGraphInstantiateWithParams", .ptsz = true, .hook = (void *)cuGraphInstantiateWithParams_ptsz, .real = &cm_submit_real[5] },
	{ .symbol = "cuGraphLaunch", .lookup = "cuGraphLaunch", .ptsz = false, .hook = (void *)cuGraphLaunch, .real = &cm_submit_real[6] },
	{ .symbol = "cuGraphLaunch_ptsz", .lookup = "cuGraphLaunch", .ptsz = true, .hook = (void *)cuGraphLaunch_ptsz, .real = &cm_submit_real[7] },
	{ .symbol = "cuGraphUpload", .lookup = "cuGraphUpload", .ptsz = false, .hook = (void *)cuGraphUpload, .real = &cm_submit_real[8] },
	{ .symbol = "cuGraphUpload_ptsz", .lookup = "cuGraphUpload", .ptsz = true, .hook = (void *)cuGraphUpload_ptsz, .real = &cm_submit_real[9] },
	{ .symbol = "cuGraphicsMapResources", .lookup = "cuGraphicsMapResources", .ptsz = false, .hook = (void *)cuGraphicsMapResources, .real = &cm_submit_real[10] },
	{ .symbol = "cuGraphicsMapResources_ptsz", .lookup = "cuGraphicsMapResources", .ptsz = true, .hook = (void *)cuGraphicsMapResources_ptsz, .real = &cm_submit_real[11] },
	{ .symbol = "cuGraphicsUnmapResources", .lookup = "cuGraphicsUnmapResources", .ptsz = false, .hook = (void *)cuGraphicsUnmapResources, .real = &cm_submit_real[12] },
	{ .symbol = "cuGraphicsUnmapResources_ptsz", .lookup = "cuGraphicsUnmapResources", .ptsz = true, .hook = (void *)cuGraphicsUnmapResources_ptsz, .real = &cm_submit_real[13] },
	{ .symbol = "cuLaunch", .lookup = "cuLaunch", .ptsz = false, .hook = (void *)cuLaunch, .real = &cm_submit_real[14] },
	{ .symbol = "cuLaunchCooperativeKernel", .lookup = "cuLaunchCooperativeKernel", .ptsz = false, .hook = (void *)cuLaunchCooperativeKernel, .real = &cm_submit_real[15] },
	{ .symbol = "cuLaunchCooperativeKernelMultiDevice", .lookup = "cuLaunchCooperativeKernelMultiDevice", .ptsz = false, .hook = (void *)cuLaunchCooperativeKernelMultiDevice, .real = &cm_submit_real[16] },
	{ .symbol = "cuLaunchCooperativeKernel_ptsz", .lookup = "cuLaunchCooperativeKernel", .ptsz = true, .hook = (void *)cuLaunchCooperativeKernel_ptsz, .real = &cm_submit_real[17] },
	{ .symbol = "cuLaunchGrid", .lookup = "cuLaunchGrid", .ptsz = false, .hook = (void *)cuLaunchGrid, .real = &cm_submit_real[18] },
	{ .symbol = "cuLaunchGridAsync", .lookup = "cuLaunchGridAsync", .ptsz = false, .hook = (void *)cuLaunchGridAsync, .real = &cm_submit_real[19] },
	{ .symbol = "cuLaunchHostFunc", .lookup = "cuLaunchHostFunc", .ptsz = false, .hook = (void *)cuLaunchHostFunc, .real = &cm_submit_real[20] },
	{ .symbol = "cuLaunchHostFunc_ptsz", .lookup = "cuLaunchHostFunc", .ptsz = true, .hook = (void *)cuLaunchHostFunc_ptsz, .real = &cm_submit_real[21] },
	{ .symbol = "cuLaunchKernel", .lookup = "cuLaunchKernel", .ptsz = false, .hook = (void *)cuLaunchKernel, .real = &cm_submit_real[22] },
	{ .symbol = "cuLaunchKernelEx", .lookup = "cuLaunchKernelEx", .ptsz = false, .hook = (void *)cuLaunchKernelEx, .real = &cm_submit_real[23] },
	{ .symbol = "cuLaunchKernelEx_ptsz", .lookup = "cuLaunchKernelEx", .ptsz = true, .hook = (void *)cuLaunchKernelEx_ptsz, .real = &cm_submit_real[24] },
	{ .symbol = "cuLaunchKernel_ptsz", .lookup = "cuLaunchKernel", .ptsz = true, .hook = (void *)cuLaunchKernel_ptsz, .real = &cm_submit_real[25] },
	{ .symbol = "cuMemAllocFromPoolAsync", .lookup = "cuMemAllocFromPoolAsync", .ptsz = false, .hook = (void *)cuMemAllocFromPoolAsync, .real = &cm_submit_real[26] },
	{ .symbol = "cuMemAllocFromPoolAsync_ptsz", .lookup = "cuMemAllocFromPoolAsync", .ptsz = true, .hook = (void *)cuMemAllocFromPoolAsync_ptsz, .real = &cm_submit_real[27] },
	{ .symbol = "cuMemBatchDecompressAsync", .lookup = "cuMemBatchDecompressAsync", .ptsz = false, .hook = (void *)cuMemBatchDecompressAsync, .real = &cm_submit_real[28] },
	{ .symbol = "cuMemBatchDecompressAsync_ptsz", .lookup = "cuMemBatchDecompressAsync", .ptsz = true, .hook = (void *)cuMemBatchDecompressAsync_ptsz, .real = &cm_submit_real[29] },
	{ .symbol = "cuMemDiscardAndPrefetchBatchAsync", .lookup = "cuMemDiscardAndPrefetchBatchAsync", .ptsz = false, .hook = (void *)cuMemDiscardAndPrefetchBatchAsync, .real = &cm_submit_real[30] },
	{ .symbol = "cuMemDiscardAndPrefetchBatchAsync_ptsz", .lookup = "cuMemDiscardAndPrefetchBatchAsync", .ptsz = true, .hook = (void *)cuMemDiscardAndPrefetchBatchAsync_ptsz, .real = &cm_submit_real[31] },
	{ .symbol = "cuMemDiscardBatchAsync", .lookup = "cuMemDiscardBatchAsync", .ptsz = false, .hook = (void *)cuMemDiscardBatchAsync, .real = &cm_submit_real[32] },
	{ .symbol = "cuMemDiscardBatchAsync_ptsz", .lookup = "cuMemDiscardBatchAsync", .ptsz = true, .hook = (void *)cuMemDiscardBatchAsync_ptsz, .real = &cm_submit_real[33] },
	{ .symbol = "cuMemMapArrayAsync", .lookup = "cuMemMapArrayAsync", .ptsz = false, .hook = (void *)cuMemMapArrayAsync, .real = &cm_submit_real[34] },
	{ .symbol = "cuMemMapArrayAsync_ptsz", .lookup = "cuMemMapArrayAsync", .ptsz = true, .hook = (void *)cuMemMapArrayAsync_ptsz, .real = &cm_submit_real[35] },
	{ .symbol = "cuMemPrefetchAsync", .lookup = "cuMemPrefetchAsync", .ptsz = false, .hook = (void *)cuMemPrefetchAsync, .real = &cm_submit_real[36] },
	{ .symbol = "cuMemPrefetchAsync_ptsz", .lookup = "cuMemPrefetchAsync", .ptsz = true, .hook = (void *)cuMemPrefetchAsync_ptsz, .real = &cm_submit_real[37] },
	{ .symbol = "cuMemPrefetchAsync_v2", .lookup = "cuMemPrefetchAsync", .ptsz = false, .hook = (void *)cuMemPrefetchAsync_v2, .real = &cm_submit_real[38] },
	{ .symbol = "cuMemPrefetchAsync_v2_ptsz", .lookup = "cuMemPrefetchAsync", .ptsz = true, .hook = (void *)cuMemPrefetchAsync_v2_ptsz, .real = &cm_submit_real[39] },
	{ .symbol = "cuMemPrefetchBatchAsync", .lookup = "cuMemPrefetchBatchAsync", .ptsz = false, .hook = (void *)cuMemPrefetchBatchAsync, .real = &cm_submit_real[40] },
	{ .symbol = "cuMemPrefetchBatchAsync_ptsz", .lookup = "cuMemPrefetchBatchAsync", .ptsz = true, .hook = (void *)cuMemPrefetchBatchAsync_ptsz, .real = &cm_submit_real[41] },
	{ .symbol = "cuMemcpy", .lookup = "cuMemcpy", .ptsz = false, .hook = (void *)cuMemcpy, .real = &cm_submit_real[42] },
	{ .symbol = "cuMemcpy2D", .lookup = "cuMemcpy2D", .ptsz = false, .hook = (void *)cuMemcpy2D, .real = &cm_submit_real[43] },
	{ .symbol = "cuMemcpy2DAsync", .lookup = "cuMemcpy2DAsync", .ptsz = false, .hook = (void *)cuMemcpy2DAsync, .real = &cm_submit_real[44] },
	{ .symbol = "cuMemcpy2DAsync_v2", .lookup = "cuMemcpy2DAsync", .ptsz = false, .hook = (void *)cuMemcpy2DAsync_v2, .real = &cm_submit_real[45] },
	{ .symbol = "cuMemcpy2DAsync_v2_ptsz", .lookup = "cuMemcpy2DAsync", .ptsz = true, .hook = (void *)cuMemcpy2DAsync_v2_ptsz, .real = &cm_submit_real[46] },
	{ .symbol = "cuMemcpy2DUnaligned", .lookup = "cuMemcpy2DUnaligned", .ptsz = false, .hook = (void *)cuMemcpy2DUnaligned, .real = &cm_submit_real[47] },
	{ .symbol = "cuMemcpy2DUnaligned_v2", .lookup = "cuMemcpy2DUnaligned", .ptsz = false, .hook = (void *)cuMemcpy2DUnaligned_v2, .real = &cm_submit_real[48] },
	{ .symbol = "cuMemcpy2DUnaligned_v2_ptds", .lookup = "cuMemcpy2DUnaligned", .ptsz = true, .hook = (void *)cuMemcpy2DUnaligned_v2_ptds, .real = &cm_submit_real[49] },
	{ .symbol = "cuMemcpy2D_v2", .lookup = "cuMemcpy2D", .ptsz = false, .hook = (void *)cuMemcpy2D_v2, .real = &cm_submit_real[50] },
	{ .symbol = "cuMemcpy2D_v2_ptds", .lookup = "cuMemcpy2D", .ptsz = true, .hook = (void *)cuMemcpy2D_v2_ptds, .real = &cm_submit_real[51] },
	{ .symbol = "cuMemcpy3D", .lookup = "cuMemcpy3D", .ptsz = false, .hook = (void *)cuMemcpy3D, .real = &cm_submit_real[52] },
	{ .symbol = "cuMemcpy3DAsync", .lookup = "cuMemcpy3DAsync", .ptsz = false, .hook = (void *)cuMemcpy3DAsync, .real = &cm_submit_real[53] },
	{ .symbol = "cuMemcpy3DAsync_v2", .lookup = "cuMemcpy3DAsync", .ptsz = false, .hook = (void *)cuMemcpy3DAsync_v2, .real = &cm_submit_real[54] },
	{ .symbol = "cuMemcpy3DAsync_v2_ptsz", .lookup = "cuMemcpy3DAsync", .ptsz = true, .hook = (void *)cuMemcpy3DAsync_v2_ptsz, .real = &cm_submit_real[55] },
	{ .symbol = "cuMemcpy3DBatchAsync", .lookup = "cuMemcpy3DBatchAsync", .ptsz = false, .hook = (void *)cuMemcpy3DBatchAsync, .real = &cm_submit_real[56] },
	{ .symbol = "cuMemcpy3DBatchAsync_ptsz", .lookup = "cuMemcpy3DBatchAsync", .ptsz = true, .hook = (void *)cuMemcpy3DBatchAsync_ptsz, .real = &cm_submit_real[57] },
	{ .symbol = "cuMemcpy3DBatchAsync_v2", .lookup = "cuMemcpy3DBatchAsync", .ptsz = false, .hook = (void *)cuMemcpy3DBatchAsync_v2, .real = &cm_submit_real[58] },
	{ .symbol = "cuMemcpy3DBatchAsync_v2_ptsz", .lookup = "cuMemcpy3DBatchAsync", .ptsz = true, .hook = (void *)cuMemcpy3DBatchAsync_v2_ptsz, .real = &cm_submit_real[59] },
	{ .symbol = "cuMemcpy3DPeer", .lookup = "cuMemcpy3DPeer", .ptsz = false, .hook = (void *)cuMemcpy3DPeer, .real = &cm_submit_real[60] },
	{ .symbol = "cuMemcpy3DPeerAsync", .lookup = "cuMemcpy3DPeerAsync", .ptsz = false, .hook = (void *)cuMemcpy3DPeerAsync, .real = &cm_submit_real[61] },
	{ .symbol = "cuMemcpy3DPeerAsync_ptsz", .lookup = "cuMemcpy3DPeerAsync", .ptsz = true, .hook = (void *)cuMemcpy3DPeerAsync_ptsz, .real = &cm_submit_real[62] },
	{ .symbol = "cuMemcpy3DPeer_ptds", .lookup = "cuMemcpy3DPeer", .ptsz = true, .hook = (void *)cuMemcpy3DPeer_ptds, .real = &cm_submit_real[63] },
	{ .symbol = "cuMemcpy3D_v2", .lookup = "cuMemcpy3D", .ptsz = false, .hook = (void *)cuMemcpy3D_v2, .real = &cm_submit_real[64] },
	{ .symbol = "cuMemcpy3D_v2_ptds", .lookup = "cuMemcpy3D", .ptsz = true, .hook = (void *)cuMemcpy3D_v2_ptds, .real = &cm_submit_real[65] },
	{ .symbol = "cuMemcpyAsync", .lookup = "cuMemcpyAsync", .ptsz = false, .hook = (void *)cuMemcpyAsync, .real = &cm_submit_real[66] },
	{ .symbol = "cuMemcpyAsync_ptsz", .lookup = "cuMemcpyAsync", .ptsz = true, .hook = (void *)cuMemcpyAsync_ptsz, .real = &cm_submit_real[67] },
	{ .symbol = "cuMemcpyAtoA", .lookup = "cuMemcpyAtoA", .ptsz = false, .hook = (void *)cuMemcpyAtoA, .real = &cm_submit_real[68] },
	{ .symbol = "cuMemcpyAtoA_v2", .lookup = "cuMemcpyAtoA", .ptsz = false, .hook = (void *)cuMemcpyAtoA_v2, .real = &cm_submit_real[69] },
	{ .symbol = "cuMemcpyAtoA_v2_ptds", .lookup = "cuMemcpyAtoA", .ptsz = true, .hook = (void *)cuMemcpyAtoA_v2_ptds, .real = &cm_submit_real[70] },
	{ .symbol = "cuMemcpyAtoD", .lookup = "cuMemcpyAtoD", .ptsz = false, .hook = (void *)cuMemcpyAtoD, .real = &cm_submit_real[71] },
	{ .symbol = "cuMemcpyAtoD_v2", .lookup = "cuMemcpyAtoD", .ptsz = false, .hook = (void *)cuMemcpyAtoD_v2, .real = &cm_submit_real[72] },
	{ .symbol = "cuMemcpyAtoD_v2_ptds", .lookup = "cuMemcpyAtoD", .ptsz = true, .hook = (void *)cuMemcpyAtoD_v2_ptds, .real = &cm_submit_real[73] },
	{ .symbol = "cuMemcpyAtoH", .lookup = "cuMemcpyAtoH", .ptsz = false, .hook = (void *)cuMemcpyAtoH, .real = &cm_submit_real[74] },
	{ .symbol = "cuMemcpyAtoHAsync", .lookup = "cuMemcpyAtoHAsync", .ptsz = false, .hook = (void *)cuMemcpyAtoHAsync, .real = &cm_submit_real[75] },
	{ .symbol = "cuMemcpyAtoHAsync_v2", .lookup = "cuMemcpyAtoHAsync", .ptsz = false, .hook = (void *)cuMemcpyAtoHAsync_v2, .real = &cm_submit_real[76] },
	{ .symbol = "cuMemcpyAtoHAsync_v2_ptsz", .lookup = "cuMemcpyAtoHAsync", .ptsz = true, .hook = (void *)cuMemcpyAtoHAsync_v2_ptsz, .real = &cm_submit_real[77] },
	{ .symbol = "cuMemcpyAtoH_v2", .lookup = "cuMemcpyAtoH", .ptsz = false, .hook = (void *)cuMemcpyAtoH_v2, .real = &cm_submit_real[78] },
	{ .symbol = "cuMemcpyAtoH_v2_ptds", .lookup = "cuMemcpyAtoH", .ptsz = true, .hook = (void *)cuMemcpyAtoH_v2_ptds, .real = &cm_submit_real[79] },
	{ .symbol = "cuMemcpyBatchAsync", .lookup = "cuMemcpyBatchAsync", .ptsz = false, .hook = (void *)cuMemcpyBatchAsync, .real = &cm_submit_real[80] },
	{ .symbol = "cuMemcpyBatchAsync_ptsz", .lookup = "cuMemcpyBatchAsync", .ptsz = true, .hook = (void *)cuMemcpyBatchAsync_ptsz, .real = &cm_submit_real[81] },
	{ .symbol = "cuMemcpyBatchAsync_v2", .lookup = "cuMemcpyBatchAsync", .ptsz = false, .hook = (void *)cuMemcpyBatchAsync_v2, .real = &cm_submit_real[82] },
	{ .symbol = "cuMemcpyBatchAsync_v2_ptsz", .lookup = "cuMemcpyBatchAsync", .ptsz = true, .hook = (void *)cuMemcpyBatchAsync_v2_ptsz, .real = &cm_submit_real[83] },
	{ .symbol = "cuMemcpyDtoA", .lookup = "cuMemcpyDtoA", .ptsz = false, .hook = (void *)cuMemcpyDtoA, .real = &cm_submit_real[84] },
	{ .symbol = "cuMemcpyDtoA_v2", .lookup = "cuMemcpyDtoA", .ptsz = false, .hook = (void *)cuMemcpyDtoA_v2, .real = &cm_submit_real[85] },
	{ .symbol = "cuMemcpyDtoA_v2_ptds", .lookup = "cuMemcpyDtoA", .ptsz = true, .hook = (void *)cuMemcpyDtoA_v2_ptds, .real = &cm_submit_real[86] },
	{ .symbol = "cuMemcpyDtoD", .lookup = "cuMemcpyDtoD", .ptsz = false, .hook = (void *)cuMemcpyDtoD, .real = &cm_submit_real[87] },
	{ .symbol = "cuMemcpyDtoDAsync", .lookup = "cuMemcpyDtoDAsync", .ptsz = false, .hook = (void *)cuMemcpyDtoDAsync, .real = &cm_submit_real[88] },
	{ .symbol = "cuMemcpyDtoDAsync_v2", .lookup = "cuMemcpyDtoDAsync", .ptsz = false, .hook = (void *)cuMemcpyDtoDAsync_v2, .real = &cm_submit_real[89] },
	{ .symbol = "cuMemcpyDtoDAsync_v2_ptsz", .lookup = "cuMemcpyDtoDAsync", .ptsz = true, .hook = (void *)cuMemcpyDtoDAsync_v2_ptsz, .real = &cm_submit_real[90] },
	{ .symbol = "cuMemcpyDtoD_v2", .lookup = "cuMemcpyDtoD", .ptsz = false, .hook = (void *)cuMemcpyDtoD_v2, .real = &cm_submit_real[91] },
	{ .symbol = "cuMemcpyDtoD_v2_ptds", .lookup = "cuMemcpyDtoD", .ptsz = true, .hook = (void *)cuMemcpyDtoD_v2_ptds, .real = &cm_submit_real[92] },
	{ .symbol = "cuMemcpyDtoH", .lookup = "cuMemcpyDtoH", .ptsz = false, .hook = (void *)cuMemcpyDtoH, .real = &cm_submit_real[93] },
	{ .symbol = "cuMemcpyDtoHAsync", .lookup = "cuMemcpyDtoHAsync", .ptsz = false, .hook = (void *)cuMemcpyDtoHAsync, .real = &cm_submit_real[94] },
	{ .symbol = "cuMemcpyDtoHAsync_v2", .lookup = "cuMemcpyDtoHAsync", .ptsz = false, .hook = (void *)cuMemcpyDtoHAsync_v2, .real = &cm_submit_real[95] },
	{ .symbol = "cuMemcpyDtoHAsync_v2_ptsz", .lookup = "cuMemcpyDtoHAsync", .ptsz = true, .hook = (void *)cuMemcpyDtoHAsync_v2_ptsz, .real = &cm_submit_real[96] },
	{ .symbol = "cuMemcpyDtoH_v2", .lookup = "cuMemcpyDtoH", .ptsz = false, .hook = (void *)cuMemcpyDtoH_v2, .real = &cm_submit_real[97] },
	{ .symbol = "cuMemcpyDtoH_v2_ptds", .lookup = "cuMemcpyDtoH", .ptsz = true, .hook = (void *)cuMemcpyDtoH_v2_ptds, .real = &cm_submit_real[98] },
	{ .symbol = "cuMemcpyHtoA", .lookup = "cuMemcpyHtoA", .ptsz = false, .hook = (void *)cuMemcpyHtoA, .real = &cm_submit_real[99] },
	{ .symbol = "cuMemcpyHtoAAsync", .lookup = "cuMemcpyHtoAAsync", .ptsz = false, .hook = (void *)cuMemcpyHtoAAsync, .real = &cm_submit_real[100] },
	{ .symbol = "cuMemcpyHtoAAsync_v2", .lookup = "cuMemcpyHtoAAsync", .ptsz = false, .hook = (void *)cuMemcpyHtoAAsync_v2, .real = &cm_submit_real[101] },
	{ .symbol = "cuMemcpyHtoAAsync_v2_ptsz", .lookup = "cuMemcpyHtoAAsync", .ptsz = true, .hook = (void *)cuMemcpyHtoAAsync_v2_ptsz, .real = &cm_submit_real[102] },
	{ .symbol = "cuMemcpyHtoA_v2", .lookup = "cuMemcpyHtoA", .ptsz = false, .hook = (void *)cuMemcpyHtoA_v2, .real = &cm_submit_real[103] },
	{ .symbol = "cuMemcpyHtoA_v2_ptds", .lookup = "cuMemcpyHtoA", .ptsz = true, .hook = (void *)cuMemcpyHtoA_v2_ptds, .real = &cm_submit_real[104] },
	{ .symbol = "cuMemcpyHtoD", .lookup = "cuMemcpyHtoD", .ptsz = false, .hook = (void *)cuMemcpyHtoD, .real = &cm_submit_real[105] },
	{ .symbol = "cuMemcpyHtoDAsync", .lookup = "cuMemcpyHtoDAsync", .ptsz = false, .hook = (void *)cuMemcpyHtoDAsync, .real = &cm_submit_real[106] },
	{ .symbol = "cuMemcpyHtoDAsync_v2", .lookup = "cuMemcpyHtoDAsync", .ptsz = false, .hook = (void *)cuMemcpyHtoDAsync_v2, .real = &cm_submit_real[107] },
	{ .symbol = "cuMemcpyHtoDAsync_v2_ptsz", .lookup = "cuMemcpyHtoDAsync", .ptsz = true, .hook = (void *)cuMemcpyHtoDAsync_v2_ptsz, .real = &cm_submit_real[108] },
	{ .symbol = "cuMemcpyHtoD_v2", .lookup = "cuMemcpyHtoD", .ptsz = false, .hook = (void *)cuMemcpyHtoD_v2, .real = &cm_submit_real[109] },
	{ .symbol = "cuMemcpyHtoD_v2_ptds", .lookup = "cuMemcpyHtoD", .ptsz = true, .hook = (void *)cuMemcpyHtoD_v2_ptds, .real = &cm_submit_real[110] },
	{ .symbol = "cuMemcpyPeer", .lookup = "cuMemcpyPeer", .ptsz = false, .hook = (void *)cuMemcpyPeer, .real = &cm_submit_real[111] },
	{ .symbol = "cuMemcpyPeerAsync", .lookup = "cuMemcpyPeerAsync", .ptsz = false, .hook = (void *)cuMemcpyPeerAsync, .real = &cm_submit_real[112] },
	{ .symbol = "cuMemcpyPeerAsync_ptsz", .lookup = "cuMemcpyPeerAsync", .ptsz = true, .hook = (void *)cuMemcpyPeerAsync_ptsz, .real = &cm_submit_real[113] },
	{ .symbol = "cuMemcpyPeer_ptds", .lookup = "cuMemcpyPeer", .ptsz = true, .hook = (void *)cuMemcpyPeer_ptds, .real = &cm_submit_real[114] },
	{ .symbol = "cuMemcpy_ptds", .lookup = "cuMemcpy", .ptsz = true, .hook = (void *)cuMemcpy_ptds, .real = &cm_submit_real[115] },
	{ .symbol = "cuMemsetD16", .lookup = "cuMemsetD16", .ptsz = false, .hook = (void *)cuMemsetD16, .real = &cm_submit_real[116] },
	{ .symbol = "cuMemsetD16Async", .lookup = "cuMemsetD16Async", .ptsz = false, .hook = (void *)cuMemsetD16Async, .real = &cm_submit_real[117] },
	{ .symbol = "cuMemsetD16Async_ptsz", .lookup = "cuMemsetD16Async", .ptsz = true, .hook = (void *)cuMemsetD16Async_ptsz, .real = &cm_submit_real[118] },
	{ .symbol = "cuMemsetD16_v2", .lookup = "cuMemsetD16", .ptsz = false, .hook = (void *)cuMemsetD16_v2, .real = &cm_submit_real[119] },
	{ .symbol = "cuMemsetD16_v2_ptds", .lookup = "cuMemsetD16", .ptsz = true, .hook = (void *)cuMemsetD16_v2_ptds, .real = &cm_submit_real[120] },
	{ .symbol = "cuMemsetD2D16", .lookup = "cuMemsetD2D16", .ptsz = false, .hook = (void *)cuMemsetD2D16, .real = &cm_submit_real[121] },
	{ .symbol = "cuMemsetD2D16Async", .lookup = "cuMemsetD2D16Async", .ptsz = false, .hook = (void *)cuMemsetD2D16Async, .real = &cm_submit_real[122] },
	{ .symbol = "cuMemsetD2D16Async_ptsz", .lookup = "cuMemsetD2D16Async", .ptsz = true, .hook = (void *)cuMemsetD2D16Async_ptsz, .real = &cm_submit_real[123] },
	{ .symbol = "cuMemsetD2D16_v2", .lookup = "cuMemsetD2D16", .ptsz = false, .hook = (void *)cuMemsetD2D16_v2, .real = &cm_submit_real[124] },
	{ .symbol = "cuMemsetD2D16_v2_ptds", .lookup = "cuMemsetD2D16", .ptsz = true, .hook = (void *)cuMemsetD2D16_v2_ptds, .real = &cm_submit_real[125] },
	{ .symbol = "cuMemsetD2D32", .lookup = "cuMemsetD2D32", .ptsz = false, .hook = (void *)cuMemsetD2D32, .real = &cm_submit_real[126] },
	{ .symbol = "cuMemsetD2D32Async", .lookup = "cuMemsetD2D32Async", .ptsz = false, .hook = (void *)cuMemsetD2D32Async, .real = &cm_submit_real[127] },
	{ .symbol = "cuMemsetD2D32Async_ptsz", .lookup = "cuMemsetD2D32Async", .ptsz = true, .hook = (void *)cuMemsetD2D32Async_ptsz, .real = &cm_submit_real[128] },
	{ .symbol = "cuMemsetD2D32_v2", .lookup = "cuMemsetD2D32", .ptsz = false, .hook = (void *)cuMemsetD2D32_v2, .real = &cm_submit_real[129] },
	{ .symbol = "cuMemsetD2D32_v2_ptds", .lookup = "cuMemsetD2D32", .ptsz = true, .hook = (void *)cuMemsetD2D32_v2_ptds, .real = &cm_submit_real[130] },
	{ .symbol = "cuMemsetD2D8", .lookup = "cuMemsetD2D8", .ptsz = false, .hook = (void *)cuMemsetD2D8, .real = &cm_submit_real[131] },
	{ .symbol = "cuMemsetD2D8Async", .lookup = "cuMemsetD2D8Async", .ptsz = false, .hook = (void *)cuMemsetD2D8Async, .real = &cm_submit_real[132] },
	{ .symbol = "cuMemsetD2D8Async_ptsz", .lookup = "cuMemsetD2D8Async", .ptsz = true, .hook = (void *)cuMemsetD2D8Async_ptsz, .real = &cm_submit_real[133] },
	{ .symbol = "cuMemsetD2D8_v2", .lookup = "cuMemsetD2D8", .ptsz = false, .hook = (void *)cuMemsetD2D8_v2, .real = &cm_submit_real[134] },
	{ .symbol = "cuMemsetD2D8_v2_ptds", .lookup = "cuMemsetD2D8", .ptsz = true, .hook = (void *)cuMemsetD2D8_v2_ptds, .real = &cm_submit_real[135] },
	{ .symbol = "cuMemsetD32", .lookup = "cuMemsetD32", .ptsz = false, .hook = (void *)cuMemsetD32, .real = &cm_submit_real[136] },
	{ .symbol = "cuMemsetD32Async", .lookup = "cuMemsetD32Async", .ptsz = false, .hook = (void *)cuMemsetD32Async, .real = &cm_submit_real[137] },
	{ .symbol = "cuMemsetD32Async_ptsz", .lookup = "cuMemsetD32Async", .ptsz = true, .hook = (void *)cuMemsetD32Async_ptsz, .real = &cm_submit_real[138] },
	{ .symbol = "cuMemsetD32_v2", .lookup = "cuMemsetD32", .ptsz = false, .hook = (void *)cuMemsetD32_v2, .real = &cm_submit_real[139] },
	{ .symbol = "cuMemsetD32_v2_ptds", .lookup = "cuMemsetD32", .ptsz = true, .hook = (void *)cuMemsetD32_v2_ptds, .real = &cm_submit_real[140] },
	{ .symbol = "cuMemsetD8", .lookup = "cuMemsetD8", .ptsz = false, .hook = (void *)cuMemsetD8, .real = &cm_submit_real[141] },
	{ .symbol = "cuMemsetD8Async", .lookup = "cuMemsetD8Async", .ptsz = false, .hook = (void *)cuMemsetD8Async, .real = &cm_submit_real[142] },
	{ .symbol = "cuMemsetD8Async_ptsz", .lookup = "cuMemsetD8Async", .ptsz = true, .hook = (void *)cuMemsetD8Async_ptsz, .real = &cm_submit_real[143] },
	{ .symbol = "cuMemsetD8_v2", .lookup = "cuMemsetD8", .ptsz = false, .hook = (void *)cuMemsetD8_v2, .real = &cm_submit_real[144] },
	{ .symbol = "cuMemsetD8_v2_ptds", .lookup = "cuMemsetD8", .ptsz = true, .hook = (void *)cuMemsetD8_v2_ptds, .real = &cm_submit_real[145] },
	{ .symbol = "cuSignalExternalSemaphoresAsync", .lookup = "cuSignalExternalSemaphoresAsync", .ptsz = false, .hook = (void *)cuSignalExternalSemaphoresAsync, .real = &cm_submit_real[146] },
	{ .symbol = "cuSignalExternalSemaphoresAsync_ptsz", .lookup = "cuSignalExternalSemaphoresAsync", .ptsz = true, .hook = (void *)cuSignalExternalSemaphoresAsync_ptsz, .real = &cm_submit_real[147] },
	{ .symbol = "cuStreamAddCallback", .lookup = "cuStreamAddCallback", .ptsz = false, .hook = (void *)cuStreamAddCallback, .real = &cm_submit_real[148] },
	{ .symbol = "cuStreamAddCallback_ptsz", .lookup = "cuStreamAddCallback", .ptsz = true, .hook = (void *)cuStreamAddCallback_ptsz, .real = &cm_submit_real[149] },
	{ .symbol = "cuStreamAttachMemAsync", .lookup = "cuStreamAttachMemAsync", .ptsz = false, .hook = (void *)cuStreamAttachMemAsync, .real = &cm_submit_real[150] },
	{ .symbol = "cuStreamAttachMemAsync_ptsz", .lookup = "cuStreamAttachMemAsync", .ptsz = true, .hook = (void *)cuStreamAttachMemAsync_ptsz, .real = &cm_submit_real[151] },
	{ .symbol = "cuStreamBatchMemOp", .lookup = "cuStreamBatchMemOp", .ptsz = false, .hook = (void *)cuStreamBatchMemOp, .real = &cm_submit_real[152] },
	{ .symbol = "cuStreamBatchMemOp_ptsz", .lookup = "cuStreamBatchMemOp", .ptsz = true, .hook = (void *)cuStreamBatchMemOp_ptsz, .real = &cm_submit_real[153] },
	{ .symbol = "cuStreamBatchMemOp_v2", .lookup = "cuStreamBatchMemOp", .ptsz = false, .hook = (void *)cuStreamBatchMemOp_v2, .real = &cm_submit_real[154] },
	{ .symbol = "cuStreamBatchMemOp_v2_ptsz", .lookup = "cuStreamBatchMemOp", .ptsz = true, .hook = (void *)cuStreamBatchMemOp_v2_ptsz, .real = &cm_submit_real[155] },
	{ .symbol = "cuStreamWaitEvent", .lookup = "cuStreamWaitEvent", .ptsz = false, .hook = (void *)cuStreamWaitEvent, .real = &cm_submit_real[156] },
	{ .symbol = "cuStreamWaitEvent_ptsz", .lookup = "cuStreamWaitEvent", .ptsz = true, .hook = (void *)cuStreamWaitEvent_ptsz, .real = &cm_submit_real[157] },
	{ .symbol = "cuStreamWaitValue32", .lookup = "cuStreamWaitValue32", .ptsz = false, .hook = (void *)cuStreamWaitValue32, .real = &cm_submit_real[158] },
	{ .symbol = "cuStreamWaitValue32_ptsz", .lookup = "cuStreamWaitValue32", .ptsz = true, .hook = (void *)cuStreamWaitValue32_ptsz, .real = &cm_submit_real[159] },
	{ .symbol = "cuStreamWaitValue32_v2", .lookup = "cuStreamWaitValue32", .ptsz = false, .hook = (void *)cuStreamWaitValue32_v2, .real = &cm_submit_real[160] },
	{ .symbol = "cuStreamWaitValue32_v2_ptsz", .lookup = "cuStreamWaitValue32", .ptsz = true, .hook = (void *)cuStreamWaitValue32_v2_ptsz, .real = &cm_submit_real[161] },
	{ .symbol = "cuStreamWaitValue64", .lookup = "cuStreamWaitValue64", .ptsz = false, .hook = (void *)cuStreamWaitValue64, .real = &cm_submit_real[162] },
	{ .symbol = "cuStreamWaitValue64_ptsz", .lookup = "cuStreamWaitValue64", .ptsz = true, .hook = (void *)cuStreamWaitValue64_ptsz, .real = &cm_submit_real[163] },
	{ .symbol = "cuStreamWaitValue64_v2", .lookup = "cuStreamWaitValue64", .ptsz = false, .hook = (void *)cuStreamWaitValue64_v2, .real = &cm_submit_real[164] },
	{ .symbol = "cuStreamWaitValue64_v2_ptsz", .lookup = "cuStreamWaitValue64", .ptsz = true, .hook = (void *)cuStreamWaitValue64_v2_ptsz, .real = &cm_submit_real[165] },
	{ .symbol = "cuStreamWriteValue32", .lookup = "cuStreamWriteValue32", .ptsz = false, .hook = (void *)cuStreamWriteValue32, .real = &cm_submit_real[166] },
	{ .symbol = "cuStreamWriteValue32_ptsz", .lookup = "cuStreamWriteValue32", .ptsz = true, .hook = (void *)cuStreamWriteValue32_ptsz, .real = &cm_submit_real[167] },
	{ .symbol = "cuStreamWriteValue32_v2", .lookup = "cuStreamWriteValue32", .ptsz = false, .hook = (void *)cuStreamWriteValue32_v2, .real = &cm_submit_real[168] },
	{ .symbol = "cuStreamWriteValue32_v2_ptsz", .lookup = "cuStreamWriteValue32", .ptsz = true, .hook = (void *)cuStreamWriteValue32_v2_ptsz, .real = &cm_submit_real[169] },
	{ .symbol = "cuStreamWriteValue64", .lookup = "cuStreamWriteValue64", .ptsz = false, .hook = (void *)cuStreamWriteValue64, .real = &cm_submit_real[170] },
	{ .symbol = "cuStreamWriteValue64_ptsz", .lookup = "cuStreamWriteValue64", .ptsz = true, .hook = (void *)cuStreamWriteValue64_ptsz, .real = &cm_submit_real[171] },
	{ .symbol = "cuStreamWriteValue64_v2", .lookup = "cuStreamWriteValue64", .ptsz = false, .hook = (void *)cuStreamWriteValue64_v2, .real = &cm_submit_real[172] },
	{ .symbol = "cuStreamWriteValue64_v2_ptsz", .lookup = "cuStreamWriteValue64", .ptsz = true, .hook = (void *)cuStreamWriteValue64_v2_ptsz, .real = &cm_submit_real[173] },
	{ .symbol = "cuWaitExternalSemaphoresAsync", .lookup = "cuWaitExternalSemaphoresAsync", .ptsz = false, .hook = (void *)cuWaitExternalSemaphoresAsync, .real = &cm_submit_real[174] },
	{ .symbol = "cuWaitExternalSemaphoresAsync_ptsz", .lookup = "cuWaitExternalSemaphoresAsync", .ptsz = true, .hook = (void *)cuWaitExternalSemaphoresAsync_ptsz, .real = &cm_submit_real[175] },
};
const size_t cm_submit_count = CM_SUBMIT_COUNT;
