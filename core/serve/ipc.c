/* core/serve/ipc.c - any block shared with another process (docs/design.md,
 * "Sharing blocks between processes"; cachemalloc.h, cm_ipc_*).
 *
 * CUDA's IPC handle names a whole allocation: for the cache a segment that
 * holds other blocks too, which the importer must not see. A block is
 * shared through a token in the handle's 64 bytes instead: it names this
 * process's registry, a slot of it and the slot's generation. The registry
 * is a file of the user, /dev/shm/cachemalloc-ipc-UID-PID-START (mode 0600,
 * made at the first export, removed at exit); a slot holds CUDA's handle of
 * the segment, the block's offset and size in it, and the count of the
 * importers' opens not yet closed, also per importer for the first four.
 *
 * Exporter: one slot per exported block, the same token while it lives.
 * Its free withdraws the slot (the generation made even); while an importer
 * still has the block open, the block is held out of the cache until every
 * open is closed, then freed at the exporter's next free, export or
 * allocation that misses its thread's cache (heap.c calls up through
 * h->ipc_release_closed, set at the first hold; an allocation looks only
 * when the registry's count of closes moved). A destroyed heap's exports
 * are withdrawn and dropped (h->ipc_forget, set at its first export).
 * CUDA forbids the exporter to free first; the cache at least never hands
 * out memory another process may still be using.
 * Importer (a process under the library): counts its open in the slot,
 * then checks the generation. The withdrawal (generation, then opens) and
 * the open (opens, then generation) are sequentially consistent, so one of
 * them sees the other: no block is held for an open that failed, none is
 * freed under one that succeeded. CUDA opens the segment (a second open of
 * one allocation is counted and gives the same base, cuda.h) and the block
 * is base + offset; its close uncounts. A process without the library
 * hands the token to CUDA, which refuses it: an error, never the wrong
 * memory.
 *
 * Locks: cm_ipc_lock, a leaf (the heap's functions are called outside it);
 * the free of a block that is not shared takes none (cm_ipc_filter).
 * Wing: serve. Calls in its own wing heap.c (cm_pointer_info), tcache.c
 * (cm_free, cm_free_async); below it status.c (cm_proc_start_time).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"

#define CM_IPC_FILE_MAGIC 0x3167657243504963ull  /* "cIPCreg1" */
#define CM_IPC_TOKEN_MAGIC 0x316b6f5443504963ull /* "cIPCTok1" */
#define CM_IPC_SLOTS 16384u
#define CM_IPC_IMPORTERS 4

/* An importer of a slot and its opens: the exporter takes back those of
 * an importer that died without closing. */
typedef struct cm_ipc_importer {
	_Atomic int32_t pid;   /* 0: free; -1: being claimed */
	_Atomic uint32_t opens;
	uint64_t start;        /* its start time, against pid reuse */
} cm_ipc_importer;

typedef struct cm_ipc_slot {
	_Atomic uint64_t gen;   /* odd: exported; even: free or withdrawn */
	_Atomic uint32_t opens; /* importers' opens not yet closed, all of them */
	uint32_t pad;
	uint64_t offset, size;  /* the block in the allocation handle names */
	uint8_t handle[CM_IPC_HANDLE_BYTES];
	cm_ipc_importer importers[CM_IPC_IMPORTERS]; /* more: counted, never taken back */
} cm_ipc_slot;

typedef struct cm_ipc_file {
	uint64_t magic;
	uint32_t nslots;
	_Atomic uint32_t closes; /* importers' closes, after their uncount: what the
				  * exporter's allocations watch (0 from an older
				  * importer, which then never wakes them) */
	cm_ipc_slot slots[CM_IPC_SLOTS];
} cm_ipc_file;

typedef struct cm_ipc_token {
	uint64_t magic;
	int32_t pid;
	uint32_t slot;
	uint64_t start, gen, offset, size;
	uint8_t pad[16];
} cm_ipc_token;
_Static_assert(sizeof(cm_ipc_token) == CM_IPC_HANDLE_BYTES, "a token is a handle");

/* A block this process exported. */
typedef struct cm_ipc_shared {
	cm_heap *heap;
	uintptr_t addr;
	uint32_t slot;
	bool held; /* freed by the program, still open elsewhere */
} cm_ipc_shared;

/* A block this process opened from a token. */
typedef struct cm_ipc_open {
	uintptr_t ptr, base;
	size_t size;
	cm_ipc_file *file; /* the exporter's registry */
	cm_ipc_slot *slot;
	uint32_t count;
} cm_ipc_open;

/* An exporter's registry, mapped here. */
typedef struct cm_ipc_peer {
	int32_t pid;
	uint64_t start;
	cm_ipc_file *file;
} cm_ipc_peer;

_Atomic unsigned cm_ipc_exports;
static _Atomic size_t cm_ipc_nimported; /* cm_ipc.nopens, read without the lock */
static _Atomic size_t cm_ipc_nheld;     /* exports held, read without the lock */
/* This process's registry and its maker, for the allocations' look
 * without the lock (cm_ipc_release_after_close). */
static _Atomic(cm_ipc_file *) cm_ipc_mine;
static _Atomic int cm_ipc_mine_pid;

/* Exports per hash of their address: a free whose count is 0 is of no
 * shared block and takes no lock (a counting filter; its counts go back
 * to 0 as exports end, so it never fills up). */
#define CM_IPC_FILTER_BITS 12
static _Atomic uint32_t cm_ipc_filter[1u << CM_IPC_FILTER_BITS];

static _Atomic uint32_t *cm_ipc_filter_of(uintptr_t addr)
{
	uint64_t x = (uint64_t)(addr >> 9) * 0x9e3779b97f4a7c15ull; /* blocks are 512-aligned */
	return &cm_ipc_filter[x >> (64 - CM_IPC_FILTER_BITS)];
}

static pthread_mutex_t cm_ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	cm_ipc_file *file; /* this process's registry, NULL until the first export */
	int pid;           /* the process that made it (a child does not share it) */
	uint64_t start;
	char path[96];
	cm_ipc_shared *exports;
	size_t nexports, cap_exports;
	cm_ipc_open *opens;
	size_t nopens, cap_opens;
	cm_ipc_peer *peers;
	size_t npeers, cap_peers;
	uint8_t taken[CM_IPC_SLOTS]; /* the slot of an export in the list */
	uint32_t next_slot;          /* where the search for a free one starts */
} cm_ipc;

/* Room for one more item in a growable array. */
static bool cm_ipc_room(void **items, size_t n, size_t *cap, size_t each)
{
	if (n < *cap)
		return true;
	size_t grown = *cap ? *cap * 2 : 16;
	void *p = realloc(*items, grown * each);
	if (!p)
		return false;
	*items = p;
	*cap = grown;
	return true;
}

static void cm_ipc_registry_path(char path[96], int pid, uint64_t start)
{
	snprintf(path, 96, "/dev/shm/cachemalloc-ipc-%u-%d-%llu", (unsigned)getuid(), pid,
		 (unsigned long long)start);
}

static void cm_ipc_at_exit(void)
{
	if (cm_ipc.file && cm_ipc.pid == getpid())
		unlink(cm_ipc.path);
}

/* This process's registry, made at the first export (cm_ipc_lock held). */
static cm_ipc_file *cm_ipc_registry(void)
{
	if (cm_ipc.file && cm_ipc.pid == getpid())
		return cm_ipc.file;
	int pid = getpid();
	uint64_t start = cm_proc_start_time(pid);
	char path[96];
	cm_ipc_registry_path(path, pid, start);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 && errno == EEXIST && unlink(path) == 0) /* a dead namesake's */
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	void *m = MAP_FAILED;
	if (fd >= 0 && ftruncate(fd, sizeof(cm_ipc_file)) == 0)
		m = mmap(NULL, sizeof(cm_ipc_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	if (m == MAP_FAILED) {
		fprintf(stderr, "cachemalloc: IPC: cannot make %s (%s); blocks are not shared\n",
			path, strerror(errno));
		unlink(path);
		return NULL;
	}
	cm_ipc_file *f = m;
	f->magic = CM_IPC_FILE_MAGIC;
	f->nslots = CM_IPC_SLOTS;
	if (!cm_ipc.file)
		atexit(cm_ipc_at_exit);
	cm_ipc.file = f;
	cm_ipc.pid = pid;
	atomic_store(&cm_ipc_mine_pid, pid);
	atomic_store_explicit(&cm_ipc_mine, f, memory_order_release);
	cm_ipc.start = start;
	memcpy(cm_ipc.path, path, sizeof(path));
	cm_ipc.nexports = 0; /* a parent's, before a fork */
	memset(cm_ipc.taken, 0, sizeof(cm_ipc.taken));
	for (size_t i = 0; i < (1u << CM_IPC_FILTER_BITS); i++)
		atomic_store(&cm_ipc_filter[i], 0);
	return f;
}

static ptrdiff_t cm_ipc_export_at(cm_heap *h, uintptr_t addr)
{
	for (size_t i = 0; i < cm_ipc.nexports; i++)
		if (cm_ipc.exports[i].heap == h && cm_ipc.exports[i].addr == addr)
			return (ptrdiff_t)i;
	return -1;
}

/* A slot of no export and open nowhere, or UINT32_MAX. */
static uint32_t cm_ipc_free_slot(cm_ipc_file *f)
{
	for (uint32_t k = 0; k < CM_IPC_SLOTS; k++) {
		uint32_t i = (cm_ipc.next_slot + k) % CM_IPC_SLOTS;
		if (!cm_ipc.taken[i] && atomic_load(&f->slots[i].opens) == 0) {
			cm_ipc.next_slot = i + 1;
			return i;
		}
	}
	return UINT32_MAX;
}

static void cm_ipc_token_of(const cm_ipc_shared *e, uint8_t out[CM_IPC_HANDLE_BYTES])
{
	const cm_ipc_slot *s = &cm_ipc.file->slots[e->slot];
	cm_ipc_token t = { .magic = CM_IPC_TOKEN_MAGIC, .pid = cm_ipc.pid, .slot = e->slot,
			   .start = cm_ipc.start, .gen = atomic_load(&s->gen),
			   .offset = s->offset, .size = s->size };
	memcpy(out, &t, sizeof(t));
}

static void cm_ipc_drop_export(size_t i)
{
	if (cm_ipc.exports[i].held)
		atomic_fetch_sub(&cm_ipc_nheld, 1);
	cm_ipc.taken[cm_ipc.exports[i].slot] = 0;
	atomic_fetch_sub(cm_ipc_filter_of(cm_ipc.exports[i].addr), 1);
	cm_ipc.exports[i] = cm_ipc.exports[--cm_ipc.nexports];
	atomic_fetch_sub_explicit(&cm_ipc_exports, 1, memory_order_relaxed);
}

/* The calling process's opens of s counted (delta +1 or -1) in its
 * importer entry, claimed at its first open and freed at its last close
 * (cm_ipc_lock held: one thread of the process at a time). */
static void cm_ipc_importer_count(cm_ipc_slot *s, int delta)
{
	int32_t me = (int32_t)getpid();
	for (int i = 0; i < CM_IPC_IMPORTERS; i++) {
		cm_ipc_importer *m = &s->importers[i];
		if (atomic_load(&m->pid) != me)
			continue;
		if (atomic_fetch_add(&m->opens, (uint32_t)delta) + (uint32_t)delta == 0)
			atomic_store(&m->pid, 0);
		return;
	}
	for (int i = 0; delta > 0 && i < CM_IPC_IMPORTERS; i++) {
		cm_ipc_importer *m = &s->importers[i];
		int32_t free_pid = 0;
		if (atomic_compare_exchange_strong(&m->pid, &free_pid, -1)) {
			m->start = cm_proc_start_time(me);
			atomic_store(&m->opens, 1);
			atomic_store(&m->pid, me);
			return;
		}
	}
}

/* The opens of s's importers that died without closing, uncounted. */
static void cm_ipc_reap_dead(cm_ipc_slot *s)
{
	for (int i = 0; i < CM_IPC_IMPORTERS; i++) {
		cm_ipc_importer *m = &s->importers[i];
		int32_t pid = atomic_load(&m->pid);
		if (pid <= 0 || cm_proc_start_time(pid) == m->start)
			continue; /* free, being claimed, or alive */
		if (atomic_compare_exchange_strong(&m->pid, &pid, -1)) {
			atomic_fetch_sub(&s->opens, atomic_exchange(&m->opens, 0));
			atomic_store(&m->pid, 0);
		}
	}
}

/* Held blocks of h no longer open anywhere: dropped from the list, their
 * addresses into out (at most max); cm_ipc_lock held. */
static size_t cm_ipc_collect_closed(cm_heap *h, uintptr_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = cm_ipc.nexports; i-- > 0 && n < max;) {
		cm_ipc_shared *e = &cm_ipc.exports[i];
		cm_ipc_slot *s = &cm_ipc.file->slots[e->slot];
		if (e->heap != h || !e->held)
			continue;
		cm_ipc_reap_dead(s);
		if (atomic_load(&s->opens) == 0) {
			out[n++] = e->addr;
			cm_ipc_drop_export(i);
		}
	}
	return n;
}

/* Frees h's held blocks whose importers all closed (outside the lock). */
static void cm_ipc_release_closed(cm_heap *h)
{
	uintptr_t closed[32];
	size_t n;
	if (atomic_load_explicit(&cm_ipc_nheld, memory_order_relaxed) == 0)
		return;
	do {
		pthread_mutex_lock(&cm_ipc_lock);
		n = cm_ipc.file && cm_ipc.pid == getpid() ? cm_ipc_collect_closed(h, closed, 32) : 0;
		pthread_mutex_unlock(&cm_ipc_lock);
		for (size_t i = 0; i < n; i++)
			cm_free(h, closed[i]);
	} while (n == 32);
}

/* heap.c's slow path, through h->ipc_release_closed: h's held blocks are
 * looked at (under the lock, dead importers reaped) only once an importer
 * closed something since h's last look; else one load of the registry. */
static void cm_ipc_release_after_close(cm_heap *h)
{
	cm_ipc_file *f = atomic_load_explicit(&cm_ipc_mine, memory_order_acquire);
	uint32_t closes = f ? atomic_load(&f->closes) : 0;
	if (!f || closes == atomic_load_explicit(&h->ipc_closes_seen, memory_order_relaxed) ||
	    atomic_load(&cm_ipc_mine_pid) != getpid()) /* a fork child's: its parent's */
		return;
	atomic_store_explicit(&h->ipc_closes_seen, closes, memory_order_relaxed);
	cm_ipc_release_closed(h);
}

/* cm_heap_destroy's, through h->ipc_forget: h's exports withdrawn (no
 * open succeeds after) and dropped, held or not: its memory goes with it,
 * and a later heap at the same address must not find them. */
static void cm_ipc_forget(cm_heap *h)
{
	pthread_mutex_lock(&cm_ipc_lock);
	for (size_t i = cm_ipc.nexports; cm_ipc.file && cm_ipc.pid == getpid() && i-- > 0;) {
		if (cm_ipc.exports[i].heap != h)
			continue;
		cm_ipc_slot *s = &cm_ipc.file->slots[cm_ipc.exports[i].slot];
		if (!cm_ipc.exports[i].held)
			atomic_fetch_add(&s->gen, 1); /* even: withdrawn */
		cm_ipc_drop_export(i);
	}
	pthread_mutex_unlock(&cm_ipc_lock);
}

cm_status cm_ipc_export(cm_heap *h, uintptr_t p, const uint8_t segment_handle[CM_IPC_HANDLE_BYTES],
			uintptr_t segment, uint8_t token[CM_IPC_HANDLE_BYTES])
{
	cm_ptr_info info;
	cm_ipc_release_closed(h);
	cm_pointer_info(h, p, &info);
	if (!info.base || info.base < segment)
		return CM_ERR_INVALID;
	cm_status st = CM_OK;
	pthread_mutex_lock(&cm_ipc_lock);
	cm_ipc_file *f = cm_ipc_registry();
	ptrdiff_t at = f ? cm_ipc_export_at(h, info.base) : -1;
	uint32_t slot = f && at < 0 ? cm_ipc_free_slot(f) : UINT32_MAX;
	if (!f) {
		st = CM_ERR_UNSUPPORTED;
	} else if (at < 0 && (slot == UINT32_MAX ||
			      !cm_ipc_room((void **)&cm_ipc.exports, cm_ipc.nexports,
					   &cm_ipc.cap_exports, sizeof(cm_ipc_shared)))) {
		st = CM_ERR_OOM;
	} else if (at < 0) {
		cm_ipc_slot *s = &f->slots[slot];
		memcpy(s->handle, segment_handle, CM_IPC_HANDLE_BYTES);
		s->offset = info.base - segment;
		s->size = info.requested; /* what the range queries answer, as for the cache's own */
		atomic_fetch_add(&s->gen, 1); /* odd: published, after the fields */
		cm_ipc.taken[slot] = 1;
		atomic_fetch_add(cm_ipc_filter_of(info.base), 1); /* before the token is out */
		at = (ptrdiff_t)cm_ipc.nexports++;
		cm_ipc.exports[at] = (cm_ipc_shared){ .heap = h, .addr = info.base, .slot = slot };
		atomic_fetch_add_explicit(&cm_ipc_exports, 1, memory_order_relaxed);
		atomic_store_explicit(&h->ipc_forget, cm_ipc_forget, memory_order_release);
	}
	if (st == CM_OK)
		cm_ipc_token_of(&cm_ipc.exports[at], token);
	pthread_mutex_unlock(&cm_ipc_lock);
	if (st == CM_ERR_OOM)
		fprintf(stderr, "cachemalloc: IPC: %u blocks are shared already; free one to share "
			"another\n", CM_IPC_SLOTS);
	return st;
}

/* Whether the free of p is held, or refused as a second free (else
 * CM_ERR_NOT_OURS: free it); cm_ipc_lock held. */
static cm_status cm_ipc_withdraw(cm_heap *h, uintptr_t p)
{
	ptrdiff_t i = cm_ipc.file && cm_ipc.pid == getpid() ? cm_ipc_export_at(h, p) : -1;
	if (i < 0)
		return CM_ERR_NOT_OURS;
	cm_ipc_shared *e = &cm_ipc.exports[i];
	if (e->held)
		return CM_ERR_INVALID;
	cm_ipc_slot *s = &cm_ipc.file->slots[e->slot];
	atomic_fetch_add(&s->gen, 1); /* even: no new open succeeds */
	cm_ipc_reap_dead(s);
	if (atomic_load(&s->opens) == 0) {
		cm_ipc_drop_export((size_t)i);
		return CM_ERR_NOT_OURS;
	}
	e->held = true;
	atomic_fetch_add(&cm_ipc_nheld, 1);
	atomic_store_explicit(&h->ipc_release_closed, cm_ipc_release_after_close,
			      memory_order_release);
	return CM_OK;
}

cm_status cm_ipc_free(cm_heap *h, uintptr_t p, bool async, cm_stream s)
{
	cm_ipc_release_closed(h);
	cm_status st = CM_ERR_NOT_OURS;
	if (atomic_load_explicit(cm_ipc_filter_of(p), memory_order_acquire)) {
		pthread_mutex_lock(&cm_ipc_lock);
		st = cm_ipc_withdraw(h, p);
		pthread_mutex_unlock(&cm_ipc_lock);
	}
	if (st != CM_ERR_NOT_OURS)
		return st;
	return async ? cm_free_async(h, p, s) : cm_free(h, p);
}

/* ---- the importer ------------------------------------------------------ */

/* The registry of the token's exporter, mapped once (cm_ipc_lock held). */
static cm_ipc_file *cm_ipc_peer_file(const cm_ipc_token *t)
{
	for (size_t i = 0; i < cm_ipc.npeers; i++)
		if (cm_ipc.peers[i].pid == t->pid && cm_ipc.peers[i].start == t->start)
			return cm_ipc.peers[i].file;
	char path[96];
	cm_ipc_registry_path(path, t->pid, t->start);
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	void *m = MAP_FAILED;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size == (off_t)sizeof(cm_ipc_file))
		m = mmap(NULL, sizeof(cm_ipc_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	if (m == MAP_FAILED)
		return NULL; /* the exporter is gone */
	cm_ipc_file *f = m;
	if (f->magic != CM_IPC_FILE_MAGIC || f->nslots != CM_IPC_SLOTS ||
	    !cm_ipc_room((void **)&cm_ipc.peers, cm_ipc.npeers, &cm_ipc.cap_peers,
			 sizeof(cm_ipc_peer))) {
		munmap(m, sizeof(cm_ipc_file));
		return NULL;
	}
	cm_ipc.peers[cm_ipc.npeers++] = (cm_ipc_peer){ .pid = t->pid, .start = t->start, .file = f };
	return f;
}

bool cm_ipc_import_begin(const uint8_t handle[CM_IPC_HANDLE_BYTES], cm_ipc_import *imp)
{
	cm_ipc_token t;
	memcpy(&t, handle, sizeof(t));
	if (t.magic != CM_IPC_TOKEN_MAGIC)
		return false;
	memset(imp, 0, sizeof(*imp));
	imp->stale = true;
	pthread_mutex_lock(&cm_ipc_lock);
	cm_ipc_file *f = t.slot < CM_IPC_SLOTS ? cm_ipc_peer_file(&t) : NULL;
	pthread_mutex_unlock(&cm_ipc_lock);
	if (!f)
		return true;
	cm_ipc_slot *s = &f->slots[t.slot];
	atomic_fetch_add(&s->opens, 1);
	if (atomic_load(&s->gen) != t.gen) {
		atomic_fetch_sub(&s->opens, 1); /* freed, or never exported */
		return true;
	}
	pthread_mutex_lock(&cm_ipc_lock);
	cm_ipc_importer_count(s, +1);
	pthread_mutex_unlock(&cm_ipc_lock);
	memcpy(imp->segment_handle, s->handle, CM_IPC_HANDLE_BYTES);
	imp->offset = s->offset;
	imp->size = s->size;
	imp->file = f;
	imp->slot = s;
	imp->stale = false;
	return true;
}

/* The open of ptr already counted here, or NULL (cm_ipc_lock held). */
static cm_ipc_open *cm_ipc_open_at(uintptr_t ptr)
{
	for (size_t i = 0; i < cm_ipc.nopens; i++)
		if (cm_ipc.opens[i].ptr == ptr)
			return &cm_ipc.opens[i];
	return NULL;
}

uintptr_t cm_ipc_import_end(cm_ipc_import *imp, uintptr_t segment_base)
{
	cm_ipc_slot *s = imp->slot;
	if (!s)
		return 0;
	uintptr_t ptr = segment_base ? segment_base + imp->offset : 0;
	pthread_mutex_lock(&cm_ipc_lock);
	cm_ipc_open *o = ptr ? cm_ipc_open_at(ptr) : NULL;
	if (o) {
		o->count++;
	} else if (ptr && cm_ipc_room((void **)&cm_ipc.opens, cm_ipc.nopens, &cm_ipc.cap_opens,
				      sizeof(cm_ipc_open))) {
		cm_ipc.opens[cm_ipc.nopens++] = (cm_ipc_open){ .ptr = ptr, .base = segment_base,
							       .size = imp->size, .file = imp->file,
							       .slot = s, .count = 1 };
		atomic_store(&cm_ipc_nimported, cm_ipc.nopens);
	} else {
		ptr = 0;
	}
	if (!ptr) /* CUDA refused it, or no room */
		cm_ipc_importer_count(s, -1);
	pthread_mutex_unlock(&cm_ipc_lock);
	if (!ptr)
		atomic_fetch_sub(&s->opens, 1);
	return ptr;
}

bool cm_ipc_close(uintptr_t p, uintptr_t *segment_base)
{
	pthread_mutex_lock(&cm_ipc_lock);
	cm_ipc_open *o = cm_ipc_open_at(p);
	cm_ipc_slot *s = o ? o->slot : NULL;
	cm_ipc_file *f = o ? o->file : NULL;
	if (o) {
		*segment_base = o->base;
		if (--o->count == 0)
			*o = cm_ipc.opens[--cm_ipc.nopens];
		atomic_store(&cm_ipc_nimported, cm_ipc.nopens);
		cm_ipc_importer_count(s, -1);
	}
	pthread_mutex_unlock(&cm_ipc_lock);
	if (s) {
		atomic_fetch_sub(&s->opens, 1);
		atomic_fetch_add(&f->closes, 1); /* after: the exporter's look finds it closed */
	}
	return s != NULL;
}

bool cm_ipc_imported(uintptr_t p, uintptr_t *block, size_t *size)
{
	if (atomic_load_explicit(&cm_ipc_nimported, memory_order_relaxed) == 0)
		return false;
	bool found = false;
	pthread_mutex_lock(&cm_ipc_lock);
	for (size_t i = 0; i < cm_ipc.nopens && !found; i++) {
		const cm_ipc_open *o = &cm_ipc.opens[i];
		if (p >= o->ptr && p - o->ptr < o->size) {
			*block = o->ptr;
			*size = o->size;
			found = true;
		}
	}
	pthread_mutex_unlock(&cm_ipc_lock);
	return found;
}
