/* prog_signal: a few allocations, then SIGUSR1 to itself, then a pause so
 * that a library configured with report_signal:SIGUSR1 can print its
 * statistics; without such a library SIGUSR1 is ignored here. Checked by
 * tests/integration/check_reports.py. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "common.h"

int main(void)
{
	void *p[8];
	struct sigaction ignore = {.sa_handler = SIG_IGN};
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	if (old.sa_handler == SIG_DFL) /* no library handler: do not die of it */
		sigaction(SIGUSR1, &ignore, NULL);
	for (int i = 0; i < 8; i++)
		CHECK(cudaMalloc(&p[i], (size_t)(i + 1) << 20));
	for (int i = 0; i < 8; i += 2)
		CHECK(cudaFree(p[i]));
	raise(SIGUSR1);
	usleep(300000);
	for (int i = 1; i < 8; i += 2)
		CHECK(cudaFree(p[i]));
	puts("signal: ok");
	return 0;
}
