/* tests/fakecuda/fakecu_mem.c - allocations of the fake CUDA driver.
 *
 * Owns the allocation table: every live allocation (device, managed,
 * stream-ordered and pinned host), sorted by address, so that a pointer
 * anywhere inside an allocation finds it in O(log n) (memcpy and memset
 * validate their ranges with it, cuPointerGetAttribute and
 * cuMemGetAddressRange answer with it). An entry leaves the table when its
 * free is accepted, before the memory goes back to the sim, so a concurrent
 * second free of the same pointer fails as CUDA's does. Each entry names
 * its context, which frees it when destroyed or reset.
 *
 * Capacity: fk.used[dev] counts each device allocation's size rounded as
 * the sim rounds it (512 bytes below 2 MiB, else 2 MiB) and never exceeds
 * fk.limit; cuMemGetInfo reports limit - used. VMM physical memory
 * (cuMemCreate) counts in fk.used too, until the sim releases it.
 *
 * Semantics, as NVIDIA documents them: cuMemAlloc of 0 bytes is
 * CUDA_ERROR_INVALID_VALUE; out of memory is CUDA_ERROR_OUT_OF_MEMORY;
 * cuMemFree waits for all work on the device (except for cuMemAllocAsync
 * memory, freed without synchronization); an unknown, interior or already
 * freed pointer is CUDA_ERROR_INVALID_VALUE. cuMemFreeAsync frees in stream
 * order (see the deferred frees in fakecu.c). cuIpcGetMemHandle accepts any
 * pointer inside a cuMemAlloc allocation and names the allocation (observed
 * on an H200 through the runtime: an interior pointer succeeds); IPC below.
 */
#include "fakecu_internal.h"
#include "fakecu_pitch.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (!found && p && sim_vmm_accessible(fk.s, (uintptr_t)p, n ? n : 1)) {
		int dev = sim_vmm_device(fk.s, (uintptr_t)p);
		*out = (fk_alloc){ .ptr = (uintptr_t)p, .size = n ? n : 1,
				   .dev = dev >= 0 ? dev : fk_cur_dev(), .kind = FK_DEVICE };
		found = 1;
	}
	return found;
}

/* ---- device memory ------------------------------------------------------ */

static size_t fk_charge(size_t n)
{
	size_t a = n >= FK_GRAN ? FK_GRAN : FK_QUANTUM;
	return (n + a - 1) & ~(a - 1);
}

static CUresult fk_dev_alloc(int dev, size_t n, fk_kind kind, uint64_t cap_id, void **out)
{
	if (n > fk.limit)
		return CUDA_ERROR_OUT_OF_MEMORY;
	size_t charge = fk_charge(n);

	for (int attempt = 0;; attempt++) {
		bool charged;
		pthread_mutex_lock(&fk.lock);
		charged = charge <= fk.limit - fk.used[dev] && fk_shared_charge(dev, charge);
		if (charged)
			fk.used[dev] += charge;
		pthread_mutex_unlock(&fk.lock);

		if (charged) {
			uintptr_t p = 0;
			cm_status st = fk.be->mem_alloc(fk.be->ctx, dev, n, &p);
			if (st == CM_OK) {
				fk_alloc a = { .ptr = p, .size = n, .charge = charge, .dev = dev,
					       .ctx = fk_cur_ctx(), .kind = kind, .cap_id = cap_id };
				pthread_mutex_lock(&fk.lock);
				bool ok = fk_insert(&a);
				if (!ok)
					fk.used[dev] -= charge;
				pthread_mutex_unlock(&fk.lock);
				if (!ok)
					fk_shared_uncharge(dev, charge);
				if (ok) {
					*out = (void *)p;
					return CUDA_SUCCESS;
				}
				fk.be->mem_free(fk.be->ctx, dev, p);
				return CUDA_ERROR_OUT_OF_MEMORY;
			}
			pthread_mutex_lock(&fk.lock);
			fk.used[dev] -= charge;
			pthread_mutex_unlock(&fk.lock);
			fk_shared_uncharge(dev, charge);
		}
		/* Memory given back with cudaFreeAsync may still be queued. */
		if (attempt == 0 && fk_frees_pending()) {
			fk_drain_frees();
			continue;
		}
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
}

static CUresult fk_host_alloc(size_t size, unsigned flags, void **out)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, size) != 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	fk_alloc a = { .ptr = (uintptr_t)p, .size = size, .dev = fk_cur_dev(),
		       .ctx = fk_cur_ctx(), .kind = FK_HOST, .host_flags = flags };
	pthread_mutex_lock(&fk.lock);
	bool ok = fk_insert(&a);
	pthread_mutex_unlock(&fk.lock);
	if (!ok) {
		free(p);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = p;
	return CUDA_SUCCESS;
}

CUresult fk_alloc_kind(size_t n, fk_kind kind, void **out)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && (!out || n == 0))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		r = fk_unsafe_check();
	if (r != CUDA_SUCCESS)
		return r;
	if (kind == FK_HOST)
		return fk_host_alloc(n, 0, out);
	return fk_dev_alloc(fk_cur_dev(), n, kind, 0, out);
}

FK_API CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	return fk_alloc_kind(bytesize, FK_DEVICE, (void **)dptr);
}

FK_API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) {
		CUresult r = fk_begin();
		return r == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : r;
	}
	return fk_alloc_kind(bytesize, FK_MANAGED, (void **)dptr);
}

FK_API CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	return fk_alloc_kind(bytesize, FK_HOST, pp);
}

/* Takes the entry starting at p out of the table if it is host memory
 * (host) or device memory (!host). */
static bool fk_take(uintptr_t p, bool host, fk_alloc *out)
{
	bool found = false;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact(p);
	if (i != SIZE_MAX && (fk.allocs[i].kind == FK_HOST) == host && !fk.allocs[i].registered &&
	    fk.allocs[i].kind != FK_IPC) {
		*out = fk.allocs[i];
		fk_remove(i);
		found = true;
	}
	pthread_mutex_unlock(&fk.lock);
	return found;
}

FK_API CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	FK_FAIL("cuMemFree");
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && !dptr)
		return CUDA_SUCCESS;
	if (r == CUDA_SUCCESS)
		r = fk_unsafe_check();
	if (r != CUDA_SUCCESS)
		return r;
	fk_alloc a;
	if (!fk_take((uintptr_t)dptr, false, &a))
		return CUDA_ERROR_INVALID_VALUE;
	if (a.kind == FK_ASYNC) { /* no implicit synchronization */
		if (a.pool) {
			pthread_mutex_lock(&fk.lock);
			fk_pool_uncharge_locked(a.pool, a.charge);
			pthread_mutex_unlock(&fk.lock);
		}
		fk_defer_free(a.dev, a.ptr, a.charge, NULL);
		return CUDA_SUCCESS;
	}
	/* An exported allocation's bytes stay for the importers that may have
	 * it open (CUDA frees them at the last close, which this process
	 * cannot see): its addresses are never reused, its capacity is. */
	cm_status st = a.exported ? fk.be->device_synchronize(fk.be->ctx, a.dev)
				 : fk.be->mem_free(fk.be->ctx, a.dev, a.ptr);
	pthread_mutex_lock(&fk.lock);
	fk.used[a.dev] -= a.charge;
	pthread_mutex_unlock(&fk.lock);
	fk_shared_uncharge(a.dev, a.charge);
	return fk_status(st, CUDA_ERROR_INVALID_VALUE);
}

FK_API CUresult cuMemFreeHost(void *p)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS)
		r = fk_unsafe_check();
	if (r != CUDA_SUCCESS)
		return r;
	fk_alloc a;
	if (!p || !fk_take((uintptr_t)p, true, &a))
		return CUDA_ERROR_INVALID_VALUE;
	/* Queued copies may still read or write it: wait, as unpinning does. */
	fk.be->device_synchronize(fk.be->ctx, a.dev);
	free(p);
	return CUDA_SUCCESS;
}

/* ---- pinned host memory with flags, registration, pitch ----------------- */

#define FK_HOSTALLOC_FLAGS \
	(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED)
#define FK_HOSTREGISTER_FLAGS (CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP)

FK_API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && (!pp || bytesize == 0 || (Flags & ~FK_HOSTALLOC_FLAGS)))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		r = fk_unsafe_check();
	return r == CUDA_SUCCESS ? fk_host_alloc(bytesize, Flags, pp) : r;
}

/* The pinned allocation (not a registration) holding p. */
static bool fk_host_of(const void *p, fk_alloc *a)
{
	return p && fk_lookup_range(p, 0, a) == 1 && a->kind == FK_HOST;
}

FK_API CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	CUresult r = fk_initialized();
	fk_alloc a;
	if (r != CUDA_SUCCESS)
		return r;
	if (!pFlags || !fk_host_of(p, &a) || a.registered)
		return CUDA_ERROR_INVALID_VALUE;
	*pFlags = a.host_flags;
	return CUDA_SUCCESS;
}

/* Unified addressing: the device sees pinned memory at its host address;
 * only mapped (or registered device-mapped) memory has one. */
FK_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
	CUresult r = fk_initialized();
	fk_alloc a;
	if (r != CUDA_SUCCESS)
		return r;
	if (!pdptr || Flags || !fk_host_of(p, &a) || !(a.host_flags & CU_MEMHOSTALLOC_DEVICEMAP))
		return CUDA_ERROR_INVALID_VALUE;
	*pdptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

FK_API CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
	CUresult r = fk_begin();
	fk_alloc a = { .ptr = (uintptr_t)p, .size = bytesize, .kind = FK_HOST, .registered = true };
	if (r != CUDA_SUCCESS)
		return r;
	if (!p || bytesize == 0 || (Flags & ~FK_HOSTREGISTER_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	if (fk_lookup_range(p, bytesize, &(fk_alloc){0}) != 0)
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	a.dev = fk_cur_dev();
	a.ctx = fk_cur_ctx();
	a.host_flags = (Flags & CU_MEMHOSTREGISTER_DEVICEMAP) ? CU_MEMHOSTALLOC_DEVICEMAP : 0;
	pthread_mutex_lock(&fk.lock);
	bool ok = fk_insert(&a);
	pthread_mutex_unlock(&fk.lock);
	return ok ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

FK_API CUresult cuMemHostUnregister(void *p)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	bool found = false;
	int dev = 0;
	pthread_mutex_lock(&fk.lock);
	size_t i = p ? fk_exact((uintptr_t)p) : SIZE_MAX;
	if (i != SIZE_MAX && fk.allocs[i].kind == FK_HOST && fk.allocs[i].registered) {
		dev = fk.allocs[i].dev;
		fk_remove(i);
		found = true;
	}
	pthread_mutex_unlock(&fk.lock);
	if (!found)
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	fk.be->device_synchronize(fk.be->ctx, dev); /* as cuMemFreeHost */
	return CUDA_SUCCESS;
}

/* The pitch the H200's driver returns (fakecu_pitch.h holds the measured
 * table; the library's rule is core/record/pitch.c's). */
FK_API CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
				   size_t Height, unsigned int ElementSizeBytes)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	if (!dptr || !pPitch || WidthInBytes == 0 || Height == 0 ||
	    (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
		return CUDA_ERROR_INVALID_VALUE;
	size_t pitch = fk_pitch(WidthInBytes);
	if (pitch < WidthInBytes || Height > SIZE_MAX / 2 / pitch)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if ((r = fk_unsafe_check()) != CUDA_SUCCESS)
		return r;
	r = fk_dev_alloc(fk_cur_dev(), pitch * Height, FK_DEVICE, 0, (void **)dptr);
	if (r == CUDA_SUCCESS)
		*pPitch = pitch;
	return r;
}

/* ---- stream-ordered allocation ------------------------------------------ */

/* pool NULL: the device's default pool (cuMemAllocAsync; the fake has no
 * cuDeviceSetMemPool). Memory made during a capture is the graph's, not a
 * pool's. */
CUresult fk_malloc_pool(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream stream,
			bool ptsz)
{
	fk_sref ref;
	uint64_t cap_id;
	CUresult r = fk_begin();

	if (r == CUDA_SUCCESS && !dptr)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS && pool) {
		pthread_mutex_lock(&fk.lock);
		if (!fk_pool_valid_locked(pool))
			r = CUDA_ERROR_INVALID_VALUE;
		pthread_mutex_unlock(&fk.lock);
	}
	if (r == CUDA_SUCCESS)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == CUDA_SUCCESS)
		r = fk_stream_use(&ref, &cap_id);
	if (r == CUDA_SUCCESS && !cap_id) /* outside the graph: an unsafe call */
		r = fk_unsafe_check();
	if (r != CUDA_SUCCESS)
		return r;
	if (size == 0) {
		*dptr = 0;
		return CUDA_SUCCESS;
	}
	if (!pool)
		pool = fk_pool_default(ref.dev);
	/* Fresh memory needs no ordering; during a capture this stands in for
	 * the graph's allocation node. */
	r = fk_dev_alloc(pool->dev, size, FK_ASYNC, cap_id, (void **)dptr);
	if (r == CUDA_SUCCESS && !cap_id) {
		pthread_mutex_lock(&fk.lock);
		size_t i = fk_exact((uintptr_t)*dptr);
		if (i != SIZE_MAX) {
			fk.allocs[i].pool = pool;
			fk_pool_charge_locked(pool, fk.allocs[i].charge);
		}
		pthread_mutex_unlock(&fk.lock);
	}
	return r;
}

CUresult fk_malloc_async(CUdeviceptr *dptr, size_t size, CUstream stream, bool ptsz)
{
	return fk_malloc_pool(dptr, size, NULL, stream, ptsz);
}

CUresult fk_free_async(CUdeviceptr dptr, CUstream stream, bool ptsz)
{
	fk_sref ref;
	uint64_t cap_id;
	CUresult r = fk_begin();

	if (r == CUDA_SUCCESS)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == CUDA_SUCCESS)
		r = fk_stream_use(&ref, &cap_id);
	if (r == CUDA_SUCCESS && !cap_id)
		r = fk_unsafe_check();
	if (r != CUDA_SUCCESS)
		return r;
	if (!dptr)
		return CUDA_SUCCESS;

	fk_alloc a;
	bool found = false;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact((uintptr_t)dptr);
	/* During a capture only the graph's own allocations can be freed (a
	 * free node needs a graph allocation); CUDA refuses the others without
	 * invalidating the capture. */
	if (i != SIZE_MAX && (fk.allocs[i].kind == FK_DEVICE || fk.allocs[i].kind == FK_ASYNC) &&
	    (!cap_id || fk.allocs[i].cap_id == cap_id)) {
		a = fk.allocs[i];
		fk_remove(i);
		if (a.pool)
			fk_pool_uncharge_locked(a.pool, a.charge);
		found = true;
	}
	pthread_mutex_unlock(&fk.lock);
	if (!found)
		return CUDA_ERROR_INVALID_VALUE;

	cm_event ev = NULL;
	if (!cap_id && fk.be->event_create(fk.be->ctx, ref.dev, &ev) == CM_OK &&
	    fk.be->event_record(fk.be->ctx, ref.dev, ev, ref.h) != CM_OK) {
		fk.be->event_destroy(fk.be->ctx, ref.dev, ev);
		ev = NULL;
		fk_wait_point(&ref); /* no event: the host waits instead */
	}
	fk_defer_free(a.dev, a.ptr, a.charge, ev);
	return CUDA_SUCCESS;
}

/* ---- queries ------------------------------------------------------------ */

FK_API CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && (!free_bytes || !total))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r != CUDA_SUCCESS)
		return r;
	int dev = fk_cur_dev();
	pthread_mutex_lock(&fk.lock);
	*free_bytes = fk.limit - fk.used[dev];
	*total = fk.limit;
	pthread_mutex_unlock(&fk.lock);
	*free_bytes = fk_shared_free(dev, *free_bytes);
	return CUDA_SUCCESS;
}

FK_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
	CUresult r = fk_begin();
	fk_alloc a;
	if (r != CUDA_SUCCESS)
		return r;
	if (fk_lookup_range((const void *)dptr, 0, &a) != 1 || a.kind == FK_HOST)
		return CUDA_ERROR_NOT_FOUND;
	if (pbase)
		*pbase = (CUdeviceptr)a.ptr;
	if (psize)
		*psize = a.size;
	return CUDA_SUCCESS;
}

/* One attribute of the allocation a holding ptr (NULL: not CUDA memory,
 * answered with the defaults of cuPointerGetAttributes). */
static CUresult fk_attr(const fk_alloc *a, CUdeviceptr ptr, CUpointer_attribute attr, void *data)
{
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		*(CUcontext *)data = a ? a->ctx : NULL;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned *)data = !a ? 0 : a->kind == FK_HOST ? CU_MEMORYTYPE_HOST
								 : CU_MEMORYTYPE_DEVICE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		*(CUdeviceptr *)data = a ? ptr : 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		*(void **)data = a && (a->kind == FK_HOST || a->kind == FK_MANAGED) ? (void *)ptr
										     : NULL;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(unsigned *)data = a && a->kind == FK_MANAGED;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = a ? a->dev : CU_DEVICE_INVALID;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*(CUdeviceptr *)data = a ? a->ptr : 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(size_t *)data = a ? a->size : 0;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

FK_API CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
	CUresult r = fk_initialized();
	fk_alloc a;
	if (r != CUDA_SUCCESS)
		return r;
	if (!data || fk_lookup_range((const void *)ptr, 0, &a) != 1)
		return CUDA_ERROR_INVALID_VALUE;
	return fk_attr(&a, ptr, attribute, data);
}

FK_API CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
				       void **data, CUdeviceptr ptr)
{
	CUresult r = fk_initialized();
	fk_alloc a;
	if (r != CUDA_SUCCESS)
		return r;
	if (!attributes || !data)
		return CUDA_ERROR_INVALID_VALUE;
	const fk_alloc *found = fk_lookup_range((const void *)ptr, 0, &a) == 1 ? &a : NULL;
	for (unsigned i = 0; i < numAttributes && r == CUDA_SUCCESS; i++)
		r = fk_attr(found, ptr, attributes[i], data[i]);
	return r;
}

/* ---- IPC -----------------------------------------------------------------
 *
 * A handle names the exporter (pid and start time), its device file and the
 * allocation's offset and size in it (sim_mem_file: the device memory of a
 * process under FAKECUDA_SHARED lives in a memfd). Opening maps those bytes
 * from /proc/PID/fd (sim_map_import), as CUDA maps the allocation: the same
 * bytes in both processes. As cuda.h documents: a handle opened again in one
 * context is counted and gives the same pointer; cuIpcCloseMemHandle
 * uncounts, and unmaps at the last close. As the H200 answers (probe.c's
 * ipc.open-*): a handle of the calling process, CUDA_ERROR_INVALID_CONTEXT;
 * bytes that are no handle, CUDA_ERROR_INVALID_VALUE. */

#define FK_IPC_MAGIC 0x3130304350496b66ull /* "fkIPC001" */

typedef struct fk_ipc_handle {
	uint64_t magic;
	int32_t pid, fd;  /* fd: the exporter's device file, -1 without FAKECUDA_SHARED */
	uint64_t start;   /* the exporter's start time, against pid reuse */
	uint64_t offset, size;
} fk_ipc_handle;
_Static_assert(sizeof(fk_ipc_handle) <= sizeof(CUipcMemHandle), "an IPC handle holds it");

FK_API CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	if (!pHandle || !dptr)
		return CUDA_ERROR_INVALID_VALUE;
	/* As CUDA: any pointer inside a cuMemAlloc allocation gets the handle
	 * of the whole allocation (the importer maps its start). */
	fk_alloc a;
	if (fk_lookup_range((const void *)dptr, 0, &a) != 1 || a.kind != FK_DEVICE || !a.ctx)
		return CUDA_ERROR_INVALID_VALUE;
	fk_ipc_handle h = { .magic = FK_IPC_MAGIC, .pid = getpid(), .fd = -1,
			    .start = fk_start_time(getpid()), .size = a.size };
	if (!sim_mem_file(fk.s, a.dev, a.ptr, &h.fd, &h.offset))
		h.fd = -1;
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact(a.ptr);
	if (i != SIZE_MAX)
		fk.allocs[i].exported = h.fd >= 0;
	pthread_mutex_unlock(&fk.lock);
	memset(pHandle, 0, sizeof(*pHandle));
	memcpy(pHandle->reserved, &h, sizeof(h));
	return CUDA_SUCCESS;
}

/* The open of h already in this context, counted again: its pointer, or 0. */
static uintptr_t fk_ipc_reopen(const fk_ipc_handle *h)
{
	uintptr_t p = 0;
	CUcontext ctx = fk_cur_ctx();
	pthread_mutex_lock(&fk.lock);
	for (size_t i = 0; i < fk.nallocs && !p; i++) {
		fk_alloc *a = &fk.allocs[i];
		if (a->kind == FK_IPC && a->ctx == ctx && a->ipc_pid == h->pid &&
		    a->ipc_offset == h->offset) {
			a->ipc_opens++;
			p = a->ptr;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return p;
}

static CUresult fk_ipc_map(const fk_ipc_handle *h, uintptr_t *out)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/fd/%d", h->pid, h->fd);
	int fd = h->fd < 0 || fk_start_time(h->pid) != h->start ? -1 : open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return CUDA_ERROR_INVALID_VALUE; /* the exporter is gone */
	cm_status st = sim_map_import(fk.s, fd, h->offset, h->size, out);
	close(fd);
	if (st != CM_OK)
		return CUDA_ERROR_MAP_FAILED;
	fk_alloc a = { .ptr = *out, .size = h->size, .dev = fk_cur_dev(), .ctx = fk_cur_ctx(),
		       .kind = FK_IPC, .ipc_pid = h->pid, .ipc_offset = h->offset, .ipc_opens = 1 };
	pthread_mutex_lock(&fk.lock);
	bool ok = fk_insert(&a);
	pthread_mutex_unlock(&fk.lock);
	if (!ok)
		sim_unmap_import(fk.s, *out);
	return ok ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

FK_API CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	fk_ipc_handle h;
	memcpy(&h, handle.reserved, sizeof(h));
	if (!pdptr || (Flags & ~(unsigned)CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) || h.magic != FK_IPC_MAGIC)
		return CUDA_ERROR_INVALID_VALUE;
	if (h.pid == getpid())
		return CUDA_ERROR_INVALID_CONTEXT;
	uintptr_t p = fk_ipc_reopen(&h);
	r = p ? CUDA_SUCCESS : fk_ipc_map(&h, &p);
	if (r == CUDA_SUCCESS)
		*pdptr = (CUdeviceptr)p;
	return r;
}

FK_API CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	fk_alloc a = { 0 };
	pthread_mutex_lock(&fk.lock);
	size_t i = fk_exact((uintptr_t)dptr);
	bool known = i != SIZE_MAX && fk.allocs[i].kind == FK_IPC;
	if (known && --fk.allocs[i].ipc_opens == 0) {
		a = fk.allocs[i];
		fk_remove(i);
	}
	pthread_mutex_unlock(&fk.lock);
	if (a.ptr)
		sim_unmap_import(fk.s, a.ptr);
	return known ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- context reset ------------------------------------------------------ */

/* The device is idle and its frees drained. Frees every device allocation
 * of ctx; pinned host memory stays (programs may still hold it). */
void fk_mem_reset_ctx(CUcontext ctx)
{
	for (;;) {
		fk_alloc a;
		bool found = false;
		pthread_mutex_lock(&fk.lock);
		for (size_t i = 0; i < fk.nallocs; i++) {
			if (fk.allocs[i].ctx == ctx) {
				a = fk.allocs[i];
				fk_remove(i);
				if (a.pool)
					fk_pool_uncharge_locked(a.pool, a.charge);
				found = true;
				break;
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (!found)
			break;
		/* Pinned memory goes with its context; registered memory is the
		 * program's again (on an H200 cudaFreeHost of a pinned buffer
		 * held across cudaDeviceReset answered cudaErrorInvalidValue:
		 * scripts/gpu/probe_freehost.c, 2026-12-01). */
		if (a.kind == FK_HOST) {
			if (!a.registered)
				free((void *)a.ptr);
			continue;
		}
		if (a.kind == FK_IPC) {
			sim_unmap_import(fk.s, a.ptr);
			continue;
		}
		fk.be->mem_free(fk.be->ctx, a.dev, a.ptr);
		pthread_mutex_lock(&fk.lock);
		fk.used[a.dev] -= a.charge;
		pthread_mutex_unlock(&fk.lock);
		fk_shared_uncharge(a.dev, a.charge);
	}
}

/* ---- virtual memory management (the sim's, 2 MiB granularity) -----------
 *
 * As NVIDIA documents the VMM calls: sizes and addresses are multiples of
 * the granularity (else CUDA_ERROR_INVALID_VALUE); cuMemCreate takes device
 * memory, counted in cuMemGetInfo like cuMemAlloc's (CUDA_ERROR_OUT_OF_MEMORY
 * past the capacity); cuMemMap maps a whole handle inside a reservation,
 * with no access until cuMemSetAccess (read-write; other flags refused);
 * cuMemUnmap takes whole mappings only; cuMemRelease of a mapped handle
 * succeeds and its memory is freed at its last unmap, so it stays counted
 * until then; cuMemAddressFree of a range still mapped is refused. */

/* The VMM calls name no context (NVIDIA documents no context error for
 * them: probe_driver's vmm.no-context.* asks): they need cuInit only, and
 * are refused while the current context is a destroyed one, as the H200
 * refuses cuMemFree then (primary.reset.free-old; vmm.context-end.* asks). */
static CUresult fk_vmm_begin(void)
{
	CUresult r = fk_initialized();
	return r == CUDA_SUCCESS && fk_cur_ctx() ? fk_begin() : r;
}

static CUresult fk_vmm_status(cm_status st)
{
	return fk_status(st, CUDA_ERROR_INVALID_VALUE);
}

/* vlock held: fk.used follows the sim's physical memory of each device
 * (a release or an unmap may have freed some). */
static void fk_vmm_settle(void)
{
	for (int d = 0; d < fk.ndev; d++) {
		size_t now = sim_vmm_physical_bytes(fk.s, d);
		pthread_mutex_lock(&fk.lock);
		size_t gone = fk.vmm[d] - now;
		fk.used[d] -= gone;
		fk.vmm[d] = now;
		pthread_mutex_unlock(&fk.lock);
		fk_shared_uncharge(d, gone);
	}
}

/* The device a pinned device-memory property names, or -1. */
static int fk_prop_dev(const CUmemAllocationProp *prop)
{
	if (!prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE || prop->location.id < 0 ||
	    prop->location.id >= fk.ndev)
		return -1;
	return prop->location.id;
}

FK_API CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
					      CUmemAllocationGranularity_flags option)
{
	(void)option; /* minimum and recommended are the same here */
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	int dev = fk_prop_dev(prop);
	if (!granularity || dev < 0)
		return CUDA_ERROR_INVALID_VALUE;
	return fk_vmm_status(sim_granularity(fk.s, dev, granularity));
}

FK_API CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
				    CUdeviceptr addr, unsigned long long flags)
{
	(void)addr; /* a hint */
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	if (!ptr || flags || (alignment & (alignment - 1)) || alignment > FK_GRAN)
		return CUDA_ERROR_INVALID_VALUE;
	uintptr_t va = 0;
	r = fk_vmm_status(fk.be->vmm_reserve(fk.be->ctx, fk_cur_dev(), size, &va));
	if (r == CUDA_SUCCESS)
		*ptr = (CUdeviceptr)va;
	return r;
}

FK_API CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	return fk_vmm_status(fk.be->vmm_release(fk.be->ctx, fk_cur_dev(), (uintptr_t)ptr, size));
}

FK_API CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
			    const CUmemAllocationProp *prop, unsigned long long flags)
{
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	int dev = fk_prop_dev(prop);
	if (!handle || flags || dev < 0 || !size || size % FK_GRAN)
		return CUDA_ERROR_INVALID_VALUE;
	cm_mem_handle h = 0;
	pthread_mutex_lock(&fk.vlock);
	pthread_mutex_lock(&fk.lock);
	bool fits = size <= fk.limit - fk.used[dev];
	pthread_mutex_unlock(&fk.lock);
	fits = fits && fk_shared_charge(dev, size);
	r = fits ? fk_vmm_status(fk.be->vmm_create(fk.be->ctx, dev, size, &h))
		 : CUDA_ERROR_OUT_OF_MEMORY;
	if (fits && r != CUDA_SUCCESS)
		fk_shared_uncharge(dev, size);
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&fk.lock);
		fk.used[dev] += size;
		fk.vmm[dev] += size;
		pthread_mutex_unlock(&fk.lock);
		*handle = (CUmemGenericAllocationHandle)h;
	}
	pthread_mutex_unlock(&fk.vlock);
	return r;
}

/* The sim knows each handle's device; the call does not name it. */
FK_API CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
	FK_FAIL("cuMemRelease");
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&fk.vlock);
	for (int d = 0; d < fk.ndev && r != CUDA_SUCCESS; d++)
		if (fk.be->vmm_destroy(fk.be->ctx, d, (cm_mem_handle)handle) == CM_OK)
			r = CUDA_SUCCESS;
	fk_vmm_settle();
	pthread_mutex_unlock(&fk.vlock);
	return r;
}

FK_API CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
			 CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	if (offset || flags)
		return CUDA_ERROR_INVALID_VALUE;
	for (int d = 0; d < fk.ndev; d++)
		if (fk.be->vmm_map(fk.be->ctx, d, (uintptr_t)ptr, size, (cm_mem_handle)handle) ==
		    CM_OK)
			return CUDA_SUCCESS;
	return CUDA_ERROR_INVALID_VALUE;
}

FK_API CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	FK_FAIL("cuMemUnmap");
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.vlock);
	r = fk_vmm_status(fk.be->vmm_unmap(fk.be->ctx, fk_cur_dev(), (uintptr_t)ptr, size));
	fk_vmm_settle();
	pthread_mutex_unlock(&fk.vlock);
	return r;
}

FK_API CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc,
			       size_t count)
{
	CUresult r = fk_vmm_begin();
	if (r != CUDA_SUCCESS)
		return r;
	if (!desc || count == 0)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < count; i++) {
		if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
		    desc[i].location.id < 0 || desc[i].location.id >= fk.ndev)
			return CUDA_ERROR_INVALID_DEVICE;
		if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			return CUDA_ERROR_INVALID_VALUE; /* the sim has no read-only mapping */
	}
	return fk_vmm_status(fk.be->vmm_set_access(fk.be->ctx, desc[0].location.id,
						   (uintptr_t)ptr, size));
}

/* ---- usage at exit (tests/integration/run_mode.py) -----------------------
 *
 * With FAKECUDA_USAGE_AT_EXIT=PATH, the device memory this process still
 * holds at exit (fk.used, VMM physical memory included) is written to PATH
 * as JSON, so that a test can compare it with what the cache says it
 * reserves: memory the cache lost track of shows as a difference. Not in a
 * fork child, nor before cuInit. */

__attribute__((destructor)) static void fk_usage_at_exit(void)
{
	const char *path = secure_getenv("FAKECUDA_USAGE_AT_EXIT");
	if (!path || !*path || fk_initialized() != CUDA_SUCCESS)
		return;
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	size_t used = 0, vmm = 0;
	for (int d = 0; d < fk.ndev; d++) {
		used += fk.used[d];
		vmm += fk.vmm[d];
	}
	fprintf(f, "{\"used_bytes\": %zu, \"vmm_bytes\": %zu, \"pending_frees\": %s, "
		"\"injected_faults\": %lu}\n", used, vmm, fk_frees_pending() ? "true" : "false",
		fk_faults_injected());
	fclose(f);
}
