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
 * the order they came).
 *
 * Late unmaps are the other kind of unmap made later: the old address of
 * a chunk stitching moved while the work before its free may still run
 * (expandable.c, stitch.c). Each is made once the epoch of that free is
 * complete: polled at growths, trims and releases; waited for before its
 * handle is released, its address mapped again or its range given back.
 * A late unmap the driver refuses when its handle is released becomes a
 * refused unmap above (the memory stays until it succeeds).
 * All functions run under the device lock.
 * Wing: mem. Calls the order and record wings.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mem.h"

enum { CM_GB_RAW, CM_GB_MAPPED, CM_GB_HANDLE, CM_GB_RANGE, CM_GB_UNMAP };

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
	case CM_GB_MAPPED:
	case CM_GB_UNMAP: return be->vmm_unmap(be->ctx, d->index, g->addr, g->size);
	case CM_GB_HANDLE: return be->vmm_destroy(be->ctx, d->index, g->h);
	default: return be->vmm_release(be->ctx, d->index, g->addr, g->size);
	}
}

static size_t cm_giveback_bytes(const cm_giveback *g)
{
	return g->kind == CM_GB_RANGE || g->kind == CM_GB_UNMAP ? 0 : g->size;
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

/* ---- late unmaps ---- */

typedef struct cm_late_unmap {
	uintptr_t va;
	size_t size;
	cm_mem_handle h;
	uint64_t epoch; /* of the free whose work may use va */
} cm_late_unmap;

bool cm_giveback_late(cm_device *d, uintptr_t va, size_t size, cm_mem_handle h, uint64_t epoch)
{
	if (d->nlate == d->late_cap) {
		size_t cap = d->late_cap ? 2 * d->late_cap : 16;
		cm_late_unmap *list = realloc(d->late, cap * sizeof(*list));
		if (!list) { /* no room to remember it: its work first */
			cm_epoch_wait_complete(d, epoch);
			return cm_giveback_unmap(d, va, size, h);
		}
		d->late = list;
		d->late_cap = cap;
	}
	d->late[d->nlate++] = (cm_late_unmap){va, size, h, epoch};
	return true;
}

/* Makes late unmap i (its work complete). False: the driver refused; it
 * stays, tried again later. */
static bool cm_late_unmap_at(cm_device *d, size_t i)
{
	const cm_backend *be = d->heap->be;
	if (be->vmm_unmap(be->ctx, d->index, d->late[i].va, d->late[i].size) != CM_OK) {
		d->stats.release_failures++;
		return false;
	}
	d->late[i] = d->late[--d->nlate];
	return true;
}

/* Whether late unmap l overlaps [lo, hi) or (h) unmaps a mapping of *h. */
static bool cm_late_matches(const cm_late_unmap *l, uintptr_t lo, uintptr_t hi,
			    const cm_mem_handle *h)
{
	return (l->va < hi && lo < l->va + l->size) || (h && l->h == *h);
}

/* The late unmaps that match (cm_late_matches) made now, the host first
 * waiting for their work. With h (its handle about to be released), one
 * the driver refuses becomes a refused unmap that releases h once it
 * succeeds, and false says h is taken care of; without h, false: one
 * refused, it stays. */
static bool cm_late_settle(cm_device *d, uintptr_t lo, uintptr_t hi, const cm_mem_handle *h)
{
	uint64_t newest = 0;
	for (size_t i = 0; i < d->nlate; i++)
		if (cm_late_matches(&d->late[i], lo, hi, h) && d->late[i].epoch > newest)
			newest = d->late[i].epoch;
	if (!newest)
		return true;
	cm_epoch_wait_complete(d, newest);
	bool ok = true, handed = false;
	for (size_t i = d->nlate; i-- > 0;) {
		cm_late_unmap l = d->late[i];
		if (!cm_late_matches(&l, lo, hi, h) || cm_late_unmap_at(d, i))
			continue;
		ok = false;
		if (!h)
			continue;
		d->late[i] = d->late[--d->nlate];
		/* The memory stays until every mapping goes: counted once, by the
		 * entry that releases the handle. */
		cm_giveback_keep(d, (cm_giveback){.kind = handed ? CM_GB_UNMAP : CM_GB_MAPPED,
						  .addr = l.va, .size = l.size, .h = l.h},
				 CM_ERR_BACKEND);
		handed = true;
	}
	return ok;
}

void cm_giveback_late_poll(cm_device *d)
{
	uint64_t newest = 0;
	for (size_t i = 0; i < d->nlate; i++)
		if (d->late[i].epoch > newest)
			newest = d->late[i].epoch;
	if (!newest)
		return;
	cm_epoch_poll_complete(d, newest);
	for (size_t i = d->nlate; i-- > 0;)
		if (cm_epoch_complete(d, d->late[i].epoch))
			cm_late_unmap_at(d, i);
}

/* Makes the call of g; kept when it fails. A handle is released once no
 * late unmap maps it. */
static void cm_giveback_do(cm_device *d, cm_giveback g)
{
	cm_status st = g.kind == CM_GB_HANDLE ? CM_OK : cm_giveback_call(d, &g);
	if (st == CM_OK && g.kind == CM_GB_MAPPED)
		g.kind = CM_GB_HANDLE; /* unmapped: now its memory */
	if (st == CM_OK && g.kind == CM_GB_HANDLE) {
		if (!cm_late_settle(d, 0, 0, &g.h))
			return; /* a refused late unmap releases it */
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
	if (!cm_late_settle(d, va, va + size, NULL))
		return false;
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
	cm_late_settle(d, va, va + size, NULL); /* else the range is refused, kept */
	cm_giveback_do(d, (cm_giveback){.kind = CM_GB_RANGE, .addr = va, .size = size});
}

void cm_giveback_fini(cm_device *d)
{
	free(d->late); /* empty: each range took its late unmaps along */
	d->late = NULL;
	d->nlate = d->late_cap = 0;
	free(d->giveback);
	d->giveback = NULL;
	d->ngiveback = d->giveback_cap = 0;
}
