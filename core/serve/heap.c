/* core/serve/heap.c - the heap, its devices, and the allocation search order;
 * also the entry points that span files (the slow paths, the
 * synchronization hooks, release, reset), so that the files below it
 * need not call each other.
 *
 * An allocation tries, in this order (cm_alloc_locked, the one place):
 *   0. the calling thread's cache, without any lock (tcache_fast.h); on a
 *      miss its parked blocks go back to the pools first, so that what
 *      it holds never makes the search below fail or fragment;
 *   1. best fit in the consumer's pool, made safe by cm_reuse_prepare
 *      (a block awaiting an order is set aside, within max_pending_mb);
 *   2. a wholly free segment of another pool, moved to this one;
 *   2b. both again after taking back the blocks parked in other threads'
 *      caches;
 *   2c. past max_pending_mb, the blocks set aside ordered, and 1-2 again;
 *   3. a new segment from the device, within the per-process limit;
 *   4. the out-of-memory ladder (cm_oom_ladder);
 *   5. failure, with the report of report.c.
 * The consumer's pool is per stream for cudaMallocAsync and a shared one
 * (consumer unknown) for cudaMalloc, each split into small and large.
 * Wing: serve. Calls in its own wing submit.c, tcache.c; the report, host, mem, order and record wings.
 */
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "share.h"

static _Atomic uint64_t cm_heap_next_id = 1;

static cm_status cm_device_init(cm_heap *h, cm_device *d, int index)
{
	d->heap = h;
	d->index = index;
	d->free_fence = (uint8_t)h->cfg.free_fence;
	d->expandable = h->cfg.expandable_segments && cm_exp_supported(d);
	d->release_threshold = h->cfg.release_threshold;
	cm_tc_new_generation(d);
	pthread_mutex_init(&d->lock, NULL);
	cm_fence_init_device(d);
	return cm_stream_init_device(d);
}

static void cm_device_fini(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_stitch_release(d);
	free(d->free_chunks);
	for (size_t i = 0; i < d->nsegs; i++) {
		cm_segment *seg = d->segs[i];
		if (seg->expandable)
			cm_exp_release(d, seg);
		else
			be->mem_free(be->ctx, d->index, cm_seg_base(seg));
		free(seg);
	}
	cm_giveback_fini(d);
	cm_fence_fini_device(d);
	cm_stream_fini_device(d);
	cm_livemap_free(&d->live);
	cm_trace_fini(d);
	for (size_t i = 0; i < d->nslabs; i++)
		free(d->slabs[i]);
	free(d->slabs);
	free(d->segs);
	pthread_mutex_destroy(&d->lock);
}

static const cm_share_calls cm_share_calls_up = {cm_tc_steal_parked_locked, cm_stats_get};

cm_status cm_heap_create(const cm_backend *be, const cm_config *cfg, cm_heap **out)
{
	if (!be || !cfg || !out || be->device_count <= 0)
		return CM_ERR_INVALID;
	cm_share_heap_init(&cm_share_calls_up);
	_Static_assert(_Alignof(cm_heap) <= 64 && _Alignof(cm_device) <= 64, "cm_alloc_lines");
	cm_heap *h = cm_alloc_lines(sizeof(*h));
	if (!h)
		return CM_ERR_OOM;
	h->be = be;
	h->cfg = *cfg;
	h->id = atomic_fetch_add(&cm_heap_next_id, 1);
	h->ndev = be->device_count;
	/* Tracing (oom_snapshot) and the event log see every call: no fast path. */
	h->fast = cfg->oom_snapshot[0] == '\0' && cfg->log_path[0] == '\0';
	h->fast_round = h->fast && cm_size_rounds_plain(cfg);
	h->devs = cm_alloc_lines((size_t)h->ndev * sizeof(*h->devs));
	h->retired = calloc((size_t)h->ndev, sizeof(*h->retired));
	if (!h->devs || !h->retired || cm_dir_init(&h->dir) != CM_OK) {
		cm_dir_fini(&h->dir);
		free(h->devs);
		free(h->retired);
		free(h);
		return CM_ERR_OOM;
	}
	for (int i = 0; i < h->ndev; i++) {
		cm_device_init(h, &h->devs[i], i);
		if (!h->fast)
			cm_trace_init(&h->devs[i]);
	}
	if (cm_host_create(h) != CM_OK) {
		cm_heap_destroy(h);
		return CM_ERR_OOM;
	}
	cm_eventlog_open(h);
	*out = h;
	return CM_OK;
}

void cm_heap_destroy(cm_heap *h)
{
	if (!h)
		return;
	void (*ipc_forget)(cm_heap *) = atomic_load_explicit(&h->ipc_forget, memory_order_acquire);
	if (ipc_forget)
		ipc_forget(h); /* no token of its blocks opens, no free of a later heap is held */
	cm_share_heap_fini(h); /* its listeners first: they use the devices */
	cm_tc_heap_fini(h);
	cm_host_destroy(h);
	for (int i = 0; i < h->ndev; i++) {
		h->be->device_synchronize(h->be->ctx, i);
		cm_device_fini(&h->devs[i]);
	}
	cm_dir_fini(&h->dir);
	cm_eventlog_close(h);
	free(h->devs);
	free(h->retired);
	free(h);
}

/* ---- allocation ---- */

/* What the stream records need of the calling thread's cache: where its
 * per-thread stream's record lives (NULL: no cache). */
static cm_stream_rec **cm_per_thread_slot(cm_tcache *tc, const cm_device *d)
{
	return tc ? cm_tc_per_thread_slot(tc, d->index) : NULL;
}

static cm_pool *cm_pool_for(cm_device *d, cm_stream_rec *consumer, bool small)
{
	/* Expandable segments: one range per size class for all streams, so
	 * that memory freed on one stream serves the others (rule 2 orders
	 * the reuse); ranges per stream left 10-20% more mapped on the
	 * multi-stream trace. */
	if (!consumer || d->expandable)
		return small ? &d->none_small : &d->none_large;
	return small ? &consumer->small : &consumer->large;
}

/* max_split_size, as PyTorch: a block above it is never split, and serves
 * only requests above it that waste less than max_non_split_rounding_mb
 * (both tightened while large blocks are exact: segment.c, cm_split_max). */
static bool cm_fit_ok(const cm_device *d, size_t size, size_t block)
{
	size_t max = cm_split_max(d);
	if (size < max && block >= max)
		return false;
	return size < max || block - size < cm_split_rounding(d);
}

/* A block cm_reuse_prepare found awaiting its proof leaves the search
 * until one comes, while the memory so pending stays within the bound. */
static bool cm_block_set_aside(cm_device *d, cm_request *rq, cm_block *b)
{
	if (!rq->awaiting)
		return false;
	rq->awaiting = false;
	if (d->stats.pending_bytes + b->node.size > cm_pending_max(d)) {
		rq->over_bound = true;
		return false;
	}
	cm_block_await(d, b);
	return true;
}

/* Best fit in the pool that is safe to reuse, looking past at most
 * CM_SKIP_LIMIT blocks that are not (yet). A block whose reuse needs an
 * order not yet had goes to the awaiting list instead (within
 * max_pending_mb), so that no search looks at it again before a proof. */
static cm_block *cm_pool_search(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_tnode *n = cm_tree_lower_bound(pool->root, rq->size, 0);
	for (int i = 0; n && i < CM_SKIP_LIMIT;) {
		if (!cm_fit_ok(d, rq->size, n->size))
			return NULL;
		cm_block *b = cm_block_of(n);
		n = cm_tree_next(pool->root, n);
		if (cm_reuse_prepare(d, rq, b) == CM_OK)
			return b;
		i += !cm_block_set_aside(d, rq, b);
	}
	return NULL;
}

static cm_block *cm_steal_idle(cm_device *d, cm_pool *pool, cm_request *rq);

/* Steps 1 and 2: cached memory, the pool's own first. */
static cm_block *cm_search_cached(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_awaiting_return(d, cm_proven_epoch(d));
	cm_block *b = cm_pool_search(d, pool, rq);
	return b ? b : cm_steal_idle(d, pool, rq);
}

static cm_block *cm_steal_idle(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_tnode *root = pool->small ? d->idle_small : d->idle_large;
	cm_tnode *n = cm_tree_lower_bound(root, rq->size, 0);
	for (int i = 0; n && i < CM_SKIP_LIMIT; n = cm_tree_next(root, n)) {
		if (!cm_fit_ok(d, rq->size, n->size))
			return NULL;
		cm_segment *seg = cm_segment_of_idle(n);
		if (seg->pool == pool || (seg->expandable && pool->expandable) || seg->first->awaiting)
			continue; /* searched already; or one expandable segment a pool; or awaiting */
		if (cm_reuse_prepare(d, rq, seg->first) == CM_OK) {
			cm_segment_move(d, seg, pool);
			return seg->first;
		}
		i += !cm_block_set_aside(d, rq, seg->first);
	}
	return NULL;
}

/* Whether the free block that ends the pool's expandable segment may be
 * handed out with the chunks a growth maps after it: safe for rq now, not
 * awaiting a proof. */
static bool cm_exp_tail_usable(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_block *last = pool->expandable ? cm_segment_last(pool->expandable) : NULL;
	if (!last || last->state != CM_BLOCK_FREE || last->awaiting)
		return false;
	bool usable = cm_reuse_prepare(d, rq, last) == CM_OK;
	rq->awaiting = false;
	return usable;
}

/* Step 3: a new segment, within the per-process limit, after garbage
 * collection made room for it. */
static cm_block *cm_grow_by(cm_device *d, cm_pool *pool, cm_request *rq, size_t size)
{
	bool expandable = d->expandable;
	cm_block *b;
	cm_release_gc_locked(d, size);
	if (!cm_release_within_limit(d, size)) {
		d->stats.limit_refusals++;
		cm_large_exact_begin(d);
		return NULL;
	}
	if (expandable)
		b = cm_exp_grow(d, pool, rq->size, cm_exp_tail_usable(d, pool, rq));
	else if (cm_segment_create(d, pool, size, &b) != CM_OK)
		b = NULL;
	if (b)
		cm_share_grew(d); /* the registry of the device's processes (share.c) */
	return b;
}

static cm_block *cm_grow(cm_device *d, cm_pool *pool, cm_request *rq)
{
	return cm_grow_by(d, pool, rq, d->expandable ? rq->size : cm_size_segment(rq->size));
}

/* The ladder's last growth: a mid request whose 20 MiB segment the device
 * cannot give takes the least segment instead. */
static cm_block *cm_grow_last(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_block *b = cm_grow(d, pool, rq);
	size_t least = cm_size_least_segment(rq->size);
	if (!b && !d->expandable && least < cm_size_segment(rq->size))
		b = cm_grow_by(d, pool, rq, least);
	return b;
}

/* What a neighbour's release may have made room for (share.c). */
static cm_block *cm_share_retry(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_block *b = cm_search_cached(d, pool, rq);
	return b ? b : cm_grow_last(d, pool, rq);
}

/* Step 4, the out-of-memory ladder (docs/design.md, "Out of memory and
 * release"), each rung retried and what it gave back kept for the report:
 * parked blocks back to the pools; idle segments released to fit; one
 * synchronization, after which every block waiting on a fence or a
 * collect is reusable (and, with expandable segments, every free chunk
 * stitchable); every idle segment released. */
static cm_block *cm_oom_ladder(cm_device *d, cm_pool *pool, cm_request *rq)
{
	cm_block *b;
	size_t pending = d->stats.pending_bytes;

	d->stats.alloc_retries++;
	uint64_t held = d->stats.allocated_bytes; /* parked blocks count as held */
	cm_tc_steal_parked_locked(d);
	rq->gave[CM_RUNG_PARKED] = held - d->stats.allocated_bytes;
	if ((b = cm_search_cached(d, pool, rq)))
		return b;
	if ((rq->gave[CM_RUNG_RELEASED] = cm_release_fitting_locked(d, cm_size_segment(rq->size), pool->small))) {
		d->stats.ladder_releases++;
		if ((b = cm_grow(d, pool, rq)))
			return b;
	}
	if (cm_device_sync_locked(d) == CM_OK) {
		d->stats.ladder_syncs++;
		cm_awaiting_return(d, cm_proven_epoch(d));
		rq->gave[CM_RUNG_PROVEN] = pending - d->stats.pending_bytes;
		if ((b = cm_search_cached(d, pool, rq)))
			return b;
		/* Every chunk is complete now: stitch before releasing. */
		uint64_t stitched = d->stats.stitched_bytes;
		if (d->expandable && (b = cm_grow(d, pool, rq))) {
			d->stats.ladder_stitches++;
			return b;
		}
		rq->gave[CM_RUNG_STITCHED] = d->stats.stitched_bytes - stitched;
	}
	size_t all = cm_release_all_locked(d);
	rq->gave[CM_RUNG_RELEASED] += all;
	if (all)
		d->stats.ladder_release_alls++;
	return cm_grow_last(d, pool, rq);
}

/* The device's memory, asked once per request that may grow. */
typedef struct cm_room {
	bool known;
	size_t free, total;
} cm_room;

static cm_room cm_room_read(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	cm_room r = {0};
	r.known = be->mem_get_info(be->ctx, d->index, &r.free, &r.total) == CM_OK && r.total;
	return r;
}

/* What the device keeps free for what the cache never sees: the driver's
 * own allocations (modules loaded lazily, local memory, library
 * handles), which fail where the cache holds memory idle. */
static size_t cm_headroom(const cm_room *r)
{
	return r->total / CM_HEADROOM_DIV;
}

/* Whether taking grow bytes would leave the device short: then memory the
 * program cannot use (pending frees) is given back before it grows, and
 * after, idle segments restore the headroom (cm_release_headroom). */
static bool cm_room_short(const cm_room *r, size_t grow)
{
	return r->known && (r->free < grow || r->free - grow < cm_headroom(r));
}

/* Whether taking grow bytes would pass three quarters of what the process
 * can have, its reservation and the device's free memory, or its cap.
 * Large blocks become exact from then on (segment.c): by the time the
 * device is short, splits made with room have left rests beside live
 * blocks that nothing can give back (tests/traces/trace_fit_h100_b32, a
 * transformer's log from an H100: 15634 MiB of device needed so, 13070
 * from three quarters). */
static bool cm_room_tight(cm_device *d, const cm_room *r, size_t grow)
{
	/* reserved + grow > 3/4 (reserved + free) <=> free < grow + (reserved + grow) / 3 */
	size_t more = grow + (d->stats.reserved_bytes + grow) / 3;
	return (r->known && r->free < more) || !cm_release_within_limit(d, more);
}

/* Whether the program could take as much again as it holds, from the device
 * and within its cap: the shortage that made large blocks exact is over. */
static bool cm_room_ample(cm_device *d, const cm_room *r)
{
	size_t held = d->stats.reserved_bytes;
	return r->known && r->free >= held && r->free - held >= cm_headroom(r) &&
	       cm_release_within_limit(d, held);
}

/* After a growth on a short device: idle cached memory, oldest first,
 * goes back until the headroom is free again. */
static void cm_release_headroom(cm_device *d)
{
	cm_room r = cm_room_read(d);
	size_t want = cm_headroom(&r);
	if (r.known && r.free < want && cm_release_idle_oldest(d, want - r.free))
		d->stats.headroom_releases++;
}

/* A request that cannot be served whatever the ladder releases: larger than
 * the device, or than its free memory and all the cache holds idle (parked
 * blocks are back in the pools by now). It fails at once: releasing the
 * cache or creating memory for it would only take from the program. */
static bool cm_oom_hopeless(cm_device *d, const cm_room *r, size_t size)
{
	if (!r->known)
		return false; /* unknown: let the driver say */
	size_t idle = d->stats.reserved_bytes - d->stats.allocated_bytes;
	return size > r->total || (size > r->free && size - r->free > idle);
}

static cm_status cm_alloc_locked(cm_device *d, cm_request *rq, cm_block **out)
{
	cm_pool *pool = cm_pool_for(d, rq->consumer, cm_size_is_small(rq->size));
	cm_block *b;
	bool hit = true;

	if (rq->tc)
		cm_tc_flush_device_locked(rq->tc, d);
	if ((b = cm_search_cached(d, pool, rq)))
		goto found;
	/* Memory parked in other threads' caches is cached memory too: the
	 * device is asked only once it is back in the pools. */
	if (cm_tc_steal_parked_locked(d) && (b = cm_search_cached(d, pool, rq)))
		goto found;
	/* Blocks awaiting their proof: back if it came (a collect completed);
	 * else new memory within max_pending_mb, past it they are ordered
	 * (or waited for). */
	if (cm_pending_poll(d) && (b = cm_search_cached(d, pool, rq)))
		goto found;
	/* The device is asked for more only after what the program cannot
	 * use went back, where it is short: no pending bound then. */
	size_t grow = d->expandable ? rq->size : cm_size_segment(rq->size);
	cm_room room = cm_room_read(d);
	d->short_of_memory = cm_room_short(&room, grow);
	if (d->short_of_memory || cm_room_tight(d, &room, grow))
		cm_large_exact_begin(d);
	else if (cm_room_ample(d, &room))
		cm_large_exact_end(d);
	if (cm_pending_bound(d, rq, grow) && (b = cm_search_cached(d, pool, rq)))
		goto found;
	hit = false;
	rq->hopeless = cm_oom_hopeless(d, &room, rq->size) && !cm_share_may_help(d, rq->size);
	if (!rq->hopeless && ((b = cm_grow(d, pool, rq)) || (b = cm_oom_ladder(d, pool, rq)) ||
			      (b = cm_share_ask(d, pool, rq, cm_share_retry))))
		goto found;
	/* Chunks the failed growths cut out for stitching go back before the
	 * report, which then tells what is held after the failure. */
	cm_stitch_release(d);
	d->stats.oom_count++;
	cm_trace_asked(d, CM_TRACE_OOM, 0, rq->size, rq->requested, cm_trace_stream(rq->consumer));
	rq->reported = cm_report_oom(d, rq, !cm_release_within_limit(d, cm_size_least_segment(rq->size)));
	return CM_ERR_OOM;
found:
	b = cm_block_take(d, b, rq->size);
	if (!hit && d->short_of_memory)
		cm_release_headroom(d);
	if (!cm_livemap_insert(&d->live, b)) {
		b->tag = (cm_tag){0}; /* never handed out: not in the live map */
		cm_block_put(d, b);
		d->stats.oom_count++;
		return CM_ERR_OOM;
	}
	b->requested = rq->requested;
	d->stats.cache_hits += hit;
	*out = b;
	return CM_OK;
}

/* The allocation path after the calling thread's cache missed. */
cm_status cm_malloc_slow(cm_heap *h, int dev, size_t size, cm_stream key, uintptr_t *out)
{
	if (!out || dev < 0 || dev >= h->ndev)
		return CM_ERR_INVALID;
	if (size == 0) {
		*out = 0; /* as cudaMalloc(0): success, no memory */
		return CM_OK;
	}
	cm_device *d = &h->devs[dev];
	atomic_store_explicit(&d->in_use, true, memory_order_relaxed);
	/* Blocks held for another process that has closed them are memory
	 * the program can use again: back before the search. */
	void (*release_closed)(cm_heap *) =
		atomic_load_explicit(&h->ipc_release_closed, memory_order_acquire);
	if (release_closed)
		release_closed(h);
	size_t rounded = cm_round_size(&h->cfg, size);
	if (rounded == SIZE_MAX) {
		pthread_mutex_lock(&d->lock);
		d->stats.alloc_calls++;
		d->stats.oom_count++;
		pthread_mutex_unlock(&d->lock);
		return CM_ERR_OOM;
	}

	cm_tcache *tc = cm_tc_get(h);
	cm_request rq = {.size = rounded, .requested = size, .tc = tc,
			 .thread = tc ? cm_tc_thread_id(tc) : CM_THREAD_ANY};
	cm_block *b = NULL;
	cm_status st = CM_ERR_OOM;
	pthread_mutex_lock(&d->lock);
	d->stats.alloc_calls++;
	if (key != CM_KEY_NONE &&
	    (st = cm_stream_lookup(d, key, cm_per_thread_slot(tc, d), rq.thread, &rq.consumer)) != CM_OK)
		goto out;
	st = cm_alloc_locked(d, &rq, &b);
	if (st == CM_OK) {
		if (tc && h->fast)
			cm_tc_hand_out_locked(tc, b);
		cm_trace_asked(d, CM_TRACE_ALLOC, b->node.addr, b->node.size, b->requested,
			       cm_trace_stream(rq.consumer));
		*out = b->node.addr;
	}
out:
	pthread_mutex_unlock(&d->lock);
	if (rq.reported && h->cfg.oom_snapshot[0])
		cm_snapshot_write(h, h->cfg.oom_snapshot, stderr);
	return st;
}

/* ---- free ---- */

/* Claims a live block for freeing: exactly one caller wins. */
static bool cm_claim_live(cm_block *b)
{
	uintptr_t owner = atomic_load_explicit(&b->owner, memory_order_acquire);
	while ((owner & CM_OWNER_MASK) != CM_OWNER_PARKED) {
		if (atomic_compare_exchange_weak_explicit(&b->owner, &owner, 0,
							  memory_order_acq_rel,
							  memory_order_acquire))
			return true;
	}
	return false; /* parked: already freed */
}

static cm_status cm_free_on_device(cm_heap *h, cm_device *d, uintptr_t ptr, cm_stream key,
				   cm_tcache *tc)
{
	cm_block *b = cm_livemap_find(&d->live, ptr);
	cm_stream_rec *rec = NULL;
	uint32_t thread = tc ? cm_tc_thread_id(tc) : CM_THREAD_ANY;
	if (b && key != CM_KEY_NONE &&
	    cm_stream_lookup(d, key, cm_per_thread_slot(tc, d), thread, &rec) == CM_ERR_BAD_HANDLE)
		return CM_ERR_BAD_HANDLE; /* as CUDA: refused, nothing freed */
	if (!b || !cm_claim_live(b)) {
		if (!b && !cm_segment_find(d, ptr))
			return CM_ERR_NOT_OURS;
		d->stats.invalid_frees++;
		return CM_ERR_INVALID;
	}
	d->stats.free_calls++;
	cm_tag tag = cm_tag_for_free(d, rec, thread);
	size_t size = b->node.size;
	cm_trace_asked(d, CM_TRACE_FREE_REQUESTED, ptr, size, b->requested, cm_trace_stream(rec));
	cm_tc_before_slow_path_locked(tc, d);
	b->tag = tag;
	if (cm_tc_park_locked(tc, d, b, key, rec)) {
		cm_trace(d, CM_TRACE_FREE_COMPLETED, ptr, size, cm_trace_stream(rec));
	} else {
		b->completion_due = d->trace != NULL; /* written when reusable (segment.c) */
		cm_free_block_locked(d, b, tag);
	}
	(void)h;
	return CM_OK;
}

/* The free path after the calling thread's cache could not take it. */
cm_status cm_free_slow(cm_heap *h, uintptr_t ptr, cm_stream key)
{
	if (ptr == 0)
		return CM_OK;
	cm_tcache *tc = cm_tc_get(h);
	cm_status st = CM_ERR_NOT_OURS;
	for (int i = 0; i < h->ndev && st == CM_ERR_NOT_OURS; i++) {
		cm_device *d = &h->devs[i];
		pthread_mutex_lock(&d->lock);
		st = cm_free_on_device(h, d, ptr, key, tc);
		pthread_mutex_unlock(&d->lock);
	}
	return st;
}

/* ---- synchronization hooks (rule 6: fence.c says what they prove) ---- */

cm_sync_token cm_sync_begin(cm_heap *h, int dev, cm_stream s)
{
	cm_sync_token tok = {0};
	if (dev < 0 && s != CM_SYNC_DEVICE && s != CM_STREAM_LEGACY && s != CM_STREAM_PER_THREAD)
		dev = cm_stream_device(h, s);
	tok.dev = dev;
	if (dev < 0 || dev >= h->ndev)
		return tok;
	cm_device *d = &h->devs[dev];
	cm_tcache *tc = s == CM_SYNC_DEVICE ? NULL : cm_tc_get(h);
	cm_fence_sync_begin(d, s, cm_per_thread_slot(tc, d), tc ? cm_tc_thread_id(tc) : CM_THREAD_ANY,
			    &tok);
	return tok;
}

void cm_sync_end(cm_heap *h, cm_sync_token tok, cm_status result)
{
	int dev = tok.dev;
	if (result != CM_OK || dev < 0 || dev >= h->ndev || !tok.mark)
		return;
	cm_device *d = &h->devs[dev];
	if (!cm_fence_synced(d, tok)) {
		pthread_mutex_lock(&d->lock);
		d->stats.syncs_seen++;
		pthread_mutex_unlock(&d->lock);
		return;
	}
	cm_thread_flush(h);
	pthread_mutex_lock(&d->lock);
	d->stats.syncs_seen++;
	cm_fence_synced_locked(d, tok.mark);
	cm_release_trim_locked(d); /* the device is idle: releasing stalls nothing */
	pthread_mutex_unlock(&d->lock);
	if (tok.rec == NULL && h->cfg.release_threshold != SIZE_MAX)
		cm_host_trim(h, h->cfg.release_threshold); /* a device synchronization */
}

/* ---- release and stats ---- */

/* Device dev locked after every thread's parked blocks went back to the
 * pools, for a release of its idle memory; NULL: no such device. */
cm_device *cm_device_lock_flushed(cm_heap *h, int dev)
{
	if (dev < 0 || dev >= h->ndev)
		return NULL;
	cm_thread_flush(h);
	cm_device *d = &h->devs[dev];
	pthread_mutex_lock(&d->lock);
	return d;
}

size_t cm_release_cached(cm_heap *h, int dev)
{
	cm_device *d = cm_device_lock_flushed(h, dev);
	if (!d)
		return 0;
	size_t freed = cm_giveback_retry(d);
	if (cm_device_sync_locked(d) == CM_OK)
		freed += cm_release_all_locked(d);
	pthread_mutex_unlock(&d->lock);
	return freed + cm_host_release_cached(h); /* the host lock after the device's is released */
}

void cm_stats_get(cm_heap *h, int dev, cm_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < h->ndev; i++) {
		if (dev >= 0 && i != dev)
			continue;
		cm_stats st;
		pthread_mutex_lock(&h->devs[i].lock);
		st = h->devs[i].stats;
		pthread_mutex_unlock(&h->devs[i].lock);
		cm_tc_stats(h, i, &st);
		cm_stats_add(out, &st);
	}
	if (dev < 0)
		cm_host_stats(h, out); /* pinned memory is the process's */
}

/* ---- device reset, pointer queries ---- */

/* Forgets every block and segment of the device. Block structs go back to
 * the free list with owner word 0, so stale per-thread cache entries fail
 * their checks and are dropped. Plain segments went with the context;
 * cuMemCreate memory belongs to no context, so the expandable ranges and
 * the kept chunks are given back (docs/design.md section 6). */
static void cm_device_forget_memory(cm_device *d)
{
	cm_stitch_release(d);
	for (size_t i = 0; i < d->nsegs; i++) {
		cm_segment *seg = d->segs[i];
		if (seg->expandable && seg->handles)
			cm_exp_release(d, seg);
		for (cm_block *b = seg->first, *next; b; b = next) {
			next = b->next;
			cm_block_delete(d, b);
		}
		seg->pool->root = NULL;
		seg->pool->segments = 0;
		seg->pool->seg_list = NULL;
		seg->pool->expandable = NULL;
		free(seg->handles);
		free(seg->chunk_flags);
		free(seg);
	}
	d->nsegs = 0;
	d->large_exact = false;
	cm_awaiting_forget(d);
	d->idle_small = d->idle_large = NULL;
	d->idle_oldest = d->idle_newest = NULL;
	if (d->live.keys)
		memset(d->live.keys, 0, d->live.cap * sizeof(*d->live.keys));
	d->live.count = 0;
	cm_stats *st = &d->stats;
	st->allocated_bytes = st->allocated_blocks = st->reserved_bytes = 0;
	st->segments = st->inactive_split_bytes = 0;
	st->unreleased_bytes = 0; /* the context took it with it */
	atomic_store_explicit(&d->reserved_seen, 0, memory_order_relaxed);
	cm_giveback_fini(d);
}

void cm_device_reset(cm_heap *h, int dev)
{
	if (dev < 0 || dev >= h->ndev)
		return;
	cm_device *d = &h->devs[dev];
	cm_host_forget_device(h, dev); /* the host lock before the device's */
	pthread_mutex_lock(&d->lock);
	atomic_store(&d->in_use, false);
	d->release_threshold = h->cfg.release_threshold; /* a new default pool's */
	cm_device_forget_memory(d);
	cm_stream_forget_all(d);
	cm_fence_forget_all(d);
	pthread_mutex_unlock(&d->lock);
}

/* The held block containing ptr (the program's, not parked), or NULL. */
static cm_block *cm_held_block_at(cm_device *d, uintptr_t ptr)
{
	cm_block *b = cm_livemap_find(&d->live, ptr);
	if (!b) {
		cm_segment *seg = cm_segment_find(d, ptr);
		for (b = seg ? seg->first : NULL; b; b = b->next)
			if (ptr >= b->node.addr && ptr - b->node.addr < b->node.size)
				break;
		if (b && b->state != CM_BLOCK_USED)
			b = NULL;
	}
	if (b && (atomic_load(&b->owner) & CM_OWNER_MASK) == CM_OWNER_PARKED)
		b = NULL;
	return b;
}

void cm_pointer_info(cm_heap *h, uintptr_t ptr, cm_ptr_info *out)
{
	memset(out, 0, sizeof(*out));
	out->dev = -1;
	for (int i = 0; i < h->ndev && !out->ours; i++) {
		cm_device *d = &h->devs[i];
		pthread_mutex_lock(&d->lock);
		cm_block *b = cm_held_block_at(d, ptr);
		if (b) {
			out->ours = true;
			out->live = b->node.addr == ptr;
			out->segment_start = b->prev == NULL;
			out->expandable = b->seg->expandable;
			out->size = b->node.size;
			out->requested = b->requested;
			out->base = b->node.addr;
		} else {
			out->ours = cm_segment_find(d, ptr) != NULL;
		}
		if (out->ours)
			out->dev = i;
		pthread_mutex_unlock(&d->lock);
	}
}

size_t cm_idle_bytes(cm_heap *h, int dev)
{
	if (dev < 0 || dev >= h->ndev)
		return 0;
	cm_device *d = &h->devs[dev];
	cm_thread_flush(h); /* parked blocks are idle too */
	pthread_mutex_lock(&d->lock);
	size_t idle = d->stats.reserved_bytes - d->stats.allocated_bytes;
	pthread_mutex_unlock(&d->lock);
	return idle;
}

/* cudaMemGetInfo as the program should see it: memory idle in the cache
 * counted as free (memgetinfo_counts_cache), and under memory_limit_mb a
 * device of that size of which this process's holdings are the used part
 * (as HAMi-core reports CUDA_DEVICE_MEMORY_LIMIT). */
void cm_mem_info_view(cm_heap *h, int dev, size_t *free_bytes, size_t *total)
{
	if (dev < 0 || dev >= h->ndev)
		return;
	bool counts_cache = h->cfg.memgetinfo_counts_cache;
	size_t cap = cm_config_memory_limit(&h->cfg, cm_device_ordinal(h, dev));
	size_t idle = counts_cache ? cm_idle_bytes(h, dev) : 0;
	if (counts_cache)
		*free_bytes = *free_bytes + idle > *total ? *total : *free_bytes + idle;
	if (cap == SIZE_MAX)
		return;
	cm_device *d = &h->devs[dev];
	pthread_mutex_lock(&d->lock);
	size_t held = cm_release_held_on_device(d);
	pthread_mutex_unlock(&d->lock);
	held = held > idle ? held - idle : 0;
	if (*total > cap)
		*total = cap;
	size_t left = held < *total ? *total - held : 0;
	if (*free_bytes > left)
		*free_bytes = left;
}
