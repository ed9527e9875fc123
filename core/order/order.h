/* core/order/order.h - the order wing: stream records and the event pool
 * (streams.c), the fence protocol, covers, collects and the epochs
 * (fence.c), the lock-free stream directory (directory.c), and the thread
 * caches' generation counter (streams.c: data the caches read). Calls the
 * record wing only. */
#ifndef CM_ORDER_H
#define CM_ORDER_H

#include "../record/record.h"

/* Atomically raises *a to v (the epochs and sequences only grow). */
static inline void cm_atomic_max(_Atomic uint64_t *a, uint64_t v)
{
	uint64_t cur = atomic_load(a);
	while (cur < v && !atomic_compare_exchange_weak(a, &cur, v))
		;
}

/* streams.c: stream records, the event pool. */
cm_status cm_stream_init_device(cm_device *d);
void cm_stream_fini_device(cm_device *d);
cm_status cm_stream_lookup(cm_device *d, cm_stream s, cm_stream_rec **per_thread, uint32_t thread,
			   cm_stream_rec **out);
cm_stream_rec *cm_stream_find(cm_device *d, cm_stream s);
cm_stream_rec *cm_stream_add(cm_device *d, cm_stream s, bool nonblocking, bool ran);
cm_status cm_stream_sync_device_at(cm_device *d, uint64_t *mark);
bool cm_stream_capturing(cm_device *d, cm_stream s);
#define CM_REAP_PENDING 4 /* pending zombies one reap asks about (streams.c) */
void cm_stream_reap(cm_device *d, bool all_complete);
void cm_stream_end(cm_device *d, cm_stream_rec *r, bool destroyed);
void cm_stream_forget_all(cm_device *d);
void cm_stream_mark_ran(cm_stream_rec *r);
bool cm_stream_take_ran(cm_stream_rec *r);
cm_stream_rec *cm_stream_take_ran_list(cm_device *d);
cm_stream_rec *cm_stream_ran_list_next(cm_stream_rec *r);
void cm_stream_put_back_ran(cm_stream_rec *r);
bool cm_defaults_take(cm_heap *h);
cm_status cm_event_get(cm_device *d, cm_event *out);
cm_status cm_event_ensure(cm_device *d, cm_event *ev);
void cm_event_put(cm_device *d, cm_event ev);

/* fence.c: the fence protocol (docs/design.md, "The fence protocol"). */
typedef enum cm_need { CM_NEED_NOTHING, CM_NEED_WAIT, CM_NEED_FENCE, CM_NEED_SYNC } cm_need;
/* The out-of-memory ladder's rungs (heap.c), as the report names them. */
enum { CM_RUNG_PARKED, CM_RUNG_PROVEN, CM_RUNG_STITCHED, CM_RUNG_RELEASED, CM_RUNGS };
typedef struct cm_request {
	size_t size;      /* rounded */
	size_t requested;
	cm_stream_rec *consumer; /* NULL: cudaMalloc, consumer stream unknown */
	uint32_t thread;
	cm_tcache *tc;
	bool reported; /* out of memory, and the report was printed */
	bool hopeless; /* refused at once: more than the device could give (heap.c) */
	bool awaiting;   /* the block just looked at awaits its proof (fence.c) */
	bool over_bound; /* one that did not fit within max_pending_mb (heap.c) */
	size_t gave[CM_RUNGS]; /* bytes each rung of the out-of-memory ladder gave back */
	struct { /* the neighbours asked after the ladder (serve/share.c), for the report */
		size_t procs, asked, gained;
		uint64_t waited_ns;
	} neighbours;
} cm_request;
void cm_fence_init_device(cm_device *d);
void cm_fence_fini_device(cm_device *d);
void cm_fence_forget_all(cm_device *d);
cm_tag cm_tag_for_free(cm_device *d, cm_stream_rec *s, uint32_t thread);
cm_tag cm_tag_join(cm_device *d, cm_tag a, cm_tag b);
bool cm_tag_complete(cm_device *d, const cm_tag *t);
bool cm_tag_poll_complete(cm_device *d, const cm_tag *t);
cm_status cm_reuse_prepare(cm_device *d, cm_request *rq, cm_block *b);
/* The fast path's questions (tcache_fast.h), fence.c's rules; the common
 * answers inline, so that a pair makes no call. cm_reuse_ready_at_once:
 * any cudaMalloc block this thread freed on d is ready now, whatever its
 * tag (with free_fence:gpu and no user stream: rule 4); otherwise
 * cm_reuse_ready_rules_unlocked answers for the block's tag. */
bool cm_reuse_ready_rules_unlocked(cm_device *d, const cm_tag *t);
static inline bool cm_reuse_ready_at_once(const cm_device *d)
{
	return CM_LIKELY(d->free_fence == CM_FENCE_GPU) &&
	       atomic_load_explicit(&d->user_streams, memory_order_acquire) == 0;
}
/* Whether the fast path can hand a cudaMalloc block out again on d at all. */
static inline bool cm_reuse_may_be_ready_unlocked(const cm_device *d)
{
	return cm_reuse_ready_at_once(d) || d->free_fence == CM_FENCE_NONE ||
	       (d->free_fence == CM_FENCE_GPU && d->heap->sees_submissions);
}
bool cm_pending_bound(cm_device *d, const cm_request *rq, size_t grow);
size_t cm_pending_max(const cm_device *d);
bool cm_free_awaits(cm_device *d, const cm_pool *pool, const cm_tag *t);
void cm_pending_added(cm_device *d);
bool cm_pending_poll(cm_device *d);
uint64_t cm_proven_epoch(cm_device *d);
cm_status cm_device_sync_locked(cm_device *d);
void cm_fence_sync_begin(cm_device *d, cm_stream s, cm_stream_rec **per_thread, uint32_t thread,
			 cm_sync_token *tok);
bool cm_fence_synced(cm_device *d, cm_sync_token tok);
void cm_fence_synced_locked(cm_device *d, uint64_t mark);

/* Host memory (host.c): whether every free stamped with an epoch <= e
 * is complete, without waiting; may start a collect. d's lock held. */
bool cm_epoch_poll_complete(cm_device *d, uint64_t e);
void cm_epoch_cover(cm_device *d, uint64_t e); /* a collect covering e in flight */
bool cm_epoch_wait_complete(cm_device *d, uint64_t e); /* the host waits */

/* directory.c: user stream handle -> record, read without a lock. */
cm_status cm_dir_init(cm_dir *dir);
void cm_dir_fini(cm_dir *dir);
cm_stream_rec *cm_dir_find(cm_dir *dir, cm_stream s);
bool cm_dir_insert(cm_dir *dir, cm_stream s, cm_stream_rec *r);
void cm_dir_remove(cm_dir *dir, cm_stream s, cm_stream_rec *r);

/* Gives d a tc_gen no device of the heap had: blocks cached under the old
 * one are no longer handed out (at init, when a user stream's record
 * ends, at a device reset). */
void cm_tc_new_generation(cm_device *d);

#endif
