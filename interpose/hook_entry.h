/* interpose/hook_entry.h - one exported driver hook, as the lookup
 * interposition (dlsym, cuGetProcAddress) sees it; and what the generated
 * submission hooks (submit_hooks.c) need from the library.
 * docs/design.md, "Seeing every submission".
 */
#ifndef CM_HOOK_ENTRY_H
#define CM_HOOK_ENTRY_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

typedef struct cm_hook_entry {
    const char *symbol; /* exported name: "cuMemAlloc_v2", "cuLaunchKernel_ptsz" */
    const char *lookup; /* cuGetProcAddress name: "cuMemAlloc", "cuLaunchKernel" */
    bool ptsz;          /* the per-thread-default-stream variant */
    void *hook;         /* ours */
    void **real;        /* the driver's, once resolved */
} cm_hook_entry;

/* Work is about to be queued on s, or s is about to be made to wait. With
 * ptsz (a _ptsz/_ptds export) a NULL s is the calling thread's per-thread
 * stream, otherwise the legacy stream. Called before the driver. */
void cm_lib_submit(CUstream s, bool ptsz);

/* Fills every *cm_submit_table[i].real it can, with __atomic_store_n (the
 * hooks read them with __atomic_load_n, relaxed, and without a lock); safe
 * to call again and from several threads. A hook whose pointer stays NULL
 * returns CUDA_ERROR_NOT_FOUND. */
void cm_submit_resolve(void);

/* Generated (interpose/submit_hooks.c): one entry per wrapper. */
extern const cm_hook_entry cm_submit_table[];
extern const size_t cm_submit_count;

#endif
