/* tests/fakecuda/fakecu_peer.c - peer access between the fake driver's
 * devices, and peer copies.
 *
 * Every pair of distinct devices can access each other (as two H200s on
 * NVLink); a device is not its own peer (cuDeviceCanAccessPeer answers 0).
 * cuCtxEnablePeerAccess records, for the current context's device, that its
 * memory accesses may reach the peer context's device, with NVIDIA's
 * documented errors: flags other than 0 are CUDA_ERROR_INVALID_VALUE, the
 * current context's own device CUDA_ERROR_INVALID_DEVICE, a second enable
 * CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, disabling what is not enabled
 * CUDA_ERROR_PEER_ACCESS_NOT_ENABLED. The fake has no kernels, so nothing
 * reads the record but these calls. Not modelled: a context reset forgetting
 * what was enabled.
 *
 * Peer copies: device pointers are addresses of one simulated region (as
 * under unified addressing), so cuMemcpyPeer(Async) is cuMemcpy(Async) on
 * the current context's stream, after checking both contexts.
 */
#include "fakecu_internal.h"

static uint64_t fk_peer_on[FK_MAX_DEVICES]; /* bit p of [d]: d reaches p; fk.lock */

static CUresult fk_ctx_check(CUcontext c)
{
	if (!c)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (c->destroyed || !c->live)
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	return CUDA_SUCCESS;
}

FK_API CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
	CUresult r = fk_device_arg(canAccessPeer, dev);
	if (r != CUDA_SUCCESS)
		return r;
	if (!fk_device_valid(peerDev))
		return CUDA_ERROR_INVALID_DEVICE;
	*canAccessPeer = dev != peerDev;
	return CUDA_SUCCESS;
}

/* Enables (on) or disables peer access from the current context's device. */
static CUresult fk_peer_set(CUcontext peer, bool on)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS)
		r = fk_ctx_check(peer);
	if (r != CUDA_SUCCESS)
		return r;
	int dev = fk_cur_dev();
	if (peer->dev == dev)
		return CUDA_ERROR_INVALID_DEVICE;
	uint64_t bit = (uint64_t)1 << peer->dev;
	pthread_mutex_lock(&fk.lock);
	bool was = fk_peer_on[dev] & bit;
	if (on && was)
		r = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	else if (!on && !was)
		r = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	else
		fk_peer_on[dev] ^= bit;
	pthread_mutex_unlock(&fk.lock);
	return r;
}

FK_API CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
	if (Flags != 0) {
		CUresult r = fk_initialized();
		return r == CUDA_SUCCESS ? CUDA_ERROR_INVALID_VALUE : r;
	}
	return fk_peer_set(peerContext, true);
}

FK_API CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
	return fk_peer_set(peerContext, false);
}

static CUresult fk_memcpy_peer(CUdeviceptr dst, CUcontext dstContext, CUdeviceptr src,
			       CUcontext srcContext, size_t n, CUstream s, bool sync)
{
	CUresult r = fk_initialized();
	if (r == CUDA_SUCCESS)
		r = fk_ctx_check(dstContext);
	if (r == CUDA_SUCCESS)
		r = fk_ctx_check(srcContext);
	if (r != CUDA_SUCCESS)
		return r;
	return fk_memcpy(dst, src, n, s, false, sync);
}

FK_API CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
			     CUcontext srcContext, size_t ByteCount)
{
	return fk_memcpy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, 0, true);
}

FK_API CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
				  CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount,
				  CUstream hStream)
{
	return fk_memcpy_peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream,
			      false);
}
