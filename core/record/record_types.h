/* core/record/record_types.h - the record wing's slice of a device: the
 * trace and the call stacks (its stats are struct cm_device's last member).
 *
 * Defined first, as jemalloc's *_types.h: core/types.h expands it inside
 * struct cm_device, where the types it names are complete. Guarded by the
 * device lock unless marked lock-free.
 */
#ifndef CM_RECORD_TYPES_H
#define CM_RECORD_TYPES_H

#define CM_DEVICE_RECORD \
	struct { \
		struct cm_trace_entry *trace; /* NULL: not tracing (trace.c) */ \
		struct cm_stacks *stacks;     /* NULL: no stacks (stacks.c) */ \
		size_t trace_next, trace_count; \
	}

#endif
