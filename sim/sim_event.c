/* sim/sim_event.c - events: creation, record, query, synchronize, and
 * stream waits on them.
 *
 * An event is a slot in the sim's table; its handle encodes the slot index
 * and a generation that is bumped on destroy, so a stale or made-up handle
 * is refused instead of followed. Recording enqueues a marker on the stream
 * (a normal op, so the legacy stream's implicit ordering applies) and
 * captures (stream, sequence); the event is complete when that stream's
 * completed counter reaches the sequence. The marker does not point back
 * to the event, so destroying or re-recording an event with a pending
 * marker is harmless. All slot fields are under ev_lock; no other lock is
 * taken while it is held.
 */
#include "sim_internal.h"

#include <stdlib.h>

_Static_assert(sizeof(uintptr_t) >= 8, "event handles pack 64 bits");

typedef struct sim_point {
	sim_stream *st; /* NULL: never recorded */
	uint64_t seq;
} sim_point;

static cm_event sim_event_handle(size_t idx, uint32_t gen)
{
	return (cm_event)(((uintptr_t)gen << 32) | (uintptr_t)(idx + 1));
}

/* The live slot behind ev, or NULL. Under ev_lock. dev < 0: any device. */
static sim_evslot *sim_event_slot(sim *s, cm_event ev, int dev)
{
	uintptr_t h = (uintptr_t)ev;
	size_t idx = (size_t)(h & 0xffffffffu);
	uint32_t gen = (uint32_t)(h >> 32);

	if (idx == 0 || idx > s->ev_len)
		return NULL;
	sim_evslot *e = &s->evs[idx - 1];
	if (!e->live || e->gen != gen || (dev >= 0 && e->dev != dev))
		return NULL;
	return e;
}

static bool sim_event_grow(sim *s)
{
	size_t cap = s->ev_cap ? 2 * s->ev_cap : 64;
	if (cap > 0xfffffffeu)
		return false;
	sim_evslot *v = realloc(s->evs, cap * sizeof(*v));
	if (!v)
		return false;
	s->evs = v;
	s->ev_cap = cap;
	return true;
}

cm_status sim_event_create(sim *s, int dev, cm_event *out)
{
	size_t idx;
	cm_status r = CM_OK;

	if (!sim_dev_at(s, dev) || !out)
		return CM_ERR_INVALID;
	pthread_mutex_lock(&s->ev_lock);
	if (s->ev_free) {
		idx = s->ev_free - 1;
		s->ev_free = s->evs[idx].next_free;
	} else if (s->ev_len < s->ev_cap || sim_event_grow(s)) {
		idx = s->ev_len++;
		s->evs[idx].gen = 1;
	} else {
		r = CM_ERR_OOM;
	}
	if (r == CM_OK) {
		sim_evslot *e = &s->evs[idx];
		*e = (sim_evslot){ .gen = e->gen, .live = true, .dev = dev };
		*out = sim_event_handle(idx, e->gen);
	}
	pthread_mutex_unlock(&s->ev_lock);
	return r;
}

cm_status sim_event_destroy(sim *s, int dev, cm_event ev)
{
	sim_evslot *e;

	if (!sim_dev_at(s, dev))
		return CM_ERR_INVALID;
	pthread_mutex_lock(&s->ev_lock);
	e = sim_event_slot(s, ev, dev);
	if (e) {
		e->live = false;
		e->gen++;
		e->st = NULL;
		e->next_free = s->ev_free;
		s->ev_free = (size_t)(e - s->evs) + 1;
	}
	pthread_mutex_unlock(&s->ev_lock);
	return e ? CM_OK : CM_ERR_INVALID;
}

/* Copies ev's captured point; false if ev is not a live event. */
static bool sim_event_point(sim *s, cm_event ev, int dev, sim_point *p)
{
	sim_evslot *e;
	pthread_mutex_lock(&s->ev_lock);
	e = sim_event_slot(s, ev, dev);
	if (e)
		*p = (sim_point){ e->st, e->seq };
	pthread_mutex_unlock(&s->ev_lock);
	return e != NULL;
}

cm_status sim_event_record(sim *s, int dev, cm_event ev, cm_stream h)
{
	sim_stream *st;
	sim_point p;
	uint64_t seq;
	cm_status r = sim_stream_get(s, dev, h, &st);

	if (r != CM_OK)
		return r;
	if (!sim_event_point(s, ev, dev, &p))
		return CM_ERR_INVALID;
	if (atomic_load(&st->capturing))
		return CM_ERR_CAPTURING;
	sim_op marker = { .kind = SIM_OP_MARKER };
	r = sim_submit(st, &marker, NULL, &seq);
	if (r != CM_OK)
		return r;
	pthread_mutex_lock(&s->ev_lock);
	sim_evslot *e = sim_event_slot(s, ev, dev);
	if (e) { /* else destroyed meanwhile: the marker just runs */
		e->st = st;
		e->seq = seq;
	}
	pthread_mutex_unlock(&s->ev_lock);
	return CM_OK;
}

cm_status sim_event_query(sim *s, int dev, cm_event ev)
{
	sim_point p;
	if (!sim_dev_at(s, dev) || !sim_event_point(s, ev, dev, &p))
		return CM_ERR_INVALID;
	return !p.st || sim_stream_reached(p.st, p.seq) ? CM_OK : CM_NOT_READY;
}

cm_status sim_event_sync(sim *s, int dev, cm_event ev)
{
	sim_point p;
	if (!sim_dev_at(s, dev) || !sim_event_point(s, ev, dev, &p))
		return CM_ERR_INVALID;
	if (p.st)
		sim_stream_wait_seq(p.st, p.seq);
	return CM_OK;
}

cm_status sim_stream_wait_event(sim *s, int dev, cm_stream h, cm_event ev)
{
	sim_stream *st;
	sim_point p;
	cm_status r = sim_stream_get(s, dev, h, &st);

	if (r != CM_OK)
		return r;
	/* The event may belong to another device, as CUDA allows. */
	if (!sim_event_point(s, ev, -1, &p))
		return CM_ERR_INVALID;
	if (atomic_load(&st->capturing))
		return CM_ERR_CAPTURING;
	if (!p.st)
		return CM_OK; /* never recorded: nothing to wait for */
	sim_op wait = { .kind = SIM_OP_WAIT };
	sim_dep dep = { p.st, p.seq };
	return sim_submit(st, &wait, &dep, NULL);
}

void sim_events_fini(sim *s)
{
	free(s->evs);
	s->evs = NULL;
	s->ev_len = s->ev_cap = s->ev_free = 0;
}
