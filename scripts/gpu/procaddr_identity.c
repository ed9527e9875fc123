/* scripts/gpu/procaddr_identity.c - does cuGetProcAddress_v2 hand out the
 * very functions libcuda.so.1 exports? The lookup interposition
 * (interpose/lookup.c) substitutes a hook when the pointer the driver
 * returns equals dlsym's for the hooked name: this prints, for a few
 * names, both pointers and whether they are equal.
 * Build: cc -I/usr/local/cuda/include procaddr_identity.c -ldl -o procaddr_identity */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

typedef CUresult (*getproc_fn)(const char *, void **, int, cuuint64_t,
			       CUdriverProcAddressQueryResult *);

int main(void)
{
	static const struct {
		const char *base, *export;
		cuuint64_t flags;
	} names[] = {
		{"cuMemAlloc", "cuMemAlloc_v2", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuMemFree", "cuMemFree_v2", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuMemAllocAsync", "cuMemAllocAsync", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuMemAllocAsync", "cuMemAllocAsync_ptsz", CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM},
		{"cuStreamSynchronize", "cuStreamSynchronize_ptsz", CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM},
		{"cuLaunchKernel", "cuLaunchKernel", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuLaunchKernel", "cuLaunchKernel_ptsz", CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM},
		{"cuMemcpyHtoD", "cuMemcpyHtoD_v2", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuMemcpyHtoD", "cuMemcpyHtoD_v2_ptds", CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM},
		{"cuStreamDestroy", "cuStreamDestroy_v2", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuCtxSynchronize", "cuCtxSynchronize", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
		{"cuGetProcAddress", "cuGetProcAddress_v2", CU_GET_PROC_ADDRESS_LEGACY_STREAM},
	};
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		printf("no libcuda.so.1: %s\n", dlerror());
		return 1;
	}
	getproc_fn gp = (getproc_fn)dlsym(h, "cuGetProcAddress_v2");
	int same = 0, n = (int)(sizeof names / sizeof names[0]);
	for (int i = 0; i < n; i++) {
		void *a = dlsym(h, names[i].export), *b = NULL;
		CUdriverProcAddressQueryResult q;
		CUresult r = gp(names[i].base, &b, 13000, names[i].flags, &q);
		same += a == b;
		printf("identity %-22s %-26s r=%d dlsym=%p procaddr=%p %s\n", names[i].base,
		       names[i].export, (int)r, a, b, a == b ? "same" : "DIFFERENT");
	}
	printf("identity: %d of %d equal\n", same, n);
	return 0;
}
