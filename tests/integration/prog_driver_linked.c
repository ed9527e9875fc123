/* prog_driver_linked: the driver API through the symbols -lcuda links
 * (cuMemAlloc_v2, cuMemFree_v2, ... as cuda.h names them); checks in
 * driver.h. */
#include "driver.h"

int main(void)
{
	drv d = DRV_LINKED;
	return drv_exercise(&d, "driver_linked");
}
