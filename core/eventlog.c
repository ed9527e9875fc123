/* core/eventlog.c - every allocation and free as RMM's event log (log:PATH).
 *
 * The format is the CSV that RMM's logging_resource_adaptor writes and its
 * replay benchmark reads: the header `Thread,Time,Action,Pointer,Size,Stream`,
 * then one line per event: the thread id, the local time as
 * HH:MM:SS.microseconds, the action (`allocate`, `allocate failure`,
 * `free`), the pointer and the stream in hexadecimal (0x...), the size in
 * bytes (the block's rounded size, as the snapshot's trace records it).
 * `cachemalloc replay` reads it back (scripts/replay.c).
 *
 * Events come from trace.c, under the device lock; a heap that logs serves
 * every call through the locked path, as one that traces (heap.c). The log
 * has a lock of its own, the innermost (docs/design.md section 9): the
 * devices of a heap share one file. The file is flushed at exit
 * (cm_eventlog_flush) and when the heap is destroyed; memory for it is one
 * stdio buffer, whatever the program does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define CM_EVENTLOG_HEADER "Thread,Time,Action,Pointer,Size,Stream\n"
#define CM_EVENTLOG_BUFFER (1 << 16)

struct cm_eventlog {
	pthread_mutex_t lock;
	FILE *out;
	bool failed; /* a write failed: reported once, then nothing more written */
	char path[CM_CONFIG_PATH_MAX];
};

static __thread long cm_eventlog_tid;

bool cm_eventlog_open(cm_heap *h)
{
	const char *path = h->cfg.log_path;
	if (!path[0])
		return true;
	cm_eventlog *log = calloc(1, sizeof(*log));
	int fd = log ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644) : -1;
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		fprintf(stderr, "cachemalloc: log: cannot write %s: %s; no event log\n", path,
			log ? strerror(errno) : "out of memory");
		if (fd >= 0)
			close(fd);
		free(log);
		return false;
	}
	setvbuf(out, NULL, _IOFBF, CM_EVENTLOG_BUFFER);
	fputs(CM_EVENTLOG_HEADER, out);
	pthread_mutex_init(&log->lock, NULL);
	log->out = out;
	snprintf(log->path, sizeof(log->path), "%s", path);
	h->eventlog = log;
	return true;
}

static const char *cm_eventlog_action(uint8_t action)
{
	switch (action) {
	case CM_TRACE_ALLOC: return "allocate";
	case CM_TRACE_OOM: return "allocate failure";
	case CM_TRACE_FREE_REQUESTED: return "free";
	default: return NULL; /* segments and completions are the cache's own */
	}
}

static void cm_eventlog_check(cm_eventlog *log)
{
	if (!log->failed && ferror(log->out)) {
		log->failed = true;
		fprintf(stderr, "cachemalloc: log: writing %s failed; the event log stops here\n",
			log->path);
	}
}

void cm_eventlog_event(cm_heap *h, uint8_t action, uintptr_t addr, size_t size, cm_stream stream)
{
	cm_eventlog *log = h->eventlog;
	const char *name = cm_eventlog_action(action);
	if (!log || !name)
		return;
	if (!cm_eventlog_tid)
		cm_eventlog_tid = (long)syscall(SYS_gettid);
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	pthread_mutex_lock(&log->lock);
	if (!log->failed) {
		fprintf(log->out, "%ld,%02d:%02d:%02d.%06ld,%s,0x%" PRIxPTR ",%zu,0x%" PRIxPTR "\n",
			cm_eventlog_tid, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000, name,
			addr, size, (uintptr_t)stream);
		cm_eventlog_check(log);
	}
	pthread_mutex_unlock(&log->lock);
}

void cm_eventlog_flush(cm_heap *h)
{
	cm_eventlog *log = h ? h->eventlog : NULL;
	if (!log)
		return;
	pthread_mutex_lock(&log->lock);
	if (!log->failed)
		fflush(log->out);
	cm_eventlog_check(log);
	pthread_mutex_unlock(&log->lock);
}

void cm_eventlog_close(cm_heap *h)
{
	cm_eventlog *log = h->eventlog;
	if (!log)
		return;
	cm_eventlog_flush(h);
	fclose(log->out);
	pthread_mutex_destroy(&log->lock);
	free(log);
	h->eventlog = NULL;
}
