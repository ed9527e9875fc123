/* tests/fakecuda/fakecu_stream.c - streams, events, graph capture and
 * stream work of the fake CUDA driver.
 *
 * Stream handles: CUstream values are the sim's handles. 0 is the legacy
 * default stream (CU_STREAM_LEGACY, 1, too); CU_STREAM_PER_THREAD (2) is
 * the calling thread's per-thread default stream, and so is 0 in the _ptsz
 * and _ptds entry points. User streams are the sim's (index + 1) << 4
 * handles, never reused, so a destroyed stream stays invalid. The legacy
 * stream's implicit synchronization with blocking and per-thread streams,
 * and its absence for non-blocking streams, are the sim's. Each stream and
 * event belongs to the context current at its creation.
 *
 * Event handles are the sim's (generation << 32 | index + 1).
 *
 * Work: memset and memcpy between device pointers are sim work items; any
 * copy touching host memory is a host function doing memmove in stream
 * order, since the sim only copies device memory. As NVIDIA documents:
 * memset is asynchronous for device memory, even the synchronous calls;
 * cuMemcpy returns once the copy is done, except device to device, which
 * does not synchronize the host; cuMemcpyAsync from pageable host memory
 * copies the source at the call (the driver stages it), so the caller may
 * reuse it at once.
 *
 * Capture (CUDA's rules, as far as this fake models them; the runtime's
 * cudaStream* calls are these, through the driver):
 * - cuStreamBeginCapture marks the stream capturing, for the fake's records
 *   and in the sim (sim_set_capturing); work enqueued on it is recorded,
 *   not run; cuMemAllocAsync / cuMemFreeAsync on it still allocate and
 *   free, standing in for graph memory nodes;
 * - an event recorded on a capturing stream belongs to that capture: a
 *   capturing stream may wait on it; a stream outside any capture that waits
 *   on it joins the capture (fork); querying or synchronizing it is
 *   CUDA_ERROR_CAPTURED_EVENT;
 * - a capturing stream waiting on an event recorded outside the capture is
 *   CUDA_ERROR_STREAM_CAPTURE_ISOLATION (unless CU_EVENT_WAIT_EXTERNAL), on
 *   an event of another capture CUDA_ERROR_STREAM_CAPTURE_MERGE;
 *   synchronizing or querying a capturing stream is
 *   CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; using the legacy stream while a
 *   blocking stream of its device captures is
 *   CUDA_ERROR_STREAM_CAPTURE_IMPLICIT; each of these invalidates the
 *   capture(s) involved, after which work on the stream fails with
 *   CUDA_ERROR_STREAM_CAPTURE_INVALIDATED and cuStreamEndCapture returns it
 *   with a NULL graph;
 * - potentially unsafe calls are refused with
 *   CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, and invalidate, as
 *   cuThreadExchangeStreamCaptureMode documents for the global and
 *   thread-local modes; relaxed allows them. Unsafe, as an H200 answers
 *   (through the runtime): allocation and free (cuMemAlloc, cuMemFree,
 *   cuMemAllocHost, cuMemFreeHost, cuMemAllocAsync and cuMemFreeAsync on a
 *   stream outside the capture), synchronizing with or querying any stream
 *   or event. Safe: work and event records on other streams (the legacy one
 *   included, when the capture is on a non-blocking stream), cuMemcpy,
 *   event and stream creation, cuMemGetInfo;
 * - a stream that waited on a captured event joins the capture (a fork);
 *   cuStreamEndCapture fails with CUDA_ERROR_STREAM_CAPTURE_UNJOINED unless
 *   some other stream of the capture waited on an event recorded on it after
 *   its last captured work;
 * - cuCtxSynchronize is refused while any stream of the device captures, in
 *   every mode.
 * Each of these answers was checked on an H200 through the runtime
 * (probe.c, probe-h200.txt).
 * Not modelled: graph launch (a graph and an executable graph are dummy
 * objects; the executable outlives its graph, as CUDA's does).
 */
#include "fakecu_internal.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local CUstreamCaptureMode fk_thread_mode; /* 0: global */

/* ---- stream handles ----------------------------------------------------- */

static bool fk_stream_index(uintptr_t h, size_t *idx)
{
	if (h < 16 || (h & 15))
		return false;
	*idx = (size_t)(h >> 4) - 1;
	return true;
}

CUresult fk_stream_resolve(CUstream s, bool ptsz, fk_sref *out)
{
	uintptr_t v = (uintptr_t)s;
	size_t i;
	CUresult r = CUDA_ERROR_INVALID_HANDLE;

	if (v == 0 && ptsz)
		v = (uintptr_t)CU_STREAM_PER_THREAD;
	if (v == 0 || v == (uintptr_t)CU_STREAM_LEGACY) {
		*out = (fk_sref){ .dev = fk_cur_dev(), .h = CM_STREAM_LEGACY, .kind = FK_S_LEGACY };
		return CUDA_SUCCESS;
	}
	if (v == (uintptr_t)CU_STREAM_PER_THREAD) {
		*out = (fk_sref){ .dev = fk_cur_dev(), .h = CM_STREAM_PER_THREAD, .kind = FK_S_PT,
				  .owner = fk_thread_id() };
		return CUDA_SUCCESS;
	}
	if (!fk_stream_index(v, &i))
		return r;
	pthread_mutex_lock(&fk.lock);
	if (i < fk.nstreams && fk.streams[i].live) {
		*out = (fk_sref){ .dev = fk.streams[i].dev, .h = v, .kind = FK_S_USER,
				  .nonblocking = fk.streams[i].nonblocking };
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&fk.lock);
	return r;
}

/* ---- captures (fk.lock held) -------------------------------------------- */

static bool fk_sref_eq(const fk_sref *a, const fk_sref *b)
{
	return a->dev == b->dev && a->h == b->h && (a->kind != FK_S_PT || a->owner == b->owner);
}

static bool fk_sref_blocking(const fk_sref *r)
{
	return r->kind == FK_S_PT || (r->kind == FK_S_USER && !r->nonblocking);
}

static fk_capture *fk_capture_of(const fk_sref *r)
{
	for (fk_capture *c = fk.caps; c; c = c->next) {
		if (fk_sref_eq(&c->origin, r))
			return c;
		for (size_t i = 0; i < c->njoined; i++)
			if (fk_sref_eq(&c->joined[i].ref, r))
				return c;
	}
	return NULL;
}

/* r's fork record in c, or NULL (r is the origin or not in c). */
static fk_join *fk_join_of(fk_capture *c, const fk_sref *r)
{
	for (size_t i = 0; c && i < c->njoined; i++)
		if (fk_sref_eq(&c->joined[i].ref, r))
			return &c->joined[i];
	return NULL;
}

static fk_capture *fk_capture_by_id(uint64_t id)
{
	for (fk_capture *c = fk.caps; c && id; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

static bool fk_capture_blocks_legacy(const fk_capture *c, int dev)
{
	if (c->origin.dev == dev && fk_sref_blocking(&c->origin))
		return true;
	for (size_t i = 0; i < c->njoined; i++)
		if (c->joined[i].ref.dev == dev && fk_sref_blocking(&c->joined[i].ref))
			return true;
	return false;
}

/* The legacy stream of dev is used: every capture of a blocking stream
 * there is invalidated. True if there was one. */
static bool fk_legacy_conflict(int dev)
{
	bool any = false;
	for (fk_capture *c = fk.caps; c; c = c->next) {
		if (fk_capture_blocks_legacy(c, dev)) {
			c->invalidated = true;
			any = true;
		}
	}
	return any;
}

static void fk_capture_unlink(fk_capture *c)
{
	for (fk_capture **pp = &fk.caps; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			atomic_fetch_sub(&fk.ncaps, 1);
			return;
		}
	}
}

static void fk_capture_free(fk_capture *c)
{
	free(c->joined);
	free(c);
}

void fk_capture_invalidate(uint64_t cap_id)
{
	pthread_mutex_lock(&fk.lock);
	fk_capture *c = fk_capture_by_id(cap_id);
	if (c)
		c->invalidated = true;
	pthread_mutex_unlock(&fk.lock);
}

/* Under fk.lock, a use of stream r: on the legacy stream, any conflict
 * with a capture (in *e) and NULL; on another, the capture it is in. */
static fk_capture *fk_stream_capture_locked(const fk_sref *r, CUresult *e)
{
	if (r->kind != FK_S_LEGACY)
		return fk_capture_of(r);
	if (fk_legacy_conflict(r->dev))
		*e = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
	return NULL;
}

CUresult fk_stream_use(const fk_sref *r, uint64_t *cap_id)
{
	CUresult e = CUDA_SUCCESS;

	*cap_id = 0;
	if (atomic_load(&fk.ncaps) == 0)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&fk.lock);
	fk_capture *c = fk_stream_capture_locked(r, &e);
	if (c && c->invalidated) {
		e = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	} else if (c) {
		*cap_id = c->id;
		fk_join *j = fk_join_of(c, r);
		if (j)
			j->ops++;
	}
	pthread_mutex_unlock(&fk.lock);
	return e;
}

/* Before synchronizing with or querying a stream: never the capturing one
 * itself, and any other only where the capture mode permits. */
static CUresult fk_stream_sync_check(const fk_sref *r)
{
	CUresult e = CUDA_SUCCESS;

	if (atomic_load(&fk.ncaps) == 0)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&fk.lock);
	fk_capture *c = fk_stream_capture_locked(r, &e);
	if (c) {
		c->invalidated = true;
		e = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	pthread_mutex_unlock(&fk.lock);
	return e == CUDA_SUCCESS ? fk_unsafe_check() : e;
}

CUresult fk_unsafe_check(void)
{
	bool bad = false;

	if (atomic_load(&fk.ncaps) == 0 || fk_thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_SUCCESS;
	uint64_t me = fk_thread_id();
	pthread_mutex_lock(&fk.lock);
	for (fk_capture *c = fk.caps; c; c = c->next) {
		bool mine = c->tid == me && c->mode != CU_STREAM_CAPTURE_MODE_RELAXED;
		bool global = fk_thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && c->tid != me &&
			      c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
		if (mine || global) {
			c->invalidated = true;
			bad = true;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return bad ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : CUDA_SUCCESS;
}

CUresult fk_device_sync_check(int dev)
{
	bool bad = false;

	if (atomic_load(&fk.ncaps) == 0)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&fk.lock);
	for (fk_capture *c = fk.caps; c; c = c->next) {
		bool here = c->origin.dev == dev;
		for (size_t i = 0; i < c->njoined && !here; i++)
			here = c->joined[i].ref.dev == dev;
		if (here) {
			c->invalidated = true;
			bad = true;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return bad ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED : CUDA_SUCCESS;
}

/* A table of *n entries of each bytes, grown where it can to hold index i
 * (to twice its size, or to i + slack), the new entries zeroed and *n
 * updated: i < *n says whether it holds i. */
static void *fk_table_fit(void *v, size_t *n, size_t i, size_t each, size_t slack)
{
	if (i < *n)
		return v;
	size_t m = *n * 2 > i + 1 ? *n * 2 : i + slack;
	char *grown = realloc(v, m * each);
	if (!grown)
		return v;
	memset(grown + *n * each, 0, (m - *n) * each);
	*n = m;
	return grown;
}

CUresult fk_wait_point(const fk_sref *r)
{
	const cm_backend *be = fk.be;
	cm_event ev;
	cm_status st = be->event_create(be->ctx, r->dev, &ev);

	if (st != CM_OK)
		return fk_status(st, CUDA_ERROR_INVALID_HANDLE);
	st = be->event_record(be->ctx, r->dev, ev, r->h);
	if (st == CM_OK)
		st = be->event_synchronize(be->ctx, r->dev, ev);
	be->event_destroy(be->ctx, r->dev, ev);
	return fk_status(st, CUDA_ERROR_INVALID_HANDLE);
}

/* ---- streams ------------------------------------------------------------ */

static CUresult fk_stream_create(CUstream *pStream, unsigned flags, int priority)
{
	CUresult r = fk_begin();
	size_t i;

	if (r != CUDA_SUCCESS)
		return r;
	if (!pStream || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
		return CUDA_ERROR_INVALID_VALUE;
	if (priority < -5)
		priority = -5;
	if (priority > 0)
		priority = 0;
	int dev = fk_cur_dev();
	bool nonblocking = flags & CU_STREAM_NON_BLOCKING;
	cm_stream h = sim_stream_create(fk.s, dev, nonblocking);
	if (h == SIM_STREAM_INVALID || !fk_stream_index(h, &i))
		return CUDA_ERROR_OUT_OF_MEMORY;

	pthread_mutex_lock(&fk.lock);
	fk.streams = fk_table_fit(fk.streams, &fk.nstreams, i, sizeof(*fk.streams), 16);
	bool ok = i < fk.nstreams;
	if (ok)
		fk.streams[i] = (fk_stream_info){ .live = true, .dev = dev, .ctx = fk_cur_ctx(),
						  .nonblocking = nonblocking,
						  .flags = flags, .priority = priority };
	pthread_mutex_unlock(&fk.lock);
	if (!ok) {
		sim_stream_destroy(fk.s, dev, h);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*pStream = (CUstream)h;
	return CUDA_SUCCESS;
}

FK_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	return fk_stream_create(phStream, Flags, 0);
}

FK_API CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
	return fk_stream_create(phStream, flags, priority);
}

FK_API CUresult cuStreamDestroy_v2(CUstream stream)
{
	fk_sref ref;
	CUresult r = fk_begin();
	size_t i;

	if (r != CUDA_SUCCESS)
		return r;
	if (!fk_stream_index((uintptr_t)stream, &i) ||
	    fk_stream_resolve(stream, false, &ref) != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_HANDLE;

	fk_capture *dead = NULL;
	pthread_mutex_lock(&fk.lock);
	fk.streams[i].live = false;
	for (fk_capture *c = fk.caps; c; c = c->next) {
		if (fk_sref_eq(&c->origin, &ref)) {
			dead = c; /* its capture can never end */
			continue;
		}
		for (size_t j = 0; j < c->njoined; j++) {
			if (fk_sref_eq(&c->joined[j].ref, &ref)) {
				c->joined[j] = c->joined[--c->njoined];
				break;
			}
		}
	}
	if (dead)
		fk_capture_unlink(dead);
	pthread_mutex_unlock(&fk.lock);
	if (dead) {
		for (size_t j = 0; j < dead->njoined; j++)
			if (dead->joined[j].ref.kind == FK_S_USER)
				sim_set_capturing(fk.s, dead->joined[j].ref.dev, dead->joined[j].ref.h,
						  false);
		fk_capture_free(dead);
	}
	return fk_status(sim_stream_destroy(fk.s, ref.dev, ref.h),
				CUDA_ERROR_INVALID_HANDLE);
}

/* cuStreamGetFlags and cuStreamGetCtx: what a user stream was created
 * with; the legacy and per-thread handles (0 too) answer for the calling
 * thread's current context, with flags 0 (CU_STREAM_DEFAULT: both
 * synchronize with blocking streams, as NVIDIA documents; the driver's
 * answer for them is not measured). A destroyed or never-created handle is
 * CUDA_ERROR_INVALID_HANDLE: NVIDIA's driver calls that undefined (the
 * probe's questions on such handles crashed it on an H200), but the library
 * relies on this answer from the fake to refuse unknown stream handles. */
static CUresult fk_stream_info_of(CUstream stream, bool ptsz, fk_stream_info *out)
{
	fk_sref ref;
	size_t i;
	CUresult r = fk_initialized();

	if (r == CUDA_SUCCESS)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r != CUDA_SUCCESS)
		return r;
	if (ref.kind != FK_S_USER) {
		*out = (fk_stream_info){ .live = true, .dev = ref.dev, .ctx = fk_cur_ctx() };
		return fk_begin();
	}
	pthread_mutex_lock(&fk.lock);
	if (fk_stream_index(ref.h, &i) && i < fk.nstreams && fk.streams[i].live)
		*out = fk.streams[i];
	else
		r = CUDA_ERROR_INVALID_HANDLE; /* destroyed since it was resolved */
	pthread_mutex_unlock(&fk.lock);
	return r;
}

CUresult fk_stream_get_flags(CUstream stream, unsigned *flags, bool ptsz)
{
	fk_stream_info si;
	CUresult r = flags ? fk_stream_info_of(stream, ptsz, &si) : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*flags = si.flags;
	return r;
}

CUresult fk_stream_get_ctx(CUstream stream, CUcontext *pctx, bool ptsz)
{
	fk_stream_info si;
	CUresult r = pctx ? fk_stream_info_of(stream, ptsz, &si) : CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		*pctx = si.ctx;
	return r;
}

/* The checks before the host asks about a stream (query or synchronize):
 * the stream in *ref. */
static CUresult fk_stream_host_wait(CUstream stream, bool ptsz, fk_sref *ref)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS)
		r = fk_stream_resolve(stream, ptsz, ref);
	return r == CUDA_SUCCESS ? fk_stream_sync_check(ref) : r;
}

CUresult fk_stream_synchronize(CUstream stream, bool ptsz)
{
	fk_sref ref;
	CUresult r = fk_stream_host_wait(stream, ptsz, &ref);

	if (r != CUDA_SUCCESS)
		return r;
	/* The legacy stream's work includes what its blocking streams had
	 * queued (observed on an H200): wait for a point on it, which the sim
	 * orders after them. */
	r = ref.kind == FK_S_LEGACY ? fk_wait_point(&ref)
				    : fk_status(fk.be->stream_synchronize(fk.be->ctx, ref.dev, ref.h),
						CUDA_ERROR_INVALID_HANDLE);
	if (r == CUDA_SUCCESS)
		fk_pools_synced(ref.dev);
	return r;
}

/* Is any blocking user stream of dev busy? (Other threads' per-thread
 * streams are out of reach of the sim's interface.) */
static bool fk_blocking_busy(int dev)
{
	size_t i = 0;
	for (;;) {
		cm_stream h = 0;
		pthread_mutex_lock(&fk.lock);
		for (; i < fk.nstreams; i++) {
			if (fk.streams[i].live && fk.streams[i].dev == dev &&
			    !fk.streams[i].nonblocking) {
				h = (cm_stream)(i + 1) << 4;
				i++;
				break;
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (!h)
			return false;
		if (fk.be->stream_query(fk.be->ctx, dev, h) == CM_NOT_READY)
			return true;
	}
}

CUresult fk_stream_query(CUstream stream, bool ptsz)
{
	fk_sref ref;
	CUresult r = fk_stream_host_wait(stream, ptsz, &ref);

	if (r == CUDA_SUCCESS)
		r = fk_status(fk.be->stream_query(fk.be->ctx, ref.dev, ref.h),
			      CUDA_ERROR_INVALID_HANDLE);
	if (r == CUDA_SUCCESS && ref.kind == FK_S_LEGACY && fk_blocking_busy(ref.dev))
		r = CUDA_ERROR_NOT_READY; /* as for cuStreamSynchronize above */
	return r;
}

/* ---- work --------------------------------------------------------------- */

/* A host-side waiter for one operation (on the caller's stack). */
typedef struct fk_waiter {
	pthread_mutex_t m;
	pthread_cond_t c;
	bool done;
} fk_waiter;

typedef struct fk_hostop {
	void *dst;
	const void *src;
	size_t n;
	int value;
	bool set;
	void *staging;
	fk_waiter *waiter; /* synchronous calls: signalled once done */
} fk_hostop;

static void fk_hostop_run(void *arg)
{
	fk_hostop *op = arg;
	fk_waiter *w = op->waiter;
	if (op->set)
		memset(op->dst, op->value, op->n);
	else
		memmove(op->dst, op->src, op->n);
	free(op->staging);
	free(op);
	if (w) {
		pthread_mutex_lock(&w->m);
		w->done = true;
		pthread_cond_signal(&w->c);
		pthread_mutex_unlock(&w->m);
	}
}

/* Takes op (and its staging buffer). For a synchronous call, returns once
 * the operation has run: it is the last of its stream's work so far, so
 * that is the point where the copy or set is complete. */
static CUresult fk_hostop_enqueue(const fk_sref *r, fk_hostop *op, bool sync)
{
	fk_waiter w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
	if (sync)
		op->waiter = &w;
	cm_status st = sim_host_func(fk.s, r->dev, r->h, fk_hostop_run, op);
	if (st != CM_OK) {
		free(op->staging);
		free(op);
		return fk_status(st, CUDA_ERROR_INVALID_HANDLE);
	}
	if (sync) {
		pthread_mutex_lock(&w.m);
		while (!w.done)
			pthread_cond_wait(&w.c, &w.m);
		pthread_mutex_unlock(&w.m);
		pthread_cond_destroy(&w.c);
		pthread_mutex_destroy(&w.m);
	}
	return CUDA_SUCCESS;
}

/* Work for stream, resolved in *ref. In a capture (*captured) the work is
 * not run: an asynchronous call is recorded into the graph, a synchronous
 * one invalidates the capture. */
static CUresult fk_work_stream(CUstream stream, bool ptsz, bool sync, fk_sref *ref,
			       bool *captured)
{
	uint64_t cap;
	CUresult r = fk_stream_resolve(stream, ptsz, ref);
	if (r == CUDA_SUCCESS)
		r = fk_stream_use(ref, &cap);
	*captured = r == CUDA_SUCCESS && cap;
	if (!*captured || !sync)
		return r;
	fk_capture_invalidate(cap);
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* A copy's or a set's opening: false, with *r its answer, when the call
 * ends there (the fake not initialized, or no bytes). */
static bool fk_work_begin(size_t count, CUresult *r)
{
	*r = fk_begin();
	return *r == CUDA_SUCCESS && count != 0;
}

/* A host operation on the count bytes at dst, or NULL (out of memory). */
static fk_hostop *fk_hostop_new(void *dst, size_t count)
{
	fk_hostop *op = calloc(1, sizeof(*op));
	if (op) {
		op->dst = dst;
		op->n = count;
	}
	return op;
}

CUresult fk_memcpy(CUdeviceptr dstp, CUdeviceptr srcp, size_t count, CUstream stream, bool ptsz,
		   bool sync)
{
	void *dst = (void *)dstp;
	const void *src = (const void *)srcp;
	fk_sref ref;
	fk_alloc ad, as;
	bool captured;
	CUresult r;

	if (!fk_work_begin(count, &r))
		return r;
	if (!dst || !src)
		return CUDA_ERROR_INVALID_VALUE;
	int fd = fk_lookup_range(dst, count, &ad);
	int fs = fk_lookup_range(src, count, &as);
	if (fd < 0 || fs < 0)
		return CUDA_ERROR_INVALID_VALUE;

	r = fk_work_stream(stream, ptsz, sync, &ref, &captured);
	if (r != CUDA_SUCCESS || captured)
		return r;

	if (fd == 1 && fs == 1 && ad.kind != FK_HOST && as.kind != FK_HOST)
		/* Device to device: no host synchronization, even for cuMemcpy. */
		return fk_status(sim_memcpy_async(fk.s, ref.dev, (uintptr_t)dst, (uintptr_t)src,
						  count, ref.h),
				 CUDA_ERROR_INVALID_VALUE);

	/* Into pageable memory even cuMemcpyAsync returns once the copy is
	 * done (documented, and observed on an H200). */
	if (fd == 0)
		sync = true;
	fk_hostop *op = fk_hostop_new(dst, count);
	if (!op)
		return CUDA_ERROR_OUT_OF_MEMORY;
	op->src = src;
	if (!sync && fs == 0) { /* pageable source: staged at the call */
		op->staging = malloc(count);
		if (!op->staging) {
			free(op);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		memcpy(op->staging, src, count);
		op->src = op->staging;
	}
	return fk_hostop_enqueue(&ref, op, sync);
}

CUresult fk_memset(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream, bool ptsz,
		   bool sync)
{
	void *devPtr = (void *)dst;
	fk_sref ref;
	fk_alloc a;
	bool captured;
	CUresult r;

	if (!fk_work_begin(count, &r))
		return r;
	if (fk_lookup_range(devPtr, count, &a) != 1)
		return CUDA_ERROR_INVALID_VALUE;
	r = fk_work_stream(stream, ptsz, sync, &ref, &captured);
	if (r != CUDA_SUCCESS || captured)
		return r;
	if (a.kind != FK_HOST) /* asynchronous for device memory, even cuMemsetD8 */
		return fk_status(sim_memset_async(fk.s, ref.dev, (uintptr_t)devPtr, value,
							 count, ref.h),
					CUDA_ERROR_INVALID_VALUE);

	fk_hostop *op = fk_hostop_new(devPtr, count);
	if (!op)
		return CUDA_ERROR_OUT_OF_MEMORY;
	op->value = value;
	op->set = true;
	return fk_hostop_enqueue(&ref, op, sync); /* pinned: synchronous */
}

CUresult fk_host_func(CUstream stream, CUhostFn fn, void *userData, bool ptsz)
{
	fk_sref ref;
	bool captured = false;
	CUresult r = fk_begin();

	if (r == CUDA_SUCCESS && !fn)
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		r = fk_work_stream(stream, ptsz, false, &ref, &captured);
	if (r != CUDA_SUCCESS || captured)
		return r;
	return fk_status(sim_host_func(fk.s, ref.dev, ref.h, fn, userData),
				CUDA_ERROR_INVALID_HANDLE);
}

/* ---- events ------------------------------------------------------------- */

static bool fk_event_index(CUevent e, size_t *idx)
{
	uintptr_t h = (uintptr_t)e;
	if ((h & 0xffffffffu) == 0)
		return false;
	*idx = (size_t)(h & 0xffffffffu) - 1;
	return true;
}

/* The live entry of e (fk.lock held), or NULL. */
static fk_event_info *fk_event_entry(CUevent e)
{
	size_t i;
	if (!fk_event_index(e, &i) || i >= fk.nevents)
		return NULL;
	fk_event_info *ei = &fk.events[i];
	return ei->live && ei->h == (cm_event)e ? ei : NULL;
}

static CUresult fk_event_get(CUevent e, fk_event_info *out)
{
	pthread_mutex_lock(&fk.lock);
	fk_event_info *ei = fk_event_entry(e);
	if (ei)
		*out = *ei;
	pthread_mutex_unlock(&fk.lock);
	return ei ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult fk_event_create(CUevent *event, unsigned flags)
{
	const unsigned known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
	CUresult r = fk_begin();
	cm_event h;
	size_t i;

	if (r != CUDA_SUCCESS)
		return r;
	if (!event || (flags & ~known) ||
	    ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING)))
		return CUDA_ERROR_INVALID_VALUE;
	int dev = fk_cur_dev();
	if (fk.be->event_create(fk.be->ctx, dev, &h) != CM_OK)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!fk_event_index((CUevent)h, &i)) { /* the sim's handles are never 0 */
		fk.be->event_destroy(fk.be->ctx, dev, h);
		return CUDA_ERROR_UNKNOWN;
	}

	pthread_mutex_lock(&fk.lock);
	fk.events = fk_table_fit(fk.events, &fk.nevents, i, sizeof(*fk.events), 64);
	bool ok = i < fk.nevents;
	if (ok)
		fk.events[i] = (fk_event_info){ .h = h, .live = true, .dev = dev, .ctx = fk_cur_ctx(),
						.flags = flags };
	pthread_mutex_unlock(&fk.lock);
	if (!ok) {
		fk.be->event_destroy(fk.be->ctx, dev, h);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*event = (CUevent)h;
	return CUDA_SUCCESS;
}

FK_API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	FK_FAIL("cuEventCreate");
	return fk_event_create(phEvent, Flags);
}

FK_API CUresult cuEventDestroy_v2(CUevent event)
{
	CUresult r = fk_begin();
	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&fk.lock);
	fk_event_info *ei = fk_event_entry(event);
	int dev = ei ? ei->dev : 0;
	if (ei)
		ei->live = false;
	pthread_mutex_unlock(&fk.lock);
	if (!ei)
		return CUDA_ERROR_INVALID_HANDLE;
	return fk_status(fk.be->event_destroy(fk.be->ctx, dev, (cm_event)event),
				CUDA_ERROR_INVALID_HANDLE);
}

CUresult fk_event_record(CUevent event, CUstream stream, bool ptsz)
{
	fk_event_info ei;
	fk_sref ref;
	uint64_t cap;
	CUresult r = fk_begin();

	if (r == CUDA_SUCCESS)
		r = fk_event_get(event, &ei);
	if (r == CUDA_SUCCESS)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == CUDA_SUCCESS && ref.dev != ei.dev)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		r = fk_stream_use(&ref, &cap);
	if (r != CUDA_SUCCESS)
		return r;
	if (!cap) {
		cm_status st = fk.be->event_record(fk.be->ctx, ref.dev, (cm_event)event, ref.h);
		if (st != CM_OK)
			return fk_status(st, CUDA_ERROR_INVALID_HANDLE);
	}
	pthread_mutex_lock(&fk.lock);
	fk_event_info *e = fk_event_entry(event);
	if (e) {
		e->cap_id = cap;
		e->rec = ref;
		fk_join *j = cap ? fk_join_of(fk_capture_by_id(cap), &ref) : NULL;
		e->rec_ops = j ? j->ops : 0;
	}
	pthread_mutex_unlock(&fk.lock);
	return CUDA_SUCCESS;
}

CUresult fk_stream_wait_event(CUstream stream, CUevent event, unsigned flags,
					bool ptsz)
{
	fk_event_info ei;
	fk_sref ref;
	CUresult r = fk_begin();

	if (r == CUDA_SUCCESS && (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL))
		r = CUDA_ERROR_INVALID_VALUE;
	if (r == CUDA_SUCCESS)
		r = fk_event_get(event, &ei);
	if (r == CUDA_SUCCESS)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r != CUDA_SUCCESS)
		return r;

	if (atomic_load(&fk.ncaps) != 0) {
		bool done = false;
		fk_capture *join = NULL;
		pthread_mutex_lock(&fk.lock);
		fk_event_info *e = fk_event_entry(event);
		fk_capture *ec = e ? fk_capture_by_id(e->cap_id) : NULL;
		if (ref.kind == FK_S_LEGACY) {
			bool conflict = fk_legacy_conflict(ref.dev);
			if (ec) { /* the legacy stream cannot join a capture */
				ec->invalidated = true;
				conflict = true;
			}
			if (conflict) {
				r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
				done = true;
			}
		} else {
			fk_capture *sc = fk_capture_of(&ref);
			if (sc) {
				done = true;
				if (sc->invalidated) {
					r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
				} else if (ec == sc) { /* a dependency inside the graph */
					fk_join *j = fk_join_of(sc, &e->rec);
					if (j && !fk_sref_eq(&e->rec, &ref) && j->joined_at < e->rec_ops)
						j->joined_at = e->rec_ops; /* joined back */
				} else if (!ec && (flags & CU_EVENT_WAIT_EXTERNAL)) {
					r = CUDA_SUCCESS; /* an external event node */
				} else if (ec) {
					sc->invalidated = ec->invalidated = true;
					r = CUDA_ERROR_STREAM_CAPTURE_MERGE;
				} else {
					sc->invalidated = true;
					r = CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
				}
			} else if (ec) { /* fork: the stream joins the capture */
				done = true;
				if (ec->njoined == ec->joined_cap) {
					size_t n = ec->joined_cap ? 2 * ec->joined_cap : 4;
					fk_join *v = realloc(ec->joined, n * sizeof(*v));
					if (v) {
						ec->joined = v;
						ec->joined_cap = n;
					}
				}
				if (ec->njoined < ec->joined_cap) {
					/* The wait is the fork's first node. */
					ec->joined[ec->njoined++] = (fk_join){ .ref = ref, .ops = 1 };
					join = ec;
				} else {
					r = CUDA_ERROR_OUT_OF_MEMORY;
				}
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (join && ref.kind == FK_S_USER)
			sim_set_capturing(fk.s, ref.dev, ref.h, true);
		if (done)
			return r;
	}
	if (flags & CU_EVENT_WAIT_EXTERNAL) /* only meaningful during capture */
		return CUDA_ERROR_ILLEGAL_STATE;
	return fk_status(fk.be->stream_wait_event(fk.be->ctx, ref.dev, ref.h,
							 (cm_event)event),
				CUDA_ERROR_INVALID_HANDLE);
}

/* An event last recorded inside an active capture cannot be queried or
 * waited for on the host. */
static CUresult fk_event_captured(CUevent event)
{
	CUresult r = CUDA_SUCCESS;
	if (atomic_load(&fk.ncaps) == 0)
		return r;
	pthread_mutex_lock(&fk.lock);
	fk_event_info *e = fk_event_entry(event);
	fk_capture *c = e ? fk_capture_by_id(e->cap_id) : NULL;
	if (c) {
		c->invalidated = true;
		r = CUDA_ERROR_CAPTURED_EVENT;
	}
	pthread_mutex_unlock(&fk.lock);
	return r;
}

/* cuEventQuery, and with sync cuEventSynchronize. */
static CUresult fk_event_wait(CUevent event, bool sync)
{
	fk_event_info ei;
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS)
		r = fk_event_get(event, &ei);
	if (r == CUDA_SUCCESS)
		r = fk_event_captured(event);
	if (r == CUDA_SUCCESS)
		r = fk_unsafe_check();
	if (r != CUDA_SUCCESS)
		return r;
	const cm_backend *be = fk.be;
	cm_status st = sync ? be->event_synchronize(be->ctx, ei.dev, (cm_event)event)
			    : be->event_query(be->ctx, ei.dev, (cm_event)event);
	r = fk_status(st, CUDA_ERROR_INVALID_HANDLE);
	if (r == CUDA_SUCCESS && sync)
		fk_pools_synced(ei.dev);
	return r;
}

FK_API CUresult cuEventQuery(CUevent event)
{
	FK_FAIL("cuEventQuery");
	return fk_event_wait(event, false);
}

FK_API CUresult cuEventSynchronize(CUevent event)
{
	FK_FAIL("cuEventSynchronize");
	return fk_event_wait(event, true);
}

/* ---- capture ------------------------------------------------------------ */

/* A capture call's opening: the fake initialized, its other arguments
 * valid (args_ok), then the stream resolved in *ref. */
static CUresult fk_stream_args(CUstream stream, bool ptsz, bool args_ok, fk_sref *ref)
{
	CUresult r = fk_begin();
	if (r == CUDA_SUCCESS && !args_ok)
		r = CUDA_ERROR_INVALID_VALUE;
	return r == CUDA_SUCCESS ? fk_stream_resolve(stream, ptsz, ref) : r;
}

CUresult fk_begin_capture(CUstream stream, CUstreamCaptureMode mode, bool ptsz)
{
	fk_sref ref;
	bool mode_ok = (unsigned)mode <= (unsigned)CU_STREAM_CAPTURE_MODE_RELAXED;
	CUresult r = fk_stream_args(stream, ptsz, mode_ok, &ref);

	if (r == CUDA_SUCCESS && ref.kind == FK_S_LEGACY)
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	if (r != CUDA_SUCCESS)
		return r;

	fk_capture *c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&fk.lock);
	if (fk_capture_of(&ref)) {
		r = CUDA_ERROR_ILLEGAL_STATE;
	} else {
		c->id = ++fk.next_cap_id;
		c->origin = ref;
		c->mode = mode;
		c->tid = fk_thread_id();
		c->next = fk.caps;
		fk.caps = c;
		atomic_fetch_add(&fk.ncaps, 1);
	}
	pthread_mutex_unlock(&fk.lock);
	if (r != CUDA_SUCCESS) {
		free(c);
		return r;
	}
	sim_set_capturing(fk.s, ref.dev, ref.h, true);
	return CUDA_SUCCESS;
}

CUresult fk_end_capture(CUstream stream, CUgraph *pGraph, bool ptsz)
{
	fk_sref ref;
	fk_capture *c = NULL;
	CUresult r = fk_stream_args(stream, ptsz, pGraph != NULL, &ref);

	if (r != CUDA_SUCCESS)
		return r;

	/* As observed on an H200: ending on a forked stream fails and
	 * invalidates the capture; ending a global or thread-local capture
	 * from another thread fails and terminates it. */
	pthread_mutex_lock(&fk.lock);
	for (c = fk.caps; c && !fk_sref_eq(&c->origin, &ref); c = c->next)
		;
	if (!c) {
		fk_capture *other = fk_capture_of(&ref);
		if (other)
			other->invalidated = true;
		r = other ? CUDA_ERROR_STREAM_CAPTURE_UNMATCHED : CUDA_ERROR_ILLEGAL_STATE;
	} else {
		if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && c->tid != fk_thread_id())
			r = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
		fk_capture_unlink(c);
	}
	pthread_mutex_unlock(&fk.lock);
	if (!c)
		return r;

	if (ref.kind != FK_S_PT || ref.owner == fk_thread_id())
		sim_set_capturing(fk.s, ref.dev, ref.h, false);
	bool unjoined = false;
	for (size_t i = 0; i < c->njoined; i++) {
		if (c->joined[i].ref.kind == FK_S_USER)
			sim_set_capturing(fk.s, c->joined[i].ref.dev, c->joined[i].ref.h, false);
		unjoined |= c->joined[i].joined_at < c->joined[i].ops;
	}
	bool invalidated = c->invalidated;
	uint64_t id = c->id;
	fk_capture_free(c);
	*pGraph = NULL;
	if (r != CUDA_SUCCESS)
		return r;
	if (invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (unjoined)
		return CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
	fk_graph *g = calloc(1, sizeof(*g));
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	g->cap_id = id;
	pthread_mutex_lock(&fk.lock);
	g->next = fk.graphs;
	fk.graphs = g;
	pthread_mutex_unlock(&fk.lock);
	*pGraph = (CUgraph)g;
	return CUDA_SUCCESS;
}

CUresult fk_is_capturing(CUstream stream, CUstreamCaptureStatus *status,
				   bool ptsz)
{
	fk_sref ref;
	CUresult r = fk_stream_args(stream, ptsz, status != NULL, &ref);

	if (r != CUDA_SUCCESS)
		return r;
	*status = CU_STREAM_CAPTURE_STATUS_NONE;
	if (atomic_load(&fk.ncaps) == 0)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&fk.lock);
	if (ref.kind == FK_S_LEGACY) {
		/* Not invalidated by the question. */
		for (fk_capture *c = fk.caps; c; c = c->next)
			if (fk_capture_blocks_legacy(c, ref.dev))
				r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
	} else {
		fk_capture *c = fk_capture_of(&ref);
		if (c)
			*status = c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
						 : CU_STREAM_CAPTURE_STATUS_ACTIVE;
	}
	pthread_mutex_unlock(&fk.lock);
	return r;
}

FK_API CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	CUresult r = fk_initialized();
	if (r != CUDA_SUCCESS)
		return r;
	if (!mode || (unsigned)*mode > (unsigned)CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	CUstreamCaptureMode old = fk_thread_mode;
	fk_thread_mode = *mode;
	*mode = old;
	return CUDA_SUCCESS;
}

/* Unlinks the graph (exec: the executable graph) at handle, or NULL. */
static fk_graph *fk_graph_take(const void *handle, bool exec)
{
	fk_graph *g = NULL;
	pthread_mutex_lock(&fk.lock);
	for (fk_graph **pp = &fk.graphs; *pp; pp = &(*pp)->next) {
		if (*pp == (const fk_graph *)handle && (*pp)->exec == exec) {
			g = *pp;
			*pp = g->next;
			break;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return g;
}

/* cuGraphDestroy, cuGraphExecDestroy. */
static CUresult fk_graph_destroy(const void *handle, bool exec)
{
	CUresult r = fk_begin();
	fk_graph *g;

	if (r != CUDA_SUCCESS)
		return r;
	if (!(g = fk_graph_take(handle, exec)))
		return CUDA_ERROR_INVALID_VALUE;
	free(g);
	return CUDA_SUCCESS;
}

FK_API CUresult cuGraphDestroy(CUgraph graph)
{
	return fk_graph_destroy(graph, false);
}

/* An executable graph outlives its graph, as CUDA's does; it runs nothing
 * (graph launch is not modelled). */
FK_API CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
					    unsigned long long flags)
{
	CUresult r = fk_begin();
	bool found = false;

	(void)flags;
	if (r != CUDA_SUCCESS)
		return r;
	if (!exec)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&fk.lock);
	for (fk_graph *g = fk.graphs; g && !found; g = g->next)
		found = g == (fk_graph *)graph && !g->exec;
	fk_graph *x = found ? calloc(1, sizeof(*x)) : NULL;
	if (x) {
		x->exec = true;
		x->next = fk.graphs;
		fk.graphs = x;
	}
	pthread_mutex_unlock(&fk.lock);
	if (!found)
		return CUDA_ERROR_INVALID_VALUE;
	if (!x)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*exec = (CUgraphExec)x;
	return CUDA_SUCCESS;
}

FK_API CUresult cuGraphExecDestroy(CUgraphExec exec)
{
	return fk_graph_destroy(exec, true);
}

/* ---- device reset ------------------------------------------------------- */

/* Ends the captures on ctx's device, destroys its user streams and its
 * events. */
void fk_streams_reset_ctx(CUcontext ctx)
{
	int dev = ctx->dev;
	uint64_t me = fk_thread_id();

	for (;;) {
		fk_capture *c;
		pthread_mutex_lock(&fk.lock);
		for (c = fk.caps; c && c->origin.dev != dev; c = c->next)
			;
		if (c)
			fk_capture_unlink(c);
		pthread_mutex_unlock(&fk.lock);
		if (!c)
			break;
		if (c->origin.kind != FK_S_PT || c->origin.owner == me)
			sim_set_capturing(fk.s, dev, c->origin.h, false);
		fk_capture_free(c);
	}
	size_t i = 0;
	for (;;) {
		cm_stream h = 0;
		pthread_mutex_lock(&fk.lock);
		for (; i < fk.nstreams; i++) {
			if (fk.streams[i].live && fk.streams[i].ctx == ctx) {
				fk.streams[i].live = false;
				h = (cm_stream)(i + 1) << 4;
				i++;
				break;
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (!h)
			break;
		sim_stream_destroy(fk.s, dev, h);
	}
	i = 0;
	for (;;) {
		cm_event h = NULL;
		pthread_mutex_lock(&fk.lock);
		for (; i < fk.nevents; i++) {
			if (fk.events[i].live && fk.events[i].ctx == ctx) {
				fk.events[i].live = false;
				h = fk.events[i].h;
				i++;
				break;
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (!h)
			break;
		fk.be->event_destroy(fk.be->ctx, dev, h);
	}
}
