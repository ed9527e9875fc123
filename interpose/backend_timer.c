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

/* The operations timed, each once: X(field of cm_backend, parameters,
 * arguments). The counters, the wrappers and the wrapping come from it. */
#define BT_OPS(X)                                                                          \
	X(mem_alloc, (void *c, int d, size_t n, uintptr_t *o), (c, d, n, o))                 \
	X(mem_free, (void *c, int d, uintptr_t p), (c, d, p))                                \
	X(event_create, (void *c, int d, cm_event *o), (c, d, o))                            \
	X(event_destroy, (void *c, int d, cm_event e), (c, d, e))                            \
	X(event_record, (void *c, int d, cm_event e, cm_stream s), (c, d, e, s))             \
	X(event_query, (void *c, int d, cm_event e), (c, d, e))                              \
	X(event_synchronize, (void *c, int d, cm_event e), (c, d, e))                        \
	X(stream_wait_event, (void *c, int d, cm_stream s, cm_event e), (c, d, s, e))        \
	X(stream_query, (void *c, int d, cm_stream s), (c, d, s))                            \
	X(stream_synchronize, (void *c, int d, cm_stream s), (c, d, s))                      \
	X(stream_is_capturing, (void *c, int d, cm_stream s, bool *o), (c, d, s, o))         \
	X(stream_flags, (void *c, int d, cm_stream s, bool *o), (c, d, s, o))                \
	X(device_synchronize, (void *c, int d), (c, d))                                      \
	X(vmm_create, (void *c, int d, size_t n, cm_mem_handle *o), (c, d, n, o))             \
	X(vmm_destroy, (void *c, int d, cm_mem_handle h), (c, d, h))                         \
	X(vmm_map, (void *c, int d, uintptr_t va, size_t n, cm_mem_handle h), (c, d, va, n, h)) \
	X(vmm_unmap, (void *c, int d, uintptr_t va, size_t n), (c, d, va, n))                \
	X(vmm_set_access, (void *c, int d, uintptr_t va, size_t n), (c, d, va, n))

typedef struct bt_counter {
	const char *name;
	_Atomic uint64_t calls, ns, slow, slow_ns, max_ns;
} bt_counter;

#define BT_ENUM(fn, params, args) BT_##fn,
enum { BT_OPS(BT_ENUM) BT_N };
#define BT_NAME(fn, params, args) [BT_##fn] = {.name = #fn},
static bt_counter bt[BT_N] = {BT_OPS(BT_NAME)};
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
#define BT_WRAP(fn, params, args) \
	static cm_status bt_##fn params { uint64_t t0 = bt_now(); return bt_add(BT_##fn, t0, bt_real.fn args); }
BT_OPS(BT_WRAP)

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
/* An operation the backend lacks stays absent (no VMM: no expandable segments). */
#define BT_SET(fn, params, args) \
	if (be->fn)              \
		be->fn = bt_##fn;
	BT_OPS(BT_SET)
	atexit(bt_report_at_exit);
}
