/* interpose/hook_shape.h - the small helpers every hand-written hook uses.
 *
 * A hook is a plain C function of its exported name (declared, with its
 * visibility, in the generated hook_table.h from interpose/hooks.table;
 * its shape is the table's column). A serving hook passes the call to
 * CUDA while the library is inside CUDA (the re-entry guard, real.h), for
 * arguments CUDA itself judges, or without a heap; else calls a serving
 * function, which translates only (the core decides), passes the call to
 * CUDA after all when the core answers CM_ERR_NOT_OURS (a pointer it does
 * not hold), and maps the rest to the level's error. The hot hooks
 * (cudaMalloc, cudaFree, cuMemAlloc_v2, cuMemFree_v2) ask the thread's
 * cache first (cm_malloc_cached, cm_free_cached: the core's, inline, no
 * lock, no CUDA call) and keep the rest in a cold cm_miss_<name>.
 */
#ifndef CM_HOOK_SHAPE_H
#define CM_HOOK_SHAPE_H

#include "driver_hooks.h" /* cm_drv_block_of */
#include "library.h"
#include "tcache_fast.h" /* cm_malloc_cached, cm_free_cached: the core's, inline */

/* The heap a hook serves from, or NULL: inside CUDA (the re-entry guard)
 * or before the heap exists, the hook passes the call. */
static inline cm_heap *cm_hook_heap(void)
{
	return cm_in_cuda ? NULL : cm_lib_heap();
}

/* A core status other than CM_ERR_NOT_OURS as the runtime's answer. */
static inline cudaError_t cm_runtime_answer(cm_status st)
{
	return st == CM_OK ? cudaSuccess : cm_lib_fail(st);
}

/* A core status other than CM_ERR_NOT_OURS as the driver's answer. */
static inline CUresult cm_driver_answer(cm_status st)
{
	return st == CM_OK ? CUDA_SUCCESS : cm_lib_cu_fail(st);
}

/* A serving function's call under the re-entry guard (its cm_lib_* calls
 * may reach CUDA). */
#define CM_GUARDED(call) (cm_in_cuda++, cm_hook_unguard(call))
static inline cm_status cm_hook_unguard(cm_status st)
{
	cm_in_cuda--;
	return st;
}

/* A serving hook, written once: fn(heap, ...) under the guard; without a
 * heap, or when the core answers CM_ERR_NOT_OURS, pass (the call to CUDA);
 * else the core's status as the level's answer. */
#define CM_SERVE(answer, pass, fn, ...)                                              \
	__extension__({                                                             \
		cm_heap *h_ = cm_hook_heap();                                       \
		cm_status st_ = h_ ? CM_GUARDED(fn(h_, __VA_ARGS__)) : CM_ERR_NOT_OURS; \
		st_ == CM_ERR_NOT_OURS ? (pass) : answer(st_);                      \
	})
#define CM_SERVE_RT(pass, fn, ...) CM_SERVE(cm_runtime_answer, pass, fn, __VA_ARGS__)
#define CM_SERVE_DRV(pass, fn, ...) CM_SERVE(cm_driver_answer, pass, fn, __VA_ARGS__)

/* The miss path of a hot hook: not inlined, kept apart from the hot code. */
#define CM_MISS static __attribute__((noinline, cold))

#endif
