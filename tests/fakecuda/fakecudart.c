/* tests/fakecuda/fakecudart.c - the fake runtime's driver loading, errors,
 * contexts, devices, versions and peer access.
 *
 * Environment: FAKECUDA_REENTER=1 (see cudaMalloc in fakecudart_api.c),
 * read with secure_getenv; the driver reads its own (fakecu.c).
 * FAKECUDA_RESET_ERROR=N, read at each cudaDeviceReset: a reset that
 * succeeded returns error N instead, as the documentation allows ("may
 * also return error codes from previous, asynchronous launches").
 *
 * Per thread, as in CUDA: the current device (default 0; the device of the
 * driver's current context when there is one) and the last error (set by
 * every failing call except cudaErrorNotReady, returned and reset by
 * cudaGetLastError, returned by cudaPeekAtLastError).
 *
 * Contexts, as NVIDIA's runtime: a call that needs a context uses the
 * driver's current one; without one, the runtime retains the primary
 * context of the thread's device (once per device and process) and makes it
 * current. cudaSetDevice does so at once; cudaDeviceEnablePeerAccess and
 * cudaMemcpyPeer(Async) name devices, whose primary contexts they pass to
 * the driver (cuCtxEnablePeerAccess, cuMemcpyPeer(Async)); cudaDeviceReset resets the
 * primary context (cuDevicePrimaryCtxReset), which stays retained, and
 * re-creates it at once (a retain, then a release: the driver re-creates a
 * reset primary context at its next retain), so that the threads it is
 * current to can go on using the device, as the runtime documents.
 *
 * Errors: CUresult and cudaError_t share the numbers of every code the
 * driver returns here (checked at compile time below); CUDA_ERROR_INVALID_
 * CONTEXT is cudaErrorDeviceUninitialized and CUDA_ERROR_NOT_INITIALIZED
 * (the driver in a forked child) cudaErrorInitializationError, as NVIDIA's
 * runtime maps them. A driver that cannot be loaded is
 * cudaErrorInsufficientDriver.
 */
#include "fakecudart_internal.h"
#include "errstr.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RT_MAX_DEVICES 64

rt_driver rt_cu;

static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static bool rt_loaded;
static _Atomic(CUcontext) rt_primary[RT_MAX_DEVICES];
/* cudaDeviceReset leaves the destroyed context current, as NVIDIA's does
 * (seen on an H200: the next driver call in it fails); each thread's next
 * runtime call retains the primary context anew and makes it current. */
static atomic_uint rt_resets;
static __thread unsigned rt_resets_seen;
static _Thread_local cudaError_t rt_last_error;
static _Thread_local int rt_device;

/* ---- the driver --------------------------------------------------------- */

static const struct rt_sym {
	const char *base;
	size_t offset;
} rt_syms[] = {
#define RT_SYM(name) { #name, offsetof(rt_driver, name) },
	RT_DRIVER(RT_SYM)
#undef RT_SYM
};

/* Both flavours of one function, or false. */
static bool rt_fetch(CUresult (*gpa)(const char *, void **, int, cuuint64_t,
				     CUdriverProcAddressQueryResult *),
		     const struct rt_sym *s)
{
	void **slot = (void **)((char *)&rt_cu + s->offset);
	static const cuuint64_t flags[2] = { CU_GET_PROC_ADDRESS_LEGACY_STREAM,
					     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM };
	for (int i = 0; i < 2; i++) {
		CUdriverProcAddressQueryResult st;
		if (gpa(s->base, &slot[i], CUDART_VERSION, flags[i], &st) != CUDA_SUCCESS ||
		    st != CU_GET_PROC_ADDRESS_SUCCESS || !slot[i]) {
			fprintf(stderr, "fakecuda: libcuda.so.1 has no %s for CUDA %d\n", s->base,
				CUDART_VERSION);
			return false;
		}
	}
	return true;
}

static void rt_load_once(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "fakecuda: cannot load libcuda.so.1: %s\n", dlerror());
		return;
	}
	CUresult (*gpa)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
	*(void **)&gpa = dlsym(h, "cuGetProcAddress_v2");
	fakecu_get_export_table_fn get_ex;
	*(void **)&get_ex = dlsym(h, FAKECU_EXPORT_TABLE_SYMBOL);
	if (!gpa || !get_ex) {
		fprintf(stderr, "fakecuda: libcuda.so.1 lacks cuGetProcAddress_v2 or %s\n",
			FAKECU_EXPORT_TABLE_SYMBOL);
		return;
	}
	for (size_t i = 0; i < sizeof(rt_syms) / sizeof(rt_syms[0]); i++)
		if (!rt_fetch(gpa, &rt_syms[i]))
			return;
	rt_cu.ex = get_ex();
	rt_loaded = rt_cu.ex && rt_cu.ex->size >= sizeof(fakecu_export_table);
}

cudaError_t rt_init(void)
{
	pthread_once(&rt_once, rt_load_once);
	if (!rt_loaded)
		return cudaErrorInsufficientDriver;
	return rt_err(rt_cu.cuInit[0](0));
}

/* The primary context of dev, retained once for the process. */
static cudaError_t rt_primary_ctx(int dev, CUcontext *out)
{
	CUcontext c = atomic_load(&rt_primary[dev]);
	if (!c) {
		CUresult r = rt_cu.cuDevicePrimaryCtxRetain[0](&c, dev);
		if (r != CUDA_SUCCESS)
			return rt_err(r);
		CUcontext none = NULL;
		if (!atomic_compare_exchange_strong(&rt_primary[dev], &none, c))
			rt_cu.cuDevicePrimaryCtxRelease[0](dev); /* another thread's won */
	}
	*out = c;
	return cudaSuccess;
}

cudaError_t rt_ctx(void)
{
	CUcontext c = NULL;
	cudaError_t e = rt_init();
	if (e == cudaSuccess)
		e = rt_err(rt_cu.cuCtxGetCurrent[0](&c));
	unsigned resets = atomic_load(&rt_resets);
	if (rt_resets_seen != resets) {
		rt_resets_seen = resets;
		c = NULL;
	}
	if (e != cudaSuccess || c)
		return e;
	e = rt_primary_ctx(rt_device, &c);
	return e == cudaSuccess ? rt_err(rt_cu.cuCtxSetCurrent[0](c)) : e;
}

/* ---- errors ------------------------------------------------------------- */

/* The driver codes the runtime passes on, and the runtime's names for them:
 * numerically equal, as the static assertions check. */
#define RT_ERRORS(X)                                                              \
	X(CUDA_SUCCESS, cudaSuccess)                                                \
	X(CUDA_ERROR_INVALID_VALUE, cudaErrorInvalidValue)                          \
	X(CUDA_ERROR_OUT_OF_MEMORY, cudaErrorMemoryAllocation)                      \
	X(CUDA_ERROR_NOT_INITIALIZED, cudaErrorInitializationError)                 \
	X(CUDA_ERROR_DEINITIALIZED, cudaErrorCudartUnloading)                       \
	X(CUDA_ERROR_NO_DEVICE, cudaErrorNoDevice)                                  \
	X(CUDA_ERROR_INVALID_DEVICE, cudaErrorInvalidDevice)                        \
	X(CUDA_ERROR_INVALID_CONTEXT, cudaErrorDeviceUninitialized)                 \
	X(CUDA_ERROR_CONTEXT_IS_DESTROYED, cudaErrorContextIsDestroyed)             \
	X(CUDA_ERROR_INVALID_HANDLE, cudaErrorInvalidResourceHandle)                \
	X(CUDA_ERROR_ILLEGAL_STATE, cudaErrorIllegalState)                          \
	X(CUDA_ERROR_NOT_FOUND, cudaErrorSymbolNotFound)                            \
	X(CUDA_ERROR_NOT_READY, cudaErrorNotReady)                                  \
	X(CUDA_ERROR_ILLEGAL_ADDRESS, cudaErrorIllegalAddress)                      \
	X(CUDA_ERROR_NOT_PERMITTED, cudaErrorNotPermitted)                          \
	X(CUDA_ERROR_NOT_SUPPORTED, cudaErrorNotSupported)                          \
	X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cudaErrorStreamCaptureUnsupported) \
	X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cudaErrorStreamCaptureInvalidated) \
	X(CUDA_ERROR_STREAM_CAPTURE_MERGE, cudaErrorStreamCaptureMerge)             \
	X(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, cudaErrorStreamCaptureUnmatched)     \
	X(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cudaErrorStreamCaptureUnjoined)       \
	X(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cudaErrorStreamCaptureIsolation)     \
	X(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, cudaErrorStreamCaptureImplicit)       \
	X(CUDA_ERROR_CAPTURED_EVENT, cudaErrorCapturedEvent)                        \
	X(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, cudaErrorStreamCaptureWrongThread) \
	X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cudaErrorPeerAccessAlreadyEnabled) \
	X(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cudaErrorPeerAccessNotEnabled)         \
	X(CUDA_ERROR_UNKNOWN, cudaErrorUnknown)

#define RT_SAME(cu, rt) _Static_assert((int)cu == (int)rt, #cu " is not " #rt);
RT_ERRORS(RT_SAME)
#undef RT_SAME

cudaError_t rt_err(CUresult r)
{
	switch (r) {
#define RT_CASE(cu, rt) case cu: return rt;
		RT_ERRORS(RT_CASE)
#undef RT_CASE
	default:
		return cudaErrorUnknown;
	}
}

cudaError_t rt_ret(cudaError_t e)
{
	if (e != cudaSuccess && e != cudaErrorNotReady)
		rt_last_error = e;
	return e;
}

cudaError_t rt_call_result(CUresult r)
{
	return rt_ret(rt_err(r));
}

static const fk_errstr rt_errors[] = {
#define E(code, text) { code, #code, text }
	E(cudaSuccess, "no error"),
	E(cudaErrorInvalidValue, "invalid argument"),
	E(cudaErrorMemoryAllocation, "out of memory"),
	E(cudaErrorInitializationError, "initialization error"),
	E(cudaErrorCudartUnloading, "driver shutting down"),
	E(cudaErrorInvalidPitchValue, "invalid pitch argument"),
	E(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
	E(cudaErrorInvalidDevicePointer, "invalid device pointer"),
	E(cudaErrorNoDevice, "no CUDA-capable device is detected"),
	E(cudaErrorInvalidDevice, "invalid device ordinal"),
	E(cudaErrorInvalidResourceHandle, "invalid resource handle"),
	E(cudaErrorContextIsDestroyed, "context is destroyed"),
	E(cudaErrorDeviceUninitialized, "invalid device context"),
	E(cudaErrorSymbolNotFound, "named symbol not found"),
	E(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime "
				       "version"),
	E(cudaErrorIllegalState, "the resource is not in a valid state to perform the "
				 "requested operation"),
	E(cudaErrorNotReady, "device not ready"),
	E(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
	E(cudaErrorNotSupported, "operation not supported"),
	E(cudaErrorNotPermitted, "operation not permitted"),
#define CAPTURE_E(cu_code, code, text) E(code, text),
	FK_CAPTURE_ERRORS(CAPTURE_E)
#undef CAPTURE_E
	E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
	E(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled"),
	E(cudaErrorUnknown, "unknown error"),
#undef E
};

static const fk_errstr *rt_error_find(cudaError_t e)
{
	return fk_errstr_find(rt_errors, sizeof(rt_errors) / sizeof(rt_errors[0]), (int)e);
}

RT_API cudaError_t cudaGetLastError(void)
{
	cudaError_t e = rt_last_error;
	rt_last_error = cudaSuccess;
	return e;
}

RT_API cudaError_t cudaPeekAtLastError(void)
{
	return rt_last_error;
}

RT_API const char *cudaGetErrorName(cudaError_t error)
{
	const fk_errstr *s = rt_error_find(error);
	return s ? s->name : "unrecognized error code";
}

RT_API const char *cudaGetErrorString(cudaError_t error)
{
	const fk_errstr *s = rt_error_find(error);
	return s ? s->text : "unrecognized error code";
}

/* ---- devices and versions ----------------------------------------------- */

RT_API cudaError_t cudaGetDeviceCount(int *count)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	return rt_call(rt_cu.cuDeviceGetCount[0](count));
}

RT_API cudaError_t cudaGetDevice(int *device)
{
	CUcontext c = NULL;
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	if (!device)
		return rt_ret(cudaErrorInvalidValue);
	if (rt_cu.cuCtxGetCurrent[0](&c) == CUDA_SUCCESS && c)
		return rt_call(rt_cu.cuCtxGetDevice[0](device));
	*device = rt_device;
	return cudaSuccess;
}

RT_API cudaError_t cudaSetDevice(int device)
{
	CUcontext c;
	int n = 0;
	cudaError_t r = rt_init();
	if (r == cudaSuccess)
		r = rt_err(rt_cu.cuDeviceGetCount[0](&n));
	if (r == cudaSuccess && (device < 0 || device >= n || device >= RT_MAX_DEVICES))
		r = cudaErrorInvalidDevice;
	if (r == cudaSuccess)
		r = rt_primary_ctx(device, &c);
	if (r == cudaSuccess)
		r = rt_err(rt_cu.cuCtxSetCurrent[0](c));
	if (r == cudaSuccess)
		rt_device = device;
	return rt_ret(r);
}

RT_API cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	pthread_once(&rt_once, rt_load_once);
	if (!driverVersion)
		return rt_ret(cudaErrorInvalidValue);
	if (!rt_loaded) { /* no driver: 0, as NVIDIA documents */
		*driverVersion = 0;
		return cudaSuccess;
	}
	return rt_call(rt_cu.cuDriverGetVersion[0](driverVersion));
}

RT_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	if (!runtimeVersion)
		return rt_ret(cudaErrorInvalidValue);
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuCtxGetStreamPriorityRange[0](leastPriority, greatestPriority));
}

RT_API cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t r = rt_ctx();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuCtxSynchronize[0](NULL));
}

RT_API cudaError_t cudaDeviceReset(void)
{
	int dev = 0;
	cudaError_t r = cudaGetDevice(&dev);
	if (r == cudaSuccess)
		r = rt_call(rt_cu.cuDevicePrimaryCtxReset[0](dev));
	if (r == cudaSuccess && dev < RT_MAX_DEVICES) {
		CUcontext old = atomic_exchange(&rt_primary[dev], NULL);
		if (old)
			rt_cu.cuDevicePrimaryCtxRelease[0](dev); /* the runtime's retain */
		atomic_fetch_add(&rt_resets, 1);
		const char *e = secure_getenv("FAKECUDA_RESET_ERROR");
		if (e && atoi(e) > 0)
			r = rt_ret((cudaError_t)atoi(e));
	}
	return r;
}

/* ---- peer access -------------------------------------------------------- */

RT_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
	cudaError_t r = rt_init();
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuDeviceCanAccessPeer[0](canAccessPeer, device, peerDevice));
}

/* The primary context of a device given by the caller, checked. */
static cudaError_t rt_device_ctx(int dev, CUcontext *out)
{
	int n = 0;
	cudaError_t r = rt_err(rt_cu.cuDeviceGetCount[0](&n));
	if (r == cudaSuccess && (dev < 0 || dev >= n || dev >= RT_MAX_DEVICES))
		r = cudaErrorInvalidDevice;
	return r == cudaSuccess ? rt_primary_ctx(dev, out) : r;
}

RT_API cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
	CUcontext peer;
	cudaError_t r = rt_ctx();
	if (r == cudaSuccess)
		r = rt_device_ctx(peerDevice, &peer);
	if (r != cudaSuccess)
		return rt_ret(r);
	return rt_call(rt_cu.cuCtxEnablePeerAccess[0](peer, flags));
}

static cudaError_t rt_memcpy_peer(void *dst, int dstDevice, const void *src, int srcDevice,
				  size_t count, cudaStream_t stream, bool sync)
{
	CUcontext dc, sc;
	cudaError_t r = rt_ctx();
	if (r == cudaSuccess)
		r = rt_device_ctx(dstDevice, &dc);
	if (r == cudaSuccess)
		r = rt_device_ctx(srcDevice, &sc);
	if (r != cudaSuccess || count == 0)
		return rt_ret(r);
	CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst, s = (CUdeviceptr)(uintptr_t)src;
	if (sync)
		return rt_call(rt_cu.cuMemcpyPeer[0](d, dc, s, sc, count));
	return rt_call(rt_cu.cuMemcpyPeerAsync[0](d, dc, s, sc, count, stream));
}

RT_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
				  size_t count)
{
	return rt_memcpy_peer(dst, dstDevice, src, srcDevice, count, 0, true);
}

RT_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
				       size_t count, cudaStream_t stream)
{
	return rt_memcpy_peer(dst, dstDevice, src, srcDevice, count, stream, false);
}
