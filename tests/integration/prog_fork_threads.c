/* prog_fork_threads: fork() from a threaded program that is making CUDA
 * calls, and CUDA calls in the children.
 *
 * Four threads allocate, set, synchronize and free without pause while the
 * main thread forks 10 children one after another. Each child calls
 * cudaMalloc, which must fail (CUDA cannot be used in a child of a process
 * that initialized it: cudaErrorInitializationError from the runtime,
 * CUDA_ERROR_NOT_INITIALIZED from the driver) and must not hang: the child
 * exits 0 on that error, and the parent kills and reports any child not
 * gone within CHILD_TIMEOUT_MS.
 */
#include "common.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORKERS 4
#define CHILDREN 10
#define CHILD_TIMEOUT_MS 10000

static atomic_bool stop;

static void *worker(void *arg)
{
	cudaStream_t s;
	(void)arg;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (unsigned i = 0; !atomic_load(&stop); i++) {
		void *p = NULL;
		size_t n = (size_t)4096 << (i % 10);
		CHECK(cudaMalloc(&p, n));
		CHECK(cudaMemsetAsync(p, (int)(i & 0xff), n, s));
		CHECK(cudaStreamSynchronize(s));
		CHECK(cudaFree(p));
	}
	CHECK(cudaStreamDestroy(s));
	return NULL;
}

static void child(void)
{
	void *p = NULL;
	cudaError_t e = cudaMalloc(&p, INTEG_MIB);
	if (e == cudaErrorInitializationError)
		_exit(0);
	printf("FAIL child: cudaMalloc: expected cudaErrorInitializationError, got %s (%d)\n",
	       cudaGetErrorName(e), (int)e);
	fflush(stdout);
	_exit(1);
}

/* Waits for pid at most CHILD_TIMEOUT_MS; kills it past that. */
static void reap(pid_t pid, int i)
{
	int status = 0;
	for (int waited = 0; waited < CHILD_TIMEOUT_MS; waited += 5) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid) {
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				FAIL("child %d: expected exit status 0, got status %#x", i,
				     (unsigned)status);
			return;
		}
		integ_sleep_ms(5);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	FAIL("child %d: expected to exit within %d ms, hung (killed)", i, CHILD_TIMEOUT_MS);
}

int main(void)
{
	pthread_t t[WORKERS];
	void *p = NULL;

	CHECK(cudaMalloc(&p, INTEG_MIB)); /* the process has initialized CUDA */
	for (int i = 0; i < WORKERS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
			FAIL("pthread_create: failed");
			return 1;
		}
	for (int i = 0; i < CHILDREN; i++) {
		integ_sleep_ms(10);
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			FAIL("fork: expected a child, failed");
			break;
		}
		if (pid == 0)
			child();
		reap(pid, i);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	CHECK(cudaFree(p));
	return integ_report("fork_threads");
}
