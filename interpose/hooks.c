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

/* ---- serving: translation only ---- */

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

/* The runtime's allocation hooks: the call passes through when CUDA judges the
 * arguments or the library is inside CUDA; without a heap, a reset not yet
 * seen by the thread, a capturing stream or a context, the runtime's own
 * call unguarded, so that the runtime initializes (or makes the context a
 * reset left none) and its driver call reaches the cache. */
static bool cm_runtime_alloc_ready(cm_heap **h, int *slot, bool async, cudaStream_t s)
{
	if (!(*h = cm_lib_heap()) || !cm_hook_reset_seen() || (async && cm_lib_capturing((CUstream)s)) ||
	    !cm_lib_device(slot))
		return false;
	cm_lib_saw_here(CM_LEVEL_RUNTIME);
	return true;
}

CM_MISS cudaError_t cm_miss_cudaMalloc(void **p, size_t n)
{
	cm_heap *h;
	int slot;
	if (cm_in_cuda || !p)
		return cm_real_cudaMalloc(p, n);
	if (!cm_runtime_alloc_ready(&h, &slot, false, NULL))
		return cm_real_cudaMalloc_unguarded(p, n);
	cm_status st = cm_serve_malloc(h, slot, p, n);
	return st == CM_ERR_NOT_OURS ? cm_real_cudaMalloc(p, n) : cm_runtime_answer(st);
}

/* The hot hook: the thread's cache first (hook_shape.h). */
cudaError_t cudaMalloc(void **p, size_t n)
{
	cm_heap *h = cm_lib_cached_heap();
	int slot;
	uintptr_t addr;
	if (__builtin_expect(h && p && cm_lib_cached_slot(CM_LEVEL_RUNTIME, &slot), 1) &&
	    (addr = cm_malloc_cached(h, slot, n))) {
		*p = (void *)addr;
		return cudaSuccess;
	}
	return cm_miss_cudaMalloc(p, n);
}

CM_MISS cudaError_t cm_miss_cudaFree(void *p)
{
	cm_heap *h;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return cm_real_cudaFree(p);
	cm_status st = cm_lib_free(h, (uintptr_t)p);
	return st == CM_ERR_NOT_OURS ? cm_real_cudaFree(p) : cm_runtime_answer(st);
}

cudaError_t cudaFree(void *p)
{
	cm_heap *h = cm_lib_cached_free_heap();
	if (__builtin_expect(h && p, 1) && cm_free_cached(h, (uintptr_t)p))
		return cudaSuccess;
	return cm_miss_cudaFree(p);
}

/* A stream capturing a graph keeps the runtime's own allocation. */
static cudaError_t cm_hook_malloc_async(void **p, size_t n, cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	int slot;
	cudaError_t (*real)(void **, size_t, cudaStream_t) =
		ptsz ? cm_real_cudaMallocAsync_ptsz : cm_real_cudaMallocAsync;
	if (cm_in_cuda || !p)
		return real(p, n, s);
	if (!cm_runtime_alloc_ready(&h, &slot, true, s))
		return ptsz ? cm_real_cudaMallocAsync_ptsz_unguarded(p, n, s)
			    : cm_real_cudaMallocAsync_unguarded(p, n, s);
	cm_status st = cm_serve_malloc_async(h, slot, p, n, s, ptsz);
	return st == CM_ERR_NOT_OURS ? real(p, n, s) : cm_runtime_answer(st);
}

cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
	return cm_hook_malloc_async(p, n, s, false);
}

cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s)
{
	return cm_hook_malloc_async(p, n, s, true);
}

static cudaError_t cm_hook_free_async(void *p, cudaStream_t s, bool ptsz)
{
	cm_heap *h;
	cudaError_t (*real)(void *, cudaStream_t) =
		ptsz ? cm_real_cudaFreeAsync_ptsz : cm_real_cudaFreeAsync;
	if (cm_in_cuda || !p || !(h = cm_lib_heap()))
		return real(p, s);
	cm_status st = cm_lib_free_async(h, (uintptr_t)p, (CUstream)s, ptsz);
	return st == CM_ERR_NOT_OURS ? real(p, s) : cm_runtime_answer(st);
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
	return cm_hook_free_async(p, s, false);
}

cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
	return cm_hook_free_async(p, s, true);
}

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

cudaError_t cudaDeviceReset(void)
{
	int kept = cm_hook_reset_target();
	return cm_hook_reset_done(cm_real_cudaDeviceReset(), kept);
}

/* ---- synchronization (rule 6), told to the core once ----
 *
 * The runtime's synchronizations prove completion like the driver's
 * (docs/design.md, "The fence protocol", rule 6). The real runtime call
 * runs under the guard, so the driver hook it reaches (cuStreamSynchronize,
 * cuCtxSynchronize) passes it through: the core hears of it once. */

static cudaError_t cm_hook_stream_sync(cudaStream_t s, bool ptsz)
{
	cudaError_t (*real)(cudaStream_t) =
		ptsz ? cm_real_cudaStreamSynchronize_ptsz : cm_real_cudaStreamSynchronize;
	cm_heap *h = cm_hook_heap();
	if (!h)
		return real(s);
	cm_sync_token tok = cm_lib_stream_sync_begin(h, (CUstream)s, ptsz);
	cudaError_t r = real(s);
	cm_lib_sync_end(h, tok, r == cudaSuccess);
	return r;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	return cm_hook_stream_sync(s, false);
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s)
{
	return cm_hook_stream_sync(s, true);
}

cudaError_t cudaDeviceSynchronize(void)
{
	cm_sync_token tok;
	cm_heap *h = cm_hook_heap();
	if (!h || !cm_lib_device_sync_begin(h, &tok))
		return cm_real_cudaDeviceSynchronize();
	cudaError_t r = cm_real_cudaDeviceSynchronize();
	cm_lib_sync_end(h, tok, r == cudaSuccess);
	return r;
}
