/* sim/sim_queue.c - stream queues: submission, implicit ordering, the
 * worker thread of each stream, and waiting for completion.
 *
 * A stream is a FIFO of ops run in order by one worker thread, started the
 * first time an op must really wait in the queue. An op first waits for its
 * dependencies, each "stream X has completed sequence n", then runs; the
 * worker then bumps completed (release) and wakes waiters.
 *
 * The legacy default stream's implicit synchronization is computed at
 * submission, under the device's order_lock:
 * - an op on the legacy stream depends on (b, b.enqueued) for every blocking
 *   stream b of the device that still has work;
 * - an op on a blocking or per-thread stream depends on (legacy,
 *   legacy.enqueued);
 * - a non-blocking stream takes neither the lock nor such dependencies.
 * Because every such enqueue holds order_lock, dependencies point strictly
 * to earlier ops, so they cannot form a cycle.
 *
 * Markers and waits whose dependencies are already met on an idle stream
 * complete inline, with no op, no thread and no wake-up: that keeps
 * event_record on an idle stream to a few uncontended locks.
 */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sim_deps {
	sim_dep *v;
	size_t n, cap;
	bool failed; /* out of memory while growing */
	sim_dep buf[8];
} sim_deps;

static void sim_deps_init(sim_deps *d)
{
	d->v = d->buf;
	d->n = 0;
	d->cap = sizeof(d->buf) / sizeof(d->buf[0]);
	d->failed = false;
}

static void sim_deps_fini(sim_deps *d)
{
	if (d->v != d->buf)
		free(d->v);
}

static void sim_deps_push(sim_deps *d, sim_stream *st, uint64_t seq)
{
	if (d->n == d->cap) {
		sim_dep *v = malloc(2 * d->cap * sizeof(*v));
		if (!v) {
			d->failed = true;
			return;
		}
		memcpy(v, d->v, d->n * sizeof(*v));
		if (d->v != d->buf)
			free(d->v);
		d->v = v;
		d->cap *= 2;
	}
	d->v[d->n++] = (sim_dep){ st, seq };
}

bool sim_stream_reached(sim_stream *st, uint64_t seq)
{
	return atomic_load_explicit(&st->completed, memory_order_acquire) >= seq;
}

static void sim_deps_need(sim_deps *d, sim_stream *st, uint64_t seq)
{
	if (!sim_stream_reached(st, seq))
		sim_deps_push(d, st, seq);
}

/* Under order_lock. Also forgets destroyed blocking streams that have
 * drained: they can never be a dependency again. */
static void sim_deps_implicit(sim_dev *d, sim_stream *st, sim_deps *deps)
{
	if (st->kind != SIM_KIND_LEGACY) {
		sim_deps_need(deps, d->legacy, atomic_load(&d->legacy->enqueued));
		return;
	}
	sim_stream **pp = &d->blocking, *b;
	while ((b = *pp)) {
		bool gone = atomic_load(&b->destroyed);
		uint64_t e = atomic_load(&b->enqueued);
		if (!sim_stream_reached(b, e)) {
			sim_deps_push(deps, b, e);
		} else if (gone) {
			*pp = b->blk_next;
			continue;
		}
		pp = &b->blk_next;
	}
}

static sim_op *sim_op_new(const sim_op *proto, const sim_deps *deps)
{
	sim_op *op = malloc(sizeof(*op));
	if (!op)
		return NULL;
	*op = *proto;
	op->next = NULL;
	op->ndeps = deps->n;
	op->deps = op->inline_deps;
	if (deps->n > sizeof(op->inline_deps) / sizeof(op->inline_deps[0])) {
		op->deps = malloc(deps->n * sizeof(*op->deps));
		if (!op->deps) {
			free(op);
			return NULL;
		}
	}
	if (deps->n)
		memcpy(op->deps, deps->v, deps->n * sizeof(*op->deps));
	return op;
}

static void sim_op_free(sim_op *op)
{
	if (op->deps != op->inline_deps)
		free(op->deps);
	free(op);
}

void sim_stream_wait_seq(sim_stream *st, uint64_t seq)
{
	if (sim_stream_reached(st, seq))
		return;
	pthread_mutex_lock(&st->lock);
	while (atomic_load(&st->completed) < seq)
		pthread_cond_wait(&st->done, &st->lock);
	pthread_mutex_unlock(&st->lock);
}

static void sim_gate_pass(sim_stream *st, sim_gate *g)
{
	pthread_mutex_lock(&st->lock);
	while (!g->open && !st->stopping) /* sim_destroy opens every gate */
		pthread_cond_wait(&st->work, &st->lock);
	pthread_mutex_unlock(&st->lock);
	free(g); /* sim_gate_open no longer touches it once open is set */
}

static void sim_op_run(sim_stream *st, sim_op *op)
{
	for (size_t i = 0; i < op->ndeps; i++)
		sim_stream_wait_seq(op->deps[i].st, op->deps[i].seq);
	switch (op->kind) {
	case SIM_OP_MEMSET:
	case SIM_OP_MEMCPY:
		sim_work_run_mem(st->dev->s, op);
		break;
	case SIM_OP_HOST:
		op->u.host.fn(op->u.host.arg);
		break;
	case SIM_OP_GATE:
		sim_gate_pass(st, op->u.gate);
		break;
	case SIM_OP_MARKER:
	case SIM_OP_WAIT:
		break;
	}
}

static void *sim_worker(void *arg)
{
	sim_stream *st = arg;
	sim_op *op;

	pthread_mutex_lock(&st->lock);
	for (;;) {
		while (!st->head && !st->stopping && !atomic_load(&st->destroyed))
			pthread_cond_wait(&st->work, &st->lock);
		op = st->head;
		if (!op)
			break; /* destroyed or stopping, and drained */
		pthread_mutex_unlock(&st->lock);
		sim_op_run(st, op);
		pthread_mutex_lock(&st->lock);
		/* Freed before it leaves the queue and before waiters see it
		 * complete: a fork() after a synchronization leaves the child
		 * no op that only this (uncopied) thread held, which its leak
		 * checker would count lost. */
		sim_op *next = op->next;
		sim_op_free(op);
		st->head = next;
		if (!st->head)
			st->tail = NULL;
		atomic_store_explicit(&st->completed, atomic_load(&st->completed) + 1,
				      memory_order_release);
		pthread_cond_broadcast(&st->done);
	}
	st->exited = true;
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

/* Under st->lock. */
static cm_status sim_enqueue_op(sim_stream *st, const sim_op *proto,
				const sim_deps *deps, uint64_t *seq)
{
	sim_op *op = sim_op_new(proto, deps);
	if (!op)
		return CM_ERR_BACKEND;
	if (!st->started) {
		if (pthread_create(&st->thread, NULL, sim_worker, st) != 0) {
			sim_op_free(op);
			return CM_ERR_BACKEND;
		}
		st->started = true;
	}
	if (st->tail)
		st->tail->next = op;
	else
		st->head = op;
	st->tail = op;
	*seq = atomic_load(&st->enqueued) + 1;
	atomic_store(&st->enqueued, *seq);
	pthread_cond_signal(&st->work);
	return CM_OK;
}

static bool sim_op_is_noop(const sim_op *op)
{
	return op->kind == SIM_OP_MARKER || op->kind == SIM_OP_WAIT;
}

static cm_status sim_enqueue(sim_stream *st, const sim_op *proto,
			     const sim_deps *deps, uint64_t *seq_out)
{
	cm_status r = CM_OK;
	uint64_t seq = 0;

	pthread_mutex_lock(&st->lock);
	if (atomic_load(&st->destroyed) || st->stopping) {
		r = CM_ERR_INVALID;
	} else if (sim_op_is_noop(proto) && deps->n == 0 && !st->head) {
		seq = atomic_load(&st->enqueued) + 1;
		atomic_store(&st->enqueued, seq);
		atomic_store_explicit(&st->completed, seq, memory_order_release);
	} else {
		r = sim_enqueue_op(st, proto, deps, &seq);
	}
	pthread_mutex_unlock(&st->lock);
	if (r == CM_OK && seq_out)
		*seq_out = seq;
	return r;
}

cm_status sim_submit(sim_stream *st, const sim_op *proto, const sim_dep *extra,
		     uint64_t *seq_out)
{
	sim_dev *d = st->dev;
	bool ordered = st->kind != SIM_KIND_NONBLOCKING;
	sim_deps deps;
	cm_status r;

	sim_deps_init(&deps);
	if (extra)
		sim_deps_need(&deps, extra->st, extra->seq);
	if (ordered) {
		pthread_mutex_lock(&d->order_lock);
		sim_deps_implicit(d, st, &deps);
	}
	r = deps.failed ? CM_ERR_BACKEND : sim_enqueue(st, proto, &deps, seq_out);
	if (ordered)
		pthread_mutex_unlock(&d->order_lock);
	sim_deps_fini(&deps);
	return r;
}

void sim_dev_sync(sim_dev *d)
{
	/* The list is only ever prepended to and its links never change, so
	 * it can be walked without the lock; streams created meanwhile hold
	 * no work that was enqueued before this call. */
	for (sim_stream *st = atomic_load_explicit(&d->all, memory_order_acquire);
	     st; st = st->all_next)
		sim_stream_wait_seq(st, atomic_load(&st->enqueued));
}

cm_status sim_stream_query(sim *s, int dev, cm_stream h)
{
	sim_stream *st;
	cm_status r = sim_stream_get(s, dev, h, &st);
	if (r != CM_OK)
		return r;
	return sim_stream_reached(st, atomic_load(&st->enqueued)) ? CM_OK : CM_NOT_READY;
}

cm_status sim_stream_sync(sim *s, int dev, cm_stream h)
{
	sim_stream *st;
	cm_status r = sim_stream_get(s, dev, h, &st);
	if (r == CM_OK)
		sim_stream_wait_seq(st, atomic_load(&st->enqueued));
	return r;
}

cm_status sim_device_sync(sim *s, int dev)
{
	sim_dev *d = sim_dev_at(s, dev);
	if (!d)
		return CM_ERR_INVALID;
	sim_dev_sync(d);
	return CM_OK;
}
