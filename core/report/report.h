/* core/report/report.h - the report wing: the out-of-memory report
 * (report.c) and the memory snapshot (snapshot.c, its entry point in
 * cachemalloc.h). Calls the host, memory, order and record wings. */
#ifndef CM_REPORT_H
#define CM_REPORT_H

#include "../host/host.h"

/* report.c */
bool cm_report_oom(cm_device *d, const cm_request *rq, bool over_limit);

#endif
