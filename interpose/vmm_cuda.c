/* interpose/vmm_cuda.c - the backend's VMM operations over CUDA's driver
 * API (cuMemCreate, cuMemMap, cuMemSetAccess, ...), for expandable
 * segments. The driver is the one the runtime loaded (libcuda.so.1, found
 * with RTLD_NOLOAD); without it, or without one of these functions, the
 * operations stay NULL and the core uses plain segments.
 *
 * Access is granted to the device and to every device that can access it
 * as a peer, so that memory works as cudaMalloc's does with peer access.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdlib.h>

#include "backend_cuda.h"
#include "real.h"

#define CM_VMM_FUNCS(X)                                                                      \
	X(cuMemAddressReserve, (CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long)) \
	X(cuMemAddressFree, (CUdeviceptr, size_t))                                           \
	X(cuMemCreate, (CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,  \
			unsigned long long))                                                 \
	X(cuMemRelease, (CUmemGenericAllocationHandle))                                      \
	X(cuMemMap, (CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,                \
		     unsigned long long))                                                      \
	X(cuMemUnmap, (CUdeviceptr, size_t))                                                   \
	X(cuMemSetAccess, (CUdeviceptr, size_t, const CUmemAccessDesc *, size_t))              \
	X(cuMemGetAllocationGranularity, (size_t *, const CUmemAllocationProp *,              \
					  CUmemAllocationGranularity_flags))

static struct {
#define CM_X(name, params) CUresult(*name) params;
	CM_VMM_FUNCS(CM_X)
#undef CM_X
} cm_vmm;

static int cm_vmm_devices;

static cm_status cm_vmm_status(CUresult r)
{
	return r == CUDA_SUCCESS ? CM_OK : r == CUDA_ERROR_OUT_OF_MEMORY ? CM_ERR_OOM : CM_ERR_BACKEND;
}

static CUmemAllocationProp cm_vmm_prop(int dev)
{
	CUmemAllocationProp prop = {0};
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = dev;
	return prop;
}

static cm_status cm_vmm_granularity(void *ctx, int dev, size_t *out)
{
	(void)ctx;
	CUmemAllocationProp prop = cm_vmm_prop(dev);
	return cm_vmm_status(cm_vmm.cuMemGetAllocationGranularity(out, &prop,
								   CU_MEM_ALLOC_GRANULARITY_MINIMUM));
}

static cm_status cm_vmm_reserve(void *ctx, int dev, size_t size, uintptr_t *va)
{
	(void)ctx;
	(void)dev;
	CUdeviceptr p = 0;
	cm_status st = cm_vmm_status(cm_vmm.cuMemAddressReserve(&p, size, 0, 0, 0));
	*va = (uintptr_t)p;
	return st;
}

static cm_status cm_vmm_release(void *ctx, int dev, uintptr_t va, size_t size)
{
	(void)ctx;
	(void)dev;
	return cm_vmm_status(cm_vmm.cuMemAddressFree((CUdeviceptr)va, size));
}

static cm_status cm_vmm_create(void *ctx, int dev, size_t size, cm_mem_handle *out)
{
	(void)ctx;
	CUmemAllocationProp prop = cm_vmm_prop(dev);
	CUmemGenericAllocationHandle h = 0;
	cm_status st = cm_vmm_status(cm_vmm.cuMemCreate(&h, size, &prop, 0));
	*out = (cm_mem_handle)h;
	return st;
}

static cm_status cm_vmm_destroy(void *ctx, int dev, cm_mem_handle h)
{
	(void)ctx;
	(void)dev;
	return cm_vmm_status(cm_vmm.cuMemRelease((CUmemGenericAllocationHandle)h));
}

static cm_status cm_vmm_map(void *ctx, int dev, uintptr_t va, size_t size, cm_mem_handle h)
{
	(void)ctx;
	(void)dev;
	return cm_vmm_status(cm_vmm.cuMemMap((CUdeviceptr)va, size, 0,
					     (CUmemGenericAllocationHandle)h, 0));
}

static cm_status cm_vmm_unmap(void *ctx, int dev, uintptr_t va, size_t size)
{
	(void)ctx;
	(void)dev;
	return cm_vmm_status(cm_vmm.cuMemUnmap((CUdeviceptr)va, size));
}

static cm_status cm_vmm_set_access(void *ctx, int dev, uintptr_t va, size_t size)
{
	(void)ctx;
	CUmemAccessDesc desc[64];
	size_t n = 0;
	for (int p = 0; p < cm_vmm_devices && n < 64; p++) {
		int can = p == dev;
		if (p != dev && cm_real.cudaDeviceCanAccessPeer)
			cm_real.cudaDeviceCanAccessPeer(&can, p, dev);
		if (!can)
			continue;
		desc[n].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		desc[n].location.id = p;
		desc[n++].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	}
	return cm_vmm_status(cm_vmm.cuMemSetAccess((CUdeviceptr)va, size, desc, n));
}

void cm_vmm_backend_init(cm_backend *be, int devices)
{
	void *driver = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
	if (!driver)
		return;
	bool ok = true;
#define CM_X(name, params) ok &= (*(void **)&cm_vmm.name = dlsym(driver, #name)) != NULL;
	CM_VMM_FUNCS(CM_X)
#undef CM_X
	if (!ok)
		return;
	cm_vmm_devices = devices;
	be->vmm_granularity = cm_vmm_granularity;
	be->vmm_reserve = cm_vmm_reserve;
	be->vmm_release = cm_vmm_release;
	be->vmm_create = cm_vmm_create;
	be->vmm_destroy = cm_vmm_destroy;
	be->vmm_map = cm_vmm_map;
	be->vmm_unmap = cm_vmm_unmap;
	be->vmm_set_access = cm_vmm_set_access;
}
