/* core/expandable.c - expandable segments on the VMM calls (DESIGN 7).
 *
 * With expandable_segments each pool has at most one expandable segment
 * (heap.c gives all streams the same two pools, small and large): a
 * virtual range as large as the device, of which only a prefix is mapped. The mapped prefix
 * is tiled by blocks like any segment (seg->idle.size is the mapped size).
 * It grows by mapping 2 MiB chunks at its end, the new memory merging into
 * a free block at the end; it shrinks by unmapping whole free chunks at its end, after a
 * synchronization when the blocks there may still be in use, since
 * unmapping, unlike cudaFree, does not wait for the device.
 *
 * Invariants: handles[i] is the physical memory mapped at chunk i, for
 * every i below mapped / chunk; mapped is a multiple of chunk.
 */
#include <stdlib.h>

#include "internal.h"

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
	       be->vmm_map && be->vmm_unmap && be->vmm_set_access && be->vmm_granularity;
}

/* Maps chunk i of seg; on failure nothing stays mapped. */
static cm_status cm_exp_map_chunk(cm_device *d, cm_segment *seg, size_t i)
{
	const cm_backend *be = d->heap->be;
	uintptr_t va = seg->idle.addr + i * seg->chunk;
	cm_mem_handle h;
	cm_status st = be->vmm_create(be->ctx, d->index, seg->chunk, &h);
	if (st != CM_OK)
		return st;
	if ((st = be->vmm_map(be->ctx, d->index, va, seg->chunk, h)) != CM_OK) {
		be->vmm_destroy(be->ctx, d->index, h);
		return st;
	}
	if ((st = be->vmm_set_access(be->ctx, d->index, va, seg->chunk)) != CM_OK) {
		be->vmm_unmap(be->ctx, d->index, va, seg->chunk);
		be->vmm_destroy(be->ctx, d->index, h);
		return st;
	}
	seg->handles[i] = h;
	d->stats.vmm_maps++;
	return CM_OK;
}

static void cm_exp_unmap_chunk(cm_device *d, cm_segment *seg, size_t i)
{
	const cm_backend *be = d->heap->be;
	be->vmm_unmap(be->ctx, d->index, seg->idle.addr + i * seg->chunk, seg->chunk);
	be->vmm_destroy(be->ctx, d->index, seg->handles[i]);
	d->stats.vmm_unmaps++;
}

/* Maps n more chunks at the end; false (nothing changed) on failure. */
static bool cm_exp_map_tail(cm_device *d, cm_segment *seg, size_t n)
{
	size_t first = seg->idle.size / seg->chunk;
	for (size_t k = 0; k < n; k++) {
		if (first + k >= seg->va_size / seg->chunk ||
		    cm_exp_map_chunk(d, seg, first + k) != CM_OK) {
			while (k--)
				cm_exp_unmap_chunk(d, seg, first + k);
			return false;
		}
	}
	return true;
}

/* A new expandable segment for pool with n chunks mapped, as one FREE
 * block indexed in the pool. */
static cm_segment *cm_exp_create(cm_device *d, cm_pool *pool, size_t n)
{
	const cm_backend *be = d->heap->be;
	size_t chunk = cm_exp_chunk(pool), free_bytes = 0, total = 0;
	if (be->mem_get_info(be->ctx, d->index, &free_bytes, &total) != CM_OK || !total)
		return NULL;
	size_t va_size = (total + chunk - 1) / chunk * chunk;
	cm_segment *seg = calloc(1, sizeof(*seg));
	if (!seg || !(seg->handles = calloc(va_size / chunk, sizeof(*seg->handles)))) {
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
			cm_exp_unmap_chunk(d, seg, n);
		be->vmm_release(be->ctx, d->index, seg->idle.addr, va_size);
		goto fail;
	}
	pool->expandable = seg;
	return seg;
fail:
	free(seg->handles);
	free(seg);
	return NULL;
}

/* The free chunks at the end of seg go back (all of it, and the segment,
 * if it is wholly free). Without may_wait, only if their work is already
 * known complete. Returns the bytes unmapped. */
static size_t cm_exp_trim_tail(cm_device *d, cm_segment *seg, bool may_wait)
{
	cm_block *last = seg->first;
	while (last->next)
		last = last->next;
	if (last->state != CM_BLOCK_FREE)
		return 0;
	size_t keep = (last->node.addr - seg->idle.addr + seg->chunk - 1) / seg->chunk * seg->chunk;
	size_t cut = seg->idle.size - keep;
	if (!cut)
		return 0;
	/* Unmapping does not wait for the device, so the work on these
	 * blocks must be known complete first. */
	if (!cm_tag_poll_complete(d, &last->tag) &&
	    (!may_wait || cm_device_sync_locked(d) != CM_OK))
		return 0;
	if (!keep) {
		cm_segment_destroy(d, seg, true);
		return cut;
	}
	cm_segment_shrink(d, seg, cut);
	for (size_t i = keep / seg->chunk; i < (keep + cut) / seg->chunk; i++)
		cm_exp_unmap_chunk(d, seg, i);
	d->stats.released_bytes += cut;
	return cut;
}

/* Unmaps the whole free chunks at the end of seg (all of it if it is
 * wholly free: the segment then goes). Returns the bytes unmapped. */
size_t cm_exp_trim(cm_device *d, cm_segment *seg)
{
	return cm_exp_trim_tail(d, seg, true);
}

/* Step 3 with expandable segments: a FREE block of at least size bytes at
 * the end of pool's expandable segment, grown as needed. */
cm_block *cm_exp_grow(cm_device *d, cm_pool *pool, size_t size)
{
	cm_segment *seg = pool->expandable;
	size_t chunk = cm_exp_chunk(pool);
	if (!seg)
		return cm_exp_create(d, pool, (size + chunk - 1) / chunk) ? pool->expandable->first : NULL;
	cm_block *last = seg->first;
	while (last->next)
		last = last->next;
	size_t have = last->state == CM_BLOCK_FREE ? last->node.size : 0;
	size_t n = (size - (have < size ? have : size) + chunk - 1) / chunk;
	if (!n || !cm_exp_map_tail(d, seg, n))
		return NULL;
	cm_block *b = cm_segment_extend(d, seg, n * chunk);
	if (!b) /* no block struct for the new memory: give it back */
		for (size_t i = seg->idle.size / chunk; i < seg->idle.size / chunk + n; i++)
			cm_exp_unmap_chunk(d, seg, i);
	return b;
}

/* Gives back the mapped memory and the range of a segment being
 * destroyed (all its blocks free). */
void cm_exp_release(cm_device *d, cm_segment *seg)
{
	const cm_backend *be = d->heap->be;
	for (size_t i = 0; i < seg->idle.size / seg->chunk; i++)
		cm_exp_unmap_chunk(d, seg, i);
	be->vmm_release(be->ctx, d->index, seg->idle.addr, seg->va_size);
	if (seg->pool->expandable == seg)
		seg->pool->expandable = NULL;
	free(seg->handles);
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
