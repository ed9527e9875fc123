/* interpose/real.c - resolution of the real runtime and driver symbols. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "real.h"

__thread int cm_in_cuda __attribute__((tls_model("initial-exec")));

/* ---- glibc's dlsym ---- */

static _Atomic(cm_dlsym_fn) cm_real_dlsym_ptr;

/* dlsym moved from libdl to libc in glibc 2.34; the older version node
 * is the one a libc before it has. dlvsym never answers with an
 * unversioned definition in an object that has version information, so
 * another interposer's dlsym (HAMi-core's libvgpu.so) is never taken for
 * glibc's, whatever the order (tests/integration/check_neighbours.py). */
CM_NO_SANITIZE static cm_dlsym_fn cm_real_dlsym_version(const char *version)
{
	cm_dlsym_fn f;
	*(void **)&f = dlvsym(RTLD_NEXT, "dlsym", version); /* POSIX's way to a function */
	return f;
}

CM_NO_SANITIZE static cm_dlsym_fn cm_real_dlsym_find(void)
{
	cm_dlsym_fn f = cm_real_dlsym_version("GLIBC_2.34");
	if (!f)
		f = cm_real_dlsym_version("GLIBC_2.2.5");
	if (!f)
		f = cm_real_dlsym_version("GLIBC_2.17"); /* aarch64 */
	return f;
}

static void *cm_real_dlsym_none(void *handle, const char *name)
{
	(void)handle;
	(void)name;
	return NULL;
}

CM_NO_SANITIZE cm_dlsym_fn cm_real_dlsym_fn(void)
{
	cm_dlsym_fn f = atomic_load_explicit(&cm_real_dlsym_ptr, memory_order_acquire);
	if (__builtin_expect(f == NULL, 0)) {
		f = cm_real_dlsym_find();
		if (!f)
			return cm_real_dlsym_none;
		atomic_store_explicit(&cm_real_dlsym_ptr, f, memory_order_release);
	}
	return f;
}

void *cm_real_dlsym(void *handle, const char *name)
{
	return cm_real_dlsym_fn()(handle, name);
}

/* ---- the runtime ---- */

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
	void *f = cm_real_dlsym(RTLD_NEXT, name);
	if (!f && runtime) {
		f = dlvsym(runtime, name, version);
		if (!f)
			f = cm_real_dlsym(runtime, name);
	}
	return f;
}

static void cm_real_resolve_once(void)
{
	char version[32] = "";
	void *runtime = cm_real_dlsym(RTLD_NEXT, "cudaMalloc")
				? NULL
				: cm_real_runtime_handle(version, sizeof(version));
	for (size_t i = 0; i < cm_real_runtime_count; i++)
		*cm_real_runtime_slots[i].slot =
			cm_real_lookup(cm_real_runtime_slots[i].name, runtime, version);
	dlerror(); /* the functions the runtime lacks leave no error (lookup.c) */
	cm_real_ok = cm_real.cudaMalloc && cm_real.cudaFree && cm_real.cudaGetLastError;
}

bool cm_real_resolve(void)
{
	pthread_once(&cm_real_once, cm_real_resolve_once);
	return cm_real_ok;
}

/* ---- the driver ---- */

static _Atomic(void *) cm_drv_lib;
static pthread_mutex_t cm_drv_lock = PTHREAD_MUTEX_INITIALIZER;

bool cm_drv_resolve(void)
{
	if (__builtin_expect(atomic_load_explicit(&cm_drv_lib, memory_order_acquire) != NULL, 1))
		return true;
	void *lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
	if (!lib) {
		dlerror(); /* not loaded yet: no error for the program to find */
		return false;
	}
	pthread_mutex_lock(&cm_drv_lock);
	if (!atomic_load(&cm_drv_lib)) {
		for (size_t i = 0; i < cm_real_driver_count; i++)
			__atomic_store_n(cm_real_driver_slots[i].slot,
					 cm_real_dlsym(lib, cm_real_driver_slots[i].name), __ATOMIC_RELAXED);
		dlerror(); /* the functions this driver lacks leave no error */
		atomic_store_explicit(&cm_drv_lib, lib, memory_order_release);
	} else {
		dlclose(lib);
	}
	pthread_mutex_unlock(&cm_drv_lock);
	return true;
}

void *cm_drv_handle(void)
{
	return atomic_load_explicit(&cm_drv_lib, memory_order_acquire);
}
