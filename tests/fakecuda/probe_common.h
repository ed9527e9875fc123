/* tests/fakecuda/probe_common.h - what the two probes share: each answer
 * printed as one `key: value` line and kept, and the comparison of the
 * kept answers with a reference file (`#` and `info.` lines skipped).
 * Header-only, so that a probe builds alone on a GPU machine. */
#ifndef CM_PROBE_COMMON_H
#define CM_PROBE_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char probe_out[64 * 1024];
static size_t probe_len;

static void say(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const char *key, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n = snprintf(line, sizeof(line), "%s: ", key);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	printf("%s\n", line);
	fflush(stdout);
	size_t len = strlen(line);
	if (probe_len + len + 2 < sizeof(probe_out)) {
		memcpy(probe_out + probe_len, line, len);
		probe_out[probe_len + len] = '\n';
		probe_len += len + 1;
		probe_out[probe_len] = '\0';
	}
}

static const char *find_key(const char *line, size_t klen)
{
	for (const char *q = probe_out; q && *q;) {
		const char *end = strchr(q, '\n');
		if (strncmp(q, line, klen) == 0)
			return q;
		q = end ? end + 1 : NULL;
	}
	return NULL;
}

static int compare(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int bad = 0, seen = 0;

	if (!f) {
		printf("FAIL probe: cannot open the reference %s\n", path);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *colon = strstr(line, ": ");
		if (!colon || line[0] == '#' || strncmp(line, "info.", 5) == 0)
			continue;
		seen++;
		size_t klen = (size_t)(colon - line) + 2;
		const char *mine = find_key(line, klen);
		if (!mine) {
			printf("FAIL probe: %.*s expected %s, not printed\n", (int)(klen - 2), line,
			       line + klen);
			bad++;
			continue;
		}
		size_t mlen = strcspn(mine, "\n");
		if (mlen != strlen(line) || strncmp(mine, line, mlen) != 0) {
			printf("FAIL probe: %.*s: expected %s, got %.*s\n", (int)(klen - 2), line,
			       line + klen, (int)(mlen - klen), mine + klen);
			bad++;
		}
	}
	fclose(f);
	printf("probe: %d of %d reference answers differ\n", bad, seen);
	return bad ? 1 : 0;
}

#endif
