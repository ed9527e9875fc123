/* prog_race_driver_host: pinned host memory and pitch on the driver API,
 * reached by the linked symbols and by cuGetProcAddress (the runtime's
 * way), each in half the rounds.
 *
 * The race: pinned p (cuMemHostAlloc) is filled with 1; stream A runs a
 * host function that sleeps INTEG_SLOW_MS and then cuMemcpyHtoDAsync
 * copies p to device memory d; p is freed with cuMemFreeHost (legal: it
 * waits for the copy), q allocated alike and filled with 2 by the host at
 * once. After cuCtxSynchronize d must read 1 (a cache handing p out as q
 * before the copy ran would deliver 2s). Also: cuMemAllocPitch's pitch for
 * element sizes 4, 8 and 16 is the H200's (fakecu_pitch.h) and other sizes
 * are CUDA_ERROR_INVALID_VALUE; cuMemHostGetFlags and cuPointerGetAttribute
 * answer for a block allocated again as for the fresh one; a double free
 * is CUDA_ERROR_INVALID_VALUE; cuMemGetAddressRange inside a pitched block
 * gives the block. Linked with -lcuda; on a GPU:
 * `cc -I/usr/local/cuda/include prog_race_driver_host.c -lcuda`.
 */
#include "driver.h"

#include "../fakecuda/fakecu_pitch.h"
#include "../fnptr.h"

typedef struct host_api {
	__typeof__(&cuMemHostAlloc) host_alloc;
	__typeof__(&cuMemFreeHost) free_host;
	__typeof__(&cuMemAllocHost) alloc_host;
	__typeof__(&cuMemAllocPitch) alloc_pitch;
} host_api;

static void *procaddr(const char *name)
{
	void *fn = NULL;
	CUdriverProcAddressQueryResult q;
	DCHECK(cuGetProcAddress(name, &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
	return fn;
}

static void race_round(const drv *d, const host_api *api, CUstream a, size_t n, unsigned flags,
		       int r, int *reused)
{
	void *p = NULL, *q = NULL;
	CUdeviceptr dev = 0;
	char what[160];

	DCHECK(d->cuMemAlloc(&dev, n));
	DCHECK(api->host_alloc(&p, n, flags));
	memset(p, 1, n);
	DCHECK(d->cuLaunchHostFunc(a, drv_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	DCHECK(cuMemcpyHtoDAsync(dev, p, n, a));
	DCHECK(api->free_host(p));
	DCHECK(api->host_alloc(&q, n, flags));
	memset(q, 2, n);
	DCHECK(d->cuCtxSynchronize());
	*reused += p == q;
	snprintf(what, sizeof(what), "race_driver_host, %zu bytes, flags %u, round %d (q %s p)", n,
		 flags, r, p == q ? "==" : "!=");
	drv_check(d, dev, n, 1, what);
	printf("%s\n", what);
	DCHECK(api->free_host(q));
	DCHECK(d->cuMemFree(dev));
}

static void pitch_and_queries(const drv *d, const host_api *api)
{
	static const unsigned elements[] = { 4, 8, 16 };
	for (size_t i = 0; i < sizeof(fk_pitch_h200) / sizeof(fk_pitch_h200[0]); i++)
		for (size_t e = 0; e < 3; e++) {
			CUdeviceptr p = 0;
			size_t pitch = 0, w = fk_pitch_h200[i].width;
			DCHECK(api->alloc_pitch(&p, &pitch, w, 4, elements[e]));
			if (pitch != fk_pitch_h200[i].pitch)
				FAIL("cuMemAllocPitch(width %zu, element %u): expected pitch %zu, got %zu",
				     w, elements[e], fk_pitch_h200[i].pitch, pitch);
			DCHECK(d->cuMemsetD8(p, 0x31, pitch * 4));
			drv_check(d, p, pitch * 4, 0x31, "pitched block");
			DCHECK(d->cuMemFree(p));
		}
	/* The range of a pointer inside the second of two live pitched blocks
	 * is that block (under the cache: not its segment). */
	CUdeviceptr p = 0, p2 = 0, base = 0;
	size_t pitch = 0, size = 0;
	DCHECK(api->alloc_pitch(&p, &pitch, 1000, 8, 4));
	DCHECK(api->alloc_pitch(&p2, &pitch, 1000, 8, 4));
	DCHECK(cuMemGetAddressRange(&base, &size, p2 + 100));
	if (base != p2 || size < pitch * 8)
		FAIL("cuMemGetAddressRange(pitched block + 100): expected base %#llx and at least %zu "
		     "bytes, got %#llx and %zu", (unsigned long long)p2, pitch * 8,
		     (unsigned long long)base, size);
	DCHECK(d->cuMemFree(p2));
	DCHECK(d->cuMemFree(p));
	DEXPECT(api->alloc_pitch(&p, &pitch, 64, 4, 2), CUDA_ERROR_INVALID_VALUE);
	DEXPECT(api->alloc_pitch(&p, &pitch, 64, 4, 32), CUDA_ERROR_INVALID_VALUE);

	for (unsigned flags = 0; flags < 8; flags++) {
		void *h = NULL;
		unsigned fresh = 0, again = 0;
		CUresult fresh_r, again_r;
		int type_fresh = 0, type_again = 0;
		DCHECK(api->host_alloc(&h, 64 << 10, flags));
		fresh_r = cuMemHostGetFlags(&fresh, h);
		DCHECK(cuPointerGetAttribute(&type_fresh, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					     (CUdeviceptr)(uintptr_t)h));
		DCHECK(api->free_host(h));
		DEXPECT(api->free_host(h), CUDA_ERROR_INVALID_VALUE); /* a double free */
		DCHECK(api->host_alloc(&h, 64 << 10, flags));
		again_r = cuMemHostGetFlags(&again, h);
		DCHECK(cuPointerGetAttribute(&type_again, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					     (CUdeviceptr)(uintptr_t)h));
		if (fresh_r != again_r || fresh != again || type_fresh != type_again ||
		    type_fresh != CU_MEMORYTYPE_HOST)
			FAIL("flags %u: fresh block %d/%#x/type %d, again %d/%#x/type %d", flags,
			     (int)fresh_r, fresh, type_fresh, (int)again_r, again, type_again);
		DCHECK(api->free_host(h));
	}
	void *h = NULL;
	DCHECK(api->alloc_host(&h, 4096));
	DCHECK(api->free_host(h));
}

int main(void)
{
	static const size_t sizes[] = { 4096, INTEG_MIB, 8 * INTEG_MIB };
	drv d = DRV_LINKED;
	CUstream a;
	int reused = 0, total = 0;

	drv_start(&d);
	DCHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	host_api linked = { cuMemHostAlloc, cuMemFreeHost, cuMemAllocHost, cuMemAllocPitch };
	host_api looked_up = {
		(__typeof__(&cuMemHostAlloc))fn_of(procaddr("cuMemHostAlloc")),
		(__typeof__(&cuMemFreeHost))fn_of(procaddr("cuMemFreeHost")),
		(__typeof__(&cuMemAllocHost))fn_of(procaddr("cuMemAllocHost")),
		(__typeof__(&cuMemAllocPitch))fn_of(procaddr("cuMemAllocPitch")),
	};
	const host_api *apis[] = { &linked, &looked_up };
	for (int k = 0; k < 2; k++) {
		pitch_and_queries(&d, apis[k]);
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
			for (int r = 0; r < 2; r++, total++)
				race_round(&d, apis[k], a, sizes[si], r ? CU_MEMHOSTALLOC_PORTABLE : 0,
					   r, &reused);
	}
	DCHECK(cuStreamDestroy(a));
	printf("race_driver_host: q == p in %d of %d rounds\n", reused, total);
	return integ_report("race_driver_host");
}
