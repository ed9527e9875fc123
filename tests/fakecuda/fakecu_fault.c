/* tests/fakecuda/fakecu_fault.c - failures injected into driver calls
 * (issue 36; tests/integration/run_faults.py).
 *
 * FAKECUDA_FAIL=function[,function...]:probability:seed makes each call of
 * a named driver function fail with CUDA_ERROR_UNKNOWN with the given
 * probability (0 to 1), drawn from a generator seeded with seed, instead of
 * doing anything. Only calls that are not the program's own fail: a call
 * made while the fake runtime is inside one of its own driver calls
 * (fakecu_export_table.program_call) is the program's, and never fails; the
 * rest are the calls the preloaded library makes itself (its backend), so
 * that a program's own error checks do not see the injected failures and
 * what is tested is how the library degrades. The names are those cuda.h
 * declares (cuEventRecord, cuStreamWaitEvent, cuCtxSynchronize, cuMemFree,
 * cuMemUnmap, cuMemRelease, cuEventQuery, cuEventSynchronize,
 * cuStreamQuery, cuEventCreate); each ABI of a function counts as it.
 * A malformed value is refused on stderr and injects nothing. The number
 * of failures injected goes into FAKECUDA_USAGE_AT_EXIT's JSON
 * (injected_faults).
 */
#include "fakecu_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FK_FAIL_NAMES 16

static struct {
	pthread_once_t once;
	pthread_mutex_t lock;
	int n;
	char names[FK_FAIL_NAMES][40];
	double p;
	uint64_t state;
	atomic_ulong injected;
} fkf = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

/* Depth of the fake runtime's own driver calls on this thread. */
static _Thread_local int fk_program_depth;

void fk_program_call(int delta)
{
	fk_program_depth += delta;
}

static void fk_fail_parse(void)
{
	const char *e = secure_getenv("FAKECUDA_FAIL");
	if (!e || !*e)
		return;
	char buf[512];
	if (strlen(e) >= sizeof(buf))
		goto bad;
	strcpy(buf, e);
	char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2 || strchr(c2 + 1, ':'))
		goto bad;
	*c1 = *c2 = '\0';
	char *end;
	double p = strtod(c1 + 1, &end);
	if (end == c1 + 1 || *end || !(p >= 0 && p <= 1))
		goto bad;
	unsigned long long seed = strtoull(c2 + 1, &end, 10);
	if (end == c2 + 1 || *end)
		goto bad;
	int n = 0;
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == FK_FAIL_NAMES || strlen(t) >= sizeof(fkf.names[0]))
			goto bad;
		strcpy(fkf.names[n++], t);
	}
	if (!n)
		goto bad;
	fkf.n = n;
	fkf.p = p;
	fkf.state = seed * 0x9e3779b97f4a7c15ull + 1;
	return;
bad:
	fprintf(stderr, "fakecuda: FAKECUDA_FAIL=%s refused: function[,function...]:probability:seed\n", e);
}

/* Whether this call of fn (cuda.h's base name) fails. */
bool fk_fail(const char *fn)
{
	pthread_once(&fkf.once, fk_fail_parse);
	if (!fkf.n || fk_program_depth > 0)
		return false;
	bool named = false;
	for (int i = 0; i < fkf.n && !named; i++)
		named = strcmp(fkf.names[i], fn) == 0;
	if (!named)
		return false;
	pthread_mutex_lock(&fkf.lock);
	uint64_t x = fkf.state; /* xorshift64* */
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	fkf.state = x;
	pthread_mutex_unlock(&fkf.lock);
	bool fail = (double)((x * 0x2545f4914f6cdd1dull) >> 11) / (double)(1ull << 53) < fkf.p;
	if (fail)
		atomic_fetch_add(&fkf.injected, 1);
	return fail;
}

unsigned long fk_faults_injected(void)
{
	return atomic_load(&fkf.injected);
}
