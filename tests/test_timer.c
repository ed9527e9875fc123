/* tests/test_timer.c - the diagnostic driver-call timer (interpose/
 * backend_timer.c, meson option driver_call_timer), over a table of stub
 * operations: it counts each call, its time and the calls of 5 us or
 * more, returns what the real operation returned, and reports only the
 * operations that were called. A call meant to be fast may still take
 * 5 us on a loaded host or under TSan, so the test asserts that the slow
 * calls are counted, never that no other call was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "backend_timer.h"

static void sleep_us(long us)
{
	struct timespec ts = {0, us * 1000};
	while (nanosleep(&ts, &ts) != 0)
		;
}

static int queries;
static cm_status stub_event_query(void *ctx, int dev, cm_event ev)
{
	(void)ctx, (void)dev, (void)ev;
	if (++queries == 3)
		sleep_us(200); /* the slow one */
	return CM_NOT_READY;
}

static cm_status stub_event_record(void *ctx, int dev, cm_event ev, cm_stream s)
{
	(void)ctx, (void)dev, (void)ev, (void)s;
	return CM_OK;
}

/* The report's figures for one operation; false if it has no line. */
static bool report_line(const char *report, const char *op, unsigned long long f[5])
{
	char key[64];
	snprintf(key, sizeof key, "backend_timer %s calls ", op);
	const char *p = strstr(report, key);
	return p && sscanf(p + strlen(key), "%llu ns %llu slow %llu slow_ns %llu max_ns %llu",
			   &f[0], &f[1], &f[2], &f[3], &f[4]) == 5;
}

static void test_timer_counts_calls_and_slow_ones(void **state)
{
	(void)state;
	cm_backend be = {.event_query = stub_event_query, .event_record = stub_event_record};
	cm_backend_timer_wrap(&be);
	assert_ptr_not_equal(be.event_query, stub_event_query);
	for (int i = 0; i < 5; i++)
		assert_int_equal(be.event_query(NULL, 0, NULL), CM_NOT_READY);
	assert_int_equal(be.event_record(NULL, 0, NULL, 0), CM_OK);
	assert_int_equal(queries, 5);

	char report[2048] = {0};
	FILE *out = fmemopen(report, sizeof report - 1, "w");
	assert_non_null(out);
	cm_backend_timer_report(out);
	fclose(out);
	unsigned long long q[5], r[5], unused[5];
	assert_true(report_line(report, "event_query", q));
	assert_int_equal(q[0], 5);
	assert_true(q[2] >= 1 && q[2] <= 5); /* the 200 us call at least */
	assert_true(q[3] >= 200000);         /* its time */
	assert_true(q[4] >= 200000 && q[4] <= q[3] && q[3] <= q[1]);
	assert_true(report_line(report, "event_record", r));
	assert_int_equal(r[0], 1);
	assert_true(r[2] <= 1 && r[1] >= r[4]);
	assert_false(report_line(report, "mem_alloc", unused)); /* never called */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timer_counts_calls_and_slow_ones),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
