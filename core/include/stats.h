/* core/include/stats.h - allocator statistics as one list of fields.
 *
 * CM_STATS_COUNTERS are monotonic counts; CM_STATS_LEVELS are current values
 * that also keep their peak (field peak_<name>). The struct, the text report
 * and the JSON report are all generated from these two lists, so a field is
 * added in exactly one place.
 */
#ifndef CM_STATS_H
#define CM_STATS_H

#include <stdint.h>
#include <stdio.h>

#define CM_STATS_COUNTERS(X)                                                    \
	X(alloc_calls, "allocation calls")                                      \
	X(free_calls, "free calls")                                             \
	X(cache_hits, "allocations served from cached memory")                 \
	X(thread_cache_hits, "of those, served by a per-thread cache")          \
	X(parked_taken_back, "blocks taken back from other threads' caches")    \
	X(raw_alloc_calls, "device allocations (segments created)")             \
	X(raw_free_calls, "device frees (segments released)")                   \
	X(fences, "full fences issued before a reuse")                          \
	X(covered_streams, "non-blocking streams a fence or cover ordered")     \
	X(collects, "completion collects started")                              \
	X(idle_proofs, "reuses proven by idle user streams instead of a fence")  \
	X(lazy_waits, "stream waits inserted at a stream's next submission")    \
	X(pending_waits, "host waits for pending frees past the pending bound")  \
	X(stream_failures, "failed records, queries or waits on a stream (synchronized, or unproven)") \
	X(stream_waits, "stream waits inserted for a cross-stream reuse")       \
	X(host_syncs, "device synchronizations issued by the allocator")        \
	X(alloc_retries, "allocations that went through the out-of-memory ladder") \
	X(ladder_releases, "ladder step 1: idle segments released to fit")        \
	X(ladder_syncs, "ladder step 2: synchronizations to reclaim fenced blocks") \
	X(ladder_release_alls, "ladder step 3: every idle segment released")      \
	X(oom_count, "allocations that failed for lack of memory")              \
	X(limit_refusals, "segments refused by per_process_memory_fraction")     \
	X(gc_releases, "garbage_collection_threshold passes that released")     \
	X(trims, "release_threshold_mb trims at a device synchronization")      \
	X(headroom_releases, "releases of idle memory that kept a short device's headroom free") \
	X(released_bytes, "bytes given back to the device")                     \
	X(vmm_maps, "expandable segments: chunks mapped")                       \
	X(vmm_unmaps, "expandable segments: chunks unmapped")                   \
	X(stitches, "expandable segments: growths that mapped stitched chunks") \
	X(stitched_bytes, "bytes mapped from kept chunks instead of new memory") \
	X(stitch_unmaps, "chunks unmapped from free blocks to be stitched")     \
	X(stitch_budget_growths, "growths with room made without stitching: its budget spent") \
	X(ladder_stitches, "ladder: growths served by stitching after its sync") \
	X(invalid_frees, "frees of pointers that were not live blocks")         \
	X(release_failures, "device memory the driver did not take back (kept, retried)") \
	X(host_alloc_calls, "pinned host allocation calls (process-wide)")      \
	X(host_cache_hits, "of those, served from cached pinned memory")       \
	X(host_releases, "pinned blocks given back to CUDA")           \
	X(syncs_seen, "stream and device synchronizations the hooks told the core")

#define CM_STATS_LEVELS(X)                                                      \
	X(allocated_bytes, "bytes in blocks held by the program")               \
	X(allocated_blocks, "blocks held by the program")                       \
	X(reserved_bytes, "bytes obtained from the device")                     \
	X(segments, "segments obtained from the device")                        \
	X(inactive_split_bytes, "free bytes in partly used segments")            \
	X(stitch_free_bytes, "unmapped chunks kept for stitching (in reserved)") \
	X(unreleased_bytes, "bytes the driver did not take back, retried (in reserved)") \
	X(host_reserved_bytes, "pinned host bytes obtained from CUDA (process-wide)") \
	X(host_cached_bytes, "of those, cached and not held by the program")   \
	X(pending_bytes, "free bytes awaiting an order or completion before reuse")

typedef struct cm_stats {
#define CM_X(name, desc) uint64_t name;
	CM_STATS_COUNTERS(CM_X)
#undef CM_X
#define CM_X(name, desc) uint64_t name; uint64_t peak_##name;
	CM_STATS_LEVELS(CM_X)
#undef CM_X
} cm_stats;

void cm_stats_add(cm_stats *into, const cm_stats *from);
void cm_stats_print_text(const cm_stats *st, FILE *out);
void cm_stats_print_json(const cm_stats *st, FILE *out);
/* The JSON object's members without its braces, for a report that adds
 * its own (the library's exit report); and the one-line summary
 * (exit_summary, `cachemalloc check`). */
void cm_stats_print_json_fields(const cm_stats *st, FILE *out);
void cm_stats_print_summary(const cm_stats *st, FILE *out);

#endif
