/* config/config.h - the parsed, immutable configuration.
 *
 * config/ is the only directory that reads the environment. It parses
 * CACHEMALLOC_CONF ("key:value,key:value", PyTorch's syntax where the keys
 * overlap) and CACHEMALLOC_SIM_MEMORY once; everything else reads the
 * resulting cm_config and never changes it.
 *
 * Bad input never aborts the host program: each bad entry produces one line
 * on the error stream naming the key, the value and what is accepted, and
 * the rest of the configuration still applies.
 */
#ifndef CM_CONFIG_H
#define CM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* roundup_power2_divisions: one entry per power-of-two size interval,
 * starting at 1 MiB (index 0 covers everything up to 2 MiB), as PyTorch. */
#define CM_ROUNDUP_INTERVALS 16
#define CM_CONFIG_PATH_MAX 4096
/* memory_limit_mb's list form names devices 0 .. CM_LIMIT_DEVICES - 1. */
#define CM_LIMIT_DEVICES 64
#define CM_METRICS_PERIOD_DEFAULT 10

typedef enum cm_free_fence {
	CM_FENCE_GPU,  /* events and stream waits order reuse (default) */
	CM_FENCE_HOST, /* reuse only after a device-wide synchronization */
	CM_FENCE_NONE, /* trust stream order, like PyTorch: unsafe across streams */
} cm_free_fence;

typedef enum cm_stats_mode {
	CM_STATS_OFF,
	CM_STATS_EXIT,      /* text report on stderr at exit */
	CM_STATS_EXIT_JSON, /* JSON report written to stats_path at exit */
} cm_stats_mode;

typedef enum cm_nvtx_mode {
	CM_NVTX_AUTO, /* on when an NVTX tool is named (NVTX_INJECTION64_PATH) */
	CM_NVTX_ON,   /* on: NVTX finds a tool itself, or every call is a no-op */
	CM_NVTX_OFF,  /* never call NVTX */
} cm_nvtx_mode;

/* log_level: which of the library's own messages reach stderr. Reports
 * asked for (stats:exit, exit_summary, report_signal) are printed at every
 * level. */
typedef enum cm_log_level {
	CM_LOG_QUIET,    /* nothing */
	CM_LOG_ERRORS,   /* failures: an out-of-memory report, a file not written */
	CM_LOG_WARNINGS, /* and bad settings, fallbacks (default) */
	CM_LOG_INFO,     /* and one line when the cache starts */
} cm_log_level;

typedef struct cm_config {
	size_t max_split_size;             /* bytes; SIZE_MAX: no limit */
	/* max_non_split_rounding_mb: a free block of at least max_split_size
	 * serves a request only when it wastes less than this (bytes). */
	size_t max_non_split_rounding;
	unsigned roundup_divisions[CM_ROUNDUP_INTERVALS]; /* 0 or 1: none */
	double garbage_collection_threshold;   /* 0: off, else in (0, 1) */
	bool expandable_segments;
	size_t release_threshold;          /* idle bytes kept; SIZE_MAX: all */
	size_t max_pending;                /* bytes taken while frees await ordering; CM_PENDING_AUTO */
	double per_process_memory_fraction;    /* (0, 1]; 1: whole device */
	cm_free_fence free_fence;
	cm_stats_mode stats;
	char stats_path[CM_CONFIG_PATH_MAX];   /* for CM_STATS_EXIT_JSON */
	char oom_snapshot[CM_CONFIG_PATH_MAX]; /* empty: no snapshot */
	bool memgetinfo_counts_cache;
	bool track_submissions;
	int report_signal;                 /* 0: none, else SIGUSR1 or SIGUSR2 */
	cm_nvtx_mode nvtx_memory;          /* blocks as NVTX memory regions */
	bool nvtx_injection;               /* NVTX_INJECTION64_PATH is set (env.c) */
	size_t sim_memory;                 /* CACHEMALLOC_SIM_MEMORY, bytes */
	/* The user's tools (docs/design.md section 8). */
	char log_path[CM_CONFIG_PATH_MAX];     /* RMM event log; empty: none */
	char metrics_path[CM_CONFIG_PATH_MAX]; /* Prometheus textfile; empty: none */
	unsigned metrics_period;           /* seconds between metrics writes */
	size_t memory_limit;               /* bytes, every device; SIZE_MAX: none */
	size_t memory_limit_dev[CM_LIMIT_DEVICES]; /* 0: memory_limit applies */
	bool snapshot_stacks;              /* record return addresses per block */
	bool exit_summary;                 /* one line on stderr at exit */
	/* Pinned host memory (core/host/host.c). */
	size_t pinned_max_cached;          /* bytes; CM_PINNED_AUTO: 1/8 of RAM */
	bool pinned_use_cuda_host_register; /* malloc + cudaHostRegister */
	cm_log_level log_level;            /* messages on stderr (cm_log) */
	/* Sharing a device with other processes (core/share.c). */
	bool share;                        /* registry, listener, asking neighbours */
	unsigned share_wait_ms;            /* wait for neighbours' memory; 0: ask, no wait */
	unsigned idle_release_s;           /* give idle memory back after this; 0: never */
	char rank[24];                     /* a launcher's rank (env.c); "": none set */
} cm_config;

#define CM_SHARE_WAIT_MS_DEFAULT 1000u /* docs/design.md, "Sharing a device" */

#define CM_PINNED_AUTO SIZE_MAX
#define CM_PENDING_AUTO SIZE_MAX /* max_pending_mb:auto (core/order/fence.c, cm_pending_max) */
#define CM_MAX_PENDING_DEFAULT ((size_t)256 << 20) /* auto's ceiling, and pinned memory's bound */
/* max_non_split_rounding_mb: 20, PyTorch's default (kLargeBuffer). */
#define CM_NON_SPLIT_ROUNDING_DEFAULT ((size_t)20 << 20)

/* What %p, %h and %r stand for in an output path (config/path.c). */
typedef struct cm_path_ids {
	long pid;
	char host[256];
	char rank[24];   /* "0" when no launcher variable names one */
} cm_path_ids;

/* Expands pattern into out (CM_CONFIG_PATH_MAX bytes); false, with out
 * empty, when the result does not fit. */
bool cm_config_expand_path(const char *pattern, const cm_path_ids *ids, char *out);

/* Expands every output path of cfg; one that does not fit is turned off
 * with one line on err. */
void cm_config_expand_paths(cm_config *cfg, const cm_path_ids *ids, FILE *err);

/* The rank from the launchers' variables (RANK, OMPI_COMM_WORLD_RANK,
 * PMI_RANK, SLURM_PROCID: the first set to a decimal number), given their
 * values in that order (any may be NULL); "0" when none is. */
void cm_config_rank(const char *const values[4], char rank[24]);

/* The cap on what the cache reserves on device dev and on the total
 * cudaMemGetInfo reports (memory_limit_mb); SIZE_MAX: none. */
size_t cm_config_memory_limit(const cm_config *cfg, int dev);

/* The defaults, with no environment. */
void cm_config_defaults(cm_config *cfg);

/* Applies a CACHEMALLOC_CONF string on top of cfg. Writes one line to err
 * (if not NULL) per bad entry and returns how many there were. Good entries
 * apply even when others are bad. */
int cm_config_parse(cm_config *cfg, const char *text, FILE *err);

/* Parses a byte count with an optional K, M, G or T suffix (powers of
 * 1024). Returns false on anything else, including overflow. */
bool cm_config_parse_size(const char *text, size_t *out);

/* Applies a CACHEMALLOC_SIM_MEMORY string (a size, see above, > 0) to
 * cfg->sim_memory. NULL or blank changes nothing. A bad value writes one
 * line to err (if not NULL), keeps cfg and returns 1; else returns 0. */
int cm_config_parse_sim_memory(cm_config *cfg, const char *text, FILE *err);

/* Builds a configuration from the given environment values (either may be
 * NULL) and the secure-execution flag. Under secure execution both are
 * ignored with one line on err. Returns the number of bad entries. */
int cm_config_from_env(cm_config *cfg, const char *conf, const char *sim_memory,
		       bool secure, FILE *err);

/* The process configuration: read from the environment on first call
 * (thread-safe), immutable afterwards. */
const cm_config *cm_config_get(void);

/* The CACHEMALLOC_CONF text cm_config_get applied ("" when unset or
 * ignored), for reports that say which configuration they used. */
const char *cm_config_text(void);

/* The library's messages: printed on stderr when cfg's log_level is at
 * least level (CM_LOG_ERRORS, CM_LOG_WARNINGS or CM_LOG_INFO). */
void cm_log(const cm_config *cfg, cm_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* stderr when a message of this level is printed under cfg, else NULL: for
 * the functions that take an error stream (NULL: silent). */
FILE *cm_log_stream(const cm_config *cfg, cm_log_level level);

/* Writes the table of options (name, accepted values, default, description). */
void cm_config_print_options(FILE *out);

#endif
