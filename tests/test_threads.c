/* tests/test_threads.c - many threads on one heap: per-thread caches,
 * frees from other threads, streams created and destroyed concurrently.
 * Run under ThreadSanitizer in CI. Each block carries a pattern checked
 * at free; the consistency checker runs once the threads have joined. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#include "fixture.h"
#include "internal.h"
#include "tcache_fast.h" /* the steal handshake's two sides */

#define THREADS 4
#define OPS 60000
#define SLOTS 64

typedef struct shared {
	fixture f;
	cm_stream nb;
	pthread_mutex_t lock; /* the hand-off slots */
	uintptr_t slot_p[SLOTS];
	size_t slot_size[SLOTS];
	unsigned char slot_pat[SLOTS];
} shared;

typedef struct worker {
	shared *sh;
	uint64_t rng;
	int id;
} worker;

static uint64_t rnd(worker *w)
{
	return fixture_rnd(&w->rng);
}

static void fill(uintptr_t p, size_t n, unsigned char pat)
{
	memset((void *)p, pat, n < 4096 ? n : 4096);
}

static void verify(uintptr_t p, size_t n, unsigned char pat)
{
	const unsigned char *m = (const unsigned char *)p;
	for (size_t i = 0; i < (n < 4096 ? n : 4096); i += 61)
		if (m[i] != pat)
			fail_msg("block %#lx corrupted: %u, not %u", (unsigned long)p, m[i], pat);
}

/* Swaps a block into a random hand-off slot; frees whatever was there. */
static void hand_off(worker *w, uintptr_t p, size_t n, unsigned char pat)
{
	shared *sh = w->sh;
	size_t i = rnd(w) % SLOTS;
	pthread_mutex_lock(&sh->lock);
	uintptr_t old = sh->slot_p[i];
	size_t old_n = sh->slot_size[i];
	unsigned char old_pat = sh->slot_pat[i];
	sh->slot_p[i] = p;
	sh->slot_size[i] = n;
	sh->slot_pat[i] = pat;
	pthread_mutex_unlock(&sh->lock);
	if (old) {
		verify(old, old_n, old_pat);
		assert_int_equal(cm_free(sh->f.heap, old), CM_OK);
	}
}

static void *work(void *arg)
{
	worker *w = arg;
	shared *sh = w->sh;
	enum { MINE = 32 };
	uintptr_t mine[MINE] = {0};
	size_t sizes[MINE];
	cm_stream streams[MINE];
	unsigned char pats[MINE];
	for (long n = 0; n < OPS; n++) {
		size_t i = rnd(w) % MINE;
		if (!mine[i]) {
			size_t size = rnd(w) % 4 == 0 ? 1 + rnd(w) % (4 << 20) : 1 + rnd(w) % 8192;
			uint64_t k = rnd(w) % 4;
			cm_stream s = k == 0 ? CM_STREAM_PER_THREAD : k == 1 ? sh->nb : (cm_stream)-1;
			cm_status st = s == (cm_stream)-1 ? cm_malloc(sh->f.heap, 0, size, &mine[i])
							  : cm_malloc_async(sh->f.heap, 0, size, s, &mine[i]);
			assert_int_equal(st, CM_OK);
			sizes[i] = size;
			streams[i] = s;
			pats[i] = (unsigned char)(w->id * 50 + rnd(w) % 50 + 1);
			fill(mine[i], size, pats[i]);
			continue;
		}
		verify(mine[i], sizes[i], pats[i]);
		uint64_t k = rnd(w) % 8;
		if (k == 0)
			hand_off(w, mine[i], sizes[i], pats[i]);
		else if (k < 3 && streams[i] != (cm_stream)-1)
			assert_int_equal(cm_free_async(sh->f.heap, mine[i], streams[i]), CM_OK);
		else
			assert_int_equal(cm_free(sh->f.heap, mine[i]), CM_OK);
		mine[i] = 0;
		if (rnd(w) % 4096 == 0) { /* streams come and go */
			fixture_stream_end(&sh->f, fixture_stream(&sh->f, true));
		}
		if (rnd(w) % 8192 == 0)
			fixture_device_sync(&sh->f);
	}
	for (size_t i = 0; i < MINE; i++)
		if (mine[i])
			assert_int_equal(cm_free(sh->f.heap, mine[i]), CM_OK);
	return NULL;
}

static void run_threads(const char *conf)
{
	shared *sh = calloc(1, sizeof(*sh));
	assert_non_null(sh);
	fixture_open(&sh->f, (size_t)4 << 30, conf);
	pthread_mutex_init(&sh->lock, NULL);
	sh->nb = fixture_stream(&sh->f, true);
	pthread_t t[THREADS];
	worker w[THREADS];
	for (int i = 0; i < THREADS; i++) {
		w[i] = (worker){.sh = sh, .rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1), .id = i};
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (size_t i = 0; i < SLOTS; i++)
		if (sh->slot_p[i]) {
			verify(sh->slot_p[i], sh->slot_size[i], sh->slot_pat[i]);
			assert_int_equal(cm_free(sh->f.heap, sh->slot_p[i]), CM_OK);
		}
	cm_thread_flush(sh->f.heap);
	fixture_check(&sh->f);
	cm_stats st;
	cm_stats_get(sh->f.heap, 0, &st);
	assert_int_equal(st.allocated_blocks, 0);
	assert_int_equal(st.alloc_calls, st.free_calls);
	print_message("  %-16s allocs %lu thread-cache hits %lu taken back %lu fences %lu raw allocs %lu\n",
		      conf ? conf : "default", (unsigned long)st.alloc_calls,
		      (unsigned long)st.thread_cache_hits, (unsigned long)st.parked_taken_back,
		      (unsigned long)st.fences, (unsigned long)st.raw_alloc_calls);
	fixture_close(&sh->f);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

/* ---- an owner's take racing a device taking its parked blocks back ----
 * (tcache.c's steal handshake, with membarrier and with the owner's own
 * fence) */

enum { RACE_OPS = 300000, RACE_SMALL = 4096 };

typedef struct race {
	fixture f;
	_Atomic bool started, done;
} race;

static uint64_t taken_back(race *r)
{
	cm_stats st;
	cm_stats_get(r->f.heap, 0, &st);
	return st.parked_taken_back;
}

/* Allocates and frees one small size, four blocks at a time, which then
 * stay parked a while: after the first round, every allocation is a take
 * from the thread's cache. Each block carries the thread's mark while
 * held: a block taken back while live would be handed to the other
 * thread, which overwrites it. */
static void race_small_pairs(race *r, unsigned char mark, int ops)
{
	for (int i = 0; i < ops; i += 4) {
		uintptr_t p[4];
		for (int j = 0; j < 4; j++) {
			assert_int_equal(cm_malloc(r->f.heap, 0, RACE_SMALL, &p[j]), CM_OK);
			memset((void *)p[j], mark, 64);
		}
		for (int j = 0; j < 4; j++) {
			for (int k = 0; k < 64; k++)
				assert_int_equal(((volatile unsigned char *)p[j])[k], mark);
			assert_int_equal(cm_free(r->f.heap, p[j]), CM_OK);
		}
		for (volatile int spin = 0; spin < 64; spin++)
			; /* parked meanwhile */
	}
}

/* Until the taker is done, and RACE_OPS pairs at least. */
static void *race_owner(void *arg)
{
	race *r = arg;
	for (int n = 0; n < RACE_OPS || !atomic_load(&r->done); n += 1000) {
		race_small_pairs(r, 0xa5, 1000);
		atomic_store(&r->started, true);
	}
	return NULL;
}

/* Each new segment takes every parked block of the device back first
 * (cm_tc_steal_parked_locked): a large block on an emptied cache. Until
 * 50 blocks were taken back (at most 20000 rounds, however the threads
 * are scheduled). */
static void *race_taker(void *arg)
{
	race *r = arg;
	while (!atomic_load(&r->started))
		sched_yield();
	for (int round = 0; round < 20000 && taken_back(r) < 50; round++) {
		uintptr_t q = 0;
		assert_int_equal(cm_malloc(r->f.heap, 0, 64 << 20, &q), CM_OK);
		assert_int_equal(cm_free(r->f.heap, q), CM_OK);
		cm_thread_flush(r->f.heap); /* its own cache may park q */
		cm_release_cached(r->f.heap, 0);
		race_small_pairs(r, 0x5a, 4);
	}
	atomic_store(&r->done, true);
	return NULL;
}

static void run_take_race(void)
{
	race *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	fixture_open(&r->f, (size_t)1 << 30, NULL);
	pthread_t owner, taker;
	pthread_create(&owner, NULL, race_owner, r);
	pthread_create(&taker, NULL, race_taker, r);
	pthread_join(owner, NULL);
	pthread_join(taker, NULL);
	cm_thread_flush(r->f.heap);
	fixture_check(&r->f);
	cm_stats st;
	cm_stats_get(r->f.heap, 0, &st);
	print_message("  take race: thread-cache hits %lu, taken back %lu, segments made %lu\n",
		      (unsigned long)st.thread_cache_hits, (unsigned long)st.parked_taken_back,
		      (unsigned long)st.raw_alloc_calls);
	assert_true(st.parked_taken_back > 0); /* 50 unless the threads hardly ran together */
	assert_true(st.thread_cache_hits > RACE_OPS / 2);
	fixture_close(&r->f);
	free(r);
}

static void test_take_race(void **s)
{
	(void)s;
	run_take_race();
}

/* ---- the steal handshake step by step (tcache.c): an owner takes
 * nothing while a device takes blocks back, a device waits while the owner
 * is inside a take, and an emptied cache is not asked ---- */

typedef struct handshake {
	fixture f;
	_Atomic bool inside, stolen;
	_Atomic size_t took;
} handshake;

static size_t steal_now(handshake *k)
{
	cm_device *d = &k->f.heap->devs[0];
	pthread_mutex_lock(&d->lock);
	size_t n = cm_tc_steal_parked_locked(d);
	pthread_mutex_unlock(&d->lock);
	return n;
}

static void *handshake_owner(void *arg)
{
	handshake *k = arg;
	uintptr_t p = 0;
	assert_int_equal(cm_malloc(k->f.heap, 0, RACE_SMALL, &p), CM_OK);
	assert_int_equal(cm_free(k->f.heap, p), CM_OK); /* parked */
	cm_tcache *tc = cm_tc_self;
	atomic_fetch_add(&tc->steals, 1); /* as a device taking blocks back */
	uintptr_t q = cm_malloc_cached(k->f.heap, 0, RACE_SMALL);
	atomic_fetch_sub(&tc->steals, 1);
	assert_int_equal(q, 0); /* the bin held p: a take while steals is raised takes nothing */
	assert_int_equal(cm_malloc_cached(k->f.heap, 0, RACE_SMALL), p);
	assert_int_equal(steal_now(k), 0);
	assert_false(cm_tc_dev_of(tc, 0)->asked); /* an emptied cache: not asked */
	assert_true(cm_free_cached(k->f.heap, p)); /* parked again */
	assert_true(cm_tc_enter(tc));
	atomic_store(&k->inside, true);
	while (!atomic_load(&tc->steals) && !atomic_load(&k->stolen))
		sched_yield();
	assert_false(atomic_load(&k->stolen)); /* the device waits for the take */
	for (int i = 0; i < 50 && !atomic_load(&k->stolen); i++)
		usleep(1000);
	assert_false(atomic_load(&k->stolen)); /* the device waits for the take */
	cm_tc_leave(tc);
	while (!atomic_load(&k->stolen))
		sched_yield();
	assert_int_equal(atomic_load(&k->took), 1);
	return NULL;
}

static void run_handshake(void)
{
	handshake *k = calloc(1, sizeof(*k));
	assert_non_null(k);
	fixture_open(&k->f, (size_t)1 << 30, NULL);
	pthread_t owner;
	pthread_create(&owner, NULL, handshake_owner, k);
	while (!atomic_load(&k->inside))
		sched_yield();
	atomic_store(&k->took, steal_now(k));
	atomic_store(&k->stolen, true);
	pthread_join(owner, NULL);
	fixture_check(&k->f);
	fixture_close(&k->f);
	free(k);
}

static void test_steal_handshake(void **s)
{
	(void)s;
	run_handshake();
	cm_tc_refuse_membarrier(true);
	run_handshake();
	cm_tc_refuse_membarrier(false);
}

static void test_take_race_owner_fences(void **s)
{
	(void)s;
	cm_tc_refuse_membarrier(true); /* the threads' caches are made anew */
	run_take_race();
	cm_tc_refuse_membarrier(false);
}

static void test_threads_default(void **s) { (void)s; run_threads(NULL); }
static void test_threads_host(void **s) { (void)s; run_threads("free_fence:host"); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_default),
		cmocka_unit_test(test_threads_host),
		cmocka_unit_test(test_take_race),
		cmocka_unit_test(test_take_race_owner_fences),
		cmocka_unit_test(test_steal_handshake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
