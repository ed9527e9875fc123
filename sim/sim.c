/* sim/sim.c - the simulator's life cycle and its backend table.
 *
 * Owns creation and destruction of a sim and of its devices, and the
 * backend entry points. Each entry point is the same three steps: count the
 * call and let failure injection claim it (an injected failure has no side
 * effect), do the work in the file that owns it, log the call with its
 * arguments and result. The test helpers (sim_stream_create, sim_memset_async,
 * gates, ...) bypass this layer, so they are neither counted nor logged.
 *
 * sim_destroy first stops every stream of every device (gates open, queues
 * drain: a stream may wait on another device's stream), then joins the
 * workers, then frees memory; after it no thread of the sim is running.
 */
#include "sim_internal.h"

#include <stdlib.h>

#define SIM_DEFAULT_CAPACITY ((size_t)16 << 30)

static atomic_uint_fast64_t sim_instances;

sim_dev *sim_dev_at(sim *s, int dev)
{
	if (!s || dev < 0 || dev >= s->ndev)
		return NULL;
	return &s->devs[dev];
}

/* ---- backend entry points ---------------------------------------------- */

static cm_status sim_done(sim *s, sim_log_entry e)
{
	if (s)
		sim_log_add(s, &e);
	return e.result;
}

static cm_status sim_be_mem_alloc(void *ctx, int dev, size_t size, uintptr_t *out)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_MEM_ALLOC);

	if (r == CM_OK)
		r = sim_mem_alloc(s, dev, size, out);
	return sim_done(s, (sim_log_entry){ .call = SIM_MEM_ALLOC, .dev = dev, .result = r,
					    .ptr = r == CM_OK ? *out : 0, .size = size });
}

static cm_status sim_be_mem_free(void *ctx, int dev, uintptr_t ptr)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_MEM_FREE);

	if (r == CM_OK)
		r = sim_mem_free(s, dev, ptr);
	return sim_done(s, (sim_log_entry){ .call = SIM_MEM_FREE, .dev = dev, .result = r,
					    .ptr = ptr });
}

static cm_status sim_be_mem_get_info(void *ctx, int dev, size_t *free_bytes, size_t *total)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_MEM_GET_INFO);

	if (r == CM_OK)
		r = sim_mem_get_info(s, dev, free_bytes, total);
	return sim_done(s, (sim_log_entry){ .call = SIM_MEM_GET_INFO, .dev = dev, .result = r,
					    .size = r == CM_OK ? *free_bytes : 0 });
}

static cm_status sim_be_event_create(void *ctx, int dev, cm_event *out)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_EVENT_CREATE);

	if (r == CM_OK)
		r = sim_event_create(s, dev, out);
	return sim_done(s, (sim_log_entry){ .call = SIM_EVENT_CREATE, .dev = dev, .result = r,
					    .event = r == CM_OK ? *out : NULL });
}

static cm_status sim_be_event_destroy(void *ctx, int dev, cm_event ev)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_EVENT_DESTROY);

	if (r == CM_OK)
		r = sim_event_destroy(s, dev, ev);
	return sim_done(s, (sim_log_entry){ .call = SIM_EVENT_DESTROY, .dev = dev, .result = r,
					    .event = ev });
}

static cm_status sim_be_event_record(void *ctx, int dev, cm_event ev, cm_stream st)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_EVENT_RECORD);

	if (r == CM_OK)
		r = sim_event_record(s, dev, ev, st);
	return sim_done(s, (sim_log_entry){ .call = SIM_EVENT_RECORD, .dev = dev, .result = r,
					    .stream = st, .event = ev });
}

static cm_status sim_be_event_query(void *ctx, int dev, cm_event ev)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_EVENT_QUERY);

	if (r == CM_OK)
		r = sim_event_query(s, dev, ev);
	return sim_done(s, (sim_log_entry){ .call = SIM_EVENT_QUERY, .dev = dev, .result = r,
					    .event = ev });
}

static cm_status sim_be_event_synchronize(void *ctx, int dev, cm_event ev)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_EVENT_SYNCHRONIZE);

	if (r == CM_OK)
		r = sim_event_sync(s, dev, ev);
	return sim_done(s, (sim_log_entry){ .call = SIM_EVENT_SYNCHRONIZE, .dev = dev,
					    .result = r, .event = ev });
}

static cm_status sim_be_stream_wait_event(void *ctx, int dev, cm_stream st, cm_event ev)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_STREAM_WAIT_EVENT);

	if (r == CM_OK)
		r = sim_stream_wait_event(s, dev, st, ev);
	return sim_done(s, (sim_log_entry){ .call = SIM_STREAM_WAIT_EVENT, .dev = dev,
					    .result = r, .stream = st, .event = ev });
}

static cm_status sim_be_stream_query(void *ctx, int dev, cm_stream st)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_STREAM_QUERY);

	if (r == CM_OK)
		r = sim_stream_query(s, dev, st);
	return sim_done(s, (sim_log_entry){ .call = SIM_STREAM_QUERY, .dev = dev, .result = r,
					    .stream = st });
}

static cm_status sim_be_stream_synchronize(void *ctx, int dev, cm_stream st)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_STREAM_SYNCHRONIZE);

	if (r == CM_OK)
		r = sim_stream_sync(s, dev, st);
	return sim_done(s, (sim_log_entry){ .call = SIM_STREAM_SYNCHRONIZE, .dev = dev,
					    .result = r, .stream = st });
}

static cm_status sim_be_stream_is_capturing(void *ctx, int dev, cm_stream st, bool *out)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_STREAM_IS_CAPTURING);

	if (r == CM_OK)
		r = sim_stream_capturing(s, dev, st, out);
	return sim_done(s, (sim_log_entry){ .call = SIM_STREAM_IS_CAPTURING, .dev = dev,
					    .result = r, .stream = st });
}

static cm_status sim_be_device_synchronize(void *ctx, int dev)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_DEVICE_SYNCHRONIZE);

	if (r == CM_OK)
		r = sim_device_sync(s, dev);
	return sim_done(s, (sim_log_entry){ .call = SIM_DEVICE_SYNCHRONIZE, .dev = dev,
					    .result = r });
}

cm_status sim_granularity(sim *s, int dev, size_t *out)
{
	cm_status r = sim_call_begin(s, SIM_VMM_GRANULARITY);

	if (r == CM_OK)
		r = sim_vmm_granularity(s, dev, out);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_GRANULARITY, .dev = dev,
					    .result = r, .size = r == CM_OK ? *out : 0 });
}

static cm_status sim_be_vmm_reserve(void *ctx, int dev, size_t size, uintptr_t *va_out)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_RESERVE);

	if (r == CM_OK)
		r = sim_vmm_reserve(s, dev, size, va_out);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_RESERVE, .dev = dev, .result = r,
					    .ptr = r == CM_OK ? *va_out : 0, .size = size });
}

static cm_status sim_be_vmm_release(void *ctx, int dev, uintptr_t va, size_t size)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_RELEASE);

	if (r == CM_OK)
		r = sim_vmm_release(s, dev, va, size);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_RELEASE, .dev = dev, .result = r,
					    .ptr = va, .size = size });
}

static cm_status sim_be_vmm_create(void *ctx, int dev, size_t size, cm_mem_handle *out)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_CREATE);

	if (r == CM_OK)
		r = sim_vmm_create(s, dev, size, out);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_CREATE, .dev = dev, .result = r,
					    .ptr = r == CM_OK ? *out : 0, .size = size });
}

static cm_status sim_be_vmm_destroy(void *ctx, int dev, cm_mem_handle h)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_DESTROY);

	if (r == CM_OK)
		r = sim_vmm_destroy(s, dev, h);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_DESTROY, .dev = dev, .result = r,
					    .ptr = h });
}

static cm_status sim_be_vmm_map(void *ctx, int dev, uintptr_t va, size_t size,
				cm_mem_handle h)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_MAP);

	if (r == CM_OK)
		r = sim_vmm_map(s, dev, va, size, h);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_MAP, .dev = dev, .result = r,
					    .ptr = va, .size = size });
}

static cm_status sim_be_vmm_unmap(void *ctx, int dev, uintptr_t va, size_t size)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_UNMAP);

	if (r == CM_OK)
		r = sim_vmm_unmap(s, dev, va, size);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_UNMAP, .dev = dev, .result = r,
					    .ptr = va, .size = size });
}

static cm_status sim_be_vmm_set_access(void *ctx, int dev, uintptr_t va, size_t size)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_VMM_SET_ACCESS);

	if (r == CM_OK)
		r = sim_vmm_set_access(s, dev, va, size);
	return sim_done(s, (sim_log_entry){ .call = SIM_VMM_SET_ACCESS, .dev = dev,
					    .result = r, .ptr = va, .size = size });
}

/* Pinned host memory is plain host memory here. Its free waits for every
 * device, as cudaFreeHost waits for the work that may use it. */
static cm_status sim_be_host_alloc(void *ctx, int dev, size_t size, unsigned flags, uintptr_t *out)
{
	sim *s = ctx;
	void *p = NULL;
	cm_status r = sim_call_begin(s, SIM_HOST_ALLOC);

	(void)flags;
	if (r == CM_OK && posix_memalign(&p, 4096, size) != 0)
		r = CM_ERR_OOM;
	*out = (uintptr_t)p;
	return sim_done(s, (sim_log_entry){ .call = SIM_HOST_ALLOC, .dev = dev, .result = r,
					    .ptr = *out, .size = size });
}

static cm_status sim_be_host_free(void *ctx, int dev, uintptr_t ptr)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_HOST_FREE);

	for (int i = 0; r == CM_OK && i < s->be.device_count; i++)
		sim_device_sync(s, i);
	if (r == CM_OK)
		free((void *)ptr);
	return sim_done(s, (sim_log_entry){ .call = SIM_HOST_FREE, .dev = dev, .result = r,
					    .ptr = ptr });
}

static cm_status sim_be_host_register(void *ctx, int dev, uintptr_t ptr, size_t size,
				      unsigned flags)
{
	sim *s = ctx;
	(void)flags;
	return sim_done(s, (sim_log_entry){ .call = SIM_HOST_REGISTER, .dev = dev,
					    .result = sim_call_begin(s, SIM_HOST_REGISTER),
					    .ptr = ptr, .size = size });
}

static cm_status sim_be_host_unregister(void *ctx, int dev, uintptr_t ptr)
{
	sim *s = ctx;
	cm_status r = sim_call_begin(s, SIM_HOST_UNREGISTER);

	for (int i = 0; r == CM_OK && i < s->be.device_count; i++)
		sim_device_sync(s, i);
	return sim_done(s, (sim_log_entry){ .call = SIM_HOST_UNREGISTER, .dev = dev,
					    .result = r, .ptr = ptr });
}

static const cm_backend sim_backend_ops = {
	.mem_alloc = sim_be_mem_alloc,
	.mem_free = sim_be_mem_free,
	.mem_get_info = sim_be_mem_get_info,
	.event_create = sim_be_event_create,
	.event_destroy = sim_be_event_destroy,
	.event_record = sim_be_event_record,
	.event_query = sim_be_event_query,
	.event_synchronize = sim_be_event_synchronize,
	.stream_wait_event = sim_be_stream_wait_event,
	.stream_query = sim_be_stream_query,
	.stream_synchronize = sim_be_stream_synchronize,
	.stream_is_capturing = sim_be_stream_is_capturing,
	.device_synchronize = sim_be_device_synchronize,
	.vmm_reserve = sim_be_vmm_reserve,
	.vmm_release = sim_be_vmm_release,
	.vmm_create = sim_be_vmm_create,
	.vmm_destroy = sim_be_vmm_destroy,
	.vmm_map = sim_be_vmm_map,
	.vmm_unmap = sim_be_vmm_unmap,
	.vmm_set_access = sim_be_vmm_set_access,
	.host_alloc = sim_be_host_alloc,
	.host_free = sim_be_host_free,
	.host_register = sim_be_host_register,
	.host_unregister = sim_be_host_unregister,
};

/* ---- life cycle -------------------------------------------------------- */

/* The sim's locks and its log; on a failure none stays initialized. */
static bool sim_locks_init(sim *s)
{
	pthread_mutex_t *const locks[] = { &s->tab_lock, &s->ev_lock, &s->vmm_lock };
	size_t n = 0;

	while (n < sizeof(locks) / sizeof(locks[0]) && pthread_mutex_init(locks[n], NULL) == 0)
		n++;
	if (n == sizeof(locks) / sizeof(locks[0]) && sim_log_init(s))
		return true;
	while (n--)
		pthread_mutex_destroy(locks[n]);
	return false;
}

static bool sim_dev_init(sim *s, int i, size_t capacity, bool shareable)
{
	sim_dev *d = &s->devs[i];
	d->s = s;
	d->index = i;
	d->capacity = capacity;
	return sim_mem_init(d, shareable) && sim_streams_init(d);
}

sim *sim_create(const sim_options *opt)
{
	int ndev = opt && opt->devices > 0 ? opt->devices : 1;
	size_t capacity = opt && opt->capacity ? opt->capacity : SIM_DEFAULT_CAPACITY;
	sim *s;

	if (ndev > SIM_MAX_DEVICES || capacity > SIZE_MAX / 4)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (!sim_locks_init(s)) {
		free(s);
		return NULL;
	}
	s->id = atomic_fetch_add(&sim_instances, 1) + 1;
	s->be = sim_backend_ops;
	s->be.ctx = s;
	s->be.device_count = ndev;
	s->devs = calloc((size_t)ndev, sizeof(*s->devs));
	if (!s->devs) {
		sim_destroy(s);
		return NULL;
	}
	s->ndev = ndev;
	for (int i = 0; i < ndev; i++)
		s->devs[i].memfd = -1; /* before any init can fail: fini closes it */
	for (int i = 0; i < ndev; i++) {
		if (!sim_dev_init(s, i, capacity, opt && opt->shareable)) {
			sim_destroy(s);
			return NULL;
		}
	}
	return s;
}

void sim_destroy(sim *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ndev; i++)
		sim_streams_stop(&s->devs[i]);
	for (int i = 0; i < s->ndev; i++)
		sim_streams_fini(&s->devs[i]);
	sim_vmm_fini(s);
	for (int i = 0; i < s->ndev; i++)
		sim_mem_fini(&s->devs[i]);
	sim_events_fini(s);
	free(s->tab);
	free(s->devs);
	sim_log_fini(s);
	pthread_mutex_destroy(&s->vmm_lock);
	pthread_mutex_destroy(&s->ev_lock);
	pthread_mutex_destroy(&s->tab_lock);
	free(s);
}

const cm_backend *sim_backend(sim *s)
{
	return s ? &s->be : NULL;
}

size_t sim_used_bytes(sim *s, int dev)
{
	sim_dev *d = sim_dev_at(s, dev);
	return d ? sim_read_locked(&d->mem_lock, &d->used) : 0;
}
