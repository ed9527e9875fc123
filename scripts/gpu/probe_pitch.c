/* scripts/gpu/probe_pitch.c - the driver's pitch against the library's rule
 * (core/record/pitch.c: the width rounded up to a multiple of 512 bytes).
 *
 *   cc -O2 -I$CUDA/include probe_pitch.c -o probe_pitch -L$CUDA/lib64 -lcudart -lcuda
 *   ./probe_pitch           (plain: the driver's own pitches)
 *
 * For many widths (1..8 KiB in steps that cross every 512-byte boundary,
 * powers of two and their neighbours up to 64 MiB, odd sizes) and heights
 * 1, 2 and 7, asks cudaMallocPitch, cudaMalloc3D (depth 3) and
 * cuMemAllocPitch with element sizes 4, 8 and 16, and compares each pitch
 * with the rule. Also prints cudaDevAttrTexturePitchAlignment and which
 * element sizes cuMemAllocPitch refuses. One line per mismatch
 * ("MISMATCH ..."), then "probe_pitch: N of M pitches as the rule" and exit
 * status 1 when any differs. Run it plain: preloaded, the library answers.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

static size_t rule(size_t w)
{
	return (w + 511) & ~(size_t)511;
}

static int checked, matched;

static void compare(const char *what, size_t w, size_t h, unsigned e, size_t got)
{
	checked++;
	if (got == rule(w)) {
		matched++;
		return;
	}
	printf("MISMATCH %s width %zu height %zu element %u: driver %zu, rule %zu\n", what, w, h, e,
	       got, rule(w));
}

static void probe(size_t w, size_t h)
{
	static const unsigned elements[] = { 4, 8, 16 };
	void *p = NULL;
	size_t pitch = 0;
	if (cudaMallocPitch(&p, &pitch, w, h) == cudaSuccess) {
		compare("cudaMallocPitch", w, h, 0, pitch);
		cudaFree(p);
	} else {
		printf("cudaMallocPitch(width %zu, height %zu) failed: %s\n", w, h,
		       cudaGetErrorString(cudaGetLastError()));
	}
	struct cudaPitchedPtr pp;
	struct cudaExtent ext = { w, h, 3 };
	if (cudaMalloc3D(&pp, ext) == cudaSuccess) {
		compare("cudaMalloc3D", w, h, 0, pp.pitch);
		cudaFree(pp.ptr);
	} else {
		cudaGetLastError();
	}
	for (int i = 0; i < 3; i++) {
		CUdeviceptr d = 0;
		if (cuMemAllocPitch(&d, &pitch, w, h, elements[i]) == CUDA_SUCCESS) {
			compare("cuMemAllocPitch", w, h, elements[i], pitch);
			cuMemFree(d);
		}
	}
}

int main(void)
{
	int align = 0;
	if (cudaFree(0) != cudaSuccess) {
		printf("probe_pitch: no CUDA device\n");
		return 77;
	}
	cudaDeviceGetAttribute(&align, cudaDevAttrTexturePitchAlignment, 0);
	printf("cudaDevAttrTexturePitchAlignment %d\n", align);
	for (unsigned e = 0; e <= 32; e++) {
		CUdeviceptr d = 0;
		size_t pitch = 0;
		CUresult r = cuMemAllocPitch(&d, &pitch, 100, 2, e);
		if (r == CUDA_SUCCESS)
			cuMemFree(d);
		if ((r == CUDA_SUCCESS) != (e == 4 || e == 8 || e == 16))
			printf("cuMemAllocPitch element %u: %s (the library expects it %s)\n", e,
			       r == CUDA_SUCCESS ? "accepted" : "refused",
			       e == 4 || e == 8 || e == 16 ? "accepted" : "refused");
	}
	static const size_t heights[] = { 1, 2, 7 };
	for (int hi = 0; hi < 3; hi++) {
		for (size_t w = 1; w <= 8192; w += 37)
			probe(w, heights[hi]);
		for (size_t b = 512; b <= ((size_t)64 << 20); b *= 2)
			for (int d = -1; d <= 1; d++)
				probe(b + (size_t)d, heights[hi]);
		probe(1, heights[hi]);
		probe(513, heights[hi]);
		probe(4097, heights[hi]);
		probe(65537, heights[hi]);
		probe(1920 * 3, heights[hi]);
		probe(3840 * 4, heights[hi]);
	}
	printf("probe_pitch: %d of %d pitches as the rule\n", matched, checked);
	return matched == checked && checked > 0 ? 0 : 1;
}
