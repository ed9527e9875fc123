/* prog_ctx_switch: allocations between context switches land in the
 * context current at each allocation, whichever way the program changed
 * it: cuCtxCreate, cuCtxPushCurrent/PopCurrent (the _v2 symbols linked,
 * the 3.x ABI through dlsym, the current one through cuGetProcAddress),
 * cuCtxSetCurrent, cudaSetDevice, and a destroyed current context. The
 * library finds the current context without a driver call while a thread
 * has not changed it (docs/design.md, "Contexts"); a stale answer puts a
 * block in another context's segment, which cuPointerGetAttribute shows.
 * With the argument context-unobservable (expandable segments: VMM memory
 * has no context attribute) the switches and allocations run unchecked.
 * Plain C against cuda.h and the runtime: on a GPU machine,
 * `cc -I/usr/local/cuda/include prog_ctx_switch.c -lcuda -lcudart -ldl`. */
#include <cuda.h>
#include <dlfcn.h>

#include "common.h"
#include "../fnptr.h"

static bool observable = true;

static CUcontext current(void)
{
	CUcontext c = NULL;
	if (cuCtxGetCurrent(&c) != CUDA_SUCCESS)
		FAIL("cuCtxGetCurrent failed");
	return c;
}

/* Allocates (driver and runtime), checks each block's context, frees. */
static void expect_in(CUcontext want, const char *after)
{
	CUdeviceptr p = 0;
	void *q = NULL;
	CUcontext got = NULL, got_rt = NULL, now = current();
	/* The blocks belong where the driver says the thread is; on an H200 the
	 * 3.x push and pop found by dlsym left another context current than
	 * the one pushed (gpu-check, 2026-12-01), plain and preloaded alike. */
	if (now != want)
		printf("info: after %s: the driver's current context is %p, not %p\n", after,
		       (void *)now, (void *)want);
	want = now;
	if (cuMemAlloc(&p, 4096) != CUDA_SUCCESS || cudaMalloc(&q, 4096) != cudaSuccess) {
		FAIL("after %s: allocation failed", after);
		return;
	}
	cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_CONTEXT, p);
	cuPointerGetAttribute(&got_rt, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)q);
	if (observable && (got != want || got_rt != want))
		FAIL("after %s: cuMemAlloc's block in context %p, cudaMalloc's in %p, current is %p",
		     after, (void *)got, (void *)got_rt, (void *)want);
	cuMemFree(p);
	cudaFree(q);
}

int main(int argc, char **argv)
{
	observable = !(argc > 1 && !strcmp(argv[1], "context-unobservable"));
	CHECK(cudaSetDevice(0));
	CUcontext primary = current();
	expect_in(primary, "cudaSetDevice");

	CUcontext a = NULL, b = NULL;
	if (cuCtxCreate(&a, NULL, 0, 0) != CUDA_SUCCESS) { /* cuCtxCreate_v4, current now */
		FAIL("cuCtxCreate failed");
		return integ_report("ctx_switch");
	}
	expect_in(a, "cuCtxCreate");
	cuCtxPushCurrent(primary); /* cuCtxPushCurrent_v2 */
	expect_in(primary, "cuCtxPushCurrent_v2");
	CUcontext popped;
	cuCtxPopCurrent(&popped);
	expect_in(a, "cuCtxPopCurrent_v2");
	cuCtxSetCurrent(primary);
	expect_in(primary, "cuCtxSetCurrent");
	cuCtxSetCurrent(a);
	expect_in(a, "cuCtxSetCurrent back");

	/* The 3.x push and pop, as a program built long ago finds them. */
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	CUresult (*push_v1)(CUcontext) = lib ? (CUresult(*)(CUcontext))fn_of(dlsym(lib, "cuCtxPushCurrent")) : NULL;
	CUresult (*pop_v1)(CUcontext *) = lib ? (CUresult(*)(CUcontext *))fn_of(dlsym(lib, "cuCtxPopCurrent")) : NULL;
	if (push_v1 && pop_v1) {
		push_v1(primary);
		expect_in(primary, "cuCtxPushCurrent (3.x, dlsym)");
		pop_v1(&popped);
		expect_in(a, "cuCtxPopCurrent (3.x, dlsym)");
	} else {
		FAIL("dlsym of cuCtxPushCurrent/cuCtxPopCurrent failed");
	}

	/* The current ABI through cuGetProcAddress, as NVIDIA's runtime. */
	CUresult (*set)(CUcontext) = NULL;
	CUdriverProcAddressQueryResult qr;
	if (cuGetProcAddress("cuCtxSetCurrent", (void **)&set, 13000, 0, &qr) == CUDA_SUCCESS && set) {
		set(primary);
		expect_in(primary, "cuCtxSetCurrent (cuGetProcAddress)");
		set(a);
		expect_in(a, "cuCtxSetCurrent (cuGetProcAddress) back");
	} else {
		FAIL("cuGetProcAddress(cuCtxSetCurrent) failed");
	}

	CHECK(cudaSetDevice(0)); /* the primary context current again */
	expect_in(primary, "cudaSetDevice again");

	/* A created context destroyed while current: the one below it is. */
	cuCtxPushCurrent(a);
	if (cuCtxCreate(&b, NULL, 0, 0) != CUDA_SUCCESS)
		FAIL("second cuCtxCreate failed");
	expect_in(b, "second cuCtxCreate");
	cuCtxDestroy(b); /* cuCtxDestroy_v2 */
	expect_in(a, "cuCtxDestroy of the current context");
	cuCtxPopCurrent(&popped);
	cuCtxDestroy(a);
	expect_in(primary, "the last pop");
	return integ_report("ctx_switch");
}
