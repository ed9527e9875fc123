/* interpose/real.h - the real CUDA functions, resolved once.
 *
 * One store, cm_real (generated from interpose/hooks.table into
 * hook_table.h, with cm_real_<name>, the call of one): the runtime
 * functions the runtime-level hooks wrap or call, from libcudart
 * (dlsym(RTLD_NEXT), or dlopen(RTLD_NOLOAD) plus dlvsym when the runtime
 * was loaded privately, cm_real_resolve), and the driver functions the
 * backend calls and the driver-level hooks wrap, from the libcuda.so.1 the
 * process loaded (never loaded by us: the program's own search path found
 * it; cm_drv_resolve). A function missing stays NULL; callers check. All
 * are resolved with the real dlsym (cm_real_dlsym), never the one the
 * library exports (lookup.c).
 *
 * The re-entry guard: while the library itself is inside a CUDA call on a
 * thread, hooks called on that thread go straight to the real function. A
 * runtime-level hook raises it around the real runtime call, so that the
 * driver-level hooks the runtime reaches pass it through: one request
 * enters the cache once (docs/design.md, "One cache per process").
 */
#ifndef CM_REAL_H
#define CM_REAL_H

#ifndef __CUDA_API_VERSION_INTERNAL
#error "interpose/ is built with -D__CUDA_API_VERSION_INTERNAL (interpose/meson.build): every CUDA name is then the symbol of that name, the first ABI versions and the _ptsz variants declared"
#endif
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdbool.h>

/* Code that runs inside the exported dlsym, which a sanitizer's runtime
 * calls while it initializes, before its shadow memory exists. */
#define CM_NO_SANITIZE __attribute__((no_sanitize("address", "thread", "undefined")))

/* glibc's dlsym, never the one this library exports. */
typedef void *(*cm_dlsym_fn)(void *, const char *);
cm_dlsym_fn cm_real_dlsym_fn(void);
void *cm_real_dlsym(void *handle, const char *name);

/* Resolves cm_real's runtime functions (once, thread-safe). False if the
 * runtime is missing. */
bool cm_real_resolve(void);
/* Resolves cm_real's driver functions once libcuda.so.1 is loaded; false
 * until it is. Cheap once it has succeeded (the slots are stored
 * atomically: the submission wrappers read theirs without this call). */
bool cm_drv_resolve(void);
/* The driver's handle (after cm_drv_resolve succeeded). */
void *cm_drv_handle(void);

extern __thread int cm_in_cuda __attribute__((tls_model("initial-exec")));

#include "hook_table.h"

#endif
