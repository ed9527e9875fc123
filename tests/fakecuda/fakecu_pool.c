/* tests/fakecuda/fakecu_pool.c - memory pools of the fake CUDA driver.
 *
 * As NVIDIA documents them (cuda.h, "Stream Ordered Memory Allocator"):
 * each device has a default pool (cuDeviceGetDefaultMemPool), which
 * cuMemAllocAsync allocates from (the fake has no cuDeviceSetMemPool, so
 * it is always the device's current pool); cuMemPoolCreate makes others,
 * of device memory (CU_MEM_ALLOCATION_TYPE_PINNED on a
 * CU_MEM_LOCATION_TYPE_DEVICE location; host pools are not modelled:
 * CUDA_ERROR_NOT_SUPPORTED), which cuMemAllocFromPoolAsync allocates
 * from and cuMemPoolDestroy destroys (a default pool cannot be destroyed:
 * CUDA_ERROR_INVALID_VALUE; a destroyed handle is CUDA_ERROR_INVALID_VALUE
 * from then on).
 *
 * Attributes (cuMemPoolGetAttribute / SetAttribute): the three REUSE_*
 * (int, default 1) and RELEASE_THRESHOLD (cuuint64_t, default 0) are read
 * and written; USED_MEM_CURRENT and RESERVED_MEM_CURRENT are read only;
 * USED_MEM_HIGH and RESERVED_MEM_HIGH are read, and set only to 0, which
 * resets them to the current value. Anything else is
 * CUDA_ERROR_INVALID_VALUE.
 *
 * Accounting: an allocation adds its charge (fakecu_mem.c's rounding) to
 * used, and to reserved where the memory its frees left the pool holding
 * does not cover it; a free takes it from used only, so the pool holds it
 * (reserved) until a stream, event or context synchronization of its
 * device finds more than the release threshold reserved, or a trim
 * (cuMemPoolTrimTo: reserved down to the bytes asked, never below used
 * nor the frees since the device's last synchronization, which a trim does
 * not wait for: probe-h200-driver.txt, pool.trim-at-once.reserved kept, an
 * H100). The memory itself goes back to the
 * sim at the free, as before (fakecu.c's deferred frees): the fake models
 * what the pool reports, not its reuse. Not measured on an H200: the
 * granularity at which NVIDIA's pools reserve (the fake reserves what it
 * charges).
 */
#include "fakecu_internal.h"

#include <stdlib.h>

static void fk_pool_init(CUmemoryPool p, int dev, bool dflt)
{
	*p = (struct CUmemPoolHandle_st){ .dev = dev, .dflt = dflt, .live = true,
					  .reuse = { 1, 1, 1 } };
}

/* fk.lock held. */
static CUmemoryPool fk_pool_default_locked(int dev)
{
	CUmemoryPool p = &fk.dpool[dev];
	if (!p->live)
		fk_pool_init(p, dev, true);
	return p;
}

CUmemoryPool fk_pool_default(int dev)
{
	pthread_mutex_lock(&fk.lock);
	CUmemoryPool p = fk_pool_default_locked(dev);
	pthread_mutex_unlock(&fk.lock);
	return p;
}

bool fk_pool_valid_locked(CUmemoryPool p)
{
	if (!p)
		return false;
	for (int dev = 0; dev < fk.ndev; dev++)
		if (p == &fk.dpool[dev]) {
			fk_pool_default_locked(dev);
			return true;
		}
	for (CUmemoryPool q = fk.pools; q; q = q->next)
		if (q == p)
			return q->live;
	return false;
}

void fk_pool_charge_locked(CUmemoryPool p, size_t charge)
{
	p->used += charge;
	if (p->used > p->reserved)
		p->reserved = p->used;
	if (p->used > p->used_high)
		p->used_high = p->used;
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
}

void fk_pool_uncharge_locked(CUmemoryPool p, size_t charge)
{
	charge = charge < p->used ? charge : p->used;
	p->used -= charge;
	p->unsynced += charge;
}

/* fk.lock held: gives back what p holds above keep, never below used nor
 * what frees the host has not seen complete left it (unsynced). */
static void fk_pool_release_locked(CUmemoryPool p, uint64_t keep)
{
	uint64_t floor = p->used + p->unsynced;
	if (p->reserved > keep)
		p->reserved = keep > floor ? keep : floor;
}

void fk_pools_synced(int dev)
{
	if (!fk_device_valid(dev))
		return;
	pthread_mutex_lock(&fk.lock);
	CUmemoryPool d = fk_pool_default_locked(dev);
	d->unsynced = 0;
	fk_pool_release_locked(d, d->threshold);
	for (CUmemoryPool q = fk.pools; q; q = q->next) {
		if (q->dev == dev) {
			q->unsynced = 0;
			fk_pool_release_locked(q, q->threshold);
		}
	}
	pthread_mutex_unlock(&fk.lock);
}

void fk_pool_reset_default(int dev)
{
	pthread_mutex_lock(&fk.lock);
	fk_pool_init(&fk.dpool[dev], dev, true);
	pthread_mutex_unlock(&fk.lock);
}

FK_API CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
	CUresult r = fk_device_arg(pool_out, dev);
	if (r == CUDA_SUCCESS)
		*pool_out = fk_pool_default(dev);
	return r;
}

/* Without cuDeviceSetMemPool the current pool is the default one. */
FK_API CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return cuDeviceGetDefaultMemPool(pool, dev);
}

FK_API CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	if (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
		return CUDA_ERROR_INVALID_VALUE;
	if (props->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_NOT_SUPPORTED; /* host pools: not modelled */
	if (props->location.id < 0 || props->location.id >= fk.ndev)
		return CUDA_ERROR_INVALID_VALUE;
	CUmemoryPool p = malloc(sizeof(*p));
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	fk_pool_init(p, props->location.id, false);
	pthread_mutex_lock(&fk.lock);
	p->next = fk.pools;
	fk.pools = p;
	pthread_mutex_unlock(&fk.lock);
	*pool = p;
	return CUDA_SUCCESS;
}

FK_API CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	if (!fk_pool_valid_locked(pool) || pool->dflt)
		r = CUDA_ERROR_INVALID_VALUE;
	else
		pool->live = false; /* its outstanding allocations stay valid */
	pthread_mutex_unlock(&fk.lock);
	return r;
}

/* The pool's reuse flag that attr names, or NULL for another attribute. */
static int *fk_pool_reuse(CUmemoryPool pool, CUmemPool_attribute attr)
{
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		return &pool->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
	default:
		return NULL;
	}
}

static CUresult fk_pool_get_locked(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	int *reuse = fk_pool_reuse(pool, attr);
	cuuint64_t *v = (cuuint64_t *)value;
	if (reuse) {
		*(int *)value = *reuse;
		return CUDA_SUCCESS;
	}
	switch (attr) {
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		*v = pool->threshold;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
		*v = pool->reserved;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		*v = pool->reserved_high;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		*v = pool->used;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		*v = pool->used_high;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

static CUresult fk_pool_set_locked(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	int *reuse = fk_pool_reuse(pool, attr);
	if (reuse) {
		*reuse = *(int *)value;
		return CUDA_SUCCESS;
	}
	switch (attr) {
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		pool->threshold = *(cuuint64_t *)value;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		if (*(cuuint64_t *)value)
			return CUDA_ERROR_INVALID_VALUE; /* "illegal ... a non-zero value" */
		if (attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH)
			pool->used_high = pool->used;
		else
			pool->reserved_high = pool->reserved;
		break;
	default: /* the current values are read only */
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/* The checks both attribute calls make, then op under the lock. */
static CUresult fk_pool_attr(CUmemoryPool pool, CUmemPool_attribute attr, void *value,
			     CUresult (*op)(CUmemoryPool, CUmemPool_attribute, void *))
{
	CUresult r = fk_out_arg(value);
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	r = fk_pool_valid_locked(pool) ? op(pool, attr, value) : CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&fk.lock);
	return r;
}

FK_API CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	return fk_pool_attr(pool, attr, value, fk_pool_get_locked);
}

FK_API CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
	return fk_pool_attr(pool, attr, value, fk_pool_set_locked);
}

FK_API CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	if (!fk_pool_valid_locked(pool))
		r = CUDA_ERROR_INVALID_VALUE;
	else
		fk_pool_release_locked(pool, minBytesToKeep);
	pthread_mutex_unlock(&fk.lock);
	return r;
}

FK_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
					CUstream hStream)
{
	return pool ? fk_malloc_pool(dptr, bytesize, pool, hStream, false) : CUDA_ERROR_INVALID_VALUE;
}

FK_API CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
					     CUstream hStream)
{
	return pool ? fk_malloc_pool(dptr, bytesize, pool, hStream, true) : CUDA_ERROR_INVALID_VALUE;
}
