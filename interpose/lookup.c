/* interpose/lookup.c - the three ways a program finds a driver function.
 *
 * A program reaches the driver through the symbol it links (the hooks are
 * exported and come first in the search order), through dlsym on the
 * driver's handle, or through cuGetProcAddress[_v2], which every CUDA
 * runtime uses for each entry point (docs/design.md, "The driver layer").
 * This file exports dlsym and both cuGetProcAddress signatures. Each asks
 * the real one first and substitutes a hook only when the pointer it got
 * is exactly a hooked driver function, as resolved once from libcuda.so.1
 * by name: the ABI version (_v2, 32-bit v1), the per-thread-stream
 * variant and the status returned stay the driver's. A lookup of
 * cuGetProcAddress itself returns the wrapper again.
 *
 * dlsym must keep glibc's meaning of RTLD_NEXT, which depends on the
 * caller: a name that cannot be a driver function is handed to glibc's
 * dlsym by a tail call, so that glibc sees the program's return address.
 *
 * The substitution map (driver function -> hook) is built once, on the
 * first lookup after libcuda.so.1 is loaded, and read without a lock.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "hook_entry.h"
#include "real.h"

#define CM_EXPORT __attribute__((visibility("default")))
#define CM_LOOKUP_CAP 2048 /* a power of two, above twice the hooks */

CM_EXPORT CM_NO_SANITIZE void *dlsym(void *handle, const char *name);
CM_EXPORT CUresult cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags);

static struct {
	void *key[CM_LOOKUP_CAP];
	void *hook[CM_LOOKUP_CAP];
} cm_lookup_map;
static atomic_bool cm_lookup_ready;
static pthread_mutex_t cm_lookup_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t cm_lookup_slot(const void *p)
{
	return (size_t)(((uintptr_t)p * 0x9e3779b97f4a7c15ull) >> 40) & (CM_LOOKUP_CAP - 1);
}

static void cm_lookup_add(void *real, void *hook)
{
	if (!real)
		return;
	size_t i = cm_lookup_slot(real);
	while (cm_lookup_map.key[i] && cm_lookup_map.key[i] != real)
		i = (i + 1) & (CM_LOOKUP_CAP - 1);
	cm_lookup_map.key[i] = real;
	cm_lookup_map.hook[i] = hook;
}

static void cm_lookup_add_table(void *driver, const cm_hook_entry *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		void *real = cm_real_dlsym(driver, t[i].symbol);
		if (t[i].real)
				__atomic_store_n(t[i].real, real, __ATOMIC_RELAXED);
		cm_lookup_add(real, t[i].hook);
	}
}

/* Builds the map once the driver is loaded; false until then. */
static bool cm_lookup_build(void)
{
	if (atomic_load_explicit(&cm_lookup_ready, memory_order_acquire))
		return true;
	if (!cm_drv_resolve())
		return false;
	void *driver = cm_drv_handle();
	pthread_mutex_lock(&cm_lookup_lock);
	if (!atomic_load(&cm_lookup_ready)) {
		cm_lookup_add_table(driver, cm_driver_table, cm_driver_count);
		cm_lookup_add_table(driver, cm_submit_table, cm_submit_count);
		cm_lookup_add_table(driver, cm_host_table, cm_host_count);
		cm_lookup_add((void *)cm_drv.cuGetProcAddress, (void *)cuGetProcAddress);
		cm_lookup_add((void *)cm_drv.cuGetProcAddress_v2, (void *)cuGetProcAddress_v2);
		atomic_store_explicit(&cm_lookup_ready, true, memory_order_release);
	}
	pthread_mutex_unlock(&cm_lookup_lock);
	return true;
}

void cm_submit_resolve(void)
{
	cm_lookup_build();
}

/* The hook for a driver function, or the function itself. */
static void *cm_lookup_swap(void *fn)
{
	if (!fn || !cm_lookup_build())
		return fn;
	for (size_t i = cm_lookup_slot(fn); cm_lookup_map.key[i]; i = (i + 1) & (CM_LOOKUP_CAP - 1))
		if (cm_lookup_map.key[i] == fn)
			return cm_lookup_map.hook[i];
	return fn;
}

/* Driver functions are named cu* and never cuda*. */
CM_NO_SANITIZE static inline bool cm_lookup_may_be_driver(const char *name)
{
	return name && name[0] == 'c' && name[1] == 'u' &&
	       !(name[2] == 'd' && name[3] == 'a');
}

static __attribute__((noinline)) void *cm_lookup_dlsym(void *handle, const char *name)
{
	return cm_lookup_swap(cm_real_dlsym(handle, name));
}

CM_EXPORT void *dlsym(void *handle, const char *name)
{
	if (__builtin_expect(!cm_lookup_may_be_driver(name), 1)) {
		cm_dlsym_fn real = cm_real_dlsym_fn();
		return real(handle, name); /* a tail call: RTLD_NEXT stays the caller's */
	}
	return cm_lookup_dlsym(handle, name);
}

CM_EXPORT CUresult cuGetProcAddress_v2(const char *sym, void **fn, int ver, cuuint64_t flags,
				       CUdriverProcAddressQueryResult *status)
{
	if (!cm_drv_resolve() || !cm_drv.cuGetProcAddress_v2)
		return CUDA_ERROR_NOT_INITIALIZED;
	CUresult r = cm_drv.cuGetProcAddress_v2(sym, fn, ver, flags, status);
	if (r == CUDA_SUCCESS && fn)
		*fn = cm_lookup_swap(*fn);
	return r;
}

CM_EXPORT CUresult cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags)
{
	if (!cm_drv_resolve() || !cm_drv.cuGetProcAddress)
		return CUDA_ERROR_NOT_INITIALIZED;
	CUresult r = cm_drv.cuGetProcAddress(sym, fn, ver, flags);
	if (r == CUDA_SUCCESS && fn)
		*fn = cm_lookup_swap(*fn);
	return r;
}
