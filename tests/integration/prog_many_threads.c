/* prog_many_threads: 16 threads, each 5000 iterations of allocate (random
 * size), memset with a pattern of its own, copy back and check, free.
 * About one block in ten is handed to the next thread instead, which checks
 * the pattern again and frees it: blocks freed by a thread other than the
 * one that allocated them. A block handed out twice while live shows up as
 * a changed pattern.
 */
#include "common.h"

#include <pthread.h>

#define THREADS 16
#define ITERATIONS 5000
#define MAILBOX 64

struct block {
	void *p;
	size_t n;
	int v;
};

#define MAILBOXES THREADS
#include "mailbox.h"

static void check_and_free(struct block b, int me, const char *how)
{
	char what[128];
	snprintf(what, sizeof(what), "thread %d: %s block of %zu bytes before its free", me, how,
		 b.n);
	check_fill(b.p, b.v, b.n, what);
	CHECK(cudaFree(b.p));
}

static void *worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	uint64_t rng = 0x1234567ULL * (uint64_t)(me + 1);
	struct block b;
	char what[128];

	for (int i = 0; i < ITERATIONS; i++) {
		if (mailbox_take(me, &b))
			check_and_free(b, me, "handed-over");
		size_t n = (size_t)512 << (integ_rand(&rng) % 8); /* 512 B .. 64 KiB */
		if (integ_rand(&rng) % 2)
			n += integ_rand(&rng) % 512;
		b.n = n;
		b.v = 1 + (me * 31 + i) % 255;
		b.p = NULL;
		CHECK(cudaMalloc(&b.p, n));
		CHECK(cudaMemset(b.p, b.v, n));
		snprintf(what, sizeof(what), "thread %d, iteration %d: fresh block of %zu bytes", me,
			 i, n);
		check_fill(b.p, b.v, n, what);
		if (integ_rand(&rng) % 10 == 0 && mailbox_put((me + 1) % THREADS, b))
			continue;
		check_and_free(b, me, "own");
	}
	pthread_barrier_wait(&done_barrier); /* nobody hands over any more */
	while (mailbox_take(me, &b))
		check_and_free(b, me, "handed-over");
	return NULL;
}

int main(void)
{
	CHECK(cudaFree(NULL));
	mailbox_run(THREADS, worker);
	CHECK(cudaDeviceSynchronize());
	return integ_report("many_threads");
}
