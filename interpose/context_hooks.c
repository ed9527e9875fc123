/* interpose/context_hooks.c - the driver calls that change the calling
 * thread's current context, in every ABI the driver exports
 * (interpose/hooks.table): each calls the driver's function, then tells
 * context.c that the thread's cached current context is stale
 * (cm_ctx_changed), whatever the result. So the allocation hooks find the
 * current context without a driver call while the thread has not changed
 * it (docs/design.md, "Contexts"). They are reached as every driver hook
 * is (the symbol, dlsym, cuGetProcAddress: lookup.c substitutes them by
 * identity from the generated table, hook_table.c); the runtime's cudaSetDevice ends
 * in cuCtxSetCurrent, found through cuGetProcAddress. cuCtxDestroy in both
 * ABIs is hooked with the other destructions (driver_hooks.c,
 * cm_drv_ctx_gone, which marks the context unknown as well).
 */
#include "context.h"
#include "real.h"

/* The driver's result, passed through once the cached context is marked
 * stale. */
static CUresult cm_ctx_changed_after(CUresult r)
{
	cm_ctx_changed();
	return r;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	return cm_ctx_changed_after(cm_real_cuCtxSetCurrent(ctx));
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
	return cm_ctx_changed_after(cm_real_cuCtxPushCurrent(ctx));
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	return cm_ctx_changed_after(cm_real_cuCtxPushCurrent_v2(ctx));
}

CUresult cuCtxPopCurrent(CUcontext *ctx)
{
	return cm_ctx_changed_after(cm_real_cuCtxPopCurrent(ctx));
}

CUresult cuCtxPopCurrent_v2(CUcontext *ctx)
{
	return cm_ctx_changed_after(cm_real_cuCtxPopCurrent_v2(ctx));
}

CUresult cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev)
{
	return cm_ctx_changed_after(cm_real_cuCtxCreate(ctx, flags, dev));
}

CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned int flags, CUdevice dev)
{
	return cm_ctx_changed_after(cm_real_cuCtxCreate_v2(ctx, flags, dev));
}

CUresult cuCtxCreate_v3(CUcontext *ctx, CUexecAffinityParam *params, int n, unsigned int flags,
			CUdevice dev)
{
	return cm_ctx_changed_after(cm_real_cuCtxCreate_v3(ctx, params, n, flags, dev));
}

CUresult cuCtxCreate_v4(CUcontext *ctx, CUctxCreateParams *params, unsigned int flags,
			CUdevice dev)
{
	return cm_ctx_changed_after(cm_real_cuCtxCreate_v4(ctx, params, flags, dev));
}

CUresult cuCtxDetach(CUcontext ctx)
{
	return cm_ctx_changed_after(cm_real_cuCtxDetach(ctx));
}
