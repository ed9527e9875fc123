/* tests/test_submit.c - the submission protocol (docs/design.md, "Seeing
 * every submission"): with every submission seen, a stream that ran
 * nothing costs nothing at a reuse, a busy stream is ordered rather than
 * waited for, and the mark that follows a submission is never lost to a
 * cover that ran between the hook and the driver call. The sim plays the
 * device; each helper below does what a hooked driver call does:
 * cm_submit_begin, the work, cm_submit_end. */
#include <pthread.h>
#include <unistd.h>

#include "fixture.h"
#include "internal.h"

/* A 1 GiB heap that sees submissions, with conf (CM_ORDER_AT_ONCE: every
 * reuse ordered at once; NULL: the defaults, frees may await). */
static void submit_open(fixture *f, const char *conf)
{
	fixture_open(f, GiB, conf);
	cm_heap_track_submissions(f->heap);
}

static void submit_memset(fixture *f, uintptr_t p, int v, size_t n, cm_stream s)
{
	assert_true(cm_submit_begin(f->heap, s));
	assert_int_equal(sim_memset_async(f->sim, 0, p, v, n, s), CM_OK);
	cm_submit_end();
}

static sim_gate *submit_gate(fixture *f, cm_stream s)
{
	assert_true(cm_submit_begin(f->heap, s));
	sim_gate *g = sim_gate_enqueue(f->sim, 0, s);
	cm_submit_end();
	return g;
}

/* 128 idle non-blocking streams (as PyTorch keeps): a reuse after legacy
 * work costs one event on the legacy stream, the next one nothing at all;
 * before submissions were seen it asked or fenced every stream. */
static void test_idle_streams_cost_nothing(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	for (int i = 0; i < 128; i++)
		fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	submit_memset(&f, p, 1, 4096, CM_STREAM_LEGACY);
	fixture_free(&f, p);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	assert_int_equal(fixture_logged(&f, SIM_EVENT_RECORD), 1);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_WAIT_EVENT), 0);
	assert_int_equal(fixture_logged(&f, SIM_STREAM_QUERY), 0);
	size_t calls = sim_log_count(f.sim);
	for (int i = 0; i < 10; i++) {
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p);
	}
	assert_int_equal(sim_log_count(f.sim), calls); /* nothing since */
	assert_int_equal(fixture_stats(&f).fences, 1);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Without submissions seen, the same program pays per stream. */
static void test_untracked_idle_streams_pay(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, CM_ORDER_AT_ONCE);
	for (int i = 0; i < 4; i++)
		fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 1, 4096, CM_STREAM_LEGACY), CM_OK);
	fixture_free(&f, p);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	assert_true(fixture_logged(&f, SIM_STREAM_QUERY) + fixture_logged(&f, SIM_EVENT_RECORD) >= 5);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* A block last used on a busy stream is handed out at once, without new
 * memory; the stream that uses it next waits for the busy one at its next
 * submission, so the late write lands first. */
static void test_busy_stream_ordered_not_waited(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = submit_gate(&f, a);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	uintptr_t q = fixture_malloc(&f, 4096);
	assert_int_equal(q, p);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.raw_alloc_calls, 1);
	assert_int_equal(st.fences, 1);
	assert_int_equal(st.host_syncs, 0);
	submit_memset(&f, q, 2, 4096, b);
	assert_int_equal(fixture_stats(&f).lazy_waits, 1);
	fixture_gate_check(&f, g, p, 2); /* an unordered b would have run by now */
	/* b is ordered now: its next work waits only for the cover that gave
	 * the device its quiet state back at the synchronization (complete
	 * already), the work after it for nothing more. */
	submit_memset(&f, q, 3, 4096, b);
	assert_int_equal(fixture_stats(&f).lazy_waits, 2);
	submit_memset(&f, q, 4, 4096, b);
	assert_int_equal(fixture_stats(&f).lazy_waits, 2);
	fixture_free(&f, q);
	fixture_close(&f);
}

/* The mark comes after the driver call: a cover that runs between the
 * hook's begin and the work itself does not leave the work uncovered. */
static void test_mark_after_submission(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096), x = fixture_malloc(&f, 8192);
	submit_memset(&f, x, 0, 8192, a);
	fixture_free(&f, x);
	/* The hook of a's next call has begun... */
	assert_true(cm_submit_begin(f.heap, a));
	/* ...when another reuse covers every stream that ran. */
	assert_int_equal(fixture_malloc(&f, 8192), x);
	assert_int_equal(fixture_stats(&f).fences, 1);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, a);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 1, 4096, a), CM_OK);
	cm_submit_end();
	fixture_free(&f, p);
	uintptr_t q = fixture_malloc(&f, 4096);
	assert_int_equal(q, p);
	assert_int_equal(fixture_stats(&f).fences, 2); /* a ran: not quiet */
	submit_memset(&f, q, 2, 4096, b);
	fixture_gate_check(&f, g, p, 2);
	fixture_free(&f, q, x);
	fixture_close(&f);
}

/* A stream met first in a submission (created where the library could not
 * see it) counts as having run, and is covered like any other. */
static void test_unknown_stream_counts_as_ran(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_stream a = sim_stream_create(f.sim, 0, true), b = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, a);
	assert_int_equal(sim_memset_async(f.sim, 0, p, 1, 4096, a), CM_OK);
	assert_false(cm_submit_begin(f.heap, a)); /* unknown */
	assert_int_equal(cm_stream_seen(f.heap, 0, a), CM_OK);
	fixture_free(&f, p);
	uintptr_t q = fixture_malloc(&f, 4096);
	submit_memset(&f, q, 2, 4096, b);
	fixture_gate_check(&f, g, p, 2);
	fixture_free(&f, q);
	fixture_close(&f);
}

/* A stream whose event record fails is made safe by a device
 * synchronization; reuse goes on (issue: a stream that fails is never
 * fatal), and the stream, covered, costs nothing more. */
static void test_failing_stream_forgotten(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	sim_log_clear(f.sim);
	sim_fail_nth(f.sim, SIM_EVENT_RECORD, 1); /* the cover's event on a */
	assert_int_equal(fixture_malloc(&f, 4096), p);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.stream_failures, 1);
	assert_int_equal(st.host_syncs, 1);
	assert_int_equal(fixture_logged(&f, SIM_DEVICE_SYNCHRONIZE), 1);
	/* Covered: the next reuse neither records on a nor synchronizes. */
	fixture_free(&f, p);
	sim_log_clear(f.sim);
	assert_int_equal(fixture_malloc(&f, 4096), p);
	assert_int_equal(fixture_logged(&f, SIM_DEVICE_SYNCHRONIZE), 0);
	assert_int_equal(fixture_stats(&f).stream_failures, 1);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Issue 36: when the synchronization fails too, nothing proves a's work
 * ordered: p is not handed out (the old code ended a's record in the
 * middle of the cover and reused p: a's 1 could land on it). */
static void test_failing_stream_unproven_waits(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = submit_gate(&f, a);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	sim_fail_nth(f.sim, SIM_EVENT_RECORD, 1); /* the cover's event on a */
	sim_fail_nth(f.sim, SIM_DEVICE_SYNCHRONIZE, 1);
	uintptr_t q = fixture_malloc(&f, 4096);
	assert_true(q != p);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.stream_failures, 1);
	assert_int_equal(st.host_syncs, 0);
	fixture_check(&f);
	sim_gate_open(g);
	fixture_device_sync(&f);
	fixture_free(&f, q);
	fixture_close(&f);
}

/* The same program with free_fence:none races: the test above can fail. */
static void test_none_races(void **state)
{
	(void)state;
#if defined(__SANITIZE_THREAD__)
	skip(); /* the race is the point: ThreadSanitizer would rightly stop it */
#endif
	fixture f;
	fixture_open(&f, GiB, "free_fence:none");
	cm_heap_track_submissions(f.heap);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = submit_gate(&f, a);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	uintptr_t q = fixture_malloc(&f, 4096);
	submit_memset(&f, q, 2, 4096, b);
	fixture_gate_check(&f, g, p, 1); /* the late write won */
	fixture_free(&f, q);
	fixture_close(&f);
}

/* A 64 GiB device, submissions seen, two non-blocking streams, the first
 * (*busy) held busy by the gate returned. */
static sim_gate *open_one_busy(fixture *f, cm_stream *busy)
{
	fixture_open(f, 64 * GiB, NULL);
	cm_heap_track_submissions(f->heap);
	*busy = fixture_stream(f, true);
	fixture_stream(f, true);
	return submit_gate(f, *busy);
}

/* Submissions seen, two non-blocking streams, one held busy: each block
 * freed after work on it awaits its order, so the next allocations take
 * new memory instead of ordering the streams, until the blocks awaiting
 * reach the pending bound (max_pending_mb:auto, here its floor of 4 MiB:
 * the program holds 1 MiB); then one cover orders them all and they are
 * reused. The host never waits (the busy stream stays blocked
 * throughout), and what the cache holds stays within the bound. */
static void test_pending_bounded_before_ordering(void **state)
{
	(void)state;
	fixture f;
	cm_stream busy;
	sim_gate *g = open_one_busy(&f, &busy);
	const size_t size = 1 << 20;
	const int n = 400;
	uintptr_t first = 0;
	bool reused = false;
	for (int i = 0; i < n; i++) {
		uintptr_t p = fixture_malloc(&f, size);
		if (i == 0)
			first = p;
		else
			reused |= p == first;
		submit_memset(&f, p, 1, size, busy);
		fixture_free(&f, p);
		cm_stats st = fixture_stats(&f);
		assert_true(st.pending_bytes <= CM_PENDING_FLOOR);
		fixture_check(&f);
	}
	cm_stats st = fixture_stats(&f);
	assert_true(reused);
	assert_true(st.fences >= n / 8 && st.fences <= n / 3); /* one cover per ~4 frees */
	assert_true(st.peak_reserved_bytes <= CM_PENDING_FLOOR + 2 * CM_SMALL_SEGMENT);
	assert_int_equal(st.host_syncs + st.pending_waits, 0);
	assert_true(st.peak_pending_bytes > 0);
	sim_gate_open(g);
	fixture_close(&f);
}

/* max_pending_mb:auto is a quarter of what the program holds: with 64 MiB
 * live, 1 MiB blocks freed behind a busy stream await their order up to
 * 16 MiB (1/16, the bound before, kept them at 4 MiB and made four times
 * the covers), never past it, and what the cache holds stays within the
 * live memory, the bound and a segment. */
static void test_pending_bound_scales_with_allocated(void **state)
{
	(void)state;
	fixture f;
	cm_stream busy;
	sim_gate *g = open_one_busy(&f, &busy);
	const size_t live = 64 << 20, size = 1 << 20;
	uintptr_t held = fixture_malloc(&f, live);
	for (int i = 0; i < 200; i++) {
		uintptr_t p = fixture_malloc(&f, size);
		submit_memset(&f, p, 1, size, busy);
		fixture_free(&f, p);
		cm_stats st = fixture_stats(&f);
		assert_true(st.pending_bytes <= st.allocated_bytes / 4);
	}
	cm_stats st = fixture_stats(&f);
	assert_true(st.peak_pending_bytes > live / 8);
	assert_true(st.fences >= 200 / 17 && st.fences <= 200 / 10);
	assert_true(st.peak_reserved_bytes <= live + live / 4 + 2 * CM_SMALL_SEGMENT);
	assert_int_equal(st.host_syncs + st.pending_waits, 0);
	sim_gate_open(g);
	fixture_free(&f, held);
	fixture_close(&f);
}

/* Submissions seen: a block awaiting its proof comes back through the
 * completion of a collect (events on legacy and on the streams that ran,
 * polled by later allocations), without any order between the streams;
 * never while the work that used it is pending. */
static void test_pending_proven_by_collect(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_heap_destroy(f.heap); /* reopened with a bound of 1 MiB */
	f.cfg.max_pending = CM_MiB;
	assert_int_equal(cm_heap_create(sim_backend(f.sim), &f.cfg, &f.heap), CM_OK);
	cm_heap_track_submissions(f.heap);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, true);
	sim_gate *g = submit_gate(&f, a);
	uintptr_t p = fixture_malloc(&f, 4096);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	/* Each q awaits too, 4 KiB each, set aside at its free without merging
	 * with the rest of the segment, which serves the next q: once a batch
	 * awaits (fence.c, cm_collect_start_for) a collect starts (legacy, a);
	 * the searches after it poll it: still pending. All stay below the
	 * bound, in one segment. */
	enum { QS = CM_MiB / CM_COLLECT_BATCH_DIV / 4096 + 4 };
	for (int i = 0; i < QS; i++) {
		uintptr_t q = fixture_malloc(&f, 4096);
		assert_true(q != p);
		fixture_free(&f, q);
	}
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.collects, 1);
	assert_int_equal(st.fences, 0);
	assert_int_equal(st.raw_alloc_calls, 1);
	/* b busy from now on, so no cover is free; a's work finishes, the core
	 * not told. */
	sim_gate *gb = submit_gate(&f, b);
	sim_gate_open(g);
	const cm_backend *be = sim_backend(f.sim);
	assert_int_equal(be->stream_synchronize(be->ctx, 0, a), CM_OK);
	/* The next search meets a block awaiting and polls: the collect
	 * completed, the blocks come back at the search after, p's proven
	 * (the others are not: freed after the collect began). p is handed
	 * out once the smaller free block before it in best-fit order is
	 * used up, without any order. */
	static uintptr_t held[1024];
	int n = 0;
	bool reused = false;
	while (n < 1024 && !reused) {
		held[n] = fixture_malloc(&f, 4096);
		reused = held[n++] == p;
	}
	assert_true(reused);
	st = fixture_stats(&f);
	assert_int_equal(st.fences, 0);
	assert_int_equal(st.stream_waits + st.lazy_waits + st.host_syncs, 0);
	fixture_free_n(&f, held, n);
	sim_gate_open(gb);
	fixture_close(&f);
}

/* A device synchronization proves every earlier submission complete: the
 * device is quiet again, and later cudaMalloc pairs reuse their block
 * with no order, collect or new memory (before, only a cover cleared the
 * streams' flags: a collect every ~17 pairs, 34 MiB for 8 KiB live). */
static void test_device_sync_gives_quiet_back(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, NULL);
	cm_stream s = fixture_stream(&f, true);
	uintptr_t w = fixture_malloc(&f, 4096);
	submit_memset(&f, w, 1, 4096, s);
	fixture_device_sync(&f);
	cm_stats before = fixture_stats(&f);
	uintptr_t p = fixture_malloc(&f, 4096);
	for (int i = 0; i < 1000; i++) {
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p);
	}
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.raw_alloc_calls, 1);
	assert_int_equal(st.fences + st.collects, before.fences + before.collects);
	assert_int_equal(st.peak_pending_bytes, 0);
	fixture_free(&f, p, w);
	fixture_close(&f);
}

/* Non-blocking streams that ran work and were destroyed leave the legacy
 * stream alone: once their tails completed, a cudaMalloc loop there keeps
 * reusing one block instead of setting memory aside for the dead streams. */
static void test_destroyed_streams_leave_legacy_alone(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, NULL);
	uintptr_t w[4]; /* a block per stream: the streams are not ordered */
	for (int i = 0; i < 4; i++) {
		w[i] = fixture_malloc(&f, 4096);
		cm_stream s = fixture_stream(&f, true);
		submit_memset(&f, w[i], 1, 4096, s);
		fixture_stream_end(&f, s);
	}
	/* the tails complete; the core is not told, it must find out */
	assert_int_equal(sim_backend(f.sim)->device_synchronize(f.sim, 0), CM_OK);
	uintptr_t p = fixture_malloc(&f, 4096);
	for (int i = 0; i < 1000; i++) {
		submit_memset(&f, p, 2, 4096, CM_STREAM_LEGACY);
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p);
	}
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.raw_alloc_calls, 1);
	assert_int_equal(st.peak_pending_bytes, 0);
	fixture_free(&f, p);
	fixture_free_n(&f, w, 4);
	fixture_close(&f);
}

/* A non-blocking stream a library created and does not use (PyTorch's
 * training on an H100 had such streams: 588 collects, 255 MiB pending)
 * leaves the legacy stream's frees reusable at once: varying sizes freed
 * and asked again with work queued between stay within the largest live
 * set plus a segment, nothing awaits; once the stream runs, frees await. */
static void test_idle_nonblocking_stream_sets_nothing_aside(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, NULL);
	cm_stream idle = fixture_stream(&f, true);
	uintptr_t live[4] = { 0 };
	for (int i = 0; i < 4000; i++) {
		size_t size = (size_t)(1 + (i * 7919) % 64) << 20;
		if (live[i % 4])
			fixture_free(&f, live[i % 4]);
		live[i % 4] = fixture_malloc(&f, size);
		submit_memset(&f, live[i % 4], 1, 4096, CM_STREAM_LEGACY);
	}
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.peak_pending_bytes, 0);
	assert_true(st.peak_reserved_bytes <= 4 * (64u << 20) + (64u << 20));
	assert_int_equal(st.covered_streams, 0);
	uintptr_t small = fixture_malloc(&f, 4096);
	submit_memset(&f, small, 2, 4096, idle); /* now it ran */
	fixture_free(&f, small);
	assert_true(fixture_malloc(&f, 4096) != small);
	assert_int_equal(fixture_stats(&f).pending_bytes, 4096);
	fixture_free_n(&f, live, 4);
	fixture_close(&f);
}

/* A free awaiting its proof because a non-blocking stream ran (the legacy
 * stream still busy, so no collect completes) is ordered before the device
 * is asked for more once that stream is idle: one cover, which delays no
 * busy stream, and the request gets it back. While the stream is busy the
 * request takes new memory within the bound, as before. */
static void test_pending_ordered_before_growth_once_streams_idle(void **state)
{
	(void)state;
	for (int busy = 0; busy < 2; busy++) {
		fixture f;
		fixture_open(&f, 4 * GiB, NULL);
		cm_heap_track_submissions(f.heap);
		cm_stream s = fixture_stream(&f, true);
		uintptr_t keep = fixture_malloc(&f, 512u << 20); /* a bound of 32 MiB */
		uintptr_t p = fixture_malloc(&f, 12u << 20);      /* a segment of its own */
		submit_memset(&f, keep, 1, 4096, s);
		assert_int_equal(sim_backend(f.sim)->device_synchronize(f.sim, 0), CM_OK); /* untold */
		sim_gate *gs = busy ? submit_gate(&f, s) : NULL;
		sim_gate *g = submit_gate(&f, CM_STREAM_LEGACY);
		submit_memset(&f, p, 2, 4096, CM_STREAM_LEGACY);
		assert_int_equal(cm_free(f.heap, p), CM_OK);
		uint64_t segments = fixture_stats(&f).raw_alloc_calls;
		uintptr_t q = fixture_malloc(&f, 12u << 20);
		cm_stats st = fixture_stats(&f);
		assert_int_equal(q == p, !busy);
		assert_int_equal(st.raw_alloc_calls, segments + (uint64_t)busy);
		sim_gate_open(g);
		if (gs)
			sim_gate_open(gs);
		assert_int_equal(cm_free(f.heap, q), CM_OK);
		if (busy)
			assert_int_equal(cm_free(f.heap, p), CM_ERR_INVALID); /* p is the cache's */
		assert_int_equal(cm_free(f.heap, keep), CM_OK);
		fixture_close(&f);
	}
}

/* Streams created and destroyed without work leave zombies until reaped;
 * once their tails completed the idle device is quiet again: a pair
 * reuses its block without an order or new memory (measured on an H200:
 * 75 us a pair, a new segment each, before zombies were reaped here). */
static void test_reaped_zombies_leave_device_quiet(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, NULL);
	fixture_stream(&f, true);
	for (int i = 0; i < 256; i++) {
		cm_stream s = fixture_stream(&f, true);
		fixture_stream_end(&f, s);
	}
	/* the tails complete; the core is not told, it must find out */
	assert_int_equal(sim_backend(f.sim)->device_synchronize(f.sim, 0), CM_OK);
	uintptr_t p = fixture_malloc(&f, 4096);
	for (int i = 0; i < 1000; i++) {
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p);
	}
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.raw_alloc_calls, 1);
	assert_int_equal(st.fences + st.collects, 0);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Expandable segments: a growth that maps new chunks after a free last
 * block awaiting its proof must not hand that block out with them (the
 * block was freed after work still queued on a busy stream). */
static void test_expandable_growth_skips_awaiting_tail(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, "expandable_segments:True");
	cm_heap_track_submissions(f.heap);
	cm_stream a = fixture_stream(&f, true);
	fixture_stream(&f, true);
	sim_gate *g = submit_gate(&f, a);
	uintptr_t keep = fixture_malloc(&f, 4096);
	uintptr_t p = fixture_malloc(&f, 4096);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	const size_t big = 6 << 20; /* more than the mapped tail after p */
	uintptr_t q = fixture_malloc(&f, 1 << 20);
	uintptr_t r = fixture_malloc(&f, big);
	assert_true(q + (1 << 20) <= p || q >= p + 4096);
	assert_true(r + big <= p || r >= p + 4096);
	fixture_check(&f);
	sim_gate_open(g);
	fixture_device_sync(&f);
	fixture_free(&f, q, r, keep);
	fixture_close(&f);
}

/* max_pending_mb:0 orders at once: every reuse is a cover, nothing new. */
static void test_pending_zero_orders_at_once(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, GiB, CM_ORDER_AT_ONCE);
	cm_heap_track_submissions(f.heap);
	cm_stream busy = fixture_stream(&f, true);
	fixture_stream(&f, true);
	sim_gate *g = submit_gate(&f, busy);
	uintptr_t p = fixture_malloc(&f, 4096);
	for (int i = 0; i < 10; i++) {
		submit_memset(&f, p, 1, 4096, busy);
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p);
	}
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.fences, 10);
	assert_int_equal(st.raw_alloc_calls, 1);
	assert_int_equal(st.peak_pending_bytes, 0);
	sim_gate_open(g);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Without submissions seen and with many streams, frees wait for a
 * collect; while one stream stays busy, the memory taken meanwhile is
 * bounded: past max_pending_mb (256 MiB) the host waits, as cudaFree
 * would have. */
static void test_pending_memory_bounded(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * GiB, NULL);
	cm_stream a = fixture_stream(&f, true);
	for (int i = 0; i < 8; i++)
		fixture_stream(&f, true);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, a);
	pthread_t opener;
	assert_int_equal(pthread_create(&opener, NULL, fixture_open_gate_later, g), 0);
	const size_t size = 16 << 20;
	for (int i = 0; i < 200; i++) {
		uintptr_t p = fixture_malloc(&f, size);
		fixture_free(&f, p);
	}
	pthread_join(opener, NULL);
	cm_stats st = fixture_stats(&f);
	assert_true(st.pending_waits >= 1);
	assert_true(st.peak_reserved_bytes <= size + f.cfg.max_pending + size);
	fixture_close(&f);
}

/* The driver gives the handle of a stream whose destruction the library
 * did not see to a new stream: the old stream's pending work can no
 * longer be named, so it is waited for before the handle means the new
 * stream (before, the new stream inherited the old one's cleared flag and
 * a cover left the late write unordered). */
static void test_handle_reused_after_unseen_destroy(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	cm_stream a = fixture_stream(&f, true), b = fixture_stream(&f, true);
	uintptr_t p = fixture_malloc(&f, 4096);
	sim_gate *g = submit_gate(&f, a);
	submit_memset(&f, p, 1, 4096, a);
	fixture_free(&f, p);
	pthread_t opener;
	assert_int_equal(pthread_create(&opener, NULL, fixture_open_gate_later, g), 0);
	/* a's destruction unseen; the driver hands its handle out again */
	assert_int_equal(cm_stream_created(f.heap, 0, a, true), CM_OK);
	uintptr_t q = fixture_malloc(&f, 4096);
	submit_memset(&f, q, 2, 4096, b);
	pthread_join(opener, NULL);
	fixture_device_sync(&f);
	assert_int_equal(*(volatile unsigned char *)q, 2);
	fixture_free(&f, q);
	fixture_close(&f);
}

static void submit_nothing(void *arg)
{
	(void)arg;
}

/* Zombies' tails cost one wait each, whatever max_pending_mb is: once the
 * legacy stream waits for a tail, all its later work is ordered after it,
 * so later covers do not wait again (issue 36: with max_pending_mb:0 every
 * cover waited on every zombie, 4,000 streams took 104 s). */
static void test_zombie_tails_waited_once(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE); /* max_pending_mb:0: a cover at every reuse that needs one */
	enum { ZOMBIES = 100, COVERS = 50 };
	sim_gate *g[ZOMBIES];
	for (int i = 0; i < ZOMBIES; i++) {
		cm_stream s = fixture_stream(&f, true);
		g[i] = submit_gate(&f, s); /* its tail stays pending */
		fixture_stream_end(&f, s);
	}
	size_t waits = fixture_logged(&f, SIM_STREAM_WAIT_EVENT);
	uintptr_t p = fixture_malloc(&f, 4096);
	for (int i = 0; i < COVERS; i++) {
		submit_memset(&f, p, 1, 4096, CM_STREAM_LEGACY);
		fixture_free(&f, p);
		assert_int_equal(fixture_malloc(&f, 4096), p); /* a cover orders it */
	}
	cm_stats st = fixture_stats(&f);
	assert_true(st.fences >= COVERS);
	waits = fixture_logged(&f, SIM_STREAM_WAIT_EVENT) - waits;
	print_message("%zu stream waits for %d covers over %d zombies\n", waits, COVERS, ZOMBIES);
	assert_true(waits <= ZOMBIES + 2 * COVERS);
	for (int i = 0; i < ZOMBIES; i++)
		sim_gate_open(g[i]);
	fixture_free(&f, p);
	fixture_close(&f);
}

/* Streams created, given work and destroyed without end: records and the
 * directory stay sized for the streams alive at once, and every new
 * stream is found without a lock. */
static void test_stream_churn_bounded(void **state)
{
	(void)state;
	fixture f;
	submit_open(&f, CM_ORDER_AT_ONCE);
	for (int i = 0; i < 10000; i++) {
		cm_stream s = fixture_stream(&f, true);
		assert_non_null(cm_dir_find(&f.heap->dir, s));
		assert_true(cm_submit_begin(f.heap, s)); /* work that touches no memory */
		assert_int_equal(sim_host_func(f.sim, 0, s, submit_nothing, NULL), CM_OK);
		cm_submit_end();
		fixture_stream_end(&f, s);
		assert_null(cm_dir_find(&f.heap->dir, s));
	}
	fixture_device_sync(&f);
	size_t records = 0;
	for (cm_stream_rec *r = f.heap->devs[0].all_streams; r; r = r->all_next)
		records++;
	print_message("%zu records for 10000 streams\n", records);
	assert_true(records <= 1000);
	assert_int_equal(f.heap->dir.live, 0);
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_streams_cost_nothing),
		cmocka_unit_test(test_untracked_idle_streams_pay),
		cmocka_unit_test(test_busy_stream_ordered_not_waited),
		cmocka_unit_test(test_mark_after_submission),
		cmocka_unit_test(test_unknown_stream_counts_as_ran),
		cmocka_unit_test(test_failing_stream_forgotten),
		cmocka_unit_test(test_failing_stream_unproven_waits),
		cmocka_unit_test(test_none_races),
		cmocka_unit_test(test_pending_memory_bounded),
		cmocka_unit_test(test_pending_bounded_before_ordering),
		cmocka_unit_test(test_pending_bound_scales_with_allocated),
		cmocka_unit_test(test_pending_zero_orders_at_once),
		cmocka_unit_test(test_pending_proven_by_collect),
		cmocka_unit_test(test_reaped_zombies_leave_device_quiet),
		cmocka_unit_test(test_device_sync_gives_quiet_back),
		cmocka_unit_test(test_idle_nonblocking_stream_sets_nothing_aside),
		cmocka_unit_test(test_pending_ordered_before_growth_once_streams_idle),
		cmocka_unit_test(test_destroyed_streams_leave_legacy_alone),
		cmocka_unit_test(test_expandable_growth_skips_awaiting_tail),
		cmocka_unit_test(test_handle_reused_after_unseen_destroy),
		cmocka_unit_test(test_zombie_tails_waited_once),
		cmocka_unit_test(test_stream_churn_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
