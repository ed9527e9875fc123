/* prog_tools: a small workload for the user's tools (check_tools.py).
 *
 * Prints "pid N", allocates six blocks (five with cudaMalloc, one with
 * cudaMallocAsync on a stream of its own), asks for one block larger than
 * any device (refused: cudaErrorMemoryAllocation) and frees three blocks.
 * With "wait PATH COPY": then, while three blocks are live, waits up to
 * five seconds for PATH to appear (the metrics file the library writes
 * every second) and copies it to COPY. Then frees the rest.
 * With "pending PATH COPY" (under report_signal:SIGUSR1 and oom_snapshot:
 * PATH), first: a block freed on a second stream behind slow work (alone
 * in its segment, so that it stays apart, pending), then
 * SIGUSR1, and the snapshot the signal writes copied to COPY while the
 * block still waits on its fence.
 */
#include <signal.h>
#include <unistd.h>

#include "common.h"

static bool wait_and_copy(const char *path, const char *copy)
{
	for (int i = 0; i < 500; i++) {
		FILE *in = fopen(path, "rb");
		if (in) {
			FILE *out = fopen(copy, "wb");
			char buf[4096];
			size_t n;
			while (out && (n = fread(buf, 1, sizeof buf, in)) > 0)
				fwrite(buf, 1, n, out);
			fclose(in);
			return out && fclose(out) == 0;
		}
		integ_sleep_ms(10);
	}
	return false;
}

int main(int argc, char **argv)
{
	void *p[6] = {NULL};
	void *huge = NULL;
	cudaStream_t s;

	printf("pid %ld\n", (long)getpid());
	CHECK(cudaStreamCreate(&s));
	for (int i = 0; i < 5; i++)
		CHECK(cudaMalloc(&p[i], (size_t)(i + 1) * INTEG_MIB + 512 * (size_t)i));
	CHECK(cudaMallocAsync(&p[5], 3 * INTEG_MIB, s));
	if (argc > 3 && !strcmp(argv[1], "pending")) {
		cudaStream_t s2;
		void *q = NULL;
		CHECK(cudaStreamCreate(&s2));
		/* a segment of its own: a free neighbour would merge with it at once */
		CHECK(cudaMalloc(&q, 20 * INTEG_MIB));
		slow_fill(q, 1, 4 * INTEG_MIB, s2);
		CHECK(cudaFreeAsync(q, s2));
		raise(SIGUSR1);
		if (!wait_and_copy(argv[2], argv[3]))
			FAIL("no snapshot %s within 5 s of SIGUSR1", argv[2]);
		CHECK(cudaStreamSynchronize(s2));
		CHECK(cudaStreamDestroy(s2));
	}
	EXPECT_ERR(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
	(void)cudaGetLastError();
	for (int i = 0; i < 3; i++)
		CHECK(cudaFree(p[i]));
	if (argc > 3 && !strcmp(argv[1], "wait") && !wait_and_copy(argv[2], argv[3]))
		FAIL("no metrics file %s within 5 s", argv[2]);
	CHECK(cudaFree(p[3]));
	CHECK(cudaFree(p[4]));
	CHECK(cudaFreeAsync(p[5], s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaStreamDestroy(s));
	return integ_report("tools");
}
