/* tests/integration/mailbox.h - per-thread mailboxes through which the
 * threaded programs hand blocks to one another (one thread allocates, the
 * other checks and frees), and the start of those threads.
 *
 * Include after common.h and after defining struct block, MAILBOX (the
 * blocks a box holds) and MAILBOXES (the most threads).
 */
#ifndef INTEG_MAILBOX_H
#define INTEG_MAILBOX_H

#include <pthread.h>

struct mailbox {
	pthread_mutex_t m;
	struct block b[MAILBOX];
	int count;
};

static struct mailbox boxes[MAILBOXES];
/* Where the threads meet once none hands over any more. */
static pthread_barrier_t done_barrier;

static bool mailbox_put(int to, struct block b)
{
	struct mailbox *mb = &boxes[to];
	pthread_mutex_lock(&mb->m);
	bool ok = mb->count < MAILBOX;
	if (ok)
		mb->b[mb->count++] = b;
	pthread_mutex_unlock(&mb->m);
	return ok;
}

static bool mailbox_take(int me, struct block *out)
{
	struct mailbox *mb = &boxes[me];
	pthread_mutex_lock(&mb->m);
	bool ok = mb->count > 0;
	if (ok)
		*out = mb->b[--mb->count];
	pthread_mutex_unlock(&mb->m);
	return ok;
}

/* Runs fn on n threads (n <= MAILBOXES), each given its index, with the
 * boxes and the barrier ready, and waits for them all. */
static void mailbox_run(int n, void *(*fn)(void *))
{
	pthread_t t[MAILBOXES];
	pthread_barrier_init(&done_barrier, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		pthread_mutex_init(&boxes[i].m, NULL);
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, fn, (void *)(intptr_t)i) != 0) {
			FAIL("pthread_create: expected 0, failed");
			exit(1);
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

#endif
