/* tests/test_capture.c - graph capture's decisions (core/serve/capture.c) on the
 * simulated device: CUDA's rule of which thread's calls a capture forbids,
 * per mode; a capture era's held blocks, out of reuse until the captures
 * end and their graphs are destroyed; a device reset forgetting them. */
#include <pthread.h>

#include "fixture.h"

#define S ((cm_stream)0x1000) /* a capturing stream's handle, as the hooks name it */

/* f opened on a 256 MiB device; its heap. */
static cm_heap *capture_open(fixture *f)
{
	fixture_open(f, 256 * MiB, NULL);
	return f->heap;
}

typedef struct asked {
	cm_heap *heap;
	cm_capture_mode mode;
	bool forbids;
} asked;

static void *ask_on_thread(void *arg)
{
	asked *a = arg;
	a->forbids = cm_capture_forbids(a->heap, a->mode);
	return NULL;
}

/* What cm_capture_forbids answers on another thread in mode m. */
static bool forbids_other(cm_heap *h, cm_capture_mode m)
{
	pthread_t t;
	asked a = {.heap = h, .mode = m};
	assert_int_equal(pthread_create(&t, NULL, ask_on_thread, &a), 0);
	pthread_join(t, NULL);
	return a.forbids;
}

static void test_forbids_per_mode(void **state)
{
	(void)state;
	fixture f;
	cm_heap *h = capture_open(&f);
	assert_false(cm_capture_watching());

	cm_capture_begin(h, S, CM_CAPTURE_GLOBAL);
	assert_true(cm_capture_watching());
	assert_true(cm_capture_in_progress(h));
	assert_true(cm_capture_forbids(h, CM_CAPTURE_GLOBAL));
	assert_true(cm_capture_forbids(h, CM_CAPTURE_THREAD_LOCAL));
	assert_false(cm_capture_forbids(h, CM_CAPTURE_RELAXED));
	assert_true(forbids_other(h, CM_CAPTURE_GLOBAL));
	assert_false(forbids_other(h, CM_CAPTURE_THREAD_LOCAL));
	assert_false(forbids_other(h, CM_CAPTURE_RELAXED));
	assert_true(cm_capture_end(h, S));
	assert_false(cm_capture_end(h, S)); /* not a capture any more */
	assert_false(cm_capture_watching());

	cm_capture_begin(h, S, CM_CAPTURE_THREAD_LOCAL);
	assert_true(cm_capture_forbids(h, CM_CAPTURE_GLOBAL));
	assert_true(cm_capture_forbids(h, CM_CAPTURE_THREAD_LOCAL));
	assert_false(forbids_other(h, CM_CAPTURE_GLOBAL)); /* ignored by other threads */
	assert_true(cm_capture_end(h, S));

	cm_capture_begin(h, S, CM_CAPTURE_RELAXED);
	assert_false(cm_capture_forbids(h, CM_CAPTURE_GLOBAL));
	assert_false(forbids_other(h, CM_CAPTURE_GLOBAL));
	assert_true(cm_capture_end(h, S));
	assert_false(cm_capture_in_progress(h));
	assert_false(cm_capture_watching());
	fixture_close(&f);
}

/* The per-thread stream names the caller's own: another thread's end of
 * "its" per-thread stream ends nothing here. */
static void *end_per_thread(void *arg)
{
	cm_heap *h = arg;
	return (void *)(uintptr_t)cm_capture_end(h, CM_STREAM_PER_THREAD);
}

static void test_per_thread_stream_is_the_callers(void **state)
{
	(void)state;
	fixture f;
	pthread_t t;
	void *ended;
	fixture_open(&f, 256 * MiB, NULL);
	cm_capture_begin(f.heap, CM_STREAM_PER_THREAD, CM_CAPTURE_GLOBAL);
	assert_int_equal(pthread_create(&t, NULL, end_per_thread, f.heap), 0);
	pthread_join(t, &ended);
	assert_false((bool)(uintptr_t)ended);
	assert_true(cm_capture_in_progress(f.heap));
	assert_true(cm_capture_end(f.heap, CM_STREAM_PER_THREAD));
	fixture_close(&f);
}

static bool live(cm_heap *h, uintptr_t p)
{
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	return info.live && info.base == p;
}

static void test_era_holds_blocks_while_graphs_live(void **state)
{
	(void)state;
	fixture f;
	cm_heap *h = capture_open(&f);
	uintptr_t before, born, graph = 0x77, exec = 0x78;
	assert_int_equal(cm_malloc(h, 0, MiB, &before), CM_OK);

	cm_capture_begin(h, S, CM_CAPTURE_RELAXED);
	assert_int_equal(cm_malloc(h, 0, MiB, &born), CM_OK);
	cm_capture_block_born(h, born);
	/* Freed during the capture: held, still a block of the cache's books. */
	assert_int_equal(cm_capture_free(h, before, false, 0), CM_OK);
	assert_true(live(h, before));
	assert_int_equal(cm_capture_free(h, before, false, 0), CM_ERR_INVALID); /* twice */
	cm_capture_graph_made(h, graph);
	assert_true(cm_capture_end(h, S));
	cm_capture_graph_made(h, exec); /* instantiated after the capture, in its era */
	cm_capture_graph_gone(h, graph);
	assert_true(cm_capture_watching()); /* the executable graph lives */

	/* Handed out during it, freed after it: held too. */
	assert_int_equal(cm_capture_free(h, born, false, 0), CM_OK);
	assert_true(live(h, born));
	for (int i = 0; i < 8; i++) {
		uintptr_t p;
		assert_int_equal(cm_malloc(h, 0, MiB, &p), CM_OK);
		assert_true(p != before && p != born);
	}

	cm_capture_graph_gone(h, exec); /* the era ends: the held blocks go back */
	assert_false(cm_capture_watching());
	assert_false(live(h, before));
	assert_false(live(h, born));
	/* Outside an era a free is a free. */
	uintptr_t p;
	assert_int_equal(cm_malloc(h, 0, MiB, &p), CM_OK);
	assert_int_equal(cm_capture_free(h, p, false, 0), CM_OK);
	assert_false(live(h, p));
	fixture_close(&f);
}

/* A graph that merely lives keeps no fast path away: once its capture
 * ended with nothing born or held, blocks are handed out and freed as
 * always. */
static void test_living_graph_alone_watches_nothing(void **state)
{
	(void)state;
	fixture f;
	cm_heap *h = capture_open(&f);
	uintptr_t p, graph = 0x99;
	cm_capture_begin(h, S, CM_CAPTURE_RELAXED);
	cm_capture_graph_made(h, graph);
	assert_true(cm_capture_end(h, S));
	assert_false(cm_capture_watching());
	assert_int_equal(cm_malloc(h, 0, MiB, &p), CM_OK);
	cm_capture_block_born(h, p); /* no capture in progress: not the graph's */
	assert_false(cm_capture_watching());
	assert_int_equal(cm_capture_free(h, p, false, 0), CM_OK);
	assert_false(live(h, p));
	cm_capture_graph_gone(h, graph);
	fixture_close(&f);
}

static void test_reset_forgets_held_blocks(void **state)
{
	(void)state;
	fixture f;
	cm_heap *h = capture_open(&f);
	uintptr_t p;
	assert_int_equal(cm_malloc(h, 0, MiB, &p), CM_OK);
	cm_capture_begin(h, S, CM_CAPTURE_RELAXED);
	assert_int_equal(cm_capture_free(h, p, false, 0), CM_OK);
	cm_device_reset(h, 0);
	cm_capture_forget_device(h, 0);
	/* The era's end frees nothing of the reset device. */
	assert_true(cm_capture_end(h, S));
	assert_false(cm_capture_watching());
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forbids_per_mode),
		cmocka_unit_test(test_per_thread_stream_is_the_callers),
		cmocka_unit_test(test_era_holds_blocks_while_graphs_live),
		cmocka_unit_test(test_living_graph_alone_watches_nothing),
		cmocka_unit_test(test_reset_forgets_held_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
