/* prog_ipc: blocks of 4 KiB to 24 MiB shared with another process through
 * cudaIpcGetMemHandle, as CUDA shares them (issue 32, item 2).
 *
 * The exporter fills each block and a 4 KiB neighbour with their own
 * bytes, takes each block's handle (twice: the same bytes), and starts
 * itself again as the importer ("child"), which opens every handle (all
 * at once: blocks of one segment of the cache too) and must read exactly
 * each block's bytes, the driver's range of a pointer inside it being the
 * block; opens the second handle again and gets the same pointer (closed
 * twice); writes into the third block, which the exporter then reads;
 * closes the blocks one by one, those still open keeping their bytes; and
 * keeps the fourth open while the exporter
 * frees it and allocates and fills four blocks of its size: the importer
 * must still read the fourth block's own bytes (memory another process has
 * open is never handed out again). A second importer runs without
 * LD_PRELOAD: each open must fail or give exactly the block's bytes, never
 * other memory. A third is killed while it holds an 8 MiB block open: the
 * exporter's free of that block must give its memory back (cudaMemGetInfo's
 * free, which counts the cache's idle memory).
 *
 * On the fake driver the processes share one simulated device
 * (FAKECUDA_SHARED, set here when unset). Argument "expect-refusal-all"
 * (the cache under expandable_segments:True: VMM memory has no IPC
 * handle): every handle must be refused, nothing is opened.
 */
#include "common.h"

#include <cuda.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define NBLOCKS 4
static const size_t sizes[NBLOCKS] = { 4096, 100000, INTEG_MIB + 512, 24 * INTEG_MIB };
static const size_t kept = 3; /* the block the importer keeps open */

static unsigned char fill_of(size_t i)
{
	return (unsigned char)(0x10 + i);
}

/* Whether the n bytes at device pointer p are all v. */
static bool device_bytes_are(const void *p, size_t n, unsigned char v)
{
	unsigned char *host = malloc(n);
	bool ok = host && cudaMemcpy(host, p, n, cudaMemcpyDeviceToHost) == cudaSuccess;
	for (size_t i = 0; ok && i < n; i++)
		ok = host[i] == v;
	free(host);
	return ok;
}

static void to_hex(const cudaIpcMemHandle_t *h, char out[129])
{
	for (size_t i = 0; i < sizeof(h->reserved); i++)
		sprintf(out + 2 * i, "%02x", (unsigned char)h->reserved[i]);
}

static bool from_hex(const char *s, cudaIpcMemHandle_t *h)
{
	if (strlen(s) != 2 * sizeof(h->reserved))
		return false;
	for (size_t i = 0; i < sizeof(h->reserved); i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return false;
		h->reserved[i] = (char)v;
	}
	return true;
}

/* ---- the importer ---- */

/* Block i opened at p: its bytes, and the driver's range of it. */
static void child_check_block(size_t i, void *p)
{
	CUdeviceptr base = 0;
	size_t size = 0;
	if (!device_bytes_are(p, sizes[i], fill_of(i)))
		FAIL("importer: block %zu (%zu bytes) does not hold the exporter's bytes", i, sizes[i]);
	if (cuMemGetAddressRange(&base, &size, (CUdeviceptr)p + 100) != CUDA_SUCCESS ||
	    base != (CUdeviceptr)p || size < sizes[i])
		FAIL("importer: block %zu: the range of p + 100 is [%#llx, +%zu), the block [%p, +%zu)",
		     i, (unsigned long long)base, size, p, sizes[i]);
}

/* Every block open at once (blocks of one segment of the exporter's
 * cache too); the second opened again; the third written into. */
static void child_open_all(const cudaIpcMemHandle_t *h, void **p)
{
	for (size_t i = 0; i < NBLOCKS; i++)
		CHECK(cudaIpcOpenMemHandle(&p[i], h[i], cudaIpcMemLazyEnablePeerAccess));
	for (size_t i = 0; i < NBLOCKS; i++)
		child_check_block(i, p[i]);
	void *again = NULL;
	CHECK(cudaIpcOpenMemHandle(&again, h[1], cudaIpcMemLazyEnablePeerAccess));
	if (again != p[1])
		FAIL("importer: a second open of one handle gave %p, the first %p", again, p[1]);
	CHECK(cudaIpcCloseMemHandle(again));
	CHECK(cudaMemset(p[2], 0x5a, sizes[2]));
	CHECK(cudaDeviceSynchronize());
}

/* Each block but the kept one closed; those still open keep their bytes. */
static void child_close_all_but_kept(void **p)
{
	for (size_t i = 0; i < NBLOCKS; i++) {
		if (i == kept || i == 2)
			continue;
		CHECK(cudaIpcCloseMemHandle(p[i]));
		for (size_t j = i + 1; j < NBLOCKS; j++)
			if (j != 2 && !device_bytes_are(p[j], sizes[j], fill_of(j)))
				FAIL("importer: block %zu changed when block %zu was closed", j, i);
	}
	CHECK(cudaIpcCloseMemHandle(p[2]));
}

static int child(int argc, char **argv)
{
	cudaIpcMemHandle_t h[NBLOCKS];
	void *p[NBLOCKS] = { NULL };
	char line[16];
	if (argc != 2 + NBLOCKS)
		return 2;
	for (size_t i = 0; i < NBLOCKS; i++)
		if (!from_hex(argv[2 + i], &h[i]))
			return 2;
	/* The exporter reads the word on the pipe; messages go to stderr. */
	FILE *word = fdopen(dup(1), "w");
	if (!word || dup2(2, 1) < 0)
		return 2;
	child_open_all(h, p);
	child_close_all_but_kept(p);
	fputs("ready\n", word);
	fclose(word);
	if (!fgets(line, sizeof line, stdin) || strcmp(line, "freed\n") != 0)
		FAIL("importer: no word from the exporter");
	if (!device_bytes_are(p[kept], sizes[kept], fill_of(kept)))
		FAIL("importer: the block it has open was handed out again by the exporter");
	CHECK(cudaIpcCloseMemHandle(p[kept]));
	return atomic_load(&integ_failures) ? 1 : 0;
}

/* Opens the block of argv[2] and holds it until killed. */
static int child_hold(int argc, char **argv)
{
	cudaIpcMemHandle_t h;
	void *p = NULL;
	if (argc < 3 || !from_hex(argv[2], &h))
		return 2;
	CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

/* Without the library: an open fails or maps exactly the block. */
static int child_plain(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		cudaIpcMemHandle_t h;
		void *p = NULL;
		size_t b = (size_t)(i - 2);
		if (!from_hex(argv[i], &h))
			return 2;
		cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
		printf("plain importer: block %zu: %s\n", b, cudaGetErrorName(e));
		if (e == cudaSuccess) {
			if (!device_bytes_are(p, sizes[b], fill_of(b)))
				FAIL("plain importer: block %zu opened onto other memory", b);
			CHECK(cudaIpcCloseMemHandle(p));
		}
		(void)cudaGetLastError();
	}
	return atomic_load(&integ_failures) ? 1 : 0;
}

/* ---- the exporter ---- */

/* environ without LD_PRELOAD when plain (a copy; the strings are shared). */
static char **child_env(bool plain)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 1, sizeof(*env));
	for (size_t i = 0, k = 0; env && i < n; i++)
		if (!plain || strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
			env[k++] = environ[i];
	return env;
}

/* Starts this program as an importer, its stdin and stdout piped. */
static pid_t spawn_importer(const char *role, char hex[NBLOCKS][129], int *to, int *from)
{
	int down[2], up[2];
	char *argv[3 + NBLOCKS] = { "/proc/self/exe", (char *)role };
	for (size_t i = 0; i < NBLOCKS; i++)
		argv[2 + i] = hex[i];
	if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, down[0], 0);
	posix_spawn_file_actions_adddup2(&fa, up[1], 1);
	char **env = child_env(strcmp(role, "child-plain") == 0);
	pid_t pid;
	if (!env || posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, env) != 0)
		pid = -1;
	free(env);
	posix_spawn_file_actions_destroy(&fa);
	close(down[0]);
	close(up[1]);
	*to = down[1];
	*from = up[0];
	return pid;
}

static int wait_importer(pid_t pid, int to)
{
	int status = 0;
	close(to);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The importer keeps the block `kept` open: it is freed here and four
 * blocks of its size are made and filled in the meantime. */
static void churn_while_open(void **b)
{
	void *other[4];
	CHECK(cudaFree(b[kept]));
	b[kept] = NULL;
	for (size_t i = 0; i < 4; i++) {
		CHECK(cudaMalloc(&other[i], sizes[kept]));
		CHECK(cudaMemset(other[i], 0x77, sizes[kept]));
	}
	CHECK(cudaDeviceSynchronize());
	for (size_t i = 0; i < 4; i++)
		CHECK(cudaFree(other[i]));
}

static void run_importer(char hex[NBLOCKS][129], void **b, void *neighbour)
{
	int to, from;
	char line[16];
	pid_t pid = spawn_importer("child", hex, &to, &from);
	if (pid < 0)
		FAIL("cannot start the importer");
	FILE *in = fdopen(from, "r");
	if (!in || !fgets(line, sizeof line, in) || strcmp(line, "ready\n") != 0)
		FAIL("the importer did not get ready");
	if (!device_bytes_are(b[2], sizes[2], 0x5a))
		FAIL("the importer's writes into block 2 are not in the exporter's block");
	if (!device_bytes_are(neighbour, 4096, 0xee))
		FAIL("the neighbour block changed: the importer wrote past its block");
	churn_while_open(b);
	if (write(to, "freed\n", 6) != 6)
		FAIL("cannot tell the importer");
	int rc = wait_importer(pid, to);
	if (in)
		fclose(in);
	else
		close(from);
	if (rc != 0)
		FAIL("the importer failed (exit %d)", rc);
}

/* An importer killed with a block open: the exporter's free of the block
 * then gives its memory back (cudaMemGetInfo's free grows by its size). */
static void run_killed_importer(void)
{
	const size_t n = 8 * INTEG_MIB;
	void *b;
	cudaIpcMemHandle_t h;
	char hex[NBLOCKS][129], line[16];
	int to, from;
	size_t free0, free1, total;
	CHECK(cudaMalloc(&b, n));
	CHECK(cudaIpcGetMemHandle(&h, b));
	for (size_t i = 0; i < NBLOCKS; i++)
		to_hex(&h, hex[i]);
	pid_t pid = spawn_importer("child-hold", hex, &to, &from);
	FILE *in = pid > 0 ? fdopen(from, "r") : NULL;
	if (!in || !fgets(line, sizeof line, in) || strcmp(line, "ready\n") != 0)
		FAIL("the holding importer did not get ready");
	if (pid > 0) {
		kill(pid, SIGKILL);
		wait_importer(pid, to);
	}
	if (in)
		fclose(in);
	CHECK(cudaMemGetInfo(&free0, &total));
	CHECK(cudaFree(b));
	CHECK(cudaMemGetInfo(&free1, &total));
	if (free1 < free0 + n)
		FAIL("freeing a block whose importer was killed gave back %zd bytes, not %zu",
		     (ssize_t)(free1 - free0), n);
}

static void run_plain_importer(char hex[NBLOCKS][129])
{
	int to, from;
	pid_t pid = spawn_importer("child-plain", hex, &to, &from);
	char buf[512];
	ssize_t n;
	while (pid > 0 && (n = read(from, buf, sizeof buf)) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	int rc = pid > 0 ? wait_importer(pid, to) : -1;
	close(from);
	if (rc != 0)
		FAIL("the importer without the library failed (exit %d)", rc);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "child") == 0)
		return child(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "child-plain") == 0)
		return child_plain(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "child-hold") == 0)
		return child_hold(argc, argv);
	bool refused = argc == 2 && strcmp(argv[1], "expect-refusal-all") == 0;
	if (argc > 2 || (argc == 2 && !refused)) {
		printf("usage: %s [expect-refusal-all]\n", argv[0]);
		return 2;
	}
	char name[64];
	snprintf(name, sizeof name, "prog-ipc-%d", (int)getpid());
	setenv("FAKECUDA_SHARED", name, 0);

	void *neighbour, *b[NBLOCKS];
	cudaIpcMemHandle_t h, again;
	char hex[NBLOCKS][129];
	CHECK(cudaMalloc(&neighbour, 4096));
	CHECK(cudaMemset(neighbour, 0xee, 4096));
	for (size_t i = 0; i < NBLOCKS; i++) {
		CHECK(cudaMalloc(&b[i], sizes[i]));
		CHECK(cudaMemset(b[i], fill_of(i), sizes[i]));
	}
	CHECK(cudaDeviceSynchronize());
	for (size_t i = 0; i < NBLOCKS; i++) {
		cudaError_t e = cudaIpcGetMemHandle(&h, b[i]);
		printf("ipc: handle of the %zu-byte block: %s\n", sizes[i], cudaGetErrorName(e));
		(void)cudaGetLastError();
		if (refused != (e != cudaSuccess))
			FAIL("cudaIpcGetMemHandle(%zu bytes): %s, expected %s", sizes[i],
			     cudaGetErrorName(e), refused ? "a refusal" : "cudaSuccess");
		if (e == cudaSuccess && (cudaIpcGetMemHandle(&again, b[i]) != cudaSuccess ||
					 memcmp(&h, &again, sizeof(h)) != 0))
			FAIL("a second handle of the %zu-byte block differs", sizes[i]);
		to_hex(&h, hex[i]);
	}
	if (!refused) {
		fflush(stdout);
		run_plain_importer(hex);
		run_importer(hex, b, neighbour);
		run_killed_importer();
	}
	CHECK(cudaFree(neighbour));
	for (size_t i = 0; i < NBLOCKS; i++)
		if (b[i])
			CHECK(cudaFree(b[i]));
	return integ_report("ipc");
}
