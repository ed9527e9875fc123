/* core/mem/expandable.c - expandable segments on the VMM calls (docs/design.md,
 * "Expandable segments and stitching").
 *
 * With expandable_segments each pool has at most one expandable segment
 * (heap.c gives all streams the same two pools, small and large): a
 * virtual range as large as the device, of which only a prefix is mapped. The mapped prefix
 * is tiled by blocks like any segment (seg->idle.size is the mapped size).
 * It grows by mapping 2 MiB chunks at its end, the new memory merging into
 * a free block at the end: chunks kept for stitching first (stitch.c),
 * new physical memory only for the rest. It shrinks by unmapping whole
 * free chunks at its end, after a synchronization when the blocks there
 * may still be in use, since unmapping, unlike cudaFree, does not wait for
 * the device. Stitching leaves unmapped HOLE blocks inside the extent, so
 * the range is twice the device: when its end is reached anyway, the pool
 * gets a new range and the old one serves what it holds until it is free.
 *
 * Invariants: the extent (seg->idle.size) is a multiple of chunk; chunk i
 * is mapped (chunk_flags[i] & CM_CHUNK_MAPPED, handles[i] its physical
 * memory) exactly when it lies in the extent and in no HOLE block; the
 * extent less seg->holes is what the segment adds to reserved_bytes.
 * Wing: mem. Calls in its own wing giveback.c, segment.c, stitch.c; the order and record wings.
 */
#include <stdlib.h>

#include "mem.h"

/* 2 MiB, the VMM granularity, for both kinds: 20 MiB chunks for large
 * pools (PyTorch's) left more of the tail mapped and unused. */
static size_t cm_exp_chunk(const cm_pool *pool)
{
	(void)pool;
	return CM_SMALL_SEGMENT;
}

bool cm_exp_supported(const cm_device *d)
{
	const cm_backend *be = d->heap->be;
	return be->vmm_reserve && be->vmm_release && be->vmm_create && be->vmm_destroy &&
	       be->vmm_map && be->vmm_unmap && be->vmm_set_access;
}

/* Maps chunk i of seg (access is set by the caller), with a kept chunk
 * if there is one (stitching), else new physical memory; on failure
 * nothing stays mapped and a kept chunk stays kept. */
static cm_status cm_exp_map_chunk(cm_device *d, cm_segment *seg, size_t i)
{
	const cm_backend *be = d->heap->be;
	uintptr_t va = seg->idle.addr + i * seg->chunk;
	cm_mem_handle h;
	if (!cm_giveback_unmapped(d, va, seg->chunk))
		return CM_ERR_BACKEND; /* still mapped there (giveback.c) */
	bool stitched = cm_stitch_take(d, seg->chunk, &h);
	cm_status st = stitched ? CM_OK : be->vmm_create(be->ctx, d->index, seg->chunk, &h);
	if (st != CM_OK)
		return st;
	if ((st = be->vmm_map(be->ctx, d->index, va, seg->chunk, h)) != CM_OK) {
		if (stitched)
			cm_stitch_keep(d, seg->chunk, h);
		else
			be->vmm_destroy(be->ctx, d->index, h);
		return st;
	}
	seg->handles[i] = h;
	seg->chunk_flags[i] = CM_CHUNK_MAPPED | (stitched ? CM_CHUNK_STITCHED : 0);
	d->stats.vmm_maps++;
	cm_trace(d, CM_TRACE_SEGMENT_MAP, va, seg->chunk, seg->pool ? cm_trace_stream(seg->pool->stream) : 0);
	if (stitched)
		d->stats.stitched_bytes += seg->chunk;
	return CM_OK;
}

/* Unmaps chunk i of seg (its work complete): its physical memory is kept
 * for stitching, or given back. */
static void cm_exp_unmap_chunk(cm_device *d, cm_segment *seg, size_t i, bool keep)
{
	cm_assert(seg->chunk_flags[i] & CM_CHUNK_MAPPED);
	bool unmapped = cm_giveback_unmap(d, seg->idle.addr + i * seg->chunk, seg->chunk,
					  seg->handles[i]);
	seg->chunk_flags[i] = 0;
	d->stats.vmm_unmaps++;
	cm_trace(d, CM_TRACE_SEGMENT_UNMAP, seg->idle.addr + i * seg->chunk, seg->chunk,
		 seg->pool ? cm_trace_stream(seg->pool->stream) : 0);
	if (!unmapped)
		return; /* kept mapped, given back later (giveback.c) */
	if (keep)
		cm_stitch_keep(d, seg->chunk, seg->handles[i]);
	else
		cm_giveback_handle(d, seg->handles[i], seg->chunk);
}

/* Undoes cm_exp_map_chunk for a growth that failed: a kept chunk goes back
 * to the kept list, new memory back to the device, so that a failed request
 * leaves reserved memory as it found it. */
static void cm_exp_unmap_back(cm_device *d, cm_segment *seg, size_t i)
{
	cm_exp_unmap_chunk(d, seg, i, seg->chunk_flags[i] & CM_CHUNK_STITCHED);
}

/* Stitching: the complete chunks stitch.c chose in free blocks are cut
 * out (a HOLE each stretch) and unmapped, their physical memory kept for
 * the growth that follows. Each cut is a different free block, and a
 * punch touches only its own block and holes, so the others stay valid. */
static void cm_exp_gather(cm_device *d, cm_segment *growing, size_t want)
{
	size_t ncuts;
	cm_stitch_cut *cuts = cm_stitch_choose(d, growing, want, &ncuts);
	for (size_t i = 0; i < ncuts; i++) {
		cm_segment *seg = cuts[i].b->seg;
		if (!cm_segment_punch(d, cuts[i].b, cuts[i].lo, cuts[i].hi))
			continue;
		for (uintptr_t a = cuts[i].lo; a < cuts[i].hi; a += seg->chunk) {
			cm_exp_unmap_chunk(d, seg, (a - seg->idle.addr) / seg->chunk, true);
			d->stats.stitch_unmaps++;
		}
	}
	free(cuts);
}

/* Maps n more chunks at the end; on failure false, the extent unchanged,
 * the kept chunks mapped meanwhile kept again and the new ones given back. */
static bool cm_exp_map_tail(cm_device *d, cm_segment *seg, size_t n)
{
	const cm_backend *be = d->heap->be;
	size_t first = seg->idle.size / seg->chunk, k = 0;
	while (k < n && first + k < seg->va_size / seg->chunk &&
	       cm_exp_map_chunk(d, seg, first + k) == CM_OK)
		k++;
	/* One access call for the whole stretch, as PyTorch does. */
	if (k == n && be->vmm_set_access(be->ctx, d->index, seg->idle.addr + first * seg->chunk,
					 n * seg->chunk) == CM_OK)
		return true;
	while (k--)
		cm_exp_unmap_back(d, seg, first + k);
	return false;
}

/* A new expandable segment for pool with n chunks mapped, as one FREE
 * block indexed in the pool. */
static cm_segment *cm_exp_create(cm_device *d, cm_pool *pool, size_t n)
{
	const cm_backend *be = d->heap->be;
	size_t chunk = cm_exp_chunk(pool), free_bytes = 0, total = 0;
	if (be->mem_get_info(be->ctx, d->index, &free_bytes, &total) != CM_OK || !total)
		return NULL;
	size_t va_size = 2 * ((total + chunk - 1) / chunk * chunk); /* room for holes */
	cm_segment *seg = calloc(1, sizeof(*seg));
	if (!seg || !(seg->handles = calloc(va_size / chunk, sizeof(*seg->handles))) ||
	    !(seg->chunk_flags = calloc(va_size / chunk, 1))) {
		if (seg)
			free(seg->handles);
		free(seg);
		return NULL;
	}
	seg->expandable = true;
	seg->chunk = chunk;
	seg->va_size = va_size;
	if (be->vmm_reserve(be->ctx, d->index, va_size, &seg->idle.addr) != CM_OK)
		goto fail;
	if (!cm_exp_map_tail(d, seg, n)) {
		be->vmm_release(be->ctx, d->index, seg->idle.addr, va_size);
		goto fail;
	}
	if (cm_segment_adopt(d, pool, seg, n * chunk) != CM_OK) {
		while (n--)
			cm_exp_unmap_back(d, seg, n);
		be->vmm_release(be->ctx, d->index, seg->idle.addr, va_size);
		goto fail;
	}
	pool->expandable = seg;
	return seg;
fail:
	free(seg->handles);
	free(seg->chunk_flags);
	free(seg);
	return NULL;
}

/* The free chunks at the end of seg go back (all of it, and the segment,
 * if it is wholly free). Without may_wait, only if their work is already
 * known complete. Returns the bytes unmapped. */
static size_t cm_exp_trim_tail(cm_device *d, cm_segment *seg, bool may_wait)
{
	size_t freed = 0;
	for (;;) { /* again when a hole before the cut left with it */
		cm_block *last = cm_segment_last(seg);
		if (last->state != CM_BLOCK_FREE)
			return freed;
		size_t keep = (last->node.addr - seg->idle.addr + seg->chunk - 1) / seg->chunk *
			      seg->chunk;
		size_t cut = seg->idle.size - keep, end = seg->idle.size;
		if (!cut)
			return freed;
		/* Unmapping does not wait for the device, so the work on these
		 * blocks must be known complete first. */
		if (!cm_tag_poll_complete(d, &last->tag) &&
		    (!may_wait || cm_device_sync_locked(d) != CM_OK))
			return freed;
		if (!keep) {
			cm_exp_release(d, seg);
			cm_segment_destroy(d, seg, true);
			return freed + cut;
		}
		cm_segment_shrink(d, seg, cut); /* and a hole before the cut */
		for (size_t i = seg->idle.size / seg->chunk; i < end / seg->chunk; i++)
			if (seg->chunk_flags[i] & CM_CHUNK_MAPPED)
				cm_exp_unmap_chunk(d, seg, i, false);
		d->stats.released_bytes += cut;
		freed += cut;
		if (seg->idle.size == keep)
			return freed;
	}
}

/* Unmaps the whole free chunks at the end of seg (all of it if it is
 * wholly free: the segment then goes). Returns the bytes unmapped. */
static size_t cm_exp_trim(cm_device *d, cm_segment *seg)
{
	return cm_exp_trim_tail(d, seg, true);
}

/* How n chunks can be had: from new memory alone, only with stitching
 * (the kept chunks and the whole complete chunks it could move), or not
 * at all. Asked before anything is cut or mapped, so that a growth bound
 * to fail takes nothing (the walk over the free blocks only when new
 * memory alone is short). */
typedef enum { CM_EXP_NONE, CM_EXP_STITCHED, CM_EXP_NEW } cm_exp_source;

static cm_exp_source cm_exp_source_of(cm_device *d, size_t chunk, size_t n)
{
	const cm_backend *be = d->heap->be;
	size_t free_bytes = 0, total = 0;
	if (be->mem_get_info(be->ctx, d->index, &free_bytes, &total) != CM_OK)
		return CM_EXP_NEW; /* unknown: let the driver say */
	if (n <= free_bytes / chunk)
		return CM_EXP_NEW;
	cm_stitch_view v;
	cm_stitch_view_of(d, &v);
	/* pending: a poll may find it complete (stitch.c asks each block) */
	return n - free_bytes / chunk <= (v.complete + v.pending + v.free_chunks) / chunk
		       ? CM_EXP_STITCHED
		       : CM_EXP_NONE;
}

/* Step 3 with expandable segments: a FREE block of at least size bytes at
 * the end of pool's expandable segment, grown as needed, with stitched
 * chunks first (a new range when the end of the old one is reached). NULL,
 * with nothing created, mapped or cut, when the chunks cannot be had; on a
 * failure later, what was created for it is given back (kept chunks stay
 * kept: the caller releases them before it reports). */
cm_block *cm_exp_grow(cm_device *d, cm_pool *pool, size_t size, bool use_last)
{
	cm_segment *seg = pool->expandable;
	size_t chunk = cm_exp_chunk(pool), n = (size + chunk - 1) / chunk;
	uint64_t stitched = d->stats.stitched_bytes;
	cm_block *b = NULL;
	if (seg) {
		cm_block *last = cm_segment_last(seg);
		size_t have = use_last && last->state == CM_BLOCK_FREE ? last->node.size : 0;
		n = (size - (have < size ? have : size) + chunk - 1) / chunk;
		if (!n) /* the free tail fits: proven safe since the search passed it */
			return use_last ? last : NULL;
		if (n > (seg->va_size - seg->idle.size) / chunk) {
			seg = NULL; /* the range is used up: a new one */
			n = (size + chunk - 1) / chunk;
		}
	}
	cm_exp_source src = cm_exp_source_of(d, chunk, n);
	if (src == CM_EXP_NONE)
		return NULL;
	/* Stitching trades host time for memory: within its budget, where
	 * memory is tight (heap.c: past three quarters of what the process can
	 * have), or where new memory alone cannot serve (stitch.c). */
	if (src == CM_EXP_STITCHED || d->large_exact || cm_stitch_within_budget(d))
		cm_exp_gather(d, seg, n);
	else
		d->stats.stitch_budget_growths++;
	if (!seg) {
		b = cm_exp_create(d, pool, n) ? pool->expandable->first : NULL;
	} else if (cm_exp_map_tail(d, seg, n)) {
		b = cm_segment_extend(d, seg, n * chunk, use_last);
		if (!b) /* no block struct for the new memory: give it back */
			for (size_t i = seg->idle.size / chunk; i < seg->idle.size / chunk + n; i++)
				cm_exp_unmap_back(d, seg, i);
	}
	if (b && d->stats.stitched_bytes != stitched)
		d->stats.stitches++;
	return b;
}

/* Gives back the mapped memory and the range of a segment being
 * destroyed (all its blocks free). */
void cm_exp_release(cm_device *d, cm_segment *seg)
{
	for (cm_block *b = seg->first; b; b = b->next) /* a history's frees before its unmaps */
		if (b->state == CM_BLOCK_FREE)
			cm_block_completed(d, b);
	for (size_t i = 0; i < seg->idle.size / seg->chunk; i++)
		if (seg->chunk_flags[i] & CM_CHUNK_MAPPED)
			cm_exp_unmap_chunk(d, seg, i, false);
	cm_giveback_range(d, seg->idle.addr, seg->va_size);
	if (seg->pool->expandable == seg)
		seg->pool->expandable = NULL;
	free(seg->handles);
	free(seg->chunk_flags);
	seg->handles = NULL;
	seg->chunk_flags = NULL;
}

/* Gives back a wholly free expandable segment (release.c's policies):
 * unmapping, unlike cudaFree, does not wait for the device, so only once
 * its work is known complete, synchronizing if need be. False: it stays. */
bool cm_exp_destroy(cm_device *d, cm_segment *seg)
{
	if (!cm_tag_poll_complete(d, &seg->first->tag) && cm_device_sync_locked(d) != CM_OK)
		return false;
	cm_exp_release(d, seg);
	cm_segment_destroy(d, seg, true);
	return true;
}

/* Every expandable segment's free tail, for the ladder and the release
 * policies. */
size_t cm_exp_trim_all(cm_device *d)
{
	size_t freed = 0;
	for (size_t i = d->nsegs; i-- > 0;)
		if (i < d->nsegs && d->segs[i]->expandable)
			freed += cm_exp_trim(d, d->segs[i]);
	return freed;
}
