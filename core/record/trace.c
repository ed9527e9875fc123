/* core/record/trace.c - the recent actions of each device, for snapshots.
 *
 * A bounded ring (CM_TRACE_ENTRIES per device, the oldest overwritten) of
 * allocations, frees, segment allocations and frees, expandable segments'
 * chunk maps and unmaps (segment_map / segment_unmap), and out-of-memory
 * failures with the device's free memory then, as PyTorch's memory history
 * records them. Recording happens
 * under the device lock, so a heap that traces serves every call through
 * the locked path (tcache.c's fast path is off): tracing is for
 * diagnosis, enabled by oom_snapshot. Each action also goes to the event
 * log (log:PATH, eventlog.c) when there is one.
 * Wing: record. Calls in its own wing eventlog.c, stacks.c.
 */
#include <stdlib.h>
#include <time.h>

#include "record.h"

#define CM_TRACE_ENTRIES 16384

const char *cm_trace_action_name(uint8_t action)
{
	static const char *names[] = {"alloc", "free_requested", "free_completed",
				      "segment_alloc", "segment_free", "oom",
				      "segment_map", "segment_unmap"};
	return action < sizeof(names) / sizeof(*names) ? names[action] : "unknown";
}

bool cm_trace_init(cm_device *d)
{
	d->trace = calloc(CM_TRACE_ENTRIES, sizeof(*d->trace));
	if (d->trace && d->heap->cfg.snapshot_stacks)
		cm_stacks_init(d);
	return d->trace != NULL;
}

void cm_trace_fini(cm_device *d)
{
	free(d->trace);
	d->trace = NULL;
	cm_stacks_fini(d);
}

void cm_trace(cm_device *d, uint8_t action, uintptr_t addr, size_t size, cm_stream stream)
{
	cm_trace_asked(d, action, addr, size, size, stream);
}

/* An action on a block of size bytes asked as asked bytes: the trace keeps
 * the block's size (as PyTorch's history), the event log the size asked
 * (as RMM's). */
void cm_trace_asked(cm_device *d, uint8_t action, uintptr_t addr, size_t size, size_t asked,
		    cm_stream stream)
{
	cm_eventlog_event(d->heap, d->index, action, addr, asked, stream);
	if (!d->trace)
		return;
	if (action == CM_TRACE_ALLOC)
		cm_stacks_record(d, addr);
	else if (action == CM_TRACE_FREE_REQUESTED)
		cm_stacks_forget(d, addr);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	cm_trace_entry *e = &d->trace[d->trace_next];
	*e = (cm_trace_entry){
		.action = action,
		.addr = addr,
		.size = size,
		.stream = stream,
		.time_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u,
	};
	if (action == CM_TRACE_OOM) {
		size_t free_bytes = 0, total = 0;
		const cm_backend *be = d->heap->be;
		if (be->mem_get_info(be->ctx, d->index, &free_bytes, &total) == CM_OK)
			e->device_free = free_bytes;
	}
	d->trace_next = (d->trace_next + 1) % CM_TRACE_ENTRIES;
	if (d->trace_count < CM_TRACE_ENTRIES)
		d->trace_count++;
}

/* The i-th retained entry, oldest first. */
const cm_trace_entry *cm_trace_get(const cm_device *d, size_t i)
{
	size_t first = (d->trace_next + CM_TRACE_ENTRIES - d->trace_count) % CM_TRACE_ENTRIES;
	return &d->trace[(first + i) % CM_TRACE_ENTRIES];
}

cm_stream cm_trace_stream(const cm_stream_rec *rec)
{
	return rec && rec->kind != CM_SK_LEGACY ? rec->handle : 0;
}
