/* core/mem/release.c - giving cached memory back to the device (docs/design.md,
 * "Out of memory and release").
 *
 * Owns the per-process limit (per_process_memory_fraction, and the cap
 * memory_limit_mb, which is also the total cudaMemGetInfo reports:
 * cm_mem_info_view), garbage
 * collection (garbage_collection_threshold: the idle segments unused the
 * longest go first), trimming at synchronization (release_threshold_mb,
 * per device: the default memory pool's release threshold may change it),
 * the trims cudaMemPoolTrimTo asks for (pool_view.c) and the releases the
 * out-of-memory ladder asks for.
 *
 * Only wholly free (idle) segments, free tails of expandable ranges and the
 * chunks kept for stitching (stitch.c) are released. The backend's mem_free
 * waits for the device, as cudaFree does, so no stream can still be using
 * what is given back; an expandable segment's memory is unmapped only once
 * its work is known complete. All functions run under the device lock.
 * Wing: mem. Calls in its own wing expandable.c, segment.c, stitch.c; the record wing.
 */
#include <stdlib.h>

#include "mem.h"

static void cm_release_collect(cm_tnode *t, cm_segment **out, size_t *n)
{
	if (!t)
		return;
	cm_release_collect(t->left, out, n);
	out[(*n)++] = cm_segment_of_idle(t);
	cm_release_collect(t->right, out, n);
}

enum { CM_RELEASE_SMALL = 1, CM_RELEASE_LARGE = 2, CM_RELEASE_ANY = 3 };

/* The idle segments of the given kinds, or NULL when there are none or no
 * memory. */
static cm_segment **cm_release_idle_list(cm_device *d, int kinds, size_t *n)
{
	cm_tnode *small = kinds & CM_RELEASE_SMALL ? d->idle_small : NULL;
	cm_tnode *large = kinds & CM_RELEASE_LARGE ? d->idle_large : NULL;
	*n = 0;
	size_t count = cm_tree_count(small) + cm_tree_count(large);
	cm_segment **list = count ? malloc(count * sizeof(*list)) : NULL;
	if (!list)
		return NULL;
	cm_release_collect(small, list, n);
	cm_release_collect(large, list, n);
	return list;
}

static size_t cm_release_one(cm_device *d, cm_segment *seg)
{
	size_t size = seg->idle.size;
	if (seg->expandable) {
		if (!cm_exp_destroy(d, seg))
			return 0;
	} else {
		cm_segment_destroy(d, seg, true);
	}
	d->stats.released_bytes += size;
	return size;
}

static int cm_release_by_size_desc(const void *a, const void *b)
{
	size_t x = (*(cm_segment *const *)a)->idle.size, y = (*(cm_segment *const *)b)->idle.size;
	return (x < y) - (x > y);
}

/* Releases idle segments in the given order until at least want bytes are
 * given back (SIZE_MAX: all). Returns the bytes released. */
static size_t cm_release_sorted(cm_device *d, int kinds, size_t want,
				int (*order)(const void *, const void *))
{
	size_t n, freed = 0;
	cm_segment **list = cm_release_idle_list(d, kinds, &n);
	if (!list)
		return 0;
	if (order)
		qsort(list, n, sizeof(*list), order);
	for (size_t i = 0; i < n && freed < want; i++)
		freed += cm_release_one(d, list[i]);
	free(list);
	return freed;
}

/* Releases idle segments, those unused the longest first, until at least
 * want bytes are given back: as many steps as segments released (the
 * device keeps them in age order), never a walk over all of them. */
static size_t cm_release_oldest(cm_device *d, size_t want)
{
	size_t freed = 0;
	for (cm_segment *seg = d->idle_oldest, *newer; seg && freed < want; seg = newer) {
		newer = seg->idle_newer;
		freed += cm_release_one(d, seg);
	}
	return freed;
}

/* The same after free expandable tails, which go first. */
size_t cm_release_idle_oldest(cm_device *d, size_t want)
{
	size_t freed = cm_exp_trim_all(d);
	return freed >= want ? freed : freed + cm_release_oldest(d, want - freed);
}

size_t cm_release_all_locked(cm_device *d)
{
	return cm_stitch_release(d) + cm_exp_trim_all(d) +
	       cm_release_sorted(d, CM_RELEASE_ANY, SIZE_MAX, NULL);
}

/* Ladder step 1, among the idle segments of the request's kind (small or
 * large), as PyTorch: the smallest that alone makes room for a segment of
 * this size; else the largest ones until they add up. */
size_t cm_release_fitting_locked(cm_device *d, size_t size, bool small)
{
	size_t trimmed = cm_exp_trim_all(d);
	if (trimmed)
		return trimmed;
	cm_tnode *root = small ? d->idle_small : d->idle_large;
	cm_tnode *best = cm_tree_lower_bound(root, size, 0);
	if (best)
		return cm_release_one(d, cm_segment_of_idle(best));
	return cm_release_sorted(d, small ? CM_RELEASE_SMALL : CM_RELEASE_LARGE, size,
				 cm_release_by_size_desc);
}

int cm_device_ordinal(const cm_heap *h, int dev)
{
	return h->be->device_ordinal ? h->be->device_ordinal(h->be->ctx, dev) : dev;
}

static size_t cm_release_limit(cm_device *d)
{
	const cm_config *cfg = &d->heap->cfg;
	size_t cap = cm_config_memory_limit(cfg, cm_device_ordinal(d->heap, d->index));
	if (cfg->per_process_memory_fraction >= 1.0 && cfg->garbage_collection_threshold <= 0.0)
		return cap;
	if (!d->limit) {
		const cm_backend *be = d->heap->be;
		size_t free_bytes = 0, total = 0;
		if (be->mem_get_info(be->ctx, d->index, &free_bytes, &total) != CM_OK || !total)
			return cap; /* unknown: the cap alone rather than a wrong limit */
		size_t part = (size_t)((double)total * cfg->per_process_memory_fraction);
		d->limit = part < cap ? part : cap;
	}
	return d->limit;
}

/* What the process holds on d's physical device: d's reserved bytes and
 * those its other context slots published (cm_reserved_add). The limits
 * are per device, not per context. */
size_t cm_release_held_on_device(cm_device *d)
{
	cm_heap *h = d->heap;
	int ordinal = cm_device_ordinal(h, d->index);
	size_t held = d->stats.reserved_bytes;
	for (int i = 0; i < h->ndev; i++)
		if (i != d->index && cm_device_ordinal(h, i) == ordinal)
			held += atomic_load_explicit(&h->devs[i].reserved_seen, memory_order_relaxed);
	return held;
}

bool cm_release_within_limit(cm_device *d, size_t size)
{
	size_t limit = cm_release_limit(d);
	if (limit == SIZE_MAX)
		return true;
	size_t held = cm_release_held_on_device(d);
	return held <= limit && size <= limit - held;
}

/* garbage_collection_threshold: before the cache grows past that fraction
 * of the limit, the idle segments unused the longest go back. */
void cm_release_gc_locked(cm_device *d, size_t size)
{
	double threshold = d->heap->cfg.garbage_collection_threshold;
	size_t limit = cm_release_limit(d);
	if (threshold <= 0.0 || limit == SIZE_MAX)
		return;
	size_t target = (size_t)((double)limit * threshold);
	size_t after = d->stats.reserved_bytes + size;
	if (after <= target)
		return;
	/* Chunks kept for stitching stay: the growth that follows maps them. */
	if (cm_release_oldest(d, after - target))
		d->stats.gc_releases++;
}

/* release_threshold_mb: at a device synchronization (the device is idle,
 * so releasing costs no stall) idle memory above it goes back. */
void cm_release_trim_locked(cm_device *d)
{
	size_t keep = d->release_threshold;
	size_t idle = d->stats.reserved_bytes - d->stats.allocated_bytes - d->stats.inactive_split_bytes;
	if (keep == SIZE_MAX || idle <= keep)
		return;
	if (cm_stitch_release(d) + cm_exp_trim_all(d) +
	    cm_release_oldest(d, idle - keep))
		d->stats.trims++;
}

/* cudaMemPoolTrimTo on the default pool (pool_view.c): idle memory goes
 * back until at most keep bytes stay reserved. */
size_t cm_release_down_to_locked(cm_device *d, size_t keep)
{
	size_t freed = 0;
	if (d->stats.reserved_bytes > keep)
		freed += cm_stitch_release(d);
	if (d->stats.reserved_bytes > keep)
		freed += cm_exp_trim_all(d);
	if (d->stats.reserved_bytes > keep)
		freed += cm_release_oldest(d, d->stats.reserved_bytes - keep);
	return freed;
}
