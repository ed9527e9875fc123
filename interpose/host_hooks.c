/* interpose/host_hooks.c - pitched allocations and pinned host memory,
 * at both levels (docs/design.md, "Pinned host memory and pitch").
 *
 * Pitched allocations (cudaMallocPitch, cudaMalloc3D, cuMemAllocPitch) are
 * served by the device pools with the pitch the core's rule gives (the
 * driver's, core/record/pitch.c) and freed by cudaFree / cuMemFree like any block.
 * Pinned host memory (cudaMallocHost, cudaHostAlloc, cuMemAllocHost,
 * cuMemHostAlloc; cudaFreeHost, cuMemFreeHost) comes from the core's host
 * cache (core/host/host.c), a pool per context and flag combination. Queries
 * (cudaHostGetDevicePointer, cuMemHostGetFlags, cudaPointerGetAttributes,
 * cuPointerGetAttribute) and cudaHostRegister are not hooked: a cached
 * block is one whole CUDA allocation with the flags asked for, so CUDA's
 * own answer is the block's.
 *
 * Every hook is a serving hook (hook_shape.h); the serving functions
 * below translate arguments and flags and return CM_ERR_NOT_OURS for what
 * CUDA must judge itself (no context yet, a null pointer, a zero size,
 * flags the cache does not know). A runtime hook serves the request itself
 * and raises the guard around any runtime call, so the driver hook the
 * runtime reaches passes it through: one request enters the cache once.
 */
#include "hook_shape.h"

/* ---- pitched ---- */

static cm_status cm_serve_pitch(cm_heap *h, bool runtime, uintptr_t *out, size_t *pitch,
				size_t width, size_t height, size_t depth)
{
	int slot;
	size_t p, bytes;
	if (!out || !pitch || !cm_pitch_size(width, height, depth, &p, &bytes) ||
	    (runtime && !cm_hook_reset_seen()) || !cm_lib_device(&slot))
		return CM_ERR_NOT_OURS;
	cm_status st = cm_lib_malloc(h, slot, bytes, false, 0, out);
	if (st == CM_OK)
		*pitch = p;
	return st;
}

static cm_status cm_serve_rt_pitch(cm_heap *h, void **ptr, size_t *pitch, size_t w, size_t height)
{
	return cm_serve_pitch(h, true, (uintptr_t *)ptr, pitch, w, height, 1);
}

static cm_status cm_serve_rt_3d(cm_heap *h, struct cudaPitchedPtr *pp, struct cudaExtent e)
{
	uintptr_t out = 0;
	size_t pitch = 0;
	if (!pp)
		return CM_ERR_NOT_OURS;
	cm_status st = cm_serve_pitch(h, true, &out, &pitch, e.width, e.height, e.depth);
	if (st == CM_OK)
		*pp = (struct cudaPitchedPtr){.ptr = (void *)out, .pitch = pitch, .xsize = e.width, .ysize = e.height};
	return st;
}

static cm_status cm_serve_drv_pitch(cm_heap *h, CUdeviceptr *ptr, size_t *pitch, size_t w,
				    size_t height, unsigned element)
{
	_Static_assert(sizeof(CUdeviceptr) == sizeof(uintptr_t), "CUdeviceptr is an address");
	if (!cm_pitch_element_ok(element))
		return CM_ERR_NOT_OURS; /* the driver's CUDA_ERROR_INVALID_VALUE */
	return cm_serve_pitch(h, false, (uintptr_t *)ptr, pitch, w, height, 1);
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
	return CM_SERVE_RT(cm_real_cudaMallocPitch(p, pitch, width, height), cm_serve_rt_pitch, p,
			   pitch, width, height);
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e)
{
	return CM_SERVE_RT(cm_real_cudaMalloc3D(pp, e), cm_serve_rt_3d, pp, e);
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t width, size_t height,
			    unsigned int element)
{
	return CM_SERVE_DRV(cm_real_cuMemAllocPitch_v2(p, pitch, width, height, element),
			    cm_serve_drv_pitch, p, pitch, width, height, element);
}

/* ---- pinned host memory ---- */

/* The core's flags for cudaHostAlloc / cuMemHostAlloc flags (the same bits
 * at both levels), or false for bits the cache leaves to CUDA. */
static bool cm_host_flags(unsigned cuda_flags, unsigned *out)
{
	_Static_assert(cudaHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE &&
			       cudaHostAllocMapped == CU_MEMHOSTALLOC_DEVICEMAP &&
			       cudaHostAllocWriteCombined == CU_MEMHOSTALLOC_WRITECOMBINED,
		       "the runtime's and the driver's host flags agree");
	const unsigned known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
			       CU_MEMHOSTALLOC_WRITECOMBINED;
	if (cuda_flags & ~known)
		return false;
	*out = ((cuda_flags & CU_MEMHOSTALLOC_PORTABLE) ? CM_HOST_PORTABLE : 0) |
	       ((cuda_flags & CU_MEMHOSTALLOC_DEVICEMAP) ? CM_HOST_MAPPED : 0) |
	       ((cuda_flags & CU_MEMHOSTALLOC_WRITECOMBINED) ? CM_HOST_WRITE_COMBINED : 0);
	return true;
}

static cm_status cm_serve_host_alloc(cm_heap *h, bool runtime, void **p, size_t n,
				     unsigned cuda_flags)
{
	int slot;
	unsigned flags;
	uintptr_t out;
	if (!p || !n || !cm_host_flags(cuda_flags, &flags) || (runtime && !cm_hook_reset_seen()) ||
	    !cm_lib_device(&slot) || (cm_capture_watching() && cm_lib_capture_forbidden(h)))
		return CM_ERR_NOT_OURS; /* CUDA's to judge; in a forbidding capture, to refuse */
	cm_status st = cm_host_alloc(h, slot, n, flags, &out);
	if (st == CM_OK)
		*p = (void *)out;
	return st;
}

cudaError_t cudaMallocHost(void **p, size_t n)
{
	return CM_SERVE_RT(cm_real_cudaMallocHost(p, n), cm_serve_host_alloc, true, p, n, 0);
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
	return CM_SERVE_RT(cm_real_cudaHostAlloc(p, n, flags), cm_serve_host_alloc, true, p, n,
			   flags);
}
/* The runtime answers cudaHostGetFlags for memory it allocated from its own
 * books: the flags asked (cudaMallocHost: 0); for memory the driver
 * allocated it asks the driver, which drops the portable flag and adds the
 * mapped one (an H200, CUDA 13.0, 2026-12-01: gpu-check's prog_pinned and
 * probe_freehost). A block of the cache answers as the runtime's own. */
static cudaError_t cm_host_flags_answer(cudaError_t err, unsigned *flags, void *p)
{
	cm_heap *h;
	unsigned asked;
	if (err != cudaSuccess || !flags || cm_in_cuda || !(h = cm_lib_heap()) ||
	    !cm_host_flags_of(h, (uintptr_t)p, &asked))
		return err;
	*flags = ((asked & CM_HOST_PORTABLE) ? cudaHostAllocPortable : 0) |
		 ((asked & CM_HOST_MAPPED) ? cudaHostAllocMapped : 0) |
		 ((asked & CM_HOST_WRITE_COMBINED) ? cudaHostAllocWriteCombined : 0);
	return err;
}

cudaError_t cudaHostGetFlags(unsigned int *flags, void *p)
{
	return cm_host_flags_answer(cm_real_cudaHostGetFlags(flags, p), flags, p);
}

cudaError_t cudaFreeHost(void *p)
{
	return CM_SERVE_RT(cm_real_cudaFreeHost(p), cm_lib_host_free, (uintptr_t)p);
}

CUresult cuMemAllocHost_v2(void **p, size_t n)
{
	return CM_SERVE_DRV(cm_real_cuMemAllocHost_v2(p, n), cm_serve_host_alloc, false, p, n, 0);
}

CUresult cuMemHostAlloc(void **p, size_t n, unsigned int flags)
{
	return CM_SERVE_DRV(cm_real_cuMemHostAlloc(p, n, flags), cm_serve_host_alloc, false, p, n,
			    flags);
}

CUresult cuMemFreeHost(void *p)
{
	return CM_SERVE_DRV(cm_real_cuMemFreeHost(p), cm_lib_host_free, (uintptr_t)p);
}
