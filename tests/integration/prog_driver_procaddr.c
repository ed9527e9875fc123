/* prog_driver_procaddr: the driver API reached as NVIDIA's runtime reaches
 * it, without linking libcuda: dlopen("libcuda.so.1"), dlsym of
 * cuGetProcAddress_v2 only, then cuGetProcAddress_v2(base name, &fn, 13000,
 * CU_GET_PROC_ADDRESS_DEFAULT, &status) for every function; checks in
 * driver.h. */
#include "driver.h"

#include <dlfcn.h>

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t,
			   CUdriverProcAddressQueryResult *);

int main(void)
{
	drv d;
	memset(&d, 0, sizeof(d));
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		FAIL("dlopen(libcuda.so.1): %s", dlerror());
		return integ_report("driver_procaddr");
	}
	gpa_fn gpa;
	*(void **)&gpa = dlsym(h, "cuGetProcAddress_v2");
	if (!gpa) {
		FAIL("dlsym(cuGetProcAddress_v2): not found");
		return integ_report("driver_procaddr");
	}
	for (size_t i = 0; i < DRV_COUNT; i++) {
		CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
		CUresult r = gpa(drv_base_names[i], drv_slot(&d, i), 13000,
				 CU_GET_PROC_ADDRESS_DEFAULT, &st);
		if (r != CUDA_SUCCESS || st != CU_GET_PROC_ADDRESS_SUCCESS)
			FAIL("cuGetProcAddress_v2(%s, 13000): expected CUDA_SUCCESS and status 0, "
			     "got %d and status %d", drv_base_names[i], (int)r, (int)st);
		else if (*drv_slot(&d, i) != dlsym(h, drv_exported_names[i]))
			FAIL("cuGetProcAddress_v2(%s, 13000): expected the function dlsym gives "
			     "for %s", drv_base_names[i], drv_exported_names[i]);
	}
	return drv_exercise(&d, "driver_procaddr");
}
