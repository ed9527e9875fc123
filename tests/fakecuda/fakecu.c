/* tests/fakecuda/fakecu.c - initialization, fork, devices, contexts,
 * versions, error strings and the deferred-free worker of the fake CUDA
 * driver.
 *
 * Environment (read once, at cuInit, with secure_getenv: ignored under
 * secure execution, AT_SECURE): FAKECUDA_DEVICES (device count, default 1),
 * CACHEMALLOC_SIM_MEMORY (bytes per device, K/M/G/T suffixes, default 16G).
 * FAKECUDA_FAIL (read at the first call it concerns): failures injected
 * into the calls the program does not make itself (fakecu_fault.c).
 *
 * Contexts, as NVIDIA documents them: each device has one primary context
 * (cuDevicePrimaryCtxRetain / Release: live while retained; the last
 * release destroys what it owns; cuDevicePrimaryCtxReset destroys what it
 * owns without releasing it); cuCtxCreate makes a new one, current on the
 * calling thread, which cuCtxDestroy destroys with what it owns. Each thread
 * has a context stack (cuCtxPush/PopCurrent; cuCtxSetCurrent replaces its
 * top); the current context is its top. Calls that need a context fail with
 * CUDA_ERROR_INVALID_CONTEXT without a live current one; every call but
 * cuDriverGetVersion, cuGetErrorString/Name and cuGetProcAddress fails with
 * CUDA_ERROR_NOT_INITIALIZED before cuInit.
 *
 * A destroyed context stays current on the threads it was current to (on
 * the calling one too, for cuDevicePrimaryCtxReset), and calls there that
 * need a context fail with CUDA_ERROR_CONTEXT_IS_DESTROYED: documented for
 * cuCtxDestroy, measured on an H200 (CUDA 13.0) for cuDevicePrimaryCtxReset
 * (probe-h200-driver.txt, primary.reset.*), after which releasing the
 * primary context still succeeds. The next cuDevicePrimaryCtxRetain
 * re-creates it. The fake keeps one handle per device, so the re-created
 * context has the old handle; whether NVIDIA's driver hands out a new one is
 * not measured.
 *
 * Deferred frees: cuMemFreeAsync must not block the caller, but the sim's
 * mem_free waits for the whole device. A worker thread, started at the
 * first cuMemFreeAsync, waits for each free's event (its point in its
 * stream) and then frees through the sim, in FIFO order; until then the
 * memory stays counted as used, as a stream-ordered pool holds it.
 * cuCtxSynchronize, a context reset and an allocation that would fail wait
 * for the queue to drain.
 */
#include "fakecu_internal.h"
#include "errstr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define FK_DEFAULT_MEMORY ((size_t)16 << 30)
#define FK_VA_FACTOR 4
#define FK_CTX_STACK 32

struct fk fk = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.rlock = PTHREAD_MUTEX_INITIALIZER,
	.vlock = PTHREAD_MUTEX_INITIALIZER,
	.rwork = PTHREAD_COND_INITIALIZER,
	.rdone = PTHREAD_COND_INITIALIZER,
};

static pthread_once_t fk_once = PTHREAD_ONCE_INIT;
static _Thread_local CUcontext fk_stack[FK_CTX_STACK];
static _Thread_local int fk_depth;
static _Thread_local uint64_t fk_tid;
static atomic_uint_fast64_t fk_tid_counter;

/* ---- initialization and fork -------------------------------------------- */

/* pthread_atfork child handler: no lock, no allocation. */
static void fk_forked(void)
{
	atomic_store(&fk.dead, true);
}

static int fk_env_devices(void)
{
	const char *e = secure_getenv("FAKECUDA_DEVICES");
	if (!e || !*e)
		return 1;
	char *end;
	errno = 0;
	long v = strtol(e, &end, 10);
	if (errno == 0 && *end == '\0' && v >= 1 && v <= FK_MAX_DEVICES)
		return (int)v;
	fprintf(stderr, "fakecuda: FAKECUDA_DEVICES=%s ignored (accepts 1 to %d)\n", e,
		FK_MAX_DEVICES);
	return 1;
}

static size_t fk_env_memory(void)
{
	const char *e = secure_getenv("CACHEMALLOC_SIM_MEMORY");
	size_t v;
	if (!e || !*e)
		return FK_DEFAULT_MEMORY;
	if (cm_config_parse_size(e, &v) && v > 0)
		return v;
	fprintf(stderr, "fakecuda: CACHEMALLOC_SIM_MEMORY=%s ignored (a size > 0, "
		"with an optional K, M, G or T suffix)\n", e);
	return FK_DEFAULT_MEMORY;
}

static void fk_init_once(void)
{
	int ndev = fk_env_devices();
	size_t limit = fk_env_memory();

	/* Address space larger than the capacity (see fakecu_internal.h);
	 * where that much cannot be reserved, the capacity alone. */
	for (int factor = FK_VA_FACTOR; factor >= 1 && !fk.s; factor = factor > 1 ? 1 : 0) {
		if (limit > SIZE_MAX / 8 / (size_t)factor)
			continue;
		sim_options o = { .devices = ndev, .capacity = limit * (size_t)factor,
				  .shareable = fk_shared_on() }; /* IPC maps its files */
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
	for (int d = 0; d < ndev; d++)
		fk.prim[d] = (struct CUctx_st){ .dev = d, .primary = true };
	fk_shared_init(); /* FAKECUDA_SHARED (fakecu_shared.c) */
	pthread_atfork(NULL, NULL, fk_forked);
	atomic_store(&fk.inited, true);
}

FK_API CUresult cuInit(unsigned int Flags)
{
	if (atomic_load(&fk.dead))
		return CUDA_ERROR_NOT_INITIALIZED;
	if (Flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&fk_once, fk_init_once);
	return fk.s ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}

CUresult fk_initialized(void)
{
	if (atomic_load(&fk.dead) || !atomic_load(&fk.inited))
		return CUDA_ERROR_NOT_INITIALIZED;
	return CUDA_SUCCESS;
}

bool fk_device_valid(CUdevice dev)
{
	return dev >= 0 && dev < fk.ndev;
}

CUresult fk_out_arg(const void *out)
{
	CUresult r = fk_initialized();
	if (r == CUDA_SUCCESS && !out)
		r = CUDA_ERROR_INVALID_VALUE;
	return r;
}

CUresult fk_device_arg(const void *out, CUdevice dev)
{
	CUresult r = fk_out_arg(out);
	if (r == CUDA_SUCCESS && !fk_device_valid(dev))
		r = CUDA_ERROR_INVALID_DEVICE;
	return r;
}

CUcontext fk_cur_ctx(void)
{
	return fk_depth ? fk_stack[fk_depth - 1] : NULL;
}

int fk_cur_dev(void)
{
	CUcontext c = fk_cur_ctx();
	return c ? c->dev : 0;
}

/* The fake initialized and *ctx usable (a handle this driver gave out,
 * live); a NULL *ctx is the current context, stored there. */
static CUresult fk_begin_in(CUcontext *ctx)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	if (!*ctx && !(*ctx = fk_cur_ctx()))
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&fk.lock);
	r = (*ctx)->destroyed ? CUDA_ERROR_CONTEXT_IS_DESTROYED
	    : (*ctx)->live    ? CUDA_SUCCESS
			      : CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_unlock(&fk.lock);
	return r;
}

CUresult fk_begin(void)
{
	CUcontext c = NULL;
	return fk_begin_in(&c);
}

uint64_t fk_thread_id(void)
{
	if (!fk_tid)
		fk_tid = atomic_fetch_add(&fk_tid_counter, 1) + 1;
	return fk_tid;
}

CUresult fk_status(cm_status st, CUresult invalid)
{
	switch (st) {
	case CM_OK:
		return CUDA_SUCCESS;
	case CM_NOT_READY:
		return CUDA_ERROR_NOT_READY;
	case CM_ERR_OOM:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case CM_ERR_INVALID:
	case CM_ERR_NOT_OURS:
		return invalid;
	case CM_ERR_BAD_HANDLE:
		return CUDA_ERROR_INVALID_HANDLE;
	case CM_ERR_CAPTURING:
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	case CM_ERR_UNLOADING:
		return CUDA_ERROR_DEINITIALIZED;
	case CM_ERR_UNSUPPORTED:
		return CUDA_ERROR_NOT_SUPPORTED;
	case CM_ERR_BACKEND:
		break;
	}
	return CUDA_ERROR_UNKNOWN;
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
		fk_shared_uncharge(p->dev, p->charge);
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
	fk_shared_uncharge(dev, charge);
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

/* ---- versions and devices ----------------------------------------------- */

FK_API CUresult cuDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return CUDA_ERROR_INVALID_VALUE;
	*driverVersion = CUDA_VERSION;
	return CUDA_SUCCESS;
}

FK_API CUresult cuDeviceGetCount(int *count)
{
	CUresult r = fk_out_arg(count);
	if (r == CUDA_SUCCESS)
		*count = fk.ndev;
	return r;
}

FK_API CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r = fk_device_arg(device, ordinal);
	if (r == CUDA_SUCCESS)
		*device = ordinal;
	return r;
}

/* The attributes programs and the library ask for, with an H200's values. */
static const struct fk_attr {
	CUdevice_attribute attr;
	int value;
} fk_attrs[] = {
	{ CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132 },
	{ CU_DEVICE_ATTRIBUTE_INTEGRATED, 0 },
	{ CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1 },
	{ CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1 },
	{ CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1 },
};

FK_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	CUresult r = fk_device_arg(pi, dev);
	if (r != CUDA_SUCCESS)
		return r;
	if (attrib == CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) {
		*pi = dev;
		return CUDA_SUCCESS;
	}
	for (size_t i = 0; i < sizeof(fk_attrs) / sizeof(fk_attrs[0]); i++) {
		if (fk_attrs[i].attr == attrib) {
			*pi = fk_attrs[i].value;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* ---- contexts ----------------------------------------------------------- */

void fk_ctx_reset(CUcontext ctx)
{
	fk.be->device_synchronize(fk.be->ctx, ctx->dev);
	fk_drain_frees();
	fk_streams_reset_ctx(ctx); /* captures, user streams, events */
	fk_mem_reset_ctx(ctx);     /* every allocation of the context */
	if (ctx->primary)
		fk_pool_reset_default(ctx->dev);
}

static CUresult fk_device_check(CUdevice dev)
{
	CUresult r = fk_initialized();
	if (r == CUDA_SUCCESS && !fk_device_valid(dev))
		r = CUDA_ERROR_INVALID_DEVICE;
	return r;
}

/* The primary context's work and memory gone: the last release drops the
 * last reference; a reset destroys it but does not release it. */
static void fk_prim_reset(CUdevice dev, bool release)
{
	fk_ctx_reset(&fk.prim[dev]);
	pthread_mutex_lock(&fk.lock);
	if (!release)
		fk.prim[dev].destroyed = true;
	else if (--fk.prim[dev].refs == 0)
		fk.prim[dev].live = false;
	pthread_mutex_unlock(&fk.lock);
}

FK_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	CUresult r = fk_device_check(dev);
	if (r == CUDA_SUCCESS && !pctx)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	fk.prim[dev].refs++;
	fk.prim[dev].live = true;
	fk.prim[dev].destroyed = false; /* re-created after a reset */
	pthread_mutex_unlock(&fk.lock);
	*pctx = &fk.prim[dev];
	return CUDA_SUCCESS;
}

FK_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CUresult r = fk_device_check(dev);
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	bool last = fk.prim[dev].refs == 1;
	if (fk.prim[dev].refs == 0)
		r = CUDA_ERROR_INVALID_CONTEXT; /* not retained */
	else if (!last)
		fk.prim[dev].refs--;
	pthread_mutex_unlock(&fk.lock);
	if (last)
		fk_prim_reset(dev, true);
	return r;
}

FK_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	CUresult r = fk_device_check(dev);
	if (r == CUDA_SUCCESS)
		fk_prim_reset(dev, false);
	return r;
}

FK_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	CUresult r = fk_device_check(dev);
	if (r == CUDA_SUCCESS && (!flags || !active))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	*flags = fk.prim[dev].flags;
	*active = fk.prim[dev].refs > 0;
	pthread_mutex_unlock(&fk.lock);
	return CUDA_SUCCESS;
}

/* Pushes ctx on the calling thread's stack. */
static CUresult fk_push(CUcontext ctx)
{
	if (fk_depth == FK_CTX_STACK)
		return CUDA_ERROR_OUT_OF_MEMORY;
	fk_stack[fk_depth++] = ctx;
	return CUDA_SUCCESS;
}

CUresult fk_ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
	CUresult r = fk_device_check(dev);
	if (r == CUDA_SUCCESS && !pctx)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r != CUDA_SUCCESS)
		return r;
	CUcontext c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*c = (struct CUctx_st){ .dev = dev, .live = true, .flags = flags };
	r = fk_push(c);
	if (r != CUDA_SUCCESS) {
		free(c);
		return r;
	}
	*pctx = c;
	return CUDA_SUCCESS;
}

FK_API CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
			       unsigned int flags, CUdevice dev)
{
	(void)ctxCreateParams; /* execution affinity and CIG: not modelled */
	return fk_ctx_create(pctx, flags, dev);
}

static bool fk_ctx_primary(CUcontext c)
{
	for (int d = 0; d < fk.ndev; d++)
		if (c == &fk.prim[d])
			return true;
	return false;
}

/* Is c a created context this driver made and has not destroyed? (fk.lock
 * held) */
static bool fk_ctx_valid(CUcontext c)
{
	return c && !fk_ctx_primary(c) && c->live;
}

FK_API CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	bool ok = fk_ctx_valid(ctx);
	pthread_mutex_unlock(&fk.lock);
	/* The primary context is refused with INVALID_CONTEXT and stays usable
	 * (scripts/gpu/probe_neighbours.c on an H200, CUDA 13.0, 2026-12-01). */
	if (!ok)
		return fk_ctx_primary(ctx) ? CUDA_ERROR_INVALID_CONTEXT : CUDA_ERROR_INVALID_VALUE;
	fk_ctx_reset(ctx);
	pthread_mutex_lock(&fk.lock);
	ctx->live = false; /* the handle stays allocated: see struct CUctx_st */
	ctx->destroyed = true;
	pthread_mutex_unlock(&fk.lock);
	if (fk_cur_ctx() == ctx)
		fk_depth--;
	return CUDA_SUCCESS;
}

FK_API CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult r = fk_out_arg(pctx);
	if (r == CUDA_SUCCESS)
		*pctx = fk_cur_ctx();
	return r;
}

FK_API CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	if (!ctx) { /* as NVIDIA: pops the top, if any */
		if (fk_depth)
			fk_depth--;
		return CUDA_SUCCESS;
	}
	if (fk_depth)
		fk_stack[fk_depth - 1] = ctx;
	else
		fk_stack[fk_depth++] = ctx;
	return CUDA_SUCCESS;
}

FK_API CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	CUresult r = fk_initialized();
	if (r == CUDA_SUCCESS && !ctx)
		r = CUDA_ERROR_INVALID_CONTEXT;
	return r == CUDA_SUCCESS ? fk_push(ctx) : r;
}

FK_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
	CUresult r = fk_initialized();
	if (r == CUDA_SUCCESS && !fk_depth)
		r = CUDA_ERROR_INVALID_CONTEXT;
	if (r != CUDA_SUCCESS)
		return r;
	CUcontext c = fk_stack[--fk_depth];
	if (pctx)
		*pctx = c;
	return CUDA_SUCCESS;
}

FK_API CUresult cuCtxGetDevice(CUdevice *device)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && !device)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*device = fk_cur_dev();
	return r;
}

/* CUDA 13.0's ABI (cuGetProcAddress gives it for 13000 and later): ctx, or
 * the current context when NULL. A handle this driver never gave out is
 * undefined behaviour, as for cuCtxDestroy. */
FK_API CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	FK_FAIL("cuCtxSynchronize");
	CUresult r = fk_begin_in(&ctx);
	if (r == CUDA_SUCCESS)
		r = fk_device_sync_check(ctx->dev);
	if (r != CUDA_SUCCESS)
		return r;
	r = fk_status(fk.be->device_synchronize(fk.be->ctx, ctx->dev), CUDA_ERROR_INVALID_CONTEXT);
	if (r == CUDA_SUCCESS) {
		fk_drain_frees();
		fk_pools_synced(ctx->dev);
	}
	return r;
}

FK_API CUresult cuCtxSynchronize(void)
{
	return cuCtxSynchronize_v2(NULL);
}

FK_API CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	if (leastPriority)
		*leastPriority = 0;
	if (greatestPriority)
		*greatestPriority = -5;
	return CUDA_SUCCESS;
}

/* ---- error strings ------------------------------------------------------ */

static const fk_errstr fk_errors[] = {
#define E(code, text) { code, #code, text }
	E(CUDA_SUCCESS, "no error"),
	E(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
	E(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
	E(CUDA_ERROR_NOT_INITIALIZED, "initialization error"),
	E(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
	E(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
	E(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
	E(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
	E(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed"),
	E(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
	E(CUDA_ERROR_ILLEGAL_STATE, "the operation cannot be performed in the present state"),
	E(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
	E(CUDA_ERROR_NOT_READY, "device not ready"),
	E(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"),
	E(CUDA_ERROR_NOT_PERMITTED, "operation not permitted"),
	E(CUDA_ERROR_NOT_SUPPORTED, "operation not supported"),
#define CAPTURE_E(code, rt_code, text) E(code, text),
	FK_CAPTURE_ERRORS(CAPTURE_E)
#undef CAPTURE_E
	E(CUDA_ERROR_UNKNOWN, "unknown error"),
#undef E
};

static const fk_errstr *fk_error_find(CUresult e)
{
	return fk_errstr_find(fk_errors, sizeof(fk_errors) / sizeof(fk_errors[0]), (int)e);
}

/* Unknown codes: CUDA_ERROR_INVALID_VALUE and *pStr = NULL, as NVIDIA's. */
FK_API CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	const fk_errstr *s = fk_error_find(error);
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = s ? s->name : NULL;
	return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FK_API CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	const fk_errstr *s = fk_error_find(error);
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = s ? s->text : NULL;
	return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
