/* core/include/cachemalloc.h - the caching core's API.
 *
 * A cm_heap caches device memory for every device of one backend. The hooks
 * in interpose/ (or a test, the demo, the replayer) translate CUDA calls
 * into these functions:
 *
 *   cudaMalloc(&p, n)            cm_malloc(h, dev, n, &p)
 *   cudaMallocAsync(&p, n, s)    cm_malloc_async(h, dev, n, s, &p)
 *   cudaFree(p)                  cm_free(h, p)
 *   cudaFreeAsync(p, s)          cm_free_async(h, p, s)
 *   cudaStreamCreate*            cm_stream_created(h, dev, s, nonblocking)
 *   cudaStreamDestroy            cm_stream_destroying(h, dev, s)
 *   cudaStreamSynchronize(s)     cm_sync_begin / real sync / cm_sync_end
 *   cudaDeviceSynchronize        the same with CM_SYNC_DEVICE
 *   cudaMemPool*Attribute, cudaMemPoolTrimTo of the default pool
 *                                cm_pool_view_get, cm_pool_reset_high,
 *                                cm_pool_set_release_threshold, cm_pool_trim
 *
 * Reuse across streams and threads follows the fence protocol
 * (docs/design.md, "The fence protocol"); the functions here are where its rules are enforced. All
 * functions are thread-safe. cm_free of a pointer in no segment of the heap
 * returns CM_ERR_NOT_OURS (the caller passes it on unchanged); a pointer
 * inside a segment that is not a live block returns CM_ERR_INVALID.
 */
#ifndef CM_CACHEMALLOC_H
#define CM_CACHEMALLOC_H

#include <stdatomic.h>
#include <stdio.h>

#include "backend.h"
#include "config.h"
#include "stats.h"

typedef struct cm_heap cm_heap;

/* The configuration is copied; the backend must outlive the heap. */
cm_status cm_heap_create(const cm_backend *be, const cm_config *cfg, cm_heap **out);
/* Gives every segment back to the backend (after a device synchronization). */
void cm_heap_destroy(cm_heap *h);

cm_status cm_malloc(cm_heap *h, int dev, size_t size, uintptr_t *out);
cm_status cm_malloc_async(cm_heap *h, int dev, size_t size, cm_stream s, uintptr_t *out);
cm_status cm_free(cm_heap *h, uintptr_t ptr);
cm_status cm_free_async(cm_heap *h, uintptr_t ptr, cm_stream s);
/* (The hooks' first try, the calling thread's cache alone, is internal:
 * cm_malloc_cached and cm_free_cached, inline in tcache_fast.h.) */

cm_status cm_stream_created(cm_heap *h, int dev, cm_stream s, bool nonblocking);
/* dev < 0: the device whose table holds s. */
cm_status cm_stream_destroying(cm_heap *h, int dev, cm_stream s);

/* Synchronization proves completion (rule 6). Call begin before the real
 * synchronization and end after it, with its result. For a user stream,
 * dev < 0 means the device whose table holds it. */
#define CM_SYNC_DEVICE ((cm_stream)UINTPTR_MAX)
typedef struct cm_sync_token {
	uint64_t mark;
	void *rec;
	int dev;
} cm_sync_token;
cm_sync_token cm_sync_begin(cm_heap *h, int dev, cm_stream s);
void cm_sync_end(cm_heap *h, cm_sync_token tok, cm_status result);

/* Submissions (docs/design.md, "Seeing every submission"). A library that
 * sees every way work reaches a stream calls cm_heap_track_submissions
 * once, before any stream exists; then cm_submit_begin before each call
 * that queues work on stream s (or makes it wait; once per stream the
 * call uses) and cm_submit_end after it. cm_submit_begin may make s wait
 * for earlier frees (it returns after enqueueing that wait); it returns
 * false for a user stream the heap does not know: cm_stream_seen tells it
 * which device's it is, then call again. */
void cm_heap_track_submissions(cm_heap *h);
bool cm_submit_begin(cm_heap *h, cm_stream s);
void cm_submit_end(void);
/* User stream s of device dev, met outside cm_stream_created: known from
 * now on, its earlier work counted as not yet covered. CM_ERR_BAD_HANDLE
 * when the device does not know the handle. */
cm_status cm_stream_seen(cm_heap *h, int dev, cm_stream s);

/* Gives the calling thread's cached blocks back to the shared pools. */
void cm_thread_flush(cm_heap *h);

/* Frees every wholly free cached segment of the device (after
 * synchronizing it). Returns the bytes given back. */
size_t cm_release_cached(cm_heap *h, int dev);

/* The device was reset: its memory and streams are gone. Forgets them
 * without giving anything back. */
void cm_device_reset(cm_heap *h, int dev);

/* What the cache knows of a pointer. */
typedef struct cm_ptr_info {
	bool ours;          /* inside a segment of the cache */
	bool live;          /* the start of a block held by the program */
	bool segment_start; /* ...which is also the start of its segment */
	bool expandable;    /* ...in an expandable segment */
	int dev;
	size_t size;        /* the block's rounded size */
	size_t requested;   /* the size the program asked for it */
	uintptr_t base;     /* the start of the held block containing ptr, or 0 */
} cm_ptr_info;
void cm_pointer_info(cm_heap *h, uintptr_t ptr, cm_ptr_info *out);

/* Bytes cached and idle on the device (reserved but not allocated; the
 * calling thread's parked blocks are given back first). */
size_t cm_idle_bytes(cm_heap *h, int dev);

/* Adjusts the driver's answer to cudaMemGetInfo on device dev (free and
 * total, in place) to what the program should see: idle cached memory as
 * free (memgetinfo_counts_cache) and memory_limit_mb as the total. */
void cm_mem_info_view(cm_heap *h, int dev, size_t *free_bytes, size_t *total);

/* The device's default memory pool as the program sees it under the cache
 * (pool_view.c): cudaMemPoolGetAttribute's used and reserved bytes with
 * their high watermarks, and the release threshold (idle bytes kept at a
 * device synchronization, release_threshold_mb; SIZE_MAX: all). False for
 * a device the heap does not have. */
typedef struct cm_pool_view {
	uint64_t used, used_high;         /* allocated_bytes and its peak */
	uint64_t reserved, reserved_high; /* reserved_bytes and its peak */
	size_t release_threshold;
} cm_pool_view;
bool cm_pool_view_get(cm_heap *h, int dev, cm_pool_view *out);
/* A high watermark set to 0: the peak (the device's statistic) becomes the
 * current value. */
void cm_pool_reset_high(cm_heap *h, int dev, bool used, bool reserved);
/* cudaMemPoolTrimTo: after a device synchronization, idle memory goes back
 * until at most keep bytes stay reserved (or nothing idle is left).
 * Returns the bytes released. */
size_t cm_pool_trim(cm_heap *h, int dev, size_t keep);
/* The release threshold of this device from now on (until a reset). */
void cm_pool_set_release_threshold(cm_heap *h, int dev, size_t bytes);

/* Writes a memory snapshot (a pickle that PyTorch's memory_viz opens) to
 * path. The recent-actions part is filled only when oom_snapshot is set
 * (tracing). A failure is reported on err and returned, never fatal. */
bool cm_snapshot_write(cm_heap *h, const char *path, FILE *err);

/* metrics:PATH (core/serve/metrics.c): writes the statistics as a Prometheus
 * textfile now; or starts the one thread that writes it every period
 * seconds (false, with one line on stderr, when it cannot start). */
bool cm_metrics_write(cm_heap *h, const char *path, FILE *err);
/* Writes len bytes to path whole (core/record/outfile.c): a temporary
 * file renamed over it, or with _new linked to it only where no file is
 * (false, silently, where one is); a failure is one line on err, naming
 * what. */
bool cm_outfile_write(const char *path, const void *buf, size_t len, const char *what, FILE *err);
bool cm_outfile_write_new(const char *path, const void *buf, size_t len, const char *what,
			  FILE *err);
bool cm_metrics_start(cm_heap *h, const char *path, unsigned period);

/* log:PATH (core/record/eventlog.c): writes out what the event log buffers (the
 * library calls it at exit; cm_heap_destroy does it too). */
void cm_eventlog_flush(cm_heap *h);

/* Where out-of-memory reports go (default stderr); also restarts their
 * rate limit of one a second. */
void cm_heap_set_report_stream(cm_heap *h, FILE *out);
/* The API the calling thread's next synchronous allocations come through,
 * as an out-of-memory report names it ("cuMemAlloc"; NULL: "cudaMalloc"). */
void cm_report_name_api(const char *api);

/* Statistics of one device, and the sum over devices (dev = -1). */
void cm_stats_get(cm_heap *h, int dev, cm_stats *out);

/* The expensive consistency check: walks every segment, block, index and
 * per-thread cache of the heap. Returns true when consistent; otherwise
 * writes what is wrong to err and returns false. */
bool cm_heap_check(cm_heap *h, FILE *err);

/* The rounded size a request of this many bytes is served with, and the
 * roundup_power2_divisions that apply to it (0 or 1: none). */
size_t cm_round_size(const cm_config *cfg, size_t size);
unsigned cm_size_divisions(const cm_config *cfg, size_t size);

/* Pitched allocations (pitch.c): the pitch the driver gives a row of width
 * bytes, and the bytes of height rows times depth slices; false when the
 * call is one the cache leaves to CUDA (a zero extent, an overflow).
 * cuMemAllocPitch's element size must be 4, 8 or 16. */
bool cm_pitch_size(size_t width, size_t height, size_t depth, size_t *pitch, size_t *bytes);
bool cm_pitch_element_ok(unsigned element_bytes);

/* Pinned host memory (host.c; docs/design.md, "Pinned host memory and
 * pitch"). One cache per heap, pools per context slot and flag
 * combination. cm_host_alloc serves size bytes allocated in device dev's
 * context with these flags; cm_host_free returns CM_ERR_NOT_OURS for a
 * pointer the cache never handed out (pass it to CUDA) and CM_ERR_INVALID
 * for one it holds free (a double free) or an interior pointer. */
#define CM_HOST_PORTABLE 1u
#define CM_HOST_MAPPED 2u
#define CM_HOST_WRITE_COMBINED 4u
#define CM_HOST_FLAGS 7u
cm_status cm_host_alloc(cm_heap *h, int dev, size_t size, unsigned flags, uintptr_t *out);
cm_status cm_host_free(cm_heap *h, uintptr_t ptr);
/* The CM_HOST_* flags a block the program holds was asked with; false for
 * a pointer that is not the start of one. */
bool cm_host_flags_of(cm_heap *h, uintptr_t ptr, unsigned *flags);
/* Gives every cached, unused pinned block back (a release policy, and the
 * retry after a failed host allocation). Returns the bytes given back. */
size_t cm_host_release_cached(cm_heap *h);

/* Graph capture (capture.c; docs/design.md, rule 7), told by the hooks.
 * The modes are CUDA's, in its order. A capture of stream s begun by the
 * calling thread (before the driver's call; cm_capture_end undoes a
 * refused one) and ended (true when it was known); whether one is in
 * progress; whether CUDA forbids the calling thread, in thread_mode, an
 * allocation or free (then the hooks leave the call to CUDA). A graph or
 * executable graph made, destroyed: the era of a capture lasts until
 * none is in progress and every graph made meanwhile is destroyed.
 * cm_capture_block_born: p was handed out (kept while a capture is in
 * progress); cm_capture_free: the free of p (cm_free, or cm_free_async on
 * s), held out of the cache until the era ends where a graph may still
 * use the block. cm_capture_watching: one relaxed load, false while no
 * capture is in progress and no block is born or held (the hooks' fast
 * paths then need nothing else). */
typedef enum cm_capture_mode {
	CM_CAPTURE_GLOBAL = 0,
	CM_CAPTURE_THREAD_LOCAL = 1,
	CM_CAPTURE_RELAXED = 2
} cm_capture_mode;
extern _Atomic unsigned cm_capture_eras __attribute__((visibility("hidden"))); /* one load, no GOT */
static inline bool cm_capture_watching(void)
{
	return __builtin_expect(atomic_load_explicit(&cm_capture_eras, memory_order_relaxed) != 0, 0);
}
void cm_capture_begin(cm_heap *h, cm_stream s, cm_capture_mode mode);
bool cm_capture_end(cm_heap *h, cm_stream s);
bool cm_capture_in_progress(cm_heap *h);
bool cm_capture_forbids(cm_heap *h, cm_capture_mode thread_mode);
void cm_capture_graph_made(cm_heap *h, uintptr_t graph);
void cm_capture_graph_gone(cm_heap *h, uintptr_t graph);
void cm_capture_block_born(cm_heap *h, uintptr_t p);
cm_status cm_capture_free(cm_heap *h, uintptr_t p, bool async, cm_stream s);
void cm_capture_forget_device(cm_heap *h, int dev);

/* Blocks shared with other processes (ipc.c; docs/design.md, "Sharing
 * blocks between processes"). A block is shared through a token that fills
 * CUDA's 64-byte handle. Exporter: cm_ipc_export gives the token of the
 * live block containing p, whose segment starts at segment and has CUDA's
 * handle segment_handle (CM_ERR_INVALID: no live block; CM_ERR_OOM: too
 * many shared). While any block is shared (cm_ipc_watching, one relaxed
 * load), every free goes to cm_ipc_free: the block of an open token is
 * held out of the cache until the importers close it (CM_ERR_INVALID: a
 * second free). Importer: cm_ipc_import_begin is false for a handle that
 * is no token (CUDA's own); for a token it fills imp: stale (the block is
 * freed or its process gone: refuse), or CUDA's handle of the segment to
 * open, after which cm_ipc_import_end(imp, the base CUDA gave, 0 if it
 * refused) answers the block's pointer (0: undone). cm_ipc_close: whether
 * p was opened from a token, and the segment base for CUDA's close.
 * cm_ipc_imported: whether p lies in a block opened from a token, and that
 * block (for the range queries, which CUDA answers with the allocation). */
#define CM_IPC_HANDLE_BYTES 64
extern _Atomic unsigned cm_ipc_exports __attribute__((visibility("hidden")));
static inline bool cm_ipc_watching(void)
{
	return __builtin_expect(atomic_load_explicit(&cm_ipc_exports, memory_order_relaxed) != 0, 0);
}
cm_status cm_ipc_export(cm_heap *h, uintptr_t p, const uint8_t segment_handle[CM_IPC_HANDLE_BYTES],
			uintptr_t segment, uint8_t token[CM_IPC_HANDLE_BYTES]);
cm_status cm_ipc_free(cm_heap *h, uintptr_t p, bool async, cm_stream s);
typedef struct cm_ipc_import {
	bool stale;
	uint8_t segment_handle[CM_IPC_HANDLE_BYTES];
	uint64_t offset, size;
	struct cm_ipc_file *file; /* ipc.c's */
	struct cm_ipc_slot *slot;
} cm_ipc_import;
bool cm_ipc_import_begin(const uint8_t handle[CM_IPC_HANDLE_BYTES], cm_ipc_import *imp);
uintptr_t cm_ipc_import_end(cm_ipc_import *imp, uintptr_t segment_base);
bool cm_ipc_close(uintptr_t p, uintptr_t *segment_base);
bool cm_ipc_imported(uintptr_t p, uintptr_t *block, size_t *size);

#endif
