/* interpose/hooks.c - the runtime API's allocation fast path, and the
 * runtime's synchronizations (told to the core once, at the end).
 *
 * A dynamically linked program's cudaMalloc, cudaFree, cudaMallocAsync and
 * cudaFreeAsync are served here without going through the runtime: the
 * runtime's own bookkeeping before it reaches the driver costs more than
 * the cache does. Everything else the runtime does reaches the driver
 * hooks (driver_hooks.c) through the entry points it fetched with
 * cuGetProcAddress (lookup.c). When a hook passes a call to the real
 * runtime it raises the re-entry guard, so the driver hooks pass the
 * runtime's driver calls through: a request enters the cache once. The
 * exception is cudaMalloc before the thread has a context: the runtime
 * then creates it, and its cuMemAlloc reaches the cache at the driver.
 * Stream 0 means the legacy stream in the plain hooks and the calling
 * thread's per-thread stream in the _ptsz ones.
 */
#include "library.h"

#include "hook_shape.h" /* CM_EXPORT, CM_REAL */

/* The real function without the guard: the runtime's driver call reaches
 * the cache (before the heap or the thread's context exists). */
#define CM_REAL_UNGUARDED(name, args) \
	(cm_real_resolve() && cm_real.name ? cm_real.name args : cudaErrorNotSupported)

/* _ptsz entry points exist only under CUDA_API_PER_THREAD_DEFAULT_STREAM
 * in the headers; these are their real signatures. */
CM_EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s);
CM_EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s);
CM_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);

/* After cudaDeviceReset the thread's current context is the destroyed one
 * until the runtime's next call makes a new one (seen on the H200): each
 * thread's first allocation after a reset goes through the runtime, whose
 * driver call then reaches the cache (driver_hooks.c). */
static atomic_uint cm_hook_resets;
static __thread unsigned cm_hook_resets_seen __attribute__((tls_model("initial-exec")));

bool cm_hook_reset_seen(void)
{
	unsigned resets = atomic_load_explicit(&cm_hook_resets, memory_order_relaxed);
	if (__builtin_expect(cm_hook_resets_seen == resets, 1))
		return true;
	cm_hook_resets_seen = resets;
	return false;
}

static cudaError_t cm_hook_result(cm_status st)
{
	return st == CM_OK ? cudaSuccess : cm_lib_fail(st);
}

CM_EXPORT cudaError_t cudaMalloc(void **p, size_t n)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !p)
		return CM_REAL(cudaMalloc, (p, n));
	if (!(h = cm_lib_heap()) || !cm_hook_reset_seen() || !cm_lib_device(&slot))
		return CM_REAL_UNGUARDED(cudaMalloc, (p, n)); /* the runtime initializes */
	cm_lib_saw(CM_LEVEL_RUNTIME);
	uintptr_t out;
	cm_status st = cm_lib_malloc(h, slot, n, false, 0, &out);
	*p = (void *)out;
	return cm_hook_result(st);
}

CM_EXPORT cudaError_t cudaFree(void *p)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return CM_REAL(cudaFree, (p));
	cm_status st = cm_lib_free(h, (uintptr_t)p);
	if (st == CM_ERR_NOT_OURS)
		return CM_REAL(cudaFree, (p));
	return cm_hook_result(st);
}

static cudaError_t cm_hook_malloc_async(void **p, size_t n, cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !p)
		return ptsz ? CM_REAL(cudaMallocAsync_ptsz, (p, n, s)) : CM_REAL(cudaMallocAsync, (p, n, s));
	if (!(h = cm_lib_heap()) || !cm_hook_reset_seen() || cm_lib_capturing((CUstream)s) ||
	    !cm_lib_device(&slot))
		return ptsz ? CM_REAL_UNGUARDED(cudaMallocAsync_ptsz, (p, n, s))
			    : CM_REAL_UNGUARDED(cudaMallocAsync, (p, n, s));
	cm_lib_saw(CM_LEVEL_RUNTIME);
	uintptr_t out;
	cm_status st = cm_lib_malloc(h, slot, n, true, cm_lib_stream((CUstream)s, ptsz), &out);
	*p = (void *)out;
	return cm_hook_result(st);
}

CM_EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
	return cm_hook_malloc_async(p, n, s, false);
}

CM_EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s)
{
	return cm_hook_malloc_async(p, n, s, true);
}

static cudaError_t cm_hook_free_async(void *p, cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	cm_status st = CM_ERR_NOT_OURS;
	if (!cm_in_cuda && p && (h = cm_lib_heap()))
		st = cm_lib_free_async(h, (uintptr_t)p, (CUstream)s, ptsz);
	if (st == CM_ERR_NOT_OURS)
		return ptsz ? CM_REAL(cudaFreeAsync_ptsz, (p, s)) : CM_REAL(cudaFreeAsync, (p, s));
	return cm_hook_result(st);
}

CM_EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
	return cm_hook_free_async(p, s, false);
}

CM_EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
	return cm_hook_free_async(p, s, true);
}

/* The runtime's reset may reach the driver by a path the lookup hooks do
 * not see (measured on the H200: the cache kept memory the reset freed),
 * so it is hooked here too: the current context is the one it destroys.
 * The driver hook then passes it through (the guard). */
CM_EXPORT cudaError_t cudaDeviceReset(void)
{
	int slot = -1;
	if (cm_in_cuda || !cm_lib_heap() || !cm_lib_device(&slot))
		slot = -1;
	cudaError_t err = CM_REAL(cudaDeviceReset, ());
	if (err == cudaSuccess)
		cm_lib_forget_slot(slot); /* only once the reset was accepted */
	atomic_fetch_add(&cm_hook_resets, 1);
	return err;
}

/* ---- synchronization (rule 6), told to the core once ----
 *
 * The runtime's synchronizations prove completion like the driver's
 * (docs/design.md, "The fence protocol", rule 6). The real runtime call
 * runs under the guard, so the driver hook it reaches (cuStreamSynchronize,
 * cuCtxSynchronize) passes it through: the core hears of it once. */

static cudaError_t cm_hook_stream_sync(cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	if (cm_in_cuda || !(h = cm_lib_heap()))
		return ptsz ? CM_REAL(cudaStreamSynchronize_ptsz, (s)) : CM_REAL(cudaStreamSynchronize, (s));
	cm_sync_token tok = cm_lib_stream_sync_begin(h, (CUstream)s, ptsz);
	cudaError_t err = ptsz ? CM_REAL(cudaStreamSynchronize_ptsz, (s)) : CM_REAL(cudaStreamSynchronize, (s));
	cm_lib_sync_end(h, tok, err == cudaSuccess);
	return err;
}

CM_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	return cm_hook_stream_sync(s, false);
}

CM_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s)
{
	return cm_hook_stream_sync(s, true);
}

CM_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !(h = cm_lib_heap()) || !cm_lib_device(&slot))
		return CM_REAL(cudaDeviceSynchronize, ());
	cm_sync_token tok = cm_sync_begin(h, slot, CM_SYNC_DEVICE);
	cudaError_t err = CM_REAL(cudaDeviceSynchronize, ());
	cm_lib_sync_end(h, tok, err == cudaSuccess);
	return err;
}
