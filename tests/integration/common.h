/* tests/integration/common.h - helpers shared by the integration programs.
 *
 * The programs are plain C against the CUDA runtime API only: here they are
 * linked to the fake runtime (tests/fakecuda), on a GPU machine they are
 * built with `cc prog_x.c -lcudart -lpthread` against NVIDIA's. So they use
 * nothing but documented CUDA semantics. Each failure prints one line
 * "FAIL file:line: what was expected, what happened"; a program returns 0
 * when nothing failed (integ_report).
 *
 * A "slow kernel" is a host function that sleeps INTEG_SLOW_MS in stream
 * order, followed by a cudaMemsetAsync on the same stream: work that is
 * still queued long after the host has moved on.
 */
#ifndef INTEG_COMMON_H
#define INTEG_COMMON_H

#include <cuda_runtime_api.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INTEG_SLOW_MS 30
#define INTEG_MIB ((size_t)1 << 20)

static atomic_int integ_failures;

#define FAIL(...)                                                      \
	do {                                                           \
		flockfile(stdout);                                     \
		printf("FAIL %s:%d: ", __FILE__, __LINE__);            \
		printf(__VA_ARGS__);                                   \
		printf("\n");                                          \
		fflush(stdout);                                        \
		funlockfile(stdout);                                   \
		atomic_fetch_add(&integ_failures, 1);                  \
	} while (0)

/* call must return want (name() names both in the failure line); where
 * fatal, the program cannot go on without it. */
#define INTEG_EXPECT(type, call, want, name, fatal)                             \
	do {                                                                    \
		type integ_r_ = (call);                                         \
		if (integ_r_ != (want)) {                                       \
			FAIL("%s: expected %s, got %s (%d)", #call, name(want), \
			     name(integ_r_), (int)integ_r_);                    \
			if (fatal)                                              \
				exit(1);                                        \
		}                                                               \
	} while (0)

/* A call that must succeed; the program cannot go on without it. */
#define CHECK(call) INTEG_EXPECT(cudaError_t, call, cudaSuccess, cudaGetErrorName, 1)

/* A call that must return exactly `want`; the program goes on. */
#define EXPECT_ERR(call, want) INTEG_EXPECT(cudaError_t, call, want, cudaGetErrorName, 0)

#ifdef __cuda_cuda_h__
/* A driver call that must succeed (programs that include cuda.h first). */
#define CU_CHECK(call)                                                                \
	do {                                                                          \
		CUresult cu_r_ = (call);                                              \
		if (cu_r_ != CUDA_SUCCESS) {                                          \
			FAIL("%s: expected CUDA_SUCCESS, got %d", #call, (int)cu_r_); \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

/* cuInit, then device 0's primary context retained and made current. */
static inline CUcontext integ_cu_start(void)
{
	CUcontext ctx;
	CU_CHECK(cuInit(0));
	CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CU_CHECK(cuCtxSetCurrent(ctx));
	return ctx;
}
#endif

static inline int integ_report(const char *prog)
{
	int n = atomic_load(&integ_failures);
	if (n)
		printf("%s: %d failure(s)\n", prog, n);
	else
		printf("%s: ok\n", prog);
	fflush(stdout);
	return n ? 1 : 0;
}

static inline void integ_sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void CUDART_CB integ_sleep_fn(void *arg)
{
	integ_sleep_ms((unsigned)(uintptr_t)arg);
}

/* The slow kernel: sleeps INTEG_SLOW_MS on s, then fills [p, p + n) with
 * value, all in stream order. */
static inline void slow_fill(void *p, int value, size_t n, cudaStream_t s)
{
	CHECK(cudaLaunchHostFunc(s, integ_sleep_fn, (void *)(uintptr_t)INTEG_SLOW_MS));
	CHECK(cudaMemsetAsync(p, value, n, s));
}

/* Copies [dptr + off, + len) back with cudaMemcpy and checks every byte is
 * value. One FAIL line for the first mismatch. */
static inline bool check_range(const void *dptr, size_t off, size_t len, int value,
			       const char *what)
{
	unsigned char *h = malloc(len ? len : 1);
	bool ok = true;

	if (!h) {
		FAIL("%s: host buffer of %zu bytes: out of memory", what, len);
		return false;
	}
	CHECK(cudaMemcpy(h, (const char *)dptr + off, len, cudaMemcpyDeviceToHost));
	/* Word at a time, then the bytes of the first differing word. */
	uint64_t want;
	memset(&want, value, sizeof(want));
	size_t i = 0;
	for (; i + sizeof(want) <= len; i += sizeof(want)) {
		uint64_t got;
		memcpy(&got, h + i, sizeof(got));
		if (got != want)
			break;
	}
	for (; i < len; i++) {
		if (h[i] != (unsigned char)value) {
			size_t bad = 0;
			for (size_t j = i; j < len; j++)
				bad += h[j] != (unsigned char)value;
			FAIL("%s: expected every byte 0x%02x, got 0x%02x at offset %zu "
			     "(%zu of %zu checked bytes differ)",
			     what, (unsigned)(unsigned char)value, h[i], off + i, bad, len);
			ok = false;
			break;
		}
	}
	free(h);
	return ok;
}

/* Checks a whole buffer of n bytes. */
static inline bool check_fill_all(const void *dptr, int value, size_t n, const char *what)
{
	return check_range(dptr, 0, n, value, what);
}

/* Checks a buffer of n bytes: wholly up to 256 KiB, else 4 KiB windows at
 * its start, middle and end (whole 64 MiB copies would dominate the run). */
static inline bool check_fill(const void *dptr, int value, size_t n, const char *what)
{
	const size_t win = 4096;
	if (n <= ((size_t)256 << 10))
		return check_range(dptr, 0, n, value, what);
	return check_range(dptr, 0, win, value, what) &&
	       check_range(dptr, (n / 2) & ~(win - 1), win, value, what) &&
	       check_range(dptr, n - win, win, value, what);
}

/* xorshift64*: deterministic, per caller. */
static inline uint64_t integ_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
