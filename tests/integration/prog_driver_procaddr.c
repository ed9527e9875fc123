/* prog_driver_procaddr: the driver API reached as NVIDIA's runtime reaches
 * it, without linking libcuda: dlopen("libcuda.so.1"), dlsym of
 * cuGetProcAddress_v2 only, then cuGetProcAddress_v2(base name, &fn,
 * version, CU_GET_PROC_ADDRESS_DEFAULT, &status) for every function; checks
 * in driver.h.
 *
 * The version is 13000, except for cuCtxSynchronize: for 13000 the driver
 * gives CUDA 13.0's ABI, cuCtxSynchronize_v2(CUcontext) (seen on an H200),
 * while the table holds the void one that cuda.h names cuCtxSynchronize, so
 * that one is asked for 12000; that 13000 gives cuCtxSynchronize_v2 is
 * checked apart. */
#include "driver.h"

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t,
			   CUdriverProcAddressQueryResult *);

/* The version whose ABI is the one cuda.h names base. */
static int drv_version(const char *base)
{
	return strcmp(base, "cuCtxSynchronize") == 0 ? 12000 : 13000;
}

int main(void)
{
	drv d;
	void *h = drv_dlopen(&d);
	if (!h)
		return integ_report("driver_procaddr");
	gpa_fn gpa;
	*(void **)&gpa = dlsym(h, "cuGetProcAddress_v2");
	if (!gpa) {
		FAIL("dlsym(cuGetProcAddress_v2): not found");
		return integ_report("driver_procaddr");
	}
	for (size_t i = 0; i < DRV_COUNT; i++) {
		CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
		int v = drv_version(drv_base_names[i]);
		CUresult r = gpa(drv_base_names[i], drv_slot(&d, i), v,
				 CU_GET_PROC_ADDRESS_DEFAULT, &st);
		if (r != CUDA_SUCCESS || st != CU_GET_PROC_ADDRESS_SUCCESS)
			FAIL("cuGetProcAddress_v2(%s, %d): expected CUDA_SUCCESS and status 0, "
			     "got %d and status %d", drv_base_names[i], v, (int)r, (int)st);
		else if (*drv_slot(&d, i) != dlsym(h, drv_exported_names[i]))
			FAIL("cuGetProcAddress_v2(%s, %d): expected the function dlsym gives "
			     "for %s", drv_base_names[i], v, drv_exported_names[i]);
	}
	void *sync13 = NULL;
	CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	CUresult r = gpa("cuCtxSynchronize", &sync13, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st);
	if (r != CUDA_SUCCESS || st != CU_GET_PROC_ADDRESS_SUCCESS ||
	    sync13 != dlsym(h, "cuCtxSynchronize_v2"))
		FAIL("cuGetProcAddress_v2(cuCtxSynchronize, 13000): expected CUDA_SUCCESS, status "
		     "0 and the function dlsym gives for cuCtxSynchronize_v2, got %d, status %d",
		     (int)r, (int)st);
	return drv_exercise(&d, "driver_procaddr");
}
