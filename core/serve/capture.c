/* core/serve/capture.c - what graph capture means for the cache (docs/design.md,
 * "The fence protocol", rule 7). The hooks tell it facts; it decides.
 *
 * Owns two things:
 * - the captures in progress (stream, the thread that began it, its mode),
 *   from which cm_capture_forbids answers CUDA's documented rule
 *   (cuThreadExchangeStreamCaptureMode) for the calling thread: a thread
 *   not in relaxed mode may make no allocation or free while it has a
 *   capture of its own that is not relaxed, nor, in global mode, while
 *   another thread has a global one. CUDA refuses such a call and
 *   invalidates the capture; the hooks leave it to CUDA instead of serving
 *   it, so that the answer and the invalidation are CUDA's own;
 * - the capture era of a heap: from a capture's begin until no capture is
 *   in progress and every graph and executable graph made meanwhile is
 *   destroyed. A graph may replay its captured work at any time, on the
 *   memory of blocks handed out or freed while it was being captured: the
 *   free of such a block (a block handed out while a capture is in
 *   progress, freed then or later in the era, or any block freed while a
 *   capture is in progress) does not return it to the cache but holds it, and the held blocks are freed (as cudaFree: rule 3 orders
 *   the graphs' launches before their reuse) when the era ends.
 *
 * Everything is under one lock, taken only in an era. The hooks' fast
 * paths read only cm_capture_eras: the heaps whose calls must come here,
 * those with a capture in progress or a block handed out or held in an
 * era (a free of one must be seen); an era whose graphs merely live keeps
 * the fast paths. A block is born only while a capture is in progress.
 * Wing: serve. Calls in its own wing heap.c, ipc.c (every free: a block
 * may be shared with another process).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cachemalloc.h"

_Atomic unsigned cm_capture_eras;

typedef struct cm_capture_entry {
	cm_stream stream;
	const void *thread;
	cm_capture_mode mode;
} cm_capture_entry;

typedef struct cm_capture_block {
	uintptr_t addr;
	int dev;
} cm_capture_block;

/* A growable array; items of size `each`. */
typedef struct cm_capture_list {
	void *items;
	size_t n, cap;
} cm_capture_list;

typedef struct cm_capture_era {
	cm_heap *heap;
	struct cm_capture_era *next;
	cm_capture_list captures; /* cm_capture_entry */
	cm_capture_list graphs;   /* uintptr_t: graphs and executable graphs alive */
	cm_capture_list born;     /* cm_capture_block: handed out in the era, held by the program */
	cm_capture_list held;     /* cm_capture_block: freed in the era, out of the cache */
	bool watched; /* counted in cm_capture_eras */
} cm_capture_era;

static pthread_mutex_t cm_capture_lock = PTHREAD_MUTEX_INITIALIZER;
static cm_capture_era *cm_capture_all;
/* The calling thread's identity: the address of a variable of its own. */
static __thread char cm_capture_thread_mark;

static const void *cm_capture_me(void)
{
	return &cm_capture_thread_mark;
}

static bool cm_capture_push(cm_capture_list *l, const void *item, size_t each)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		void *items = realloc(l->items, cap * each);
		if (!items)
			return false;
		l->items = items;
		l->cap = cap;
	}
	memcpy((char *)l->items + l->n * each, item, each);
	l->n++;
	return true;
}

static void cm_capture_remove_at(cm_capture_list *l, size_t i, size_t each)
{
	l->n--;
	memmove((char *)l->items + i * each, (char *)l->items + (i + 1) * each, (l->n - i) * each);
}

/* The index of the block at addr in l, or -1. */
static ptrdiff_t cm_capture_block_at(const cm_capture_list *l, uintptr_t addr)
{
	const cm_capture_block *b = l->items;
	for (size_t i = l->n; i-- > 0;)
		if (b[i].addr == addr)
			return (ptrdiff_t)i;
	return -1;
}

static cm_capture_era *cm_capture_era_of(cm_heap *h)
{
	for (cm_capture_era *e = cm_capture_all; e; e = e->next)
		if (e->heap == h)
			return e;
	return NULL;
}

static cm_capture_era *cm_capture_era_begin(cm_heap *h)
{
	cm_capture_era *e = cm_capture_era_of(h);
	if (e || !(e = calloc(1, sizeof(*e))))
		return e;
	e->heap = h;
	e->next = cm_capture_all;
	cm_capture_all = e;
	return e;
}

/* After each change of e: counted in cm_capture_eras while its calls must
 * come here. */
static void cm_capture_rewatch(cm_capture_era *e)
{
	bool watch = e->captures.n || e->born.n || e->held.n;
	if (watch == e->watched)
		return;
	e->watched = watch;
	if (watch)
		atomic_fetch_add_explicit(&cm_capture_eras, 1, memory_order_relaxed);
	else
		atomic_fetch_sub_explicit(&cm_capture_eras, 1, memory_order_relaxed);
}

/* Ends e when nothing of it may run any more: unlinked, its held blocks
 * returned for the caller to free outside the lock (NULL: it goes on). */
static cm_capture_list cm_capture_era_try_end(cm_capture_era *e)
{
	cm_capture_list held = {0};
	if (!e || e->captures.n || e->graphs.n)
		return held;
	for (cm_capture_era **pp = &cm_capture_all; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	}
	held = e->held;
	if (e->watched)
		atomic_fetch_sub_explicit(&cm_capture_eras, 1, memory_order_relaxed);
	free(e->captures.items);
	free(e->graphs.items);
	free(e->born.items);
	free(e);
	return held;
}

/* Outside the lock: the era's held blocks go back to the cache. */
static void cm_capture_release(cm_heap *h, cm_capture_list held)
{
	const cm_capture_block *b = held.items;
	for (size_t i = 0; i < held.n; i++)
		cm_ipc_free(h, b[i].addr, false, 0);
	free(held.items);
}

void cm_capture_begin(cm_heap *h, cm_stream s, cm_capture_mode mode)
{
	cm_capture_entry c = {.stream = s, .thread = cm_capture_me(), .mode = mode};
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_begin(h);
	if (e) {
		cm_capture_push(&e->captures, &c, sizeof(c));
		cm_capture_rewatch(e);
	}
	pthread_mutex_unlock(&cm_capture_lock);
}

/* The last capture of s that was begun (on the calling thread for the
 * per-thread stream, which names the caller's own), or -1. */
static ptrdiff_t cm_capture_find(const cm_capture_era *e, cm_stream s)
{
	const cm_capture_entry *c = e->captures.items;
	for (size_t i = e->captures.n; i-- > 0;)
		if (c[i].stream == s && (s != CM_STREAM_PER_THREAD || c[i].thread == cm_capture_me()))
			return (ptrdiff_t)i;
	return -1;
}

bool cm_capture_end(cm_heap *h, cm_stream s)
{
	cm_capture_list held = {0};
	ptrdiff_t i = -1;
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	if (e && (i = cm_capture_find(e, s)) >= 0) {
		cm_capture_remove_at(&e->captures, (size_t)i, sizeof(cm_capture_entry));
		cm_capture_rewatch(e);
		held = cm_capture_era_try_end(e);
	}
	pthread_mutex_unlock(&cm_capture_lock);
	cm_capture_release(h, held);
	return i >= 0;
}

bool cm_capture_in_progress(cm_heap *h)
{
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	bool any = e && e->captures.n;
	pthread_mutex_unlock(&cm_capture_lock);
	return any;
}

/* CUDA's rule (cuThreadExchangeStreamCaptureMode): relaxed permits all;
 * otherwise a capture of the caller's own that is not relaxed forbids, and
 * in global mode also another thread's global capture. */
bool cm_capture_forbids(cm_heap *h, cm_capture_mode thread_mode)
{
	bool forbids = false;
	if (thread_mode == CM_CAPTURE_RELAXED)
		return false;
	const void *me = cm_capture_me();
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	const cm_capture_entry *c = e ? e->captures.items : NULL;
	for (size_t i = 0; e && i < e->captures.n && !forbids; i++) {
		bool mine = c[i].thread == me && c[i].mode != CM_CAPTURE_RELAXED;
		bool global = thread_mode == CM_CAPTURE_GLOBAL && c[i].thread != me &&
			      c[i].mode == CM_CAPTURE_GLOBAL;
		forbids = mine || global;
	}
	pthread_mutex_unlock(&cm_capture_lock);
	return forbids;
}

void cm_capture_graph_made(cm_heap *h, uintptr_t graph)
{
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	if (e && graph)
		cm_capture_push(&e->graphs, &graph, sizeof(graph));
	pthread_mutex_unlock(&cm_capture_lock);
}

void cm_capture_graph_gone(cm_heap *h, uintptr_t graph)
{
	cm_capture_list held = {0};
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	const uintptr_t *g = e ? e->graphs.items : NULL;
	for (size_t i = 0; e && i < e->graphs.n; i++) {
		if (g[i] == graph) {
			cm_capture_remove_at(&e->graphs, i, sizeof(graph));
			held = cm_capture_era_try_end(e);
			break;
		}
	}
	pthread_mutex_unlock(&cm_capture_lock);
	cm_capture_release(h, held);
}

void cm_capture_block_born(cm_heap *h, uintptr_t p)
{
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	cm_capture_block b = {.addr = p, .dev = info.dev};
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	if (e && e->captures.n) {
		cm_capture_push(&e->born, &b, sizeof(b));
		cm_capture_rewatch(e);
	}
	pthread_mutex_unlock(&cm_capture_lock);
}

/* Whether the free of p is held (then *held_already tells a second free
 * of a held block, which the program no longer holds). */
static bool cm_capture_holds(cm_heap *h, uintptr_t p, bool *held_already)
{
	cm_ptr_info info;
	bool holds = false;
	*held_already = false;
	cm_pointer_info(h, p, &info); /* before the lock: the heap's own locks */
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	ptrdiff_t i;
	if (!e) {
		/* no era: nothing to hold */
	} else if (cm_capture_block_at(&e->held, p) >= 0) {
		*held_already = true;
	} else if ((i = cm_capture_block_at(&e->born, p)) >= 0 ||
		   (e->captures.n && info.live && info.base == p)) {
		cm_capture_block b = {.addr = p, .dev = info.dev};
		if (i >= 0)
			cm_capture_remove_at(&e->born, (size_t)i, sizeof(b));
		holds = cm_capture_push(&e->held, &b, sizeof(b));
		cm_capture_rewatch(e);
	}
	pthread_mutex_unlock(&cm_capture_lock);
	return holds;
}

cm_status cm_capture_free(cm_heap *h, uintptr_t p, bool async, cm_stream s)
{
	bool held_already;
	if (cm_capture_holds(h, p, &held_already))
		return CM_OK;
	if (held_already)
		return CM_ERR_INVALID; /* a double free, as for any freed block */
	return cm_ipc_free(h, p, async, s);
}

/* The device's memory is gone with its context: its blocks are forgotten
 * here too, never freed. */
static void cm_capture_forget_in(cm_capture_list *l, int dev)
{
	cm_capture_block *b = l->items;
	size_t kept = 0;
	for (size_t i = 0; i < l->n; i++)
		if (b[i].dev != dev)
			b[kept++] = b[i];
	l->n = kept;
}

void cm_capture_forget_device(cm_heap *h, int dev)
{
	pthread_mutex_lock(&cm_capture_lock);
	cm_capture_era *e = cm_capture_era_of(h);
	if (e) {
		cm_capture_forget_in(&e->born, dev);
		cm_capture_forget_in(&e->held, dev);
		cm_capture_rewatch(e);
	}
	pthread_mutex_unlock(&cm_capture_lock);
}
