/* config/path.c - the names of the output files: %p, %h, %r expanded.
 *
 * Every path the library writes (stats:exit-json, oom_snapshot, log,
 * metrics) goes through cm_config_expand_paths once, when the
 * configuration is read, so that the processes of one job (torchrun,
 * mpirun, two programs side by side) each write their own file, as LLVM's
 * LLVM_PROFILE_FILE does: %p the process id, %h the host name, %r the
 * rank the launcher gave (cm_path_ids, gathered by env.c), %% a '%'. Any
 * other '%' sequence is kept as written.
 *
 * Invariant: an expansion that does not fit in CM_CONFIG_PATH_MAX leaves
 * that output off (the path emptied) with one line on err; the others
 * still apply.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

/* Appends s to out[*len]; false when it does not fit. */
static bool cm_path_put(char *out, size_t *len, const char *s, size_t n)
{
	if (*len + n >= CM_CONFIG_PATH_MAX)
		return false;
	memcpy(out + *len, s, n);
	*len += n;
	return true;
}

bool cm_config_expand_path(const char *pattern, const cm_path_ids *ids, char *out)
{
	char pid[24];
	size_t len = 0;
	bool ok = true;

	snprintf(pid, sizeof pid, "%ld", ids->pid);
	for (const char *c = pattern; *c && ok; c++) {
		const char *sub = NULL;

		if (c[0] == '%') {
			switch (c[1]) {
			case 'p': sub = pid; break;
			case 'h': sub = ids->host; break;
			case 'r': sub = ids->rank; break;
			case '%': sub = "%"; break;
			default: break;
			}
		}
		if (sub) {
			ok = cm_path_put(out, &len, sub, strlen(sub));
			c++;
		} else {
			ok = cm_path_put(out, &len, c, 1);
		}
	}
	out[ok ? len : 0] = '\0';
	return ok;
}

static void cm_path_expand_one(char *path, const char *what, const cm_path_ids *ids, FILE *err)
{
	char out[CM_CONFIG_PATH_MAX];

	if (!path[0] || !strchr(path, '%'))
		return;
	if (cm_config_expand_path(path, ids, out)) {
		memcpy(path, out, strlen(out) + 1);
		return;
	}
	if (err)
		fprintf(err, "cachemalloc: CACHEMALLOC_CONF: %s: the path with %%p, %%h and %%r "
			"expanded is longer than %d bytes; %s is off\n", what,
			CM_CONFIG_PATH_MAX - 1, what);
	path[0] = '\0';
}

void cm_config_expand_paths(cm_config *cfg, const cm_path_ids *ids, FILE *err)
{
	cm_path_expand_one(cfg->stats_path, "stats", ids, err);
	if (!cfg->stats_path[0] && cfg->stats == CM_STATS_EXIT_JSON)
		cfg->stats = CM_STATS_OFF;
	cm_path_expand_one(cfg->oom_snapshot, "oom_snapshot", ids, err);
	cm_path_expand_one(cfg->log_path, "log", ids, err);
	cm_path_expand_one(cfg->metrics_path, "metrics", ids, err);
}

static bool cm_path_is_number(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n > 0 && n < 24 && s[n] == '\0';
}

void cm_config_rank(const char *const values[4], char rank[24])
{
	for (int i = 0; i < 4; i++) {
		if (values[i] && cm_path_is_number(values[i])) {
			strcpy(rank, values[i]);
			return;
		}
	}
	strcpy(rank, "0");
}
