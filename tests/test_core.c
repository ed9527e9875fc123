/* tests/test_core.c - rounding, the free index, split and merge, and the
 * reuse rules of the fence protocol, asserted on the simulator's record of
 * calls and on the bytes the streams really wrote. */
#include <pthread.h>
#include <unistd.h>

#include "fixture.h"
#include "internal.h"

/* ---- rounding and segment sizes ---- */

static void test_round_sizes(void **state)
{
	(void)state;
	cm_config cfg;
	cm_config_defaults(&cfg);
	assert_int_equal(cm_round_size(&cfg, 1), 512);
	assert_int_equal(cm_round_size(&cfg, 512), 512);
	assert_int_equal(cm_round_size(&cfg, 513), 1024);
	assert_int_equal(cm_round_size(&cfg, MiB + 1), MiB + 512);
	assert_int_equal(cm_size_segment(512), 2 * MiB);
	assert_int_equal(cm_size_segment(MiB), 2 * MiB);
	assert_int_equal(cm_size_segment(MiB + 512), 20 * MiB);
	assert_int_equal(cm_size_segment(10 * MiB), 20 * MiB);
	assert_int_equal(cm_size_segment(10 * MiB + 512), 12 * MiB);
	assert_int_equal(cm_size_segment(31 * MiB), 32 * MiB);
	assert_int_equal(cm_round_size(&cfg, SIZE_MAX), SIZE_MAX);
}

static void test_round_power2_divisions(void **state)
{
	(void)state;
	cm_config cfg;
	cm_config_defaults(&cfg);
	assert_int_equal(cm_config_parse(&cfg, "roundup_power2_divisions:4", NULL), 0);
	/* 1 MiB..2 MiB in four steps of 256 KiB, as PyTorch. */
	assert_int_equal(cm_round_size(&cfg, MiB + 1), MiB + 256 * 1024);
	assert_int_equal(cm_round_size(&cfg, 3 * MiB), 3 * MiB);
	assert_int_equal(cm_round_size(&cfg, 5 * MiB + 1), 6 * MiB);
	assert_int_equal(cm_round_size(&cfg, 1000), 1024); /* below 512 * 4: plain */
	assert_int_equal(cm_round_size(&cfg, 4 * MiB), 4 * MiB);
}

/* ---- the free index ---- */

static int cmp_key(size_t s1, uintptr_t a1, size_t s2, uintptr_t a2)
{
	return s1 != s2 ? (s1 < s2 ? -1 : 1) : (a1 < a2 ? -1 : a1 > a2);
}

static void test_tree_best_fit(void **state)
{
	(void)state;
	enum { N = 2000 };
	static cm_tnode nodes[N];
	static bool in[N];
	cm_tnode *root = NULL;
	srand(7);
	for (int round = 0; round < 20000; round++) {
		int i = rand() % N;
		if (!in[i]) {
			nodes[i].size = (size_t)(rand() % 64 + 1) * 512;
			nodes[i].addr = (uintptr_t)(i + 1) * 4096;
			cm_tree_insert(&root, &nodes[i]);
		} else {
			cm_tree_remove(&root, &nodes[i]);
		}
		in[i] = !in[i];
		size_t want = (size_t)(rand() % 66) * 512;
		const cm_tnode *best = NULL;
		size_t count = 0;
		for (int j = 0; j < N; j++) {
			if (!in[j])
				continue;
			count++;
			if (cmp_key(nodes[j].size, nodes[j].addr, want, 0) >= 0 &&
			    (!best || cmp_key(nodes[j].size, nodes[j].addr, best->size, best->addr) < 0))
				best = &nodes[j];
		}
		assert_ptr_equal(cm_tree_lower_bound(root, want, 0), best);
		if (round % 1000 == 0)
			assert_int_equal(cm_tree_count(root), count);
	}
}

/* ---- split, merge, pools ---- */

static void test_split_and_merge(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t a = fixture_malloc(&f, 1000);
	uintptr_t b = fixture_malloc(&f, 3000);
	uintptr_t c = fixture_malloc(&f, 512);
	/* Carved in order from one 2 MiB segment. */
	assert_int_equal(b, a + 1024);
	assert_int_equal(c, b + 3072);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 1);
	fixture_check(&f);

	cm_stats st;
	fixture_free(&f, b);
	cm_thread_flush(f.heap);
	fixture_check(&f);
	st = fixture_stats(&f);
	assert_int_equal(st.allocated_bytes, 1024 + 512);
	assert_int_equal(st.inactive_split_bytes, 2 * MiB - 1024 - 512);
	/* The hole at b is best fit for a 3000-byte request. */
	assert_int_equal(fixture_malloc(&f, 2600), b);
	fixture_free(&f, b, a, c);
	cm_thread_flush(f.heap);
	fixture_check(&f);
	st = fixture_stats(&f);
	assert_int_equal(st.allocated_bytes, 0);
	assert_int_equal(st.inactive_split_bytes, 0); /* merged into one idle segment */
	assert_int_equal(st.reserved_bytes, 2 * MiB);
	/* Large: one request bigger than a 2 MiB segment gets its own. */
	uintptr_t big = fixture_malloc(&f, 30 * MiB + 1);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 2);
	assert_int_equal(sim_log_get(f.sim, sim_log_count(f.sim) - 1).size, 32 * MiB);
	fixture_free(&f, big);
	fixture_close(&f);
}

static void test_mid_sizes_share_20mib_segments(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t p[4];
	for (int i = 0; i < 4; i++)
		p[i] = fixture_malloc(&f, 4 * MiB);
	/* Four 4 MiB blocks: the first 20 MiB segment holds them all. */
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 1);
	for (int i = 1; i < 4; i++)
		assert_int_equal(p[i], p[i - 1] + 4 * MiB);
	/* Small requests never come from the large pool. */
	uintptr_t s = fixture_malloc(&f, 4096);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 2);
	assert_true(s < p[0] || s >= p[0] + 20 * MiB);
	fixture_free_n(&f, p, 4);
	fixture_free(&f, s);
	fixture_close(&f);
}

static void test_max_split_size(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 4 * GiB, "max_split_size_mb:40");
	uintptr_t big = fixture_malloc(&f, 100 * MiB);
	fixture_free(&f, big);
	cm_thread_flush(f.heap);
	/* 100 MiB is above max_split: not split for 50 MiB (waste >= 20 MiB)... */
	uintptr_t half = fixture_malloc(&f, 50 * MiB);
	assert_true(half != big);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 2);
	/* ...nor for a small one; but it serves 90 MiB whole. */
	uintptr_t small = fixture_malloc(&f, 30 * MiB);
	assert_true(small != big);
	uintptr_t near = fixture_malloc(&f, 90 * MiB);
	assert_int_equal(near, big);
	fixture_check(&f);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.allocated_bytes, 100 * MiB + 50 * MiB + 30 * MiB);
	fixture_free(&f, half, small, near);
	fixture_close(&f);
}

static void test_bad_frees(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t p = fixture_malloc(&f, 4096);
	uintptr_t q = fixture_malloc(&f, 4096);
	fixture_free(&f, 0);
	assert_int_equal(cm_free(f.heap, p + 512), CM_ERR_INVALID); /* interior */
	assert_int_equal(cm_free(f.heap, 12345), CM_ERR_NOT_OURS);
	fixture_free(&f, p);
	assert_int_equal(cm_free(f.heap, p), CM_ERR_INVALID); /* double, parked */
	cm_thread_flush(f.heap);
	assert_int_equal(cm_free(f.heap, p), CM_ERR_INVALID); /* double, merged */
	fixture_check(&f);
	fixture_free(&f, q);
	uintptr_t z = 1;
	assert_int_equal(cm_malloc(f.heap, 0, 0, &z), CM_OK);
	assert_int_equal(z, 0);
	assert_int_equal(cm_malloc(f.heap, 0, SIZE_MAX - 4, &z), CM_ERR_OOM);
	assert_int_equal(cm_malloc(f.heap, 3, 16, &z), CM_ERR_INVALID);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.invalid_frees, 3);
	assert_int_equal(st.oom_count, 1);
	fixture_close(&f);
}

static void test_stats_json_keys(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t p = fixture_malloc(&f, 100);
	fixture_free(&f, p);
	p = fixture_malloc(&f, 100);
	cm_stats st;
	cm_stats_get(f.heap, -1, &st);
	assert_int_equal(st.alloc_calls, 2);
	assert_int_equal(st.free_calls, 1);
	assert_int_equal(st.cache_hits, 1);
	assert_int_equal(st.raw_alloc_calls, 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	cm_stats_print_json(&st, out);
	fclose(out);
	const char *keys[] = {"alloc_calls", "free_calls", "cache_hits", "raw_alloc_calls",
			      "raw_free_calls", "fences", "alloc_retries", "oom_count",
			      "allocated_bytes", "reserved_bytes", "peak_allocated_bytes",
			      "peak_reserved_bytes"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "\"%s\": ", keys[i]);
		assert_non_null(strstr(buf, quoted));
	}
	assert_non_null(strstr(buf, "\"alloc_calls\": 2,"));
	assert_non_null(strstr(buf, "\"reserved_bytes\": 2097152,"));
	free(buf);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* ---- the fence protocol ---- */

/* Rule 1: same stream, immediately, with no device call. */
static void test_rule1_same_stream(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc_async(&f, 8192, a);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, a); /* a stays busy */
	assert_int_equal(cm_free_async(f.heap, p, a), CM_OK);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc_async(&f, 8192, a), p);
	assert_int_equal(sim_log_count(f.sim), 0);
	/* Through the shared pool too, not just the thread's cache. */
	assert_int_equal(cm_free_async(f.heap, p, a), CM_OK);
	cm_thread_flush(f.heap);
	assert_int_equal(fixture_malloc_async(&f, 8192, a), p);
	assert_int_equal(sim_log_count(f.sim), 0);
	sim_gate_open(g);
	assert_int_equal(cm_free_async(f.heap, p, a), CM_OK);
	fixture_close(&f);
}

/* The race the protocol prevents: stream a writes 1 into p after a gate;
 * p is freed and handed to stream b, which writes 2. Correct reuse leaves
 * 2 (b ordered after a); a premature reuse leaves 1. */
typedef struct race {
	fixture f;
	cm_stream a, b;
	sim_gate *gate;
	uintptr_t p;
} race;

static void race_setup(race *r, const char *conf, bool nonblocking)
{
	fixture_open(&r->f, GiB, conf);
	r->a = fixture_stream(&r->f, nonblocking);
	r->b = fixture_stream(&r->f, nonblocking);
	r->gate = sim_gate_enqueue(r->f.sim, 0, r->a);
}

static unsigned char race_finish(race *r, uintptr_t q)
{
	assert_int_equal(sim_memset_async(r->f.sim, 0, q, 2, 4096, r->b), CM_OK);
	/* Give an unordered b time to run first: until it is idle, or 200 ms
	 * when it waits for a (ordered). */
	const cm_backend *be = sim_backend(r->f.sim);
	for (int i = 0; i < 200 && be->stream_query(be->ctx, 0, r->b) != CM_OK; i++)
		usleep(1000);
	sim_gate_open(r->gate);
	fixture_device_sync(&r->f);
	unsigned char v = *(volatile unsigned char *)r->p;
	return v;
}

static void test_rule2_cross_stream_waits(void **state)
{
	(void)state;
	race r;
	race_setup(&r, NULL, true);
	r.p = fixture_malloc_async(&r.f, 4096, r.a);
	assert_int_equal(sim_memset_async(r.f.sim, 0, r.p, 1, 4096, r.a), CM_OK);
	assert_int_equal(cm_free_async(r.f.heap, r.p, r.a), CM_OK);
	cm_thread_flush(r.f.heap);
	sim_log_clear(r.f.sim);
	uintptr_t q = fixture_malloc_async(&r.f, 4096, r.b);
	assert_int_equal(q, r.p); /* the idle segment moved from a to b */
	/* An event recorded on a, and b made to wait on it. */
	assert_int_equal(fixture_logged(&r.f, SIM_EVENT_RECORD), 1);
	assert_int_equal(sim_log_get(r.f.sim, 0).stream, r.a);
	assert_int_equal(fixture_logged(&r.f, SIM_STREAM_WAIT_EVENT), 1);
	bool waited = false;
	for (size_t i = 0; i < sim_log_count(r.f.sim); i++) {
		sim_log_entry e = sim_log_get(r.f.sim, i);
		waited |= e.call == SIM_STREAM_WAIT_EVENT && e.stream == r.b;
	}
	assert_true(waited);
	assert_int_equal(race_finish(&r, q), 2);
	assert_int_equal(cm_free_async(r.f.heap, q, r.b), CM_OK);
	fixture_close(&r.f);
}

static void test_rule2_completed_needs_no_wait(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc_async(&f, 4096, a);
	assert_int_equal(cm_free_async(f.heap, p, a), CM_OK);
	cm_thread_flush(f.heap);
	sim_log_clear(f.sim);
	for (int i = 0; i < 100 && sim_call_count(f.sim, SIM_EVENT_RECORD) == 0; i++)
		usleep(100);
	assert_int_equal(fixture_malloc_async(&f, 4096, b), p);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 0);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Rule 3: cudaFree'd block, wanted by cudaMalloc, with a non-blocking
 * stream alive: a full fence orders the new owner after the old work. */
static void test_rule3_fence_orders_reuse(void **state)
{
	(void)state;
	race r;
	race_setup(&r, CM_ORDER_AT_ONCE, true);
	r.p = fixture_malloc(&r.f, 4096);
	assert_int_equal(sim_memset_async(r.f.sim, 0, r.p, 1, 4096, r.a), CM_OK);
	assert_int_equal(cm_free(r.f.heap, r.p), CM_OK);
	sim_log_clear(r.f.sim);
	uintptr_t q = fixture_malloc(&r.f, 4096);
	assert_int_equal(q, r.p);
	cm_stats st;
	cm_stats_get(r.f.heap, 0, &st);
	assert_int_equal(st.fences, 1);
	/* One event per non-blocking stream and one on legacy, four waits. */
	assert_int_equal(fixture_logged(&r.f, SIM_EVENT_RECORD), 3);
	assert_int_equal(fixture_logged(&r.f, SIM_STREAM_WAIT_EVENT), 4);
	assert_int_equal(race_finish(&r, q), 2);
	/* One fence covers everything freed before it. */
	uintptr_t x = fixture_malloc(&r.f, 8192), y = fixture_malloc(&r.f, 8192);
	assert_int_equal(cm_free(r.f.heap, x), CM_OK);
	assert_int_equal(cm_free(r.f.heap, y), CM_OK);
	assert_int_equal(cm_free(r.f.heap, q), CM_OK);
	fixture_close(&r.f);
}

/* The same program with free_fence:none reuses at once: the race shows. */
static void test_fence_none_races(void **state)
{
	(void)state;
#if defined(__SANITIZE_THREAD__)
	skip(); /* the race is the point: ThreadSanitizer would rightly stop it */
#endif
	race r;
	race_setup(&r, "free_fence:none", true);
	r.p = fixture_malloc(&r.f, 4096);
	assert_int_equal(sim_memset_async(r.f.sim, 0, r.p, 1, 4096, r.a), CM_OK);
	assert_int_equal(cm_free(r.f.heap, r.p), CM_OK);
	sim_log_clear(r.f.sim);
	uintptr_t q = fixture_malloc(&r.f, 4096);
	assert_int_equal(q, r.p);
	assert_int_equal(sim_log_count(r.f.sim), 0);
	assert_int_equal(race_finish(&r, q), 1); /* b wrote first, a overwrote */
	assert_int_equal(cm_free(r.f.heap, q), CM_OK);
	fixture_close(&r.f);
}

/* free_fence:host: the reuse waits for a device synchronization, which
 * returns only once a's write is done. */
static void test_fence_host_synchronizes(void **state)
{
	(void)state;
	race r;
	race_setup(&r, "free_fence:host", true);
	r.p = fixture_malloc(&r.f, 4096);
	assert_int_equal(sim_memset_async(r.f.sim, 0, r.p, 1, 4096, r.a), CM_OK);
	assert_int_equal(cm_free(r.f.heap, r.p), CM_OK);
	sim_log_clear(r.f.sim);
	pthread_t t;
	pthread_create(&t, NULL, fixture_open_gate_later, r.gate);
	uintptr_t q = fixture_malloc(&r.f, 4096);
	assert_int_equal(q, r.p);
	assert_int_equal(fixture_logged(&r.f, SIM_DEVICE_SYNCHRONIZE), 1);
	assert_int_equal(*(volatile unsigned char *)r.p, 1);
	pthread_join(t, NULL);
	assert_int_equal(sim_memset_async(r.f.sim, 0, q, 2, 4096, r.b), CM_OK);
	fixture_device_sync(&r.f);
	assert_int_equal(*(volatile unsigned char *)r.p, 2);
	assert_int_equal(cm_free(r.f.heap, q), CM_OK);
	fixture_close(&r.f);
}

/* Rule 4: one thread, no stream but the default ones: no device call. */
static void test_rule4_single_stream_no_calls(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_log_clear(f.sim);
	for (int i = 0; i < 1000; i++) {
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p);
	}
	/* Also through the shared pool (a different size each time). */
	for (size_t sz = 512; sz < 64 * 1024; sz += 512) {
		uintptr_t q = fixture_malloc(&f, sz);
		fixture_free(&f, q);
	}
	assert_int_equal(sim_log_count(f.sim), 0);
	fixture_free(&f, p);
	fixture_close(&f);
}

static void *free_on_thread(void *arg)
{
	void **a = arg;
	assert_int_equal(cm_free(a[0], (uintptr_t)a[1]), CM_OK);
	return NULL;
}

/* A block freed by another thread needs a fence even without streams. */
static void test_rule4_cross_thread_fences(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t p = fixture_malloc(&f, 4096);
	pthread_t t;
	void *args[2] = {f.heap, (void *)p};
	pthread_create(&t, NULL, free_on_thread, args);
	pthread_join(t, NULL);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.fences, 1);
	assert_int_equal(fixture_logged(&f, SIM_EVENT_RECORD), 1);
	assert_int_equal(sim_log_get(f.sim, 0).stream, CM_STREAM_LEGACY);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* With user streams alive but idle, a block this thread freed is proven
 * complete by asking them, cheaper than a fence; a busy one means a fence. */
static void test_rule4_idle_streams_instead_of_fence(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 1, 4096, a), CM_OK);
	fixture_stream_sync(&f, a);
	fixture_free(&f, p);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.idle_proofs, 1);
	assert_int_equal(st.fences, 0);
	/* legacy, this thread's per-thread stream, and a */
	assert_int_equal(fixture_logged(&f, SIM_STREAM_QUERY), 3);
	assert_int_equal(fixture_logged(&f, SIM_EVENT_RECORD), 0);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, a);
	fixture_free(&f, p);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	st = fixture_stats(&f);
	assert_int_equal(st.idle_proofs, 1);
	assert_int_equal(st.fences, 1);
	sim_gate_open(g);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Work on the legacy stream keeps a block pending even when every user
 * stream is idle: the idle proof asks the legacy stream too. */
static void test_rule4_idle_proof_sees_legacy_work(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, CM_STREAM_LEGACY);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 1, 4096, CM_STREAM_LEGACY), CM_OK);
	fixture_free(&f, p);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.idle_proofs, 0);
	assert_int_equal(st.fences, 1);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 2, 4096, a), CM_OK);
	fixture_gate_check(&f, g, p, 2);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* A block reused under rule 4 (no stream but the default ones, no fence)
 * stays ordered for a non-blocking stream created afterwards. */
static void test_rule4_new_stream_ordered_after_reuse(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, CM_STREAM_LEGACY);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 1, 4096, CM_STREAM_LEGACY), CM_OK);
	fixture_free(&f, p);
	assert_int_equal(fixture_malloc(&f, 4096), p); /* rule 4: no device call */
	cm_stream a = fixture_stream(&f, true);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 2, 4096, a), CM_OK);
	fixture_gate_check(&f, g, p, 2);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Rule 6: a synchronization proves completion: no fence afterwards. */
static void test_rule6_sync_proves_completion(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc_async(&f, 4096, a);
	uintptr_t q = fixture_malloc(&f, 4096 * 4);
	assert_int_equal(cm_free_async(f.heap, p, a), CM_OK);
	fixture_stream_sync(&f, a);
	cm_thread_flush(f.heap);
	/* Freed on a, then a synchronized: another stream may take it at once. */
	cm_stream b = fixture_stream(&f, true);
	sim_log_clear(f.sim);
	uintptr_t r = fixture_malloc_async(&f, 4096, b);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 0);
	assert_int_equal(fixture_logged(&f, SIM_EVENT_RECORD), 0);
	assert_int_equal(r, p);
	fixture_free(&f, q);
	fixture_device_sync(&f);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc(&f, 4096 * 4), q);
	assert_int_equal(sim_log_count(f.sim), 0);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.fences, 0);
	fixture_free(&f, q, r);
	fixture_close(&f);
}

/* Rule 5: a destroyed stream is waited for until its work completes; a
 * stream created after a fence is ordered after it. */
static void test_rule5_stream_lifetime(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, a);
	uintptr_t p = fixture_malloc(&f, 4096);
	fixture_stream_end(&f, a);
	fixture_free(&f, p);
	sim_log_clear(f.sim);
	/* Still pending on the dead stream: a fence waits on its tail. */
	assert_int_equal(fixture_malloc(&f, 4096), p);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 1);
	sim_gate_open(g);
	fixture_device_sync(&f);
	sim_log_clear(f.sim);
	/* A new stream waits on an event of the legacy stream recorded now and
	 * on the last fence's. */
	cm_stream b = fixture_stream(&f, true);
	assert_int_equal(fixture_logged(&f, SIM_EVENT_RECORD), 1);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 2);
	for (size_t i = 0; i < sim_log_count(f.sim); i++) {
		sim_log_entry e = sim_log_get(f.sim, i);
		if (e.call == SIM_STREAM_WAIT_EVENT)
			assert_int_equal(e.stream, b);
		if (e.call == SIM_EVENT_RECORD)
			assert_int_equal(e.stream, CM_STREAM_LEGACY);
	}
	fixture_free(&f, p);
	fixture_close(&f);
}

/* A program creating and destroying a stream per request keeps a bounded
 * number of stream records: dead ones are reused. */
static void test_stream_records_reused(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	for (int i = 0; i < 500; i++) {
		cm_stream s = fixture_stream(&f, i % 2 == 0);
		uintptr_t p = fixture_malloc_async(&f, 4096, s);
		assert_int_equal(cm_free_async(f.heap, p, s), CM_OK);
		fixture_stream_end(&f, s);
		if (i % 10 == 9)
			fixture_device_sync(&f);
	}
	fixture_device_sync(&f);
	size_t records = 0;
	for (cm_stream_rec *r = f.heap->devs[0].all_streams; r; r = r->all_next)
		records++;
	assert_true(records <= 12);
	assert_int_equal(atomic_load(&f.heap->devs[0].user_streams), 0);
	fixture_close(&f);
}

/* Rule 7: no fence work on a capturing stream: fresh memory instead. */
static void test_rule7_capture_takes_fresh_memory(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	uintptr_t keep = fixture_malloc(&f, 4096);
	fixture_free(&f, p);
	sim_set_capturing(f.sim, 0, a, true);
	sim_log_clear(f.sim);
	uintptr_t q = fixture_malloc(&f, MiB);
	assert_int_equal(fixture_logged(&f, SIM_EVENT_RECORD), 0);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 0);
	assert_true(q != p);
	sim_set_capturing(f.sim, 0, a, false);
	fixture_free(&f, q, keep);
	fixture_close(&f);
}

/* A device with more non-blocking streams than CM_FENCE_MAX_NB, so that
 * blocks awaiting a proof get it from collects; s (if given) receives
 * the streams. */
enum { MANY_NB = 2 * CM_FENCE_MAX_NB };
static void fixture_open_many_streams(fixture *f, const char *conf, cm_stream s[MANY_NB])
{
	fixture_open(f, GiB, conf);
	for (int i = 0; i < MANY_NB; i++) {
		cm_stream st = fixture_stream(f, true);
		if (s)
			s[i] = st;
	}
}

/* Many non-blocking streams: completion (collects) instead of fences. A
 * collect starts once 1/CM_COLLECT_BATCH_DIV of max_pending_mb awaits:
 * p is that much. */
static void test_many_streams_collect(void **state)
{
	(void)state;
	fixture f;
	fixture_open_many_streams(&f, "max_pending_mb:1", NULL);
	uintptr_t p = fixture_malloc(&f, MiB / CM_COLLECT_BATCH_DIV);
	uintptr_t keep = fixture_malloc(&f, 4096);
	fixture_free(&f, p);
	uintptr_t q = fixture_malloc(&f, 4096);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.fences, 0);
	assert_int_equal(st.collects, 1);
	assert_true(q != p); /* p pending until the collect completes */
	usleep(20000);
	/* The collect is polled when a search misses: p comes back once the
	 * rest of the segment is taken, without a fence. */
	uintptr_t more[1024];
	size_t n = 0;
	while (n < 1024 && (more[n] = fixture_malloc(&f, 4096)) != p)
		n++;
	assert_true(n < 1024);
	st = fixture_stats(&f);
	assert_int_equal(st.fences, 0);
	assert_int_equal(st.raw_alloc_calls, 1);
	fixture_free(&f, q);
	fixture_free_n(&f, more, n + 1);
	fixture_free(&f, keep);
	fixture_close(&f);
}

/* A collect costs a record and a query per stream that ran: one starts
 * once the blocks awaiting it reach 1/CM_COLLECT_BATCH_DIV of
 * max_pending_mb (128 KiB of 1 MiB), not for the first 4 KiB. N - 1
 * blocks of 4 KiB await without one; the N-th starts it; once it
 * completed all N come back. */
static void test_collect_waits_for_a_batch(void **state)
{
	(void)state;
	fixture f;
	fixture_open_many_streams(&f, "max_pending_mb:1", NULL);
	enum { N = (MiB / CM_COLLECT_BATCH_DIV) / 4096 };
	uintptr_t p[N], keep[N];
	for (int i = 0; i < N; i++) { /* kept apart, so that no two merge */
		p[i] = fixture_malloc(&f, 4096);
		keep[i] = fixture_malloc(&f, 4096);
	}
	fixture_free_n(&f, p, N - 1);
	uintptr_t q = fixture_malloc(&f, 4096); /* passes over the N - 1 */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.pending_bytes, (N - 1) * 4096);
	assert_int_equal(st.collects, 0);
	fixture_free(&f, p[N - 1]);
	uintptr_t r = fixture_malloc(&f, 4096); /* the batch: a collect starts */
	st = fixture_stats(&f);
	assert_int_equal(st.pending_bytes, N * 4096);
	assert_int_equal(st.collects, 1);
	usleep(20000);
	uintptr_t big = fixture_malloc(&f, 4 * MiB); /* misses, so polls: they come back */
	st = fixture_stats(&f);
	assert_int_equal(st.pending_bytes, 0);
	assert_int_equal(st.collects, 1);
	assert_int_equal(st.fences, 0);
	fixture_check(&f);
	fixture_free(&f, big, q, r);
	fixture_free_n(&f, keep, N);
	fixture_close(&f);
}

/* A proof puts back the awaiting blocks it proves and no others: eight
 * blocks freed before the collect come back when it completes, eight
 * freed after it stay awaiting (their bytes still pending), and only the
 * eight are moved. */
static void test_proof_returns_only_what_it_proves(void **state)
{
	(void)state;
	fixture f;
	cm_stream s[MANY_NB];
	fixture_open_many_streams(&f, "max_pending_mb:64", s);
	cm_device *d = &f.heap->devs[0];
	sim_gate *gate = sim_gate_enqueue(f.sim, 0, s[0]); /* the collect stays pending */
	enum { N = 8 };
	size_t size = 64 * MiB / CM_COLLECT_BATCH_DIV / N; /* N of them: a batch */
	uintptr_t before[N], after[N], keep[2 * N];
	for (int i = 0; i < N; i++) { /* kept apart, so that no two merge */
		before[i] = fixture_malloc(&f, size);
		keep[i] = fixture_malloc(&f, size);
		after[i] = fixture_malloc(&f, size);
		keep[N + i] = fixture_malloc(&f, size);
	}
	fixture_free_n(&f, before, N);
	uintptr_t q = fixture_malloc(&f, size); /* sets them aside, starts the collect */
	fixture_free_n(&f, after, N);
	uintptr_t r = fixture_malloc(&f, size); /* sets these aside too */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.collects, 1);
	assert_int_equal(st.pending_bytes, 2 * N * size);
	sim_gate_open(gate);
	usleep(20000);
	uint64_t returned = d->visits.returned;
	uintptr_t big = fixture_malloc(&f, 4 * MiB); /* misses, polls: the collect completed */
	st = fixture_stats(&f);
	assert_int_equal(st.pending_bytes, N * size); /* the later ones */
	assert_int_equal(d->visits.returned - returned, N);
	fixture_check(&f);
	fixture_free(&f, big, q, r);
	fixture_free_n(&f, keep, 2 * N);
	fixture_close(&f);
}

/* A single-stream loop of varying sizes (the shapes of a dynamic-shape
 * program): one block live at a time, freed on the stream it was used on,
 * sizes of 512 B to 8 MiB drawn at random. What the cache holds stays
 * within the largest live set plus one segment of each class (small
 * 2 MiB, mid 20 MiB): freed memory is reused, never set aside. Default
 * and expandable segments, cudaMalloc and cudaMallocAsync alike. */
static void varying_sizes_loop(const char *conf, bool async)
{
	fixture f;
	fixture_open(&f, 4 * GiB, conf);
	cm_stream s = async ? fixture_stream(&f, true) : 0;
	enum { LIVE = 1, ROUNDS = 20000 };
	uintptr_t live[LIVE] = {0};
	size_t size[LIVE] = {0}, held = 0, peak = 0;
	unsigned seed = 7;
	for (int i = 0; i < ROUNDS; i++) {
		int k = rand_r(&seed) % LIVE;
		if (live[k]) {
			assert_int_equal(async ? cm_free_async(f.heap, live[k], s) : cm_free(f.heap, live[k]),
					 CM_OK);
			held -= size[k];
		}
		size[k] = 512 + (size_t)rand_r(&seed) % (8 * MiB);
		live[k] = async ? fixture_malloc_async(&f, size[k], s) : fixture_malloc(&f, size[k]);
		held += size[k];
		peak = held > peak ? held : peak;
	}
	cm_stats st = fixture_stats(&f);
	assert_true(st.peak_reserved_bytes <= peak + CM_SMALL_SEGMENT + CM_MID_SEGMENT);
	assert_int_equal(st.peak_pending_bytes, 0);
	fixture_check(&f);
	for (int k = 0; k < LIVE; k++)
		assert_int_equal(async ? cm_free_async(f.heap, live[k], s) : cm_free(f.heap, live[k]), CM_OK);
	fixture_close(&f);
}

static void test_varying_sizes_stay_within_live(void **state)
{
	(void)state;
	varying_sizes_loop(NULL, false);
	varying_sizes_loop(NULL, true);
	varying_sizes_loop("expandable_segments:True", false);
	varying_sizes_loop("expandable_segments:True", true);
}

/* max_non_split_rounding_mb: a block above max_split_size serves a larger
 * request only within that much of its size (PyTorch's key; 20 MiB by
 * default). A free 100 MiB block serves 90 MiB by default, and not with
 * the rounding at 5 MiB, where the request takes a segment of its own. */
static void non_split_serves(const char *conf, bool served)
{
	fixture f;
	fixture_open(&f, GiB, conf);
	uintptr_t a = fixture_malloc(&f, 100 * MiB);
	fixture_free(&f, a);
	uintptr_t b = fixture_malloc(&f, 90 * MiB);
	assert_true((b == a) == served);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.raw_alloc_calls, served ? 1 : 2);
	fixture_free(&f, b);
	fixture_close(&f);
}

static void test_non_split_rounding_served(void **state)
{
	(void)state;
	non_split_serves("max_split_size_mb:64", true);
	non_split_serves("max_split_size_mb:64,max_non_split_rounding_mb:5", false);
}

/* A collect's event answered complete is not asked again: each later poll
 * asks only from the first event still pending (the H200's two-stream
 * program polls at almost every allocation, and its step is bound by the
 * host). Three events (legacy and two busy streams); one busy stream
 * completes, the other stays gated: K polls ask at most K + 2 times,
 * where asking each event again would take 2K or 3K. */
static void test_collect_asks_each_event_once(void **state)
{
	(void)state;
	fixture f;
	cm_stream s[MANY_NB];
	fixture_open_many_streams(&f, "max_pending_mb:2048", s);
	sim_gate *a = sim_gate_enqueue(f.sim, 0, s[0]), *b = sim_gate_enqueue(f.sim, 0, s[1]);
	size_t batch = 2048 * MiB / CM_COLLECT_BATCH_DIV; /* a collect starts once this awaits */
	uintptr_t p = fixture_malloc(&f, batch);
	uintptr_t keep = fixture_malloc(&f, 4096);
	fixture_free(&f, p);
	enum { K = 10 };
	uintptr_t q[K + 1];
	q[0] = fixture_malloc(&f, batch); /* starts the collect: p awaits it */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.collects, 1);
	sim_gate_open(a);
	usleep(20000);
	size_t before = fixture_logged(&f, SIM_EVENT_QUERY);
	for (int i = 1; i <= K; i++) /* each misses (a new segment), so polls */
		q[i] = fixture_malloc(&f, 32 * MiB);
	size_t asked = fixture_logged(&f, SIM_EVENT_QUERY) - before;
	if (asked > K + 2)
		fail_msg("%zu polls asked %zu times: completed events asked again", (size_t)K, asked);
	if (asked < K)
		fail_msg("%zu misses polled %zu times: each should", (size_t)K, asked);
	sim_gate_open(b);
	usleep(20000);
	uintptr_t r = fixture_malloc(&f, 32 * MiB); /* polls: the collect completed */
	st = fixture_stats(&f);
	assert_int_equal(st.pending_bytes, 0); /* p is back */
	assert_int_equal(st.collects, 1);
	assert_int_equal(st.fences, 0);
	fixture_free(&f, r);
	fixture_free_n(&f, q, K + 1);
	fixture_free(&f, keep);
	fixture_close(&f);
}

static void test_oom_releases_cache(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * MiB, NULL);
	uintptr_t a = fixture_malloc(&f, 40 * MiB);
	fixture_free(&f, a);
	/* 40 MiB cached cannot serve 50 MiB (no split beyond it): released. */
	uintptr_t b = fixture_malloc(&f, 50 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, 1);
	assert_int_equal(st.raw_free_calls, 1);
	assert_int_equal(st.reserved_bytes, 50 * MiB);
	uintptr_t c;
	assert_int_equal(cm_malloc(f.heap, 0, 30 * MiB, &c), CM_ERR_OOM);
	fixture_check(&f);
	fixture_free(&f, b);
	c = fixture_malloc(&f, 30 * MiB);
	fixture_free(&f, c);
	fixture_close(&f);
}

/* A backend whose mem_free fails while refuse_frees > 0 (issue 36). */
static cm_backend refusing_be;
static cm_status (*sim_backend_mem_free_for_tests)(void *ctx, int dev, uintptr_t ptr);
static int refuse_frees;

static cm_status refusing_mem_free(void *ctx, int dev, uintptr_t ptr)
{
	if (refuse_frees > 0) {
		refuse_frees--;
		return CM_ERR_BACKEND;
	}
	return sim_backend_mem_free_for_tests(ctx, dev, ptr);
}

/* A segment the driver does not take back stays counted in reserved_bytes
 * (and unreleased_bytes) while the device holds it, and goes back at the
 * next release. */
static void test_refused_free_stays_counted(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	cm_heap_destroy(f.heap);
	refusing_be = *sim_backend(f.sim);
	sim_backend_mem_free_for_tests = refusing_be.mem_free;
	refusing_be.mem_free = refusing_mem_free;
	assert_int_equal(cm_heap_create(&refusing_be, &f.cfg, &f.heap), CM_OK);
	size_t free0, total, free1;
	assert_int_equal(refusing_be.mem_get_info(refusing_be.ctx, 0, &free0, &total), CM_OK);
	uintptr_t a = fixture_malloc(&f, 40 * MiB);
	fixture_free(&f, a);
	refuse_frees = 2;
	cm_release_cached(f.heap, 0); /* refused */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(refusing_be.mem_get_info(refusing_be.ctx, 0, &free1, &total), CM_OK);
	assert_int_equal(free0 - free1, st.reserved_bytes); /* the device holds what is counted */
	assert_int_equal(st.unreleased_bytes, st.reserved_bytes);
	assert_true(st.reserved_bytes >= 40 * MiB);
	assert_int_equal(st.segments, 0);
	assert_int_equal(st.release_failures, 1);
	fixture_check(&f);
	cm_release_cached(f.heap, 0); /* refused again: kept */
	st = fixture_stats(&f);
	assert_int_equal(st.unreleased_bytes, st.reserved_bytes);
	assert_int_equal(st.release_failures, 2);
	cm_release_cached(f.heap, 0); /* taken back */
	st = fixture_stats(&f);
	assert_int_equal(refusing_be.mem_get_info(refusing_be.ctx, 0, &free1, &total), CM_OK);
	assert_int_equal(free1, free0);
	assert_int_equal(st.reserved_bytes, 0);
	assert_int_equal(st.unreleased_bytes, 0);
	fixture_close(&f);
}

/* cudaDeviceReset freed everything: the cache forgets it, gives nothing
 * back, and works on afterwards. */
static void test_device_reset(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, NULL);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096), q = fixture_malloc(&f, 64 * MiB);
	uintptr_t r = fixture_malloc_async(&f, 8192, a);
	assert_int_equal(cm_free(f.heap, p), CM_OK); /* parked in this thread's cache */
	size_t frees = sim_call_count(f.sim, SIM_MEM_FREE);
	cm_device_reset(f.heap, 0); /* the simulator keeps the memory: no real reset */
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_FREE), frees);
	fixture_check(&f);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.reserved_bytes, 0);
	assert_int_equal(st.allocated_bytes, 0);
	assert_int_equal(cm_free(f.heap, q), CM_ERR_NOT_OURS);
	assert_int_equal(cm_free(f.heap, p), CM_ERR_NOT_OURS);
	assert_int_equal(cm_free_async(f.heap, r, a), CM_ERR_NOT_OURS);
	uintptr_t n = fixture_malloc(&f, 4096);
	fixture_free(&f, n);
	fixture_check(&f);
	fixture_close(&f);
}

/* The default memory pool's view (core/serve/pool_view.c): used and reserved
 * with their peaks, a peak reset to the current value, a trim down to the
 * bytes asked (never below what live blocks need), and the device's
 * release threshold, set and back to the configuration's at a reset. */
static void test_pool_view(void **state)
{
	(void)state;
	fixture f;
	cm_pool_view v;
	fixture_open(&f, GiB, NULL);
	uintptr_t p1 = fixture_malloc(&f, 64 * MiB), p2 = fixture_malloc(&f, 64 * MiB);
	uintptr_t p3 = fixture_malloc(&f, 64 * MiB);
	fixture_free(&f, p2);
	assert_int_equal(cm_free(f.heap, p3), CM_OK); /* both parked: still reserved */
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_false(cm_pool_view_get(f.heap, 1, &v)); /* one device */
	assert_int_equal(v.used, 64 * MiB);
	assert_int_equal(v.used_high, 192 * MiB);
	assert_int_equal(v.reserved, 192 * MiB);
	assert_int_equal(v.reserved_high, 192 * MiB);
	assert_int_equal(v.release_threshold, SIZE_MAX);

	cm_pool_reset_high(f.heap, 0, true, false);
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_int_equal(v.used_high, 64 * MiB);
	assert_int_equal(v.reserved_high, 192 * MiB);

	assert_int_equal(cm_pool_trim(f.heap, 0, 128 * MiB), 64 * MiB); /* one idle segment */
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_int_equal(v.reserved, 128 * MiB);
	assert_int_equal(cm_pool_trim(f.heap, 0, 0), 64 * MiB); /* the live block's stays */
	assert_int_equal(cm_pool_trim(f.heap, 0, 0), 0);
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_int_equal(v.reserved, 64 * MiB);
	assert_int_equal(v.used, 64 * MiB);
	cm_pool_reset_high(f.heap, 0, false, true);
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_int_equal(v.reserved_high, 64 * MiB);
	fixture_check(&f);

	/* A threshold of 0: a device synchronization gives idle memory back. */
	cm_pool_set_release_threshold(f.heap, 0, 0);
	uintptr_t q = fixture_malloc(&f, 64 * MiB);
	fixture_free(&f, q);
	fixture_device_sync(&f);
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_int_equal(v.release_threshold, 0);
	assert_int_equal(v.reserved, 64 * MiB);
	fixture_free(&f, p1);
	cm_device_reset(f.heap, 0); /* a new default pool: the configuration's threshold */
	assert_true(cm_pool_view_get(f.heap, 0, &v));
	assert_int_equal(v.release_threshold, SIZE_MAX);
	assert_int_equal(v.reserved, 0);
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_sizes),
		cmocka_unit_test(test_round_power2_divisions),
		cmocka_unit_test(test_tree_best_fit),
		cmocka_unit_test(test_split_and_merge),
		cmocka_unit_test(test_mid_sizes_share_20mib_segments),
		cmocka_unit_test(test_max_split_size),
		cmocka_unit_test(test_bad_frees),
		cmocka_unit_test(test_stats_json_keys),
		cmocka_unit_test(test_rule1_same_stream),
		cmocka_unit_test(test_rule2_cross_stream_waits),
		cmocka_unit_test(test_rule2_completed_needs_no_wait),
		cmocka_unit_test(test_rule3_fence_orders_reuse),
		cmocka_unit_test(test_fence_none_races),
		cmocka_unit_test(test_fence_host_synchronizes),
		cmocka_unit_test(test_rule4_single_stream_no_calls),
		cmocka_unit_test(test_rule4_cross_thread_fences),
		cmocka_unit_test(test_rule4_idle_streams_instead_of_fence),
		cmocka_unit_test(test_rule4_idle_proof_sees_legacy_work),
		cmocka_unit_test(test_rule4_new_stream_ordered_after_reuse),
		cmocka_unit_test(test_rule6_sync_proves_completion),
		cmocka_unit_test(test_rule5_stream_lifetime),
		cmocka_unit_test(test_stream_records_reused),
		cmocka_unit_test(test_rule7_capture_takes_fresh_memory),
		cmocka_unit_test(test_many_streams_collect),
		cmocka_unit_test(test_collect_waits_for_a_batch),
		cmocka_unit_test(test_proof_returns_only_what_it_proves),
		cmocka_unit_test(test_collect_asks_each_event_once),
		cmocka_unit_test(test_varying_sizes_stay_within_live),
		cmocka_unit_test(test_non_split_rounding_served),
		cmocka_unit_test(test_oom_releases_cache),
		cmocka_unit_test(test_device_reset),
		cmocka_unit_test(test_refused_free_stays_counted),
		cmocka_unit_test(test_pool_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
