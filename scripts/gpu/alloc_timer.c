/* scripts/gpu/alloc_timer.c - the host time a program spends inside
 * cudaMalloc and cudaFree, whoever serves them: a preloaded shim placed
 * before the library, which it calls through dlsym(RTLD_NEXT).
 *
 *   cc -O2 -shared -fPIC alloc_timer.c -o alloc_timer.so -ldl
 *   LD_PRELOAD="alloc_timer.so libcachemalloc.so" ./app
 *
 * At exit it prints one line on stderr: "alloc_timer {...}" with, for
 * cudaMalloc and cudaFree, the calls and ns of those under 10 us and of
 * the slower ones (a segment made or given back, a wait), e.g.
 * "malloc_fast_calls", "malloc_fast_ns", "malloc_slow_calls",
 * "malloc_slow_ns", and the longest call, "malloc_max_ns". For a program bound by the
 * host, the step time the library can add over an allocator that cost
 * nothing is at most this time per step (docs/gpu-results.md). The clock
 * reads (about 20 ns each) fall outside the figures but inside the step.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

typedef int (*malloc_fn)(void **, size_t);
typedef int (*free_fn)(void *);

#define SLOW_NS 10000

typedef struct timer {
	_Atomic uint64_t fast_calls, fast_ns, slow_calls, slow_ns, max_ns;
} timer;
static timer malloc_t, free_t;

static void timer_add(timer *t, uint64_t ns)
{
	if (ns < SLOW_NS) {
		atomic_fetch_add_explicit(&t->fast_calls, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&t->fast_ns, ns, memory_order_relaxed);
		return;
	}
	atomic_fetch_add_explicit(&t->slow_calls, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->slow_ns, ns, memory_order_relaxed);
	uint64_t max = atomic_load_explicit(&t->max_ns, memory_order_relaxed);
	while (ns > max && !atomic_compare_exchange_weak(&t->max_ns, &max, ns))
		;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int cudaMalloc(void **p, size_t n)
{
	static malloc_fn next;
	if (!next)
		next = (malloc_fn)dlsym(RTLD_NEXT, "cudaMalloc");
	uint64_t t0 = now_ns();
	int r = next(p, n);
	timer_add(&malloc_t, now_ns() - t0);
	return r;
}

int cudaFree(void *p)
{
	static free_fn next;
	if (!next)
		next = (free_fn)dlsym(RTLD_NEXT, "cudaFree");
	uint64_t t0 = now_ns();
	int r = next(p);
	timer_add(&free_t, now_ns() - t0);
	return r;
}

static void timer_print(const char *name, const timer *t, const char *sep)
{
	fprintf(stderr,
		"\"%s_fast_calls\": %llu, \"%s_fast_ns\": %llu, \"%s_slow_calls\": %llu, "
		"\"%s_slow_ns\": %llu, \"%s_max_ns\": %llu%s",
		name, (unsigned long long)t->fast_calls, name, (unsigned long long)t->fast_ns, name,
		(unsigned long long)t->slow_calls, name, (unsigned long long)t->slow_ns, name,
		(unsigned long long)t->max_ns, sep);
}

__attribute__((destructor)) static void alloc_timer_report(void)
{
	fprintf(stderr, "alloc_timer {");
	timer_print("malloc", &malloc_t, ", ");
	timer_print("free", &free_t, "}\n");
}
