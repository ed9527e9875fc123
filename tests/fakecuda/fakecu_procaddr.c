/* tests/fakecuda/fakecu_procaddr.c - cuGetProcAddress: the driver's entry
 * points by base name and CUDA version, as NVIDIA's runtime reaches them.
 *
 * One table, written once: {base name, exported name, first CUDA version of
 * that ABI, per-thread variant?, function}. A lookup of (symbol,
 * cudaVersion, flags) picks, among the entries named symbol that are not
 * per-thread variants, the newest ABI whose version is <= cudaVersion; with
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM in flags, that ABI's _ptsz
 * / _ptds variant where one exists. The function handed out is the exported
 * one itself (the library links with -Bsymbolic, so it is the same pointer
 * dlsym(libcuda, exported name) gives, even when an interposer defines the
 * name too). No entry named symbol: CUDA_SUCCESS with
 * CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND; entries, but none old enough:
 * CUDA_SUCCESS with CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT; *pfn is
 * NULL in both (measured on an H200, CUDA 13.0: probe-h200-driver.txt,
 * gpa.unknown and gpa.cuMemAllocAsync.11000; the 11.x entry point without a
 * status answers the same here, not measured). A cudaVersion above this
 * driver's is CUDA_ERROR_INVALID_VALUE, as NVIDIA documents.
 *
 * A base name whose ABI changed maps to the newer function from its version
 * on: "cuCtxSynchronize" is cuCtxSynchronize_v2 (a context argument) for
 * 13000 and later, as NVIDIA's driver answers on an H200 (CUDA 13.0);
 * "cuStreamGetCtx" is cuStreamGetCtx_v2 (a green context too) for 12050
 * and later, the version NVIDIA's function typedefs give it
 * (PFN_cuStreamGetCtx_v12050; not measured).
 */
#include "fakecu_internal.h"

#include <string.h>
#include "../fnptr.h"

typedef struct fk_proc {
	const char *base, *name;
	int version;
	bool ptsz;
	any_fn fn;
} fk_proc;

#define P(base, name, version) { #base, #name, version, false, (any_fn)name }
#define T(base, name, version) { #base, #name, version, true, (any_fn)name }

static const fk_proc fk_procs[] = {
	P(cuInit, cuInit, 2000),
	P(cuDriverGetVersion, cuDriverGetVersion, 2020),
	P(cuGetErrorString, cuGetErrorString, 6000),
	P(cuGetErrorName, cuGetErrorName, 6000),
	P(cuGetProcAddress, cuGetProcAddress, 11030),
	P(cuGetProcAddress, cuGetProcAddress_v2, 12000),
	P(cuDeviceGet, cuDeviceGet, 2000),
	P(cuDeviceGetCount, cuDeviceGetCount, 2000),
	P(cuDeviceGetAttribute, cuDeviceGetAttribute, 2000),
	P(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, 7000),
	P(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease, 7000),
	P(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, 11000),
	P(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset, 7000),
	P(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset_v2, 11000),
	P(cuDevicePrimaryCtxGetState, cuDevicePrimaryCtxGetState, 7000),
	P(cuCtxCreate, cuCtxCreate, 2000),
	P(cuCtxCreate, cuCtxCreate_v2, 3020),
	P(cuCtxCreate, cuCtxCreate_v3, 11040),
	P(cuCtxCreate, cuCtxCreate_v4, 12050),
	P(cuCtxDestroy, cuCtxDestroy, 2000),
	P(cuCtxDestroy, cuCtxDestroy_v2, 4000),
	P(cuCtxGetCurrent, cuCtxGetCurrent, 4000),
	P(cuCtxSetCurrent, cuCtxSetCurrent, 4000),
	P(cuCtxPushCurrent, cuCtxPushCurrent, 2000),
	P(cuCtxPushCurrent, cuCtxPushCurrent_v2, 4000),
	P(cuCtxPopCurrent, cuCtxPopCurrent, 2000),
	P(cuCtxPopCurrent, cuCtxPopCurrent_v2, 4000),
	P(cuCtxGetDevice, cuCtxGetDevice, 2000),
	P(cuCtxSynchronize, cuCtxSynchronize, 2000),
	P(cuCtxSynchronize, cuCtxSynchronize_v2, 13000),
	P(cuCtxGetStreamPriorityRange, cuCtxGetStreamPriorityRange, 5050),
	P(cuMemAlloc, cuMemAlloc, 2000),
	P(cuMemAlloc, cuMemAlloc_v2, 3020),
	P(cuMemFree, cuMemFree, 2000),
	P(cuMemFree, cuMemFree_v2, 3020),
	P(cuMemGetInfo, cuMemGetInfo, 2000),
	P(cuMemGetInfo, cuMemGetInfo_v2, 3020),
	P(cuMemGetAddressRange, cuMemGetAddressRange, 2000),
	P(cuMemGetAddressRange, cuMemGetAddressRange_v2, 3020),
	P(cuMemAllocHost, cuMemAllocHost_v2, 3020),
	P(cuMemFreeHost, cuMemFreeHost, 2000),
	P(cuMemHostAlloc, cuMemHostAlloc, 2020),
	P(cuMemHostGetFlags, cuMemHostGetFlags, 2030),
	P(cuMemHostGetDevicePointer, cuMemHostGetDevicePointer_v2, 3020),
	P(cuMemHostRegister, cuMemHostRegister_v2, 6050),
	P(cuMemHostUnregister, cuMemHostUnregister, 4000),
	P(cuMemAllocPitch, cuMemAllocPitch_v2, 3020),
	P(cuMemAllocManaged, cuMemAllocManaged, 6000),
	P(cuMemAllocAsync, cuMemAllocAsync, 11020),
	T(cuMemAllocAsync, cuMemAllocAsync_ptsz, 11020),
	P(cuMemFreeAsync, cuMemFreeAsync, 11020),
	T(cuMemFreeAsync, cuMemFreeAsync_ptsz, 11020),
	P(cuDeviceGetDefaultMemPool, cuDeviceGetDefaultMemPool, 11020),
	P(cuDeviceGetMemPool, cuDeviceGetMemPool, 11020),
	P(cuMemPoolCreate, cuMemPoolCreate, 11020),
	P(cuMemPoolDestroy, cuMemPoolDestroy, 11020),
	P(cuMemPoolGetAttribute, cuMemPoolGetAttribute, 11020),
	P(cuMemPoolSetAttribute, cuMemPoolSetAttribute, 11020),
	P(cuMemPoolTrimTo, cuMemPoolTrimTo, 11020),
	P(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync, 11020),
	T(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz, 11020),
	P(cuPointerGetAttribute, cuPointerGetAttribute, 4000),
	P(cuPointerGetAttributes, cuPointerGetAttributes, 7000),
	P(cuIpcGetMemHandle, cuIpcGetMemHandle, 4010),
	P(cuIpcOpenMemHandle, cuIpcOpenMemHandle_v2, 11000),
	P(cuIpcCloseMemHandle, cuIpcCloseMemHandle, 4010),
	P(cuMemcpy, cuMemcpy, 4000),
	T(cuMemcpy, cuMemcpy_ptds, 7000),
	P(cuMemcpyAsync, cuMemcpyAsync, 4000),
	T(cuMemcpyAsync, cuMemcpyAsync_ptsz, 7000),
	P(cuMemcpyHtoD, cuMemcpyHtoD, 2000),
	P(cuMemcpyHtoD, cuMemcpyHtoD_v2, 3020),
	T(cuMemcpyHtoD, cuMemcpyHtoD_v2_ptds, 7000),
	P(cuMemcpyDtoH, cuMemcpyDtoH, 2000),
	P(cuMemcpyDtoH, cuMemcpyDtoH_v2, 3020),
	T(cuMemcpyDtoH, cuMemcpyDtoH_v2_ptds, 7000),
	P(cuMemcpyDtoD, cuMemcpyDtoD, 2000),
	P(cuMemcpyDtoD, cuMemcpyDtoD_v2, 3020),
	T(cuMemcpyDtoD, cuMemcpyDtoD_v2_ptds, 7000),
	P(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2, 3020),
	T(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2_ptsz, 7000),
	P(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2, 3020),
	T(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2_ptsz, 7000),
	P(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2, 3020),
	T(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2_ptsz, 7000),
	P(cuMemsetD8, cuMemsetD8, 2000),
	P(cuMemsetD8, cuMemsetD8_v2, 3020),
	T(cuMemsetD8, cuMemsetD8_v2_ptds, 7000),
	P(cuMemsetD8Async, cuMemsetD8Async, 3020),
	T(cuMemsetD8Async, cuMemsetD8Async_ptsz, 7000),
	P(cuStreamCreate, cuStreamCreate, 2000),
	P(cuStreamCreateWithPriority, cuStreamCreateWithPriority, 5050),
	P(cuStreamDestroy, cuStreamDestroy, 2000),
	P(cuStreamDestroy, cuStreamDestroy_v2, 4000),
	P(cuStreamGetFlags, cuStreamGetFlags, 5050),
	T(cuStreamGetFlags, cuStreamGetFlags_ptsz, 7000),
	P(cuStreamGetCtx, cuStreamGetCtx, 9020),
	T(cuStreamGetCtx, cuStreamGetCtx_ptsz, 9020),
	P(cuStreamGetCtx, cuStreamGetCtx_v2, 12050),
	T(cuStreamGetCtx, cuStreamGetCtx_v2_ptsz, 12050),
	P(cuStreamSynchronize, cuStreamSynchronize, 2000),
	T(cuStreamSynchronize, cuStreamSynchronize_ptsz, 7000),
	P(cuStreamQuery, cuStreamQuery, 2000),
	T(cuStreamQuery, cuStreamQuery_ptsz, 7000),
	P(cuStreamWaitEvent, cuStreamWaitEvent, 3020),
	T(cuStreamWaitEvent, cuStreamWaitEvent_ptsz, 7000),
	P(cuStreamIsCapturing, cuStreamIsCapturing, 10000),
	T(cuStreamIsCapturing, cuStreamIsCapturing_ptsz, 10000),
	P(cuStreamBeginCapture, cuStreamBeginCapture, 10000),
	T(cuStreamBeginCapture, cuStreamBeginCapture_ptsz, 10000),
	P(cuStreamBeginCapture, cuStreamBeginCapture_v2, 10010),
	T(cuStreamBeginCapture, cuStreamBeginCapture_v2_ptsz, 10010),
	P(cuStreamEndCapture, cuStreamEndCapture, 10000),
	T(cuStreamEndCapture, cuStreamEndCapture_ptsz, 10000),
	P(cuThreadExchangeStreamCaptureMode, cuThreadExchangeStreamCaptureMode, 10010),
	P(cuGraphDestroy, cuGraphDestroy, 10000),
	P(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags, 11040),
	P(cuGraphExecDestroy, cuGraphExecDestroy, 10000),
	P(cuEventCreate, cuEventCreate, 2000),
	P(cuEventRecord, cuEventRecord, 2000),
	T(cuEventRecord, cuEventRecord_ptsz, 7000),
	P(cuEventQuery, cuEventQuery, 2000),
	P(cuEventSynchronize, cuEventSynchronize, 2000),
	P(cuEventDestroy, cuEventDestroy, 2000),
	P(cuEventDestroy, cuEventDestroy_v2, 4000),
	P(cuLaunchHostFunc, cuLaunchHostFunc, 10000),
	T(cuLaunchHostFunc, cuLaunchHostFunc_ptsz, 10000),
	P(cuMemAddressReserve, cuMemAddressReserve, 10020),
	P(cuMemAddressFree, cuMemAddressFree, 10020),
	P(cuMemCreate, cuMemCreate, 10020),
	P(cuMemRelease, cuMemRelease, 10020),
	P(cuMemMap, cuMemMap, 10020),
	P(cuMemUnmap, cuMemUnmap, 10020),
	P(cuMemSetAccess, cuMemSetAccess, 10020),
	P(cuMemGetAllocationGranularity, cuMemGetAllocationGranularity, 10020),
	P(cuDeviceCanAccessPeer, cuDeviceCanAccessPeer, 4000),
	P(cuCtxEnablePeerAccess, cuCtxEnablePeerAccess, 4000),
	P(cuCtxDisablePeerAccess, cuCtxDisablePeerAccess, 4000),
	P(cuMemcpyPeer, cuMemcpyPeer, 4000),
	P(cuMemcpyPeerAsync, cuMemcpyPeerAsync, 4000),
};

#undef P
#undef T

#define FK_NPROCS (sizeof(fk_procs) / sizeof(fk_procs[0]))

/* The per-thread variant of abi (its name plus a suffix), or abi itself. */
static const fk_proc *fk_proc_ptsz(const fk_proc *abi, int version)
{
	size_t n = strlen(abi->name);
	for (size_t i = 0; i < FK_NPROCS; i++) {
		const fk_proc *e = &fk_procs[i];
		if (e->ptsz && e->version <= version && strncmp(e->name, abi->name, n) == 0 &&
		    e->name[n] == '_' && strcmp(e->base, abi->base) == 0)
			return e;
	}
	return abi;
}

static CUresult fk_proc_lookup(const char *symbol, void **pfn, int version, cuuint64_t flags,
			       CUdriverProcAddressQueryResult *status)
{
	const cuuint64_t known = CU_GET_PROC_ADDRESS_LEGACY_STREAM |
				 CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
	const fk_proc *best = NULL;
	bool named = false;

	if (!symbol || !pfn || (flags & ~known) || version > CUDA_VERSION)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < FK_NPROCS; i++) {
		const fk_proc *e = &fk_procs[i];
		if (strcmp(e->base, symbol) != 0)
			continue;
		named = true;
		if (!e->ptsz && e->version <= version && (!best || e->version > best->version))
			best = e;
	}
	if (best && (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
		best = fk_proc_ptsz(best, version);
	*pfn = best ? ptr_of(best->fn) : NULL;
	if (status)
		*status = best ? CU_GET_PROC_ADDRESS_SUCCESS
		          : named ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
			          : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return CUDA_SUCCESS;
}

FK_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
				    cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus)
{
	return fk_proc_lookup(symbol, pfn, cudaVersion, flags, symbolStatus);
}

/* CUDA 11.3 to 11.8: no status. */
FK_API CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
	return fk_proc_lookup(symbol, pfn, cudaVersion, flags, NULL);
}
