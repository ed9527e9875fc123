/* tests/test_stress.c - randomized runs with the consistency checker after
 * every operation.
 *
 * Several configurations, fixed seeds, 1.75 million operations in all:
 * cudaMalloc / cudaMallocAsync on the legacy, per-thread and two user
 * streams, frees on the owning or another stream, synchronizations, cache
 * flushes and releases, and a small device so that out-of-memory paths run.
 * Every live block is filled with its own pattern in simulated memory and
 * checked when freed, so overlapping blocks would show as corruption even
 * if the checker missed them.
 */
#include "fixture.h"

#define MAX_LIVE 512

typedef struct live {
	uintptr_t p;
	size_t size;
	unsigned char pat;
	int stream; /* index into streams[], -1: cudaMalloc */
} live;

typedef struct run {
	fixture f;
	cm_stream streams[4];
	live blocks[MAX_LIVE];
	size_t nlive;
	uint64_t rng;
	unsigned ooms;
} run;

static uint64_t rnd(run *r)
{
	return fixture_rnd(&r->rng);
}

/* Whole blocks up to 256 KiB; head, middle and tail pages of larger ones. */
static void pattern_apply(const live *l, bool check)
{
	size_t span = l->size <= 256 * 1024 ? l->size : 4096;
	size_t at[3] = {0, (l->size / 2) & ~(size_t)4095, l->size - span};
	int parts = l->size <= 256 * 1024 ? 1 : 3;
	for (int i = 0; i < parts; i++) {
		unsigned char *m = (unsigned char *)(l->p + at[i]);
		if (!check) {
			memset(m, l->pat, span);
			continue;
		}
		for (size_t j = 0; j < span; j += 509)
			if (m[j] != l->pat)
				fail_msg("block %#lx (%zu bytes) corrupted at +%zu: %u, not %u",
					 (unsigned long)l->p, l->size, at[i] + j, m[j], l->pat);
	}
}

static size_t random_size(run *r)
{
	uint64_t k = rnd(r) % 100;
	if (k < 70)
		return 1 + rnd(r) % (64 * 1024);
	if (k < 90)
		return 1 + rnd(r) % (2 * MiB);
	if (k < 98)
		return MiB + rnd(r) % (12 * MiB);
	return 10 * MiB + rnd(r) % (40 * MiB);
}

static void op_alloc(run *r)
{
	if (r->nlive == MAX_LIVE)
		return;
	live l = {.size = random_size(r), .pat = (unsigned char)(1 + rnd(r) % 255)};
	int which = (int)(rnd(r) % 5) - 1;
	cm_status st = which < 0 ? cm_malloc(r->f.heap, 0, l.size, &l.p)
				 : cm_malloc_async(r->f.heap, 0, l.size, r->streams[which], &l.p);
	if (st == CM_ERR_OOM) {
		r->ooms++;
		return;
	}
	assert_int_equal(st, CM_OK);
	l.stream = which;
	pattern_apply(&l, false);
	r->blocks[r->nlive++] = l;
}

static void op_free(run *r)
{
	if (!r->nlive)
		return;
	size_t i = rnd(r) % r->nlive;
	live l = r->blocks[i];
	r->blocks[i] = r->blocks[--r->nlive];
	pattern_apply(&l, true);
	uint64_t how = rnd(r) % 4;
	cm_status st;
	if (how == 0 || l.stream < 0)
		st = cm_free(r->f.heap, l.p);
	else if (how == 1)
		st = cm_free_async(r->f.heap, l.p, r->streams[rnd(r) % 4]);
	else
		st = cm_free_async(r->f.heap, l.p, r->streams[l.stream]);
	assert_int_equal(st, CM_OK);
	if (rnd(r) % 64 == 0) /* a double free must be refused, and harmless */
		assert_int_equal(cm_free(r->f.heap, l.p), CM_ERR_INVALID);
}

static void op_misc(run *r)
{
	switch (rnd(r) % 5) {
	case 0:
		fixture_stream_sync(&r->f, r->streams[rnd(r) % 4]);
		break;
	case 1:
		fixture_device_sync(&r->f);
		break;
	case 2:
		cm_thread_flush(r->f.heap);
		break;
	case 3:
		if (rnd(r) % 16 == 0)
			cm_release_cached(r->f.heap, 0);
		break;
	default:
		break;
	}
}

static void stress(const char *conf, size_t capacity, uint64_t seed, long ops)
{
	run *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	fixture_open(&r->f, capacity, conf);
	r->rng = seed;
	r->streams[0] = CM_STREAM_LEGACY;
	r->streams[1] = CM_STREAM_PER_THREAD;
	r->streams[2] = fixture_stream(&r->f, true);
	r->streams[3] = fixture_stream(&r->f, false);
	for (long n = 0; n < ops; n++) {
		uint64_t k = rnd(r) % 100;
		/* Drift between filling up and draining. */
		long phase = (n / 20000) % 2;
		if (k < (phase ? 60u : 40u))
			op_alloc(r);
		else if (k < 97)
			op_free(r);
		else
			op_misc(r);
		if (!cm_heap_check(r->f.heap, stderr))
			fail_msg("inconsistent after operation %ld (seed %lu, conf %s)", n,
				 (unsigned long)seed, conf ? conf : "default");
	}
	while (r->nlive)
		op_free(r);
	cm_thread_flush(r->f.heap);
	cm_stats st;
	cm_stats_get(r->f.heap, 0, &st);
	assert_int_equal(st.allocated_bytes, 0);
	assert_int_equal(st.allocated_blocks, 0);
	assert_true(st.peak_reserved_bytes <= capacity);
	print_message("  %-44s ops %ld ooms %u raw allocs %lu fences %lu peak reserved %lu MiB\n",
		      conf ? conf : "default", ops, r->ooms, (unsigned long)st.raw_alloc_calls,
		      (unsigned long)st.fences, (unsigned long)(st.peak_reserved_bytes >> 20));
	fixture_close(&r->f);
	free(r);
}

#define OPS 250000

static void test_default(void **s) { (void)s; stress(NULL, (size_t)8 << 30, 1, OPS); }
static void test_small_device(void **s) { (void)s; stress(NULL, 96 * MiB, 2, OPS); }
static void test_split_and_roundup(void **s)
{
	(void)s;
	stress("max_split_size_mb:20,roundup_power2_divisions:[1:2,4:4,>:8]", (size_t)8 << 30, 3, OPS);
}
static void test_fence_host(void **s) { (void)s; stress("free_fence:host", (size_t)8 << 30, 4, OPS); }
static void test_fence_none(void **s) { (void)s; stress("free_fence:none", 256 * MiB, 5, OPS); }
static void test_divisions(void **s) { (void)s; stress("roundup_power2_divisions:4", 512 * MiB, 6, OPS); }
static void test_expandable(void **s) { (void)s; stress("expandable_segments:True", 512 * MiB, 7, OPS); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),        cmocka_unit_test(test_small_device),
		cmocka_unit_test(test_split_and_roundup), cmocka_unit_test(test_fence_host),
		cmocka_unit_test(test_fence_none),     cmocka_unit_test(test_divisions),
		cmocka_unit_test(test_expandable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
