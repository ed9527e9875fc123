/* sim/sim.h - the simulated device: a first-class backend, not a mock.
 *
 * Device memory is host memory (reserved with mmap, so untouched capacity
 * costs nothing); a device pointer is the host address of its bytes. Streams
 * are queues run by a worker thread each, asynchronously and in order, so
 * races are observable. Events, stream waits, device synchronization, memory
 * info and the VMM calls (2 MiB granularity) behave as the CUDA documentation
 * says, including the legacy default stream's implicit synchronization with
 * blocking streams. Misuse fails like CUDA does (unknown pointer, double
 * free, mapping over a mapped range) and never crashes. Any call kind can be
 * made to fail on its Nth attempt, and every backend call is logged so tests
 * can assert on what the allocator asked of the device.
 */
#ifndef CM_SIM_H
#define CM_SIM_H

#include "backend.h"

typedef struct sim sim;

typedef struct sim_options {
	int devices;     /* number of devices, default 1 */
	size_t capacity; /* bytes per device, default 16 GiB */
	/* Device memory in a memfd mapped shared, so that another process can
	 * map an allocation's bytes (the fake driver's IPC): sim_mem_file. */
	bool shareable;
} sim_options;

/* Kinds of backend call, for the log and failure injection. */
typedef enum sim_call {
	SIM_MEM_ALLOC,
	SIM_MEM_FREE,
	SIM_MEM_GET_INFO,
	SIM_EVENT_CREATE,
	SIM_EVENT_DESTROY,
	SIM_EVENT_RECORD,
	SIM_EVENT_QUERY,
	SIM_EVENT_SYNCHRONIZE,
	SIM_STREAM_WAIT_EVENT,
	SIM_STREAM_QUERY,
	SIM_STREAM_SYNCHRONIZE,
	SIM_STREAM_IS_CAPTURING,
	SIM_DEVICE_SYNCHRONIZE,
	SIM_VMM_GRANULARITY,
	SIM_VMM_RESERVE,
	SIM_VMM_RELEASE,
	SIM_VMM_CREATE,
	SIM_VMM_DESTROY,
	SIM_VMM_MAP,
	SIM_VMM_UNMAP,
	SIM_VMM_SET_ACCESS,
	SIM_HOST_ALLOC,
	SIM_HOST_FREE,
	SIM_HOST_REGISTER,
	SIM_HOST_UNREGISTER,
	SIM_CALL_KINDS
} sim_call;

const char *sim_call_name(sim_call call);

typedef struct sim_log_entry {
	sim_call call;
	int dev;
	cm_status result;
	cm_stream stream; /* stream argument, if any */
	cm_event event;   /* event argument, if any */
	uintptr_t ptr;    /* pointer / va argument or result, if any; the
			   * handle for vmm_create and vmm_destroy */
	size_t size;
} sim_log_entry;

sim *sim_create(const sim_options *opt); /* NULL options: defaults */
void sim_destroy(sim *s);                /* waits for all streams */
/* For a shareable sim: the memfd holding plain memory of dev and the
 * offset in it of device pointer p. False otherwise. */
bool sim_mem_file(sim *s, int dev, uintptr_t p, int *fd, uint64_t *offset);
/* Maps n bytes at offset of another process's sim_mem_file (fd, opened
 * here) read-write; copies and sets accept them until sim_unmap_import. */
cm_status sim_map_import(sim *s, int fd, uint64_t offset, size_t n, uintptr_t *out);
cm_status sim_unmap_import(sim *s, uintptr_t p);
const cm_backend *sim_backend(sim *s);   /* ctx is s */

/* Streams created by the program (the backend table never creates any).
 * sim_stream_create returns SIM_STREAM_INVALID on failure; a handle it
 * returns is never 0, 1 or 2 and is not reused after destruction. */
#define SIM_STREAM_INVALID ((cm_stream)UINTPTR_MAX)
cm_stream sim_stream_create(sim *s, int dev, bool nonblocking);
cm_status sim_stream_destroy(sim *s, int dev, cm_stream st); /* pending work still runs */

/* Work on a stream, in stream order. */
cm_status sim_memset_async(sim *s, int dev, uintptr_t dst, int value, size_t n, cm_stream st);
cm_status sim_memcpy_async(sim *s, int dev, uintptr_t dst, uintptr_t src, size_t n, cm_stream st);
cm_status sim_host_func(sim *s, int dev, cm_stream st, void (*fn)(void *), void *arg);

/* A gate holds its stream at that point until opened: tests use it to keep
 * a stream busy for exactly as long as they want. */
typedef struct sim_gate sim_gate;
sim_gate *sim_gate_enqueue(sim *s, int dev, cm_stream st);
void sim_gate_open(sim_gate *g); /* also frees the gate once passed */

/* Marks a stream as capturing a graph (or not): stream_is_capturing reports
 * it, and event_record / stream_wait_event on it fail with
 * CM_ERR_CAPTURING. CM_STREAM_PER_THREAD is the calling thread's. */
cm_status sim_set_capturing(sim *s, int dev, cm_stream st, bool capturing);

/* Failure injection: the nth call (1 = the next one) of that kind from now
 * fails; CM_ERR_OOM for allocations and creations, CM_ERR_BACKEND otherwise.
 * n = 0 cancels. */
void sim_fail_nth(sim *s, sim_call call, unsigned n);

/* The call log (every backend-table call and sim_granularity, in order). */
size_t sim_log_count(sim *s);
sim_log_entry sim_log_get(sim *s, size_t i);
void sim_log_clear(sim *s);
size_t sim_call_count(sim *s, sim_call call); /* since creation */

/* Is [va, va + n) mapped VMM memory with access set? */
bool sim_vmm_accessible(sim *s, uintptr_t va, size_t n);
/* The device whose physical memory is mapped at va, or -1 (not mapped). */
int sim_vmm_device(sim *s, uintptr_t va);

/* The VMM granularity (2 MiB), as cuMemGetAllocationGranularity: not in
 * the backend table (the core maps 2 MiB chunks), but logged and failing
 * on injection like its calls (SIM_VMM_GRANULARITY). */
cm_status sim_granularity(sim *s, int dev, size_t *out);

/* Bytes of device memory in use (plain allocations plus VMM physical). */
size_t sim_used_bytes(sim *s, int dev);

/* Bytes of VMM physical memory of the device not yet given back: created
 * and not destroyed, or destroyed but still mapped (CUDA frees a released
 * handle's memory at its last unmap). */
size_t sim_vmm_physical_bytes(sim *s, int dev);

#endif
