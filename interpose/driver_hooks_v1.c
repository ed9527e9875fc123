/* interpose/driver_hooks_v1.c - the first ABI versions of the hand-hooked
 * driver functions.
 *
 * The driver still exports the ABI a function had before its _v2 (CUDA 3.2
 * made pointers and sizes 64-bit; 10.1 gave cuStreamBeginCapture a mode;
 * 4.0 changed cuCtxDestroy and cuStreamDestroy), and an old binary, or a
 * cuGetProcAddress for an old version, reaches it. Each is hooked like its
 * current version, through the helpers of driver_hooks.h: a capture begun
 * through cuStreamBeginCapture is counted, a stream destroyed through
 * cuStreamDestroy records its tail, a context destroyed through
 * cuCtxDestroy takes its cache along. The 32-bit memory functions cannot
 * carry the cache's addresses: cuMemAlloc and cuMemAllocPitch go to the
 * driver, cuMemFree of a pointer the cache does not own too; cuMemAllocHost
 * (a 32-bit size, a full pointer) is served as cuMemAllocHost_v2.
 * scripts/gen_hooks.py --check fails when an export of a hand-hooked name
 * has no row in interpose/hooks.table (and so no hook).
 */
#include "hook_shape.h"

/* 32 bits cannot carry the cache's addresses: the driver's, unshaped. */
CUresult cuMemAlloc(CUdeviceptr_v1 *p, unsigned int n)
{
	return cm_real_cuMemAlloc(p, n);
}

CUresult cuMemAllocPitch(CUdeviceptr_v1 *p, unsigned int *pitch, unsigned int width,
			 unsigned int height, unsigned int element)
{
	return cm_real_cuMemAllocPitch(p, pitch, width, height, element);
}

/* A forward to the library's hook (host_hooks.c). */
CUresult cuMemAllocHost(void **p, unsigned int n)
{
	return cuMemAllocHost_v2(p, n);
}

CUresult cuMemFree(CUdeviceptr_v1 p)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return cm_real_cuMemFree(p);
	cm_status st = cm_lib_free(h, (uintptr_t)p);
	return st == CM_ERR_NOT_OURS ? cm_real_cuMemFree(p) : cm_driver_answer(st);
}

/* The cache's view, clamped to what 32 bits carry. */
static CUresult cm_v1_mem_info_answer(CUresult r, unsigned int *free_bytes, unsigned int *total)
{
	if (r != CUDA_SUCCESS || !free_bytes || !total)
		return r;
	size_t f = *free_bytes, t = *total;
	cm_drv_mem_info(&f, &t);
	*free_bytes = (unsigned int)(f < *total ? f : *total);
	*total = (unsigned int)(t < *total ? t : *total);
	return r;
}

CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total)
{
	return cm_v1_mem_info_answer(cm_real_cuMemGetInfo(free_bytes, total), free_bytes, total);
}

static CUresult cm_v1_range_answer(const cm_ptr_info *info, CUdeviceptr_v1 *base, unsigned int *size)
{
	if (!info->base)
		return CUDA_ERROR_NOT_FOUND;
	if (base)
		*base = (CUdeviceptr_v1)info->base;
	if (size)
		*size = (unsigned int)info->requested;
	return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size, CUdeviceptr_v1 p)
{
	cm_ptr_info info;
	if (!cm_drv_block_of(p, &info))
		return cm_real_cuMemGetAddressRange(base, size, p);
	return cm_v1_range_answer(&info, base, size);
}

CUresult cuStreamDestroy(CUstream s)
{
	cm_drv_stream_destroying(s);
	return cm_real_cuStreamDestroy(s);
}

/* The first ABI has no mode: its captures are global (CUDA 10.0's only). */
CUresult cuStreamBeginCapture(CUstream s)
{
	cm_lib_capture_began(s, false, CU_STREAM_CAPTURE_MODE_GLOBAL);
	return cm_drv_capture_begun(cm_real_cuStreamBeginCapture(s), s, false);
}

CUresult cuStreamBeginCapture_ptsz(CUstream s)
{
	cm_lib_capture_began(s, true, CU_STREAM_CAPTURE_MODE_GLOBAL);
	return cm_drv_capture_begun(cm_real_cuStreamBeginCapture_ptsz(s), s, true);
}

CUresult cuCtxDestroy(CUcontext ctx)
{
	int slot = cm_drv_ctx_slot(ctx);
	return cm_drv_ctx_gone(cm_real_cuCtxDestroy(ctx), slot);
}

/* The same handle as cuIpcOpenMemHandle_v2's: a token of the cache is
 * opened as there. */
CUresult cuIpcOpenMemHandle(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags)
{
	CUresult r;
	return cm_drv_ipc_open(p, handle, flags, &r) ? r : cm_real_cuIpcOpenMemHandle(p, handle, flags);
}
