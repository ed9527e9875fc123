/* prog_capture: allocation traffic on other streams while a stream captures
 * a graph.
 *
 * Blocks are written on non-blocking streams n1 and n2; then the
 * non-blocking stream s begins a capture in relaxed mode (which permits
 * cudaMalloc and cudaFree meanwhile). During the capture: cudaMallocAsync,
 * a memset and cudaFreeAsync on s (graph memory nodes: they must succeed),
 * and on the other streams the blocks used on n1 are freed and new ones
 * allocated and written on n2 - reuse that a caching allocator would want
 * to fence with events on every non-blocking stream. It must not touch s:
 * an event recorded on, waited for by, or queried from a capturing stream
 * breaks the capture, and cudaStreamEndCapture then fails. After the
 * capture s must work normally and the blocks must hold their data.
 */
#include "common.h"

#define BLOCKS 8
#define BLOCK_SIZE (256 * 1024)

static void expect_status(cudaStream_t s, enum cudaStreamCaptureStatus want, const char *what)
{
	enum cudaStreamCaptureStatus st;
	cudaError_t e = cudaStreamIsCapturing(s, &st);
	if (e != cudaSuccess)
		FAIL("cudaStreamIsCapturing(%s): expected cudaSuccess, got %s", what,
		     cudaGetErrorName(e));
	else if (st != want)
		FAIL("cudaStreamIsCapturing(%s): expected status %d, got %d", what, (int)want,
		     (int)st);
}

int main(void)
{
	cudaStream_t s, n1, n2;
	void *b[BLOCKS], *c[BLOCKS], *g = NULL, *after = NULL;
	cudaGraph_t graph = NULL;
	char what[128];

	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&n1, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&n2, cudaStreamNonBlocking));

	for (int i = 0; i < BLOCKS; i++) {
		CHECK(cudaMalloc(&b[i], BLOCK_SIZE));
		CHECK(cudaMemsetAsync(b[i], 0x10 + i, BLOCK_SIZE, i % 2 ? n1 : n2));
	}
	/* Work still queued on n1 when the capture starts. */
	slow_fill(b[0], 0x10, BLOCK_SIZE, n1);

	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	expect_status(s, cudaStreamCaptureStatusActive, "s, capturing");
	expect_status(n1, cudaStreamCaptureStatusNone, "n1");

	cudaError_t e = cudaMallocAsync(&g, 1 << 20, s);
	if (e != cudaSuccess)
		FAIL("cudaMallocAsync on the capturing stream: expected cudaSuccess, got %s",
		     cudaGetErrorName(e));
	if (e == cudaSuccess) {
		e = cudaMemsetAsync(g, 7, 1 << 20, s);
		if (e != cudaSuccess)
			FAIL("cudaMemsetAsync on the capturing stream: expected cudaSuccess, got %s",
			     cudaGetErrorName(e));
	}

	for (int i = 0; i < BLOCKS; i++) {
		CHECK(cudaFree(b[i]));
		CHECK(cudaMalloc(&c[i], BLOCK_SIZE));
		CHECK(cudaMemsetAsync(c[i], 0x40 + i, BLOCK_SIZE, n2));
	}
	expect_status(s, cudaStreamCaptureStatusActive, "s, after the allocations");

	if (g) {
		e = cudaFreeAsync(g, s);
		if (e != cudaSuccess)
			FAIL("cudaFreeAsync on the capturing stream: expected cudaSuccess, got %s",
			     cudaGetErrorName(e));
	}
	e = cudaStreamEndCapture(s, &graph);
	if (e != cudaSuccess || !graph)
		FAIL("cudaStreamEndCapture: expected cudaSuccess and a graph, got %s and %p",
		     cudaGetErrorName(e), (void *)graph);
	if (graph)
		CHECK(cudaGraphDestroy(graph));
	(void)cudaGetLastError();
	expect_status(s, cudaStreamCaptureStatusNone, "s, after the capture");

	CHECK(cudaStreamSynchronize(n2));
	for (int i = 0; i < BLOCKS; i++) {
		snprintf(what, sizeof(what), "block %d written on n2 during the capture", i);
		check_fill_all(c[i], 0x40 + i, BLOCK_SIZE, what);
	}

	/* s works normally again. */
	CHECK(cudaMalloc(&after, BLOCK_SIZE));
	CHECK(cudaMemsetAsync(after, 0x5a, BLOCK_SIZE, s));
	CHECK(cudaStreamSynchronize(s));
	check_fill_all(after, 0x5a, BLOCK_SIZE, "block written on s after the capture");
	CHECK(cudaFree(after));

	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < BLOCKS; i++)
		CHECK(cudaFree(c[i]));
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaStreamDestroy(n1));
	CHECK(cudaStreamDestroy(n2));
	return integ_report("capture");
}
