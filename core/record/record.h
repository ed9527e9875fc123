/* core/record/record.h - the record wing, the lowest: the search trees,
 * size rounding, pitch, status names and the internal-error stop, stats
 * levels, the trace, RMM's event log, call stacks and output files.
 * Calls nothing of the core above it (the backend and config only). */
#ifndef CM_RECORD_H
#define CM_RECORD_H

#include "../types.h"

void cm_tree_insert(cm_tnode **root, cm_tnode *n);
void cm_tree_remove(cm_tnode **root, cm_tnode *n);
cm_tnode *cm_tree_lower_bound(cm_tnode *root, size_t size, uintptr_t addr);
cm_tnode *cm_tree_next(cm_tnode *root, const cm_tnode *n);
size_t cm_tree_count(const cm_tnode *root); /* for the checker */

/* status.c: field 22 of /proc/PID/stat, the start time in clock ticks;
 * 0 unknown (no such process). */
uint64_t cm_proc_start_time(int pid);

/* size.c */
/* A multiple of 512, at least 512: the rounding without
 * roundup_power2_divisions, inline for the per-thread cache's fast path.
 * size must be at most SIZE_MAX / 2. */
static inline size_t cm_size_round_plain(size_t size)
{
	return size <= CM_MIN_BLOCK ? CM_MIN_BLOCK : (size + CM_MIN_BLOCK - 1) & ~(CM_MIN_BLOCK - 1);
}
size_t cm_size_segment(size_t rounded);
size_t cm_size_least_segment(size_t rounded);
bool cm_size_is_small(size_t rounded);
bool cm_size_rounds_plain(const cm_config *cfg);

void cm_stats_level_add(uint64_t *cur, uint64_t *peak, int64_t delta);
#define CM_LEVEL(st, name, delta) cm_stats_level_add(&(st)->name, &(st)->peak_##name, (delta))

/* trace.c */
enum {
	CM_TRACE_ALLOC,
	CM_TRACE_FREE_REQUESTED,
	CM_TRACE_FREE_COMPLETED,
	CM_TRACE_SEGMENT_ALLOC,
	CM_TRACE_SEGMENT_FREE,
	CM_TRACE_OOM,
	CM_TRACE_SEGMENT_MAP,   /* expandable segments: a chunk mapped */
	CM_TRACE_SEGMENT_UNMAP, /* ...and unmapped */
};
typedef struct cm_trace_entry {
	uint8_t action;
	uintptr_t addr;
	size_t size;
	cm_stream stream;
	uint64_t time_us;
	uint64_t device_free; /* oom: the device's free memory then */
} cm_trace_entry;
bool cm_trace_init(cm_device *d);
void cm_trace_fini(cm_device *d);
void cm_trace(cm_device *d, uint8_t action, uintptr_t addr, size_t size, cm_stream stream);
void cm_trace_asked(cm_device *d, uint8_t action, uintptr_t addr, size_t size, size_t asked,
		    cm_stream stream);
const cm_trace_entry *cm_trace_get(const cm_device *d, size_t i);
const char *cm_trace_action_name(uint8_t action);
cm_stream cm_trace_stream(const cm_stream_rec *rec);

/* eventlog.c: RMM's event log, fed by cm_trace. */
typedef struct cm_eventlog cm_eventlog;
bool cm_eventlog_open(cm_heap *h);
void cm_eventlog_event(cm_heap *h, int device, uint8_t action, uintptr_t addr, size_t size,
		       cm_stream stream);
void cm_eventlog_close(cm_heap *h);

/* stacks.c: each live block's call stack (snapshot_stacks). */
typedef struct cm_stacks cm_stacks;
bool cm_stacks_init(cm_device *d);
void cm_stacks_fini(cm_device *d);
void cm_stacks_record(cm_device *d, uintptr_t addr);
void cm_stacks_forget(cm_device *d, uintptr_t addr);
int cm_stacks_frames(const cm_device *d, uintptr_t addr,
		     void (*fn)(void *arg, const char *name, const char *file), void *arg);

/* outfile.c (the whole-file writers are in cachemalloc.h): a file written
 * as it goes, opened (fd, or -1 and one line on err) and filled with
 * cm_outfile_put (the bytes written before a failure, its errno in *err). */
int cm_outfile_open_stream(const char *path, const char *what, FILE *err);
size_t cm_outfile_put(int fd, const void *buf, size_t len, int *err);

#endif
