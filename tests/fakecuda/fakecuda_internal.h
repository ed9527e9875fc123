/* tests/fakecuda/fakecuda_internal.h - the fake CUDA runtime's shared state.
 *
 * The fake runtime is libcudart.so.13 built on the simulated device (sim/):
 * compiled against NVIDIA's cuda_runtime_api.h so every exported signature is
 * the real one, exported with the real symbol version, so that programs and
 * the interposer see it exactly as NVIDIA's library. One process-global sim
 * is created at the first call (pthread_once).
 *
 * Files:
 * - fakecuda.c: initialization, the per-thread error and device state, error
 *   strings, device management, versions, and the deferred-free worker that
 *   gives cudaFreeAsync'd memory back in stream order;
 * - fakecuda_mem.c: the allocation table and every allocation API, memory
 *   info, pointer attributes, IPC handles, device reset;
 * - fakecuda_stream.c: streams, events, graph capture, stream work (memcpy,
 *   memset, host functions), synchronization, and the _ptsz / _ptds entry
 *   points.
 *
 * Memory model: a device pointer is a host address inside the sim's region.
 * The sim is created with four times the configured capacity as address
 * space and the fake enforces the configured capacity itself (fk.used), so
 * that, as on a GPU, freed memory can be reused for larger allocations
 * without being contiguous: a GPU's virtual address space is much larger
 * than its memory.
 *
 * Locking: fk.lock guards the allocation table, the usage counters, the
 * stream and event tables, the captures and the graphs. It is a leaf lock
 * with respect to the sim: the fake never calls into the sim while holding
 * it, except sim_set_capturing, which takes no lock the sim's workers hold.
 * The deferred-free queue has its own lock (fk.rlock), also a leaf.
 */
#ifndef FAKECUDA_INTERNAL_H
#define FAKECUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/* Exported entry points: the project builds with -fvisibility=hidden and the
 * version script picks cuda* among the default-visibility symbols. */
#define FK_API __attribute__((visibility("default")))

#define FK_MAX_DEVICES 64
#define FK_GRAN ((size_t)2 << 20)  /* the sim's large-allocation alignment */
#define FK_QUANTUM ((size_t)512)   /* the sim's small-allocation alignment */

typedef enum fk_kind {
	FK_DEVICE,  /* cudaMalloc, cudaMallocPitch */
	FK_MANAGED, /* cudaMallocManaged */
	FK_ASYNC,   /* cudaMallocAsync */
	FK_HOST,    /* cudaMallocHost: plain host memory */
} fk_kind;

typedef struct fk_alloc {
	uintptr_t ptr;
	size_t size;    /* as requested */
	size_t charge;  /* counted against the device's capacity; 0 for host */
	int dev;
	fk_kind kind;
	uint64_t cap_id; /* cudaMallocAsync during a capture: that capture */
} fk_alloc;

typedef enum fk_skind { FK_S_LEGACY, FK_S_PT, FK_S_USER } fk_skind;

/* A resolved stream argument. */
typedef struct fk_sref {
	int dev;
	cm_stream h;      /* the sim's handle: 0, CM_STREAM_PER_THREAD or a user one */
	fk_skind kind;
	bool nonblocking; /* user streams only */
	uint64_t owner;   /* per-thread streams: the owning thread */
} fk_sref;

/* A stream that joined a capture by waiting on one of its events (a fork).
 * ops counts what was captured on it since; joined_at is the most of that
 * the capture's other streams have waited for. The fork is joined back when
 * joined_at == ops. */
typedef struct fk_join {
	fk_sref ref;
	uint64_t ops, joined_at;
} fk_join;

typedef struct fk_capture {
	struct fk_capture *next;
	uint64_t id;
	fk_sref origin;
	enum cudaStreamCaptureMode mode;
	uint64_t tid; /* the thread that began it */
	bool invalidated;
	fk_join *joined;
	size_t njoined, joined_cap;
} fk_capture;

typedef struct fk_stream_info {
	bool live;
	int dev;
	bool nonblocking;
	unsigned flags;
	int priority;
} fk_stream_info;

typedef struct fk_event_info {
	cm_event h;
	bool live;
	int dev;
	unsigned flags;
	uint64_t cap_id; /* last recorded inside this capture; 0: outside */
	fk_sref rec;     /* inside a capture: the stream it was recorded on */
	uint64_t rec_ops; /* and that stream's fk_join.ops then (0: the origin) */
} fk_event_info;

typedef struct fk_pending {
	struct fk_pending *next;
	uintptr_t ptr;
	int dev;
	size_t charge;
	cm_event ev; /* the free's point in its stream; NULL: none */
} fk_pending;

typedef struct fk_graph {
	struct fk_graph *next;
	uint64_t cap_id;
} fk_graph;

struct fk {
	sim *s;
	const cm_backend *be;
	int ndev;
	size_t limit; /* bytes per device */
	bool reenter; /* FAKECUDA_REENTER=1 */

	pthread_mutex_t lock;
	fk_alloc *allocs; /* sorted by ptr */
	size_t nallocs, allocs_cap;
	size_t used[FK_MAX_DEVICES];
	fk_stream_info *streams; /* indexed by (sim handle >> 4) - 1 */
	size_t nstreams;
	fk_event_info *events; /* indexed by (sim handle & 0xffffffff) - 1 */
	size_t nevents;
	fk_capture *caps;
	atomic_int ncaps; /* read without the lock: 0 means no capture anywhere */
	uint64_t next_cap_id;
	fk_graph *graphs;

	/* Deferred frees (cudaFreeAsync), in FIFO order. */
	pthread_mutex_t rlock;
	pthread_cond_t rwork, rdone;
	fk_pending *rhead, *rtail;
	uint64_t rqueued, rfinished;
	bool rstarted;
	pthread_t rthread;
};

extern struct fk fk;

/* fakecuda.c */
cudaError_t fk_init(void);               /* cudaSuccess once the sim exists */
cudaError_t fk_ret(cudaError_t e);       /* records e as the thread's last error */
int fk_cur_dev(void);
uint64_t fk_thread_id(void);
cudaError_t fk_status(cm_status st, cudaError_t invalid);
void fk_defer_free(int dev, uintptr_t ptr, size_t charge, cm_event ev);
bool fk_frees_pending(void);
void fk_drain_frees(void);

/* fakecuda_mem.c */
/* Looks up the allocation holding [p, p + n) (n = 0 counts as 1 byte).
 * Returns 1 and copies it, 0 if p is in none, -1 if p is in one but the
 * range runs past its end. */
int fk_lookup_range(const void *p, size_t n, fk_alloc *out);
void fk_mem_reset_dev(int dev);

/* fakecuda_stream.c */
cudaError_t fk_stream_resolve(cudaStream_t s, bool ptsz, fk_sref *out);
/* Before enqueuing work on r: an error, or cudaSuccess with *cap_id set to
 * the capture that records the work instead (0: run it). */
cudaError_t fk_stream_use(const fk_sref *r, uint64_t *cap_id);
/* Before a call that a capture in global or thread-local mode prohibits
 * (allocation, free, host synchronization with a stream or event). */
cudaError_t fk_unsafe_check(void);
/* Before cudaDeviceSynchronize, prohibited while any stream of the device
 * captures (whatever the mode). */
cudaError_t fk_device_sync_check(int dev);
/* Invalidates the capture with that id, if still active. */
void fk_capture_invalidate(uint64_t cap_id);
/* Waits on the host until the work enqueued so far on r has completed. */
cudaError_t fk_wait_point(const fk_sref *r);
void fk_streams_reset_dev(int dev);

#endif
