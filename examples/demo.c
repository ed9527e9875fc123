/* examples/demo.c - an allocation-heavy workload on the simulated device,
 * run twice: straight on the device (every allocation a cudaMalloc, every
 * free a cudaFree that waits for the device, as CUDA's does) and through
 * the cache. Prints raw device calls, wall time and peak reserved memory.
 *
 * The workload mimics a training loop: each step allocates activations of
 * mixed sizes, launches a short "kernel" on each (a host function that
 * spins in stream order, then a memset), frees them in reverse, and uses a
 * few temporaries on the way. CACHEMALLOC_CONF applies to the cached run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cachemalloc.h"
#include "config.h"
#include "sim.h"

#define STEPS 100
#define LAYERS 24
#define KERNEL_NS 20000 /* each simulated kernel runs 20 us */

typedef struct device_api {
	const char *name;
	cm_status (*alloc)(void *ctx, size_t size, uintptr_t *out);
	cm_status (*free)(void *ctx, uintptr_t p);
	void *ctx;
} device_api;

typedef struct raw_ctx {
	const cm_backend *be;
	sim *sim;
	size_t peak;
} raw_ctx;

static cm_status raw_alloc(void *ctx, size_t size, uintptr_t *out)
{
	raw_ctx *r = ctx;
	cm_status st = r->be->mem_alloc(r->be->ctx, 0, size, out);
	size_t used = sim_used_bytes(r->sim, 0);
	if (used > r->peak)
		r->peak = used;
	return st;
}

static cm_status raw_free(void *ctx, uintptr_t p)
{
	raw_ctx *r = ctx;
	return r->be->mem_free(r->be->ctx, 0, p);
}

static cm_status cached_alloc(void *ctx, size_t size, uintptr_t *out)
{
	return cm_malloc(ctx, 0, size, out);
}

static cm_status cached_free(void *ctx, uintptr_t p)
{
	return cm_free(ctx, p);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void kernel(void *arg)
{
	(void)arg;
	double end = now_ms() + KERNEL_NS / 1e6;
	while (now_ms() < end)
		;
}

/* Sizes of a layer's activations: a few large, many small, as in a model. */
static size_t layer_size(int step, int layer, int k)
{
	static const size_t base[] = {4 << 10, 96 << 10, 1 << 20, 6 << 20, 24 << 20};
	size_t s = base[(layer + k) % 5];
	return s + (size_t)((step * 7 + layer * 13 + k * 5) % 16) * 4096;
}

static int run(sim *sm, const device_api *api, uint64_t *allocs)
{
	uintptr_t act[LAYERS][3];
	for (int step = 0; step < STEPS; step++) {
		for (int l = 0; l < LAYERS; l++) {
			for (int k = 0; k < 3; k++) {
				if (api->alloc(api->ctx, layer_size(step, l, k), &act[l][k]) != CM_OK)
					return -1;
				(*allocs)++;
			}
			uintptr_t tmp;
			if (api->alloc(api->ctx, layer_size(step, l, 3) / 2, &tmp) != CM_OK)
				return -1;
			(*allocs)++;
			sim_host_func(sm, 0, CM_STREAM_LEGACY, kernel, NULL);
			sim_memset_async(sm, 0, act[l][0], l, 4096, CM_STREAM_LEGACY);
			api->free(api->ctx, tmp);
		}
		for (int l = LAYERS - 1; l >= 0; l--) {
			sim_host_func(sm, 0, CM_STREAM_LEGACY, kernel, NULL);
			for (int k = 2; k >= 0; k--)
				api->free(api->ctx, act[l][k]);
		}
	}
	const cm_backend *be = sim_backend(sm);
	return be->device_synchronize(be->ctx, 0) == CM_OK ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--options") == 0) {
		cm_config_print_options(stdout);
		return 0;
	}
	const cm_config *cfg = cm_config_get();
	sim_options opt = {.devices = 1, .capacity = cfg->sim_memory};
	printf("workload: %d steps x %d layers, 4 allocations per layer (4 KiB - 24 MiB),\n"
	       "          a 20 us kernel per layer forward and backward; simulated device of %zu MiB\n\n",
	       STEPS, LAYERS, cfg->sim_memory >> 20);
	printf("%-22s %12s %12s %10s %20s\n", "", "device allocs", "device frees", "time (ms)",
	       "peak reserved (MiB)");

	for (int cached = 0; cached < 2; cached++) {
		sim *sm = sim_create(&opt);
		if (!sm) {
			fprintf(stderr, "demo: cannot create the simulated device\n");
			return 1;
		}
		const cm_backend *be = sim_backend(sm);
		raw_ctx raw = {.be = be, .sim = sm};
		cm_heap *heap = NULL;
		device_api api = {"cudaMalloc/cudaFree", raw_alloc, raw_free, &raw};
		if (cached) {
			if (cm_heap_create(be, cfg, &heap) != CM_OK)
				return 1;
			api = (device_api){"cachemalloc", cached_alloc, cached_free, heap};
		}
		uint64_t allocs = 0;
		double t0 = now_ms();
		int rc = run(sm, &api, &allocs);
		double ms = now_ms() - t0;
		size_t peak = raw.peak;
		if (heap) {
			cm_stats st;
			cm_stats_get(heap, 0, &st);
			peak = st.peak_reserved_bytes;
		}
		printf("%-22s %12zu %12zu %10.1f %20.1f\n", api.name,
		       sim_call_count(sm, SIM_MEM_ALLOC), sim_call_count(sm, SIM_MEM_FREE), ms,
		       (double)peak / (1 << 20));
		if (rc) {
			fprintf(stderr, "demo: %s ran out of simulated memory (CACHEMALLOC_SIM_MEMORY)\n",
				api.name);
			return 1;
		}
		cm_heap_destroy(heap);
		sim_destroy(sm);
	}
	printf("\n(device frees of the cached run happen at exit, when the cache is destroyed.)\n");
	return 0;
}
