/* tests/test_scale.c - the core at the scale programs reach: 1e5+ live
 * blocks built, freed and rebuilt through the public API with the
 * consistency checker between the steps, and blocks parked in another
 * thread's cache taken back (without walking the live blocks) before the
 * device is asked for memory. Not timed: tests/bench_scale.c measures. */
#include <inttypes.h>
#include <pthread.h>

#include "fixture.h"
#include "internal.h"

#define LIVE 150000

static size_t scale_size(size_t i)
{
	static const size_t sizes[] = {512, 1024, 4096, 16384, 700, 9000};
	return i % 1000 == 999 ? 3 * MiB : sizes[i % 6]; /* a few from 20 MiB segments */
}

static uint64_t allocated_blocks(fixture *f)
{
	cm_stats st;
	cm_stats_get(f->heap, 0, &st);
	return st.allocated_blocks;
}

static void test_live_blocks(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, (size_t)64 << 30, NULL);
	cm_stream streams[2] = {fixture_stream(&f, true), fixture_stream(&f, false)};
	uintptr_t *p = calloc(LIVE, sizeof(*p));
	assert_non_null(p);
	/* Every seventh block is stream-ordered, on one of two streams. */
	for (size_t i = 0; i < LIVE; i++)
		p[i] = i % 7 ? fixture_malloc(&f, scale_size(i))
			     : fixture_malloc_async(&f, scale_size(i), streams[i / 7 % 2]);
	assert_int_equal(allocated_blocks(&f), LIVE);
	fixture_check(&f);
	/* Half of them freed in a scattered order, then made again. */
	for (size_t k = 0; k < LIVE; k++) {
		size_t i = k * 7919 % LIVE;
		if (i % 2)
			continue;
		assert_int_equal(i % 7 ? cm_free(f.heap, p[i]) : cm_free_async(f.heap, p[i], streams[i / 7 % 2]),
				 CM_OK);
		p[i] = 0;
	}
	cm_thread_flush(f.heap);
	assert_int_equal(allocated_blocks(&f), LIVE / 2);
	fixture_check(&f);
	for (size_t i = 0; i < LIVE; i += 2)
		p[i] = fixture_malloc(&f, scale_size(i + 1));
	fixture_check(&f);
	for (size_t i = 0; i < LIVE; i++) {
		bool async = i % 2 && i % 7 == 0;
		assert_int_equal(async ? cm_free_async(f.heap, p[i], streams[i / 7 % 2]) : cm_free(f.heap, p[i]),
				 CM_OK);
	}
	cm_thread_flush(f.heap);
	assert_int_equal(allocated_blocks(&f), 0);
	free(p);
	fixture_close(&f);
}

/* A thread that parks one block in its cache and stays alive until told. */
typedef struct parker {
	fixture *f;
	size_t size;
	uintptr_t given;  /* non-zero: free this (another thread's) block */
	uintptr_t parked; /* the block it parked */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int phase; /* 1: parked; 2: may go on */
} parker;

static void *parker_main(void *arg)
{
	parker *pk = arg;
	uintptr_t p = pk->given;
	if (!p) {
		/* The first free parks on the locked path and keys the bin; after
		 * a flush the second takes the lock-free path into that bin. */
		assert_int_equal(cm_malloc(pk->f->heap, 0, pk->size, &p), CM_OK);
		assert_int_equal(cm_free(pk->f->heap, p), CM_OK);
		cm_thread_flush(pk->f->heap);
		assert_int_equal(cm_malloc(pk->f->heap, 0, pk->size, &p), CM_OK);
	}
	assert_int_equal(cm_free(pk->f->heap, p), CM_OK); /* parked here */
	pthread_mutex_lock(&pk->lock);
	pk->parked = p;
	pk->phase = 1;
	pthread_cond_broadcast(&pk->cond);
	while (pk->phase != 2)
		pthread_cond_wait(&pk->cond, &pk->lock);
	pthread_mutex_unlock(&pk->lock);
	/* Its entry was taken back: the cache must not hand it out again. */
	uintptr_t q;
	assert_int_equal(cm_malloc(pk->f->heap, 0, pk->size, &q), CM_OK);
	assert_true(q != p);
	assert_int_equal(cm_free(pk->f->heap, q), CM_OK);
	return NULL;
}

/* A block parked by another (live, idle) thread is taken back before a
 * new segment, with 1e5 blocks live: through a block the thread allocated
 * and freed itself (fast path) and one it freed for another thread (the
 * locked path): the state says which (main's table names each). */
static void test_parked_taken_back(void **state)
{
	bool cross_thread_free = *state != NULL;
	fixture f;
	fixture_open(&f, (size_t)64 << 30, NULL);
	size_t n = 100000;
	uintptr_t *live = calloc(n, sizeof(*live));
	for (size_t i = 0; i < n; i++)
		live[i] = fixture_malloc(&f, scale_size(i));
	/* 12 MiB: a segment of its own, no free neighbour, so it parks. */
	parker pk = {.f = &f, .size = 12 * MiB};
	if (cross_thread_free)
		pk.given = fixture_malloc(&f, pk.size);
	pthread_mutex_init(&pk.lock, NULL);
	pthread_cond_init(&pk.cond, NULL);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, parker_main, &pk), 0);
	pthread_mutex_lock(&pk.lock);
	while (pk.phase != 1)
		pthread_cond_wait(&pk.cond, &pk.lock);
	pthread_mutex_unlock(&pk.lock);

	cm_stats before, after;
	cm_stats_get(f.heap, 0, &before);
	uintptr_t p = fixture_malloc(&f, pk.size);
	cm_stats_get(f.heap, 0, &after);
	assert_true(p == pk.parked);
	assert_int_equal(after.raw_alloc_calls, before.raw_alloc_calls);
	assert_int_equal(after.parked_taken_back, before.parked_taken_back + 1);
	fixture_check(&f);

	pthread_mutex_lock(&pk.lock);
	pk.phase = 2;
	pthread_cond_broadcast(&pk.cond);
	pthread_mutex_unlock(&pk.lock);
	pthread_join(t, NULL);
	fixture_free(&f, p);
	fixture_free_n(&f, live, n);
	free(live);
	fixture_close(&f);
}

#define ALIVE 2000
#define CHURNED 100000
#define BATCH 100

/* f opened on a device of capacity bytes; the heap's state of device 0. */
static cm_device *scale_open(fixture *f, size_t capacity)
{
	fixture_open(f, capacity, NULL);
	return &f->heap->devs[0];
}

/* Destroys s; returns how many segments its pools held. */
static size_t end_stream(fixture *f, cm_stream s)
{
	cm_stream_rec *r = cm_stream_find(&f->heap->devs[0], s);
	assert_non_null(r);
	size_t segs = r->small.segments + r->large.segments;
	fixture_stream_end(f, s);
	return segs;
}

/* 100k streams made, given a block and destroyed, BATCH alive at a time,
 * while ALIVE others each hold a block of their own segment: the checker
 * holds throughout, and ending a stream visits only what ends (counted by
 * the device, not timed). Orphaning visits the dead stream's own segment,
 * none of the ALIVE others; reaping visits each zombie it retires plus at
 * most CM_REAP_PENDING pending ones a call, never the live streams (a walk
 * over the non-blocking list visited ALIVE records at every creation). */
static void test_stream_churn(void **state)
{
	(void)state;
	fixture f;
	cm_device *d = scale_open(&f, (size_t)64 << 30);
	cm_stream *alive = calloc(ALIVE, sizeof(*alive));
	uintptr_t *held = calloc(ALIVE, sizeof(*held));
	assert_true(alive && held);
	for (size_t i = 0; i < ALIVE; i++) {
		alive[i] = fixture_stream(&f, true);
		held[i] = fixture_malloc_async(&f, 4096, alive[i]);
	}
	fixture_check(&f);
	assert_true(f.heap->devs[0].nsegs >= ALIVE);
	uint64_t reaps = d->visits.reaps, reaped = d->visits.reap, orphaned = d->visits.orphan;
	size_t dead_segs = 0;
	for (size_t done = 0; done < CHURNED; done += BATCH) {
		cm_stream s[BATCH];
		for (size_t j = 0; j < BATCH; j++) {
			s[j] = fixture_stream(&f, true);
			uintptr_t p = fixture_malloc_async(&f, 4096, s[j]);
			assert_int_equal(cm_free_async(f.heap, p, s[j]), CM_OK);
		}
		for (size_t j = 0; j < BATCH; j++)
			dead_segs += end_stream(&f, s[j]);
		if (done % 20000 == 0)
			fixture_check(&f);
	}
	fixture_device_sync(&f); /* every tail complete: the zombies go */
	fixture_check(&f);
	assert_int_equal(atomic_load(&d->zombies), 0);
	assert_int_equal(atomic_load(&d->user_streams), ALIVE);
	uint64_t calls = d->visits.reaps - reaps, visits = d->visits.reap - reaped;
	print_message("reap: %" PRIu64 " calls, %" PRIu64 " records visited; orphan: %" PRIu64
		      " segments visited, the dead streams held %zu\n",
		      calls, visits, d->visits.orphan - orphaned, dead_segs);
	assert_true(calls >= CHURNED);
	assert_true(visits <= CHURNED + CM_REAP_PENDING * calls);
	assert_true(dead_segs >= CHURNED / BATCH); /* the last of each batch keeps one */
	assert_int_equal(d->visits.orphan - orphaned, dead_segs);
	for (size_t i = 0; i < ALIVE; i++) {
		assert_int_equal(cm_free_async(f.heap, held[i], alive[i]), CM_OK);
		end_stream(&f, alive[i]);
	}
	free(alive);
	free(held);
	fixture_close(&f);
}

/* Zombies whose tails are held: each reap asks at most CM_REAP_PENDING of
 * them and sends them to the back, so one that completed behind them is
 * still reaped within a few creations, and no creation asks them all. */
static void test_pending_zombies_rotated(void **state)
{
	(void)state;
	fixture f;
	cm_device *d = scale_open(&f, (size_t)1 << 30);
	enum { HELD = 40 };
	sim_gate *gates[HELD];
	for (size_t i = 0; i < HELD; i++) {
		cm_stream s = fixture_stream(&f, true);
		gates[i] = sim_gate_enqueue(f.sim, 0, s);
		end_stream(&f, s);
	}
	cm_stream done = fixture_stream(&f, true);
	assert_int_equal(cm_stream_destroying(f.heap, 0, done), CM_OK);
	const cm_backend *be = sim_backend(f.sim);
	assert_int_equal(be->stream_synchronize(be->ctx, 0, done), CM_OK); /* its tail completed */
	assert_int_equal(sim_stream_destroy(f.sim, 0, done), CM_OK);
	assert_int_equal(atomic_load(&d->zombies), HELD + 1);
	cm_stream later[HELD / CM_REAP_PENDING + 1];
	for (size_t i = 0; i < HELD / CM_REAP_PENDING + 1; i++) {
		uint64_t visits = d->visits.reap;
		later[i] = fixture_stream(&f, true);
		assert_true(d->visits.reap - visits <= CM_REAP_PENDING + 1);
	}
	assert_int_equal(atomic_load(&d->zombies), HELD);
	fixture_check(&f);
	for (size_t i = 0; i < HELD; i++)
		sim_gate_open(gates[i]);
	for (size_t i = 0; i < HELD / CM_REAP_PENDING + 1; i++)
		end_stream(&f, later[i]);
	fixture_device_sync(&f);
	assert_int_equal(atomic_load(&d->zombies), 0);
	assert_int_equal(atomic_load(&d->user_streams), 0);
	fixture_close(&f);
}

/* Rule 4 without submissions seen: with 2 user streams alive, after 1000
 * others lived and retired, proving the streams idle asks those 2, not
 * every record the device ever made. */
static void test_idle_proof_asks_live_streams(void **state)
{
	(void)state;
	fixture f;
	cm_device *d = scale_open(&f, (size_t)1 << 30);
	cm_stream old[1000];
	for (size_t i = 0; i < 1000; i++)
		old[i] = fixture_stream(&f, true);
	for (size_t i = 0; i < 1000; i++)
		end_stream(&f, old[i]);
	fixture_device_sync(&f);
	size_t records = 0;
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next)
		records++;
	assert_true(records >= 1000);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, false);
	uintptr_t p = fixture_malloc(&f, 4096);
	fixture_free(&f, p);
	cm_stats st = fixture_stats(&f);
	uint64_t proofs = st.idle_proofs, visits = d->visits.idle;
	assert_int_equal(fixture_malloc(&f, 4096), p);
	st = fixture_stats(&f);
	assert_int_equal(st.idle_proofs, proofs + 1);
	assert_int_equal(d->visits.idle - visits, 2);
	fixture_free(&f, p);
	end_stream(&f, a);
	end_stream(&f, b);
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_blocks),
		{"test_parked_own_block", test_parked_taken_back, NULL, NULL, NULL},
		{"test_parked_cross_thread_free", test_parked_taken_back, NULL, NULL, (void *)"cross"},
		cmocka_unit_test(test_stream_churn),
		cmocka_unit_test(test_pending_zombies_rotated),
		cmocka_unit_test(test_idle_proof_asks_live_streams),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
