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
 * cuGetProcAddress itself returns the wrapper again. Where the answer is
 * another object's function (a program or a shim defining the name), it
 * stays that one: a neighbour that wraps a hooked function and forwards to
 * "the next" one gets the library's hook or the driver's, never itself.
 *
 * dlsym keeps glibc's meaning of RTLD_NEXT, which depends on the caller: a
 * name no hook has is handed to glibc's dlsym by a tail call, so that glibc
 * sees the program's return address; for a hooked name the next definition
 * after the caller's object is looked up here, in the order the objects
 * were loaded (glibc's order for every object of the global scope).
 *
 * dlerror() is left as glibc leaves it for the same lookup: the library's
 * own lookups come first (and leave no error, real.c), the last dl call is
 * the program's own, or for RTLD_NEXT one that succeeds or fails as it.
 *
 * The substitution map (driver function -> hook) is built once, on the
 * first lookup after libcuda.so.1 is loaded, and read without a lock.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hook_entry.h"
#include "real.h"
#include "library.h"

#define CM_LOOKUP_CAP 2048 /* a power of two, above twice the hooks */

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

/* A function's address as the lookups hand it out (void *, as dlsym's
 * and cuGetProcAddress's callers expect it). */
static void *cm_lookup_address(cm_fn f)
{
	void *p;
	memcpy(&p, &f, sizeof(p));
	return p;
}

/* Each hook of the table by the driver's function it stands for (its slot
 * in cm_real, filled by cm_drv_resolve). */
static void cm_lookup_add_table(const cm_hook_entry *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cm_lookup_add(__atomic_load_n(t[i].real, __ATOMIC_RELAXED), cm_lookup_address(t[i].hook));
}

/* Builds the map once the driver is loaded; false until then. */
static bool cm_lookup_build(void)
{
	if (atomic_load_explicit(&cm_lookup_ready, memory_order_acquire))
		return true;
	if (!cm_drv_resolve())
		return false;
	pthread_mutex_lock(&cm_lookup_lock);
	if (!atomic_load(&cm_lookup_ready)) {
		cm_lookup_add_table(cm_hook_table, cm_hook_count); /* cuGetProcAddress too */
		cm_lookup_add_table(cm_submit_table, cm_submit_count);
		atomic_store_explicit(&cm_lookup_ready, true, memory_order_release);
	}
	pthread_mutex_unlock(&cm_lookup_lock);
	return true;
}

/* The hook for a driver function, or the function itself. */
static void *cm_lookup_swap(void *fn)
{
	if (!fn || !cm_lookup_build())
		return fn;
	for (size_t i = cm_lookup_slot(fn); cm_lookup_map.key[i]; i = (i + 1) & (CM_LOOKUP_CAP - 1)) {
		if (cm_lookup_map.key[i] == fn) {
			cm_lib_saw(CM_LEVEL_LOOKUP);
			return cm_lookup_map.hook[i];
		}
	}
	return fn;
}

static int cm_lookup_cmp(const void *name, const void *entry)
{
	return strcmp(name, ((const cm_hook_entry *)entry)->symbol);
}

/* Whether a hook of the library has this name: only then can glibc's
 * answer be one to substitute (or the library's own). The generated
 * tables are sorted by name. */
static bool cm_lookup_hooked(const char *name)
{
	return bsearch(name, cm_submit_table, cm_submit_count, sizeof(cm_hook_entry),
		       cm_lookup_cmp) ||
	       bsearch(name, cm_hook_table, cm_hook_count, sizeof(cm_hook_entry), cm_lookup_cmp);
}

/* Hooks are named cu* and never cuda*: the cheap test before the exact one. */
CM_NO_SANITIZE static inline bool cm_lookup_may_be_hooked(const char *name)
{
	return name && name[0] == 'c' && name[1] == 'u' &&
	       !(name[2] == 'd' && name[3] == 'a');
}

/* name as defined by object o itself (not by its dependencies), or NULL. */
static void *cm_lookup_defined_by(struct link_map *o, const char *name)
{
	void *h = dlopen(o->l_name, RTLD_NOLOAD | RTLD_LAZY);
	if (!h)
		return NULL;
	void *f = cm_real_dlsym(h, name);
	Dl_info info;
	struct link_map *where = NULL;
	if (f && (!dladdr1(f, &info, (void **)&where, RTLD_DL_LINKMAP) || where != o))
		f = NULL;
	dlclose(h);
	return f;
}

/* dlsym(RTLD_NEXT, name) as glibc answers it to the code at caller: the
 * first definition in an object loaded after the caller's. */
static void *cm_lookup_next(const void *caller, const char *name)
{
	Dl_info info;
	struct link_map *self = NULL;
	if (!dladdr1(caller, &info, (void **)&self, RTLD_DL_LINKMAP) || !self)
		return cm_real_dlsym(RTLD_NEXT, name); /* not in any object: as before */
	for (struct link_map *o = self->l_next; o; o = o->l_next) {
		void *f = o->l_name && o->l_name[0] ? cm_lookup_defined_by(o, name) : NULL;
		if (f) {
			dlerror(); /* found: no error, whatever the objects before said */
			return f;
		}
	}
	/* None: the error glibc leaves, from a lookup that fails the same way
	 * (libc defines no cu* name), the last dl call (a dlclose would clear
	 * it: libc's handle is kept). */
	static void *libc;
	if (!libc)
		libc = dlopen("libc.so.6", RTLD_NOLOAD | RTLD_LAZY);
	if (libc)
		cm_real_dlsym(libc, name);
	return NULL;
}

static __attribute__((noinline)) void *cm_lookup_dlsym(void *handle, const char *name,
						       const void *caller)
{
	cm_lookup_build(); /* first: its lookups are not the program's */
	void *f = handle == RTLD_NEXT ? cm_lookup_next(caller, name) : cm_real_dlsym(handle, name);
	return cm_lookup_swap(f);
}

CM_NO_SANITIZE void *dlsym(void *handle, const char *name)
{
	if (__builtin_expect(!cm_lookup_may_be_hooked(name), 1) || !cm_lookup_hooked(name)) {
		cm_dlsym_fn real = cm_real_dlsym_fn();
		return real(handle, name); /* a tail call: RTLD_NEXT stays the caller's */
	}
	return cm_lookup_dlsym(handle, name, __builtin_return_address(0));
}

CUresult cuGetProcAddress_v2(const char *sym, void **fn, int ver, cuuint64_t flags,
			     CUdriverProcAddressQueryResult *status)
{
	if (!cm_drv_resolve() || !cm_real.cuGetProcAddress_v2)
		return CUDA_ERROR_NOT_INITIALIZED;
	CUresult r = cm_real.cuGetProcAddress_v2(sym, fn, ver, flags, status);
	if (r == CUDA_SUCCESS && fn)
		*fn = cm_lookup_swap(*fn);
	return r;
}

CUresult cuGetProcAddress(const char *sym, void **fn, int ver, cuuint64_t flags)
{
	if (!cm_drv_resolve() || !cm_real.cuGetProcAddress)
		return CUDA_ERROR_NOT_INITIALIZED;
	CUresult r = cm_real.cuGetProcAddress(sym, fn, ver, flags);
	if (r == CUDA_SUCCESS && fn)
		*fn = cm_lookup_swap(*fn);
	return r;
}
