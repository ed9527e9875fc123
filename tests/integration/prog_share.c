/* tests/integration/prog_share.c - one process of the sharing tests
 * (check_share.py; issue 33), on a device shared with FAKECUDA_SHARED.
 *
 *   prog_share hold    idle 3/4 of the device in the cache, one live
 *                      block of a known pattern; waits for a line on
 *                      stdin, then checks the pattern (never changed by a
 *                      neighbour's request)
 *   prog_share hold-live  the same, the 3/4 still allocated; frees them
 *                      at the first line on stdin (printing the time),
 *                      checks at the second
 *   prog_share busy    as hold, then allocates and frees small blocks
 *                      until stdin closes
 *   prog_share fork    as hold, after forking a child that exits
 *   prog_share ask     asks for 3/4 of the device: exit 0 when served
 *                      (printing the time it returned), 1 when out of memory
 *   prog_share many N  N rounds of: take 1/6 of the device, hold it a
 *                      little, free it (idle in the cache)
 *   prog_share nocuda  never touches CUDA: prints its thread count and
 *                      whether it maps a registry
 *   prog_share used    the same after one allocation
 *   prog_share exec    one allocation, then exec: prog_share hold
 */
#include "common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#define PATTERN 0x5a
#define LIVE_BYTES (4 * INTEG_MIB)
#define PIECES 6

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static size_t device_total(void)
{
	size_t fr = 0, total = 0;
	cudaMemGetInfo(&fr, &total);
	return total;
}

static void *live_block(void)
{
	void *live = NULL;
	if (cudaMalloc(&live, LIVE_BYTES) != cudaSuccess || cudaMemset(live, PATTERN, LIVE_BYTES) != cudaSuccess)
		FAIL("the live block");
	return live;
}

static void check_live(void *live)
{
	static unsigned char host[LIVE_BYTES];
	if (cudaMemcpy(host, live, LIVE_BYTES, cudaMemcpyDeviceToHost) != cudaSuccess)
		FAIL("reading the live block back");
	for (size_t i = 0; i < LIVE_BYTES; i++)
		if (host[i] != PATTERN) {
			FAIL("the live block changed at byte %zu: %#x", i, host[i]);
			break;
		}
}

/* 3/4 of the device in PIECES blocks; freed unless keep. */
static void take_three_quarters(void **p, bool keep)
{
	size_t piece = device_total() / 4 * 3 / PIECES;
	for (int i = 0; i < PIECES; i++)
		if (cudaMalloc(&p[i], piece) != cudaSuccess)
			FAIL("piece %d of %zu bytes", i, piece);
	if (!keep)
		for (int i = 0; i < PIECES; i++)
			cudaFree(p[i]);
}

static bool line(void)
{
	char buf[64];
	return fgets(buf, sizeof buf, stdin) != NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	setvbuf(stdout, NULL, _IOLBF, 0);
	void *p[PIECES];
	if (!strcmp(mode, "exec")) { /* joins, then becomes `prog_share hold` (same pid) */
		void *q = NULL;
		if (cudaMalloc(&q, 64 * INTEG_MIB) != cudaSuccess)
			FAIL("64 MiB");
		cudaFree(q);
		execl("/proc/self/exe", argv[0], "hold", (char *)NULL);
		FAIL("exec");
		return integ_report("prog_share");
	}
	if (!strcmp(mode, "nocuda") || !strcmp(mode, "used")) {
		if (!strcmp(mode, "used")) { /* one growth: the registry is joined now (share:on) */
			void *q = NULL;
			if (cudaMalloc(&q, 64 * INTEG_MIB) != cudaSuccess)
				FAIL("64 MiB");
			cudaFree(q);
		}
		usleep(50000);
		/* Threads in all, and the library's (named cm-*: a sanitizer's
		 * own thread is neither). */
		DIR *dir = opendir("/proc/self/task");
		int n = 0, mine = 0;
		for (struct dirent *e; dir && (e = readdir(dir));) {
			if (e->d_name[0] == '.')
				continue;
			char path[300], comm[32] = "";
			snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
			FILE *f = fopen(path, "r");
			if (f && fgets(comm, sizeof comm, f))
				mine += !strncmp(comm, "cm-", 3);
			if (f)
				fclose(f);
			n++;
		}
		if (dir)
			closedir(dir);
		/* No registry mapped (its file name: core/share.c). */
		FILE *maps = fopen("/proc/self/maps", "r");
		char buf[512];
		int mapped = 0;
		while (maps && fgets(buf, sizeof buf, maps))
			mapped += strstr(buf, "/dev/shm/cachemalloc-") != NULL;
		if (maps)
			fclose(maps);
		printf("threads %d mapped %d library-threads %d\n", n, mapped, mine);
		return 0;
	}
	if (!strcmp(mode, "ask")) {
		void *q = NULL;
		double t0 = now_ms();
		cudaError_t e = cudaMalloc(&q, device_total() / 4 * 3);
		printf("returned %.3f after %.1f ms: %s\n", now_ms(), now_ms() - t0, cudaGetErrorName(e));
		return e == cudaSuccess ? 0 : 1;
	}
	if (!strcmp(mode, "many")) {
		int rounds = argc > 2 ? atoi(argv[2]) : 5;
		for (int r = 0; r < rounds; r++) {
			void *q = NULL;
			size_t size = device_total() / 6;
			if (cudaMalloc(&q, size) != cudaSuccess) {
				FAIL("round %d: out of memory", r);
				continue;
			}
			/* Its first and last MiB hold the round's byte while it is
			 * held: a neighbour's release never touches it. */
			char *c = q;
			unsigned char host[2][4096];
			cudaMemset(c, r & 0xff, INTEG_MIB);
			cudaMemset(c + size - INTEG_MIB, r & 0xff, INTEG_MIB);
			usleep(20000);
			cudaMemcpy(host[0], c + INTEG_MIB - 4096, 4096, cudaMemcpyDeviceToHost);
			cudaMemcpy(host[1], c + size - 4096, 4096, cudaMemcpyDeviceToHost);
			for (int k = 0; k < 4096; k++)
				if (host[0][k] != (r & 0xff) || host[1][k] != (r & 0xff)) {
					FAIL("round %d: the held block changed", r);
					break;
				}
			cudaFree(q);
			/* Idle three times as long as it held: a neighbour's idle
			 * cache is what the others ask for, and every process gets
			 * its turn (a tighter loop tests fairness, which the
			 * registry does not promise: docs/design.md, section 12). */
			usleep(60000);
		}
		return integ_report("prog_share");
	}
	void *live = live_block();
	bool hold_live = !strcmp(mode, "hold-live");
	take_three_quarters(p, hold_live);
	if (!strcmp(mode, "fork")) {
		pid_t child = fork();
		if (child == 0)
			exit(0); /* its exit handlers must leave the parent's entry alone */
		waitpid(child, NULL, 0);
	}
	cudaDeviceSynchronize();
	printf("ready\n");
	if (hold_live) {
		if (!line())
			return 2;
		for (int i = 0; i < PIECES; i++)
			cudaFree(p[i]);
		printf("freed %.3f\n", now_ms());
	}
	if (!strcmp(mode, "busy")) {
		/* Allocating itself while a neighbour asks: small blocks, and
		 * stdin polled without blocking. */
		fcntl(0, F_SETFL, O_NONBLOCK);
		for (;;) {
			void *q[8];
			for (int i = 0; i < 8; i++)
				if (cudaMalloc(&q[i], (size_t)(i + 1) << 16) != cudaSuccess)
					FAIL("busy allocation");
			for (int i = 0; i < 8; i++)
				cudaFree(q[i]);
			char c;
			ssize_t n = read(0, &c, 1);
			if (n >= 0)
				break;
			usleep(1000);
		}
	} else if (!line()) {
		return 2;
	}
	check_live(live);
	cudaFree(live);
	return integ_report("prog_share");
}
