/* interpose/capture_state.c - whether CUDA has a capture going, and the
 * library's own calls in relaxed capture mode meanwhile. Asks only the
 * driver (real.h), so the backend (backend_cuda.c) may call it without
 * calling up into the library's process state (library.c).
 */
#include <stdatomic.h>

#include "capture_state.h"

/* Captures begun and not ended (capture.c counts them). */
static atomic_int cm_lib_captures;

void cm_capture_state_began(void)
{
	atomic_fetch_add(&cm_lib_captures, 1);
}

void cm_capture_state_ended(void)
{
	int n = atomic_load(&cm_lib_captures);
	while (n > 0 && !atomic_compare_exchange_weak(&cm_lib_captures, &n, n - 1))
		;
}

bool cm_lib_capturing(CUstream s)
{
	if (atomic_load_explicit(&cm_lib_captures, memory_order_acquire) <= 0 ||
	    !cm_real.cuStreamIsCapturing)
		return false;
	CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
	cm_in_cuda++;
	CUresult r = cm_real.cuStreamIsCapturing(s, &cs);
	cm_in_cuda--;
	/* An error here (the legacy stream during a global capture) means
	 * capture is in the way: leave the call to CUDA. */
	return r != CUDA_SUCCESS || cs != CU_STREAM_CAPTURE_STATUS_NONE;
}

bool cm_lib_capture_active(void)
{
	return atomic_load_explicit(&cm_lib_captures, memory_order_acquire) > 0;
}

bool cm_lib_relax(CUstreamCaptureMode *saved)
{
	*saved = CU_STREAM_CAPTURE_MODE_RELAXED;
	return cm_lib_capture_active() && cm_real.cuThreadExchangeStreamCaptureMode &&
	       cm_real.cuThreadExchangeStreamCaptureMode(saved) == CUDA_SUCCESS;
}

void cm_lib_unrelax(bool relaxed, CUstreamCaptureMode saved)
{
	if (relaxed)
		cm_real.cuThreadExchangeStreamCaptureMode(&saved);
}
