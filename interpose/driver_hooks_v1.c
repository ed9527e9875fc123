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
 * (a 32-bit size, a full pointer) is served as cuMemAllocHost_v2. The generator's check
 * (scripts/gen_submit_hooks.py --check) fails when an export of a
 * hand-hooked name has no hook.
 *
 * The driver's functions are filled by the lookup wrappers from this
 * file's table (cm_hook_entry.real), on first use.
 */
#define __CUDA_API_VERSION_INTERNAL 1 /* declares the first ABI versions */
#include <cuda.h>

#include "hook_entry.h"
#include "hook_shape.h"

static struct {
	void *cuMemAlloc, *cuMemFree, *cuMemGetInfo, *cuMemGetAddressRange;
	void *cuMemAllocHost, *cuMemAllocPitch;
	void *cuStreamDestroy, *cuStreamBeginCapture, *cuStreamBeginCapture_ptsz, *cuCtxDestroy;
} cm_v1;

/* The driver's function of this ABI, or NULL. */
static void *cm_v1_real(void **slot)
{
	void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (__builtin_expect(f == NULL, 0)) {
		cm_submit_resolve();
		f = __atomic_load_n(slot, __ATOMIC_RELAXED);
	}
	return f;
}

#define CM_V1(name, args)                                                          \
	({                                                                         \
		void *cm_f_ = cm_v1_real(&cm_v1.name);                             \
		cm_f_ ? ((__typeof__(&name))cm_f_) args : CUDA_ERROR_NOT_INITIALIZED; \
	})

/* 32 bits cannot carry the cache's addresses: the driver's, unshaped. */
CM_EXPORT CUresult cuMemAlloc(CUdeviceptr_v1 *p, unsigned int n)
{
	return CM_V1(cuMemAlloc, (p, n));
}

CM_EXPORT CUresult cuMemAllocPitch(CUdeviceptr_v1 *p, unsigned int *pitch, unsigned int width,
				   unsigned int height, unsigned int element_size)
{
	return CM_V1(cuMemAllocPitch, (p, pitch, width, height, element_size));
}

/* A forward to the library's hook (host_hooks.c), unshaped. */
CM_EXPORT CUresult cuMemAllocHost(void **p, unsigned int n)
{
	return cuMemAllocHost_v2(p, n);
}

CM_DRIVER_FREE_HOOK(CM_V1, cuMemFree, (CUdeviceptr_v1 p), (p), p, cm_lib_free(h, (uintptr_t)p))

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

CM_WATCH_SHAPE(CUresult, CM_V1, cuMemGetInfo, (unsigned int *free_bytes, unsigned int *total),
	       (free_bytes, total), 0, cm_v1_mem_info_answer(r_, free_bytes, total))

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

CM_QUERY_SHAPE(CM_V1, cuMemGetAddressRange,
	       (CUdeviceptr_v1 *base, unsigned int *size, CUdeviceptr_v1 p), (base, size, p), p,
	       cm_v1_range_answer(&info, base, size))
CM_WATCH_SHAPE(CUresult, CM_V1, cuStreamDestroy, (CUstream s), (s), cm_drv_stream_destroying(s), r_)
/* The first ABI has no mode: its captures are global (CUDA 10.0's only). */
CM_WATCH_SHAPE(CUresult, CM_V1, cuStreamBeginCapture, (CUstream s), (s),
	       cm_lib_capture_began(s, false, CU_STREAM_CAPTURE_MODE_GLOBAL),
	       cm_drv_capture_begun(r_, s, false))
CM_WATCH_SHAPE(CUresult, CM_V1, cuStreamBeginCapture_ptsz, (CUstream s), (s),
	       cm_lib_capture_began(s, true, CU_STREAM_CAPTURE_MODE_GLOBAL),
	       cm_drv_capture_begun(r_, s, true))
CM_WATCH_SHAPE(CUresult, CM_V1, cuCtxDestroy, (CUcontext ctx), (ctx), kept_ = cm_drv_ctx_slot(ctx),
	       cm_drv_ctx_gone(r_, kept_))

#define CM_HOOK_V1(sym, look, pt) \
	{.symbol = #sym, .lookup = look, .ptsz = pt, .hook = (void *)sym, .real = &cm_v1.sym}

const cm_hook_entry cm_driver_v1_table[] = {
	CM_HOOK_V1(cuMemAlloc, "cuMemAlloc", false),
	CM_HOOK_V1(cuMemFree, "cuMemFree", false),
	CM_HOOK_V1(cuMemAllocPitch, "cuMemAllocPitch", false),
	CM_HOOK_V1(cuMemAllocHost, "cuMemAllocHost", false),
	CM_HOOK_V1(cuMemGetInfo, "cuMemGetInfo", false),
	CM_HOOK_V1(cuMemGetAddressRange, "cuMemGetAddressRange", false),
	CM_HOOK_V1(cuStreamDestroy, "cuStreamDestroy", false),
	CM_HOOK_V1(cuStreamBeginCapture, "cuStreamBeginCapture", false),
	CM_HOOK_V1(cuStreamBeginCapture_ptsz, "cuStreamBeginCapture", true),
	CM_HOOK_V1(cuCtxDestroy, "cuCtxDestroy", false),
};
const size_t cm_driver_v1_count = sizeof(cm_driver_v1_table) / sizeof(cm_driver_v1_table[0]);
