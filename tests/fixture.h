/* tests/fixture.h - a heap over a fresh simulated device, for the tests,
 * and the helpers they share around it (sizes, asserted allocations and
 * frees, counters, streams, gates, a reproducible random source).
 * Header-only so every test program stays one file plus this. */
#ifndef CM_TEST_FIXTURE_H
#define CM_TEST_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cachemalloc.h"
#include "config.h"
#include "sim.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

typedef struct fixture {
	sim *sim;
	cm_heap *heap;
	cm_config cfg;
} fixture;

/* For tests of what ordering a reuse costs: without pending memory
 * (max_pending_mb, docs/design.md "Pending memory") a reuse that needs
 * ordering is ordered at once instead of taking new memory first. */
#define CM_ORDER_AT_ONCE "max_pending_mb:0"

/* conf: a CACHEMALLOC_CONF string (must parse cleanly) or NULL. */
static inline void fixture_open(fixture *f, size_t capacity, const char *conf)
{
	memset(f, 0, sizeof(*f));
	cm_config_defaults(&f->cfg);
	if (conf)
		assert_int_equal(cm_config_parse(&f->cfg, conf, stderr), 0);
	sim_options opt = {.devices = 1, .capacity = capacity};
	f->sim = sim_create(&opt);
	assert_non_null(f->sim);
	assert_int_equal(cm_heap_create(sim_backend(f->sim), &f->cfg, &f->heap), CM_OK);
}

static inline void fixture_check(fixture *f)
{
	assert_true(cm_heap_check(f->heap, stderr));
}

static inline void fixture_close(fixture *f)
{
	fixture_check(f);
	cm_heap_destroy(f->heap);
	sim_destroy(f->sim);
}

/* How many logged calls of this kind since the log was last cleared. */
static inline size_t fixture_logged(fixture *f, sim_call call)
{
	size_t n = 0;
	for (size_t i = 0; i < sim_log_count(f->sim); i++)
		n += sim_log_get(f->sim, i).call == call;
	return n;
}

/* xorshift64: the tests' reproducible random numbers, from *x (not 0). */
static inline uint64_t fixture_rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Device 0's counters now. */
static inline cm_stats fixture_stats(fixture *f)
{
	cm_stats st;
	cm_stats_get(f->heap, 0, &st);
	return st;
}

static inline uintptr_t fixture_malloc(fixture *f, size_t size)
{
	uintptr_t p = 0;
	assert_int_equal(cm_malloc(f->heap, 0, size, &p), CM_OK);
	assert_true(p != 0);
	return p;
}

/* Frees p[0] to p[n - 1], each free asserted. */
static inline void fixture_free_n(fixture *f, const uintptr_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cm_free(f->heap, p[i]), CM_OK);
}

/* Frees each block in the order named, each free asserted. */
#define fixture_free(f, ...) \
	fixture_free_n((f), (const uintptr_t[]){__VA_ARGS__}, \
		sizeof((uintptr_t[]){__VA_ARGS__}) / sizeof(uintptr_t))

static inline uintptr_t fixture_malloc_async(fixture *f, size_t size, cm_stream s)
{
	uintptr_t p = 0;
	assert_int_equal(cm_malloc_async(f->heap, 0, size, s, &p), CM_OK);
	assert_true(p != 0);
	return p;
}

static inline cm_stream fixture_stream(fixture *f, bool nonblocking)
{
	cm_stream s = sim_stream_create(f->sim, 0, nonblocking);
	assert_int_equal(cm_stream_created(f->heap, 0, s, nonblocking), CM_OK);
	return s;
}

/* The library told of s's destruction, then the device destroys it. */
static inline void fixture_stream_end(fixture *f, cm_stream s)
{
	assert_int_equal(cm_stream_destroying(f->heap, 0, s), CM_OK);
	assert_int_equal(sim_stream_destroy(f->sim, 0, s), CM_OK);
}

static inline void fixture_stream_sync(fixture *f, cm_stream s)
{
	const cm_backend *be = sim_backend(f->sim);
	cm_sync_token tok = cm_sync_begin(f->heap, 0, s);
	cm_status st = be->stream_synchronize(be->ctx, 0, s);
	cm_sync_end(f->heap, tok, st);
	assert_int_equal(st, CM_OK);
}

static inline void fixture_device_sync(fixture *f)
{
	const cm_backend *be = sim_backend(f->sim);
	cm_sync_token tok = cm_sync_begin(f->heap, 0, CM_SYNC_DEVICE);
	cm_status st = be->device_synchronize(be->ctx, 0);
	cm_sync_end(f->heap, tok, st);
	assert_int_equal(st, CM_OK);
}

/* Gives unordered work 20 ms to run first, then opens gate g, synchronizes
 * the device and checks p's first byte: want is what the last ordered
 * write left there. */
static inline void fixture_gate_check(fixture *f, sim_gate *g, uintptr_t p, int want)
{
	usleep(20000);
	sim_gate_open(g);
	fixture_device_sync(f);
	assert_int_equal(*(volatile unsigned char *)p, want);
}

/* A thread body: opens the gate after 30 ms, for tests whose main thread
 * blocks in a call that needs the gated stream to finish. */
static inline void *fixture_open_gate_later(void *gate)
{
	usleep(30000);
	sim_gate_open(gate);
	return NULL;
}

#endif
