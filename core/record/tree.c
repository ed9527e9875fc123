/* core/record/tree.c - an intrusive treap keyed by (size, addr).
 *
 * Free blocks and idle segments are indexed by (size, address) so that best
 * fit, lowest address first, is one lower-bound search: O(log n) expected,
 * never a scan. Priorities are a hash of the key, so the shape depends only
 * on the set of keys (runs are reproducible) and nodes carry no extra field.
 * Invariant: in-order by key; a parent's priority >= its children's. A
 * node's key must not change while it is in a tree.
 * Wing: record. Calls in its own wing status.c.
 */
#include "record.h"

static uint64_t cm_tree_prio(const cm_tnode *n)
{
	uint64_t x = (uint64_t)n->addr ^ ((uint64_t)n->size * 0x9e3779b97f4a7c15ull);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static bool cm_tree_less(size_t s1, uintptr_t a1, size_t s2, uintptr_t a2)
{
	return s1 < s2 || (s1 == s2 && a1 < a2);
}

static bool cm_tree_node_less(const cm_tnode *a, const cm_tnode *b)
{
	return cm_tree_less(a->size, a->addr, b->size, b->addr);
}

/* Splits t into keys below (size, addr) and the rest. */
static void cm_tree_split(cm_tnode *t, size_t size, uintptr_t addr, cm_tnode **lo, cm_tnode **hi)
{
	if (!t) {
		*lo = *hi = NULL;
	} else if (cm_tree_less(t->size, t->addr, size, addr)) {
		cm_tree_split(t->right, size, addr, &t->right, hi);
		*lo = t;
	} else {
		cm_tree_split(t->left, size, addr, lo, &t->left);
		*hi = t;
	}
}

static cm_tnode *cm_tree_merge(cm_tnode *lo, cm_tnode *hi)
{
	if (!lo)
		return hi;
	if (!hi)
		return lo;
	if (cm_tree_prio(lo) > cm_tree_prio(hi)) {
		lo->right = cm_tree_merge(lo->right, hi);
		return lo;
	}
	hi->left = cm_tree_merge(lo, hi->left);
	return hi;
}

void cm_tree_insert(cm_tnode **root, cm_tnode *n)
{
	uint64_t p = cm_tree_prio(n);
	cm_tnode **at = root;

	while (*at && cm_tree_prio(*at) >= p)
		at = cm_tree_node_less(n, *at) ? &(*at)->left : &(*at)->right;
	cm_tree_split(*at, n->size, n->addr, &n->left, &n->right);
	*at = n;
}

void cm_tree_remove(cm_tnode **root, cm_tnode *n)
{
	cm_tnode **at = root;

	while (*at != n) {
		cm_assert(*at);
		at = cm_tree_node_less(n, *at) ? &(*at)->left : &(*at)->right;
	}
	*at = cm_tree_merge(n->left, n->right);
	n->left = n->right = NULL;
}

cm_tnode *cm_tree_lower_bound(cm_tnode *t, size_t size, uintptr_t addr)
{
	cm_tnode *best = NULL;

	while (t) {
		if (cm_tree_less(t->size, t->addr, size, addr)) {
			t = t->right;
		} else {
			best = t;
			t = t->left;
		}
	}
	return best;
}

cm_tnode *cm_tree_next(cm_tnode *root, const cm_tnode *n)
{
	return n->addr == UINTPTR_MAX ? cm_tree_lower_bound(root, n->size + 1, 0)
				      : cm_tree_lower_bound(root, n->size, n->addr + 1);
}

size_t cm_tree_count(const cm_tnode *t)
{
	return t ? 1 + cm_tree_count(t->left) + cm_tree_count(t->right) : 0;
}
