/* sim/sim_stream.c - stream records, handles and lifetimes.
 *
 * Owns: each device's legacy stream (created with the device), the
 * per-thread default streams (one per thread and device, created the first
 * time that thread names CM_STREAM_PER_THREAD there), the user streams and
 * their handle table, and the joining of worker threads.
 *
 * Invariants: a stream record is freed only by sim_destroy (see
 * sim_internal.h). A user stream's handle is (index + 1) << 4 into the
 * table; indexes are never reused, so a destroyed handle stays invalid
 * forever and no handle is ever 0, 1 or 2. Destroying a stream only marks
 * it: its worker drains the queue and exits, and is joined later, by the
 * next sim_stream_create on that device or by sim_destroy.
 * A thread is identified by a process-wide counter kept in thread-local
 * storage (thread ids and pthread_t values are reused; these are not), and
 * a small thread-local cache maps (sim, device) to its per-thread stream.
 */
#include "sim_internal.h"

#include <stdlib.h>

#define SIM_PT_CACHE 8

static atomic_uint_fast64_t sim_thread_counter;
static _Thread_local uint64_t sim_thread_id;
static _Thread_local struct sim_pt_cache {
	uint64_t sim_id; /* 0: empty; sim ids start at 1 */
	int dev;
	sim_stream *st;
} sim_pt_cache[SIM_PT_CACHE];

static uint64_t sim_thread_self(void)
{
	if (!sim_thread_id)
		sim_thread_id = atomic_fetch_add(&sim_thread_counter, 1) + 1;
	return sim_thread_id;
}

static sim_stream *sim_stream_alloc(sim_dev *d, sim_stream_kind kind)
{
	sim_stream *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	if (pthread_mutex_init(&st->lock, NULL) != 0)
		goto fail_lock;
	if (pthread_cond_init(&st->work, NULL) != 0)
		goto fail_work;
	if (pthread_cond_init(&st->done, NULL) != 0)
		goto fail_done;
	st->dev = d;
	st->kind = kind;
	return st;
fail_done:
	pthread_cond_destroy(&st->work);
fail_work:
	pthread_mutex_destroy(&st->lock);
fail_lock:
	free(st);
	return NULL;
}

static void sim_stream_free(sim_stream *st)
{
	pthread_cond_destroy(&st->done);
	pthread_cond_destroy(&st->work);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/* Under order_lock. */
static void sim_stream_link(sim_dev *d, sim_stream *st)
{
	st->all_next = atomic_load_explicit(&d->all, memory_order_relaxed);
	atomic_store_explicit(&d->all, st, memory_order_release);
	if (st->kind == SIM_KIND_BLOCKING || st->kind == SIM_KIND_PER_THREAD) {
		st->blk_next = d->blocking;
		d->blocking = st;
	}
	if (st->kind == SIM_KIND_PER_THREAD) {
		st->pt_next = d->per_thread;
		d->per_thread = st;
	}
}

bool sim_streams_init(sim_dev *d)
{
	if (pthread_mutex_init(&d->order_lock, NULL) != 0)
		return false;
	d->legacy = sim_stream_alloc(d, SIM_KIND_LEGACY);
	if (!d->legacy) {
		pthread_mutex_destroy(&d->order_lock);
		return false;
	}
	d->legacy->handle = CM_STREAM_LEGACY;
	sim_stream_link(d, d->legacy);
	d->streams_ready = true;
	return true;
}

void sim_streams_stop(sim_dev *d)
{
	if (!d->streams_ready)
		return;
	for (sim_stream *st = atomic_load(&d->all); st; st = st->all_next) {
		pthread_mutex_lock(&st->lock);
		st->stopping = true;
		pthread_cond_broadcast(&st->work);
		pthread_mutex_unlock(&st->lock);
	}
}

/* After sim_streams_stop on every device: workers drain and exit. */
void sim_streams_fini(sim_dev *d)
{
	sim_stream *st, *next;

	if (!d->streams_ready)
		return;
	for (st = atomic_load(&d->all); st; st = st->all_next)
		if (st->started && !st->joined)
			pthread_join(st->thread, NULL);
	for (st = atomic_load(&d->all); st; st = next) {
		next = st->all_next;
		sim_stream_free(st);
	}
	pthread_mutex_destroy(&d->order_lock);
	d->streams_ready = false;
}

/* Joins the workers of destroyed streams that have finished. Under
 * order_lock; the records stay (see the top of this file). */
static void sim_streams_reap(sim_dev *d)
{
	sim_stream **pp = &d->zombies, *st;
	while ((st = *pp)) {
		pthread_mutex_lock(&st->lock);
		bool finished = !st->started || st->exited;
		pthread_mutex_unlock(&st->lock);
		if (!finished) {
			pp = &st->zomb_next;
			continue;
		}
		if (st->started) {
			pthread_join(st->thread, NULL);
			st->joined = true;
		}
		*pp = st->zomb_next;
	}
}

static cm_status sim_per_thread(sim_dev *d, sim_stream **out)
{
	struct sim_pt_cache *c = &sim_pt_cache[d->index % SIM_PT_CACHE];
	uint64_t me;
	sim_stream *st;

	if (c->sim_id == d->s->id && c->dev == d->index) {
		*out = c->st;
		return CM_OK;
	}
	me = sim_thread_self();
	pthread_mutex_lock(&d->order_lock);
	for (st = d->per_thread; st && st->owner != me; st = st->pt_next)
		;
	if (!st && (st = sim_stream_alloc(d, SIM_KIND_PER_THREAD))) {
		st->owner = me;
		st->handle = CM_STREAM_PER_THREAD;
		sim_stream_link(d, st);
	}
	pthread_mutex_unlock(&d->order_lock);
	if (!st)
		return CM_ERR_BACKEND;
	*c = (struct sim_pt_cache){ d->s->id, d->index, st };
	*out = st;
	return CM_OK;
}

static bool sim_handle_index(cm_stream h, size_t *idx)
{
	if (h < 16 || (h & 15))
		return false;
	*idx = (h >> 4) - 1;
	return true;
}

static bool sim_tab_add(sim *s, sim_stream *st)
{
	bool ok = true;
	pthread_mutex_lock(&s->tab_lock);
	if (s->tab_len == s->tab_cap) {
		size_t cap = s->tab_cap ? 2 * s->tab_cap : 16;
		sim_stream **tab = realloc(s->tab, cap * sizeof(*tab));
		if (tab) {
			s->tab = tab;
			s->tab_cap = cap;
		} else {
			ok = false;
		}
	}
	if (ok) {
		s->tab[s->tab_len++] = st;
		st->handle = (cm_stream)s->tab_len << 4;
	}
	pthread_mutex_unlock(&s->tab_lock);
	return ok;
}

/* The live user stream behind h on device d; with take, also removes it
 * from the table (sim_stream_destroy). */
static sim_stream *sim_tab_get(sim *s, sim_dev *d, cm_stream h, bool take)
{
	sim_stream *st = NULL;
	size_t i;

	if (!sim_handle_index(h, &i))
		return NULL;
	pthread_mutex_lock(&s->tab_lock);
	if (i < s->tab_len && s->tab[i] && s->tab[i]->dev == d) {
		st = s->tab[i];
		if (take)
			s->tab[i] = NULL;
	}
	pthread_mutex_unlock(&s->tab_lock);
	return st;
}

static bool sim_is_default(cm_stream h)
{
	/* 1 is cudaStreamLegacy, CUDA's explicit name for the legacy stream. */
	return h == CM_STREAM_LEGACY || h == 1 || h == CM_STREAM_PER_THREAD;
}

cm_status sim_stream_get(sim *s, int dev, cm_stream h, sim_stream **out)
{
	sim_dev *d = sim_dev_at(s, dev);

	if (!d)
		return CM_ERR_INVALID;
	if (h == CM_STREAM_PER_THREAD)
		return sim_per_thread(d, out);
	if (sim_is_default(h)) {
		*out = d->legacy;
		return CM_OK;
	}
	*out = sim_tab_get(s, d, h, false);
	return *out ? CM_OK : CM_ERR_INVALID;
}

cm_stream sim_stream_create(sim *s, int dev, bool nonblocking)
{
	sim_dev *d = sim_dev_at(s, dev);
	sim_stream *st;

	if (!d)
		return SIM_STREAM_INVALID;
	st = sim_stream_alloc(d, nonblocking ? SIM_KIND_NONBLOCKING : SIM_KIND_BLOCKING);
	if (!st)
		return SIM_STREAM_INVALID;
	if (!sim_tab_add(s, st)) {
		sim_stream_free(st);
		return SIM_STREAM_INVALID;
	}
	pthread_mutex_lock(&d->order_lock);
	sim_streams_reap(d);
	sim_stream_link(d, st);
	pthread_mutex_unlock(&d->order_lock);
	return st->handle;
}

cm_status sim_stream_destroy(sim *s, int dev, cm_stream h)
{
	sim_dev *d = sim_dev_at(s, dev);
	sim_stream *st;

	if (!d || sim_is_default(h))
		return CM_ERR_INVALID;
	st = sim_tab_get(s, d, h, true);
	if (!st)
		return CM_ERR_INVALID;
	pthread_mutex_lock(&st->lock);
	atomic_store(&st->destroyed, true);
	pthread_cond_signal(&st->work);
	pthread_mutex_unlock(&st->lock);

	pthread_mutex_lock(&d->order_lock);
	st->zomb_next = d->zombies;
	d->zombies = st;
	pthread_mutex_unlock(&d->order_lock);
	return CM_OK;
}

cm_status sim_set_capturing(sim *s, int dev, cm_stream h, bool capturing)
{
	sim_stream *st;
	cm_status r = sim_stream_get(s, dev, h, &st);
	if (r == CM_OK)
		atomic_store(&st->capturing, capturing);
	return r;
}

cm_status sim_stream_capturing(sim *s, int dev, cm_stream h, bool *out)
{
	sim_stream *st;
	cm_status r;

	if (!out)
		return CM_ERR_INVALID;
	r = sim_stream_get(s, dev, h, &st);
	if (r == CM_OK)
		*out = atomic_load(&st->capturing);
	return r;
}
