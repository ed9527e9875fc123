/* core/record/eventlog.c - every allocation and free as RMM's event log (log:PATH).
 *
 * The format is the CSV that RMM's logging_resource_adaptor writes and its
 * replay benchmark reads, `Thread,Time,Action,Pointer,Size,Stream`, and a
 * last column of ours, `Device` (a process's devices told apart; RMM logs
 * one resource, one device, a file): one line per event: the thread id,
 * the local time as HH:MM:SS.microseconds, the action (`allocate`,
 * `allocate failure`, `free`), the pointer and the stream in hexadecimal
 * (0x...), the size in bytes asked (as RMM logs it; the snapshot's trace
 * keeps the block's rounded size), the device's index.
 * `cachemalloc replay` reads it back (scripts/replay.c).
 *
 * Events come from trace.c, under the device lock; a heap that logs serves
 * every call through the locked path, as one that traces (heap.c). The log
 * has a lock of its own, the innermost (docs/design.md section 9): the
 * devices of a heap share one file. The file is flushed at exit
 * (cm_eventlog_flush) and when the heap is destroyed; memory for it is one
 * buffer of whole lines, whatever the program does.
 *
 * The buffer is the log's own, written with write(2), not stdio's: a
 * forked child that calls exit() flushes stdio's buffers, and would write
 * the parent's buffered lines into the shared file a second time (issue
 * 36). A write that fails or falls short (a full disk, a file size limit)
 * is cut back to its last whole line, so that the file stays replayable
 * up to there; it is told once on stderr and the log stops.
 * Wing: record. Calls outfile.c (the file).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

#define CM_EVENTLOG_HEADER "Thread,Time,Action,Pointer,Size,Stream,Device\n"
#define CM_EVENTLOG_BUFFER (1 << 16)

struct cm_eventlog {
	pthread_mutex_t lock;
	int fd;
	bool failed; /* a write failed: reported once, then nothing more written */
	size_t len;  /* bytes of whole lines in buf */
	char buf[CM_EVENTLOG_BUFFER];
	char path[CM_CONFIG_PATH_MAX];
};

/* Writes the buffer out. A failure or a short write leaves the file cut
 * back to its last whole line, told once. */
static void cm_eventlog_write(cm_eventlog *log)
{
	int err = 0;
	off_t start = lseek(log->fd, 0, SEEK_CUR);
	size_t at = log->failed ? log->len : cm_outfile_put(log->fd, log->buf, log->len, &err);
	if (at < log->len) {
		size_t whole = at;
		while (whole > 0 && log->buf[whole - 1] != '\n')
			whole--;
		if (start >= 0 && whole < at && ftruncate(log->fd, start + (off_t)whole) == 0)
			lseek(log->fd, start + (off_t)whole, SEEK_SET);
		log->failed = true;
		fprintf(stderr, "cachemalloc: log: writing %s failed (%s); the event log stops "
				"after its last whole line\n", log->path, strerror(err));
	}
	log->len = 0;
}

/* Appends one whole line (never more than the buffer holds). */
static void cm_eventlog_put(cm_eventlog *log, const char *line, size_t n)
{
	if (log->len + n > sizeof(log->buf))
		cm_eventlog_write(log);
	if (!log->failed && n <= sizeof(log->buf)) {
		memcpy(log->buf + log->len, line, n);
		log->len += n;
	}
}

static __thread long cm_eventlog_tid;

bool cm_eventlog_open(cm_heap *h)
{
	const char *path = h->cfg.log_path;
	if (!path[0])
		return true;
	cm_eventlog *log = calloc(1, sizeof(*log));
	int fd = log ? cm_outfile_open_stream(path, "the event log", stderr) : -1;
	if (fd < 0) {
		if (!log)
			fprintf(stderr, "cachemalloc: no memory for the event log %s\n", path);
		free(log);
		return false;
	}
	pthread_mutex_init(&log->lock, NULL);
	log->fd = fd;
	snprintf(log->path, sizeof(log->path), "%s", path);
	cm_eventlog_put(log, CM_EVENTLOG_HEADER, strlen(CM_EVENTLOG_HEADER));
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

void cm_eventlog_event(cm_heap *h, int device, uint8_t action, uintptr_t addr, size_t size,
		       cm_stream stream)
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
	char line[160];
	int n = snprintf(line, sizeof(line),
			 "%ld,%02d:%02d:%02d.%06ld,%s,0x%" PRIxPTR ",%zu,0x%" PRIxPTR ",%d\n",
			 cm_eventlog_tid, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000, name,
			 addr, size, (uintptr_t)stream, device);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return;
	pthread_mutex_lock(&log->lock);
	if (!log->failed)
		cm_eventlog_put(log, line, (size_t)n);
	pthread_mutex_unlock(&log->lock);
}

void cm_eventlog_flush(cm_heap *h)
{
	cm_eventlog *log = h ? h->eventlog : NULL;
	if (!log)
		return;
	pthread_mutex_lock(&log->lock);
	if (!log->failed)
		cm_eventlog_write(log);
	pthread_mutex_unlock(&log->lock);
}

void cm_eventlog_close(cm_heap *h)
{
	cm_eventlog *log = h->eventlog;
	if (!log)
		return;
	cm_eventlog_flush(h);
	close(log->fd);
	pthread_mutex_destroy(&log->lock);
	free(log);
	h->eventlog = NULL;
}
