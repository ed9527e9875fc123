/* core/mem/mem_types.h - the memory wing's slice of a device: pools,
 * segments and blocks, idle and awaiting lists, kept chunks, the limits.
 *
 * Defined first, as jemalloc's *_types.h: core/types.h expands it inside
 * struct cm_device, where the types it names are complete. Guarded by the
 * device lock unless marked lock-free.
 */
#ifndef CM_MEM_TYPES_H
#define CM_MEM_TYPES_H

#define CM_DEVICE_MEM \
	struct { \
		cm_pool none_small, none_large; /* cudaMalloc's pools */ \
		cm_tnode *idle_small, *idle_large; /* wholly free segments */ \
		/* Free blocks awaiting a proof (an order or a completion) before \
		 * cudaMalloc may reuse them, out of their pools' indexes (segment.c); \
		 * their bytes are stats.pending_bytes. Linked through node.left and \
		 * node.right, in the order they were set aside; the prefix of them \
		 * freed at or before the proven epoch goes back to the indexes. */ \
		cm_tnode *awaiting_head, *awaiting_tail; \
		cm_segment *idle_oldest, *idle_newest; /* the same, by idle_since (release.c) */ \
		uint64_t clock;                    /* logical time for idle ordering */ \
		cm_segment **segs;                 /* by base address */ \
		size_t nsegs, segs_cap; \
		cm_livemap live; \
		_Atomic uint64_t large_place_gen; /* lock-free read: bumped when a large pool changes */ \
		/* lock-free read: stats.reserved_bytes, for the other slots of the \
		 * same physical device (cm_reserved_add). */ \
		_Atomic uint64_t reserved_seen; \
		size_t limit; /* per_process_memory_fraction of the device; 0: not read yet */ \
		/* A miss found the process past three quarters of what it can have \
		 * (heap.c: cm_room_tight, the device short, a refusal by the cap): \
		 * large blocks are exact (segment.c, cm_split_max) until a miss finds \
		 * room for as much again as it holds (cm_room_ample) or a reset. */ \
		bool large_exact; \
		/* release_threshold_mb of this device: the configuration's, or what the \
		 * program set on the default memory pool (pool_view.c); SIZE_MAX: keep \
		 * all. Back to the configuration's at a reset. */ \
		size_t release_threshold; \
		/* Unmapped physical chunks kept for stitching (stitch.c): complete, \
		 * counted in reserved_bytes and stitch_free_bytes. */ \
		cm_mem_handle *free_chunks; \
		size_t nfree_chunks, free_chunks_cap, free_chunk_size; \
		/* Stitching's budget while memory has room (stitch.c): \
		 * stats.stitched_bytes and peak_reserved_bytes when the peak \
		 * last rose. */ \
		uint64_t stitch_budget_from, stitch_budget_peak; \
		/* Memory the driver did not take back, given back again at the next \
		 * release (giveback.c): counted in reserved_bytes and \
		 * unreleased_bytes. */ \
		struct cm_giveback *giveback; \
		size_t ngiveback, giveback_cap; \
		bool giveback_told; \
		cm_block *block_freelist; /* type-stable block structs */ \
		void **slabs; \
		size_t nslabs, slabs_cap; \
	}

#endif
