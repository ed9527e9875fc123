/* core/serve/share.c - the registry of a device's processes and cooperative
 * release (share.h; docs/design.md, "Sharing a device").
 *
 * Locks: a device's lock, then cm_share_lock (a leaf, taken only to set
 * up a device's registry). The listener takes its device's lock to give
 * memory back, never another. The registry itself has no lock: slots are
 * claimed with a compare-and-swap of their pid, numbers are atomics.
 *
 * Fork: a child inherits the mapping but not the listener; every entry
 * point checks that the calling process is the one that joined (the
 * library also turns itself off in a child).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"
#include "share.h"

/* heap.c's, stored by every heap's creation (always the same table) and
 * read by the listeners of the heaps made before. */
static const cm_share_calls *_Atomic cm_share_calls_up;

void cm_share_heap_init(const cm_share_calls *calls)
{
	atomic_store_explicit(&cm_share_calls_up, calls, memory_order_release);
}

static const cm_share_calls *cm_share_up(void)
{
	return atomic_load_explicit(&cm_share_calls_up, memory_order_acquire);
}

/* One device of the heap in its registry. */
typedef struct cm_share_dev {
	cm_device *d;
	bool tried;             /* joining was tried (once: a failure is not retried) */
	cm_share_file *file;    /* NULL: not in a registry */
	char path[96];          /* the registry file */
	cm_share_slot *slot;
	pthread_t listener;
	bool listening;
	_Atomic bool stop;
	_Atomic bool done;      /* the listener returned */
	uint32_t trim_seen, publish_seen;
	uint64_t idle_allocs;   /* allocations counted at the last idle check */
	/* The last ask (for the out-of-memory report). */
	size_t asked_bytes, asked_procs, got_bytes;
	uint64_t waited_ns;
} cm_share_dev;

struct cm_share {
	pid_t pid; /* the process that joined: a fork child is not it */
	int ndev;
	struct cm_share *next; /* cm_share_all, under cm_share_lock */
	cm_share_dev devs[];
};

static pthread_mutex_t cm_share_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cm_share *cm_share_all; /* every heap's, for the exit handler */
static bool cm_share_exit_set;

static void cm_share_leave(struct cm_share *sh, bool join);

/* At exit the listeners stop before the driver unloads (the library never
 * destroys its heap), and the slots are freed for `cachemalloc top`. */
static void cm_share_at_exit(void)
{
	pthread_mutex_lock(&cm_share_lock);
	for (struct cm_share *sh = cm_share_all; sh; sh = sh->next)
		cm_share_leave(sh, false);
	pthread_mutex_unlock(&cm_share_lock);
}

static uint64_t cm_share_now(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long cm_futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
	/* Not FUTEX_PRIVATE: the word is in memory other processes map. */
	return syscall(SYS_futex, (uint32_t *)word, op, val, timeout, NULL, 0);
}

static void cm_futex_wake_all(_Atomic uint32_t *word)
{
	atomic_fetch_add(word, 1);
	cm_futex(word, FUTEX_WAKE, INT_MAX, NULL);
}

/* A slot whose process is gone (or whose pid now names another). */
static bool cm_share_slot_dead(const cm_share_slot *s, int pid)
{
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return true;
	uint64_t start = cm_proc_start_time(pid);
	return start && s->start && start != s->start;
}

/* Frees the slot of a dead process (its memory went with it). */
static void cm_share_reclaim(cm_share_slot *s, int32_t pid)
{
	if (!atomic_compare_exchange_strong(&s->pid, &pid, -1))
		return;
	atomic_store(&s->listener, 0);
	atomic_store(&s->reserved, 0);
	atomic_store(&s->allocated, 0);
	atomic_store(&s->idle, 0);
	atomic_store(&s->pid, 0);
}

static cm_share_file *cm_share_map(const uint8_t uuid[16], char path[96])
{
	int n = snprintf(path, 96, "/dev/shm/cachemalloc-%u-", (unsigned)getuid());
	for (int i = 0; i < 16; i++)
		n += snprintf(path + n, 96 - (size_t)n, "%02x", uuid[i]);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return NULL;
	struct stat st;
	/* The user's own file, private: another user's is never joined. */
	if (fstat(fd, &st) != 0 || st.st_uid != getuid() || (st.st_mode & 077) ||
	    (st.st_size < (off_t)sizeof(cm_share_file) &&
	     ftruncate(fd, sizeof(cm_share_file)) != 0)) {
		close(fd);
		return NULL;
	}
	void *m = mmap(NULL, sizeof(cm_share_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	cm_share_file *f = m;
	uint64_t zero = 0;
	if (atomic_compare_exchange_strong(&f->magic, &zero, CM_SHARE_MAGIC)) {
		f->version = CM_SHARE_VERSION;
		f->nslots = CM_SHARE_SLOTS;
	}
	if (atomic_load(&f->magic) != CM_SHARE_MAGIC || f->version != CM_SHARE_VERSION) {
		munmap(m, sizeof(cm_share_file));
		return NULL; /* another version's file: not shared with it */
	}
	return f;
}

/* This program image: a slot of our pid with another image was claimed
 * before an exec (same pid, same start time) and is nobody's now. */
static uint64_t cm_share_image_value;
static pthread_once_t cm_share_image_once = PTHREAD_ONCE_INIT;

static void cm_share_image_init(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	cm_share_image_value = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
			       ((uint64_t)(uintptr_t)&cm_share_image_value << 16) ^ 1;
}

static uint64_t cm_share_image(void)
{
	pthread_once(&cm_share_image_once, cm_share_image_init);
	return cm_share_image_value;
}

static cm_share_slot *cm_share_claim(cm_share_file *f, int ordinal)
{
	int32_t me = (int32_t)getpid();
	for (int i = 0; i < CM_SHARE_SLOTS; i++) {
		cm_share_slot *s = &f->slots[i];
		int32_t pid = atomic_load(&s->pid);
		if (pid > 0 && (pid == me ? s->image != cm_share_image() : cm_share_slot_dead(s, pid)))
			cm_share_reclaim(s, pid);
		int32_t free_pid = 0;
		if (!atomic_compare_exchange_strong(&s->pid, &free_pid, -1))
			continue;
		s->start = cm_proc_start_time(me);
		s->image = cm_share_image();
		s->device = (uint32_t)ordinal;
		memset(s->command, 0, sizeof s->command);
		strncpy(s->command, program_invocation_short_name, sizeof s->command - 1);
		atomic_store(&s->given_back, 0);
		atomic_store(&s->received, 0);
		atomic_store(&s->ooms, 0);
		atomic_store(&s->asks, 0);
		s->trim_seq = 0;
		s->publish_seq = 0;
		atomic_store(&s->pid, me);
		return s;
	}
	return NULL;
}

/* ---- publishing ---- */

/* The device's numbers into its slot; d's lock held. */
static void cm_share_publish_locked(cm_share_dev *sd)
{
	cm_device *d = sd->d;
	cm_share_slot *s = sd->slot;
	const cm_stats *st = &d->stats;
	atomic_store_explicit(&s->reserved, st->reserved_bytes, memory_order_relaxed);
	atomic_store_explicit(&s->allocated, st->allocated_bytes, memory_order_relaxed);
	atomic_store_explicit(&s->idle, st->reserved_bytes - st->allocated_bytes, memory_order_relaxed);
	atomic_store_explicit(&s->peak, st->peak_reserved_bytes, memory_order_relaxed);
	atomic_store_explicit(&s->ooms, st->oom_count, memory_order_relaxed);
	atomic_store_explicit(&s->published_ns, cm_share_now(CLOCK_REALTIME), memory_order_release);
}

/* The same with what the per-thread caches counted (hits, allocations):
 * the listener's, without d's lock. */
static void cm_share_publish(cm_share_dev *sd)
{
	cm_stats st;
	cm_share_up()->stats(sd->d->heap, sd->d->index, &st);
	atomic_store_explicit(&sd->slot->hits, st.cache_hits, memory_order_relaxed);
	atomic_store_explicit(&sd->slot->allocs, st.alloc_calls, memory_order_relaxed);
	pthread_mutex_lock(&sd->d->lock);
	cm_share_publish_locked(sd);
	pthread_mutex_unlock(&sd->d->lock);
}

/* ---- the listener ---- */

/* Gives back idle memory (whole idle segments, oldest first, free
 * expandable tails, kept chunks) up to want bytes: what the out-of-memory
 * ladder and cudaMemPoolTrimTo release, never memory a stream may still
 * use (release.c). The parked blocks of every thread go back to the pools
 * first, as on the ladder. Returns the bytes given back. */
static size_t cm_share_give(cm_share_dev *sd, size_t want)
{
	cm_device *d = sd->d;
	pthread_mutex_lock(&d->lock);
	cm_share_up()->take_back_parked(d);
	size_t freed = cm_giveback_retry(d) + cm_stitch_release(d);
	if (freed < want)
		freed += cm_release_idle_oldest(d, want - freed);
	cm_share_publish_locked(sd);
	pthread_mutex_unlock(&d->lock);
	if (freed) {
		atomic_fetch_add(&sd->slot->given_back, freed);
		cm_futex_wake_all(&sd->file->released);
	}
	return freed;
}

/* Takes up to n from the bytes requesters still lack. */
static void cm_share_wanted_sub(cm_share_file *f, uint64_t n)
{
	uint64_t cur = atomic_load(&f->wanted);
	while (!atomic_compare_exchange_weak(&f->wanted, &cur, cur > n ? cur - n : 0))
		;
}

/* The total allocations the device served (hits of the per-thread caches
 * included): unchanged over idle_release_s means no allocation. */
static uint64_t cm_share_alloc_count(cm_share_dev *sd)
{
	cm_stats st;
	cm_share_up()->stats(sd->d->heap, sd->d->index, &st);
	return st.alloc_calls + st.cache_hits;
}

static void *cm_share_listen(void *arg)
{
	cm_share_dev *sd = arg;
	pthread_setname_np(pthread_self(), "cm-share"); /* for top -H and the tests */
	cm_share_slot *s = sd->slot;
	const cm_config *cfg = &sd->d->heap->cfg;
	unsigned idle_s = cfg->idle_release_s;
	uint64_t idle_since = cm_share_now(CLOCK_MONOTONIC);
	sd->idle_allocs = cm_share_alloc_count(sd);
	while (!atomic_load(&sd->stop)) {
		uint32_t seen = atomic_load(&s->wake);
		uint32_t asks = atomic_exchange(&s->asks, 0);
		uint32_t trim = atomic_load(&s->trim_seq), publish = atomic_load(&s->publish_seq);
		bool acted = false;
		if (asks & CM_SHARE_ASK_GIVE) {
			uint64_t want = atomic_load(&sd->file->wanted);
			if (want) {
				size_t freed = cm_share_give(sd, want);
				cm_share_wanted_sub(sd->file, freed);
			}
			acted = true;
		}
		if (trim != sd->trim_seen) {
			sd->trim_seen = trim;
			cm_share_give(sd, SIZE_MAX);
			acted = true;
		}
		if (publish != sd->publish_seen || acted) {
			sd->publish_seen = publish;
			cm_share_publish(sd);
			continue; /* look again before sleeping */
		}
		struct timespec ts, *timeout = NULL;
		if (idle_s) {
			/* idle_release_s: no allocation since idle_since, that
			 * long ago: the idle memory goes back. Checked at every
			 * wake-up, so that `top` asking often delays nothing. */
			uint64_t idle_ns = (uint64_t)idle_s * 1000000000u;
			uint64_t count = cm_share_alloc_count(sd), now = cm_share_now(CLOCK_MONOTONIC);
			if (count != sd->idle_allocs) {
				sd->idle_allocs = count;
				idle_since = now;
			} else if (now - idle_since >= idle_ns) {
				cm_share_give(sd, SIZE_MAX);
				cm_share_publish(sd);
				idle_since = now;
			}
			uint64_t left = idle_since + idle_ns - now;
			ts = (struct timespec){.tv_sec = (time_t)(left / 1000000000u),
					       .tv_nsec = (long)(left % 1000000000u)};
			timeout = &ts;
		}
		cm_futex(&s->wake, FUTEX_WAIT, seen, timeout);
	}
	atomic_store(&sd->done, true);
	return NULL;
}

/* ---- joining ---- */

static cm_share_dev *cm_share_dev_of(cm_device *d, bool create)
{
	cm_heap *h = d->heap;
	struct cm_share *sh = atomic_load_explicit((_Atomic(struct cm_share *) *)&h->share,
						   memory_order_acquire);
	if (!sh && create) {
		pthread_mutex_lock(&cm_share_lock);
		sh = h->share;
		if (!sh) {
			sh = calloc(1, sizeof(*sh) + (size_t)h->ndev * sizeof(cm_share_dev));
			if (sh) {
				sh->pid = getpid();
				sh->ndev = h->ndev;
				for (int i = 0; i < h->ndev; i++)
					sh->devs[i].d = &h->devs[i];
				sh->next = cm_share_all;
				cm_share_all = sh;
				if (!cm_share_exit_set)
					cm_share_exit_set = atexit(cm_share_at_exit) == 0;
				atomic_store_explicit((_Atomic(struct cm_share *) *)&h->share, sh,
						      memory_order_release);
			}
		}
		pthread_mutex_unlock(&cm_share_lock);
	}
	if (!sh || sh->pid != getpid())
		return NULL; /* not joined, or a fork child */
	return &sh->devs[d->index];
}

static void cm_share_join(cm_share_dev *sd)
{
	cm_device *d = sd->d;
	const cm_backend *be = d->heap->be;
	uint8_t uuid[16];
	sd->tried = true;
	if (!be->device_uuid || be->device_uuid(be->ctx, d->index, uuid) != CM_OK)
		return;
	cm_share_file *f = cm_share_map(uuid, sd->path);
	if (!f)
		return;
	cm_share_slot *s = cm_share_claim(f, cm_device_ordinal(d->heap, d->index));
	if (!s) {
		munmap(f, sizeof(*f));
		return;
	}
	sd->file = f;
	sd->slot = s;
	/* The listener takes none of the program's signals. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	sd->listening = pthread_create(&sd->listener, NULL, cm_share_listen, sd) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	atomic_store(&s->listener, sd->listening ? 1 : 0);
}

/* The device's registry entry, joined on the first call (d's lock held);
 * NULL: share:off, no UUID, no file, a fork child. */
static cm_share_dev *cm_share_joined(cm_device *d)
{
	if (!d->heap->cfg.share)
		return NULL;
	cm_share_dev *sd = cm_share_dev_of(d, true);
	if (sd && !sd->tried)
		cm_share_join(sd);
	return sd && sd->slot ? sd : NULL;
}

void cm_share_grew(cm_device *d)
{
	cm_share_dev *sd = cm_share_joined(d);
	if (!sd)
		return;
	atomic_store_explicit(&sd->slot->last_alloc_ns, cm_share_now(CLOCK_REALTIME),
			      memory_order_relaxed);
	cm_share_publish_locked(sd);
}

/* What the live neighbours with a listener hold reserved, as published:
 * at most what they could give. Every growth is published, so the figure
 * is never below what they hold (a release elsewhere may leave it above). */
static size_t cm_share_neighbours_reserved(cm_share_dev *sd)
{
	int32_t me = (int32_t)getpid();
	size_t reserved = 0;
	for (int i = 0; i < CM_SHARE_SLOTS; i++) {
		cm_share_slot *s = &sd->file->slots[i];
		int32_t pid = atomic_load(&s->pid);
		if (pid > 0 && pid != me && atomic_load(&s->listener) && !cm_share_slot_dead(s, pid))
			reserved += atomic_load_explicit(&s->reserved, memory_order_relaxed);
	}
	return reserved;
}

bool cm_share_may_help(cm_device *d, size_t size)
{
	cm_share_dev *sd = cm_share_joined(d);
	size_t theirs = sd ? cm_share_neighbours_reserved(sd) : 0;
	if (!theirs)
		return false; /* alone on the device (or they hold nothing): refused at once */
	const cm_backend *be = d->heap->be;
	size_t free_bytes = 0, total = 0;
	if (be->mem_get_info(be->ctx, d->index, &free_bytes, &total) != CM_OK)
		return true;
	size_t mine = d->stats.reserved_bytes - d->stats.allocated_bytes;
	size_t room = free_bytes + mine; /* no overflow: both within the device */
	return size <= total && (size <= room || size - room <= theirs);
}

/* ---- asking ---- */

/* Asks every live neighbour with a listener; returns how many. Slots of
 * dead processes are reclaimed on the way. */
static size_t cm_share_ask_all(cm_share_dev *sd)
{
	size_t asked = 0;
	int32_t me = (int32_t)getpid();
	for (int i = 0; i < CM_SHARE_SLOTS; i++) {
		cm_share_slot *s = &sd->file->slots[i];
		int32_t pid = atomic_load(&s->pid);
		if (pid <= 0 || pid == me || !atomic_load(&s->listener))
			continue;
		if (cm_share_slot_dead(s, pid)) {
			cm_share_reclaim(s, pid);
			continue;
		}
		atomic_fetch_or(&s->asks, CM_SHARE_ASK_GIVE);
		cm_futex_wake_all(&s->wake);
		asked++;
	}
	return asked;
}

static size_t cm_share_device_free(cm_device *d)
{
	const cm_backend *be = d->heap->be;
	size_t free_bytes = 0, total = 0;
	return be->mem_get_info(be->ctx, d->index, &free_bytes, &total) == CM_OK ? free_bytes : 0;
}

/* Adds what a growth of grow bytes lacks now to the bytes the file's
 * neighbours are asked for (and to *wanted, taken back at the end). */
static size_t cm_share_want(cm_share_dev *sd, size_t grow, size_t *wanted)
{
	size_t free_now = cm_share_device_free(sd->d);
	size_t lack = grow > free_now ? grow - free_now : grow;
	lack += lack / 64; /* the driver's own share of what is given back */
	atomic_fetch_add(&sd->file->wanted, lack);
	*wanted += lack;
	return lack;
}

cm_block *cm_share_ask(cm_device *d, cm_pool *pool, cm_request *rq, cm_share_retry_fn retry)
{
	cm_share_dev *sd = cm_share_joined(d);
	if (!sd)
		return NULL;
	/* The least segment: the retry takes it where 20 MiB cannot be had. */
	size_t grow = d->expandable ? rq->size : cm_size_least_segment(rq->size);
	size_t free0 = cm_share_device_free(d);
	uint64_t t0 = cm_share_now(CLOCK_MONOTONIC);
	uint64_t deadline = t0 + (uint64_t)d->heap->cfg.share_wait_ms * 1000000u;
	size_t wanted = 0; /* what this request added to the file's wanted */
	sd->asked_bytes = cm_share_want(sd, grow, &wanted);
	sd->got_bytes = 0;
	sd->asked_procs = cm_share_ask_all(sd);
	cm_block *b = NULL;
	if (sd->asked_procs) {
		/* The neighbours' listeners answer within microseconds; their
		 * cuMemFree takes what it takes. d's lock is dropped meanwhile:
		 * the program's other threads, and this process's own listener
		 * (asked by a neighbour that ran out at the same time), go on. */
		for (;;) {
			uint32_t seen = atomic_load(&sd->file->released);
			if ((b = retry(d, pool, rq)))
				break;
			uint64_t now = cm_share_now(CLOCK_MONOTONIC);
			if (now >= deadline)
				break;
			uint64_t left = deadline - now, step = 20000000u; /* 20 ms: polls the device too */
			if (left < step)
				step = left;
			struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)step};
			pthread_mutex_unlock(&d->lock);
			if (cm_futex(&sd->file->released, FUTEX_WAIT, seen, &ts) != 0 &&
			    errno == ETIMEDOUT) {
				/* Again: a neighbour may have freed since, or what was
				 * given back went to another process. */
				cm_share_want(sd, grow, &wanted);
				cm_share_ask_all(sd);
			}
			pthread_mutex_lock(&d->lock);
		}
	}
	cm_share_wanted_sub(sd->file, wanted);
	size_t free1 = cm_share_device_free(d);
	sd->got_bytes = b ? grow : (free1 > free0 ? free1 - free0 : 0);
	sd->waited_ns = cm_share_now(CLOCK_MONOTONIC) - t0;
	if (b)
		atomic_fetch_add(&sd->slot->received, sd->got_bytes);
	else /* told by the out-of-memory report (report.c), as data */
		rq->neighbours = (typeof(rq->neighbours)){sd->asked_procs, sd->asked_bytes, sd->got_bytes,
							   sd->waited_ns};
	return b;
}

/* Stops the listeners and frees the slots (the owner process only: a
 * fork child's exit leaves its parent's alone); the registry file goes
 * when no process is left in it. */
static void cm_share_leave(struct cm_share *sh, bool join)
{
	if (sh->pid != getpid())
		return;
	for (int i = 0; i < sh->ndev; i++) {
		cm_share_dev *sd = &sh->devs[i];
		if (sd->listening) {
			atomic_store(&sd->stop, true);
			cm_futex_wake_all(&sd->slot->wake);
			if (join) {
				pthread_join(sd->listener, NULL);
			} else {
				/* At exit another thread may hold the device lock for
				 * good: wait for the listener a little, never forever. */
				for (int ms = 0; ms < 200 && !atomic_load(&sd->done); ms++)
					nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
				pthread_detach(sd->listener);
			}
			sd->listening = false;
			if (!atomic_load(&sd->done))
				continue; /* still running: its slot and mapping stay */
		}
		if (!sd->slot)
			continue;
		atomic_store(&sd->slot->listener, 0);
		atomic_store(&sd->slot->pid, 0);
		bool empty = true;
		for (int j = 0; j < CM_SHARE_SLOTS && empty; j++)
			empty = atomic_load(&sd->file->slots[j].pid) == 0;
		/* A process joining right now keeps a file nobody else finds:
		 * it asks no one until it joins again (docs/design.md). */
		if (empty)
			unlink(sd->path);
		munmap(sd->file, sizeof(*sd->file));
		sd->file = NULL;
		sd->slot = NULL;
	}
}

void cm_share_heap_fini(cm_heap *h)
{
	struct cm_share *sh = h->share;
	if (!sh)
		return;
	pthread_mutex_lock(&cm_share_lock);
	for (struct cm_share **p = &cm_share_all; *p; p = &(*p)->next)
		if (*p == sh) {
			*p = sh->next;
			break;
		}
	cm_share_leave(sh, true);
	pthread_mutex_unlock(&cm_share_lock);
	h->share = NULL;
	free(sh);
}
