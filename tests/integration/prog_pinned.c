/* prog_pinned: pinned host memory and pitched allocations, as CUDA
 * documents them, whether a cache serves them or not.
 *
 * - data: every flag combination of cudaHostAlloc (and cudaMallocHost)
 *   carries bytes to the device and back;
 * - queries: a block allocated again after a free (from the cache, under
 *   one) answers cudaHostGetFlags, cudaHostGetDevicePointer and
 *   cudaPointerGetAttributes as the first, fresh one did;
 * - errors: a double free, an interior pointer, malloc'd memory, bad flags
 *   and NULL arguments get CUDA's errors, and the runtime's last error;
 * - cudaHostRegister'ed memory passes through;
 * - pitch: cudaMallocPitch and cudaMalloc3D give the H200's pitch (the
 *   table of tests/fakecuda/fakecu_pitch.h), and the memory is usable;
 * - cudaDeviceReset with pinned blocks cached and held; fork with pinned
 *   blocks held (the child reads them as plain memory, no CUDA call);
 * - 8 threads allocating, copying and freeing pinned memory at once.
 * Argument "register": the blocks may be registered memory
 * (pinned_use_cuda_host_register), which cudaHostGetFlags does not know:
 * its answer is not compared.
 */
#include "common.h"

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../fakecuda/fakecu_pitch.h"

static bool registered_mode;

static void check_host(const void *p, int value, size_t n, const char *what)
{
	const unsigned char *h = p;
	for (size_t i = 0; i < n; i++)
		if (h[i] != (unsigned char)value) {
			FAIL("%s: expected every byte 0x%02x, got 0x%02x at offset %zu", what,
			     (unsigned)value, h[i], i);
			return;
		}
}

/* Host -> device -> another pinned buffer. */
static void round_trip(void *src, void *dst, size_t n, int value, const char *what)
{
	void *d = NULL;
	memset(src, value, n);
	memset(dst, 0, n);
	CHECK(cudaMalloc(&d, n));
	CHECK(cudaMemcpy(d, src, n, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dst, d, n, cudaMemcpyDeviceToHost));
	check_host(dst, value, n, what);
	CHECK(cudaFree(d));
}

static void test_data(void)
{
	char what[96];
	for (unsigned flags = 0; flags < 8; flags++) {
		void *a = NULL, *b = NULL;
		CHECK(cudaHostAlloc(&a, INTEG_MIB, flags));
		CHECK(cudaMallocHost(&b, INTEG_MIB));
		snprintf(what, sizeof(what), "round trip, flags %u", flags);
		round_trip(a, b, INTEG_MIB, 0x10 + (int)flags, what);
		CHECK(cudaFreeHost(a));
		CHECK(cudaFreeHost(b));
	}
}

typedef struct answers {
	cudaError_t flags_err, dptr_err, attr_err;
	unsigned flags;
	ptrdiff_t dptr_offset; /* device pointer less host pointer */
	enum cudaMemoryType type;
	int device;
} answers;

static answers ask(void *p)
{
	answers a = {0};
	void *dptr = NULL;
	struct cudaPointerAttributes attr;
	a.flags_err = cudaHostGetFlags(&a.flags, p);
	a.dptr_err = cudaHostGetDevicePointer(&dptr, p, 0);
	a.dptr_offset = a.dptr_err == cudaSuccess ? (char *)dptr - (char *)p : 0;
	a.attr_err = cudaPointerGetAttributes(&attr, p);
	a.type = attr.type;
	a.device = attr.device;
	cudaGetLastError(); /* the refusals above are expected */
	return a;
}

static void test_queries(void)
{
	for (unsigned flags = 0; flags < 8; flags++) {
		void *p = NULL, *q = NULL;
		CHECK(cudaHostAlloc(&p, 64 << 10, flags));
		answers fresh = ask(p);
		CHECK(cudaFreeHost(p));
		CHECK(cudaHostAlloc(&q, 64 << 10, flags));
		answers again = ask(q);
		if (!registered_mode && (fresh.flags_err != again.flags_err || fresh.flags != again.flags))
			FAIL("flags %u: cudaHostGetFlags answered %d/%#x fresh, %d/%#x again", flags,
			     (int)fresh.flags_err, fresh.flags, (int)again.flags_err, again.flags);
		if (!registered_mode && fresh.flags_err == cudaSuccess && (fresh.flags & flags) != flags)
			FAIL("flags %u: cudaHostGetFlags lacks the flags asked: %#x", flags, fresh.flags);
		if (fresh.dptr_err != again.dptr_err || fresh.dptr_offset != again.dptr_offset)
			FAIL("flags %u: cudaHostGetDevicePointer answered %d/%td fresh, %d/%td again",
			     flags, (int)fresh.dptr_err, fresh.dptr_offset, (int)again.dptr_err,
			     again.dptr_offset);
		if (fresh.attr_err != again.attr_err || fresh.type != again.type ||
		    fresh.type != cudaMemoryTypeHost || fresh.device != again.device)
			FAIL("flags %u: cudaPointerGetAttributes answered %d/type %d/device %d fresh, "
			     "%d/type %d/device %d again", flags, (int)fresh.attr_err, (int)fresh.type,
			     fresh.device, (int)again.attr_err, (int)again.type, again.device);
		CHECK(cudaFreeHost(q));
	}
}

static void test_errors(void)
{
	void *p = NULL, *z = (void *)1;
	CHECK(cudaMallocHost(&p, 4096));
	CHECK(cudaFreeHost(p));
	EXPECT_ERR(cudaFreeHost(p), cudaErrorInvalidValue);
	EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
	CHECK(cudaMallocHost(&p, 8192));
	EXPECT_ERR(cudaFreeHost((char *)p + 64), cudaErrorInvalidValue);
	CHECK(cudaFreeHost(p));
	void *m = malloc(4096);
	EXPECT_ERR(cudaFreeHost(m), cudaErrorInvalidValue);
	free(m);
	CHECK(cudaFreeHost(NULL));
	EXPECT_ERR(cudaMallocHost(NULL, 4096), cudaErrorInvalidValue);
	EXPECT_ERR(cudaHostAlloc(&p, 4096, 0x80), cudaErrorInvalidValue);
	CHECK(cudaMallocHost(&z, 0));
	if (z != NULL)
		FAIL("cudaMallocHost(&p, 0): expected NULL, got %p", z);
	cudaGetLastError();
}

static void test_registered(void)
{
	const size_t n = 64 << 10;
	void *m = NULL, *dptr = NULL, *back = NULL;
	if (posix_memalign(&m, 4096, n) != 0) {
		FAIL("posix_memalign: no memory");
		return;
	}
	CHECK(cudaHostRegister(m, n, cudaHostRegisterMapped));
	CHECK(cudaHostGetDevicePointer(&dptr, m, 0));
	CHECK(cudaMallocHost(&back, n));
	round_trip(m, back, n, 0x5a, "registered memory round trip");
	EXPECT_ERR(cudaFreeHost(m), cudaErrorInvalidValue); /* not cudaHostAlloc's */
	cudaGetLastError();
	CHECK(cudaHostUnregister(m));
	CHECK(cudaFreeHost(back));
	free(m);
}

static void test_pitch(void)
{
	char what[96];
	for (size_t i = 0; i < sizeof(fk_pitch_h200) / sizeof(fk_pitch_h200[0]); i++) {
		size_t w = fk_pitch_h200[i].width, pitch = 0, rows = 3;
		void *p = NULL;
		CHECK(cudaMallocPitch(&p, &pitch, w, rows));
		if (pitch != fk_pitch_h200[i].pitch)
			FAIL("cudaMallocPitch(width %zu): expected pitch %zu, got %zu", w,
			     fk_pitch_h200[i].pitch, pitch);
		CHECK(cudaMemset(p, 0x21, pitch * rows));
		snprintf(what, sizeof(what), "pitched block, width %zu", w);
		check_fill(p, 0x21, pitch * rows, what);
		CHECK(cudaFree(p));

		struct cudaPitchedPtr pp;
		struct cudaExtent e = { .width = w, .height = 2, .depth = 3 };
		CHECK(cudaMalloc3D(&pp, e));
		if (pp.pitch != fk_pitch_h200[i].pitch || pp.xsize != w || pp.ysize != 2)
			FAIL("cudaMalloc3D(width %zu): expected pitch %zu, xsize %zu, ysize 2; got "
			     "%zu, %zu, %zu", w, fk_pitch_h200[i].pitch, w, pp.pitch, pp.xsize, pp.ysize);
		CHECK(cudaMemset(pp.ptr, 0x22, pp.pitch * 6));
		snprintf(what, sizeof(what), "3D block, width %zu", w);
		check_fill(pp.ptr, 0x22, pp.pitch * 6, what);
		CHECK(cudaFree(pp.ptr));
	}
	void *p = (void *)1;
	size_t pitch = 0;
	CHECK(cudaMallocPitch(&p, &pitch, 0, 4));
	if (p != NULL)
		FAIL("cudaMallocPitch(width 0): expected NULL, got %p", p);
	EXPECT_ERR(cudaMallocPitch(NULL, &pitch, 16, 4), cudaErrorInvalidValue);
	cudaGetLastError();
}

static void test_reset(void)
{
	void *held = NULL, *cached = NULL, *after = NULL, *back = NULL;
	CHECK(cudaMallocHost(&held, INTEG_MIB));
	CHECK(cudaHostAlloc(&cached, INTEG_MIB, cudaHostAllocMapped));
	CHECK(cudaFreeHost(cached));
	CHECK(cudaDeviceReset()); /* the context's pinned memory goes with it */
	for (int i = 0; i < 3; i++) {
		CHECK(cudaHostAlloc(&after, INTEG_MIB, cudaHostAllocMapped));
		CHECK(cudaMallocHost(&back, INTEG_MIB));
		round_trip(after, back, INTEG_MIB, 0x60 + i, "pinned memory after a reset");
		CHECK(cudaFreeHost(after));
		CHECK(cudaFreeHost(back));
	}
	/* Pinned memory of a reset context: the H200 answered invalid value
	 * (scripts/gpu/probe_freehost.c). */
	EXPECT_ERR(cudaFreeHost(held), cudaErrorInvalidValue);
	EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
}

static void test_fork(void)
{
	void *kept = NULL, *cached = NULL;
	CHECK(cudaMallocHost(&kept, INTEG_MIB));
	memset(kept, 0x77, INTEG_MIB);
	CHECK(cudaMallocHost(&cached, INTEG_MIB));
	CHECK(cudaFreeHost(cached));
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		FAIL("fork: expected a child, failed");
		return;
	}
	if (pid == 0) { /* no CUDA in the child; it only reads: on an H200 pinned
			 * memory stayed shared with the parent after fork */
		const unsigned char *h = kept;
		for (size_t i = 0; i < INTEG_MIB; i++)
			if (h[i] != 0x77)
				_exit(2);
		_exit(0);
	}
	void *again = NULL, *other = NULL;
	CHECK(cudaMallocHost(&again, INTEG_MIB));
	CHECK(cudaMallocHost(&other, INTEG_MIB));
	round_trip(again, other, INTEG_MIB, 0x33, "pinned after fork");
	CHECK(cudaFreeHost(other));
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("child: expected exit status 0, got status %#x", (unsigned)status);
	check_host(kept, 0x77, INTEG_MIB, "pinned block held across fork");
	CHECK(cudaFreeHost(again));
	CHECK(cudaFreeHost(kept));
}

static void *worker(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull * (1 + (uintptr_t)arg);
	char what[96];
	for (int i = 0; i < 150; i++) {
		uint64_t r = integ_rand(&seed);
		size_t n = (size_t)4096 << (r % 9);
		void *a = NULL, *b = NULL;
		CHECK(cudaHostAlloc(&a, n, (unsigned)(r >> 8) & 7));
		CHECK(cudaMallocHost(&b, n));
		snprintf(what, sizeof(what), "thread %zu, iteration %d, %zu bytes", (size_t)(uintptr_t)arg,
			 i, n);
		round_trip(a, b, n, (int)(r >> 16) & 0xff, what);
		CHECK(cudaFreeHost(b));
		CHECK(cudaFreeHost(a));
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[8];
	for (uintptr_t i = 0; i < 8; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			FAIL("pthread_create: failed");
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	registered_mode = argc > 1 && strcmp(argv[1], "register") == 0;
	test_data();
	test_queries();
	test_errors();
	test_registered();
	test_pitch();
	test_fork();
	test_threads();
	test_reset();
	return integ_report("pinned");
}
