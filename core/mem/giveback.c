/* core/mem/giveback.c - memory the driver did not take back (issue 36).
 *
 * When the cache gives device memory back (a segment's cudaFree, a
 * chunk's cuMemUnmap or cuMemRelease, a range's cuMemAddressFree) and the
 * driver refuses, the memory is still the process's: it is kept here, in
 * reserved_bytes and unreleased_bytes, and given back again at the next
 * release of any memory (and at empty_cache), the oldest first. The first
 * refusal on a device is told once on stderr. An unmap that failed leaves
 * its chunk mapped: its handle is released once the unmap succeeds, and
 * the range it was in once nothing in it is mapped (entries are retried in
 * the order they came). All functions run under the device lock.
 * Wing: mem. Calls the record wing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mem.h"

enum { CM_GB_RAW, CM_GB_MAPPED, CM_GB_HANDLE, CM_GB_RANGE };

/* One call to make again: the kind's call; size counts in reserved_bytes
 * (0 for a range: address space only). */
struct cm_giveback {
	int kind;
	uintptr_t addr;
	size_t size;
	cm_mem_handle h;
};

static cm_status cm_giveback_call(cm_device *d, const cm_giveback *g)
{
	const cm_backend *be = d->heap->be;
	switch (g->kind) {
	case CM_GB_RAW: return be->mem_free(be->ctx, d->index, g->addr);
	case CM_GB_MAPPED: return be->vmm_unmap(be->ctx, d->index, g->addr, g->size);
	case CM_GB_HANDLE: return be->vmm_destroy(be->ctx, d->index, g->h);
	default: return be->vmm_release(be->ctx, d->index, g->addr, g->size);
	}
}

static size_t cm_giveback_bytes(const cm_giveback *g)
{
	return g->kind == CM_GB_RANGE ? 0 : g->size;
}

/* The call failed with st: kept, counted, told once. */
static void cm_giveback_keep(cm_device *d, cm_giveback g, cm_status st)
{
	d->stats.release_failures++;
	if (!d->giveback_told) {
		d->giveback_told = true;
		fprintf(stderr,
			"cachemalloc: device %d: the driver did not take memory back (%s); it stays "
			"in reserved_bytes and is given back at the next release\n",
			d->index, cm_status_name(st));
	}
	if (d->ngiveback == d->giveback_cap) {
		size_t cap = d->giveback_cap ? 2 * d->giveback_cap : 16;
		cm_giveback *list = realloc(d->giveback, cap * sizeof(*list));
		if (!list)
			return; /* lost, as before: the driver keeps it until exit */
		d->giveback = list;
		d->giveback_cap = cap;
	}
	d->giveback[d->ngiveback++] = g;
	cm_reserved_add(d, (int64_t)cm_giveback_bytes(&g));
	CM_LEVEL(&d->stats, unreleased_bytes, (int64_t)cm_giveback_bytes(&g));
}

/* Makes the call of g; kept when it fails. */
static void cm_giveback_do(cm_device *d, cm_giveback g)
{
	cm_status st = cm_giveback_call(d, &g);
	if (st == CM_OK && g.kind == CM_GB_MAPPED) {
		g.kind = CM_GB_HANDLE; /* unmapped: now its memory */
		st = cm_giveback_call(d, &g);
	}
	if (st != CM_OK)
		cm_giveback_keep(d, g, st);
}

size_t cm_giveback_retry(cm_device *d)
{
	size_t n = d->ngiveback, freed = 0;
	if (!n)
		return 0;
	cm_giveback *list = d->giveback;
	d->giveback = NULL;
	d->ngiveback = d->giveback_cap = 0;
	for (size_t i = 0; i < n; i++) {
		size_t bytes = cm_giveback_bytes(&list[i]);
		cm_reserved_add(d, -(int64_t)bytes);
		CM_LEVEL(&d->stats, unreleased_bytes, -(int64_t)bytes);
		size_t before = d->stats.unreleased_bytes;
		cm_giveback_do(d, list[i]);
		if (d->stats.unreleased_bytes == before)
			freed += bytes;
	}
	free(list);
	d->stats.released_bytes += freed;
	return freed;
}

void cm_giveback_free(cm_device *d, uintptr_t addr, size_t size)
{
	cm_giveback_retry(d);
	cm_giveback_do(d, (cm_giveback){.kind = CM_GB_RAW, .addr = addr, .size = size});
}

void cm_giveback_handle(cm_device *d, cm_mem_handle h, size_t size)
{
	cm_giveback_retry(d);
	cm_giveback_do(d, (cm_giveback){.kind = CM_GB_HANDLE, .h = h, .size = size});
}

bool cm_giveback_unmap(cm_device *d, uintptr_t va, size_t size, cm_mem_handle h)
{
	const cm_backend *be = d->heap->be;
	cm_status st = be->vmm_unmap(be->ctx, d->index, va, size);
	if (st != CM_OK)
		cm_giveback_keep(d, (cm_giveback){.kind = CM_GB_MAPPED, .addr = va, .size = size, .h = h},
				 st);
	return st == CM_OK;
}

/* Before a chunk is mapped at [va, va + size): a chunk left mapped there
 * by a failed unmap (a trimmed tail that grows again) is unmapped first.
 * False: it could not be; nothing may be mapped there now. */
bool cm_giveback_unmapped(cm_device *d, uintptr_t va, size_t size)
{
	for (size_t i = 0; i < d->ngiveback; i++) {
		cm_giveback *g = &d->giveback[i];
		if (g->kind != CM_GB_MAPPED || g->addr >= va + size || va >= g->addr + g->size)
			continue;
		cm_status st = cm_giveback_call(d, g);
		if (st != CM_OK) {
			d->stats.release_failures++;
			return false;
		}
		g->kind = CM_GB_HANDLE; /* given back at the next release */
	}
	return true;
}

void cm_giveback_range(cm_device *d, uintptr_t va, size_t size)
{
	cm_giveback_retry(d);
	cm_giveback_do(d, (cm_giveback){.kind = CM_GB_RANGE, .addr = va, .size = size});
}

void cm_giveback_fini(cm_device *d)
{
	free(d->giveback);
	d->giveback = NULL;
	d->ngiveback = d->giveback_cap = 0;
}
