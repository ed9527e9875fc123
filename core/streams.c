/* core/streams.c - stream records (docs/design.md, "The nouns").
 *
 * Owns, per device: the records of the streams the cache met (the legacy
 * stream's, one per thread for its per-thread stream, one per user stream
 * handle), the table that finds a user stream's record by handle, the
 * list of non-blocking and zombie streams, the retired records kept for
 * reuse, and the event pool. Creation, destruction and adoption of a
 * stream met first in an allocation happen here; what a freed block needs
 * before reuse is decided in fence.c, which calls down to this file and
 * never the other way.
 *
 * Invariants:
 * - records are never freed before the device: tags and per-thread caches
 *   may point at them; a reused record has its generation bumped, so tags
 *   of its earlier life no longer match it;
 * - a destroyed stream whose tail event may be pending stays a zombie,
 *   counted in user_streams and on the non-blocking list, until the tail
 *   completes (cm_stream_reap);
 * - a new non-blocking stream is ordered after everything enqueued before
 *   it (cm_stream_order_new, rule 5);
 * - stream_gen is bumped whenever a handle's record dies, so per-thread
 *   cache bins keyed by the handle are dropped.
 * All functions run under the device lock, except the cm_heap entry points
 * (cm_stream_created, _seen, _destroying), which take it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

/* The event in *ev, taken from the pool the first time. */
cm_status cm_event_ensure(cm_device *d, cm_event *ev)
{
	return *ev ? CM_OK : cm_event_get(d, ev);
}

/* Whether the device may not be given work on s now (capturing a graph,
 * or the query failed): in doubt, enqueue nothing. */
bool cm_stream_capturing(cm_device *d, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	bool capturing = false;
	cm_status st = be->stream_is_capturing(be->ctx, d->index, s, &capturing);
	return st != CM_OK || capturing;
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
	r->act = NULL; /* cm_stream_add attaches one for a user stream */
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

/* Rule 5: a new non-blocking stream is ordered after everything enqueued so far:
 * blocks reused under rule 4 (no fence) or under an earlier fence stay
 * ordered for the work it will run. An event on the legacy stream covers
 * the legacy, blocking and per-thread streams; the last fence covers the
 * others. */
static void cm_stream_order_new(cm_device *d, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	if (!cm_stream_capturing(d, CM_STREAM_LEGACY) &&
	    cm_event_ensure(d, &d->birth_event) == CM_OK &&
	    be->event_record(be->ctx, d->index, d->birth_event, CM_STREAM_LEGACY) == CM_OK)
		be->stream_wait_event(be->ctx, d->index, s, d->birth_event);
	if (d->fence_recorded)
		be->stream_wait_event(be->ctx, d->index, s, d->fence_event);
}

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

/* The calling thread's per-thread stream: its record lives in the slot
 * its per-thread cache keeps (NULL: it has none). */
static cm_status cm_stream_per_thread(cm_device *d, cm_stream_rec **slot, uint32_t thread,
				      cm_stream_rec **out)
{
	if (!slot)
		return CM_ERR_OOM;
	if (!*slot || !(*slot)->alive) { /* none yet, or lost in a reset */
		cm_stream_rec *r = cm_stream_rec_new(d, CM_STREAM_PER_THREAD, CM_SK_PER_THREAD);
		if (!r)
			return CM_ERR_OOM;
		r->owner_thread = thread;
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

/* The record of stream s; per_thread and thread: the calling thread's
 * slot for its per-thread stream's record (tcache.c) and its id. */
cm_status cm_stream_lookup(cm_device *d, cm_stream s, cm_stream_rec **per_thread, uint32_t thread,
			   cm_stream_rec **out)
{
	if (s == CM_STREAM_LEGACY) {
		*out = &d->legacy;
		return CM_OK;
	}
	if (s == CM_STREAM_PER_THREAD)
		return cm_stream_per_thread(d, per_thread, thread, out);
	if ((*out = cm_stream_table_find(d, s)))
		return CM_OK;
	return cm_stream_adopt(d, s, out);
}

/* Zombies whose tail event completed are forgotten. */
void cm_stream_reap(cm_device *d, bool all_complete)
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
/* The device was reset: every stream and event of it is gone. Records are
 * kept (tags and caches may still point at them) but dead; event handles
 * are dropped without being destroyed. fence.c forgets its own events. */
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
	d->birth_event = NULL;
	d->retired_streams = NULL; /* their records stay dead; not reused */
	d->nevents_pooled = 0;
}

/* A stream whose record, query or wait failed (fence.c synchronized the
 * device first): forgotten, its blocks' tags falling back to epochs. */
void cm_stream_forget(cm_device *d, cm_stream_rec *r)
{
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
	atomic_store_explicit(&d->in_use, true, memory_order_relaxed);
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
