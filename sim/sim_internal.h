/* sim/sim_internal.h - the simulator's shared state, for the files of sim/.
 *
 * Ownership: a sim owns its devices, the stream handle table, the event
 * table, the VMM bookkeeping and the call log. A device owns its memory
 * region, its physical-memory file and every stream created on it.
 *
 * Invariants that the files rely on:
 * - A stream record lives until sim_destroy, even after sim_stream_destroy:
 *   events and cross-stream waits keep (stream, sequence) pairs, and
 *   device synchronization walks the device's stream list without a lock.
 * - A stream's "enqueued" and "completed" counters only grow; an op with
 *   sequence number n is done exactly when completed >= n.
 * - Every op on the legacy stream or on a blocking stream (user-created
 *   blocking, or per-thread) is enqueued under its device's order_lock, so
 *   those enqueues are totally ordered and implicit dependencies only ever
 *   point to earlier ops: no cycles, no deadlock.
 * Lock order: order_lock before a stream's lock; vmm_lock before mem_lock.
 * No other lock is held while taking one of these.
 */
#ifndef CM_SIM_INTERNAL_H
#define CM_SIM_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "sim.h"
#include "sim_range.h"
#include "sim_treap.h"

#define SIM_GRAN ((size_t)2 << 20) /* VMM granularity, large alignment */
#define SIM_QUANTUM ((size_t)512)  /* small allocation alignment */
#define SIM_LOG_CAP ((size_t)65536)
#define SIM_MAX_DEVICES 64

typedef struct sim_dev sim_dev;
typedef struct sim_stream sim_stream;
typedef struct sim_op sim_op;

typedef enum sim_stream_kind {
	SIM_KIND_LEGACY,
	SIM_KIND_PER_THREAD, /* blocking, one per (thread, device) */
	SIM_KIND_BLOCKING,
	SIM_KIND_NONBLOCKING,
} sim_stream_kind;

/* "Wait until st has completed seq". */
typedef struct sim_dep {
	sim_stream *st;
	uint64_t seq;
} sim_dep;

typedef enum sim_op_kind {
	SIM_OP_MARKER, /* event record: does nothing once its deps are met */
	SIM_OP_WAIT,   /* stream wait event: likewise */
	SIM_OP_MEMSET,
	SIM_OP_MEMCPY,
	SIM_OP_HOST,
	SIM_OP_GATE,
} sim_op_kind;

struct sim_gate {
	sim_stream *st;
	bool open; /* under st->lock */
};

struct sim_op {
	sim_op *next;
	sim_op_kind kind;
	size_t ndeps;
	sim_dep *deps; /* inline_deps or a heap array */
	sim_dep inline_deps[2];
	union {
		struct { uintptr_t dst; int value; size_t n; } set;
		struct { uintptr_t dst, src; size_t n; } copy;
		struct { void (*fn)(void *); void *arg; } host;
		sim_gate *gate;
	} u;
};

struct sim_stream {
	sim_dev *dev;
	cm_stream handle;
	sim_stream_kind kind;
	uint64_t owner; /* per-thread streams: the owning thread's id */

	pthread_mutex_t lock;
	pthread_cond_t work; /* to the worker: an op, an open gate, a stop */
	pthread_cond_t done; /* to waiters: completed advanced */
	sim_op *head, *tail; /* pending ops; head is the one running */
	_Atomic uint64_t enqueued, completed;
	pthread_t thread;
	bool started, exited, joined; /* worker state, under lock */
	bool stopping;                /* sim_destroy: open gates, drain, exit */
	atomic_bool destroyed;        /* set under lock, read anywhere */
	atomic_bool capturing;

	sim_stream *all_next;  /* immutable once published in dev->all */
	sim_stream *blk_next;  /* dev->blocking, under order_lock */
	sim_stream *pt_next;   /* dev->per_thread, under order_lock */
	sim_stream *zomb_next; /* dev->zombies, under order_lock */
};

struct sim_dev {
	struct sim *s;
	int index;
	size_t capacity;

	/* Plain memory and the capacity count (sim_mem.c). */
	pthread_mutex_t mem_lock;
	void *map;
	size_t map_len;
	int map_fd; /* the memfd behind map when shareable, else -1 */
	sim_range mem;
	size_t used; /* plain allocations + VMM physical, under mem_lock */
	bool mem_ready;

	/* Physical memory for the VMM (sim_vmm.c), under s->vmm_lock. */
	int memfd;
	sim_range phys;
	size_t vmm_bytes; /* physical memory not yet released (created, or destroyed but mapped) */

	/* Streams (sim_stream.c). */
	pthread_mutex_t order_lock;
	sim_stream *legacy;
	_Atomic(sim_stream *) all; /* every stream, newest first */
	sim_stream *blocking;      /* blocking and per-thread streams */
	sim_stream *per_thread;
	sim_stream *zombies;       /* destroyed, worker not yet joined */
	bool streams_ready;
};

typedef struct sim_evslot {
	uint32_t gen; /* bumped on destroy, so stale handles are refused */
	bool live;
	int dev;
	sim_stream *st; /* captured point; NULL: never recorded */
	uint64_t seq;
	size_t next_free; /* index + 1 of the next free slot, 0: none */
} sim_evslot;

struct sim {
	cm_backend be;
	uint64_t id; /* unique per instance, for thread-local caches */
	int ndev;
	sim_dev *devs;

	pthread_mutex_t tab_lock; /* user stream handles */
	sim_stream **tab;
	size_t tab_len, tab_cap;

	pthread_mutex_t ev_lock;
	sim_evslot *evs;
	size_t ev_len, ev_cap, ev_free;

	pthread_mutex_t vmm_lock;
	sim_treap resv;  /* reservations by va */
	sim_treap maps;  /* mappings by va */
	sim_treap phys;  /* live physical handles by id */
	uint64_t next_phys;
	struct sim_import *imports; /* another process's memory mapped here */

	pthread_mutex_t log_lock;
	sim_log_entry *ring;
	size_t log_start, log_count;
	_Atomic size_t calls[SIM_CALL_KINDS];
	_Atomic size_t fail_at[SIM_CALL_KINDS]; /* ordinal of the call to fail */
};

sim_dev *sim_dev_at(sim *s, int dev);

/* *v, a count other threads change under lock, read under it. */
static inline size_t sim_read_locked(pthread_mutex_t *lock, const size_t *v)
{
	pthread_mutex_lock(lock);
	size_t n = *v;
	pthread_mutex_unlock(lock);
	return n;
}

/* sim_mem.c */
bool sim_mem_init(sim_dev *d, bool shareable);
void sim_mem_fini(sim_dev *d);
cm_status sim_mem_alloc(sim *s, int dev, size_t size, uintptr_t *out);
cm_status sim_mem_free(sim *s, int dev, uintptr_t ptr);
cm_status sim_mem_get_info(sim *s, int dev, size_t *free_bytes, size_t *total);
bool sim_mem_charge(sim_dev *d, size_t n);
void sim_mem_uncharge(sim_dev *d, size_t n);
bool sim_mem_in_region(const sim_dev *d, uintptr_t p, size_t n);

/* sim_stream.c */
bool sim_streams_init(sim_dev *d);
void sim_streams_stop(sim_dev *d);
void sim_streams_fini(sim_dev *d);
cm_status sim_stream_get(sim *s, int dev, cm_stream h, sim_stream **out);
cm_status sim_submit(sim_stream *st, const sim_op *proto, const sim_dep *extra,
		     uint64_t *seq_out);
bool sim_stream_reached(sim_stream *st, uint64_t seq);
void sim_stream_wait_seq(sim_stream *st, uint64_t seq);
void sim_dev_sync(sim_dev *d);
cm_status sim_stream_query(sim *s, int dev, cm_stream h);
cm_status sim_stream_sync(sim *s, int dev, cm_stream h);
cm_status sim_stream_capturing(sim *s, int dev, cm_stream h, bool *out);
cm_status sim_device_sync(sim *s, int dev);

/* sim_event.c */
void sim_events_fini(sim *s);
cm_status sim_event_create(sim *s, int dev, cm_event *out);
cm_status sim_event_destroy(sim *s, int dev, cm_event ev);
cm_status sim_event_record(sim *s, int dev, cm_event ev, cm_stream h);
cm_status sim_event_query(sim *s, int dev, cm_event ev);
cm_status sim_event_sync(sim *s, int dev, cm_event ev);
cm_status sim_stream_wait_event(sim *s, int dev, cm_stream h, cm_event ev);

/* sim_work.c */
void sim_work_run_mem(sim *s, const sim_op *op); /* a MEMSET or MEMCPY op */

/* sim_vmm.c */
void sim_vmm_fini(sim *s);
bool sim_vmm_accessible_locked(sim *s, uintptr_t va, size_t n); /* vmm_lock held */
cm_status sim_vmm_granularity(sim *s, int dev, size_t *out);
cm_status sim_vmm_reserve(sim *s, int dev, size_t size, uintptr_t *va_out);
cm_status sim_vmm_release(sim *s, int dev, uintptr_t va, size_t size);
cm_status sim_vmm_create(sim *s, int dev, size_t size, cm_mem_handle *out);
cm_status sim_vmm_destroy(sim *s, int dev, cm_mem_handle h);
cm_status sim_vmm_map(sim *s, int dev, uintptr_t va, size_t size, cm_mem_handle h);
cm_status sim_vmm_unmap(sim *s, int dev, uintptr_t va, size_t size);
cm_status sim_vmm_set_access(sim *s, int dev, uintptr_t va, size_t size);

/* sim_log.c */
bool sim_log_init(sim *s);
void sim_log_fini(sim *s);
/* Counts the call; CM_OK to go on, else the injected failure (or
 * CM_ERR_INVALID for a NULL sim). */
cm_status sim_call_begin(sim *s, sim_call call);
void sim_log_add(sim *s, const sim_log_entry *e);

#endif
