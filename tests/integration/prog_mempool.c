/* prog_mempool: the device's default memory pool as CUDA documents it, at
 * the runtime and driver levels (issue 32).
 *
 * Plain, the pool is CUDA's; under the library cudaMallocAsync is served by
 * the cache, and the default pool must answer for it: after an allocation
 * of N bytes its used memory is at least N higher and its reserved memory
 * at least the used; after the free the used memory is N lower and the
 * pool still holds the memory until a synchronization or a trim;
 * cudaMemPoolTrimTo(pool, 0) then gives it back (reserved 0: nothing is
 * live); a high watermark set to 0 is the current value from then on (any
 * other value is refused); a release threshold set is the one read back
 * and applies at the next synchronization. An explicit pool
 * (cudaMemPoolCreate, cudaMallocFromPoolAsync) is CUDA's, with or without
 * the library: its allocation counts in it and not in the default pool.
 * The driver's functions are checked too, reached by the linked symbol,
 * dlsym and cuGetProcAddress. With two devices (meson.build runs it with
 * FAKECUDA_DEVICES=2), another device's default pool answers for that
 * device's memory.
 */
#include <cuda.h>

#include "common.h"

#include <dlfcn.h>
#include "../fnptr.h"

#define N (64 * INTEG_MIB)

static uint64_t attr(cudaMemPool_t pool, enum cudaMemPoolAttr a)
{
	uint64_t v = 0;
	CHECK(cudaMemPoolGetAttribute(pool, a, &v));
	return v;
}

static void set_attr(cudaMemPool_t pool, enum cudaMemPoolAttr a, uint64_t v)
{
	CHECK(cudaMemPoolSetAttribute(pool, a, &v));
}

#define USED(p) attr(p, cudaMemPoolAttrUsedMemCurrent)
#define RESERVED(p) attr(p, cudaMemPoolAttrReservedMemCurrent)

static void runtime_default_pool(void)
{
	cudaMemPool_t pool;
	void *p = NULL;
	CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
	uint64_t used0 = USED(pool);

	CHECK(cudaMallocAsync(&p, N, 0));
	uint64_t used = USED(pool), reserved = RESERVED(pool);
	printf("mempool: after cudaMallocAsync of %zu: used %llu, reserved %llu\n", (size_t)N,
	       (unsigned long long)used, (unsigned long long)reserved);
	if (used < used0 + N)
		FAIL("UsedMemCurrent after cudaMallocAsync(%zu): expected >= %llu, got %llu",
		     (size_t)N, (unsigned long long)(used0 + N), (unsigned long long)used);
	if (reserved < used)
		FAIL("ReservedMemCurrent %llu below UsedMemCurrent %llu", (unsigned long long)reserved,
		     (unsigned long long)used);
	if (attr(pool, cudaMemPoolAttrUsedMemHigh) < used)
		FAIL("UsedMemHigh below UsedMemCurrent");
	if (attr(pool, cudaMemPoolAttrReservedMemHigh) < reserved)
		FAIL("ReservedMemHigh below ReservedMemCurrent");

	CHECK(cudaFreeAsync(p, 0));
	uint64_t used_after = USED(pool), held = RESERVED(pool);
	printf("mempool: after cudaFreeAsync: used %llu, reserved %llu\n",
	       (unsigned long long)used_after, (unsigned long long)held);
	if (used_after + N > used)
		FAIL("UsedMemCurrent after the free: expected at least %zu below %llu, got %llu",
		     (size_t)N, (unsigned long long)used, (unsigned long long)used_after);
	if (held < N)
		FAIL("ReservedMemCurrent after the free, before any synchronization: expected "
		     ">= %zu (the pool holds it), got %llu", (size_t)N, (unsigned long long)held);

	/* High watermarks: 0 resets them to the current value; nothing else. */
	set_attr(pool, cudaMemPoolAttrUsedMemHigh, 0);
	if (attr(pool, cudaMemPoolAttrUsedMemHigh) != USED(pool))
		FAIL("UsedMemHigh after its reset: expected the current %llu, got %llu",
		     (unsigned long long)USED(pool),
		     (unsigned long long)attr(pool, cudaMemPoolAttrUsedMemHigh));
	set_attr(pool, cudaMemPoolAttrReservedMemHigh, 0);
	if (attr(pool, cudaMemPoolAttrReservedMemHigh) != RESERVED(pool))
		FAIL("ReservedMemHigh after its reset: expected the current %llu, got %llu",
		     (unsigned long long)RESERVED(pool),
		     (unsigned long long)attr(pool, cudaMemPoolAttrReservedMemHigh));
	uint64_t one = 1;
	EXPECT_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one),
		   cudaErrorInvalidValue);
	EXPECT_ERR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &one),
		   cudaErrorInvalidValue);
	int reuse = 0;
	CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse));
	if (reuse != 1)
		FAIL("cudaMemPoolReuseAllowOpportunistic: expected 1 (default), got %d", reuse);

	/* A trim gives back everything no live allocation needs. */
	CHECK(cudaMemPoolTrimTo(pool, 0));
	CHECK(cudaDeviceSynchronize());
	uint64_t trimmed = RESERVED(pool);
	printf("mempool: after cudaMemPoolTrimTo(pool, 0): reserved %llu\n",
	       (unsigned long long)trimmed);
	if (trimmed != 0)
		FAIL("ReservedMemCurrent after cudaMemPoolTrimTo(pool, 0) with nothing live: "
		     "expected 0, got %llu", (unsigned long long)trimmed);
	if (attr(pool, cudaMemPoolAttrReservedMemHigh) < N)
		FAIL("ReservedMemHigh fell with the trim");

	/* The release threshold read back, and applied at a synchronization. */
	set_attr(pool, cudaMemPoolAttrReleaseThreshold, 32 * INTEG_MIB);
	if (attr(pool, cudaMemPoolAttrReleaseThreshold) != 32 * INTEG_MIB)
		FAIL("ReleaseThreshold: expected %zu, got %llu", 32 * INTEG_MIB,
		     (unsigned long long)attr(pool, cudaMemPoolAttrReleaseThreshold));
	CHECK(cudaMallocAsync(&p, N, 0));
	CHECK(cudaFreeAsync(p, 0));
	CHECK(cudaDeviceSynchronize());
	if (RESERVED(pool) > 32 * INTEG_MIB)
		FAIL("ReservedMemCurrent after a synchronization, threshold 32 MiB: got %llu",
		     (unsigned long long)RESERVED(pool));
	set_attr(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
	if (attr(pool, cudaMemPoolAttrReleaseThreshold) != UINT64_MAX)
		FAIL("ReleaseThreshold: expected UINT64_MAX, got %llu",
		     (unsigned long long)attr(pool, cudaMemPoolAttrReleaseThreshold));
	CHECK(cudaMallocAsync(&p, N, 0));
	CHECK(cudaFreeAsync(p, 0));
	CHECK(cudaDeviceSynchronize());
	if (RESERVED(pool) < N)
		FAIL("ReservedMemCurrent after a synchronization, threshold UINT64_MAX: expected "
		     ">= %zu, got %llu", (size_t)N, (unsigned long long)RESERVED(pool));
	CHECK(cudaMemPoolTrimTo(pool, 0));
	if (RESERVED(pool) != 0)
		FAIL("ReservedMemCurrent after the second trim: expected 0, got %llu",
		     (unsigned long long)RESERVED(pool));
	EXPECT_ERR(cudaMemPoolDestroy(pool), cudaErrorInvalidValue);
}

static void runtime_explicit_pool(void)
{
	cudaMemPool_t dflt, pool;
	struct cudaMemPoolProps props;
	void *q = NULL;
	memset(&props, 0, sizeof(props));
	props.allocType = cudaMemAllocationTypePinned;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	CHECK(cudaDeviceGetDefaultMemPool(&dflt, 0));
	CHECK(cudaMemPoolCreate(&pool, &props));
	if (pool == dflt)
		FAIL("cudaMemPoolCreate returned the default pool");
	uint64_t dflt_used = USED(dflt);
	if (USED(pool) != 0 || RESERVED(pool) != 0)
		FAIL("a new pool: expected nothing used or reserved, got %llu and %llu",
		     (unsigned long long)USED(pool), (unsigned long long)RESERVED(pool));
	CHECK(cudaMallocFromPoolAsync(&q, N, pool, 0));
	CHECK(cudaMemsetAsync(q, 3, N, 0));
	if (USED(pool) < N || RESERVED(pool) < USED(pool))
		FAIL("explicit pool after cudaMallocFromPoolAsync(%zu): used %llu, reserved %llu",
		     (size_t)N, (unsigned long long)USED(pool), (unsigned long long)RESERVED(pool));
	if (USED(dflt) != dflt_used)
		FAIL("the default pool's UsedMemCurrent moved with an explicit pool's allocation: "
		     "%llu -> %llu", (unsigned long long)dflt_used, (unsigned long long)USED(dflt));
	if (attr(pool, cudaMemPoolAttrReleaseThreshold) != 0)
		FAIL("explicit pool: ReleaseThreshold expected 0 (CUDA's default), got %llu",
		     (unsigned long long)attr(pool, cudaMemPoolAttrReleaseThreshold));
	CHECK(cudaFreeAsync(q, 0));
	CHECK(cudaStreamSynchronize(0));
	CHECK(cudaMemPoolTrimTo(pool, 0));
	if (USED(pool) != 0 || RESERVED(pool) != 0)
		FAIL("explicit pool after the free and a trim: used %llu, reserved %llu",
		     (unsigned long long)USED(pool), (unsigned long long)RESERVED(pool));
	CHECK(cudaMemPoolDestroy(pool));
	uint64_t v;
	EXPECT_ERR(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v),
		   cudaErrorInvalidValue);
}

typedef CUresult (*get_attr_fn)(CUmemoryPool, CUmemPool_attribute, void *);

static uint64_t cu_used(get_attr_fn get, CUmemoryPool pool)
{
	uint64_t v = 0;
	CU_CHECK(get(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
	return v;
}

static void driver_default_pool(void)
{
	CUmemoryPool pool;
	CUdeviceptr p = 0;
	CUdriverProcAddressQueryResult st;
	get_attr_fn linked = cuMemPoolGetAttribute, by_dlsym, by_gpa = NULL;
	CU_CHECK(cuDeviceGetDefaultMemPool(&pool, 0));
	by_dlsym = (get_attr_fn)fn_of(dlsym(RTLD_DEFAULT, "cuMemPoolGetAttribute"));
	CU_CHECK(cuGetProcAddress("cuMemPoolGetAttribute", (void **)&by_gpa, CUDA_VERSION, 0, &st));
	if (!by_dlsym || !by_gpa) {
		FAIL("cuMemPoolGetAttribute not found: dlsym %p, cuGetProcAddress %p",
		     PTR_OF(by_dlsym), PTR_OF(by_gpa));
		return;
	}
	uint64_t used0 = cu_used(linked, pool);
	CU_CHECK(cuMemAllocAsync(&p, N, 0));
	get_attr_fn ways[] = { linked, by_dlsym, by_gpa };
	const char *names[] = { "linked", "dlsym", "cuGetProcAddress" };
	for (int i = 0; i < 3; i++)
		if (cu_used(ways[i], pool) < used0 + N)
			FAIL("cuMemPoolGetAttribute (%s): USED_MEM_CURRENT after cuMemAllocAsync(%zu): "
			     "expected >= %llu, got %llu", names[i], (size_t)N,
			     (unsigned long long)(used0 + N), (unsigned long long)cu_used(ways[i], pool));
	uint64_t reserved = 0, zero = 0;
	CU_CHECK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved));
	if (reserved < cu_used(linked, pool))
		FAIL("driver: RESERVED_MEM_CURRENT %llu below USED_MEM_CURRENT",
		     (unsigned long long)reserved);
	CU_CHECK(cuMemFreeAsync(p, 0));
	CU_CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero));
	uint64_t high = 0;
	CU_CHECK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &high));
	if (high != cu_used(linked, pool))
		FAIL("driver: USED_MEM_HIGH after its reset: expected %llu, got %llu",
		     (unsigned long long)cu_used(linked, pool), (unsigned long long)high);
	/* A trim gives back only what completed frees left (on an H100 a
	 * trim before this synchronization kept the 64 MiB). */
	CU_CHECK(cuCtxSynchronize());
	CU_CHECK(cuMemPoolTrimTo(pool, 0));
	CU_CHECK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved));
	printf("mempool: driver, after cuMemPoolTrimTo(pool, 0): reserved %llu\n",
	       (unsigned long long)reserved);
	if (reserved != 0)
		FAIL("driver: RESERVED_MEM_CURRENT after cuMemPoolTrimTo(pool, 0): expected 0, got %llu",
		     (unsigned long long)reserved);
}

/* With two devices (FAKECUDA_DEVICES=2): device 1's default pool answers
 * for device 1's memory, asked from device 0 as well, and device 0's pool
 * does not count it. */
static void second_device(void)
{
	int n = 0;
	cudaMemPool_t pool0, pool1;
	void *p = NULL;
	CHECK(cudaGetDeviceCount(&n));
	if (n < 2)
		return;
	CHECK(cudaDeviceGetDefaultMemPool(&pool0, 0));
	CHECK(cudaDeviceGetDefaultMemPool(&pool1, 1));
	if (pool0 == pool1)
		FAIL("devices 0 and 1 have the same default pool");
	uint64_t used0 = USED(pool0);
	CHECK(cudaSetDevice(1));
	uint64_t used1 = USED(pool1);
	CHECK(cudaMallocAsync(&p, N, 0));
	CHECK(cudaSetDevice(0));
	if (USED(pool1) < used1 + N)
		FAIL("device 1's UsedMemCurrent, asked from device 0, after cudaMallocAsync(%zu) on "
		     "device 1: expected >= %llu, got %llu", (size_t)N,
		     (unsigned long long)(used1 + N), (unsigned long long)USED(pool1));
	if (USED(pool0) != used0)
		FAIL("device 0's UsedMemCurrent moved with device 1's allocation: %llu -> %llu",
		     (unsigned long long)used0, (unsigned long long)USED(pool0));
	/* The free completed (a synchronization that keeps it all), then the
	 * trim from device 0: a trim gives back only what completed frees left
	 * (probe-h200-driver.txt, pool.trim-at-once.reserved). */
	uint64_t keep_all = UINT64_MAX;
	CHECK(cudaMemPoolSetAttribute(pool1, cudaMemPoolAttrReleaseThreshold, &keep_all));
	CHECK(cudaSetDevice(1));
	CHECK(cudaFreeAsync(p, 0));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaSetDevice(0));
	if (RESERVED(pool1) < N)
		FAIL("device 1's ReservedMemCurrent after the free and a synchronization that keeps "
		     "all: expected >= %zu, got %llu", (size_t)N, (unsigned long long)RESERVED(pool1));
	CHECK(cudaMemPoolTrimTo(pool1, 0));
	if (RESERVED(pool1) != 0)
		FAIL("device 1's ReservedMemCurrent after its trim, asked from device 0: expected 0, "
		     "got %llu", (unsigned long long)RESERVED(pool1));
	printf("mempool: device 1's pool answered from device 0\n");
}

int main(void)
{
	CHECK(cudaFree(NULL));
	runtime_default_pool();
	runtime_explicit_pool();
	driver_default_pool();
	second_device();
	return integ_report("mempool");
}
