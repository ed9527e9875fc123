/* tests/integration/bench_hook_pair.c - the cost of a cudaMalloc+cudaFree
 * pair through the library's hooks, on the fake runtime, beside the floor
 * measured in the same run: an exact-size LIFO list with a pointer table
 * (what any cache must do at least: pop, record, look up, push).
 *
 *   bench_hook_pair [PAIRS] [batches]   plain: the fake runtime's own pair;
 *                             batches: each batch's ns per pair too
 *   LD_PRELOAD=libcachemalloc.so bench_hook_pair   the library's pair
 *   ... bench_hook_pair PAIRS shared   the pair while another block is
 *                             shared (cudaIpcGetMemHandle) beside the
 *                             pair while none is, batches alternated:
 *                             the cost of the IPC gate in front of the
 *                             inline free (docs/design.md, section 13)
 *
 * No stream is created: under the library this is the no-fence path
 * (fence.c rule 4), the pair scripts/gpu/bench_pairs.cu and
 * scripts/gpu/bench_scale.c time on a GPU. Figures: median ns per pair
 * over 31 batches of PAIRS (default 200000) 4 KiB pairs, after a warm-up.
 * Run: meson test -C build --benchmark hook-pair -v (preloaded), or the
 * binary directly.
 */
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench_clock.h"

#define BATCHES 31

/* ---- the floor ---- */

#define LIFO_SLOTS 1024
static struct {
	uintptr_t stack[8];
	int top;
	uintptr_t keys[LIFO_SLOTS];
	size_t sizes[LIFO_SLOTS];
} lifo = {.stack = {1 << 20}, .top = 1};

static size_t lifo_slot(uintptr_t p)
{
	return (size_t)((p >> 9) * 0x9e3779b97f4a7c15ull >> 54);
}

__attribute__((noinline)) static uintptr_t lifo_malloc(size_t size)
{
	uintptr_t p = lifo.stack[--lifo.top];
	size_t i = lifo_slot(p);
	lifo.keys[i] = p;
	lifo.sizes[i] = size;
	return p;
}

__attribute__((noinline)) static void lifo_free(uintptr_t p)
{
	size_t i = lifo_slot(p);
	if (lifo.keys[i] != p)
		abort();
	lifo.keys[i] = 0;
	lifo.stack[lifo.top++] = p;
}

static double floor_batch(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++)
		lifo_free(lifo_malloc(4096));
	return (now_ns() - t0) / (double)n;
}

/* ---- the pair ---- */

static double pair_batch(long n)
{
	double t0 = now_ns();
	for (long i = 0; i < n; i++) {
		void *p;
		if (cudaMalloc(&p, 4096) != cudaSuccess || cudaFree(p) != cudaSuccess) {
			fprintf(stderr, "bench_hook_pair: a 4 KiB cudaMalloc/cudaFree failed\n");
			exit(1);
		}
	}
	return (now_ns() - t0) / (double)n;
}

/* Batches with a block shared and without, alternated in one process. */
static int shared_ab(long n)
{
	double alone[BATCHES], shared[BATCHES];
	void *x;
	cudaIpcMemHandle_t h;
	pair_batch(n / 10);
	for (int i = 0; i < BATCHES; i++) {
		alone[i] = pair_batch(n);
		if (cudaMalloc(&x, 4096) != cudaSuccess || cudaIpcGetMemHandle(&h, x) != cudaSuccess) {
			fprintf(stderr, "bench_hook_pair: cudaIpcGetMemHandle of a 4 KiB block failed\n");
			return 1;
		}
		shared[i] = pair_batch(n);
		if (cudaFree(x) != cudaSuccess)
			return 1;
	}
	double a = median(alone, BATCHES), b = median(shared, BATCHES);
	printf("cudaMalloc+cudaFree 4 KiB pair, median ns over %d batches of %ld, alternated\n", BATCHES, n);
	printf("no block shared %.1f ns  a block shared %.1f ns  ratio %.2fx\n", a, b, b / a);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
	if (n <= 0) {
		fprintf(stderr, "bench_hook_pair: PAIRS must be a positive count, not '%s'\n", argv[1]);
		return 2;
	}
	bool batches = argc > 2 && strcmp(argv[2], "batches") == 0;
	if (argc == 3 && strcmp(argv[2], "shared") == 0)
		return shared_ab(n);
	if (argc > 3 || (argc > 2 && !batches)) {
		fprintf(stderr, "bench_hook_pair: the second argument may only be 'batches' or 'shared', "
			"not '%s'\n", argv[2]);
		return 2;
	}
	double pair[BATCHES], lifo_ns[BATCHES];
	pair_batch(n / 10);
	floor_batch(n / 10);
	for (int i = 0; i < BATCHES; i++) { /* interleaved: both see the same machine */
		pair[i] = pair_batch(n);
		lifo_ns[i] = floor_batch(n);
	}
	if (batches) { /* in the order run: the host's load shows as levels */
		printf("batches, ns per pair:");
		for (int i = 0; i < BATCHES; i++)
			printf(" %.0f", pair[i]);
		printf("\n");
	}
	printf("cudaMalloc+cudaFree 4 KiB pair, median ns over %d batches of %ld\n", BATCHES, n);
	double pair_ns = median(pair, BATCHES), floor_ns = median(lifo_ns, BATCHES);
	printf("pair %.1f ns  floor (exact-size LIFO list with a pointer table) %.1f ns  ratio %.2fx\n",
	       pair_ns, floor_ns, pair_ns / floor_ns);
	return 0;
}
