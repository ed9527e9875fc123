/* tests/fakecuda/fakecu_exports.c - the driver entry points that come in
 * several exported ABIs, and the private export table.
 *
 * NVIDIA's libcuda.so.1 exports each function under every ABI it ever had:
 * the current one (often _v2), the _ptsz / _ptds variant where one exists
 * (the same function with stream 0 meaning the calling thread's per-thread
 * default stream), and, for the oldest functions, the 32-bit ABI of CUDA
 * 2.x (v1: unsigned int sizes and CUdeviceptr_v1 pointers). Each here is a
 * one-line wrapper over the single implementation in fakecu_mem.c or
 * fakecu_stream.c. cuGetProcAddress (fakecu_procaddr.c) hands out these
 * same functions.
 *
 * The v1 functions take and return 32-bit device pointers; memory the sim
 * places above 4 GiB cannot be named that way, so cuMemAlloc (v1) gives
 * CUDA_ERROR_OUT_OF_MEMORY for it.
 */
#include "fakecu_internal.h"

#include "fakecu_export.h"

/* ---- copies and sets ---------------------------------------------------- */

/* Is [p, p + n) inside device (not pinned host) memory? */
static bool fk_is_dev(CUdeviceptr p, size_t n)
{
	fk_alloc a;
	return fk_lookup_range((const void *)p, n, &a) == 1 && a.kind != FK_HOST;
}

/* A copy whose direction the call names: the device side(s) must be device
 * memory. */
static CUresult fk_copy(CUdeviceptr dst, CUdeviceptr src, size_t n, bool dst_dev, bool src_dev,
			CUstream s, bool ptsz, bool sync)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && n && ((dst_dev && !fk_is_dev(dst, n)) || (src_dev && !fk_is_dev(src, n))))
		r = CUDA_ERROR_INVALID_VALUE;
	return r == CUDA_SUCCESS ? fk_memcpy(dst, src, n, s, ptsz, sync) : r;
}

#define H(p) ((CUdeviceptr)(uintptr_t)(p))

FK_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{ return fk_memcpy(dst, src, n, 0, false, true); }
FK_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{ return fk_memcpy(dst, src, n, 0, true, true); }
FK_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{ return fk_memcpy(dst, src, n, s, false, false); }
FK_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{ return fk_memcpy(dst, src, n, s, true, false); }

FK_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{ return fk_copy(dst, H(src), n, true, false, 0, false, true); }
FK_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n)
{ return fk_copy(dst, H(src), n, true, false, 0, true, true); }
FK_API CUresult cuMemcpyHtoD(CUdeviceptr_v1 dst, const void *src, unsigned int n)
{ return fk_copy(dst, H(src), n, true, false, 0, false, true); }
FK_API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{ return fk_copy(H(dst), src, n, false, true, 0, false, true); }
FK_API CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{ return fk_copy(H(dst), src, n, false, true, 0, true, true); }
FK_API CUresult cuMemcpyDtoH(void *dst, CUdeviceptr_v1 src, unsigned int n)
{ return fk_copy(H(dst), src, n, false, true, 0, false, true); }
FK_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{ return fk_copy(dst, src, n, true, true, 0, false, true); }
FK_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{ return fk_copy(dst, src, n, true, true, 0, true, true); }
FK_API CUresult cuMemcpyDtoD(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n)
{ return fk_copy(dst, src, n, true, true, 0, false, true); }

FK_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{ return fk_copy(dst, H(src), n, true, false, s, false, false); }
FK_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{ return fk_copy(dst, H(src), n, true, false, s, true, false); }
FK_API CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s)
{ return fk_copy(H(dst), src, n, false, true, s, false, false); }
FK_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n, CUstream s)
{ return fk_copy(H(dst), src, n, false, true, s, true, false); }
FK_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{ return fk_copy(dst, src, n, true, true, s, false, false); }
FK_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{ return fk_copy(dst, src, n, true, true, s, true, false); }

FK_API CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n)
{ return fk_memset(dst, uc, n, 0, false, true); }
FK_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr dst, unsigned char uc, size_t n)
{ return fk_memset(dst, uc, n, 0, true, true); }
FK_API CUresult cuMemsetD8(CUdeviceptr_v1 dst, unsigned char uc, unsigned int n)
{ return fk_memset(dst, uc, n, 0, false, true); }
FK_API CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc, size_t n, CUstream s)
{ return fk_memset(dst, uc, n, s, false, false); }
FK_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char uc, size_t n, CUstream s)
{ return fk_memset(dst, uc, n, s, true, false); }

/* ---- stream-ordered allocation ------------------------------------------ */

FK_API CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t n, CUstream s)
{ return fk_malloc_async(dptr, n, s, false); }
FK_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t n, CUstream s)
{ return fk_malloc_async(dptr, n, s, true); }
FK_API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s)
{ return fk_free_async(dptr, s, false); }
FK_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream s)
{ return fk_free_async(dptr, s, true); }

/* ---- streams, events, capture ------------------------------------------- */

FK_API CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *userData)
{ return fk_host_func(s, fn, userData, false); }
FK_API CUresult cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *userData)
{ return fk_host_func(s, fn, userData, true); }
FK_API CUresult cuStreamGetFlags(CUstream s, unsigned int *flags)
{ return fk_stream_get_flags(s, flags, false); }
FK_API CUresult cuStreamGetFlags_ptsz(CUstream s, unsigned int *flags)
{ return fk_stream_get_flags(s, flags, true); }
FK_API CUresult cuStreamGetCtx(CUstream s, CUcontext *pctx)
{ return fk_stream_get_ctx(s, pctx, false); }
FK_API CUresult cuStreamGetCtx_ptsz(CUstream s, CUcontext *pctx)
{ return fk_stream_get_ctx(s, pctx, true); }
/* CUDA 12.5's ABI: green contexts are not modelled, so *pGreenCtx is NULL. */
static CUresult fk_stream_get_ctx2(CUstream s, CUcontext *pctx, CUgreenCtx *pGreenCtx, bool ptsz)
{
	CUresult r = pGreenCtx ? fk_stream_get_ctx(s, pctx, ptsz) : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*pGreenCtx = NULL;
	return r;
}
FK_API CUresult cuStreamGetCtx_v2(CUstream s, CUcontext *pctx, CUgreenCtx *pGreenCtx)
{ return fk_stream_get_ctx2(s, pctx, pGreenCtx, false); }
FK_API CUresult cuStreamGetCtx_v2_ptsz(CUstream s, CUcontext *pctx, CUgreenCtx *pGreenCtx)
{ return fk_stream_get_ctx2(s, pctx, pGreenCtx, true); }
FK_API CUresult cuStreamSynchronize(CUstream s)
{ return fk_stream_synchronize(s, false); }
FK_API CUresult cuStreamSynchronize_ptsz(CUstream s)
{ return fk_stream_synchronize(s, true); }
FK_API CUresult cuStreamQuery(CUstream s)
{ FK_FAIL("cuStreamQuery"); return fk_stream_query(s, false); }
FK_API CUresult cuStreamQuery_ptsz(CUstream s)
{ FK_FAIL("cuStreamQuery"); return fk_stream_query(s, true); }
FK_API CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags)
{ FK_FAIL("cuStreamWaitEvent"); return fk_stream_wait_event(s, e, flags, false); }
FK_API CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags)
{ FK_FAIL("cuStreamWaitEvent"); return fk_stream_wait_event(s, e, flags, true); }
FK_API CUresult cuEventRecord(CUevent e, CUstream s)
{ FK_FAIL("cuEventRecord"); return fk_event_record(e, s, false); }
FK_API CUresult cuEventRecord_ptsz(CUevent e, CUstream s)
{ FK_FAIL("cuEventRecord"); return fk_event_record(e, s, true); }
FK_API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status)
{ return fk_is_capturing(s, status, false); }
FK_API CUresult cuStreamIsCapturing_ptsz(CUstream s, CUstreamCaptureStatus *status)
{ return fk_is_capturing(s, status, true); }
/* v1 (CUDA 10.0) had no mode argument: global mode. */
FK_API CUresult cuStreamBeginCapture(CUstream s)
{ return fk_begin_capture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, false); }
FK_API CUresult cuStreamBeginCapture_ptsz(CUstream s)
{ return fk_begin_capture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, true); }
FK_API CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode)
{ return fk_begin_capture(s, mode, false); }
FK_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode mode)
{ return fk_begin_capture(s, mode, true); }
FK_API CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{ return fk_end_capture(s, g, false); }
FK_API CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g)
{ return fk_end_capture(s, g, true); }

/* ---- the 32-bit and pre-4.0 ABIs ----------------------------------------- */

FK_API CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
	CUdeviceptr p = 0;
	if (!dptr)
		return cuMemAlloc_v2(NULL, bytesize);
	CUresult r = cuMemAlloc_v2(&p, bytesize);
	if (r == CUDA_SUCCESS && p > UINT32_MAX) {
		cuMemFree_v2(p);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r == CUDA_SUCCESS)
		*dptr = (CUdeviceptr_v1)p;
	return r;
}

FK_API CUresult cuMemFree(CUdeviceptr_v1 dptr)
{ return cuMemFree_v2(dptr); }

FK_API CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total)
{
	size_t f = 0, t = 0;
	CUresult r = cuMemGetInfo_v2(free_bytes ? &f : NULL, total ? &t : NULL);
	if (r == CUDA_SUCCESS) {
		*free_bytes = f > UINT32_MAX ? UINT32_MAX : (unsigned)f;
		*total = t > UINT32_MAX ? UINT32_MAX : (unsigned)t;
	}
	return r;
}

FK_API CUresult cuMemGetAddressRange(CUdeviceptr_v1 *pbase, unsigned int *psize, CUdeviceptr_v1 dptr)
{
	CUdeviceptr b = 0;
	size_t n = 0;
	CUresult r = cuMemGetAddressRange_v2(&b, &n, dptr);
	if (r == CUDA_SUCCESS && pbase)
		*pbase = (CUdeviceptr_v1)b;
	if (r == CUDA_SUCCESS && psize)
		*psize = (unsigned)n;
	return r;
}

FK_API CUresult cuStreamDestroy(CUstream s)
{ return cuStreamDestroy_v2(s); }
FK_API CUresult cuEventDestroy(CUevent e)
{ return cuEventDestroy_v2(e); }
FK_API CUresult cuCtxDestroy(CUcontext c)
{ return cuCtxDestroy_v2(c); }
FK_API CUresult cuCtxPushCurrent(CUcontext c)
{ return cuCtxPushCurrent_v2(c); }
FK_API CUresult cuCtxPopCurrent(CUcontext *c)
{ return cuCtxPopCurrent_v2(c); }
FK_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{ return cuDevicePrimaryCtxRelease_v2(dev); }
FK_API CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{ return cuDevicePrimaryCtxReset_v2(dev); }
FK_API CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{ return fk_ctx_create(pctx, flags, dev); }
FK_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{ return fk_ctx_create(pctx, flags, dev); }
FK_API CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
			       unsigned int flags, CUdevice dev)
{
	(void)paramsArray; /* execution affinity: not modelled */
	(void)numParams;
	return fk_ctx_create(pctx, flags, dev);
}

/* ---- the private export table ------------------------------------------- */

static int fk_export_pointer(const void *p, size_t n, fakecu_ptr *out)
{
	fk_alloc a;
	int found = fk_lookup_range(p, n, &a);
	if (found == 1) {
		out->kind = a.kind == FK_HOST	 ? FAKECU_MEM_HOST
			    : a.kind == FK_MANAGED ? FAKECU_MEM_MANAGED
						   : FAKECU_MEM_DEVICE;
		out->dev = a.dev;
	}
	return found;
}

static CUresult fk_export_alloc_check(void)
{
	CUresult r = fk_begin();
	return r == CUDA_SUCCESS ? fk_unsafe_check() : r;
}

static CUresult fk_export_alloc_device(size_t n, void **out)
{
	return fk_alloc_kind(n, FK_DEVICE, out);
}

static const fakecu_export_table fk_export = {
	.size = sizeof(fakecu_export_table),
	.pointer = fk_export_pointer,
	.alloc_check = fk_export_alloc_check,
	.alloc_device = fk_export_alloc_device,
	.program_call = fk_program_call,
};

FK_API const fakecu_export_table *fakecu_get_export_table(void);
FK_API const fakecu_export_table *fakecu_get_export_table(void)
{
	return &fk_export;
}
