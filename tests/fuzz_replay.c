/* tests/fuzz_replay.c - libFuzzer target for the trace replayer's input
 * handling: each input goes, through a memory file, to the replayer's own
 * main() (scripts/replay.c, included whole), which must return 0 or 1 and
 * never read out of bounds (build with -Db_sanitize=address,undefined).
 * Built with -Dfuzz=enabled by a compiler that has -fsanitize=fuzzer; the
 * commands are in README.md ("Fuzzing"). */
#define main replay_main
#include "../scripts/replay.c"
#undef main

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("trace", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	char *argv[] = {"cachemalloc-replay", path, "--json", NULL};
	int rc = replay_main(3, argv);
	if (rc != 0 && rc != 1)
		abort();
	return 0;
}
