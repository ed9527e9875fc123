/* sim/sim_range.c - the free-range allocator (see sim_range.h).
 *
 * Invariants: the blocks, linked by prev/next, tile [base, base + len)
 * exactly, in address order; no two free blocks are adjacent (a free merges
 * with free neighbours at once); a free block is in by_size, an allocated
 * one in by_addr, never both. Allocation is best fit: the smallest free
 * block whose aligned start still fits, found by a ceiling search on
 * (size, addr). A block whose start is badly aligned is skipped; after a few
 * such skips the search jumps to sizes that fit whatever their alignment, so
 * every call is O(log n).
 */
#include "sim_range.h"

#include <stdlib.h>

/* Misaligned candidates tried before jumping to sizes that surely fit. */
#define SIM_RANGE_PROBES 8

static uintptr_t sim_range_align_up(uintptr_t x, size_t align)
{
	return (x + align - 1) & ~(uintptr_t)(align - 1);
}

static sim_rblock *sim_range_take_spare(sim_range *r)
{
	sim_rblock *b = r->spare;
	r->spare = b->next;
	return b;
}

static void sim_range_put_spare(sim_range *r, sim_rblock *b)
{
	b->next = r->spare;
	r->spare = b;
}

/* Makes sure n spare records exist, so that a split cannot fail halfway. */
static bool sim_range_reserve_spares(sim_range *r, int n)
{
	int have = 0;
	for (sim_rblock *b = r->spare; b && have < n; b = b->next)
		have++;
	for (; have < n; have++) {
		sim_rblock *b = calloc(1, sizeof(*b));
		if (!b)
			return false;
		sim_range_put_spare(r, b);
	}
	return true;
}

static void sim_range_index_free(sim_range *r, sim_rblock *b)
{
	b->free = true;
	sim_treap_insert(&r->by_size, &b->node, b->size, b->addr);
}

static void sim_range_link_before(sim_range *r, sim_rblock *at, sim_rblock *b)
{
	b->prev = at->prev;
	b->next = at;
	if (at->prev)
		at->prev->next = b;
	else
		r->first = b;
	at->prev = b;
}

static void sim_range_link_after(sim_rblock *at, sim_rblock *b)
{
	b->prev = at;
	b->next = at->next;
	if (at->next)
		at->next->prev = b;
	at->next = b;
}

static void sim_range_unlink(sim_range *r, sim_rblock *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		r->first = b->next;
	if (b->next)
		b->next->prev = b->prev;
}

bool sim_range_init(sim_range *r, uintptr_t base, size_t len, size_t quantum)
{
	*r = (sim_range){ .base = base, .len = len, .quantum = quantum };
	if (len == 0)
		return true;
	sim_rblock *b = calloc(1, sizeof(*b));
	if (!b)
		return false;
	b->addr = base;
	b->size = len;
	r->first = b;
	sim_range_index_free(r, b);
	return true;
}

void sim_range_fini(sim_range *r)
{
	sim_rblock *b, *next;
	for (b = r->first; b; b = next) {
		next = b->next;
		free(b);
	}
	for (b = r->spare; b; b = next) {
		next = b->next;
		free(b);
	}
	*r = (sim_range){ 0 };
}

static bool sim_range_fits(const sim_rblock *b, size_t size, size_t align)
{
	uintptr_t a = sim_range_align_up(b->addr, align);
	return a - b->addr <= b->size - size;
}

static sim_rblock *sim_range_find_fit(sim_range *r, size_t size, size_t align)
{
	/* A block this large fits whatever its start: the padding needed is
	 * at most align - quantum, since every start is a quantum multiple. */
	uint64_t sure = (uint64_t)size + (align - r->quantum);
	uint64_t k1 = size, k2 = 0;
	sim_tnode *n;
	int tries = 0;

	while ((n = sim_treap_ceil(&r->by_size, k1, k2))) {
		sim_rblock *b = (sim_rblock *)n;
		if (sim_range_fits(b, size, align))
			return b;
		if (++tries >= SIM_RANGE_PROBES && k1 < sure) {
			k1 = sure;
			k2 = 0;
		} else {
			k1 = b->size;
			k2 = b->addr + 1;
		}
	}
	return NULL;
}

/* Cuts [aligned start, + size) out of free block b, leaving the padding in
 * front and the tail behind as free blocks. */
static void sim_range_carve(sim_range *r, sim_rblock *b, size_t size, size_t align)
{
	uintptr_t a = sim_range_align_up(b->addr, align);

	sim_treap_remove(&r->by_size, &b->node);
	if (a > b->addr) {
		sim_rblock *f = sim_range_take_spare(r);
		f->addr = b->addr;
		f->size = a - b->addr;
		sim_range_link_before(r, b, f);
		sim_range_index_free(r, f);
		b->addr = a;
		b->size -= f->size;
	}
	if (b->size > size) {
		sim_rblock *t = sim_range_take_spare(r);
		t->addr = a + size;
		t->size = b->size - size;
		sim_range_link_after(b, t);
		sim_range_index_free(r, t);
		b->size = size;
	}
	b->free = false;
	sim_treap_insert(&r->by_addr, &b->node, b->addr, 0);
}

bool sim_range_alloc(sim_range *r, size_t size, size_t align, uintptr_t *out)
{
	if (size == 0 || size > r->len || !sim_range_reserve_spares(r, 2))
		return false;
	sim_rblock *b = sim_range_find_fit(r, size, align);
	if (!b)
		return false;
	sim_range_carve(r, b, size, align);
	*out = b->addr;
	return true;
}

bool sim_range_lookup(const sim_range *r, uintptr_t addr, size_t *size)
{
	sim_tnode *n = sim_treap_find(&r->by_addr, addr, 0);
	if (!n)
		return false;
	if (size)
		*size = ((sim_rblock *)n)->size;
	return true;
}

/* Absorbs free neighbour nb into b (nb is dropped). */
static void sim_range_absorb(sim_range *r, sim_rblock *b, sim_rblock *nb)
{
	sim_treap_remove(&r->by_size, &nb->node);
	if (nb->addr < b->addr)
		b->addr = nb->addr;
	b->size += nb->size;
	sim_range_unlink(r, nb);
	sim_range_put_spare(r, nb);
}

bool sim_range_free(sim_range *r, uintptr_t addr, size_t *size,
		    uintptr_t *lo, uintptr_t *hi)
{
	sim_tnode *n = sim_treap_find(&r->by_addr, addr, 0);
	if (!n)
		return false;
	sim_rblock *b = (sim_rblock *)n;
	sim_treap_remove(&r->by_addr, n);
	*size = b->size;
	if (b->prev && b->prev->free)
		sim_range_absorb(r, b, b->prev);
	if (b->next && b->next->free)
		sim_range_absorb(r, b, b->next);
	sim_range_index_free(r, b);
	*lo = b->addr;
	*hi = b->addr + b->size;
	return true;
}
