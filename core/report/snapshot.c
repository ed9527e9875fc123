/* core/report/snapshot.c - memory snapshots that PyTorch's memory visualizer opens.
 *
 * The file is a pickle (protocol 2) of the structure that
 * torch.cuda.memory._snapshot() returns: "segments" (each with its blocks
 * and their states) and "device_traces" (per device, the recent actions of
 * trace.c, written so that the viewer's history undoes to every position:
 * docs/design.md, "Snapshots"), "host_stats" (the pinned host cache's
 * statistics, host.c) and "allocator_settings" (the configuration).
 * An expandable segment with holes (stitch.c) appears as one
 * segment per mapped stretch, each with "stitched_ranges": the (address,
 * size) of its chunks that stitching moved there. Only dicts, lists,
 * tuples, ints, floats, strings, booleans and None are written, so any unpickler can read it and nothing in it runs.
 * It is written whole (outfile.c): a symlink at the path is replaced,
 * never followed.
 * Wing: report. Calls the host, order and record wings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

typedef struct cm_pickle {
	unsigned char *buf;
	size_t len, cap;
	bool failed;
} cm_pickle;

static void pk_bytes(cm_pickle *p, const void *data, size_t n)
{
	if (p->failed)
		return;
	if (p->len + n > p->cap) {
		size_t cap = p->cap ? p->cap : 4096;
		while (cap < p->len + n)
			cap *= 2;
		unsigned char *buf = realloc(p->buf, cap);
		if (!buf) {
			p->failed = true;
			return;
		}
		p->buf = buf;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, data, n);
	p->len += n;
}

static void pk_op(cm_pickle *p, unsigned char op)
{
	pk_bytes(p, &op, 1);
}

static void pk_le(cm_pickle *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		pk_op(p, (unsigned char)(v >> (8 * i)));
}

/* Non-negative integers, in the shortest form, as CPython's pickle writes
 * them: BININT1, BININT2, BININT, else LONG1 with as few bytes as the
 * two's complement needs ((bit length / 8) + 1). MemoryViz.js reads a
 * LONG1 of up to 8 bytes as a Number, longer as a BigInt its arithmetic
 * then refuses. */
static void pk_uint(cm_pickle *p, uint64_t v)
{
	if (v < 0x100) {
		pk_op(p, 'K');
		pk_le(p, v, 1);
	} else if (v < 0x10000) {
		pk_op(p, 'M');
		pk_le(p, v, 2);
	} else if (v < 0x80000000u) {
		pk_op(p, 'J');
		pk_le(p, v, 4);
	} else {
		int n = (64 - __builtin_clzll(v)) / 8 + 1;
		pk_op(p, 0x8a); /* LONG1: little-endian two's complement */
		pk_op(p, (unsigned char)n);
		pk_le(p, v, n < 8 ? n : 8);
		if (n > 8)
			pk_op(p, 0); /* the sign byte of a value of 2^63 or more */
	}
}

static void pk_str(cm_pickle *p, const char *s)
{
	size_t n = strlen(s);
	pk_op(p, 'X'); /* BINUNICODE */
	pk_le(p, n, 4);
	pk_bytes(p, s, n);
}

/* BINFLOAT: an IEEE double, big-endian. */
static void pk_float(cm_pickle *p, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	pk_op(p, 'G');
	for (int i = 7; i >= 0; i--)
		pk_op(p, (unsigned char)(bits >> (8 * i)));
}

static void pk_bool(cm_pickle *p, bool v)
{
	pk_op(p, v ? 0x88 : 0x89);
}

/* Containers: EMPTY_DICT/EMPTY_LIST, MARK, items, SETITEMS/APPENDS. */
static void pk_dict_begin(cm_pickle *p) { pk_op(p, '}'); pk_op(p, '('); }
static void pk_dict_end(cm_pickle *p) { pk_op(p, 'u'); }
static void pk_list_begin(cm_pickle *p) { pk_op(p, ']'); pk_op(p, '('); }
static void pk_list_end(cm_pickle *p) { pk_op(p, 'e'); }

static void pk_key_uint(cm_pickle *p, const char *key, uint64_t v)
{
	pk_str(p, key);
	pk_uint(p, v);
}

static void pk_key_str(cm_pickle *p, const char *key, const char *v)
{
	pk_str(p, key);
	pk_str(p, v);
}

static void pk_empty_frames(cm_pickle *p)
{
	pk_str(p, "frames");
	pk_list_begin(p);
	pk_list_end(p);
}

/* One frame as PyTorch's snapshot has it: name, filename, line (0: the
 * line is not known from a return address). */
static void pk_frame(void *arg, const char *name, const char *file)
{
	cm_pickle *p = arg;
	pk_dict_begin(p);
	pk_key_str(p, "name", name);
	pk_key_str(p, "filename", file);
	pk_key_uint(p, "line", 0);
	pk_dict_end(p);
}

/* The block's call stack (snapshot_stacks), or an empty list. */
static void pk_block_frames(cm_pickle *p, const cm_device *d, const cm_block *b)
{
	pk_str(p, "frames");
	pk_list_begin(p);
	if (b->state == CM_BLOCK_USED)
		cm_stacks_frames(d, b->node.addr, pk_frame, p);
	pk_list_end(p);
}

/* A block freed but not reusable yet, whose free_completed the trace has
 * not written (segment.c, cm_block_completed): PyTorch's
 * active_pending_free, so that the viewer's history undoes to it. */
static const char *cm_snapshot_block_state(const cm_block *b)
{
	if (b->state == CM_BLOCK_FREE)
		return b->completion_due ? "active_pending_free" : "inactive";
	uintptr_t owner = atomic_load(&b->owner);
	return (owner & CM_OWNER_MASK) == CM_OWNER_PARKED ? "inactive" : "active_allocated";
}

/* The stitched chunks of [from, to) of an expandable segment as
 * (address, size) pairs, adjacent chunks joined. */
static void cm_snapshot_stitched(cm_pickle *p, const cm_segment *seg, uintptr_t from, uintptr_t to)
{
	pk_str(p, "stitched_ranges");
	pk_list_begin(p);
	uintptr_t run = 0;
	for (uintptr_t a = from; seg->expandable && a <= to; a += seg->chunk) {
		bool st = a < to && (seg->chunk_flags[(a - seg->idle.addr) / seg->chunk] & CM_CHUNK_STITCHED);
		if (st && !run)
			run = a;
		if (!st && run) {
			pk_uint(p, run);
			pk_uint(p, a - run);
			pk_op(p, 0x86); /* TUPLE2 */
			run = 0;
		}
	}
	pk_list_end(p);
}

/* One mapped stretch of a segment, first to the block before end (a
 * hole or NULL), as one segment of PyTorch's snapshot. */
static void cm_snapshot_stretch(cm_pickle *p, cm_device *d, const cm_segment *seg,
				const cm_block *first, const cm_block *end)
{
	uint64_t used = 0, requested = 0, total = 0;
	for (const cm_block *b = first; b != end; b = b->next) {
		total += b->node.size;
		if (b->state == CM_BLOCK_USED) {
			used += b->node.size;
			requested += b->requested;
		}
	}
	pk_dict_begin(p);
	pk_key_uint(p, "device", (uint64_t)d->index);
	pk_key_uint(p, "address", first->node.addr);
	pk_key_uint(p, "total_size", total);
	pk_key_uint(p, "allocated_size", used);
	pk_key_uint(p, "active_size", used);
	pk_key_uint(p, "requested_size", requested);
	pk_key_uint(p, "stream", cm_trace_stream(seg->pool->stream));
	pk_key_str(p, "segment_type", seg->pool->small ? "small" : "large");
	pk_str(p, "segment_pool_id");
	pk_uint(p, 0);
	pk_uint(p, 0);
	pk_op(p, 0x86); /* TUPLE2 */
	pk_str(p, "is_expandable");
	pk_bool(p, seg->expandable);
	cm_snapshot_stitched(p, seg, first->node.addr, first->node.addr + total);
	pk_empty_frames(p);
	pk_str(p, "blocks");
	pk_list_begin(p);
	for (const cm_block *b = first; b != end; b = b->next) {
		pk_dict_begin(p);
		pk_key_uint(p, "address", b->node.addr);
		pk_key_uint(p, "size", b->node.size);
		pk_key_uint(p, "requested_size", b->state == CM_BLOCK_USED ? b->requested : 0);
		pk_key_str(p, "state", cm_snapshot_block_state(b));
		pk_block_frames(p, d, b);
		pk_dict_end(p);
	}
	pk_list_end(p);
	pk_dict_end(p);
}

/* A segment, split at its holes (unmapped stretches, stitch.c): each
 * mapped stretch is a segment of its own, its stitched chunks listed. */
static void cm_snapshot_segment(cm_pickle *p, cm_device *d, const cm_segment *seg)
{
	const cm_block *first = seg->first;
	for (const cm_block *b = seg->first;; b = b->next) {
		if (!b || b->state == CM_BLOCK_HOLE) {
			cm_snapshot_stretch(p, d, seg, first, b);
			if (!b)
				return;
			first = b->next; /* holes are never last nor adjacent */
		}
	}
}

static void cm_snapshot_trace(cm_pickle *p, const cm_device *d)
{
	pk_list_begin(p);
	for (size_t i = 0; i < d->trace_count; i++) {
		const cm_trace_entry *e = cm_trace_get(d, i);
		pk_dict_begin(p);
		pk_key_str(p, "action", cm_trace_action_name(e->action));
		pk_key_uint(p, "addr", e->addr);
		pk_key_uint(p, "size", e->size);
		pk_key_uint(p, "stream", e->stream);
		pk_key_uint(p, "time_us", e->time_us);
		if (e->action == CM_TRACE_OOM)
			pk_key_uint(p, "device_free", e->device_free);
		pk_empty_frames(p);
		pk_dict_end(p);
	}
	pk_list_end(p);
}

/* The whole pickle, each device read under its own lock in turn. */
/* "host_stats": the pinned host cache's statistics (a key of ours; the
 * visualizer reads only the keys it knows). No device lock is held. */
static void cm_snapshot_host(cm_heap *h, cm_pickle *out)
{
	cm_stats st = {0};
	cm_host_stats(h, &st);
	pk_str(out, "host_stats");
	pk_dict_begin(out);
	pk_key_uint(out, "host_alloc_calls", st.host_alloc_calls);
	pk_key_uint(out, "host_cache_hits", st.host_cache_hits);
	pk_key_uint(out, "host_reserved_bytes", st.host_reserved_bytes);
	pk_key_uint(out, "peak_host_reserved_bytes", st.peak_host_reserved_bytes);
	pk_key_uint(out, "host_cached_bytes", st.host_cached_bytes);
	pk_dict_end(out);
}

/* "allocator_settings", as PyTorch's snapshot has it: the configuration
 * string under PyTorch's key, and the settings tools read from it. */
static void cm_snapshot_settings(const cm_heap *h, cm_pickle *out)
{
	const cm_config *cfg = &h->cfg;
	pk_str(out, "allocator_settings");
	pk_dict_begin(out);
	pk_key_str(out, "PYTORCH_CUDA_ALLOC_CONF", cm_config_text());
	pk_str(out, "max_split_size");
	if (cfg->max_split_size == SIZE_MAX) { /* PyTorch's SIZE_MAX as a signed integer */
		pk_op(out, 'J');
		pk_le(out, UINT32_MAX, 4);
	} else {
		pk_uint(out, cfg->max_split_size);
	}
	pk_str(out, "garbage_collection_threshold");
	pk_float(out, cfg->garbage_collection_threshold);
	pk_str(out, "expandable_segments");
	pk_bool(out, cfg->expandable_segments);
	pk_dict_end(out);
}

static bool cm_snapshot_build(cm_heap *h, cm_pickle *out)
{
	cm_pickle traces = {0};
	pk_op(out, 0x80); /* PROTO 2 */
	pk_op(out, 2);
	pk_dict_begin(out);
	pk_str(out, "segments");
	pk_list_begin(out);
	for (int i = 0; i < h->ndev; i++) {
		cm_device *d = &h->devs[i];
		pthread_mutex_lock(&d->lock);
		for (size_t j = 0; j < d->nsegs; j++)
			cm_snapshot_segment(out, d, d->segs[j]);
		cm_snapshot_trace(&traces, d);
		pthread_mutex_unlock(&d->lock);
	}
	pk_list_end(out);
	pk_str(out, "device_traces");
	pk_list_begin(out);
	pk_bytes(out, traces.buf, traces.len);
	pk_list_end(out);
	cm_snapshot_host(h, out);
	cm_snapshot_settings(h, out);
	pk_dict_end(out);
	pk_op(out, '.');
	free(traces.buf);
	return !out->failed && !traces.failed;
}

bool cm_snapshot_write(cm_heap *h, const char *path, FILE *err)
{
	cm_pickle p = {0};
	bool ok = cm_snapshot_build(h, &p);
	if (!ok)
		fprintf(err, "cachemalloc: no memory to build the snapshot for %s\n", path);
	else
		ok = cm_outfile_write(path, p.buf, p.len, "the memory snapshot", err);
	free(p.buf);
	return ok;
}
