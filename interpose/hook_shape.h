/* interpose/hook_shape.h - the one shape of a hand-written hook.
 *
 * Each allocation hook, at either level, does the same four things: pass
 * the call to CUDA while the library is inside CUDA (the re-entry guard,
 * real.h) or has no heap; call the core under the guard; pass the call to
 * CUDA after all when the core answers CM_ERR_NOT_OURS (a pointer it does
 * not hold, or arguments whose error CUDA itself gives); else map the
 * core's status to the level's error. A hook names the shape in one line:
 *
 *   CM_RUNTIME_HOOK(cudaFreeHost, (void *p), (p), cm_serve_host_free(h, p))
 *
 * where the last argument, an expression that may use the heap h, is the
 * serving function's call. The serving functions translate only; the core
 * decides.
 */
#ifndef CM_HOOK_SHAPE_H
#define CM_HOOK_SHAPE_H

#include "library.h"

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

static inline cudaError_t cm_runtime_result(cm_status st)
{
	return st == CM_OK ? cudaSuccess : cm_lib_fail(st);
}

#define CM_HOOK_SHAPE(ret, real, result, name, params, args, serve)           \
	CM_EXPORT ret name params                                             \
	{                                                                     \
		cm_heap *h;                                                   \
		if (cm_in_cuda || !(h = cm_lib_heap()))                       \
			return real(name, args);                              \
		cm_in_cuda++;                                                 \
		cm_status st_ = (serve);                                      \
		cm_in_cuda--;                                                 \
		return st_ == CM_ERR_NOT_OURS ? real(name, args) : result(st_); \
	}

#define CM_RUNTIME_HOOK(name, params, args, serve) \
	CM_HOOK_SHAPE(cudaError_t, CM_REAL, cm_runtime_result, name, params, args, serve)
#define CM_DRIVER_HOOK(name, params, args, serve) \
	CM_HOOK_SHAPE(CUresult, CM_DRV, cm_lib_cu_fail, name, params, args, serve)

#endif
