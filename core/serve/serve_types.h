/* core/serve/serve_types.h - the serve wing's slice of a device: its
 * per-thread caches and what its entry points tell the wings below.
 *
 * Defined first, as jemalloc's *_types.h: core/types.h expands it inside
 * struct cm_device, where the types it names are complete. Guarded by the
 * device lock unless marked lock-free.
 */
#ifndef CM_SERVE_TYPES_H
#define CM_SERVE_TYPES_H

#define CM_DEVICE_SERVE \
	struct { \
		cm_tc_dev *tc_list; /* the per-thread caches bound to the device (tcache.c) */ \
		/* The last request that asked the device found it short of memory \
		 * (heap.c): no memory is set aside for pending frees until one finds \
		 * room (read by fence.c). */ \
		bool short_of_memory; \
		/* lock-free: the program allocated or created a stream here since the \
		 * last reset; pinned frees wait only for devices in use (host.c). */ \
		_Atomic bool in_use; \
	}

#endif
