/* interpose/driver_hooks.h - what the hand-written driver hooks of every
 * ABI version share (driver_hooks.c): the first ABI versions
 * (driver_hooks_v1.c) translate their arguments and call these, so that
 * each version of a function changes the cache's state the same way. */
#ifndef CM_DRIVER_HOOKS_H
#define CM_DRIVER_HOOKS_H

#include "cachemalloc.h"
#include "real.h"

/* Stream s is about to be destroyed: the core records its tail. */
void cm_drv_stream_destroying(CUstream s);
/* A capture begin of s returned r (the begin was counted before the call). */
CUresult cm_drv_capture_begun(CUresult r, CUstream s, bool ptsz);
/* The slot of ctx, found before the driver's call (-1: none)... */
int cm_drv_ctx_slot(CUcontext ctx);
/* ...forgotten once the driver accepted its destruction (r). */
CUresult cm_drv_ctx_gone(CUresult r, int slot);
/* cuIpcOpenMemHandle of a token of the cache (*r: the answer); false for
 * any other handle, which is CUDA's to open. */
bool cm_drv_ipc_open(CUdeviceptr *p, CUipcMemHandle handle, unsigned int flags, CUresult *r);
/* cuMemGetInfo's answer as the program sees it under the cache (idle cached
 * memory as free, memory_limit_mb as the total): core/mem/release.c,
 * cm_mem_info_view. */
void cm_drv_mem_info(size_t *free_bytes, size_t *total);
/* Whether p lies in memory of the cache; info->base is then the start of
 * the block the program holds there, or 0: none the driver would know. */
bool cm_drv_block_of(CUdeviceptr p, cm_ptr_info *info);

#endif
