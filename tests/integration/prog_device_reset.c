/* prog_device_reset: the device works after cudaDeviceReset.
 *
 * Allocations and a stream exist when cudaDeviceReset destroys them; then
 * allocation, memset, copy back and free must work again, repeatedly.
 * Then two resets the cache must see although they look otherwise: one
 * from a thread to which no context is current (it resets the current
 * device's primary context all the same), one that returns an earlier
 * asynchronous error (the fake's FAKECUDA_RESET_ERROR) although it reset.
 * A block cached before either must not be handed out after it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "common.h"

static void *reset_without_context(void *arg)
{
	(void)arg;
	CHECK(cudaDeviceReset());
	return NULL;
}

static void reset_from_thread(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, reset_without_context, NULL) == 0)
		pthread_join(t, NULL);
	else
		FAIL("pthread_create");
}

/* NVIDIA's runtime ignores the variable: a plain reset there. */
static void reset_reporting_error(void)
{
	setenv("FAKECUDA_RESET_ERROR", "719", 1); /* cudaErrorLaunchFailure */
	cudaError_t e = cudaDeviceReset();
	unsetenv("FAKECUDA_RESET_ERROR");
	if (e != cudaErrorLaunchFailure && e != cudaSuccess)
		FAIL("cudaDeviceReset: %s", cudaGetErrorName(e));
	(void)cudaGetLastError();
}

static void check_cache_forgot(void (*reset)(void), const char *what)
{
	void *p = NULL, *q = NULL;
	CHECK(cudaMalloc(&p, INTEG_MIB));
	CHECK(cudaFree(p)); /* cached */
	reset();
	CHECK(cudaMalloc(&q, INTEG_MIB));
	CHECK(cudaMemset(q, 0x55, INTEG_MIB));
	check_fill_all(q, 0x55, INTEG_MIB, what);
	CHECK(cudaFree(q));
}

int main(void)
{
	for (int round = 0; round < 3; round++) {
		void *p = NULL, *q = NULL, *big = NULL;
		cudaStream_t s;
		char what[96];

		CHECK(cudaMalloc(&p, INTEG_MIB));
		CHECK(cudaMalloc(&big, 32 * INTEG_MIB));
		CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
		CHECK(cudaMemsetAsync(p, 1, INTEG_MIB, s));
		CHECK(cudaFree(big));
		CHECK(cudaDeviceReset()); /* frees p and destroys s */

		CHECK(cudaMalloc(&q, INTEG_MIB));
		CHECK(cudaMemset(q, 0x33, INTEG_MIB));
		snprintf(what, sizeof(what), "round %d: block allocated after the reset", round);
		check_fill_all(q, 0x33, INTEG_MIB, what);
		CHECK(cudaFree(q));
		CHECK(cudaMalloc(&big, 32 * INTEG_MIB));
		CHECK(cudaMemset(big, 0x44, 32 * INTEG_MIB));
		snprintf(what, sizeof(what), "round %d: 32 MiB block after the reset", round);
		check_fill(big, 0x44, 32 * INTEG_MIB, what);
		CHECK(cudaFree(big));
	}
	check_cache_forgot(reset_from_thread, "block after a reset from a thread without context");
	check_cache_forgot(reset_reporting_error, "block after a reset that returned an error");
	return integ_report("device_reset");
}
