/* core/record/outfile.c - writing an output file whole: to a new temporary file
 * in the target's folder, then renamed over the path.
 *
 * The snapshots and the metrics textfile are written this way, so a reader
 * (node_exporter's textfile collector, a viewer) never sees half a file,
 * and a symlink at the path is replaced, never followed. The temporary
 * file is created with O_EXCL (mkstemp), mode 0644. A failure is one line
 * on err (none when err is NULL) and the return value.
 * Wing: record. Calls no other file of the core.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

static bool cm_outfile_put(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	for (size_t at = 0; at < len;) {
		ssize_t w = write(fd, p + at, len - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		at += (size_t)w;
	}
	return true;
}

bool cm_outfile_write(const char *path, const void *buf, size_t len, const char *what, FILE *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 8);
	if (!tmp) {
		if (err)
			fprintf(err, "cachemalloc: no memory to write %s %s\n", what, path);
		return false;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	int fd = mkstemp(tmp);
	bool ok = fd >= 0 && cm_outfile_put(fd, buf, len) && fchmod(fd, 0644) == 0;
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		if (err)
			fprintf(err, "cachemalloc: cannot write %s %s: %s\n", what, path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	return ok;
}
