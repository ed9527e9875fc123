/* prog_signal: a few allocations, then SIGUSR1 to itself, then a pause so
 * that a library configured with report_signal:SIGUSR1 can print its
 * statistics; without such a library SIGUSR1 is ignored here. Checked by
 * tests/integration/check_reports.py.
 *
 * prog_signal own-handler: the program installs a SIGUSR1 handler of its
 * own before its first allocation; after the signal it must have run
 * once (report_signal chains it). prog_signal early: SIGUSR1 arrives
 * before any CUDA call, with no handler of the program's: the program must
 * live on. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static volatile sig_atomic_t own_calls;

static void own_handler(int sig)
{
	(void)sig;
	own_calls++;
}

int main(int argc, char **argv)
{
	void *p[8];
	const char *mode = argc > 1 ? argv[1] : "";
	struct sigaction ignore = {.sa_handler = SIG_IGN};
	struct sigaction own = {.sa_handler = own_handler};
	struct sigaction old;
	if (strcmp(mode, "early") == 0) {
		raise(SIGUSR1);
		usleep(100000);
	} else if (strcmp(mode, "own-handler") == 0) {
		sigemptyset(&own.sa_mask);
		sigaction(SIGUSR1, &own, NULL);
	} else {
		sigaction(SIGUSR1, NULL, &old);
		if (old.sa_handler == SIG_DFL) /* no library handler: do not die of it */
			sigaction(SIGUSR1, &ignore, NULL);
	}
	for (int i = 0; i < 8; i++)
		CHECK(cudaMalloc(&p[i], (size_t)(i + 1) << 20));
	for (int i = 0; i < 8; i += 2)
		CHECK(cudaFree(p[i]));
	raise(SIGUSR1);
	usleep(300000);
	for (int i = 1; i < 8; i += 2)
		CHECK(cudaFree(p[i]));
	if (strcmp(mode, "own-handler") == 0 && own_calls != 1) {
		printf("FAIL signal: the program's own handler ran %d times, expected once\n",
		       (int)own_calls);
		return 1;
	}
	puts("signal: ok");
	return 0;
}
