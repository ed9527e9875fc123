/* core/serve/submit.c - what the hooks tell the core about streams: creation,
 * destruction, a stream met otherwise, and submissions (docs/design.md,
 * "Seeing every submission").
 *
 * The library's submission hooks call cm_submit_begin(h, s) before a
 * driver function that queues work on stream s or makes it wait, and
 * cm_submit_end() once it returned. cm_submit_end sets the `ran` flag of
 * s's record (streams.c) and a cover (fence.c) takes it, under the device
 * lock, with an exchange before it records its events. The mark comes
 * after the work is queued: a mark before the take belongs to work queued
 * before the cover's events, and work queued after the take leaves the
 * flag set. So a clear flag means: all work queued on the stream is
 * covered (complete, or ordered before any later work of any stream).
 * The default streams of all devices share one flag (the hook does not
 * know the device without asking the driver).
 *
 * Ordering, paid by the streams that run: a cover records the device's
 * fence event on the legacy stream after every work it covers and bumps
 * the device's order generation. Blocking and per-thread streams are
 * ordered after the legacy stream by CUDA itself; a non-blocking stream
 * whose ordered_gen is behind waits for the event at its next submission,
 * in cm_submit_begin, before its work is queued.
 *
 * Finding a stream's record without a lock: the thread's last one, then
 * the heap's directory (directory.c); a miss there asks each device's
 * table under its lock, so a record the directory could not hold is still
 * found. Records are type-stable, and a record names its handle
 * (dir_handle) only while it is that live stream's, so a stale pointer
 * reads as a miss.
 *
 * Calls down to fence.c (the lazy wait's failure synchronizes the device,
 * as does a handle met again whose destruction went unseen), streams.c
 * and segment.c (a record that ends hands its pools over first); nothing
 * below calls here.
 * Wing: serve. Calls the mem and order wings.
 */
#include "serve.h"

#define CM_SUBMIT_PENDING 8 /* streams one call may name */

static __thread struct {
	uint64_t heap_id;
	cm_stream handle;
	cm_stream_rec *rec;
} cm_submit_last __attribute__((tls_model("initial-exec")));

/* NULL entries: the default streams. */
static __thread struct {
	unsigned n;
	cm_heap *heap;
	cm_stream_rec *recs[CM_SUBMIT_PENDING];
} cm_submit_pending __attribute__((tls_model("initial-exec")));

void cm_heap_track_submissions(cm_heap *h)
{
	h->sees_submissions = true;
}

static inline void cm_submit_mark(cm_heap *h, cm_stream_rec *r)
{
	if (!r) {
		if (!atomic_load_explicit(&h->defaults_ran, memory_order_acquire))
			atomic_exchange(&h->defaults_ran, 1);
	} else if (!atomic_load_explicit(&r->ran, memory_order_acquire)) {
		cm_stream_mark_ran(r);
	}
}

/* The stream waits for its device's latest cover before new work. */
static void cm_submit_order(cm_device *d, cm_stream_rec *r, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	bool capturing = true;
	pthread_mutex_lock(&d->lock);
	uint64_t gen = atomic_load(&d->order_gen);
	if (r->alive && atomic_load(&r->dir_handle) == s && atomic_load(&r->ordered_gen) != gen &&
	    d->fence_recorded &&
	    be->stream_is_capturing(be->ctx, d->index, s, &capturing) == CM_OK && !capturing) {
		/* A capturing stream's work runs when its graph is launched,
		 * and that launch waits here instead. */
		bool ordered = true;
		if (be->stream_wait_event(be->ctx, d->index, s, d->fence_event) == CM_OK)
			d->stats.lazy_waits++;
		else if ((ordered = cm_device_sync_locked(d) == CM_OK))
			d->stats.stream_failures++;
		if (ordered) /* else the stream's next work tries again */
			atomic_store(&r->ordered_gen, gen);
	}
	pthread_mutex_unlock(&d->lock);
}

/* Every device's table, under its lock: for a record the directory
 * could not hold. */
static cm_stream_rec *cm_submit_find_locked_path(cm_heap *h, cm_stream s)
{
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		pthread_mutex_lock(&d->lock);
		cm_stream_rec *r = cm_stream_find(d, s);
		pthread_mutex_unlock(&d->lock);
		if (r)
			return r;
	}
	return NULL;
}

static cm_stream_rec *cm_submit_lookup(cm_heap *h, cm_stream s)
{
	cm_stream_rec *r = cm_submit_last.rec;
	if (CM_LIKELY(cm_submit_last.heap_id == h->id && cm_submit_last.handle == s &&
		      atomic_load_explicit(&r->dir_handle, memory_order_acquire) == s))
		return r;
	if (!(r = cm_dir_find(&h->dir, s)) && !(r = cm_submit_find_locked_path(h, s)))
		return NULL;
	cm_submit_last.heap_id = h->id;
	cm_submit_last.handle = s;
	cm_submit_last.rec = r;
	return r;
}

bool cm_submit_begin(cm_heap *h, cm_stream s)
{
	cm_stream_rec *r = NULL;
	if (s != CM_STREAM_LEGACY && s != CM_STREAM_PER_THREAD) {
		if (!(r = cm_submit_lookup(h, s)))
			return false;
		cm_device *d = r->dev;
		if (atomic_load_explicit(&r->nonblocking, memory_order_relaxed) &&
		    atomic_load_explicit(&r->ordered_gen, memory_order_acquire) !=
			    atomic_load_explicit(&d->order_gen, memory_order_acquire))
			cm_submit_order(d, r, s);
	}
	if (cm_submit_pending.n < CM_SUBMIT_PENDING) {
		cm_submit_pending.heap = h;
		cm_submit_pending.recs[cm_submit_pending.n++] = r;
	} else {
		cm_submit_mark(h, r); /* more streams in one call than remembered: early */
	}
	return true;
}

void cm_submit_end(void)
{
	for (unsigned i = 0; i < cm_submit_pending.n; i++)
		cm_submit_mark(cm_submit_pending.heap, cm_submit_pending.recs[i]);
	cm_submit_pending.n = 0;
}

/* ---- stream creation, sight and destruction ---- */

cm_status cm_stream_created(cm_heap *h, int dev, cm_stream s, bool nonblocking)
{
	if (dev < 0 || dev >= h->ndev || s == CM_STREAM_LEGACY || s == CM_STREAM_PER_THREAD)
		return CM_ERR_INVALID;
	cm_device *d = &h->devs[dev];
	atomic_store_explicit(&d->in_use, true, memory_order_relaxed);
	pthread_mutex_lock(&d->lock);
	cm_stream_reap(d, false);
	cm_stream_rec *old = cm_stream_find(d, s);
	if (old) {
		/* The driver gave the handle of a stream whose destruction went
		 * unseen to a new one: the old one's work can no longer be
		 * named. Unless it is known covered, wait for it now. */
		if (!h->sees_submissions || atomic_load(&old->ran))
			cm_device_sync_locked(d);
		cm_pool_stream_end(d, old, false);
	}
	cm_stream_rec *r = cm_stream_add(d, s, nonblocking, false);
	pthread_mutex_unlock(&d->lock);
	return r ? CM_OK : CM_ERR_OOM;
}

cm_status cm_stream_seen(cm_heap *h, int dev, cm_stream s)
{
	if (dev < 0 || dev >= h->ndev || s == CM_STREAM_LEGACY || s == CM_STREAM_PER_THREAD)
		return CM_ERR_INVALID;
	cm_device *d = &h->devs[dev];
	atomic_store_explicit(&d->in_use, true, memory_order_relaxed);
	cm_stream_rec *r;
	pthread_mutex_lock(&d->lock);
	cm_status st = cm_stream_lookup(d, s, NULL, CM_THREAD_ANY, &r);
	pthread_mutex_unlock(&d->lock);
	return st;
}

/* The device whose table holds user stream s, or -1. */
int cm_stream_device(cm_heap *h, cm_stream s)
{
	cm_stream_rec *r = cm_dir_find(&h->dir, s);
	if (!r)
		r = cm_submit_find_locked_path(h, s);
	return r ? r->dev->index : -1;
}

cm_status cm_stream_destroying(cm_heap *h, int dev, cm_stream s)
{
	if (dev < 0)
		dev = cm_stream_device(h, s);
	if (dev < 0 || dev >= h->ndev)
		return CM_OK; /* a stream the cache never saw */
	cm_device *d = &h->devs[dev];
	pthread_mutex_lock(&d->lock);
	cm_stream_rec *r = cm_stream_find(d, s);
	if (r)
		cm_pool_stream_end(d, r, true);
	pthread_mutex_unlock(&d->lock);
	return CM_OK;
}
