/* scripts/gpu/probe_vmm_costs.c - what the VMM calls of expandable
 * segments and stitching cost on the host (core/mem/expandable.c), and
 * whether one cuMemUnmap may span the mappings of several handles.
 *
 *   cc -O2 -I$CUDA/include probe_vmm_costs.c -o probe_vmm_costs -L$CUDA/lib64 -lcuda
 *   ./probe_vmm_costs
 *
 * Over 8 chunks of the granularity (2 MiB), physical memory created once,
 * 200 rounds: each round maps the 8 handles side by side (cuMemMap each),
 * sets access once over them, then unmaps them either one call per chunk
 * or one call over all 8 (alternating rounds). Prints "call NAME: N ns"
 * (median per call) and "unmap.span-8-handles: CODE". Information only:
 * exit status 0 unless CUDA itself failed.
 */
#include <cuda.h>

#include "bench_common.h" /* now_ns, median */

#define CHUNKS 8
#define ROUNDS 200

#define CK(call)                                                                      \
	do {                                                                          \
		CUresult r_ = (call);                                                 \
		if (r_ != CUDA_SUCCESS) {                                             \
			fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #call, (int)r_); \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
				    .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0}};
	size_t gran;
	CK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	CUmemAccessDesc acc = {.location = prop.location, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
	CUdeviceptr va;
	CK(cuMemAddressReserve(&va, CHUNKS * gran, 0, 0, 0));
	CUmemGenericAllocationHandle h[CHUNKS];
	double t0 = now_ns();
	for (int i = 0; i < CHUNKS; i++)
		CK(cuMemCreate(&h[i], gran, &prop, 0));
	printf("call cuMemCreate: %.0f ns\n", (now_ns() - t0) / CHUNKS);

	static double map[ROUNDS * CHUNKS], access[ROUNDS], one[ROUNDS * CHUNKS / 2], span[ROUNDS / 2];
	int nmap = 0, none = 0, nspan = 0;
	CUresult span_code = CUDA_SUCCESS;
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < CHUNKS; i++) {
			t0 = now_ns();
			CK(cuMemMap(va + i * gran, gran, 0, h[i], 0));
			map[nmap++] = now_ns() - t0;
		}
		t0 = now_ns();
		CK(cuMemSetAccess(va, CHUNKS * gran, &acc, 1));
		access[r] = now_ns() - t0;
		CK(cuMemsetD8(va, (unsigned char)r, CHUNKS * gran));
		CK(cuCtxSynchronize());
		if (r % 2 && span_code == CUDA_SUCCESS) {
			t0 = now_ns();
			span_code = cuMemUnmap(va, CHUNKS * gran);
			span[nspan++] = now_ns() - t0;
			if (span_code == CUDA_SUCCESS)
				continue;
		}
		for (int i = 0; i < CHUNKS; i++) {
			t0 = now_ns();
			CK(cuMemUnmap(va + i * gran, gran));
			one[none++] = now_ns() - t0;
		}
	}
	printf("unmap.span-8-handles: %d\n", (int)span_code);
	printf("call cuMemMap(1 chunk): %.0f ns\n", median(map, nmap));
	printf("call cuMemSetAccess(8 chunks): %.0f ns\n", median(access, ROUNDS));
	printf("call cuMemUnmap(1 chunk): %.0f ns\n", median(one, none));
	if (span_code == CUDA_SUCCESS)
		printf("call cuMemUnmap(8 chunks, 8 handles): %.0f ns\n", median(span, nspan));
	for (int i = 0; i < CHUNKS; i++)
		CK(cuMemRelease(h[i]));
	CK(cuMemAddressFree(va, CHUNKS * gran));
	return 0;
}
