/* config/env.c - the process environment: the only getenv in the project.
 *
 * Owns the process-wide configuration. cm_config_get reads
 * CACHEMALLOC_CONF and CACHEMALLOC_SIM_MEMORY exactly once (pthread_once),
 * and whether NVTX_INJECTION64_PATH (the NVTX tool compute-sanitizer
 * names; docs/design.md, "Blocks visible to compute-sanitizer") is set,
 * builds the configuration, reports bad entries on stderr, and from then on
 * hands out the same immutable cm_config. The decision itself lives in
 * cm_config_from_env, which takes the strings and the secure flag as
 * arguments so that tests can drive it without touching the environment.
 *
 * It also gathers what %p, %h and %r stand for in the output paths (the
 * process id, the host name, the launcher's rank variable) and has
 * config/path.c expand them once.
 *
 * Invariant: under secure execution (AT_SECURE: setuid, setgid, file
 * capabilities) neither variable is used, because an unprivileged caller
 * could otherwise point oom_snapshot or stats at a file the program may
 * write; one line says so when either is set.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#define CM_ENV_CONF "CACHEMALLOC_CONF"
#define CM_ENV_SIM "CACHEMALLOC_SIM_MEMORY"
#define CM_ENV_NVTX "NVTX_INJECTION64_PATH"

static cm_config cm_env_config;
static const char *cm_env_text = ""; /* CACHEMALLOC_CONF as read */
static pthread_once_t cm_env_once = PTHREAD_ONCE_INIT;

static void cm_env_report_secure(const char *conf, const char *sim, FILE *err)
{
	const char *names;

	if (!err || (!conf && !sim))
		return;
	names = conf && sim ? CM_ENV_CONF " and " CM_ENV_SIM
		: conf      ? CM_ENV_CONF
			    : CM_ENV_SIM;
	fprintf(err, "cachemalloc: ignoring %s: the program runs with secure "
		"execution (AT_SECURE, e.g. setuid); using the defaults\n", names);
}

int cm_config_from_env(cm_config *cfg, const char *conf, const char *sim_memory,
		       bool secure, FILE *err)
{
	cm_config_defaults(cfg);
	if (secure) {
		cm_env_report_secure(conf, sim_memory, err);
		return 0;
	}
	return cm_config_parse(cfg, conf, err) +
	       cm_config_parse_sim_memory(cfg, sim_memory, err);
}

/* %p, %h and %r of the output paths (config/path.c). */
static void cm_env_path_ids(cm_path_ids *ids)
{
	const char *const ranks[4] = { getenv("RANK"), getenv("OMPI_COMM_WORLD_RANK"),
				       getenv("PMI_RANK"), getenv("SLURM_PROCID") };

	ids->pid = (long)getpid();
	if (gethostname(ids->host, sizeof ids->host) != 0)
		strcpy(ids->host, "localhost");
	ids->host[sizeof ids->host - 1] = '\0';
	cm_config_rank(ranks, ids->rank);
}

static void cm_env_load(void)
{
	cm_path_ids ids;

	bool secure = getauxval(AT_SECURE) != 0;

	/* secure_getenv: a test tool interposes getenv to see whether NVTX
	 * itself looked for a tool (tests/integration/fakenvtx.c). */
	const char *nvtx = secure_getenv(CM_ENV_NVTX);

	const char *conf = getenv(CM_ENV_CONF);

	const char *sim = getenv(CM_ENV_SIM);

	/* Parsed once quietly for log_level, which decides whether the bad
	 * entries (warnings) are shown when it is parsed again. */
	cm_config_from_env(&cm_env_config, conf, sim, secure, NULL);
	cm_config_from_env(&cm_env_config, conf, sim, secure,
			   cm_log_stream(&cm_env_config, CM_LOG_WARNINGS));
	if (conf && !secure && (conf = strdup(conf)))
		cm_env_text = conf;
	cm_env_path_ids(&ids);
	if (getenv("RANK") || getenv("OMPI_COMM_WORLD_RANK") || getenv("PMI_RANK") || getenv("SLURM_PROCID"))
		snprintf(cm_env_config.rank, sizeof cm_env_config.rank, "%s", ids.rank); /* metrics' label */
	cm_config_expand_paths(&cm_env_config, &ids, cm_log_stream(&cm_env_config, CM_LOG_ERRORS));
	/* Only whether a tool is named: NVTX itself loads it. */
	cm_env_config.nvtx_injection = nvtx && nvtx[0];
}

const cm_config *cm_config_get(void)
{
	pthread_once(&cm_env_once, cm_env_load);
	return &cm_env_config;
}

const char *cm_config_text(void)
{
	pthread_once(&cm_env_once, cm_env_load);
	return cm_env_text;
}
