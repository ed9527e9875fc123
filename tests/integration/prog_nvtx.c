/* prog_nvtx: what an NVTX tool is told about the program's memory.
 *
 *   prog_nvtx MODE LOG
 *
 * LOG is the file the fake tool (fakenvtx.c) writes its calls to. MODE:
 *   expect       every block is a region of the size asked, inside a
 *                registered heap, unregistered at its free (cudaFree,
 *                cudaFreeAsync), not at a bad free; cudaDeviceReset
 *                unregisters every heap; a block after it is in a new heap
 *   release      the same up to the frees; then cudaDeviceSynchronize
 *                (run with release_threshold_mb:0) gives every segment
 *                back and unregisters every heap
 *   expect-none  the same calls, and the tool is told nothing (and, with
 *                the fake preloaded, NVTX never even looked for a tool)
 *   expect-probe the same calls; NVTX looked for a tool, found none, and
 *                the tool is told nothing (nvtx_memory:on with none named)
 */
#include "common.h"

#include <errno.h>
#include <unistd.h>

#define MAX_EVENTS 4096

enum { EV_DOMAIN, EV_HEAP_REG, EV_HEAP_UNREG, EV_REGION_REG, EV_REGION_UNREG, EV_GETENV };

typedef struct event {
	int kind;
	unsigned long a, b, c, d, e; /* as in fakenvtx.c's lines */
} event;

static event ev[MAX_EVENTS];
static int nev;
static int since; /* expect_unregistered looks from here: a reset drops regions with their heaps */
static const char *log_path;

static void read_log(void)
{
	FILE *f = fopen(log_path, "r");
	char line[256], word[64];
	nev = 0;
	if (!f)
		return; /* no tool call yet */
	while (nev < MAX_EVENTS && fgets(line, sizeof line, f)) {
		event *e = &ev[nev];
		memset(e, 0, sizeof *e);
		if (sscanf(line, "%63s %lx %lx %lx %lx %lx", word, &e->a, &e->b, &e->c, &e->d, &e->e) < 1)
			continue;
		if (!strcmp(word, "domain"))
			e->kind = EV_DOMAIN;
		else if (!strcmp(word, "heap_register"))
			e->kind = EV_HEAP_REG;
		else if (!strcmp(word, "heap_unregister"))
			e->kind = EV_HEAP_UNREG;
		else if (!strcmp(word, "region_register"))
			e->kind = EV_REGION_REG;
		else if (!strcmp(word, "region_unregister"))
			e->kind = EV_REGION_UNREG;
		else if (!strcmp(word, "getenv"))
			e->kind = EV_GETENV;
		else {
			FAIL("unknown line in %s: %s", log_path, line);
			continue;
		}
		nev++;
	}
	fclose(f);
}

static int count(int kind, unsigned long a)
{
	int n = 0;
	for (int i = 0; i < nev; i++)
		n += ev[i].kind == kind && ev[i].a == a;
	return n;
}

static int count_kind(int kind)
{
	int n = 0;
	for (int i = 0; i < nev; i++)
		n += ev[i].kind == kind;
	return n;
}

/* The last registration of a region at p: its heap must be registered,
 * not unregistered since, a sub-allocator (usage 1) of virtual addresses
 * (type 1), and hold [p, p + size). */
static void expect_region(const char *what, void *p, size_t size)
{
	unsigned long ptr = (unsigned long)(uintptr_t)p;
	int last = -1;
	read_log();
	for (int i = 0; i < nev; i++)
		if (ev[i].kind == EV_REGION_REG && ev[i].b == ptr)
			last = i;
	if (last < 0) {
		FAIL("%s: no region registered at %p", what, p);
		return;
	}
	if (ev[last].c != size)
		FAIL("%s: region at %p registered with %lu bytes, expected the %zu asked",
		     what, p, ev[last].c, size);
	for (int i = last + 1; i < nev; i++)
		if (ev[i].kind == EV_REGION_UNREG && ev[i].a == ptr)
			FAIL("%s: region at %p unregistered while held", what, p);
	unsigned long heap = ev[last].a;
	int reg = -1;
	for (int i = 0; i < last; i++)
		if (ev[i].kind == EV_HEAP_REG && ev[i].a == heap)
			reg = i;
	if (reg < 0) {
		FAIL("%s: region at %p filed under heap 0x%lx, never registered", what, p, heap);
		return;
	}
	if (count(EV_HEAP_UNREG, heap))
		FAIL("%s: heap 0x%lx of the region at %p was unregistered", what, heap, p);
	if (ev[reg].d != 1 || ev[reg].e != 1)
		FAIL("%s: heap 0x%lx has usage %lu and type %lu, expected 1 (sub-allocator) "
		     "and 1 (virtual address)", what, heap, ev[reg].d, ev[reg].e);
	if (ptr < ev[reg].b || ptr + size > ev[reg].b + ev[reg].c)
		FAIL("%s: region [%p, +%zu) outside its heap [0x%lx, +0x%lx)", what, p, size,
		     ev[reg].b, ev[reg].c);
}

/* Every region registered at p is unregistered, once each. */
static void expect_unregistered(const char *what, void *p)
{
	unsigned long ptr = (unsigned long)(uintptr_t)p;
	read_log();
	int regs = 0, unregs = 0;
	for (int i = since; i < nev; i++) {
		regs += ev[i].kind == EV_REGION_REG && ev[i].b == ptr;
		unregs += ev[i].kind == EV_REGION_UNREG && ev[i].a == ptr;
	}
	if (regs != unregs)
		FAIL("%s: %d region(s) registered at %p, %d unregistered", what, regs, p, unregs);
}

/* Every heap registered so far is unregistered, once. */
static void expect_no_heap(const char *what)
{
	read_log();
	int heaps = 0;
	for (int i = 0; i < nev; i++) {
		if (ev[i].kind != EV_HEAP_REG)
			continue;
		heaps++;
		int n = count(EV_HEAP_UNREG, ev[i].a);
		if (n != 1)
			FAIL("%s: heap 0x%lx unregistered %d times, expected once", what, ev[i].a, n);
	}
	if (heaps == 0)
		FAIL("%s: no heap was ever registered", what);
	if (count_kind(EV_HEAP_UNREG) != heaps)
		FAIL("%s: %d heap unregistrations for %d heaps", what,
		     count_kind(EV_HEAP_UNREG), heaps);
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "expect") && strcmp(argv[1], "release") &&
			  strcmp(argv[1], "expect-none") && strcmp(argv[1], "expect-probe"))) {
		fprintf(stderr, "usage: prog_nvtx expect|release|expect-none|expect-probe LOG\n");
		return 2;
	}
	bool probe = !strcmp(argv[1], "expect-probe");
	bool none = probe || !strcmp(argv[1], "expect-none");
	bool release = !strcmp(argv[1], "release");
	log_path = argv[2];
	if (unlink(log_path) != 0 && errno != ENOENT) {
		FAIL("cannot remove %s: %s", log_path, strerror(errno));
		return 1;
	}

	void *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;
	const size_t big = 3 * INTEG_MIB + 7;
	cudaStream_t s;
	CHECK(cudaFree(NULL)); /* the runtime and its context */
	CHECK(cudaMalloc(&a, 1000));
	CHECK(cudaMalloc(&b, big));
	if (!none) {
		expect_region("cudaMalloc(1000)", a, 1000);
		expect_region("cudaMalloc(3 MiB + 7)", b, big);
	}
	CHECK(cudaFree(a));
	if (!none)
		expect_unregistered("cudaFree", a);
	EXPECT_ERR(cudaFree(a), cudaErrorInvalidValue);
	if (!none)
		expect_unregistered("a double cudaFree", a);
	CHECK(cudaMalloc(&c, 1000)); /* from the cache */
	if (!none)
		expect_region("cudaMalloc(1000) again", c, 1000);
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaMallocAsync(&d, 5000, s));
	CHECK(cudaMemsetAsync(d, 1, 5000, s));
	if (!none)
		expect_region("cudaMallocAsync(5000)", d, 5000);
	CHECK(cudaFreeAsync(d, s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaStreamDestroy(s));
	if (!none)
		expect_unregistered("cudaFreeAsync", d);
	CHECK(cudaFree(c));
	CHECK(cudaFree(b));
	if (!none) {
		expect_unregistered("cudaFree", c);
		expect_unregistered("cudaFree (3 MiB + 7)", b);
	}

	if (release) {
		CHECK(cudaDeviceSynchronize()); /* release_threshold_mb:0 */
		expect_no_heap("cudaDeviceSynchronize under release_threshold_mb:0");
	} else {
		CHECK(cudaMalloc(&a, 4096)); /* held across the reset */
		CHECK(cudaDeviceReset());
		if (!none)
			expect_no_heap("cudaDeviceReset");
		read_log();
		since = nev;
		CHECK(cudaMalloc(&e, 100));
		if (!none)
			expect_region("cudaMalloc(100) after cudaDeviceReset", e, 100);
		CHECK(cudaFree(e));
		if (!none)
			expect_unregistered("cudaFree after cudaDeviceReset", e);
	}

	read_log();
	if (none && nev - count_kind(EV_GETENV) > 0)
		FAIL("the tool was called %d time(s); expected none", nev - count_kind(EV_GETENV));
	if (none && !probe && count_kind(EV_GETENV) > 0)
		FAIL("NVTX looked for a tool %d time(s); expected no NVTX call at all",
		     count_kind(EV_GETENV));
	if (probe && count_kind(EV_GETENV) == 0)
		FAIL("NVTX never looked for a tool under nvtx_memory:on (is the fake preloaded?)");
	if (!none && count_kind(EV_DOMAIN) != 1)
		FAIL("%d domains created, expected 1", count_kind(EV_DOMAIN));
	return integ_report("nvtx");
}
