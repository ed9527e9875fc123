/* tests/fakecuda/fakecu_internal.h - the fake CUDA driver's shared state.
 *
 * The fake driver is libcuda.so.1 built on the simulated device (sim/):
 * compiled against NVIDIA's cuda.h (with __CUDA_API_VERSION_INTERNAL, which
 * declares every exported ABI: the _v2 names, the _ptsz / _ptds variants and
 * the old 32-bit ones), so every exported signature is the real one. It owns
 * the one process-global sim, created at cuInit; the fake runtime
 * (libcudart.so.13, fakecudart*.c) reaches it only through the driver, as
 * NVIDIA's runtime does.
 *
 * Files:
 * - fakecu.c: initialization, fork, devices, contexts (primary and created,
 *   the per-thread context stack), versions, error strings, and the
 *   deferred-free worker that gives cuMemFreeAsync'd memory back in stream
 *   order;
 * - fakecu_mem.c: the allocation table and every allocation call, memory
 *   info, address ranges, pointer attributes, IPC handles, context reset,
 *   the VMM calls;
 * - fakecu_stream.c: streams, events, graph capture, stream work (memcpy,
 *   memset, host functions), synchronization;
 * - fakecu_exports.c: the exported ABI variants (_ptsz, _ptds, v1) and the
 *   private export table of the fake runtime;
 * - fakecu_procaddr.c: cuGetProcAddress and its table;
 * - fakecu_peer.c: peer access between devices, peer copies;
 * - fakecu_pool.c: memory pools (each device's default pool, explicit
 *   pools), their attributes and trims.
 *
 * Memory model: a device pointer is a host address inside the sim's region.
 * The sim is created with four times the configured capacity as address
 * space and the fake enforces the configured capacity itself (fk.used), so
 * that, as on a GPU, freed memory can be reused for larger allocations
 * without being contiguous: a GPU's virtual address space is much larger
 * than its memory.
 *
 * Locking: fk.lock guards the allocation table, the usage counters, the
 * stream and event tables, the contexts, the captures and the graphs. It is
 * a leaf lock with respect to the sim: the fake never calls into the sim
 * while holding it, except sim_set_capturing, which takes no lock the sim's
 * workers hold. The deferred-free queue has its own lock (fk.rlock), also a
 * leaf.
 *
 * Fork: a child of a process that initialized the driver finds fk.dead set
 * (a pthread_atfork child handler, which touches no lock): every call then
 * returns CUDA_ERROR_NOT_INITIALIZED, as CUDA's does, before taking a lock
 * that a thread of the parent may have held.
 */
#ifndef FAKECUDA_INTERNAL_H
#define FAKECUDA_INTERNAL_H

#include <cuda.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/* Exported entry points: the project builds with -fvisibility=hidden and the
 * version script (libcuda.map) picks cu* among the default-visibility
 * symbols. */
#define FK_API __attribute__((visibility("default")))

#define FK_MAX_DEVICES 64
#define FK_GRAN ((size_t)2 << 20)  /* the sim's large-allocation alignment */
#define FK_QUANTUM ((size_t)512)   /* the sim's small-allocation alignment */

/* A context: a device's primary context (fk.prim[dev], retained and
 * released, never freed) or one made by cuCtxCreate (freed never either, so
 * that a destroyed handle stays recognizably dead). */
struct CUctx_st {
	int dev;
	bool primary;
	bool live;      /* created: until cuCtxDestroy; primary: while retained */
	bool destroyed; /* created: by cuCtxDestroy; primary: reset, until a
			 * retain re-creates it */
	int refs;       /* primary: retain count */
	unsigned flags;
};

typedef enum fk_kind {
	FK_DEVICE,  /* cuMemAlloc, the runtime's pitched allocations */
	FK_MANAGED, /* cuMemAllocManaged */
	FK_ASYNC,   /* cuMemAllocAsync */
	FK_HOST,    /* cuMemAllocHost: plain host memory */
	FK_IPC,     /* cuIpcOpenMemHandle: another process's allocation, mapped here */
} fk_kind;

typedef struct fk_alloc {
	uintptr_t ptr;
	size_t size;    /* as requested */
	size_t charge;  /* counted against the device's capacity; 0 for host */
	int dev;
	CUcontext ctx;  /* the context it was allocated in */
	fk_kind kind;
	uint64_t cap_id; /* cuMemAllocAsync during a capture: that capture */
	unsigned host_flags; /* FK_HOST: cuMemHostAlloc's flags */
	bool registered;     /* FK_HOST: cuMemHostRegister'ed, not allocated */
	CUmemoryPool pool;   /* FK_ASYNC outside a capture: the pool it came from */
	int ipc_pid;         /* FK_IPC: the exporter, */
	uint64_t ipc_offset; /* ...the allocation in its device file, */
	unsigned ipc_opens;  /* ...and the opens not yet closed */
	bool exported;       /* FK_DEVICE: its IPC handle was taken (fakecu_mem.c) */
} fk_alloc;

/* A memory pool (fakecu_pool.c): a device's default pool (fk.dpool[dev],
 * never freed) or one made by cuMemPoolCreate (freed never either, so that
 * a destroyed handle stays recognizably dead). used: bytes of its
 * allocations not freed (each charged as fk_charge rounds it); reserved:
 * used plus what its frees left it holding, given back at a
 * synchronization above the release threshold or by a trim. */
struct CUmemPoolHandle_st {
	struct CUmemPoolHandle_st *next; /* explicit pools: fk.pools */
	int dev;
	bool dflt; /* the device's default pool */
	bool live; /* explicit: until cuMemPoolDestroy */
	uint64_t used, used_high, reserved, reserved_high, threshold;
	uint64_t unsynced; /* freed since the device's last synchronization: no trim gives it back */
	int reuse[3]; /* the REUSE_* attributes (1 to 3), default enabled */
};

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
	CUstreamCaptureMode mode;
	uint64_t tid; /* the thread that began it */
	bool invalidated;
	fk_join *joined;
	size_t njoined, joined_cap;
} fk_capture;

typedef struct fk_stream_info {
	bool live;
	int dev;
	CUcontext ctx;
	bool nonblocking;
	unsigned flags;
	int priority;
} fk_stream_info;

typedef struct fk_event_info {
	cm_event h;
	bool live;
	int dev;
	CUcontext ctx;
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
	bool exec; /* an executable graph (cuGraphInstantiateWithFlags) */
} fk_graph;

struct fk {
	sim *s;
	const cm_backend *be;
	int ndev;
	size_t limit; /* bytes per device */
	atomic_bool inited; /* cuInit succeeded */
	atomic_bool dead;   /* this process is a fork child of an initialized one */
	struct CUctx_st prim[FK_MAX_DEVICES];
	struct CUmemPoolHandle_st dpool[FK_MAX_DEVICES]; /* default pools */
	struct CUmemPoolHandle_st *pools;                /* explicit pools */

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

	/* VMM physical memory (fakecu_mem.c): vmm[dev] bytes of fk.used[dev]
	 * are the sim's handles not yet released; vlock serializes the VMM
	 * calls that change them (taken before fk.lock, held across the sim). */
	pthread_mutex_t vlock;
	size_t vmm[FK_MAX_DEVICES];

	/* Deferred frees (cudaFreeAsync), in FIFO order. */
	pthread_mutex_t rlock;
	pthread_cond_t rwork, rdone;
	fk_pending *rhead, *rtail;
	uint64_t rqueued, rfinished;
	bool rstarted;
	pthread_t rthread;
};

extern struct fk fk;

/* fakecu.c */
/* CUDA_SUCCESS once cuInit succeeded (and not in a fork child). */
CUresult fk_initialized(void);
/* fk_initialized, then out (where the call writes its answer) given
 * (CUDA_ERROR_INVALID_VALUE) and, for fk_device_arg, dev one of the
 * devices (CUDA_ERROR_INVALID_DEVICE): the driver's order of checks. */
CUresult fk_out_arg(const void *out);
CUresult fk_device_arg(const void *out, CUdevice dev);
bool fk_device_valid(CUdevice dev);
/* fk_initialized, then a current, live context (CUDA_ERROR_INVALID_CONTEXT
 * without one, CUDA_ERROR_CONTEXT_IS_DESTROYED for a reset primary one). */
CUresult fk_begin(void);
CUcontext fk_cur_ctx(void);
int fk_cur_dev(void); /* the current context's device; 0 without one */
uint64_t fk_thread_id(void);
CUresult fk_status(cm_status st, CUresult invalid);
void fk_defer_free(int dev, uintptr_t ptr, size_t charge, cm_event ev);
bool fk_frees_pending(void);
/* fakecu_fault.c: FAKECUDA_FAIL; fk_fail(name): this call fails. */
bool fk_fail(const char *fn);
void fk_program_call(int delta);
unsigned long fk_faults_injected(void);
#define FK_FAIL(fn)                                  \
	do {                                         \
		if (fk_fail(fn))                     \
			return CUDA_ERROR_UNKNOWN;   \
	} while (0)
void fk_drain_frees(void);
/* Destroys everything ctx owns: captures, streams, events, allocations. */
void fk_ctx_reset(CUcontext ctx);
/* cuCtxCreate, whatever its ABI. */
CUresult fk_ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev);

/* fakecu_mem.c */
/* Looks up the allocation holding [p, p + n) (n = 0 counts as 1 byte).
 * Returns 1 and copies it, 0 if p is in none, -1 if p is in one but the
 * range runs past its end. Mapped VMM memory counts as a device allocation
 * of the device whose physical memory is mapped there (ptr and size: the
 * range asked). */
int fk_lookup_range(const void *p, size_t n, fk_alloc *out);
void fk_mem_reset_ctx(CUcontext ctx);
CUresult fk_alloc_kind(size_t n, fk_kind kind, void **out);
CUresult fk_free_host(void *p);

/* fakecu_pool.c */
/* The default pool of dev. */
CUmemoryPool fk_pool_default(int dev);
/* fk.lock held: a live pool handle? */
bool fk_pool_valid_locked(CUmemoryPool p);
/* fk.lock held: an allocation of charge bytes made from p, or freed. */
void fk_pool_charge_locked(CUmemoryPool p, size_t charge);
void fk_pool_uncharge_locked(CUmemoryPool p, size_t charge);
/* A stream, event or context synchronization on dev succeeded: each pool
 * of dev holding more than its release threshold gives the rest back. */
void fk_pools_synced(int dev);
/* dev's primary context was reset: its default pool is a new one. */
void fk_pool_reset_default(int dev);
CUresult fk_malloc_pool(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream stream,
			bool ptsz);

/* fakecu_stream.c */
CUresult fk_stream_resolve(CUstream s, bool ptsz, fk_sref *out);
/* Before enqueuing work on r: an error, or CUDA_SUCCESS with *cap_id set to
 * the capture that records the work instead (0: run it). */
CUresult fk_stream_use(const fk_sref *r, uint64_t *cap_id);
/* Before a call that a capture in global or thread-local mode prohibits
 * (allocation, free, host synchronization with a stream or event). */
CUresult fk_unsafe_check(void);
/* Before cuCtxSynchronize, prohibited while any stream of the device
 * captures (whatever the mode). */
CUresult fk_device_sync_check(int dev);
/* Invalidates the capture with that id, if still active. */
void fk_capture_invalidate(uint64_t cap_id);
/* Waits on the host until the work enqueued so far on r has completed. */
CUresult fk_wait_point(const fk_sref *r);
void fk_streams_reset_ctx(CUcontext ctx);
/* The work behind the entry points and their _ptsz / _ptds variants. */
CUresult fk_memcpy(CUdeviceptr dst, CUdeviceptr src, size_t count, CUstream stream, bool ptsz,
		   bool sync);
CUresult fk_memset(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream, bool ptsz,
		   bool sync);
CUresult fk_host_func(CUstream stream, CUhostFn fn, void *userData, bool ptsz);
CUresult fk_stream_get_flags(CUstream stream, unsigned *flags, bool ptsz);
CUresult fk_stream_get_ctx(CUstream stream, CUcontext *pctx, bool ptsz);
CUresult fk_stream_synchronize(CUstream stream, bool ptsz);
CUresult fk_stream_query(CUstream stream, bool ptsz);
CUresult fk_event_record(CUevent event, CUstream stream, bool ptsz);
CUresult fk_stream_wait_event(CUstream stream, CUevent event, unsigned flags, bool ptsz);
CUresult fk_begin_capture(CUstream stream, CUstreamCaptureMode mode, bool ptsz);
CUresult fk_end_capture(CUstream stream, CUgraph *pGraph, bool ptsz);
CUresult fk_is_capturing(CUstream stream, CUstreamCaptureStatus *status, bool ptsz);
CUresult fk_malloc_async(CUdeviceptr *dptr, size_t size, CUstream stream, bool ptsz);
CUresult fk_free_async(CUdeviceptr dptr, CUstream stream, bool ptsz);

/* fakecu_shared.c: FAKECUDA_SHARED, one device budget for processes. */
void fk_shared_init(void);
bool fk_shared_on(void);          /* FAKECUDA_SHARED names a shared device */
uint64_t fk_start_time(int pid);  /* 0: no such process */
bool fk_shared_charge(int dev, size_t bytes); /* false: the shared device is full */
void fk_shared_uncharge(int dev, size_t bytes);
size_t fk_shared_free(int dev, size_t own_free); /* cuMemGetInfo's free, shared */

#endif
