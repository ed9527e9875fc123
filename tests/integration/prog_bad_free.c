/* prog_bad_free: misuse gets CUDA's errors and breaks nothing.
 *
 * cudaFree of a host stack address, of an interior pointer and a double
 * free must fail (CUDA returns cudaErrorInvalidValue; the codes are
 * printed); cudaMalloc(NULL, 64) is cudaErrorInvalidValue and is the
 * thread's last error; cudaMalloc of 0 bytes succeeds with NULL;
 * cudaFree(NULL) succeeds. After each error the device still works
 * (allocation, memset, copy back).
 */
#include "common.h"

static void device_works(const char *after)
{
	void *p = NULL;
	char what[128];
	cudaError_t e = cudaMalloc(&p, INTEG_MIB);
	if (e != cudaSuccess) {
		FAIL("cudaMalloc after %s: expected cudaSuccess, got %s", after, cudaGetErrorName(e));
		return;
	}
	CHECK(cudaMemset(p, 0x5a, INTEG_MIB));
	snprintf(what, sizeof(what), "block allocated after %s", after);
	check_fill_all(p, 0x5a, INTEG_MIB, what);
	CHECK(cudaFree(p));
}

static void expect_failure(cudaError_t e, const char *call)
{
	printf("bad_free: %s returned %s (%d)\n", call, cudaGetErrorName(e), (int)e);
	if (e == cudaSuccess)
		FAIL("%s: expected an error (cudaErrorInvalidValue), got cudaSuccess", call);
	else if (e != cudaErrorInvalidValue)
		printf("bad_free: note: %s: CUDA returns cudaErrorInvalidValue, this returned %s\n",
		       call, cudaGetErrorName(e));
	(void)cudaGetLastError();
}

int main(void)
{
	int on_stack[16] = { 0 };
	void *p = NULL;

	device_works("start");

	expect_failure(cudaFree(on_stack), "cudaFree(host stack address)");
	device_works("cudaFree(host stack address)");

	CHECK(cudaMalloc(&p, 4096));
	expect_failure(cudaFree((char *)p + 512), "cudaFree(interior pointer)");
	device_works("cudaFree(interior pointer)");
	CHECK(cudaFree(p));
	expect_failure(cudaFree(p), "cudaFree(already freed pointer)");
	device_works("double free");

	EXPECT_ERR(cudaMalloc(NULL, 64), cudaErrorInvalidValue);
	EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
	EXPECT_ERR(cudaGetLastError(), cudaSuccess);
	device_works("cudaMalloc(NULL, 64)");

	p = &on_stack[0];
	EXPECT_ERR(cudaMalloc(&p, 0), cudaSuccess);
	if (p != NULL)
		FAIL("cudaMalloc(&p, 0): expected p == NULL, got %p", p);
	device_works("cudaMalloc of 0 bytes");

	EXPECT_ERR(cudaFree(NULL), cudaSuccess);
	device_works("cudaFree(NULL)");

	EXPECT_ERR(cudaPeekAtLastError(), cudaSuccess);
	return integ_report("bad_free");
}
