/* core/report/report.c - the out-of-memory report on stderr.
 *
 * One report per failed allocation, at most one a second (the next one
 * says how many were left out): what was asked, what the device and this
 * process hold, where the cached memory is (largest free block,
 * fragmentation, per stream, largest segments), with expandable segments
 * why stitching (stitch.c) could not help, and the one configuration
 * change most likely to help. It describes what is held after the failure:
 * heap.c gives back what the failed growths created and the chunks they cut
 * out for stitching first. Runs under the device lock; the only device
 * call is the memory info.
 * Wing: report. Calls the host and mem wings.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "report.h"

#define CM_REPORT_STREAMS 6
#define CM_REPORT_SEGMENTS 5

typedef struct cm_report_stream {
	const cm_stream_rec *rec; /* NULL: cudaMalloc's pools */
	uint64_t allocated, cached;
} cm_report_stream;

typedef struct cm_report {
	uint64_t allocated, reserved, largest_free;
	cm_report_stream streams[CM_REPORT_STREAMS + 1]; /* the last: all others */
	size_t nstreams;
	const cm_segment *largest[CM_REPORT_SEGMENTS];
} cm_report;

static void cm_report_size(char *buf, size_t n, uint64_t bytes)
{
	static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	snprintf(buf, n, u ? "%.2f %s" : "%.0f %s", v, unit[u]);
}

static uint64_t cm_report_segment_used(const cm_segment *seg)
{
	uint64_t used = 0;
	for (const cm_block *b = seg->first; b; b = b->next)
		if (b->state == CM_BLOCK_USED)
			used += b->node.size;
	return used;
}

/* The device memory a segment holds: an expandable one's extent less its
 * unmapped holes (its reserved address space is said apart). */
static uint64_t cm_report_segment_mapped(const cm_segment *seg)
{
	return seg->idle.size - seg->holes;
}

static void cm_report_add_stream(cm_report *r, const cm_segment *seg)
{
	const cm_stream_rec *rec = seg->pool->stream;
	uint64_t used = cm_report_segment_used(seg);
	size_t i = 0;
	while (i < r->nstreams && r->streams[i].rec != rec)
		i++;
	if (i == r->nstreams) {
		if (r->nstreams == CM_REPORT_STREAMS)
			i = CM_REPORT_STREAMS; /* folded into "other streams" */
		else
			r->streams[r->nstreams++].rec = rec;
	}
	r->streams[i].allocated += used;
	r->streams[i].cached += cm_report_segment_mapped(seg) - used;
}

static void cm_report_add_largest(cm_report *r, const cm_segment *seg)
{
	for (size_t i = 0; i < CM_REPORT_SEGMENTS; i++) {
		if (!r->largest[i] ||
		    cm_report_segment_mapped(seg) > cm_report_segment_mapped(r->largest[i])) {
			for (size_t j = CM_REPORT_SEGMENTS - 1; j > i; j--)
				r->largest[j] = r->largest[j - 1];
			r->largest[i] = seg;
			return;
		}
	}
}

static void cm_report_gather(cm_device *d, cm_report *r)
{
	r->allocated = d->stats.allocated_bytes;
	r->reserved = d->stats.reserved_bytes;
	for (size_t i = 0; i < d->nsegs; i++) {
		const cm_segment *seg = d->segs[i];
		for (const cm_block *b = seg->first; b; b = b->next)
			if (b->state == CM_BLOCK_FREE && b->node.size > r->largest_free)
				r->largest_free = b->node.size;
		cm_report_add_stream(r, seg);
		cm_report_add_largest(r, seg);
	}
}

static __thread const char *cm_report_api;

void cm_report_name_api(const char *api)
{
	cm_report_api = api;
}

static const char *cm_report_stream_name(const cm_stream_rec *rec, char *buf, size_t n)
{
	if (!rec)
		return "cudaMalloc";
	switch (rec->kind) {
	case CM_SK_LEGACY: return "legacy stream";
	case CM_SK_PER_THREAD: return "a per-thread stream";
	default: snprintf(buf, n, "stream %#" PRIxPTR, (uintptr_t)rec->handle); return buf;
	}
}

/* memory_limit_mb on this device (SIZE_MAX: none), the cap the program
 * sees as the device's total through cudaMemGetInfo (release.c). */
static size_t cm_report_cap(cm_device *d)
{
	return cm_config_memory_limit(&d->heap->cfg, cm_device_ordinal(d->heap, d->index));
}

/* The device as cudaMemGetInfo shows it under the cap: the cap's total,
 * of which what this process reserved is used. */
static void cm_report_capped(size_t cap, uint64_t reserved, size_t *free_bytes, size_t *total)
{
	if (*total > cap)
		*total = cap;
	size_t left = reserved < *total ? *total - reserved : 0;
	if (*free_bytes > left)
		*free_bytes = left;
}

/* The change most likely to help, from what the numbers say. */
static void cm_report_advice(cm_device *d, const cm_request *rq, const cm_report *r,
			     bool over_limit, uint64_t dev_free, FILE *out)
{
	const cm_config *cfg = &d->heap->cfg;
	uint64_t idle = r->reserved - r->allocated;
	if (over_limit && cm_report_cap(d) != SIZE_MAX) {
		fprintf(out, "  most likely to help: raise memory_limit_mb (now %zu on this device): the "
			     "request passes this process's cap\n", cm_report_cap(d) >> 20);
	} else if (over_limit) {
		fprintf(out, "  most likely to help: raise per_process_memory_fraction (now %.2f): the "
			     "request passes this process's limit\n", cfg->per_process_memory_fraction);
	} else if (idle >= rq->size && r->largest_free < rq->size) {
		if (!cfg->expandable_segments && d->heap->be->vmm_map)
			fprintf(out, "  most likely to help: CACHEMALLOC_CONF=expandable_segments:True "
				     "(the cached memory is fragmented: enough in all, no block large enough)\n");
		else
			fprintf(out, "  most likely to help: CACHEMALLOC_CONF=max_split_size_mb:%zu "
				     "(fragmentation: blocks above it are never split, so large requests "
				     "find whole ones)\n", rq->size >> 20 > 20 ? (size_t)(rq->size >> 20) : 20);
	} else {
		fprintf(out, "  most likely to help: nothing in the cache's configuration: the program "
			     "needs more memory than the device has free; reduce its working set "
			     "(e.g. the batch size)%s\n",
			dev_free + idle < rq->size ? "" : " or free memory it no longer uses");
	}
}

/* What each rung of the ladder gave back before the request failed. */
static void cm_report_ladder(const cm_request *rq, FILE *out)
{
	static const char *const rung[CM_RUNGS] = {
		[CM_RUNG_PARKED] = "blocks parked in per-thread caches",
		[CM_RUNG_PROVEN] = "frees proven by a synchronization",
		[CM_RUNG_STITCHED] = "chunks stitched",
		[CM_RUNG_RELEASED] = "idle segments released",
	};
	char a[32];
	if (rq->hopeless)
		return;
	fprintf(out, "  before failing, the cache gave back:");
	for (int i = 0; i < CM_RUNGS; i++) {
		cm_report_size(a, sizeof(a), rq->gave[i]);
		fprintf(out, "%s %s %s", i ? ";" : "", rung[i], a);
	}
	fprintf(out, "\n");
}

/* With expandable segments: what stitching had to work with, and why it
 * was not enough. */
static void cm_report_stitch(cm_device *d, const cm_request *rq, FILE *out)
{
	if (!d->expandable)
		return;
	cm_stitch_view v;
	cm_stitch_view_of(d, &v);
	char a[32], b[32], c[32];
	const char *why;
	if (v.pending)
		why = "part of the free memory is still in use by a stream, and a chunk is moved only "
		      "once its work is complete";
	else if (v.fragments >= rq->size)
		why = "the free memory is in pieces of chunks, which cannot move: only whole free "
		      "2 MiB chunks can";
	else
		why = "the cache holds too little free memory";
	cm_report_size(a, sizeof(a), v.complete + v.free_chunks);
	cm_report_size(b, sizeof(b), v.pending);
	cm_report_size(c, sizeof(c), v.fragments);
	fprintf(out, "  stitching could not help: %s (whole free chunks: %s movable, %s in use by a "
		     "stream; free in pieces of chunks: %s)\n", why, a, b, c);
}

/* Pinned host memory is not device memory, but a process short of memory
 * wants to see it too. */
static void cm_report_host(cm_heap *h, FILE *out)
{
	cm_stats st = {0};
	char a[32], b[32], c[32];
	if (!h->host)
		return;
	cm_host_view(h, &st);
	cm_report_size(a, sizeof(a), st.host_reserved_bytes);
	cm_report_size(b, sizeof(b), st.peak_host_reserved_bytes);
	cm_report_size(c, sizeof(c), st.host_cached_bytes);
	fprintf(out, "  pinned host memory: host_reserved_bytes %s (peak %s), %s of it cached; "
		     "host_alloc_calls %" PRIu64 ", host_cache_hits %" PRIu64 "\n", a, b, c,
		st.host_alloc_calls, st.host_cache_hits);
}

/* Bytes allocated and cached per stream, the largest first, the rest as
 * one line. */
static void cm_report_streams(const cm_report *r, FILE *out)
{
	char a[32], b[32], name[48];
	for (size_t i = 0; i <= CM_REPORT_STREAMS; i++) {
		const cm_report_stream *s = &r->streams[i];
		if (i == r->nstreams && i < CM_REPORT_STREAMS)
			i = CM_REPORT_STREAMS;
		if (i == CM_REPORT_STREAMS && !s->allocated && !s->cached)
			break;
		cm_report_size(a, sizeof(a), s->allocated);
		cm_report_size(b, sizeof(b), s->cached);
		fprintf(out, "  per stream: %s: %s allocated, %s cached\n",
			i == CM_REPORT_STREAMS ? "other streams"
					       : cm_report_stream_name(s->rec, name, sizeof(name)),
			a, b);
	}
}

/* The largest segments: what they map, hold and which stream's they are. */
static void cm_report_segments(const cm_report *r, FILE *out)
{
	char a[32], b[32], c[32], name[48];
	for (size_t i = 0; i < CM_REPORT_SEGMENTS && r->largest[i]; i++) {
		const cm_segment *seg = r->largest[i];
		cm_report_size(a, sizeof(a), cm_report_segment_mapped(seg));
		cm_report_size(b, sizeof(b), cm_report_segment_used(seg));
		cm_report_size(c, sizeof(c), seg->va_size);
		fprintf(out, "  largest segments: %s at %#" PRIxPTR ", %s allocated, %s%s%s%s\n", a,
			seg->idle.addr, b, cm_report_stream_name(seg->pool->stream, name, sizeof(name)),
			seg->expandable ? " (mapped, of " : "", seg->expandable ? c : "",
			seg->expandable ? " of address space reserved)" : "");
	}
}

/* What the neighbours on the GPU gave back when asked (serve/share.c
 * fills rq->neighbours: events flow up as data). */
static void cm_report_neighbours(const cm_device *d, const cm_request *rq, FILE *out)
{
	if (!rq->neighbours.procs)
		return;
	fprintf(out, "  neighbours on this GPU (share): %zu process%s asked for %zu MiB; the device "
		     "gained %zu MiB in %llu ms (share_wait_ms %u)\n",
		rq->neighbours.procs, rq->neighbours.procs == 1 ? "" : "es", rq->neighbours.asked >> 20,
		rq->neighbours.gained >> 20, (unsigned long long)(rq->neighbours.waited_ns / 1000000u),
		d->heap->cfg.share_wait_ms);
}

static void cm_report_print(cm_device *d, const cm_request *rq, const cm_report *r,
			    bool over_limit, uint64_t suppressed, FILE *out)
{
	const cm_backend *be = d->heap->be;
	size_t dev_free = 0, dev_total = 0;
	bool info = be->mem_get_info(be->ctx, d->index, &dev_free, &dev_total) == CM_OK;
	size_t cap = cm_report_cap(d);
	if (info && cap != SIZE_MAX)
		cm_report_capped(cap, r->reserved, &dev_free, &dev_total);
	char a[32], b[32], c[32], name[48];
	uint64_t idle = r->reserved - r->allocated;

	cm_report_size(a, sizeof(a), rq->size);
	fprintf(out, "cachemalloc: CUDA out of memory on device %d: tried to allocate %s "
		     "(%zu bytes asked, %zu rounded) for %s\n", d->index, a, rq->requested, rq->size,
		!rq->consumer && cm_report_api ? cm_report_api
					       : cm_report_stream_name(rq->consumer, name, sizeof(name)));
	cm_report_size(a, sizeof(a), dev_total);
	cm_report_size(b, sizeof(b), dev_free);
	if (info)
		fprintf(out, "  device: %s total, %s free%s\n", a, b,
			cap != SIZE_MAX ? " (memory_limit_mb: the device as the program sees it)" : "");
	else
		fprintf(out, "  device: total and free unknown (memory info failed)\n");
	cm_report_size(a, sizeof(a), r->allocated);
	cm_report_size(b, sizeof(b), idle);
	cm_report_size(c, sizeof(c), r->largest_free);
	fprintf(out, "  this process: %s allocated, %s reserved but unallocated; largest free block "
		     "%s; fragmentation %.0f%%\n", a, b, c,
		idle ? 100.0 * (1.0 - (double)r->largest_free / (double)idle) : 0.0);
	if (rq->hopeless)
		fprintf(out, "  refused at once, nothing released or created: the request is larger "
			     "than the device%s\n",
			info && rq->size <= dev_total
				? "'s free memory and this process's cached memory together" : "");
	cm_report_ladder(rq, out);
	cm_report_neighbours(d, rq, out);
	cm_report_stitch(d, rq, out);
	cm_report_host(d->heap, out);
	cm_report_streams(r, out);
	cm_report_segments(r, out);
	cm_report_advice(d, rq, r, over_limit, dev_free, out);
	if (suppressed)
		fprintf(out, "  (%" PRIu64 " more out-of-memory failures in the last second were not "
			     "reported)\n", suppressed);
	fflush(out);
}

static uint64_t cm_report_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Returns whether it printed (the snapshot follows the same rate). */
bool cm_report_oom(cm_device *d, const cm_request *rq, bool over_limit)
{
	cm_heap *h = d->heap;
	uint64_t now = cm_report_now_ns();
	if (d->report_last && now - d->report_last < 1000000000u) {
		d->report_suppressed++;
		return false;
	}
	d->report_last = now;
	FILE *out = h->report_out ? h->report_out : cm_log_stream(&h->cfg, CM_LOG_ERRORS);
	cm_report r = {0};
	if (out) { /* not under log_level:quiet; the snapshot is written all the same */
		cm_report_gather(d, &r);
		cm_report_print(d, rq, &r, over_limit, d->report_suppressed, out);
	}
	d->report_suppressed = 0;
	return true;
}

void cm_heap_set_report_stream(cm_heap *h, FILE *out)
{
	h->report_out = out;
	for (int i = 0; i < h->ndev; i++) {
		pthread_mutex_lock(&h->devs[i].lock);
		h->devs[i].report_last = 0;
		pthread_mutex_unlock(&h->devs[i].lock);
	}
}
