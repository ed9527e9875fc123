/* prog_per_thread: the free-then-reuse race across threads, on per-thread
 * default streams. Built with -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1, so
 * stream 0 below is the calling thread's per-thread stream and cudaMemcpy /
 * cudaMemset are the _ptds variants.
 *
 * Per pair of threads and round: thread 1 runs the slow kernel writing 1
 * into p on its per-thread stream, frees p with cudaFree (legal: CUDA's
 * waits for the device) and signals thread 2 through a condition variable,
 * with no CUDA synchronization. Thread 2 allocates q of the same size and
 * writes 2 into it on its own per-thread stream. Once both have called
 * cudaDeviceSynchronize, q must read 2: two threads' per-thread streams are
 * not ordered with each other, so a cache that hands p to thread 2 must
 * order the reuse itself.
 *
 * Between the free and the signal thread 1 allocates and frees a block of a
 * size it has not used before: a cache that parks freed blocks per thread
 * gives them back to its shared pool on such a miss, which lets p reach
 * thread 2 (the reuse this test is about). On CUDA itself it is one more
 * allocation.
 */
#include "common.h"

#include <pthread.h>

#define PAIRS 4
#define ROUNDS 4

struct pair {
	int index;
	pthread_mutex_t m;
	pthread_cond_t c;
	int stage; /* 2 * round + 1: p freed; 2 * round + 2: thread 2 done */
	void *p;
	size_t n;
	int reused;
};

static size_t pair_size(const struct pair *pr, int round)
{
	return (round % 2 ? 4 * INTEG_MIB : (size_t)256 << 10) + (size_t)pr->index * 4096;
}

static void pair_wait(struct pair *pr, int stage)
{
	pthread_mutex_lock(&pr->m);
	while (pr->stage < stage)
		pthread_cond_wait(&pr->c, &pr->m);
	pthread_mutex_unlock(&pr->m);
}

static void pair_set(struct pair *pr, int stage)
{
	pthread_mutex_lock(&pr->m);
	pr->stage = stage;
	pthread_cond_broadcast(&pr->c);
	pthread_mutex_unlock(&pr->m);
}

static void *thread1(void *arg)
{
	struct pair *pr = arg;
	for (int r = 0; r < ROUNDS; r++) {
		size_t n = pair_size(pr, r);
		void *p = NULL, *other = NULL;

		CHECK(cudaMalloc(&p, n));
		slow_fill(p, 1, n, 0);
		CHECK(cudaFree(p));
		/* A size this thread has not allocated yet (see the top). */
		CHECK(cudaMalloc(&other, (size_t)512 * (3 + (size_t)r * PAIRS + (size_t)pr->index)));
		CHECK(cudaFree(other));
		pthread_mutex_lock(&pr->m);
		pr->p = p;
		pr->n = n;
		pthread_mutex_unlock(&pr->m);
		pair_set(pr, 2 * r + 1);
		CHECK(cudaDeviceSynchronize());
		pair_wait(pr, 2 * r + 2);
	}
	return NULL;
}

static void *thread2(void *arg)
{
	struct pair *pr = arg;
	char what[160];
	for (int r = 0; r < ROUNDS; r++) {
		pair_wait(pr, 2 * r + 1);
		pthread_mutex_lock(&pr->m);
		void *p = pr->p;
		size_t n = pr->n;
		pthread_mutex_unlock(&pr->m);

		void *q = NULL;
		CHECK(cudaMalloc(&q, n));
		CHECK(cudaMemsetAsync(q, 2, n, 0));
		CHECK(cudaDeviceSynchronize());
		bool same = p == q;
		pr->reused += same;
		snprintf(what, sizeof(what), "pair %d, round %d, %zu bytes (q %s p)", pr->index, r,
			 n, same ? "==" : "!=");
		check_fill_all(q, 2, n, what);
		CHECK(cudaFree(q));
		pair_set(pr, 2 * r + 2);
	}
	return NULL;
}

int main(void)
{
	struct pair pairs[PAIRS];
	pthread_t t1[PAIRS], t2[PAIRS];
	int reused = 0;

	CHECK(cudaFree(NULL)); /* initializes the runtime before the threads */
	for (int i = 0; i < PAIRS; i++) {
		memset(&pairs[i], 0, sizeof(pairs[i]));
		pairs[i].index = i;
		pthread_mutex_init(&pairs[i].m, NULL);
		pthread_cond_init(&pairs[i].c, NULL);
		if (pthread_create(&t1[i], NULL, thread1, &pairs[i]) != 0 ||
		    pthread_create(&t2[i], NULL, thread2, &pairs[i]) != 0) {
			FAIL("pthread_create: expected 0, failed");
			return 1;
		}
	}
	for (int i = 0; i < PAIRS; i++) {
		pthread_join(t1[i], NULL);
		pthread_join(t2[i], NULL);
		reused += pairs[i].reused;
	}
	printf("per_thread: q == p in %d of %d rounds\n", reused, PAIRS * ROUNDS);
	return integ_report("per_thread");
}
