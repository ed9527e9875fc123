/* core/serve/pool_view.c - the device's default memory pool as the program sees
 * it under the cache (docs/design.md, "The driver layer", "The default
 * memory pool").
 *
 * cudaMallocAsync is served by the cache, so CUDA's own default pool stays
 * empty; what the pool attributes and cudaMemPoolTrimTo say and do must be
 * the cache's. This file decides it; interpose/ only translates:
 *
 * - used: the bytes of the blocks the program holds (allocated_bytes, with
 *   its peak); blocks parked in the calling thread's cache are given back
 *   first, so they count as reserved, not used;
 * - reserved: the bytes obtained from the device (reserved_bytes, with its
 *   peak);
 * - a high watermark set to 0 becomes the current value, as CUDA resets
 *   it; it is the device's peak of the statistics, so the reports' peaks
 *   restart there too (PyTorch's reset_peak_memory_stats does the same);
 * - a trim gives idle memory back (kept stitch chunks, free expandable
 *   tails, idle segments oldest first) until at most the bytes asked stay
 *   reserved, after a device synchronization: awaiting blocks come back to
 *   their pools and every free is complete, so what is idle can go;
 * - the release threshold is release_threshold_mb of this device: the idle
 *   bytes kept at a device synchronization (SIZE_MAX: all).
 * Wing: serve. Calls in its own wing tcache.c; the mem and order wings.
 */
#include "serve.h"

bool cm_pool_view_get(cm_heap *h, int dev, cm_pool_view *out)
{
	if (dev < 0 || dev >= h->ndev)
		return false;
	cm_device *d = &h->devs[dev];
	cm_thread_flush(h); /* parked blocks are not the program's */
	pthread_mutex_lock(&d->lock);
	out->used = d->stats.allocated_bytes;
	out->used_high = d->stats.peak_allocated_bytes;
	out->reserved = d->stats.reserved_bytes;
	out->reserved_high = d->stats.peak_reserved_bytes;
	out->release_threshold = d->release_threshold;
	pthread_mutex_unlock(&d->lock);
	return true;
}

void cm_pool_reset_high(cm_heap *h, int dev, bool used, bool reserved)
{
	if (dev < 0 || dev >= h->ndev)
		return;
	cm_device *d = &h->devs[dev];
	cm_thread_flush(h);
	pthread_mutex_lock(&d->lock);
	if (used)
		d->stats.peak_allocated_bytes = d->stats.allocated_bytes;
	if (reserved)
		d->stats.peak_reserved_bytes = d->stats.reserved_bytes;
	pthread_mutex_unlock(&d->lock);
}

size_t cm_pool_trim(cm_heap *h, int dev, size_t keep)
{
	cm_device *d = cm_device_lock_flushed(h, dev);
	if (!d)
		return 0;
	size_t freed = 0;
	if (d->stats.reserved_bytes > keep && cm_device_sync_locked(d) == CM_OK) {
		cm_awaiting_return(d, cm_proven_epoch(d));
		freed = cm_release_down_to_locked(d, keep);
	}
	pthread_mutex_unlock(&d->lock);
	return freed;
}

void cm_pool_set_release_threshold(cm_heap *h, int dev, size_t bytes)
{
	if (dev < 0 || dev >= h->ndev)
		return;
	cm_device *d = &h->devs[dev];
	pthread_mutex_lock(&d->lock);
	d->release_threshold = bytes;
	pthread_mutex_unlock(&d->lock);
}
