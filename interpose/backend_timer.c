/* interpose/backend_timer.c - a diagnostic build's timer on the driver
 * calls the core makes (meson option driver_call_timer, off by default).
 *
 * It wraps the backend ops table: each operation's calls, total time, the
 * calls of 5 us or more and their time, and the longest, printed on
 * stderr at exit, one line per operation that was called:
 *   "backend_timer event_query calls 5998 ns 12273378 slow 295 slow_ns 2010378 max_ns 25252"
 * A program bound by the host pays this time in its allocation calls
 * (docs/gpu-results.md: what a collect costs on an H200 under load). Two
 * clock reads per call fall inside the figures.
 */
#include "backend_timer.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define BT_SLOW_NS 5000

typedef struct bt_counter {
	const char *name;
	_Atomic uint64_t calls, ns, slow, slow_ns, max_ns;
} bt_counter;

enum { BT_MEM_ALLOC, BT_MEM_FREE, BT_EVENT_CREATE, BT_EVENT_DESTROY, BT_EVENT_RECORD,
       BT_EVENT_QUERY, BT_EVENT_SYNC, BT_STREAM_WAIT_EVENT, BT_STREAM_QUERY, BT_STREAM_SYNC,
       BT_STREAM_IS_CAPTURING, BT_STREAM_FLAGS, BT_DEVICE_SYNC, BT_N };

static bt_counter bt[BT_N] = {
	[BT_MEM_ALLOC] = {.name = "mem_alloc"},
	[BT_MEM_FREE] = {.name = "mem_free"},
	[BT_EVENT_CREATE] = {.name = "event_create"},
	[BT_EVENT_DESTROY] = {.name = "event_destroy"},
	[BT_EVENT_RECORD] = {.name = "event_record"},
	[BT_EVENT_QUERY] = {.name = "event_query"},
	[BT_EVENT_SYNC] = {.name = "event_synchronize"},
	[BT_STREAM_WAIT_EVENT] = {.name = "stream_wait_event"},
	[BT_STREAM_QUERY] = {.name = "stream_query"},
	[BT_STREAM_SYNC] = {.name = "stream_synchronize"},
	[BT_STREAM_IS_CAPTURING] = {.name = "stream_is_capturing"},
	[BT_STREAM_FLAGS] = {.name = "stream_flags"},
	[BT_DEVICE_SYNC] = {.name = "device_synchronize"},
};
static cm_backend bt_real;

static uint64_t bt_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static cm_status bt_add(int op, uint64_t t0, cm_status st)
{
	bt_counter *c = &bt[op];
	uint64_t ns = bt_now() - t0;
	atomic_fetch_add_explicit(&c->calls, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&c->ns, ns, memory_order_relaxed);
	if (ns >= BT_SLOW_NS) {
		atomic_fetch_add_explicit(&c->slow, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&c->slow_ns, ns, memory_order_relaxed);
	}
	uint64_t max = atomic_load_explicit(&c->max_ns, memory_order_relaxed);
	while (ns > max && !atomic_compare_exchange_weak(&c->max_ns, &max, ns))
		;
	return st;
}

/* One wrapper per operation: the real call between two clock reads. */
#define BT_WRAP(op, fn, params, args) \
	static cm_status bt_##fn params { uint64_t t0 = bt_now(); return bt_add(op, t0, bt_real.fn args); }

BT_WRAP(BT_MEM_ALLOC, mem_alloc, (void *c, int d, size_t n, uintptr_t *o), (c, d, n, o))
BT_WRAP(BT_MEM_FREE, mem_free, (void *c, int d, uintptr_t p), (c, d, p))
BT_WRAP(BT_EVENT_CREATE, event_create, (void *c, int d, cm_event *o), (c, d, o))
BT_WRAP(BT_EVENT_DESTROY, event_destroy, (void *c, int d, cm_event e), (c, d, e))
BT_WRAP(BT_EVENT_RECORD, event_record, (void *c, int d, cm_event e, cm_stream s), (c, d, e, s))
BT_WRAP(BT_EVENT_QUERY, event_query, (void *c, int d, cm_event e), (c, d, e))
BT_WRAP(BT_EVENT_SYNC, event_synchronize, (void *c, int d, cm_event e), (c, d, e))
BT_WRAP(BT_STREAM_WAIT_EVENT, stream_wait_event, (void *c, int d, cm_stream s, cm_event e), (c, d, s, e))
BT_WRAP(BT_STREAM_QUERY, stream_query, (void *c, int d, cm_stream s), (c, d, s))
BT_WRAP(BT_STREAM_SYNC, stream_synchronize, (void *c, int d, cm_stream s), (c, d, s))
BT_WRAP(BT_STREAM_IS_CAPTURING, stream_is_capturing, (void *c, int d, cm_stream s, bool *o), (c, d, s, o))
BT_WRAP(BT_STREAM_FLAGS, stream_flags, (void *c, int d, cm_stream s, bool *o), (c, d, s, o))
BT_WRAP(BT_DEVICE_SYNC, device_synchronize, (void *c, int d), (c, d))

void cm_backend_timer_report(FILE *out)
{
	for (int i = 0; i < BT_N; i++) {
		const bt_counter *c = &bt[i];
		if (c->calls)
			fprintf(out,
				"backend_timer %s calls %llu ns %llu slow %llu slow_ns %llu max_ns %llu\n",
				c->name, (unsigned long long)c->calls, (unsigned long long)c->ns,
				(unsigned long long)c->slow, (unsigned long long)c->slow_ns,
				(unsigned long long)c->max_ns);
	}
}

static void bt_report_at_exit(void)
{
	cm_backend_timer_report(stderr);
}

void cm_backend_timer_wrap(cm_backend *be)
{
	bt_real = *be;
	be->mem_alloc = bt_mem_alloc;
	be->mem_free = bt_mem_free;
	be->event_create = bt_event_create;
	be->event_destroy = bt_event_destroy;
	be->event_record = bt_event_record;
	be->event_query = bt_event_query;
	be->event_synchronize = bt_event_synchronize;
	be->stream_wait_event = bt_stream_wait_event;
	be->stream_query = bt_stream_query;
	be->stream_synchronize = bt_stream_synchronize;
	be->stream_is_capturing = bt_stream_is_capturing;
	be->stream_flags = bt_stream_flags;
	be->device_synchronize = bt_device_synchronize;
	atexit(bt_report_at_exit);
}
