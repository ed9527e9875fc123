/* tests/integration/driver.h - the driver-API integration programs' shared
 * body: the driver functions they use, and what they check with them.
 *
 * prog_driver_linked, prog_driver_procaddr and prog_driver_dlsym reach the
 * same functions three ways (the linked symbols of -lcuda;
 * cuGetProcAddress_v2 only, found with dlopen + dlsym as NVIDIA's runtime
 * does; dlsym of each exported name) and fill one table, `drv`, with them;
 * drv_exercise then checks, through the table only: CUDA_ERROR_NOT_INITIALIZED
 * before cuInit, CUDA_ERROR_INVALID_CONTEXT without a context, size 0, out of
 * memory, interior and double frees, data written and read back through
 * cuMemAlloc_v2 and cuMemAllocAsync memory on streams, events ordering two
 * non-blocking streams. Plain C against cuda.h: on a GPU machine,
 * `cc -I/usr/local/cuda/include prog_driver_linked.c -lcuda -ldl`.
 */
#ifndef INTEG_DRIVER_H
#define INTEG_DRIVER_H

#include <cuda.h>
#include <dlfcn.h>

#include "common.h"

/* Each by the name cuda.h gives its current ABI (cuMemAlloc is
 * cuMemAlloc_v2): DRV_STR gives the exported name, #name the base name. */
#define DRV_FUNCS(X)                                                                 \
	X(cuInit) X(cuGetErrorName) X(cuDevicePrimaryCtxRetain)                        \
	X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxGetCurrent)             \
	X(cuCtxSynchronize) X(cuMemAlloc) X(cuMemFree) X(cuMemGetInfo)                 \
	X(cuMemAllocAsync) X(cuMemFreeAsync) X(cuMemsetD8) X(cuMemsetD8Async)          \
	X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoHAsync) X(cuStreamCreate)         \
	X(cuStreamCreateWithPriority) X(cuStreamDestroy) X(cuStreamSynchronize)        \
	X(cuStreamQuery) X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventRecord)        \
	X(cuEventSynchronize) X(cuEventDestroy) X(cuLaunchHostFunc)

#define DRV_STR_(x) #x
#define DRV_STR(x) DRV_STR_(x)

typedef struct drv {
#define DRV_SLOT(name) __typeof__(&name) name;
	DRV_FUNCS(DRV_SLOT)
#undef DRV_SLOT
} drv;

#define DRV_COUNT (sizeof(drv) / sizeof(void *))

/* The table of the functions as the program links them: drv d = DRV_LINKED; */
#define DRV_LINKED_SLOT(name) .name = name,
#define DRV_LINKED { DRV_FUNCS(DRV_LINKED_SLOT) }

static const char *const drv_base_names[] = {
#define DRV_BASE(name) #name,
	DRV_FUNCS(DRV_BASE)
#undef DRV_BASE
};

static const char *const drv_exported_names[] = {
#define DRV_EXPORTED(name) DRV_STR(name),
	DRV_FUNCS(DRV_EXPORTED)
#undef DRV_EXPORTED
};

/* For the programs that look the driver up: d emptied, and libcuda.so.1
 * opened, or NULL (a failure said). */
static inline void *drv_dlopen(drv *d)
{
	memset(d, 0, sizeof(*d));
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h)
		FAIL("dlopen(libcuda.so.1): %s", dlerror());
	return h;
}

/* Slot i of the table, as a data pointer (POSIX: function pointers fit). */
static inline void **drv_slot(drv *d, size_t i)
{
	return (void **)d + i;
}

static const drv *drv_cur;

static inline const char *drv_name(CUresult r)
{
	const char *s = NULL;
	if (!drv_cur || drv_cur->cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
		return "an unnamed CUresult";
	return s;
}

#define DCHECK(call) INTEG_EXPECT(CUresult, call, CUDA_SUCCESS, drv_name, 1)
#define DEXPECT(call, want) INTEG_EXPECT(CUresult, call, want, drv_name, 0)

/* Reads [p, p + n) back and checks every byte is value. */
static inline void drv_check(const drv *d, CUdeviceptr p, size_t n, int value, const char *what)
{
	unsigned char *h = malloc(n);
	if (!h) {
		FAIL("%s: no host memory", what);
		return;
	}
	DCHECK(d->cuMemcpyDtoH(h, p, n));
	for (size_t i = 0; i < n; i++) {
		if (h[i] != (unsigned char)value) {
			FAIL("%s: expected 0x%02x at offset %zu, got 0x%02x", what,
			     (unsigned)(unsigned char)value, i, h[i]);
			break;
		}
	}
	free(h);
}

static void CUDA_CB drv_sleep_fn(void *arg)
{
	integ_sleep_ms((unsigned)(uintptr_t)arg);
}

/* Synchronous calls: errors, and data through cuMemAlloc memory. */
static inline void drv_exercise_sync(const drv *d)
{
	const size_t n = INTEG_MIB;
	CUdeviceptr p = 0, q = 0;
	size_t fr = 0, total = 0;
	unsigned char *pattern = malloc(n);

	if (!pattern) {
		FAIL("no host memory");
		return;
	}
	DEXPECT(d->cuMemAlloc(&p, 0), CUDA_ERROR_INVALID_VALUE);
	DCHECK(d->cuMemGetInfo(&fr, &total));
	DEXPECT(d->cuMemAlloc(&q, total + INTEG_MIB), CUDA_ERROR_OUT_OF_MEMORY);
	DCHECK(d->cuMemAlloc(&p, n));
	DCHECK(d->cuMemsetD8(p, 0x3c, n));
	drv_check(d, p, n, 0x3c, "cuMemsetD8 then cuMemcpyDtoH");
	for (size_t i = 0; i < n; i++)
		pattern[i] = (unsigned char)(i * 7);
	DCHECK(d->cuMemcpyHtoD(p, pattern, n));
	unsigned char *back = calloc(1, n);
	if (back) {
		DCHECK(d->cuMemcpyDtoH(back, p, n));
		if (memcmp(back, pattern, n) != 0)
			FAIL("cuMemcpyHtoD then cuMemcpyDtoH: the bytes differ");
		free(back);
	}
	DEXPECT(d->cuMemFree(p + 64), CUDA_ERROR_INVALID_VALUE);
	DCHECK(d->cuMemFree(p));
	DEXPECT(d->cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
	free(pattern);
}

/* Streams, stream-ordered memory and events. */
static inline void drv_exercise_streams(const drv *d)
{
	const size_t n = 4 * INTEG_MIB;
	CUstream a, b;
	CUevent e;
	CUdeviceptr p = 0;
	unsigned char *h = malloc(n);

	if (!h) {
		FAIL("no host memory");
		return;
	}
	DCHECK(d->cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	DCHECK(d->cuStreamCreateWithPriority(&b, CU_STREAM_NON_BLOCKING, 0));
	DCHECK(d->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
	DCHECK(d->cuMemAllocAsync(&p, n, a));
	DCHECK(d->cuLaunchHostFunc(a, drv_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	DCHECK(d->cuMemsetD8Async(p, 0x5e, n, a));
	DCHECK(d->cuEventRecord(e, a));
	DCHECK(d->cuStreamWaitEvent(b, e, 0));
	memset(h, 0, n);
	DCHECK(d->cuMemcpyDtoHAsync(h, p, n, b));
	DCHECK(d->cuStreamSynchronize(b));
	for (size_t i = 0; i < n; i++) {
		if (h[i] != 0x5e) {
			FAIL("cuMemsetD8Async on a, read on b after an event: expected 0x5e at "
			     "offset %zu, got 0x%02x", i, h[i]);
			break;
		}
	}
	DCHECK(d->cuMemFreeAsync(p, b));
	DCHECK(d->cuStreamSynchronize(b));
	DCHECK(d->cuStreamQuery(a));
	DCHECK(d->cuEventSynchronize(e));
	DCHECK(d->cuEventDestroy(e));
	DEXPECT(d->cuStreamDestroy(0), CUDA_ERROR_INVALID_HANDLE);
	DCHECK(d->cuStreamDestroy(a));
	DCHECK(d->cuStreamDestroy(b));
	DCHECK(d->cuCtxSynchronize());
	free(h);
}

/* For the race programs: d names the errors from now on, and device 0's
 * primary context, retained, is current. */
static inline void drv_start(const drv *d)
{
	CUcontext ctx;
	drv_cur = d;
	DCHECK(d->cuInit(0));
	DCHECK(d->cuDevicePrimaryCtxRetain(&ctx, 0));
	DCHECK(d->cuCtxSetCurrent(ctx));
}

/* The whole check, on a table already filled; returns the exit status. */
static inline int drv_exercise(const drv *d, const char *name)
{
	CUdeviceptr p = 0;
	CUcontext ctx = NULL, cur = (CUcontext)&cur;

	drv_cur = d;
	for (size_t i = 0; i < DRV_COUNT; i++)
		if (!*drv_slot((drv *)d, i))
			FAIL("%s (%s): not found", drv_base_names[i], drv_exported_names[i]);
	if (atomic_load(&integ_failures))
		return integ_report(name);
	DEXPECT(d->cuMemAlloc(&p, INTEG_MIB), CUDA_ERROR_NOT_INITIALIZED);
	DCHECK(d->cuInit(0));
	DCHECK(d->cuCtxGetCurrent(&cur));
	if (cur)
		FAIL("cuCtxGetCurrent after cuInit: expected no context, got %p", (void *)cur);
	DEXPECT(d->cuMemAlloc(&p, INTEG_MIB), CUDA_ERROR_INVALID_CONTEXT);
	DCHECK(d->cuDevicePrimaryCtxRetain(&ctx, 0));
	DCHECK(d->cuCtxSetCurrent(ctx));
	drv_exercise_sync(d);
	drv_exercise_streams(d);
	DCHECK(d->cuCtxSetCurrent(NULL));
	DCHECK(d->cuDevicePrimaryCtxRelease(0));
	return integ_report(name);
}

#endif
