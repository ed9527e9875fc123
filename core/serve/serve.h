/* core/serve/serve.h - the serve wing, the highest: the public entry
 * points (cachemalloc.h), the search order and slow paths (heap.c), the
 * per-thread caches (tcache.c; their fast path inline in
 * tcache_fast.h), the submission hooks' entry points (submit.c),
 * graph capture (capture.c), the default memory pool's view
 * (pool_view.c), the readers (metrics.c) and the checker (check.c).
 * Calls every wing below; heap.c <-> tcache.c is the one circle of files
 * (docs/design.md, "What it is, and the layers"). */
#ifndef CM_SERVE_H
#define CM_SERVE_H

#include "../report/report.h"

/* submit.c: what the hooks tell of streams (entry points in cachemalloc.h). */
int cm_stream_device(cm_heap *h, cm_stream s);

/* tcache.c: per-thread caches (their lock-free fast path: tcache_fast.h). */
cm_tcache *cm_tc_get(cm_heap *h);
uint32_t cm_tc_thread_id(const cm_tcache *tc);
cm_stream_rec **cm_tc_per_thread_slot(cm_tcache *tc, int dev);
bool cm_tc_park_locked(cm_tcache *tc, cm_device *d, cm_block *b, cm_stream key, cm_stream_rec *rec);
void cm_tc_hand_out_locked(cm_tcache *tc, cm_block *b);
bool cm_tc_flush_device_locked(cm_tcache *tc, cm_device *d);
void cm_tc_before_slow_path_locked(cm_tcache *tc, cm_device *d);
size_t cm_tc_steal_parked_locked(cm_device *d);
/* Caches made from now on behave as if the kernel refused membarrier
 * (tests: the owner's own fence, tcache.c's steal handshake). */
void cm_tc_refuse_membarrier(bool refused);
void cm_tc_heap_fini(cm_heap *h);
void cm_tc_stats(cm_heap *h, int dev, cm_stats *st);
bool cm_tc_check(cm_heap *h, FILE *err);

/* heap.c */
cm_status cm_malloc_slow(cm_heap *h, int dev, size_t size, cm_stream key, uintptr_t *out);
cm_status cm_free_slow(cm_heap *h, uintptr_t ptr, cm_stream key);
cm_device *cm_device_lock_flushed(cm_heap *h, int dev);

#endif
