/* prog_driver_dlsym: the driver API through dlopen("libcuda.so.1") and
 * dlsym of each exported name (cuMemAlloc_v2, cuMemFree_v2, ...), without
 * linking libcuda; checks in driver.h. */
#include "driver.h"

int main(void)
{
	drv d;
	void *h = drv_dlopen(&d);
	if (!h)
		return integ_report("driver_dlsym");
	for (size_t i = 0; i < DRV_COUNT; i++)
		*drv_slot(&d, i) = dlsym(h, drv_exported_names[i]);
	return drv_exercise(&d, "driver_dlsym");
}
