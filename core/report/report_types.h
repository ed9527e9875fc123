/* core/report/report_types.h - the report wing's slice of a device: when
 * the last out-of-memory report was printed.
 *
 * Defined first, as jemalloc's *_types.h: core/types.h expands it inside
 * struct cm_device, where the types it names are complete. Guarded by the
 * device lock unless marked lock-free.
 */
#ifndef CM_REPORT_TYPES_H
#define CM_REPORT_TYPES_H

#define CM_DEVICE_REPORT \
	struct { \
		uint64_t report_last; /* when the last out-of-memory report was printed (ns) */ \
		uint64_t report_suppressed; \
	}

#endif
