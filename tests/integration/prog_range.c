/* prog_range: range queries answer as the driver would for the block the
 * program holds (issue 15): cuMemGetAddressRange, cuPointerGetAttribute
 * and cuPointerGetAttributes with RANGE_START_ADDR / RANGE_SIZE.
 *
 * A live block: base and the size asked (1000 bytes), from its start and
 * from inside. Past the size asked (inside the cache's rounding), after
 * its free, and in a cached segment's unused part: not found
 * (CUDA_ERROR_NOT_FOUND; CUDA_ERROR_INVALID_VALUE for an attribute), as
 * the driver answers for memory it does not know. Then an allocation
 * larger than the device through cuMemAlloc: an out-of-memory report, if
 * one is printed (the library's), names cuMemAlloc, not cudaMalloc.
 * Linked to the driver (-lcuda). */
#include <cuda.h>
#include <unistd.h>

#include "common.h"

#define ASKED 1000

static void expect_range(CUdeviceptr p, CUdeviceptr base, size_t size, const char *what)
{
	CUdeviceptr b = 0, start = 0;
	size_t n = 0, rsize = 0;
	CUresult r = cuMemGetAddressRange(&b, &n, p);
	if (r != CUDA_SUCCESS || b != base || n != size)
		FAIL("cuMemGetAddressRange(%s): expected CUDA_SUCCESS, %#llx, %zu; got %d, %#llx, %zu",
		     what, (unsigned long long)base, size, (int)r, (unsigned long long)b, n);
	r = cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p);
	CUresult r2 = cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p);
	if (r != CUDA_SUCCESS || r2 != CUDA_SUCCESS || start != base || rsize != size)
		FAIL("cuPointerGetAttribute(RANGE_START_ADDR / RANGE_SIZE, %s): expected %#llx, %zu; "
		     "got %d %#llx, %d %zu", what, (unsigned long long)base, size, (int)r,
		     (unsigned long long)start, (int)r2, rsize);
	CUpointer_attribute attrs[2] = {CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
					CU_POINTER_ATTRIBUTE_RANGE_SIZE};
	start = 0;
	rsize = 0;
	void *data[2] = {&start, &rsize};
	r = cuPointerGetAttributes(2, attrs, data, p);
	if (r != CUDA_SUCCESS || start != base || rsize != size)
		FAIL("cuPointerGetAttributes(RANGE_*, %s): expected %#llx, %zu; got %d, %#llx, %zu",
		     what, (unsigned long long)base, size, (int)r, (unsigned long long)start, rsize);
}

static void expect_unknown(CUdeviceptr p, const char *what)
{
	CUdeviceptr b = 0;
	size_t n = 0;
	CUresult r = cuMemGetAddressRange(&b, &n, p);
	if (r != CUDA_ERROR_NOT_FOUND)
		FAIL("cuMemGetAddressRange(%s): expected CUDA_ERROR_NOT_FOUND, got %d (%#llx, %zu)",
		     what, (int)r, (unsigned long long)b, n);
	r = cuPointerGetAttribute(&n, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p);
	if (r != CUDA_ERROR_INVALID_VALUE)
		FAIL("cuPointerGetAttribute(RANGE_SIZE, %s): expected CUDA_ERROR_INVALID_VALUE, got "
		     "%d (%zu)", what, (int)r, n);
}

/* An out-of-memory report of a cuMemAlloc, caught from stderr. */
static void expect_report_names_driver(void)
{
	size_t fr = 0, total = 0;
	CUdeviceptr p = 0;
	FILE *log = tmpfile();
	if (!log) {
		FAIL("tmpfile: no file for stderr");
		return;
	}
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(log), 2);
	CU_CHECK(cuMemGetInfo(&fr, &total));
	CUresult r = cuMemAlloc(&p, total + INTEG_MIB);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (r != CUDA_ERROR_OUT_OF_MEMORY)
		FAIL("cuMemAlloc(total + 1 MiB): expected CUDA_ERROR_OUT_OF_MEMORY, got %d", (int)r);
	char text[4096] = "";
	rewind(log);
	size_t got = fread(text, 1, sizeof(text) - 1, log);
	text[got] = 0;
	fclose(log);
	if (strstr(text, "out of memory") && !strstr(text, "for cuMemAlloc"))
		FAIL("the out-of-memory report of a cuMemAlloc does not name it:\n%s", text);
}

int main(void)
{
	CUdeviceptr a = 0, b = 0;
	integ_cu_start();
	CU_CHECK(cuMemAlloc(&a, ASKED));
	CU_CHECK(cuMemAlloc(&b, ASKED));
	expect_range(a, a, ASKED, "a block's start");
	expect_range(a + ASKED / 2, a, ASKED, "inside a block");
	expect_unknown(a + ASKED + 8, "past the size asked");
	CU_CHECK(cuMemFree(a));
	expect_unknown(a, "a freed block");
	expect_unknown(b + 64 * 1024, "64 KiB past the last block");
	CUdeviceptr c = 0; /* a's block again, likely (the same rounded size) */
	CU_CHECK(cuMemAlloc(&c, ASKED - 100));
	expect_range(c, c, ASKED - 100, "a block handed out again");
	CU_CHECK(cuMemFree(c));
	CU_CHECK(cuMemFree(b));
	expect_report_names_driver();
	CU_CHECK(cuCtxSetCurrent(NULL));
	CU_CHECK(cuDevicePrimaryCtxRelease(0));
	return integ_report("range");
}
