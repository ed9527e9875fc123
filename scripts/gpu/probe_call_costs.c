/* scripts/gpu/probe_call_costs.c - what the driver calls of the fence
 * protocol cost on the host: the figures core/order/fence.c's collect path is
 * weighed by (docs/gpu-results.md).
 *
 *   cc -O2 -I$CUDA/include probe_call_costs.c -o probe_call_costs -L$CUDA/lib64 -lcuda
 *   ./probe_call_costs     (plain: the library's own calls go straight to the driver)
 *
 * Median ns per call over 31 batches of 2000 calls, with a context
 * current and one non-blocking stream: cuEventQuery of an event behind a
 * host function that sleeps (pending) and of a completed one,
 * cuCtxGetCurrent, cuStreamIsCapturing, cuStreamQuery of an idle stream,
 * cuEventRecord on the legacy stream and on the non-blocking one. Prints
 * "call NAME: N ns" lines. Information only: exit status 0 unless CUDA
 * itself failed.
 */
#include <cuda.h>
#include <unistd.h>

#include "bench_common.h" /* now_ns, median, BATCHES */

#define CALLS 2000

#define CK(call)                                                                \
	do {                                                                    \
		CUresult r_ = (call);                                           \
		if (r_ != CUDA_SUCCESS && r_ != CUDA_ERROR_NOT_READY) {         \
			fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #call, \
				(int)r_);                                       \
			exit(1);                                                \
		}                                                               \
	} while (0)

/* The pending query first: the records' synchronizations end the sleep. */
enum which { QUERY_PENDING, GET_CURRENT, IS_CAPTURING, QUERY_DONE, STREAM_QUERY, RECORD_LEGACY,
	     RECORD_NB, NWHICH };
static const char *names[NWHICH] = {"cuEventQuery(pending)", "cuCtxGetCurrent",
				    "cuStreamIsCapturing", "cuEventQuery(completed)",
				    "cuStreamQuery(idle)", "cuEventRecord(legacy)",
				    "cuEventRecord(non-blocking)"};

static CUstream nb, slow;
static CUevent done_ev, pending_ev, rec_ev;

static void sleep_fn(void *arg)
{
	(void)arg;
	usleep(3000000);
}

static void one(enum which w)
{
	CUcontext c;
	CUstreamCaptureStatus cs;
	switch (w) {
	case GET_CURRENT: CK(cuCtxGetCurrent(&c)); break;
	case IS_CAPTURING: CK(cuStreamIsCapturing(nb, &cs)); break;
	case RECORD_LEGACY: CK(cuEventRecord(rec_ev, NULL)); break;
	case RECORD_NB: CK(cuEventRecord(rec_ev, nb)); break;
	case QUERY_DONE: CK(cuEventQuery(done_ev)); break;
	case QUERY_PENDING: CK(cuEventQuery(pending_ev)); break;
	case STREAM_QUERY: CK(cuStreamQuery(nb)); break;
	default: break;
	}
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	CK(cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&slow, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&done_ev, CU_EVENT_DISABLE_TIMING));
	CK(cuEventCreate(&pending_ev, CU_EVENT_DISABLE_TIMING));
	CK(cuEventCreate(&rec_ev, CU_EVENT_DISABLE_TIMING));
	CK(cuEventRecord(done_ev, nb));
	CK(cuEventSynchronize(done_ev));
	CK(cuLaunchHostFunc(slow, sleep_fn, NULL));
	CK(cuEventRecord(pending_ev, slow));
	for (int w = 0; w < NWHICH; w++) {
		double per[BATCHES];
		for (int b = 0; b < BATCHES; b++) {
			double t0 = now_ns();
			for (int i = 0; i < CALLS; i++)
				one((enum which)w);
			per[b] = (now_ns() - t0) / CALLS;
			if (w == RECORD_LEGACY || w == RECORD_NB)
				CK(cuCtxSynchronize()); /* the queue stays short */
		}
		printf("call %s: %.0f ns\n", names[w], median(per, BATCHES));
	}
	CK(cuCtxSynchronize());
	return 0;
}
