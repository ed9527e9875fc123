/* interpose/context_hooks.c - the driver calls that change the calling
 * thread's current context, in every ABI the driver exports
 * (context_hooks.h): each calls the driver's function, then tells
 * context.c that the thread's cached current context is stale
 * (cm_ctx_changed), whatever the result. So the allocation hooks find the
 * current context without a driver call while the thread has not changed
 * it (docs/design.md, "Contexts"). They are reached as every driver hook
 * is (the symbol, dlsym, cuGetProcAddress: lookup.c substitutes them by
 * identity from driver_hooks.c's table); the runtime's cudaSetDevice ends
 * in cuCtxSetCurrent, found through cuGetProcAddress. cuCtxDestroy in both
 * ABIs is hooked with the other destructions (driver_hooks.c,
 * cm_drv_ctx_gone, which marks the context unknown as well). A function
 * the driver lacks answers CUDA_ERROR_NOT_FOUND.
 */
#include "context.h"
#include "context_hooks.h"
#include "hook_entry.h"

#define CM_EXPORT __attribute__((visibility("default")))

void *cm_ctx_hook_real[CM_CTX_HOOKS];

/* The driver's function i, resolved on a cold branch when the program
 * called the hook before any lookup built the map. */
static void *cm_ctx_hook_resolve(int i)
{
	void *f = __atomic_load_n(&cm_ctx_hook_real[i], __ATOMIC_RELAXED);
	if (__builtin_expect(!f, 0)) {
		cm_submit_resolve(); /* builds the lookup map, which stores the slots */
		f = __atomic_load_n(&cm_ctx_hook_real[i], __ATOMIC_RELAXED);
	}
	return f;
}

/* Calls driver function i of type `type` with args, then marks the
 * thread's current context unknown. */
#define CM_CTX_CALL(i, type, args)                                 \
	do {                                                       \
		type f_ = (type)cm_ctx_hook_resolve(i);            \
		CUresult r_ = f_ ? f_ args : CUDA_ERROR_NOT_FOUND; \
		cm_ctx_changed();                                  \
		return r_;                                         \
	} while (0)

typedef CUresult (*cm_ctx_fn)(CUcontext);
typedef CUresult (*cm_ctx_out_fn)(CUcontext *);
typedef CUresult (*cm_ctx_create_fn)(CUcontext *, unsigned, CUdevice);
typedef CUresult (*cm_ctx_create_v3_fn)(CUcontext *, CUexecAffinityParam *, int, unsigned, CUdevice);
typedef CUresult (*cm_ctx_create_v4_fn)(CUcontext *, CUctxCreateParams *, unsigned, CUdevice);

CM_EXPORT CUresult cm_ctxh_set(CUcontext ctx) { CM_CTX_CALL(CM_CTXH_SET, cm_ctx_fn, (ctx)); }
CM_EXPORT CUresult cm_ctxh_push(CUcontext ctx) { CM_CTX_CALL(CM_CTXH_PUSH, cm_ctx_fn, (ctx)); }
CM_EXPORT CUresult cm_ctxh_push_v2(CUcontext ctx) { CM_CTX_CALL(CM_CTXH_PUSH_V2, cm_ctx_fn, (ctx)); }
CM_EXPORT CUresult cm_ctxh_pop(CUcontext *ctx) { CM_CTX_CALL(CM_CTXH_POP, cm_ctx_out_fn, (ctx)); }
CM_EXPORT CUresult cm_ctxh_pop_v2(CUcontext *ctx) { CM_CTX_CALL(CM_CTXH_POP_V2, cm_ctx_out_fn, (ctx)); }
CM_EXPORT CUresult cm_ctxh_detach(CUcontext ctx) { CM_CTX_CALL(CM_CTXH_DETACH, cm_ctx_fn, (ctx)); }

CM_EXPORT CUresult cm_ctxh_create(CUcontext *ctx, unsigned int flags, CUdevice dev)
{
	CM_CTX_CALL(CM_CTXH_CREATE, cm_ctx_create_fn, (ctx, flags, dev));
}

CM_EXPORT CUresult cm_ctxh_create_v2(CUcontext *ctx, unsigned int flags, CUdevice dev)
{
	CM_CTX_CALL(CM_CTXH_CREATE_V2, cm_ctx_create_fn, (ctx, flags, dev));
}

CM_EXPORT CUresult cm_ctxh_create_v3(CUcontext *ctx, CUexecAffinityParam *params, int n,
				     unsigned int flags, CUdevice dev)
{
	CM_CTX_CALL(CM_CTXH_CREATE_V3, cm_ctx_create_v3_fn, (ctx, params, n, flags, dev));
}

CM_EXPORT CUresult cm_ctxh_create_v4(CUcontext *ctx, CUctxCreateParams *params, unsigned int flags,
				     CUdevice dev)
{
	CM_CTX_CALL(CM_CTXH_CREATE_V4, cm_ctx_create_v4_fn, (ctx, params, flags, dev));
}
