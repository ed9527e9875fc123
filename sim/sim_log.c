/* sim/sim_log.c - the call log, the call counters and failure injection.
 *
 * Every call through the backend table counts in calls[] (atomic, never
 * reset) and is appended to a ring of the SIM_LOG_CAP most recent entries
 * (under log_lock; index 0 is the oldest retained). Failure injection
 * stores the ordinal of the call to fail, per kind; the call that draws
 * that ordinal claims it with a compare-and-swap, so exactly one call fails
 * even when several threads race.
 */
#include "sim_internal.h"

#include <stdlib.h>

static const char *const sim_call_names[SIM_CALL_KINDS] = {
	[SIM_MEM_ALLOC] = "mem_alloc",
	[SIM_MEM_FREE] = "mem_free",
	[SIM_MEM_GET_INFO] = "mem_get_info",
	[SIM_EVENT_CREATE] = "event_create",
	[SIM_EVENT_DESTROY] = "event_destroy",
	[SIM_EVENT_RECORD] = "event_record",
	[SIM_EVENT_QUERY] = "event_query",
	[SIM_EVENT_SYNCHRONIZE] = "event_synchronize",
	[SIM_STREAM_WAIT_EVENT] = "stream_wait_event",
	[SIM_STREAM_QUERY] = "stream_query",
	[SIM_STREAM_SYNCHRONIZE] = "stream_synchronize",
	[SIM_STREAM_IS_CAPTURING] = "stream_is_capturing",
	[SIM_DEVICE_SYNCHRONIZE] = "device_synchronize",
	[SIM_VMM_GRANULARITY] = "vmm_granularity",
	[SIM_VMM_RESERVE] = "vmm_reserve",
	[SIM_VMM_RELEASE] = "vmm_release",
	[SIM_VMM_CREATE] = "vmm_create",
	[SIM_VMM_DESTROY] = "vmm_destroy",
	[SIM_VMM_MAP] = "vmm_map",
	[SIM_VMM_UNMAP] = "vmm_unmap",
	[SIM_VMM_SET_ACCESS] = "vmm_set_access",
	[SIM_HOST_ALLOC] = "host_alloc",
	[SIM_HOST_FREE] = "host_free",
	[SIM_HOST_REGISTER] = "host_register",
	[SIM_HOST_UNREGISTER] = "host_unregister",
};

const char *sim_call_name(sim_call call)
{
	if ((unsigned)call >= SIM_CALL_KINDS)
		return "unknown";
	return sim_call_names[call];
}

bool sim_log_init(sim *s)
{
	if (pthread_mutex_init(&s->log_lock, NULL) != 0)
		return false;
	s->ring = calloc(SIM_LOG_CAP, sizeof(*s->ring));
	if (!s->ring) {
		pthread_mutex_destroy(&s->log_lock);
		return false;
	}
	return true;
}

void sim_log_fini(sim *s)
{
	if (!s->ring)
		return;
	free(s->ring);
	s->ring = NULL;
	pthread_mutex_destroy(&s->log_lock);
}

cm_status sim_call_begin(sim *s, sim_call call)
{
	if (!s)
		return CM_ERR_INVALID;
	size_t n = atomic_fetch_add(&s->calls[call], 1) + 1;
	size_t at = atomic_load(&s->fail_at[call]);

	if (at != n || !atomic_compare_exchange_strong(&s->fail_at[call], &at, 0))
		return CM_OK;
	return call == SIM_MEM_ALLOC || call == SIM_VMM_CREATE || call == SIM_HOST_ALLOC
		       ? CM_ERR_OOM
		       : CM_ERR_BACKEND;
}

void sim_log_add(sim *s, const sim_log_entry *e)
{
	pthread_mutex_lock(&s->log_lock);
	if (s->log_count < SIM_LOG_CAP) {
		s->ring[(s->log_start + s->log_count++) % SIM_LOG_CAP] = *e;
	} else {
		s->ring[s->log_start] = *e;
		s->log_start = (s->log_start + 1) % SIM_LOG_CAP;
	}
	pthread_mutex_unlock(&s->log_lock);
}

void sim_fail_nth(sim *s, sim_call call, unsigned n)
{
	if (!s || (unsigned)call >= SIM_CALL_KINDS)
		return;
	atomic_store(&s->fail_at[call], n ? atomic_load(&s->calls[call]) + n : 0);
}

size_t sim_log_count(sim *s)
{
	return s ? sim_read_locked(&s->log_lock, &s->log_count) : 0;
}

sim_log_entry sim_log_get(sim *s, size_t i)
{
	sim_log_entry e = { 0 };
	if (!s)
		return e;
	pthread_mutex_lock(&s->log_lock);
	if (i < s->log_count)
		e = s->ring[(s->log_start + i) % SIM_LOG_CAP];
	pthread_mutex_unlock(&s->log_lock);
	return e;
}

void sim_log_clear(sim *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->log_lock);
	s->log_start = s->log_count = 0;
	pthread_mutex_unlock(&s->log_lock);
}

size_t sim_call_count(sim *s, sim_call call)
{
	if (!s || (unsigned)call >= SIM_CALL_KINDS)
		return 0;
	return atomic_load(&s->calls[call]);
}
