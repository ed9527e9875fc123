/* interpose/hook_entry.h - a hooked driver entry point, as the lookup
 * wrappers (lookup.c) see it: the hand-written hooks (cm_hook_table,
 * hook_table.c) and the submission wrappers (cm_submit_table,
 * submit_hooks.c) are tables of these, both generated from
 * interpose/hooks.table by scripts/gen_hooks.py. */
#ifndef CM_HOOK_ENTRY_H
#define CM_HOOK_ENTRY_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>

/* Any function: a function pointer converts to another function pointer
 * type and back (ISO C), not to void *. */
typedef void (*cm_fn)(void);

typedef struct cm_hook_entry {
	const char *symbol; /* exported name: "cuMemAlloc_v2", "cuLaunchKernel_ptsz" */
	const char *lookup; /* cuGetProcAddress name: "cuMemAlloc", "cuLaunchKernel" */
	bool ptsz;          /* the per-thread-default-stream variant */
	cm_fn hook;         /* ours */
	void **real;        /* the driver's: its slot in cm_real (real.h) */
} cm_hook_entry;

/* Work is about to reach stream s (NULL: the default stream; ptsz: NULL
 * means the calling thread's per-thread stream): called by every
 * submission hook before the real function, once per stream it uses. It
 * makes s wait for what the allocator ordered it after. */
void cm_lib_submit(CUstream s, bool ptsz);
/* The real function returned: the streams named to cm_lib_submit on this
 * thread since the last call ran work. */
void cm_lib_submitted(void);

/* Both sorted by symbol. */
extern const cm_hook_entry cm_submit_table[];
extern const size_t cm_submit_count;
extern const cm_hook_entry cm_hook_table[];
extern const size_t cm_hook_count;

#endif
