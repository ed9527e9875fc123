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
 * the original program was refused it). Thread and Time are not used. The
 * log cachemalloc writes has a seventh column, Device: one device of it
 * is replayed, --device N or the first the log names, and the events of
 * the others are left out, said on stderr.
 *
 * With --timeline FILE it also writes, after every operation, the CSV line
 * `op,live_bytes,reserved_bytes` (scripts/plot_timeline.py draws it).
 *
 * --api names the calls the consumer makes: async (the default) is
 * cudaMallocAsync/cudaFreeAsync on the trace's streams, as PyTorch's
 * allocator would under the library with its own cache; malloc is
 * cudaMalloc/cudaFree (cm_malloc/cm_free, no stream), as PyTorch with its
 * cache off calls the library: the stream column is then ignored, and a
 * block is freed when the trace says it completed, so no stream still
 * uses it.
 *
 * --fit answers issue 31's question, "how much device does the trace
 * need": after the reported replay, it bisects (MiB granularity) the
 * smallest simulated device on which the whole trace replays with no failed
 * allocation, each try on a fresh simulated device and heap, from the
 * events read once. Fitting is not promised to be monotone in the size (the
 * cache's choices depend on what the device refuses), so it reports the
 * smallest passing size the bisection met and replays a few sizes above it,
 * saying so when one of them fails. Beside the fit it prints PyTorch's max
 * reserved for the trace, from --pytorch-reserved or the JSON beside the
 * trace (NAME.json for NAME.csv.gz: max_reserved, or with expandable
 * segments expandable_max_reserved where it is not null).
 *
 * --snapshot FILE writes, after the replay, the memory snapshot a program
 * under oom_snapshot would write (its recent actions recorded from the
 * start): what PyTorch's memory viewer would show of the trace.
 *
 * usage: cachemalloc-replay TRACE [--json] [--timeline FILE] [--api malloc|async]
 *        [--fit] [--pytorch-reserved BYTES] [--snapshot FILE] [--device N]
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
#define MiB ((uint64_t)1 << 20)

/* The calls the consumer makes (--api). */
typedef enum replay_api { API_ASYNC, API_MALLOC } replay_api;

/* What an event does; the tape keeps events in this form for --fit. */
typedef enum action { ACT_ALLOC, ACT_FREE, ACT_IGNORED, ACT_UNKNOWN } action;

typedef struct taped {
	uint64_t addr, size, stream, line;
	action act;
} taped;

/* The events read once, replayed per try of --fit. */
typedef struct tape {
	taped *ev;
	size_t count, cap;
} tape;

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
	bool rmm_device; /* with cachemalloc's Device column */
	int64_t device; /* the device replayed (--device; -1: the first in the log) */
	uint64_t other_device_events; /* left out: events of the log's other devices */
	bool quiet; /* a try of --fit: no warnings (the reported replay gave them) */
	replay_api api;
	FILE *timeline; /* --timeline: one line per operation */
	tape *tape; /* --fit: where the events read are kept, or NULL */
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
	if (r->errors++ < MAX_ERRORS_SHOWN && !r->quiet) {
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

/* One allocation through the API the consumer uses; the stream index is
 * -1 under --api malloc, where streams are ignored. */
static cm_status api_malloc(replay *r, uint64_t size, int si, uintptr_t *p)
{
	if (r->api == API_MALLOC)
		return cm_malloc(r->heap, 0, size, p);
	return cm_malloc_async(r->heap, 0, size, r->handles[si], p);
}

static void api_free(replay *r, const live *l)
{
	if (r->api == API_MALLOC)
		cm_free(r->heap, l->ptr);
	else
		cm_free_async(r->heap, l->ptr, r->handles[l->stream]);
}

static void do_alloc(replay *r, uint64_t addr, uint64_t size, uint64_t stream)
{
	int si = r->api == API_MALLOC ? -1 : stream_index(r, stream, true);
	if (si < 0 && r->api == API_ASYNC) {
		complain(r, "more than 64 streams: %s skipped", "alloc");
		return;
	}
	if (live_find(&r->live, addr)) {
		complain(r, "alloc of an address that is live already: %s skipped", "alloc");
		return;
	}
	uintptr_t p;
	cm_status st = api_malloc(r, size, si, &p);
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
	if (r->api == API_ASYNC && stream_index(r, stream, false) < 0)
		complain(r, "free on unknown stream: freed on the block's own%s", "");
	api_free(r, l);
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
#define RMM_DEVICE_HEADER RMM_HEADER ",Device" /* cachemalloc's log: a process's devices apart */

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
	int64_t device; /* the log's Device column; -1: none */
} event;

/* Splits text (len bytes) at its commas into exactly want fields f[], none
 * empty (names[] names them); false with why[] filled where it does not. */
static bool split_fields(char *text, size_t len, char **f, int want, const char *const *names,
			 const char *header, char *why, size_t whylen)
{
	int n = 0;
	if (memchr(text, '\0', len)) {
		snprintf(why, whylen, "contains a NUL byte");
		return false;
	}
	for (char *p = text;; p++) {
		if (n == want) {
			snprintf(why, whylen, "more than %d fields; expected %s", want, header);
			return false;
		}
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	if (n < want) {
		snprintf(why, whylen, "%d field%s; expected %d: %s", n, n == 1 ? "" : "s", want, header);
		return false;
	}
	for (int i = 0; i < want; i++) {
		if (!*f[i]) {
			snprintf(why, whylen, "%s is empty", names[i]);
			return false;
		}
	}
	return true;
}

/* Splits an event line; false with why[] filled when it breaks a rule. */
static bool parse_event(char *text, size_t len, event *ev, char *why, size_t whylen)
{
	static const char *const names[4] = {"action", "addr", "size", "stream"};
	char *f[4], buf[40];
	if (!split_fields(text, len, f, 4, names, HEADER, why, whylen))
		return false;
	uint64_t *num[4] = {NULL, &ev->addr, &ev->size, &ev->stream};
	for (int i = 1; i < 4; i++) {
		if (!parse_u64(f[i], num[i])) {
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

/* An event line of RMM's log (six fields, seven with cachemalloc's
 * Device), mapped onto the trace's. */
static bool parse_rmm_event(char *text, size_t len, bool with_device, event *ev, char *why,
			    size_t whylen)
{
	static const char *const names[7] = {"Thread", "Time", "Action", "Pointer", "Size", "Stream", "Device"};
	const int want = with_device ? 7 : 6;
	const char *header = with_device ? RMM_DEVICE_HEADER : RMM_HEADER;
	char *f[7], buf[40];
	if (!split_fields(text, len, f, want, names, header, why, whylen))
		return false;
	if (!parse_ptr(f[3], &ev->addr) || !parse_u64(f[4], &ev->size) || !parse_ptr(f[5], &ev->stream)) {
		int bad = !parse_ptr(f[3], &ev->addr) ? 3 : !parse_u64(f[4], &ev->size) ? 4 : 5;
		snprintf(why, whylen, "%s '%s' is not %s", names[bad], shown(f[bad], strlen(f[bad]), buf),
			 bad == 4 ? "a decimal integer" : "a pointer (0x followed by hexadecimal digits)");
		return false;
	}
	uint64_t device = 0;
	if (with_device && (!parse_u64(f[6], &device) || device > INT32_MAX)) {
		snprintf(why, whylen, "Device '%s' is not a device index", shown(f[6], strlen(f[6]), buf));
		return false;
	}
	ev->device = with_device ? (int64_t)device : -1;
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

static action action_of(const char *name)
{
	if (!strcmp(name, "alloc"))
		return ACT_ALLOC;
	if (!strcmp(name, "free_completed"))
		return ACT_FREE;
	if (!strcmp(name, "free_requested") || !strcmp(name, "segment_alloc") ||
	    !strcmp(name, "segment_free"))
		return ACT_IGNORED;
	return ACT_UNKNOWN;
}

static void do_taped(replay *r, const taped *t)
{
	switch (t->act) {
	case ACT_ALLOC:
		do_alloc(r, t->addr, t->size, t->stream);
		break;
	case ACT_FREE:
		do_free(r, t->addr, t->stream);
		break;
	case ACT_IGNORED:
		r->ignored++;
		break;
	case ACT_UNKNOWN:
		r->unknown++;
		break;
	}
}

/* Keeps an event for the tries of --fit; false when out of host memory. */
static bool tape_put(tape *t, const taped *ev)
{
	if (t->count == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 65536;
		taped *n = realloc(t->ev, cap * sizeof(*n));
		if (!n)
			return false;
		t->ev = n;
		t->cap = cap;
	}
	t->ev[t->count++] = *ev;
	return true;
}

static void do_event(replay *r, const event *ev)
{
	taped t = {ev->addr, ev->size, ev->stream, r->line, action_of(ev->action)};
	if (r->tape && !tape_put(r->tape, &t)) {
		r->stopped = true;
		fprintf(stderr, "replay: out of host memory\n");
		return;
	}
	do_taped(r, &t);
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
			r->rmm_device = header_is(text, len, RMM_DEVICE_HEADER);
			r->rmm = r->rmm_device || header_is(text, len, RMM_HEADER);
			if (!r->rmm && !header_is(text, len, HEADER)) {
				snprintf(why, sizeof(why), "the header is '%s'; expected exactly " HEADER
					 " (or RMM's " RMM_HEADER ")", shown(text, len, buf));
				return refuse(r, path, why);
			}
			continue;
		}
		event ev = {.device = -1};
		if (!(r->rmm ? parse_rmm_event(text, len, r->rmm_device, &ev, why, sizeof(why))
			     : parse_event(text, len, &ev, why, sizeof(why))))
			return refuse(r, path, why);
		if (ev.device >= 0 && r->device < 0)
			r->device = ev.device;
		if (ev.device >= 0 && ev.device != r->device) {
			r->other_device_events++;
			continue;
		}
		do_event(r, &ev);
	}
	const char *msg = gzerror(in, &err);
	if (rd.failed || (err != Z_OK && err != Z_STREAM_END)) {
		snprintf(why, sizeof(why), "the input ends early or is damaged (%s)", msg);
		return refuse(r, path, why);
	}
	if (r->line == 0)
		return refuse(r, path, "empty; a trace starts with the header " HEADER);
	if (r->other_device_events)
		fprintf(stderr, "replay: %s: replayed device %" PRId64 "; %" PRIu64 " events of other "
			"devices left out (--device N replays another)\n", path, r->device,
			r->other_device_events);
	return !r->stopped;
}

/* ---- The simulated device and the heap of one replay. ---- */

static bool replay_open(replay *r, const cm_config *base, size_t capacity)
{
	cm_config cfg = *base;
	cfg.sim_memory = capacity;
	sim_options opt = {.devices = 1, .capacity = capacity};
	r->sim = sim_create(&opt);
	if (!r->sim || cm_heap_create(sim_backend(r->sim), &cfg, &r->heap) != CM_OK || !live_grow(&r->live)) {
		fprintf(stderr, "replay: cannot set up the simulated device\n");
		return false;
	}
	return true;
}

static void replay_close(replay *r)
{
	free(r->live.slots);
	if (r->heap)
		cm_heap_destroy(r->heap);
	if (r->sim)
		sim_destroy(r->sim);
}

/* ---- --fit: the smallest simulated device the trace replays on. ---- */

#define FIT_ABOVE 2 /* sizes above the fit replayed to see it is not a lucky one */

typedef struct fit {
	uint64_t bytes;   /* the smallest passing size met; 0: none */
	unsigned tries;   /* replays made */
	unsigned nabove;  /* of the FIT_ABOVE sizes above it, how many failed */
	uint64_t above_failed[FIT_ABOVE];
	uint64_t pytorch; /* PyTorch's max reserved for the trace; 0: not known */
	char pytorch_from[160];
	double secs;
} fit;

static FILE *fit_devnull; /* the tries' out-of-memory reports, expected by the hundred */

/* Replays the tape on a fresh device of `mib` MiB: 1 when no allocation
 * failed, 0 when one did (the replay stops there: one is enough), -1 when
 * the device or host memory could not be had. */
static int fit_try(const tape *t, const cm_config *cfg, replay_api api, uint64_t mib, fit *f)
{
	replay r = {.api = api, .quiet = true};
	int result = -1;
	f->tries++;
	if (replay_open(&r, cfg, mib * MiB)) {
		cm_heap_set_report_stream(r.heap, fit_devnull);
		for (size_t i = 0; i < t->count && !r.ooms && !r.stopped; i++) {
			r.line = t->ev[i].line;
			do_taped(&r, &t->ev[i]);
		}
		result = r.stopped ? -1 : r.ooms == 0;
	}
	replay_close(&r);
	return result;
}

/* A size that passes (*mib), from the reported replay's peak reserved (which
 * the trace fitted in) up to the reported device, doubling: 0 when none
 * does; -1 when a try could not be set up. */
static int fit_upper(const tape *t, const cm_config *cfg, replay_api api, uint64_t peak_reserved,
		     size_t capacity, fit *f, uint64_t *mib)
{
	uint64_t top = (capacity + MiB - 1) / MiB;
	for (*mib = peak_reserved ? (peak_reserved + MiB - 1) / MiB : 1;; *mib *= 2) {
		if (*mib > top)
			*mib = top;
		int pass = fit_try(t, cfg, api, *mib, f);
		if (pass != 0 || *mib == top)
			return pass;
	}
}

/* Bisects between a size known to fail and one that passes, then replays
 * FIT_ABOVE sizes just above the result; f->bytes stays 0 when no size
 * passes. False when a try could not be set up. */
static bool fit_search(const tape *t, const cm_config *cfg, replay_api api, uint64_t peak_live,
		       uint64_t peak_reserved, size_t capacity, fit *f)
{
	double t0 = now_s();
	if (!(fit_devnull = fopen("/dev/null", "w")))
		return false;
	/* Below peak live a device must fail: the cache reserves at least what
	 * is live (sizes rounded to 512 B, as peak_live counts them). */
	uint64_t lo = peak_live ? (peak_live + MiB - 1) / MiB - 1 : 0, hi;
	int pass = fit_upper(t, cfg, api, peak_reserved, capacity, f, &hi);
	bool found = pass > 0;
	while (found && pass >= 0 && hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		pass = fit_try(t, cfg, api, mid, f);
		if (pass > 0)
			hi = mid;
		else
			lo = mid;
	}
	for (uint64_t mib = hi + 1; found && pass >= 0 && mib <= hi + FIT_ABOVE; mib++) {
		pass = fit_try(t, cfg, api, mib, f);
		if (pass == 0)
			f->above_failed[f->nabove++] = mib * MiB;
	}
	f->bytes = found ? hi * MiB : 0;
	f->secs = now_s() - t0;
	fclose(fit_devnull);
	return pass >= 0;
}

/* The unsigned number after "key": in a small JSON text; false when the
 * key is absent or its value is not one (null, for instance). */
static bool json_u64(const char *text, const char *key, uint64_t *out)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	const char *p = strstr(text, pat);
	if (!p)
		return false;
	p += strlen(pat);
	p += strspn(p, " \t\r\n");
	if (*p++ != ':')
		return false;
	p += strspn(p, " \t\r\n");
	char digits[24];
	size_t n = strspn(p, "0123456789");
	if (n == 0 || n >= sizeof(digits))
		return false;
	memcpy(digits, p, n);
	digits[n] = '\0';
	return parse_u64(digits, out);
}

/* NAME.json for NAME.csv.gz, NAME.csv or NAME.gz. */
static void sidecar_path(const char *trace, char *out, size_t cap)
{
	size_t n = strlen(trace);
	static const char *const ends[] = {".csv.gz", ".csv", ".gz"};
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t e = strlen(ends[i]);
		if (n > e && !strcmp(trace + n - e, ends[i])) {
			n -= e;
			break;
		}
	}
	snprintf(out, cap, "%.*s.json", (int)n, trace);
}

/* PyTorch's max reserved for the trace from the JSON beside it: under
 * expandable segments its expandable_max_reserved where recorded, since
 * that is the run to compare with; otherwise max_reserved. */
static void pytorch_from_sidecar(const char *trace, bool expandable, fit *f)
{
	char path[4096], text[65536];
	sidecar_path(trace, path, sizeof(path));
	FILE *in = fopen(path, "r");
	if (!in)
		return;
	size_t n = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[n] = '\0';
	const char *key = "expandable_max_reserved";
	if (!expandable || !json_u64(text, key, &f->pytorch)) {
		key = "max_reserved";
		if (!json_u64(text, key, &f->pytorch))
			return;
	}
	const char *base = strrchr(path, '/');
	snprintf(f->pytorch_from, sizeof(f->pytorch_from), "%s of %.120s", key, base ? base + 1 : path);
}

/* ---- The report. ---- */

static const char *api_name(replay_api api)
{
	return api == API_MALLOC ? "malloc" : "async";
}

static void print_fit_text(const fit *f, uint64_t ooms)
{
	if (!f->bytes && ooms) {
		printf("fit              none: %" PRIu64 " allocations failed on this device "
		       "(CACHEMALLOC_SIM_MEMORY); give it more\n", ooms);
		return;
	}
	if (!f->bytes) {
		printf("fit              none: no device up to this one (CACHEMALLOC_SIM_MEMORY) passes\n");
		return;
	}
	printf("fit              %" PRIu64 " MiB (%" PRIu64 " bytes; %u replays, %.1f s)\n",
	       f->bytes / MiB, f->bytes, f->tries, f->secs);
	if (f->nabove)
		for (unsigned i = 0; i < f->nabove; i++)
			printf("fit not monotone %" PRIu64 " MiB fails\n", f->above_failed[i] / MiB);
	else
		printf("fit monotone     the next %d MiB sizes pass too\n", FIT_ABOVE);
	if (f->pytorch)
		printf("pytorch reserved %.1f MiB (%s); fit / PyTorch %.3f\n", (double)f->pytorch / MiB,
		       f->pytorch_from, (double)f->bytes / (double)f->pytorch);
	else
		printf("pytorch reserved not known (no --pytorch-reserved, no JSON beside the trace)\n");
}

static void print_fit_json(const fit *f)
{
	printf(", \"fit_bytes\": ");
	f->bytes ? printf("%" PRIu64, f->bytes) : printf("null");
	printf(", \"fit_tries\": %u, \"fit_seconds\": %.2f, \"fit_monotone\": %s, \"fit_failing_above\": [",
	       f->tries, f->secs, f->nabove ? "false" : "true");
	for (unsigned i = 0; i < f->nabove; i++)
		printf("%s%" PRIu64, i ? ", " : "", f->above_failed[i]);
	printf("], \"pytorch_max_reserved\": ");
	f->pytorch ? printf("%" PRIu64, f->pytorch) : printf("null");
	printf(", \"pytorch_source\": ");
	json_string(f->pytorch_from);
	printf(", \"fit_ratio\": ");
	f->bytes && f->pytorch ? printf("%.4f", (double)f->bytes / (double)f->pytorch) : printf("null");
}

static void print_report(replay *r, const char *path, double secs, bool json, const fit *f)
{
	cm_stats st;
	cm_thread_flush(r->heap);
	cm_stats_get(r->heap, 0, &st);
	uint64_t ops = r->allocs + r->frees;
	double ns_per_op = ops ? secs * 1e9 / (double)ops : 0.0;
	double ratio = r->peak_live ? (double)st.peak_reserved_bytes / (double)r->peak_live : 0.0;
	if (r->errors > MAX_ERRORS_SHOWN)
		fprintf(stderr, "replay: %" PRIu64 " more warnings not shown\n", r->errors - MAX_ERRORS_SHOWN);
	printf("trace            %s\n", path);
	printf("configuration    %s\n", cm_config_text()[0] ? cm_config_text() : "(defaults)");
	printf("api              %s\n", r->api == API_MALLOC ? "malloc (cudaMalloc/cudaFree, streams ignored)"
	       : "async (cudaMallocAsync/cudaFreeAsync on the trace's streams)");
	printf("lines            %" PRIu64 " (%" PRIu64 " allocs, %" PRIu64 " frees, %" PRIu64
	       " ignored, %" PRIu64 " unknown, %" PRIu64 " with warnings)\n", r->line, r->allocs, r->frees,
	       r->ignored, r->unknown, r->errors);
	printf("peak reserved    %.1f MiB\n", (double)st.peak_reserved_bytes / 1048576.0);
	printf("peak allocated   %.1f MiB (live sizes rounded to 512 B)\n", (double)r->peak_live / 1048576.0);
	printf("ratio            %.3f\n", ratio);
	printf("raw allocs/frees %" PRIu64 " / %" PRIu64 "\n", st.raw_alloc_calls, st.raw_free_calls);
	printf("fences           %" PRIu64 "\n", st.fences);
	printf("vmm maps/unmaps  %" PRIu64 " / %" PRIu64 " (stitches %" PRIu64 ", %.1f MiB stitched)\n",
	       st.vmm_maps, st.vmm_unmaps, st.stitches, (double)st.stitched_bytes / 1048576.0);
	printf("ops              %" PRIu64 ", %.0f ns per op\n", ops, ns_per_op);
	if (f)
		print_fit_text(f, r->ooms);
	if (!json)
		return;
	fputs("{\"trace\": ", stdout);
	json_string(path);
	fputs(", \"conf\": ", stdout);
	json_string(cm_config_text());
	printf(", \"api\": \"%s\", \"complete\": true, \"peak_reserved_bytes\": %" PRIu64
	       ", \"peak_allocated_bytes\": %" PRIu64 ", \"ratio\": %.4f, \"raw_alloc_calls\": %"
	       PRIu64 ", \"raw_free_calls\": %" PRIu64 ", \"fences\": %" PRIu64 ", \"vmm_maps\": %" PRIu64
	       ", \"vmm_unmaps\": %" PRIu64 ", \"stitches\": %" PRIu64 ", \"stitched_bytes\": %" PRIu64
	       ", \"ops\": %" PRIu64
	       ", \"ns_per_op\": %.1f, \"unknown_actions\": %" PRIu64 ", \"bad_lines\": %" PRIu64
	       ", \"failed_allocs\": %" PRIu64, api_name(r->api),
	       st.peak_reserved_bytes, r->peak_live, ratio, st.raw_alloc_calls, st.raw_free_calls,
	       st.fences, st.vmm_maps, st.vmm_unmaps, st.stitches, st.stitched_bytes, ops,
	       ns_per_op, r->unknown, r->errors, r->ooms);
	if (f)
		print_fit_json(f);
	puts("}");
}

/* Exit status: 0 the whole trace was replayed, 1 bad input or a failure
 * (one line on stderr, no report), 2 usage. */
enum { EXIT_COMPLETE = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

#define USAGE "usage: cachemalloc-replay TRACE [--json] [--timeline FILE] [--api malloc|async] " \
	"[--fit] [--pytorch-reserved BYTES] [--snapshot FILE] [--device N]"

static void usage(FILE *to)
{
	fputs(USAGE "   (configuration: CACHEMALLOC_CONF)\n"
	      "--timeline FILE: also write op,live_bytes,reserved_bytes after every operation.\n"
	      "--api async (default): cudaMallocAsync/cudaFreeAsync on the trace's streams;\n"
	      "--api malloc: cudaMalloc/cudaFree, as PyTorch with its cache off calls the\n"
	      "library (the stream column is ignored).\n"
	      "--fit: also bisect the smallest simulated device (MiB) on which the whole trace\n"
	      "replays with no failed allocation, beside PyTorch's max reserved for it:\n"
	      "--pytorch-reserved BYTES (K, M, G suffixes), or NAME.json beside NAME.csv.gz\n"
	      "(max_reserved; expandable_max_reserved under expandable segments).\n"
	      "--device N: of an event log with a Device column, replay device N (default:\n"
	      "the first it names; the others' events are left out).\n"
	      "--snapshot FILE: after the replay, write the memory snapshot PyTorch's viewer\n"
	      "opens, the replay's actions recorded from its start.\n"
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

typedef struct options {
	const char *path, *timeline, *snapshot;
	bool json, fit;
	replay_api api;
	uint64_t pytorch; /* --pytorch-reserved; 0: from the JSON beside the trace */
	int64_t device; /* --device; -1: the log's first */
} options;

static int usage_error(const char *fmt, const char *arg)
{
	fputs("cachemalloc-replay: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("; " USAGE "\n", stderr);
	return EXIT_USAGE;
}

/* -1: go on; else the exit status. */
static int parse_args(int argc, char **argv, options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		size_t bytes;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_COMPLETE;
		} else if (!strcmp(a, "--json"))
			o->json = true;
		else if (!strcmp(a, "--fit"))
			o->fit = true;
		else if (!strcmp(a, "--timeline") || !strcmp(a, "--api") || !strcmp(a, "--pytorch-reserved") ||
			 !strcmp(a, "--snapshot") || !strcmp(a, "--device")) {
			if (!v)
				return usage_error("%s needs a value", a);
			i++;
			uint64_t dev;
			if (a[2] == 'd' && (!parse_u64(v, &dev) || dev > INT32_MAX))
				return usage_error("--device '%s': expected a device index", v);
			else if (a[2] == 'd')
				o->device = (int64_t)dev;
			else if (a[2] == 't')
				o->timeline = v;
			else if (a[2] == 's')
				o->snapshot = v;
			else if (a[2] == 'a' && (!strcmp(v, "malloc") || !strcmp(v, "async")))
				o->api = v[0] == 'm' ? API_MALLOC : API_ASYNC;
			else if (a[2] == 'a')
				return usage_error("--api '%s': expected malloc or async", v);
			else if (cm_config_parse_size(v, &bytes) && bytes)
				o->pytorch = bytes;
			else
				return usage_error("--pytorch-reserved '%s': expected a byte count above 0 (K, M, G suffixes)", v);
		} else if (a[0] == '-' && a[1])
			return usage_error("unknown option '%s'; accepted: --json, --timeline FILE, --api "
					   "malloc|async, --fit, --pytorch-reserved BYTES, --snapshot FILE, --device N, --help", a);
		else if (!o->path)
			o->path = a;
		else
			return usage_error("one trace only ('%s' is a second)", a);
	}
	if (!o->path)
		return usage_error("no trace given%s", "");
	return -1;
}

int main(int argc, char **argv)
{
	options o = {.device = -1};
	int status = parse_args(argc, argv, &o);
	if (status >= 0)
		return status;
	gzFile in = gzopen(o.path, "rb");
	if (!in) {
		fprintf(stderr, "replay: cannot open %s: %s\n", o.path, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	gzbuffer(in, 1 << 16);
	const cm_config *cfg = cm_config_get();
	cm_config recorded = *cfg; /* --snapshot: the heap records its actions, as under oom_snapshot */
	if (o.snapshot)
		snprintf(recorded.oom_snapshot, sizeof(recorded.oom_snapshot), "%s", o.snapshot);
	tape tp = {0};
	replay r = {.api = o.api, .tape = o.fit ? &tp : NULL, .device = o.device};
	bool complete = replay_open(&r, &recorded, cfg->sim_memory) && (!o.timeline || timeline_open(&r, o.timeline));
	double t0 = now_s();
	complete = complete && replay_file(&r, in, o.path);
	double secs = now_s() - t0;
	gzclose(in);
	if (complete && o.snapshot)
		complete = cm_snapshot_write(r.heap, o.snapshot, stderr);
	complete = timeline_close(&r) && complete;
	fit f = {.pytorch = o.pytorch};
	if (complete && o.fit) {
		cm_stats st;
		cm_thread_flush(r.heap);
		cm_stats_get(r.heap, 0, &st);
		if (o.pytorch)
			snprintf(f.pytorch_from, sizeof(f.pytorch_from), "--pytorch-reserved");
		else
			pytorch_from_sidecar(o.path, cfg->expandable_segments, &f);
		/* A trace the reported device could not hold has no fit below it. */
		complete = r.ooms || fit_search(&tp, cfg, o.api, r.peak_live, st.peak_reserved_bytes,
						cfg->sim_memory, &f);
	}
	if (complete)
		print_report(&r, o.path, secs, o.json, o.fit ? &f : NULL);
	free(tp.ev);
	replay_close(&r);
	return complete ? EXIT_COMPLETE : EXIT_BAD_INPUT;
}
