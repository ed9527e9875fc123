/* core/serve/metrics.c - the statistics as a Prometheus textfile (metrics:PATH).
 *
 * The format is Prometheus' text exposition format, for node_exporter's
 * textfile collector or any scraper that reads a file: one family per
 * field of stats.h, named cachemalloc_<field>, with a device label. The
 * counters (CM_STATS_COUNTERS) end in _total; the levels are gauges, each
 * with its peak as cachemalloc_peak_<field>. The device label is the
 * device's ordinal: the contexts of one device (the core's devices are
 * context slots) are summed into one series, their peaks too (an upper
 * bound). Sizes are in bytes (the base
 * unit). The file is written whole (outfile.c) every metrics_period
 * seconds by a thread of its own, and once more at exit (the library's
 * destructor calls cm_metrics_write).
 *
 * Invariant: the thread takes no lock but the device locks that
 * cm_stats_get takes, one at a time, and holds none while writing.
 * Wing: serve. Calls in its own wing heap.c; the mem and record wings.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve.h"

static void cm_metrics_family(FILE *out, const char *name, const char *suffix,
			      const char *type, const char *help)
{
	fprintf(out, "# HELP cachemalloc_%s%s %s\n# TYPE cachemalloc_%s%s %s\n", name, suffix, help,
		name, suffix, type);
}

/* A device (context slot) the program used; the others are left out. */
static bool cm_metrics_used(const cm_stats *st)
{
	return st->alloc_calls || st->free_calls || st->raw_alloc_calls || st->reserved_bytes;
}

static void cm_metrics_text(cm_heap *h, FILE *out)
{
	size_t cap = h->ndev > 0 ? (size_t)h->ndev : 1;
	cm_stats *st = calloc(cap, sizeof(*st));
	int *dev = calloc(cap, sizeof(*dev));
	int n = 0;
	if (!st || !dev)
		goto out;
	for (int i = 0; i < h->ndev; i++) {
		cm_stats one;
		cm_stats_get(h, i, &one);
		if (!cm_metrics_used(&one))
			continue;
		int ord = cm_device_ordinal(h, i), k = 0;
		while (k < n && dev[k] != ord)
			k++;
		if (k == n) {
			memset(&st[n], 0, sizeof(st[n]));
			dev[n++] = ord;
		}
		cm_stats_add(&st[k], &one); /* contexts of one device: one series */
	}
	if (n == 0 && h->ndev > 0) { /* nothing used yet: zeros, so every family is there */
		dev[0] = cm_device_ordinal(h, 0);
		n = 1;
	}
#define CM_X(field, desc)                                                                        \
	cm_metrics_family(out, #field, "_total", "counter", desc);                               \
	for (int i = 0; i < n; i++)                                                              \
		fprintf(out, "cachemalloc_" #field "_total{device=\"%d\"} %" PRIu64 "\n", dev[i], \
			st[i].field);
	CM_STATS_COUNTERS(CM_X)
#undef CM_X
#define CM_X(field, desc)                                                                         \
	cm_metrics_family(out, #field, "", "gauge", desc);                                        \
	for (int i = 0; i < n; i++)                                                               \
		fprintf(out, "cachemalloc_" #field "{device=\"%d\"} %" PRIu64 "\n", dev[i],         \
			st[i].field);                                                             \
	cm_metrics_family(out, "peak_" #field, "", "gauge", "peak of: " desc);                   \
	for (int i = 0; i < n; i++)                                                               \
		fprintf(out, "cachemalloc_peak_" #field "{device=\"%d\"} %" PRIu64 "\n", dev[i],    \
			st[i].peak_##field);
	CM_STATS_LEVELS(CM_X)
#undef CM_X
out:
	free(st);
	free(dev);
}

bool cm_metrics_write(cm_heap *h, const char *path, FILE *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out) {
		if (err)
			fprintf(err, "cachemalloc: no memory to write the metrics %s\n", path);
		return false;
	}
	cm_metrics_text(h, out);
	bool ok = fclose(out) == 0 && buf;
	ok = ok && cm_outfile_write(path, buf, len, "the metrics", err);
	free(buf);
	return ok;
}

typedef struct cm_metrics_job {
	cm_heap *h;
	unsigned period;
	char path[CM_CONFIG_PATH_MAX];
} cm_metrics_job;

static void *cm_metrics_thread(void *arg)
{
	cm_metrics_job *job = arg;
	bool reported = false;
	for (;;) {
		struct timespec ts = {(time_t)job->period, 0};
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		/* One failure is reported; the next writes stay quiet until one succeeds. */
		bool ok = cm_metrics_write(job->h, job->path, reported ? NULL : stderr);
		reported = !ok;
	}
	return NULL;
}

bool cm_metrics_start(cm_heap *h, const char *path, unsigned period)
{
	static cm_metrics_job job; /* one per process: the process's heap */
	pthread_t t;
	sigset_t all, old;
	job.h = h;
	job.period = period ? period : 1;
	snprintf(job.path, sizeof(job.path), "%s", path);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&t, NULL, cm_metrics_thread, &job);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		fprintf(stderr, "cachemalloc: metrics: cannot start its thread (%s); writing at exit "
				"only\n", strerror(e));
		return false;
	}
	pthread_detach(t);
	return true;
}
