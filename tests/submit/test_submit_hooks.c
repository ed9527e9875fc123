/* tests/submit/test_submit_hooks.c - the generated driver submission hooks
 * (interpose/submit_hooks.c) against stub library functions and fake driver
 * functions: the stream reaches cm_lib_submit before the driver is called,
 * and the arguments and the result pass through unchanged. No GPU, no
 * libcuda. docs/design.md, "Seeing every submission".
 */
/* built with -D__CUDA_API_VERSION_INTERNAL=1, as interpose/: every export declared */
#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hook_entry.h"
#include "real.h"

cm_real_fns cm_real; /* the library's store (hook_table.c), filled by the fakes */

static int failures;
#define CHECK(c) \
	do { \
		if (!(c)) { \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); \
			failures++; \
		} \
	} while (0)

/* ---- what the library provides ---- */

#define MAX_SUBMITS 8
static struct {
	CUstream s;
	bool ptsz;
	int real_calls_before; /* the driver had not been called yet */
} submits[MAX_SUBMITS];
static int n_submits, n_resolves, real_calls;

void cm_lib_submitted(void)
{
}

void cm_lib_submit(CUstream s, bool ptsz)
{
	if (n_submits < MAX_SUBMITS)
		submits[n_submits] = (__typeof__(submits[0])){ s, ptsz, real_calls };
	n_submits++;
}

static cm_fn fake_for(const char *symbol);

bool cm_drv_resolve(void)
{
	n_resolves++;
	for (size_t i = 0; i < cm_submit_count; i++) {
		cm_fn f = fake_for(cm_submit_table[i].symbol);
		void *address;
		memcpy(&address, &f, sizeof(address)); /* as dlsym gives it */
		if (f)
			__atomic_store_n(cm_submit_table[i].real, address, __ATOMIC_RELAXED);
	}
	return true;
}

static void reset(void)
{
	memset(submits, 0, sizeof submits);
	n_submits = 0;
	real_calls = 0;
}

/* ---- fake driver functions: record the arguments ---- */

static uintptr_t got[12];
#define RESULT ((CUresult)777)

static CUresult fake_launch_kernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
				   unsigned int bx, unsigned int by, unsigned int bz,
				   unsigned int shmem, CUstream s, void **params, void **extra)
{
	uintptr_t a[] = { (uintptr_t)f, gx, gy, gz, bx, by, bz, shmem, (uintptr_t)s,
			  (uintptr_t)params, (uintptr_t)extra };
	memcpy(got, a, sizeof a);
	real_calls++;
	return RESULT;
}

static CUresult fake_htod(CUdeviceptr dst, const void *src, size_t n)
{
	got[0] = dst, got[1] = (uintptr_t)src, got[2] = n;
	real_calls++;
	return RESULT;
}

static CUresult fake_htod_v1(CUdeviceptr_v1 dst, const void *src, unsigned int n)
{
	got[0] = dst, got[1] = (uintptr_t)src, got[2] = n;
	real_calls++;
	return RESULT;
}

static CUresult fake_launch_ex(const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
	got[0] = (uintptr_t)c, got[1] = (uintptr_t)f, got[2] = (uintptr_t)params;
	got[3] = (uintptr_t)extra;
	real_calls++;
	return RESULT;
}

static CUresult fake_memcpy_async(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	got[0] = dst, got[1] = src, got[2] = n, got[3] = (uintptr_t)s;
	real_calls++;
	return RESULT;
}

static CUresult fake_multi_device(CUDA_LAUNCH_PARAMS *list, unsigned int n, unsigned int flags)
{
	got[0] = (uintptr_t)list, got[1] = n, got[2] = flags;
	real_calls++;
	return RESULT;
}

static CUresult fake_instantiate(CUgraphExec *exec, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
	got[0] = (uintptr_t)exec, got[1] = (uintptr_t)g, got[2] = (uintptr_t)p;
	real_calls++;
	return RESULT;
}

static cm_fn fake_for(const char *symbol)
{
	static const struct {
		const char *symbol;
		cm_fn fn;
	} fakes[] = {
		{ "cuLaunchKernel", (cm_fn)fake_launch_kernel },
		{ "cuLaunchKernel_ptsz", (cm_fn)fake_launch_kernel },
		{ "cuMemcpyHtoD", (cm_fn)fake_htod_v1 },
		{ "cuMemcpyHtoD_v2", (cm_fn)fake_htod },
		{ "cuMemcpyHtoD_v2_ptds", (cm_fn)fake_htod },
		{ "cuLaunchKernelEx", (cm_fn)fake_launch_ex },
		{ "cuLaunchKernelEx_ptsz", (cm_fn)fake_launch_ex },
		{ "cuMemcpyAsync_ptsz", (cm_fn)fake_memcpy_async },
		{ "cuLaunchCooperativeKernelMultiDevice", (cm_fn)fake_multi_device },
		{ "cuGraphInstantiateWithParams", (cm_fn)fake_instantiate },
	};
	for (size_t i = 0; i < sizeof fakes / sizeof fakes[0]; i++)
		if (!strcmp(fakes[i].symbol, symbol))
			return fakes[i].fn;
	return NULL;
}

#define S(x) ((CUstream)(uintptr_t)(x))

/* One submission, of stream s with ptsz, before the driver ran. */
static void check_one_submit(CUstream s, bool ptsz)
{
	CHECK(n_submits == 1);
	CHECK(submits[0].s == s);
	CHECK(submits[0].ptsz == ptsz);
	CHECK(submits[0].real_calls_before == 0);
	CHECK(real_calls == 1);
}

static void test_table(void)
{
	CHECK(cm_submit_count > 100);
	for (size_t i = 0; i < cm_submit_count; i++) {
		const cm_hook_entry *e = &cm_submit_table[i];
		size_t n = strlen(e->symbol);
		bool suffix = n > 5 && (!strcmp(e->symbol + n - 5, "_ptsz") ||
					!strcmp(e->symbol + n - 5, "_ptds"));
		CHECK(e->ptsz == suffix);
		CHECK(!strncmp(e->symbol, e->lookup, strlen(e->lookup)));
		CHECK(e->hook != NULL);
		CHECK(e->real != NULL && *e->real == NULL); /* nothing resolved yet */
		for (size_t j = 0; j < i; j++) {
			CHECK(strcmp(e->symbol, cm_submit_table[j].symbol) != 0);
			CHECK(e->real != cm_submit_table[j].real);
		}
	}
}

static const cm_hook_entry *entry(const char *symbol)
{
	for (size_t i = 0; i < cm_submit_count; i++)
		if (!strcmp(cm_submit_table[i].symbol, symbol))
			return &cm_submit_table[i];
	fprintf(stderr, "no entry for %s\n", symbol);
	failures++;
	return NULL;
}

static void test_entries(void)
{
	const cm_hook_entry *e;
	if ((e = entry("cuLaunchKernel_ptsz")))
		CHECK(!strcmp(e->lookup, "cuLaunchKernel") && e->ptsz &&
		      e->hook == (cm_fn)cuLaunchKernel_ptsz);
	if ((e = entry("cuMemcpyHtoD_v2")))
		CHECK(!strcmp(e->lookup, "cuMemcpyHtoD") && !e->ptsz);
	if ((e = entry("cuMemcpyHtoD_v2_ptds")))
		CHECK(!strcmp(e->lookup, "cuMemcpyHtoD") && e->ptsz);
	if ((e = entry("cuMemcpyBatchAsync_v2_ptsz")))
		CHECK(!strcmp(e->lookup, "cuMemcpyBatchAsync") && e->ptsz);
	/* hooked by hand or queueing nothing: not in the table */
	for (size_t i = 0; i < cm_submit_count; i++) {
		const char *s = cm_submit_table[i].lookup;
		CHECK(strcmp(s, "cuMemAllocAsync") && strcmp(s, "cuMemFreeAsync") &&
		      strcmp(s, "cuStreamSynchronize") && strcmp(s, "cuStreamQuery") &&
		      strcmp(s, "cuStreamBeginCapture") && strcmp(s, "cuStreamGetPriority"));
	}
}

static void test_launch_kernel(void)
{
	int p, x;
	void *params[] = { &p }, *extra[] = { &x };
	reset();
	CUresult r = cuLaunchKernel((CUfunction)0x1234, 1, 2, 3, 4, 5, 6, 7, S(0x50), params, extra);
	CHECK(r == RESULT);
	CHECK(n_resolves == 1); /* the first call resolved */
	check_one_submit(S(0x50), false);
	uintptr_t want[] = { 0x1234, 1, 2, 3, 4, 5, 6, 7, 0x50, (uintptr_t)params,
			     (uintptr_t)extra };
	CHECK(!memcmp(got, want, sizeof want));

	reset();
	r = cuLaunchKernel_ptsz((CUfunction)0x99, 9, 8, 7, 6, 5, 4, 3, NULL, NULL, extra);
	CHECK(r == RESULT);
	CHECK(n_resolves == 1); /* resolved once: no second resolve */
	check_one_submit(NULL, true);
	CHECK(got[0] == 0x99 && got[1] == 9 && got[7] == 3 && got[8] == 0 && got[10] == (uintptr_t)extra);
}

static void test_implicit(void)
{
	char buf[4];
	reset();
	CHECK(cuMemcpyHtoD_v2(0xd000, buf, 4) == RESULT);
	check_one_submit(NULL, false);
	CHECK(got[0] == 0xd000 && got[1] == (uintptr_t)buf && got[2] == 4);

	reset();
	CHECK(cuMemcpyHtoD_v2_ptds(0xd100, buf, 3) == RESULT);
	check_one_submit(NULL, true);
	CHECK(got[0] == 0xd100 && got[1] == (uintptr_t)buf && got[2] == 3);

	reset();
	CHECK(cuMemcpyHtoD((CUdeviceptr_v1)0xd200, buf, 2) == RESULT); /* the v1 ABI */
	check_one_submit(NULL, false);
	CHECK(got[0] == 0xd200 && got[2] == 2);
}

static void test_launch_ex(void)
{
	CUlaunchConfig c = { .gridDimX = 1, .hStream = S(0x70) };
	void *params[1], *extra[1];
	reset();
	CHECK(cuLaunchKernelEx(&c, (CUfunction)0x42, params, extra) == RESULT);
	check_one_submit(S(0x70), false);
	CHECK(got[0] == (uintptr_t)&c && got[1] == 0x42 && got[2] == (uintptr_t)params &&
	      got[3] == (uintptr_t)extra);

	reset();
	c.hStream = NULL;
	CHECK(cuLaunchKernelEx_ptsz(&c, (CUfunction)0x43, NULL, NULL) == RESULT);
	check_one_submit(NULL, true);

	reset(); /* a NULL config: the driver refuses it; the hook must not crash */
	CHECK(cuLaunchKernelEx(NULL, (CUfunction)0x44, NULL, NULL) == RESULT);
	check_one_submit(NULL, false);
	CHECK(got[0] == 0);
}

static void test_memcpy_async(void)
{
	reset();
	CHECK(cuMemcpyAsync_ptsz(0xa000, 0xb000, 64, S(0x80)) == RESULT);
	check_one_submit(S(0x80), true);
	CHECK(got[0] == 0xa000 && got[1] == 0xb000 && got[2] == 64 && got[3] == 0x80);
}

static void test_structs(void)
{
	CUDA_LAUNCH_PARAMS list[2] = { { .hStream = S(0x91) }, { .hStream = S(0x92) } };
	reset();
	CHECK(cuLaunchCooperativeKernelMultiDevice(list, 2, 5) == RESULT);
	CHECK(n_submits == 2 && submits[0].s == S(0x91) && submits[1].s == S(0x92));
	CHECK(!submits[0].ptsz && submits[1].real_calls_before == 0);
	CHECK(got[0] == (uintptr_t)list && got[1] == 2 && got[2] == 5);

	CUDA_GRAPH_INSTANTIATE_PARAMS ip = { .flags = 0, .hUploadStream = S(0xbad) };
	CUgraphExec exec;
	reset(); /* no upload: hUploadStream is not read */
	CHECK(cuGraphInstantiateWithParams(&exec, (CUgraph)0x5, &ip) == RESULT);
	CHECK(n_submits == 0 && real_calls == 1);
	CHECK(got[0] == (uintptr_t)&exec && got[1] == 0x5 && got[2] == (uintptr_t)&ip);
	reset();
	ip.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
	ip.hUploadStream = S(0xa1);
	CHECK(cuGraphInstantiateWithParams(&exec, (CUgraph)0x5, &ip) == RESULT);
	check_one_submit(S(0xa1), false);
}

static void test_unresolved(void)
{
	int before = n_resolves;
	reset(); /* a driver without the function: reported, resolution retried */
	CHECK(cuMemsetD8_v2(0xe000, 1, 16) == CUDA_ERROR_NOT_FOUND);
	CHECK(n_submits == 1 && real_calls == 0);
	CHECK(n_resolves == before + 1);
	CHECK(cuMemsetD8_v2(0xe000, 1, 16) == CUDA_ERROR_NOT_FOUND);
	CHECK(n_resolves == before + 2);
}

int main(void)
{
	test_table();
	test_entries();
	test_launch_kernel();
	test_implicit();
	test_launch_ex();
	test_memcpy_async();
	test_structs();
	test_unresolved();
	if (failures) {
		fprintf(stderr, "test_submit_hooks: %d checks failed\n", failures);
		return 1;
	}
	printf("test_submit_hooks: %zu wrappers, all checks passed\n", cm_submit_count);
	return 0;
}
