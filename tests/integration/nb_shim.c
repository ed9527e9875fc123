/* nb_shim.c - libnbshim.so, a tracer-like shim for check_neighbours.py: it
 * defines cuInit, cuMemAlloc_v2 and cuMemFree_v2 and forwards each to
 * dlsym(RTLD_NEXT, name), as profilers do; a call that comes back to the
 * shim itself is a recursion (exit 3). At its first cuInit it asks
 * RTLD_NEXT for names only it defines (a cu* one and a cublas* one): none
 * is found after it, with the library before or after it or absent; and
 * for cuLaunchKernel, whose dlerror() must agree with the answer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT, dlvsym (built alone on a GPU machine) */
#endif
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../fnptr.h"

#define NB_EXPORT __attribute__((visibility("default")))

NB_EXPORT int cuNbProbe(void);
NB_EXPORT int cublasNbProbe(void);
NB_EXPORT int cuNbProbe(void) { return 1; }
NB_EXPORT int cublasNbProbe(void) { return 2; }

static __thread int nb_depth;

static void *nb_next(const char *name, void *self)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (f == self) {
		printf("FAIL: nb_shim: dlsym(RTLD_NEXT, %s) gave the shim's own\n", name);
		fflush(stdout);
		_exit(3);
	}
	return f;
}

static void nb_enter(const char *name)
{
	if (nb_depth++) {
		printf("FAIL: nb_shim: %s came back to the shim\n", name);
		fflush(stdout);
		_exit(3);
	}
}

NB_EXPORT CUresult cuInit(unsigned flags)
{
	static CUresult (*next)(unsigned);
	if (!next) {
		next = (CUresult(*)(unsigned))fn_of(nb_next("cuInit", PTR_OF(cuInit)));
		const char *probes[] = {"cuNbProbe", "cublasNbProbe"};
		for (int i = 0; i < 2; i++)
			printf("nb_shim: dlsym(RTLD_NEXT, %s): %s\n", probes[i],
			       dlsym(RTLD_NEXT, probes[i]) ? "found (wrong: only the shim has it)" : "none");
		/* A hooked name the driver may lack (the fake has no
		 * cuLaunchKernel): found or not, dlerror() says so. */
		dlerror();
		void *f = dlsym(RTLD_NEXT, "cuLaunchKernel");
		const char *e = dlerror();
		printf("nb_shim: dlsym(RTLD_NEXT, cuLaunchKernel): dlerror() %s\n",
		       !f == !!e ? "agrees" : "disagrees (wrong)");
	}
	nb_enter("cuInit");
	CUresult r = next ? next(flags) : CUDA_ERROR_NOT_FOUND;
	nb_depth--;
	return r;
}

NB_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	static CUresult (*next)(CUdeviceptr *, size_t);
	if (!next)
		next = (CUresult(*)(CUdeviceptr *, size_t))fn_of(nb_next("cuMemAlloc_v2",
								       PTR_OF(cuMemAlloc_v2)));
	nb_enter("cuMemAlloc_v2");
	CUresult r = next ? next(p, n) : CUDA_ERROR_NOT_FOUND;
	nb_depth--;
	return r;
}

NB_EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
	static CUresult (*next)(CUdeviceptr);
	if (!next)
		next = (CUresult(*)(CUdeviceptr))fn_of(nb_next("cuMemFree_v2", PTR_OF(cuMemFree_v2)));
	nb_enter("cuMemFree_v2");
	CUresult r = next ? next(p) : CUDA_ERROR_NOT_FOUND;
	nb_depth--;
	return r;
}
