/* prog_sync: the runtime's synchronizations, linked and through
 * dlsym(RTLD_NEXT), as a program or a framework calls them. With the
 * library preloaded (argument "expect-hooked") the runtime-level names
 * must resolve to the library's hooks; check_syncs.py then reads the
 * statistics and checks that the core heard of each synchronization
 * exactly once (the driver hook the runtime reaches must not count it
 * again). Prints "syncs: N", the synchronizations it made. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>

#include "common.h"
#include "../fnptr.h"

typedef cudaError_t (*sync_stream_fn)(cudaStream_t);
typedef cudaError_t (*sync_device_fn)(void);

static void *next_symbol(const char *name, bool expect_hooked)
{
	void *f = dlsym(RTLD_NEXT, name);
	Dl_info info;
	if (!f || !dladdr(f, &info) || !info.dli_fname) {
		FAIL("dlsym(RTLD_NEXT, %s): expected a function, got none", name);
		exit(1);
	}
	bool hooked = strstr(info.dli_fname, "libcachemalloc") != NULL;
	if (hooked != expect_hooked)
		FAIL("dlsym(RTLD_NEXT, %s): expected %s, got %s", name,
		     expect_hooked ? "the library's hook" : "the runtime's", info.dli_fname);
	return f;
}

int main(int argc, char **argv)
{
	bool expect_hooked = argc > 1 && strcmp(argv[1], "expect-hooked") == 0;
	sync_stream_fn stream_sync =
		(sync_stream_fn)fn_of(next_symbol("cudaStreamSynchronize", expect_hooked));
	sync_stream_fn stream_sync_ptsz =
		(sync_stream_fn)fn_of(next_symbol("cudaStreamSynchronize_ptsz", expect_hooked));
	sync_device_fn device_sync =
		(sync_device_fn)fn_of(next_symbol("cudaDeviceSynchronize", expect_hooked));
	cudaStream_t a;
	void *p;
	int syncs = 0;

	CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
	CHECK(cudaMalloc(&p, INTEG_MIB));
	for (int i = 0; i < 3; i++) {
		slow_fill(p, i, INTEG_MIB, a);
		CHECK(cudaStreamSynchronize(a));
		syncs++;
	}
	CHECK(cudaStreamSynchronize(0));
	CHECK(cudaDeviceSynchronize());
	CHECK(stream_sync(a));
	CHECK(stream_sync_ptsz(0));
	CHECK(device_sync());
	syncs += 5;
	check_fill_all(p, 2, INTEG_MIB, "after the synchronizations");
	CHECK(cudaFree(p));
	CHECK(cudaStreamDestroy(a));
	printf("syncs: %d\n", syncs);
	return integ_report("sync");
}
