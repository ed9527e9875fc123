/* interpose/backend_timer.h - the diagnostic timer on the backend's driver
 * calls (backend_timer.c); a no-op unless built with -Ddriver_call_timer=true. */
#ifndef CM_BACKEND_TIMER_H
#define CM_BACKEND_TIMER_H

#include <stdio.h>

#include "backend.h"

#ifdef CM_BACKEND_TIMER
/* Wraps be's driver operations (once, before the heap is made); the
 * report is printed on stderr at exit. */
void cm_backend_timer_wrap(cm_backend *be);
/* One line per operation called so far (the exit report's). */
void cm_backend_timer_report(FILE *out);
#else
static inline void cm_backend_timer_wrap(cm_backend *be)
{
	(void)be;
}
#endif

#endif
