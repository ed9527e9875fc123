/* interpose/context_hooks.h - the hooks of the driver calls that change
 * the calling thread's current context (context_hooks.c), one per ABI the
 * driver exports, for driver_hooks.c's table. Each is exported under the
 * driver's name (the asm label); the C names tell the ABIs apart, which
 * cuda.h's renaming macros (cuCtxCreate -> cuCtxCreate_v4, ...) would not. */
#ifndef CM_CONTEXT_HOOKS_H
#define CM_CONTEXT_HOOKS_H

#include <cuda.h>

enum {
	CM_CTXH_SET,
	CM_CTXH_PUSH,
	CM_CTXH_PUSH_V2,
	CM_CTXH_POP,
	CM_CTXH_POP_V2,
	CM_CTXH_CREATE,
	CM_CTXH_CREATE_V2,
	CM_CTXH_CREATE_V3,
	CM_CTXH_CREATE_V4,
	CM_CTXH_DETACH,
	CM_CTX_HOOKS
};
/* The driver's functions, stored by lookup.c when it builds its map. */
extern void *cm_ctx_hook_real[CM_CTX_HOOKS];

CUresult cm_ctxh_set(CUcontext ctx) __asm__("cuCtxSetCurrent");
CUresult cm_ctxh_push(CUcontext ctx) __asm__("cuCtxPushCurrent");
CUresult cm_ctxh_push_v2(CUcontext ctx) __asm__("cuCtxPushCurrent_v2");
CUresult cm_ctxh_pop(CUcontext *ctx) __asm__("cuCtxPopCurrent");
CUresult cm_ctxh_pop_v2(CUcontext *ctx) __asm__("cuCtxPopCurrent_v2");
CUresult cm_ctxh_create(CUcontext *ctx, unsigned int flags, CUdevice dev) __asm__("cuCtxCreate");
CUresult cm_ctxh_create_v2(CUcontext *ctx, unsigned int flags, CUdevice dev) __asm__("cuCtxCreate_v2");
CUresult cm_ctxh_create_v3(CUcontext *ctx, CUexecAffinityParam *params, int n, unsigned int flags, CUdevice dev) __asm__("cuCtxCreate_v3");
CUresult cm_ctxh_create_v4(CUcontext *ctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev) __asm__("cuCtxCreate_v4");
CUresult cm_ctxh_detach(CUcontext ctx) __asm__("cuCtxDetach");

#endif
