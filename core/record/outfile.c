/* core/record/outfile.c - the one writer of the files the library writes.
 *
 * Whole files (snapshots, the metrics textfile, the exit report) go to a
 * new temporary file in the target's folder (mkstemp: O_EXCL), then take
 * the path: renamed over it (cm_outfile_write), or linked to it only where
 * no file is (cm_outfile_write_new: link(2) fails on an existing name, so
 * two writers never both win). A reader (node_exporter's textfile
 * collector, a viewer) never sees half a file, and a symlink at the path
 * is replaced, never followed. A file written as it goes (the event log)
 * is opened by cm_outfile_open_stream, O_NOFOLLOW, and filled with
 * cm_outfile_put. Every file is mode 0644; a failure is one line on err,
 * "cachemalloc: cannot write WHAT PATH: REASON" (none when err is NULL),
 * and the return value.
 * Wing: record. Calls no other file of the core.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

size_t cm_outfile_put(int fd, const void *buf, size_t len, int *err)
{
	const unsigned char *p = buf;
	size_t at = 0;
	while (at < len) {
		ssize_t w = write(fd, p + at, len - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*err = w < 0 ? errno : ENOSPC;
			break;
		}
		at += (size_t)w;
	}
	return at;
}

static void cm_outfile_failed(const char *what, const char *path, int err, FILE *to)
{
	if (to)
		fprintf(to, "cachemalloc: cannot write %s %s: %s\n", what, path, strerror(err));
}

/* The file at a new temporary name beside path, whole and mode 0644: its
 * name (malloc'd), or NULL after one line on err. */
static char *cm_outfile_temp(const char *path, const void *buf, size_t len, const char *what,
			     FILE *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 8);
	if (!tmp) {
		cm_outfile_failed(what, path, ENOMEM, err);
		return NULL;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	int e = 0, fd = mkstemp(tmp);
	if (fd < 0)
		e = errno;
	else if (cm_outfile_put(fd, buf, len, &e) == len && fchmod(fd, 0644) != 0)
		e = errno;
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	if (!e)
		return tmp;
	cm_outfile_failed(what, path, e, err);
	if (fd >= 0)
		unlink(tmp);
	free(tmp);
	return NULL;
}

bool cm_outfile_write(const char *path, const void *buf, size_t len, const char *what, FILE *err)
{
	char *tmp = cm_outfile_temp(path, buf, len, what, err);
	if (!tmp)
		return false;
	bool ok = rename(tmp, path) == 0;
	if (!ok) {
		cm_outfile_failed(what, path, errno, err);
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

bool cm_outfile_write_new(const char *path, const void *buf, size_t len, const char *what,
			  FILE *err)
{
	char *tmp = cm_outfile_temp(path, buf, len, what, err);
	if (!tmp)
		return false;
	bool ok = link(tmp, path) == 0;
	if (!ok && errno != EEXIST)
		cm_outfile_failed(what, path, errno, err);
	unlink(tmp);
	free(tmp);
	return ok;
}

int cm_outfile_open_stream(const char *path, const char *what, FILE *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		cm_outfile_failed(what, path, errno, err);
	return fd;
}
