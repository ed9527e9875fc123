/* tests/fakecuda/fakecuda_mem.c - allocations of the fake CUDA runtime.
 *
 * Owns the allocation table: every live allocation (device, managed,
 * stream-ordered and pinned host), sorted by address, so that a pointer
 * anywhere inside an allocation finds it in O(log n) (memcpy and memset
 * validate their ranges with it, cudaPointerGetAttributes classifies with
 * it). An entry leaves the table when its free is accepted, before the
 * memory goes back to the sim, so a concurrent second free of the same
 * pointer fails as CUDA's does.
 *
 * Capacity: fk.used[dev] counts each device allocation's size rounded as
 * the sim rounds it (512 bytes below 2 MiB, else 2 MiB) and never exceeds
 * fk.limit; cudaMemGetInfo reports limit - used.
 *
 * Semantics, as NVIDIA documents them: cudaMalloc(NULL, n) is
 * cudaErrorInvalidValue, size 0 succeeds with NULL; out of memory is
 * cudaErrorMemoryAllocation; cudaFree waits for all work on the device
 * (except for cudaMallocAsync memory, freed without synchronization); an
 * unknown, interior or already freed pointer is cudaErrorInvalidValue;
 * cudaFree(NULL) succeeds. cudaFreeAsync frees in stream order (see the
 * deferred frees in fakecuda.c). cudaIpcGetMemHandle accepts any pointer
 * inside a cudaMalloc allocation and names the allocation (observed on an
 * H200: an interior pointer succeeds). Answers checked on an H200 are in
 * probe-h200.txt.
 */
#include "fakecuda_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table (fk.lock held) ------------------------------------------- */

/* Index of the first entry whose ptr is > p. */
static size_t fk_upper(uintptr_t p)
{
	size_t lo = 0, hi = fk.nallocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (fk.allocs[mid].ptr <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the entry containing p, or SIZE_MAX. */
static size_t fk_containing(uintptr_t p)
{
	size_t i = fk_upper(p);
	if (i == 0)
		return SIZE_MAX;
	const fk_alloc *a = &fk.allocs[i - 1];
	size_t span = a->size ? a->size : 1;
	return p - a->ptr < span ? i - 1 : SIZE_MAX;
}

/* Index of the entry starting at p, or SIZE_MAX. */
static size_t fk_exact(uintptr_t p)
{
	size_t i = fk_upper(p);
	return i > 0 && fk.allocs[i - 1].ptr == p ? i - 1 : SIZE_MAX;
}

static bool fk_insert(const fk_alloc *a)
{
	if (fk.nallocs == fk.allocs_cap) {
		size_t cap = fk.allocs_cap ? 2 * fk.allocs_cap : 256;
		fk_alloc *v = realloc(fk.allocs, cap * sizeof(*v));
		if (!v)
			return false;
		fk.allocs = v;
		fk.allocs_cap = cap;
	}
	size_t i = fk_upper(a->ptr);
	memmove(&fk.allocs[i + 1], &fk.allocs[i], (fk.nallocs - i) * sizeof(*fk.allocs));
	fk.allocs[i] = *a;
	fk.nallocs++;
	return true;
}

static void fk_remove(size_t i)
{
	memmove(&fk.allocs[i], &fk.allocs[i + 1], (fk.nallocs - i - 1) * sizeof(*fk.allocs));
	fk.nallocs--;
}

int fk_lookup_range(const void *p, size_t n, fk_alloc *out)
{
	int found = 0;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_containing((uintptr_t)p);
	if (i != SIZE_MAX) {
		const fk_alloc *a = &fk.allocs[i];
		size_t off = (uintptr_t)p - a->ptr;
		size_t span = a->size ? a->size : 1;
		found = n <= span - off ? 1 : -1;
		*out = *a;
	}
	pthread_mutex_unlock(&fk.lock);
	return found;
}

/* ---- device memory ------------------------------------------------------ */

static size_t fk_charge(size_t n)
{
	size_t a = n >= FK_GRAN ? FK_GRAN : FK_QUANTUM;
	return (n + a - 1) & ~(a - 1);
}

static cudaError_t fk_dev_alloc(int dev, size_t n, fk_kind kind, uint64_t cap_id, void **out)
{
	if (n > fk.limit)
		return cudaErrorMemoryAllocation;
	size_t charge = fk_charge(n);

	for (int attempt = 0;; attempt++) {
		bool charged;
		pthread_mutex_lock(&fk.lock);
		charged = charge <= fk.limit - fk.used[dev];
		if (charged)
			fk.used[dev] += charge;
		pthread_mutex_unlock(&fk.lock);

		if (charged) {
			uintptr_t p = 0;
			cm_status st = fk.be->mem_alloc(fk.be->ctx, dev, n, &p);
			if (st == CM_OK) {
				fk_alloc a = { .ptr = p, .size = n, .charge = charge, .dev = dev,
					       .kind = kind, .cap_id = cap_id };
				pthread_mutex_lock(&fk.lock);
				bool ok = fk_insert(&a);
				if (!ok)
					fk.used[dev] -= charge;
				pthread_mutex_unlock(&fk.lock);
				if (ok) {
					*out = (void *)p;
					return cudaSuccess;
				}
				fk.be->mem_free(fk.be->ctx, dev, p);
				return cudaErrorMemoryAllocation;
			}
			pthread_mutex_lock(&fk.lock);
			fk.used[dev] -= charge;
			pthread_mutex_unlock(&fk.lock);
		}
		/* Memory given back with cudaFreeAsync may still be queued. */
		if (attempt == 0 && fk_frees_pending()) {
			fk_drain_frees();
			continue;
		}
		return cudaErrorMemoryAllocation;
	}
}

/* FAKECUDA_REENTER=1: a runtime that calls its own exported API. The
 * global cudaMalloc (an interposer's, if one is preloaded) is called once
 * per fake cudaMalloc; the flag keeps the fake from recursing further. */
static _Thread_local bool fk_in_reenter;

static void fk_reenter_scratch(void)
{
	typedef cudaError_t (*malloc_fn)(void **, size_t);
	typedef cudaError_t (*free_fn)(void *);
	malloc_fn m = (malloc_fn)dlsym(RTLD_DEFAULT, "cudaMalloc");
	free_fn f = (free_fn)dlsym(RTLD_DEFAULT, "cudaFree");
	void *scratch = NULL;

	if (!m)
		m = cudaMalloc; /* loaded privately: not in the global scope */
	if (!f)
		f = cudaFree;
	fk_in_reenter = true;
	if (m(&scratch, 512) == cudaSuccess)
		f(scratch);
	fk_in_reenter = false;
}

FK_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!devPtr)
		return fk_ret(cudaErrorInvalidValue);
	if (fk.reenter && !fk_in_reenter)
		fk_reenter_scratch();
	r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	return fk_ret(fk_dev_alloc(fk_cur_dev(), size, FK_DEVICE, 0, devPtr));
}

FK_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!devPtr || !pitch)
		return fk_ret(cudaErrorInvalidValue);
	r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	size_t p = (width + FK_QUANTUM - 1) & ~(FK_QUANTUM - 1);
	if (p < width || (height && p > SIZE_MAX / height))
		return fk_ret(cudaErrorMemoryAllocation);
	*pitch = p;
	if (p * height == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	return fk_ret(fk_dev_alloc(fk_cur_dev(), p * height, FK_DEVICE, 0, devPtr));
}

FK_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
		return fk_ret(cudaErrorInvalidValue);
	r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	return fk_ret(fk_dev_alloc(fk_cur_dev(), size, FK_MANAGED, 0, devPtr));
}

FK_API cudaError_t cudaFree(void *devPtr)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!devPtr)
		return cudaSuccess;
	r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);

	fk_alloc a;
	bool found = false;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact((uintptr_t)devPtr);
	if (i != SIZE_MAX && fk.allocs[i].kind != FK_HOST) {
		a = fk.allocs[i];
		fk_remove(i);
		found = true;
	}
	pthread_mutex_unlock(&fk.lock);
	if (!found)
		return fk_ret(cudaErrorInvalidValue);

	if (a.kind == FK_ASYNC) { /* no implicit synchronization */
		fk_defer_free(a.dev, a.ptr, a.charge, NULL);
		return cudaSuccess;
	}
	cm_status st = fk.be->mem_free(fk.be->ctx, a.dev, a.ptr); /* waits for the device */
	pthread_mutex_lock(&fk.lock);
	fk.used[a.dev] -= a.charge;
	pthread_mutex_unlock(&fk.lock);
	return fk_ret(fk_status(st, cudaErrorInvalidValue));
}

/* ---- stream-ordered allocation ------------------------------------------ */

static cudaError_t fk_malloc_async(void **devPtr, size_t size, cudaStream_t stream, bool ptsz)
{
	fk_sref ref;
	uint64_t cap_id;
	cudaError_t r = fk_init();

	if (r == cudaSuccess && !devPtr)
		r = cudaErrorInvalidValue;
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_use(&ref, &cap_id);
	if (r == cudaSuccess && !cap_id) /* outside the graph: an unsafe call */
		r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	/* Fresh memory needs no ordering; during a capture this stands in for
	 * the graph's allocation node. */
	return fk_ret(fk_dev_alloc(ref.dev, size, FK_ASYNC, cap_id, devPtr));
}

static cudaError_t fk_free_async(void *devPtr, cudaStream_t stream, bool ptsz)
{
	fk_sref ref;
	uint64_t cap_id;
	cudaError_t r = fk_init();

	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_use(&ref, &cap_id);
	if (r == cudaSuccess && !cap_id)
		r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!devPtr)
		return cudaSuccess;

	fk_alloc a;
	bool found = false;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact((uintptr_t)devPtr);
	/* During a capture only the graph's own allocations can be freed (a
	 * free node needs a graph allocation); CUDA refuses the others without
	 * invalidating the capture. */
	if (i != SIZE_MAX && (fk.allocs[i].kind == FK_DEVICE || fk.allocs[i].kind == FK_ASYNC) &&
	    (!cap_id || fk.allocs[i].cap_id == cap_id)) {
		a = fk.allocs[i];
		fk_remove(i);
		found = true;
	}
	pthread_mutex_unlock(&fk.lock);
	if (!found)
		return fk_ret(cudaErrorInvalidValue);

	cm_event ev = NULL;
	if (!cap_id && fk.be->event_create(fk.be->ctx, ref.dev, &ev) == CM_OK &&
	    fk.be->event_record(fk.be->ctx, ref.dev, ev, ref.h) != CM_OK) {
		fk.be->event_destroy(fk.be->ctx, ref.dev, ev);
		ev = NULL;
		fk_wait_point(&ref); /* no event: the host waits instead */
	}
	fk_defer_free(a.dev, a.ptr, a.charge, ev);
	return cudaSuccess;
}

FK_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	return fk_malloc_async(devPtr, size, hStream, false);
}

FK_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	return fk_free_async(devPtr, hStream, false);
}

FK_API __typeof__(cudaMallocAsync) cudaMallocAsync_ptsz;
FK_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
	return fk_malloc_async(devPtr, size, hStream, true);
}

FK_API __typeof__(cudaFreeAsync) cudaFreeAsync_ptsz;
FK_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
	return fk_free_async(devPtr, hStream, true);
}

/* ---- pinned host memory ------------------------------------------------- */

FK_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!ptr)
		return fk_ret(cudaErrorInvalidValue);
	r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (size == 0) {
		*ptr = NULL;
		return cudaSuccess;
	}
	void *p = NULL;
	if (posix_memalign(&p, 4096, size) != 0)
		return fk_ret(cudaErrorMemoryAllocation);
	fk_alloc a = { .ptr = (uintptr_t)p, .size = size, .dev = fk_cur_dev(), .kind = FK_HOST };
	pthread_mutex_lock(&fk.lock);
	bool ok = fk_insert(&a);
	pthread_mutex_unlock(&fk.lock);
	if (!ok) {
		free(p);
		return fk_ret(cudaErrorMemoryAllocation);
	}
	*ptr = p;
	return cudaSuccess;
}

FK_API cudaError_t cudaFreeHost(void *ptr)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!ptr)
		return cudaSuccess;
	r = fk_unsafe_check();
	if (r != cudaSuccess)
		return fk_ret(r);
	fk_alloc a;
	bool found = false;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact((uintptr_t)ptr);
	if (i != SIZE_MAX && fk.allocs[i].kind == FK_HOST) {
		a = fk.allocs[i];
		fk_remove(i);
		found = true;
	}
	pthread_mutex_unlock(&fk.lock);
	if (!found)
		return fk_ret(cudaErrorInvalidValue);
	/* Queued copies may still read or write it: wait, as unpinning does. */
	fk.be->device_synchronize(fk.be->ctx, a.dev);
	free(ptr);
	return cudaSuccess;
}

/* ---- queries ------------------------------------------------------------ */

FK_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!free_bytes || !total)
		return fk_ret(cudaErrorInvalidValue);
	int dev = fk_cur_dev();
	pthread_mutex_lock(&fk.lock);
	*free_bytes = fk.limit - fk.used[dev];
	*total = fk.limit;
	pthread_mutex_unlock(&fk.lock);
	return cudaSuccess;
}

FK_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
					    const void *ptr)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!attributes)
		return fk_ret(cudaErrorInvalidValue);
	memset(attributes, 0, sizeof(*attributes));
	fk_alloc a;
	if (ptr && fk_lookup_range(ptr, 0, &a) == 1) {
		attributes->device = a.dev;
		attributes->devicePointer = (void *)ptr;
		switch (a.kind) {
		case FK_HOST:
			attributes->type = cudaMemoryTypeHost;
			attributes->hostPointer = (void *)ptr;
			break;
		case FK_MANAGED:
			attributes->type = cudaMemoryTypeManaged;
			attributes->hostPointer = (void *)ptr;
			break;
		case FK_DEVICE:
		case FK_ASYNC:
			attributes->type = cudaMemoryTypeDevice;
			break;
		}
		return cudaSuccess;
	}
	attributes->type = cudaMemoryTypeUnregistered;
	attributes->device = -2; /* CU_DEVICE_INVALID */
	attributes->hostPointer = (void *)ptr;
	return cudaSuccess;
}

FK_API cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!handle || !devPtr)
		return fk_ret(cudaErrorInvalidValue);
	/* As CUDA: any pointer inside a cudaMalloc allocation gets the handle
	 * of the whole allocation (the importer maps its start). */
	fk_alloc a;
	if (fk_lookup_range(devPtr, 0, &a) != 1 || a.kind != FK_DEVICE)
		return fk_ret(cudaErrorInvalidValue);
	memset(handle, 0, sizeof(*handle));
	memcpy(handle->reserved, &a.ptr, sizeof(a.ptr));
	return cudaSuccess;
}

/* ---- device reset ------------------------------------------------------- */

/* The device is idle and its frees drained. Frees every device allocation
 * of dev; pinned host memory stays (programs may still hold it). */
void fk_mem_reset_dev(int dev)
{
	for (;;) {
		fk_alloc a;
		bool found = false;
		pthread_mutex_lock(&fk.lock);
		for (size_t i = 0; i < fk.nallocs; i++) {
			if (fk.allocs[i].dev == dev && fk.allocs[i].kind != FK_HOST) {
				a = fk.allocs[i];
				fk_remove(i);
				found = true;
				break;
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (!found)
			break;
		fk.be->mem_free(fk.be->ctx, dev, a.ptr);
		pthread_mutex_lock(&fk.lock);
		fk.used[dev] -= a.charge;
		pthread_mutex_unlock(&fk.lock);
	}
}
