/* interpose/vmm_cuda.c - the backend's VMM operations over CUDA's driver
 * API (cuMemCreate, cuMemMap, cuMemSetAccess, ...), for expandable
 * segments, from the driver table of real.h; without one of these
 * functions the operations stay NULL and the core uses plain segments.
 * The core's device index is a context slot; memory is created on the
 * slot's device.
 *
 * Access is granted to the device and to every device that can access it
 * as a peer, so that memory works as cudaMalloc's does with peer access.
 */
#include <cuda.h>
#include <stdlib.h>

#include "backend_cuda.h"
#include "context.h"
#include "nvtx.h"
#include "real.h"

static int cm_vmm_devices;

static cm_status cm_vmm_status(CUresult r)
{
	return r == CUDA_SUCCESS ? CM_OK : r == CUDA_ERROR_OUT_OF_MEMORY ? CM_ERR_OOM : CM_ERR_BACKEND;
}

static CUmemAllocationProp cm_vmm_prop(int slot)
{
	CUmemAllocationProp prop = {0};
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = cm_ctx_device(slot);
	return prop;
}

/* A give-back call (unmap, release, address free) that the driver refused
 * for the current context, made again with none current: the VMM calls name
 * no context, and when a context ends (heap.c's cm_device_reset) the one
 * left current may be the destroyed one (a reset primary context). */
#define CM_VMM_GIVE_BACK(call)                                                    \
	__extension__({                                                          \
		CUresult r_ = (call);                                              \
		CUcontext c_ = NULL;                                               \
		if ((r_ == CUDA_ERROR_CONTEXT_IS_DESTROYED ||                      \
		     r_ == CUDA_ERROR_INVALID_CONTEXT) &&                          \
		    cm_real.cuCtxPopCurrent_v2(&c_) == CUDA_SUCCESS) {              \
			r_ = (call);                                               \
			cm_real.cuCtxPushCurrent_v2(c_);                            \
		}                                                                  \
		cm_vmm_status(r_);                                                 \
	})

/* The whole range is one heap (docs/design.md, "Blocks visible to
 * compute-sanitizer"): blocks stay inside it as it grows and shrinks. */
static cm_status cm_vmm_reserve(void *ctx, int dev, size_t size, uintptr_t *va)
{
	(void)ctx;
	CUdeviceptr p = 0;
	cm_status st = cm_vmm_status(cm_real.cuMemAddressReserve(&p, size, 0, 0, 0));
	*va = (uintptr_t)p;
	if (st == CM_OK)
		cm_nvtx_segment_added(dev, (uintptr_t)p, size);
	return st;
}

static cm_status cm_vmm_release(void *ctx, int dev, uintptr_t va, size_t size)
{
	(void)ctx;
	(void)dev;
	cm_nvtx_segment_removed(va);
	return CM_VMM_GIVE_BACK(cm_real.cuMemAddressFree((CUdeviceptr)va, size));
}

static cm_status cm_vmm_create(void *ctx, int dev, size_t size, cm_mem_handle *out)
{
	(void)ctx;
	CUmemAllocationProp prop = cm_vmm_prop(dev);
	CUmemGenericAllocationHandle h = 0;
	cm_status st = cm_vmm_status(cm_real.cuMemCreate(&h, size, &prop, 0));
	*out = (cm_mem_handle)h;
	return st;
}

static cm_status cm_vmm_destroy(void *ctx, int dev, cm_mem_handle h)
{
	(void)ctx;
	(void)dev;
	return CM_VMM_GIVE_BACK(cm_real.cuMemRelease((CUmemGenericAllocationHandle)h));
}

static cm_status cm_vmm_map(void *ctx, int dev, uintptr_t va, size_t size, cm_mem_handle h)
{
	(void)ctx;
	(void)dev;
	return cm_vmm_status(cm_real.cuMemMap((CUdeviceptr)va, size, 0,
					     (CUmemGenericAllocationHandle)h, 0));
}

static cm_status cm_vmm_unmap(void *ctx, int dev, uintptr_t va, size_t size)
{
	(void)ctx;
	(void)dev;
	return CM_VMM_GIVE_BACK(cm_real.cuMemUnmap((CUdeviceptr)va, size));
}

static cm_status cm_vmm_set_access(void *ctx, int slot, uintptr_t va, size_t size)
{
	(void)ctx;
	int dev = cm_ctx_device(slot);
	CUmemAccessDesc desc[64];
	size_t n = 0;
	for (int p = 0; p < cm_vmm_devices && n < 64; p++) {
		int can = p == dev;
		if (p != dev)
			cm_real.cuDeviceCanAccessPeer(&can, p, dev);
		if (!can)
			continue;
		desc[n].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		desc[n].location.id = p;
		desc[n++].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	}
	return cm_vmm_status(cm_real.cuMemSetAccess((CUdeviceptr)va, size, desc, n));
}

void cm_vmm_backend_init(cm_backend *be, int devices)
{
	if (!cm_real.cuMemAddressReserve || !cm_real.cuMemAddressFree || !cm_real.cuMemCreate ||
	    !cm_real.cuMemRelease || !cm_real.cuMemMap || !cm_real.cuMemUnmap ||
	    !cm_real.cuMemSetAccess || !cm_real.cuMemGetAllocationGranularity ||
	    !cm_real.cuDeviceCanAccessPeer)
		return;
	cm_vmm_devices = devices;
	be->vmm_reserve = cm_vmm_reserve;
	be->vmm_release = cm_vmm_release;
	be->vmm_create = cm_vmm_create;
	be->vmm_destroy = cm_vmm_destroy;
	be->vmm_map = cm_vmm_map;
	be->vmm_unmap = cm_vmm_unmap;
	be->vmm_set_access = cm_vmm_set_access;
}
