/* interpose/library.h - the library's process state, shared by the hooks.
 *
 * One heap for the process, created at the first hook that needs it once
 * the driver is loaded and initialized with at least one device (until
 * then every hook passes through). The heap is dropped, without freeing, in a
 * forked child, where CUDA is unusable anyway.
 */
#ifndef CM_LIBRARY_H
#define CM_LIBRARY_H

#include <stdatomic.h>
#include <stdbool.h>

#include "cachemalloc.h"
#include "capture_state.h"
#include "context.h"
#include "nvtx.h"
#include "real.h"

/* The levels at which the program's calls reached the library, for
 * `cachemalloc check` and the exit reports: an allocation through the
 * runtime's or the driver's entry points, a driver function handed out
 * by dlsym or cuGetProcAddress. Set once per level (a relaxed load after). */
enum { CM_LEVEL_RUNTIME = 1, CM_LEVEL_DRIVER = 2, CM_LEVEL_LOOKUP = 4 };
extern atomic_uint cm_lib_levels;
static inline void cm_lib_saw(unsigned level)
{
	if (!(atomic_load_explicit(&cm_lib_levels, memory_order_relaxed) & level))
		atomic_fetch_or_explicit(&cm_lib_levels, level, memory_order_relaxed);
}

/* False once on each thread after a cudaDeviceReset (hooks.c): that
 * thread's next runtime allocation goes to the runtime, which makes the
 * new context. */
bool cm_hook_reset_seen(void);

/* The process heap, or NULL: pass everything through. Inline, as the
 * next two: every hook asks (the pair's cost, docs/benchmarks.md). */
/* hidden (as every symbol of the library but the hooks): one load, no GOT entry. */
extern _Atomic(cm_heap *) cm_lib_heap_ptr __attribute__((visibility("hidden")));
cm_heap *cm_lib_heap_create(void); /* NULL until the driver has a device */
static inline cm_heap *cm_lib_heap(void)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	return __builtin_expect(h != NULL, 1) ? h : cm_lib_heap_create();
}

/* The calling thread's current context's slot, the core's device index
 * (context.h): false without a current context. */
static inline bool cm_lib_device(int *slot)
{
	return cm_ctx_current(slot);
}

/* A cache-first hook's conditions (hook_shape.h's CM_CACHED_*): the heap,
 * where the hook may ask the thread's cache before anything else (not
 * inside CUDA), else NULL; for an allocation, the thread's slot where an
 * allocation of this level found the thread's context known, no NVTX tool
 * to tell and every device reset seen, and marked the level since
 * (cm_lib_saw_here), and the slot still serves that context (a reset of
 * it forgets the slot, so the next try misses and the miss path sees the
 * reset); for a free, no NVTX tool to tell either and no block shared
 * with another process (whose free the core may hold: cm_ipc_free). */
static inline cm_heap *cm_lib_cached_heap(void)
{
	if (cm_in_cuda || cm_capture_watching()) /* a capture's blocks: the miss path asks */
		return NULL;
	return atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
}
static inline cm_heap *cm_lib_cached_free_heap(void)
{
	return cm_nvtx_active() || cm_ipc_watching() ? NULL : cm_lib_cached_heap();
}
static inline bool cm_lib_cached_slot(unsigned level, int *slot)
{
	return (cm_ctx_cached.levels & level) && cm_ctx_cached_slot(slot); /* levels: known */
}
/* An allocation hook of the level found the thread's context (its slot),
 * past the reset check: the level is marked, and while no NVTX tool must
 * hear of blocks (nvtx.h: decided when the heap is made, it may only go
 * off later) this thread's cache-first tries at it may skip the questions
 * until the context changes. */
static inline void cm_lib_saw_here(unsigned level)
{
	cm_lib_saw(level);
	if (!cm_nvtx_active())
		cm_ctx_cached.levels |= (uint8_t)level;
}

/* The core's name of a stream argument: 0 is the legacy stream, or the
 * calling thread's per-thread stream when ptsz. */
cm_stream cm_lib_stream(CUstream s, bool ptsz);

/* A synchronization hook of either level: the mark before the real call
 * (the stream's, or CM_SYNC_DEVICE with the thread's slot) and, after it,
 * the proof it gives when ok, under the re-entry guard. */
cm_sync_token cm_lib_stream_sync_begin(cm_heap *h, CUstream s, bool ptsz);
/* The device's mark, false without a current context (pass the call). */
bool cm_lib_device_sync_begin(cm_heap *h, cm_sync_token *tok);
void cm_lib_sync_end(cm_heap *h, cm_sync_token tok, bool ok);

/* The core's allocation and free for a hook of either level, under the
 * re-entry guard, with the block told to an attached NVTX tool (nvtx.h).
 * async: cudaMallocAsync on s. CM_ERR_NOT_OURS from a free: pass it to
 * CUDA. */
cm_status cm_lib_malloc_in_era(cm_heap *h, int slot, size_t n, bool async, cm_stream s,
				uintptr_t *out);
cm_status cm_lib_free_in_era(cm_heap *h, uintptr_t p, bool async, cm_stream s);
static inline cm_status cm_lib_malloc(cm_heap *h, int slot, size_t n, bool async, cm_stream s,
				      uintptr_t *out)
{
	if (cm_capture_watching())
		return cm_lib_malloc_in_era(h, slot, n, async, s, out);
	*out = 0;
	cm_in_cuda++;
	cm_status st = async ? cm_malloc_async(h, slot, n, s, out) : cm_malloc(h, slot, n, out);
	if (cm_nvtx_active() && st == CM_OK && *out)
		cm_nvtx_block_added(*out, n);
	cm_in_cuda--;
	return st;
}

static inline cm_status cm_lib_free(cm_heap *h, uintptr_t p)
{
	if (cm_capture_watching())
		return cm_lib_free_in_era(h, p, false, 0);
	cm_in_cuda++;
	if (cm_nvtx_active())
		cm_nvtx_block_freeing(h, p);
	cm_status st = cm_ipc_watching() ? cm_ipc_free(h, p, false, 0) : cm_free(h, p);
	cm_in_cuda--;
	return st;
}
/* cudaFreeAsync / cuMemFreeAsync of p on s; a block of the cache freed on
 * a capturing stream is refused as CUDA refuses memory the graph did not
 * allocate (CM_ERR_INVALID), and stays the program's. */
cm_status cm_lib_free_async(cm_heap *h, uintptr_t p, CUstream s, bool ptsz);
/* cudaFreeHost / cuMemFreeHost of p: cm_host_free, or refused as CUDA
 * refuses it where the thread's capture mode forbids it. */
cm_status cm_lib_host_free(cm_heap *h, uintptr_t p);

/* Graph capture (docs/design.md, rule 7). In a capture's era (core's
 * cm_capture_watching): whether the calling thread's capture mode makes
 * CUDA refuse an allocation or free; a hook then leaves an allocation to
 * CUDA (CM_ERR_NOT_OURS), which refuses it and invalidates the capture
 * itself. Under the re-entry guard. */
bool cm_lib_capture_forbidden(cm_heap *h);

/* The slot's context was destroyed or reset: its cache is forgotten
 * without freeing, and the slot may serve another context
 * (driver_hooks.c). Called only once the driver accepted the call. */
void cm_lib_forget_slot(int slot);
/* dev's primary context is gone when destroyed, or when the driver calls
 * it inactive: its slot, if any, is forgotten. */
void cm_drv_primary_gone(CUdevice dev, bool destroyed);

/* Whether this process is a forked child of the one that made the heap
 * (it reports nothing at exit: the parent does). */
bool cm_lib_in_forked_child(void);

/* The error a failed core call means to the program, left as the
 * runtime's last error too (errors.c). */
cudaError_t cm_lib_fail(cm_status st);
/* The CUresult a failed core call means to a driver-level caller. */
CUresult cm_lib_cu_fail(cm_status st);

/* A capture of s (in mode m) is about to begin: counted, and told to the
 * core; cm_lib_capture_ended: it ended, or its begin was refused. */
void cm_lib_capture_began(CUstream s, bool ptsz, CUstreamCaptureMode m);
void cm_lib_capture_ended(CUstream s, bool ptsz);
/* A graph or executable graph was made (its handle), or destroyed. */
void cm_lib_graph_made(uintptr_t graph);
void cm_lib_graph_gone(uintptr_t graph);

#endif
