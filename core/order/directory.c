/* core/order/directory.c - the stream directory: user stream handle -> record,
 * read without a lock (docs/design.md, "Seeing every submission").
 *
 * The submission hooks know a stream's handle, not its device; this file
 * finds its record (streams.c) for them without taking a lock. It is an
 * index, not the truth: the device's stream table (under the device lock)
 * is. A miss here sends the caller to that table (submit.c), so an entry
 * the directory could not hold costs speed, never safety.
 *
 * A table of buckets of four slots (one cache line), each slot a handle
 * and a record. A reader scans the handle's bucket for the handle and
 * takes the record only when the record itself still says it is that
 * handle's (rec->dir_handle, cleared when the record dies): a slot being
 * rewritten, or a record reused for another handle, reads as a miss.
 * Records are type-stable (never freed before the heap), so a stale
 * pointer is safe to read.
 *
 * Writers (stream creation, adoption, end) hold the directory's own lock,
 * a leaf: taken under a device lock, nothing taken under it. A slot is
 * free when empty or when its record no longer names it. When the
 * handle's bucket has no free slot, or the table is half full, the table
 * doubles; readers may still hold the old one (its entries stay true or
 * read as misses), so old tables are kept until the heap is destroyed:
 * together at most the size of the current one. Growth is driven by live
 * streams only (dead entries are reused in place), so a program that
 * creates and destroys streams forever keeps a table sized for the most
 * streams it had alive at once.
 * Wing: order. Calls no other file of the core.
 */
#include <stdlib.h>

#include "order.h"

#define CM_DIR_WAYS 4
#define CM_DIR_MIN_BUCKETS 64

typedef struct cm_dir_slot {
	_Atomic cm_stream handle; /* 0: empty */
	_Atomic(cm_stream_rec *) rec;
} cm_dir_slot;

struct cm_dir_table {
	size_t mask; /* buckets - 1 */
	struct cm_dir_table *older;
	_Alignas(64) cm_dir_slot slots[];
};

static cm_dir_table *cm_dir_table_new(size_t buckets)
{
	size_t bytes = sizeof(cm_dir_table) + buckets * CM_DIR_WAYS * sizeof(cm_dir_slot);
	cm_dir_table *t = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	if (!t)
		return NULL;
	t->mask = buckets - 1;
	t->older = NULL;
	for (size_t i = 0; i < buckets * CM_DIR_WAYS; i++) {
		atomic_init(&t->slots[i].handle, 0);
		atomic_init(&t->slots[i].rec, NULL);
	}
	return t;
}

cm_status cm_dir_init(cm_dir *dir)
{
	pthread_mutex_init(&dir->lock, NULL);
	dir->live = 0;
	cm_dir_table *t = cm_dir_table_new(CM_DIR_MIN_BUCKETS);
	atomic_init(&dir->cur, t);
	return t ? CM_OK : CM_ERR_OOM;
}

void cm_dir_fini(cm_dir *dir)
{
	for (cm_dir_table *t = atomic_load(&dir->cur), *older; t; t = older) {
		older = t->older;
		free(t);
	}
	pthread_mutex_destroy(&dir->lock);
}

static cm_dir_slot *cm_dir_bucket(cm_dir_table *t, cm_stream s)
{
	size_t b = (size_t)(((uint64_t)s * 0x9e3779b97f4a7c15ull) >> 24) & t->mask;
	return &t->slots[b * CM_DIR_WAYS];
}

cm_stream_rec *cm_dir_find(cm_dir *dir, cm_stream s)
{
	cm_dir_table *t = atomic_load_explicit(&dir->cur, memory_order_acquire);
	cm_dir_slot *slot = cm_dir_bucket(t, s);
	for (int i = 0; i < CM_DIR_WAYS; i++) {
		if (atomic_load_explicit(&slot[i].handle, memory_order_acquire) != s)
			continue;
		cm_stream_rec *r = atomic_load_explicit(&slot[i].rec, memory_order_acquire);
		if (r && atomic_load_explicit(&r->dir_handle, memory_order_acquire) == s)
			return r;
	}
	return NULL;
}

/* A slot of s's bucket that may take s: its own, an empty one, or one
 * whose record no longer names its handle. */
static cm_dir_slot *cm_dir_free_slot(cm_dir_table *t, cm_stream s)
{
	cm_dir_slot *slot = cm_dir_bucket(t, s), *free_slot = NULL;
	for (int i = 0; i < CM_DIR_WAYS; i++) {
		cm_stream h = atomic_load_explicit(&slot[i].handle, memory_order_relaxed);
		cm_stream_rec *r = atomic_load_explicit(&slot[i].rec, memory_order_relaxed);
		if (h == s)
			return &slot[i];
		if (!free_slot && (h == 0 || !r || atomic_load(&r->dir_handle) != h))
			free_slot = &slot[i];
	}
	return free_slot;
}

static void cm_dir_put(cm_dir_slot *slot, cm_stream s, cm_stream_rec *r)
{
	/* The handle last: a reader that sees it sees the record too; one
	 * that sees the old handle with the new record finds it not naming
	 * that handle, a miss. */
	atomic_store_explicit(&slot->handle, 0, memory_order_release);
	atomic_store_explicit(&slot->rec, r, memory_order_release);
	atomic_store_explicit(&slot->handle, s, memory_order_release);
}

/* Doubles the table, moving the live entries; false: no memory (or an
 * entry found no room even so: the caller keeps the old table). */
static bool cm_dir_grow(cm_dir *dir)
{
	cm_dir_table *old = atomic_load(&dir->cur);
	cm_dir_table *t = cm_dir_table_new(2 * (old->mask + 1));
	if (!t)
		return false;
	for (size_t i = 0; i < (old->mask + 1) * CM_DIR_WAYS; i++) {
		cm_stream h = atomic_load(&old->slots[i].handle);
		cm_stream_rec *r = atomic_load(&old->slots[i].rec);
		if (!h || !r || atomic_load(&r->dir_handle) != h)
			continue;
		cm_dir_slot *slot = cm_dir_free_slot(t, h);
		if (!slot) {
			free(t);
			return false;
		}
		cm_dir_put(slot, h, r);
	}
	t->older = old;
	atomic_store_explicit(&dir->cur, t, memory_order_release);
	return true;
}

/* Enters r, whose dir_handle the caller set to s. False: no room (the
 * lookups of s go to the device's table). */
bool cm_dir_insert(cm_dir *dir, cm_stream s, cm_stream_rec *r)
{
	pthread_mutex_lock(&dir->lock);
	cm_dir_table *t = atomic_load(&dir->cur);
	if (2 * (dir->live + 1) > (t->mask + 1) * CM_DIR_WAYS && cm_dir_grow(dir))
		t = atomic_load(&dir->cur);
	cm_dir_slot *slot = cm_dir_free_slot(t, s);
	/* A full bucket grows the table only while the table is not mostly
	 * empty: handles that all hash alike must not double it forever. */
	if (!slot && 8 * (dir->live + 1) > (t->mask + 1) * CM_DIR_WAYS && cm_dir_grow(dir)) {
		t = atomic_load(&dir->cur);
		slot = cm_dir_free_slot(t, s);
	}
	if (slot) {
		cm_stream_rec *was = atomic_load(&slot->rec);
		dir->live += !(atomic_load(&slot->handle) == s && was && atomic_load(&was->dir_handle) == s);
		cm_dir_put(slot, s, r);
	}
	pthread_mutex_unlock(&dir->lock);
	return slot != NULL;
}

/* r dies: the caller cleared its dir_handle (readers now miss); its slot
 * is emptied so that s's bucket does not fill with the dead. */
void cm_dir_remove(cm_dir *dir, cm_stream s, cm_stream_rec *r)
{
	pthread_mutex_lock(&dir->lock);
	cm_dir_slot *slot = cm_dir_bucket(atomic_load(&dir->cur), s);
	for (int i = 0; i < CM_DIR_WAYS; i++) {
		if (atomic_load(&slot[i].handle) == s && atomic_load(&slot[i].rec) == r) {
			atomic_store_explicit(&slot[i].handle, 0, memory_order_release);
			atomic_store_explicit(&slot[i].rec, NULL, memory_order_release);
			dir->live--;
			break;
		}
	}
	pthread_mutex_unlock(&dir->lock);
}
