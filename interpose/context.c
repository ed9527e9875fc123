/* interpose/context.c - the context slot table (see context.h).
 *
 * Invariants: a slot's ctx is written under cm_ctx_lock only; its gen grows
 * each time the slot is forgotten, so a thread's cached (ctx, slot, gen)
 * triple is stale as soon as the slot served another context. Lookups by
 * other threads read ctx with acquire loads. No CUDA call is made under
 * the lock except the driver's context queries of a context being added.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "real.h"

/* Created contexts that may hold a slot at once, beyond one per device. */
#define CM_CTX_EXTRA 8

typedef struct cm_ctx_slot {
	_Atomic(CUcontext) ctx;
	CUdevice dev;
	bool primary;
	_Atomic uint32_t gen;
} cm_ctx_slot;

static cm_ctx_slot *cm_ctx_slots;
static int cm_ctx_nslots;
static pthread_mutex_t cm_ctx_lock = PTHREAD_MUTEX_INITIALIZER;

__thread cm_ctx_cache cm_ctx_cached __attribute__((tls_model("initial-exec")));

void cm_ctx_changed(void)
{
	cm_ctx_cached.known = false;
	cm_ctx_cached.levels = 0;
}

void cm_ctx_init(int devices)
{
	cm_ctx_nslots = devices + CM_CTX_EXTRA;
	cm_ctx_slots = calloc((size_t)cm_ctx_nslots, sizeof(*cm_ctx_slots));
	if (!cm_ctx_slots)
		cm_ctx_nslots = 0;
}

int cm_ctx_slot_count(void)
{
	return cm_ctx_nslots;
}

int cm_ctx_find(CUcontext ctx)
{
	for (int i = 0; ctx && i < cm_ctx_nslots; i++)
		if (atomic_load_explicit(&cm_ctx_slots[i].ctx, memory_order_acquire) == ctx)
			return i;
	return -1;
}

int cm_ctx_find_primary(CUdevice dev)
{
	for (int i = 0; i < cm_ctx_nslots; i++)
		if (atomic_load(&cm_ctx_slots[i].ctx) && cm_ctx_slots[i].primary &&
		    cm_ctx_slots[i].dev == dev)
			return i;
	return -1;
}

/* Whether ctx is dev's primary context: retaining an active primary
 * context hands out its handle without creating anything. */
static bool cm_ctx_is_primary(CUcontext ctx, CUdevice dev)
{
	unsigned flags = 0;
	int active = 0;
	CUcontext primary = NULL;
	if (!cm_real.cuDevicePrimaryCtxGetState || !cm_real.cuDevicePrimaryCtxRetain ||
	    cm_real.cuDevicePrimaryCtxGetState(dev, &flags, &active) != CUDA_SUCCESS || !active ||
	    cm_real.cuDevicePrimaryCtxRetain(&primary, dev) != CUDA_SUCCESS)
		return false;
	cm_real.cuDevicePrimaryCtxRelease_v2(dev);
	return primary == ctx;
}

static int cm_ctx_add(CUcontext ctx)
{
	CUdevice dev = 0;
	if (cm_real.cuCtxGetDevice(&dev) != CUDA_SUCCESS)
		return -1;
	bool primary = cm_ctx_is_primary(ctx, dev);
	pthread_mutex_lock(&cm_ctx_lock);
	int slot = cm_ctx_find(ctx);
	for (int i = 0; slot < 0 && i < cm_ctx_nslots; i++) {
		if (atomic_load(&cm_ctx_slots[i].ctx))
			continue;
		cm_ctx_slots[i].dev = dev;
		cm_ctx_slots[i].primary = primary;
		atomic_store_explicit(&cm_ctx_slots[i].ctx, ctx, memory_order_release);
		slot = i;
	}
	pthread_mutex_unlock(&cm_ctx_lock);
	return slot;
}

static bool cm_ctx_cached_valid(void)
{
	return atomic_load_explicit(&cm_ctx_slots[cm_ctx_cached.slot].gen, memory_order_acquire) ==
	       cm_ctx_cached.gen;
}

/* cm_ctx_current when the thread's cached entry is not known valid. */
bool cm_ctx_current_slow(int *slot)
{
	CUcontext ctx = NULL;
	if (cm_real.cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx)
		return false;
	if (ctx == cm_ctx_cached.ctx && cm_ctx_cached_valid()) {
		cm_ctx_cached.known = true;
		*slot = cm_ctx_cached.slot;
		return true;
	}
	int s = cm_ctx_find(ctx);
	if (s < 0 && (s = cm_ctx_add(ctx)) < 0)
		return false;
	cm_ctx_cached.ctx = ctx;
	cm_ctx_cached.slot = s;
	cm_ctx_cached.slot_gen = &cm_ctx_slots[s].gen;
	cm_ctx_cached.gen = atomic_load_explicit(&cm_ctx_slots[s].gen, memory_order_acquire);
	cm_ctx_cached.known = true;
	cm_ctx_cached.levels = 0; /* a new entry or gen: no level has allocated in it yet */
	*slot = s;
	return true;
}

CUcontext cm_ctx_handle(int slot)
{
	return atomic_load_explicit(&cm_ctx_slots[slot].ctx, memory_order_acquire);
}

CUdevice cm_ctx_device(int slot)
{
	return cm_ctx_slots[slot].dev;
}

bool cm_ctx_primary(int slot)
{
	return cm_ctx_slots[slot].primary;
}

void cm_ctx_forget(int slot)
{
	pthread_mutex_lock(&cm_ctx_lock);
	atomic_fetch_add(&cm_ctx_slots[slot].gen, 1);
	atomic_store(&cm_ctx_slots[slot].ctx, NULL);
	pthread_mutex_unlock(&cm_ctx_lock);
}

bool cm_ctx_enter(int slot)
{
	CUcontext want = cm_ctx_handle(slot), cur = NULL;
	if (!want || (cm_real.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == want))
		return false;
	return cm_real.cuCtxPushCurrent_v2(want) == CUDA_SUCCESS;
}

void cm_ctx_leave(bool pushed)
{
	CUcontext popped;
	if (pushed)
		cm_real.cuCtxPopCurrent_v2(&popped);
}
