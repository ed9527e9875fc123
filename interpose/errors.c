/* interpose/errors.c - a core status as the program's CUDA error: the
 * runtime's (left as its last error too) and the driver's. Calls the real
 * runtime (real.h) and capture_state.c.
 */
#include "library.h"

/* Leaves err as the runtime's last error by making the runtime fail the
 * same way, without side effects. A capture's refusal is made in the
 * caller's own mode, which refuses it (cm_lib_refused_by_cuda). */
static void cm_lib_raise(cudaError_t err)
{
	void *p = NULL;
	CUstreamCaptureMode mode;
	cm_in_cuda++;
	if (err == cudaErrorStreamCaptureUnsupported) {
		if (cm_real.cudaMalloc(&p, 1) == cudaSuccess)
			cm_real.cudaFree(p);
		cm_in_cuda--;
		return;
	}
	bool relaxed = cm_lib_relax(&mode);
	if (err == cudaErrorMemoryAllocation)
		cm_real.cudaMalloc(&p, (size_t)1 << 62);
	else if (err == cudaErrorInvalidValue)
		cm_real.cudaMalloc(NULL, 512);
	cm_lib_unrelax(relaxed, mode);
	cm_in_cuda--;
}

cudaError_t cm_lib_fail(cm_status st)
{
	cudaError_t err;
	switch (st) {
	case CM_ERR_OOM: err = cudaErrorMemoryAllocation; break;
	case CM_ERR_INVALID:
	case CM_ERR_NOT_OURS: err = cudaErrorInvalidValue; break;
	case CM_ERR_UNLOADING: return cudaSuccess; /* shutting down: nothing to do */
	case CM_ERR_CAPTURING: err = cudaErrorStreamCaptureUnsupported; break;
	case CM_ERR_BAD_HANDLE: return cudaErrorInvalidResourceHandle;
	default: err = cudaErrorUnknown; break;
	}
	cm_lib_raise(err);
	return err;
}

CUresult cm_lib_cu_fail(cm_status st)
{
	switch (st) {
	case CM_OK: return CUDA_SUCCESS;
	case CM_ERR_OOM: return CUDA_ERROR_OUT_OF_MEMORY;
	case CM_ERR_INVALID:
	case CM_ERR_NOT_OURS: return CUDA_ERROR_INVALID_VALUE;
	case CM_ERR_UNLOADING: return CUDA_SUCCESS; /* shutting down: nothing to do */
	case CM_ERR_CAPTURING: return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	case CM_ERR_BAD_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
	default: return CUDA_ERROR_UNKNOWN;
	}
}
