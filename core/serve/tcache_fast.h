/* core/serve/tcache_fast.h - the per-thread caches' lock-free fast path, inline.
 *
 * Owns the caches' layout (bins, live table, per-device counters) and the
 * paths that take a block from a bin and park one in it without the
 * device lock: cm_tc_malloc, cm_tc_free, and the hooks' cache-first tries
 * cm_malloc_cached and cm_free_cached, which interpose/hook_shape.h inlines
 * into the hot hooks so that a cache-hit pair makes no call. The ownership
 * protocol, the reuse rules they keep and everything under the lock are
 * tcache.c's (its opening comment). Invariants the inline paths rely on:
 * only the owning thread writes its bins' keys, counts and blocks and its
 * live table; a bin's blocks are tc|PARKED unless stolen; the owner takes
 * one only inside cm_tc_enter/cm_tc_leave, while no device takes its
 * parked blocks back (the steal handshake, tcache.c); a cudaFree bin (key
 * CM_KEY_NONE) has no stream record (cm_tc_check).
 */
#ifndef CM_TCACHE_FAST_H
#define CM_TCACHE_FAST_H

/* Only what the inline paths read: the types and the order wing's inline
 * reuse rules (with the record wing below it); the hooks that include
 * this header see no slow path, pool or report. */
#include "../order/order.h"

#define CM_TC_BINS 64
#define CM_TC_DEPTH 8
#define CM_TC_LIVE 256
#define CM_TC_MAX_BYTES (256 * CM_MiB)

/* count and blocks are written by the owner only, atomically so that a
 * device taking parked blocks back (cm_tc_steal_parked_locked) may read
 * them: what it reads may be stale, the owner word's CAS decides. Two
 * whole cache lines: a bin's address and index are shifts. */
typedef struct __attribute__((aligned(128))) cm_tc_bin {
	size_t size;  /* 0: keyed to nothing, which no request matches */
	cm_stream key;
	uint64_t gen;   /* the device's tc_gen when keyed */
	cm_tc_dev *td;  /* the device's counters and bin marks in this cache */
	cm_stream_rec *rec; /* the stream of key, valid while gen is current */
	_Atomic uint32_t count;
	bool marked; /* its bit is set in td->bins: the owner's copy */
	_Atomic(cm_block *) blocks[CM_TC_DEPTH];
} cm_tc_bin;

typedef struct cm_tc_live {
	uintptr_t addr;
	cm_block *block;
	uint64_t ticket;
	cm_device *dev;
} cm_tc_live;

/* Per device: counters written by the owning thread only (read by reports
 * with relaxed loads), and the flush request from the OOM ladder. A cache
 * bound to a heap is in each device's list (dev->tc_list, under that
 * device's lock), so that the device finds its parked blocks through the
 * bins marked in `bins` (written by the owner; a bin is marked before it
 * takes a block of the device and unmarked when flushed; a flushed bin
 * stays keyed, so the next free of its size stays lock-free) without a
 * walk over its live blocks. */
struct cm_tc_dev {
	_Atomic uint64_t hits, frees;
	_Atomic bool flush_requested;
	_Atomic uint64_t bins; /* bit i: bins[i] may hold this device's blocks */
	cm_stream_rec *per_thread;
	bool asked; /* raised tc->steals in this steal pass (under the device's lock) */
	cm_tcache *tc;
	cm_tc_dev *dev_next, *dev_prev; /* dev->tc_list */
};

struct cm_tcache {
	cm_heap *heap; /* NULL: bound to none (unbound before a heap goes: no ABA) */
	uint32_t thread;
	/* The steal handshake (tcache.c): the owner is inside cm_tc_enter;
	 * the devices taking its parked blocks back now. */
	_Atomic uint32_t taking;
	uint64_t tickets;
	size_t parked_bytes;
	cm_tc_bin *large_bin; /* the one bin that may hold large blocks, or NULL */
	cm_tc_dev *devs;
	int ndev;
	_Atomic uint32_t steals;
	bool full_fence; /* no membarrier: the owner fences cm_tc_enter itself */
	cm_tcache *next, *prev; /* heap->tcaches */
	cm_tc_bin bins[CM_TC_BINS];
	cm_tc_live live[CM_TC_LIVE];
};

/* initial-exec: no call into the dynamic linker on the fast path when the
 * core is inside libcachemalloc.so. Defined in tcache.c. */
extern __thread cm_tcache *cm_tc_self __attribute__((tls_model("initial-exec")));

static inline cm_tc_dev *cm_tc_dev_of(cm_tcache *tc, int dev)
{
	return &tc->devs[dev];
}

static inline uint64_t cm_tc_gen(const cm_device *d)
{
	return atomic_load_explicit(&d->tc_gen, memory_order_acquire);
}

static inline size_t cm_tc_bin_index(size_t size, cm_stream key)
{
	uint32_t x = (uint32_t)(size >> 9) ^ (uint32_t)key ^ (uint32_t)(key >> 32);
	return (x * 0x9e3779b1u) >> (32 - 6);
}

static inline size_t cm_tc_live_index(uintptr_t addr)
{
	return (size_t)((uint32_t)(addr >> 9) * 0x9e3779b1u) >> (32 - 8);
}

_Static_assert(CM_TC_BINS == 64 && CM_TC_LIVE == 256, "index widths above");

static inline void cm_tc_count(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* The owner's view of its bins: plain loads and stores (only it writes). */
static inline uint32_t cm_tc_bin_count(const cm_tc_bin *bin)
{
	return atomic_load_explicit(&bin->count, memory_order_relaxed);
}

static inline void cm_tc_bin_set_count(cm_tc_bin *bin, uint32_t n)
{
	atomic_store_explicit(&bin->count, n, memory_order_relaxed);
}

static inline cm_block *cm_tc_bin_at(const cm_tc_bin *bin, uint32_t i)
{
	return atomic_load_explicit(&bin->blocks[i], memory_order_relaxed);
}

static inline uint64_t cm_tc_bin_bit(const cm_tcache *tc, const cm_tc_bin *bin)
{
	return (uint64_t)1 << (bin - tc->bins);
}

/* Marks bin in bin->td, its device's mask, as possibly holding the
 * device's blocks, before it does. */
static inline void cm_tc_set_mark(cm_tcache *tc, cm_tc_bin *bin)
{
	atomic_store_explicit(&bin->td->bins,
			      atomic_load_explicit(&bin->td->bins, memory_order_relaxed) |
				      cm_tc_bin_bit(tc, bin),
			      memory_order_relaxed);
	bin->marked = true;
}
static inline void cm_tc_mark_bin(cm_tcache *tc, cm_tc_bin *bin)
{
	if (CM_UNLIKELY(!bin->marked))
		cm_tc_set_mark(tc, bin);
}

/* Records a block this thread holds tc|LIVE in its live table, under a
 * new ticket, so that its free can take the fast path. */
static inline void cm_tc_record_live(cm_tcache *tc, cm_device *d, cm_block *b, uintptr_t addr)
{
	cm_tc_live *slot = &tc->live[cm_tc_live_index(addr)];
	uint64_t ticket = ++tc->tickets;
	atomic_store_explicit(&b->ticket, ticket, memory_order_relaxed);
	*slot = (cm_tc_live){addr, b, ticket, d};
}

/* The bin that serves (rounded, key) on d, when it holds a block. */
static inline cm_tc_bin *cm_tc_bin_serving(cm_tcache *tc, const cm_device *d, size_t rounded,
					   cm_stream key)
{
	cm_tc_bin *bin = &tc->bins[cm_tc_bin_index(rounded, key)];
	if (!cm_tc_bin_count(bin) || bin->size != rounded || bin->key != key ||
	    bin->gen != cm_tc_gen(d))
		return NULL;
	return bin;
}

/* The owner's side of the steal handshake (tcache.c): it announces that
 * it takes a parked block, then looks for a device taking its blocks back.
 * The store must be seen before the load: under membarrier the devices'
 * barrier orders it, else a full fence here. False: one is, take nothing
 * (and leave all the same). */
static inline bool cm_tc_enter(cm_tcache *tc)
{
	atomic_store_explicit(&tc->taking, 1, memory_order_relaxed);
	if (CM_UNLIKELY(tc->full_fence))
		atomic_thread_fence(memory_order_seq_cst);
	else
		atomic_signal_fence(memory_order_seq_cst);
	/* acquire: what a device that took blocks back wrote is seen */
	return !atomic_load_explicit(&tc->steals, memory_order_acquire);
}
/* release: a device waiting for the owner to leave sees what it wrote. */
static inline void cm_tc_leave(cm_tcache *tc)
{
	atomic_store_explicit(&tc->taking, 0, memory_order_release);
}

/* The top block of bin (which holds one), taken by the owner inside
 * cm_tc_enter: no device takes it meanwhile, so plain loads and stores
 * of the owner word suffice (no CAS); a block taken back earlier is no
 * longer tc|PARKED. */
static inline __attribute__((always_inline)) uintptr_t
cm_tc_take(cm_tcache *tc, cm_tc_bin *bin, cm_device *d, size_t rounded, size_t size, bool ruled)
{
	uint32_t count = cm_tc_bin_count(bin);
	cm_block *b = cm_tc_bin_at(bin, count - 1);
	uintptr_t parked = (uintptr_t)tc | CM_OWNER_PARKED;
	if (atomic_load_explicit(&b->owner, memory_order_relaxed) != parked)
		return 0; /* taken back by the OOM ladder: the slow path flushes */
	if (ruled && !cm_reuse_ready_rules_unlocked(d, &b->tag))
		return 0;
	atomic_store_explicit(&b->owner, (uintptr_t)tc | CM_OWNER_LIVE, memory_order_relaxed);
	cm_tc_bin_set_count(bin, count - 1);
	if (CM_UNLIKELY(rounded > CM_SMALL_REQUEST) && count == 1 && bin == tc->large_bin)
		tc->large_bin = NULL;
	tc->parked_bytes -= rounded;
	b->requested = size; /* what the range queries answer (cm_pointer_info) */
	uintptr_t addr = b->node.addr;
	if (addr == 0) /* never (cm_segment_adopt asserts it): 0 means no block */
		__builtin_unreachable();
	cm_tc_record_live(tc, d, b, addr); /* tc|LIVE now */
	cm_tc_count(&bin->td->hits);
	return addr;
}

/* The cache's allocation: the block on top of the bin serving (rounded,
 * key) on d, or 0 with nothing changed. ruled: a cudaMalloc block may be
 * handed out only as fence.c's rules allow, which the caller could not
 * answer from the device alone (cm_reuse_ready_at_once). always_inline,
 * as cm_tc_free: no call frame between the entry point and the block
 * (the pair's cost, docs/benchmarks.md). */
static inline __attribute__((always_inline)) uintptr_t
cm_tc_malloc(cm_heap *h, cm_device *d, size_t rounded, size_t size, cm_stream key, bool ruled)
{
	cm_tcache *tc = cm_tc_self;
	if (CM_UNLIKELY(!tc || tc->heap != h))
		return 0;
	cm_tc_bin *bin = cm_tc_bin_serving(tc, d, rounded, key);
	if (!bin)
		return 0;
	uintptr_t addr = cm_tc_enter(tc) ? cm_tc_take(tc, bin, d, rounded, size, ruled) : 0;
	cm_tc_leave(tc);
	return addr;
}

/* tcache.c: the two calls the inline paths make, not inlined so that
 * the common pair saves no register for them. */
uintptr_t cm_tc_malloc_ruled(cm_heap *h, cm_device *d, size_t rounded, size_t size);
bool cm_tc_park_large(cm_tcache *tc, cm_tc_live *slot, cm_block *b, cm_device *d, size_t size);

static inline bool cm_tc_bin_accepts(const cm_tcache *tc, const cm_tc_bin *bin, const cm_device *d,
				     size_t size, cm_stream key)
{
	return cm_tc_bin_count(bin) < CM_TC_DEPTH && tc->parked_bytes + size <= CM_TC_MAX_BYTES &&
	       bin->size == size && bin->key == key && bin->gen == cm_tc_gen(d);
}

/* Called once the block is published as parked, when another thread may
 * already be taking it back: the block itself is not read here. The bin
 * is marked for the block's device already. */
static inline void cm_tc_push(cm_tcache *tc, cm_tc_bin *bin, cm_block *b, size_t size)
{
	uint32_t count = cm_tc_bin_count(bin);
	/* release: a device reading the entry may read the block's device. */
	atomic_store_explicit(&bin->blocks[count], b, memory_order_release);
	cm_tc_bin_set_count(bin, count + 1);
	tc->parked_bytes += size;
	if (size > CM_SMALL_REQUEST)
		tc->large_bin = bin;
}

/* Parks b in bin, which accepts it: the bin marked for b's device first,
 * then b published tc|PARKED (its tag written before), then pushed. */
static inline void cm_tc_park_in(cm_tcache *tc, cm_tc_bin *bin, cm_block *b, size_t size)
{
	cm_tc_mark_bin(tc, bin);
	atomic_store_explicit(&b->owner, (uintptr_t)tc | CM_OWNER_PARKED, memory_order_release);
	cm_tc_push(tc, bin, b, size);
}

/* A parked block neither merges nor competes in best fit; on large
 * segments that changes placement and grows the cache (measured on the
 * recorded traces; docs/design.md, "Lock order and threads"). So a large
 * block parks only where the pools would place the next request of its
 * size exactly as without the cache: when it would not have merged (no
 * free neighbour: the free_nb hint the device keeps under its lock), or
 * when best fit would hand back its very extent after the merge (the
 * refit hint of segment.c, taken under the lock when the block was
 * handed out or parked, valid while no large pool changed since); and
 * only one bin of them at a time, given back before any other large free
 * or any miss. Free-then-allocate of one size stays cheap at every size. */
static inline bool cm_tc_large_parks(const cm_tcache *tc, const cm_tc_bin *bin, cm_block *b,
				     const cm_device *d)
{
	if (tc->large_bin && tc->large_bin != bin)
		return false;
	/* A hinted block parks alone: the hint assumed every other block of
	 * the bin held, whereas without the cache they would be free. */
	return !atomic_load_explicit(&b->free_nb, memory_order_relaxed) ||
	       (!cm_tc_bin_count(bin) && b->refit_gen &&
		b->refit_gen == atomic_load_explicit(&d->large_place_gen, memory_order_relaxed));
}

static inline bool cm_tc_large_ok(const cm_tcache *tc, const cm_tc_bin *bin, cm_block *b,
				  const cm_device *d)
{
	return b->node.size <= CM_SMALL_REQUEST || cm_tc_large_parks(tc, bin, b, d);
}

/* Whether a block freed this way is worth parking: a cudaMalloc block the
 * fast path could not hand out again would only hide from other threads. */
static inline bool cm_tc_worth_parking(cm_device *d, cm_stream key)
{
	return key != CM_KEY_NONE || cm_reuse_may_be_ready_unlocked(d);
}

/* Parks b, found by its free in this thread's live slot (tc|LIVE with
 * the slot's ticket, worth parking, of `size`), in the bin of its size
 * and key, or false with nothing changed. large_rules: b may be larger
 * than CM_SMALL_REQUEST (cm_tc_large_ok decides). */
static inline __attribute__((always_inline)) bool
cm_tc_park(cm_tcache *tc, cm_tc_live *slot, cm_block *b, cm_device *d, size_t size, cm_stream key,
	   bool large_rules)
{
	cm_tc_bin *bin = &tc->bins[cm_tc_bin_index(size, key)];
	if (!cm_tc_bin_accepts(tc, bin, d, size, key) ||
	    (large_rules && !cm_tc_large_ok(tc, bin, b, d)))
		return false;
	/* Another thread could only take b by freeing the same pointer at this
	 * very moment, a double free; so a plain store suffices here, not a
	 * CAS. The tag is written first and published by the release store:
	 * an OOM ladder stealing the parked block reads it. A cudaFree bin has
	 * no stream (cm_tc_check): the cache-first free writes its tag's
	 * stream fields from constants. Field by field: fewer registers. */
	cm_stream_rec *rec = key == CM_KEY_NONE ? NULL : bin->rec;
	b->tag.epoch = atomic_load_explicit(&d->epoch, memory_order_acquire);
	b->tag.stream = rec;
	b->tag.stream_gen = rec ? rec->gen : 0;
	b->tag.thread = tc->thread;
	b->tag.seq = rec ? atomic_load(&rec->free_seq) : 0;
	cm_tc_park_in(tc, bin, b, size);
	slot->addr = 0;
	cm_tc_count(&bin->td->frees);
	return true;
}

/* The cache's free: parks ptr's block in the bin of its size and key, or
 * false with nothing changed. small_only (cudaFree's only: the key is
 * CM_KEY_NONE): a block larger than CM_SMALL_REQUEST is parked by
 * cm_tc_park_large, out of line, whose rules (cm_tc_large_ok) the
 * cache-first free need not carry inline. */
static inline __attribute__((always_inline)) bool cm_tc_free(cm_heap *h, uintptr_t ptr,
								   cm_stream key, bool small_only)
{
	cm_assert(!small_only || key == CM_KEY_NONE); /* cm_tc_park_large parks as cudaFree */
	cm_tcache *tc = cm_tc_self;
	if (CM_UNLIKELY(!tc || tc->heap != h))
		return false;
	cm_tc_live *slot = &tc->live[cm_tc_live_index(ptr)];
	if (slot->addr != ptr || !ptr) /* an empty slot holds address 0 */
		return false;
	cm_block *b = slot->block;
	cm_device *d = slot->dev;
	uintptr_t live = (uintptr_t)tc | CM_OWNER_LIVE;
	if (atomic_load_explicit(&b->owner, memory_order_acquire) != live ||
	    atomic_load_explicit(&b->ticket, memory_order_relaxed) != slot->ticket)
		return false; /* tc|LIVE with our ticket: the block is ours */
	if (!cm_tc_worth_parking(d, key))
		return false;
	size_t size = b->node.size;
	if (small_only && size > CM_SMALL_REQUEST)
		return cm_tc_park_large(tc, slot, b, d, size);
	return cm_tc_park(tc, slot, b, d, size, key, !small_only);
}

/* ---- the entry points: the cache first, the locked path on a miss ---- */

/* The sizes the cache serves: 1 .. SIZE_MAX / 2 where they round inline
 * (h->fast_round); the slow path rounds (and rejects) everything else. */
static inline bool cm_tc_rounds(const cm_heap *h, size_t size)
{
	return CM_LIKELY(h->fast_round) && size - 1 < SIZE_MAX / 2;
}
/* cm_size_round_plain for a size of at least 1, without its branch. */
static inline size_t cm_tc_round(size_t size)
{
	return (size + CM_MIN_BLOCK - 1) & ~(CM_MIN_BLOCK - 1);
}

static inline __attribute__((always_inline)) uintptr_t
cm_tc_malloc_entry(cm_heap *h, int dev, size_t size, cm_stream key)
{
	if (CM_UNLIKELY(!cm_tc_rounds(h, size) || (unsigned)dev >= (unsigned)h->ndev))
		return 0;
	size_t rounded = cm_tc_round(size);
	cm_device *d = &h->devs[dev];
	if (key == CM_KEY_NONE && !cm_reuse_ready_at_once(d))
		return cm_tc_malloc_ruled(h, d, rounded, size);
	return cm_tc_malloc(h, d, rounded, size, key, false);
}

/* The cache-first tries of the hooks (interpose/hook_shape.h): the calling
 * thread's cache alone, the address it served or 0 with nothing changed
 * (then call cm_malloc); whether it took the block back (else call
 * cm_free). No backend call, no lock, nothing reported to the event log or
 * trace (which turn the cache off). Inline in the hooks: the common pair
 * has no call frame (the rules' question and a large free are calls). */
static inline __attribute__((always_inline)) uintptr_t cm_malloc_cached(cm_heap *h, int dev,
									   size_t size)
{
	return cm_tc_malloc_entry(h, dev, size, CM_KEY_NONE);
}

static inline __attribute__((always_inline)) bool cm_free_cached(cm_heap *h, uintptr_t ptr)
{
	return CM_LIKELY(h->fast) && cm_tc_free(h, ptr, CM_KEY_NONE, true);
}

#endif
