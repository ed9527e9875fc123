/* interpose/real.c - resolution of the real runtime and driver symbols. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "real.h"

cm_real_table cm_real;
__thread int cm_in_cuda __attribute__((tls_model("initial-exec")));

static pthread_once_t cm_real_once = PTHREAD_ONCE_INIT;
static bool cm_real_ok;

/* The runtime loaded privately: find it by soname, newest major first. */
static void *cm_real_runtime_handle(char *version, size_t n)
{
	for (int major = 13; major >= 11; major--) {
		char soname[32];
		snprintf(soname, sizeof(soname), "libcudart.so.%d", major);
		void *h = dlopen(soname, RTLD_NOLOAD | RTLD_LAZY);
		if (h) {
			snprintf(version, n, "%s", soname);
			return h;
		}
	}
	return NULL;
}

static void *cm_real_lookup(const char *name, void *runtime, const char *version)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f && runtime) {
		f = dlvsym(runtime, name, version);
		if (!f)
			f = dlsym(runtime, name);
	}
	return f;
}

static void cm_real_resolve_once(void)
{
	char version[32] = "";
	void *runtime = dlsym(RTLD_NEXT, "cudaMalloc") ? NULL
						       : cm_real_runtime_handle(version, sizeof(version));
#define CM_X(name, params) *(void **)&cm_real.name = cm_real_lookup(#name, runtime, version);
	CM_REAL_FUNCS(CM_X)
#undef CM_X
	cm_real_ok = cm_real.cudaMalloc && cm_real.cudaFree && cm_real.cudaGetDevice &&
		     cm_real.cudaGetDeviceCount && cm_real.cudaEventCreateWithFlags &&
		     cm_real.cudaEventRecord && cm_real.cudaEventQuery &&
		     cm_real.cudaStreamWaitEvent && cm_real.cudaDeviceSynchronize &&
		     cm_real.cudaGetLastError && cm_real.cudaPeekAtLastError;
}

bool cm_real_resolve(void)
{
	pthread_once(&cm_real_once, cm_real_resolve_once);
	return cm_real_ok;
}

void cm_real_resolve_driver(void)
{
	void *driver = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
	if (driver)
		*(void **)&cm_real.cuCtxGetCurrent = dlsym(driver, "cuCtxGetCurrent");
}
