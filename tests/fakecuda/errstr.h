/* tests/fakecuda/errstr.h - the error names and texts of the fake driver
 * (fakecu.c) and the fake runtime (fakecudart.c): the table both keep, its
 * look-up, and the stream capture errors, which both describe in the same
 * words. */
#ifndef FK_ERRSTR_H
#define FK_ERRSTR_H

#include <stddef.h>

/* A code (a CUresult or a cudaError_t), its name and its text. */
typedef struct fk_errstr {
	int code;
	const char *name, *text;
} fk_errstr;

static inline const fk_errstr *fk_errstr_find(const fk_errstr *t, size_t n, int code)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].code == code)
			return &t[i];
	return NULL;
}

/* X(driver code, runtime code, text): each side names only its own code,
 * so neither needs the other's header. */
#define FK_CAPTURE_ERRORS(X) \
	X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cudaErrorStreamCaptureUnsupported, \
	  "operation not permitted when stream is capturing") \
	X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cudaErrorStreamCaptureInvalidated, \
	  "operation failed due to a previous error during capture") \
	X(CUDA_ERROR_STREAM_CAPTURE_MERGE, cudaErrorStreamCaptureMerge, \
	  "operation would result in a merge of separate capture sequences") \
	X(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, cudaErrorStreamCaptureUnmatched, \
	  "capture was not ended in the same stream as it began") \
	X(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cudaErrorStreamCaptureUnjoined, \
	  "capturing stream has unjoined work") \
	X(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cudaErrorStreamCaptureIsolation, \
	  "dependency created on uncaptured work in another stream") \
	X(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, cudaErrorStreamCaptureImplicit, \
	  "operation would make the legacy stream depend on a capturing blocking stream") \
	X(CUDA_ERROR_CAPTURED_EVENT, cudaErrorCapturedEvent, \
	  "operation not permitted on an event last recorded in a capturing stream") \
	X(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, cudaErrorStreamCaptureWrongThread, \
	  "attempt to terminate a thread-local capture sequence from another thread")

#endif
