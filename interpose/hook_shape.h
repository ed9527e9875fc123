/* interpose/hook_shape.h - the shapes of the hand-written hooks, each
 * written once; every hook names one in a line, as mimalloc's
 * src/alloc-override.c writes its forwards.
 *
 * A serving hook (CM_HOOK_SHAPE) does four things: pass the call to CUDA
 * while the library is inside CUDA (the re-entry guard, real.h), for
 * arguments CUDA itself judges, or without a heap; call the core under the
 * guard; pass the call to CUDA after all when the core answers
 * CM_ERR_NOT_OURS (a pointer it does not hold); else map the core's status
 * to the level's error. Its variants: CM_ALLOC_FN (the thread's context
 * slot, and the unguarded runtime call that lets the runtime initialize),
 * CM_CACHED_ALLOC and CM_CACHED_FREE (the hot hooks: the thread's cache
 * first, the whole shape on a miss),
 * CM_SYNC_SHAPE (a mark before the real call, the proof after it),
 * CM_WATCH_SHAPE (the real call, with what the library must do before and
 * after it), CM_QUERY_SHAPE (a pointer query answered with the block). A
 * hook names a shape and its serving function in one line:
 *
 *   CM_RUNTIME_HOOK(cudaFreeHost, (void *p), (p), cm_host_free(h, (uintptr_t)p))
 *
 * where the last argument, an expression that may use the heap h, is the
 * serving function's call. The serving functions translate only; the core
 * decides, the cache-first try included (cm_malloc_cached answers only
 * what the thread's cache holds).
 */
#ifndef CM_HOOK_SHAPE_H
#define CM_HOOK_SHAPE_H

#include "driver_hooks.h" /* cm_drv_block_of */
#include "library.h"
#include "tcache_fast.h" /* cm_malloc_cached, cm_free_cached: the core's, inline */

#define CM_EXPORT __attribute__((visibility("default")))

/* The real runtime function with the guard raised, or the error a missing
 * runtime function means. */
#define CM_REAL(name, args)                                                           \
	({                                                                            \
		cudaError_t err_ = cudaErrorNotSupported;                             \
		if (cm_real_resolve() && cm_real.name) {                              \
			cm_in_cuda++;                                                 \
			err_ = cm_real.name args;                                     \
			cm_in_cuda--;                                                 \
		}                                                                     \
		err_;                                                                 \
	})

/* The driver's function, or the error a missing driver means. */
#define CM_DRV(name, args) \
	(cm_drv_resolve() && cm_drv.name ? cm_drv.name args : CUDA_ERROR_NOT_INITIALIZED)

/* The real runtime function without the guard: the runtime's driver call
 * reaches the cache (before the heap or the thread's context exists). */
#define CM_REAL_UNGUARDED(name, args) \
	(cm_real_resolve() && cm_real.name ? cm_real.name args : cudaErrorNotSupported)

/* A core status as the level's answer: CM_OK first (the hot path tests
 * one value), CM_ERR_NOT_OURS to CUDA itself, the rest the level's error. */
#define CM_HOOK_RESULT(st, ok, pass, fail) \
	((st) == CM_OK ? (ok) : (st) == CM_ERR_NOT_OURS ? (pass) : fail(st))

/* The shape of a serving hook. fn: the function defined (return type
 * and name; the hook itself, or a cached hook's miss path). pass_if:
 * arguments whose answer CUDA gives (tested before the heap is asked
 * for). guard: whether to raise the re-entry guard around serve (the
 * cm_lib_* calls raise it themselves). */
#define CM_HOOK_FN(fn, ret, real, ok, fail, guard, name, params, args, pass_if, serve) \
	fn params                                                                      \
	{                                                                              \
		cm_heap *h;                                                            \
		if (cm_in_cuda || (pass_if) || !(h = cm_lib_heap()))                   \
			return real(name, args);                                       \
		if (guard)                                                             \
			cm_in_cuda++;                                                  \
		cm_status st_ = (serve);                                               \
		if (guard)                                                             \
			cm_in_cuda--;                                                  \
		return CM_HOOK_RESULT(st_, ok, real(name, args), fail);                \
	}
#define CM_HOOK_SHAPE(ret, real, ok, fail, guard, name, params, args, pass_if, serve) \
	CM_HOOK_FN(CM_EXPORT ret name, ret, real, ok, fail, guard, name, params, args, pass_if, serve)

/* A hook whose serve calls the core directly: the shape raises the guard. */
#define CM_RUNTIME_HOOK(name, params, args, serve) \
	CM_HOOK_SHAPE(cudaError_t, CM_REAL, cudaSuccess, cm_lib_fail, true, name, params, args, 0, serve)
#define CM_DRIVER_HOOK(name, params, args, serve) \
	CM_HOOK_SHAPE(CUresult, CM_DRV, CUDA_SUCCESS, cm_lib_cu_fail, true, name, params, args, 0, serve)
/* A free: a null pointer is CUDA's; serve is a cm_lib_* call (guarded).
 * fn as in CM_HOOK_FN. */
#define CM_RUNTIME_FREE_FN(fn, name, params, args, p, serve)                                  \
	CM_HOOK_FN(fn, cudaError_t, CM_REAL, cudaSuccess, cm_lib_fail, false, name, params, args, \
		   !(p), serve)
#define CM_DRIVER_FREE_FN(fn, real, name, params, args, p, serve)                               \
	CM_HOOK_FN(fn, CUresult, real, CUDA_SUCCESS, cm_lib_cu_fail, false, name, params, args, !(p), \
		   serve)
#define CM_RUNTIME_FREE_HOOK(name, params, args, p, serve) \
	CM_RUNTIME_FREE_FN(CM_EXPORT cudaError_t name, name, params, args, p, serve)
#define CM_DRIVER_FREE_HOOK(real, name, params, args, p, serve) \
	CM_DRIVER_FREE_FN(CM_EXPORT CUresult name, real, name, params, args, p, serve)

/* The shape of an allocation hook, which needs the thread's context slot.
 * pass_if as above; then without a heap, with ready false or without a
 * context the call goes to real_init: for the runtime its unguarded call,
 * so that the runtime initializes (or makes the context a reset left
 * none) and its driver call reaches the cache. serve may use h and slot
 * and calls cm_lib_malloc (guarded there); level is marked (cm_lib_saw). */
#define CM_ALLOC_FN(fn, real, real_init, ok, fail, level, name, params, args, pass_if,     \
		    ready, serve)                                                           \
	fn params                                                                           \
	{                                                                                   \
		cm_heap *h;                                                                 \
		int slot;                                                                   \
		if (cm_in_cuda || (pass_if))                                                \
			return real(name, args);                                            \
		if (!(h = cm_lib_heap()) || !(ready) || !cm_lib_device(&slot))              \
			return real_init(name, args);                                       \
		cm_lib_saw_here(level);                                                     \
		cm_status st_ = (serve);                                                    \
		return CM_HOOK_RESULT(st_, ok, real(name, args), fail);                     \
	}

/* The runtime's: a thread's first allocation after a reset goes to the
 * runtime (cm_hook_reset_seen), unguarded. */
#define CM_RUNTIME_ALLOC_FN(fn, name, params, args, pass_if, ready, serve)             \
	CM_ALLOC_FN(fn, CM_REAL, CM_REAL_UNGUARDED, cudaSuccess, cm_lib_fail,         \
		    CM_LEVEL_RUNTIME, name, params, args, pass_if,                   \
		    cm_hook_reset_seen() && (ready), serve)
#define CM_RUNTIME_ALLOC_HOOK(name, params, args, pass_if, ready, serve) \
	CM_RUNTIME_ALLOC_FN(CM_EXPORT cudaError_t name, name, params, args, pass_if, ready, serve)
/* The driver's: everything it does not serve goes to the driver. */
#define CM_DRIVER_ALLOC_FN(fn, name, params, args, pass_if, ready, serve)                  \
	CM_ALLOC_FN(fn, CM_DRV, CM_DRV, CUDA_SUCCESS, cm_lib_cu_fail, CM_LEVEL_DRIVER, name, \
		    params, args, pass_if, ready, serve)
#define CM_DRIVER_ALLOC_HOOK(name, params, args, pass_if, ready, serve) \
	CM_DRIVER_ALLOC_FN(CM_EXPORT CUresult name, name, params, args, pass_if, ready, serve)

/* The cache-first hooks of the hot path (cudaMalloc, cudaFree, cuMemAlloc,
 * cuMemFree): the calling thread's cache is asked first (cm_malloc_cached,
 * cm_free_cached: no lock, no CUDA call, so no guard), where nothing
 * else must happen first (cm_lib_cached_heap, cm_lib_cached_slot; for a
 * free cm_lib_cached_free_heap); on a miss the hook's whole shape runs,
 * defined as cm_miss_<name>, not inlined and kept apart from the hot
 * code. */
#define CM_MISS_FN(ret, name) static __attribute__((noinline, cold)) ret cm_miss_##name
#define CM_CACHED_ALLOC(ret, ok, level, name, params, args, p, n, type)                  \
	CM_EXPORT __attribute__((hot)) ret name params                                   \
	{                                                                                \
		cm_heap *h = cm_lib_cached_heap();                                       \
		int slot;                                                                \
		uintptr_t addr;                                                          \
		if (__builtin_expect(h && (p) && cm_lib_cached_slot(level, &slot), 1) && \
		    (addr = cm_malloc_cached(h, slot, (n)))) {                           \
			*(p) = (type)addr;                                               \
			return ok;                                                       \
		}                                                                        \
		return cm_miss_##name args;                                              \
	}
#define CM_CACHED_FREE(ret, ok, name, params, args, p)                                    \
	CM_EXPORT __attribute__((hot)) ret name params                                    \
	{                                                                                 \
		cm_heap *h = cm_lib_cached_free_heap();                                   \
		if (__builtin_expect(h && (p), 1) && cm_free_cached(h, (uintptr_t)(p)))   \
			return ok;                                                        \
		return cm_miss_##name args;                                               \
	}
#define CM_RUNTIME_CACHED_ALLOC_HOOK(name, params, args, p, n, pass_if, serve)                \
	CM_RUNTIME_ALLOC_FN(CM_MISS_FN(cudaError_t, name), name, params, args, pass_if, true,    \
			    serve)                                                            \
	CM_CACHED_ALLOC(cudaError_t, cudaSuccess, CM_LEVEL_RUNTIME, name, params, args, p, n,    \
			void *)
#define CM_DRIVER_CACHED_ALLOC_HOOK(name, params, args, p, n, pass_if, serve)                \
	CM_DRIVER_ALLOC_FN(CM_MISS_FN(CUresult, name), name, params, args, pass_if, true, serve) \
	CM_CACHED_ALLOC(CUresult, CUDA_SUCCESS, CM_LEVEL_DRIVER, name, params, args, p, n,      \
			CUdeviceptr)
#define CM_RUNTIME_CACHED_FREE_HOOK(name, params, args, p, serve)                    \
	CM_RUNTIME_FREE_FN(CM_MISS_FN(cudaError_t, name), name, params, args, p, serve) \
	CM_CACHED_FREE(cudaError_t, cudaSuccess, name, params, args, p)
#define CM_DRIVER_CACHED_FREE_HOOK(real, name, params, args, p, serve)                    \
	CM_DRIVER_FREE_FN(CM_MISS_FN(CUresult, name), real, name, params, args, p, serve) \
	CM_CACHED_FREE(CUresult, CUDA_SUCCESS, name, params, args, p)

/* The shape of a synchronization: the mark before the real call, the
 * proof after it when it succeeded (cm_lib_sync_end). begin is a bool
 * expression that sets the token tok_ (false: the call is not the
 * library's to count, pass it); call is the real call, run once. */
#define CM_SYNC_SHAPE(ret, ok, name, params, begin, call)           \
	CM_EXPORT ret name params                                   \
	{                                                           \
		cm_heap *h;                                         \
		cm_sync_token tok_;                                 \
		if (cm_in_cuda || !(h = cm_lib_heap()) || !(begin)) \
			return (call);                              \
		ret r_ = (call);                                    \
		cm_lib_sync_end(h, tok_, r_ == ok);                 \
		return r_;                                          \
	}
#define CM_RUNTIME_SYNC_HOOK(name, params, args, begin) \
	CM_SYNC_SHAPE(cudaError_t, cudaSuccess, name, params, begin, CM_REAL(name, args))
#define CM_DRIVER_SYNC_HOOK(name, params, args, begin) \
	CM_SYNC_SHAPE(CUresult, CUDA_SUCCESS, name, params, begin, CM_DRV(name, args))
/* begin for a stream's synchronization. */
#define CM_SYNC_STREAM(s, ptsz) ((tok_ = cm_lib_stream_sync_begin(h, (CUstream)(s), ptsz)), true)

/* The shape of a call the library watches: before, an expression run
 * first, may keep an int in kept_ (a slot); after, an expression of the
 * real result r_ and kept_, is the hook's answer. */
#define CM_WATCH_SHAPE(ret, real, name, params, args, before, after) \
	CM_EXPORT ret name params                                    \
	{                                                            \
		int kept_ = -1;                                      \
		(void)kept_;                                         \
		(void)(before);                                      \
		ret r_ = real(name, args);                           \
		return (after);                                      \
	}
#define CM_DRIVER_WATCH(name, params, args, before, after) \
	CM_WATCH_SHAPE(CUresult, CM_DRV, name, params, args, before, after)
#define CM_RUNTIME_WATCH(name, params, args, before, after) \
	CM_WATCH_SHAPE(cudaError_t, CM_REAL, name, params, args, before, after)

/* The shape of a query about device pointer p: the driver's answer unless
 * p lies in memory of the cache (cm_drv_block_of); then answer, an
 * expression of the block's info, is the hook's. */
#define CM_QUERY_SHAPE(real, name, params, args, p, answer) \
	CM_EXPORT CUresult name params                      \
	{                                                   \
		cm_ptr_info info;                           \
		if (!cm_drv_block_of(p, &info))             \
			return real(name, args);            \
		return (answer);                            \
	}
#define CM_DRIVER_QUERY(name, params, args, p, answer) \
	CM_QUERY_SHAPE(CM_DRV, name, params, args, p, answer)

#endif
