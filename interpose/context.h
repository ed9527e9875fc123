/* interpose/context.h - CUDA contexts as the core's devices.
 *
 * The core's device index is a context slot: pools belong to a context,
 * primary or created, not to a device (docs/design.md, "Contexts"). The
 * first slots go to the contexts met first; a context destroyed (or a
 * primary context reset or released for good) frees its slot after the
 * core has forgotten its memory. With every slot taken, a new context's
 * calls pass through to CUDA uncached.
 */
#ifndef CM_CONTEXT_H
#define CM_CONTEXT_H

#include <cuda.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Slots for a process with this many devices (set once, before use). */
void cm_ctx_init(int devices);
int cm_ctx_slot_count(void);

/* The calling thread's current context and its slot. `known`: ctx is
 * the thread's current context, cleared by every hook of a call that
 * changes it (context_hooks.c, cm_ctx_changed); a slot forgotten since
 * (its gen, *slot_gen, moved on) makes the entry stale as well. `levels`:
 * the hook levels (library.h) whose allocation found ctx known and marked
 * its level since, cleared with `known` and whenever the entry is filled
 * anew (another context, or its slot's gen moved on): a cache-first try at
 * one of them asks nothing more (cm_lib_cached_slot). */
typedef struct cm_ctx_cache {
	CUcontext ctx;
	const _Atomic uint32_t *slot_gen;
	int slot;
	uint32_t gen;
	bool known;
	uint8_t levels;
} cm_ctx_cache;
extern __thread cm_ctx_cache cm_ctx_cached __attribute__((tls_model("initial-exec")));

bool cm_ctx_current_slow(int *slot);

/* The calling thread's current context's slot: false when it has no
 * context or no slot is free. No driver call while the thread has not
 * changed its context since it last asked (cm_ctx_changed) and the slot
 * still serves it (cm_ctx_cached_slot); else cuCtxGetCurrent and a
 * compare. Inline: every allocation asks. */
static inline bool cm_ctx_cached_slot(int *slot) /* the slot, while it serves ctx */
{
	if (atomic_load_explicit(cm_ctx_cached.slot_gen, memory_order_acquire) != cm_ctx_cached.gen)
		return false;
	*slot = cm_ctx_cached.slot;
	return true;
}
static inline bool cm_ctx_current(int *slot)
{
	return (__builtin_expect(cm_ctx_cached.known, 1) && cm_ctx_cached_slot(slot)) ||
	       cm_ctx_current_slow(slot);
}
/* The calling thread may have changed its current context (the hooks of
 * context_hooks.c): the next cm_ctx_current asks the driver. */
void cm_ctx_changed(void);

/* The slot of ctx, or -1. */
int cm_ctx_find(CUcontext ctx);
/* The slots holding device dev's primary context (at most one). */
int cm_ctx_find_primary(CUdevice dev);

CUcontext cm_ctx_handle(int slot);
CUdevice cm_ctx_device(int slot);
bool cm_ctx_primary(int slot);

/* The context of the slot is gone: its slot may serve another. */
void cm_ctx_forget(int slot);

/* Makes the slot's context current on this thread for a backend call;
 * returns whether it pushed one, to hand to cm_ctx_leave. */
bool cm_ctx_enter(int slot);
void cm_ctx_leave(bool pushed);

#endif
