/* core/types.h - the core's types, first (as jemalloc's *_types.h): every
 * wing's structs, so that a lower wing may hold a pointer to a higher
 * one's data (a block's tag names a stream record; a stream record holds
 * its pools). Calls are another matter: a wing calls only the wings below
 * it (docs/design.md, "What it is, and the layers"), each declared in its
 * own header (record/record.h ... serve/serve.h).
 *
 * Ownership: a cm_heap owns one cm_device per backend device. A device owns
 * its segments, their blocks, its pools, its stream records and its stats,
 * and one mutex (dev->lock) guards all of them. Lock order: the registry
 * lock of per-thread caches (serve/tcache.c) before a device lock, as the
 * pinned host cache's lock (host/host.c), never taken under one; never
 * two device locks at once; the stream directory's lock
 * (order/directory.c) is a leaf; no lock is held across a call back into
 * the program.
 *
 * A segment is what the backend gave (one mem_alloc). Blocks tile it in
 * address order with no gap; a block never spans two segments and merging
 * never crosses one. A block is FREE (in its pool's index) or USED (held by
 * the program, or parked in a per-thread cache, see tcache.c). Every
 * segment belongs to exactly one pool; all its blocks are in that pool.
 *
 * The only fields touched without the device lock are the atomics marked
 * "lock-free" below and the per-thread caches' own state.
 */
#ifndef CM_TYPES_H
#define CM_TYPES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cachemalloc.h"
#include "mem/mem_types.h"
#include "order/order_types.h"
#include "record/record_types.h"
#include "report/report_types.h"
#include "serve/serve_types.h"
#include "config.h"
#include "stats.h"

/* Graded assertions: cm_assert is cheap and on in debug builds;
 * cm_heap_check (check.c) is the expensive one that tests call. */
#ifdef NDEBUG
#define cm_assert(x) ((void)0)
#else
#define cm_assert(x) ((x) ? (void)0 : cm_assert_fail(#x, __FILE__, __LINE__))
#endif
void cm_assert_fail(const char *what, const char *file, int line) __attribute__((noreturn));

#define CM_LIKELY(x) __builtin_expect(!!(x), 1)
#define CM_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define CM_KiB ((size_t)1 << 10)
#define CM_MiB ((size_t)1 << 20)

/* Size policy (docs/design.md, "Sizes and pools"). */
#define CM_MIN_BLOCK ((size_t)512)
#define CM_SMALL_REQUEST CM_MiB           /* up to this: small pool */
#define CM_SMALL_SEGMENT (2 * CM_MiB)
#define CM_MID_REQUEST (10 * CM_MiB)      /* up to this: 20 MiB segments */
#define CM_MID_SEGMENT (20 * CM_MiB)
#define CM_LARGE_ROUND (2 * CM_MiB)       /* larger: own segment, rounded */
#define CM_LARGE_MIN_REMAINDER CM_MiB     /* large blocks split only above this */

#define CM_KEY_NONE ((cm_stream)UINTPTR_MAX) /* tcache key of cudaMalloc blocks */
#define CM_THREAD_ANY 0u  /* a tag whose parts were freed by several threads */
#define CM_FENCE_MAX_NB 8 /* above this many non-blocking streams, prefer collects */
#define CM_COLLECT_BATCH_DIV 8 /* a collect starts at max_pending/8 awaiting (fence.c) */
#define CM_SKIP_LIMIT 4   /* candidates examined before taking fresh memory */
#define CM_PENDING_SHARE 4          /* pending at most 1/4 of the allocated bytes (fence.c) */
#define CM_PENDING_FLOOR (4 * CM_MiB) /* ...or this, whichever is larger */
#define CM_HEADROOM_DIV 512 /* a device keeps 1/512 of its memory free (heap.c) */

typedef struct cm_device cm_device;
typedef struct cm_pool cm_pool;
typedef struct cm_segment cm_segment;
typedef struct cm_stream_rec cm_stream_rec;
typedef struct cm_tcache cm_tcache;
typedef struct cm_tc_dev cm_tc_dev;
typedef struct cm_dir_table cm_dir_table;

/* An intrusive treap node keyed by (size, addr): best fit is the lower
 * bound of (size, 0). Used for a pool's free blocks and a device's wholly
 * free segments. */
typedef struct cm_tnode {
	struct cm_tnode *left, *right;
	size_t size;
	uintptr_t addr;
} cm_tnode;

/* What must happen on the device before a freed block may be reused: the
 * epoch of its free (0: proven complete), the stream it was freed on (NULL
 * for cudaFree, or when merged parts came from different streams) with that
 * stream's free sequence number, and the freeing thread. */
typedef struct cm_tag {
	uint64_t epoch;
	cm_stream_rec *stream;
	uint32_t stream_gen;
	uint32_t thread;
	uint64_t seq;
} cm_tag;

/* HOLE: an unmapped stretch of an expandable segment whose chunks were
 * taken for stitching (stitch.c); in no index, never first nor last. */
enum { CM_BLOCK_FREE = 1, CM_BLOCK_USED = 2, CM_BLOCK_HOLE = 3 };

/* owner word of a block (lock-free): 0, or a per-thread cache's address
 * with one of these in the low bits. */
enum { CM_OWNER_LIVE = 1, CM_OWNER_PARKED = 2, CM_OWNER_MASK = 3 };

/* Two cache lines exactly: threads that own neighbouring structs never
 * write the same line. The first holds what a cache hit touches (a hit
 * reads and writes no other), the second the links and the tag a free
 * writes. */
typedef struct cm_block {
	_Alignas(64) cm_tnode node; /* node.size, node.addr: the block's extent */
	_Atomic uintptr_t owner;
	_Atomic uint64_t ticket; /* which hand-out a per-thread cache entry means */
	size_t requested;
	uint8_t state;
	_Atomic uint8_t free_nb; /* USED with a FREE neighbour (lock-free hint) */
	bool awaiting; /* FREE, in the device's awaiting list instead of its pool's index */
	bool completion_due; /* FREE after a traced free, not reusable yet: free_completed to write */
	uint32_t dev_index; /* the device whose slab holds the struct: never changes */
	_Alignas(64) cm_segment *seg;
	struct cm_block *prev, *next; /* address neighbours in the segment */
	cm_tag tag; /* meaningful while free or parked */
	uint64_t refit_gen; /* cm_block_refit_gen when last handed out or parked */
} cm_block;

#define cm_block_of(n) ((cm_block *)((char *)(n)-offsetof(cm_block, node)))

struct cm_segment {
	cm_tnode idle;  /* in dev->idle_* while wholly free; extent: addr, size */
	bool is_idle;
	bool expandable; /* a VMM range, mapped up to idle.size (expandable.c) */
	cm_pool *pool;
	cm_block *first, *last; /* its blocks in address order: the ends */
	uint64_t idle_since; /* dev->clock when it became wholly free */
	struct cm_segment *idle_older, *idle_newer; /* dev->idle_oldest..: idle ones by age */
	struct cm_segment *pool_prev, *pool_next;   /* pool->seg_list: its pool's segments */
	size_t chunk, va_size;  /* expandable: mapping unit, reserved range */
	cm_mem_handle *handles; /* expandable: one per mapped chunk */
	uint8_t *chunk_flags;   /* expandable: CM_CHUNK_* per chunk of the range */
	size_t holes;           /* expandable: bytes of its extent not mapped */
};

/* chunk_flags: mapped now; its physical memory came by stitching. */
enum { CM_CHUNK_MAPPED = 1, CM_CHUNK_STITCHED = 2 };

#define cm_seg_base(s) ((s)->first->node.addr)
#define cm_segment_of_idle(n) ((cm_segment *)((char *)(n)-offsetof(cm_segment, idle)))

struct cm_pool {
	cm_tnode *root; /* free blocks */
	cm_device *dev;
	cm_stream_rec *stream; /* consumer stream; NULL: cudaMalloc's pool */
	bool small;
	size_t segments;
	cm_segment *seg_list;   /* its segments (segment.c), as many as segments */
	cm_segment *expandable; /* the pool's expandable segment, if any */
};

enum cm_stream_kind { CM_SK_LEGACY, CM_SK_PER_THREAD, CM_SK_BLOCKING, CM_SK_NONBLOCKING };

/* One per stream the device knows: its whole state (streams.c), reused
 * with a new generation, freed only with the device. The submission
 * fields are read without the lock through the directory (directory.c)
 * and written by the hooks (submit.c) and covers (fence.c). */
struct cm_stream_rec {
	cm_stream handle;
	cm_device *dev;
	/* Submissions (lock-free; user streams, when the heap sees them). */
	_Atomic cm_stream dir_handle;  /* its handle while in the directory; 0 once dead */
	_Atomic uint32_t ran;          /* work queued since it was last covered */
	_Atomic uint32_t listed;       /* on the device's ran list (streams.c) */
	cm_stream_rec *ran_next;       /* that list's link */
	_Atomic uint64_t ordered_gen;  /* its work waits for the device's order event of this generation */
	_Atomic bool nonblocking;      /* kind == CM_SK_NONBLOCKING, for the hooks */
	uint8_t kind;
	bool alive;
	bool zombie;   /* destroyed, its work maybe unfinished: tail recorded */
	bool tail_ordered; /* zombie: the legacy stream waits for its tail already (fence.c) */
	uint32_t gen;  /* bumped when the record is reused */
	uint32_t owner_thread; /* per-thread streams */
	cm_pool small, large;
	_Atomic uint64_t free_seq;      /* lock-free: stamped on async frees */
	_Atomic uint64_t completed_seq; /* frees with seq <= this are complete */
	cm_event mark;      /* recorded on the stream for cross-stream reuse */
	uint64_t mark_seq;  /* the mark covers frees with seq <= mark_seq */
	cm_event fence_ev;  /* this stream's part of a full fence */
	cm_event tail;      /* zombie: recorded at destruction */
	cm_stream_rec *hash_next;
	cm_stream_rec *nb_prev, *nb_next; /* non-blocking or zombie list */
	cm_stream_rec *user_prev, *user_next;     /* dev->user_list: counted in user_streams */
	cm_stream_rec *zombie_older, *zombie_newer; /* dev->zombie_oldest..: zombies */
	cm_stream_rec *all_next;          /* every record of the device */
	cm_stream_rec *retired_next;      /* dead records ready for reuse */
};

/* The stream directory (directory.c): lock-free reads, writers under lock. */
typedef struct cm_dir {
	_Atomic(cm_dir_table *) cur;
	pthread_mutex_t lock; /* a leaf: nothing is taken under it */
	size_t live;          /* entries whose record names them */
} cm_dir;

typedef struct cm_collect {
	bool active;
	uint64_t epoch;
	uint64_t polled_at;  /* dev->stats.alloc_calls at the last poll */
	size_t nevents, cap;
	size_t proven; /* events[0..proven) answered complete: not asked again */
	cm_event *events;
	bool *owned; /* events from the pool (returned) vs. zombie tails */
	bool holds_tails; /* zombies are not reaped while it is active */
} cm_collect;

/* address -> block for every USED block: open addressing, linear probing. */
typedef struct cm_livemap {
	uintptr_t *keys;
	cm_block **vals;
	size_t cap, count;
} cm_livemap;

/* A device: the fast path's cache line and the lock here; the rest in
 * slices, each defined by the wing that writes it in its *_types.h
 * (record/record_types.h, order/order_types.h, mem/mem_types.h,
 * report/report_types.h, serve/serve_types.h; record's stats last), as
 * anonymous members so that every wing names a field the same way. A
 * lower wing may read a flag of a higher slice (in_use, short_of_memory)
 * as data, never call up for it. */
struct cm_device {
	/* What the per-thread caches' fast path reads (tcache_fast.h, fence.c's
	 * inline checks), in one cache line and not the lock's. */
	_Alignas(64) cm_heap *heap;
	int index;
	uint8_t free_fence; /* the heap's, here for the fast path */
	bool expandable;    /* expandable_segments, and the backend can */
	_Atomic uint32_t user_streams; /* lock-free read: live + zombie user streams */
	/* lock-free read: a value no device of the heap had before, taken
	 * when a user stream's record ends and when the device is reset
	 * (streams.c), so that per-thread caches drop blocks keyed by a
	 * dead stream. */
	_Atomic uint64_t tc_gen;
	_Atomic uint64_t epoch; /* stamped on every free (fence.c) */

	_Alignas(64) pthread_mutex_t lock;

	CM_DEVICE_ORDER;
	CM_DEVICE_MEM;
	CM_DEVICE_REPORT;
	CM_DEVICE_SERVE;
	CM_DEVICE_RECORD;
	cm_stats stats; /* record/stats.c's levels and counters */
};

typedef struct cm_tc_retired {
	uint64_t hits, frees;
} cm_tc_retired;

struct cm_heap {
	/* What the fast path reads (tcache_fast.h), in one cache line. */
	_Alignas(64) uint64_t id; /* unique over the process: submit.c's thread cache checks it */
	bool fast;       /* the per-thread caches may serve (not while tracing) */
	bool fast_round; /* fast, and no roundup_power2_divisions: they round inline */
	/* Submissions (submit.c): set when every way work reaches a stream
	 * calls cm_submit_begin/end; otherwise nothing is known of streams'
	 * work and the protocol asks the device. */
	bool sees_submissions;
	int ndev;
	cm_device *devs;
	const cm_backend *be;

	_Alignas(64) cm_config cfg;
	_Atomic uint64_t tc_gens; /* the last device tc_gen handed out (tcache.c) */
	cm_tcache *tcaches;     /* registered caches, under cm_tc_registry */
	FILE *report_out;       /* out-of-memory reports; NULL: stderr */
	struct cm_eventlog *eventlog; /* log:PATH (eventlog.c); NULL: none */
	cm_tc_retired *retired; /* per device, from exited threads */
	_Atomic uint32_t defaults_ran; /* the legacy and per-thread streams of every device ran work */
	cm_dir dir;                    /* user stream handle -> record (directory.c) */
	struct cm_host *host;   /* pinned host memory (host.c); NULL: not cached */
	struct cm_share *share; /* the devices' registries (serve/share.c); NULL: none joined */
	/* Set by serve/ipc.c, above heap.c, once it holds a freed block for
	 * another process: frees those whose opens all closed. */
	_Atomic(void (*)(cm_heap *)) ipc_release_closed;
	_Atomic uint32_t ipc_closes_seen; /* the registry's count of closes at its last look */
	/* Set by serve/ipc.c at the heap's first export: withdraws its exports
	 * when the heap is destroyed, so that none outlives it. */
	_Atomic(void (*)(cm_heap *)) ipc_forget;
};

/* Zeroed memory of whole cache lines, 64-byte aligned: what one thread
 * writes on every call never shares a line with another's, and structs
 * laid out by cache line (cm_heap, cm_device) start on one. */
static inline void *cm_alloc_lines(size_t size)
{
	size = (size + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, size);
	if (p)
		memset(p, 0, size);
	return p;
}

#endif
