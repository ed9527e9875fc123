/* core/include/backend.h - the device as the core sees it.
 *
 * The core never includes a CUDA header. Everything it asks of a device goes
 * through this table of operations: real CUDA (interpose/) or the simulated
 * device (sim/). Every operation returns a cm_status and passes results out
 * through pointers. Streams and events are opaque handles owned by the
 * backend; the core only stores and passes them back.
 *
 * Stream handles follow CUDA's conventions: CM_STREAM_LEGACY (0) is the
 * legacy default stream, CM_STREAM_PER_THREAD (2) is the calling thread's
 * per-thread default stream. Any other value is a stream the program created.
 *
 * Thread-safety: a backend must accept calls from any thread; the core may
 * call it while holding a device lock, so a backend never calls back into
 * the core.
 */
#ifndef CM_BACKEND_H
#define CM_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum cm_status {
	CM_OK = 0,
	CM_NOT_READY,       /* query: the work is still pending */
	CM_ERR_OOM,         /* not enough device memory */
	CM_ERR_INVALID,     /* bad argument: double free, bad handle, ... */
	CM_ERR_NOT_OURS,    /* free of a pointer the cache never handed out */
	CM_ERR_UNSUPPORTED, /* the backend lacks this operation */
	CM_ERR_CAPTURING,   /* not permitted while a stream captures a graph */
	CM_ERR_UNLOADING,   /* the runtime is shutting down */
	CM_ERR_BAD_HANDLE,  /* a stream handle the device does not know */
	CM_ERR_BACKEND,     /* any other device failure */
} cm_status;

const char *cm_status_name(cm_status st);

typedef uintptr_t cm_stream;
typedef void *cm_event;
typedef uintptr_t cm_mem_handle;

#define CM_STREAM_LEGACY ((cm_stream)0)
#define CM_STREAM_PER_THREAD ((cm_stream)2)

typedef struct cm_backend {
	void *ctx;
	int device_count;

	/* Plain device memory (cudaMalloc / cudaFree). */
	cm_status (*mem_alloc)(void *ctx, int dev, size_t size, uintptr_t *out);
	cm_status (*mem_free)(void *ctx, int dev, uintptr_t ptr);
	cm_status (*mem_get_info)(void *ctx, int dev, size_t *free_bytes,
				  size_t *total_bytes);

	/* Events: created once and pooled by the core. */
	cm_status (*event_create)(void *ctx, int dev, cm_event *out);
	cm_status (*event_destroy)(void *ctx, int dev, cm_event ev);
	cm_status (*event_record)(void *ctx, int dev, cm_event ev, cm_stream s);
	cm_status (*event_query)(void *ctx, int dev, cm_event ev); /* OK or NOT_READY */
	cm_status (*event_synchronize)(void *ctx, int dev, cm_event ev);

	/* Streams. */
	cm_status (*stream_wait_event)(void *ctx, int dev, cm_stream s, cm_event ev);
	cm_status (*stream_query)(void *ctx, int dev, cm_stream s); /* OK or NOT_READY */
	cm_status (*stream_synchronize)(void *ctx, int dev, cm_stream s);
	cm_status (*stream_is_capturing)(void *ctx, int dev, cm_stream s, bool *capturing);
	/* Whether user stream s is a live stream of dev, and non-blocking:
	 * CM_ERR_BAD_HANDLE when it is not. Optional (NULL: not asked). */
	cm_status (*stream_flags)(void *ctx, int dev, cm_stream s, bool *nonblocking);
	cm_status (*device_synchronize)(void *ctx, int dev);

	/* Virtual memory management (expandable segments). Sizes and addresses
	 * are multiples of 2 MiB, the granularity of the devices served (the
	 * core maps 2 MiB chunks, expandable.c). */
	cm_status (*vmm_reserve)(void *ctx, int dev, size_t size, uintptr_t *va_out);
	cm_status (*vmm_release)(void *ctx, int dev, uintptr_t va, size_t size);
	cm_status (*vmm_create)(void *ctx, int dev, size_t size, cm_mem_handle *out);
	cm_status (*vmm_destroy)(void *ctx, int dev, cm_mem_handle h);
	cm_status (*vmm_map)(void *ctx, int dev, uintptr_t va, size_t size, cm_mem_handle h);
	cm_status (*vmm_unmap)(void *ctx, int dev, uintptr_t va, size_t size);
	cm_status (*vmm_set_access)(void *ctx, int dev, uintptr_t va, size_t size);

	/* Optional: the device ordinal of the core's device index (a context
	 * slot, interpose/context.h), for the per-device settings and labels
	 * the user gives by ordinal (memory_limit_mb, metrics). NULL: the same. */
	int (*device_ordinal)(void *ctx, int dev);
	/* Pinned host memory (core/host/host.c), in device dev's context. flags:
	 * the CM_HOST_* of cachemalloc.h (portable, mapped, write-combined).
	 * host_free waits for the work that may still use the memory, as
	 * cudaFreeHost does. host_register pins memory the core allocated
	 * (cudaHostRegister; portable and mapped only), host_unregister
	 * unpins it. Optional (NULL: pinned memory is not cached). */
	cm_status (*host_alloc)(void *ctx, int dev, size_t size, unsigned flags, uintptr_t *out);
	cm_status (*host_free)(void *ctx, int dev, uintptr_t ptr);
	cm_status (*host_register)(void *ctx, int dev, uintptr_t ptr, size_t size, unsigned flags);
	cm_status (*host_unregister)(void *ctx, int dev, uintptr_t ptr);
	/* Optional: the physical device's UUID, which names its registry of
	 * processes (share.c). NULL: the device is not shared. */
	cm_status (*device_uuid)(void *ctx, int dev, uint8_t uuid[16]);
} cm_backend;

#endif
