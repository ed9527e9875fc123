/* tests/bench_core.c - the cost of an allocation+free pair in the core, on
 * the simulated device, beside glibc malloc+free of the same sizes measured
 * in the same run. One thread, then two threads at once (each its own
 * pairs: the per-thread figure should not grow).
 *
 * Each figure is the median over 31 batches of the mean pair time in the
 * batch, after a warm-up batch. Last, the aggregate throughput of 1 to 16
 * threads doing 4 KiB pairs at once; then pinned host pairs (core/host/host.c)
 * beside the device pair and glibc's. Run: meson test -C build --benchmark -v
 * or build/tests/bench_core directly.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cachemalloc.h"
#include "config.h"
#include "sim.h"

#include "bench_clock.h"

#define BATCHES 31

static const size_t sizes[] = {512, 4096, 65536, 1 << 20, 16 << 20, 256 << 20};
#define NSIZES (sizeof(sizes) / sizeof(*sizes))

typedef struct bench {
	cm_heap *heap;
	size_t size;
	bool glibc;
	double median_ns;
} bench;

static long pairs_for(size_t size)
{
	return size >= (16 << 20) ? 2000 : 20000;
}

static double batch(const bench *b, long n)
{
	double t0 = now_ns();
	if (b->glibc) {
		for (long i = 0; i < n; i++) {
			void *volatile p = malloc(b->size);
			free(p);
		}
	} else {
		for (long i = 0; i < n; i++) {
			uintptr_t p;
			if (cm_malloc(b->heap, 0, b->size, &p) != CM_OK || cm_free(b->heap, p) != CM_OK)
				abort();
		}
	}
	return (now_ns() - t0) / (double)n;
}

static void *run(void *arg)
{
	bench *b = arg;
	double t[BATCHES];
	long n = pairs_for(b->size);
	batch(b, n / 10);
	for (int i = 0; i < BATCHES; i++)
		t[i] = batch(b, n);
	qsort(t, BATCHES, sizeof(*t), cmp_double);
	b->median_ns = t[BATCHES / 2];
	return NULL;
}

static void measure_many(bench *bs, pthread_t *t, int threads)
{
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, run, &bs[i]);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
}

static void measure(bench *bs, int threads)
{
	pthread_t t[2];
	measure_many(bs, t, threads);
}

/* Aggregate throughput of n threads doing 4 KiB pairs, each thread its
 * own pairs (docs/design.md, "Performance targets": 16 threads at least 8x one). */
static double scaling_rate(cm_heap *heap, int n)
{
	pthread_t t[64];
	bench b[64];
	for (int i = 0; i < n; i++)
		b[i] = (bench){heap, 4096, false, 0};
	double t0 = now_ns();
	measure_many(b, t, n);
	double secs = (now_ns() - t0) / 1e9;
	return (double)n * (BATCHES + 0.1) * (double)pairs_for(4096) / secs;
}

static void format_size(size_t s, char *buf, size_t n)
{
	if (s >= (1 << 20))
		snprintf(buf, n, "%zu MiB", s >> 20);
	else if (s >= 1024)
		snprintf(buf, n, "%zu KiB", s >> 10);
	else
		snprintf(buf, n, "%zu B", s);
}

/* Pinned host pairs (core/host/host.c) on a heap that sees submissions, as the
 * library's does: the device at rest, so each reuse is proven without a
 * device call. Beside the device pair and glibc's, in the same run. */
static double host_pair_ns(cm_heap *heap, size_t size)
{
	double v[BATCHES];
	for (int b = -1; b < BATCHES; b++) {
		long n = pairs_for(size);
		double t0 = now_ns();
		for (long i = 0; i < n; i++) {
			uintptr_t p;
			if (cm_host_alloc(heap, 0, size, 0, &p) != CM_OK || cm_host_free(heap, p) != CM_OK)
				abort();
		}
		if (b >= 0)
			v[b] = (now_ns() - t0) / (double)n;
	}
	qsort(v, BATCHES, sizeof(*v), cmp_double);
	return v[BATCHES / 2];
}

static void host_pairs(sim *sm, cm_heap *heap)
{
	static const size_t hsizes[] = {4096, 1 << 20, 16 << 20, 256 << 20};
	cm_config cfg;
	cm_config_defaults(&cfg);
	cm_heap *tracked;
	if (cm_heap_create(sim_backend(sm), &cfg, &tracked) != CM_OK)
		abort();
	cm_heap_track_submissions(tracked);
	printf("\npinned host pair (cm_host_alloc+cm_host_free), median ns per pair\n");
	printf("%-9s %10s %12s %10s\n", "size", "pinned", "device pair", "glibc");
	for (size_t i = 0; i < sizeof(hsizes) / sizeof(*hsizes); i++) {
		bench dev = {heap, hsizes[i], false, 0}, libc = {heap, hsizes[i], true, 0};
		double host = host_pair_ns(tracked, hsizes[i]);
		measure(&dev, 1);
		measure(&libc, 1);
		char name[32];
		format_size(hsizes[i], name, sizeof(name));
		printf("%-9s %10.1f %12.1f %10.1f\n", name, host, dev.median_ns, libc.median_ns);
	}
	cm_heap_destroy(tracked);
}

int main(void)
{
	cm_config cfg;
	cm_config_defaults(&cfg);
	sim_options opt = {.devices = 1, .capacity = (size_t)4 << 30};
	sim *sm = sim_create(&opt);
	cm_heap *heap;
	if (!sm || cm_heap_create(sim_backend(sm), &cfg, &heap) != CM_OK)
		return 1;
	/* Let the clock settle before the first figure. */
	for (double end = now_ns() + 3e8; now_ns() < end;)
		;
	printf("alloc+free pair, median ns per pair (simulated device; glibc in the same run)\n");
	printf("%-9s %10s %10s %7s  %14s %14s %7s\n", "size", "core 1T", "glibc 1T", "ratio",
	       "core 2T", "glibc 2T", "ratio");
	for (size_t i = 0; i < NSIZES; i++) {
		double r[4];
		for (int glibc = 0; glibc < 2; glibc++) {
			bench one = {heap, sizes[i], glibc, 0};
			measure(&one, 1);
			bench two[2] = {{heap, sizes[i], glibc, 0}, {heap, sizes[i], glibc, 0}};
			measure(two, 2);
			r[glibc] = one.median_ns;
			r[2 + glibc] = (two[0].median_ns + two[1].median_ns) / 2;
		}
		char name[32];
		format_size(sizes[i], name, sizeof(name));
		printf("%-9s %10.1f %10.1f %6.2fx  %14.1f %14.1f %6.2fx\n", name, r[0], r[1], r[0] / r[1],
		       r[2], r[3], r[2] / r[3]);
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	printf("\nthreads doing 4 KiB pairs at once (%ld cores): aggregate throughput\n", cores);
	double one = scaling_rate(heap, 1);
	for (int n = 1; n <= 16; n *= 2) {
		double rate = n == 1 ? one : scaling_rate(heap, n);
		printf("%3d threads %8.1f M pairs/s  %5.2fx one thread%s\n", n, rate / 1e6, rate / one,
		       n > cores ? "  (more threads than cores)" : "");
	}
	host_pairs(sm, heap);
	cm_heap_destroy(heap);
	sim_destroy(sm);
	return 0;
}
