/* prog_fork: fork() with device memory allocated.
 *
 * The child exits with _exit(0) without any CUDA call (with argument
 * child-exit: exit(0), running atexit handlers, destructors and stdio's
 * flush: check_outfiles.py reads the event log the two share); the parent
 * keeps allocating, checking and freeing, and the child must have exited
 * with status 0.
 */
#include "common.h"

#include <sys/wait.h>
#include <unistd.h>

static void churn(int iterations, const char *when)
{
	char what[96];
	for (int i = 0; i < iterations; i++) {
		size_t n = (size_t)512 << (i % 12);
		void *p = NULL;
		CHECK(cudaMalloc(&p, n));
		CHECK(cudaMemset(p, 1 + i % 255, n));
		snprintf(what, sizeof(what), "%s, iteration %d, %zu bytes", when, i, n);
		check_fill(p, 1 + i % 255, n, what);
		CHECK(cudaFree(p));
	}
}

int main(int argc, char **argv)
{
	bool child_exit = argc > 1 && strcmp(argv[1], "child-exit") == 0;
	void *kept[4];

	churn(200, "before fork");
	for (int i = 0; i < 4; i++) {
		CHECK(cudaMalloc(&kept[i], (size_t)(i + 1) * INTEG_MIB));
		CHECK(cudaMemset(kept[i], 0x70 + i, (size_t)(i + 1) * INTEG_MIB));
	}
	/* Drained: the child runs the leak checker at exit(), and the parent's
	 * queued work (the last memsets) would count as lost in it. */
	CHECK(cudaDeviceSynchronize());
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		FAIL("fork: expected a child, failed");
		return 1;
	}
	if (pid == 0 && child_exit)
		exit(0);
	if (pid == 0) /* _exit: the parent's worker threads are not in the child, and
		       * a leak checker at exit would count their queued work */
		_exit(0);

	churn(500, "parent after fork");
	for (int i = 0; i < 4; i++) {
		check_fill(kept[i], 0x70 + i, (size_t)(i + 1) * INTEG_MIB, "block kept across fork");
		CHECK(cudaFree(kept[i]));
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid)
		FAIL("waitpid: expected the child, failed");
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("child: expected exit status 0, got status %#x", (unsigned)status);
	return integ_report("fork");
}
