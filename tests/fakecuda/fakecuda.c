/* tests/fakecuda/fakecuda.c - initialization, errors, devices, versions and
 * the deferred-free worker of the fake CUDA runtime.
 *
 * Environment (read once, at the first call): FAKECUDA_DEVICES (device
 * count, default 1), CACHEMALLOC_SIM_MEMORY (bytes per device, K/M/G/T
 * suffixes, default 16G), FAKECUDA_REENTER=1 (see cudaMalloc in
 * fakecuda_mem.c).
 *
 * Per thread, as in CUDA: the current device (default 0) and the last error
 * (set by every failing call except cudaErrorNotReady, returned and reset by
 * cudaGetLastError, returned by cudaPeekAtLastError).
 *
 * Deferred frees: cudaFreeAsync must not block the caller, but the sim's
 * mem_free waits for the whole device. A worker thread, started at the
 * first cudaFreeAsync, waits for each free's event (its point in its
 * stream) and then frees through the sim, in FIFO order; until then the
 * memory stays counted as used, as a stream-ordered pool holds it.
 * cudaDeviceSynchronize, cudaDeviceReset and an allocation that would fail
 * wait for the queue to drain.
 */
#include "fakecuda_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define FK_DEFAULT_MEMORY ((size_t)16 << 30)
#define FK_VA_FACTOR 4

struct fk fk = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.rlock = PTHREAD_MUTEX_INITIALIZER,
	.rwork = PTHREAD_COND_INITIALIZER,
	.rdone = PTHREAD_COND_INITIALIZER,
};

static pthread_once_t fk_once = PTHREAD_ONCE_INIT;
static _Thread_local cudaError_t fk_last_error;
static _Thread_local int fk_device;
static _Thread_local uint64_t fk_tid;
static atomic_uint_fast64_t fk_tid_counter;

static void fk_init_once(void)
{
	const char *e;
	int ndev = 1;
	size_t limit = FK_DEFAULT_MEMORY;

	e = getenv("FAKECUDA_DEVICES");
	if (e && *e) {
		char *end;
		errno = 0;
		long v = strtol(e, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 1 && v <= FK_MAX_DEVICES)
			ndev = (int)v;
		else
			fprintf(stderr, "fakecuda: FAKECUDA_DEVICES=%s ignored (accepts 1 to %d)\n",
				e, FK_MAX_DEVICES);
	}
	e = getenv("CACHEMALLOC_SIM_MEMORY");
	if (e && *e) {
		size_t v;
		if (cm_config_parse_size(e, &v) && v > 0)
			limit = v;
		else
			fprintf(stderr, "fakecuda: CACHEMALLOC_SIM_MEMORY=%s ignored (a size > 0, "
				"with an optional K, M, G or T suffix)\n", e);
	}
	e = getenv("FAKECUDA_REENTER");
	fk.reenter = e && strcmp(e, "1") == 0;

	/* Address space larger than the capacity (see fakecuda_internal.h);
	 * where that much cannot be reserved, the capacity alone. */
	for (int factor = FK_VA_FACTOR; factor >= 1 && !fk.s; factor = factor > 1 ? 1 : 0) {
		if (limit > SIZE_MAX / 8 / (size_t)factor)
			continue;
		sim_options o = { .devices = ndev, .capacity = limit * (size_t)factor };
		fk.s = sim_create(&o);
	}
	if (!fk.s) {
		fprintf(stderr, "fakecuda: cannot create the simulated device (%d x %zu bytes)\n",
			ndev, limit);
		return;
	}
	fk.be = sim_backend(fk.s);
	fk.ndev = ndev;
	fk.limit = limit;
}

cudaError_t fk_init(void)
{
	pthread_once(&fk_once, fk_init_once);
	return fk.s ? cudaSuccess : cudaErrorInitializationError;
}

cudaError_t fk_ret(cudaError_t e)
{
	if (e != cudaSuccess && e != cudaErrorNotReady)
		fk_last_error = e;
	return e;
}

int fk_cur_dev(void)
{
	return fk_device;
}

uint64_t fk_thread_id(void)
{
	if (!fk_tid)
		fk_tid = atomic_fetch_add(&fk_tid_counter, 1) + 1;
	return fk_tid;
}

cudaError_t fk_status(cm_status st, cudaError_t invalid)
{
	switch (st) {
	case CM_OK:
		return cudaSuccess;
	case CM_NOT_READY:
		return cudaErrorNotReady;
	case CM_ERR_OOM:
		return cudaErrorMemoryAllocation;
	case CM_ERR_INVALID:
	case CM_ERR_NOT_OURS:
		return invalid;
	case CM_ERR_CAPTURING:
		return cudaErrorStreamCaptureUnsupported;
	case CM_ERR_UNLOADING:
		return cudaErrorCudartUnloading;
	case CM_ERR_UNSUPPORTED:
		return cudaErrorNotSupported;
	case CM_ERR_BACKEND:
		break;
	}
	return cudaErrorUnknown;
}

/* ---- deferred frees ----------------------------------------------------- */

static void *fk_reaper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&fk.rlock);
	for (;;) {
		while (!fk.rhead)
			pthread_cond_wait(&fk.rwork, &fk.rlock);
		fk_pending *p = fk.rhead;
		fk.rhead = p->next;
		if (!fk.rhead)
			fk.rtail = NULL;
		pthread_mutex_unlock(&fk.rlock);

		if (p->ev) {
			fk.be->event_synchronize(fk.be->ctx, p->dev, p->ev);
			fk.be->event_destroy(fk.be->ctx, p->dev, p->ev);
		}
		cm_status st = fk.be->mem_free(fk.be->ctx, p->dev, p->ptr);
		if (st != CM_OK)
			fprintf(stderr, "fakecuda: deferred free of %#lx failed: %s\n",
				(unsigned long)p->ptr, cm_status_name(st));
		pthread_mutex_lock(&fk.lock);
		fk.used[p->dev] -= p->charge;
		pthread_mutex_unlock(&fk.lock);
		free(p);

		pthread_mutex_lock(&fk.rlock);
		fk.rfinished++;
		pthread_cond_broadcast(&fk.rdone);
	}
	return NULL;
}

/* The memory is already out of the allocation table. If the queue cannot
 * take it (no memory, no thread), it is freed here, synchronously. */
void fk_defer_free(int dev, uintptr_t ptr, size_t charge, cm_event ev)
{
	fk_pending *p = malloc(sizeof(*p));
	bool queued = false;

	pthread_mutex_lock(&fk.rlock);
	if (p && !fk.rstarted &&
	    pthread_create(&fk.rthread, NULL, fk_reaper, NULL) == 0) {
		pthread_detach(fk.rthread);
		fk.rstarted = true;
	}
	if (p && fk.rstarted) {
		*p = (fk_pending){ .ptr = ptr, .dev = dev, .charge = charge, .ev = ev };
		if (fk.rtail)
			fk.rtail->next = p;
		else
			fk.rhead = p;
		fk.rtail = p;
		fk.rqueued++;
		pthread_cond_signal(&fk.rwork);
		queued = true;
	}
	pthread_mutex_unlock(&fk.rlock);
	if (queued)
		return;
	free(p);
	if (ev) {
		fk.be->event_synchronize(fk.be->ctx, dev, ev);
		fk.be->event_destroy(fk.be->ctx, dev, ev);
	}
	fk.be->mem_free(fk.be->ctx, dev, ptr);
	pthread_mutex_lock(&fk.lock);
	fk.used[dev] -= charge;
	pthread_mutex_unlock(&fk.lock);
}

bool fk_frees_pending(void)
{
	pthread_mutex_lock(&fk.rlock);
	bool pending = fk.rfinished != fk.rqueued;
	pthread_mutex_unlock(&fk.rlock);
	return pending;
}

/* Waits for every free queued before the call. */
void fk_drain_frees(void)
{
	pthread_mutex_lock(&fk.rlock);
	uint64_t target = fk.rqueued;
	while (fk.rfinished < target)
		pthread_cond_wait(&fk.rdone, &fk.rlock);
	pthread_mutex_unlock(&fk.rlock);
}

/* ---- errors ------------------------------------------------------------- */

static const struct fk_errstr {
	cudaError_t code;
	const char *name, *text;
} fk_errors[] = {
#define E(code, text) { code, #code, text }
	E(cudaSuccess, "no error"),
	E(cudaErrorInvalidValue, "invalid argument"),
	E(cudaErrorMemoryAllocation, "out of memory"),
	E(cudaErrorInitializationError, "initialization error"),
	E(cudaErrorCudartUnloading, "driver shutting down"),
	E(cudaErrorInvalidPitchValue, "invalid pitch argument"),
	E(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
	E(cudaErrorInvalidDevicePointer, "invalid device pointer"),
	E(cudaErrorNoDevice, "no CUDA-capable device is detected"),
	E(cudaErrorInvalidDevice, "invalid device ordinal"),
	E(cudaErrorInvalidResourceHandle, "invalid resource handle"),
	E(cudaErrorIllegalState, "the resource is not in a valid state to perform the "
				 "requested operation"),
	E(cudaErrorNotReady, "device not ready"),
	E(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
	E(cudaErrorNotSupported, "operation not supported"),
	E(cudaErrorNotPermitted, "operation not permitted"),
	E(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
	E(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during "
					     "capture"),
	E(cudaErrorStreamCaptureMerge, "operation would result in a merge of separate capture "
				       "sequences"),
	E(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it "
					   "began"),
	E(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
	E(cudaErrorStreamCaptureIsolation, "dependency created on uncaptured work in another "
					   "stream"),
	E(cudaErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a "
					  "capturing blocking stream"),
	E(cudaErrorCapturedEvent, "operation not permitted on an event last recorded in a "
				  "capturing stream"),
	E(cudaErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture "
					     "sequence from another thread"),
	E(cudaErrorUnknown, "unknown error"),
#undef E
};

static const struct fk_errstr *fk_error_find(cudaError_t e)
{
	for (size_t i = 0; i < sizeof(fk_errors) / sizeof(fk_errors[0]); i++)
		if (fk_errors[i].code == e)
			return &fk_errors[i];
	return NULL;
}

FK_API cudaError_t cudaGetLastError(void)
{
	cudaError_t e = fk_last_error;
	fk_last_error = cudaSuccess;
	return e;
}

FK_API cudaError_t cudaPeekAtLastError(void)
{
	return fk_last_error;
}

FK_API const char *cudaGetErrorName(cudaError_t error)
{
	const struct fk_errstr *s = fk_error_find(error);
	return s ? s->name : "unrecognized error code";
}

FK_API const char *cudaGetErrorString(cudaError_t error)
{
	const struct fk_errstr *s = fk_error_find(error);
	return s ? s->text : "unrecognized error code";
}

/* ---- devices and versions ----------------------------------------------- */

FK_API cudaError_t cudaGetDeviceCount(int *count)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r == cudaErrorInitializationError ? cudaErrorNoDevice : r);
	if (!count)
		return fk_ret(cudaErrorInvalidValue);
	*count = fk.ndev;
	return cudaSuccess;
}

FK_API cudaError_t cudaGetDevice(int *device)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!device)
		return fk_ret(cudaErrorInvalidValue);
	*device = fk_device;
	return cudaSuccess;
}

FK_API cudaError_t cudaSetDevice(int device)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (device < 0 || device >= fk.ndev)
		return fk_ret(cudaErrorInvalidDevice);
	fk_device = device;
	return cudaSuccess;
}

FK_API cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return fk_ret(cudaErrorInvalidValue);
	*driverVersion = CUDART_VERSION;
	return cudaSuccess;
}

FK_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	if (!runtimeVersion)
		return fk_ret(cudaErrorInvalidValue);
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

FK_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (leastPriority)
		*leastPriority = 0;
	if (greatestPriority)
		*greatestPriority = -5;
	return cudaSuccess;
}

FK_API cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t r = fk_init();
	if (r == cudaSuccess)
		r = fk_device_sync_check(fk_device);
	if (r != cudaSuccess)
		return fk_ret(r);
	r = fk_status(fk.be->device_synchronize(fk.be->ctx, fk_device), cudaErrorInvalidDevice);
	if (r == cudaSuccess)
		fk_drain_frees();
	return fk_ret(r);
}

FK_API cudaError_t cudaDeviceReset(void)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	int dev = fk_device;
	fk.be->device_synchronize(fk.be->ctx, dev);
	fk_drain_frees();
	fk_streams_reset_dev(dev); /* captures, user streams, events */
	fk_mem_reset_dev(dev);     /* every allocation of the device */
	return cudaSuccess;
}
