/* core/mem/mem.h - the memory wing: segments, blocks, pools and the live
 * map (segment.c), expandable VMM ranges (expandable.c), stitching
 * (stitch.c), memory the driver refused (giveback.c), limits and releases
 * of idle memory (release.c). Calls the order and record wings. */
#ifndef CM_MEM_H
#define CM_MEM_H

#include "../order/order.h"

/* segment.c: segments, blocks, split and merge, the live map. */
void cm_block_delete(cm_device *d, cm_block *b);
cm_status cm_segment_create(cm_device *d, cm_pool *pool, size_t size, cm_block **out);
void cm_segment_destroy(cm_device *d, cm_segment *seg, bool give_back);
cm_segment *cm_segment_find(cm_device *d, uintptr_t addr);
cm_block *cm_block_take(cm_device *d, cm_block *b, size_t size);
void cm_large_exact_begin(cm_device *d);
void cm_large_exact_end(cm_device *d);
size_t cm_split_max(const cm_device *d);
size_t cm_split_rounding(const cm_device *d);
void cm_block_put(cm_device *d, cm_block *b);
void cm_free_block_locked(cm_device *d, cm_block *b, cm_tag tag);
void cm_segment_move(cm_device *d, cm_segment *seg, cm_pool *to);
void cm_block_await(cm_device *d, cm_block *b);
void cm_block_completed(cm_device *d, cm_block *b); /* its free_completed, if due (trace) */
void cm_awaiting_return(cm_device *d, uint64_t proven_epoch);
void cm_awaiting_forget(cm_device *d);
void cm_pool_hand_over(cm_device *d, cm_pool *from, cm_pool *to);
void cm_pool_stream_end(cm_device *d, cm_stream_rec *r, bool destroyed);
cm_status cm_segment_adopt(cm_device *d, cm_pool *pool, cm_segment *seg, size_t size);
cm_block *cm_segment_extend(cm_device *d, cm_segment *seg, size_t bytes, bool merge);
void cm_segment_shrink(cm_device *d, cm_segment *seg, size_t bytes);
bool cm_segment_punch(cm_device *d, cm_block *b, uintptr_t lo, uintptr_t hi);
cm_block *cm_segment_last(cm_segment *seg);
uint64_t cm_block_refit_gen(cm_device *d, const cm_block *b);

/* expandable.c */
bool cm_exp_supported(const cm_device *d);
cm_block *cm_exp_grow(cm_device *d, cm_pool *pool, size_t size, bool use_last);
size_t cm_exp_trim_all(cm_device *d);
void cm_exp_release(cm_device *d, cm_segment *seg);
bool cm_exp_destroy(cm_device *d, cm_segment *seg);

/* stitch.c: free physical chunks moved to where they are needed. */
typedef struct cm_stitch_cut {
	cm_block *b;
	uintptr_t lo, hi; /* whole chunks of free block b */
} cm_stitch_cut;
cm_stitch_cut *cm_stitch_choose(cm_device *d, cm_segment *growing, size_t want, size_t *ncuts);
bool cm_stitch_take(cm_device *d, size_t chunk, cm_mem_handle *out);
void cm_stitch_keep(cm_device *d, size_t chunk, cm_mem_handle h);
size_t cm_stitch_release(cm_device *d);
bool cm_stitch_within_budget(cm_device *d);
typedef struct cm_stitch_view {
	size_t free_chunks;  /* bytes kept unmapped for stitching */
	size_t complete;     /* bytes of whole free chunks that could be stitched now */
	size_t pending;      /* bytes of whole free chunks still in use by a stream */
	size_t fragments;    /* free bytes in pieces of chunks */
} cm_stitch_view;
void cm_stitch_view_of(cm_device *d, cm_stitch_view *v);
bool cm_livemap_insert(cm_livemap *m, cm_block *b);
cm_block *cm_livemap_find(const cm_livemap *m, uintptr_t addr);
void cm_livemap_free(cm_livemap *m);
/* reserved_bytes changes through here: published for the device's other
 * context slots, which count it against memory_limit_mb (release.c). */
static inline void cm_reserved_add(cm_device *d, int64_t delta)
{
	CM_LEVEL(&d->stats, reserved_bytes, delta);
	atomic_store_explicit(&d->reserved_seen, d->stats.reserved_bytes, memory_order_relaxed);
}

/* giveback.c: device memory given back to the driver, kept and given back
 * again later when the driver refuses (under the device lock). */
typedef struct cm_giveback cm_giveback;
void cm_giveback_free(cm_device *d, uintptr_t addr, size_t size);
void cm_giveback_handle(cm_device *d, cm_mem_handle h, size_t size);
/* False: the unmap failed, the chunk stays mapped and is kept (do not
 * reuse or release its handle). */
bool cm_giveback_unmap(cm_device *d, uintptr_t va, size_t size, cm_mem_handle h);
void cm_giveback_range(cm_device *d, uintptr_t va, size_t size);
bool cm_giveback_unmapped(cm_device *d, uintptr_t va, size_t size);
size_t cm_giveback_retry(cm_device *d);
void cm_giveback_fini(cm_device *d);

/* release.c */
int cm_device_ordinal(const cm_heap *h, int dev); /* the user's device number */
size_t cm_release_all_locked(cm_device *d);
size_t cm_release_fitting_locked(cm_device *d, size_t size, bool small);
bool cm_release_within_limit(cm_device *d, size_t size);
/* What the process holds on d's physical device (d's lock held). */
size_t cm_release_held_on_device(cm_device *d);
void cm_release_gc_locked(cm_device *d, size_t size);
void cm_release_trim_locked(cm_device *d);
/* Releases idle memory (kept chunks, free expandable tails, then idle
 * segments oldest first) until at most keep bytes are reserved or nothing
 * idle is left. Returns the bytes released. */
size_t cm_release_down_to_locked(cm_device *d, size_t keep);
size_t cm_release_idle_oldest(cm_device *d, size_t want);

#endif
