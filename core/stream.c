/* core/stream.c - stream records and the fence protocol (DESIGN 4).
 *
 * Every free is stamped with a cm_tag: the device epoch at the time of the
 * free, the stream it was freed on (with that stream's free sequence) and
 * the freeing thread. A tag says what must be true before the block may be
 * reused, and cm_reuse_need() is the one place that decides it:
 *
 *   rule 1  freed on stream s, wanted by s               nothing
 *   rule 6  a synchronization after the free completed  nothing
 *   rule 4  freed by this thread, no user stream alive   nothing
 *   rule 3  a full fence was issued after the free       nothing
 *   rule 2  freed on s, wanted by stream t               wait on s's mark
 *   rule 4  freed by this thread, every user stream idle  nothing (queries)
 *   rule 3  otherwise, up to CM_FENCE_MAX_NB streams     a full fence
 *   rule 3  otherwise                                    a collect; wait
 *
 * (free_fence:host keeps rule 1 and replaces the rest by one device
 * synchronization; free_fence:none needs nothing.)
 *
 * Epoch invariant: the epoch is advanced (atomically) BEFORE the events of a
 * fence, collect or synchronization are issued, so every free stamped with
 * an epoch <= e happened before those events were enqueued. ordered_epoch
 * and completed_epoch only grow. A stream created after a fence waits on the
 * fence's event, so "ordered" stays true for it (rule 5). A destroyed
 * stream stays a zombie, counted as alive and waited for through its tail
 * event, until that event completes.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void cm_atomic_max(_Atomic uint64_t *a, uint64_t v)
{
	uint64_t cur = atomic_load(a);
	while (cur < v && !atomic_compare_exchange_weak(a, &cur, v))
		;
}

/* ---- the event pool: events are created once and reused ---- */

cm_status cm_event_get(cm_device *d, cm_event *out)
{
	if (d->nevents_pooled) {
		*out = d->event_pool[--d->nevents_pooled];
		return CM_OK;
	}
	const cm_backend *be = d->heap->be;
	return be->event_create(be->ctx, d->index, out);
}

void cm_event_put(cm_device *d, cm_event ev)
{
	if (d->nevents_pooled == d->event_pool_cap) {
		size_t cap = d->event_pool_cap ? 2 * d->event_pool_cap : 16;
		cm_event *pool = realloc(d->event_pool, cap * sizeof(*pool));
		if (!pool) {
			const cm_backend *be = d->heap->be;
			be->event_destroy(be->ctx, d->index, ev);
			return;
		}
		d->event_pool = pool;
		d->event_pool_cap = cap;
	}
	d->event_pool[d->nevents_pooled++] = ev;
}

/* ---- stream records ---- */

/* The record's life as a stream: set for a new record or a reused one
 * (whose generation the caller has bumped; its sequence numbers, events
 * and list links carry over). */
static void cm_stream_rec_init(cm_device *d, cm_stream_rec *r, cm_stream handle, uint8_t kind)
{
	r->handle = handle;
	r->kind = kind;
	r->alive = true;
	r->owner_thread = 0;
	r->mark_seq = 0;
	r->small = (cm_pool){.dev = d, .stream = r, .small = true};
	r->large = (cm_pool){.dev = d, .stream = r, .small = false};
}

/* A record for a new stream: a retired one when there is one (its
 * generation bumped, so tags and caches of its earlier life no longer
 * match it; its sequence numbers keep growing), else a new one. Records
 * are never freed before the device: tags may point at them. */
static cm_stream_rec *cm_stream_rec_new(cm_device *d, cm_stream handle, uint8_t kind)
{
	cm_stream_rec *r = d->retired_streams;
	if (r) {
		d->retired_streams = r->retired_next;
		r->retired_next = NULL;
		r->gen++;
	} else {
		if (!(r = calloc(1, sizeof(*r))))
			return NULL;
		atomic_init(&r->free_seq, 1);
		atomic_init(&r->completed_seq, 0);
		r->all_next = d->all_streams;
		d->all_streams = r;
	}
	cm_stream_rec_init(d, r, handle, kind);
	return r;
}

/* A dead stream whose work is complete or waited for and whose pools
 * were emptied: its record can serve a new stream. */
static void cm_stream_retire(cm_device *d, cm_stream_rec *r)
{
	cm_assert(!r->alive && !r->zombie && !r->small.segments && !r->large.segments);
	r->retired_next = d->retired_streams;
	d->retired_streams = r;
}

cm_status cm_stream_init_device(cm_device *d)
{
	d->none_small = (cm_pool){.dev = d, .small = true};
	d->none_large = (cm_pool){.dev = d, .small = false};
	cm_stream_rec_init(d, &d->legacy, CM_STREAM_LEGACY, CM_SK_LEGACY);
	atomic_init(&d->legacy.free_seq, 1);
	atomic_init(&d->legacy.completed_seq, 0);
	atomic_init(&d->epoch, 1);
	atomic_init(&d->quiet, true);
	atomic_init(&d->order_gen, 1);
	atomic_init(&d->ordered_epoch, 0);
	atomic_init(&d->completed_epoch, 0);
	return CM_OK;
}

static void cm_stream_release_events(cm_device *d, cm_stream_rec *r)
{
	const cm_backend *be = d->heap->be;
	cm_event evs[3] = {r->mark, r->fence_ev, r->tail};
	for (int i = 0; i < 3; i++)
		if (evs[i])
			be->event_destroy(be->ctx, d->index, evs[i]);
	r->mark = r->fence_ev = r->tail = NULL;
}

void cm_stream_fini_device(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_stream_release_events(d, &d->legacy);
	for (cm_stream_rec *r = d->all_streams, *next; r; r = next) {
		next = r->all_next;
		cm_stream_release_events(d, r);
		free(r);
	}
	for (size_t i = 0; i < d->collect.nevents; i++)
		if (d->collect.owned[i])
			be->event_destroy(be->ctx, d->index, d->collect.events[i]);
	free(d->collect.events);
	free(d->collect.owned);
	if (d->fence_event)
		be->event_destroy(be->ctx, d->index, d->fence_event);
	if (d->birth_event)
		be->event_destroy(be->ctx, d->index, d->birth_event);
	while (d->nevents_pooled)
		be->event_destroy(be->ctx, d->index, d->event_pool[--d->nevents_pooled]);
	free(d->event_pool);
	free(d->stream_table);
}

static size_t cm_stream_slot(const cm_device *d, cm_stream s)
{
	return (size_t)((uint64_t)s * 0x9e3779b97f4a7c15ull >> 32) & (d->stream_table_cap - 1);
}

static cm_stream_rec *cm_stream_table_find(cm_device *d, cm_stream s)
{
	if (!d->stream_table_cap)
		return NULL;
	for (cm_stream_rec *r = d->stream_table[cm_stream_slot(d, s)]; r; r = r->hash_next)
		if (r->handle == s)
			return r;
	return NULL;
}

static bool cm_stream_table_grow(cm_device *d)
{
	size_t cap = d->stream_table_cap ? 2 * d->stream_table_cap : 64;
	cm_stream_rec **t = calloc(cap, sizeof(*t));
	if (!t)
		return false;
	cm_stream_rec **old = d->stream_table;
	size_t oldcap = d->stream_table_cap;
	d->stream_table = t;
	d->stream_table_cap = cap;
	for (size_t i = 0; i < oldcap; i++) {
		for (cm_stream_rec *r = old[i], *next; r; r = next) {
			next = r->hash_next;
			size_t j = cm_stream_slot(d, r->handle);
			r->hash_next = t[j];
			t[j] = r;
		}
	}
	free(old);
	return true;
}

static void cm_stream_table_remove(cm_device *d, cm_stream_rec *r)
{
	cm_stream_rec **at = &d->stream_table[cm_stream_slot(d, r->handle)];
	while (*at != r)
		at = &(*at)->hash_next;
	*at = r->hash_next;
	r->hash_next = NULL;
}

static void cm_nb_link(cm_device *d, cm_stream_rec *r)
{
	r->nb_prev = NULL;
	r->nb_next = d->nb_list;
	if (d->nb_list)
		d->nb_list->nb_prev = r;
	d->nb_list = r;
	d->nb_count++;
}

static void cm_nb_unlink(cm_device *d, cm_stream_rec *r)
{
	if (r->nb_prev)
		r->nb_prev->nb_next = r->nb_next;
	else
		d->nb_list = r->nb_next;
	if (r->nb_next)
		r->nb_next->nb_prev = r->nb_prev;
	r->nb_prev = r->nb_next = NULL;
	d->nb_count--;
}

static void cm_stream_order_new(cm_device *d, cm_stream s);

/* A user stream: created through cm_stream_created, or met for the first
 * time in an allocation (created before we could see it: assumed
 * non-blocking, the conservative choice). */
static cm_stream_rec *cm_stream_add(cm_device *d, cm_stream s, bool nonblocking, bool ran)
{
	if (4 * (atomic_load(&d->user_streams) + 1) > 3 * d->stream_table_cap &&
	    !cm_stream_table_grow(d))
		return NULL;
	cm_stream_rec *r = cm_stream_rec_new(d, s, nonblocking ? CM_SK_NONBLOCKING : CM_SK_BLOCKING);
	if (!r)
		return NULL;
	size_t j = cm_stream_slot(d, s);
	r->hash_next = d->stream_table[j];
	d->stream_table[j] = r;
	atomic_fetch_add(&d->user_streams, 1);
	r->act = d->heap->sees_submissions ? cm_activity_attach(d, s, nonblocking, ran) : NULL;
	if (nonblocking) {
		cm_nb_link(d, r);
		cm_stream_order_new(d, s);
	}
	return r;
}

static cm_status cm_stream_per_thread(cm_device *d, cm_tcache *tc, cm_stream_rec **out)
{
	if (!tc)
		return CM_ERR_OOM;
	cm_stream_rec **slot = cm_tc_per_thread_slot(tc, d->index);
	if (!*slot || !(*slot)->alive) { /* none yet, or lost in a reset */
		cm_stream_rec *r = cm_stream_rec_new(d, CM_STREAM_PER_THREAD, CM_SK_PER_THREAD);
		if (!r)
			return CM_ERR_OOM;
		r->owner_thread = cm_tc_thread_id(tc);
		*slot = r;
	}
	*out = *slot;
	return CM_OK;
}

/* A user stream met for the first time outside cm_stream_created (made
 * before the library could see it): the device says whether it exists
 * and how it orders; without an answer it is taken as non-blocking, the
 * conservative choice. A handle the device refuses leaves no record. */
static cm_status cm_stream_adopt(cm_device *d, cm_stream s, cm_stream_rec **out)
{
	const cm_backend *be = d->heap->be;
	bool nonblocking = true;
	if (be->stream_flags &&
	    be->stream_flags(be->ctx, d->index, s, &nonblocking) == CM_ERR_BAD_HANDLE)
		return CM_ERR_BAD_HANDLE;
	return (*out = cm_stream_add(d, s, nonblocking, true)) ? CM_OK : CM_ERR_OOM;
}

cm_status cm_stream_lookup(cm_device *d, cm_stream s, cm_tcache *tc, cm_stream_rec **out)
{
	if (s == CM_STREAM_LEGACY) {
		*out = &d->legacy;
		return CM_OK;
	}
	if (s == CM_STREAM_PER_THREAD)
		return cm_stream_per_thread(d, tc, out);
	if ((*out = cm_stream_table_find(d, s)))
		return CM_OK;
	return cm_stream_adopt(d, s, out);
}

/* Zombies whose tail event completed are forgotten. */
static void cm_stream_reap(cm_device *d, bool all_complete)
{
	const cm_backend *be = d->heap->be;
	if (d->collect.active)
		return; /* a collect may hold their tails */
	for (cm_stream_rec *r = d->nb_list, *next; r; r = next) {
		next = r->nb_next;
		if (!r->zombie)
			continue;
		if (!all_complete && r->tail &&
		    be->event_query(be->ctx, d->index, r->tail) != CM_OK)
			continue;
		r->zombie = false;
		atomic_fetch_sub(&d->zombies, 1);
		cm_nb_unlink(d, r);
		if (r->tail)
			cm_event_put(d, r->tail);
		r->tail = NULL;
		atomic_fetch_sub(&d->user_streams, 1);
		cm_stream_retire(d, r);
	}
}

/* Segments of a dead stream's pools go to cudaMalloc's pools, where any
 * later reuse is proven through their tags. */
static void cm_stream_orphan_segments(cm_device *d, cm_stream_rec *r)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		cm_segment *seg = d->segs[i];
		if (seg->pool != &r->small && seg->pool != &r->large)
			continue;
		cm_pool *to = seg->pool->small ? &d->none_small : &d->none_large;
		for (cm_block *b = seg->first; b; b = b->next)
			if (b->state == CM_BLOCK_FREE) {
				cm_tree_remove(&seg->pool->root, &b->node);
				cm_tree_insert(&to->root, &b->node);
			}
		seg->pool->segments--;
		seg->pool = to;
		to->segments++;
	}
}

/* The device was reset: every stream and event of it is gone. Records are
 * kept (tags and caches may still point at them) but dead; event handles
 * are dropped without being destroyed. */
void cm_stream_forget_all(cm_device *d)
{
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next) {
		r->alive = r->zombie = false;
		r->hash_next = r->nb_prev = r->nb_next = NULL;
		r->mark = r->fence_ev = r->tail = NULL;
		r->mark_seq = 0;
	}
	d->legacy.mark = d->legacy.fence_ev = NULL;
	d->legacy.mark_seq = 0;
	if (d->stream_table)
		memset(d->stream_table, 0, d->stream_table_cap * sizeof(*d->stream_table));
	d->nb_list = NULL;
	d->nb_count = 0;
	atomic_store(&d->user_streams, 0);
	atomic_store(&d->zombies, 0);
	atomic_fetch_add(&d->stream_gen, 1);
	d->fence_event = d->birth_event = NULL;
	d->fence_recorded = false;
	d->retired_streams = NULL; /* their records stay dead; not reused */
	d->collect.nevents = 0;
	d->collect.active = false;
	d->nevents_pooled = 0;
	cm_atomic_max(&d->completed_epoch, atomic_fetch_add(&d->epoch, 1));
}

/* A thread exited: its per-thread stream is ordered with legacy, so it
 * needs no zombie; its blocks' tags fall back to epochs. */
void cm_stream_thread_exit_locked(cm_device *d, cm_stream_rec *r)
{
	if (!r->alive)
		return; /* lost in a reset */
	r->alive = false;
	cm_stream_orphan_segments(d, r);
	cm_stream_retire(d, r);
}

cm_status cm_stream_created(cm_heap *h, int dev, cm_stream s, bool nonblocking)
{
	if (dev < 0 || dev >= h->ndev || s == CM_STREAM_LEGACY || s == CM_STREAM_PER_THREAD)
		return CM_ERR_INVALID;
	cm_device *d = &h->devs[dev];
	pthread_mutex_lock(&d->lock);
	cm_stream_reap(d, false);
	cm_stream_rec *old = cm_stream_table_find(d, s);
	if (old) { /* its destruction went unseen: be conservative */
		cm_stream_table_remove(d, old);
		old->alive = false;
		atomic_fetch_sub(&d->user_streams, 1);
		if (old->kind == CM_SK_NONBLOCKING)
			cm_nb_unlink(d, old);
		cm_stream_orphan_segments(d, old);
		atomic_fetch_add(&d->stream_gen, 1);
		cm_stream_retire(d, old);
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
	cm_stream_rec *r;
	pthread_mutex_lock(&d->lock);
	cm_status st = cm_stream_lookup(d, s, NULL, &r);
	pthread_mutex_unlock(&d->lock);
	return st;
}

/* The device whose table holds user stream s, or -1. */
static int cm_stream_device(cm_heap *h, cm_stream s)
{
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		pthread_mutex_lock(&d->lock);
		bool found = cm_stream_table_find(d, s) != NULL;
		pthread_mutex_unlock(&d->lock);
		if (found)
			return i;
	}
	return -1;
}

cm_status cm_stream_destroying(cm_heap *h, int dev, cm_stream s)
{
	if (dev < 0)
		dev = cm_stream_device(h, s);
	if (dev < 0 || dev >= h->ndev)
		return CM_OK; /* a stream the cache never saw */
	cm_device *d = &h->devs[dev];
	const cm_backend *be = h->be;
	pthread_mutex_lock(&d->lock);
	cm_stream_rec *r = cm_stream_table_find(d, s);
	if (r) {
		cm_stream_table_remove(d, r);
		r->alive = false;
		if (r->act) /* its tail covers its work from now on */
			cm_activity_take(d, r->act);
		r->act = NULL;
		atomic_fetch_add(&d->stream_gen, 1); /* invalidates cached blocks keyed by s */
		cm_stream_orphan_segments(d, r);
		if (cm_event_get(d, &r->tail) != CM_OK ||
		    be->event_record(be->ctx, dev, r->tail, s) != CM_OK) {
			/* No tail: wait for the stream now rather than guess. */
			if (r->tail)
				cm_event_put(d, r->tail);
			r->tail = NULL;
			be->stream_synchronize(be->ctx, dev, s);
			if (r->kind == CM_SK_NONBLOCKING)
				cm_nb_unlink(d, r);
			atomic_fetch_sub(&d->user_streams, 1);
			cm_stream_retire(d, r);
		} else {
			r->zombie = true;
			atomic_fetch_add(&d->zombies, 1);
			if (r->kind != CM_SK_NONBLOCKING)
				cm_nb_link(d, r);
		}
	}
	pthread_mutex_unlock(&d->lock);
	return CM_OK;
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
 * later work (activity.c). */
static bool cm_quiet(cm_device *d)
{
	cm_heap *h = d->heap;
	return h->sees_submissions && atomic_load(&d->quiet) &&
	       !atomic_load_explicit(&h->defaults.ran, memory_order_acquire) &&
	       !atomic_load_explicit(&d->zombies, memory_order_acquire);
}

/* The fast path's question (tcache.c), without the lock and without a
 * device call: may a cudaMalloc block this thread freed be handed to it
 * again now? The same rules as cm_reuse_need, those that need no call. */
bool cm_reuse_ready_unlocked(cm_device *d, const cm_tag *t)
{
	switch (d->free_fence) {
	case CM_FENCE_NONE: return true;
	case CM_FENCE_HOST: return cm_tag_complete(d, t);
	default:
		return atomic_load_explicit(&d->user_streams, memory_order_acquire) == 0 || /* rule 4 */
		       t->epoch <= atomic_load(&d->ordered_epoch) || cm_quiet(d) || cm_tag_complete(d, t);
	}
}

/* Whether cm_reuse_ready_unlocked can say yes on this device at all. */
bool cm_reuse_may_be_ready_unlocked(cm_device *d)
{
	return d->free_fence == CM_FENCE_NONE ||
	       (d->free_fence == CM_FENCE_GPU &&
		(d->heap->sees_submissions ||
		 atomic_load_explicit(&d->user_streams, memory_order_relaxed) == 0));
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

static bool cm_stream_capturing(cm_device *d, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	bool capturing = false;
	cm_status st = be->stream_is_capturing(be->ctx, d->index, s, &capturing);
	return st != CM_OK || capturing; /* in doubt, enqueue nothing */
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

static cm_status cm_ensure_event(cm_device *d, cm_event *ev)
{
	return *ev ? CM_OK : cm_event_get(d, ev);
}

/* A new non-blocking stream is ordered after everything enqueued so far:
 * blocks reused under rule 4 (no fence) or under an earlier fence stay
 * ordered for the work it will run. An event on the legacy stream covers
 * the legacy, blocking and per-thread streams; the last fence covers the
 * others. */
static void cm_stream_order_new(cm_device *d, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	if (!cm_stream_capturing(d, CM_STREAM_LEGACY) &&
	    cm_ensure_event(d, &d->birth_event) == CM_OK &&
	    be->event_record(be->ctx, d->index, d->birth_event, CM_STREAM_LEGACY) == CM_OK)
		be->stream_wait_event(be->ctx, d->index, s, d->birth_event);
	if (d->fence_recorded)
		be->stream_wait_event(be->ctx, d->index, s, d->fence_event);
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
		if ((st = cm_ensure_event(d, &r->fence_ev)) != CM_OK)
			return st;
	}
	if ((st = cm_ensure_event(d, &d->fence_event)) != CM_OK)
		return st;
	uint64_t e = atomic_fetch_add(&d->epoch, 1);
	for (cm_stream_rec *r = d->nb_list; r; r = r->nb_next) {
		cm_event ev = r->zombie ? r->tail : r->fence_ev;
		if (!r->zombie && (st = be->event_record(be->ctx, dev, ev, r->handle)) != CM_OK)
			return st;
		if ((st = be->stream_wait_event(be->ctx, dev, CM_STREAM_LEGACY, ev)) != CM_OK)
			return st;
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

/* A stream whose record, query or wait failed: its earlier work is made
 * safe once, by a device synchronization, and the stream is forgotten
 * (docs/design.md, "Streams that fail"). */
static void cm_stream_failed(cm_device *d, cm_stream_rec *r)
{
	d->stats.stream_failures++;
	cm_device_sync_locked(d);
	if (!r->alive)
		return;
	cm_stream_table_remove(d, r);
	r->alive = false;
	r->act = NULL;
	atomic_fetch_sub(&d->user_streams, 1);
	atomic_fetch_add(&d->stream_gen, 1);
	if (r->kind == CM_SK_NONBLOCKING)
		cm_nb_unlink(d, r);
	cm_stream_orphan_segments(d, r);
	cm_stream_retire(d, r);
}

/* Covers a user stream that ran work: a non-blocking one through an event
 * the legacy stream waits for; a blocking one is ordered before the
 * legacy stream's next work by CUDA itself. False: not now (capturing). */
static bool cm_cover_stream(cm_device *d, cm_stream_rec *r)
{
	const cm_backend *be = d->heap->be;
	if (!cm_activity_take(d, r->act) || r->kind != CM_SK_NONBLOCKING)
		return true;
	if (cm_stream_capturing(d, r->handle)) {
		cm_activity_put_back(d, r->act);
		return false;
	}
	if (cm_ensure_event(d, &r->fence_ev) != CM_OK ||
	    be->event_record(be->ctx, d->index, r->fence_ev, r->handle) != CM_OK ||
	    be->stream_wait_event(be->ctx, d->index, CM_STREAM_LEGACY, r->fence_ev) != CM_OK)
		cm_stream_failed(d, r);
	return true;
}

/* Rule 3 by ordering, paid by the streams that ran (activity.c): every
 * stream that ran work since the last cover is covered, then an event on
 * the legacy stream is recorded that every non-blocking stream waits for
 * before its next work. Frees before the cover are then ordered before
 * any later work. */
static cm_status cm_cover(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	if (cm_stream_capturing(d, CM_STREAM_LEGACY) || cm_ensure_event(d, &d->fence_event) != CM_OK)
		return CM_ERR_CAPTURING;
	uint64_t e = atomic_fetch_add(&d->epoch, 1);
	atomic_store(&d->quiet, true); /* before the flags are read: activity.c */
	cm_defaults_take(d->heap);
	bool all = true;
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next)
		if (r->alive && r->act)
			all &= cm_cover_stream(d, r);
	bool waited = true;
	for (cm_stream_rec *r = d->nb_list; r; r = r->nb_next)
		if (r->zombie && r->tail)
			waited &= be->stream_wait_event(be->ctx, d->index, CM_STREAM_LEGACY, r->tail) == CM_OK;
	if (!waited)
		cm_device_sync_locked(d); /* reaps the zombies */
	if (be->event_record(be->ctx, d->index, d->fence_event, CM_STREAM_LEGACY) != CM_OK) {
		atomic_store(&d->quiet, false);
		atomic_store(&d->heap->defaults.ran, 1);
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

static cm_status cm_collect_add(cm_device *d, cm_event ev, bool owned)
{
	cm_collect *c = &d->collect;
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

static void cm_collect_end(cm_device *d)
{
	cm_collect *c = &d->collect;
	d->pending_fresh = 0;
	for (size_t i = 0; i < c->nevents; i++)
		if (c->owned[i])
			cm_event_put(d, c->events[i]);
	c->nevents = 0;
	c->active = false;
}

static cm_status cm_collect_record(cm_device *d, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	cm_event ev;
	cm_status st = cm_event_get(d, &ev);
	if (st != CM_OK)
		return st;
	if ((st = be->event_record(be->ctx, d->index, ev, s)) != CM_OK ||
	    (st = cm_collect_add(d, ev, true)) != CM_OK)
		cm_event_put(d, ev);
	return st;
}

/* Rule 3, completion: an event on legacy and on each busy non-blocking
 * stream; once all complete, every free before it is complete. Costs one
 * query per stream, so with many streams it is started at most once at a
 * time instead of a fence per reuse. */
static void cm_collect_start(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_collect *c = &d->collect;

	/* One at a time: the next starts once this one completed. A minimum
	 * interval of 1 ms between them was measured on an H200 to leave
	 * blocks pending so long that PyTorch's two-stream program reserved
	 * 5x more (docs/gpu.md). */
	if (c->active || cm_stream_capturing(d, CM_STREAM_LEGACY))
		return;
	c->active = true;
	c->epoch = atomic_fetch_add(&d->epoch, 1);
	bool ok = cm_collect_record(d, CM_STREAM_LEGACY) == CM_OK;
	for (cm_stream_rec *r = d->nb_list; ok && r; r = r->nb_next) {
		if (r->zombie)
			ok = cm_collect_add(d, r->tail, false) == CM_OK;
		else if (be->stream_query(be->ctx, d->index, r->handle) != CM_OK)
			ok = !cm_stream_capturing(d, r->handle) &&
			     cm_collect_record(d, r->handle) == CM_OK;
	}
	if (!ok)
		cm_collect_end(d);
	else
		d->stats.collects++;
}

/* Whether the collect in flight completed; asks the device at most once
 * per allocation. */
static bool cm_collect_poll(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_collect *c = &d->collect;

	if (!c->active || c->polled_at == d->stats.alloc_calls)
		return false;
	c->polled_at = d->stats.alloc_calls;
	for (size_t i = 0; i < c->nevents; i++)
		if (be->event_query(be->ctx, d->index, c->events[i]) != CM_OK)
			return false;
	cm_atomic_max(&d->completed_epoch, c->epoch);
	cm_collect_end(d);
	return true;
}

/* Memory taken while a collect is pending is bounded (CM_PENDING_BOUND):
 * past it the host waits for the collect, which proves every free before
 * it complete. True when it waited and the caller should search again. */
bool cm_pending_bound_wait(cm_device *d, size_t grow)
{
	const cm_backend *be = d->heap->be;
	cm_collect *c = &d->collect;
	if (!c->active)
		return false;
	if (d->pending_fresh + grow <= CM_PENDING_BOUND) {
		d->pending_fresh += grow;
		return false;
	}
	for (size_t i = 0; i < c->nevents; i++)
		if (be->event_synchronize(be->ctx, d->index, c->events[i]) != CM_OK)
			return cm_device_sync_locked(d) == CM_OK;
	d->stats.pending_waits++;
	cm_atomic_max(&d->completed_epoch, c->epoch);
	cm_collect_end(d);
	return true;
}

cm_status cm_device_sync_locked(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	uint64_t e = atomic_fetch_add(&d->epoch, 1);
	cm_status st = be->device_synchronize(be->ctx, d->index);
	if (st != CM_OK)
		return st;
	d->stats.host_syncs++;
	cm_atomic_max(&d->completed_epoch, e);
	if (d->collect.active && d->collect.epoch <= e)
		cm_collect_end(d);
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
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next) {
		cm_status st;
		if (r->zombie && r->tail)
			st = be->event_query(be->ctx, d->index, r->tail);
		else if (r->alive && (r->kind == CM_SK_BLOCKING || r->kind == CM_SK_NONBLOCKING))
			st = be->stream_query(be->ctx, d->index, r->handle);
		else
			continue;
		if (st != CM_OK)
			return false;
	}
	return true;
}

/* Makes free block b safe for rq's consumer, enqueueing what its tag needs.
 * CM_NOT_READY: not without waiting; the caller looks elsewhere. */
cm_status cm_reuse_prepare(cm_device *d, const cm_request *rq, cm_block *b)
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
	cm_stream_reap(d, false);
	if (d->heap->sees_submissions)
		return cm_cover(d) == CM_OK ? CM_OK : CM_NOT_READY;
	if (atomic_load(&d->user_streams) <= CM_FENCE_MAX_NB && cm_freed_here_on_default_streams(rq, t) &&
	    cm_user_streams_idle(d)) {
		d->stats.idle_proofs++;
		return CM_OK;
	}
	if (d->nb_count <= CM_FENCE_MAX_NB)
		return cm_fence(d) == CM_OK ? CM_OK : CM_NOT_READY;
	if (cm_collect_poll(d) && cm_tag_complete(d, t))
		return CM_OK;
	cm_collect_start(d);
	return CM_NOT_READY;
}

/* ---- synchronization hooks (rule 6) ---- */

cm_sync_token cm_sync_begin(cm_heap *h, int dev, cm_stream s)
{
	cm_sync_token tok = {0};
	if (dev < 0 && s != CM_SYNC_DEVICE && s != CM_STREAM_LEGACY && s != CM_STREAM_PER_THREAD)
		dev = cm_stream_device(h, s);
	tok.dev = dev;
	if (dev < 0 || dev >= h->ndev)
		return tok;
	cm_device *d = &h->devs[dev];
	if (s == CM_SYNC_DEVICE) {
		tok.mark = atomic_fetch_add(&d->epoch, 1);
		return tok;
	}
	cm_tcache *tc = cm_tc_get(h);
	cm_stream_rec *r = NULL;
	pthread_mutex_lock(&d->lock);
	cm_status st = cm_stream_lookup(d, s, tc, &r);
	pthread_mutex_unlock(&d->lock);
	if (st == CM_OK) {
		tok.rec = r;
		tok.mark = atomic_fetch_add(&r->free_seq, 1);
	}
	return tok;
}

void cm_sync_end(cm_heap *h, cm_sync_token tok, cm_status result)
{
	int dev = tok.dev;
	if (result != CM_OK || dev < 0 || dev >= h->ndev || !tok.mark)
		return;
	cm_device *d = &h->devs[dev];
	if (tok.rec) {
		cm_atomic_max(&((cm_stream_rec *)tok.rec)->completed_seq, tok.mark);
		return;
	}
	cm_atomic_max(&d->completed_epoch, tok.mark);
	cm_thread_flush(h);
	pthread_mutex_lock(&d->lock);
	if (d->collect.active && d->collect.epoch <= tok.mark)
		cm_collect_end(d);
	cm_stream_reap(d, false);
	cm_release_trim_locked(d);
	pthread_mutex_unlock(&d->lock);
}
