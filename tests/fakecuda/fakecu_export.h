/* tests/fakecuda/fakecu_export.h - the fake driver's private export table.
 *
 * NVIDIA's runtime reaches driver internals that have no public entry point
 * through a private table (cuGetExportTable). The fake runtime does the
 * same for what it needs beyond the public driver API: libcuda.so.1 exports
 * fakecu_get_export_table (a non-CUDA name), which the runtime finds with
 * dlsym on the handle it opened. Shared by fakecu_exports.c (the driver
 * side) and fakecudart.c (the runtime side).
 */
#ifndef FAKECU_EXPORT_H
#define FAKECU_EXPORT_H

#include <cuda.h>

#include <stddef.h>

typedef enum fakecu_mem {
	FAKECU_MEM_DEVICE,  /* cuMemAlloc, cuMemAllocAsync, pitched, VMM */
	FAKECU_MEM_MANAGED, /* cuMemAllocManaged */
	FAKECU_MEM_HOST,    /* cuMemAllocHost */
} fakecu_mem;

typedef struct fakecu_ptr {
	fakecu_mem kind;
	int dev;
} fakecu_ptr;

typedef struct fakecu_export_table {
	size_t size; /* sizeof(fakecu_export_table) */
	/* The memory holding [p, p + n) (n = 0: one byte): 1 and *out, 0 if p
	 * is in no allocation, -1 if the range runs past the end of one. */
	int (*pointer)(const void *p, size_t n, fakecu_ptr *out);
	/* What cuMemAlloc checks before allocating, without allocating: a
	 * current context, no capture that prohibits the call. */
	CUresult (*alloc_check)(void);
	/* Device memory that is not cuMemAlloc's (the runtime's pitched
	 * allocations: NVIDIA's runtime uses cuMemAllocPitch). */
	CUresult (*alloc_device)(size_t n, void **out);
	/* The runtime enters (+1) and leaves (-1) one of its driver calls:
	 * calls made meanwhile are the program's (fakecu_fault.c). */
	void (*program_call)(int delta);
} fakecu_export_table;

typedef const fakecu_export_table *(*fakecu_get_export_table_fn)(void);
#define FAKECU_EXPORT_TABLE_SYMBOL "fakecu_get_export_table"

#endif
