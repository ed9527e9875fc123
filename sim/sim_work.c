/* sim/sim_work.c - work that tests put on streams: memset, memcpy, host
 * functions and gates.
 *
 * These are test helpers, not backend calls: they are neither logged nor
 * subject to failure injection. Memory they touch must be device memory
 * (inside some device's region, or a VMM range mapped with access granted)
 * at submission; anything else is refused, so a bad pointer fails the call
 * instead of crashing a worker thread. VMM memory is checked again when the
 * op runs (see sim_work_run_mem). A gate is freed by the worker that
 * passes it; sim_gate_open must be called exactly once.
 */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

/* Inside some device's region: mapped read-write until sim_destroy. */
static bool sim_work_in_region(sim *s, uintptr_t p, size_t n)
{
	for (int i = 0; i < s->ndev; i++)
		if (sim_mem_in_region(&s->devs[i], p, n))
			return true;
	return false;
}

static bool sim_work_mem_ok(sim *s, uintptr_t p, size_t n)
{
	return n == 0 || sim_work_in_region(s, p, n) || sim_vmm_accessible(s, p, n);
}

/* vmm_lock held. */
static bool sim_work_mem_ok_locked(sim *s, uintptr_t p, size_t n)
{
	return n == 0 || sim_work_in_region(s, p, n) || sim_vmm_accessible_locked(s, p, n);
}

static void sim_work_do_mem(const sim_op *op)
{
	if (op->kind == SIM_OP_MEMSET)
		memset((void *)op->u.set.dst, op->u.set.value, op->u.set.n);
	else
		memmove((void *)op->u.copy.dst, (const void *)op->u.copy.src, op->u.copy.n);
}

/* Runs on the worker. VMM memory may have been unmapped since submission
 * (a program bug, which a GPU reports as an illegal address): it is checked
 * again under vmm_lock, held across the access so that no unmap can
 * interleave, and the op is skipped rather than crash the process. */
void sim_work_run_mem(sim *s, const sim_op *op)
{
	bool set = op->kind == SIM_OP_MEMSET;
	uintptr_t dst = set ? op->u.set.dst : op->u.copy.dst;
	uintptr_t src = set ? 0 : op->u.copy.src;
	size_t n = set ? op->u.set.n : op->u.copy.n;

	if (n == 0)
		return;
	if (sim_work_in_region(s, dst, n) && (set || sim_work_in_region(s, src, n))) {
		sim_work_do_mem(op);
		return;
	}
	pthread_mutex_lock(&s->vmm_lock);
	if (sim_work_mem_ok_locked(s, dst, n) && (set || sim_work_mem_ok_locked(s, src, n)))
		sim_work_do_mem(op);
	pthread_mutex_unlock(&s->vmm_lock);
}

static cm_status sim_work_submit(sim *s, int dev, cm_stream h, const sim_op *op)
{
	sim_stream *st;
	cm_status r = sim_stream_get(s, dev, h, &st);
	return r == CM_OK ? sim_submit(st, op, NULL, NULL) : r;
}

cm_status sim_memset_async(sim *s, int dev, uintptr_t dst, int value, size_t n,
			   cm_stream h)
{
	sim_op op = { .kind = SIM_OP_MEMSET, .u.set = { dst, value, n } };
	if (!sim_dev_at(s, dev) || !sim_work_mem_ok(s, dst, n))
		return CM_ERR_INVALID;
	return sim_work_submit(s, dev, h, &op);
}

cm_status sim_memcpy_async(sim *s, int dev, uintptr_t dst, uintptr_t src,
			   size_t n, cm_stream h)
{
	sim_op op = { .kind = SIM_OP_MEMCPY, .u.copy = { dst, src, n } };
	if (!sim_dev_at(s, dev) || !sim_work_mem_ok(s, dst, n) ||
	    !sim_work_mem_ok(s, src, n))
		return CM_ERR_INVALID;
	return sim_work_submit(s, dev, h, &op);
}

cm_status sim_host_func(sim *s, int dev, cm_stream h, void (*fn)(void *), void *arg)
{
	sim_op op = { .kind = SIM_OP_HOST, .u.host = { fn, arg } };
	if (!fn)
		return CM_ERR_INVALID;
	return sim_work_submit(s, dev, h, &op);
}

sim_gate *sim_gate_enqueue(sim *s, int dev, cm_stream h)
{
	sim_stream *st;
	sim_gate *g;

	if (sim_stream_get(s, dev, h, &st) != CM_OK)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->st = st;
	sim_op op = { .kind = SIM_OP_GATE, .u.gate = g };
	if (sim_submit(st, &op, NULL, NULL) != CM_OK) {
		free(g);
		return NULL;
	}
	return g;
}

void sim_gate_open(sim_gate *g)
{
	if (!g)
		return;
	sim_stream *st = g->st; /* records outlive gates: see sim_internal.h */
	pthread_mutex_lock(&st->lock);
	g->open = true;
	pthread_cond_broadcast(&st->work);
	pthread_mutex_unlock(&st->lock);
}
