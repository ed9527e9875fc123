/* tests/test_fastpath.c - the per-thread cache serves every size up to
 * 256 MiB, and a large block parks only where the pools would have placed
 * the next request of its size the same way without the cache. */
#include "fixture.h"
#include "tcache_fast.h" /* cm_malloc_cached, cm_free_cached */

/* Free-then-allocate of one size is served by the cache at every size,
 * mid-sized blocks (carved from 20 MiB segments, a free neighbour beside
 * them) included. */
static void test_pairs_every_size(void **state)
{
	(void)state;
	static const size_t sizes[] = {4096, MiB, 2 * MiB + 512, 4 * MiB, 10 * MiB, 16 * MiB,
				       256 * MiB};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		fixture f;
		fixture_open(&f, (size_t)8 << 30, NULL);
		uintptr_t first = fixture_malloc(&f, sizes[i]);
		fixture_free(&f, first);
		cm_stats before = fixture_stats(&f);
		for (int k = 0; k < 1000; k++) {
			uintptr_t p = fixture_malloc(&f, sizes[i]);
			assert_true(p == first);
			fixture_free(&f, p);
		}
		cm_stats after = fixture_stats(&f);
		if (after.thread_cache_hits - before.thread_cache_hits != 1000)
			fail_msg("%zu bytes: %lu of 1000 allocations from the thread's cache", sizes[i],
				 (unsigned long)(after.thread_cache_hits - before.thread_cache_hits));
		assert_int_equal(after.raw_alloc_calls, 1);
		fixture_close(&f);
	}
}

/* f opened on 8 GiB, with two 20 MiB segments: [x | 16 MiB held] and
 * [a | 16 MiB free]; x is freed and given back to the pools, a standalone
 * 4 MiB free block. */
static void two_segments(fixture *f, uintptr_t *x, uintptr_t *y, uintptr_t *a)
{
	fixture_open(f, (size_t)8 << 30, NULL);
	*x = fixture_malloc(f, 4 * MiB);
	*y = fixture_malloc(f, 16 * MiB); /* the rest of x's segment */
	*a = fixture_malloc(f, 4 * MiB);  /* a new segment, the rest free */
}

/* x goes back to the pools, then a is freed: the next 4 MiB request must
 * take x, the better fit; then f is closed. */
static void x_then_a_back(fixture *f, uintptr_t x, uintptr_t y, uintptr_t a)
{
	fixture_free(f, x);
	cm_thread_flush(f->heap); /* x in the pools now */
	fixture_free(f, a);
	assert_true(fixture_malloc(f, 4 * MiB) == x);
	fixture_free(f, x, y);
	fixture_close(f);
}

/* A 4 MiB block whose free neighbour would merge with it must not park
 * when another free block fits its size better: without the cache the
 * next 4 MiB request takes that other block, so must it with the cache. */
static void test_better_fit_elsewhere(void **state)
{
	(void)state;
	fixture f;
	uintptr_t x, y, a;
	two_segments(&f, &x, &y, &a);
	x_then_a_back(&f, x, y, a);
}

/* The same once a was parked and handed out again by the cache: the hint
 * it carries was taken before x went back to the pools, and is stale. */
static void test_stale_hint(void **state)
{
	(void)state;
	fixture f;
	uintptr_t x, y, a;
	two_segments(&f, &x, &y, &a);
	assert_int_equal(cm_free(f.heap, a), CM_OK); /* parks: best fit would give a back */
	assert_true(fixture_malloc(&f, 4 * MiB) == a); /* from the cache */
	x_then_a_back(&f, x, y, a);
}

/* The hooks' first try (cm_malloc_cached, cm_free_cached) answers only
 * from the thread's cache: a miss returns 0 or false and changes nothing
 * (no memory taken, no call counted), a hit is what cm_malloc's would be. */
static void test_cached_calls_change_nothing_on_a_miss(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, (size_t)1 << 30, NULL);
	assert_int_equal(cm_malloc_cached(f.heap, 0, 4096), 0); /* nothing cached yet */
	assert_int_equal(cm_malloc_cached(f.heap, 1, 4096), 0); /* no device 1 */
	assert_int_equal(cm_malloc_cached(f.heap, 0, 0), 0);    /* the full path judges 0 */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_calls, 0);
	assert_int_equal(st.raw_alloc_calls, 0);
	uintptr_t p = fixture_malloc(&f, 4096);
	assert_false(cm_free_cached(f.heap, p + 512)); /* not a block's start */
	assert_false(cm_free_cached(f.heap, 0));
	/* The first free of a size keys its bin, under the lock. */
	assert_false(cm_free_cached(f.heap, p));
	fixture_free(&f, p);
	assert_int_equal(cm_malloc_cached(f.heap, 0, 8192), 0); /* another size */
	assert_int_equal(cm_malloc_cached(f.heap, 0, 4000), p); /* rounds to 4096 */
	assert_true(cm_free_cached(f.heap, p));
	st = fixture_stats(&f);
	assert_int_equal(st.thread_cache_hits, 1);
	assert_int_equal(st.alloc_calls, 2);
	assert_int_equal(st.free_calls, 2);
	fixture_close(&f);
}

/* The hooks' first try serves a block over 1 MiB and a block the reuse
 * rules must judge (here under free_fence:none, where the device cannot
 * answer at once): neither is left to the miss path (found on the H200:
 * each took 4-30 ns more there). */
static void test_cached_calls_serve_large_and_ruled_blocks(void **state)
{
	(void)state;
	static const char *confs[] = {NULL, "free_fence:none"};
	for (int i = 0; i < 2; i++) {
		fixture f;
		fixture_open(&f, (size_t)1 << 30, confs[i]);
		uintptr_t p = fixture_malloc(&f, i ? 4096 : 4 * MiB);
		assert_int_equal(cm_free(f.heap, p), CM_OK); /* keys the bin */
		cm_stats before = fixture_stats(&f);
		for (int k = 0; k < 2; k++) {
			assert_int_equal(cm_malloc_cached(f.heap, 0, i ? 4096 : 4 * MiB), p);
			assert_true(cm_free_cached(f.heap, p));
		}
		assert_int_equal(fixture_stats(&f).thread_cache_hits, before.thread_cache_hits + 2);
		fixture_close(&f);
	}
}

/* A slow-path allocation gives the thread's parked blocks back, but its
 * bins stay keyed: the next free of a size it freed before is lock-free
 * still (in a loop of mixed sizes every miss would otherwise make the next
 * free of each size take the lock). */
static void test_bins_stay_keyed_after_a_miss(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, (size_t)1 << 30, NULL);
	uintptr_t p = fixture_malloc(&f, 4096);
	assert_int_equal(cm_free(f.heap, p), CM_OK); /* keys the 4 KiB bin */
	assert_int_equal(cm_malloc_cached(f.heap, 0, 4096), p);
	uintptr_t other = fixture_malloc(&f, 8192); /* a miss: the slow path */
	assert_true(cm_free_cached(f.heap, p));
	fixture_free(&f, other);
	fixture_close(&f);
}

/* A heap over two simulated devices of 1 GiB, default configuration. */
static cm_heap *two_device_heap(sim **out)
{
	sim_options opt = {.devices = 2, .capacity = (size_t)1 << 30};
	*out = sim_create(&opt);
	assert_non_null(*out);
	cm_config cfg;
	cm_config_defaults(&cfg);
	cm_heap *h;
	assert_int_equal(cm_heap_create(sim_backend(*out), &cfg, &h), CM_OK);
	return h;
}

static void two_device_heap_close(cm_heap *h, sim *sim)
{
	assert_true(cm_heap_check(h, stderr));
	cm_heap_destroy(h);
	sim_destroy(sim);
}

/* A 4 KiB block of device dev, taken and freed: parked in a bin. */
static uintptr_t park_4k(cm_heap *h, int dev)
{
	uintptr_t p;
	assert_int_equal(cm_malloc(h, dev, 4096, &p), CM_OK);
	assert_int_equal(cm_free(h, p), CM_OK);
	return p;
}

/* Two devices: a block one device's bins hold is never handed out for the
 * other's request of the same size and stream, though both bins' device
 * generations are the first each device had (tcache.c keys a bin by a
 * generation no other device of the heap has). */
static void test_bins_keep_their_device(void **state)
{
	(void)state;
	sim *sim;
	cm_heap *h = two_device_heap(&sim);
	uintptr_t on1 = park_4k(h, 1), on0, again; /* in a bin keyed to device 1 */
	assert_int_equal(cm_malloc(h, 0, 4096, &on0), CM_OK);
	assert_true(on0 != on1);
	cm_ptr_info info;
	cm_pointer_info(h, on0, &info);
	assert_true(info.live);
	assert_int_equal(info.dev, 0);
	assert_int_equal(cm_malloc(h, 1, 4096, &again), CM_OK);
	assert_true(again == on1); /* device 1's block, from its bin */
	cm_stats st;
	cm_stats_get(h, 1, &st);
	assert_int_equal(st.thread_cache_hits, 1);
	cm_stats_get(h, 0, &st);
	assert_int_equal(st.thread_cache_hits, 0);
	assert_int_equal(cm_free(h, on0), CM_OK);
	assert_int_equal(cm_free(h, again), CM_OK);
	two_device_heap_close(h, sim);
}

/* A miss flushes the thread's parked blocks of its device, from the bins
 * marked in that device's mask: every such bin, and none keyed to another
 * device since it was marked (its bit in the first device's mask is then
 * stale: flushing it under the wrong device's lock would hand device 0's
 * block to device 1's pools). */
static void test_a_miss_flushes_the_marked_bins_of_its_device(void **state)
{
	(void)state;
	sim *sim;
	cm_heap *h = two_device_heap(&sim);
	/* The 4 KiB bin marked for device 1, then emptied by a take. */
	uintptr_t on1 = park_4k(h, 1), on0, again;
	assert_int_equal(cm_malloc(h, 1, 4096, &again), CM_OK);
	assert_true(again == on1);
	on0 = park_4k(h, 0); /* keyed to device 0 now, holding device 0's block */
	uintptr_t miss1;
	assert_int_equal(cm_malloc(h, 1, 64 << 10, &miss1), CM_OK); /* device 1's slow path */
	assert_int_equal(cm_malloc_cached(h, 0, 4096), on0); /* still device 0's, parked */
	/* Several bins of device 0, each holding a block; one miss gives them all back. */
	static const size_t sizes[] = {4096, 8192, 12288, 3 * MiB};
	enum { N = sizeof(sizes) / sizeof(*sizes) };
	uintptr_t parked[N], keep[N], miss0;
	for (int i = 0; i < N; i++) {
		assert_int_equal(cm_malloc(h, 0, sizes[i], &parked[i]), CM_OK);
		assert_int_equal(cm_malloc(h, 0, sizes[i], &keep[i]), CM_OK); /* no merge */
	}
	assert_int_equal(cm_free(h, on0), CM_OK);
	for (int i = 0; i < N; i++)
		assert_int_equal(cm_free(h, parked[i]), CM_OK);
	assert_int_equal(cm_malloc(h, 0, 64 << 10, &miss0), CM_OK);
	for (int i = 0; i < N; i++)
		if (cm_malloc_cached(h, 0, sizes[i]))
			fail_msg("a %zu-byte block stayed parked after the miss", sizes[i]);
	assert_true(cm_heap_check(h, stderr));
	assert_int_equal(cm_free(h, miss0), CM_OK);
	assert_int_equal(cm_free(h, miss1), CM_OK);
	assert_int_equal(cm_free(h, again), CM_OK);
	for (int i = 0; i < N; i++)
		assert_int_equal(cm_free(h, keep[i]), CM_OK);
	two_device_heap_close(h, sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_every_size),
		cmocka_unit_test(test_better_fit_elsewhere),
		cmocka_unit_test(test_stale_hint),
		cmocka_unit_test(test_cached_calls_change_nothing_on_a_miss),
		cmocka_unit_test(test_cached_calls_serve_large_and_ruled_blocks),
		cmocka_unit_test(test_bins_stay_keyed_after_a_miss),
		cmocka_unit_test(test_bins_keep_their_device),
		cmocka_unit_test(test_a_miss_flushes_the_marked_bins_of_its_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
