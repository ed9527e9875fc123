/* core/serve/share.h - one device, many processes (docs/design.md, "Sharing a
 * device"; issue 33).
 *
 * Each process using a device publishes what it holds in a registry: a
 * shared-memory file of the user (/dev/shm/cachemalloc-UID-UUID, mode
 * 0600) named by the device's UUID, one slot per process. A process whose
 * request fails after its own out-of-memory ladder asks its neighbours,
 * through the registry, for the bytes it lacks; each neighbour's listener
 * thread (blocked on a futex word of its slot: no CPU while nothing is
 * asked) gives back idle segments, oldest first, and the requester retries
 * as the device's free memory grows, up to share_wait_ms.
 *
 * Nothing here runs on the cache-hit pair: the core calls in only at slow
 * path events (a growth, an out-of-memory failure). share:off, a backend
 * without device_uuid, or a process that never grows a segment: no file,
 * no thread.
 *
 * The file's layout is read by `cachemalloc top` (python/cachemalloc/top.py):
 * change both together (CM_SHARE_VERSION).
 */
#ifndef CM_SHARE_H
#define CM_SHARE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define CM_SHARE_MAGIC 0x31726873614d43ull /* "CMashr1" */
#define CM_SHARE_VERSION 1u
#define CM_SHARE_SLOTS 256

/* What a slot's listener is asked (asks, bits). */
enum { CM_SHARE_ASK_GIVE = 1 };

/* One process on the device: 192 bytes, the layout top.py reads. */
typedef struct cm_share_slot {
	_Atomic int32_t pid;       /* 0: free; -1: being claimed or reclaimed */
	_Atomic uint32_t wake;     /* futex word: bumped to wake the listener */
	_Atomic uint32_t asks;     /* CM_SHARE_ASK_* (the library's atomics) */
	uint32_t device;           /* the process's ordinal of the device */
	uint64_t start;            /* start time (/proc/PID/stat field 22), against pid reuse */
	char command[32];
	_Atomic uint64_t reserved, allocated, idle, peak;
	_Atomic uint64_t hits, allocs, ooms;
	_Atomic uint64_t last_alloc_ns;  /* CLOCK_REALTIME of the last allocation seen */
	_Atomic uint64_t given_back;     /* bytes given back to neighbours */
	_Atomic uint64_t received;       /* bytes the device freed while this one waited */
	_Atomic uint64_t published_ns;   /* CLOCK_REALTIME of this snapshot */
	_Atomic uint32_t trim_seq;       /* bumped by `cachemalloc trim` */
	_Atomic uint32_t publish_seq;    /* bumped by `cachemalloc top`: publish now */
	_Atomic uint64_t listener;       /* 1: a listener answers (0: none, share_wait skips it) */
	uint64_t image;                  /* which program image of pid claimed it (exec starts another) */
	uint8_t pad[192 - 168];
} cm_share_slot;

typedef struct cm_share_file {
	_Atomic uint64_t magic;
	uint32_t version, nslots;
	_Atomic uint64_t wanted;    /* bytes requesters still lack */
	_Atomic uint32_t released;  /* futex word: bumped after a neighbour gave back */
	uint8_t pad[64 - 28];
	cm_share_slot slots[CM_SHARE_SLOTS];
} cm_share_file;

_Static_assert(sizeof(cm_share_slot) == 192, "top.py reads 192-byte slots");
_Static_assert(sizeof(cm_share_file) == 64 + 192 * CM_SHARE_SLOTS, "top.py reads this layout");

/* The core's calls (share.c). d's lock held unless said. */
struct cm_device;
struct cm_heap;
struct cm_pool;
struct cm_request;
struct cm_block;
/* What this file needs of the entry points that call it, handed in by
 * heap.c at heap creation, so that no file circle closes through here
 * (docs/design.md, "The wings of core/"). */
typedef struct cm_share_calls {
	size_t (*take_back_parked)(struct cm_device *d); /* every thread's parked blocks, d's lock held */
	void (*stats)(struct cm_heap *h, int dev, cm_stats *out); /* cm_stats_get */
} cm_share_calls;
void cm_share_heap_init(const cm_share_calls *calls);
/* After a growth: joins the device's registry on the first (the listener
 * starts then) and publishes the device's numbers. */
void cm_share_grew(struct cm_device *d);
/* Whether neighbours may hold memory a request of size bytes could get:
 * the device is in a registry and the request fits the device. */
bool cm_share_may_help(struct cm_device *d, size_t size);
/* After the ladder failed: asks the neighbours for what the request lacks
 * and retries (retry, under d's lock) as the device's free memory grows,
 * up to share_wait_ms. Drops d's lock while it waits. The block, or NULL. */
typedef struct cm_block *(*cm_share_retry_fn)(struct cm_device *d, struct cm_pool *pool,
					       struct cm_request *rq);
struct cm_block *cm_share_ask(struct cm_device *d, struct cm_pool *pool, struct cm_request *rq,
			      cm_share_retry_fn retry);
/* At heap destruction (no lock): stops the listeners, frees the slots. */
void cm_share_heap_fini(struct cm_heap *h);

#endif
