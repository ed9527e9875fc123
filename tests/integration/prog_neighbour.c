/* prog_neighbour: the driver API among other interposers (issue 15;
 * docs/design.md, "The driver layer"), run by check_neighbours.py plain
 * and with the library, alone or beside a shim (nb_shim.c) or a second
 * dlsym interposer (nb_vgpu.c), in both orders. Its output must be the
 * same in every run; a recursion into one's own function is caught
 * (depth) or crashes.
 *
 * Built twice. prog_neighbour fetches cuMemAlloc_v2 / cuMemFree_v2 the way
 * argv[1] names: "linked" (the symbols -lcuda links), "handle"
 * (dlsym(dlopen("libcuda.so.1"))), "procaddr" (cuGetProcAddress_v2).
 * prog_neighbour_define (NB_DEFINE, linked with -rdynamic) defines both
 * functions itself, as a tracer does, and forwards each call to the next
 * definition, found the way argv[1] names: "rtld-next"
 * (dlsym(RTLD_NEXT)), "handle" or "procaddr".
 *
 * Then 64 rounds of allocate (1 MiB + 4 KiB steps), fill, read back and
 * free; and the dlsym(3) idiom, dlerror() clear after a lookup that
 * succeeded and set after one that failed, as glibc leaves it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT, dlvsym (built alone on a GPU machine) */
#endif
#include <cuda.h>
#include <dlfcn.h>
#include <unistd.h>

#include "common.h"
#include "../fnptr.h"

#define NB_ROUNDS 64

typedef CUresult (*nb_alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*nb_free_fn)(CUdeviceptr);

static const char *nb_mode;

/* The function name names, found the way nb_mode says. */
static void *nb_find(const char *name, const char *base)
{
	void *f = NULL;
	if (strcmp(nb_mode, "rtld-next") == 0) {
		f = dlsym(RTLD_NEXT, name);
	} else if (strcmp(nb_mode, "handle") == 0) {
		void *h = dlopen("libcuda.so.1", RTLD_NOW);
		f = h ? dlsym(h, name) : NULL;
	} else if (strcmp(nb_mode, "procaddr") == 0) {
		CUdriverProcAddressQueryResult st;
		if (cuGetProcAddress_v2(base, &f, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st) != CUDA_SUCCESS)
			f = NULL;
	} else if (strcmp(nb_mode, "linked") == 0) {
		f = strcmp(base, "cuMemAlloc") == 0 ? PTR_OF(cuMemAlloc_v2) : PTR_OF(cuMemFree_v2);
	}
	if (!f) {
		FAIL("%s by %s: not found", name, nb_mode);
		exit(1);
	}
	return f;
}

#if NB_DEFINE
static int nb_depth, nb_calls;

/* Into one of the program's own definitions: being in one already means
 * the library called the program's own again instead of the driver's. */
static void nb_enter(const char *name)
{
	if (nb_depth++) {
		printf("FAIL: %s by %s reached the program's own again\n", name, nb_mode);
		fflush(stdout);
		_exit(3);
	}
}

/* Exported (-rdynamic): the first definition in the process. */
#define NB_EXPORT __attribute__((visibility("default")))

NB_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	static nb_alloc_fn next;
	if (!next)
		next = (nb_alloc_fn)fn_of(nb_find("cuMemAlloc_v2", "cuMemAlloc"));
	nb_enter("cuMemAlloc_v2");
	CUresult r = next(p, n);
	nb_depth--;
	nb_calls++;
	return r;
}

NB_EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
	static nb_free_fn next;
	if (!next)
		next = (nb_free_fn)fn_of(nb_find("cuMemFree_v2", "cuMemFree"));
	nb_enter("cuMemFree_v2");
	CUresult r = next(p);
	nb_depth--;
	nb_calls++;
	return r;
}
#endif

static void nb_rounds(nb_alloc_fn alloc, nb_free_fn release)
{
	unsigned char ends[2];
	for (int i = 0; i < NB_ROUNDS; i++) {
		size_t n = INTEG_MIB + (size_t)(i % 8) * 4096;
		CUdeviceptr p = 0;
		CU_CHECK(alloc(&p, n));
		CU_CHECK(cuMemsetD8(p, i + 1, n));
		CU_CHECK(cuMemcpyDtoH(&ends[0], p, 1));
		CU_CHECK(cuMemcpyDtoH(&ends[1], p + n - 1, 1));
		if (ends[0] != (unsigned char)(i + 1) || ends[1] != (unsigned char)(i + 1))
			FAIL("round %d: expected 0x%02x at both ends, got 0x%02x 0x%02x", i, i + 1,
			     ends[0], ends[1]);
		CU_CHECK(release(p));
	}
}

/* dlerror() after lookups as glibc leaves it: none after a success (the
 * first lookup of a hooked name builds the library's map), set after a
 * failure. */
static void nb_dlerror(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	const char *names[] = {"cuMemAlloc_v2", "cuLaunchHostFunc", "cuInit", "cuNbNoSuchFunction"};
	for (size_t i = 0; h && i < sizeof(names) / sizeof(names[0]); i++) {
		dlerror();
		void *f = dlsym(h, names[i]);
		const char *e = dlerror();
		bool want = i < 3;
		if (want && (!f || e))
			FAIL("dlsym(libcuda, %s): expected the function and no dlerror(), got %p, %s",
			     names[i], f, e ? e : "none");
		if (!want && (f || !e))
			FAIL("dlsym(libcuda, %s): expected NULL and a dlerror(), got %p, %s", names[i],
			     f, e ? e : "none");
	}
	dlerror();
	void *f = dlsym(RTLD_NEXT, "cuMemFree_v2");
	const char *e = dlerror();
	if (!f || e)
		FAIL("dlsym(RTLD_NEXT, cuMemFree_v2): expected a function and no dlerror(), got %p, %s",
		     f, e ? e : "none");
}

int main(int argc, char **argv)
{
	nb_mode = argc > 1 ? argv[1] : "linked";
	if (!NB_DEFINE)
		nb_dlerror(); /* first: before the driver is initialized */
	integ_cu_start();
#if NB_DEFINE
	nb_rounds(cuMemAlloc_v2, cuMemFree_v2);
	if (nb_calls != 2 * NB_ROUNDS)
		FAIL("the program's own functions: expected %d calls, got %d", 2 * NB_ROUNDS, nb_calls);
#else
	nb_rounds((nb_alloc_fn)fn_of(nb_find("cuMemAlloc_v2", "cuMemAlloc")),
		  (nb_free_fn)fn_of(nb_find("cuMemFree_v2", "cuMemFree")));
	nb_dlerror();
#endif
	CU_CHECK(cuCtxSetCurrent(NULL));
	CU_CHECK(cuDevicePrimaryCtxRelease(0));
	printf("neighbour %s%s: %d rounds\n", NB_DEFINE ? "define " : "", nb_mode, NB_ROUNDS);
	return integ_report("neighbour");
}
