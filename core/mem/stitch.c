/* core/mem/stitch.c - stitching: free physical chunks moved to where a larger
 * request needs them (GMLake, ASPLOS 2024, in its simplest form).
 *
 * With expandable segments a free block in the middle of a range stays
 * mapped, and a request larger than every free block grows the range at
 * its end with new physical memory even when the free blocks hold enough
 * whole 2 MiB chunks. The design, the simplest that serves the traces:
 *
 * 1. Only when a range must grow (cm_exp_grow: no cached block fits), the
 *    chunks it needs are gathered first from whole chunks inside free
 *    blocks of every expandable range (middle blocks, and the free tail of
 *    other ranges), smallest blocks first; while memory has room, within
 *    a budget of moved bytes (cm_stitch_within_budget).
 * 2. A chunk is taken only when its block's tag is complete
 *    (cm_tag_poll_complete): unmapping does not wait for the device, so
 *    nothing is remapped while a stream may still use it. The fence
 *    protocol thus covers every chunk as it covers blocks; a chunk that
 *    was complete when unmapped is complete wherever it is mapped next.
 * 3. Taken chunks are unmapped (by expandable.c, which owns the mapping),
 *    their stretch becoming a HOLE block (segment.c), and their handles
 *    wait in the device's free-chunk list;
 *    the range then maps them at its end instead of creating memory.
 *    Holes are never mapped again: the range is twice the device, and a
 *    new range follows when its end is reached (expandable.c).
 * 4. The free-chunk list is reserved memory; the release policies (trim,
 *    garbage collection, release all, the ladder's last step) give it
 *    back. The out-of-memory ladder stitches after its synchronization,
 *    when every chunk is complete, before it releases anything.
 *
 * Invariants (cm_heap_check): every kept handle is unmapped, complete and
 * free_chunk_size bytes; stats.stitch_free_bytes is their total, and is
 * part of reserved_bytes. All functions run under the device lock.
 * Wing: mem. Calls in its own wing giveback.c; the order and record wings.
 */
#include <stdlib.h>

#include "mem.h"

/* Keeps an unmapped, complete chunk of physical memory for stitching;
 * gives it back when the list cannot grow. */
void cm_stitch_keep(cm_device *d, size_t chunk, cm_mem_handle h)
{
	const cm_backend *be = d->heap->be;
	cm_assert(!d->free_chunk_size || d->free_chunk_size == chunk);
	if (d->nfree_chunks == d->free_chunks_cap) {
		size_t cap = d->free_chunks_cap ? 2 * d->free_chunks_cap : 64;
		cm_mem_handle *list = realloc(d->free_chunks, cap * sizeof(*list));
		if (!list) {
			be->vmm_destroy(be->ctx, d->index, h);
			return;
		}
		d->free_chunks = list;
		d->free_chunks_cap = cap;
	}
	d->free_chunk_size = chunk;
	d->free_chunks[d->nfree_chunks++] = h;
	cm_reserved_add(d, (int64_t)chunk);
	CM_LEVEL(&d->stats, stitch_free_bytes, (int64_t)chunk);
}

/* A kept chunk to map (it leaves reserved_bytes until mapped). */
bool cm_stitch_take(cm_device *d, size_t chunk, cm_mem_handle *out)
{
	if (!d->nfree_chunks || d->free_chunk_size != chunk)
		return false;
	*out = d->free_chunks[--d->nfree_chunks];
	cm_reserved_add(d, -(int64_t)chunk);
	CM_LEVEL(&d->stats, stitch_free_bytes, -(int64_t)chunk);
	return true;
}

/* Gives every kept chunk back to the device. Returns the bytes. */
size_t cm_stitch_release(cm_device *d)
{
	size_t bytes = d->nfree_chunks * d->free_chunk_size;
	cm_giveback_retry(d);
	while (d->nfree_chunks)
		cm_giveback_handle(d, d->free_chunks[--d->nfree_chunks], d->free_chunk_size);
	cm_reserved_add(d, -(int64_t)bytes);
	CM_LEVEL(&d->stats, stitch_free_bytes, -(int64_t)bytes);
	d->stats.released_bytes += bytes;
	return bytes;
}

/* Whether stitching may still move chunks while memory has room. Each
 * moved chunk costs an unmap, a map and its access (48 us for 2 MiB on an
 * H100: docs/gpu-results.md), and a program whose pattern repeats would
 * pay it at every step: chunks moved where one step needs them are cut
 * out of the next step's free blocks, so that step grows again while the
 * footprint stays flat. So since the peak reserved last rose, stitching
 * moves at most the peak reserved bytes; then a growth takes new memory,
 * as without stitching, and the pattern settles. A tight device
 * (d->large_exact) or a growth new memory cannot serve stitches whatever
 * the budget. */
bool cm_stitch_within_budget(cm_device *d)
{
	const cm_stats *st = &d->stats;
	if (st->peak_reserved_bytes != d->stitch_budget_peak) {
		d->stitch_budget_peak = st->peak_reserved_bytes;
		d->stitch_budget_from = st->stitched_bytes;
	}
	return st->stitched_bytes - d->stitch_budget_from <= st->peak_reserved_bytes;
}

/* The whole chunks [*lo, *hi) of free block b that may be stitched (not
 * the first chunk of a segment: a range never starts with a hole).
 * False when there are none. */
static bool cm_stitch_span(const cm_block *b, uintptr_t *lo, uintptr_t *hi)
{
	size_t chunk = b->seg->chunk;
	uintptr_t base = b->seg->idle.addr;
	uintptr_t first = base + (b->node.addr - base + chunk - 1) / chunk * chunk;
	if (!b->prev && first == b->node.addr)
		first += chunk;
	*lo = first;
	*hi = base + (b->node.addr + b->node.size - base) / chunk * chunk;
	return *hi > *lo;
}

/* Collects up to want chunks from the free blocks of pool (not the end of
 * growing, which the new chunks join). */
static size_t cm_stitch_collect(cm_device *d, cm_pool *pool, const cm_segment *growing,
				size_t want, cm_stitch_cut *cuts, size_t *ncuts)
{
	size_t got = 0;
	cm_tnode *n = cm_tree_lower_bound(pool->root, CM_SMALL_SEGMENT, 0);
	for (; n && got < want; n = cm_tree_next(pool->root, n)) {
		cm_block *b = cm_block_of(n);
		uintptr_t lo, hi;
		if (!b->seg->expandable || (b->seg == growing && !b->next) || !cm_stitch_span(b, &lo, &hi))
			continue;
		if (!cm_tag_poll_complete(d, &b->tag))
			continue; /* a stream may still use it: never remapped */
		size_t k = (hi - lo) / b->seg->chunk;
		if (k > want - got)
			k = want - got;
		cuts[(*ncuts)++] = (cm_stitch_cut){b, hi - k * b->seg->chunk, hi};
		got += k;
	}
	return got;
}

/* Chooses the whole, complete chunks of free blocks that would make at
 * least want chunks wait in the free-chunk list (else as many as there
 * are), for growing (NULL: a new range): at most one cut per free block.
 * expandable.c punches and unmaps them. Returns the cuts (the caller
 * frees them), NULL when none are needed or can be had. */
cm_stitch_cut *cm_stitch_choose(cm_device *d, cm_segment *growing, size_t want, size_t *ncuts)
{
	*ncuts = 0;
	if (d->nfree_chunks >= want || (d->free_chunk_size && d->free_chunk_size != CM_SMALL_SEGMENT))
		return NULL;
	want -= d->nfree_chunks;
	size_t cap = cm_tree_count(d->none_small.root) + cm_tree_count(d->none_large.root);
	cm_stitch_cut *cuts = cap ? malloc(cap * sizeof(*cuts)) : NULL;
	if (!cuts)
		return NULL;
	size_t got = cm_stitch_collect(d, &d->none_large, growing, want, cuts, ncuts);
	if (got < want)
		cm_stitch_collect(d, &d->none_small, growing, want - got, cuts, ncuts);
	return cuts;
}

/* What stitching could use now, for the out-of-memory report. */
void cm_stitch_view_of(cm_device *d, cm_stitch_view *v)
{
	*v = (cm_stitch_view){.free_chunks = d->nfree_chunks * d->free_chunk_size};
	for (size_t i = 0; i < d->nsegs; i++) {
		cm_segment *seg = d->segs[i];
		if (!seg->expandable)
			continue;
		for (cm_block *b = seg->first; b; b = b->next) {
			uintptr_t lo, hi;
			if (b->state != CM_BLOCK_FREE)
				continue;
			size_t whole = cm_stitch_span(b, &lo, &hi) ? hi - lo : 0;
			v->fragments += b->node.size - whole;
			if (cm_tag_complete(d, &b->tag))
				v->complete += whole;
			else
				v->pending += whole;
		}
	}
}
