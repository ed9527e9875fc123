/* core/mem/segment.c - segments, the blocks that tile them, split and merge.
 *
 * Owns: the device's segment table (sorted by base address, for "is this
 * pointer ours"), the idle-segment indexes (by size, and a list by age), the live map (address -> USED
 * block) and the type-stable block structs.
 *
 * Invariants (checked by cm_heap_check):
 * - a segment's blocks are linked in address order, adjacent, covering it;
 * - no two FREE blocks are adjacent (a free merges with free neighbours)
 *   unless one of them awaits its proof (they merge when it returns);
 * - a FREE block is in its segment's pool index, or awaiting a proof in the
 *   device's awaiting list (whose bytes are stats.pending_bytes); a USED
 *   one is in the live map;
 * - a segment is in an idle index iff it is one FREE block;
 * - a segment is on its pool's list (pool->seg_list) and no other, so a
 *   dead stream's segments are found without a walk over the device's;
 * - a HOLE block (an unmapped stretch of an expandable segment, stitch.c)
 *   is chunk-aligned, never first nor last, never next to another hole,
 *   in no index; seg->holes is the sum of their sizes;
 * - block structs are never returned to the system while the heap lives,
 *   so a per-thread cache may read a stale pointer's atomic owner word.
 * All functions run under the device lock.
 * Wing: mem. Calls in its own wing giveback.c; the order and record wings.
 */
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "../record/list.h"

#define CM_SLAB_BLOCKS 256

/* An array of *cap elements of each bytes, doubled (first when empty): the
 * new array with *cap updated, or NULL with both unchanged. */
static void *cm_array_grow(void *a, size_t *cap, size_t each, size_t first)
{
	size_t n = *cap ? 2 * *cap : first;
	void *grown = realloc(a, n * each);
	if (grown)
		*cap = n;
	return grown;
}

static cm_block *cm_block_new(cm_device *d)
{
	if (!d->block_freelist) {
		if (d->nslabs == d->slabs_cap) {
			void **slabs = cm_array_grow(d->slabs, &d->slabs_cap, sizeof(*slabs), 16);
			if (!slabs)
				return NULL;
			d->slabs = slabs;
		}
		cm_block *slab = aligned_alloc(_Alignof(cm_block), CM_SLAB_BLOCKS * sizeof(*slab));
		if (!slab)
			return NULL;
		memset(slab, 0, CM_SLAB_BLOCKS * sizeof(*slab));
		d->slabs[d->nslabs++] = slab;
		for (size_t i = 0; i < CM_SLAB_BLOCKS; i++) {
			slab[i].dev_index = (uint32_t)d->index;
			slab[i].next = d->block_freelist;
			d->block_freelist = &slab[i];
		}
	}
	cm_block *b = d->block_freelist;
	d->block_freelist = b->next;
	/* Field by field: a stale per-thread cache entry may still read the
	 * atomic words concurrently, so they are never overwritten plainly. */
	b->node = (cm_tnode){0};
	b->seg = NULL;
	b->prev = b->next = NULL;
	b->state = 0;
	b->requested = 0;
	b->tag = (cm_tag){0};
	atomic_store_explicit(&b->owner, 0, memory_order_relaxed);
	atomic_store_explicit(&b->free_nb, 0, memory_order_relaxed);
	return b;
}

void cm_block_delete(cm_device *d, cm_block *b)
{
	atomic_store_explicit(&b->owner, 0, memory_order_relaxed);
	b->state = 0;
	b->next = d->block_freelist;
	d->block_freelist = b;
}

/* ---- the live map ---- */

static size_t cm_livemap_slot(const cm_livemap *m, uintptr_t addr)
{
	return (size_t)(((uint64_t)addr >> 9) * 0x9e3779b97f4a7c15ull >> 20) & (m->cap - 1);
}

static bool cm_livemap_grow(cm_livemap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024;
	uintptr_t *keys = calloc(cap, sizeof(*keys));
	cm_block **vals = calloc(cap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return false;
	}
	cm_livemap old = *m;
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	m->count = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			cm_livemap_insert(m, old.vals[i]);
	free(old.keys);
	free(old.vals);
	return true;
}

bool cm_livemap_insert(cm_livemap *m, cm_block *b)
{
	if (2 * (m->count + 1) > m->cap && !cm_livemap_grow(m))
		return false;
	size_t i = cm_livemap_slot(m, b->node.addr);
	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = b->node.addr;
	m->vals[i] = b;
	m->count++;
	return true;
}

cm_block *cm_livemap_find(const cm_livemap *m, uintptr_t addr)
{
	if (!m->cap || !addr)
		return NULL;
	for (size_t i = cm_livemap_slot(m, addr); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == addr)
			return m->vals[i];
	return NULL;
}

/* Backward-shift deletion keeps probe chains without tombstones. */
static void cm_livemap_remove(cm_livemap *m, uintptr_t addr)
{
	size_t i = cm_livemap_slot(m, addr);
	while (m->keys[i] != addr) {
		cm_assert(m->keys[i]);
		i = (i + 1) & (m->cap - 1);
	}
	for (size_t j = i;;) {
		j = (j + 1) & (m->cap - 1);
		if (!m->keys[j])
			break;
		size_t home = cm_livemap_slot(m, m->keys[j]);
		/* Move j into the hole at i unless its home lies in (i, j]. */
		bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (!stays) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = 0;
	m->vals[i] = NULL;
	m->count--;
}

void cm_livemap_free(cm_livemap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- pool indexes ---- */

/* Every change to a large pool's free blocks bumps the device's placement
 * generation, which tells a per-thread cache whether a refit hint
 * (cm_block_refit_gen) still describes the pools. */
static void cm_place_changed(cm_device *d, const cm_pool *pool)
{
	if (!pool->small)
		atomic_store_explicit(&d->large_place_gen,
				      atomic_load_explicit(&d->large_place_gen, memory_order_relaxed) + 1,
				      memory_order_relaxed);
}

static void cm_pool_insert(cm_device *d, cm_pool *pool, cm_tnode *n)
{
	cm_tree_insert(&pool->root, n);
	cm_place_changed(d, pool);
}

/* A traced free whose block was not reusable at once (cm_block_put) is
 * complete, as far as a snapshot's history can tell, when the block
 * becomes something else: taken, merged, returned from awaiting, released.
 * PyTorch writes free_completed when its block goes back to the pool. */
void cm_block_completed(cm_device *d, cm_block *b)
{
	if (!b->completion_due)
		return;
	b->completion_due = false;
	cm_trace(d, CM_TRACE_FREE_COMPLETED, b->node.addr, b->node.size, cm_trace_stream(b->tag.stream));
}

static void cm_awaiting_unlink(cm_device *d, cm_block *b)
{
	cm_tnode *n = &b->node;
	CM_LIST_REMOVE_ENDS(d->awaiting_head, d->awaiting_tail, n, left, right);
	b->awaiting = false;
	CM_LEVEL(&d->stats, pending_bytes, -(int64_t)b->node.size);
}

/* Out of its index, whichever holds it. */
static void cm_pool_remove(cm_device *d, cm_pool *pool, cm_tnode *n)
{
	cm_block *b = cm_block_of(n);
	cm_block_completed(d, b);
	if (b->awaiting) {
		cm_awaiting_unlink(d, b);
		return;
	}
	cm_tree_remove(&pool->root, n);
	cm_place_changed(d, pool);
}

/* ---- the awaiting list: free blocks a search passed over because their
 * reuse needs an order or a completion not yet had (fence.c). Out of the
 * pools' indexes, later searches do not look at them again. A search puts
 * back those at the head that were freed at or before the epoch a proof
 * reached: O(blocks returned), whatever still awaits. Blocks are set aside
 * in about the order they were freed (the epoch moves only at a fence,
 * collect or synchronization), so one freed later that reached the head
 * first holds back the others for one proof at most. ---- */

static void cm_awaiting_append(cm_device *d, cm_block *b)
{
	b->awaiting = true;
	cm_tnode *n = &b->node;
	CM_LIST_APPEND(d->awaiting_head, d->awaiting_tail, n, left, right);
	CM_LEVEL(&d->stats, pending_bytes, (int64_t)b->node.size);
}

void cm_block_await(cm_device *d, cm_block *b)
{
	cm_assert(b->state == CM_BLOCK_FREE && !b->awaiting);
	cm_pool_remove(d, b->seg->pool, &b->node);
	cm_awaiting_append(d, b);
}

static void cm_block_file(cm_device *d, cm_block *b, bool awaiting);

/* A returned block merges with the free neighbours it was kept apart
 * from while it awaited (cm_block_put). */
void cm_awaiting_return(cm_device *d, uint64_t proven_epoch)
{
	while (d->awaiting_head && cm_block_of(d->awaiting_head)->tag.epoch <= proven_epoch) {
		cm_block *b = cm_block_of(d->awaiting_head);
		d->visits.returned++;
		cm_awaiting_unlink(d, b);
		cm_block_file(d, b, false);
	}
}

/* A reset dropped every block. */
void cm_awaiting_forget(cm_device *d)
{
	d->awaiting_head = d->awaiting_tail = NULL;
	d->stats.pending_bytes = 0;
}

/* ---- a pool's segments ---- */

static void cm_pool_seg_join(cm_pool *pool, cm_segment *seg)
{
	seg->pool = pool;
	CM_LIST_PUSH(pool->seg_list, seg, pool_prev, pool_next);
	pool->segments++;
}

/* seg leaves its pool's list; seg->pool still names the pool. */
static void cm_pool_seg_leave(cm_segment *seg)
{
	cm_pool *pool = seg->pool;
	CM_LIST_REMOVE(pool->seg_list, seg, pool_prev, pool_next);
	pool->segments--;
}

/* ---- the segment table and idle indexes ---- */

static size_t cm_segtab_index(cm_device *d, uintptr_t addr)
{
	size_t lo = 0, hi = d->nsegs; /* first segment with base > addr */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cm_seg_base(d->segs[mid]) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

cm_segment *cm_segment_find(cm_device *d, uintptr_t addr)
{
	size_t i = cm_segtab_index(d, addr);
	if (i == 0)
		return NULL;
	cm_segment *seg = d->segs[i - 1];
	return addr - cm_seg_base(seg) < seg->idle.size ? seg : NULL;
}

static bool cm_segtab_insert(cm_device *d, cm_segment *seg)
{
	if (d->nsegs == d->segs_cap) {
		cm_segment **segs = cm_array_grow(d->segs, &d->segs_cap, sizeof(*segs), 64);
		if (!segs)
			return false;
		d->segs = segs;
	}
	size_t i = cm_segtab_index(d, cm_seg_base(seg));
	memmove(&d->segs[i + 1], &d->segs[i], (d->nsegs - i) * sizeof(*d->segs));
	d->segs[i] = seg;
	d->nsegs++;
	return true;
}

static void cm_segtab_remove(cm_device *d, cm_segment *seg)
{
	size_t i = cm_segtab_index(d, cm_seg_base(seg)) - 1;
	cm_assert(d->segs[i] == seg);
	memmove(&d->segs[i], &d->segs[i + 1], (d->nsegs - i - 1) * sizeof(*d->segs));
	d->nsegs--;
}

static cm_tnode **cm_idle_root(cm_device *d, cm_segment *seg)
{
	return seg->pool->small ? &d->idle_small : &d->idle_large;
}

static void cm_idle_insert(cm_device *d, cm_segment *seg)
{
	seg->is_idle = true;
	seg->idle_since = ++d->clock;
	cm_tree_insert(cm_idle_root(d, seg), &seg->idle);
	CM_LIST_APPEND(d->idle_oldest, d->idle_newest, seg, idle_older, idle_newer);
	CM_LEVEL(&d->stats, inactive_split_bytes, -(int64_t)seg->idle.size);
}

static void cm_idle_remove(cm_device *d, cm_segment *seg)
{
	cm_tree_remove(cm_idle_root(d, seg), &seg->idle);
	seg->is_idle = false;
	CM_LIST_REMOVE_ENDS(d->idle_oldest, d->idle_newest, seg, idle_older, idle_newer);
	CM_LEVEL(&d->stats, inactive_split_bytes, (int64_t)seg->idle.size);
}

/* ---- segments ---- */

static void cm_block_link_after(cm_block *b, cm_block *n)
{
	n->prev = b;
	n->next = b->next;
	if (b->next)
		b->next->prev = n;
	else
		b->seg->last = n;
	b->next = n;
}

static void cm_block_unlink(cm_block *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		b->seg->first = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		b->seg->last = b->prev;
}

static bool cm_block_has_free_neighbour(const cm_block *b)
{
	return (b->prev && b->prev->state == CM_BLOCK_FREE) ||
	       (b->next && b->next->state == CM_BLOCK_FREE);
}

/* Keeps free_nb of b and its neighbours true to the segment, for the
 * per-thread caches, which read it without the lock. */
static void cm_block_refresh_one(cm_block *b)
{
	if (b)
		atomic_store_explicit(&b->free_nb,
				      b->state == CM_BLOCK_USED && cm_block_has_free_neighbour(b),
				      memory_order_relaxed);
}

static void cm_block_refresh_around(cm_block *b)
{
	cm_block_refresh_one(b->prev);
	cm_block_refresh_one(b);
	cm_block_refresh_one(b->next);
}

/* Makes seg (extent seg->idle.addr, size bytes, obtained by the caller)
 * one FREE block in pool's index and the idle index, its work trivially
 * complete. */
cm_status cm_segment_adopt(cm_device *d, cm_pool *pool, cm_segment *seg, size_t size)
{
	cm_assert(seg->idle.addr != 0); /* 0 means no block (the fast path relies on it) */
	cm_block *b = cm_block_new(d);
	if (!b)
		return CM_ERR_OOM;
	seg->pool = pool;
	seg->first = seg->last = b;
	seg->idle.size = size;
	b->seg = seg;
	b->node.addr = seg->idle.addr;
	b->node.size = size;
	b->state = CM_BLOCK_FREE;
	if (!cm_segtab_insert(d, seg)) {
		cm_block_delete(d, b);
		return CM_ERR_OOM;
	}
	cm_pool_seg_join(pool, seg);
	cm_reserved_add(d, (int64_t)size);
	CM_LEVEL(&d->stats, segments, 1);
	CM_LEVEL(&d->stats, inactive_split_bytes, (int64_t)size);
	cm_pool_insert(d, pool, &b->node);
	cm_idle_insert(d, seg);
	if (!seg->expandable) /* an expandable segment's history is its maps (expandable.c) */
		cm_trace(d, CM_TRACE_SEGMENT_ALLOC, seg->idle.addr, size, cm_trace_stream(pool->stream));
	return CM_OK;
}

/* Obtains a segment from the backend (see cm_segment_adopt). */
cm_status cm_segment_create(cm_device *d, cm_pool *pool, size_t size, cm_block **out)
{
	const cm_backend *be = d->heap->be;
	cm_segment *seg = calloc(1, sizeof(*seg));
	if (!seg)
		return CM_ERR_OOM;
	d->stats.raw_alloc_calls++;
	cm_status st = be->mem_alloc(be->ctx, d->index, size, &seg->idle.addr);
	if (st == CM_OK && (st = cm_segment_adopt(d, pool, seg, size)) != CM_OK)
		be->mem_free(be->ctx, d->index, seg->idle.addr);
	if (st != CM_OK) {
		free(seg);
		return st;
	}
	*out = seg->first;
	return CM_OK;
}

cm_block *cm_segment_last(cm_segment *seg)
{
	return seg->last; /* not a walk: an expandable segment may hold every block */
}

/* An expandable segment got bytes more mapped at its end: they join its
 * last block if free and merge is set, else become a new free block (next
 * to a free last block only for the caller to take at once: that block
 * awaits its proof). Returns the block. */
cm_block *cm_segment_extend(cm_device *d, cm_segment *seg, size_t bytes, bool merge)
{
	cm_pool *pool = seg->pool;
	cm_block *last = cm_segment_last(seg);
	if (seg->is_idle)
		cm_idle_remove(d, seg);
	if (last->state == CM_BLOCK_FREE && merge) {
		cm_pool_remove(d, pool, &last->node);
		last->node.size += bytes;
	} else {
		cm_block *b = cm_block_new(d);
		if (!b)
			return NULL; /* nothing changed (a used last block: not idle) */
		b->seg = seg;
		b->node.addr = seg->idle.addr + seg->idle.size;
		b->node.size = bytes;
		b->state = CM_BLOCK_FREE;
		cm_block_link_after(last, b);
		last = b;
	}
	seg->idle.size += bytes;
	cm_reserved_add(d, (int64_t)bytes);
	CM_LEVEL(&d->stats, inactive_split_bytes, (int64_t)bytes);
	cm_pool_insert(d, pool, &last->node);
	cm_block_refresh_around(last);
	if (!last->prev)
		cm_idle_insert(d, seg);
	return last;
}

/* A hole left at the end of an expandable segment leaves its extent (it
 * is unmapped already); the segment may then be one free block. */
static void cm_segment_drop_tail_hole(cm_device *d, cm_segment *seg)
{
	cm_block *last = cm_segment_last(seg);
	if (last->state == CM_BLOCK_HOLE) {
		seg->idle.size -= last->node.size;
		seg->holes -= last->node.size;
		cm_block *prev = last->prev;
		cm_block_unlink(last);
		cm_block_delete(d, last);
		cm_block_refresh_one(prev);
	}
	if (seg->first->state == CM_BLOCK_FREE && !seg->first->next && !seg->is_idle)
		cm_idle_insert(d, seg);
}

/* A new hole inside a segment merges with a hole on either side, so that
 * no two holes are neighbours. */
static void cm_hole_merge(cm_device *d, cm_block *hole)
{
	if (hole->prev->state == CM_BLOCK_HOLE) {
		cm_block *p = hole->prev;
		p->node.size += hole->node.size;
		cm_block_unlink(hole);
		cm_block_delete(d, hole);
		hole = p;
	}
	if (hole->next->state == CM_BLOCK_HOLE) {
		cm_block *n = hole->next;
		hole->node.size += n->node.size;
		cm_block_unlink(n);
		cm_block_delete(d, n);
	}
	cm_block_refresh_one(hole->prev);
	cm_block_refresh_one(hole->next);
}

/* Free block b of an expandable segment loses [lo, hi) (chunk-aligned,
 * inside b, not its first byte when b is the segment's first block): the
 * caller unmaps those chunks. The stretch becomes a HOLE merged with
 * neighbouring holes, or leaves the extent when it ends the segment. The
 * rest of b stays free with b's tag. False (nothing changed) when no block
 * struct can be had. */
bool cm_segment_punch(cm_device *d, cm_block *b, uintptr_t lo, uintptr_t hi)
{
	cm_segment *seg = b->seg;
	cm_pool *pool = seg->pool;
	uintptr_t end = b->node.addr + b->node.size;
	bool at_end = hi == end && !b->next;
	cm_block *hole = NULL, *right = NULL;

	cm_assert(b->state == CM_BLOCK_FREE && seg->expandable && lo < hi &&
		  lo >= b->node.addr && hi <= end && (b->prev || lo > b->node.addr));
	if (!at_end && !(hole = cm_block_new(d)))
		return false;
	if (hi < end && !(right = cm_block_new(d))) {
		if (hole)
			cm_block_delete(d, hole);
		return false;
	}
	if (seg->is_idle)
		cm_idle_remove(d, seg);
	cm_pool_remove(d, pool, &b->node);
	cm_reserved_add(d, -(int64_t)(hi - lo));
	CM_LEVEL(&d->stats, inactive_split_bytes, -(int64_t)(hi - lo));
	if (right) {
		right->seg = seg;
		right->node.addr = hi;
		right->node.size = end - hi;
		right->state = CM_BLOCK_FREE;
		right->tag = b->tag;
		cm_block_link_after(b, right);
		cm_pool_insert(d, pool, &right->node);
	}
	if (hole) {
		hole->seg = seg;
		hole->node.addr = lo;
		hole->node.size = hi - lo;
		hole->state = CM_BLOCK_HOLE;
		cm_block_link_after(b, hole);
		seg->holes += hi - lo;
	}
	b->node.size = lo - b->node.addr;
	cm_block *before = b->prev;
	if (!b->node.size) {
		cm_block_unlink(b);
		cm_block_delete(d, b);
	} else {
		cm_pool_insert(d, pool, &b->node);
		before = b;
	}
	if (!hole) {
		seg->idle.size = lo - seg->idle.addr;
		cm_block_refresh_one(before);
		cm_segment_drop_tail_hole(d, seg);
		return true;
	}
	cm_hole_merge(d, hole);
	return true;
}

/* The last bytes of an expandable segment, inside its free last block,
 * are about to be unmapped (not all of the segment). */
void cm_segment_shrink(cm_device *d, cm_segment *seg, size_t bytes)
{
	cm_pool *pool = seg->pool;
	cm_block *last = cm_segment_last(seg);
	cm_assert(last->state == CM_BLOCK_FREE && last->node.size >= bytes && bytes < seg->idle.size);
	if (seg->is_idle)
		cm_idle_remove(d, seg);
	cm_pool_remove(d, pool, &last->node);
	if (last->node.size == bytes) {
		cm_block *prev = last->prev;
		cm_block_unlink(last);
		cm_block_delete(d, last);
		cm_block_refresh_one(prev);
	} else {
		last->node.size -= bytes;
		cm_pool_insert(d, pool, &last->node);
	}
	seg->idle.size -= bytes;
	cm_reserved_add(d, -(int64_t)bytes);
	CM_LEVEL(&d->stats, inactive_split_bytes, -(int64_t)bytes);
	cm_segment_drop_tail_hole(d, seg);
}

/* Forgets a wholly free segment, giving its memory back to the backend
 * unless give_back is false (after a device reset freed it already). An
 * expandable segment's mapping and range are expandable.c's to give back,
 * before this (cm_exp_destroy). */
void cm_segment_destroy(cm_device *d, cm_segment *seg, bool give_back)
{
	cm_block *b = seg->first;
	cm_assert(b->state == CM_BLOCK_FREE && !b->next && seg->is_idle);
	cm_pool_remove(d, seg->pool, &b->node);
	cm_idle_remove(d, seg);
	cm_segtab_remove(d, seg);
	cm_pool_seg_leave(seg);
	if (give_back && !seg->expandable) { /* an expandable one's history is its unmaps */
		cm_trace(d, CM_TRACE_SEGMENT_FREE, seg->idle.addr, seg->idle.size,
			 cm_trace_stream(seg->pool->stream));
		d->stats.raw_free_calls++;
		cm_giveback_free(d, seg->idle.addr, seg->idle.size);
	}
	free(seg->handles); /* expandable, not given back (or NULL) */
	free(seg->chunk_flags);
	cm_reserved_add(d, -(int64_t)seg->idle.size);
	CM_LEVEL(&d->stats, segments, -1);
	CM_LEVEL(&d->stats, inactive_split_bytes, -(int64_t)seg->idle.size);
	cm_block_delete(d, b);
	free(seg);
}

/* Hands a wholly free segment to another pool (a cross-stream steal). The
 * block keeps its tag: the caller still proves reuse safe. */
void cm_segment_move(cm_device *d, cm_segment *seg, cm_pool *to)
{
	cm_block *b = seg->first;
	cm_assert(seg->is_idle && seg->pool->small == to->small);
	cm_assert(!seg->expandable || !to->expandable);
	cm_pool_remove(d, seg->pool, &b->node);
	if (seg->expandable) {
		seg->pool->expandable = NULL;
		to->expandable = seg;
	}
	cm_pool_seg_leave(seg);
	cm_pool_seg_join(to, seg);
	cm_pool_insert(d, to, &b->node);
}

/* Every segment of pool from, with its free blocks, goes to pool to (a
 * dead stream's to cudaMalloc's, where any later reuse is proven through
 * the blocks' tags). Costs what from holds, not what the device holds. */
void cm_pool_hand_over(cm_device *d, cm_pool *from, cm_pool *to)
{
	cm_assert(from->small == to->small && !from->expandable);
	for (cm_tnode *n; (n = from->root);) {
		cm_pool_remove(d, from, n);
		cm_pool_insert(d, to, n);
	}
	while (from->seg_list) {
		cm_segment *seg = from->seg_list;
		d->visits.orphan++;
		cm_pool_seg_leave(seg);
		cm_pool_seg_join(to, seg);
	}
}

/* A stream's record ends (cm_stream_end): first its pools' segments go to
 * cudaMalloc's pools (the memory wing's part; the record must hold none
 * when it retires). destroyed: as cm_stream_end. */
void cm_pool_stream_end(cm_device *d, cm_stream_rec *r, bool destroyed)
{
	if (r->alive) {
		cm_pool_hand_over(d, &r->small, &d->none_small);
		cm_pool_hand_over(d, &r->large, &d->none_large);
	}
	cm_stream_end(d, r, destroyed);
}

/* The split rule of large blocks (docs/design.md, section 3): PyTorch's
 * max_split_size_mb and max_non_split_rounding_mb, tightened while the
 * process is near what it can have (d->large_exact, heap.c): no block
 * larger than a mid segment is split, and one serves only requests less
 * than CM_LARGE_ROUND smaller. A large request then gets a block of its
 * own size, and a freed one leaves a whole segment the ladder can give
 * back: the driver, which pages its memory, defragments what cudaMalloc
 * segments cannot. A whole mid segment still serves mid requests. */
#define CM_EXACT_SPLIT_MAX (CM_MID_SEGMENT + CM_MIN_BLOCK)

static bool cm_large_exact(const cm_device *d)
{
	return d->large_exact && !d->expandable;
}

/* From now on large blocks are exact; refit hints taken under the old
 * rule no longer hold. */
void cm_large_exact_begin(cm_device *d)
{
	if (d->large_exact)
		return;
	d->large_exact = true;
	cm_place_changed(d, &d->none_large);
}

/* Room came back (a neighbour left, or the program gave its cache back):
 * large blocks split again. */
void cm_large_exact_end(cm_device *d)
{
	if (!d->large_exact)
		return;
	d->large_exact = false;
	cm_place_changed(d, &d->none_large);
}

size_t cm_split_max(const cm_device *d)
{
	size_t max = d->heap->cfg.max_split_size;
	return cm_large_exact(d) && max > CM_EXACT_SPLIT_MAX ? CM_EXACT_SPLIT_MAX : max;
}

size_t cm_split_rounding(const cm_device *d)
{
	size_t r = d->heap->cfg.max_non_split_rounding;
	return cm_large_exact(d) && r > CM_LARGE_ROUND ? CM_LARGE_ROUND : r;
}

static bool cm_block_should_split(const cm_device *d, const cm_block *b, size_t size)
{
	size_t rest = b->node.size - size;
	if (b->seg->pool->small || b->seg->expandable)
		return rest >= CM_MIN_BLOCK;
	return size < cm_split_max(d) && rest > CM_LARGE_MIN_REMAINDER;
}

/* Takes FREE block b out of its pool for an allocation of size bytes,
 * splitting off the rest (which stays free, with b's tag) when worth it.
 * Returns NULL only if no block struct can be had for the split (b is then
 * used whole). */
cm_block *cm_block_take(cm_device *d, cm_block *b, size_t size)
{
	cm_segment *seg = b->seg;

	cm_assert(b->state == CM_BLOCK_FREE && b->node.size >= size);
	cm_pool_remove(d, seg->pool, &b->node);
	if (seg->is_idle)
		cm_idle_remove(d, seg);
	if (cm_block_should_split(d, b, size)) {
		cm_block *rest = cm_block_new(d);
		if (rest) {
			rest->seg = seg;
			rest->node.addr = b->node.addr + size;
			rest->node.size = b->node.size - size;
			rest->state = CM_BLOCK_FREE;
			rest->tag = b->tag;
			b->node.size = size;
			cm_block_link_after(b, rest);
			cm_pool_insert(d, seg->pool, &rest->node);
		}
	}
	b->state = CM_BLOCK_USED;
	cm_block_refresh_around(b);
	CM_LEVEL(&d->stats, inactive_split_bytes, -(int64_t)b->node.size);
	CM_LEVEL(&d->stats, allocated_bytes, (int64_t)b->node.size);
	CM_LEVEL(&d->stats, allocated_blocks, 1);
	return b;
}

/* Absorbs FREE neighbour n (just after b) into b. */
static void cm_block_absorb(cm_device *d, cm_block *b, cm_block *n)
{
	cm_block_completed(d, b);
	cm_block_completed(d, n);
	b->tag = cm_tag_join(d, b->tag, n->tag);
	b->node.size += n->node.size;
	cm_block_unlink(n);
	cm_block_delete(d, n);
}

/* Free block b, in no index, goes to the awaiting list, or merges with
 * its free neighbours that are not awaiting and goes to its pool's index.
 * A block awaiting its proof merges with nothing until the proof came: a
 * merged block would make the other memory wait for the later proof too
 * (a 4 KiB free would set its whole 2 MiB segment aside). */
static void cm_block_file(cm_device *d, cm_block *b, bool awaiting)
{
	cm_pool *pool = b->seg->pool;
	cm_block *p = b->prev, *n = b->next;
	if (!awaiting && p && p->state == CM_BLOCK_FREE && !p->awaiting) {
		cm_pool_remove(d, pool, &p->node);
		cm_block_absorb(d, p, b);
		b = p;
	}
	if (!awaiting && n && n->state == CM_BLOCK_FREE && !n->awaiting) {
		cm_pool_remove(d, pool, &n->node);
		cm_block_absorb(d, b, n);
	}
	if (awaiting)
		cm_awaiting_append(d, b);
	else
		cm_pool_insert(d, pool, &b->node);
	cm_block_refresh_around(b);
	if (!b->prev && !b->next && !b->seg->is_idle)
		cm_idle_insert(d, b->seg);
}

/* Freed on a stream other than its pool's, with that work not known
 * complete: PyTorch's record_stream case, pending until a proof. */
static bool cm_block_waits_other_stream(cm_device *d, const cm_block *b)
{
	return b->tag.stream && b->tag.stream != b->seg->pool->stream && !cm_tag_complete(d, &b->tag);
}

/* Returns USED block b (its tag set by the caller) to its pool, merging it
 * with free neighbours, or to the awaiting list when its next search
 * would set it aside anyway (fence.c, cm_free_awaits) and the pending
 * bound has room. */
void cm_block_put(cm_device *d, cm_block *b)
{
	cm_assert(b->state == CM_BLOCK_USED);
	CM_LEVEL(&d->stats, allocated_bytes, -(int64_t)b->node.size);
	CM_LEVEL(&d->stats, allocated_blocks, -1);
	CM_LEVEL(&d->stats, inactive_split_bytes, (int64_t)b->node.size);
	b->state = CM_BLOCK_FREE;
	bool awaiting = cm_free_awaits(d, b->seg->pool, &b->tag) &&
			d->stats.pending_bytes + b->node.size <= cm_pending_max(d);
	if (b->completion_due && !awaiting && !cm_block_waits_other_stream(d, b))
		cm_block_completed(d, b); /* traced, and reusable by its pool's consumer now */
	cm_block_file(d, b, awaiting);
	if (awaiting)
		cm_pending_added(d);
}

/* A hint for the per-thread caches, under the lock: the device's current
 * placement generation when, were USED block b freed now (merged with a
 * free next neighbour), a best-fit search for its size in its pool would
 * hand back exactly b's extent, so that parking it instead changes no
 * placement; 0 otherwise. Ignores readiness and max_split_size's fit
 * rule: a stale or wrong hint costs placement, never safety. */
uint64_t cm_block_refit_gen(cm_device *d, const cm_block *b)
{
	const cm_block *next = b->next;
	if (b->seg->expandable)
		return 0; /* measured: more mapped on the recorded traces with hints */
	if (b->prev && b->prev->state == CM_BLOCK_FREE)
		return 0; /* the merged block would start lower */
	size_t merged = b->node.size;
	if (next && next->state == CM_BLOCK_FREE) {
		merged += next->node.size;
		cm_block m = {.node = {.size = merged, .addr = b->node.addr}, .seg = b->seg};
		if (!cm_block_should_split(d, &m, b->node.size))
			return 0; /* served whole, not as b */
	}
	cm_tnode *root = b->seg->pool->root;
	cm_tnode *t = cm_tree_lower_bound(root, b->node.size, 0);
	if (t && next && t == &next->node)
		t = cm_tree_next(root, t);
	if (t && (t->size < merged || (t->size == merged && t->addr < b->node.addr)))
		return 0; /* another free block fits better */
	return atomic_load_explicit(&d->large_place_gen, memory_order_relaxed);
}

/* USED block b (owner word already 0) leaves the live map and goes back
 * to its pool with tag. */
void cm_free_block_locked(cm_device *d, cm_block *b, cm_tag tag)
{
	cm_livemap_remove(&d->live, b->node.addr);
	b->tag = tag;
	cm_block_put(d, b);
}

_Static_assert(sizeof(cm_block) == 128, "a block struct is two cache lines");
