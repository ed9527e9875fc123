/* interpose/nvtx.h - the cache's memory as NVTX sees it (docs/design.md,
 * "Blocks visible to compute-sanitizer").
 *
 * A segment the cache got from the device is an NVTX heap (a
 * sub-allocator: nothing in it may be touched until a region says so);
 * a block held by the program is a region of its segment's heap, of the
 * size the program asked for. A tool attached through NVTX (compute-
 * sanitizer) then reports an access to a freed block, or past the end of
 * a held one, as it would without the cache.
 *
 * Everything here is a translation: the hooks call it after an allocation
 * succeeded and before a free reaches the core, the backend for segments.
 * While cm_nvtx_on is false (no tool, or nvtx_memory:off) the hooks pay
 * one load and one predictable branch; nothing else runs.
 */
#ifndef CM_NVTX_H
#define CM_NVTX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cachemalloc.h"

extern atomic_bool cm_nvtx_on __attribute__((visibility("hidden"))); /* one load (library.h) */

static inline bool cm_nvtx_active(void)
{
	return __builtin_expect(atomic_load_explicit(&cm_nvtx_on, memory_order_relaxed), 0);
}

/* Decides once, before the heap exists, from nvtx_memory and whether a
 * tool is named. Calls no NVTX function. */
void cm_nvtx_init(const cm_config *cfg);

/* A segment (or an expandable range) of the slot's context, from the
 * device: registered as a heap. The first registration also tells whether
 * the tool implements the memory API; if not, cm_nvtx_on goes off. */
void cm_nvtx_segment_added(int slot, uintptr_t base, size_t size);
/* The segment starting at base goes back to the device: unregistered
 * before it does (its regions go with it). */
void cm_nvtx_segment_removed(uintptr_t base);
/* The slot's context is gone with its memory: every heap of it. */
void cm_nvtx_slot_forgotten(int slot);

/* Block p of `asked` bytes handed to the program. */
void cm_nvtx_block_added(uintptr_t p, size_t asked);
/* The program frees p: its region is unregistered when p is a block the
 * program holds (anything else goes to the core or CUDA unchanged). */
void cm_nvtx_block_freeing(cm_heap *h, uintptr_t p);

#endif
