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
 * Every series also has the labels pid and host, and rank where a
 * launcher's variable names one (config/env.c): with one file per process
 * (the README's recipe) no two files hold the same series, which
 * node_exporter's textfile collector would refuse (issue 33). The info
 * series cachemalloc_info (value 1) names the version and configuration.
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

#include <unistd.h>

#include "serve.h"

#ifndef CM_VERSION
#define CM_VERSION "unknown"
#endif

static void cm_metrics_family(FILE *out, const char *name, const char *suffix,
			      const char *type, const char *help)
{
	fprintf(out, "# HELP cachemalloc_%s%s %s\n# TYPE cachemalloc_%s%s %s\n", name, suffix, help,
		name, suffix, type);
}

/* s as a label value: backslash, quote and newline escaped. */
static void cm_metrics_escape(char *out, size_t cap, const char *s)
{
	size_t n = 0;
	for (; *s && n + 3 < cap; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			out[n++] = '\\';
		out[n++] = *s == '\n' ? 'n' : *s;
	}
	out[n] = '\0';
}

/* The labels after device: pid, host, and rank where one is set. */
static void cm_metrics_labels(const cm_heap *h, char *out, size_t cap)
{
	char host[256], esc[520];
	if (gethostname(host, sizeof host) != 0)
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';
	cm_metrics_escape(esc, sizeof esc, host);
	int n = snprintf(out, cap, ",pid=\"%ld\",host=\"%s\"", (long)getpid(), esc);
	if (h->cfg.rank[0] && n > 0 && (size_t)n < cap)
		snprintf(out + n, cap - (size_t)n, ",rank=\"%s\"", h->cfg.rank);
}

/* cachemalloc_info: the version and the configuration, value 1. */
static void cm_metrics_info(const cm_heap *h, FILE *out, const char *labels)
{
	char conf[2 * CM_CONFIG_PATH_MAX];
	cm_metrics_escape(conf, sizeof conf, cm_config_text());
	cm_metrics_family(out, "info", "", "gauge",
			  "the library's version and configuration (CACHEMALLOC_CONF), value 1");
	fprintf(out, "cachemalloc_info{%s,version=\"%s\",conf=\"%s\",share=\"%s\","
		     "share_wait_ms=\"%u\",idle_release_s=\"%u\"} 1\n",
		labels + 1, CM_VERSION, conf, h->cfg.share ? "on" : "off", h->cfg.share_wait_ms,
		h->cfg.idle_release_s);
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
	char labels[600];
	cm_metrics_labels(h, labels, sizeof labels);
	cm_metrics_info(h, out, labels);
#define CM_X(field, desc)                                                                        \
	cm_metrics_family(out, #field, "_total", "counter", desc);                               \
	for (int i = 0; i < n; i++)                                                              \
		fprintf(out, "cachemalloc_" #field "_total{device=\"%d\"%s} %" PRIu64 "\n",      \
			dev[i], labels, st[i].field);
	CM_STATS_COUNTERS(CM_X)
#undef CM_X
#define CM_X(field, desc)                                                                         \
	cm_metrics_family(out, #field, "", "gauge", desc);                                        \
	for (int i = 0; i < n; i++)                                                               \
		fprintf(out, "cachemalloc_" #field "{device=\"%d\"%s} %" PRIu64 "\n", dev[i],     \
			labels, st[i].field);                                                     \
	cm_metrics_family(out, "peak_" #field, "", "gauge", "peak of: " desc);                   \
	for (int i = 0; i < n; i++)                                                               \
		fprintf(out, "cachemalloc_peak_" #field "{device=\"%d\"%s} %" PRIu64 "\n",       \
			dev[i], labels, st[i].peak_##field);
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
	pthread_setname_np(pthread_self(), "cm-metrics");
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
