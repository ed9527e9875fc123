/* tests/test_expandable.c - expandable segments on the simulator's VMM
 * calls: growth in place, reuse across streams, tail trims, the ladder,
 * stitching (core/mem/stitch.c). */
#include <pthread.h>

#include "fixture.h"

/* The device holds exactly bytes, and the heap is consistent. */
static void check_device_holds(fixture *f, size_t bytes)
{
	assert_int_equal(sim_used_bytes(f->sim, 0), bytes);
	fixture_check(f);
}

static void test_grows_in_place(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "expandable_segments:True");
	uintptr_t a = fixture_malloc(&f, 10 * MiB);
	assert_int_equal(fixture_stats(&f).vmm_maps, 5);
	uintptr_t b = fixture_malloc(&f, 10 * MiB);
	assert_int_equal(b, a + 10 * MiB); /* the same range, mapped further */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.vmm_maps, 10);
	assert_int_equal(st.segments, 1);
	assert_int_equal(st.reserved_bytes, 20 * MiB);
	assert_int_equal(st.raw_alloc_calls, 0);
	assert_int_equal(sim_used_bytes(f.sim, 0), 20 * MiB);
	/* Small requests have their own range. */
	uintptr_t s = fixture_malloc(&f, 4096);
	assert_true(s < a || s >= a + 256 * MiB);
	assert_int_equal(fixture_stats(&f).segments, 2);
	/* A freed tail is unmapped on release; the head stays. */
	fixture_free(&f, b);
	assert_int_equal(cm_release_cached(f.heap, 0) >= 10 * MiB, true);
	st = fixture_stats(&f);
	assert_int_equal(st.vmm_unmaps, 5);
	assert_int_equal(st.reserved_bytes, 10 * MiB + 2 * MiB);
	check_device_holds(&f, 12 * MiB);
	memset((void *)a, 1, 10 * MiB); /* still mapped and writable */
	fixture_free(&f, a, s);
	fixture_close(&f);
}

/* A hole freed by one stream serves another, in stream order. */
static void test_shared_across_streams(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, "expandable_segments:True");
	cm_stream s1 = fixture_stream(&f, true), s2 = fixture_stream(&f, true);
	uintptr_t a = fixture_malloc_async(&f, 8 * MiB, s1);
	uintptr_t keep = fixture_malloc_async(&f, 8 * MiB, s1);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, s1);
	assert_int_equal(sim_memset_async(f.sim, 0, a, 1, MiB, s1), CM_OK);
	assert_int_equal(cm_free_async(f.heap, a, s1), CM_OK);
	cm_thread_flush(f.heap);
	sim_log_clear(f.sim);
	uintptr_t b = fixture_malloc_async(&f, 8 * MiB, s2);
	assert_int_equal(b, a);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 1); /* rule 2 */
	assert_int_equal(fixture_stats(&f).vmm_maps, 8);
	assert_int_equal(sim_memset_async(f.sim, 0, b, 2, MiB, s2), CM_OK);
	fixture_gate_check(&f, g, b, 2);
	assert_int_equal(cm_free_async(f.heap, b, s2), CM_OK);
	assert_int_equal(cm_free_async(f.heap, keep, s1), CM_OK);
	fixture_close(&f);
}

/* Out of memory (the cap, the device has room), the ladder unmaps another
 * range's free tail. */
static void test_ladder_unmaps(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "expandable_segments:True,memory_limit_mb:64");
	uintptr_t x = fixture_malloc(&f, 20 * MiB);
	uintptr_t y = fixture_malloc(&f, 30 * MiB);
	assert_int_equal(cm_free(f.heap, y), CM_OK); /* a free tail of 30 MiB */
	uintptr_t small[20];
	for (int i = 0; i < 20; i++)
		small[i] = fixture_malloc(&f, MiB); /* the small range needs 20 MiB */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, 1);
	assert_int_equal(st.vmm_unmaps, 15);
	assert_true(st.reserved_bytes <= 64 * MiB);
	assert_int_equal(st.oom_count, 0);
	fixture_check(&f);
	fixture_free_n(&f, small, 20);
	fixture_free(&f, x);
	fixture_close(&f);
}

/* Six 4 MiB blocks on stream s fill a range of 12 chunks; the second and
 * fourth are freed (two 4 MiB holes in the middle). */
static void fragment(fixture *f, cm_stream s, uintptr_t a[6])
{
	for (int i = 0; i < 6; i++)
		a[i] = fixture_malloc_async(f, 4 * MiB, s);
	for (int i = 1; i < 6; i++)
		assert_int_equal(a[i], a[0] + (size_t)i * 4 * MiB);
	memset((void *)a[2], 7, 4 * MiB);
}

static void free_rest(fixture *f, uintptr_t a[6], cm_stream s)
{
	for (int i = 0; i < 6; i += 2)
		assert_int_equal(cm_free_async(f->heap, a[i], s), CM_OK);
	assert_int_equal(cm_free_async(f->heap, a[5], s), CM_OK);
}

/* The device holds exactly the range: an 8 MiB request is served from the
 * two 4 MiB holes' chunks, mapped at the end, with no new memory. */
static void test_stitch_fragmented(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 24 * MiB, "expandable_segments:True");
	uintptr_t a[6];
	fragment(&f, CM_STREAM_LEGACY, a);
	assert_int_equal(cm_free_async(f.heap, a[1], CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(cm_free_async(f.heap, a[3], CM_STREAM_LEGACY), CM_OK);
	cm_thread_flush(f.heap);
	uintptr_t b = fixture_malloc_async(&f, 8 * MiB, CM_STREAM_LEGACY);
	assert_int_equal(b, a[5] + 4 * MiB); /* at the end of the same range */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.stitches, 1);
	assert_int_equal(st.stitched_bytes, 8 * MiB);
	assert_int_equal(st.stitch_unmaps, 4);
	assert_int_equal(st.alloc_retries, 0);
	assert_int_equal(st.reserved_bytes, 24 * MiB);
	assert_int_equal(st.stitch_free_bytes, 0);
	check_device_holds(&f, 24 * MiB);
	memset((void *)b, 9, 8 * MiB); /* mapped and writable */
	assert_int_equal(((unsigned char *)a[2])[4 * MiB - 1], 7); /* neighbours kept */
	assert_int_equal(cm_free_async(f.heap, b, CM_STREAM_LEGACY), CM_OK);
	free_rest(&f, a, CM_STREAM_LEGACY);
	fixture_check(&f);
	assert_true(cm_release_cached(f.heap, 0) > 0);
	assert_int_equal(fixture_stats(&f).reserved_bytes, 0);
	assert_int_equal(sim_used_bytes(f.sim, 0), 0);
	fixture_close(&f);
}

/* Holes freed by cudaFree while work on them still runs (behind a gate on
 * the legacy stream) are not moved, even where that work could be ordered
 * before all later work at once: the growth takes new memory and makes no
 * fence or collect. Moving such chunks (their old address unmapped once
 * complete) made PyTorch's training 1.35x slower on an H100, VMM calls at
 * every growth, for 0.7% less memory (docs/gpu-results.md, "Stitching by
 * order, tried and taken back"). */
static void test_stitch_waits_for_cudafree_work(void **state)
{
	(void)state;
	fixture f;
	uintptr_t a[6];
	fixture_open(&f, 256 * MiB, "expandable_segments:True");
	for (int i = 0; i < 6; i++)
		a[i] = fixture_malloc(&f, 4 * MiB);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, CM_STREAM_LEGACY);
	assert_int_equal(sim_memset_async(f.sim, 0, a[1], 1, 4 * MiB, CM_STREAM_LEGACY), CM_OK);
	assert_int_equal(sim_memset_async(f.sim, 0, a[3], 1, 4 * MiB, CM_STREAM_LEGACY), CM_OK);
	fixture_free(&f, a[1], a[3]);
	cm_thread_flush(f.heap);
	uintptr_t b = fixture_malloc(&f, 8 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.stitches, 0);
	assert_int_equal(st.fences, 0);
	assert_int_equal(st.collects, 0);
	check_device_holds(&f, 32 * MiB);
	sim_gate_open(g);
	fixture_free(&f, b, a[0], a[2], a[4], a[5]);
	fixture_close(&f);
}

/* f opened with expandable segments, and fragment's range on a new stream
 * *s: holes a[1] and a[3] freed on it behind a gate (returned), which holds
 * work on a[1] and, where both, on a[3]. */
static sim_gate *busy_holes(fixture *f, size_t capacity, cm_stream *s, uintptr_t a[6], bool both)
{
	fixture_open(f, capacity, "expandable_segments:True");
	cm_stream s1 = *s = fixture_stream(f, true);
	fragment(f, s1, a);
	sim_gate *g = sim_gate_enqueue(f->sim, 0, s1);
	assert_int_equal(sim_memset_async(f->sim, 0, a[1], 1, 4 * MiB, s1), CM_OK);
	if (both)
		assert_int_equal(sim_memset_async(f->sim, 0, a[3], 1, 4 * MiB, s1), CM_OK);
	assert_int_equal(cm_free_async(f->heap, a[1], s1), CM_OK);
	assert_int_equal(cm_free_async(f->heap, a[3], s1), CM_OK);
	cm_thread_flush(f->heap);
	return g;
}

/* A hole freed on a stream with pending work is not remapped: the request
 * gets new memory; once the stream completed, the next one is stitched. */
static void test_stitch_waits_for_stream(void **state)
{
	(void)state;
	fixture f;
	cm_stream s1;
	uintptr_t a[6];
	sim_gate *g = busy_holes(&f, 256 * MiB, &s1, a, true);
	uintptr_t b = fixture_malloc_async(&f, 8 * MiB, s1);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.stitches, 0);
	assert_int_equal(st.vmm_unmaps, 0);
	check_device_holds(&f, 32 * MiB);
	sim_gate_open(g);
	fixture_stream_sync(&f, s1); /* the holes' work is complete now */
	uintptr_t c = fixture_malloc_async(&f, 8 * MiB, s1);
	assert_int_equal(c, b + 8 * MiB);
	st = fixture_stats(&f);
	assert_int_equal(st.stitches, 1);
	assert_int_equal(st.stitched_bytes, 8 * MiB);
	check_device_holds(&f, 32 * MiB);
	assert_int_equal(cm_free_async(f.heap, b, s1), CM_OK);
	assert_int_equal(cm_free_async(f.heap, c, s1), CM_OK);
	free_rest(&f, a, s1);
	fixture_close(&f);
}

/* Device full and the holes still busy: the ladder's synchronization
 * completes them, and it stitches instead of failing. */
static void test_ladder_stitches(void **state)
{
	(void)state;
	fixture f;
	cm_stream s1;
	uintptr_t a[6];
	sim_gate *g = busy_holes(&f, 24 * MiB, &s1, a, false);
	pthread_t opener;
	assert_int_equal(pthread_create(&opener, NULL, fixture_open_gate_later, g), 0);
	uintptr_t b = fixture_malloc_async(&f, 8 * MiB, CM_STREAM_LEGACY);
	pthread_join(opener, NULL);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, 1);
	assert_int_equal(st.ladder_syncs, 1);
	assert_int_equal(st.ladder_stitches, 1);
	assert_int_equal(st.ladder_release_alls, 0);
	assert_int_equal(st.oom_count, 0);
	assert_int_equal(st.stitched_bytes, 8 * MiB);
	check_device_holds(&f, 24 * MiB);
	memset((void *)b, 3, 8 * MiB);
	assert_int_equal(cm_free_async(f.heap, b, CM_STREAM_LEGACY), CM_OK);
	free_rest(&f, a, s1);
	fixture_close(&f);
}

/* One step of a pattern that stitches at every step where stitching is
 * free to (a conveyor): p and q of 4 MiB, p freed, then r of 8 MiB, which
 * no free block holds: the range grows, with p's chunks; q and r freed. */
static void conveyor_step(fixture *f)
{
	const cm_stream s = CM_STREAM_LEGACY;
	uintptr_t p = fixture_malloc_async(f, 4 * MiB, s), q = fixture_malloc_async(f, 4 * MiB, s);
	assert_int_equal(cm_free_async(f->heap, p, s), CM_OK);
	uintptr_t r = fixture_malloc_async(f, 8 * MiB, s);
	memset((void *)r, 5, 8 * MiB);
	assert_int_equal(cm_free_async(f->heap, q, s), CM_OK);
	assert_int_equal(cm_free_async(f->heap, r, s), CM_OK);
}

/* With room, stitching moves at most the peak reserved bytes since that
 * peak last rose; then the range grows once with
 * new memory and the pattern runs with no VMM call (100 stitches in 100
 * steps without the budget). A tight device stitches at every step. */
static void test_stitch_budget(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "expandable_segments:True");
	uintptr_t keep = fixture_malloc_async(&f, 2 * MiB, CM_STREAM_LEGACY);
	for (int i = 0; i < 100; i++)
		conveyor_step(&f);
	cm_stats st = fixture_stats(&f);
	assert_true(st.stitches > 0);
	assert_true(st.stitched_bytes <= st.peak_reserved_bytes + 8 * MiB);
	assert_true(st.stitch_budget_growths > 0);
	assert_true(st.peak_reserved_bytes <= 32 * MiB);
	uint64_t maps = st.vmm_maps;
	for (int i = 0; i < 50; i++)
		conveyor_step(&f);
	assert_int_equal(fixture_stats(&f).vmm_maps, maps); /* steady: no VMM call */
	assert_int_equal(cm_free_async(f.heap, keep, CM_STREAM_LEGACY), CM_OK);
	fixture_check(&f);
	fixture_close(&f);

	/* Tight: the pattern needs more than three quarters of the device. */
	fixture_open(&f, 16 * MiB, "expandable_segments:True");
	for (int i = 0; i < 100; i++)
		conveyor_step(&f);
	st = fixture_stats(&f);
	assert_true(st.stitches >= 99);
	assert_int_equal(st.stitch_budget_growths, 0);
	assert_int_equal(st.oom_count, 0);
	fixture_check(&f);
	fixture_close(&f);
}

/* While the footprint still grows (a 2 MiB block kept every tenth step)
 * the budget renews at each new peak, so the conveyor keeps stitching
 * (104 stitches in 180 steps, peak reserved 54 MiB; without the renewal
 * 19 stitches and 58 MiB). */
static void test_stitch_budget_renews(void **state)
{
	(void)state;
	fixture f;
	uintptr_t keep[20];
	fixture_open(&f, 4096 * MiB, "expandable_segments:True");
	for (int i = 0; i < 200; i++) {
		if (i % 10 == 0)
			keep[i / 10] = fixture_malloc_async(&f, 2 * MiB, CM_STREAM_LEGACY);
		else
			conveyor_step(&f);
	}
	cm_stats st = fixture_stats(&f);
	assert_true(st.stitches > 50);
	assert_true(st.stitch_budget_growths > 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(cm_free_async(f.heap, keep[i], CM_STREAM_LEGACY), CM_OK);
	fixture_check(&f);
	fixture_close(&f);
}

/* Issue 14: a request larger than the device, or than its free memory and
 * the idle cache together, fails at once: no ladder, nothing created,
 * mapped or released (the cache keeps what it holds). In both modes:
 * the state is the configuration (main's table names each). */
static void test_hopeless_at_once(void **state)
{
	const char *conf = *state;
	fixture f;
	fixture_open(&f, 64 * MiB, conf);
	uintptr_t held = fixture_malloc(&f, 16 * MiB), p = 0;
	fixture_free(&f, fixture_malloc(&f, 8 * MiB));
	cm_thread_flush(f.heap);
	cm_stats before = fixture_stats(&f);
	size_t used = sim_used_bytes(f.sim, 0);
	sim_log_clear(f.sim);
	/* 64 MiB total, 40 free, 8 idle in the cache. */
	const size_t sizes[] = {128 * MiB, 65 * MiB, 50 * MiB, (size_t)64 << 40, SIZE_MAX - 4096};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		assert_int_equal(cm_malloc(f.heap, 0, sizes[i], &p), CM_ERR_OOM);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, before.alloc_retries);
	assert_int_equal(st.reserved_bytes, before.reserved_bytes);
	assert_int_equal(st.vmm_maps, before.vmm_maps);
	assert_int_equal(st.stitch_unmaps, before.stitch_unmaps);
	assert_int_equal(st.raw_alloc_calls, before.raw_alloc_calls);
	assert_int_equal(fixture_logged(&f, SIM_VMM_CREATE) + fixture_logged(&f, SIM_MEM_ALLOC), 0);
	check_device_holds(&f, used);
	/* Within free plus idle: served, after the ladder if need be. */
	uintptr_t big = fixture_malloc(&f, 44 * MiB);
	fixture_free(&f, big, held);
	fixture_close(&f);
}

/* A growth that fails half way gives back the memory it created: the
 * retry after it maps new memory, not chunks the failure kept (no stitch),
 * and the device holds exactly what the cache reserves. */
static void test_failed_growth_gives_back(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * MiB, "expandable_segments:True");
	uintptr_t a = fixture_malloc(&f, 8 * MiB);
	sim_fail_nth(f.sim, SIM_VMM_MAP, 3);
	uintptr_t b = fixture_malloc(&f, 16 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, 1);
	assert_int_equal(st.stitched_bytes, 0);
	assert_int_equal(st.stitch_free_bytes, 0);
	assert_int_equal(st.reserved_bytes, 24 * MiB);
	check_device_holds(&f, 24 * MiB);
	/* The same when the access call fails after all chunks are mapped. */
	sim_fail_nth(f.sim, SIM_VMM_SET_ACCESS, 1);
	uintptr_t c = fixture_malloc(&f, 40 * MiB);
	st = fixture_stats(&f);
	assert_int_equal(st.stitched_bytes, 0);
	assert_int_equal(st.reserved_bytes, 64 * MiB);
	check_device_holds(&f, 64 * MiB);
	fixture_free(&f, c, a, b);
	fixture_close(&f);
}

/* The report tells what is held after a failed request (reserved no more
 * than before, nothing kept, the device holding exactly what the cache
 * reserves), and why it failed at once: more than the free memory and the
 * cache together, so nothing was cut out, released or created. */
static void test_report_after_failure(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 24 * MiB, "expandable_segments:True");
	uintptr_t a[6], p = 0;
	fragment(&f, CM_STREAM_LEGACY, a);
	fixture_free(&f, a[1], a[5]);
	cm_thread_flush(f.heap);
	fixture_device_sync(&f);
	cm_stats before = fixture_stats(&f);
	FILE *out = tmpfile();
	assert_non_null(out);
	cm_heap_set_report_stream(f.heap, out);
	assert_int_equal(cm_malloc(f.heap, 0, 12 * MiB, &p), CM_ERR_OOM);
	cm_stats st = fixture_stats(&f);
	assert_true(st.reserved_bytes <= before.reserved_bytes);
	assert_int_equal(st.stitch_free_bytes, 0);
	assert_int_equal(sim_used_bytes(f.sim, 0), st.reserved_bytes);
	char want[96], text[4096];
	snprintf(want, sizeof(want), "%.2f MiB reserved but unallocated",
		 (double)(st.reserved_bytes - st.allocated_bytes) / (double)MiB);
	rewind(out);
	size_t n = fread(text, 1, sizeof(text) - 1, out);
	text[n] = '\0';
	fclose(out);
	cm_heap_set_report_stream(f.heap, NULL);
	if (!strstr(text, want) || !strstr(text, "refused at once"))
		fail_msg("report says:\n%s\nexpected \"%s\", refused at once", text, want);
	fixture_check(&f);
	for (int i = 0; i < 5; i++)
		if (i != 1)
			fixture_free(&f, a[i]);
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_in_place),
		cmocka_unit_test(test_shared_across_streams),
		cmocka_unit_test(test_ladder_unmaps),
		cmocka_unit_test(test_stitch_fragmented),
		cmocka_unit_test(test_stitch_waits_for_stream),
		cmocka_unit_test(test_ladder_stitches),
		cmocka_unit_test(test_stitch_waits_for_cudafree_work),
		cmocka_unit_test(test_stitch_budget),
		cmocka_unit_test(test_stitch_budget_renews),
		{"test_hopeless_at_once_plain", test_hopeless_at_once, NULL, NULL, NULL},
		{"test_hopeless_at_once_expandable", test_hopeless_at_once, NULL, NULL,
		 (void *)"expandable_segments:True"},
		cmocka_unit_test(test_failed_growth_gives_back),
		cmocka_unit_test(test_report_after_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
