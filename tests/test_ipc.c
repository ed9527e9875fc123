/* tests/test_ipc.c - blocks shared with other processes (core/serve/ipc.c) on
 * the simulated device, the importer's side played by this process through
 * the core's calls (CUDA's own open and close are the hooks'): a token per
 * block, the same while it lives; an open counted in the registry; the free
 * of an open block held until its close, a second free refused; stale tokens
 * after the free; an open racing the free from another thread, which
 * either fails or keeps the block out of the cache (one of them always sees
 * the other); and a held block whose opens closed serving the next miss. */
#include <pthread.h>

#include "fixture.h"

#define SEGMENT_BASE ((uintptr_t)0x7000000000) /* where "CUDA" maps a segment here */

static uint8_t handle_of_segment[CM_IPC_HANDLE_BYTES];

static void token_of(cm_heap *h, uintptr_t p, uintptr_t segment, uint8_t token[CM_IPC_HANDLE_BYTES])
{
	memset(handle_of_segment, 0xab, sizeof(handle_of_segment));
	assert_int_equal(cm_ipc_export(h, p, handle_of_segment, segment, token), CM_OK);
}

/* Opens token here, its segment mapped at base; the block's pointer. */
static uintptr_t open_token_at(const uint8_t token[CM_IPC_HANDLE_BYTES], uintptr_t base)
{
	cm_ipc_import imp;
	assert_true(cm_ipc_import_begin(token, &imp));
	return imp.stale ? 0 : cm_ipc_import_end(&imp, base);
}

/* Opens token here; the block's pointer (segments map at SEGMENT_BASE). */
static uintptr_t open_token(const uint8_t token[CM_IPC_HANDLE_BYTES], uint64_t *size)
{
	cm_ipc_import imp;
	assert_true(cm_ipc_import_begin(token, &imp));
	if (imp.stale)
		return 0;
	assert_memory_equal(imp.segment_handle, handle_of_segment, CM_IPC_HANDLE_BYTES);
	if (size)
		*size = imp.size;
	return cm_ipc_import_end(&imp, SEGMENT_BASE);
}

/* Frees as the hooks do while a block is shared (which releases held
 * blocks no longer open anywhere). */
static void ipc_free(fixture *f, uintptr_t p)
{
	assert_int_equal(cm_ipc_free(f->heap, p, false, 0), CM_OK);
}

static bool live(cm_heap *h, uintptr_t p)
{
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	return info.live;
}

static void test_token_open_hold_close(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t a = fixture_malloc(&f, 4096), b = fixture_malloc(&f, 100000);
	uint8_t ta[CM_IPC_HANDLE_BYTES], ta2[CM_IPC_HANDLE_BYTES], tb[CM_IPC_HANDLE_BYTES];
	uint8_t not_token[CM_IPC_HANDLE_BYTES] = { 0 };
	cm_ipc_import imp;

	token_of(f.heap, a, a, ta);
	token_of(f.heap, a + 100, a, ta2); /* an interior pointer: the same block */
	token_of(f.heap, b, a, tb);
	assert_memory_equal(ta, ta2, sizeof(ta));
	assert_memory_not_equal(ta, tb, sizeof(ta));
	assert_true(cm_ipc_watching());
	assert_false(cm_ipc_import_begin(not_token, &imp)); /* CUDA's own handle */

	uint64_t size = 0;
	uintptr_t pa = open_token(ta, &size), pb = open_token(tb, NULL);
	assert_int_equal(pa, SEGMENT_BASE);
	assert_int_equal(size, 4096);
	assert_int_equal(pb, SEGMENT_BASE + (b - a));
	assert_int_equal(open_token(ta, NULL), pa); /* counted again, the same pointer */
	uintptr_t block = 0;
	size_t bytes = 0;
	assert_true(cm_ipc_imported(pa + 10, &block, &bytes));
	assert_int_equal(block, pa);
	assert_int_equal(bytes, 4096);

	/* Open: the free is held, a second free refused, the block out of reuse. */
	assert_int_equal(cm_ipc_free(f.heap, a, false, 0), CM_OK);
	assert_int_equal(cm_ipc_free(f.heap, a, false, 0), CM_ERR_INVALID);
	assert_true(live(f.heap, a));
	uintptr_t more[16];
	for (int i = 0; i < 16; i++) {
		more[i] = fixture_malloc(&f, 4096);
		assert_int_not_equal(more[i], a);
	}
	assert_int_equal(open_token(ta, NULL), 0); /* withdrawn: stale */

	/* Two closes (two opens); the next free releases the held block. */
	uintptr_t base = 0;
	assert_true(cm_ipc_close(pa, &base));
	assert_int_equal(base, SEGMENT_BASE);
	assert_true(live(f.heap, a));
	assert_true(cm_ipc_close(pa, &base));
	assert_false(cm_ipc_close(pa, &base)); /* no open left: CUDA's to answer */
	assert_false(cm_ipc_imported(pa, &block, &bytes));
	for (int i = 0; i < 16; i++)
		ipc_free(&f, more[i]);
	assert_false(live(f.heap, a));

	/* Not open: b's free frees it, and its token goes stale. */
	assert_true(cm_ipc_close(pb, &base));
	ipc_free(&f, b);
	assert_false(live(f.heap, b));
	assert_int_equal(open_token(tb, NULL), 0);
	assert_false(cm_ipc_watching());
	fixture_check(&f);
	fixture_close(&f);
}

typedef struct race {
	pthread_barrier_t go;
	const uint8_t *token;
	uintptr_t opened;
} race;

static void *open_racing(void *arg)
{
	race *r = arg;
	pthread_barrier_wait(&r->go);
	r->opened = open_token(r->token, NULL);
	return NULL;
}

/* An open on another thread races each free: an open that succeeded finds
 * the block held (still the program's in the core) until it closes. */
static void test_open_races_free(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	unsigned opened = 0, stale = 0;
	for (int round = 0; round < 400; round++) {
		uintptr_t p = fixture_malloc(&f, 4096 * (size_t)(1 + round % 8));
		uint8_t t[CM_IPC_HANDLE_BYTES];
		token_of(f.heap, p, p, t);
		race r = { .token = t };
		pthread_t th;
		assert_int_equal(pthread_barrier_init(&r.go, NULL, 2), 0);
		assert_int_equal(pthread_create(&th, NULL, open_racing, &r), 0);
		pthread_barrier_wait(&r.go);
		ipc_free(&f, p);
		pthread_join(th, NULL);
		pthread_barrier_destroy(&r.go);
		if (r.opened) {
			opened++;
			assert_true(live(f.heap, p)); /* held while open */
			uintptr_t base;
			assert_true(cm_ipc_close(r.opened, &base));
			ipc_free(&f, fixture_malloc(&f, 512)); /* releases it */
			assert_false(live(f.heap, p));
		} else {
			stale++;
			assert_false(live(f.heap, p));
		}
	}
	assert_int_equal(opened + stale, 400);
	print_message("%u opens won the race, %u found the token stale\n", opened, stale);
	assert_false(cm_ipc_watching());
	fixture_check(&f);
	fixture_close(&f);
}

/* A block held for an importer is memory the exporter cannot use; once
 * the last open closed, it is the exporter's again before the device is
 * asked for more: on a device nearly full, the next allocation of its
 * size is served from it instead of failing (it failed while the hold
 * was released only at the next free or export). */
static void test_closed_block_serves_the_next_miss(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t big = fixture_malloc(&f, 200 * MiB);
	uint8_t t[CM_IPC_HANDLE_BYTES];
	token_of(f.heap, big, big, t);
	uintptr_t opened = open_token(t, NULL), base;
	assert_int_equal(opened, SEGMENT_BASE);
	ipc_free(&f, big);
	assert_true(live(f.heap, big)); /* held while open */
	uintptr_t other = 0;
	assert_int_equal(cm_malloc(f.heap, 0, 200 * MiB, &other), CM_ERR_OOM);
	assert_true(cm_ipc_close(opened, &base));

	uintptr_t again = 0;
	assert_int_equal(cm_malloc(f.heap, 0, 200 * MiB, &again), CM_OK);
	assert_int_equal(again, big);
	assert_true(fixture_stats(&f).peak_reserved_bytes <= 256 * MiB);
	ipc_free(&f, again);
	assert_false(cm_ipc_watching());
	fixture_check(&f);
	fixture_close(&f);
}

/* Two heaps each hold a block open elsewhere; after both closes, each
 * heap's next miss frees its own held block, which the next allocation of
 * its size gets back: a close is seen by every heap, not only by the
 * first that looks. */
static void test_each_heap_sees_the_closes(void **state)
{
	(void)state;
	fixture f[2];
	uintptr_t block[2], opened[2], base;
	for (int i = 0; i < 2; i++) {
		uint8_t t[CM_IPC_HANDLE_BYTES];
		fixture_open(&f[i], 256 * MiB, NULL);
		block[i] = fixture_malloc(&f[i], 4096);
		token_of(f[i].heap, block[i], block[i], t);
		opened[i] = open_token_at(t, SEGMENT_BASE + (uintptr_t)i * GiB); /* two segments */
		ipc_free(&f[i], block[i]);
		assert_true(live(f[i].heap, block[i])); /* held */
	}
	for (int i = 0; i < 2; i++)
		assert_true(cm_ipc_close(opened[i], &base));
	for (int i = 0; i < 2; i++) {
		uintptr_t p = 0;
		assert_int_equal(cm_malloc(f[i].heap, 0, 4 << 20, &p), CM_OK); /* a miss, another pool */
		uintptr_t again = fixture_malloc(&f[i], 4096);
		assert_int_equal(again, block[i]); /* the held block, back in the cache */
		ipc_free(&f[i], again);
		ipc_free(&f[i], p);
	}
	assert_false(cm_ipc_watching());
	for (int i = 0; i < 2; i++)
		fixture_close(&f[i]);
}

/* A heap destroyed with blocks exported, one of them open elsewhere: its
 * tokens no longer open, no free is watched any more, and a later heap
 * (at the same address when the C library hands it back) frees its own
 * blocks: no export outlives its heap. */
static void test_destroyed_heap_forgets_its_exports(void **state)
{
	(void)state;
	fixture f;
	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t a = fixture_malloc(&f, 4096), b = fixture_malloc(&f, 4096);
	uint8_t ta[CM_IPC_HANDLE_BYTES], tb[CM_IPC_HANDLE_BYTES];
	token_of(f.heap, a, a, ta);
	token_of(f.heap, b, a, tb);
	uintptr_t opened = open_token(ta, NULL), base;
	ipc_free(&f, a); /* held: open */
	fixture_close(&f);
	assert_false(cm_ipc_watching());
	assert_int_equal(open_token(tb, NULL), 0); /* stale */

	fixture_open(&f, 256 * MiB, NULL);
	uintptr_t again = fixture_malloc(&f, 4096);
	ipc_free(&f, again); /* not held, nor refused as a second free */
	assert_false(live(f.heap, again));
	assert_true(cm_ipc_close(opened, &base));
	fixture_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_open_hold_close),
		cmocka_unit_test(test_open_races_free),
		cmocka_unit_test(test_closed_block_serves_the_next_miss),
		cmocka_unit_test(test_each_heap_sees_the_closes),
		cmocka_unit_test(test_destroyed_heap_forgets_its_exports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
