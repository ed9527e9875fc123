/* scripts/replay.c - replays an allocation trace through the core on the
 * simulated device and reports what the cache would reserve.
 *
 * Input (gzip'd or plain; the rules are usage()'s, also in README.md): the
 * exact header `action,addr,size,stream` (a UTF-8 byte order mark before it
 * is allowed), then one event per line, four fields, no empty field, no NUL
 * byte, lines ending in LF or CRLF (a CR alone is refused), at most
 * MAX_LINE - 1 bytes. The actions are alloc / free_requested /
 * free_completed / segment_alloc / segment_free. Each trace stream becomes a
 * stream (0: the legacy default stream); an alloc allocates on its stream;
 * free_completed frees the block on the stream it was allocated on. The
 * other known actions are ignored, unknown ones counted. An input that
 * breaks a rule stops the replay with one line naming its line number, and
 * no report (exit 1); events that do not fit the replay (an unknown address
 * or stream, an allocation the device refuses) are warnings with their line
 * number, and the replay goes on.
 *
 * It also reads RMM's event log (logging_resource_adaptor's CSV, and
 * cachemalloc's log:PATH), told by its header `Thread,Time,Action,Pointer,
 * Size,Stream`: six fields, the pointer and the stream in hexadecimal
 * (0x..., or "(nil)"/decimal), the actions allocate / free (also spelled
 * deallocate, as RMM's documentation does) / allocate failure (ignored:
 * the original program was refused it). Thread and Time are not used.
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
	bool rmm; /* the input is RMM's event log */
	FILE *timeline; /* --timeline: one line per operation */
} replay;

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
		fprintf(stderr, "replay: line %" PRIu64 ": warning: ", r->line);
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

static void do_alloc(replay *r, uint64_t addr, uint64_t size, uint64_t stream)
{
	int si = stream_index(r, stream, true);
	if (si < 0) {
		complain(r, "more than 64 streams: %s skipped", "alloc");
		return;
	}
	if (live_find(&r->live, addr)) {
		complain(r, "alloc of an address that is live already: %s skipped", "alloc");
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

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- Input: lines, the header, events (the rules in usage()). ---- */

#define MAX_LINE 4096 /* an event line is at most 14 + 3 * 20 + 3 bytes */
#define HEADER "action,addr,size,stream"
#define RMM_HEADER "Thread,Time,Action,Pointer,Size,Stream"

typedef struct reader {
	gzFile in;
	size_t pos, len;
	bool eof, failed;
	unsigned char buf[1 << 16];
} reader;

static int rd_fill(reader *rd)
{
	if (rd->pos < rd->len)
		return 1;
	if (rd->eof)
		return 0;
	int n = gzread(rd->in, rd->buf, sizeof(rd->buf));
	if (n <= 0) {
		rd->eof = true;
		rd->failed = n < 0;
		return 0;
	}
	rd->pos = 0;
	rd->len = (size_t)n;
	return 1;
}

typedef enum { LINE_OK, LINE_END, LINE_TOO_LONG, LINE_LONE_CR } line_status;

/* Reads one line into text (cap bytes, NUL-terminated, without its LF or
 * CRLF; *len counts the bytes, NULs included). A longer line is consumed to
 * its end and reported, never split. */
static line_status read_line(reader *rd, char *text, size_t cap, size_t *len)
{
	size_t n = 0;
	bool any = false, too_long = false;
	while (rd_fill(rd)) {
		int c = rd->buf[rd->pos++];
		any = true;
		if (c == '\n')
			break;
		if (c == '\r') {
			if (rd_fill(rd) && rd->buf[rd->pos] == '\n') {
				rd->pos++;
				break;
			}
			return LINE_LONE_CR;
		}
		if (n + 1 < cap)
			text[n++] = (char)c;
		else
			too_long = true;
	}
	text[n] = '\0';
	*len = n;
	if (!any)
		return LINE_END;
	return too_long ? LINE_TOO_LONG : LINE_OK;
}

/* Copies at most 32 bytes of s for a message, non-printable bytes as '?'. */
static const char *shown(const char *s, size_t len, char out[40])
{
	size_t n = 0;
	for (; n < len && n < 32; n++)
		out[n] = s[n] >= 0x20 && s[n] < 0x7f ? s[n] : '?';
	if (len > 32) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

/* A decimal integer 0 to 2^64-1, digits only. */
static bool parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

typedef struct event {
	const char *action;
	uint64_t addr, size, stream;
} event;

/* Splits an event line; false with why[] filled when it breaks a rule. */
static bool parse_event(char *text, size_t len, event *ev, char *why, size_t whylen)
{
	static const char *const names[4] = {"action", "addr", "size", "stream"};
	char *f[4], buf[40];
	int n = 0;
	if (memchr(text, '\0', len)) {
		snprintf(why, whylen, "contains a NUL byte");
		return false;
	}
	for (char *p = text;; p++) {
		if (n == 4) {
			snprintf(why, whylen, "more than 4 fields; expected " HEADER);
			return false;
		}
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	if (n < 4) {
		snprintf(why, whylen, "%d field%s; expected 4: " HEADER, n, n == 1 ? "" : "s");
		return false;
	}
	uint64_t *num[4] = {NULL, &ev->addr, &ev->size, &ev->stream};
	for (int i = 0; i < 4; i++) {
		if (!*f[i]) {
			snprintf(why, whylen, "%s is empty", names[i]);
			return false;
		}
		if (i && !parse_u64(f[i], num[i])) {
			snprintf(why, whylen, "%s '%s' is not a decimal integer from %s to 18446744073709551615",
				 names[i], shown(f[i], strlen(f[i]), buf), i == 1 ? "1" : "0");
			return false;
		}
	}
	if (ev->addr == 0) {
		snprintf(why, whylen, "addr is 0; expected an integer from 1 to 18446744073709551615");
		return false;
	}
	ev->action = f[0];
	return true;
}

/* A pointer of RMM's log: 0x-prefixed hexadecimal, "(nil)" (glibc's %p of
 * NULL) or a decimal integer. */
static bool parse_ptr(const char *s, uint64_t *out)
{
	if (!strcmp(s, "(nil)")) {
		*out = 0;
		return true;
	}
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return parse_u64(s, out);
	s += 2;
	uint64_t v = 0;
	int digits = 0;
	for (; *s; s++, digits++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0'
			: *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
		if (d < 0 || v >> 60)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return digits > 0;
}

/* An event line of RMM's log (six fields), mapped onto the trace's. */
static bool parse_rmm_event(char *text, size_t len, event *ev, char *why, size_t whylen)
{
	static const char *const names[6] = {"Thread", "Time", "Action", "Pointer", "Size", "Stream"};
	char *f[6], buf[40];
	int n = 0;
	if (memchr(text, '\0', len)) {
		snprintf(why, whylen, "contains a NUL byte");
		return false;
	}
	for (char *p = text;; p++) {
		if (n == 6) {
			snprintf(why, whylen, "more than 6 fields; expected " RMM_HEADER);
			return false;
		}
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	if (n < 6) {
		snprintf(why, whylen, "%d field%s; expected 6: " RMM_HEADER, n, n == 1 ? "" : "s");
		return false;
	}
	for (int i = 0; i < 6; i++) {
		if (!*f[i]) {
			snprintf(why, whylen, "%s is empty", names[i]);
			return false;
		}
	}
	if (!parse_ptr(f[3], &ev->addr) || !parse_u64(f[4], &ev->size) || !parse_ptr(f[5], &ev->stream)) {
		int bad = !parse_ptr(f[3], &ev->addr) ? 3 : !parse_u64(f[4], &ev->size) ? 4 : 5;
		snprintf(why, whylen, "%s '%s' is not %s", names[bad], shown(f[bad], strlen(f[bad]), buf),
			 bad == 4 ? "a decimal integer" : "a pointer (0x followed by hexadecimal digits)");
		return false;
	}
	const char *a = f[2];
	if (!strcmp(a, "allocate"))
		ev->action = "alloc";
	else if (!strcmp(a, "free") || !strcmp(a, "deallocate"))
		ev->action = "free_completed";
	else if (!strcmp(a, "allocate failure"))
		ev->action = "free_requested"; /* counted as ignored */
	else
		ev->action = "unknown";
	if (ev->addr == 0 && strcmp(ev->action, "free_requested") != 0) {
		snprintf(why, whylen, "Pointer is 0 for '%s'; expected a device address", shown(a, strlen(a), buf));
		return false;
	}
	return true;
}

/* The header line, exactly, after an optional UTF-8 byte order mark. */
static bool header_is(const char *text, size_t len, const char *header)
{
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	return len == strlen(header) && !memcmp(text, header, len);
}

static void do_event(replay *r, const event *ev)
{
	if (strcmp(ev->action, "alloc") == 0)
		do_alloc(r, ev->addr, ev->size, ev->stream);
	else if (strcmp(ev->action, "free_completed") == 0)
		do_free(r, ev->addr, ev->stream);
	else if (!strcmp(ev->action, "free_requested") || !strcmp(ev->action, "segment_alloc") ||
		 !strcmp(ev->action, "segment_free"))
		r->ignored++;
	else
		r->unknown++;
}

/* Stops the replay on bad input: one line on stderr, exit status 1. */
static bool refuse(replay *r, const char *path, const char *why)
{
	if (r->line)
		fprintf(stderr, "replay: %s: line %" PRIu64 ": %s\n", path, r->line, why);
	else
		fprintf(stderr, "replay: %s: %s\n", path, why);
	return false;
}

/* Reads and replays every line; false (after one line on stderr) when the
 * input breaks a rule, ends early or cannot be read. */
static bool replay_file(replay *r, gzFile in, const char *path)
{
	static reader rd;
	char text[MAX_LINE], why[160], buf[40];
	size_t len;
	rd = (reader){.in = in};
	int err;
	while (!r->stopped) {
		line_status ls = read_line(&rd, text, sizeof(text), &len);
		if (ls == LINE_END)
			break;
		r->line++;
		/* A last line cut by a damaged gzip stream is not judged as a line. */
		if (rd.eof && (rd.failed || (gzerror(in, &err), err != Z_OK && err != Z_STREAM_END)))
			break;
		if (ls == LINE_LONE_CR)
			return refuse(r, path, "a carriage return not followed by a line feed; "
					       "lines end in LF or CRLF");
		if (ls == LINE_TOO_LONG) {
			snprintf(why, sizeof(why), "longer than %d bytes; an event line is "
				 "action,addr,size,stream", MAX_LINE - 1);
			return refuse(r, path, why);
		}
		if (r->line == 1) {
			r->rmm = header_is(text, len, RMM_HEADER);
			if (!r->rmm && !header_is(text, len, HEADER)) {
				snprintf(why, sizeof(why), "the header is '%s'; expected exactly " HEADER
					 " (or RMM's " RMM_HEADER ")", shown(text, len, buf));
				return refuse(r, path, why);
			}
			continue;
		}
		event ev;
		if (!(r->rmm ? parse_rmm_event : parse_event)(text, len, &ev, why, sizeof(why)))
			return refuse(r, path, why);
		do_event(r, &ev);
	}
	const char *msg = gzerror(in, &err);
	if (rd.failed || (err != Z_OK && err != Z_STREAM_END)) {
		snprintf(why, sizeof(why), "the input ends early or is damaged (%s)", msg);
		return refuse(r, path, why);
	}
	if (r->line == 0)
		return refuse(r, path, "empty; a trace starts with the header " HEADER);
	return !r->stopped;
}

/* Exit status: 0 the whole trace was replayed, 1 bad input or a failure
 * (one line on stderr, no report), 2 usage. */
enum { EXIT_COMPLETE = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

static void usage(FILE *to)
{
	fputs("usage: cachemalloc-replay TRACE [--json] [--timeline FILE]   (configuration: CACHEMALLOC_CONF)\n"
	      "--timeline FILE: also write op,live_bytes,reserved_bytes after every operation.\n"
	      "Replays an allocation trace (CSV, plain or gzip'd) through the cache on the\n"
	      "simulated device and prints peak reserved and allocated memory.\n"
	      "Input: the header line `" HEADER "` exactly (a UTF-8 byte order mark\n"
	      "before it is allowed), then one event a line: four comma-separated fields,\n"
	      "none empty; addr a decimal integer from 1, size and stream from 0, each at\n"
	      "most 2^64-1; no NUL byte; lines end in LF or CRLF (a CR not followed by LF,\n"
	      "even at the end, is refused), at most 4095 bytes; the last line's ending may\n"
	      "be missing. Unknown actions, frees of unknown addresses and unknown streams\n"
	      "are warnings (line number on stderr) and the replay goes on.\n"
	      "Exit status: 0 the whole trace was replayed (the report on stdout);\n"
	      "1 the input broke a rule, ended early or could not be read (one line on\n"
	      "stderr naming the line, no report); 2 usage error.\n", to);
}

int main(int argc, char **argv)
{
	const char *path = NULL, *timeline = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_COMPLETE;
		} else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--timeline")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "cachemalloc-replay: --timeline needs a file name\n");
				return EXIT_USAGE;
			}
			timeline = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "cachemalloc-replay: unknown option '%s'; accepted: --json, --timeline FILE, --help\n", argv[i]);
			return EXIT_USAGE;
		} else if (!path)
			path = argv[i];
		else {
			fprintf(stderr, "cachemalloc-replay: one trace only ('%s' is a second); usage: cachemalloc-replay TRACE [--json] [--timeline FILE]\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!path) {
		fprintf(stderr, "cachemalloc-replay: no trace given; usage: cachemalloc-replay TRACE [--json] [--timeline FILE]\n");
		return EXIT_USAGE;
	}
	gzFile in = gzopen(path, "rb");
	if (!in) {
		fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	gzbuffer(in, 1 << 16);
	const cm_config *cfg = cm_config_get();
	sim_options opt = {.devices = 1, .capacity = cfg->sim_memory};
	replay r = {0};
	r.sim = sim_create(&opt);
	if (!r.sim || cm_heap_create(sim_backend(r.sim), cfg, &r.heap) != CM_OK || !live_grow(&r.live)) {
		fprintf(stderr, "replay: cannot set up the simulated device\n");
		return EXIT_BAD_INPUT;
	}
	if (timeline && !timeline_open(&r, timeline))
		return EXIT_BAD_INPUT;
	double t0 = now_s();
	bool complete = replay_file(&r, in, path);
	double secs = now_s() - t0;
	gzclose(in);
	complete = timeline_close(&r) && complete;
	if (!complete) {
		free(r.live.slots);
		cm_heap_destroy(r.heap);
		sim_destroy(r.sim);
		return EXIT_BAD_INPUT;
	}

	cm_stats st;
	cm_thread_flush(r.heap);
	cm_stats_get(r.heap, 0, &st);
	uint64_t ops = r.allocs + r.frees;
	double ns_per_op = ops ? secs * 1e9 / (double)ops : 0.0;
	double ratio = r.peak_live ? (double)st.peak_reserved_bytes / (double)r.peak_live : 0.0;
	if (r.errors > MAX_ERRORS_SHOWN)
		fprintf(stderr, "replay: %" PRIu64 " more warnings not shown\n", r.errors - MAX_ERRORS_SHOWN);
	printf("trace            %s\n", path);
	printf("configuration    %s\n", cm_config_text()[0] ? cm_config_text() : "(defaults)");
	printf("lines            %" PRIu64 " (%" PRIu64 " allocs, %" PRIu64 " frees, %" PRIu64
	       " ignored, %" PRIu64 " unknown, %" PRIu64 " with warnings)\n", r.line, r.allocs, r.frees,
	       r.ignored, r.unknown, r.errors);
	printf("peak reserved    %.1f MiB\n", (double)st.peak_reserved_bytes / 1048576.0);
	printf("peak allocated   %.1f MiB (live sizes rounded to 512 B)\n", (double)r.peak_live / 1048576.0);
	printf("ratio            %.3f\n", ratio);
	printf("raw allocs/frees %" PRIu64 " / %" PRIu64 "\n", st.raw_alloc_calls, st.raw_free_calls);
	printf("fences           %" PRIu64 "\n", st.fences);
	printf("vmm maps/unmaps  %" PRIu64 " / %" PRIu64 " (stitches %" PRIu64 ", %.1f MiB stitched)\n",
	       st.vmm_maps, st.vmm_unmaps, st.stitches, (double)st.stitched_bytes / 1048576.0);
	printf("ops              %" PRIu64 ", %.0f ns per op\n", ops, ns_per_op);
	if (json) {
		fputs("{\"trace\": ", stdout);
		json_string(path);
		fputs(", \"conf\": ", stdout);
		json_string(cm_config_text());
		printf(", \"complete\": %s, \"peak_reserved_bytes\": %" PRIu64
		       ", \"peak_allocated_bytes\": %" PRIu64 ", \"ratio\": %.4f, \"raw_alloc_calls\": %"
		       PRIu64 ", \"raw_free_calls\": %" PRIu64 ", \"fences\": %" PRIu64 ", \"vmm_maps\": %" PRIu64
		       ", \"vmm_unmaps\": %" PRIu64 ", \"stitches\": %" PRIu64 ", \"stitched_bytes\": %" PRIu64
		       ", \"ops\": %" PRIu64
		       ", \"ns_per_op\": %.1f, \"unknown_actions\": %" PRIu64 ", \"bad_lines\": %" PRIu64
		       ", \"failed_allocs\": %" PRIu64 "}\n", complete ? "true" : "false",
		       st.peak_reserved_bytes, r.peak_live, ratio, st.raw_alloc_calls, st.raw_free_calls,
		       st.fences, st.vmm_maps, st.vmm_unmaps, st.stitches, st.stitched_bytes, ops,
		       ns_per_op, r.unknown, r.errors, r.ooms);
	}
	free(r.live.slots);
	cm_heap_destroy(r.heap);
	sim_destroy(r.sim);
	return EXIT_COMPLETE;
}
