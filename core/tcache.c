/* core/tcache.c - per-thread caches: the lock-free fast path.
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
 * Taking a parked block is a compare-and-swap, so the taker and the owner
 * never both win; parking is a plain store, since only a
 * double free racing with itself could contend for a live block.
 * A cache entry may point at a block struct that has since been reused:
 * structs are type-stable (segment.c), and the owner word plus the block's
 * hand-out ticket tell a stale entry from a live one.
 *
 * Reuse rules (docs/design.md, "The fence protocol") still hold: a bin
 * keyed by a stream serves only that stream (rule 1), and is dropped when
 * any stream of the device is destroyed (its tc_gen); a cudaMalloc bin
 * serves only what fence.c's rules allow (cm_reuse_ready_at_once, else
 * cm_reuse_ready_rules_unlocked).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "list.h"

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
	cm_tcache *tc;
	cm_tc_dev *dev_next, *dev_prev; /* dev->tc_list */
};

struct cm_tcache {
	cm_heap *heap; /* NULL: bound to none (unbound before a heap goes: no ABA) */
	uint32_t thread;
	uint64_t tickets;
	size_t parked_bytes;
	cm_tc_bin *large_bin; /* the one bin that may hold large blocks, or NULL */
	int ndev;
	cm_tc_dev *devs;
	cm_tcache *next, *prev; /* heap->tcaches */
	cm_tc_bin bins[CM_TC_BINS];
	cm_tc_live live[CM_TC_LIVE];
};

static pthread_mutex_t cm_tc_registry = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t cm_tc_key;
static pthread_once_t cm_tc_key_once = PTHREAD_ONCE_INIT;
static _Atomic uint32_t cm_tc_next_thread = 1;
/* initial-exec: no call into the dynamic linker on the fast path when the
 * core is inside libcachemalloc.so. */
static __thread cm_tcache *cm_tc_self __attribute__((tls_model("initial-exec")));

static void cm_tc_thread_exit(void *arg);

static void cm_tc_key_init(void)
{
	pthread_key_create(&cm_tc_key, cm_tc_thread_exit);
}

uint32_t cm_tc_thread_id(const cm_tcache *tc)
{
	return tc->thread;
}

static cm_tc_dev *cm_tc_dev_of(cm_tcache *tc, int dev)
{
	return &tc->devs[dev];
}

cm_stream_rec **cm_tc_per_thread_slot(cm_tcache *tc, int dev)
{
	return &tc->devs[dev].per_thread;
}

static inline uint64_t cm_tc_gen(const cm_device *d)
{
	return atomic_load_explicit(&d->tc_gen, memory_order_acquire);
}

void cm_tc_new_generation(cm_device *d)
{
	uint64_t gen = atomic_fetch_add_explicit(&d->heap->tc_gens, 1, memory_order_relaxed) + 1;
	atomic_store_explicit(&d->tc_gen, gen, memory_order_release);
}

static size_t cm_tc_bin_index(size_t size, cm_stream key)
{
	uint32_t x = (uint32_t)(size >> 9) ^ (uint32_t)key ^ (uint32_t)(key >> 32);
	return (x * 0x9e3779b1u) >> (32 - 6);
}

static size_t cm_tc_live_index(uintptr_t addr)
{
	return (size_t)((uint32_t)(addr >> 9) * 0x9e3779b1u) >> (32 - 8);
}

_Static_assert(CM_TC_BINS == 64 && CM_TC_LIVE == 256, "index widths above");

static void cm_tc_count(_Atomic uint64_t *c)
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
static void cm_tc_set_mark(cm_tcache *tc, cm_tc_bin *bin)
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

/* Records a block this thread holds tc|LIVE in its live table, under a
 * new ticket, so that its free can take the fast path. */
static inline void cm_tc_record_live(cm_tcache *tc, cm_device *d, cm_block *b, uintptr_t addr)
{
	cm_tc_live *slot = &tc->live[cm_tc_live_index(addr)];
	uint64_t ticket = ++tc->tickets;
	atomic_store_explicit(&b->ticket, ticket, memory_order_relaxed);
	*slot = (cm_tc_live){addr, b, ticket, d};
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
	uint32_t count = cm_tc_bin_count(bin);
	cm_block *b = cm_tc_bin_at(bin, count - 1);
	uintptr_t parked = (uintptr_t)tc | CM_OWNER_PARKED;
	if (!atomic_compare_exchange_strong_explicit(&b->owner, &parked,
						     (uintptr_t)tc | CM_OWNER_LIVE,
						     memory_order_acq_rel, memory_order_acquire))
		return 0; /* stolen by the OOM ladder: the slow path flushes */
	/* Ours now: its tag can be read without racing a steal. */
	if (ruled && !cm_reuse_ready_rules_unlocked(d, &b->tag)) {
		atomic_store_explicit(&b->owner, parked, memory_order_release);
		return 0;
	}
	cm_tc_bin_set_count(bin, count - 1);
	if (CM_UNLIKELY(rounded > CM_SMALL_REQUEST) && count == 1 && bin == tc->large_bin)
		tc->large_bin = NULL;
	tc->parked_bytes -= rounded;
	b->requested = size; /* what the range queries answer (cm_pointer_info) */
	uintptr_t addr = b->node.addr;
	if (addr == 0) /* never: 0 means no block, here and in the live table */
		__builtin_unreachable();
	cm_tc_record_live(tc, d, b, addr); /* the CAS made it tc|LIVE */
	cm_tc_count(&bin->td->hits);
	return addr;
}

/* Not inlined: the pairs that need no rule stay free of its call. */
static __attribute__((noinline)) uintptr_t cm_tc_malloc_ruled(cm_heap *h, cm_device *d,
							      size_t rounded, size_t size)
{
	return cm_tc_malloc(h, d, rounded, size, CM_KEY_NONE, true);
}

static inline bool cm_tc_bin_accepts(const cm_tcache *tc, const cm_tc_bin *bin, const cm_device *d,
				     size_t size, cm_stream key)
{
	return cm_tc_bin_count(bin) < CM_TC_DEPTH && tc->parked_bytes + size <= CM_TC_MAX_BYTES &&
	       bin->size == size && bin->key == key && bin->gen == cm_tc_gen(d);
}

/* Called once the block is published as parked, when another thread may
 * already be taking it back: the block itself is not read here. The bin
 * is marked for the block's device already. */
static void cm_tc_push(cm_tcache *tc, cm_tc_bin *bin, cm_block *b, size_t size)
{
	uint32_t count = cm_tc_bin_count(bin);
	/* release: a device reading the entry may read the block's device. */
	atomic_store_explicit(&bin->blocks[count], b, memory_order_release);
	cm_tc_bin_set_count(bin, count + 1);
	tc->parked_bytes += size;
	if (size > CM_SMALL_REQUEST)
		tc->large_bin = bin;
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
static bool cm_tc_large_parks(const cm_tcache *tc, const cm_tc_bin *bin, cm_block *b,
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
static bool cm_tc_worth_parking(cm_device *d, cm_stream key)
{
	return key != CM_KEY_NONE || cm_reuse_may_be_ready_unlocked(d);
}

static bool cm_tc_free_large(cm_heap *h, uintptr_t ptr);

/* The cache's free: parks ptr's block in the bin of its size and key, or
 * false with nothing changed. small_only: a block larger than
 * CM_SMALL_REQUEST goes to cm_tc_free_large, whose rules (cm_tc_large_ok)
 * the cache-first free need not carry inline. */
static inline __attribute__((always_inline)) bool cm_tc_free(cm_heap *h, uintptr_t ptr,
								   cm_stream key, bool small_only)
{
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
		return false;
	/* tc|LIVE with our ticket: the block is ours. Another thread could
	 * only take it by freeing the same pointer at this very moment, a
	 * double free; so a plain store suffices here, not a CAS. The tag is
	 * written first and published by the release store: an OOM ladder
	 * stealing the parked block reads it. */
	if (!cm_tc_worth_parking(d, key))
		return false;
	size_t size = b->node.size;
	if (small_only && size > CM_SMALL_REQUEST)
		return cm_tc_free_large(h, ptr); /* again from the start: a tail call */
	cm_tc_bin *bin = &tc->bins[cm_tc_bin_index(size, key)];
	if (!cm_tc_bin_accepts(tc, bin, d, size, key) ||
	    (!small_only && !cm_tc_large_ok(tc, bin, b, d)))
		return false;
	/* A cudaFree bin has no stream (cm_tc_check): the cache-first free
	 * writes its tag from constants. Field by field: fewer registers. */
	cm_stream_rec *rec = key == CM_KEY_NONE ? NULL : bin->rec;
	b->tag.epoch = atomic_load_explicit(&d->epoch, memory_order_acquire);
	b->tag.stream = rec;
	b->tag.stream_gen = rec ? rec->gen : 0;
	b->tag.thread = tc->thread;
	b->tag.seq = rec ? atomic_load(&rec->free_seq) : 0;
	cm_tc_mark_bin(tc, bin);
	atomic_store_explicit(&b->owner, (uintptr_t)tc | CM_OWNER_PARKED, memory_order_release);
	slot->addr = 0;
	cm_tc_push(tc, bin, b, size);
	cm_tc_count(&bin->td->frees);
	return true;
}

static __attribute__((noinline)) bool cm_tc_free_large(cm_heap *h, uintptr_t ptr)
{
	return cm_tc_free(h, ptr, CM_KEY_NONE, false);
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

/* The cache-first tries. hot: beside the hooks that call them
 * (.text.hot); always_inline: into those hooks where the library is linked
 * with link-time optimization (meson.build), so the common pair has no
 * call frame (the rules' question and a large free are calls). */
__attribute__((hot, always_inline)) inline uintptr_t cm_malloc_cached(cm_heap *h, int dev, size_t size)
{
	return cm_tc_malloc_entry(h, dev, size, CM_KEY_NONE);
}

__attribute__((hot, always_inline)) inline bool cm_free_cached(cm_heap *h, uintptr_t ptr)
{
	return CM_LIKELY(h->fast) && cm_tc_free(h, ptr, CM_KEY_NONE, true);
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

bool cm_tc_flush_device_locked(cm_tcache *tc, cm_device *d)
{
	bool any = false;
	cm_tc_dev *td = cm_tc_dev_of(tc, d->index);
	for (size_t i = 0; i < CM_TC_BINS; i++) {
		cm_tc_bin *bin = &tc->bins[i];
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
	cm_tc_mark_bin(tc, bin);
	atomic_store_explicit(&b->owner, (uintptr_t)tc | CM_OWNER_PARKED, memory_order_release);
	cm_tc_push(tc, bin, b, b->node.size);
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

/* Before the device is asked for memory, and in the OOM ladder: takes
 * every parked block of the device from every thread's cache, and asks
 * those caches to drop their entries. Returns how many it took. Visits
 * the caches bound to the device and, in each, only the bins marked as
 * holding the device's blocks: no walk over the live blocks. */
size_t cm_tc_steal_parked_locked(cm_device *d)
{
	size_t n = 0;
	for (cm_tc_dev *td = d->tc_list; td; td = td->dev_next) {
		uint64_t bins = atomic_load_explicit(&td->bins, memory_order_relaxed);
		size_t took = 0;
		for (; bins; bins &= bins - 1)
			took += cm_tc_steal_bin(d, td->tc, &td->tc->bins[__builtin_ctzll(bins)]);
		if (took)
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
			cm_stream_thread_exit_locked(d, td->per_thread);
		cm_tc_unlink_device(d, td);
		pthread_mutex_unlock(&d->lock);
		h->retired[i].hits += atomic_load(&td->hits);
		h->retired[i].frees += atomic_load(&td->frees);
	}
	if (tc->prev)
		tc->prev->next = tc->next;
	else
		h->tcaches = tc->next;
	if (tc->next)
		tc->next->prev = tc->prev;
	tc->next = tc->prev = NULL;
	tc->heap = NULL;
}

static void cm_tc_reset(cm_tcache *tc, cm_heap *h)
{
	free(tc->devs);
	memset(tc->bins, 0, sizeof(tc->bins));
	memset(tc->live, 0, sizeof(tc->live));
	tc->parked_bytes = 0;
	tc->large_bin = NULL;
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
		tc->next = h->tcaches;
		if (h->tcaches)
			h->tcaches->prev = tc;
		h->tcaches = tc;
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
