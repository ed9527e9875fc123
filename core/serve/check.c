/* core/serve/check.c - the expensive consistency checker.
 *
 * Walks every device's segments, blocks, indexes and stats and compares
 * them with what the invariants of types.h and segment.c say; tests call
 * it after every operation of their randomized runs. It takes each device
 * lock in turn, so the heap must be quiescent for the per-thread caches'
 * part (no other thread allocating or freeing).
 * Wing: serve. Calls in its own wing tcache.c; the host, mem and record wings.
 */
#include <inttypes.h>

#include "serve.h"

#define CM_CHECK(cond, ...)                                                      \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(err, "cachemalloc check: device %d: ", d->index); \
			fprintf(err, __VA_ARGS__);                               \
			fputc('\n', err);                                        \
			return false;                                            \
		}                                                                \
	} while (0)

static bool cm_check_tree(cm_device *d, cm_tnode *t, const cm_tnode *lo, const cm_tnode *hi,
			  FILE *err)
{
	if (!t)
		return true;
	CM_CHECK(!lo || lo->size < t->size || (lo->size == t->size && lo->addr < t->addr),
		 "index out of order at %#" PRIxPTR, t->addr);
	CM_CHECK(!hi || t->size < hi->size || (t->size == hi->size && t->addr < hi->addr),
		 "index out of order at %#" PRIxPTR, t->addr);
	return cm_check_tree(d, t->left, lo, t, err) && cm_check_tree(d, t->right, t, hi, err);
}

static bool cm_check_in_tree(cm_tnode *root, cm_tnode *n)
{
	return cm_tree_lower_bound(root, n->size, n->addr) == n;
}

typedef struct cm_check_sums {
	size_t free_blocks, used_blocks, idle_segs, awaiting_blocks;
	cm_stats st;
} cm_check_sums;

/* A hole of an expandable segment, at address at: inside, alone,
 * chunk-aligned, in no index, its chunks unmapped. */
static bool cm_check_hole(cm_device *d, cm_segment *seg, cm_block *b, uintptr_t at, FILE *err)
{
	CM_CHECK(seg->expandable && b->prev && b->next, "hole %#" PRIxPTR
		 " not inside an expandable segment", b->node.addr);
	CM_CHECK(b->next->state != CM_BLOCK_HOLE, "adjacent holes at %#" PRIxPTR,
		 b->node.addr);
	CM_CHECK((b->node.addr - seg->idle.addr) % seg->chunk == 0 &&
			 b->node.size % seg->chunk == 0,
		 "hole %#" PRIxPTR " not chunk-aligned", b->node.addr);
	CM_CHECK(b->node.addr == at && b->seg == seg && b->next->prev == b,
		 "hole %#" PRIxPTR " misplaced", b->node.addr);
	CM_CHECK(!cm_livemap_find(&d->live, b->node.addr),
		 "hole %#" PRIxPTR " in the live map", b->node.addr);
	for (size_t c = 0; c < b->node.size / seg->chunk; c++)
		CM_CHECK(!seg->chunk_flags[(at - seg->idle.addr) / seg->chunk + c],
			 "hole %#" PRIxPTR " has a mapped chunk", b->node.addr);
	return true;
}

/* A FREE or USED block: in its pool or awaiting, or in the live map;
 * counted into sum (and its free bytes into *seg_free). */
static bool cm_check_block_state(cm_device *d, cm_segment *seg, cm_block *b, cm_check_sums *sum,
				 size_t *seg_free, FILE *err)
{
	if (b->state == CM_BLOCK_FREE) {
		CM_CHECK(!b->next || b->next->state != CM_BLOCK_FREE || b->awaiting ||
				 b->next->awaiting,
			 "adjacent free blocks at %#" PRIxPTR, b->node.addr);
		CM_CHECK(b->awaiting || cm_check_in_tree(seg->pool->root, &b->node),
			 "free block %#" PRIxPTR " not in its pool", b->node.addr);
		sum->awaiting_blocks += b->awaiting;
		sum->st.pending_bytes += b->awaiting ? b->node.size : 0;
		CM_CHECK(atomic_load(&b->owner) == 0, "free block %#" PRIxPTR " has an owner",
			 b->node.addr);
		CM_CHECK(!cm_livemap_find(&d->live, b->node.addr),
			 "free block %#" PRIxPTR " in the live map", b->node.addr);
		sum->free_blocks++;
		*seg_free += b->node.size;
	} else {
		CM_CHECK(b->state == CM_BLOCK_USED && !b->awaiting, "block %#" PRIxPTR " in state %d",
			 b->node.addr, b->state);
		CM_CHECK(cm_livemap_find(&d->live, b->node.addr) == b,
			 "used block %#" PRIxPTR " not in the live map", b->node.addr);
		sum->used_blocks++;
		sum->st.allocated_bytes += b->node.size;
		sum->st.allocated_blocks++;
	}
	return true;
}

static bool cm_check_segment(cm_device *d, cm_segment *seg, cm_check_sums *sum, FILE *err)
{
	uintptr_t at = seg->idle.addr;
	size_t seg_free = 0, holes = 0;
	CM_CHECK(seg->first && !seg->first->prev, "segment %#" PRIxPTR " has no first block", at);
	for (cm_block *b = seg->first; b; b = b->next) {
		if (b->state == CM_BLOCK_HOLE) {
			if (!cm_check_hole(d, seg, b, at, err))
				return false;
			holes += b->node.size;
			at += b->node.size;
			continue;
		}
		if (seg->expandable)
			for (uintptr_t c = at / seg->chunk * seg->chunk; c < at + b->node.size;
			     c += seg->chunk)
				CM_CHECK(seg->chunk_flags[(c - seg->idle.addr) / seg->chunk] & CM_CHUNK_MAPPED,
					 "chunk %#" PRIxPTR " under a block is not mapped", c);
		CM_CHECK(b->seg == seg, "block %#" PRIxPTR " in the wrong segment", b->node.addr);
		CM_CHECK(b->node.addr == at, "gap or overlap at %#" PRIxPTR, at);
		CM_CHECK(b->node.size >= CM_MIN_BLOCK && b->node.size % CM_MIN_BLOCK == 0,
			 "block %#" PRIxPTR " has size %zu", at, b->node.size);
		CM_CHECK(!b->next || b->next->prev == b, "broken links at %#" PRIxPTR, at);
		CM_CHECK(b->next || seg->last == b, "segment %#" PRIxPTR " ends at another block",
			 seg->idle.addr);
		at += b->node.size;
		if (!cm_check_block_state(d, seg, b, sum, &seg_free, err))
			return false;
	}
	CM_CHECK(at == seg->idle.addr + seg->idle.size, "segment %#" PRIxPTR " not covered",
		 seg->idle.addr);
	CM_CHECK(holes == seg->holes, "segment %#" PRIxPTR " holes %zu, counted %zu",
		 seg->idle.addr, holes, seg->holes);
	CM_CHECK(!seg->expandable || (seg->idle.size % seg->chunk == 0 &&
				      seg->idle.size <= seg->va_size &&
				      (seg->idle.size == seg->va_size ||
				       !seg->chunk_flags[seg->idle.size / seg->chunk])),
		 "expandable segment %#" PRIxPTR " extent or mapping wrong", seg->idle.addr);
	bool idle = seg->first->state == CM_BLOCK_FREE && !seg->first->next;
	CM_CHECK(idle == seg->is_idle, "segment %#" PRIxPTR " idle flag wrong", seg->idle.addr);
	if (idle) {
		CM_CHECK(cm_check_in_tree(seg->pool->small ? d->idle_small : d->idle_large, &seg->idle),
			 "idle segment %#" PRIxPTR " not indexed", seg->idle.addr);
		sum->idle_segs++;
	} else {
		sum->st.inactive_split_bytes += seg_free;
	}
	sum->st.reserved_bytes += seg->idle.size - holes;
	sum->st.segments++;
	return true;
}

/* pool's list holds its segments, as many as it counts, each a segment
 * of the device's table. */
static bool cm_check_pool_segments(cm_device *d, cm_pool *pool, FILE *err)
{
	size_t n = 0;
	for (cm_segment *s = pool->seg_list; s && n <= d->nsegs; s = s->pool_next, n++)
		CM_CHECK(s->pool == pool && cm_segment_find(d, s->idle.addr) == s &&
				 (!s->pool_next || s->pool_next->pool_prev == s) &&
				 (s->pool_prev || pool->seg_list == s),
			 "segment %#" PRIxPTR " on the wrong pool's list", s->idle.addr);
	CM_CHECK(n == pool->segments, "a pool lists %zu segments, counts %zu", n, pool->segments);
	return true;
}

static bool cm_check_pools(cm_device *d, const cm_check_sums *sum, FILE *err)
{
	size_t free_indexed = cm_tree_count(d->none_small.root) + cm_tree_count(d->none_large.root) +
			      cm_tree_count(d->legacy.small.root) + cm_tree_count(d->legacy.large.root);
	size_t segs = d->none_small.segments + d->none_large.segments + d->legacy.small.segments +
		      d->legacy.large.segments;
	cm_pool *pools[] = {&d->none_small, &d->none_large, &d->legacy.small, &d->legacy.large};
	for (size_t i = 0; i < 4; i++)
		if (!cm_check_tree(d, pools[i]->root, NULL, NULL, err) ||
		    !cm_check_pool_segments(d, pools[i], err))
			return false;
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next) {
		if (!cm_check_tree(d, r->small.root, NULL, NULL, err) ||
		    !cm_check_tree(d, r->large.root, NULL, NULL, err) ||
		    !cm_check_pool_segments(d, &r->small, err) ||
		    !cm_check_pool_segments(d, &r->large, err))
			return false;
		free_indexed += cm_tree_count(r->small.root) + cm_tree_count(r->large.root);
		segs += r->small.segments + r->large.segments;
	}
	size_t awaiting = 0;
	for (cm_tnode *n = d->awaiting_head; n; n = n->right, awaiting++)
		CM_CHECK(cm_block_of(n)->awaiting && (n->right ? n->right->left == n : d->awaiting_tail == n),
			 "awaiting list broken at %#" PRIxPTR, n->addr);
	CM_CHECK(awaiting == sum->awaiting_blocks, "%zu blocks awaiting, %zu listed",
		 sum->awaiting_blocks, awaiting);
	CM_CHECK(free_indexed + awaiting == sum->free_blocks, "%zu free blocks, %zu indexed",
		 sum->free_blocks, free_indexed + awaiting);
	CM_CHECK(segs == d->nsegs, "%zu segments, pools count %zu", d->nsegs, segs);
	CM_CHECK(d->live.count == sum->used_blocks, "%zu used blocks, live map holds %zu",
		 sum->used_blocks, d->live.count);
	CM_CHECK(cm_tree_count(d->idle_small) + cm_tree_count(d->idle_large) == sum->idle_segs,
		 "idle index count differs from %zu idle segments", sum->idle_segs);
	size_t by_age = 0;
	for (cm_segment *s = d->idle_oldest; s; s = s->idle_newer, by_age++)
		CM_CHECK(s->is_idle && (!s->idle_newer || s->idle_newer->idle_since > s->idle_since),
			 "idle segment %#" PRIxPTR " out of the age list's order", s->idle.addr);
	CM_CHECK(by_age == sum->idle_segs, "age list holds %zu of %zu idle segments", by_age,
		 sum->idle_segs);
	return cm_check_tree(d, d->idle_small, NULL, NULL, err) &&
	       cm_check_tree(d, d->idle_large, NULL, NULL, err);
}

static bool cm_is_user_stream(const cm_stream_rec *r)
{
	return r->kind == CM_SK_BLOCKING || r->kind == CM_SK_NONBLOCKING;
}

/* A stream list's length n (walked), the records that belong on it and
 * the device's count of them agree. */
static bool cm_check_list_count(cm_device *d, const char *list, size_t n, size_t belong,
				size_t count, FILE *err)
{
	CM_CHECK(n == belong && belong == count,
		 "%s list holds %zu, %zu records belong on it, the device counts %zu", list, n,
		 belong, count);
	return true;
}

/* The stream lists (streams.c) against the records: user_list holds the
 * live user streams and the zombies (user_streams of them), the zombie
 * list the zombies, the non-blocking list the live non-blocking streams
 * and the zombies. */
static bool cm_check_stream_lists(cm_device *d, FILE *err)
{
	size_t users = 0, zombies = 0, nb = 0, n = 0;
	for (cm_stream_rec *r = d->all_streams; r; r = r->all_next) {
		/* (without a tail where none could be recorded: streams.c) */
		CM_CHECK(!r->zombie || (cm_is_user_stream(r) && !r->alive),
			 "zombie record of stream %#" PRIxPTR " not a dead user stream",
			 (uintptr_t)r->handle);
		users += cm_is_user_stream(r) && (r->alive || r->zombie);
		zombies += r->zombie;
		nb += r->zombie || (r->alive && r->kind == CM_SK_NONBLOCKING);
	}
	for (cm_stream_rec *r = d->user_list; r && n <= users; r = r->user_next, n++)
		CM_CHECK(cm_is_user_stream(r) && (r->alive || r->zombie) &&
				 (!r->user_next || r->user_next->user_prev == r),
			 "stream %#" PRIxPTR " wrongly on the user list", (uintptr_t)r->handle);
	if (!cm_check_list_count(d, "user", n, users, atomic_load(&d->user_streams), err))
		return false;
	n = 0;
	for (cm_stream_rec *r = d->zombie_oldest; r && n <= zombies; r = r->zombie_newer, n++)
		CM_CHECK(r->zombie && (r->zombie_newer ? r->zombie_newer->zombie_older == r
						       : d->zombie_newest == r),
			 "stream %#" PRIxPTR " wrongly on the zombie list", (uintptr_t)r->handle);
	if (!cm_check_list_count(d, "zombie", n, zombies, atomic_load(&d->zombies), err))
		return false;
	n = 0;
	for (cm_stream_rec *r = d->nb_list; r && n <= nb; r = r->nb_next, n++)
		CM_CHECK(r->zombie || (r->alive && r->kind == CM_SK_NONBLOCKING),
			 "stream %#" PRIxPTR " wrongly on the non-blocking list", (uintptr_t)r->handle);
	return cm_check_list_count(d, "non-blocking", n, nb, d->nb_count, err);
}

static bool cm_check_stats(cm_device *d, const cm_check_sums *sum, FILE *err)
{
#define CM_CHECK_LEVEL(name)                                                                  \
	CM_CHECK(d->stats.name == sum->st.name, #name " is %" PRIu64 ", recomputed %" PRIu64, \
		 d->stats.name, sum->st.name);                                                \
	CM_CHECK(d->stats.peak_##name >= d->stats.name, "peak_" #name " below current");
	CM_CHECK_LEVEL(allocated_bytes)
	CM_CHECK_LEVEL(allocated_blocks)
	CM_CHECK_LEVEL(reserved_bytes)
	CM_CHECK_LEVEL(segments)
	CM_CHECK_LEVEL(inactive_split_bytes)
	CM_CHECK_LEVEL(stitch_free_bytes)
	CM_CHECK_LEVEL(pending_bytes)
#undef CM_CHECK_LEVEL
	CM_CHECK(atomic_load(&d->ordered_epoch) < atomic_load(&d->epoch) &&
		 atomic_load(&d->completed_epoch) < atomic_load(&d->epoch),
		 "epochs out of order");
	return true;
}

static bool cm_check_device(cm_device *d, FILE *err)
{
	cm_check_sums sum = {0};
	sum.st.stitch_free_bytes = d->nfree_chunks * d->free_chunk_size;
	sum.st.unreleased_bytes = d->stats.unreleased_bytes; /* giveback.c's own */
	sum.st.reserved_bytes = sum.st.stitch_free_bytes + sum.st.unreleased_bytes;
	for (size_t i = 0; i < d->nsegs; i++) {
		cm_segment *seg = d->segs[i];
		CM_CHECK(i == 0 || d->segs[i - 1]->idle.addr + d->segs[i - 1]->idle.size <= seg->idle.addr,
			 "segments overlap at %#" PRIxPTR, seg->idle.addr);
		if (!cm_check_segment(d, seg, &sum, err))
			return false;
	}
	return cm_check_pools(d, &sum, err) && cm_check_stream_lists(d, err) &&
	       cm_check_stats(d, &sum, err);
}

bool cm_heap_check(cm_heap *h, FILE *err)
{
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		pthread_mutex_lock(&d->lock);
		bool ok = cm_check_device(d, err);
		pthread_mutex_unlock(&d->lock);
		if (!ok)
			return false;
	}
	return cm_tc_check(h, err) && cm_host_check(h, err);
}
