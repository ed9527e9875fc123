/* tests/fakecuda/probe.c - the CUDA runtime semantics the fake runtime
 * models, as observed.
 *
 * Prints one line "key: value" per question (error codes by name, yes/no
 * answers, a few values). Built against NVIDIA's runtime on a GPU machine
 * (`cc probe.c -lcudart -lpthread`), its output is the reference; the
 * recorded reference of an H200 lives beside it (probe-h200.txt), and the
 * test `fakecuda-probe` runs the probe on the fake runtime with that file as
 * argument: every line that differs is a FAIL line. Lines whose key starts
 * with "info." are printed but not compared (versions, sizes of this GPU),
 * nor are lines starting with '#'.
 *
 * Timing questions ("waits for queued work") put a host function that
 * sleeps PROBE_SLOW_MS on a stream and time the call under test: returning
 * within a third of that is "no", after at least two thirds is "yes".
 */
#include <cuda_runtime_api.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <time.h>

#define PROBE_SLOW_MS 300

#include "probe_common.h"

static void code(const char *key, cudaError_t e)
{
	say(key, "%s", cudaGetErrorName(e));
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void CUDART_CB slow_fn(void *arg)
{
	(void)arg;
	sleep_ms(PROBE_SLOW_MS);
}

static void slow(cudaStream_t s)
{
	cudaLaunchHostFunc(s, slow_fn, NULL);
}

/* "yes" if the call took at least 2/3 of the slow work, "no" if under 1/3. */
static void waited(const char *key, double ms)
{
	say(key, "%s", ms >= PROBE_SLOW_MS * 2.0 / 3 ? "yes" : ms < PROBE_SLOW_MS / 3.0 ? "no"
											 : "unclear");
}

static void reset_error(void)
{
	(void)cudaGetLastError();
}

/* ---- plain calls -------------------------------------------------------- */

static void probe_errors(void)
{
	void *p = (void *)&p;
	int on_stack[4];

	code("malloc.size0", cudaMalloc(&p, 0));
	say("malloc.size0.ptr", "%s", p ? "non-NULL" : "NULL");
	code("malloc.null", cudaMalloc(NULL, 64));
	code("lasterror.after-malloc-null", cudaPeekAtLastError());
	code("lasterror.get", cudaGetLastError());
	code("lasterror.get-again", cudaGetLastError());
	code("malloc.huge", cudaMalloc(&p, (size_t)1 << 60));
	code("lasterror.after-malloc-huge", cudaGetLastError());
	code("free.null", cudaFree(NULL));
	code("free.stack", cudaFree(on_stack));
	reset_error();
	if (cudaMalloc(&p, 4096) != cudaSuccess)
		return;
	code("free.interior", cudaFree((char *)p + 512));
	reset_error();
	code("free.first", cudaFree(p));
	code("free.double", cudaFree(p));
	reset_error();
	code("freehost.device-ptr", (cudaMalloc(&p, 4096), cudaFreeHost(p)));
	reset_error();
	code("free.device-after-freehost-refusal", cudaFree(p));
	p = (void *)&p;
	code("mallochost.size0", cudaMallocHost(&p, 0));
	say("mallochost.size0.ptr", "%s", p ? "non-NULL" : "NULL");
	p = (void *)&p;
	code("mallocmanaged.size0", cudaMallocManaged(&p, 0, cudaMemAttachGlobal));
	say("mallocmanaged.size0.ptr", "%s", p ? "non-NULL" : "NULL");
	reset_error();
	code("mallocmanaged.badflags", cudaMallocManaged(&p, 4096, 0));
	reset_error();
	size_t pitch = 0;
	code("mallocpitch.100x10", cudaMallocPitch(&p, &pitch, 100, 10));
	say("info.mallocpitch.100x10.pitch", "%zu", pitch);
	cudaFree(p);
	cudaStream_t s;
	code("streamcreate.badflags", cudaStreamCreateWithFlags(&s, 0x4));
	reset_error();
	cudaEvent_t ev;
	code("eventcreate.interprocess-timing", cudaEventCreateWithFlags(&ev, cudaEventInterprocess));
	reset_error();
	code("streamdestroy.0", cudaStreamDestroy(0));
	reset_error();
	code("streamdestroy.legacy", cudaStreamDestroy(cudaStreamLegacy));
	reset_error();
	say("errorname.9999", "%s", cudaGetErrorName((cudaError_t)9999));
	say("errorstring.invalidvalue", "%s", cudaGetErrorString(cudaErrorInvalidValue));
	say("errorstring.memoryallocation", "%s", cudaGetErrorString(cudaErrorMemoryAllocation));
	say("errorstring.notready", "%s", cudaGetErrorString(cudaErrorNotReady));
	int v = 0;
	cudaRuntimeGetVersion(&v);
	say("info.runtime-version", "%d", v);
	cudaDriverGetVersion(&v);
	say("info.driver-version", "%d", v);
}

static void probe_memcpy_memset(void)
{
	void *d = NULL, *d2 = NULL, *pinned = NULL;
	char host[4096], *big = malloc(1 << 20);

	cudaMalloc(&d, 1 << 20);
	cudaMalloc(&d2, 1 << 20);
	cudaMallocHost(&pinned, 4096);
	code("memcpy.count0", cudaMemcpy(host, d, 0, cudaMemcpyDeviceToHost));
	code("memcpy.h2d-to-host-ptr", cudaMemcpy(host, host + 64, 64, cudaMemcpyHostToDevice));
	reset_error();
	code("memcpy.d2d-host-src", cudaMemcpy(d, host, 64, cudaMemcpyDeviceToDevice));
	reset_error();
	code("memcpy.default-h2h", cudaMemcpy(host, host + 64, 64, cudaMemcpyDefault));
	code("memcpy.badkind", cudaMemcpy(host, d, 64, (enum cudaMemcpyKind)7));
	reset_error();
	code("memset.pageable", cudaMemset(host, 0, 64));
	reset_error();
	code("memset.pinned", cudaMemset(pinned, 0, 64));
	code("memset.count0-null", cudaMemset(NULL, 0, 0));
	reset_error();
	code("memset.past-end", cudaMemset((char *)d + (1 << 20) - 64, 0, 128));
	reset_error();

	double t;
	slow(0);
	t = now_ms();
	cudaMemset(d, 1, 1 << 20);
	waited("memset.device.waits-for-queued-work", now_ms() - t);
	cudaDeviceSynchronize();

	slow(0);
	t = now_ms();
	cudaMemcpy(d2, d, 1 << 20, cudaMemcpyDeviceToDevice);
	waited("memcpy.d2d.waits-for-queued-work", now_ms() - t);
	cudaDeviceSynchronize();

	slow(0);
	t = now_ms();
	cudaMemcpy(big, d, 1 << 20, cudaMemcpyDeviceToHost);
	waited("memcpy.d2h.waits-for-queued-work", now_ms() - t);
	cudaDeviceSynchronize();

	slow(0);
	t = now_ms();
	cudaMemcpy(d, big, 1 << 20, cudaMemcpyHostToDevice);
	waited("memcpy.h2d-pageable.waits-for-queued-work", now_ms() - t);
	cudaDeviceSynchronize();

	slow(0);
	t = now_ms();
	cudaMemset(pinned, 1, 4096);
	waited("memset.pinned.waits-for-queued-work", now_ms() - t);
	cudaDeviceSynchronize();

	/* A pageable source of cudaMemcpyAsync can be reused once it returns. */
	cudaStream_t s;
	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	memset(host, 0x11, sizeof(host));
	slow(s);
	t = now_ms();
	cudaMemcpyAsync(d, host, sizeof(host), cudaMemcpyHostToDevice, s);
	waited("memcpyasync.h2d-pageable.waits-for-queued-work", now_ms() - t);
	memset(host, 0x22, sizeof(host));
	cudaStreamSynchronize(s);
	cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost);
	say("memcpyasync.h2d-pageable.source-copied-at-call", "%s",
	    host[0] == 0x11 && host[sizeof(host) - 1] == 0x11 ? "yes" : "no");
	cudaStreamDestroy(s);

	cudaFree(d);
	cudaFree(d2);
	cudaFreeHost(pinned);
	free(big);
	reset_error();
}

static void probe_sync(void)
{
	cudaStream_t nb, b;
	void *p = NULL, *q = NULL;
	double t;

	cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
	cudaStreamCreate(&b);

	cudaMalloc(&p, 4096);
	slow(nb);
	t = now_ms();
	cudaFree(p);
	waited("free.waits-for-nonblocking-stream", now_ms() - t);
	cudaDeviceSynchronize();

	cudaMallocAsync(&q, 4096, nb);
	cudaStreamSynchronize(nb);
	slow(b);
	t = now_ms();
	code("free.mallocasync-memory", cudaFree(q));
	waited("free.mallocasync-memory.waits", now_ms() - t);
	cudaDeviceSynchronize();

	slow(b);
	t = now_ms();
	cudaMalloc(&p, 4096);
	waited("malloc.waits-for-queued-work", now_ms() - t);
	cudaDeviceSynchronize();
	cudaFree(p);

	slow(b);
	t = now_ms();
	cudaStreamSynchronize(0);
	waited("streamsync.legacy.waits-for-blocking-stream", now_ms() - t);
	cudaDeviceSynchronize();

	slow(b);
	code("streamquery.legacy-idle-blocking-busy", cudaStreamQuery(0));
	reset_error();
	cudaDeviceSynchronize();

	slow(0);
	t = now_ms();
	cudaStreamSynchronize(b);
	waited("streamsync.idle-blocking.waits-for-legacy", now_ms() - t);
	cudaDeviceSynchronize();

	slow(0);
	t = now_ms();
	cudaStreamSynchronize(cudaStreamPerThread);
	waited("streamsync.idle-perthread.waits-for-legacy", now_ms() - t);
	cudaDeviceSynchronize();

	slow(b);
	t = now_ms();
	{
		cudaEvent_t e;
		cudaEventCreate(&e);
		cudaEventRecord(e, 0);
		cudaEventSynchronize(e);
		cudaEventDestroy(e);
	}
	waited("eventsync.legacy-event.waits-for-blocking-stream", now_ms() - t);
	cudaDeviceSynchronize();

	slow(nb);
	t = now_ms();
	{
		char h[64];
		cudaMalloc(&p, 4096);
		t = now_ms();
		cudaMemcpy(h, p, 64, cudaMemcpyDeviceToHost);
		waited("memcpy.d2h.waits-for-nonblocking-stream", now_ms() - t);
		cudaDeviceSynchronize();
		slow(nb);
		t = now_ms();
		cudaMemcpyAsync(h, p, 64, cudaMemcpyDeviceToHost, nb);
		waited("memcpyasync.d2h-pageable.waits-for-its-stream", now_ms() - t);
		cudaDeviceSynchronize();
		cudaFree(p);
	}
	{
		void *h = NULL;
		cudaMallocHost(&h, 4096);
		slow(nb);
		t = now_ms();
		cudaFreeHost(h);
		waited("freehost.waits-for-nonblocking-stream", now_ms() - t);
		cudaDeviceSynchronize();
	}

	slow(nb);
	code("streamquery.busy", cudaStreamQuery(nb));
	code("lasterror.after-notready", cudaGetLastError());
	cudaEvent_t ev;
	cudaEventCreate(&ev);
	cudaEventRecord(ev, nb);
	code("eventquery.busy", cudaEventQuery(ev));
	code("lasterror.after-event-notready", cudaGetLastError());
	cudaDeviceSynchronize();
	code("streamquery.idle", cudaStreamQuery(nb));
	code("eventquery.done", cudaEventQuery(ev));
	cudaEvent_t never;
	cudaEventCreate(&never);
	code("eventquery.never-recorded", cudaEventQuery(never));
	code("eventsync.never-recorded", cudaEventSynchronize(never));
	code("streamwaitevent.never-recorded", cudaStreamWaitEvent(nb, never, 0));
	code("streamwaitevent.external-outside-capture",
	     cudaStreamWaitEvent(nb, ev, cudaEventWaitExternal));
	reset_error();
	cudaEventDestroy(never);
	cudaEventDestroy(ev);

	code("mallocasync.size0", cudaMallocAsync(&q, 0, nb));
	say("mallocasync.size0.ptr", "%s", q ? "non-NULL" : "NULL");
	reset_error();
	code("freeasync.null", cudaFreeAsync(NULL, nb));
	reset_error();
	cudaMalloc(&p, 4096);
	code("freeasync.malloc-memory", cudaFreeAsync(p, nb));
	reset_error();
	cudaDeviceSynchronize();
	cudaStreamDestroy(nb);
	cudaStreamDestroy(b);
	reset_error();
}

static void probe_pointers(void)
{
	struct cudaPointerAttributes a;
	int on_stack;
	void *d = NULL, *h = NULL, *m = NULL, *as = NULL;
	cudaIpcMemHandle_t ih;

	cudaMalloc(&d, 1 << 20);
	cudaMallocHost(&h, 4096);
	cudaMallocManaged(&m, 4096, cudaMemAttachGlobal);
	cudaMallocAsync(&as, 4096, 0);
	cudaDeviceSynchronize();

	memset(&a, 0x5a, sizeof(a));
	code("attr.stack", cudaPointerGetAttributes(&a, &on_stack));
	say("attr.stack.fields", "type %d device %d devptr %s hostptr %s", (int)a.type, a.device,
	    a.devicePointer ? "set" : "NULL",
	    a.hostPointer == (void *)&on_stack ? "ptr" : a.hostPointer ? "other" : "NULL");
	memset(&a, 0x5a, sizeof(a));
	code("attr.null", cudaPointerGetAttributes(&a, NULL));
	say("attr.null.fields", "type %d device %d", (int)a.type, a.device);
	reset_error();
	memset(&a, 0x5a, sizeof(a));
	code("attr.device-interior", cudaPointerGetAttributes(&a, (char *)d + 4096));
	say("attr.device-interior.fields", "type %d device %d devptr %s hostptr %s", (int)a.type,
	    a.device, a.devicePointer == (char *)d + 4096 ? "ptr" : "other",
	    a.hostPointer ? "set" : "NULL");
	memset(&a, 0x5a, sizeof(a));
	code("attr.pinned", cudaPointerGetAttributes(&a, h));
	say("attr.pinned.fields", "type %d devptr %s hostptr %s", (int)a.type,
	    a.devicePointer == h ? "ptr" : "other", a.hostPointer == h ? "ptr" : "other");
	memset(&a, 0x5a, sizeof(a));
	code("attr.managed", cudaPointerGetAttributes(&a, m));
	say("attr.managed.fields", "type %d devptr %s hostptr %s", (int)a.type,
	    a.devicePointer == m ? "ptr" : "other", a.hostPointer == m ? "ptr" : "other");
	memset(&a, 0x5a, sizeof(a));
	code("attr.mallocasync", cudaPointerGetAttributes(&a, as));
	say("attr.mallocasync.fields", "type %d", (int)a.type);
	code("attr.null-attributes", cudaPointerGetAttributes(NULL, d));
	reset_error();

	code("ipc.start", cudaIpcGetMemHandle(&ih, d));
	code("ipc.interior", cudaIpcGetMemHandle(&ih, (char *)d + 4096));
	reset_error();
	code("ipc.mallocasync", cudaIpcGetMemHandle(&ih, as));
	reset_error();
	code("ipc.managed", cudaIpcGetMemHandle(&ih, m));
	reset_error();
	code("ipc.pinned", cudaIpcGetMemHandle(&ih, h));
	reset_error();
	/* Opening in the exporting process itself, and bytes that are no handle. */
	void *opened = NULL;
	cudaIpcGetMemHandle(&ih, d);
	code("ipc.open-own", cudaIpcOpenMemHandle(&opened, ih, cudaIpcMemLazyEnablePeerAccess));
	reset_error();
	memset(&ih, 0, sizeof(ih));
	code("ipc.open-zero", cudaIpcOpenMemHandle(&opened, ih, cudaIpcMemLazyEnablePeerAccess));
	reset_error();
	code("ipc.close-unknown", cudaIpcCloseMemHandle(d));
	reset_error();

	cudaFree(d);
	cudaFreeHost(h);
	cudaFree(m);
	cudaFreeAsync(as, 0);
	cudaDeviceSynchronize();
	reset_error();
}

/* ---- capture ------------------------------------------------------------ */

static cudaError_t thread_result;
static int thread_relaxed;

static void *other_thread_malloc(void *arg)
{
	void *q = NULL;
	(void)arg;
	if (thread_relaxed) {
		enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
		cudaThreadExchangeStreamCaptureMode(&m);
	}
	thread_result = cudaMalloc(&q, 4096);
	if (thread_result == cudaSuccess)
		cudaFree(q);
	(void)cudaGetLastError();
	return NULL;
}

static void *other_thread_end(void *arg)
{
	cudaGraph_t g = NULL;
	thread_result = cudaStreamEndCapture((cudaStream_t)arg, &g);
	if (g)
		cudaGraphDestroy(g);
	(void)cudaGetLastError();
	return NULL;
}

static cudaError_t on_thread(void *(*fn)(void *), void *arg)
{
	pthread_t th;
	thread_result = cudaErrorUnknown;
	if (pthread_create(&th, NULL, fn, arg) == 0)
		pthread_join(th, NULL);
	return thread_result;
}

static cudaStream_t cap_stream(unsigned flags)
{
	cudaStream_t s;
	cudaStreamCreateWithFlags(&s, flags);
	return s;
}

/* Ends the capture on s, prints the result, cleans up. */
static void cap_end(const char *key, cudaStream_t s)
{
	cudaGraph_t g = NULL;
	char k[128];
	snprintf(k, sizeof(k), "%s.endcapture", key);
	code(k, cudaStreamEndCapture(s, &g));
	snprintf(k, sizeof(k), "%s.graph", key);
	say(k, "%s", g ? "non-NULL" : "NULL");
	if (g)
		cudaGraphDestroy(g);
	reset_error();
	cudaStreamDestroy(s);
	cudaDeviceSynchronize();
	reset_error();
}

static void cap_status(const char *key, cudaStream_t s)
{
	enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
	cudaError_t e = cudaStreamIsCapturing(s, &st);
	say(key, "%s status %d", cudaGetErrorName(e), e == cudaSuccess ? (int)st : -1);
	reset_error();
}

static void probe_capture(void)
{
	cudaStream_t s, t;
	cudaEvent_t ev, ev2;
	void *p = NULL, *q = NULL, *g = NULL;

	code("capture.begin-legacy", cudaStreamBeginCapture(0, cudaStreamCaptureModeRelaxed));
	reset_error();
	code("capture.begin-legacy-explicit",
	     cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeRelaxed));
	reset_error();
	s = cap_stream(cudaStreamNonBlocking);
	code("capture.end-not-capturing", cudaStreamEndCapture(s, (cudaGraph_t *)&g));
	reset_error();
	cudaStreamDestroy(s);

	cudaMalloc(&p, 4096);

	/* Relaxed: allocation and free meanwhile. */
	s = cap_stream(cudaStreamNonBlocking);
	code("relaxed.begin", cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	code("relaxed.begin-again", cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	code("relaxed.malloc", cudaMalloc(&q, 4096));
	code("relaxed.free", cudaFree(q));
	code("relaxed.mallochost", cudaMallocHost(&q, 4096));
	code("relaxed.freehost", cudaFreeHost(q));
	code("relaxed.memcpy-legacy", cudaMemcpy(p, p, 0, cudaMemcpyDeviceToDevice));
	char host[64];
	code("relaxed.memcpy-legacy-d2h", cudaMemcpy(host, p, 64, cudaMemcpyDeviceToHost));
	code("relaxed.mallocasync", cudaMallocAsync(&g, 4096, s));
	code("relaxed.memsetasync", cudaMemsetAsync(g, 0, 4096, s));
	code("relaxed.hostfunc", cudaLaunchHostFunc(s, slow_fn, NULL));
	code("relaxed.freeasync", cudaFreeAsync(g, s));
	cap_status("relaxed.status", s);
	cap_end("relaxed", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("relaxed.devicesync", cudaDeviceSynchronize());
	cap_status("relaxed.devicesync.status", s);
	cap_end("relaxed.devicesync", s);

	/* Global: the capturing thread is prohibited from unsafe calls. */
	q = NULL;
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	code("global.malloc", cudaMalloc(&q, 4096));
	cap_status("global.malloc.status", s);
	cap_end("global.malloc", s);
	if (q)
		cudaFree(q);
	q = NULL;

	s = cap_stream(cudaStreamNonBlocking);
	cudaMalloc(&q, 4096);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	code("global.free", cudaFree(q));
	cap_status("global.free.status", s);
	cap_end("global.free", s);
	cudaFree(q);
	reset_error();
	q = NULL;

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	code("global.mallocasync-other-stream", cudaMallocAsync(&q, 4096, 0));
	cap_status("global.mallocasync-other-stream.status", s);
	cap_end("global.mallocasync-other-stream", s);
	if (q)
		cudaFreeAsync(q, 0);
	cudaDeviceSynchronize();
	reset_error();
	q = NULL;

	/* Which calls a global-mode capture refuses on its own thread. */
	{
		static const char *const names[] = {
			"global.mallocasync-nonblocking-other", "global.freeasync-nonblocking-other",
			"global.memsetasync-nonblocking-other", "global.streamsync-other",
			"global.eventrecord-other", "global.eventquery-other", "global.eventcreate",
			"global.streamcreate", "global.memgetinfo", "global.mallochost",
			"global.streamquery-other", "global.eventsync-other", "global.hostfunc-other",
			"global.memcpy-d2h-legacy", "global.memsetasync-legacy",
		};
		cudaStream_t o = cap_stream(cudaStreamNonBlocking);
		cudaEvent_t e;
		cudaEventCreate(&e);
		void *r = NULL;
		cudaMalloc(&r, 4096);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			cudaError_t res = cudaErrorUnknown;
			void *x = NULL;
			size_t fb, tb;
			char hb[64];
			cudaStream_t ns = NULL;
			cudaEvent_t ne = NULL;
			s = cap_stream(cudaStreamNonBlocking);
			cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
			switch (i) {
			case 0: res = cudaMallocAsync(&x, 4096, o); break;
			case 1:
				cudaStreamEndCapture(s, (cudaGraph_t *)&x);
				x = NULL;
				cudaMallocAsync(&x, 4096, o);
				cudaStreamSynchronize(o);
				cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
				res = cudaFreeAsync(x, o);
				x = NULL;
				break;
			case 2: res = cudaMemsetAsync(r, 0, 64, o); break;
			case 3: res = cudaStreamSynchronize(o); break;
			case 4: res = cudaEventRecord(e, o); break;
			case 5: res = cudaEventQuery(e); break;
			case 6: res = cudaEventCreate(&ne); break;
			case 7: res = cudaStreamCreateWithFlags(&ns, cudaStreamNonBlocking); break;
			case 8: res = cudaMemGetInfo(&fb, &tb); break;
			case 9: res = cudaMallocHost(&x, 64); break;
			case 10: res = cudaStreamQuery(o); break;
			case 11: res = cudaEventSynchronize(e); break;
			case 12: res = cudaLaunchHostFunc(o, slow_fn, NULL); break;
			case 13: res = cudaMemcpy(hb, r, 64, cudaMemcpyDeviceToHost); break;
			case 14: res = cudaMemsetAsync(r, 0, 64, 0); break;
			}
			code(names[i], res);
			char k[128];
			snprintf(k, sizeof(k), "%s.status", names[i]);
			cap_status(k, s);
			cap_end(names[i], s);
			if (i == 0 && x)
				cudaFreeAsync(x, o);
			if (i == 9 && x)
				cudaFreeHost(x);
			if (ne)
				cudaEventDestroy(ne);
			if (ns)
				cudaStreamDestroy(ns);
			cudaDeviceSynchronize();
			reset_error();
		}
		cudaEventDestroy(e);
		cudaFree(r);
		cudaStreamDestroy(o);
		reset_error();
	}

	/* Issue 32's calls not yet measured on a GPU (the fake answers them by
	 * cuThreadExchangeStreamCaptureMode's documented rule; compare once
	 * run on one): pinned and pitched calls in a global capture, a free in
	 * a thread-local one, cudaFreeAsync on the capturing stream of memory
	 * the graph did not allocate in a global one. */
	{
		static const char *const names[] = {
			"global.freehost", "global.hostalloc", "global.mallocpitch",
			"global.malloc3d", "threadlocal.free", "global.freeasync-outside-allocation",
		};
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			cudaError_t res = cudaErrorUnknown;
			void *x = NULL, *h = NULL, *d = NULL;
			size_t pitch;
			struct cudaPitchedPtr pp = {0};
			cudaMallocHost(&h, 64);
			cudaMalloc(&d, 4096);
			s = cap_stream(cudaStreamNonBlocking);
			cudaStreamBeginCapture(s, i == 4 ? cudaStreamCaptureModeThreadLocal
							 : cudaStreamCaptureModeGlobal);
			switch (i) {
			case 0: res = cudaFreeHost(h); break;
			case 1: res = cudaHostAlloc(&x, 64, 0); break;
			case 2: res = cudaMallocPitch(&x, &pitch, 1000, 10); break;
			case 3:
				res = cudaMalloc3D(&pp, (struct cudaExtent){.width = 1000, .height = 10, .depth = 2});
				x = pp.ptr;
				break;
			case 4: res = cudaFree(d); break;
			case 5: res = cudaFreeAsync(d, s); break;
			}
			code(names[i], res);
			char k[128];
			snprintf(k, sizeof(k), "%s.status", names[i]);
			cap_status(k, s);
			cap_end(names[i], s);
			if (x && i == 1)
				cudaFreeHost(x);
			else if (x)
				cudaFree(x);
			if (res != cudaSuccess || i != 0)
				cudaFreeHost(h);
			if (res != cudaSuccess || i != 4)
				cudaFree(d);
			cudaDeviceSynchronize();
			reset_error();
		}
	}

	/* Relaxed: stream-ordered allocation on other streams. */
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("relaxed.mallocasync-legacy", cudaMallocAsync(&q, 4096, 0));
	if (q)
		code("relaxed.freeasync-legacy", cudaFreeAsync(q, 0));
	q = NULL;
	cap_status("relaxed.mallocasync-legacy.status", s);
	cap_end("relaxed.mallocasync-legacy", s);

	/* Global capture on this thread, allocation on another one. */
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	thread_relaxed = 0;
	code("global.other-thread-malloc", on_thread(other_thread_malloc, NULL));
	cap_status("global.other-thread-malloc.status", s);
	cap_end("global.other-thread-malloc", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	thread_relaxed = 1;
	code("global.other-thread-relaxed-malloc", on_thread(other_thread_malloc, NULL));
	cap_status("global.other-thread-relaxed-malloc.status", s);
	cap_end("global.other-thread-relaxed-malloc", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
	thread_relaxed = 0;
	code("threadlocal.other-thread-malloc", on_thread(other_thread_malloc, NULL));
	code("threadlocal.own-malloc", cudaMalloc(&q, 4096));
	cap_status("threadlocal.status", s);
	cap_end("threadlocal", s);
	if (q)
		cudaFree(q);
	q = NULL;
	reset_error();

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	code("global.end-other-thread", on_thread(other_thread_end, s));
	cap_status("global.end-other-thread.status", s);
	cap_end("global.end-other-thread", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("relaxed.end-other-thread", on_thread(other_thread_end, s));
	cap_status("relaxed.end-other-thread.status", s);
	cudaStreamDestroy(s);
	reset_error();

	/* Waiting on an event recorded outside the capture. */
	cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
	cudaEventCreateWithFlags(&ev2, cudaEventDisableTiming);
	cudaEventRecord(ev, 0);
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("wait-outside-event", cudaStreamWaitEvent(s, ev, 0));
	cap_status("wait-outside-event.status", s);
	cap_end("wait-outside-event", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("wait-outside-event-external", cudaStreamWaitEvent(s, ev, cudaEventWaitExternal));
	cap_status("wait-outside-event-external.status", s);
	cap_end("wait-outside-event-external", s);

	/* Queries and synchronization of the capturing stream. */
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("streamquery-capturing", cudaStreamQuery(s));
	cap_status("streamquery-capturing.status", s);
	code("streamquery-capturing.memsetasync-after", cudaMemsetAsync(p, 0, 64, s));
	cap_end("streamquery-capturing", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("streamsync-capturing", cudaStreamSynchronize(s));
	cap_status("streamsync-capturing.status", s);
	cap_end("streamsync-capturing", s);

	/* An event recorded inside the capture. */
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("captured-event.record", cudaEventRecord(ev2, s));
	code("captured-event.wait-same-stream", cudaStreamWaitEvent(s, ev2, 0));
	code("captured-event.query", cudaEventQuery(ev2));
	cap_status("captured-event.query.status", s);
	cap_end("captured-event", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	cudaEventRecord(ev2, s);
	code("captured-event.sync", cudaEventSynchronize(ev2));
	cap_status("captured-event.sync.status", s);
	cap_end("captured-event.sync", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	cudaEventRecord(ev2, s);
	code("captured-event.legacy-waits", cudaStreamWaitEvent(0, ev2, 0));
	cap_status("captured-event.legacy-waits.status", s);
	cap_end("captured-event.legacy-waits", s);

	/* Fork: another stream waits on a captured event and joins. */
	s = cap_stream(cudaStreamNonBlocking);
	t = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	cudaEventRecord(ev2, s);
	code("fork.wait", cudaStreamWaitEvent(t, ev2, 0));
	cap_status("fork.joined-stream.status", t);
	code("fork.joined-stream.memsetasync", cudaMemsetAsync(p, 0, 64, t));
	code("fork.endcapture-on-joined", cudaStreamEndCapture(t, (cudaGraph_t *)&g));
	reset_error();
	cap_end("fork.unjoined", s);
	cap_status("fork.joined-stream.after", t);
	cudaStreamDestroy(t);
	reset_error();

	s = cap_stream(cudaStreamNonBlocking);
	t = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	cudaEventRecord(ev2, s);
	cudaStreamWaitEvent(t, ev2, 0);
	cudaMemsetAsync(p, 0, 64, t);
	cap_end("fork2.unjoined", s);
	cap_status("fork2.joined-stream.after", t);
	code("fork2.joined-stream.memsetasync-after", cudaMemsetAsync(p, 0, 64, t));
	cudaStreamDestroy(t);
	reset_error();

	s = cap_stream(cudaStreamNonBlocking);
	t = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	cudaEventRecord(ev2, s);
	cudaStreamWaitEvent(t, ev2, 0);
	cudaMemsetAsync(p, 0, 64, t);
	cudaEventRecord(ev, t);
	code("fork.join-back", cudaStreamWaitEvent(s, ev, 0));
	cap_end("fork.joined", s);
	cap_status("fork.joined.after", t);
	cudaStreamDestroy(t);
	reset_error();

	/* The legacy stream while a blocking stream captures. */
	s = cap_stream(cudaStreamDefault);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	cap_status("blocking.legacy-iscapturing", 0);
	cap_status("blocking.status-after-iscapturing", s);
	code("blocking.legacy-memsetasync", cudaMemsetAsync(p, 0, 64, 0));
	cap_status("blocking.status-after-legacy-use", s);
	cap_end("blocking", s);

	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("nonblocking.legacy-memsetasync", cudaMemsetAsync(p, 0, 64, 0));
	cap_status("nonblocking.legacy-iscapturing", 0);
	cap_end("nonblocking", s);

	/* Frees during the capture of memory not allocated in it. */
	s = cap_stream(cudaStreamNonBlocking);
	cudaMalloc(&q, 4096);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("freeasync-outside-allocation", cudaFreeAsync(q, s));
	cap_status("freeasync-outside-allocation.status", s);
	cap_end("freeasync-outside-allocation", s);
	cudaFree(q);
	reset_error();

	/* Per-thread stream capture. */
	code("ptds.begin", cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeRelaxed));
	cap_status("ptds.status", cudaStreamPerThread);
	cap_status("ptds.legacy-iscapturing", 0);
	{
		cudaGraph_t gr = NULL;
		code("ptds.endcapture", cudaStreamEndCapture(cudaStreamPerThread, &gr));
		if (gr)
			cudaGraphDestroy(gr);
		reset_error();
	}

	/* Destroying a capturing stream. */
	s = cap_stream(cudaStreamNonBlocking);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
	code("destroy-capturing", cudaStreamDestroy(s));
	reset_error();

	cudaEventDestroy(ev);
	cudaEventDestroy(ev2);
	cudaFree(p);
	cudaDeviceSynchronize();
	reset_error();
}

int main(int argc, char **argv)
{
	if (cudaFree(NULL) != cudaSuccess) {
		printf("FAIL probe: no CUDA device\n");
		return 1;
	}
	probe_errors();
	probe_memcpy_memset();
	probe_sync();
	probe_pointers();
	probe_capture();
	return argc > 1 ? compare(argv[1]) : 0;
}
