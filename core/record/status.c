/* core/record/status.c - names of status codes, for messages, the stop on an
 * internal error (cm_assert), and a process's start time (against pid reuse
 * in the files other processes read: share.c, ipc.c).
 * Wing: record. Calls no other file of the core.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Field 22 of /proc/PID/stat: the start time in clock ticks; 0 unknown. */
uint64_t cm_proc_start_time(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the command may hold spaces */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}
