/* interpose/hook_entry.h - a hooked driver entry point, as the lookup
 * wrappers (lookup.c) see it: the hand-written hooks (driver_hooks.c) and
 * the generated submission hooks (submit_hooks.c) are tables of these. */
#ifndef CM_HOOK_ENTRY_H
#define CM_HOOK_ENTRY_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct cm_hook_entry {
	const char *symbol; /* exported name: "cuMemAlloc_v2", "cuLaunchKernel_ptsz" */
	const char *lookup; /* cuGetProcAddress name: "cuMemAlloc", "cuLaunchKernel" */
	bool ptsz;          /* the per-thread-default-stream variant */
	void *hook;         /* ours */
	void **real;        /* the driver's, once resolved */
} cm_hook_entry;

/* Work is about to reach stream s (NULL: the default stream; ptsz: NULL
 * means the calling thread's per-thread stream): called by every
 * submission hook before the real function, once per stream it uses. It
 * makes s wait for what the allocator ordered it after. */
void cm_lib_submit(CUstream s, bool ptsz);
/* The real function returned: the streams named to cm_lib_submit on this
 * thread since the last call ran work. */
void cm_lib_submitted(void);

/* Resolves every submission hook's real function (lookup.c). */
void cm_submit_resolve(void);

extern const cm_hook_entry cm_submit_table[];
extern const size_t cm_submit_count;
extern const cm_hook_entry cm_driver_table[];
extern const size_t cm_driver_count;
extern const cm_hook_entry cm_driver_v1_table[]; /* the first ABI versions */
extern const size_t cm_driver_v1_count;
extern const cm_hook_entry cm_host_table[]; /* host_hooks.c */
extern const size_t cm_host_count;

#endif
