/* sim/sim_treap.h - an intrusive treap: the ordered index under the
 * simulator's memory allocator and VMM bookkeeping.
 *
 * It owns no memory: a node lives inside the structure it indexes and is
 * linked into at most one tree at a time. Keys are pairs (k1, k2) compared
 * lexicographically and must be unique within a tree. A node's priority is
 * a hash of its key, so the tree has the shape of a random treap (expected
 * depth O(log n)) without any random-number state shared between threads.
 * Not thread-safe: the owner of the tree locks.
 */
#ifndef CM_SIM_TREAP_H
#define CM_SIM_TREAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_tnode {
	struct sim_tnode *l, *r;
	uint64_t k1, k2;
	uint64_t prio;
} sim_tnode;

typedef struct sim_treap {
	sim_tnode *root;
	size_t count;
} sim_treap;

void sim_treap_insert(sim_treap *t, sim_tnode *n, uint64_t k1, uint64_t k2);
void sim_treap_remove(sim_treap *t, sim_tnode *n); /* n must be in t */
sim_tnode *sim_treap_find(const sim_treap *t, uint64_t k1, uint64_t k2);
/* Smallest node with key >= (k1, k2), or NULL. */
sim_tnode *sim_treap_ceil(const sim_treap *t, uint64_t k1, uint64_t k2);
/* Largest node with key <= (k1, k2), or NULL. */
sim_tnode *sim_treap_floor(const sim_treap *t, uint64_t k1, uint64_t k2);

#endif
