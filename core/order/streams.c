/* core/order/streams.c - stream records (docs/design.md, "The nouns").
 *
 * Owns, per device: the records of the streams the cache met (the legacy
 * stream's, one per thread for its per-thread stream, one per user stream
 * handle), the table that finds a user stream's record by handle (the
 * truth; the heap's directory, directory.c, is a lock-free index of it),
 * the list of non-blocking and zombie streams, the list of the records
 * user_streams counts, the zombies by age, the retired records kept for
 * reuse, and the event pool. A record holds all of its stream's
 * state, the submission flags included. A record's life starts in
 * cm_stream_add or cm_stream_per_thread and ends in cm_stream_end, the
 * one place. What a freed block needs before reuse is decided in fence.c,
 * and what the hooks say about streams is told through submit.c (the
 * serve wing); both call down to this file, which calls directory.c,
 * fence.c (a new non-blocking stream it cannot order synchronizes the
 * device) and the backend. A dead stream's segments are handed over by
 * the memory wing (cm_pool_stream_end) before it ends the record.
 *
 * Invariants:
 * - records are never freed before the device: tags and per-thread caches
 *   may point at them; a reused record has its generation bumped, so tags
 *   of its earlier life no longer match it;
 * - a destroyed stream whose tail event may be pending stays a zombie,
 *   counted in user_streams and on the non-blocking list, until the tail
 *   completes (cm_stream_reap);
 * - user_list holds exactly the records user_streams counts (live user
 *   streams and zombies), the zombie list exactly the zombies: creation,
 *   destruction and reaping cost what they touch, not what is alive;
 * - a new non-blocking stream is ordered after everything enqueued before
 *   it (cm_stream_order_new, rule 5);
 * - tc_gen moves on whenever a handle's record dies, so per-thread
 *   cache bins keyed by the handle are dropped.
 * - a record is in the directory (dir_handle set) exactly while it is a
 *   live user stream of a heap that sees submissions.
 * All functions run under the device lock.
 * Wing: order. Calls in its own wing directory.c; the record wing.
 */
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "../record/list.h"

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
		r->dev = d; /* for good: read without the lock */
		r->all_next = d->all_streams;
		d->all_streams = r;
	}
	cm_stream_rec_init(d, r, handle, kind);
	return r;
}

static bool cm_stream_is_user(const cm_stream_rec *r)
{
	return r->kind == CM_SK_BLOCKING || r->kind == CM_SK_NONBLOCKING;
}

static void cm_nb_unlink(cm_device *d, cm_stream_rec *r);

static void cm_user_link(cm_device *d, cm_stream_rec *r)
{
	CM_LIST_PUSH(d->user_list, r, user_prev, user_next);
	atomic_fetch_add(&d->user_streams, 1);
}

static void cm_user_unlink(cm_device *d, cm_stream_rec *r)
{
	CM_LIST_REMOVE(d->user_list, r, user_prev, user_next);
	atomic_fetch_sub(&d->user_streams, 1);
}

/* The zombies by age: new ones join at the newest end. */
static void cm_zombie_link(cm_device *d, cm_stream_rec *r)
{
	CM_LIST_APPEND(d->zombie_oldest, d->zombie_newest, r, zombie_older, zombie_newer);
}

static void cm_zombie_unlink(cm_device *d, cm_stream_rec *r)
{
	CM_LIST_REMOVE_ENDS(d->zombie_oldest, d->zombie_newest, r, zombie_older, zombie_newer);
}

/* A dead stream whose work is complete or waited for and whose pools
 * were emptied: no longer counted, its record can serve a new stream. */
static void cm_stream_retire(cm_device *d, cm_stream_rec *r)
{
	cm_assert(!r->alive && !r->small.segments && !r->large.segments);
	if (cm_stream_is_user(r)) {
		if (r->kind == CM_SK_NONBLOCKING || r->zombie)
			cm_nb_unlink(d, r);
		cm_user_unlink(d, r);
	}
	if (r->zombie) {
		cm_zombie_unlink(d, r);
		r->zombie = false;
		atomic_fetch_sub(&d->zombies, 1);
	}
	r->retired_next = d->retired_streams;
	d->retired_streams = r;
}


cm_status cm_stream_init_device(cm_device *d)
{
	d->none_small = (cm_pool){.dev = d, .small = true};
	d->none_large = (cm_pool){.dev = d, .small = false};
	d->legacy.dev = d;
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

/* The live user stream record of handle s, or NULL. */
cm_stream_rec *cm_stream_find(cm_device *d, cm_stream s)
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
	CM_LIST_PUSH(d->nb_list, r, nb_prev, nb_next);
	d->nb_count++;
}

static void cm_nb_unlink(cm_device *d, cm_stream_rec *r)
{
	CM_LIST_REMOVE(d->nb_list, r, nb_prev, nb_next);
	d->nb_count--;
}

/* Rule 5: a new non-blocking stream is ordered after everything enqueued so far:
 * blocks reused under rule 4 (no fence) or under an earlier fence stay
 * ordered for the work it will run. An event on the legacy stream covers
 * the legacy, blocking and per-thread streams; the last fence covers the
 * others. False: the driver failed an event or a wait (not capture). */
static bool cm_stream_order_new(cm_device *d, cm_stream s)
{
	const cm_backend *be = d->heap->be;
	bool ok = true;
	if (!cm_stream_capturing(d, CM_STREAM_LEGACY))
		ok = cm_event_ensure(d, &d->birth_event) == CM_OK &&
		     be->event_record(be->ctx, d->index, d->birth_event, CM_STREAM_LEGACY) == CM_OK &&
		     be->stream_wait_event(be->ctx, d->index, s, d->birth_event) == CM_OK;
	if (d->fence_recorded)
		ok &= be->stream_wait_event(be->ctx, d->index, s, d->fence_event) == CM_OK;
	return ok;
}

/* A device synchronization: everything queued before it is complete
 * (completed_epoch); its mark goes to *mark. The callers reap the zombies
 * (which a collect holding their tails defers) and fence.c's
 * cm_device_sync_locked first ends the collects before the mark; one left
 * active ends at its next poll (its events completed). */
cm_status cm_stream_sync_device_at(cm_device *d, uint64_t *mark)
{
	const cm_backend *be = d->heap->be;
	uint64_t e = atomic_fetch_add(&d->epoch, 1);
	cm_status st = be->device_synchronize(be->ctx, d->index);
	if (st != CM_OK)
		return st;
	d->stats.host_syncs++;
	cm_atomic_max(&d->completed_epoch, e);
	*mark = e;
	return CM_OK;
}

static cm_status cm_stream_sync_device(cm_device *d)
{
	uint64_t mark;
	cm_status st = cm_stream_sync_device_at(d, &mark);
	if (st == CM_OK)
		cm_stream_reap(d, true);
	return st;
}

/* A user stream: created through cm_stream_created, or met for the first
 * time in an allocation (created before we could see it: assumed
 * non-blocking, the conservative choice). */
cm_stream_rec *cm_stream_add(cm_device *d, cm_stream s, bool nonblocking, bool ran)
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
	cm_user_link(d, r);
	atomic_store(&r->nonblocking, nonblocking);
	atomic_store(&r->ordered_gen, atomic_load(&d->order_gen));
	atomic_store(&r->ran, 0);
	if (d->heap->sees_submissions) {
		atomic_store_explicit(&r->dir_handle, s, memory_order_release);
		cm_dir_insert(&d->heap->dir, s, r); /* no room: found through the table */
		if (ran)
			cm_stream_mark_ran(r);
	}
	if (nonblocking) {
		cm_nb_link(d, r);
		/* Not ordered: a device synchronization makes everything before
		 * complete; failing that, its first work waits on the last
		 * cover's event (submit.c's lazy wait, tried until it holds). */
		if (!cm_stream_order_new(d, s) && cm_stream_sync_device(d) != CM_OK) {
			d->stats.stream_failures++;
			atomic_store(&r->ordered_gen, 0);
		}
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
	if ((*out = cm_stream_find(d, s)))
		return CM_OK;
	return cm_stream_adopt(d, s, out);
}

/* Zombies whose tail event completed are forgotten, the oldest first. A
 * pending one goes to the newest end and a call stops after
 * CM_REAP_PENDING of them, so it costs O(reaped + CM_REAP_PENDING) however
 * many streams are alive or dead. A completed zombie left for a later
 * call only counts meanwhile as a stream that may be busy; with that many
 * pending, the quiet flag and rule 4 say no anyway. all_complete: every
 * tail is known complete (a device synchronization), all go. */
void cm_stream_reap(cm_device *d, bool all_complete)
{
	const cm_backend *be = d->heap->be;
	if ((d->collect.active && d->collect.holds_tails) ||
	    (d->collect_next.active && d->collect_next.holds_tails))
		return; /* a collect holds their tails */
	d->visits.reaps++;
	unsigned pending = 0;
	for (uint32_t n = atomic_load(&d->zombies); n && pending < CM_REAP_PENDING; n--) {
		cm_stream_rec *r = d->zombie_oldest;
		d->visits.reap++;
		/* Without a tail (none could be recorded), only a device
		 * synchronization proves its work complete. */
		if (!all_complete &&
		    (!r->tail || be->event_query(be->ctx, d->index, r->tail) != CM_OK)) {
			cm_zombie_unlink(d, r);
			cm_zombie_link(d, r);
			pending++;
			continue;
		}
		if (r->tail)
			cm_event_put(d, r->tail);
		r->tail = NULL;
		cm_stream_retire(d, r);
	}
}

/* The per-thread caches read d->tc_gen (data, not a call up): a new value
 * drops the blocks they cached under the old one. */
void cm_tc_new_generation(cm_device *d)
{
	uint64_t gen = atomic_fetch_add_explicit(&d->heap->tc_gens, 1, memory_order_relaxed) + 1;
	atomic_store_explicit(&d->tc_gen, gen, memory_order_release);
}

/* ---- the ran list: the records whose ran flag may be set ----
 *
 * A cover visits these instead of every record. A flag set from 0 lists
 * its record (a lock-free push) unless it is listed already; a cover takes
 * the whole list and, for each record, clears `listed` before it takes the
 * flag. So a flag set after the take finds the record unlisted and lists
 * it again, and one set before is taken by this cover: no set flag is ever
 * off the list (all sequentially consistent). */

static void cm_stream_list_ran(cm_stream_rec *r)
{
	if (atomic_exchange(&r->listed, 1))
		return;
	cm_device *d = r->dev;
	cm_stream_rec *head = atomic_load(&d->ran_list);
	do
		r->ran_next = head;
	while (!atomic_compare_exchange_weak(&d->ran_list, &head, r));
}

/* The cover's take: the list, emptied. Walk it with
 * cm_stream_ran_list_next, which unlists each record before its flag is
 * taken. */
cm_stream_rec *cm_stream_take_ran_list(cm_device *d)
{
	return atomic_exchange(&d->ran_list, NULL);
}

cm_stream_rec *cm_stream_ran_list_next(cm_stream_rec *r)
{
	cm_stream_rec *next = r->ran_next; /* before a hook may list r again */
	atomic_store(&r->listed, 0);
	return next;
}

/* Work was queued on r since it was last covered (submit.c): the device
 * is no longer quiet (the Dekker pair of docs/design.md, "The quiet flag"). */
void cm_stream_mark_ran(cm_stream_rec *r)
{
	if (atomic_exchange(&r->ran, 1) != 0)
		return;
	cm_stream_list_ran(r);
	cm_device *d = r->dev;
	if (atomic_load(&d->quiet))
		atomic_store(&d->quiet, false);
}

/* A cover takes a stream's flag: true when work was queued since the last
 * cover. put_back undoes it when the cover could not cover the stream. */
bool cm_stream_take_ran(cm_stream_rec *r)
{
	return atomic_exchange(&r->ran, 0) != 0;
}

void cm_stream_put_back_ran(cm_stream_rec *r)
{
	atomic_store(&r->ran, 1);
	cm_stream_list_ran(r);
	atomic_store(&r->dev->quiet, false);
}

bool cm_defaults_take(cm_heap *h)
{
	return atomic_exchange(&h->defaults_ran, 0) != 0;
}

/* The tail of a destroyed stream: an event after all its work. */
static bool cm_stream_record_tail(cm_device *d, cm_stream_rec *r)
{
	const cm_backend *be = d->heap->be;
	if (cm_event_get(d, &r->tail) == CM_OK &&
	    be->event_record(be->ctx, d->index, r->tail, r->handle) == CM_OK)
		return true;
	if (r->tail)
		cm_event_put(d, r->tail);
	r->tail = NULL;
	return false;
}

/* The one place a record's life as a stream ends. Its handle no longer
 * finds it (the driver may give the handle to a new stream), blocks
 * cached for it are dropped (tc_gen); its pools hold no segment (the
 * memory wing's cm_pool_stream_end handed them over first). destroyed: the program destroys the stream, whose work may be
 * pending: it stays a zombie until its tail completes (without a tail it
 * is waited for now; when that fails too, it stays a zombie without a
 * tail, pending until a device synchronization). Otherwise its work is
 * known complete or ordered
 * (the caller synchronized, or it was a per-thread stream, ordered with
 * legacy) and the record retires at once. */
void cm_stream_end(cm_device *d, cm_stream_rec *r, bool destroyed)
{
	if (!r->alive)
		return; /* lost in a reset, or ended already */
	r->alive = false;
	if (cm_stream_is_user(r)) {
		cm_stream_table_remove(d, r);
		if (atomic_exchange(&r->dir_handle, 0))
			cm_dir_remove(&d->heap->dir, r->handle, r);
		atomic_store(&r->ran, 0); /* its tail (or the caller) covers its work */
		cm_tc_new_generation(d); /* drops cached blocks keyed by it */
	}
	const cm_backend *be = d->heap->be;
	if (destroyed && !cm_stream_record_tail(d, r) &&
	    be->stream_synchronize(be->ctx, d->index, r->handle) == CM_OK)
		destroyed = false; /* its work is complete */
	if (destroyed) {
		r->zombie = true;
		r->tail_ordered = false;
		cm_zombie_link(d, r);
		atomic_fetch_add(&d->zombies, 1);
		if (r->kind != CM_SK_NONBLOCKING)
			cm_nb_link(d, r);
		return;
	}
	cm_stream_retire(d, r);
}

/* The device was reset: every stream and event of it is gone. Records are
 * kept (tags and caches may still point at them) but dead; event handles
 * are dropped without being destroyed. fence.c forgets its own events. */
void cm_stream_forget_all(cm_device *d)
{
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next) {
		if (atomic_exchange(&r->dir_handle, 0))
			cm_dir_remove(&d->heap->dir, r->handle, r);
		r->alive = r->zombie = false;
		r->hash_next = r->nb_prev = r->nb_next = NULL;
		r->user_prev = r->user_next = r->zombie_older = r->zombie_newer = NULL;
		r->mark = r->fence_ev = r->tail = NULL;
		r->mark_seq = 0;
	}
	d->legacy.mark = d->legacy.fence_ev = NULL;
	d->legacy.mark_seq = 0;
	if (d->stream_table)
		memset(d->stream_table, 0, d->stream_table_cap * sizeof(*d->stream_table));
	d->nb_list = NULL;
	d->nb_count = 0;
	for (cm_stream_rec *r = cm_stream_take_ran_list(d); r;)
		r = cm_stream_ran_list_next(r);
	d->user_list = d->zombie_oldest = d->zombie_newest = NULL;
	atomic_store(&d->user_streams, 0);
	atomic_store(&d->zombies, 0);
	cm_tc_new_generation(d);
	d->birth_event = NULL;
	d->retired_streams = NULL; /* their records stay dead; not reused */
	d->nevents_pooled = 0;
}
