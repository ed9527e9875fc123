/* prog_capture_modes: allocations and frees while a stream captures a
 * graph, answered as CUDA answers them, per capture mode and per API
 * (docs/design.md, rule 7; issue 32).
 *
 * Each call (runtime and driver; device, pitched and pinned host memory;
 * the stream-ordered ones on a stream outside the capture) is made during
 * a capture in each mode, on the capturing thread and on another one, and
 * must get CUDA's answer: where the thread's mode forbids it (global or
 * thread-local on the capturing thread, global on another thread while the
 * capture is global) cudaErrorStreamCaptureUnsupported /
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, the capture invalidated and its
 * end cudaErrorStreamCaptureInvalidated with no graph, and a refused free
 * leaves the block the program's (freed again after: success); elsewhere
 * success and a graph. These are an H200's answers (probe-h200.txt:
 * global.malloc, global.free, global.mallochost, threadlocal.*,
 * global.other-thread-*, global.mallocasync-other-stream,
 * global.freeasync-nonblocking-other; the other calls follow the rule
 * cuThreadExchangeStreamCaptureMode documents, which the fake keeps).
 * cudaFreeAsync on the capturing stream of memory the graph did not
 * allocate is cudaErrorInvalidValue, the capture going on
 * (freeasync-outside-allocation), every time: the block stays the
 * program's.
 *
 * With the argument expect-held (under the cache): the blocks of a relaxed
 * capture (one freed during it, one handed out during it and freed after
 * it) are not handed out again while an executable graph made from it
 * lives, its graph destroyed (PyTorch's order); checked by address and by
 * the data of the blocks handed out meanwhile. CUDA itself would hand that
 * memory out again (the program freed it), so the plain run skips this.
 */
#include <cuda.h>

#include <pthread.h>
#include <string.h>

#include "common.h"

#define BLOCK ((size_t)1 << 20)
#define HOST_BLOCK ((size_t)64 << 10)

enum need { NEED_NONE, NEED_DEVICE, NEED_HOST };

/* One call: its answer as an int (a cudaError_t or a CUresult), made on
 * `other` (a stream outside the capture) with `block` where it frees one;
 * what it allocated goes to *made (freed after the capture). */
typedef struct op {
	const char *name;
	bool driver;
	enum need need;
	int (*call)(void *block, cudaStream_t other, void **made);
} op;

static int rt_malloc(void *b, cudaStream_t o, void **m) { (void)b; (void)o; return cudaMalloc(m, BLOCK); }
static int rt_free(void *b, cudaStream_t o, void **m) { (void)o; (void)m; return cudaFree(b); }
static int rt_pitch(void *b, cudaStream_t o, void **m)
{
	size_t pitch;
	(void)b; (void)o;
	return cudaMallocPitch(m, &pitch, 1000, 100);
}
static int rt_3d(void *b, cudaStream_t o, void **m)
{
	struct cudaPitchedPtr pp = {0};
	(void)b; (void)o;
	cudaError_t e = cudaMalloc3D(&pp, (struct cudaExtent){.width = 1000, .height = 10, .depth = 10});
	*m = pp.ptr;
	return e;
}
static int rt_malloc_async(void *b, cudaStream_t o, void **m) { (void)b; return cudaMallocAsync(m, BLOCK, o); }
static int rt_free_async(void *b, cudaStream_t o, void **m) { (void)m; return cudaFreeAsync(b, o); }
static int rt_malloc_host(void *b, cudaStream_t o, void **m) { (void)b; (void)o; return cudaMallocHost(m, HOST_BLOCK); }
static int rt_host_alloc(void *b, cudaStream_t o, void **m) { (void)b; (void)o; return cudaHostAlloc(m, HOST_BLOCK, 0); }
static int rt_free_host(void *b, cudaStream_t o, void **m) { (void)o; (void)m; return cudaFreeHost(b); }
static int cu_alloc(void *b, cudaStream_t o, void **m) { (void)b; (void)o; return cuMemAlloc((CUdeviceptr *)m, BLOCK); }
static int cu_free(void *b, cudaStream_t o, void **m) { (void)o; (void)m; return cuMemFree((CUdeviceptr)b); }
static int cu_pitch(void *b, cudaStream_t o, void **m)
{
	size_t pitch;
	(void)b; (void)o;
	return cuMemAllocPitch((CUdeviceptr *)m, &pitch, 1000, 100, 4);
}
static int cu_alloc_host(void *b, cudaStream_t o, void **m) { (void)b; (void)o; return cuMemAllocHost(m, HOST_BLOCK); }
static int cu_host_alloc(void *b, cudaStream_t o, void **m) { (void)b; (void)o; return cuMemHostAlloc(m, HOST_BLOCK, 0); }
static int cu_free_host(void *b, cudaStream_t o, void **m) { (void)o; (void)m; return cuMemFreeHost(b); }
static int cu_alloc_async(void *b, cudaStream_t o, void **m) { (void)b; return cuMemAllocAsync((CUdeviceptr *)m, BLOCK, (CUstream)o); }
static int cu_free_async(void *b, cudaStream_t o, void **m) { (void)m; return cuMemFreeAsync((CUdeviceptr)b, (CUstream)o); }

static const op ops[] = {
	{"cudaMalloc", false, NEED_NONE, rt_malloc},
	{"cudaFree", false, NEED_DEVICE, rt_free},
	{"cudaMallocPitch", false, NEED_NONE, rt_pitch},
	{"cudaMalloc3D", false, NEED_NONE, rt_3d},
	{"cudaMallocAsync (other stream)", false, NEED_NONE, rt_malloc_async},
	{"cudaFreeAsync (other stream)", false, NEED_DEVICE, rt_free_async},
	{"cudaMallocHost", false, NEED_NONE, rt_malloc_host},
	{"cudaHostAlloc", false, NEED_NONE, rt_host_alloc},
	{"cudaFreeHost", false, NEED_HOST, rt_free_host},
	{"cuMemAlloc", true, NEED_NONE, cu_alloc},
	{"cuMemFree", true, NEED_DEVICE, cu_free},
	{"cuMemAllocPitch", true, NEED_NONE, cu_pitch},
	{"cuMemAllocAsync (other stream)", true, NEED_NONE, cu_alloc_async},
	{"cuMemFreeAsync (other stream)", true, NEED_DEVICE, cu_free_async},
	{"cuMemAllocHost", true, NEED_NONE, cu_alloc_host},
	{"cuMemHostAlloc", true, NEED_NONE, cu_host_alloc},
	{"cuMemFreeHost", true, NEED_HOST, cu_free_host},
};

static const char *mode_name(enum cudaStreamCaptureMode m)
{
	return m == cudaStreamCaptureModeGlobal ? "global"
	       : m == cudaStreamCaptureModeThreadLocal ? "thread-local" : "relaxed";
}

/* The call made on another thread, in that thread's own mode. */
typedef struct on_thread {
	const op *o;
	enum cudaStreamCaptureMode mode;
	void *block;
	cudaStream_t other;
	void *made;
	int answer;
} on_thread;

static void *run_on_thread(void *arg)
{
	on_thread *t = arg;
	enum cudaStreamCaptureMode m = t->mode;
	CHECK(cudaSetDevice(0));
	CHECK(cudaThreadExchangeStreamCaptureMode(&m));
	t->answer = t->o->call(t->block, t->other, &t->made);
	CHECK(cudaThreadExchangeStreamCaptureMode(&m));
	return NULL;
}

static void *prepare(enum need need)
{
	void *b = NULL;
	if (need == NEED_DEVICE) {
		CHECK(cudaMalloc(&b, BLOCK));
		CHECK(cudaMemset(b, 0x11, BLOCK));
	} else if (need == NEED_HOST) {
		CHECK(cudaMallocHost(&b, HOST_BLOCK));
	}
	return b;
}

/* After the capture: what the call allocated is freed; a block whose free
 * was refused is still the program's, so its free now succeeds. */
static void clean_up(const op *o, void *made, void *block, bool refused, const char *what)
{
	if (made) {
		bool host = o->need == NEED_NONE && strstr(o->name, "Host");
		CHECK(host ? cudaFreeHost(made) : cudaFree(made));
	}
	if (!block || !refused)
		return;
	cudaError_t e = o->need == NEED_HOST ? cudaFreeHost(block) : cudaFree(block);
	if (e != cudaSuccess)
		FAIL("%s: the block whose free was refused: freed after the capture, expected "
		     "cudaSuccess, got %s", what, cudaGetErrorName(e));
}

static void expect_answer(const op *o, int got, bool refused, const char *what)
{
	int want = refused ? (o->driver ? (int)CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
					: (int)cudaErrorStreamCaptureUnsupported)
			   : 0;
	if (got != want)
		FAIL("%s: expected %d, got %d", what, want, got);
}

/* A capture in mode on a non-blocking stream, the call made on this thread
 * or on another in other_mode; refused: whether CUDA refuses it. */
static void case_one(const op *o, enum cudaStreamCaptureMode mode, bool on_other,
		     enum cudaStreamCaptureMode other_mode, bool refused)
{
	cudaStream_t s, other;
	cudaGraph_t graph = NULL;
	enum cudaStreamCaptureStatus st;
	char what[200];
	void *made = NULL;
	int got;
	void *block = prepare(o->need);

	snprintf(what, sizeof(what), "%s during a %s capture%s%s", o->name, mode_name(mode),
		 on_other ? ", on another thread in " : "", on_other ? mode_name(other_mode) : "");
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaStreamBeginCapture(s, mode));
	if (on_other) {
		pthread_t t;
		on_thread arg = {.o = o, .mode = other_mode, .block = block, .other = other};
		pthread_create(&t, NULL, run_on_thread, &arg);
		pthread_join(t, NULL);
		got = arg.answer;
		made = arg.made;
	} else {
		got = o->call(block, other, &made);
		if (!o->driver) {
			cudaError_t last = cudaGetLastError();
			if ((int)last != got)
				FAIL("%s: cudaGetLastError after it: expected %d, got %d", what, got,
				     (int)last);
		}
	}
	expect_answer(o, got, refused, what);
	if (refused)
		made = NULL;
	CHECK(cudaStreamIsCapturing(s, &st));
	if (st != (refused ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive))
		FAIL("%s: capture status %d after it, expected %d", what, (int)st,
		     refused ? (int)cudaStreamCaptureStatusInvalidated
			     : (int)cudaStreamCaptureStatusActive);
	cudaError_t e = cudaStreamEndCapture(s, &graph);
	cudaError_t want = refused ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
	if (e != want || (graph != NULL) == refused)
		FAIL("%s: cudaStreamEndCapture: expected %s and %s graph, got %s and %p", what,
		     cudaGetErrorName(want), refused ? "no" : "a", cudaGetErrorName(e),
		     (void *)graph);
	if (graph)
		CHECK(cudaGraphDestroy(graph));
	(void)cudaGetLastError();
	CHECK(cudaDeviceSynchronize());
	clean_up(o, made, block, refused, what);
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaStreamDestroy(other));
}

static void every_mode(const op *o)
{
	const enum cudaStreamCaptureMode G = cudaStreamCaptureModeGlobal,
					 T = cudaStreamCaptureModeThreadLocal,
					 R = cudaStreamCaptureModeRelaxed;
	case_one(o, G, false, G, true);
	case_one(o, T, false, G, true);
	case_one(o, R, false, G, false);
	case_one(o, G, true, G, true);   /* another thread's global capture */
	case_one(o, G, true, T, false);  /* ...ignored in thread-local mode */
	case_one(o, G, true, R, false);
	case_one(o, T, true, G, false);  /* another thread's thread-local capture */
	case_one(o, R, true, G, false);
}

/* cudaFreeAsync / cuMemFreeAsync on the capturing stream of a block the
 * graph did not allocate: refused, twice, the capture going on; the block
 * stays the program's. Beside them, the graph's own allocation. */
static void free_async_on_capturing_stream(enum cudaStreamCaptureMode mode)
{
	cudaStream_t s;
	cudaGraph_t graph = NULL;
	enum cudaStreamCaptureStatus st;
	void *q, *g = NULL;
	char what[128];

	snprintf(what, sizeof(what), "a %s capture", mode_name(mode));
	CHECK(cudaMalloc(&q, BLOCK));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaStreamBeginCapture(s, mode));
	EXPECT_ERR(cudaFreeAsync(q, s), cudaErrorInvalidValue);
	EXPECT_ERR(cudaFreeAsync(q, s), cudaErrorInvalidValue);
	CUresult r = cuMemFreeAsync((CUdeviceptr)q, (CUstream)s);
	if (r != CUDA_ERROR_INVALID_VALUE)
		FAIL("%s: cuMemFreeAsync of a block of outside the graph on the capturing stream: "
		     "expected CUDA_ERROR_INVALID_VALUE, got %d", what, (int)r);
	(void)cudaGetLastError();
	/* The graph's own allocation and free (memory nodes). */
	EXPECT_ERR(cudaMallocAsync(&g, BLOCK, s), cudaSuccess);
	if (g)
		EXPECT_ERR(cudaFreeAsync(g, s), cudaSuccess);
	CHECK(cudaStreamIsCapturing(s, &st));
	if (st != cudaStreamCaptureStatusActive)
		FAIL("%s: capture status %d after the refused frees, expected active", what, (int)st);
	cudaError_t e = cudaStreamEndCapture(s, &graph);
	if (e != cudaSuccess || !graph)
		FAIL("%s: cudaStreamEndCapture after the refused frees: expected cudaSuccess and a "
		     "graph, got %s", what, cudaGetErrorName(e));
	if (graph)
		CHECK(cudaGraphDestroy(graph));
	CHECK(cudaMemset(q, 0x22, BLOCK)); /* still the program's */
	CHECK(cudaDeviceSynchronize());
	check_fill_all(q, 0x22, BLOCK, "the block whose free on the capturing stream was refused");
	CHECK(cudaFree(q));
	CHECK(cudaStreamDestroy(s));
}

static bool overlaps(const void *p, const void *q, size_t n)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
	return a < b + n && b < a + n;
}

#define REUSE_TRIES 16

/* A relaxed capture's blocks are not handed out again while an executable
 * graph made from its graph lives (the graph itself destroyed). */
static void relaxed_blocks_held(void)
{
	cudaStream_t s;
	cudaGraph_t graph = NULL;
	cudaGraphExec_t exec = NULL;
	void *before, *born = NULL, *later[REUSE_TRIES];
	char what[128];

	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaMalloc(&before, BLOCK));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	CHECK(cudaMalloc(&born, BLOCK));
	CHECK(cudaMemsetAsync(born, 0xb0, BLOCK, s)); /* the graph's: written at each launch */
	CHECK(cudaMemsetAsync(before, 0xb1, BLOCK, s));
	CHECK(cudaFree(before)); /* freed during the capture */
	CHECK(cudaStreamEndCapture(s, &graph));
	CHECK(cudaGraphInstantiate(&exec, graph, 0));
	CHECK(cudaGraphDestroy(graph));
	CHECK(cudaFree(born)); /* handed out during it, freed after it */
	CHECK(cudaDeviceSynchronize());

	for (int i = 0; i < REUSE_TRIES; i++) {
		CHECK(cudaMalloc(&later[i], BLOCK));
		if (overlaps(later[i], before, BLOCK) || overlaps(later[i], born, BLOCK))
			FAIL("block %d handed out after the capture (%p) is memory of the capture's "
			     "(%p freed during it, %p handed out during it), while its executable "
			     "graph lives", i, later[i], before, born);
		CHECK(cudaMemset(later[i], 0x60 + i, BLOCK));
	}
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < REUSE_TRIES; i++) {
		snprintf(what, sizeof(what), "block %d handed out while the executable graph lives",
			 i);
		check_fill_all(later[i], 0x60 + i, BLOCK, what);
		CHECK(cudaFree(later[i]));
	}
	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
	bool expect_held = argc > 1 && strcmp(argv[1], "expect-held") == 0;
	CHECK(cudaSetDevice(0));
	CHECK(cudaFree(0)); /* the runtime's context, current for the driver's calls */
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		every_mode(&ops[i]);
	free_async_on_capturing_stream(cudaStreamCaptureModeRelaxed);
	free_async_on_capturing_stream(cudaStreamCaptureModeGlobal);
	free_async_on_capturing_stream(cudaStreamCaptureModeThreadLocal);
	if (expect_held)
		relaxed_blocks_held();
	return integ_report("capture_modes");
}
