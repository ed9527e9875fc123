/* scripts/replay.c - replays an allocation trace through the core on the
 * simulated device and reports what the cache would reserve.
 *
 * Input: the CSV of ../shared/traces/README.md (gzip'd or plain): a header
 * `action,addr,size,stream`, then alloc / free_requested / free_completed /
 * segment_alloc / segment_free lines. Each trace stream becomes a stream
 * (0: the legacy default stream); an alloc allocates on its stream;
 * free_completed frees the block on the stream it was allocated on. The
 * other known actions are ignored, unknown ones skipped and counted.
 * Malformed lines are reported with their line number and skipped; a
 * truncated or unreadable file stops the replay with a message.
 *
 * With --timeline FILE it also writes, after every operation, the CSV line
 * `op,live_bytes,reserved_bytes` (scripts/plot_timeline.py draws it).
 *
 * usage: cachemalloc-replay TRACE [--json] [--timeline FILE]
 *        (configuration: CACHEMALLOC_CONF)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "cachemalloc.h"
#include "config.h"
#include "sim.h"

#define MAX_ERRORS_SHOWN 10

/* trace address -> (our pointer, stream index, rounded size) */
typedef struct live {
	uint64_t addr;
	uintptr_t ptr;
	size_t size;
	int stream;
} live;

typedef struct livetab {
	live *slots;
	size_t cap, count;
} livetab;

typedef struct replay {
	sim *sim;
	cm_heap *heap;
	livetab live;
	uint64_t streams[64]; /* trace stream numbers seen; index = our stream */
	cm_stream handles[64];
	int nstreams;
	uint64_t line, allocs, frees, ignored, unknown, errors, ooms;
	uint64_t live_bytes, peak_live;
	bool stopped;
	FILE *timeline; /* --timeline: one line per operation */
} replay;

/* The timeline: operation index, live bytes, reserved bytes. */
static bool timeline_open(replay *r, const char *path)
{
	if (!(r->timeline = fopen(path, "w"))) {
		fprintf(stderr, "replay: cannot write %s: %s\n", path, strerror(errno));
		return false;
	}
	fputs("op,live_bytes,reserved_bytes\n", r->timeline);
	return true;
}

static void timeline_point(replay *r)
{
	if (!r->timeline)
		return;
	cm_stats st;
	cm_stats_get(r->heap, 0, &st);
	fprintf(r->timeline, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->allocs + r->frees,
		r->live_bytes, st.reserved_bytes);
}

static bool timeline_close(replay *r)
{
	if (!r->timeline)
		return true;
	bool ok = !ferror(r->timeline);
	ok = fclose(r->timeline) == 0 && ok;
	if (!ok)
		fprintf(stderr, "replay: the timeline could not be written\n");
	return ok;
}

static size_t slot_of(const livetab *t, uint64_t addr)
{
	return (size_t)((addr >> 9) * 0x9e3779b97f4a7c15ull >> 17) & (t->cap - 1);
}

static live *live_find(livetab *t, uint64_t addr)
{
	for (size_t i = slot_of(t, addr); t->slots[i].addr; i = (i + 1) & (t->cap - 1))
		if (t->slots[i].addr == addr)
			return &t->slots[i];
	return NULL;
}

static bool live_grow(livetab *t);

static bool live_put(livetab *t, live l)
{
	if (2 * (t->count + 1) > t->cap && !live_grow(t))
		return false;
	size_t i = slot_of(t, l.addr);
	while (t->slots[i].addr)
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = l;
	t->count++;
	return true;
}

static bool live_grow(livetab *t)
{
	livetab n = {calloc(t->cap ? 2 * t->cap : 4096, sizeof(live)), t->cap ? 2 * t->cap : 4096, 0};
	if (!n.slots)
		return false;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].addr)
			live_put(&n, t->slots[i]);
	free(t->slots);
	*t = n;
	return true;
}

/* Backward-shift deletion. */
static void live_remove(livetab *t, live *l)
{
	size_t i = (size_t)(l - t->slots);
	for (size_t j = i;;) {
		j = (j + 1) & (t->cap - 1);
		if (!t->slots[j].addr)
			break;
		size_t home = slot_of(t, t->slots[j].addr);
		bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (!stays) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].addr = 0;
	t->count--;
}

static void complain(replay *r, const char *fmt, const char *detail)
{
	if (r->errors++ < MAX_ERRORS_SHOWN) {
		fprintf(stderr, "replay: line %" PRIu64 ": ", r->line);
		fprintf(stderr, fmt, detail);
		fputc('\n', stderr);
	}
}

static int stream_index(replay *r, uint64_t s, bool create)
{
	for (int i = 0; i < r->nstreams; i++)
		if (r->streams[i] == s)
			return i;
	if (!create || r->nstreams == 64)
		return -1;
	cm_stream h = CM_STREAM_LEGACY;
	if (s != 0) {
		h = sim_stream_create(r->sim, 0, true);
		cm_stream_created(r->heap, 0, h, true);
	}
	r->streams[r->nstreams] = s;
	r->handles[r->nstreams] = h;
	return r->nstreams++;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno == 0 && *end == '\0';
}

static void do_alloc(replay *r, uint64_t addr, uint64_t size, uint64_t stream)
{
	int si = stream_index(r, stream, true);
	if (si < 0) {
		complain(r, "more than 64 streams: %s skipped", "alloc");
		return;
	}
	if (live_find(&r->live, addr)) {
		complain(r, "alloc of address %s, which is live already: skipped", "");
		return;
	}
	uintptr_t p;
	cm_status st = cm_malloc_async(r->heap, 0, size, r->handles[si], &p);
	if (st != CM_OK) {
		r->ooms++;
		complain(r, "allocation failed: %s", cm_status_name(st));
		return;
	}
	size_t rounded = (size + 511) & ~(size_t)511;
	if (!live_put(&r->live, (live){addr, p, rounded, si})) {
		r->stopped = true;
		fprintf(stderr, "replay: out of host memory\n");
		return;
	}
	r->allocs++;
	r->live_bytes += rounded;
	if (r->live_bytes > r->peak_live)
		r->peak_live = r->live_bytes;
	timeline_point(r);
}

static void do_free(replay *r, uint64_t addr, uint64_t stream)
{
	live *l = live_find(&r->live, addr);
	if (!l) {
		complain(r, "free of an unknown address: %s skipped", "free_completed");
		return;
	}
	if (stream_index(r, stream, false) < 0)
		complain(r, "free on unknown stream: freed on the block's own%s", "");
	cm_free_async(r->heap, l->ptr, r->handles[l->stream]);
	r->frees++;
	r->live_bytes -= l->size;
	live_remove(&r->live, l);
	timeline_point(r);
}

static void do_line(replay *r, char *text)
{
	char *f[5];
	int n = 0;
	for (char *save = NULL, *tok = strtok_r(text, ",\r\n", &save); tok && n < 5;
	     tok = strtok_r(NULL, ",\r\n", &save))
		f[n++] = tok;
	uint64_t addr, size, stream;
	if (n != 4 || !parse_u64(f[1], &addr) || !parse_u64(f[2], &size) ||
	    !parse_u64(f[3], &stream) || addr == 0) {
		complain(r, "not action,addr,size,stream with numbers: skipped%s", "");
		return;
	}
	if (strcmp(f[0], "alloc") == 0)
		do_alloc(r, addr, size, stream);
	else if (strcmp(f[0], "free_completed") == 0)
		do_free(r, addr, stream);
	else if (!strcmp(f[0], "free_requested") || !strcmp(f[0], "segment_alloc") ||
		 !strcmp(f[0], "segment_free"))
		r->ignored++;
	else
		r->unknown++;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads lines; false when the file ended early or could not be read. */
static bool replay_file(replay *r, gzFile in)
{
	char buf[512];
	while (!r->stopped && gzgets(in, buf, sizeof(buf))) {
		r->line++;
		size_t len = strlen(buf);
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
			complain(r, "line too long: skipped%s", "");
			int c;
			while ((c = gzgetc(in)) != -1 && c != '\n')
				;
			continue;
		}
		if (r->line == 1) {
			if (strncmp(buf, "action,addr,size,stream", 23) != 0) {
				fprintf(stderr, "replay: line 1: header is not action,addr,size,stream\n");
				return false;
			}
			continue;
		}
		do_line(r, buf);
	}
	int err;
	const char *msg = gzerror(in, &err);
	if (err != Z_OK && err != Z_STREAM_END) {
		fprintf(stderr, "replay: line %" PRIu64 ": the input ends early or is damaged (%s): "
				"stopping\n", r->line + 1, msg);
		return false;
	}
	return !r->stopped;
}

int main(int argc, char **argv)
{
	const char *path = NULL, *timeline = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--timeline") && i + 1 < argc)
			timeline = argv[++i];
		else if (!path)
			path = argv[i];
		else {
			fprintf(stderr, "usage: cachemalloc-replay TRACE [--json] [--timeline FILE]\n");
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "usage: cachemalloc-replay TRACE [--json] [--timeline FILE]\n");
		return 2;
	}
	gzFile in = gzopen(path, "rb");
	if (!in) {
		fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	gzbuffer(in, 1 << 16);
	const cm_config *cfg = cm_config_get();
	sim_options opt = {.devices = 1, .capacity = cfg->sim_memory};
	replay r = {0};
	r.sim = sim_create(&opt);
	if (!r.sim || cm_heap_create(sim_backend(r.sim), cfg, &r.heap) != CM_OK || !live_grow(&r.live)) {
		fprintf(stderr, "replay: cannot set up the simulated device\n");
		return 1;
	}
	if (timeline && !timeline_open(&r, timeline))
		return 1;
	double t0 = now_s();
	bool complete = replay_file(&r, in);
	double secs = now_s() - t0;
	gzclose(in);
	complete = timeline_close(&r) && complete;

	cm_stats st;
	cm_thread_flush(r.heap);
	cm_stats_get(r.heap, 0, &st);
	uint64_t ops = r.allocs + r.frees;
	double ns_per_op = ops ? secs * 1e9 / (double)ops : 0.0;
	double ratio = r.peak_live ? (double)st.peak_reserved_bytes / (double)r.peak_live : 0.0;
	if (r.errors > MAX_ERRORS_SHOWN)
		fprintf(stderr, "replay: %" PRIu64 " more problems not shown\n", r.errors - MAX_ERRORS_SHOWN);
	printf("trace            %s%s\n", path, complete ? "" : " (replay stopped early)");
	printf("lines            %" PRIu64 " (%" PRIu64 " allocs, %" PRIu64 " frees, %" PRIu64
	       " ignored, %" PRIu64 " unknown, %" PRIu64 " bad)\n", r.line, r.allocs, r.frees,
	       r.ignored, r.unknown, r.errors);
	printf("peak reserved    %.1f MiB\n", (double)st.peak_reserved_bytes / 1048576.0);
	printf("peak allocated   %.1f MiB (live sizes rounded to 512 B)\n", (double)r.peak_live / 1048576.0);
	printf("ratio            %.3f\n", ratio);
	printf("raw allocs/frees %" PRIu64 " / %" PRIu64 "\n", st.raw_alloc_calls, st.raw_free_calls);
	printf("fences           %" PRIu64 "\n", st.fences);
	printf("vmm maps/unmaps  %" PRIu64 " / %" PRIu64 " (stitches %" PRIu64 ", %.1f MiB stitched)\n",
	       st.vmm_maps, st.vmm_unmaps, st.stitches, (double)st.stitched_bytes / 1048576.0);
	printf("ops              %" PRIu64 ", %.0f ns per op\n", ops, ns_per_op);
	if (json)
		printf("{\"trace\": \"%s\", \"complete\": %s, \"peak_reserved_bytes\": %" PRIu64
		       ", \"peak_allocated_bytes\": %" PRIu64 ", \"ratio\": %.4f, \"raw_alloc_calls\": %"
		       PRIu64 ", \"raw_free_calls\": %" PRIu64 ", \"fences\": %" PRIu64 ", \"vmm_maps\": %" PRIu64
		       ", \"vmm_unmaps\": %" PRIu64 ", \"stitches\": %" PRIu64 ", \"stitched_bytes\": %" PRIu64
		       ", \"ops\": %" PRIu64
		       ", \"ns_per_op\": %.1f, \"unknown_actions\": %" PRIu64 ", \"bad_lines\": %" PRIu64
		       ", \"failed_allocs\": %" PRIu64 "}\n", path, complete ? "true" : "false",
		       st.peak_reserved_bytes, r.peak_live, ratio, st.raw_alloc_calls, st.raw_free_calls,
		       st.fences, st.vmm_maps, st.vmm_unmaps, st.stitches, st.stitched_bytes, ops,
		       ns_per_op, r.unknown, r.errors, r.ooms);
	free(r.live.slots);
	cm_heap_destroy(r.heap);
	sim_destroy(r.sim);
	return complete ? 0 : 1;
}
