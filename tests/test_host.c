/* tests/test_host.c - the pinned host cache (core/host/host.c) and the pitch
 * rule (core/record/pitch.c) on the simulated device: reuse and its proof, flags
 * kept apart, the bound, release on allocation failure, errors, a device
 * reset, registration mode, threads. */
#include <pthread.h>

#include "fixture.h"

static uintptr_t host_alloc(fixture *f, size_t n, unsigned flags)
{
	uintptr_t p = 0;
	assert_int_equal(cm_host_alloc(f->heap, 0, n, flags, &p), CM_OK);
	assert_true(p != 0);
	return p;
}

static cm_stats stats_of(fixture *f)
{
	cm_stats st;
	cm_stats_get(f->heap, -1, &st);
	return st;
}

/* ---- pitch ---- */

static void test_pitch_rule(void **state)
{
	(void)state;
	static const size_t table[][2] = { { 1, 512 }, { 512, 512 }, { 513, 1024 },
					   { 4097, 4608 }, { 65537, 66048 } };
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		size_t pitch = 0, bytes = 0;
		assert_true(cm_pitch_size(table[i][0], 3, 2, &pitch, &bytes));
		assert_int_equal(pitch, table[i][1]);
		assert_int_equal(bytes, table[i][1] * 6);
	}
	size_t pitch, bytes;
	assert_false(cm_pitch_size(0, 1, 1, &pitch, &bytes));
	assert_false(cm_pitch_size(1, 0, 1, &pitch, &bytes));
	assert_false(cm_pitch_size(1, 1, 0, &pitch, &bytes));
	assert_false(cm_pitch_size(SIZE_MAX, 1, 1, &pitch, &bytes));
	assert_false(cm_pitch_size(1 << 20, SIZE_MAX / 4, 1, &pitch, &bytes));
	for (unsigned e = 0; e <= 32; e++)
		assert_int_equal(cm_pitch_element_ok(e), e == 4 || e == 8 || e == 16);
}

/* ---- reuse ---- */

static void test_reuse_when_idle(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t p = host_alloc(&f, 5000, 0);
	assert_int_equal(cm_host_free(f.heap, p), CM_OK);
	assert_int_equal(host_alloc(&f, 8000, 0), p); /* both round to 8 KiB */
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_alloc_calls, 2);
	assert_int_equal(st.host_cache_hits, 1);
	assert_int_equal(st.host_reserved_bytes, 8 * KiB);
	assert_int_equal(cm_host_free(f.heap, p), CM_OK);
	fixture_close(&f);
}

static void test_flags_kept_apart(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t p[CM_HOST_FLAGS + 1];
	for (unsigned fl = 0; fl <= CM_HOST_FLAGS; fl++)
		p[fl] = host_alloc(&f, 64 * KiB, fl);
	for (unsigned fl = 0; fl <= CM_HOST_FLAGS; fl++)
		assert_int_equal(cm_host_free(f.heap, p[fl]), CM_OK);
	/* In reverse: each combination gets its own block back. */
	for (unsigned fl = CM_HOST_FLAGS + 1; fl-- > 0;)
		assert_int_equal(host_alloc(&f, 64 * KiB, fl), p[fl]);
	assert_int_equal(stats_of(&f).host_cache_hits, CM_HOST_FLAGS + 1);
	for (unsigned fl = 0; fl <= CM_HOST_FLAGS; fl++)
		cm_host_free(f.heap, p[fl]);
	fixture_close(&f);
}

typedef struct copy {
	uintptr_t dst, src;
	size_t n;
} copy;

static void copy_now(void *arg)
{
	copy *c = arg;
	memcpy((void *)c->dst, (const void *)c->src, c->n);
}

/* A copy from the pinned buffer queued behind held work (a host function
 * reads it when the stream reaches it): the freed block is not handed out
 * until the copy completed. */
static void late_copy(const char *conf, bool expect_reuse_at_once)
{
	fixture f;
	fixture_open(&f, 256 * MiB, conf);
	const size_t n = 256 * KiB;
	uintptr_t dev = fixture_malloc(&f, n);
	uintptr_t p = host_alloc(&f, n, 0);
	memset((void *)p, 1, n);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, CM_STREAM_LEGACY);
	copy c = {.dst = dev, .src = p, .n = n};
	assert_int_equal(sim_host_func(f.sim, 0, CM_STREAM_LEGACY, copy_now, &c), CM_OK);
	assert_int_equal(cm_host_free(f.heap, p), CM_OK);
	uintptr_t q = host_alloc(&f, n, 0);
	assert_int_equal(q == p, expect_reuse_at_once);
	memset((void *)q, 2, n);
	sim_gate_open(g);
	assert_int_equal(sim_backend(f.sim)->device_synchronize(f.sim, 0), CM_OK);
	unsigned char *got = (unsigned char *)dev; /* the sim's device memory is host memory */
	if (!expect_reuse_at_once)
		for (size_t i = 0; i < n; i++)
			assert_int_equal(got[i], 1);
	/* Complete now: the next request may take the old block. */
	cm_host_free(f.heap, q);
	uintptr_t r = host_alloc(&f, n, 0);
	assert_true(r == p || r == q);
	cm_host_free(f.heap, r);
	if (r != p && q != p)
		cm_host_free(f.heap, p == r ? q : p);
	cm_free(f.heap, dev);
	fixture_close(&f);
}

static void test_late_copy_waits(void **state)
{
	(void)state;
	late_copy(NULL, false);
}

static void test_late_copy_none_trusts(void **state)
{
	(void)state;
	late_copy("free_fence:none", true);
}

/* Submissions seen: a device nothing reached since the heap began, or since
 * a cover whose event completed, proves the reuse without a device call;
 * work submitted since (a host function holding the copy) does not. */
static void test_idle_device_needs_no_call(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	cm_heap_track_submissions(f.heap);
	const size_t n = 64 * KiB;
	uintptr_t p = host_alloc(&f, n, 0);
	cm_host_free(f.heap, p);
	sim_log_clear(f.sim);
	assert_int_equal(host_alloc(&f, n, 0), p);
	assert_int_equal(sim_log_count(f.sim), 0);

	uintptr_t dev = fixture_malloc(&f, n);
	memset((void *)p, 1, n);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, CM_STREAM_LEGACY);
	copy c = {.dst = dev, .src = p, .n = n};
	assert_true(cm_submit_begin(f.heap, CM_STREAM_LEGACY));
	assert_int_equal(sim_host_func(f.sim, 0, CM_STREAM_LEGACY, copy_now, &c), CM_OK);
	cm_submit_end();
	cm_host_free(f.heap, p);
	uintptr_t q = host_alloc(&f, n, 0);
	assert_true(q != p);
	memset((void *)q, 2, n);
	sim_gate_open(g);
	assert_int_equal(sim_backend(f.sim)->device_synchronize(f.sim, 0), CM_OK);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(((unsigned char *)dev)[i], 1);
	cm_host_free(f.heap, q);
	cm_free(f.heap, dev);
	fixture_close(&f);
}

/* ---- staging loops ---- */

static void sleep_200us(void *arg)
{
	(void)arg;
	usleep(200);
}

/* Whether every byte of the n at p is v. */
static bool filled_with(uintptr_t p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != v)
			return false;
	return true;
}

/* A staging loop (take a buffer, fill it, queue its copy, free it) whose
 * copy completes one iteration later: each allocation finds the last
 * buffer still read and the one before complete. The cache turns over two
 * buffers, each free's proof in flight as it is freed (cm_epoch_cover); a
 * collect started only at the next allocation would prove the buffer one
 * iteration too late, and the loop would take new memory again and again.
 * Every copy delivers the bytes of its own iteration. */
static void test_staging_turns_over_two_buffers(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	const cm_backend *be = sim_backend(f.sim);
	cm_stream s = fixture_stream(&f, true);
	enum { ITERS = 40 };
	const size_t n = 64 * KiB;
	uintptr_t dev = fixture_malloc(&f, ITERS * n);
	sim_gate *gate[ITERS];
	cm_event copied[ITERS];
	copy c[ITERS];
	for (int i = 0; i < ITERS; i++) {
		uintptr_t p = host_alloc(&f, n, 0);
		memset((void *)p, i, n);
		gate[i] = sim_gate_enqueue(f.sim, 0, s);
		c[i] = (copy){.dst = dev + (size_t)i * n, .src = p, .n = n};
		assert_int_equal(sim_host_func(f.sim, 0, s, copy_now, &c[i]), CM_OK);
		assert_int_equal(cm_host_free(f.heap, p), CM_OK);
		assert_int_equal(be->event_create(be->ctx, 0, &copied[i]), CM_OK);
		assert_int_equal(be->event_record(be->ctx, 0, copied[i], s), CM_OK);
		if (i > 0) {
			sim_gate_open(gate[i - 1]);
			assert_int_equal(be->event_synchronize(be->ctx, 0, copied[i - 1]), CM_OK);
			assert_true(filled_with(dev + (size_t)(i - 1) * n, n, (unsigned char)(i - 1)));
		}
		fixture_check(&f);
	}
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_alloc_calls, ITERS);
	assert_int_equal(st.host_cache_hits, ITERS - 2);
	assert_int_equal(st.peak_host_reserved_bytes, 2 * n);
	sim_gate_open(gate[ITERS - 1]);
	fixture_device_sync(&f);
	assert_true(filled_with(dev + (ITERS - 1) * n, n, ITERS - 1));
	for (int i = 0; i < ITERS; i++)
		be->event_destroy(be->ctx, 0, copied[i]);
	cm_free(f.heap, dev);
	fixture_close(&f);
}

/* A loop faster than its stream (each copy behind 200 us of work) takes
 * new pinned memory only within max_pending_mb (1 MiB: 16 buffers of 64
 * KiB); past it the host waits for the oldest buffer's copy, as
 * cudaFreeHost would have. Bound by pinned_max_cached_mb instead (1 MiB: 8
 * buffers of 128 KiB), it waits rather than give a buffer back (a device
 * synchronization and a new allocation each time). Each copy still
 * delivers its own bytes. */
static void staging_ahead(const char *conf, size_t n, size_t bound)
{
	fixture f;
	fixture_open(&f, 256 * MiB, conf);
	cm_stream s = fixture_stream(&f, true);
	enum { ITERS = 64 };
	uintptr_t dev = fixture_malloc(&f, ITERS * n);
	copy c[ITERS];
	for (int i = 0; i < ITERS; i++) {
		uintptr_t p = host_alloc(&f, n, 0);
		memset((void *)p, i, n);
		assert_int_equal(sim_host_func(f.sim, 0, s, sleep_200us, NULL), CM_OK);
		c[i] = (copy){.dst = dev + (size_t)i * n, .src = p, .n = n};
		assert_int_equal(sim_host_func(f.sim, 0, s, copy_now, &c[i]), CM_OK);
		assert_int_equal(cm_host_free(f.heap, p), CM_OK);
		assert_true(stats_of(&f).host_reserved_bytes <= bound);
	}
	fixture_device_sync(&f);
	for (int i = 0; i < ITERS; i++)
		assert_true(filled_with(dev + (size_t)i * n, n, (unsigned char)i));
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_releases, 0);
	assert_true(st.host_cache_hits >= ITERS - bound / n);
	assert_true(st.pending_waits > 0);
	fixture_check(&f);
	cm_free(f.heap, dev);
	fixture_close(&f);
}

/* The pending bound counts only work not known complete: a block freed
 * before a device synchronization, never asked for since, does not make
 * a later loop wait. Here max_pending_mb:1 with such a 1 MiB block, then
 * four 64 KiB buffers each behind 2 ms of work: all four are new memory,
 * no host wait. */
static void test_pending_bound_counts_only_unfinished(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "max_pending_mb:1");
	cm_stream s = fixture_stream(&f, true);
	uintptr_t old = host_alloc(&f, MiB, 0);
	assert_int_equal(sim_host_func(f.sim, 0, s, sleep_200us, NULL), CM_OK);
	assert_int_equal(cm_host_free(f.heap, old), CM_OK);
	fixture_device_sync(&f);
	const size_t n = 64 * KiB;
	for (int i = 0; i < 4; i++) {
		uintptr_t p = host_alloc(&f, n, 0);
		for (int k = 0; k < 10; k++)
			assert_int_equal(sim_host_func(f.sim, 0, s, sleep_200us, NULL), CM_OK);
		assert_int_equal(cm_host_free(f.heap, p), CM_OK);
	}
	cm_stats st = stats_of(&f);
	assert_int_equal(st.pending_waits, 0);
	assert_int_equal(st.host_reserved_bytes, MiB + 4 * n);
	fixture_device_sync(&f);
	fixture_check(&f);
	fixture_close(&f);
}

static void test_staging_ahead_bounded_by_pending(void **state)
{
	(void)state;
	staging_ahead("max_pending_mb:1", 64 * KiB, MiB);
}

static void test_staging_ahead_bounded_by_cache(void **state)
{
	(void)state;
	staging_ahead("pinned_max_cached_mb:1", 128 * KiB, MiB);
}

/* ---- the bound ---- */

static void test_bound(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "pinned_max_cached_mb:1");
	uintptr_t p[6];
	for (int i = 0; i < 6; i++)
		p[i] = host_alloc(&f, 512 * KiB, i % 2 ? CM_HOST_MAPPED : 0);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(cm_host_free(f.heap, p[i]), CM_OK);
		assert_true(stats_of(&f).host_cached_bytes <= MiB);
		fixture_check(&f);
	}
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_releases, 4);
	assert_int_equal(st.host_cached_bytes, MiB);
	assert_int_equal(st.peak_host_cached_bytes, MiB);
	assert_int_equal(st.host_reserved_bytes, MiB);
	assert_int_equal(st.peak_host_reserved_bytes, 3 * MiB);
	assert_int_equal(cm_host_release_cached(f.heap), MiB);
	assert_int_equal(stats_of(&f).host_reserved_bytes, 0);
	fixture_close(&f);
}

static void test_bound_zero_caches_nothing(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "pinned_max_cached_mb:0");
	uintptr_t p = host_alloc(&f, 4096, 0);
	sim_log_clear(f.sim);
	cm_host_free(f.heap, p);
	assert_int_equal(fixture_logged(&f, SIM_HOST_FREE), 1);
	assert_int_equal(stats_of(&f).host_reserved_bytes, 0);
	fixture_close(&f);
}

/* The log cleared, and the device's next host allocation fails. */
static void fail_next_host_alloc(fixture *f)
{
	sim_log_clear(f->sim);
	sim_fail_nth(f->sim, SIM_HOST_ALLOC, 1);
}

/* A failed host allocation gives the cached blocks back and tries again. */
static void test_release_on_failure(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t a = host_alloc(&f, 4 * MiB, 0), b = host_alloc(&f, 4 * MiB, CM_HOST_PORTABLE);
	cm_host_free(f.heap, a);
	cm_host_free(f.heap, b);
	fail_next_host_alloc(&f);
	uintptr_t c = host_alloc(&f, 16 * MiB, 0);
	assert_int_equal(fixture_logged(&f, SIM_HOST_ALLOC), 2);
	assert_int_equal(fixture_logged(&f, SIM_HOST_FREE), 2);
	assert_int_equal(stats_of(&f).host_reserved_bytes, 16 * MiB);
	cm_host_free(f.heap, c);
	/* Nothing cached to give back: out of memory after one attempt. */
	assert_int_equal(cm_host_release_cached(f.heap), 16 * MiB);
	fail_next_host_alloc(&f);
	uintptr_t d = 1;
	assert_int_equal(cm_host_alloc(f.heap, 0, 64 * MiB, 0, &d), CM_ERR_OOM);
	assert_int_equal(d, 0);
	assert_int_equal(fixture_logged(&f, SIM_HOST_ALLOC), 1);
	assert_int_equal(stats_of(&f).host_reserved_bytes, 0);
	fixture_close(&f);
}

/* ---- errors, reset, registration ---- */

static void test_errors(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t p = host_alloc(&f, 4096, 0), out;
	assert_int_equal(cm_host_free(f.heap, p), CM_OK);
	assert_int_equal(cm_host_free(f.heap, p), CM_ERR_INVALID); /* double free */
	assert_int_equal(cm_host_free(f.heap, p + 64), CM_ERR_NOT_OURS); /* CUDA judges */
	assert_int_equal(cm_host_free(f.heap, 0), CM_ERR_NOT_OURS);
	assert_int_equal(cm_host_alloc(f.heap, 0, 0, 0, &out), CM_ERR_NOT_OURS);
	assert_int_equal(cm_host_alloc(f.heap, 0, 4096, 8, &out), CM_ERR_NOT_OURS);
	assert_int_equal(cm_host_alloc(f.heap, 5, 4096, 0, &out), CM_ERR_NOT_OURS);
	assert_int_equal(cm_host_alloc(f.heap, 0, SIZE_MAX, 0, &out), CM_ERR_NOT_OURS);
	fixture_close(&f);
}

/* Tens of thousands of live pinned blocks: the address hash grows, every
 * free finds its block, and they all come back from the cache. */
static void test_many_live(void **state)
{
	(void)state;
	enum { N = 30000 };
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t *p = malloc(N * sizeof(*p));
	assert_non_null(p);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < N; i++)
			p[i] = host_alloc(&f, 4096, (unsigned)i & CM_HOST_FLAGS);
		fixture_check(&f);
		for (int i = N; i-- > 0;)
			assert_int_equal(cm_host_free(f.heap, p[i]), CM_OK);
	}
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_cache_hits, N);
	assert_int_equal(st.host_reserved_bytes, (uint64_t)N * 4096);
	fixture_check(&f);
	assert_int_equal(cm_host_release_cached(f.heap), (size_t)N * 4096);
	free(p);
	fixture_close(&f);
}

static void test_device_reset_forgets(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t live = host_alloc(&f, 4096, 0), cached = host_alloc(&f, 8192, 0);
	cm_host_free(f.heap, cached);
	sim_log_clear(f.sim);
	cm_device_reset(f.heap, 0);
	assert_int_equal(fixture_logged(&f, SIM_HOST_FREE), 0); /* the context freed them */
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_reserved_bytes, 0);
	assert_int_equal(st.host_cached_bytes, 0);
	assert_int_equal(cm_host_free(f.heap, live), CM_ERR_NOT_OURS);
	fixture_check(&f);
	uintptr_t again = host_alloc(&f, 8192, 0);
	assert_int_equal(fixture_logged(&f, SIM_HOST_ALLOC), 1);
	cm_host_free(f.heap, again);
	free((void *)live); /* the sim's context reset leaves them: test hygiene */
	free((void *)cached);
	fixture_close(&f);
}

static void test_register_mode(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "pinned_use_cuda_host_register:true");
	uintptr_t p = host_alloc(&f, 4096, CM_HOST_MAPPED);
	uintptr_t wc = host_alloc(&f, 4096, CM_HOST_WRITE_COMBINED);
	assert_int_equal(fixture_logged(&f, SIM_HOST_REGISTER), 1);
	assert_int_equal(fixture_logged(&f, SIM_HOST_ALLOC), 1); /* write-combined */
	cm_host_free(f.heap, p);
	cm_host_free(f.heap, wc);
	assert_int_equal(cm_host_release_cached(f.heap), 8192);
	assert_int_equal(fixture_logged(&f, SIM_HOST_UNREGISTER), 1);
	fixture_close(&f);
}

/* The out-of-memory report and the snapshot tell the pinned memory. */
static void test_report_and_snapshot(void **state)
{
	(void)state;
	char path[] = "/tmp/cm-host-snapshot-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char conf[128];
	snprintf(conf, sizeof(conf), "oom_snapshot:%s", path);
	fixture f;
	fixture_open(&f, 64 * MiB, conf);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	cm_heap_set_report_stream(f.heap, out);
	uintptr_t p = host_alloc(&f, 3 * MiB, 0), q = 0;
	assert_int_equal(cm_malloc(f.heap, 0, 128 * MiB, &q), CM_ERR_OOM);
	fclose(out);
	assert_non_null(strstr(text, "pinned host memory: host_reserved_bytes 4.00 MiB (peak 4.00 MiB), "
				     "0 B of it cached; host_alloc_calls 1, host_cache_hits 0"));
	FILE *snap = fopen(path, "rb");
	assert_non_null(snap);
	char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf), snap);
	fclose(snap);
	assert_non_null(memmem(buf, n, "host_stats", 10));
	assert_non_null(memmem(buf, n, "peak_host_reserved_bytes", 24));
	cm_host_free(f.heap, p);
	free(text);
	unlink(path);
	fixture_close(&f);
}

/* ---- threads ---- */

typedef struct worker {
	fixture *f;
	unsigned seed;
	int bad;
} worker;

static void *host_worker(void *arg)
{
	worker *w = arg;
	for (int i = 0; i < 1000; i++) {
		unsigned r = (unsigned)rand_r(&w->seed);
		size_t n = (size_t)1 << (10 + r % 8); /* 1 KiB to 128 KiB */
		uintptr_t p = 0;
		if (cm_host_alloc(w->f->heap, 0, n, r >> 8 & CM_HOST_FLAGS, &p) != CM_OK) {
			w->bad++;
			continue;
		}
		unsigned char tag = (unsigned char)(r >> 12);
		memset((void *)p, tag, n);
		sched_yield();
		for (size_t k = 0; k < n; k += 997)
			w->bad += ((unsigned char *)p)[k] != tag;
		w->bad += cm_host_free(w->f->heap, p) != CM_OK;
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "pinned_max_cached_mb:16");
	pthread_t t[8];
	worker w[8];
	for (int i = 0; i < 8; i++) {
		w[i] = (worker){.f = &f, .seed = 17u + (unsigned)i};
		assert_int_equal(pthread_create(&t[i], NULL, host_worker, &w[i]), 0);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(w[i].bad, 0);
	}
	cm_stats st = stats_of(&f);
	assert_int_equal(st.host_alloc_calls, 8000);
	assert_true(st.host_cache_hits > 4000);
	assert_true(st.host_cached_bytes <= 16 * MiB);
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pitch_rule),
		cmocka_unit_test(test_reuse_when_idle),
		cmocka_unit_test(test_flags_kept_apart),
		cmocka_unit_test(test_late_copy_waits),
		cmocka_unit_test(test_late_copy_none_trusts),
		cmocka_unit_test(test_idle_device_needs_no_call),
		cmocka_unit_test(test_staging_turns_over_two_buffers),
		cmocka_unit_test(test_staging_ahead_bounded_by_pending),
		cmocka_unit_test(test_pending_bound_counts_only_unfinished),
		cmocka_unit_test(test_staging_ahead_bounded_by_cache),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_bound_zero_caches_nothing),
		cmocka_unit_test(test_release_on_failure),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_many_live),
		cmocka_unit_test(test_device_reset_forgets),
		cmocka_unit_test(test_register_mode),
		cmocka_unit_test(test_report_and_snapshot),
		cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
