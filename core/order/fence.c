/* core/order/fence.c - the fence protocol (docs/design.md, "The fence protocol").
 *
 * Every free is stamped with a cm_tag: the device epoch at the time of the
 * free, the stream it was freed on (with that stream's free sequence) and
 * the freeing thread. A tag says what must be true before the block may be
 * reused, and cm_reuse_need() is the one place that decides it (the fast
 * path asks cm_reuse_ready_at_once and cm_reuse_ready_rules_unlocked, the
 * same rules without a device call):
 *
 *   rule 1  freed on stream s, wanted by s               nothing
 *   rule 6  a synchronization after the free completed  nothing
 *   rule 4  freed by this thread, no user stream alive   nothing
 *   rule 3  a full fence was issued after the free       nothing
 *   rule 2  freed on s, wanted by stream t               wait on s's mark
 *   rule 3  nothing ran since the last cover (quiet)     nothing
 *   rule 4  freed by this thread, every user stream idle  nothing (queries)
 *   rule 3  no non-blocking stream, or none ran since the last cover:
 *           the order at once (one event on legacy)
 *   rule 3  otherwise: the block awaits its proof while the search takes
 *           new memory within max_pending_mb (cm_pending_bound), unless the
 *           streams that ran are idle by then; past it,
 *           one cover when submissions are seen, else a full fence up to
 *           CM_FENCE_MAX_NB streams, else a wait for the collect
 *
 * (free_fence:host keeps rule 1 and replaces the rest by one device
 * synchronization; free_fence:none needs nothing.)
 *
 * Owns, per device: the epochs, the quiet flag and order generation (with
 * submit.c), the last fence's event, the collect in flight, the bound on
 * memory pending behind unfinished work and the epoch up to which the
 * awaiting blocks may come back (segment.c keeps the list); and what a synchronization proves
 * (heap.c's cm_sync_begin/end call cm_fence_sync_begin and
 * cm_fence_synced). It calls down to streams.c only.
 *
 * Epoch invariant: the epoch is advanced (atomically) BEFORE the events of a
 * fence, collect or synchronization are issued, so every free stamped with
 * an epoch <= e happened before those events were enqueued. ordered_epoch
 * and completed_epoch only grow. A stream created after a fence waits on the
 * fence's event, so "ordered" stays true for it (rule 5, streams.c). A
 * destroyed stream stays a zombie, counted as alive and waited for through
 * its tail event, until that event completes.
 * Wing: order. Calls in its own wing streams.c.
 */
#include <stdlib.h>

#include "order.h"

void cm_fence_init_device(cm_device *d)
{
	atomic_init(&d->epoch, 1);
	atomic_init(&d->quiet, true);
	atomic_init(&d->order_gen, 1);
	atomic_init(&d->ordered_epoch, 0);
	atomic_init(&d->completed_epoch, 0);
}

void cm_fence_fini_device(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_collect *cs[] = { &d->collect, &d->collect_next };
	for (size_t k = 0; k < 2; k++) {
		for (size_t i = 0; i < cs[k]->nevents; i++)
			if (cs[k]->owned[i])
				be->event_destroy(be->ctx, d->index, cs[k]->events[i]);
		free(cs[k]->events);
		free(cs[k]->owned);
	}
	if (d->fence_event)
		be->event_destroy(be->ctx, d->index, d->fence_event);
}

/* A collect emptied, its events left to whoever holds them. */
static void cm_collect_drop(cm_collect *c)
{
	c->nevents = c->proven = 0;
	c->active = false;
}

/* The device was reset: its work is gone, so every free before now is
 * complete; the fence's and the collect's events are dropped. */
void cm_fence_forget_all(cm_device *d)
{
	d->fence_event = NULL;
	d->fence_recorded = false;
	cm_collect_drop(&d->collect);
	cm_collect_drop(&d->collect_next);
	cm_atomic_max(&d->completed_epoch, atomic_fetch_add(&d->epoch, 1));
}

/* ---- tags ---- */

cm_tag cm_tag_for_free(cm_device *d, cm_stream_rec *s, uint32_t thread)
{
	cm_tag t = {.epoch = atomic_load(&d->epoch), .stream = s, .thread = thread};
	if (s) {
		t.stream_gen = s->gen;
		t.seq = atomic_load(&s->free_seq);
	}
	return t;
}

bool cm_tag_complete(cm_device *d, const cm_tag *t)
{
	if (t->epoch <= atomic_load_explicit(&d->completed_epoch, memory_order_acquire))
		return true;
	return t->stream && t->stream->gen == t->stream_gen &&
	       t->seq <= atomic_load_explicit(&t->stream->completed_seq, memory_order_acquire);
}

/* The condition of a merged block: what both parts need. */
cm_tag cm_tag_join(cm_device *d, cm_tag a, cm_tag b)
{
	if (cm_tag_complete(d, &a))
		return b;
	if (cm_tag_complete(d, &b))
		return a;
	cm_tag t = {
		.epoch = a.epoch > b.epoch ? a.epoch : b.epoch,
		.thread = a.thread == b.thread ? a.thread : CM_THREAD_ANY,
	};
	if (a.stream == b.stream && a.stream_gen == b.stream_gen) {
		t.stream = a.stream;
		t.stream_gen = a.stream_gen;
		t.seq = a.seq > b.seq ? a.seq : b.seq;
	}
	return t;
}

static bool cm_tag_stream_live(const cm_tag *t)
{
	return t->stream && t->stream->alive && t->stream->gen == t->stream_gen;
}

static bool cm_freed_here_on_default_streams(const cm_request *rq, const cm_tag *t)
{
	return t->thread == rq->thread && t->thread != CM_THREAD_ANY &&
	       (!t->stream || (t->stream->gen == t->stream_gen &&
			       (t->stream->kind == CM_SK_LEGACY || t->stream->kind == CM_SK_PER_THREAD)));
}

/* With submissions seen: no work was queued on any stream of the device
 * since the last cover, so all of it is complete or ordered before any
 * later work (submit.c). */
static bool cm_quiet(cm_device *d)
{
	cm_heap *h = d->heap;
	return h->sees_submissions && atomic_load(&d->quiet) && !atomic_load(&d->covering) &&
	       !atomic_load_explicit(&h->defaults_ran, memory_order_acquire) &&
	       !atomic_load_explicit(&d->zombies, memory_order_acquire);
}

/* The fast path's question (tcache_fast.h), without the lock and without a
 * device call: may a cudaMalloc block this thread freed be handed to it
 * again now? The same rules as cm_reuse_need, those that need no call
 * (the first of them inline: order.h's cm_reuse_ready_at_once). */
bool cm_reuse_ready_rules_unlocked(cm_device *d, const cm_tag *t)
{
	switch (d->free_fence) {
	case CM_FENCE_NONE: return true;
	case CM_FENCE_HOST: return cm_tag_complete(d, t);
	default:
		return atomic_load_explicit(&d->user_streams, memory_order_acquire) == 0 || /* rule 4 */
		       t->epoch <= atomic_load(&d->ordered_epoch) || cm_quiet(d) || cm_tag_complete(d, t);
	}
}

static cm_need cm_reuse_need(cm_device *d, const cm_request *rq, const cm_tag *t)
{
	cm_free_fence mode = d->heap->cfg.free_fence;

	if (mode == CM_FENCE_NONE || cm_tag_complete(d, t))
		return CM_NEED_NOTHING;
	if (rq->consumer && cm_tag_stream_live(t) && t->stream == rq->consumer)
		return CM_NEED_NOTHING; /* rule 1 */
	if (mode == CM_FENCE_HOST)
		return CM_NEED_SYNC;
	if (cm_freed_here_on_default_streams(rq, t) && atomic_load(&d->user_streams) == 0)
		return CM_NEED_NOTHING; /* rule 4 */
	if (t->epoch <= atomic_load(&d->ordered_epoch))
		return CM_NEED_NOTHING;
	if (rq->consumer && cm_tag_stream_live(t))
		return CM_NEED_WAIT; /* rule 2 */
	if (cm_quiet(d))
		return CM_NEED_NOTHING; /* rule 3: nothing ran since the last cover */
	return CM_NEED_FENCE;
}

/* The stream on which to record an event covering r's work: another
 * thread's per-thread stream cannot be named, the legacy stream orders it. */
static cm_stream cm_stream_recordable(const cm_stream_rec *r, uint32_t thread)
{
	if (r->kind == CM_SK_PER_THREAD && r->owner_thread != thread)
		return CM_STREAM_LEGACY;
	return r->handle;
}

/* Whether the work on s before the free with sequence seq is complete,
 * through s's mark event: recorded on `on` (lazily, at most once per batch
 * of frees) when it does not cover seq yet. CM_OK: complete; CM_NOT_READY:
 * pending, the mark covers it; anything else: no mark could be recorded. */
static cm_status cm_stream_mark_query(cm_device *d, cm_stream_rec *s, cm_stream on, uint64_t seq)
{
	const cm_backend *be = d->heap->be;
	cm_status st;

	if (seq > s->mark_seq) {
		if (cm_stream_capturing(d, on))
			return CM_ERR_CAPTURING;
		if (!s->mark && (st = cm_event_get(d, &s->mark)) != CM_OK)
			return st;
		uint64_t q = atomic_fetch_add(&s->free_seq, 1);
		if ((st = be->event_record(be->ctx, d->index, s->mark, on)) != CM_OK)
			return st;
		s->mark_seq = q;
	}
	st = be->event_query(be->ctx, d->index, s->mark);
	if (st == CM_OK && on == s->handle)
		cm_atomic_max(&s->completed_seq, s->mark_seq);
	return st;
}

/* Rule 2: order the consumer after the free on s through s's mark event,
 * waited on only when it has not completed. */
static cm_status cm_reuse_wait(cm_device *d, const cm_request *rq, const cm_tag *t)
{
	const cm_backend *be = d->heap->be;
	cm_stream_rec *s = t->stream;
	cm_status st = cm_stream_mark_query(d, s, cm_stream_recordable(s, rq->thread), t->seq);

	if (st == CM_OK)
		return CM_OK;
	if (st != CM_NOT_READY || cm_stream_capturing(d, rq->consumer->handle) ||
	    be->stream_wait_event(be->ctx, d->index, rq->consumer->handle, s->mark) != CM_OK)
		return CM_NOT_READY;
	d->stats.stream_waits++;
	return CM_OK;
}

/* The legacy stream's later work ordered after zombie r's tail: one wait,
 * once (a wait orders everything queued on legacy after it, so later
 * fences and covers need not wait again). CM_NOT_READY: no tail. */
static cm_status cm_zombie_order(cm_device *d, cm_stream_rec *r)
{
	const cm_backend *be = d->heap->be;
	if (!r->tail)
		return CM_NOT_READY;
	if (r->tail_ordered)
		return CM_OK;
	cm_status st = be->stream_wait_event(be->ctx, d->index, CM_STREAM_LEGACY, r->tail);
	r->tail_ordered = st == CM_OK;
	return st;
}

/* Rule 3, ordering: record on every non-blocking stream, make legacy wait
 * on each, record E on legacy, make each wait on E. Orders everything
 * enqueued before it before everything enqueued after it. */
static cm_status cm_fence(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	int dev = d->index;
	cm_status st;

	if (cm_stream_capturing(d, CM_STREAM_LEGACY))
		return CM_ERR_CAPTURING;
	for (cm_stream_rec *r = d->nb_list; r; r = r->nb_next) {
		if (r->zombie)
			continue;
		if (cm_stream_capturing(d, r->handle))
			return CM_ERR_CAPTURING;
		if ((st = cm_event_ensure(d, &r->fence_ev)) != CM_OK)
			return st;
	}
	if ((st = cm_event_ensure(d, &d->fence_event)) != CM_OK)
		return st;
	uint64_t e = atomic_fetch_add(&d->epoch, 1);
	for (cm_stream_rec *r = d->nb_list; r; r = r->nb_next) {
		if (r->zombie) {
			if ((st = cm_zombie_order(d, r)) != CM_OK)
				return st;
			continue;
		}
		if ((st = be->event_record(be->ctx, dev, r->fence_ev, r->handle)) != CM_OK ||
		    (st = be->stream_wait_event(be->ctx, dev, CM_STREAM_LEGACY, r->fence_ev)) != CM_OK)
			return st;
		d->stats.covered_streams++;
	}
	if ((st = be->event_record(be->ctx, dev, d->fence_event, CM_STREAM_LEGACY)) != CM_OK)
		return st;
	for (cm_stream_rec *r = d->nb_list; r; r = r->nb_next)
		if (!r->zombie &&
		    (st = be->stream_wait_event(be->ctx, dev, r->handle, d->fence_event)) != CM_OK)
			return st;
	d->fence_recorded = true;
	cm_atomic_max(&d->ordered_epoch, e);
	d->stats.fences++;
	return CM_OK;
}

/* A stream whose record or wait failed in a cover: its earlier work is
 * made safe by a device synchronization, if that succeeds (docs/design.md,
 * "Streams that fail"). The record lives on (a cover may run inside a
 * search of its pools). False: nothing proves its work ordered; its flag
 * is put back, so that no cover counts it covered. */
static bool cm_stream_failed(cm_device *d, cm_stream_rec *r)
{
	d->stats.stream_failures++;
	if (cm_device_sync_locked(d) == CM_OK)
		return true;
	cm_stream_put_back_ran(r);
	return false;
}

/* Covers a user stream that ran work: a non-blocking one through an event
 * the legacy stream waits for; a blocking one is ordered before the
 * legacy stream's next work by CUDA itself. False: not now (capturing, or
 * the driver failed and so did the synchronization). */
static bool cm_cover_stream(cm_device *d, cm_stream_rec *r)
{
	const cm_backend *be = d->heap->be;
	if (!cm_stream_take_ran(r) || r->kind != CM_SK_NONBLOCKING)
		return true;
	if (cm_stream_capturing(d, r->handle)) {
		cm_stream_put_back_ran(r);
		return false;
	}
	if (cm_event_ensure(d, &r->fence_ev) != CM_OK ||
	    be->event_record(be->ctx, d->index, r->fence_ev, r->handle) != CM_OK ||
	    be->stream_wait_event(be->ctx, d->index, CM_STREAM_LEGACY, r->fence_ev) != CM_OK)
		return cm_stream_failed(d, r);
	d->stats.covered_streams++;
	return true;
}

/* Whether a cover now might delay a busy stream, beyond the legacy
 * stream's own work: a zombie, or a non-blocking stream that ran since the
 * last cover (ask: and still answers busy to a query, asked only at a
 * growth). Reads the ran list as cm_collect_record_ran does; a flag set
 * after the read is taken by the cover all the same (this only weighs its
 * cost). Without submissions seen nothing is known: true. */
static bool cm_nonblocking_busy(cm_device *d, bool ask)
{
	const cm_backend *be = d->heap->be;
	if (!d->heap->sees_submissions || atomic_load(&d->zombies))
		return true;
	for (cm_stream_rec *r = atomic_load(&d->ran_list); r; r = r->ran_next)
		if (r->alive && r->kind == CM_SK_NONBLOCKING && atomic_load(&r->ran) &&
		    (!ask || be->stream_query(be->ctx, d->index, r->handle) != CM_OK))
			return true;
	return false;
}

/* Rule 3 by ordering, paid by the streams that ran (submit.c): every
 * stream that ran work since the last cover is covered, then an event on
 * the legacy stream is recorded that every non-blocking stream waits for
 * before its next work. Frees before the cover are then ordered before
 * any later work. */
static cm_status cm_cover_locked(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	if (cm_stream_capturing(d, CM_STREAM_LEGACY) || cm_event_ensure(d, &d->fence_event) != CM_OK)
		return CM_ERR_CAPTURING;
	uint64_t e = atomic_fetch_add(&d->epoch, 1);
	atomic_store(&d->covering, true); /* until the cover is done or failed */
	atomic_store(&d->quiet, true); /* before the flags are read: submit.c */
	cm_defaults_take(d->heap);
	bool all = true;
	for (cm_stream_rec *r = cm_stream_take_ran_list(d), *next; r; r = next) {
		next = cm_stream_ran_list_next(r);
		if (r->alive && r->kind != CM_SK_PER_THREAD)
			all &= cm_cover_stream(d, r);
	}
	bool waited = true;
	for (cm_stream_rec *r = d->zombie_oldest; r; r = r->zombie_newer)
		waited &= cm_zombie_order(d, r) == CM_OK;
	/* A zombie without a tail, or one not waited for: only a
	 * synchronization (which reaps the zombies) covers its work. */
	if (!waited && cm_device_sync_locked(d) != CM_OK)
		all = false;
	if (be->event_record(be->ctx, d->index, d->fence_event, CM_STREAM_LEGACY) != CM_OK) {
		atomic_store(&d->quiet, false);
		atomic_store(&d->heap->defaults_ran, 1);
		return CM_ERR_BACKEND;
	}
	d->fence_recorded = true;
	atomic_fetch_add_explicit(&d->order_gen, 1, memory_order_release);
	if (!all)
		return CM_ERR_CAPTURING;
	cm_atomic_max(&d->ordered_epoch, e);
	d->stats.fences++;
	return CM_OK;
}

/* The quiet flag proves nothing while a cover is under way: set before
 * the flags are taken, it would let the lock-free fast path hand out a
 * block freed on a stream whose cover then fails (issue 36). */
static cm_status cm_cover(cm_device *d)
{
	cm_status st = cm_cover_locked(d);
	atomic_store(&d->covering, false);
	return st;
}

static cm_status cm_collect_add(cm_collect *c, cm_event ev, bool owned)
{
	if (c->nevents == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		cm_event *evs = realloc(c->events, cap * sizeof(*evs));
		if (evs)
			c->events = evs;
		bool *own = realloc(c->owned, cap * sizeof(*own));
		if (own)
			c->owned = own;
		if (!evs || !own)
			return CM_ERR_OOM;
		c->cap = cap;
	}
	c->events[c->nevents] = ev;
	c->owned[c->nevents++] = owned;
	return CM_OK;
}

static void cm_collect_clear(cm_device *d, cm_collect *c)
{
	for (size_t i = 0; i < c->nevents; i++)
		if (c->owned[i])
			cm_event_put(d, c->events[i]);
	cm_collect_drop(c);
}

/* The oldest collect ends; the next one, if any, becomes the oldest. */
static void cm_collect_end(cm_device *d)
{
	cm_collect_clear(d, &d->collect);
	if (d->collect_next.active) {
		cm_collect oldest = d->collect;
		d->collect = d->collect_next;
		d->collect_next = oldest;
	}
}

static cm_status cm_collect_record(cm_device *d, cm_collect *c, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	cm_event ev;
	cm_status st = cm_event_get(d, &ev);
	if (st != CM_OK)
		return st;
	if ((st = be->event_record(be->ctx, d->index, ev, s)) != CM_OK ||
	    (st = cm_collect_add(c, ev, true)) != CM_OK)
		cm_event_put(d, ev);
	return st;
}

/* The collect's events with submissions seen: legacy (which follows the
 * blocking and per-thread streams, and the last cover's event) and each
 * non-blocking stream that ran since that cover (the ran list, read
 * without taking it: pushes only prepend, and only covers, under this
 * lock, unlist). A stream off the list ran nothing since the cover. */
static bool cm_collect_record_ran(cm_device *d, cm_collect *c)
{
	for (cm_stream_rec *r = atomic_load(&d->ran_list); r; r = r->ran_next)
		if (r->alive && r->kind == CM_SK_NONBLOCKING && atomic_load(&r->ran) &&
		    (cm_stream_capturing(d, r->handle) || cm_collect_record(d, c, r->handle) != CM_OK))
			return false;
	return true;
}

/* Without them: each busy non-blocking stream, and the zombies' tails. */
static bool cm_collect_record_busy(cm_device *d, cm_collect *c)
{
	const cm_backend *be = d->heap->be;
	c->holds_tails = true;
	for (cm_stream_rec *r = d->nb_list; r; r = r->nb_next) {
		if (r->zombie) {
			if (!r->tail || cm_collect_add(c, r->tail, false) != CM_OK)
				return false;
		} else if (be->stream_query(be->ctx, d->index, r->handle) != CM_OK &&
			   (cm_stream_capturing(d, r->handle) ||
			    cm_collect_record(d, c, r->handle) != CM_OK)) {
			return false;
		}
	}
	return true;
}

/* Rule 3, completion: an event on legacy and on each stream that may hold
 * work; once all complete, every free before it is complete. Polled,
 * never waited for unless the pending bound is reached (collect path). At
 * most two in flight: d->collect, the oldest, and d->collect_next, which
 * only pinned memory starts (cm_collect_cover). */
static void cm_collect_start_in(cm_device *d, cm_collect *c)
{
	if (c->active || cm_stream_capturing(d, CM_STREAM_LEGACY))
		return;
	c->active = true;
	c->holds_tails = false;
	c->epoch = atomic_fetch_add(&d->epoch, 1);
	bool ok = cm_collect_record(d, c, CM_STREAM_LEGACY) == CM_OK;
	if (ok && d->heap->sees_submissions && !atomic_load(&d->zombies))
		ok = cm_collect_record_ran(d, c);
	else if (ok)
		ok = cm_collect_record_busy(d, c);
	if (!ok)
		cm_collect_clear(d, c);
	else
		d->stats.collects++;
}

/* For device memory, one at a time: the next starts once this one
 * completed. A minimum interval of 1 ms between them was measured on an
 * H200 to leave blocks pending so long that PyTorch's two-stream program
 * reserved 5x more (docs/gpu.md). */
static void cm_collect_start(cm_device *d)
{
	cm_collect_start_in(d, &d->collect);
}

/* Whether the oldest collect completed (then it ends): one query per
 * event not yet answered complete (a completed event stays so: the
 * collect holds it until it ends). */
static bool cm_collect_done(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_collect *c = &d->collect;
	for (; c->proven < c->nevents; c->proven++)
		if (be->event_query(be->ctx, d->index, c->events[c->proven]) != CM_OK)
			return false;
	cm_atomic_max(&d->completed_epoch, c->epoch);
	cm_collect_end(d);
	return true;
}

/* Whether the oldest collect in flight completed, and then the next;
 * asks the device at most once per allocation. */
static bool cm_collect_poll(cm_device *d)
{
	cm_collect *c = &d->collect;
	if (!c->active || c->polled_at == d->stats.alloc_calls)
		return false;
	c->polled_at = d->stats.alloc_calls;
	if (!cm_collect_done(d))
		return false;
	if (c->active) {
		c->polled_at = d->stats.alloc_calls;
		cm_collect_done(d);
	}
	return true;
}

/* A poll outside the once-per-allocation limit (host allocations). */
static bool cm_collect_poll_now(cm_device *d)
{
	d->collect.polled_at = d->stats.alloc_calls - 1;
	return cm_collect_poll(d);
}

/* Every free before now made complete: the host waits for the collect
 * in flight, or a new one (the collect path). */
static bool cm_collect_wait(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_collect *c = &d->collect;
	if (!c->active)
		cm_collect_start(d);
	if (!c->active)
		return false;
	for (size_t i = 0; i < c->nevents; i++)
		if (be->event_synchronize(be->ctx, d->index, c->events[i]) != CM_OK)
			return cm_device_sync_locked(d) == CM_OK;
	d->stats.pending_waits++;
	cm_atomic_max(&d->completed_epoch, c->epoch);
	cm_collect_end(d);
	return true;
}

/* A device synchronization at mark completed: so did every collect
 * started before it. */
static void cm_collect_end_before(cm_device *d, uint64_t mark)
{
	while (d->collect.active && d->collect.epoch <= mark)
		cm_collect_end(d);
}

cm_status cm_device_sync_locked(cm_device *d)
{
	uint64_t e;
	cm_status st = cm_stream_sync_device_at(d, &e);
	if (st != CM_OK)
		return st;
	cm_collect_end_before(d, e);
	cm_stream_reap(d, true);
	return CM_OK;
}

/* Whether the work before the free is complete, asking the device without
 * waiting: through the freeing stream's mark event, or the last fence's. */
bool cm_tag_poll_complete(cm_device *d, const cm_tag *t)
{
	if (cm_tag_complete(d, t))
		return true;
	if (cm_tag_stream_live(t) && t->stream->kind != CM_SK_PER_THREAD)
		return cm_stream_mark_query(d, t->stream, t->stream->handle, t->seq) == CM_OK;
	return cm_collect_poll(d) && cm_tag_complete(d, t);
}

/* Whether no other device of the heap is in use: the default streams'
 * flag is shared by all devices, so it says nothing of one of several. */
static bool cm_only_device_in_use(cm_device *d)
{
	cm_heap *h = d->heap;
	for (int i = 0; i < h->ndev; i++)
		if (&h->devs[i] != d && atomic_load_explicit(&h->devs[i].in_use, memory_order_relaxed))
			return false;
	return true;
}

/* Host memory, the device at rest: with submissions seen and nothing
 * queued on the device since the last cover (cm_quiet), everything queued
 * before is complete once that cover's event is (one query, remembered for
 * its order generation); with no cover yet, at once: nothing that can use
 * the cache's memory reached the device. The caller advanced the epoch
 * first, so a free after flagged work sees the flag here. */
static bool cm_idle_complete(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	if (!cm_quiet(d) || !cm_only_device_in_use(d))
		return false;
	uint64_t gen = atomic_load(&d->order_gen);
	if (d->fence_recorded && d->idle_gen != gen) {
		if (be->event_query(be->ctx, d->index, d->fence_event) != CM_OK)
			return false;
		d->idle_gen = gen;
	}
	return true;
}

/* Whether every free with an epoch <= e is known complete, or the device
 * at rest proves it, without a collect. */
static bool cm_epoch_known_or_idle(cm_device *d, uint64_t e)
{
	if (e <= atomic_load(&d->completed_epoch))
		return true;
	uint64_t now = atomic_fetch_add(&d->epoch, 1); /* before the flags are read */
	if (!cm_idle_complete(d))
		return false;
	cm_atomic_max(&d->completed_epoch, now);
	return e <= now;
}

/* Whether a collect in flight will prove epoch e. */
static bool cm_collect_covers(const cm_device *d, uint64_t e)
{
	return (d->collect.active && e <= d->collect.epoch) ||
	       (d->collect_next.active && e <= d->collect_next.epoch);
}

/* A collect covering epoch e in flight: the oldest if none is, else the
 * second; with two in flight and neither covering e, a second once the
 * oldest completed, else none (e waits for a later one). */
static void cm_collect_cover(cm_device *d, uint64_t e)
{
	if (cm_collect_covers(d, e))
		return;
	if (d->collect_next.active && !cm_collect_poll_now(d))
		return;
	cm_collect_start_in(d, d->collect.active ? &d->collect_next : &d->collect);
}

/* At a free whose completion a later allocation asks for (pinned host
 * blocks): its proof in flight now, so that it arrives with the work's
 * completion: a staging loop then turns over two buffers. */
void cm_epoch_cover(cm_device *d, uint64_t e)
{
	if (!cm_epoch_known_or_idle(d, e))
		cm_collect_cover(d, e);
}

/* Pinned host memory is written by the host as soon as it is handed out,
 * so its reuse needs completion, not order: every free with an epoch <= e
 * complete. The collects in flight are polled, after one covering e is
 * started where none does (an idle device answers at once). */
bool cm_epoch_poll_complete(cm_device *d, uint64_t e)
{
	if (cm_epoch_known_or_idle(d, e))
		return true;
	cm_collect_cover(d, e);
	cm_collect_poll_now(d);
	return e <= atomic_load(&d->completed_epoch);
}

/* The host waits until every free stamped with an epoch <= e is complete:
 * the collect in flight, then one started after e if that one was older.
 * False: no collect could be recorded and the device could not be
 * synchronized. */
bool cm_epoch_wait_complete(cm_device *d, uint64_t e)
{
	while (e > atomic_load(&d->completed_epoch))
		if (!cm_collect_wait(d))
			return cm_device_sync_locked(d) == CM_OK;
	return true;
}

/* Rule 4 when user streams exist: a block this thread freed after using
 * it on default streams or user streams is complete once every user
 * stream (and destroyed one) is idle. A query costs a quarter of what a
 * fence does per stream, and a steady loop with idle side streams then
 * needs no fence at all. */
static bool cm_user_streams_idle(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	/* The default streams the block may have been used on first: the
	 * legacy one (its query also sees blocking streams) and the caller's
	 * per-thread one. */
	if (be->stream_query(be->ctx, d->index, CM_STREAM_LEGACY) != CM_OK ||
	    be->stream_query(be->ctx, d->index, CM_STREAM_PER_THREAD) != CM_OK)
		return false;
	/* Then each record user_streams counts (streams.c): live user streams
	 * and zombies, no others. */
	for (cm_stream_rec *r = d->user_list; r; r = r->user_next) {
		d->visits.idle++;
		cm_status st = !r->zombie ? be->stream_query(be->ctx, d->index, r->handle)
			       : r->tail  ? be->event_query(be->ctx, d->index, r->tail)
					  : CM_NOT_READY;
		if (st != CM_OK)
			return false;
	}
	return true;
}

/* Every free before now made reusable at once: one cover (submissions
 * seen), a full fence (few non-blocking streams), or the host waits for
 * the collect, as cudaFree would have. */
static bool cm_order_pending(cm_device *d)
{
	cm_stream_reap(d, false);
	if (d->heap->sees_submissions)
		return cm_cover(d) == CM_OK;
	if (d->nb_count <= CM_FENCE_MAX_NB)
		return cm_fence(d) == CM_OK;
	return cm_collect_wait(d);
}

/* Whether blocks awaiting their proof get it from a collect; else (few
 * non-blocking streams, submissions unseen) from the full fence at the
 * bound. */
static bool cm_collects_prove_pending(const cm_device *d)
{
	return d->heap->sees_submissions || d->nb_count > CM_FENCE_MAX_NB;
}

/* A collect costs an event record and a query for each stream that ran
 * (on an H200 under load about 1 and 2 us each, docs/gpu-results.md): one
 * starts for the blocks awaiting a proof once their bytes reach
 * 1/CM_COLLECT_BATCH_DIV of the pending bound, not at every block. The
 * caller checked cm_collects_prove_pending. */
static void cm_collect_start_for(cm_device *d, size_t awaiting_bytes)
{
	if (awaiting_bytes >= cm_pending_max(d) / CM_COLLECT_BATCH_DIV)
		cm_collect_start(d);
}

/* A free went to the awaiting list (segment.c): its proof is on its way
 * once a batch awaits, as when a search sets a block aside. */
void cm_pending_added(cm_device *d)
{
	if (cm_collects_prove_pending(d))
		cm_collect_start_for(d, d->stats.pending_bytes);
}

/* The pending bound (docs/design.md, "Pending memory"): max_pending_mb;
 * auto (the default) is 1/CM_PENDING_SHARE of what the program holds, at
 * least CM_PENDING_FLOOR and at most CM_MAX_PENDING_DEFAULT: the memory a
 * free sets aside is memory the program cannot use, worth a share of what
 * it uses, not a constant. None while the device is short of memory. */
size_t cm_pending_max(const cm_device *d)
{
	size_t max = d->heap->cfg.max_pending;
	if (d->short_of_memory)
		return 0;
	if (max != CM_PENDING_AUTO)
		return max;
	size_t share = d->stats.allocated_bytes / CM_PENDING_SHARE;
	if (share < CM_PENDING_FLOOR)
		share = CM_PENDING_FLOOR;
	return share < CM_MAX_PENDING_DEFAULT ? share : CM_MAX_PENDING_DEFAULT;
}

/* Whether a block cudaFree just gave back to cudaMalloc's pool would be
 * set aside by the next search that meets it (rule 3 with non-blocking
 * streams and no proof yet): segment.c then sets it aside at once, before
 * it merges with free neighbours that need no proof. Asks no device. */
bool cm_free_awaits(cm_device *d, const cm_pool *pool, const cm_tag *t)
{
	if (d->free_fence != CM_FENCE_GPU || pool->stream || t->stream || d->nb_count == 0 ||
	    cm_pending_max(d) == 0 || !cm_nonblocking_busy(d, false))
		return false;
	if (!d->heap->sees_submissions && atomic_load(&d->user_streams) <= CM_FENCE_MAX_NB)
		return false; /* rule 4's idle proof may still serve it at once */
	if (atomic_load(&d->zombies))
		return false; /* a search reaps them and may find the device quiet */
	return !cm_tag_complete(d, t) && t->epoch > atomic_load(&d->ordered_epoch) && !cm_quiet(d);
}

/* Makes free block b safe for rq's consumer, enqueueing what its tag needs.
 * CM_NOT_READY: not without ordering or waiting; the block awaits its
 * proof (rq->awaiting) and the caller looks elsewhere, then takes new
 * memory within max_pending_mb before ordering (cm_pending_bound). */
cm_status cm_reuse_prepare(cm_device *d, cm_request *rq, cm_block *b)
{
	const cm_tag *t = &b->tag;

	switch (cm_reuse_need(d, rq, t)) {
	case CM_NEED_NOTHING:
		return CM_OK;
	case CM_NEED_WAIT:
		return cm_reuse_wait(d, rq, t);
	case CM_NEED_SYNC:
		return cm_device_sync_locked(d) == CM_OK ? CM_OK : CM_NOT_READY;
	case CM_NEED_FENCE:
		break;
	}
	if (!d->heap->sees_submissions && atomic_load(&d->user_streams) <= CM_FENCE_MAX_NB &&
	    cm_freed_here_on_default_streams(rq, t) && cm_user_streams_idle(d)) {
		d->stats.idle_proofs++;
		return CM_OK;
	}
	/* Destroyed streams whose work completed keep the device from being
	 * quiet until reaped (and count as non-blocking below): an idle
	 * device then needs nothing. */
	if (atomic_load(&d->zombies)) {
		cm_stream_reap(d, false);
		if (cm_quiet(d))
			return CM_OK;
	}
	/* With no non-blocking stream, or none that ran since the last cover
	 * (libraries create streams they rarely use), ordering is one event on
	 * legacy and delays no busy stream: at once. */
	if (cm_pending_max(d) == 0 || d->nb_count == 0 || !cm_nonblocking_busy(d, false))
		return cm_order_pending(d) ? CM_OK : CM_NOT_READY;
	/* Else the block awaits a proof: the collect's completion, unless the
	 * bound makes the order come first (a full fence when few streams
	 * and submissions unseen: no collect then). */
	if (cm_collects_prove_pending(d)) {
		if (cm_collect_poll(d) && cm_tag_complete(d, t))
			return CM_OK;
		cm_collect_start_for(d, d->stats.pending_bytes + b->node.size);
	}
	rq->awaiting = true;
	return CM_NOT_READY;
}

/* Every free stamped with an epoch <= this one is ordered before later
 * work or complete: the awaiting blocks freed by then may come back. */
uint64_t cm_proven_epoch(cm_device *d)
{
	uint64_t ordered = atomic_load(&d->ordered_epoch), completed = atomic_load(&d->completed_epoch);
	return ordered > completed ? ordered : completed;
}

/* After a search missed, with blocks awaiting: whether the collect in
 * flight completed, a proof for them (polled at most once per
 * allocation). With none in flight (the last one proved only those
 * freed before it), one starts. */
bool cm_pending_poll(cm_device *d)
{
	if (!d->stats.pending_bytes)
		return false;
	if (cm_collect_poll(d))
		return true;
	if (cm_collects_prove_pending(d))
		cm_collect_start_for(d, d->stats.pending_bytes);
	return false;
}

/* Memory pending behind unfinished work is bounded (docs/design.md,
 * "Pending memory"): a miss takes new memory while the free blocks
 * awaiting their proof (pending_bytes) and the new memory stay within
 * max_pending_mb and a stream that ran is still busy; past it (or when a
 * block the search passed over did not fit in it, or once those streams
 * are idle: the cover then delays none), every pending block is made
 * reusable at once. True: it was, search again. */
bool cm_pending_bound(cm_device *d, const cm_request *rq, size_t grow)
{
	size_t pending = d->stats.pending_bytes, max = cm_pending_max(d);
	if (!pending && !rq->over_bound)
		return false;
	if (!rq->over_bound && grow <= max && pending <= max - grow &&
	    cm_nonblocking_busy(d, true))
		return false;
	return cm_order_pending(d);
}

/* ---- synchronization (rule 6); the entry points are heap.c's ---- */

/* Before a synchronization of s (or of the device, CM_SYNC_DEVICE): the
 * mark that it will prove complete once it returns. A user stream the
 * device refuses leaves the token without a mark. */
void cm_fence_sync_begin(cm_device *d, cm_stream s, cm_stream_rec **per_thread, uint32_t thread,
			 cm_sync_token *tok)
{
	if (s == CM_SYNC_DEVICE) {
		tok->mark = atomic_fetch_add(&d->epoch, 1);
		return;
	}
	cm_stream_rec *r = NULL;
	pthread_mutex_lock(&d->lock);
	cm_status st = cm_stream_lookup(d, s, per_thread, thread, &r);
	pthread_mutex_unlock(&d->lock);
	if (st == CM_OK) {
		tok->rec = r;
		tok->mark = atomic_fetch_add(&r->free_seq, 1);
	}
}

/* After the synchronization succeeded: its frees are complete. True when
 * it was device-wide; the caller then calls cm_fence_synced_locked. */
bool cm_fence_synced(cm_device *d, cm_sync_token tok)
{
	if (tok.rec) {
		cm_atomic_max(&((cm_stream_rec *)tok.rec)->completed_seq, tok.mark);
		return false;
	}
	cm_atomic_max(&d->completed_epoch, tok.mark);
	return true;
}

/* A device synchronization at mark completed: so did a collect started
 * before it, and the zombies' tails. The streams' flags still say they
 * ran: a cover, whose events complete at once, clears them, so that the
 * device is quiet again (submissions seen) and later reuses need nothing. */
void cm_fence_synced_locked(cm_device *d, uint64_t mark)
{
	cm_collect_end_before(d, mark);
	cm_stream_reap(d, false);
	if (d->free_fence == CM_FENCE_GPU && d->heap->sees_submissions && !cm_quiet(d) &&
	    !atomic_load(&d->zombies))
		cm_cover(d);
}
