/* core/activity.c - which streams ran work (docs/design.md, "Seeing every
 * submission").
 *
 * The library's submission hooks call cm_submit_begin(h, s) before a
 * driver function that queues work on stream s or makes it wait, and
 * cm_submit_end() once it returned. Each stream handle has a cm_activity
 * whose `ran` flag cm_submit_end sets and a cover (fence.c) clears, under
 * the device lock, with an exchange before it records its events. The
 * mark comes after the work is queued: a mark before the clear belongs to
 * work queued before the cover's events, and work queued after the clear
 * leaves the flag set. So a clear flag means: all work queued on the
 * stream is covered (complete, or ordered before any later work of any
 * stream, see below).
 *
 * The device's `quiet` says that no flag of its user streams is set. A
 * cover stores it before reading the flags; a hook that sets a flag from 0
 * clears it after; both sequentially consistent, so one sees the other.
 * The default streams of all devices share one activity (the hook does not
 * know the device without asking the driver).
 *
 * Ordering, paid by the streams that run: a cover records the device's
 * fence event on the legacy stream after every work it covers and bumps
 * the device's order generation. Blocking and per-thread streams are
 * ordered after the legacy stream by CUDA itself; a non-blocking stream
 * whose ordered_gen is behind waits for the event at its next submission,
 * in cm_submit_begin, before its work is queued.
 *
 * The table never shrinks and entries never move (handles of destroyed
 * streams keep theirs for the next stream of that handle), so a thread
 * caches the last entry it found. Lookups take no lock; inserts claim an
 * empty slot with a compare-and-swap.
 */
#include <stdlib.h>

#include "internal.h"

#define CM_ACTS_CAP 4096 /* a power of two */
#define CM_ACTS_PENDING 8 /* streams one call may name */

static __thread struct {
	cm_heap *heap;
	cm_stream handle;
	cm_activity *act;
} cm_act_last __attribute__((tls_model("initial-exec")));

static __thread struct {
	unsigned n;
	cm_activity *acts[CM_ACTS_PENDING];
} cm_act_pending __attribute__((tls_model("initial-exec")));

cm_status cm_activity_init(cm_heap *h)
{
	h->acts = calloc(CM_ACTS_CAP, sizeof(*h->acts));
	h->acts_cap = h->acts ? CM_ACTS_CAP : 0;
	return h->acts ? CM_OK : CM_ERR_OOM;
}

void cm_activity_fini(cm_heap *h)
{
	if (cm_act_last.heap == h)
		cm_act_last.heap = NULL;
	free(h->acts);
}

static size_t cm_act_slot(const cm_heap *h, cm_stream s)
{
	return (size_t)(((uint64_t)s * 0x9e3779b97f4a7c15ull) >> 40) & (h->acts_cap - 1);
}

/* The entry of s; with claim, an empty slot becomes it. NULL: none, or
 * the table is full. */
static cm_activity *cm_act_probe(cm_heap *h, cm_stream s, bool claim)
{
	for (size_t n = 0, i = cm_act_slot(h, s); n < h->acts_cap; n++, i = (i + 1) & (h->acts_cap - 1)) {
		cm_activity *a = &h->acts[i];
		cm_stream key = atomic_load_explicit(&a->handle, memory_order_acquire);
		if (key == s)
			return a;
		if (key != 0)
			continue;
		if (!claim)
			return NULL;
		cm_stream empty = 0;
		if (atomic_compare_exchange_strong(&a->handle, &empty, s) || empty == s)
			return a;
	}
	return NULL;
}

static void cm_act_mark_slow(cm_activity *a)
{
	if (atomic_exchange(&a->ran, 1) != 0)
		return;
	cm_device *d = atomic_load_explicit(&a->dev, memory_order_acquire);
	if (d && atomic_load(&d->quiet))
		atomic_store(&d->quiet, false);
}

static inline void cm_act_mark(cm_activity *a)
{
	if (!atomic_load_explicit(&a->ran, memory_order_acquire))
		cm_act_mark_slow(a);
}

/* Called under d's lock when a record for user stream s is made: the
 * stream's entry now belongs to d. ran: its past is unknown (met before
 * its creation was seen), so its work counts as not covered. */
cm_activity *cm_activity_attach(cm_device *d, cm_stream s, bool nonblocking, bool ran)
{
	cm_activity *a = cm_act_probe(d->heap, s, true);
	if (!a)
		return NULL;
	atomic_store(&a->nonblocking, nonblocking);
	atomic_store(&a->ordered_gen, atomic_load(&d->order_gen));
	atomic_store(&a->ran, 0);
	atomic_store_explicit(&a->dev, d, memory_order_release);
	if (ran)
		cm_act_mark_slow(a);
	return a;
}

/* A cover takes a stream's flag: true when work was queued since the last
 * cover. put_back undoes it when the cover could not cover the stream. */
bool cm_activity_take(cm_device *d, cm_activity *a)
{
	(void)d;
	return atomic_exchange(&a->ran, 0) != 0;
}

void cm_activity_put_back(cm_device *d, cm_activity *a)
{
	atomic_store(&a->ran, 1);
	atomic_store(&d->quiet, false);
}

bool cm_defaults_take(cm_heap *h)
{
	return atomic_exchange(&h->defaults.ran, 0) != 0;
}

/* The stream waits for its device's latest cover before new work. */
static void cm_act_order(cm_device *d, cm_activity *a, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	bool capturing = true;
	pthread_mutex_lock(&d->lock);
	uint64_t gen = atomic_load(&d->order_gen);
	if (atomic_load(&a->ordered_gen) != gen && d->fence_recorded &&
	    be->stream_is_capturing(be->ctx, d->index, s, &capturing) == CM_OK && !capturing) {
		/* A capturing stream's work runs when its graph is launched,
		 * and that launch waits here instead. */
		if (be->stream_wait_event(be->ctx, d->index, s, d->fence_event) == CM_OK)
			d->stats.lazy_waits++;
		else if (cm_device_sync_locked(d) == CM_OK)
			d->stats.stream_failures++;
		atomic_store(&a->ordered_gen, gen);
	}
	pthread_mutex_unlock(&d->lock);
}

static cm_activity *cm_act_lookup(cm_heap *h, cm_stream s)
{
	if (CM_LIKELY(cm_act_last.heap == h && cm_act_last.handle == s))
		return cm_act_last.act;
	cm_activity *a = cm_act_probe(h, s, false);
	if (a) {
		cm_act_last.heap = h;
		cm_act_last.handle = s;
		cm_act_last.act = a;
	}
	return a;
}

bool cm_submit_begin(cm_heap *h, cm_stream s)
{
	cm_activity *a = &h->defaults;
	if (s != CM_STREAM_LEGACY && s != CM_STREAM_PER_THREAD) {
		cm_device *d;
		a = cm_act_lookup(h, s);
		if (!a || !(d = atomic_load_explicit(&a->dev, memory_order_acquire)))
			return false;
		if (atomic_load_explicit(&a->nonblocking, memory_order_relaxed) &&
		    atomic_load_explicit(&a->ordered_gen, memory_order_acquire) !=
			    atomic_load_explicit(&d->order_gen, memory_order_acquire))
			cm_act_order(d, a, s);
	}
	if (cm_act_pending.n < CM_ACTS_PENDING)
		cm_act_pending.acts[cm_act_pending.n++] = a;
	else
		cm_act_mark(a); /* more streams in one call than remembered: early */
	return true;
}

void cm_submit_end(void)
{
	for (unsigned i = 0; i < cm_act_pending.n; i++)
		cm_act_mark(cm_act_pending.acts[i]);
	cm_act_pending.n = 0;
}

void cm_heap_track_submissions(cm_heap *h)
{
	h->sees_submissions = true;
}
