/* tests/submit/stub.c - the library functions the generated hooks call,
 * as no-ops, so that interpose/submit_hooks.c links into a shared module on
 * its own (check_map.c). docs/design.md, "Seeing every submission". */
#include "hook_entry.h"
#include "real.h"

cm_real_fns cm_real;

void cm_lib_submitted(void)
{
}

void cm_lib_submit(CUstream s, bool ptsz)
{
	(void)s;
	(void)ptsz;
}

bool cm_drv_resolve(void)
{
	return false;
}
