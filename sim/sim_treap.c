/* sim/sim_treap.c - the intrusive treap (see sim_treap.h).
 *
 * Invariants: in-order traversal gives strictly increasing keys; every
 * node's priority is >= its children's. Insertion and removal are written
 * with split/merge, recursive to a depth of O(log n) expected; lookups are
 * iterative.
 */
#include "sim_treap.h"

static uint64_t sim_treap_mix(uint64_t x)
{
	/* splitmix64 finalizer: sequential keys get unrelated priorities. */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int sim_treap_cmp(uint64_t k1, uint64_t k2, const sim_tnode *n)
{
	if (k1 != n->k1)
		return k1 < n->k1 ? -1 : 1;
	if (k2 != n->k2)
		return k2 < n->k2 ? -1 : 1;
	return 0;
}

/* Splits t into the keys below (k1, k2) and the keys at or above it. */
static void sim_treap_split(sim_tnode *t, uint64_t k1, uint64_t k2,
			    sim_tnode **lo, sim_tnode **hi)
{
	if (!t) {
		*lo = *hi = NULL;
	} else if (sim_treap_cmp(k1, k2, t) > 0) {
		*lo = t;
		sim_treap_split(t->r, k1, k2, &t->r, hi);
	} else {
		*hi = t;
		sim_treap_split(t->l, k1, k2, lo, &t->l);
	}
}

/* Joins two trees where every key of a is below every key of b. */
static sim_tnode *sim_treap_merge(sim_tnode *a, sim_tnode *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->prio > b->prio) {
		a->r = sim_treap_merge(a->r, b);
		return a;
	}
	b->l = sim_treap_merge(a, b->l);
	return b;
}

static sim_tnode *sim_treap_ins(sim_tnode *t, sim_tnode *n)
{
	if (!t)
		return n;
	if (n->prio > t->prio) {
		sim_treap_split(t, n->k1, n->k2, &n->l, &n->r);
		return n;
	}
	if (sim_treap_cmp(n->k1, n->k2, t) < 0)
		t->l = sim_treap_ins(t->l, n);
	else
		t->r = sim_treap_ins(t->r, n);
	return t;
}

static sim_tnode *sim_treap_rem(sim_tnode *t, sim_tnode *n)
{
	if (!t)
		return NULL;
	if (t == n)
		return sim_treap_merge(t->l, t->r);
	if (sim_treap_cmp(n->k1, n->k2, t) < 0)
		t->l = sim_treap_rem(t->l, n);
	else
		t->r = sim_treap_rem(t->r, n);
	return t;
}

void sim_treap_insert(sim_treap *t, sim_tnode *n, uint64_t k1, uint64_t k2)
{
	n->l = n->r = NULL;
	n->k1 = k1;
	n->k2 = k2;
	n->prio = sim_treap_mix(k1 ^ sim_treap_mix(k2));
	t->root = sim_treap_ins(t->root, n);
	t->count++;
}

void sim_treap_remove(sim_treap *t, sim_tnode *n)
{
	t->root = sim_treap_rem(t->root, n);
	n->l = n->r = NULL;
	t->count--;
}

/* The node at the key, else the nearest one on side (1: above, -1: below;
 * 0: none). */
static sim_tnode *sim_treap_near(const sim_treap *t, uint64_t k1, uint64_t k2, int side)
{
	sim_tnode *n = t->root, *best = NULL;
	while (n) {
		int c = sim_treap_cmp(k1, k2, n);
		if (c == 0)
			return n;
		if (c == -side)
			best = n;
		n = c < 0 ? n->l : n->r;
	}
	return best;
}

sim_tnode *sim_treap_find(const sim_treap *t, uint64_t k1, uint64_t k2)
{
	return sim_treap_near(t, k1, k2, 0);
}

sim_tnode *sim_treap_ceil(const sim_treap *t, uint64_t k1, uint64_t k2)
{
	return sim_treap_near(t, k1, k2, 1);
}

sim_tnode *sim_treap_floor(const sim_treap *t, uint64_t k1, uint64_t k2)
{
	return sim_treap_near(t, k1, k2, -1);
}
