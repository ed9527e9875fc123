/* interpose/nvtx.c - segments as NVTX heaps, held blocks as their regions
 * (nvtx.h; docs/design.md, "Blocks visible to compute-sanitizer").
 *
 * NVTX v3 is header-only: its functions are compiled in here and are
 * no-ops until NVTX finds a tool (the library named by
 * NVTX_INJECTION64_PATH, which compute-sanitizer sets, or one already
 * loaded). Nothing here runs unless cm_nvtx_on, decided once at the
 * heap's creation; the first heap registration then shows whether the
 * tool implements the memory API, and turns everything off if not.
 *
 * A region is registered in its segment's heap, found in a small table of
 * the registered heaps ordered by address (a mutex and a binary search:
 * only while a tool is attached, which slows the program far more). A
 * heap that could not be put in the table is unregistered at once: a
 * registered heap whose blocks get no region would make every access to
 * them an error.
 */
#define NVTX_AS_SYSTEM_HEADER
#include <nvtx3/nvToolsExtMem.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nvtx.h"

atomic_bool cm_nvtx_on;

typedef struct cm_nvtx_heap {
	uintptr_t base;
	size_t size;
	int slot;
	nvtxMemHeapHandle_t handle;
} cm_nvtx_heap;

static pthread_mutex_t cm_nvtx_lock = PTHREAD_MUTEX_INITIALIZER;
static cm_nvtx_heap *cm_nvtx_heaps; /* ordered by base; ranges never overlap */
static size_t cm_nvtx_count, cm_nvtx_cap;
static bool cm_nvtx_tool_seen;      /* a heap registration succeeded */
static nvtxDomainHandle_t cm_nvtx_domain;
static pthread_once_t cm_nvtx_domain_once = PTHREAD_ONCE_INIT;

void cm_nvtx_init(const cm_config *cfg)
{
	bool on = cfg->nvtx_memory == CM_NVTX_ON ||
		  (cfg->nvtx_memory == CM_NVTX_AUTO && cfg->nvtx_injection);
	atomic_store(&cm_nvtx_on, on);
}

/* The first NVTX call: with a context current, as compute-sanitizer
 * wants the runtime initialized first. NULL (the default domain) when the
 * tool has no domains. */
static void cm_nvtx_create_domain(void)
{
	cm_nvtx_domain = nvtxDomainCreateA("cachemalloc");
}

/* The index of the first heap whose base is above p. Lock held. */
static size_t cm_nvtx_upper(uintptr_t p)
{
	size_t lo = 0, hi = cm_nvtx_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cm_nvtx_heaps[mid].base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool cm_nvtx_insert(const cm_nvtx_heap *e)
{
	if (cm_nvtx_count == cm_nvtx_cap) {
		size_t cap = cm_nvtx_cap ? 2 * cm_nvtx_cap : 64;
		cm_nvtx_heap *t = realloc(cm_nvtx_heaps, cap * sizeof *t);
		if (!t)
			return false;
		cm_nvtx_heaps = t;
		cm_nvtx_cap = cap;
	}
	size_t i = cm_nvtx_upper(e->base);
	memmove(&cm_nvtx_heaps[i + 1], &cm_nvtx_heaps[i], (cm_nvtx_count - i) * sizeof *e);
	cm_nvtx_heaps[i] = *e;
	cm_nvtx_count++;
	return true;
}

static void cm_nvtx_remove_at(size_t i)
{
	memmove(&cm_nvtx_heaps[i], &cm_nvtx_heaps[i + 1],
		(cm_nvtx_count - i - 1) * sizeof cm_nvtx_heaps[0]);
	cm_nvtx_count--;
}

static bool cm_nvtx_no_handle(nvtxMemHeapHandle_t h)
{
	return h == NULL || h == NVTX_MEM_HEAP_HANDLE_NO_TOOL;
}

void cm_nvtx_segment_added(int slot, uintptr_t base, size_t size)
{
	if (!cm_nvtx_active())
		return;
	pthread_once(&cm_nvtx_domain_once, cm_nvtx_create_domain);
	nvtxMemVirtualRangeDesc_t range = {.size = size, .ptr = (const void *)base};
	nvtxMemHeapDesc_t desc = {
		.extCompatID = NVTX_EXT_COMPATID_MEM,
		.structSize = sizeof desc,
		.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR,
		.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS,
		.typeSpecificDescSize = sizeof range,
		.typeSpecificDesc = &range,
	};
	nvtxMemHeapHandle_t h = nvtxMemHeapRegister(cm_nvtx_domain, &desc);
	pthread_mutex_lock(&cm_nvtx_lock);
	if (cm_nvtx_no_handle(h)) {
		/* No tool, or one without the memory API: nothing to tell. */
		if (!cm_nvtx_tool_seen)
			atomic_store(&cm_nvtx_on, false);
		pthread_mutex_unlock(&cm_nvtx_lock);
		return;
	}
	cm_nvtx_tool_seen = true;
	cm_nvtx_heap e = {.base = base, .size = size, .slot = slot, .handle = h};
	bool kept = cm_nvtx_insert(&e);
	pthread_mutex_unlock(&cm_nvtx_lock);
	if (!kept)
		nvtxMemHeapUnregister(cm_nvtx_domain, h);
}

void cm_nvtx_segment_removed(uintptr_t base)
{
	if (!cm_nvtx_active())
		return;
	nvtxMemHeapHandle_t h = NULL;
	pthread_mutex_lock(&cm_nvtx_lock);
	size_t i = cm_nvtx_upper(base);
	if (i > 0 && cm_nvtx_heaps[i - 1].base == base) {
		h = cm_nvtx_heaps[i - 1].handle;
		cm_nvtx_remove_at(i - 1);
	}
	pthread_mutex_unlock(&cm_nvtx_lock);
	if (h)
		nvtxMemHeapUnregister(cm_nvtx_domain, h);
}

void cm_nvtx_slot_forgotten(int slot)
{
	if (!cm_nvtx_active())
		return;
	pthread_mutex_lock(&cm_nvtx_lock);
	size_t kept = 0;
	for (size_t i = 0; i < cm_nvtx_count; i++) {
		if (cm_nvtx_heaps[i].slot == slot)
			nvtxMemHeapUnregister(cm_nvtx_domain, cm_nvtx_heaps[i].handle);
		else
			cm_nvtx_heaps[kept++] = cm_nvtx_heaps[i];
	}
	cm_nvtx_count = kept;
	pthread_mutex_unlock(&cm_nvtx_lock);
}

/* The registered heap holding p, or NULL. */
static nvtxMemHeapHandle_t cm_nvtx_heap_of(uintptr_t p)
{
	nvtxMemHeapHandle_t h = NULL;
	pthread_mutex_lock(&cm_nvtx_lock);
	size_t i = cm_nvtx_upper(p);
	if (i > 0 && p - cm_nvtx_heaps[i - 1].base < cm_nvtx_heaps[i - 1].size)
		h = cm_nvtx_heaps[i - 1].handle;
	pthread_mutex_unlock(&cm_nvtx_lock);
	return h;
}

void cm_nvtx_block_added(uintptr_t p, size_t asked)
{
	nvtxMemHeapHandle_t h = cm_nvtx_heap_of(p);
	if (!h)
		return;
	/* The size asked, not the rounded one: a read past it is an error. */
	nvtxMemVirtualRangeDesc_t range = {.size = asked, .ptr = (const void *)p};
	nvtxMemRegionsRegisterBatch_t batch = {
		.extCompatID = NVTX_EXT_COMPATID_MEM,
		.structSize = sizeof batch,
		.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS,
		.heap = h,
		.regionCount = 1,
		.regionDescElementSize = sizeof range,
		.regionDescElements = &range,
		.regionHandleElementsOut = NULL,
	};
	nvtxMemRegionsRegister(cm_nvtx_domain, &batch);
}

void cm_nvtx_block_freeing(cm_heap *heap, uintptr_t p)
{
	cm_ptr_info info;
	cm_pointer_info(heap, p, &info);
	if (!info.ours || !info.live || !cm_nvtx_heap_of(p))
		return; /* not a held block: the core or CUDA answers the free */
	nvtxMemRegionRef_t ref = {.pointer = (const void *)p};
	nvtxMemRegionsUnregisterBatch_t batch = {
		.extCompatID = NVTX_EXT_COMPATID_MEM,
		.structSize = sizeof batch,
		.refType = NVTX_MEM_REGION_REF_TYPE_POINTER,
		.refCount = 1,
		.refElementSize = sizeof ref,
		.refElements = &ref,
	};
	nvtxMemRegionsUnregister(cm_nvtx_domain, &batch);
}
