/* core/serve/tcache.c - per-thread caches: binding, parking under the lock,
 * flushes and steals; their lock-free fast path is inline in
 * tcache_fast.h.
 *
 * A thread's cache parks blocks it freed and serves its next allocations of
 * the same rounded size, stream and device without the device lock (large
 * blocks only under the conditions of cm_tc_large_ok). While parked, a
 * block stays USED for its device (in the live map, counted as allocated):
 * the cache only borrows it. Bounds: CM_TC_DEPTH blocks per bin,
 * CM_TC_MAX_BYTES in all. A thread gives its parked blocks back on its
 * next slow-path allocation, at thread exit and at device sync; another
 * thread takes them back before asking the device for memory.
 *
 * Ownership protocol, through each block's atomic owner word:
 *   0             the device's (under its lock)
 *   tc|LIVE       handed to the program by tc's thread, which may free it
 *                 without the lock
 *   tc|PARKED     in tc's bins
 * Only tc's own thread moves tc|LIVE <-> tc|PARKED; any thread may move
 * tc|LIVE -> 0 (a free from another thread) or tc|PARKED -> 0 (taking
 * parked memory back, which then asks tc to flush) under the device lock.
 * A device takes a parked block with a compare-and-swap; the owner takes
 * one with plain loads and stores, inside the steal handshake below, so
 * the two never both win; parking is a plain store, since only a double
 * free racing with itself could contend for a live block.
 * A cache entry may point at a block struct that has since been reused:
 * structs are type-stable (segment.c), and the owner word plus the block's
 * hand-out ticket tell a stale entry from a live one.
 *
 * Reuse rules (docs/design.md, "The fence protocol") still hold: a bin
 * keyed by a stream serves only that stream (rule 1), and is dropped when
 * any stream of the device is destroyed (its tc_gen); a cudaMalloc bin
 * serves only what fence.c's rules allow (cm_reuse_ready_at_once, else
 * cm_reuse_ready_rules_unlocked).
 *
 * The steal handshake. The owner announces a take (tc->taking), then
 * checks that no device is taking its blocks back (tc->steals): a store,
 * then a load, which the CPU may reorder. A device, under its lock,
 * raises steals, then has every thread of the process pass a full barrier
 * (membarrier's private expedited command: the owner's store is seen, or
 * the owner sees steals), then waits while the owner takes; only then does
 * it take blocks back, and it lowers steals (release) after. So the
 * owner's take has no locked instruction, and the cost is one system call
 * per steal pass that finds another thread's parked blocks. Where the
 * kernel refuses membarrier, caches are made with full_fence: the owner
 * fences between its store and its load. If the barrier fails later, the
 * caches that needed it are not taken from (they flush themselves at their
 * next miss) and caches made from then on fence. Like CUDA's runtime, the
 * entry points are not async-signal-safe: a signal handler that allocates
 * inside a take could be handed the block the take is handing out.
 * Wing: serve. Calls in its own wing heap.c; the mem and order wings.
 */
#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../record/list.h"
#include "serve.h"
#include "tcache_fast.h"

static pthread_mutex_t cm_tc_registry = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t cm_tc_key;
static pthread_once_t cm_tc_key_once = PTHREAD_ONCE_INIT;
static _Atomic uint32_t cm_tc_next_thread = 1;
__thread cm_tcache *cm_tc_self __attribute__((tls_model("initial-exec"))); /* tcache_fast.h */

static void cm_tc_thread_exit(void *arg);

static _Atomic bool cm_tc_membarrier;
static bool cm_tc_membarrier_refused;

static void cm_tc_key_init(void)
{
	pthread_key_create(&cm_tc_key, cm_tc_thread_exit);
	atomic_store_explicit(
		&cm_tc_membarrier,
		syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0,
		memory_order_relaxed);
}

void cm_tc_refuse_membarrier(bool refused)
{
	cm_tc_membarrier_refused = refused;
}

static bool cm_tc_barrier_all_threads(void)
{
	return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
}

uint32_t cm_tc_thread_id(const cm_tcache *tc)
{
	return tc->thread;
}

cm_stream_rec **cm_tc_per_thread_slot(cm_tcache *tc, int dev)
{
	return &tc->devs[dev].per_thread;
}

/* Keys an empty bin to (size, key) on d. */
static void cm_tc_key_bin(cm_tcache *tc, cm_tc_bin *bin, cm_device *d, size_t size, cm_stream key,
			  cm_stream_rec *rec)
{
	bin->td = cm_tc_dev_of(tc, d->index);
	bin->marked = false; /* in this device's mask, that is */
	bin->size = size;
	bin->key = key;
	bin->gen = cm_tc_gen(d);
	bin->rec = rec;
}

/* Registers a block just handed to this thread so that its free can take
 * the fast path. Called under the device lock or on a block tc owns. */
static inline void cm_tc_register(cm_tcache *tc, cm_device *d, cm_block *b)
{
	atomic_store_explicit(&b->owner, (uintptr_t)tc | CM_OWNER_LIVE, memory_order_release);
	cm_tc_record_live(tc, d, b, b->node.addr);
}

void cm_tc_hand_out_locked(cm_tcache *tc, cm_block *b)
{
	cm_device *d = b->seg->pool->dev;
	b->refit_gen = b->node.size > CM_SMALL_REQUEST ? cm_block_refit_gen(d, b) : 0;
	cm_tc_register(tc, d, b);
}

/* Not inlined: the pairs that need no rule stay free of its call. */
__attribute__((noinline)) uintptr_t cm_tc_malloc_ruled(cm_heap *h, cm_device *d, size_t rounded,
						       size_t size)
{
	return cm_tc_malloc(h, d, rounded, size, CM_KEY_NONE, true);
}

/* A cudaFree of a block over 1 MiB, found by cm_tc_free. */
__attribute__((noinline)) bool cm_tc_park_large(cm_tcache *tc, cm_tc_live *slot, cm_block *b,
						cm_device *d, size_t size)
{
	return cm_tc_park(tc, slot, b, d, size, CM_KEY_NONE, true);
}

/* The cache, then the locked path on a miss. */
static inline __attribute__((always_inline)) cm_status
cm_tc_malloc_or_slow(cm_heap *h, int dev, size_t size, cm_stream key, uintptr_t *out)
{
	uintptr_t addr = out ? cm_tc_malloc_entry(h, dev, size, key) : 0;
	if (CM_LIKELY(addr)) {
		*out = addr;
		return CM_OK;
	}
	return cm_malloc_slow(h, dev, size, key, out);
}

cm_status cm_malloc(cm_heap *h, int dev, size_t size, uintptr_t *out)
{
	return cm_tc_malloc_or_slow(h, dev, size, CM_KEY_NONE, out);
}

cm_status cm_malloc_async(cm_heap *h, int dev, size_t size, cm_stream s, uintptr_t *out)
{
	if (s == CM_KEY_NONE)
		return CM_ERR_INVALID;
	return cm_tc_malloc_or_slow(h, dev, size, s, out);
}

cm_status cm_free(cm_heap *h, uintptr_t ptr)
{
	if (CM_LIKELY(h->fast && cm_tc_free(h, ptr, CM_KEY_NONE, false)))
		return CM_OK;
	return cm_free_slow(h, ptr, CM_KEY_NONE);
}

cm_status cm_free_async(cm_heap *h, uintptr_t ptr, cm_stream s)
{
	if (s == CM_KEY_NONE)
		return CM_ERR_INVALID;
	if (CM_LIKELY(h->fast && cm_tc_free(h, ptr, s, false)))
		return CM_OK;
	return cm_free_slow(h, ptr, s);
}

/* Gives bin's blocks back to their device (whose lock is held). Entries
 * the OOM ladder stole are dropped: the CAS fails for them. */
static void cm_tc_bin_flush(cm_tcache *tc, cm_tc_bin *bin, cm_device *d)
{
	uint32_t count = cm_tc_bin_count(bin);
	for (uint32_t i = 0; i < count; i++) {
		cm_block *b = cm_tc_bin_at(bin, i);
		uintptr_t parked = (uintptr_t)tc | CM_OWNER_PARKED;
		if (atomic_compare_exchange_strong_explicit(&b->owner, &parked, 0,
							    memory_order_acq_rel,
							    memory_order_acquire))
			cm_free_block_locked(d, b, b->tag);
	}
	tc->parked_bytes -= (size_t)count * bin->size;
	cm_tc_bin_set_count(bin, 0);
	if (bin == tc->large_bin)
		tc->large_bin = NULL;
	cm_tc_dev *td = cm_tc_dev_of(tc, d->index);
	atomic_store_explicit(&td->bins, atomic_load_explicit(&td->bins, memory_order_relaxed) &
						 ~cm_tc_bin_bit(tc, bin),
			      memory_order_relaxed);
	bin->marked = false;
}

/* Only the bins marked in td's mask can hold d's blocks (a bin is marked
 * before it takes one): a miss visits those, not all CM_TC_BINS bins (two
 * cache lines each, cold by the time a program that runs between its
 * allocations comes back). A bit whose bin was keyed to another device
 * since is stale. */
bool cm_tc_flush_device_locked(cm_tcache *tc, cm_device *d)
{
	bool any = false;
	cm_tc_dev *td = cm_tc_dev_of(tc, d->index);
	uint64_t bins = atomic_load_explicit(&td->bins, memory_order_relaxed);
	for (; bins; bins &= bins - 1) {
		cm_tc_bin *bin = &tc->bins[__builtin_ctzll(bins)];
		if (bin->td != td)
			continue;
		if (cm_tc_bin_count(bin)) {
			cm_tc_bin_flush(tc, bin, d);
			any = true;
		}
		bin->marked = false; /* the mask is cleared below */
	}
	atomic_store_explicit(&td->flush_requested, false, memory_order_relaxed);
	atomic_store_explicit(&td->bins, 0, memory_order_relaxed); /* none holds d's blocks now */
	return any;
}

void cm_tc_before_slow_path_locked(cm_tcache *tc, cm_device *d)
{
	if (tc && atomic_load_explicit(&cm_tc_dev_of(tc, d->index)->flush_requested,
				       memory_order_relaxed))
		cm_tc_flush_device_locked(tc, d);
}

bool cm_tc_park_locked(cm_tcache *tc, cm_device *d, cm_block *b, cm_stream key,
		       cm_stream_rec *rec)
{
	if (!tc || !d->heap->fast || !cm_tc_worth_parking(d, key))
		return false;
	cm_tc_bin *bin = &tc->bins[cm_tc_bin_index(b->node.size, key)];
	cm_tc_dev *td = cm_tc_dev_of(tc, d->index);
	if (cm_tc_bin_count(bin) && bin->td != td)
		return false; /* never two device locks */
	if (cm_tc_bin_count(bin) &&
	    (bin->size != b->node.size || bin->key != key || bin->gen != cm_tc_gen(d)))
		cm_tc_bin_flush(tc, bin, d);
	if (b->node.size > CM_SMALL_REQUEST && tc->large_bin && tc->large_bin != bin) {
		if (tc->large_bin->td != td)
			return false;
		cm_tc_bin_flush(tc, tc->large_bin, d);
	}
	if (!cm_tc_bin_count(bin))
		cm_tc_key_bin(tc, bin, d, b->node.size, key, rec);
	if (b->node.size > CM_SMALL_REQUEST)
		b->refit_gen = cm_block_refit_gen(d, b); /* after the flushes above */
	if (!cm_tc_bin_accepts(tc, bin, d, b->node.size, key) || !cm_tc_large_ok(tc, bin, b, d))
		return false;
	cm_tc_park_in(tc, bin, b, b->node.size);
	return true;
}

/* Takes back the blocks of device d that tc parks in bin: any entry whose
 * block is d's and still parked by tc (the CAS decides; entries read here
 * may be stale, block structs are type-stable and never change device). */
static size_t cm_tc_steal_bin(cm_device *d, cm_tcache *tc, cm_tc_bin *bin)
{
	size_t n = 0;
	uint32_t count = atomic_load_explicit(&bin->count, memory_order_relaxed);
	for (uint32_t i = 0; i < count && i < CM_TC_DEPTH; i++) {
		cm_block *b = atomic_load_explicit(&bin->blocks[i], memory_order_acquire);
		uintptr_t parked = (uintptr_t)tc | CM_OWNER_PARKED;
		if (!b || b->dev_index != (uint32_t)d->index ||
		    !atomic_compare_exchange_strong_explicit(&b->owner, &parked, 0,
							     memory_order_acq_rel,
							     memory_order_acquire))
			continue;
		cm_free_block_locked(d, b, b->tag);
		n++;
	}
	return n;
}

/* Whether any of the device's marked bins in td's cache holds a block
 * (counts read without the owner: a park racing this pass is left to the
 * next, as before the handshake). A take leaves its bin marked: an
 * emptied cache is not asked, and costs no barrier. */
static bool cm_tc_holds_parked(const cm_tc_dev *td)
{
	uint64_t bins = atomic_load_explicit(&td->bins, memory_order_relaxed);
	for (; bins; bins &= bins - 1)
		if (cm_tc_bin_count(&td->tc->bins[__builtin_ctzll(bins)]))
			return true;
	return false;
}

/* Whether taking from tc needs the barrier: its owner does not fence
 * itself and is another thread. */
static bool cm_tc_needs_barrier(const cm_tcache *tc, const cm_tcache *self)
{
	return tc != self && !tc->full_fence;
}

/* The device's side of the steal handshake (the opening comment): raises
 * the cache's steals where it holds blocks. */
static void cm_tc_ask(cm_tc_dev *td)
{
	td->asked = cm_tc_holds_parked(td);
	if (td->asked)
		atomic_fetch_add_explicit(&td->tc->steals, 1, memory_order_seq_cst);
}

static void cm_tc_wait_untaking(const cm_tcache *tc)
{
	for (unsigned spins = 0; atomic_load_explicit(&tc->taking, memory_order_acquire); spins++)
		if (spins >= 64)
			sched_yield(); /* the owner was preempted inside its take */
}

/* Before the device is asked for memory, and in the OOM ladder: takes
 * every parked block of the device from every thread's cache, and asks
 * those caches to drop their entries. Returns how many it took. Visits
 * the caches bound to the device and, in each, only the bins marked as
 * holding the device's blocks: no walk over the live blocks. */
size_t cm_tc_steal_parked_locked(cm_device *d)
{
	const cm_tcache *self = cm_tc_self;
	bool barrier = false, asked = false;
	for (cm_tc_dev *td = d->tc_list; td; td = td->dev_next) {
		cm_tc_ask(td);
		asked |= td->asked;
		barrier |= td->asked && cm_tc_needs_barrier(td->tc, self);
	}
	if (!asked)
		return 0;
	/* steals before taking, in C11's order too: the caches that fence
	 * themselves pair with this (Dekker's pattern needs both fences). */
	atomic_thread_fence(memory_order_seq_cst);
	bool barrier_ok = !barrier || cm_tc_barrier_all_threads();
	if (!barrier_ok) /* caches made from now on fence themselves */
		atomic_store_explicit(&cm_tc_membarrier, false, memory_order_relaxed);
	size_t n = 0;
	for (cm_tc_dev *td = d->tc_list; td; td = td->dev_next) {
		cm_tcache *tc = td->tc;
		if (!td->asked)
			continue;
		size_t took = 0;
		bool may_take = barrier_ok || !cm_tc_needs_barrier(tc, self);
		if (may_take) {
			cm_tc_wait_untaking(tc);
			uint64_t bins = atomic_load_explicit(&td->bins, memory_order_relaxed);
			for (; bins; bins &= bins - 1)
				took += cm_tc_steal_bin(d, tc, &tc->bins[__builtin_ctzll(bins)]);
		}
		atomic_fetch_sub_explicit(&tc->steals, 1, memory_order_release);
		if (took || !may_take)
			atomic_store_explicit(&td->flush_requested, true, memory_order_relaxed);
		n += took;
	}
	d->stats.parked_taken_back += n;
	return n;
}

/* ---- binding caches to heaps ---- */

static void cm_tc_link_device(cm_device *d, cm_tc_dev *td)
{
	CM_LIST_PUSH(d->tc_list, td, dev_prev, dev_next);
}

static void cm_tc_unlink_device(cm_device *d, cm_tc_dev *td)
{
	CM_LIST_REMOVE(d->tc_list, td, dev_prev, dev_next);
}

static void cm_tc_unbind_registered(cm_tcache *tc, bool flush)
{
	cm_heap *h = tc->heap;
	if (!h)
		return;
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		cm_tc_dev *td = cm_tc_dev_of(tc, i);
		pthread_mutex_lock(&d->lock);
		if (flush)
			cm_tc_flush_device_locked(tc, d);
		if (td->per_thread)
			cm_pool_stream_end(d, td->per_thread, false); /* ordered with legacy: no zombie */
		cm_tc_unlink_device(d, td);
		pthread_mutex_unlock(&d->lock);
		h->retired[i].hits += atomic_load(&td->hits);
		h->retired[i].frees += atomic_load(&td->frees);
	}
	CM_LIST_REMOVE(h->tcaches, tc, prev, next);
	tc->heap = NULL;
}

static void cm_tc_reset(cm_tcache *tc, cm_heap *h)
{
	free(tc->devs);
	memset(tc->bins, 0, sizeof(tc->bins));
	memset(tc->live, 0, sizeof(tc->live));
	tc->parked_bytes = 0;
	tc->large_bin = NULL;
	tc->full_fence = !atomic_load_explicit(&cm_tc_membarrier, memory_order_relaxed) ||
			 cm_tc_membarrier_refused;
	tc->devs = cm_alloc_lines((size_t)h->ndev * sizeof(*tc->devs));
	tc->ndev = tc->devs ? h->ndev : 0;
}

cm_tcache *cm_tc_get(cm_heap *h)
{
	cm_tcache *tc = cm_tc_self;
	if (CM_LIKELY(tc && tc->heap == h))
		return tc;
	pthread_once(&cm_tc_key_once, cm_tc_key_init);
	if (!tc) {
		tc = cm_alloc_lines(sizeof(*tc));
		if (!tc)
			return NULL;
		tc->thread = atomic_fetch_add(&cm_tc_next_thread, 1);
		cm_tc_self = tc;
		pthread_setspecific(cm_tc_key, tc);
	}
	pthread_mutex_lock(&cm_tc_registry);
	cm_tc_unbind_registered(tc, true);
	cm_tc_reset(tc, h);
	if (tc->devs) {
		for (int i = 0; i < h->ndev; i++) {
			tc->devs[i].tc = tc;
			pthread_mutex_lock(&h->devs[i].lock);
			cm_tc_link_device(&h->devs[i], &tc->devs[i]);
			pthread_mutex_unlock(&h->devs[i].lock);
		}
		tc->heap = h;
		CM_LIST_PUSH(h->tcaches, tc, prev, next);
	}
	pthread_mutex_unlock(&cm_tc_registry);
	return tc->devs ? tc : NULL;
}

static void cm_tc_thread_exit(void *arg)
{
	cm_tcache *tc = arg;
	pthread_mutex_lock(&cm_tc_registry);
	cm_tc_unbind_registered(tc, true);
	pthread_mutex_unlock(&cm_tc_registry);
	cm_tc_self = NULL;
	free(tc->devs);
	free(tc);
}

void cm_thread_flush(cm_heap *h)
{
	cm_tcache *tc = cm_tc_self;
	if (!tc || tc->heap != h)
		return;
	for (int i = 0; i < h->ndev; i++) {
		pthread_mutex_lock(&h->devs[i].lock);
		cm_tc_flush_device_locked(tc, &h->devs[i]);
		pthread_mutex_unlock(&h->devs[i].lock);
	}
}

/* Heap teardown: caches still bound to it forget it without touching its
 * blocks (they are about to go). */
void cm_tc_heap_fini(cm_heap *h)
{
	pthread_mutex_lock(&cm_tc_registry);
	while (h->tcaches) {
		cm_tcache *tc = h->tcaches;
		h->tcaches = tc->next;
		tc->next = tc->prev = NULL;
		tc->heap = NULL;
	}
	pthread_mutex_unlock(&cm_tc_registry);
}

void cm_tc_stats(cm_heap *h, int dev, cm_stats *st)
{
	pthread_mutex_lock(&cm_tc_registry);
	uint64_t hits = h->retired[dev].hits, frees = h->retired[dev].frees;
	for (cm_tcache *tc = h->tcaches; tc; tc = tc->next) {
		cm_tc_dev *td = cm_tc_dev_of(tc, dev);
		hits += atomic_load_explicit(&td->hits, memory_order_relaxed);
		frees += atomic_load_explicit(&td->frees, memory_order_relaxed);
	}
	/* A hit is an allocation call served by the cache. */
	st->alloc_calls += hits;
	st->cache_hits += hits;
	st->thread_cache_hits += hits;
	st->free_calls += frees;
	pthread_mutex_unlock(&cm_tc_registry);
}

/* For the checker: every parked entry is a USED block owned tc|PARKED, of
 * its bin's size and device, a cudaFree bin has no stream record (the
 * free's tag assumes it), and the parked byte count adds up. Call only
 * when no other thread uses the heap. */
bool cm_tc_check(cm_heap *h, FILE *err)
{
	bool ok = true;
	pthread_mutex_lock(&cm_tc_registry);
	for (cm_tcache *tc = h->tcaches; tc; tc = tc->next) {
		size_t parked = 0;
		for (size_t i = 0; i < CM_TC_BINS; i++) {
			const cm_tc_bin *bin = &tc->bins[i];
			uint32_t count = cm_tc_bin_count(bin);
			parked += (size_t)count * bin->size;
			if (count && !bin->size) {
				fprintf(err, "tcache: bin %zu holds blocks but is keyed to nothing\n", i);
				ok = false;
			}
			if (bin->size && bin->key == CM_KEY_NONE && bin->rec) {
				fprintf(err, "tcache: cudaFree bin %zu has a stream record\n", i);
				ok = false;
			}
			bool marked = bin->td && (atomic_load(&bin->td->bins) & cm_tc_bin_bit(tc, bin));
			if ((count || bin->marked) && !marked) {
				fprintf(err, "tcache: bin %zu %s but is not marked\n", i,
					count ? "holds blocks" : "believes it is marked");
				ok = false;
			}
			for (uint32_t j = 0; j < count; j++) {
				cm_block *b = cm_tc_bin_at(bin, j);
				uintptr_t owner = atomic_load(&b->owner);
				if (owner != ((uintptr_t)tc | CM_OWNER_PARKED))
					continue; /* stolen: dropped at the next flush */
				if (b->state != CM_BLOCK_USED || b->node.size != bin->size ||
				    cm_tc_dev_of(tc, b->seg->pool->dev->index) != bin->td) {
					fprintf(err, "tcache: parked block %#lx inconsistent with its bin\n",
						(unsigned long)b->node.addr);
					ok = false;
				}
			}
		}
		if (parked != tc->parked_bytes) {
			fprintf(err, "tcache: parked bytes %zu, bins hold %zu\n", tc->parked_bytes, parked);
			ok = false;
		}
	}
	pthread_mutex_unlock(&cm_tc_registry);
	return ok;
}
