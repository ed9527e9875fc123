/* nb_vgpu.c - libnbvgpu.so, a second interposer made as HAMi-core's
 * libvgpu.so is, for check_neighbours.py: it exports dlsym, cuGetProcAddress
 * and cuGetProcAddress_v2 and its own cuMemAlloc_v2 / cuMemFree_v2. Its
 * "real" dlsym is the next one, dlvsym(RTLD_NEXT, "dlsym", GLIBC_*); its
 * dlsym answers a cu* name it hooks with its hook, whatever the handle;
 * its cuGetProcAddress asks the driver's (found with its real dlsym on
 * libcuda.so.1's handle) and puts its hooks in; its hooks call the driver's
 * functions found the same way. A call that comes back into one of its
 * hooks is a recursion (exit 3). At exit it tells on stderr how many calls
 * its hooks had. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT, dlvsym (built alone on a GPU machine) */
#endif
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../fnptr.h"

#undef cuGetProcAddress

#define NB_EXPORT __attribute__((visibility("default")))

typedef void *(*nb_dlsym_fn)(void *, const char *);
typedef CUresult (*nb_gpa2_fn)(const char *, void **, int, cuuint64_t,
			       CUdriverProcAddressQueryResult *);
typedef CUresult (*nb_gpa_fn)(const char *, void **, int, cuuint64_t);

NB_EXPORT void *dlsym(void *handle, const char *name);
NB_EXPORT CUresult cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags);
NB_EXPORT CUresult cuGetProcAddress_v2(const char *sym, void **fn, int ver, cuuint64_t flags,
				       CUdriverProcAddressQueryResult *st);
NB_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n);
NB_EXPORT CUresult cuMemFree_v2(CUdeviceptr p);

static nb_dlsym_fn nb_real_dlsym;
static struct {
	CUresult (*alloc)(CUdeviceptr *, size_t);
	CUresult (*release)(CUdeviceptr);
	nb_gpa_fn gpa;
	nb_gpa2_fn gpa2;
} nb_real;
static pthread_once_t nb_once = PTHREAD_ONCE_INIT;
static __thread int nb_depth;

/* glibc's dlsym, the next one: called from the sanitizers' start-up too,
 * before anything else may run (this file is built without them). */
static nb_dlsym_fn nb_dlsym_next(void)
{
	nb_dlsym_fn f = __atomic_load_n(&nb_real_dlsym, __ATOMIC_ACQUIRE);
	if (!f) {
		f = (nb_dlsym_fn)fn_of(dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34"));
		if (!f)
			f = (nb_dlsym_fn)fn_of(dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5"));
		__atomic_store_n(&nb_real_dlsym, f, __ATOMIC_RELEASE);
	}
	return f;
}

/* The driver's functions, found with the real dlsym on its handle. */
static void nb_init(void)
{
	nb_dlsym_fn real = nb_dlsym_next();
	void *cuda = dlopen("libcuda.so.1", RTLD_LAZY);
	if (!real || !cuda)
		return;
	*(void **)&nb_real.alloc = real(cuda, "cuMemAlloc_v2");
	*(void **)&nb_real.release = real(cuda, "cuMemFree_v2");
	*(void **)&nb_real.gpa = real(cuda, "cuGetProcAddress");
	*(void **)&nb_real.gpa2 = real(cuda, "cuGetProcAddress_v2");
}

static int nb_calls; /* told at exit, on stderr */

__attribute__((destructor)) static void nb_tell(void)
{
	fprintf(stderr, "nb_vgpu: %d hook calls\n", nb_calls);
}

static void nb_enter(const char *name)
{
	pthread_once(&nb_once, nb_init);
	__atomic_fetch_add(&nb_calls, 1, __ATOMIC_RELAXED);
	if (nb_depth++) {
		printf("FAIL: nb_vgpu: %s came back to the interposer\n", name);
		fflush(stdout);
		_exit(3);
	}
}

/* Its hook of an exported name, or NULL. */
static void *nb_own(const char *name)
{
	if (strcmp(name, "cuMemAlloc_v2") == 0)
		return PTR_OF(cuMemAlloc_v2);
	if (strcmp(name, "cuMemFree_v2") == 0)
		return PTR_OF(cuMemFree_v2);
	if (strcmp(name, "cuGetProcAddress") == 0)
		return PTR_OF(cuGetProcAddress);
	if (strcmp(name, "cuGetProcAddress_v2") == 0)
		return PTR_OF(cuGetProcAddress_v2);
	return NULL;
}

void *dlsym(void *handle, const char *name)
{
	void *own = handle != RTLD_NEXT ? nb_own(name) : NULL;
	if (own)
		return own;
	nb_dlsym_fn real = nb_dlsym_next();
	return real ? real(handle, name) : NULL;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	nb_enter("cuMemAlloc_v2");
	CUresult r = nb_real.alloc ? nb_real.alloc(p, n) : CUDA_ERROR_NOT_INITIALIZED;
	nb_depth--;
	return r;
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
	nb_enter("cuMemFree_v2");
	CUresult r = nb_real.release ? nb_real.release(p) : CUDA_ERROR_NOT_INITIALIZED;
	nb_depth--;
	return r;
}

/* Its hooks for the cuGetProcAddress names it hooks (the 64-bit ABIs). */
static void nb_put_own(const char *sym, void **fn, int ver)
{
	if (ver < 3020)
		return;
	if (strcmp(sym, "cuMemAlloc") == 0)
		*fn = PTR_OF(cuMemAlloc_v2);
	else if (strcmp(sym, "cuMemFree") == 0)
		*fn = PTR_OF(cuMemFree_v2);
	else if (strcmp(sym, "cuGetProcAddress") == 0)
		*fn = ver >= 12000 ? PTR_OF(cuGetProcAddress_v2) : PTR_OF(cuGetProcAddress);
}

CUresult cuGetProcAddress_v2(const char *sym, void **fn, int ver, cuuint64_t flags,
			     CUdriverProcAddressQueryResult *st)
{
	nb_enter("cuGetProcAddress_v2");
	CUresult r = nb_real.gpa2 ? nb_real.gpa2(sym, fn, ver, flags, st) : CUDA_ERROR_NOT_INITIALIZED;
	nb_depth--;
	if (r == CUDA_SUCCESS && fn && *fn && sym)
		nb_put_own(sym, fn, ver);
	return r;
}

CUresult cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags)
{
	nb_enter("cuGetProcAddress");
	CUresult r = nb_real.gpa ? nb_real.gpa(sym, fn, ver, flags) : CUDA_ERROR_NOT_INITIALIZED;
	nb_depth--;
	if (r == CUDA_SUCCESS && fn && *fn && sym)
		nb_put_own(sym, fn, ver);
	return r;
}
