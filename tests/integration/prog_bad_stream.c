/* prog_bad_stream: stream handles the runtime does not know are refused
 * with its error, and leave nothing behind.
 *
 * cudaMallocAsync and cudaFreeAsync on a destroyed stream fail with
 * cudaErrorInvalidResourceHandle, with and without the library (which
 * asks the driver about a stream it has not met, once); the block stays
 * allocated and is freed afterwards on a live stream; nothing is handed
 * out for the bad stream, and the program's later allocations work.
 */
#include "common.h"

int main(void)
{
	cudaStream_t dead, live;
	void *p = NULL, *q = (void *)1;
	CHECK(cudaStreamCreateWithFlags(&live, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&dead, cudaStreamNonBlocking));
	CHECK(cudaStreamDestroy(dead));
	for (int round = 0; round < 3; round++) {
		CHECK(cudaMallocAsync(&p, INTEG_MIB, live));
		EXPECT_ERR(cudaMallocAsync(&q, INTEG_MIB, dead), cudaErrorInvalidResourceHandle);
		cudaGetLastError();
		EXPECT_ERR(cudaFreeAsync(p, dead), cudaErrorInvalidResourceHandle);
		cudaGetLastError();
		CHECK(cudaMemsetAsync(p, 0x5a, INTEG_MIB, live));
		CHECK(cudaStreamSynchronize(live));
		check_fill_all(p, 0x5a, INTEG_MIB, "block kept after a refused free");
		CHECK(cudaFreeAsync(p, live));
	}
	CHECK(cudaStreamSynchronize(live));
	CHECK(cudaStreamDestroy(live));
	return integ_report("bad_stream");
}
