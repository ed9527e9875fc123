/* sim/sim_range.h - an address-ordered free-range allocator over an
 * abstract interval [base, base + len): device memory inside a device's
 * region, and offsets inside a device's physical-memory file for the VMM.
 *
 * It never touches the memory it manages (the metadata lives on the host
 * heap), so device bytes that tests scribble on cannot corrupt it.
 * Not thread-safe: the owner locks.
 */
#ifndef CM_SIM_RANGE_H
#define CM_SIM_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_treap.h"

typedef struct sim_rblock {
	sim_tnode node; /* first: a node pointer is a block pointer */
	uintptr_t addr;
	size_t size;
	struct sim_rblock *prev, *next; /* neighbours in address order */
	bool free;
} sim_rblock;

typedef struct sim_range {
	uintptr_t base;
	size_t len;
	size_t quantum;     /* every address and size is a multiple of it */
	sim_treap by_size;  /* free blocks, key (size, addr): best fit */
	sim_treap by_addr;  /* allocated blocks, key (addr, 0): frees */
	sim_rblock *first;  /* the block at base; blocks tile the interval */
	sim_rblock *spare;  /* recycled block records, linked through next */
} sim_range;

/* base must be aligned to the largest alignment ever requested; len and
 * quantum multiples of quantum, quantum a power of two. */
bool sim_range_init(sim_range *r, uintptr_t base, size_t len, size_t quantum);
void sim_range_fini(sim_range *r);

/* size a non-zero multiple of quantum, align a power-of-two multiple of
 * quantum. False: no free range fits (nothing changed). */
bool sim_range_alloc(sim_range *r, size_t size, size_t align, uintptr_t *out);

/* Size of the allocation starting exactly at addr, or false. */
bool sim_range_lookup(const sim_range *r, uintptr_t addr, size_t *size);

/* Frees the allocation starting exactly at addr; false if there is none.
 * Reports its size and the free range it merged into, [*lo, *hi). */
bool sim_range_free(sim_range *r, uintptr_t addr, size_t *size,
		    uintptr_t *lo, uintptr_t *hi);

#endif
