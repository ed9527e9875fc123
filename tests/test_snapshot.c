/* tests/test_snapshot.c - what the snapshot writes for PyTorch's viewers,
 * on the simulated device: expandable segments' chunk maps and unmaps in
 * the trace (segment_map, segment_unmap), the oom entry's device_free,
 * the event log of a heap (log:PATH) and the stacks table's bookkeeping
 * under many live blocks (snapshot_stacks). The pickle itself is checked
 * by check_snapshot.py (argv[1]): shape and integer widths. */
#include <sys/stat.h>

#include "fixture.h"

static const char *check_script;
static char dir[64];

static void run_check(const char *path, const char *want)
{
	char cmd[1024];
	if (!check_script || system("python3 -c pass 2>/dev/null") != 0)
		return;
	snprintf(cmd, sizeof(cmd), "python3 %s %s %s", check_script, path, want);
	assert_int_equal(system(cmd), 0);
}

/* A file in the test folder, and the setting that names it. */
typedef struct target {
	char path[128];
	char conf[256];
} target;

/* dir/file, and the setting: before, that path, after. */
static target target_of(const char *file, const char *before, const char *after)
{
	target t;
	snprintf(t.path, sizeof(t.path), "%s/%s", dir, file);
	snprintf(t.conf, sizeof(t.conf), "%s%s%s", before, t.path, after);
	return t;
}

/* The pickle checked for want, then the fixture closed and the file gone. */
static void check_and_close(fixture *f, const target *t, const char *want)
{
	run_check(t->path, want);
	fixture_close(f);
	unlink(t->path);
}

/* At most this many lines after the header in a test's event log. */
#define LOG_MAX 8

/* The event log's lines after its header (checked), at most LOG_MAX. */
static int read_log(const char *path, char lines[LOG_MAX][256])
{
	char head[256];
	FILE *in = fopen(path, "r");
	assert_non_null(in);
	assert_non_null(fgets(head, sizeof(head), in));
	assert_string_equal(head, "Thread,Time,Action,Pointer,Size,Stream,Device\n");
	int n = 0;
	while (n < LOG_MAX && fgets(lines[n], sizeof(lines[n]), in))
		n++;
	assert_null(fgets(head, sizeof(head), in)); /* no line past LOG_MAX */
	fclose(in);
	return n;
}

/* A fixture of mem bytes whose setting names the target file. */
static target fixture_target(fixture *f, size_t mem, const char *file, const char *before,
			     const char *after)
{
	target t = target_of(file, before, after);
	fixture_open(f, mem, t.conf);
	return t;
}

static void test_expandable_trace(void **state)
{
	(void)state;
	fixture f;
	target t = fixture_target(&f, 64 * MiB, "exp.pickle",
				  "expandable_segments:True,oom_snapshot:", "");
	uintptr_t a = fixture_malloc_async(&f, 6 * MiB, CM_STREAM_LEGACY);
	assert_int_equal(cm_free_async(f.heap, a, CM_STREAM_LEGACY), CM_OK);
	cm_thread_flush(f.heap);
	assert_true(cm_release_cached(f.heap, 0) > 0); /* unmaps the free chunks */
	cm_stats st = fixture_stats(&f);
	assert_true(st.vmm_maps >= 3 && st.vmm_unmaps >= 3);
	assert_true(cm_snapshot_write(f.heap, t.path, stderr));
	check_and_close(&f, &t, "segment_map segment_unmap");
}

/* The oom entry says how much the device had free then (48 MiB here). */
static void test_oom_device_free(void **state)
{
	(void)state;
	fixture f;
	target t = fixture_target(&f, 64 * MiB, "oom.pickle", "oom_snapshot:", "");
	uintptr_t a = fixture_malloc(&f, 16 * MiB), p;
	FILE *quiet = fopen("/dev/null", "w");
	cm_heap_set_report_stream(f.heap, quiet);
	assert_int_equal(cm_malloc(f.heap, 0, 100 * MiB, &p), CM_ERR_OOM);
	fclose(quiet);
	cm_heap_set_report_stream(f.heap, NULL);
	fixture_free(&f, a); /* the snapshot was written at the oom */
	check_and_close(&f, &t, "oom --device-free");
}

/* Every allocation and free reaches the log; destroying the heap flushes it. */
static void test_event_log(void **state)
{
	(void)state;
	fixture f;
	target t = fixture_target(&f, 64 * MiB, "log.csv", "log:", "");
	cm_stream s = fixture_stream(&f, true);
	uintptr_t a = fixture_malloc(&f, 4000), b = fixture_malloc_async(&f, 3 * MiB, s);
	fixture_free(&f, a);
	assert_int_equal(cm_free_async(f.heap, b, s), CM_OK);
	fixture_close(&f);
	char lines[LOG_MAX][256];
	int allocs = 0, frees = 0, n = read_log(t.path, lines);
	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++) {
		allocs += strstr(lines[i], ",allocate,0x") != NULL;
		frees += strstr(lines[i], ",free,0x") != NULL;
		/* the size asked, as RMM logs it, not the block's 4096 */
		assert_true(strstr(lines[i], ",4000,0x") || strstr(lines[i], ",3145728,0x"));
		assert_non_null(strstr(lines[i], ",0\n"));
	}
	assert_int_equal(allocs, 2);
	assert_int_equal(frees, 2);
	unlink(t.path);
}

/* A process's devices apart in the log: a Device column. */
static void test_event_log_devices(void **state)
{
	(void)state;
	target t = target_of("log2.csv", "log:", "");
	cm_config cfg;
	cm_config_defaults(&cfg);
	assert_int_equal(cm_config_parse(&cfg, t.conf, stderr), 0);
	sim_options opt = {.devices = 2, .capacity = 64 * MiB};
	sim *sm = sim_create(&opt);
	cm_heap *h;
	assert_int_equal(cm_heap_create(sim_backend(sm), &cfg, &h), CM_OK);
	uintptr_t a, b;
	assert_int_equal(cm_malloc(h, 0, 1000, &a), CM_OK);
	assert_int_equal(cm_malloc(h, 1, 5000, &b), CM_OK);
	assert_int_equal(cm_free(h, a), CM_OK);
	assert_int_equal(cm_free(h, b), CM_OK);
	cm_heap_destroy(h);
	sim_destroy(sm);
	char lines[LOG_MAX][256];
	int on[2] = {0, 0}, n = read_log(t.path, lines);
	for (int i = 0; i < n; i++) {
		bool first = strstr(lines[i], ",1000,0x") != NULL;
		assert_true(first || strstr(lines[i], ",5000,0x"));
		assert_non_null(strstr(lines[i], first ? ",0\n" : ",1\n"));
		on[!first]++;
	}
	assert_int_equal(on[0], 2);
	assert_int_equal(on[1], 2);
	unlink(t.path);
}

/* 20000 live blocks with stacks, half freed in a scattered order, the rest
 * reused: the table stays consistent (every live block keeps its stack,
 * no freed one has one), which the snapshot's frames show. */
static void test_stacks_table(void **state)
{
	(void)state;
	enum { N = 20000 };
	fixture f;
	target t = fixture_target(&f, 1024 * MiB, "stacks.pickle", "oom_snapshot:",
				  ",snapshot_stacks:true");
	static uintptr_t p[N];
	for (int i = 0; i < N; i++)
		p[i] = fixture_malloc(&f, 512);
	for (int i = 0; i < N; i += 2)
		fixture_free(&f, p[(i * 7919) % N]);
	for (int i = 0; i < N; i += 2)
		p[i] = 0;
	assert_true(cm_snapshot_write(f.heap, t.path, stderr));
	run_check(t.path, "--frames 10000");
	for (int i = 1; i < N; i += 2)
		fixture_free(&f, p[i]);
	fixture_close(&f);
	unlink(t.path);
}

int main(int argc, char **argv)
{
	check_script = argc > 1 ? argv[1] : NULL;
	snprintf(dir, sizeof(dir), "/tmp/cm-snapshot-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expandable_trace),
		cmocka_unit_test(test_oom_device_free),
		cmocka_unit_test(test_event_log),
		cmocka_unit_test(test_event_log_devices),
		cmocka_unit_test(test_stacks_table),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return rc;
}
