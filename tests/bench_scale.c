/* tests/bench_scale.c - what an allocation costs as the program's state
 * grows: 1e3..1e6 live blocks, 1..10000 streams, on the simulated device,
 * one thread. Beside each figure, measured in the same run: the simulated
 * device's own allocator with the same blocks live (the raw backend, what
 * the program pays without the cache) and an exact-size LIFO free list with
 * a pointer table (the floor for a pair).
 *
 * Live blocks, per count N (sizes 512 B, 1, 4 and 16 KiB in turn):
 *   build   mean ns per cm_malloc while building the N live blocks (every
 *           new segment is paid there: the figure that was quadratic);
 *   malloc, free: ns per call for 1000 more blocks and their frees at N
 *           live (median of 7 rounds);
 *   pair    ns per 4 KiB malloc+free at N live (the per-thread cache).
 * Pairs by size, 4 KiB to 256 MiB, beside the raw backend's pair.
 * Streams, per count S (non-blocking), submissions untracked and tracked
 * (cm_heap_track_submissions, as under the library); the cache's calls
 * are timed apart from the simulated device's, whose own costs are
 * printed beside them (sim create: a stream and its first op, which starts
 * its worker thread; sim destroy; sim churn: both, at S alive):
 *   create  ns per cm_stream_created while the S streams are made;
 *   destroy ns per cm_stream_destroying while they end (each a zombie
 *           until its tail completes);
 *   churn   ns per cm_stream_created + cm_stream_destroying of one more
 *           stream with the S alive (256 at a time, median of 7 rounds);
 *   pair    ns per cudaMalloc-style pair, and per cudaMallocAsync pair on
 *           one stream, with S streams alive;
 *   rr      ns per cm_malloc_async + cm_free_async cycling over all S
 *           streams (each takes a segment of its own).
 * Run: scripts/cachemalloc bench scale, or build/tests/bench_scale
 * [max_live] (default 1000000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachemalloc.h"
#include "config.h"
#include "sim.h"

#include "bench_clock.h"

#define ROUNDS 7
#define MORE 1000
#define PAIRS 65536

static const size_t live_sizes[] = {512, 1024, 4096, 16384};

static void check(cm_status st, const char *what)
{
	if (st != CM_OK) {
		fprintf(stderr, "bench_scale: %s failed: %s\n", what, cm_status_name(st));
		exit(1);
	}
}

static sim *new_sim(void)
{
	sim_options opt = {.devices = 1, .capacity = (size_t)64 << 30};
	sim *sm = sim_create(&opt);
	if (!sm)
		exit(1);
	return sm;
}

static cm_heap *new_heap(sim *sm, bool tracked)
{
	cm_config cfg;
	cm_config_defaults(&cfg);
	cm_heap *h;
	check(cm_heap_create(sim_backend(sm), &cfg, &h), "cm_heap_create");
	if (tracked)
		cm_heap_track_submissions(h);
	return h;
}

/* ---- the baselines ---- */

/* The floor: exact-size LIFO stacks, and a pointer -> size table for the
 * free (a free names only the pointer). */
#define LIFO_SLOTS 1024
typedef struct lifo {
	uintptr_t stack[8];
	int top;
	uintptr_t keys[LIFO_SLOTS];
	size_t sizes[LIFO_SLOTS];
} lifo;

static size_t lifo_slot(uintptr_t p)
{
	return (size_t)((p >> 9) * 0x9e3779b97f4a7c15ull >> 54);
}

static uintptr_t lifo_malloc(lifo *l, size_t size)
{
	uintptr_t p = l->stack[--l->top];
	size_t i = lifo_slot(p);
	l->keys[i] = p;
	l->sizes[i] = size;
	return p;
}

static void lifo_free(lifo *l, uintptr_t p)
{
	size_t i = lifo_slot(p);
	if (l->keys[i] != p)
		abort();
	l->keys[i] = 0;
	l->stack[l->top++] = p;
}

static double lifo_pair_ns(void)
{
	static lifo l;
	l.stack[0] = 1 << 20;
	l.top = 1;
	double t[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		for (int i = 0; i < PAIRS; i++) {
			uintptr_t volatile p = lifo_malloc(&l, 4096);
			lifo_free(&l, p);
		}
		t[r] = (now_ns() - t0) / PAIRS;
	}
	return median(t, ROUNDS);
}

/* The simulated device's own allocator with n blocks live: ns per
 * mem_alloc and per mem_free of MORE more. */
static void sim_raw(size_t n, double *alloc_ns, double *free_ns)
{
	sim *sm = new_sim();
	const cm_backend *be = sim_backend(sm);
	uintptr_t *live = malloc(n * sizeof(*live)), more[MORE];
	for (size_t i = 0; i < n; i++)
		check(be->mem_alloc(be->ctx, 0, live_sizes[i % 4], &live[i]), "sim mem_alloc");
	double ta[ROUNDS], tf[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		for (int i = 0; i < MORE; i++)
			check(be->mem_alloc(be->ctx, 0, live_sizes[i % 4], &more[i]), "sim mem_alloc");
		double t1 = now_ns();
		for (int i = 0; i < MORE; i++)
			check(be->mem_free(be->ctx, 0, more[i]), "sim mem_free");
		ta[r] = (t1 - t0) / MORE;
		tf[r] = (now_ns() - t1) / MORE;
	}
	*alloc_ns = median(ta, ROUNDS);
	*free_ns = median(tf, ROUNDS);
	for (size_t i = 0; i < n; i++)
		be->mem_free(be->ctx, 0, live[i]);
	free(live);
	sim_destroy(sm);
}

/* ---- live blocks ---- */

static double pairs(cm_heap *h, size_t size, bool async, cm_stream s, long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		uintptr_t p;
		check(async ? cm_malloc_async(h, 0, size, s, &p) : cm_malloc(h, 0, size, &p),
		      "pair malloc");
		check(async ? cm_free_async(h, p, s) : cm_free(h, p), "pair free");
	}
	return now_ns() - t0;
}

/* Median ns per pair over ROUNDS batches of at least 2 ms (at most PAIRS
 * pairs), after a warm-up batch. */
static double sized_pair_ns(cm_heap *h, size_t size, bool async, cm_stream s)
{
	long n = 1;
	while (pairs(h, size, async, s, n) < 2e6 && n < PAIRS)
		n *= 4;
	double t[ROUNDS];
	for (int r = 0; r < ROUNDS; r++)
		t[r] = pairs(h, size, async, s, n) / (double)n;
	return median(t, ROUNDS);
}

static double pair_ns(cm_heap *h, bool async, cm_stream s)
{
	return sized_pair_ns(h, 4096, async, s);
}

/* Pairs of one size, each on a fresh heap, beside the raw backend's. */
static void size_row(size_t size)
{
	sim *sm = new_sim();
	cm_heap *h = new_heap(sm, false);
	double core = sized_pair_ns(h, size, false, 0);
	cm_heap_destroy(h);
	const cm_backend *be = sim_backend(sm);
	double t[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		for (int i = 0; i < PAIRS / 10; i++) {
			uintptr_t p;
			check(be->mem_alloc(be->ctx, 0, size, &p), "sim mem_alloc");
			check(be->mem_free(be->ctx, 0, p), "sim mem_free");
		}
		t[r] = (now_ns() - t0) / (PAIRS / 10);
	}
	char name[32];
	if (size >= (1 << 20))
		snprintf(name, sizeof(name), "%zu MiB", size >> 20);
	else
		snprintf(name, sizeof(name), "%zu KiB", size >> 10);
	printf("%9s %9.1f %10.0f\n", name, core, median(t, ROUNDS));
	fflush(stdout);
	sim_destroy(sm);
}

static void live_row(size_t n)
{
	sim *sm = new_sim();
	cm_heap *h = new_heap(sm, false);
	uintptr_t *live = malloc(n * sizeof(*live)), more[MORE];
	double t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		check(cm_malloc(h, 0, live_sizes[i % 4], &live[i]), "build malloc");
	double t_built = now_ns();
	double build = (t_built - t0) / (double)n;
	double ta[ROUNDS], tf[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double a = now_ns();
		for (int i = 0; i < MORE; i++)
			check(cm_malloc(h, 0, live_sizes[i % 4], &more[i]), "malloc");
		double b = now_ns();
		for (int i = 0; i < MORE; i++)
			check(cm_free(h, more[i]), "free");
		ta[r] = (b - a) / MORE;
		tf[r] = (now_ns() - b) / MORE;
	}
	double pair = pair_ns(h, false, 0);
	double sim_alloc, sim_free;
	sim_raw(n, &sim_alloc, &sim_free);
	printf("%8zu %9.0f %8.0f %8.0f %7.1f %10.0f %9.0f %8.1fs\n", n, build, median(ta, ROUNDS),
	       median(tf, ROUNDS), pair, sim_alloc, sim_free, (t_built - t0) / 1e9);
	fflush(stdout);
	for (size_t i = 0; i < n; i++)
		check(cm_free(h, live[i]), "teardown free");
	free(live);
	cm_heap_destroy(h);
	sim_destroy(sm);
}

/* ---- streams ---- */

#define CHURN 256

/* A new non-blocking stream of the simulated device that ran one op (its
 * worker thread started): what a program pays for a stream without the
 * cache. */
static cm_stream sim_stream_ran(sim *sm, cm_event ev)
{
	const cm_backend *be = sim_backend(sm);
	cm_stream s = sim_stream_create(sm, 0, true);
	if (s == SIM_STREAM_INVALID) {
		fprintf(stderr, "bench_scale: sim_stream_create failed\n");
		exit(1);
	}
	check(be->event_record(be->ctx, 0, ev, s), "sim event_record");
	return s;
}

/* ns per stream: n streams made by the simulated device (*sim_ns), then
 * told to the cache (*cm_ns). */
static void make_streams(sim *sm, cm_heap *h, cm_event ev, cm_stream *s, size_t n, double *sim_ns,
			 double *cm_ns)
{
	double t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		s[i] = sim_stream_ran(sm, ev);
	double t1 = now_ns();
	for (size_t i = 0; i < n; i++)
		check(cm_stream_created(h, 0, s[i], true), "cm_stream_created");
	*sim_ns = (t1 - t0) / (double)n;
	*cm_ns = (now_ns() - t1) / (double)n;
}

/* ns per stream: the cache told of n destructions (*cm_ns), then the
 * simulated device's own (*sim_ns), in the hooks' order. */
static void end_streams(sim *sm, cm_heap *h, const cm_stream *s, size_t n, double *sim_ns,
			double *cm_ns)
{
	double t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		check(cm_stream_destroying(h, 0, s[i]), "cm_stream_destroying");
	double t1 = now_ns();
	for (size_t i = 0; i < n; i++)
		check(sim_stream_destroy(sm, 0, s[i]), "sim_stream_destroy");
	*cm_ns = (t1 - t0) / (double)n;
	*sim_ns = (now_ns() - t1) / (double)n;
}

/* With the S streams alive: ns per creation + destruction of one more
 * (CHURN at a time, median of ROUNDS), the cache's and the sim's. */
static void churn_streams(sim *sm, cm_heap *h, cm_event ev, double *sim_ns, double *cm_ns)
{
	cm_stream s[CHURN];
	double tc[ROUNDS], ts[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double sc, cc, sd, cd;
		make_streams(sm, h, ev, s, CHURN, &sc, &cc);
		end_streams(sm, h, s, CHURN, &sd, &cd);
		tc[r] = cc + cd;
		ts[r] = sc + sd;
	}
	*cm_ns = median(tc, ROUNDS);
	*sim_ns = median(ts, ROUNDS);
}

static void stream_row(size_t n, bool tracked)
{
	sim *sm = new_sim();
	const cm_backend *be = sim_backend(sm);
	cm_event ev;
	check(be->event_create(be->ctx, 0, &ev), "sim event_create");
	cm_heap *h = new_heap(sm, tracked);
	cm_stream *streams = malloc(n * sizeof(*streams));
	uintptr_t *ptrs = malloc(n * sizeof(*ptrs));
	double create, sim_create, destroy, sim_end, churn, sim_churn;
	make_streams(sm, h, ev, streams, n, &sim_create, &create);
	churn_streams(sm, h, ev, &sim_churn, &churn);
	double pair = pair_ns(h, false, 0);
	double async_pair = pair_ns(h, true, streams[0]);
	double t1 = now_ns();
	for (size_t i = 0; i < n; i++)
		check(cm_malloc_async(h, 0, 4096, streams[i], &ptrs[i]), "rr malloc");
	for (size_t i = 0; i < n; i++)
		check(cm_free_async(h, ptrs[i], streams[i]), "rr free");
	double rr = (now_ns() - t1) / (double)n;
	end_streams(sm, h, streams, n, &sim_end, &destroy);
	printf("%8zu %-9s %8.0f %8.0f %8.0f %9.1f %10.1f %7.0f %10.0f %11.0f %9.0f\n", n,
	       tracked ? "tracked" : "untracked", create, destroy, churn, pair, async_pair, rr,
	       sim_create, sim_end, sim_churn);
	fflush(stdout);
	free(streams);
	free(ptrs);
	cm_heap_destroy(h);
	be->event_destroy(be->ctx, 0, ev);
	sim_destroy(sm);
}

int main(int argc, char **argv)
{
	size_t max_live = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	for (double end = now_ns() + 3e8; now_ns() < end;)
		; /* let the clock settle */
	printf("live blocks (one thread, simulated device); ns per call; sim: the raw backend with the same blocks live\n");
	printf("%8s %9s %8s %8s %7s %10s %9s %9s\n", "live", "build", "malloc", "free", "pair",
	       "sim alloc", "sim free", "built in");
	for (size_t n = 1000; n <= max_live; n *= 10)
		live_row(n);
	printf("exact-size LIFO list with a pointer table, 4 KiB pair: %.1f ns\n\n", lifo_pair_ns());
	printf("pair by size (cudaMalloc-style, fresh heap each); ns per pair\n");
	printf("%9s %9s %10s\n", "size", "core", "sim raw");
	static const size_t pair_sizes[] = {4096, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 10 << 20,
					    16 << 20, 64 << 20, 256 << 20};
	for (size_t i = 0; i < sizeof(pair_sizes) / sizeof(*pair_sizes); i++)
		size_row(pair_sizes[i]);
	printf("\nstreams alive (non-blocking); ns per call; sim: the simulated device's own, same run\n");
	printf("%8s %-9s %8s %8s %8s %9s %10s %7s %10s %11s %9s\n", "streams", "submits", "create",
	       "destroy", "churn", "pair", "async pair", "rr", "sim create", "sim destroy",
	       "sim churn");
	static const size_t counts[] = {1, 128, 10000};
	for (size_t i = 0; i < 3; i++)
		for (int tracked = 0; tracked < 2; tracked++)
			stream_row(counts[i], tracked);
	return 0;
}
