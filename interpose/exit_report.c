/* interpose/exit_report.c - what the library writes when the process
 * exits (options stats, exit_summary, metrics, log): the statistics as
 * text or JSON, the one-line summary, the last metrics and the event log's
 * tail. No CUDA call here: the runtime may be gone. Calls library.c (the
 * heap, the levels seen) and the core's writers.
 */
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "library.h"

static void cm_lib_print_levels(FILE *out, bool json)
{
	static const char *names[] = {"runtime", "driver", "lookups"};
	unsigned levels = atomic_load(&cm_lib_levels);
	const char *sep = "";
	for (unsigned i = 0; i < 3; i++) {
		if (levels & (1u << i)) {
			fprintf(out, json ? "%s\"%s\"" : "%s%s", sep, names[i]);
			sep = ", ";
		}
	}
	if (!json && !levels)
		fputs("none", out);
}

/* Whether PyTorch is in the process: an object named libtorch* or libc10*
 * (libtorch_cuda.so, libc10_cuda.so) is loaded. cachemalloc check hints at
 * PYTORCH_NO_CUDA_MEMORY_CACHING=1 only then. */
static int cm_lib_torch_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
	const char *base = slash ? slash + 1 : info->dlpi_name;
	return base && (strncmp(base, "libtorch", 8) == 0 || strncmp(base, "libc10", 6) == 0);
}

/* The report, written whole (a temporary file renamed over the path, so
 * that a full disk never leaves it empty or cut). A process that used no
 * device writes its report only where none is (cm_outfile_write_new), so
 * that a shell or a tool started beside the program does not overwrite
 * the program's statistics at a shared path. */
static void cm_lib_write_json(cm_heap *h, const cm_stats *st, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		cm_log(cm_config_get(), CM_LOG_ERRORS, "cachemalloc: cannot write statistics to %s: %s\n",
		       path, strerror(errno));
		return;
	}
	fprintf(f, "{\"pid\": %ld, \"loaded\": true, \"device_used\": %s, \"torch\": %s, "
		"\"levels\": [", (long)getpid(), h ? "true" : "false",
		dl_iterate_phdr(cm_lib_torch_object, NULL) ? "true" : "false");
	cm_lib_print_levels(f, true);
	fputs("], ", f);
	cm_stats_print_json_fields(st, f);
	fputs("}\n", f);
	if (fclose(f) != 0) {
		cm_log(cm_config_get(), CM_LOG_ERRORS,
		       "cachemalloc: cannot write statistics to %s: out of memory\n", path);
		free(buf);
		return;
	}
	FILE *err = cm_log_stream(cm_config_get(), CM_LOG_ERRORS);
	if (h)
		cm_outfile_write(path, buf, len, "statistics to", err);
	else
		cm_outfile_write_new(path, buf, len, "statistics to", err);
	free(buf);
}

static void cm_lib_print_summary(cm_heap *h, const cm_stats *st)
{
	flockfile(stderr);
	fprintf(stderr, "cachemalloc: pid %ld: ", (long)getpid());
	if (h) {
		cm_stats_print_summary(st, stderr);
		fputs("; levels: ", stderr);
		cm_lib_print_levels(stderr, false);
		fputc('\n', stderr);
	} else {
		fputs("loaded; no CUDA device was used (no allocation reached the library)\n", stderr);
	}
	funlockfile(stderr);
}

__attribute__((destructor)) static void cm_lib_fini(void)
{
	cm_heap *h = atomic_load(&cm_lib_heap_ptr);
	if (cm_lib_in_forked_child())
		return;
	const cm_config *cfg = cm_config_get();
	cm_stats st = {0};
	if (h)
		cm_stats_get(h, -1, &st);
	if (cfg->stats == CM_STATS_EXIT) {
		if (h)
			cm_stats_print_text(&st, stderr);
		else
			fprintf(stderr, "cachemalloc statistics: none (pid %ld used no CUDA device)\n",
				(long)getpid());
	} else if (cfg->stats == CM_STATS_EXIT_JSON) {
		cm_lib_write_json(h, &st, cfg->stats_path);
	}
	if (cfg->exit_summary)
		cm_lib_print_summary(h, &st);
	if (!h)
		return;
	if (cfg->metrics_path[0])
		cm_metrics_write(h, cfg->metrics_path, cm_log_stream(cfg, CM_LOG_ERRORS));
	cm_eventlog_flush(h);
	/* The heap is not destroyed: the driver frees device memory at exit,
	 * and CUDA must not be called once the runtime unloads. */
}
