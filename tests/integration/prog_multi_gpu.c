/* prog_multi_gpu: several devices at once, as data-parallel training uses
 * them. Needs two devices (exit 77 with fewer; the fake driver gets
 * FAKECUDA_DEVICES=2); uses up to MAX_DEVICES.
 *
 * 1. Peer access: enabled for every pair cudaDeviceCanAccessPeer allows
 *    (cudaErrorPeerAccessAlreadyEnabled accepted).
 * 2. Per-device pools: one thread per device, each with cudaSetDevice and a
 *    non-blocking stream of its own. Each iteration allocates a block of a
 *    random size, checks that cudaPointerGetAttributes gives its device,
 *    fills it on its stream, copies it with cudaMemcpyPeerAsync into a block
 *    of the next device (allocated there after cudaSetDevice, then back),
 *    checks the copy and frees it from this thread, whose device is not the
 *    block's. LIVE blocks stay live per thread, freed in random order; one
 *    in eight goes to the next device's thread instead, which checks and
 *    frees it. A block handed out twice, or from the wrong device, shows as
 *    a changed pattern or a wrong device.
 * 3. The free-then-reuse race across devices: a block of device d is filled
 *    late by the slow kernel on a non-blocking stream of d, freed with
 *    cudaFree by a thread whose current device is the other one, and a block
 *    of the same size allocated on d at once and set on a second
 *    non-blocking stream of d. It must read the second value: the cache has
 *    to order the reuse after the first stream's work although the free came
 *    from another device's thread (free_fence:none lets it race).
 *
 * Prints "multi_gpu: N allocation calls" (cudaMalloc calls that returned a
 * block) for the statistics check (check_multi_gpu.py).
 */
#include "common.h"

#include <pthread.h>

#define MAX_DEVICES 8
#define ITERATIONS 1500
#define LIVE 256
#define MAILBOX 64

struct block {
	void *p;
	size_t n;
	int v, dev;
};

#define MAILBOXES MAX_DEVICES
#include "mailbox.h"

static int ndev;
static atomic_long alloc_calls;

static void *alloc_on(size_t n)
{
	void *p = NULL;
	CHECK(cudaMalloc(&p, n));
	atomic_fetch_add(&alloc_calls, 1);
	return p;
}

static void check_device(const void *p, int dev, const char *what)
{
	struct cudaPointerAttributes a;
	CHECK(cudaPointerGetAttributes(&a, p));
	if (a.type != cudaMemoryTypeDevice || a.device != dev)
		FAIL("%s: expected device memory of device %d, got type %d on device %d", what, dev,
		     (int)a.type, a.device);
}

static void check_and_free(struct block b, int me, const char *how)
{
	char what[160];
	snprintf(what, sizeof(what), "thread of device %d: %s block of device %d, %zu bytes", me,
		 how, b.dev, b.n);
	check_fill(b.p, b.v, b.n, what);
	CHECK(cudaFree(b.p));
}

/* A block of the next device holding a copy of b, checked, then freed from
 * this thread (current device me). */
static void peer_copy(const struct block *b, int me, cudaStream_t s)
{
	int next = (me + 1) % ndev;
	char what[160];

	CHECK(cudaSetDevice(next));
	void *q = alloc_on(b->n);
	CHECK(cudaSetDevice(me));
	snprintf(what, sizeof(what), "peer block on device %d for device %d", next, me);
	check_device(q, next, what);
	CHECK(cudaMemcpyPeerAsync(q, next, b->p, me, b->n, s));
	CHECK(cudaStreamSynchronize(s));
	snprintf(what, sizeof(what), "copy of %zu bytes from device %d to %d", b->n, me, next);
	check_fill(q, b->v, b->n, what);
	CHECK(cudaFree(q));
}

static void *pool_worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	uint64_t rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(me + 1);
	struct block live[LIVE], b;
	int nlive = 0;
	cudaStream_t s;
	char what[160];

	CHECK(cudaSetDevice(me));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (int i = 0; i < ITERATIONS; i++) {
		if (mailbox_take(me, &b))
			check_and_free(b, me, "handed-over");
		size_t n = (size_t)512 << (integ_rand(&rng) % 12); /* 512 B .. 1 MiB */
		n += integ_rand(&rng) % 512;
		b = (struct block){ alloc_on(n), n, 1 + (me * 37 + i) % 255, me };
		snprintf(what, sizeof(what), "device %d, iteration %d: block of %zu bytes", me, i, n);
		check_device(b.p, me, what);
		CHECK(cudaMemsetAsync(b.p, b.v, n, s));
		if (i % 16 == 0)
			peer_copy(&b, me, s);
		CHECK(cudaStreamSynchronize(s)); /* before another thread reads it */
		if (integ_rand(&rng) % 8 == 0 && mailbox_put((me + 1) % ndev, b))
			continue;
		if (nlive == LIVE) {
			int k = (int)(integ_rand(&rng) % LIVE);
			check_and_free(live[k], me, "own");
			live[k] = live[--nlive];
		}
		live[nlive++] = b;
	}
	while (nlive > 0)
		check_and_free(live[--nlive], me, "own");
	pthread_barrier_wait(&done_barrier); /* nobody hands over any more */
	while (mailbox_take(me, &b))
		check_and_free(b, me, "handed-over");
	CHECK(cudaStreamDestroy(s));
	return NULL;
}

struct remote_free {
	void *p;
	int dev; /* the freeing thread's current device */
};

static void *free_from(void *arg)
{
	struct remote_free *f = arg;
	CHECK(cudaSetDevice(f->dev));
	CHECK(cudaFree(f->p));
	return NULL;
}

/* Part 3: the race of the header, with device d's memory. */
static void cross_device_race(int d, int other)
{
	static const size_t sizes[] = { 4096, INTEG_MIB, 8 * INTEG_MIB };
	cudaStream_t a, b;
	char what[160];
	int reused = 0, total = 0;

	CHECK(cudaSetDevice(d));
	CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int r = 0; r < 3; r++) {
			size_t n = sizes[si];
			void *p = alloc_on(n);
			slow_fill(p, 1, n, a);
			struct remote_free f = { p, other };
			pthread_t t;
			if (pthread_create(&t, NULL, free_from, &f) != 0) {
				FAIL("pthread_create: expected 0, failed");
				exit(1);
			}
			pthread_join(t, NULL);
			void *q = alloc_on(n);
			CHECK(cudaMemsetAsync(q, 2, n, b));
			CHECK(cudaDeviceSynchronize());
			reused += p == q;
			total++;
			snprintf(what, sizeof(what), "device %d's block of %zu bytes freed from device "
				 "%d, round %d (q %s p)", d, n, other, r, p == q ? "==" : "!=");
			check_fill_all(q, 2, n, what);
			CHECK(cudaFree(q));
		}
	}
	CHECK(cudaStreamDestroy(a));
	CHECK(cudaStreamDestroy(b));
	printf("multi_gpu: device %d, freed from device %d: q == p in %d of %d rounds\n", d, other,
	       reused, total);
}

static void enable_peers(void)
{
	for (int i = 0; i < ndev; i++) {
		CHECK(cudaSetDevice(i));
		for (int j = 0; j < ndev; j++) {
			int can = 0;
			if (i == j)
				continue;
			CHECK(cudaDeviceCanAccessPeer(&can, i, j));
			if (!can) {
				printf("multi_gpu: device %d cannot access device %d: copies staged\n",
				       i, j);
				continue;
			}
			cudaError_t e = cudaDeviceEnablePeerAccess(j, 0);
			if (e == cudaErrorPeerAccessAlreadyEnabled)
				(void)cudaGetLastError();
			else if (e != cudaSuccess)
				FAIL("cudaDeviceEnablePeerAccess(%d) on device %d: expected cudaSuccess, "
				     "got %s", j, i, cudaGetErrorName(e));
		}
	}
}

int main(void)
{
	int count = 0;

	CHECK(cudaGetDeviceCount(&count));
	if (count < 2) {
		printf("multi_gpu: %d device(s), needs 2: skipped\n", count);
		return 77;
	}
	ndev = count < MAX_DEVICES ? count : MAX_DEVICES;
	enable_peers();

	mailbox_run(ndev, pool_worker);

	cross_device_race(0, 1);
	cross_device_race(1, 0);
	for (int i = 0; i < ndev; i++) {
		CHECK(cudaSetDevice(i));
		CHECK(cudaDeviceSynchronize());
	}
	printf("multi_gpu: %d devices, %ld allocation calls\n", ndev, atomic_load(&alloc_calls));
	return integ_report("multi_gpu");
}
