/* tests/test_sim.c - the simulated device's contract.
 *
 * What the core relies on, checked through the backend table as the core
 * calls it: gates hold streams, streams run in order, events and stream
 * waits order work across streams, the legacy default stream synchronizes
 * implicitly with blocking and per-thread streams (and not with non-blocking
 * ones), mem_free waits for the device, misuse fails like CUDA without
 * changing anything, capacity and memory info add up, the VMM rules hold,
 * failure injection hits exactly the Nth call, and the log records what was
 * asked. "Has not happened yet" is checked after a short nap: a broken
 * simulator would have run the work by then.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)

typedef struct fx {
	sim *s;
	const cm_backend *b;
	void *c; /* b->ctx */
} fx;

static fx *fx_new(int devices, size_t capacity)
{
	sim_options o = { .devices = devices, .capacity = capacity };
	fx *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->s = sim_create(&o);
	assert_non_null(f->s);
	f->b = sim_backend(f->s);
	f->c = f->b->ctx;
	return f;
}

static void fx_free(fx *f)
{
	sim_destroy(f->s);
	free(f);
}

static int setup(void **state)
{
	*state = fx_new(1, 256 * MiB);
	return 0;
}

static int teardown(void **state)
{
	fx_free(*state);
	return 0;
}

/* Long enough for a worker to run anything it wrongly could. */
static void nap(void)
{
	usleep(20 * 1000);
}

static unsigned char byte_at(uintptr_t p)
{
	return *(volatile unsigned char *)p;
}

static uintptr_t alloc(fx *f, size_t n)
{
	uintptr_t p = 0;
	assert_int_equal(f->b->mem_alloc(f->c, 0, n, &p), CM_OK);
	assert_true(p != 0);
	return p;
}

static cm_event event(fx *f)
{
	cm_event ev = NULL;
	assert_int_equal(f->b->event_create(f->c, 0, &ev), CM_OK);
	return ev;
}

/* 4 KiB at p, zero, to be filled with value on stream st behind gate g:
 * nothing runs while g holds, all of it once g opens. */
static void gated_fill(fx *f, sim_gate *g, cm_stream st, uintptr_t p, unsigned char value)
{
	nap();
	assert_int_equal(f->b->stream_query(f->c, 0, st), CM_NOT_READY);
	assert_int_equal(byte_at(p), 0);

	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, st), CM_OK);
	assert_int_equal(byte_at(p), value);
	assert_int_equal(byte_at(p + 4 * KiB - 1), value);
}

/* ---- streams and gates ------------------------------------------------- */

static void test_gate_holds_stream(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 4 * KiB);
	memset((void *)p, 0, 4 * KiB);
	cm_stream st = sim_stream_create(f->s, 0, false);

	sim_gate *g = sim_gate_enqueue(f->s, 0, st);
	assert_non_null(g);
	assert_int_equal(sim_memset_async(f->s, 0, p, 0xab, 4 * KiB, st), CM_OK);
	gated_fill(f, g, st, p, 0xab);
	assert_int_equal(f->b->stream_query(f->c, 0, st), CM_OK);
	assert_int_equal(sim_stream_destroy(f->s, 0, st), CM_OK);
}

typedef struct probe {
	uintptr_t p;
	unsigned char *seen;
	int *count;
} probe;

static void probe_read(void *arg)
{
	probe *pr = arg;
	pr->seen[(*pr->count)++] = byte_at(pr->p);
}

static void test_in_order(void **state)
{
	fx *f = *state;
	enum { N = 60 };
	uintptr_t p = alloc(f, 64);
	unsigned char seen[N];
	int count = 0;
	probe pr = { p, seen, &count };
	cm_stream st = sim_stream_create(f->s, 0, true);

	sim_gate *g = sim_gate_enqueue(f->s, 0, st);
	for (int i = 0; i < N; i++) {
		assert_int_equal(sim_memset_async(f->s, 0, p, i, 64, st), CM_OK);
		assert_int_equal(sim_host_func(f->s, 0, st, probe_read, &pr), CM_OK);
	}
	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, st), CM_OK);
	assert_int_equal(count, N);
	for (int i = 0; i < N; i++)
		assert_int_equal(seen[i], i);
}

/* ---- events ------------------------------------------------------------ */

static void test_events(void **state)
{
	fx *f = *state;
	cm_event ev = event(f);
	cm_stream st = sim_stream_create(f->s, 0, true);

	/* Never recorded: complete. */
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_OK);
	assert_int_equal(f->b->event_synchronize(f->c, 0, ev), CM_OK);

	sim_gate *g = sim_gate_enqueue(f->s, 0, st);
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_OK);
	nap();
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_NOT_READY);
	sim_gate_open(g);
	assert_int_equal(f->b->event_synchronize(f->c, 0, ev), CM_OK);
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_OK);

	/* Re-recording replaces the captured point. */
	g = sim_gate_enqueue(f->s, 0, st);
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_OK);
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_NOT_READY);
	assert_int_equal(f->b->event_record(f->c, 0, ev, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_OK);
	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, st), CM_OK);

	/* Destroyed and made-up handles are refused. */
	assert_int_equal(f->b->event_destroy(f->c, 0, ev), CM_OK);
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_ERR_INVALID);
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_ERR_INVALID);
	assert_int_equal(f->b->event_synchronize(f->c, 0, ev), CM_ERR_INVALID);
	assert_int_equal(f->b->event_destroy(f->c, 0, ev), CM_ERR_INVALID);
	cm_event again = event(f); /* reuses the slot: the old handle stays dead */
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_ERR_INVALID);
	assert_int_equal(f->b->event_query(f->c, 0, again), CM_OK);
	assert_int_equal(f->b->event_query(f->c, 0, NULL), CM_ERR_INVALID);
	assert_int_equal(f->b->event_query(f->c, 0, (cm_event)(uintptr_t)0x1234),
			 CM_ERR_INVALID);
	assert_int_equal(f->b->event_destroy(f->c, 0, again), CM_OK);
}

static void test_stream_wait_event(void **state)
{
	fx *f = *state;
	uintptr_t src = alloc(f, 4 * KiB), dst = alloc(f, 4 * KiB);
	memset((void *)src, 0, 4 * KiB);
	memset((void *)dst, 0, 4 * KiB);
	cm_stream a = sim_stream_create(f->s, 0, true);
	cm_stream b = sim_stream_create(f->s, 0, true);
	cm_event ev = event(f);

	sim_gate *g = sim_gate_enqueue(f->s, 0, a);
	assert_int_equal(sim_memset_async(f->s, 0, src, 7, 4 * KiB, a), CM_OK);
	assert_int_equal(f->b->event_record(f->c, 0, ev, a), CM_OK);
	assert_int_equal(f->b->stream_wait_event(f->c, 0, b, ev), CM_OK);
	assert_int_equal(sim_memcpy_async(f->s, 0, dst, src, 4 * KiB, b), CM_OK);
	gated_fill(f, g, b, dst, 7);

	/* A wait on a never-recorded event is a no-op. */
	cm_event fresh = event(f);
	g = sim_gate_enqueue(f->s, 0, a);
	assert_int_equal(f->b->stream_wait_event(f->c, 0, b, fresh), CM_OK);
	assert_int_equal(f->b->stream_query(f->c, 0, b), CM_OK);
	/* The wait captures the point at call time: a later record on a gated
	 * stream does not hold b. */
	assert_int_equal(f->b->event_record(f->c, 0, ev, a), CM_OK);
	assert_int_equal(f->b->stream_query(f->c, 0, b), CM_OK);
	sim_gate_open(g);
	assert_int_equal(f->b->device_synchronize(f->c, 0), CM_OK);
}

/* ---- the legacy default stream ----------------------------------------- */

static void test_legacy_waits_for_blocking(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 64);
	memset((void *)p, 0, 64);
	cm_stream blk = sim_stream_create(f->s, 0, false);
	cm_stream nb = sim_stream_create(f->s, 0, true);
	cm_event ev = event(f);

	sim_gate *g = sim_gate_enqueue(f->s, 0, blk);
	assert_int_equal(f->b->event_record(f->c, 0, ev, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(sim_memset_async(f->s, 0, p, 1, 64, CM_STREAM_LEGACY), CM_OK);
	nap();
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_NOT_READY);
	assert_int_equal(f->b->stream_query(f->c, 0, CM_STREAM_LEGACY), CM_NOT_READY);
	assert_int_equal(byte_at(p), 0);
	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_OK);
	assert_int_equal(byte_at(p), 1);

	/* A gated non-blocking stream does not hold the legacy stream. */
	g = sim_gate_enqueue(f->s, 0, nb);
	assert_int_equal(f->b->event_record(f->c, 0, ev, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(f->b->event_synchronize(f->c, 0, ev), CM_OK);
	assert_int_equal(sim_memset_async(f->s, 0, p, 2, 64, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(byte_at(p), 2);
	assert_int_equal(f->b->stream_query(f->c, 0, nb), CM_NOT_READY);
	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, nb), CM_OK);
}

static void test_blocking_waits_for_legacy(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 3 * 64);
	memset((void *)p, 0, 3 * 64);
	cm_stream blk = sim_stream_create(f->s, 0, false);
	cm_stream nb = sim_stream_create(f->s, 0, true);

	sim_gate *g = sim_gate_enqueue(f->s, 0, CM_STREAM_LEGACY);
	assert_int_equal(sim_memset_async(f->s, 0, p, 2, 64, blk), CM_OK);
	assert_int_equal(sim_memset_async(f->s, 0, p + 64, 3, 64, CM_STREAM_PER_THREAD), CM_OK);
	assert_int_equal(sim_memset_async(f->s, 0, p + 128, 4, 64, nb), CM_OK);
	/* The non-blocking stream runs while the legacy stream is held. */
	assert_int_equal(f->b->stream_synchronize(f->c, 0, nb), CM_OK);
	assert_int_equal(byte_at(p + 128), 4);
	nap();
	assert_int_equal(f->b->stream_query(f->c, 0, blk), CM_NOT_READY);
	assert_int_equal(f->b->stream_query(f->c, 0, CM_STREAM_PER_THREAD), CM_NOT_READY);
	assert_int_equal(byte_at(p), 0);
	assert_int_equal(byte_at(p + 64), 0);

	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, blk), CM_OK);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, CM_STREAM_PER_THREAD), CM_OK);
	assert_int_equal(byte_at(p), 2);
	assert_int_equal(byte_at(p + 64), 3);
}

typedef struct pt_job {
	fx *f;
	uintptr_t p;
	sim_gate *gate;   /* out: gate left on the thread's per-thread stream */
	cm_status synced; /* out */
} pt_job;

static void *pt_gate_thread(void *arg)
{
	pt_job *j = arg;
	j->gate = sim_gate_enqueue(j->f->s, 0, CM_STREAM_PER_THREAD);
	sim_memset_async(j->f->s, 0, j->p, 5, 64, CM_STREAM_PER_THREAD);
	return NULL;
}

static void *pt_work_thread(void *arg)
{
	pt_job *j = arg;
	sim_memset_async(j->f->s, 0, j->p, 6, 64, CM_STREAM_PER_THREAD);
	j->synced = j->f->b->stream_synchronize(j->f->c, 0, CM_STREAM_PER_THREAD);
	return NULL;
}

static void test_per_thread_streams(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 128);
	memset((void *)p, 0, 128);
	pt_job j1 = { f, p, NULL, CM_OK }, j2 = { f, p + 64, NULL, CM_ERR_BACKEND };
	pthread_t t;
	cm_event ev = event(f);

	assert_int_equal(pthread_create(&t, NULL, pt_gate_thread, &j1), 0);
	pthread_join(t, NULL);
	assert_non_null(j1.gate);

	/* Another thread's per-thread stream is not held by the first's. */
	assert_int_equal(pthread_create(&t, NULL, pt_work_thread, &j2), 0);
	pthread_join(t, NULL);
	assert_int_equal(j2.synced, CM_OK);
	assert_int_equal(byte_at(p + 64), 6);
	assert_int_equal(f->b->stream_query(f->c, 0, CM_STREAM_PER_THREAD), CM_OK);

	/* The legacy stream is. */
	assert_int_equal(f->b->event_record(f->c, 0, ev, CM_STREAM_LEGACY), CM_OK);
	nap();
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_NOT_READY);
	assert_int_equal(byte_at(p), 0);
	sim_gate_open(j1.gate);
	assert_int_equal(f->b->event_synchronize(f->c, 0, ev), CM_OK);
	assert_int_equal(byte_at(p), 5);
}

static void test_device_synchronize(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 128);
	memset((void *)p, 0, 128);
	cm_stream a = sim_stream_create(f->s, 0, true);
	cm_stream b = sim_stream_create(f->s, 0, false);

	sim_gate *ga = sim_gate_enqueue(f->s, 0, a);
	sim_gate *gb = sim_gate_enqueue(f->s, 0, b);
	sim_memset_async(f->s, 0, p, 1, 64, a);
	sim_memset_async(f->s, 0, p + 64, 2, 64, b);
	sim_gate_open(ga);
	sim_gate_open(gb);
	assert_int_equal(f->b->device_synchronize(f->c, 0), CM_OK);
	assert_int_equal(byte_at(p), 1);
	assert_int_equal(byte_at(p + 64), 2);
	assert_int_equal(f->b->stream_query(f->c, 0, a), CM_OK);
	assert_int_equal(f->b->stream_query(f->c, 0, b), CM_OK);
}

static void test_stream_destroy(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 64);
	memset((void *)p, 0, 64);
	cm_stream st = sim_stream_create(f->s, 0, true);
	cm_event ev = event(f);

	assert_true(st != 0 && st != 1 && st != 2 && st != SIM_STREAM_INVALID);
	sim_gate *g = sim_gate_enqueue(f->s, 0, st);
	assert_int_equal(sim_memset_async(f->s, 0, p, 4, 64, st), CM_OK);
	assert_int_equal(sim_stream_destroy(f->s, 0, st), CM_OK);
	assert_int_equal(f->b->stream_query(f->c, 0, st), CM_ERR_INVALID);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, st), CM_ERR_INVALID);
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_ERR_INVALID);
	assert_int_equal(sim_memset_async(f->s, 0, p, 9, 64, st), CM_ERR_INVALID);
	assert_null(sim_gate_enqueue(f->s, 0, st));
	assert_int_equal(sim_stream_destroy(f->s, 0, st), CM_ERR_INVALID);

	/* Pending work still runs. */
	sim_gate_open(g);
	assert_int_equal(f->b->device_synchronize(f->c, 0), CM_OK);
	assert_int_equal(byte_at(p), 4);

	assert_int_equal(sim_stream_destroy(f->s, 0, CM_STREAM_LEGACY), CM_ERR_INVALID);
	assert_int_equal(sim_stream_destroy(f->s, 0, CM_STREAM_PER_THREAD), CM_ERR_INVALID);

	/* Handles are never reused; destroyed streams' workers are reaped. */
	cm_stream prev = st;
	uintptr_t q = alloc(f, 200); /* a byte each: the streams are unordered */
	for (int i = 0; i < 200; i++) {
		cm_stream s2 = sim_stream_create(f->s, 0, i & 1);
		assert_true(s2 != prev && s2 != SIM_STREAM_INVALID);
		assert_int_equal(sim_memset_async(f->s, 0, q + i, i, 1, s2), CM_OK);
		assert_int_equal(sim_stream_destroy(f->s, 0, s2), CM_OK);
		prev = s2;
	}
	assert_int_equal(f->b->device_synchronize(f->c, 0), CM_OK);
	for (int i = 0; i < 200; i++)
		assert_int_equal(byte_at(q + i), i);
}

static void test_destroy_with_closed_gate(void **state)
{
	(void)state;
	fx *f = fx_new(1, 64 * MiB);
	uintptr_t p = alloc(f, 64);
	cm_stream st = sim_stream_create(f->s, 0, true);
	assert_non_null(sim_gate_enqueue(f->s, 0, st));
	assert_int_equal(sim_memset_async(f->s, 0, p, 1, 64, st), CM_OK);
	assert_non_null(sim_gate_enqueue(f->s, 0, CM_STREAM_LEGACY));
	fx_free(f); /* must neither hang nor leak */
}

/* ---- memory ------------------------------------------------------------ */

typedef struct free_job {
	fx *f;
	uintptr_t p;
	atomic_int done;
	cm_status r;
} free_job;

static void *free_thread(void *arg)
{
	free_job *j = arg;
	j->r = j->f->b->mem_free(j->f->c, 0, j->p);
	atomic_store(&j->done, 1);
	return NULL;
}

static void test_free_waits_for_device(void **state)
{
	fx *f = *state;
	free_job j = { .f = f, .p = alloc(f, 4 * KiB), .r = CM_ERR_BACKEND };
	cm_stream nb = sim_stream_create(f->s, 0, true);
	pthread_t t;

	sim_gate *g = sim_gate_enqueue(f->s, 0, nb);
	assert_int_equal(sim_memset_async(f->s, 0, j.p, 9, 4 * KiB, nb), CM_OK);
	assert_int_equal(pthread_create(&t, NULL, free_thread, &j), 0);
	nap();
	nap();
	assert_int_equal(atomic_load(&j.done), 0);
	assert_int_equal(sim_used_bytes(f->s, 0), 4 * KiB);
	sim_gate_open(g);
	pthread_join(t, NULL);
	assert_int_equal(j.r, CM_OK);
	assert_int_equal(f->b->stream_query(f->c, 0, nb), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), 0);
}

static void test_bad_free(void **state)
{
	fx *f = *state;
	uintptr_t p = alloc(f, 1000);
	size_t used = sim_used_bytes(f->s, 0);

	assert_int_equal(used, 1024);
	assert_int_equal(f->b->mem_free(f->c, 0, p + 512), CM_ERR_INVALID);
	assert_int_equal(f->b->mem_free(f->c, 0, 0xdeadbeef), CM_ERR_INVALID);
	assert_int_equal(f->b->mem_free(f->c, 1, p), CM_ERR_INVALID);
	assert_int_equal(f->b->mem_free(f->c, -1, p), CM_ERR_INVALID);
	assert_int_equal(f->b->mem_free(f->c, 0, 0), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), used);
	assert_int_equal(f->b->mem_free(f->c, 0, p), CM_OK);
	assert_int_equal(f->b->mem_free(f->c, 0, p), CM_ERR_INVALID);
	assert_int_equal(sim_used_bytes(f->s, 0), 0);
	/* The freed range is whole again: capacity fits in one piece. */
	uintptr_t all = alloc(f, 256 * MiB);
	assert_int_equal(f->b->mem_free(f->c, 0, all), CM_OK);
}

static void test_capacity_and_info(void **state)
{
	(void)state;
	fx *f = fx_new(1, 64 * MiB);
	size_t fr = 0, total = 0;
	uintptr_t p = 1, q;

	assert_int_equal(f->b->mem_get_info(f->c, 0, &fr, &total), CM_OK);
	assert_int_equal(fr, 64 * MiB);
	assert_int_equal(total, 64 * MiB);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 0, &p), CM_OK); /* cudaMalloc(0) */
	assert_int_equal(p, 0);

	p = alloc(f, 64 * MiB);
	assert_int_equal(p % (2 * MiB), 0);
	assert_int_equal(f->b->mem_get_info(f->c, 0, &fr, &total), CM_OK);
	assert_int_equal(fr, 0);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 1, &q), CM_ERR_OOM);
	assert_int_equal(f->b->mem_free(f->c, 0, p), CM_OK);

	p = alloc(f, 1);
	assert_int_equal(p % 512, 0);
	assert_int_equal(sim_used_bytes(f->s, 0), 512);
	q = alloc(f, 3 * MiB);
	assert_int_equal(q % (2 * MiB), 0);
	assert_int_equal(sim_used_bytes(f->s, 0), 4 * MiB + 512);
	assert_int_equal(f->b->mem_get_info(f->c, 0, &fr, &total), CM_OK);
	assert_int_equal(fr, 60 * MiB - 512);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 61 * MiB, &p), CM_ERR_OOM);
	assert_int_equal(f->b->mem_alloc(f->c, 0, SIZE_MAX, &p), CM_ERR_OOM);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 16, NULL), CM_ERR_INVALID);
	assert_int_equal(f->b->mem_get_info(f->c, 0, NULL, &total), CM_ERR_INVALID);
	assert_int_equal(f->b->mem_get_info(f->c, 3, &fr, &total), CM_ERR_INVALID);
	fx_free(f);
}

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Tags may sit at any byte: go through memcpy, not an unaligned load. */
static uint64_t tag_at(uintptr_t p)
{
	uint64_t v;
	memcpy(&v, (const void *)p, sizeof(v));
	return v;
}

static void tag_set(uintptr_t p, uint64_t v)
{
	memcpy((void *)p, &v, sizeof(v));
}

static size_t rounded(size_t n)
{
	size_t a = n >= 2 * MiB ? 2 * MiB : 512;
	return (n + a - 1) / a * a;
}

/* Random allocations and frees: blocks never overlap (each keeps a tag at
 * both ends), alignment and the byte count hold, and everything merges
 * back into one range at the end. */
static void test_alloc_random(void **state)
{
	fx *f = *state;
	enum { LIVE = 256, ROUNDS = 20000 };
	uintptr_t ptr[LIVE] = { 0 };
	size_t len[LIVE] = { 0 }, used = 0;
	uint64_t x = 88172645463325252ull;

	for (int i = 0; i < ROUNDS; i++) {
		int k = (int)(rng_next(&x) % LIVE);
		if (ptr[k]) {
			assert_int_equal(tag_at(ptr[k]), (uint64_t)k);
			assert_int_equal(tag_at(ptr[k] + len[k] - 8), (uint64_t)k);
			assert_int_equal(f->b->mem_free(f->c, 0, ptr[k]), CM_OK);
			used -= rounded(len[k]);
			ptr[k] = 0;
			continue;
		}
		size_t n = rng_next(&x) % 8 == 0 ? 2 * MiB + rng_next(&x) % (4 * MiB)
						  : 16 + rng_next(&x) % (64 * KiB);
		if (f->b->mem_alloc(f->c, 0, n, &ptr[k]) != CM_OK) {
			ptr[k] = 0;
			continue;
		}
		assert_int_equal(ptr[k] % (n >= 2 * MiB ? 2 * MiB : 512), 0);
		len[k] = n;
		used += rounded(n);
		tag_set(ptr[k], (uint64_t)k);
		tag_set(ptr[k] + n - 8, (uint64_t)k);
		assert_int_equal(sim_used_bytes(f->s, 0), used);
	}
	for (int k = 0; k < LIVE; k++)
		if (ptr[k])
			assert_int_equal(f->b->mem_free(f->c, 0, ptr[k]), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), 0);
	uintptr_t all = alloc(f, 256 * MiB);
	assert_int_equal(f->b->mem_free(f->c, 0, all), CM_OK);
}

/* ---- VMM --------------------------------------------------------------- */

/* Whether the host may read p, without faulting: write(2) from an
 * inaccessible buffer fails with EFAULT instead of raising a signal. */
static bool readable(uintptr_t p)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	ssize_t n = write(fds[1], (const void *)p, 1);
	close(fds[0]);
	close(fds[1]);
	return n == 1;
}

static void test_vmm(void **state)
{
	(void)state;
	fx *f = fx_new(1, 16 * MiB);
	const cm_backend *b = f->b;
	size_t gran = 0;
	uintptr_t va = 0, q = 0, q2 = 0;
	cm_mem_handle h1 = 0, h2 = 0, h3 = 0;

	assert_int_equal(sim_granularity(f->c, 0, &gran), CM_OK);
	assert_int_equal(gran, 2 * MiB);
	assert_int_equal(b->vmm_reserve(f->c, 0, gran + 1, &va), CM_ERR_INVALID);
	assert_int_equal(b->vmm_reserve(f->c, 0, 8 * MiB, &va), CM_OK);
	assert_int_equal(va % gran, 0);
	assert_int_equal(b->vmm_create(f->c, 0, 3 * MiB, &h1), CM_ERR_INVALID);
	assert_int_equal(b->vmm_create(f->c, 0, 4 * MiB, &h1), CM_OK);
	assert_int_equal(b->vmm_create(f->c, 0, 4 * MiB, &h2), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), 8 * MiB);

	/* Mapping rules. */
	assert_int_equal(b->vmm_map(f->c, 0, va + 512, 4 * MiB, h1), CM_ERR_INVALID);
	assert_int_equal(b->vmm_map(f->c, 0, va, 2 * MiB, h1), CM_ERR_INVALID);
	assert_int_equal(b->vmm_map(f->c, 0, va + 6 * MiB, 4 * MiB, h1), CM_ERR_INVALID);
	assert_int_equal(b->vmm_map(f->c, 0, va, 4 * MiB, 12345), CM_ERR_INVALID);
	assert_int_equal(b->vmm_map(f->c, 0, va, 4 * MiB, h1), CM_OK);
	assert_int_equal(b->vmm_map(f->c, 0, va + 2 * MiB, 4 * MiB, h2), CM_ERR_INVALID);
	assert_int_equal(b->vmm_map(f->c, 0, va, 4 * MiB, h2), CM_ERR_INVALID);
	assert_int_equal(b->vmm_map(f->c, 0, va + 4 * MiB, 4 * MiB, h2), CM_OK);

	/* No access until granted. */
	assert_false(readable(va));
	assert_int_equal(sim_memset_async(f->s, 0, va, 1, 64, CM_STREAM_LEGACY), CM_ERR_INVALID);
	assert_int_equal(b->vmm_set_access(f->c, 0, va, 2 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_set_access(f->c, 0, va, 8 * MiB), CM_OK);
	assert_true(readable(va));
	*(volatile unsigned char *)va = 0x5a;
	*(volatile unsigned char *)(va + 8 * MiB - 1) = 0x5b;
	assert_int_equal(sim_memset_async(f->s, 0, va + 4 * MiB - 32, 3, 64, CM_STREAM_LEGACY),
			 CM_OK);
	assert_int_equal(b->stream_synchronize(f->c, 0, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(byte_at(va + 4 * MiB), 3);

	/* Physical memory counts against capacity, with plain allocations. */
	assert_int_equal(b->mem_alloc(f->c, 0, 8 * MiB, &q), CM_OK);
	assert_int_equal(b->vmm_create(f->c, 0, 2 * MiB, &h3), CM_ERR_OOM);
	assert_int_equal(b->mem_alloc(f->c, 0, 512, &q2), CM_ERR_OOM);
	assert_int_equal(q2, 0);
	assert_int_equal(b->mem_free(f->c, 0, q), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), 8 * MiB);

	/* Unmap whole mappings only; release only when nothing is mapped. */
	assert_int_equal(b->vmm_unmap(f->c, 0, va, 2 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_unmap(f->c, 0, va + 2 * MiB, 4 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_unmap(f->c, 0, va, 4 * MiB), CM_OK);
	assert_false(readable(va));
	assert_int_equal(b->vmm_release(f->c, 0, va, 8 * MiB), CM_ERR_INVALID);

	/* Remapped, the same physical memory still holds its bytes. */
	assert_int_equal(b->vmm_map(f->c, 0, va, 4 * MiB, h1), CM_OK);
	assert_false(readable(va));
	assert_int_equal(b->vmm_set_access(f->c, 0, va, 4 * MiB), CM_OK);
	assert_int_equal(byte_at(va), 0x5a);

	/* Destroying a mapped handle frees it only at unmap. */
	assert_int_equal(b->vmm_destroy(f->c, 0, h1), CM_OK);
	assert_int_equal(b->vmm_destroy(f->c, 0, h1), CM_ERR_INVALID);
	assert_int_equal(sim_used_bytes(f->s, 0), 8 * MiB);
	assert_int_equal(b->vmm_unmap(f->c, 0, va, 8 * MiB), CM_OK); /* both at once */
	assert_int_equal(sim_used_bytes(f->s, 0), 4 * MiB);
	assert_int_equal(b->vmm_map(f->c, 0, va, 4 * MiB, h1), CM_ERR_INVALID);
	assert_int_equal(b->vmm_unmap(f->c, 0, va, 4 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_destroy(f->c, 0, h2), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), 0);
	assert_int_equal(b->vmm_release(f->c, 0, va, 4 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_release(f->c, 0, va, 8 * MiB), CM_OK);
	assert_int_equal(b->vmm_release(f->c, 0, va, 8 * MiB), CM_ERR_INVALID);

	/* Work queued on memory that is unmapped before it runs is dropped,
	 * not a crash (a GPU would report an illegal address). */
	assert_int_equal(b->vmm_reserve(f->c, 0, 2 * MiB, &va), CM_OK);
	assert_int_equal(b->vmm_create(f->c, 0, 2 * MiB, &h3), CM_OK);
	assert_int_equal(b->vmm_map(f->c, 0, va, 2 * MiB, h3), CM_OK);
	assert_int_equal(b->vmm_set_access(f->c, 0, va, 2 * MiB), CM_OK);
	sim_gate *g = sim_gate_enqueue(f->s, 0, CM_STREAM_LEGACY);
	assert_int_equal(sim_memset_async(f->s, 0, va, 1, 2 * MiB, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(b->vmm_unmap(f->c, 0, va, 2 * MiB), CM_OK);
	sim_gate_open(g);
	assert_int_equal(b->stream_synchronize(f->c, 0, CM_STREAM_LEGACY), CM_OK);

	/* A handle left mapped at sim_destroy is cleaned up there. */
	assert_int_equal(b->vmm_map(f->c, 0, va, 2 * MiB, h3), CM_OK);
	fx_free(f);
}

/* ---- failure injection, log, capture ----------------------------------- */

static void test_fail_nth(void **state)
{
	fx *f = *state;
	uintptr_t p[4] = { 0 };
	cm_mem_handle h;
	cm_event ev = event(f);

	sim_fail_nth(f->s, SIM_MEM_ALLOC, 3);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 512, &p[0]), CM_OK);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 512, &p[1]), CM_OK);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 512, &p[2]), CM_ERR_OOM);
	assert_int_equal(p[2], 0);
	assert_int_equal(sim_used_bytes(f->s, 0), 1024);
	assert_int_equal(f->b->mem_alloc(f->c, 0, 512, &p[3]), CM_OK);

	sim_fail_nth(f->s, SIM_MEM_FREE, 1);
	assert_int_equal(f->b->mem_free(f->c, 0, p[0]), CM_ERR_BACKEND);
	assert_int_equal(f->b->mem_free(f->c, 0, p[0]), CM_OK); /* still allocated */

	sim_fail_nth(f->s, SIM_EVENT_RECORD, 1);
	sim_gate *g = sim_gate_enqueue(f->s, 0, CM_STREAM_LEGACY);
	assert_int_equal(f->b->event_record(f->c, 0, ev, CM_STREAM_LEGACY), CM_ERR_BACKEND);
	assert_int_equal(f->b->event_query(f->c, 0, ev), CM_OK); /* never recorded */
	sim_gate_open(g);
	assert_int_equal(f->b->stream_synchronize(f->c, 0, CM_STREAM_LEGACY), CM_OK);

	sim_fail_nth(f->s, SIM_VMM_CREATE, 1);
	assert_int_equal(f->b->vmm_create(f->c, 0, 2 * MiB, &h), CM_ERR_OOM);
	assert_int_equal(sim_used_bytes(f->s, 0), 1024);

	sim_fail_nth(f->s, SIM_MEM_ALLOC, 1);
	sim_fail_nth(f->s, SIM_MEM_ALLOC, 0); /* cancelled */
	assert_int_equal(f->b->mem_alloc(f->c, 0, 512, &p[2]), CM_OK);
	sim_fail_nth(f->s, SIM_STREAM_QUERY, 2);
	assert_int_equal(f->b->stream_query(f->c, 0, 0), CM_OK);
	assert_int_equal(f->b->stream_query(f->c, 0, 0), CM_ERR_BACKEND);
	assert_int_equal(f->b->stream_query(f->c, 0, 0), CM_OK);
}

static void test_log(void **state)
{
	fx *f = *state;
	cm_stream st = sim_stream_create(f->s, 0, true);
	cm_event ev = event(f);
	uintptr_t p;
	size_t allocs = sim_call_count(f->s, SIM_MEM_ALLOC);

	sim_log_clear(f->s);
	assert_int_equal(sim_log_count(f->s), 0);
	p = alloc(f, 1000);
	sim_memset_async(f->s, 0, p, 0, 1000, st); /* helpers are not logged */
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_OK);
	assert_int_equal(f->b->mem_free(f->c, 0, p + 8), CM_ERR_INVALID);
	assert_int_equal(sim_log_count(f->s), 3);

	sim_log_entry e = sim_log_get(f->s, 0);
	assert_int_equal(e.call, SIM_MEM_ALLOC);
	assert_int_equal(e.dev, 0);
	assert_int_equal(e.result, CM_OK);
	assert_int_equal(e.ptr, p);
	assert_int_equal(e.size, 1000);
	e = sim_log_get(f->s, 1);
	assert_int_equal(e.call, SIM_EVENT_RECORD);
	assert_int_equal(e.stream, st);
	assert_ptr_equal(e.event, ev);
	e = sim_log_get(f->s, 2);
	assert_int_equal(e.call, SIM_MEM_FREE);
	assert_int_equal(e.result, CM_ERR_INVALID);
	assert_int_equal(e.ptr, p + 8);
	assert_int_equal(sim_call_count(f->s, SIM_MEM_ALLOC), allocs + 1);
	assert_string_equal(sim_call_name(SIM_VMM_MAP), "vmm_map");

	/* The ring keeps the newest 65536, oldest first. */
	enum { N = 70000, CAP = 65536 };
	size_t frees = sim_call_count(f->s, SIM_MEM_FREE);
	for (uintptr_t i = 1; i <= N; i++)
		f->b->mem_free(f->c, 0, i * 16);
	assert_int_equal(sim_log_count(f->s), CAP);
	assert_int_equal(sim_log_get(f->s, 0).ptr, (uintptr_t)(N - CAP + 1) * 16);
	assert_int_equal(sim_log_get(f->s, CAP - 1).ptr, (uintptr_t)N * 16);
	assert_int_equal(sim_log_get(f->s, CAP).ptr, 0);
	assert_int_equal(sim_call_count(f->s, SIM_MEM_FREE), frees + N);
	sim_log_clear(f->s);
	assert_int_equal(sim_log_count(f->s), 0);
	assert_int_equal(sim_call_count(f->s, SIM_MEM_FREE), frees + N);
	assert_int_equal(f->b->mem_free(f->c, 0, p), CM_OK);
}

static void test_capturing(void **state)
{
	fx *f = *state;
	cm_stream st = sim_stream_create(f->s, 0, true);
	cm_event ev = event(f);
	bool cap = true;

	assert_int_equal(f->b->stream_is_capturing(f->c, 0, CM_STREAM_LEGACY, &cap), CM_OK);
	assert_false(cap);
	assert_int_equal(sim_set_capturing(f->s, 0, st, true), CM_OK);
	assert_int_equal(f->b->stream_is_capturing(f->c, 0, st, &cap), CM_OK);
	assert_true(cap);
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_ERR_CAPTURING);
	sim_log_entry e = sim_log_get(f->s, sim_log_count(f->s) - 1);
	assert_int_equal(e.call, SIM_EVENT_RECORD);
	assert_int_equal(e.result, CM_ERR_CAPTURING);
	assert_int_equal(f->b->stream_wait_event(f->c, 0, st, ev), CM_ERR_CAPTURING);
	assert_int_equal(f->b->event_record(f->c, 0, ev, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(sim_set_capturing(f->s, 0, st, false), CM_OK);
	assert_int_equal(f->b->event_record(f->c, 0, ev, st), CM_OK);
	assert_int_equal(f->b->stream_wait_event(f->c, 0, st, ev), CM_OK);

	assert_int_equal(sim_set_capturing(f->s, 0, CM_STREAM_PER_THREAD, true), CM_OK);
	assert_int_equal(f->b->stream_is_capturing(f->c, 0, CM_STREAM_PER_THREAD, &cap), CM_OK);
	assert_true(cap);
	assert_int_equal(sim_set_capturing(f->s, 0, 0x777, true), CM_ERR_INVALID);
}

/* ---- misuse and devices ------------------------------------------------ */

static void test_misuse(void **state)
{
	(void)state;
	fx *f = fx_new(2, 64 * MiB);
	const cm_backend *b = f->b;
	uintptr_t p0, p1, va;
	cm_event ev;
	unsigned char host[64];
	bool cap;
	size_t n;

	assert_int_equal(b->device_count, 2);
	p0 = alloc(f, 4 * MiB);
	assert_int_equal(b->mem_alloc(f->c, 1, 4 * MiB, &p1), CM_OK);
	assert_true(p1 >= p0 + 64 * MiB || p0 >= p1 + 64 * MiB);
	assert_int_equal(sim_used_bytes(f->s, 1), 4 * MiB);
	assert_int_equal(b->mem_free(f->c, 1, p0), CM_ERR_INVALID); /* other device's */

	/* Bad devices and bad handles. */
	assert_int_equal(b->mem_alloc(f->c, 2, 512, &p0), CM_ERR_INVALID);
	assert_int_equal(b->event_create(f->c, 7, &ev), CM_ERR_INVALID);
	assert_int_equal(b->event_create(f->c, 0, NULL), CM_ERR_INVALID);
	assert_int_equal(b->stream_query(f->c, -1, 0), CM_ERR_INVALID);
	assert_int_equal(b->stream_query(f->c, 0, 3), CM_ERR_INVALID);
	assert_int_equal(b->stream_query(f->c, 0, 0x1000), CM_ERR_INVALID);
	assert_int_equal(b->stream_synchronize(f->c, 0, 17), CM_ERR_INVALID);
	assert_int_equal(b->stream_is_capturing(f->c, 0, 0, NULL), CM_ERR_INVALID);
	assert_int_equal(b->device_synchronize(f->c, 2), CM_ERR_INVALID);
	assert_int_equal(sim_granularity(f->c, 0, NULL), CM_ERR_INVALID);
	assert_int_equal(b->vmm_reserve(f->c, 0, 0, &va), CM_ERR_INVALID);
	assert_int_equal(b->vmm_unmap(f->c, 0, 0, 2 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_set_access(f->c, 0, 4 * MiB, 2 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->vmm_destroy(f->c, 0, 99), CM_ERR_INVALID);
	assert_int_equal(b->vmm_release(f->c, 0, 2 * MiB, 2 * MiB), CM_ERR_INVALID);
	assert_int_equal(b->mem_alloc(NULL, 0, 512, &p0), CM_ERR_INVALID);

	/* A stream belongs to its device; events record on their own. */
	cm_stream s1 = sim_stream_create(f->s, 1, false);
	assert_true(s1 != SIM_STREAM_INVALID);
	assert_int_equal(b->stream_query(f->c, 0, s1), CM_ERR_INVALID);
	assert_int_equal(b->stream_query(f->c, 1, s1), CM_OK);
	assert_int_equal(b->event_create(f->c, 0, &ev), CM_OK);
	assert_int_equal(b->event_record(f->c, 1, ev, s1), CM_ERR_INVALID);
	assert_int_equal(b->event_record(f->c, 0, ev, 0), CM_OK);
	assert_int_equal(b->stream_wait_event(f->c, 1, s1, ev), CM_OK); /* cross-device wait */
	assert_int_equal(b->stream_synchronize(f->c, 1, s1), CM_OK);

	/* Helpers refuse what is not device memory. */
	assert_int_equal(sim_memset_async(f->s, 0, (uintptr_t)host, 0, sizeof(host), 0),
			 CM_ERR_INVALID);
	assert_int_equal(sim_memcpy_async(f->s, 0, p1, (uintptr_t)host, sizeof(host), 0),
			 CM_ERR_INVALID);
	assert_int_equal(sim_memcpy_async(f->s, 0, p1, p1 + 4 * MiB, 64, 0), CM_OK);
	assert_int_equal(sim_host_func(f->s, 0, 0, NULL, NULL), CM_ERR_INVALID);
	assert_int_equal(sim_stream_create(f->s, 5, true), SIM_STREAM_INVALID);
	assert_int_equal(sim_stream_create(NULL, 0, true), SIM_STREAM_INVALID);
	assert_null(sim_gate_enqueue(f->s, 0, 0x999));
	assert_null(sim_gate_enqueue(NULL, 0, 0));
	sim_gate_open(NULL);
	sim_fail_nth(NULL, SIM_MEM_ALLOC, 1);
	sim_fail_nth(f->s, SIM_CALL_KINDS, 1);
	assert_int_equal(sim_log_count(NULL), 0);
	assert_int_equal(sim_used_bytes(f->s, 9), 0);
	assert_string_equal(sim_call_name(SIM_CALL_KINDS), "unknown");
	assert_int_equal(b->mem_get_info(f->c, 1, &n, &n), CM_OK);
	(void)cap;
	sim_destroy(NULL);
	fx_free(f);
}

/* ---- concurrency ------------------------------------------------------- */

typedef struct storm {
	fx *f;
	cm_stream side;
	unsigned seed;
	atomic_int failures;
} storm;

static void *storm_thread(void *arg)
{
	storm *w = arg;
	fx *f = w->f;
	uint64_t x = w->seed * 2654435761u + 1;
	cm_event ev;

	if (f->b->event_create(f->c, 0, &ev) != CM_OK) {
		atomic_fetch_add(&w->failures, 1);
		return NULL;
	}
	for (int i = 0; i < 400; i++) {
		uintptr_t p;
		size_t n = 512 + rng_next(&x) % (256 * KiB);
		cm_stream st = rng_next(&x) % 3 == 0 ? w->side : CM_STREAM_PER_THREAD;
		if (f->b->mem_alloc(f->c, 0, n, &p) != CM_OK)
			continue;
		if (sim_memset_async(f->s, 0, p, i & 0xff, n, st) != CM_OK ||
		    f->b->event_record(f->c, 0, ev, st) != CM_OK ||
		    f->b->stream_wait_event(f->c, 0, CM_STREAM_LEGACY, ev) != CM_OK)
			atomic_fetch_add(&w->failures, 1);
		f->b->event_query(f->c, 0, ev);
		if (i % 16 == 0 && f->b->event_synchronize(f->c, 0, ev) != CM_OK)
			atomic_fetch_add(&w->failures, 1);
		if (f->b->mem_free(f->c, 0, p) != CM_OK)
			atomic_fetch_add(&w->failures, 1);
	}
	f->b->event_destroy(f->c, 0, ev);
	return NULL;
}

static void test_concurrent(void **state)
{
	fx *f = *state;
	enum { T = 6 };
	pthread_t t[T];
	storm w[T];
	cm_stream side[2] = { sim_stream_create(f->s, 0, true),
			      sim_stream_create(f->s, 0, false) };

	for (int i = 0; i < T; i++) {
		w[i] = (storm){ .f = f, .side = side[i % 2], .seed = (unsigned)i + 1 };
		assert_int_equal(pthread_create(&t[i], NULL, storm_thread, &w[i]), 0);
	}
	for (int i = 0; i < 50; i++) { /* streams come and go meanwhile */
		cm_stream st = sim_stream_create(f->s, 0, i & 1);
		sim_gate *g1 = sim_gate_enqueue(f->s, 0, st);
		sim_gate *g2 = sim_gate_enqueue(f->s, 0, st);
		assert_non_null(g1);
		assert_non_null(g2);
		assert_int_equal(sim_stream_destroy(f->s, 0, st), CM_OK);
		sim_gate_open(g2);
		sim_gate_open(g1);
	}
	for (int i = 0; i < T; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(atomic_load(&w[i].failures), 0);
	}
	assert_int_equal(f->b->device_synchronize(f->c, 0), CM_OK);
	assert_int_equal(sim_used_bytes(f->s, 0), 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_gate_holds_stream),
		T(test_in_order),
		T(test_events),
		T(test_stream_wait_event),
		T(test_legacy_waits_for_blocking),
		T(test_blocking_waits_for_legacy),
		T(test_per_thread_streams),
		T(test_device_synchronize),
		T(test_stream_destroy),
		cmocka_unit_test(test_destroy_with_closed_gate),
		T(test_free_waits_for_device),
		T(test_bad_free),
		cmocka_unit_test(test_capacity_and_info),
		T(test_alloc_random),
		cmocka_unit_test(test_vmm),
		T(test_fail_nth),
		T(test_log),
		T(test_capturing),
		cmocka_unit_test(test_misuse),
		T(test_concurrent),
	};
#undef T
	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
