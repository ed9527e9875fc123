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

#include "hook_shape.h"

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

/* ---- serving: translation only; the hooks are one line each ---- */

static cm_status cm_serve_malloc(cm_heap *h, int slot, void **p, size_t n)
{
	uintptr_t out;
	cm_status st = cm_lib_malloc(h, slot, n, false, 0, &out);
	*p = (void *)out;
	return st;
}

static cm_status cm_serve_malloc_async(cm_heap *h, int slot, void **p, size_t n, cudaStream_t s,
				       bool ptsz)
{
	uintptr_t out;
	cm_status st = cm_lib_malloc(h, slot, n, true, cm_lib_stream((CUstream)s, ptsz), &out);
	*p = (void *)out;
	return st;
}

CM_RUNTIME_CACHED_ALLOC_HOOK(cudaMalloc, (void **p, size_t n), (p, n), p, n, !p,
			     cm_serve_malloc(h, slot, p, n))
CM_RUNTIME_CACHED_FREE_HOOK(cudaFree, (void *p), (p), p, cm_lib_free(h, (uintptr_t)p))
/* A stream capturing a graph keeps the runtime's own allocation. */
CM_RUNTIME_ALLOC_HOOK(cudaMallocAsync, (void **p, size_t n, cudaStream_t s), (p, n, s), !p,
		      !cm_lib_capturing((CUstream)s), cm_serve_malloc_async(h, slot, p, n, s, false))
CM_RUNTIME_ALLOC_HOOK(cudaMallocAsync_ptsz, (void **p, size_t n, cudaStream_t s), (p, n, s), !p,
		      !cm_lib_capturing((CUstream)s), cm_serve_malloc_async(h, slot, p, n, s, true))
CM_RUNTIME_FREE_HOOK(cudaFreeAsync, (void *p, cudaStream_t s), (p, s), p,
		     cm_lib_free_async(h, (uintptr_t)p, (CUstream)s, false))
CM_RUNTIME_FREE_HOOK(cudaFreeAsync_ptsz, (void *p, cudaStream_t s), (p, s), p,
		     cm_lib_free_async(h, (uintptr_t)p, (CUstream)s, true))

/* The runtime's reset may reach the driver by a path the lookup hooks do
 * not see (measured on the H200: the cache kept memory the reset freed),
 * so it is hooked here too. It deinitializes the primary context of the
 * thread's current device (cudaGetDevice), whether or not a context is
 * current to the thread; with a created context current it resets only
 * the runtime's state of it (CUDA's runtime documentation). And it may
 * return an earlier asynchronous error although it reset: the device's
 * primary slot goes when the reset succeeded with no created context
 * current, or left the primary context inactive (cm_drv_primary_gone).
 * kept_ is the device times two, plus one where success destroys. The
 * driver hook then passes the reset through (the guard). */
static int cm_hook_reset_target(void)
{
	int dev = -1, slot;
	if (cm_in_cuda || !cm_lib_heap() || !cm_real.cudaGetDevice ||
	    cm_real.cudaGetDevice(&dev) != cudaSuccess || dev < 0)
		return -1;
	bool created_current = cm_lib_device(&slot) && !cm_ctx_primary(slot);
	return dev * 2 + !created_current;
}

static cudaError_t cm_hook_reset_done(cudaError_t err, int kept)
{
	if (kept >= 0)
		cm_drv_primary_gone(kept / 2, err == cudaSuccess && (kept & 1));
	atomic_fetch_add(&cm_hook_resets, 1);
	return err;
}

CM_RUNTIME_WATCH(cudaDeviceReset, (void), (), kept_ = cm_hook_reset_target(),
		 cm_hook_reset_done(r_, kept_))

/* ---- synchronization (rule 6), told to the core once ----
 *
 * The runtime's synchronizations prove completion like the driver's
 * (docs/design.md, "The fence protocol", rule 6). The real runtime call
 * runs under the guard, so the driver hook it reaches (cuStreamSynchronize,
 * cuCtxSynchronize) passes it through: the core hears of it once. */

CM_RUNTIME_SYNC_HOOK(cudaStreamSynchronize, (cudaStream_t s), (s), CM_SYNC_STREAM(s, false))
CM_RUNTIME_SYNC_HOOK(cudaStreamSynchronize_ptsz, (cudaStream_t s), (s), CM_SYNC_STREAM(s, true))
CM_RUNTIME_SYNC_HOOK(cudaDeviceSynchronize, (void), (), cm_lib_device_sync_begin(h, &tok_))
