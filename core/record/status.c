/* core/record/status.c - names of status codes, for messages, and the stop on an
 * internal error (cm_assert).
 * Wing: record. Calls no other file of the core.
 */
#include <stdio.h>
#include <stdlib.h>

#include "record.h"

void cm_assert_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "cachemalloc: internal error: %s (%s:%d)\n", what, file, line);
	abort();
}

const char *cm_status_name(cm_status st)
{
	switch (st) {
	case CM_OK: return "ok";
	case CM_NOT_READY: return "not ready";
	case CM_ERR_OOM: return "out of memory";
	case CM_ERR_INVALID: return "invalid argument";
	case CM_ERR_NOT_OURS: return "pointer not owned by the cache";
	case CM_ERR_UNSUPPORTED: return "unsupported by the backend";
	case CM_ERR_CAPTURING: return "stream is capturing a graph";
	case CM_ERR_UNLOADING: return "runtime is unloading";
	case CM_ERR_BAD_HANDLE: return "unknown stream handle";
	case CM_ERR_BACKEND: return "device error";
	}
	return "unknown status";
}
