/* tests/test_oom.c - the out-of-memory ladder, step by step, on a small
 * simulated device; the report and its fields; the release policies. */
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"

/* Captures the out-of-memory reports of f's heap. */
typedef struct capture {
	char *buf;
	size_t len;
	FILE *out;
} capture;

static void capture_open(capture *c, fixture *f)
{
	c->buf = NULL;
	c->out = open_memstream(&c->buf, &c->len);
	cm_heap_set_report_stream(f->heap, c->out);
}

static const char *capture_text(capture *c)
{
	fflush(c->out);
	return c->buf ? c->buf : "";
}

static void capture_close(capture *c, fixture *f)
{
	cm_heap_set_report_stream(f->heap, NULL);
	fclose(c->out);
	free(c->buf);
}

/* Step 1: the request fits only once cached (idle) segments are released. */
static void test_step1_release_fitting(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * MiB, NULL);
	uintptr_t a = fixture_malloc(&f, 40 * MiB);
	fixture_free(&f, a);
	uintptr_t b = fixture_malloc(&f, 50 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, 1);
	assert_int_equal(st.ladder_releases, 1);
	assert_int_equal(st.ladder_syncs, 0);
	assert_int_equal(st.released_bytes, 40 * MiB);
	assert_int_equal(st.oom_count, 0);
	fixture_free(&f, b);
	fixture_close(&f);
}

/* Large blocks become exact once a growth passes three quarters of what
 * the process can have, before the device is short: 60 MiB requests then
 * take segments of their own rather than split the 80 MiB ones, whose
 * 20 MiB rests beside live blocks would leave no room for the last 40. */
static void test_large_blocks_exact_past_three_quarters(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t a = fixture_malloc(&f, 80 * MiB), b = fixture_malloc(&f, 80 * MiB);
	uintptr_t c = fixture_malloc(&f, 40 * MiB); /* 200 of 256 MiB: tight */
	fixture_free(&f, a, b, c);
	uintptr_t p[4];
	for (int i = 0; i < 3; i++)
		p[i] = fixture_malloc(&f, 60 * MiB);
	p[3] = fixture_malloc(&f, 40 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.oom_count, 0);
	assert_int_equal(st.reserved_bytes, 220 * MiB);
	fixture_free_n(&f, p, 4);
	fixture_close(&f);
}

/* f opened with 12 non-blocking streams, the last busy behind a gate;
 * keep and keep2 fill the first 2 MiB segment but for p (4 KiB), freed
 * behind the busy stream and asked for again (q) while a thread opens
 * the gate 30 ms later. */
typedef struct fenced {
	uintptr_t keep, keep2, p, q;
} fenced;

static fenced fenced_reuse(fixture *f, size_t capacity, const char *conf)
{
	fenced r;
	fixture_open(f, capacity, conf);
	cm_stream busy = 0;
	for (int i = 0; i < 12; i++)
		busy = fixture_stream(f, true);
	r.keep = fixture_malloc(f, MiB);
	r.keep2 = fixture_malloc(f, MiB - 4096);
	r.p = fixture_malloc(f, 4096);
	sim_gate *g = sim_gate_enqueue(f->sim, 0, busy);
	fixture_free(f, r.p);
	pthread_t t;
	pthread_create(&t, NULL, fixture_open_gate_later, g);
	r.q = fixture_malloc(f, 4096);
	pthread_join(t, NULL);
	return r;
}

/* Step 2: the only block that fits waits on a completion collect (many
 * non-blocking streams, one busy); one synchronization makes it usable.
 * keep holds the rest of the only segment the 2 MiB cap allows; the
 * device itself has room (not short: see test_short_device_proves_pending). */
static void test_step2_sync_reclaims_fenced(void **state)
{
	(void)state;
	fixture f;
	fenced r = fenced_reuse(&f, 1024 * MiB, "memory_limit_mb:2");
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.alloc_retries, 1);
	assert_int_equal(st.ladder_releases, 0); /* nothing idle: keep holds the segment */
	assert_int_equal(st.ladder_syncs, 1);
	assert_int_equal(st.fences, 0);
	assert_int_equal(r.q, r.p);
	assert_int_equal(st.raw_alloc_calls, 1); /* the cap refused the second */
	assert_int_equal(st.limit_refusals, 1);
	fixture_free(&f, r.q, r.keep2, r.keep);
	fixture_close(&f);
}

/* A device short of memory: the block awaiting its proof is proven (the
 * host waits for its collect) before the device is asked for more, so no
 * growth is tried and no ladder climbed; with room the cache would have
 * taken a new segment instead. */
static void test_short_device_proves_pending(void **state)
{
	(void)state;
	fixture f;
	fenced r = fenced_reuse(&f, 2 * MiB, NULL);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(r.q, r.p);
	assert_int_equal(st.raw_alloc_calls, 1);
	assert_int_equal(st.alloc_retries + st.oom_count + st.fences, 0);
	assert_int_equal(st.pending_waits, 1);
	fixture_free(&f, r.q, r.keep2, r.keep);
	fixture_close(&f);
}

/* Step 3: the cached memory is all in small segments, which step 1 (the
 * request's own kind) leaves alone; releasing every idle segment helps. */
static void test_step3_release_all(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * MiB, NULL);
	uintptr_t small[28];
	for (int i = 0; i < 28; i++)
		small[i] = fixture_malloc(&f, MiB);
	uintptr_t live = fixture_malloc(&f, 30 * MiB);
	fixture_free_n(&f, small, 28);
	uintptr_t big = fixture_malloc(&f, 20 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.ladder_releases, 0);
	assert_int_equal(st.ladder_syncs, 1);
	assert_int_equal(st.ladder_release_alls, 1);
	assert_int_equal(st.released_bytes, 28 * MiB);
	assert_int_equal(st.oom_count, 0);
	fixture_free(&f, big, live);
	fixture_close(&f);
}

/* Never fits: one report with every field, the error, a consistent cache
 * that serves later allocations. */
static void test_never_fits_reports(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * MiB, NULL);
	cm_stream s = fixture_stream(&f, true);
	uintptr_t a = fixture_malloc(&f, 30 * MiB);
	uintptr_t b = fixture_malloc_async(&f, 12 * MiB, s);
	uintptr_t c = fixture_malloc(&f, 4096);
	capture cap;
	capture_open(&cap, &f);
	uintptr_t p = 1;
	assert_int_equal(cm_malloc(f.heap, 0, 100 * MiB + 1, &p), CM_ERR_OOM);
	const char *r = capture_text(&cap);
	assert_true(strncmp(r, "cachemalloc: CUDA out of memory on device 0", 43) == 0);
	const char *fields[] = {"104857601 bytes asked", "104858112 rounded", "device: 64.00 MiB total",
				"free", "42.00 MiB allocated", "reserved but unallocated",
				"largest free block", "fragmentation", "per stream: cudaMalloc",
				"per stream: stream", "largest segments: 30.00 MiB",
				"most likely to help:"};
	for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++)
		if (!strstr(r, fields[i]))
			fail_msg("report lacks \"%s\":\n%s", fields[i], r);
	/* Rate-limited: a second failure right away prints nothing. */
	size_t len = strlen(r);
	assert_int_equal(cm_malloc(f.heap, 0, 100 * MiB, &p), CM_ERR_OOM);
	assert_int_equal(strlen(capture_text(&cap)), len);
	capture_close(&cap, &f);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.oom_count, 2);
	fixture_check(&f);
	fixture_free(&f, a);
	uintptr_t d = fixture_malloc(&f, 40 * MiB);
	fixture_free(&f, d);
	assert_int_equal(cm_free_async(f.heap, b, s), CM_OK);
	fixture_free(&f, c);
	fixture_close(&f);
}

/* A growth that leaves the device short (less free than its headroom,
 * 1/512 of it: 2 MiB of 1 GiB) gives idle memory back, oldest first, until
 * the headroom is free again: the driver's own allocations, which the
 * cache never sees, find room. Only what the headroom needs goes. */
static void test_headroom_kept_free(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, NULL);
	const cm_backend *be = sim_backend(f.sim);
	uintptr_t small[100];
	for (int i = 0; i < 100; i++)
		small[i] = fixture_malloc(&f, MiB); /* 50 small segments */
	for (int i = 0; i < 100; i++)
		assert_int_equal(cm_free(f.heap, small[i]), CM_OK); /* idle: they serve no large request */
	uintptr_t big = fixture_malloc(&f, 923 * MiB); /* 924 MiB: the device is full */
	size_t free_bytes, total;
	assert_int_equal(be->mem_get_info(be->ctx, 0, &free_bytes, &total), CM_OK);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.headroom_releases, 1);
	assert_true(free_bytes >= total / 512);
	assert_int_equal(st.reserved_bytes, 924 * MiB + 98 * MiB); /* one small segment went */
	assert_int_equal(st.alloc_retries + st.oom_count, 0);
	fixture_free(&f, big);
	fixture_check(&f);
	fixture_close(&f);
}

/* Once a request found the device short (or the process near its cap),
 * large blocks are exact: a 30 MiB request no longer splits the idle
 * 128 MiB segment (which the ladder gives back instead), so the 60 MiB
 * block that follows leaves no hole behind it, and 50 MiB fit after the
 * 30 MiB block is freed. With the split (max_split_size's default) 68 MiB
 * were free in two holes, neither of 50 MiB: out of memory. */
static void exact_after_short(fixture *f)
{
	uintptr_t x = fixture_malloc(f, 127 * MiB); /* a 128 MiB segment */
	fixture_free(f, x);
	uintptr_t b = fixture_malloc(f, 30 * MiB);
	uintptr_t c = fixture_malloc(f, 60 * MiB);
	fixture_free(f, b);
	uintptr_t d = fixture_malloc(f, 50 * MiB);
	cm_stats st = fixture_stats(f);
	assert_int_equal(st.reserved_bytes, 110 * MiB); /* two exact segments */
	fixture_free(f, c, d);
	fixture_check(f);
}

static void test_large_blocks_exact_once_short(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 128 * MiB, NULL); /* the 128 MiB segment leaves it short */
	exact_after_short(&f);
	assert_int_equal(fixture_stats(&f).oom_count, 0);
	fixture_close(&f);
}

static void test_large_blocks_exact_once_capped(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "memory_limit_mb:128");
	uintptr_t p;
	assert_int_equal(cm_malloc(f.heap, 0, 129 * MiB, &p), CM_ERR_OOM); /* refused: past the cap */
	exact_after_short(&f);
	assert_int_equal(fixture_stats(&f).oom_count, 1);
	fixture_close(&f);
}

/* Once the device has room again (a neighbour that filled it left), large
 * blocks split again: a cached 40 MiB block serves 30 MiB, no new segment. */
static void test_large_blocks_split_again_once_room_returns(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	const cm_backend *be = sim_backend(f.sim);
	uintptr_t neighbour, a, b, c;
	assert_int_equal(be->mem_alloc(be->ctx, 0, 216 * MiB, &neighbour), CM_OK);
	a = fixture_malloc(&f, 40 * MiB); /* the device's last 40 MiB: short */
	fixture_free(&f, a);
	assert_int_equal(be->mem_free(be->ctx, 0, neighbour), CM_OK);
	b = fixture_malloc(&f, 60 * MiB); /* a miss that finds the room back */
	c = fixture_malloc(&f, 30 * MiB);
	assert_int_equal(fixture_stats(&f).reserved_bytes, 100 * MiB);
	fixture_free(&f, b, c);
	fixture_close(&f);
}

/* Exact large blocks leave mid segments as they were: a whole free 20 MiB
 * segment still serves a 5 MiB request, with no new segment. The 70 MiB
 * held keep the cap near, so large blocks stay exact throughout. */
static void test_mid_segment_reused_once_exact(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "memory_limit_mb:128");
	uintptr_t p, held = fixture_malloc(&f, 70 * MiB);
	assert_int_equal(cm_malloc(f.heap, 0, 129 * MiB, &p), CM_ERR_OOM); /* large blocks exact */
	uintptr_t a = fixture_malloc(&f, 5 * MiB), b = fixture_malloc(&f, 12 * MiB);
	fixture_free(&f, a, b); /* one idle 20 MiB segment */
	uintptr_t c = fixture_malloc(&f, 5 * MiB);
	assert_int_equal(fixture_stats(&f).reserved_bytes, 90 * MiB);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 2);
	fixture_free(&f, c, held);
	fixture_close(&f);
}

/* Until then a large request splits a larger cached block, as before: a
 * device with room never pays a new segment for it. */
static void test_large_blocks_split_with_room(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, NULL);
	uintptr_t x = fixture_malloc(&f, 127 * MiB);
	fixture_free(&f, x);
	uintptr_t b = fixture_malloc(&f, 30 * MiB);
	uintptr_t c = fixture_malloc(&f, 60 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.reserved_bytes, 128 * MiB);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), 1);
	fixture_free(&f, b, c);
	fixture_close(&f);
}

/* A mid request (1-10 MiB) takes a 20 MiB segment, or, where the ladder
 * cannot make room for one, a segment of its own size rounded to 2 MiB:
 * 5 and 3 MiB beside 16 MiB on a 32 MiB device. */
static void test_mid_request_exact_when_20_mib_cannot_be_had(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 32 * MiB, NULL);
	uintptr_t a = fixture_malloc(&f, 16 * MiB);
	uintptr_t b = fixture_malloc(&f, 5 * MiB);
	uintptr_t c = fixture_malloc(&f, 3 * MiB);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.oom_count, 0);
	assert_int_equal(st.reserved_bytes, (16 + 6 + 4) * MiB);
	fixture_free(&f, a, b, c);
	fixture_check(&f);
	fixture_close(&f);
}

/* The ladder's rungs in the report: a request that passes the cap even
 * after the cache gave back an idle segment (released) fails, and the
 * report says what each rung gave back. */
static void test_report_names_rungs(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "memory_limit_mb:64");
	uintptr_t a = fixture_malloc(&f, 30 * MiB), b = fixture_malloc(&f, 20 * MiB);
	assert_int_equal(cm_free(f.heap, b), CM_OK); /* an idle segment of 20 MiB */
	capture cap;
	capture_open(&cap, &f);
	uintptr_t p = 1;
	assert_int_equal(cm_malloc(f.heap, 0, 40 * MiB, &p), CM_ERR_OOM);
	const char *r = capture_text(&cap);
	const char *fields[] = {"before failing, the cache gave back: blocks parked in per-thread "
				"caches 0 B; frees proven by a synchronization 0 B; chunks stitched 0 B; "
				"idle segments released 20.00 MiB",
				/* issue 35: the cap as the program sees it, and the advice for it */
				"device: 64.00 MiB total, 34.00 MiB free (memory_limit_mb",
				"raise memory_limit_mb (now 64 on this device)"};
	for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++)
		if (!strstr(r, fields[i]))
			fail_msg("report lacks \"%s\":\n%s", fields[i], r);
	capture_close(&cap, &f);
	assert_int_equal(fixture_stats(&f).reserved_bytes, 30 * MiB);
	fixture_free(&f, a);
	fixture_close(&f);
}

static void test_fraction_limit(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "per_process_memory_fraction:0.25");
	uintptr_t a = fixture_malloc(&f, 200 * MiB);
	size_t device_allocs = sim_call_count(f.sim, SIM_MEM_ALLOC);
	capture cap;
	capture_open(&cap, &f);
	uintptr_t p;
	assert_int_equal(cm_malloc(f.heap, 0, 100 * MiB, &p), CM_ERR_OOM);
	assert_int_equal(sim_call_count(f.sim, SIM_MEM_ALLOC), device_allocs); /* never asked */
	assert_non_null(strstr(capture_text(&cap), "raise per_process_memory_fraction"));
	capture_close(&cap, &f);
	assert_true(fixture_stats(&f).limit_refusals >= 1);
	uintptr_t b = fixture_malloc(&f, 50 * MiB);
	fixture_free(&f, a, b);
	fixture_close(&f);
}

static void test_garbage_collection(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "garbage_collection_threshold:0.5");
	uintptr_t a = fixture_malloc(&f, 100 * MiB);
	uintptr_t b = fixture_malloc(&f, 200 * MiB);
	assert_int_equal(cm_free(f.heap, a), CM_OK); /* the older idle segment */
	fixture_free(&f, b);
	uintptr_t c = fixture_malloc(&f, 150 * MiB); /* b serves it: no growth */
	assert_int_equal(c, b);
	assert_int_equal(fixture_stats(&f).gc_releases, 0);
	fixture_free(&f, c);
	uintptr_t d = fixture_malloc(&f, 300 * MiB); /* 300 + 300 > 512: collect */
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.gc_releases, 1);
	assert_int_equal(st.released_bytes, 100 * MiB); /* the oldest went, enough */
	assert_int_equal(st.reserved_bytes, 200 * MiB + 300 * MiB);
	fixture_free(&f, d);
	fixture_close(&f);
}

static void test_release_threshold_trims_at_sync(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 1024 * MiB, "release_threshold_mb:100");
	uintptr_t a = fixture_malloc(&f, 300 * MiB);
	uintptr_t b = fixture_malloc(&f, 50 * MiB);
	fixture_free(&f, a, b);
	cm_thread_flush(f.heap);
	assert_int_equal(fixture_stats(&f).reserved_bytes, 350 * MiB); /* no trim before a sync */
	fixture_device_sync(&f);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.trims, 1);
	assert_int_equal(st.reserved_bytes, 50 * MiB);
	fixture_close(&f);
}

/* Memory goes back only once no stream can use it: the device free waits
 * for the pending write on the freed block. */
static void test_release_waits_for_streams(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 64 * MiB, NULL);
	cm_stream s = fixture_stream(&f, true);
	uintptr_t a = fixture_malloc_async(&f, 40 * MiB, s);
	sim_gate *g = sim_gate_enqueue(f.sim, 0, s);
	assert_int_equal(sim_memset_async(f.sim, 0, a, 7, 40 * MiB, s), CM_OK);
	assert_int_equal(cm_free_async(f.heap, a, s), CM_OK);
	pthread_t t;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&t, NULL, fixture_open_gate_later, g);
	uintptr_t b = fixture_malloc(&f, 50 * MiB); /* needs a's memory back */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(t, NULL);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	assert_true(ms >= 25.0);
	assert_int_equal(fixture_stats(&f).released_bytes, 40 * MiB);
	fixture_free(&f, b);
	fixture_close(&f);
}

static const char *check_script;

static bool have_python(void)
{
	return system("python3 -c 'import pickle' >/dev/null 2>&1") == 0;
}

/* oom_snapshot: written at the failure, a valid pickle of the right shape
 * with the recent actions; a symlink at the path is replaced, not followed;
 * an unwritable path is reported and harmless. */
static void test_oom_snapshot(void **state)
{
	(void)state;
	if (!check_script || !have_python())
		skip();
	char dir[] = "/tmp/cm-snapXXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256], victim[256], cmd[1024];
	snprintf(path, sizeof(path), "%s/snap.pickle", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *v = fopen(victim, "w");
	fputs("untouched", v);
	fclose(v);
	assert_int_equal(symlink(victim, path), 0);

	char conf[512];
	snprintf(conf, sizeof(conf), "oom_snapshot:%s", path);
	fixture f;
	fixture_open(&f, 64 * MiB, conf);
	cm_stream s = fixture_stream(&f, true);
	uintptr_t a = fixture_malloc(&f, 30 * MiB), b = fixture_malloc_async(&f, 8192, s);
	uintptr_t c = fixture_malloc(&f, 4096);
	fixture_free(&f, c);
	capture cap;
	capture_open(&cap, &f);
	uintptr_t p;
	assert_int_equal(cm_malloc(f.heap, 0, 100 * MiB, &p), CM_ERR_OOM);
	capture_close(&cap, &f);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode)); /* the link was replaced */
	v = fopen(victim, "r");
	char text[32] = "";
	assert_non_null(fgets(text, sizeof(text), v));
	fclose(v);
	assert_string_equal(text, "untouched");
	snprintf(cmd, sizeof(cmd), "python3 %s %s alloc free_requested free_completed segment_alloc oom",
		 check_script, path);
	assert_int_equal(system(cmd), 0);

	/* On demand, and a failure to write is only reported. */
	assert_true(cm_snapshot_write(f.heap, path, stderr));
	char *err = NULL;
	size_t len;
	FILE *e = open_memstream(&err, &len);
	assert_false(cm_snapshot_write(f.heap, "/nonexistent-dir/x.pickle", e));
	fclose(e);
	assert_non_null(strstr(err, "cannot write the memory snapshot /nonexistent-dir/x.pickle"));
	free(err);
	fixture_free(&f, a);
	assert_int_equal(cm_free_async(f.heap, b, s), CM_OK);
	fixture_close(&f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Expandable segments, the device full and its free memory in 1.5 MiB
 * pieces: no whole chunk can move, and the report says so. After a
 * stitch, the snapshot marks the stitched range. */
static void test_stitch_report_and_snapshot(void **state)
{
	(void)state;
	char dir[] = "/tmp/cm-stitchXXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256], cmd[1024];
	snprintf(path, sizeof(path), "%s/snap.pickle", dir);
	fixture f;
	fixture_open(&f, 24 * MiB, "expandable_segments:True");
	uintptr_t a[16];
	for (int i = 0; i < 16; i++)
		a[i] = fixture_malloc_async(&f, 3 * MiB / 2, CM_STREAM_LEGACY);
	for (int i = 1; i < 16; i += 2)
		assert_int_equal(cm_free_async(f.heap, a[i - 1], CM_STREAM_LEGACY), CM_OK);
	cm_thread_flush(f.heap);
	capture cap;
	capture_open(&cap, &f);
	uintptr_t p = 0;
	assert_int_equal(cm_malloc_async(f.heap, 0, 4 * MiB, CM_STREAM_LEGACY, &p), CM_ERR_OOM);
	const char *r = capture_text(&cap);
	if (!strstr(r, "stitching could not help: the free memory is in pieces of chunks") ||
	    !strstr(r, "0 B movable") || !strstr(r, "free in pieces of chunks: 12.00 MiB"))
		fail_msg("report lacks the stitching line:\n%s", r);
	capture_close(&cap, &f);
	assert_int_equal(fixture_stats(&f).stitches, 0);
	/* Freeing a[3], a[7] and a[11] leaves three free 4.5 MiB stretches,
	 * each with one whole chunk: a 6 MiB request moves the three. */
	for (int i = 3; i < 12; i += 4)
		assert_int_equal(cm_free_async(f.heap, a[i], CM_STREAM_LEGACY), CM_OK);
	cm_thread_flush(f.heap);
	p = fixture_malloc_async(&f, 6 * MiB, CM_STREAM_LEGACY);
	cm_stats st = fixture_stats(&f);
	assert_int_equal(st.stitched_bytes, 6 * MiB);
	assert_int_equal(st.oom_count, 1);
	fixture_check(&f);
	/* issue 35: with holes punched, the report counts mapped bytes: per
	 * stream as much cached as reserved and unallocated, no segment larger
	 * than the device, the address space said apart. */
	capture_open(&cap, &f);
	uintptr_t q = 0;
	assert_int_equal(cm_malloc_async(f.heap, 0, 20 * MiB, CM_STREAM_LEGACY, &q), CM_ERR_OOM);
	r = capture_text(&cap);
	if (!strstr(r, "13.50 MiB allocated, 10.50 MiB reserved but unallocated") ||
	    !strstr(r, "per stream: cudaMalloc: 13.50 MiB allocated, 10.50 MiB cached") ||
	    !strstr(r, "largest segments: 24.00 MiB at") ||
	    !strstr(r, "(mapped, of 48.00 MiB of address space reserved)"))
		fail_msg("report counts unmapped memory:\n%s", r);
	capture_close(&cap, &f);
	assert_true(cm_snapshot_write(f.heap, path, stderr));
	if (check_script && have_python()) {
		snprintf(cmd, sizeof(cmd), "python3 %s %s --stitched", check_script, path);
		assert_int_equal(system(cmd), 0);
	}
	unlink(path);
	rmdir(dir);
	fixture_close(&f);
}

int main(int argc, char **argv)
{
	check_script = argc > 1 ? argv[1] : NULL;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step1_release_fitting),
		cmocka_unit_test(test_large_blocks_exact_past_three_quarters),
		cmocka_unit_test(test_step2_sync_reclaims_fenced),
		cmocka_unit_test(test_short_device_proves_pending),
		cmocka_unit_test(test_large_blocks_exact_once_short),
		cmocka_unit_test(test_large_blocks_exact_once_capped),
		cmocka_unit_test(test_large_blocks_split_again_once_room_returns),
		cmocka_unit_test(test_mid_segment_reused_once_exact),
		cmocka_unit_test(test_large_blocks_split_with_room),
		cmocka_unit_test(test_mid_request_exact_when_20_mib_cannot_be_had),
		cmocka_unit_test(test_report_names_rungs),
		cmocka_unit_test(test_headroom_kept_free),
		cmocka_unit_test(test_step3_release_all),
		cmocka_unit_test(test_never_fits_reports),
		cmocka_unit_test(test_fraction_limit),
		cmocka_unit_test(test_garbage_collection),
		cmocka_unit_test(test_release_threshold_trims_at_sync),
		cmocka_unit_test(test_release_waits_for_streams),
		cmocka_unit_test(test_oom_snapshot),
		cmocka_unit_test(test_stitch_report_and_snapshot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
