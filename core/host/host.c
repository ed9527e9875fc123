/* core/host/host.c - the pinned host memory cache (docs/design.md, "Pinned host
 * memory and pitch").
 *
 * Owns, per heap: every pinned block the cache got from the backend
 * (cudaMallocHost, cudaHostAlloc, cuMemAllocHost, cuMemHostAlloc, or
 * malloc + cudaHostRegister with pinned_use_cuda_host_register), a hash of
 * them by address, a free index per pool, the free blocks in the order they
 * were freed, the bound and the host statistics, under one lock.
 *
 * A pool is a context slot and a flag combination (portable, mapped,
 * write-combined): a block allocated with some flags is handed out only for
 * the same flags in the same context, so that every CUDA query about it
 * (cudaHostGetDevicePointer, cuMemHostGetFlags, cudaPointerGetAttributes)
 * answers as for a fresh allocation. Blocks are whole backend allocations,
 * never split nor merged: the driver's answer for the block is the block's.
 *
 * Reuse needs completion, not order: the host writes a pinned buffer the
 * moment it gets it, while a copy queued before the free may still read
 * it. A free stamps each device in use with its epoch (the fence protocol,
 * fence.c); the block is handed out again once every such epoch is
 * complete on its device (cm_epoch_poll_complete: a collect, polled
 * without waiting), a collect covering the free put in flight at the free
 * (cm_epoch_cover). free_fence:host synchronizes the devices instead;
 * free_fence:none trusts the program (and the late-copy race shows it).
 * A pool serves its oldest fitting block first. A block not proven yet
 * stays cached and pending (the pend list, in free order); the request
 * takes fresh memory while the pending bytes stay within max_pending_mb,
 * else the host waits for the oldest fitting block.
 *
 * Bound: cached bytes (free blocks) never exceed pinned_max_cached_mb; the
 * oldest free blocks go back first (the backend's host_free waits for the
 * device, as cudaFreeHost does, so no proof is needed to release), and a
 * request that would make one go back waits for a pending block instead. A
 * failed backend allocation releases every cached block and retries once.
 *
 * Lock order: the host lock before a device lock, never under one.
 * Wing: host. Calls the order and record wings.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "../record/list.h"

#define CM_HOST_PAGE ((size_t)4096)
#define CM_HOST_FIT_TRIES 4 /* free blocks examined before fresh memory */

typedef struct cm_host_block {
	cm_tnode node; /* size (rounded), free order (addr); in its pool's index while free */
	uintptr_t addr;
	struct cm_host_block *hash_next;
	struct cm_host_block *lru_prev, *lru_next; /* free blocks, oldest first */
	struct cm_host_block *pend_prev, *pend_next; /* pending blocks, oldest first */
	size_t requested;
	int dev;
	uint8_t flags;
	bool free;
	bool registered; /* malloc + host_register */
	bool pending;    /* free, and its work not proven complete yet */
	uint64_t epochs[]; /* per device: the epoch of its free; 0: not in use */
} cm_host_block;

typedef struct cm_host {
	pthread_mutex_t lock;
	cm_heap *heap;
	size_t max_cached;
	cm_tnode **pools; /* [dev * (CM_HOST_FLAGS + 1) + flags] */
	cm_host_block **buckets;
	size_t nbuckets, nblocks;
	cm_host_block *lru_head, *lru_tail;
	uint64_t frees;       /* the free order: a pool serves its oldest fitting block first */
	size_t pending_bytes; /* free blocks whose work is not proven complete yet */
	cm_host_block *pend_head, *pend_tail; /* those blocks, in free order */
	cm_stats stats; /* the host_ fields only */
	/* Copies of those for the out-of-memory report, read without the
	 * lock (it is printed under a device lock): written under it. */
	_Atomic uint64_t seen_calls, seen_hits, seen_reserved, seen_peak_reserved, seen_cached;
} cm_host;

#define cm_host_block_of(n) ((cm_host_block *)((char *)(n)-offsetof(cm_host_block, node)))

/* Every change under the lock publishes the copies before it lets go. */
static void cm_host_unlock(cm_host *c)
{
	atomic_store_explicit(&c->seen_calls, c->stats.host_alloc_calls, memory_order_relaxed);
	atomic_store_explicit(&c->seen_hits, c->stats.host_cache_hits, memory_order_relaxed);
	atomic_store_explicit(&c->seen_reserved, c->stats.host_reserved_bytes, memory_order_relaxed);
	atomic_store_explicit(&c->seen_peak_reserved, c->stats.peak_host_reserved_bytes,
			      memory_order_relaxed);
	atomic_store_explicit(&c->seen_cached, c->stats.host_cached_bytes, memory_order_relaxed);
	pthread_mutex_unlock(&c->lock);
}

/* ---- sizes ---- */

/* Powers of two up to 1 MiB (pages at least), then multiples of 2 MiB: a
 * block serves requests that round to its size or up to 1/8 below it. */
static size_t cm_host_round(size_t size)
{
	if (size <= CM_HOST_PAGE)
		return CM_HOST_PAGE;
	if (size <= CM_MiB) {
		size_t r = CM_HOST_PAGE;
		while (r < size)
			r <<= 1;
		return r;
	}
	return (size + 2 * CM_MiB - 1) & ~(2 * CM_MiB - 1);
}

/* ---- the address hash (host lock held) ---- */

static size_t cm_host_bucket(const cm_host *c, uintptr_t p)
{
	return (size_t)(((uint64_t)p * 0x9e3779b97f4a7c15ull) >> 20) & (c->nbuckets - 1);
}

static bool cm_host_hash_grow(cm_host *c)
{
	size_t n = c->nbuckets ? 2 * c->nbuckets : 1024;
	cm_host_block **nb = calloc(n, sizeof(*nb));
	if (!nb)
		return false;
	cm_host_block **old = c->buckets;
	size_t oldn = c->nbuckets;
	c->buckets = nb;
	c->nbuckets = n;
	for (size_t i = 0; i < oldn; i++)
		for (cm_host_block *b = old[i], *next; b; b = next) {
			next = b->hash_next;
			size_t k = cm_host_bucket(c, b->addr);
			b->hash_next = nb[k];
			nb[k] = b;
		}
	free(old);
	return true;
}

static bool cm_host_hash_insert(cm_host *c, cm_host_block *b)
{
	if (c->nblocks >= c->nbuckets && !cm_host_hash_grow(c))
		return false;
	size_t k = cm_host_bucket(c, b->addr);
	b->hash_next = c->buckets[k];
	c->buckets[k] = b;
	c->nblocks++;
	return true;
}

static cm_host_block *cm_host_hash_find(const cm_host *c, uintptr_t p)
{
	if (!c->nbuckets)
		return NULL;
	for (cm_host_block *b = c->buckets[cm_host_bucket(c, p)]; b; b = b->hash_next)
		if (b->addr == p)
			return b;
	return NULL;
}

static void cm_host_hash_remove(cm_host *c, cm_host_block *b)
{
	for (cm_host_block **pp = &c->buckets[cm_host_bucket(c, b->addr)]; *pp;
	     pp = &(*pp)->hash_next)
		if (*pp == b) {
			*pp = b->hash_next;
			c->nblocks--;
			return;
		}
}

/* ---- free index and age order ---- */

/* b's work is complete (or b leaves the cache): it no longer counts as
 * pending. */
static void cm_host_proved(cm_host *c, cm_host_block *b)
{
	if (!b->pending)
		return;
	c->pending_bytes -= b->node.size;
	CM_LIST_REMOVE_ENDS(c->pend_head, c->pend_tail, b, pend_prev, pend_next);
	b->pending = false;
}

static cm_tnode **cm_host_pool(cm_host *c, int dev, unsigned flags)
{
	return &c->pools[(size_t)dev * (CM_HOST_FLAGS + 1) + flags];
}

static void cm_host_cache(cm_host *c, cm_host_block *b)
{
	b->free = true;
	b->node.addr = ++c->frees;
	cm_tree_insert(cm_host_pool(c, b->dev, b->flags), &b->node);
	CM_LIST_APPEND(c->lru_head, c->lru_tail, b, lru_prev, lru_next);
	CM_LEVEL(&c->stats, host_cached_bytes, (int64_t)b->node.size);
}

static void cm_host_uncache(cm_host *c, cm_host_block *b)
{
	cm_tree_remove(cm_host_pool(c, b->dev, b->flags), &b->node);
	CM_LIST_REMOVE_ENDS(c->lru_head, c->lru_tail, b, lru_prev, lru_next);
	b->free = false;
	cm_host_proved(c, b);
	CM_LEVEL(&c->stats, host_cached_bytes, -(int64_t)b->node.size);
}

/* ---- the backend ---- */

static bool cm_host_registers(const cm_heap *h, unsigned flags)
{
	/* cudaHostRegister cannot make write-combined memory. */
	return h->cfg.pinned_use_cuda_host_register && !(flags & CM_HOST_WRITE_COMBINED) &&
	       h->be->host_register && h->be->host_unregister;
}

static cm_status cm_host_get(cm_heap *h, int dev, size_t size, unsigned flags, bool *registered,
			     uintptr_t *out)
{
	const cm_backend *be = h->be;
	*registered = cm_host_registers(h, flags);
	if (!*registered)
		return be->host_alloc(be->ctx, dev, size, flags, out);
	void *p = NULL;
	if (posix_memalign(&p, CM_HOST_PAGE, size) != 0)
		return CM_ERR_OOM;
	cm_status st = be->host_register(be->ctx, dev, (uintptr_t)p, size, flags);
	if (st != CM_OK)
		free(p);
	*out = (uintptr_t)p;
	return st;
}

/* Unpins and frees b's memory (not its struct). */
static void cm_host_put(cm_heap *h, const cm_host_block *b)
{
	const cm_backend *be = h->be;
	if (b->registered) {
		be->host_unregister(be->ctx, b->dev, b->addr);
		free((void *)b->addr);
	} else {
		be->host_free(be->ctx, b->dev, b->addr);
	}
}

static void cm_host_give_back(cm_host *c, cm_host_block *b)
{
	cm_host_put(c->heap, b);
	c->stats.host_releases++;
	CM_LEVEL(&c->stats, host_reserved_bytes, -(int64_t)b->node.size);
	cm_host_hash_remove(c, b);
	free(b);
}

/* Gives back the oldest free blocks until at most keep bytes are cached. */
static size_t cm_host_trim_locked(cm_host *c, size_t keep)
{
	size_t freed = 0;
	while (c->lru_head && c->stats.host_cached_bytes > keep) {
		cm_host_block *b = c->lru_head;
		freed += b->node.size;
		cm_host_uncache(c, b);
		cm_host_give_back(c, b);
	}
	return freed;
}

/* Stamps each device in use with its epoch (fence.c); b is pending where
 * one is. */
static void cm_host_stamp(cm_host *c, cm_host_block *b)
{
	cm_heap *h = c->heap;
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		b->epochs[i] = atomic_load_explicit(&d->in_use, memory_order_relaxed)
				       ? atomic_load(&d->epoch)
				       : 0;
		b->pending |= b->epochs[i] != 0;
	}
	if (b->pending) {
		c->pending_bytes += b->node.size;
		CM_LIST_APPEND(c->pend_head, c->pend_tail, b, pend_prev, pend_next);
	}
}

/* With free_fence:gpu, a collect covering b's free goes in flight now
 * (fence.c, cm_epoch_cover): a staging loop's buffer is then proven as
 * soon as its copy completes, and the loop turns over two buffers instead
 * of taking new ones while proofs lag (docs/design.md, "Pinned host
 * memory and pitch"). Takes each device's lock in turn. */
static void cm_host_cover(cm_host *c, const cm_host_block *b)
{
	cm_heap *h = c->heap;
	if (h->cfg.free_fence != CM_FENCE_GPU)
		return;
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		if (!b->epochs[i] || b->epochs[i] <= atomic_load(&d->completed_epoch))
			continue;
		pthread_mutex_lock(&d->lock);
		cm_epoch_cover(d, b->epochs[i]);
		pthread_mutex_unlock(&d->lock);
	}
}

/* A freed block joins the cache, the oldest ones making room first so
 * that the cached bytes never exceed the bound, even for a moment; a block
 * larger than the bound goes back at once. */
static void cm_host_keep(cm_host *c, cm_host_block *b)
{
	if (b->node.size > c->max_cached) {
		cm_host_give_back(c, b);
		return;
	}
	cm_host_trim_locked(c, c->max_cached - b->node.size);
	cm_host_stamp(c, b);
	cm_host_cache(c, b);
	cm_host_cover(c, b);
}

/* ---- the proof ---- */

/* Whether no queued work can still use free block b, by what is known
 * without asking a device: every epoch of its free complete. */
static bool cm_host_known_complete(cm_host *c, cm_host_block *b)
{
	cm_heap *h = c->heap;
	if (b->pending && h->cfg.free_fence != CM_FENCE_NONE)
		for (int i = 0; i < h->ndev; i++)
			if (b->epochs[i] > atomic_load(&h->devs[i].completed_epoch))
				return false;
	cm_host_proved(c, b);
	return true;
}

/* Whether no queued work can still use free block b, asking the devices:
 * a poll of their collects (wait false), or a wait for them (wait true);
 * free_fence:host synchronizes them. Host lock held; takes each device's
 * lock in turn. */
static bool cm_host_complete(cm_host *c, cm_host_block *b, bool wait)
{
	cm_heap *h = c->heap;
	if (cm_host_known_complete(c, b))
		return true;
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		uint64_t e = b->epochs[i];
		if (!e || e <= atomic_load(&d->completed_epoch))
			continue;
		pthread_mutex_lock(&d->lock);
		bool done = h->cfg.free_fence == CM_FENCE_HOST ? cm_device_sync_locked(d) == CM_OK
			    : wait				    ? cm_epoch_wait_complete(d, e)
								    : cm_epoch_poll_complete(d, e);
		pthread_mutex_unlock(&d->lock);
		if (!done)
			return false;
		b->epochs[i] = 0;
	}
	cm_host_proved(c, b);
	return true;
}

/* A free block of the pool that serves rounded bytes and is complete: the
 * oldest freed first, by what is known, then the oldest asked for (one
 * poll). *waitable: that oldest one when it is not complete yet. */
static cm_host_block *cm_host_search(cm_host *c, int dev, unsigned flags, size_t rounded,
				     cm_host_block **waitable)
{
	cm_tnode **pool = cm_host_pool(c, dev, flags);
	cm_tnode *first = cm_tree_lower_bound(*pool, rounded, 0);
	*waitable = NULL;
	int tries = 0;
	for (cm_tnode *n = first; n && n->size <= rounded + rounded / 8 && tries < CM_HOST_FIT_TRIES;
	     tries++, n = cm_tree_next(*pool, n))
		if (cm_host_known_complete(c, cm_host_block_of(n)))
			return cm_host_block_of(n);
	if (!tries)
		return NULL;
	cm_host_block *oldest = cm_host_block_of(first);
	if (cm_host_complete(c, oldest, false))
		return oldest;
	*waitable = oldest;
	return NULL;
}

/* Whether new memory for rounded bytes would pass a bound: the pending
 * bytes (max_pending_mb, as for device memory) or the cached bytes once it
 * is freed (pinned_max_cached_mb: then the oldest block would go back, a
 * wait for the device and a new allocation each time). The host waits for
 * a pending block instead. */
static bool cm_host_over_bound(cm_host *c, size_t rounded)
{
	/* Blocks are proven when examined; those the devices' completed
	 * epochs now cover, oldest first (their epochs grow in free order),
	 * stop counting before the bound is read. */
	while (c->pend_head && cm_host_known_complete(c, c->pend_head))
		;
	size_t max_pending = c->heap->cfg.max_pending;
	if (max_pending == CM_PENDING_AUTO)
		max_pending = CM_MAX_PENDING_DEFAULT;
	return c->pending_bytes + rounded > max_pending ||
	       c->stats.host_cached_bytes + rounded > c->max_cached;
}

static cm_status cm_host_fresh(cm_host *c, int dev, unsigned flags, size_t rounded,
			       cm_host_block **out)
{
	cm_heap *h = c->heap;
	cm_host_block *b = calloc(1, sizeof(*b) + (size_t)h->ndev * sizeof(uint64_t));
	if (!b)
		return CM_ERR_OOM;
	bool registered = false;
	cm_status st = cm_host_get(h, dev, rounded, flags, &registered, &b->addr);
	if (st == CM_ERR_OOM && c->lru_head) {
		cm_host_trim_locked(c, 0); /* host memory is short: give back, retry */
		st = cm_host_get(h, dev, rounded, flags, &registered, &b->addr);
	}
	b->node.size = rounded;
	b->dev = dev;
	b->flags = (uint8_t)flags;
	b->registered = registered;
	if (st == CM_OK && !cm_host_hash_insert(c, b)) {
		cm_host_put(h, b);
		st = CM_ERR_OOM;
	}
	if (st != CM_OK) {
		free(b);
		return st;
	}
	CM_LEVEL(&c->stats, host_reserved_bytes, (int64_t)rounded);
	*out = b;
	return CM_OK;
}

/* ---- public ---- */

cm_status cm_host_create(cm_heap *h)
{
	const cm_backend *be = h->be;
	if (!be->host_alloc || !be->host_free)
		return CM_OK; /* pinned memory passes through */
	cm_host *c = calloc(1, sizeof(*c));
	if (c)
		c->pools = calloc((size_t)h->ndev * (CM_HOST_FLAGS + 1), sizeof(*c->pools));
	if (!c || !c->pools) {
		free(c);
		return CM_ERR_OOM;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->heap = h;
	c->max_cached = h->cfg.pinned_max_cached;
	if (c->max_cached == CM_PINNED_AUTO) {
		long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
		c->max_cached = pages > 0 && page > 0 ? (size_t)pages / 8 * (size_t)page : 1024 * CM_MiB;
	}
	h->host = c;
	return CM_OK;
}

void cm_host_destroy(cm_heap *h)
{
	cm_host *c = h->host;
	if (!c)
		return;
	for (size_t i = 0; i < c->nbuckets; i++)
		for (cm_host_block *b = c->buckets[i], *next; b; b = next) {
			next = b->hash_next;
			cm_host_give_back(c, b);
		}
	free(c->buckets);
	free(c->pools);
	pthread_mutex_destroy(&c->lock);
	free(c);
	h->host = NULL;
}

cm_status cm_host_alloc(cm_heap *h, int dev, size_t size, unsigned flags, uintptr_t *out)
{
	cm_host *c = h->host;
	*out = 0;
	if (!c || dev < 0 || dev >= h->ndev || (flags & ~CM_HOST_FLAGS) || size == 0 ||
	    size > SIZE_MAX / 2)
		return CM_ERR_NOT_OURS; /* CUDA's own answer */
	atomic_store_explicit(&h->devs[dev].in_use, true, memory_order_relaxed);
	size_t rounded = cm_host_round(size);
	cm_host_block *b;
	cm_status st = CM_OK;
	pthread_mutex_lock(&c->lock);
	c->stats.host_alloc_calls++;
	cm_host_block *waitable;
	b = cm_host_search(c, dev, flags, rounded, &waitable);
	if (!b && waitable && cm_host_over_bound(c, rounded) && cm_host_complete(c, waitable, true))
		b = waitable;
	if (b) {
		cm_host_uncache(c, b);
		c->stats.host_cache_hits++;
	} else {
		st = cm_host_fresh(c, dev, flags, rounded, &b);
	}
	if (st == CM_OK) {
		b->requested = size;
		*out = b->addr;
	}
	cm_host_unlock(c);
	return st;
}

cm_status cm_host_free(cm_heap *h, uintptr_t ptr)
{
	cm_host *c = h->host;
	if (!c || !ptr)
		return CM_ERR_NOT_OURS;
	cm_status st = CM_OK;
	pthread_mutex_lock(&c->lock);
	cm_host_block *b = cm_host_hash_find(c, ptr);
	if (!b) {
		st = CM_ERR_NOT_OURS;
	} else if (b->free) {
		st = CM_ERR_INVALID; /* a double free */
	} else if (b->dev < 0) {
		/* Registered memory whose context went: CUDA answers a free of
		 * memory pinned in a reset context with invalid value
		 * (probe_freehost on an H200); the memory is given back. */
		cm_host_hash_remove(c, b);
		free((void *)b->addr);
		free(b);
		st = CM_ERR_INVALID;
	} else {
		cm_host_keep(c, b);
	}
	cm_host_unlock(c);
	return st;
}

bool cm_host_flags_of(cm_heap *h, uintptr_t ptr, unsigned *flags)
{
	cm_host *c = h->host;
	if (!c || !ptr)
		return false;
	pthread_mutex_lock(&c->lock);
	cm_host_block *b = cm_host_hash_find(c, ptr);
	bool held = b && !b->free && b->dev >= 0;
	if (held)
		*flags = b->flags;
	pthread_mutex_unlock(&c->lock);
	return held;
}

size_t cm_host_trim(cm_heap *h, size_t keep)
{
	cm_host *c = h->host;
	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock);
	size_t freed = cm_host_trim_locked(c, keep);
	cm_host_unlock(c);
	return freed;
}

size_t cm_host_release_cached(cm_heap *h)
{
	return cm_host_trim(h, 0);
}

/* The context of slot dev is going or gone, and the pinned memory it
 * allocated with it: those blocks, free or held, are forgotten without
 * being given back. Registered memory is the cache's own: a free block is
 * unregistered (an error if the context went first: nothing to undo) and
 * freed; a held one stays in the hash without a device until the program
 * frees it (cm_host_free gives the memory back and answers invalid, as
 * CUDA does for pinned memory of a reset context). */
void cm_host_forget_device(cm_heap *h, int dev)
{
	cm_host *c = h->host;
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->nbuckets; i++)
		for (cm_host_block **pp = &c->buckets[i]; *pp;) {
			cm_host_block *b = *pp;
			if (b->dev != dev) {
				pp = &b->hash_next;
				continue;
			}
			bool unregister = b->registered && b->free;
			CM_LEVEL(&c->stats, host_reserved_bytes, -(int64_t)b->node.size);
			if (b->registered && !b->free) {
				b->dev = -1; /* the program's free gives it back */
				pp = &b->hash_next;
				continue;
			}
			if (b->free)
				cm_host_uncache(c, b);
			*pp = b->hash_next;
			c->nblocks--;
			if (unregister)
				cm_host_put(h, b);
			free(b);
		}
	cm_host_unlock(c);
}

void cm_host_stats(cm_heap *h, cm_stats *st)
{
	cm_host *c = h->host;
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	st->host_alloc_calls += c->stats.host_alloc_calls;
	st->host_cache_hits += c->stats.host_cache_hits;
	st->host_releases += c->stats.host_releases;
	st->host_reserved_bytes += c->stats.host_reserved_bytes;
	st->peak_host_reserved_bytes += c->stats.peak_host_reserved_bytes;
	st->host_cached_bytes += c->stats.host_cached_bytes;
	st->peak_host_cached_bytes += c->stats.peak_host_cached_bytes;
	cm_host_unlock(c);
}

void cm_host_view(cm_heap *h, cm_stats *st)
{
	cm_host *c = h->host;
	if (!c)
		return;
	st->host_alloc_calls = atomic_load_explicit(&c->seen_calls, memory_order_relaxed);
	st->host_cache_hits = atomic_load_explicit(&c->seen_hits, memory_order_relaxed);
	st->host_reserved_bytes = atomic_load_explicit(&c->seen_reserved, memory_order_relaxed);
	st->peak_host_reserved_bytes =
		atomic_load_explicit(&c->seen_peak_reserved, memory_order_relaxed);
	st->host_cached_bytes = atomic_load_explicit(&c->seen_cached, memory_order_relaxed);
}

/* The consistency check: hash, indexes, age list and counts agree, and the
 * cached bytes are within the bound. */
bool cm_host_check(cm_heap *h, FILE *err)
{
	cm_host *c = h->host;
	if (!c)
		return true;
	bool ok = true;
	size_t blocks = 0, reserved = 0, cached = 0, pending = 0, pending_blocks = 0, free_blocks = 0,
	       in_pools = 0;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->nbuckets; i++)
		for (cm_host_block *b = c->buckets[i]; b; b = b->hash_next) {
			blocks++;
			reserved += b->node.size;
			if (b->free)
				cached += b->node.size, free_blocks++;
			if (b->pending)
				pending += b->node.size, pending_blocks++, ok = ok && b->free;
			if (cm_host_bucket(c, b->addr) != i || b->dev < 0 || b->dev >= h->ndev ||
			    b->node.size != cm_host_round(b->node.size))
				ok = false;
		}
	for (size_t i = 0; i < (size_t)h->ndev * (CM_HOST_FLAGS + 1); i++)
		in_pools += cm_tree_count(c->pools[i]);
	size_t aged = 0, pending_listed = 0;
	for (cm_host_block *b = c->lru_head; b; b = b->lru_next)
		aged++, ok = ok && b->free;
	for (cm_host_block *b = c->pend_head; b; b = b->pend_next)
		pending_listed++, ok = ok && b->pending;
	if (!ok || blocks != c->nblocks || reserved != c->stats.host_reserved_bytes ||
	    cached != c->stats.host_cached_bytes || in_pools != free_blocks || aged != free_blocks ||
	    cached > c->max_cached || pending != c->pending_bytes || pending_listed != pending_blocks) {
		fprintf(err, "host cache: %zu blocks (counted %zu), %zu reserved (counted %zu), %zu "
			     "cached (counted %zu, bound %zu), %zu pending (counted %zu), %zu free, "
			     "%zu indexed, %zu aged\n",
			blocks, c->nblocks, reserved, (size_t)c->stats.host_reserved_bytes, cached,
			(size_t)c->stats.host_cached_bytes, c->max_cached, pending, c->pending_bytes,
			free_blocks, in_pools, aged);
		ok = false;
	}
	cm_host_unlock(c);
	return ok;
}
