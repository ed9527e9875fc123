/* tests/fakecuda/fakecuda_stream.c - streams, events, graph capture and
 * stream work of the fake CUDA runtime.
 *
 * Stream handles: cudaStream_t values are the sim's handles. 0 is the legacy
 * default stream (cudaStreamLegacy, 1, too); cudaStreamPerThread (2) is the
 * calling thread's per-thread default stream, and so is 0 in the _ptsz and
 * _ptds entry points. User streams are the sim's (index + 1) << 4 handles,
 * never reused, so a destroyed stream stays invalid. The legacy stream's
 * implicit synchronization with blocking and per-thread streams, and its
 * absence for non-blocking streams, are the sim's.
 *
 * Event handles are the sim's (generation << 32 | index + 1).
 *
 * Work: memset and memcpy between device pointers are sim work items; any
 * copy touching host memory is a host function doing memmove in stream
 * order, since the sim only copies device memory. As NVIDIA documents:
 * cudaMemset is asynchronous for device memory; cudaMemcpy returns once the
 * copy is done, except device to device, which does not synchronize the
 * host; cudaMemcpyAsync from pageable host memory copies the source at the
 * call (the driver stages it), so the caller may reuse it at once.
 *
 * Capture (CUDA's rules, as far as this fake models them):
 * - cudaStreamBeginCapture marks the stream capturing, for the fake's
 *   records and in the sim (sim_set_capturing); work enqueued on it is
 *   recorded, not run; cudaMallocAsync / cudaFreeAsync on it still allocate
 *   and free, standing in for graph memory nodes;
 * - an event recorded on a capturing stream belongs to that capture: a
 *   capturing stream may wait on it; a stream outside any capture that waits
 *   on it joins the capture (fork); querying or synchronizing it is
 *   cudaErrorCapturedEvent;
 * - a capturing stream waiting on an event recorded outside the capture is
 *   cudaErrorStreamCaptureIsolation (unless cudaEventWaitExternal), on an
 *   event of another capture cudaErrorStreamCaptureMerge; synchronizing or
 *   querying a capturing stream is cudaErrorStreamCaptureUnsupported; using
 *   the legacy stream while a blocking stream of its device captures is
 *   cudaErrorStreamCaptureImplicit; each of these invalidates the capture(s)
 *   involved, after which work on the stream fails with
 *   cudaErrorStreamCaptureInvalidated and cudaStreamEndCapture returns it
 *   with a NULL graph;
 * - potentially unsafe calls are refused with
 *   cudaErrorStreamCaptureUnsupported, and invalidate, as
 *   cudaThreadExchangeStreamCaptureMode documents for the global and
 *   thread-local modes; relaxed allows them. Unsafe, as an H200 answers:
 *   cudaMalloc, cudaFree, cudaMallocHost, cudaFreeHost, cudaMallocAsync and
 *   cudaFreeAsync on a stream outside the capture, synchronizing with or
 *   querying any stream or event. Safe: work and event records on other
 *   streams (the legacy one included, when the capture is on a non-blocking
 *   stream), cudaMemcpy, event and stream creation, cudaMemGetInfo;
 * - a stream that waited on a captured event joins the capture (a fork);
 *   cudaStreamEndCapture fails with cudaErrorStreamCaptureUnjoined unless
 *   some other stream of the capture waited on an event recorded on it after
 *   its last captured work;
 * - cudaDeviceSynchronize is refused while any stream of the device
 *   captures, in every mode.
 * Each of these answers was checked on an H200 (probe.c, probe-h200.txt).
 * Not modelled: graph launch (a graph is a dummy object).
 */
#include "fakecuda_internal.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local enum cudaStreamCaptureMode fk_thread_mode; /* 0: global */

/* ---- stream handles ----------------------------------------------------- */

static bool fk_stream_index(uintptr_t h, size_t *idx)
{
	if (h < 16 || (h & 15))
		return false;
	*idx = (size_t)(h >> 4) - 1;
	return true;
}

cudaError_t fk_stream_resolve(cudaStream_t s, bool ptsz, fk_sref *out)
{
	uintptr_t v = (uintptr_t)s;
	size_t i;
	cudaError_t r = cudaErrorInvalidResourceHandle;

	if (v == 0 && ptsz)
		v = (uintptr_t)cudaStreamPerThread;
	if (v == 0 || v == (uintptr_t)cudaStreamLegacy) {
		*out = (fk_sref){ .dev = fk_cur_dev(), .h = CM_STREAM_LEGACY, .kind = FK_S_LEGACY };
		return cudaSuccess;
	}
	if (v == (uintptr_t)cudaStreamPerThread) {
		*out = (fk_sref){ .dev = fk_cur_dev(), .h = CM_STREAM_PER_THREAD, .kind = FK_S_PT,
				  .owner = fk_thread_id() };
		return cudaSuccess;
	}
	if (!fk_stream_index(v, &i))
		return r;
	pthread_mutex_lock(&fk.lock);
	if (i < fk.nstreams && fk.streams[i].live) {
		*out = (fk_sref){ .dev = fk.streams[i].dev, .h = v, .kind = FK_S_USER,
				  .nonblocking = fk.streams[i].nonblocking };
		r = cudaSuccess;
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

cudaError_t fk_stream_use(const fk_sref *r, uint64_t *cap_id)
{
	cudaError_t e = cudaSuccess;

	*cap_id = 0;
	if (atomic_load(&fk.ncaps) == 0)
		return cudaSuccess;
	pthread_mutex_lock(&fk.lock);
	if (r->kind == FK_S_LEGACY) {
		if (fk_legacy_conflict(r->dev))
			e = cudaErrorStreamCaptureImplicit;
	} else {
		fk_capture *c = fk_capture_of(r);
		if (c && c->invalidated) {
			e = cudaErrorStreamCaptureInvalidated;
		} else if (c) {
			*cap_id = c->id;
			fk_join *j = fk_join_of(c, r);
			if (j)
				j->ops++;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return e;
}

/* Before synchronizing with or querying a stream: never the capturing one
 * itself, and any other only where the capture mode permits. */
static cudaError_t fk_stream_sync_check(const fk_sref *r)
{
	cudaError_t e = cudaSuccess;

	if (atomic_load(&fk.ncaps) == 0)
		return cudaSuccess;
	pthread_mutex_lock(&fk.lock);
	if (r->kind == FK_S_LEGACY) {
		if (fk_legacy_conflict(r->dev))
			e = cudaErrorStreamCaptureImplicit;
	} else {
		fk_capture *c = fk_capture_of(r);
		if (c) {
			c->invalidated = true;
			e = cudaErrorStreamCaptureUnsupported;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return e == cudaSuccess ? fk_unsafe_check() : e;
}

cudaError_t fk_unsafe_check(void)
{
	bool bad = false;

	if (atomic_load(&fk.ncaps) == 0 || fk_thread_mode == cudaStreamCaptureModeRelaxed)
		return cudaSuccess;
	uint64_t me = fk_thread_id();
	pthread_mutex_lock(&fk.lock);
	for (fk_capture *c = fk.caps; c; c = c->next) {
		bool mine = c->tid == me && c->mode != cudaStreamCaptureModeRelaxed;
		bool global = fk_thread_mode == cudaStreamCaptureModeGlobal && c->tid != me &&
			      c->mode == cudaStreamCaptureModeGlobal;
		if (mine || global) {
			c->invalidated = true;
			bad = true;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	return bad ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t fk_device_sync_check(int dev)
{
	bool bad = false;

	if (atomic_load(&fk.ncaps) == 0)
		return cudaSuccess;
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
	return bad ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t fk_wait_point(const fk_sref *r)
{
	const cm_backend *be = fk.be;
	cm_event ev;
	cm_status st = be->event_create(be->ctx, r->dev, &ev);

	if (st != CM_OK)
		return fk_status(st, cudaErrorInvalidResourceHandle);
	st = be->event_record(be->ctx, r->dev, ev, r->h);
	if (st == CM_OK)
		st = be->event_synchronize(be->ctx, r->dev, ev);
	be->event_destroy(be->ctx, r->dev, ev);
	return fk_status(st, cudaErrorInvalidResourceHandle);
}

/* ---- streams ------------------------------------------------------------ */

static cudaError_t fk_stream_create(cudaStream_t *pStream, unsigned flags, int priority)
{
	cudaError_t r = fk_init();
	size_t i;

	if (r != cudaSuccess)
		return fk_ret(r);
	if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking))
		return fk_ret(cudaErrorInvalidValue);
	if (priority < -5)
		priority = -5;
	if (priority > 0)
		priority = 0;
	int dev = fk_cur_dev();
	bool nonblocking = flags & cudaStreamNonBlocking;
	cm_stream h = sim_stream_create(fk.s, dev, nonblocking);
	if (h == SIM_STREAM_INVALID || !fk_stream_index(h, &i))
		return fk_ret(cudaErrorMemoryAllocation);

	pthread_mutex_lock(&fk.lock);
	if (i >= fk.nstreams) {
		size_t n = fk.nstreams * 2 > i + 1 ? fk.nstreams * 2 : i + 16;
		fk_stream_info *v = realloc(fk.streams, n * sizeof(*v));
		if (v) {
			memset(v + fk.nstreams, 0, (n - fk.nstreams) * sizeof(*v));
			fk.streams = v;
			fk.nstreams = n;
		}
	}
	bool ok = i < fk.nstreams;
	if (ok)
		fk.streams[i] = (fk_stream_info){ .live = true, .dev = dev, .nonblocking = nonblocking,
						  .flags = flags, .priority = priority };
	pthread_mutex_unlock(&fk.lock);
	if (!ok) {
		sim_stream_destroy(fk.s, dev, h);
		return fk_ret(cudaErrorMemoryAllocation);
	}
	*pStream = (cudaStream_t)h;
	return cudaSuccess;
}

FK_API cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	return fk_stream_create(pStream, cudaStreamDefault, 0);
}

FK_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
	return fk_stream_create(pStream, flags, 0);
}

FK_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
						int priority)
{
	return fk_stream_create(pStream, flags, priority);
}

FK_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	fk_sref ref;
	cudaError_t r = fk_init();
	size_t i;

	if (r != cudaSuccess)
		return fk_ret(r);
	if (!fk_stream_index((uintptr_t)stream, &i) ||
	    fk_stream_resolve(stream, false, &ref) != cudaSuccess)
		return fk_ret(cudaErrorInvalidResourceHandle);

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
	return fk_ret(fk_status(sim_stream_destroy(fk.s, ref.dev, ref.h),
				cudaErrorInvalidResourceHandle));
}

static cudaError_t fk_stream_synchronize(cudaStream_t stream, bool ptsz)
{
	fk_sref ref;
	cudaError_t r = fk_init();

	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_sync_check(&ref);
	if (r != cudaSuccess)
		return fk_ret(r);
	/* The legacy stream's work includes what its blocking streams had
	 * queued (observed on an H200): wait for a point on it, which the sim
	 * orders after them. */
	if (ref.kind == FK_S_LEGACY)
		return fk_ret(fk_wait_point(&ref));
	return fk_ret(fk_status(fk.be->stream_synchronize(fk.be->ctx, ref.dev, ref.h),
				cudaErrorInvalidResourceHandle));
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

static cudaError_t fk_stream_query(cudaStream_t stream, bool ptsz)
{
	fk_sref ref;
	cudaError_t r = fk_init();

	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_sync_check(&ref);
	if (r == cudaSuccess)
		r = fk_status(fk.be->stream_query(fk.be->ctx, ref.dev, ref.h),
			      cudaErrorInvalidResourceHandle);
	if (r == cudaSuccess && ref.kind == FK_S_LEGACY && fk_blocking_busy(ref.dev))
		r = cudaErrorNotReady; /* as for cudaStreamSynchronize above */
	return fk_ret(r);
}

FK_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	return fk_stream_synchronize(stream, false);
}

FK_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	return fk_stream_query(stream, false);
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
static cudaError_t fk_hostop_enqueue(const fk_sref *r, fk_hostop *op, bool sync)
{
	fk_waiter w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
	if (sync)
		op->waiter = &w;
	cm_status st = sim_host_func(fk.s, r->dev, r->h, fk_hostop_run, op);
	if (st != CM_OK) {
		free(op->staging);
		free(op);
		return fk_status(st, cudaErrorInvalidResourceHandle);
	}
	if (sync) {
		pthread_mutex_lock(&w.m);
		while (!w.done)
			pthread_cond_wait(&w.c, &w.m);
		pthread_mutex_unlock(&w.m);
		pthread_cond_destroy(&w.c);
		pthread_mutex_destroy(&w.m);
	}
	return cudaSuccess;
}

static cudaError_t fk_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
			     cudaStream_t stream, bool ptsz, bool sync)
{
	fk_sref ref;
	fk_alloc ad, as;
	uint64_t cap;
	cudaError_t r = fk_init();

	if (r != cudaSuccess)
		return fk_ret(r);
	if ((unsigned)kind > (unsigned)cudaMemcpyDefault)
		return fk_ret(cudaErrorInvalidMemcpyDirection);
	if (count == 0)
		return cudaSuccess;
	if (!dst || !src)
		return fk_ret(cudaErrorInvalidValue);
	int fd = fk_lookup_range(dst, count, &ad);
	int fs = fk_lookup_range(src, count, &as);
	if (fd < 0 || fs < 0)
		return fk_ret(cudaErrorInvalidValue);
	if (((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) && fd != 1) ||
	    ((kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) && fs != 1))
		return fk_ret(cudaErrorInvalidValue);

	r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_use(&ref, &cap);
	if (r != cudaSuccess)
		return fk_ret(r);
	if (cap) {
		if (!sync)
			return cudaSuccess; /* recorded into the graph */
		fk_capture_invalidate(cap);
		return fk_ret(cudaErrorStreamCaptureUnsupported);
	}

	if (fd == 1 && fs == 1 && ad.kind != FK_HOST && as.kind != FK_HOST)
		/* Device to device: no host synchronization, even for cudaMemcpy. */
		return fk_ret(fk_status(sim_memcpy_async(fk.s, ref.dev, (uintptr_t)dst,
							 (uintptr_t)src, count, ref.h),
					cudaErrorInvalidValue));

	/* Into pageable memory even cudaMemcpyAsync returns once the copy is
	 * done (documented, and observed on an H200). */
	if (fd == 0)
		sync = true;
	fk_hostop *op = calloc(1, sizeof(*op));
	if (!op)
		return fk_ret(cudaErrorMemoryAllocation);
	op->dst = dst;
	op->src = src;
	op->n = count;
	if (!sync && fs == 0) { /* pageable source: staged at the call */
		op->staging = malloc(count);
		if (!op->staging) {
			free(op);
			return fk_ret(cudaErrorMemoryAllocation);
		}
		memcpy(op->staging, src, count);
		op->src = op->staging;
	}
	return fk_ret(fk_hostop_enqueue(&ref, op, sync));
}

static cudaError_t fk_memset(void *devPtr, int value, size_t count, cudaStream_t stream, bool ptsz,
			     bool sync)
{
	fk_sref ref;
	fk_alloc a;
	uint64_t cap;
	cudaError_t r = fk_init();

	if (r != cudaSuccess)
		return fk_ret(r);
	if (count == 0)
		return cudaSuccess;
	if (fk_lookup_range(devPtr, count, &a) != 1)
		return fk_ret(cudaErrorInvalidValue);
	r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_use(&ref, &cap);
	if (r != cudaSuccess)
		return fk_ret(r);
	if (cap) {
		if (!sync)
			return cudaSuccess;
		fk_capture_invalidate(cap);
		return fk_ret(cudaErrorStreamCaptureUnsupported);
	}
	if (a.kind != FK_HOST) /* asynchronous for device memory, even cudaMemset */
		return fk_ret(fk_status(sim_memset_async(fk.s, ref.dev, (uintptr_t)devPtr, value,
							 count, ref.h),
					cudaErrorInvalidValue));

	fk_hostop *op = calloc(1, sizeof(*op));
	if (!op)
		return fk_ret(cudaErrorMemoryAllocation);
	op->dst = devPtr;
	op->n = count;
	op->value = value;
	op->set = true;
	return fk_ret(fk_hostop_enqueue(&ref, op, sync)); /* pinned: synchronous */
}

static cudaError_t fk_host_func(cudaStream_t stream, cudaHostFn_t fn, void *userData, bool ptsz)
{
	fk_sref ref;
	uint64_t cap;
	cudaError_t r = fk_init();

	if (r == cudaSuccess && !fn)
		r = cudaErrorInvalidValue;
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess)
		r = fk_stream_use(&ref, &cap);
	if (r != cudaSuccess || cap)
		return fk_ret(r);
	return fk_ret(fk_status(sim_host_func(fk.s, ref.dev, ref.h, fn, userData),
				cudaErrorInvalidResourceHandle));
}

FK_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	return fk_memcpy(dst, src, count, kind, 0, false, true);
}

FK_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return fk_memcpy(dst, src, count, kind, stream, false, false);
}

FK_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return fk_memset(devPtr, value, count, 0, false, true);
}

FK_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return fk_memset(devPtr, value, count, stream, false, false);
}

FK_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	return fk_host_func(stream, fn, userData, false);
}

/* ---- events ------------------------------------------------------------- */

static bool fk_event_index(cudaEvent_t e, size_t *idx)
{
	uintptr_t h = (uintptr_t)e;
	if ((h & 0xffffffffu) == 0)
		return false;
	*idx = (size_t)(h & 0xffffffffu) - 1;
	return true;
}

/* The live entry of e (fk.lock held), or NULL. */
static fk_event_info *fk_event_entry(cudaEvent_t e)
{
	size_t i;
	if (!fk_event_index(e, &i) || i >= fk.nevents)
		return NULL;
	fk_event_info *ei = &fk.events[i];
	return ei->live && ei->h == (cm_event)e ? ei : NULL;
}

static cudaError_t fk_event_get(cudaEvent_t e, fk_event_info *out)
{
	pthread_mutex_lock(&fk.lock);
	fk_event_info *ei = fk_event_entry(e);
	if (ei)
		*out = *ei;
	pthread_mutex_unlock(&fk.lock);
	return ei ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

static cudaError_t fk_event_create(cudaEvent_t *event, unsigned flags)
{
	const unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
	cudaError_t r = fk_init();
	cm_event h;
	size_t i;

	if (r != cudaSuccess)
		return fk_ret(r);
	if (!event || (flags & ~known) ||
	    ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
		return fk_ret(cudaErrorInvalidValue);
	int dev = fk_cur_dev();
	if (fk.be->event_create(fk.be->ctx, dev, &h) != CM_OK)
		return fk_ret(cudaErrorMemoryAllocation);
	if (!fk_event_index((cudaEvent_t)h, &i)) { /* the sim's handles are never 0 */
		fk.be->event_destroy(fk.be->ctx, dev, h);
		return fk_ret(cudaErrorUnknown);
	}

	pthread_mutex_lock(&fk.lock);
	if (i >= fk.nevents) {
		size_t n = fk.nevents * 2 > i + 1 ? fk.nevents * 2 : i + 64;
		fk_event_info *v = realloc(fk.events, n * sizeof(*v));
		if (v) {
			memset(v + fk.nevents, 0, (n - fk.nevents) * sizeof(*v));
			fk.events = v;
			fk.nevents = n;
		}
	}
	bool ok = i < fk.nevents;
	if (ok)
		fk.events[i] = (fk_event_info){ .h = h, .live = true, .dev = dev, .flags = flags };
	pthread_mutex_unlock(&fk.lock);
	if (!ok) {
		fk.be->event_destroy(fk.be->ctx, dev, h);
		return fk_ret(cudaErrorMemoryAllocation);
	}
	*event = (cudaEvent_t)h;
	return cudaSuccess;
}

FK_API cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return fk_event_create(event, cudaEventDefault);
}

FK_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	return fk_event_create(event, flags);
}

FK_API cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	cudaError_t r = fk_init();
	if (r != cudaSuccess)
		return fk_ret(r);
	pthread_mutex_lock(&fk.lock);
	fk_event_info *ei = fk_event_entry(event);
	int dev = ei ? ei->dev : 0;
	if (ei)
		ei->live = false;
	pthread_mutex_unlock(&fk.lock);
	if (!ei)
		return fk_ret(cudaErrorInvalidResourceHandle);
	return fk_ret(fk_status(fk.be->event_destroy(fk.be->ctx, dev, (cm_event)event),
				cudaErrorInvalidResourceHandle));
}

static cudaError_t fk_event_record(cudaEvent_t event, cudaStream_t stream, bool ptsz)
{
	fk_event_info ei;
	fk_sref ref;
	uint64_t cap;
	cudaError_t r = fk_init();

	if (r == cudaSuccess)
		r = fk_event_get(event, &ei);
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess && ref.dev != ei.dev)
		r = cudaErrorInvalidResourceHandle;
	if (r == cudaSuccess)
		r = fk_stream_use(&ref, &cap);
	if (r != cudaSuccess)
		return fk_ret(r);
	if (!cap) {
		cm_status st = fk.be->event_record(fk.be->ctx, ref.dev, (cm_event)event, ref.h);
		if (st != CM_OK)
			return fk_ret(fk_status(st, cudaErrorInvalidResourceHandle));
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
	return cudaSuccess;
}

FK_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	return fk_event_record(event, stream, false);
}

static cudaError_t fk_stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags,
					bool ptsz)
{
	fk_event_info ei;
	fk_sref ref;
	cudaError_t r = fk_init();

	if (r == cudaSuccess && (flags & ~(unsigned)cudaEventWaitExternal))
		r = cudaErrorInvalidValue;
	if (r == cudaSuccess)
		r = fk_event_get(event, &ei);
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r != cudaSuccess)
		return fk_ret(r);

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
				r = cudaErrorStreamCaptureImplicit;
				done = true;
			}
		} else {
			fk_capture *sc = fk_capture_of(&ref);
			if (sc) {
				done = true;
				if (sc->invalidated) {
					r = cudaErrorStreamCaptureInvalidated;
				} else if (ec == sc) { /* a dependency inside the graph */
					fk_join *j = fk_join_of(sc, &e->rec);
					if (j && !fk_sref_eq(&e->rec, &ref) && j->joined_at < e->rec_ops)
						j->joined_at = e->rec_ops; /* joined back */
				} else if (!ec && (flags & cudaEventWaitExternal)) {
					r = cudaSuccess; /* an external event node */
				} else if (ec) {
					sc->invalidated = ec->invalidated = true;
					r = cudaErrorStreamCaptureMerge;
				} else {
					sc->invalidated = true;
					r = cudaErrorStreamCaptureIsolation;
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
					r = cudaErrorMemoryAllocation;
				}
			}
		}
		pthread_mutex_unlock(&fk.lock);
		if (join && ref.kind == FK_S_USER)
			sim_set_capturing(fk.s, ref.dev, ref.h, true);
		if (done)
			return fk_ret(r);
	}
	if (flags & cudaEventWaitExternal) /* only meaningful during capture */
		return fk_ret(cudaErrorIllegalState);
	return fk_ret(fk_status(fk.be->stream_wait_event(fk.be->ctx, ref.dev, ref.h,
							 (cm_event)event),
				cudaErrorInvalidResourceHandle));
}

FK_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
	return fk_stream_wait_event(stream, event, flags, false);
}

/* An event last recorded inside an active capture cannot be queried or
 * waited for on the host. */
static cudaError_t fk_event_captured(cudaEvent_t event)
{
	cudaError_t r = cudaSuccess;
	if (atomic_load(&fk.ncaps) == 0)
		return r;
	pthread_mutex_lock(&fk.lock);
	fk_event_info *e = fk_event_entry(event);
	fk_capture *c = e ? fk_capture_by_id(e->cap_id) : NULL;
	if (c) {
		c->invalidated = true;
		r = cudaErrorCapturedEvent;
	}
	pthread_mutex_unlock(&fk.lock);
	return r;
}

FK_API cudaError_t cudaEventQuery(cudaEvent_t event)
{
	fk_event_info ei;
	cudaError_t r = fk_init();

	if (r == cudaSuccess)
		r = fk_event_get(event, &ei);
	if (r == cudaSuccess)
		r = fk_event_captured(event);
	if (r == cudaSuccess)
		r = fk_unsafe_check();
	if (r == cudaSuccess)
		r = fk_status(fk.be->event_query(fk.be->ctx, ei.dev, (cm_event)event),
			      cudaErrorInvalidResourceHandle);
	return fk_ret(r);
}

FK_API cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	fk_event_info ei;
	cudaError_t r = fk_init();

	if (r == cudaSuccess)
		r = fk_event_get(event, &ei);
	if (r == cudaSuccess)
		r = fk_event_captured(event);
	if (r == cudaSuccess)
		r = fk_unsafe_check();
	if (r == cudaSuccess)
		r = fk_status(fk.be->event_synchronize(fk.be->ctx, ei.dev, (cm_event)event),
			      cudaErrorInvalidResourceHandle);
	return fk_ret(r);
}

/* ---- capture ------------------------------------------------------------ */

static cudaError_t fk_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode, bool ptsz)
{
	fk_sref ref;
	cudaError_t r = fk_init();

	if (r == cudaSuccess && (unsigned)mode > (unsigned)cudaStreamCaptureModeRelaxed)
		r = cudaErrorInvalidValue;
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r == cudaSuccess && ref.kind == FK_S_LEGACY)
		r = cudaErrorStreamCaptureUnsupported;
	if (r != cudaSuccess)
		return fk_ret(r);

	fk_capture *c = calloc(1, sizeof(*c));
	if (!c)
		return fk_ret(cudaErrorMemoryAllocation);
	pthread_mutex_lock(&fk.lock);
	if (fk_capture_of(&ref)) {
		r = cudaErrorIllegalState;
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
	if (r != cudaSuccess) {
		free(c);
		return fk_ret(r);
	}
	sim_set_capturing(fk.s, ref.dev, ref.h, true);
	return cudaSuccess;
}

static cudaError_t fk_end_capture(cudaStream_t stream, cudaGraph_t *pGraph, bool ptsz)
{
	fk_sref ref;
	fk_capture *c = NULL;
	cudaError_t r = fk_init();

	if (r == cudaSuccess && !pGraph)
		r = cudaErrorInvalidValue;
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r != cudaSuccess)
		return fk_ret(r);

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
		r = other ? cudaErrorStreamCaptureUnmatched : cudaErrorIllegalState;
	} else {
		if (c->mode != cudaStreamCaptureModeRelaxed && c->tid != fk_thread_id())
			r = cudaErrorStreamCaptureWrongThread;
		fk_capture_unlink(c);
	}
	pthread_mutex_unlock(&fk.lock);
	if (!c)
		return fk_ret(r);

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
	if (r != cudaSuccess)
		return fk_ret(r);
	if (invalidated)
		return fk_ret(cudaErrorStreamCaptureInvalidated);
	if (unjoined)
		return fk_ret(cudaErrorStreamCaptureUnjoined);
	fk_graph *g = calloc(1, sizeof(*g));
	if (!g)
		return fk_ret(cudaErrorMemoryAllocation);
	g->cap_id = id;
	pthread_mutex_lock(&fk.lock);
	g->next = fk.graphs;
	fk.graphs = g;
	pthread_mutex_unlock(&fk.lock);
	*pGraph = (cudaGraph_t)g;
	return cudaSuccess;
}

static cudaError_t fk_is_capturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
				   bool ptsz)
{
	fk_sref ref;
	cudaError_t r = fk_init();

	if (r == cudaSuccess && !status)
		r = cudaErrorInvalidValue;
	if (r == cudaSuccess)
		r = fk_stream_resolve(stream, ptsz, &ref);
	if (r != cudaSuccess)
		return fk_ret(r);
	*status = cudaStreamCaptureStatusNone;
	if (atomic_load(&fk.ncaps) == 0)
		return cudaSuccess;
	pthread_mutex_lock(&fk.lock);
	if (ref.kind == FK_S_LEGACY) {
		/* Not invalidated by the question. */
		for (fk_capture *c = fk.caps; c; c = c->next)
			if (fk_capture_blocks_legacy(c, ref.dev))
				r = cudaErrorStreamCaptureImplicit;
	} else {
		fk_capture *c = fk_capture_of(&ref);
		if (c)
			*status = c->invalidated ? cudaStreamCaptureStatusInvalidated
						 : cudaStreamCaptureStatusActive;
	}
	pthread_mutex_unlock(&fk.lock);
	return fk_ret(r);
}

FK_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
	return fk_begin_capture(stream, mode, false);
}

FK_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	return fk_end_capture(stream, pGraph, false);
}

FK_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
					 enum cudaStreamCaptureStatus *pCaptureStatus)
{
	return fk_is_capturing(stream, pCaptureStatus, false);
}

FK_API cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
	if (!mode || (unsigned)*mode > (unsigned)cudaStreamCaptureModeRelaxed)
		return fk_ret(cudaErrorInvalidValue);
	enum cudaStreamCaptureMode old = fk_thread_mode;
	fk_thread_mode = *mode;
	*mode = old;
	return cudaSuccess;
}

FK_API cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	fk_graph *g = NULL;
	cudaError_t r = fk_init();

	if (r != cudaSuccess)
		return fk_ret(r);
	pthread_mutex_lock(&fk.lock);
	for (fk_graph **pp = &fk.graphs; *pp; pp = &(*pp)->next) {
		if (*pp == (fk_graph *)graph) {
			g = *pp;
			*pp = g->next;
			break;
		}
	}
	pthread_mutex_unlock(&fk.lock);
	if (!g)
		return fk_ret(cudaErrorInvalidValue);
	free(g);
	return cudaSuccess;
}

/* ---- device reset ------------------------------------------------------- */

/* Ends the captures on dev, destroys its user streams and its events. */
void fk_streams_reset_dev(int dev)
{
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
			if (fk.streams[i].live && fk.streams[i].dev == dev) {
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
			if (fk.events[i].live && fk.events[i].dev == dev) {
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

/* ---- per-thread default stream entry points ----------------------------- */

#define FK_PTSZ(name) FK_API __typeof__(name) name##_ptsz;
FK_PTSZ(cudaMemcpyAsync)
FK_PTSZ(cudaMemsetAsync)
FK_PTSZ(cudaLaunchHostFunc)
FK_PTSZ(cudaStreamSynchronize)
FK_PTSZ(cudaStreamQuery)
FK_PTSZ(cudaEventRecord)
FK_PTSZ(cudaStreamWaitEvent)
FK_PTSZ(cudaStreamIsCapturing)
FK_PTSZ(cudaStreamBeginCapture)
FK_PTSZ(cudaStreamEndCapture)
#undef FK_PTSZ
FK_API __typeof__(cudaMemcpy) cudaMemcpy_ptds;
FK_API __typeof__(cudaMemset) cudaMemset_ptds;

FK_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind)
{
	return fk_memcpy(dst, src, count, kind, 0, true, true);
}

FK_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return fk_memset(devPtr, value, count, 0, true, true);
}

FK_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
					enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return fk_memcpy(dst, src, count, kind, stream, true, false);
}

FK_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return fk_memset(devPtr, value, count, stream, true, false);
}

FK_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	return fk_host_func(stream, fn, userData, true);
}

FK_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return fk_stream_synchronize(stream, true);
}

FK_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return fk_stream_query(stream, true);
}

FK_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	return fk_event_record(event, stream, true);
}

FK_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
					    unsigned int flags)
{
	return fk_stream_wait_event(stream, event, flags, true);
}

FK_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
					      enum cudaStreamCaptureStatus *pCaptureStatus)
{
	return fk_is_capturing(stream, pCaptureStatus, true);
}

FK_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					       enum cudaStreamCaptureMode mode)
{
	return fk_begin_capture(stream, mode, true);
}

FK_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
	return fk_end_capture(stream, pGraph, true);
}
