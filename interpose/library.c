/* interpose/library.c - process state: the heap, the current device,
 * errors, graph captures, fork and exit. No policy: that is the core's. */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_cuda.h"
#include "backend_timer.h"
#include "context.h"
#include "config.h"
#include "hook_entry.h"
#include "library.h"
#include "nvtx.h"

_Atomic(cm_heap *) cm_lib_heap_ptr;
static atomic_bool cm_lib_disabled;
static pthread_mutex_t cm_lib_init_lock = PTHREAD_MUTEX_INITIALIZER;
static cm_backend cm_lib_backend;
static atomic_int cm_lib_captures;

static bool cm_lib_fork_child; /* reports nothing at exit: the parent does */

static void cm_lib_forked_child(void)
{
	/* CUDA cannot be used in a forked child: forget, never free. */
	cm_lib_fork_child = true;
	atomic_store(&cm_lib_disabled, true);
	atomic_store(&cm_lib_heap_ptr, NULL);
}

/* report_signal: the handler only writes a byte to a pipe (async-signal
 * safe); a thread of the library's own prints the report. The handler is
 * installed when the library loads, so that the signal never kills the
 * program before its first allocation; a handler the program installs
 * (before or after) is chained: called after the byte is written
 * (issue 36). */
static int cm_lib_signal_pipe[2] = {-1, -1};
static struct sigaction cm_lib_signal_prev; /* the program's, chained */

static void cm_lib_on_signal(int sig, siginfo_t *info, void *uc)
{
	int saved = errno;
	char c = 1;
	ssize_t ignored = write(cm_lib_signal_pipe[1], &c, 1);
	(void)ignored;
	errno = saved;
	const struct sigaction *prev = &cm_lib_signal_prev;
	if (prev->sa_flags & SA_SIGINFO) {
		if (prev->sa_sigaction)
			prev->sa_sigaction(sig, info, uc);
	} else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
	}
}

/* Installs the handler, chaining the one in place unless it is already
 * the library's. False: sigaction refused it. */
static bool cm_lib_install_signal(int sig)
{
	struct sigaction cur;
	if (sigaction(sig, NULL, &cur) != 0)
		return false;
	if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == cm_lib_on_signal)
		return true;
	cm_lib_signal_prev = cur;
	struct sigaction sa = {.sa_sigaction = cm_lib_on_signal,
			       .sa_flags = SA_RESTART | SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL) == 0;
}

__attribute__((constructor)) static void cm_lib_signal_early(void)
{
	const cm_config *cfg = cm_config_get();
	int sig = cfg->report_signal;
	if (!sig)
		return;
	if (pipe2(cm_lib_signal_pipe, O_CLOEXEC) != 0) {
		cm_log(cfg, CM_LOG_ERRORS, "cachemalloc: report_signal: cannot create a pipe: %s\n",
		       strerror(errno));
		return;
	}
	fcntl(cm_lib_signal_pipe[1], F_SETFL, O_NONBLOCK);
	if (!cm_lib_install_signal(sig))
		cm_log(cfg, CM_LOG_ERRORS, "cachemalloc: report_signal: cannot handle signal %d: %s\n",
		       sig, strerror(errno));
}

static void *cm_lib_signal_thread(void *arg)
{
	cm_heap *h = arg;
	const cm_config *cfg = cm_config_get();
	char c;
	for (;;) {
		ssize_t n = read(cm_lib_signal_pipe[0], &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		cm_stats st;
		cm_stats_get(h, -1, &st);
		cm_stats_print_text(&st, stderr);
		if (cfg->oom_snapshot[0])
			cm_snapshot_write(h, cfg->oom_snapshot, cm_log_stream(cfg, CM_LOG_ERRORS));
	}
}

static void cm_lib_watch_signal(cm_heap *h, int sig)
{
	pthread_t t;
	sigset_t all, old;
	if (cm_lib_signal_pipe[0] < 0)
		return; /* told when the library loaded */
	/* The thread takes no signal of the program's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&t, NULL, cm_lib_signal_thread, h);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		cm_log(cm_config_get(), CM_LOG_ERRORS,
		       "cachemalloc: report_signal: cannot start its thread: %s\n", strerror(err));
		return;
	}
	pthread_detach(t);
	cm_lib_install_signal(sig); /* again if the program replaced it: chained */
}

/* The heap needs the driver loaded and initialized (cuInit) with at least
 * one device. Until then every hook passes through, and the next hook
 * tries again; a process with no device never gets a heap. */
static bool cm_lib_init_locked(void)
{
	const cm_config *cfg = cm_config_get();
	int n = 0;
	if (!cm_drv_resolve() || !cm_real.cuDeviceGetCount || !cm_real.cuCtxGetCurrent)
		return false;
	CUresult r = cm_real.cuDeviceGetCount(&n);
	if (r == CUDA_ERROR_NOT_INITIALIZED)
		return false;
	if (r != CUDA_SUCCESS || n <= 0) {
		atomic_store(&cm_lib_disabled, true);
		return false;
	}
	cm_real_resolve(); /* the runtime, when the program has one */
	cm_nvtx_init(cfg);
	cm_ctx_init(n);
	cm_cuda_backend_init(&cm_lib_backend, cm_ctx_slot_count());
	if (cfg->expandable_segments) {
		cm_vmm_backend_init(&cm_lib_backend, n);
		if (!cm_lib_backend.vmm_map)
			cm_log(cfg, CM_LOG_WARNINGS,
			       "cachemalloc: expandable_segments:True, but the driver's "
			       "virtual memory API (cuMemCreate, cuMemMap) was not found: "
			       "using plain segments\n");
	}
	cm_backend_timer_wrap(&cm_lib_backend);
	cm_heap *h = NULL;
	if (cm_heap_create(&cm_lib_backend, cfg, &h) != CM_OK) {
		cm_log(cfg, CM_LOG_ERRORS,
		       "cachemalloc: cannot create the cache; passing every call to CUDA\n");
		atomic_store(&cm_lib_disabled, true);
		return false;
	}
	/* Every submission reaches a hook (submit_hooks.c, lookup.c). */
	if (cfg->track_submissions)
		cm_heap_track_submissions(h);
	pthread_atfork(NULL, NULL, cm_lib_forked_child);
	if (cfg->report_signal)
		cm_lib_watch_signal(h, cfg->report_signal);
	if (cfg->metrics_path[0])
		cm_metrics_start(h, cfg->metrics_path, cfg->metrics_period);
	atomic_store_explicit(&cm_lib_heap_ptr, h, memory_order_release);
	cm_log(cfg, CM_LOG_INFO, "cachemalloc: pid %ld: the cache serves %d device%s; "
	       "CACHEMALLOC_CONF=%s\n", (long)getpid(), n, n == 1 ? "" : "s", cm_config_text());
	return true;
}

cm_heap *cm_lib_heap_create(void)
{
	if (atomic_load(&cm_lib_disabled))
		return NULL;
	pthread_mutex_lock(&cm_lib_init_lock);
	if (!atomic_load(&cm_lib_heap_ptr) && !atomic_load(&cm_lib_disabled)) {
		cm_in_cuda++;
		cm_lib_init_locked();
		cm_in_cuda--;
	}
	pthread_mutex_unlock(&cm_lib_init_lock);
	return atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
}

/* Leaves err as the runtime's last error by making the runtime fail the
 * same way, without side effects. A capture's refusal is made in the
 * caller's own mode, which refuses it (cm_lib_refused_by_cuda). */
static void cm_lib_raise(cudaError_t err)
{
	void *p = NULL;
	CUstreamCaptureMode mode;
	cm_in_cuda++;
	if (err == cudaErrorStreamCaptureUnsupported) {
		if (cm_real.cudaMalloc(&p, 1) == cudaSuccess)
			cm_real.cudaFree(p);
		cm_in_cuda--;
		return;
	}
	bool relaxed = cm_lib_relax(&mode);
	if (err == cudaErrorMemoryAllocation)
		cm_real.cudaMalloc(&p, (size_t)1 << 62);
	else if (err == cudaErrorInvalidValue)
		cm_real.cudaMalloc(NULL, 512);
	cm_lib_unrelax(relaxed, mode);
	cm_in_cuda--;
}

cudaError_t cm_lib_fail(cm_status st)
{
	cudaError_t err;
	switch (st) {
	case CM_ERR_OOM: err = cudaErrorMemoryAllocation; break;
	case CM_ERR_INVALID:
	case CM_ERR_NOT_OURS: err = cudaErrorInvalidValue; break;
	case CM_ERR_UNLOADING: return cudaSuccess; /* shutting down: nothing to do */
	case CM_ERR_CAPTURING: err = cudaErrorStreamCaptureUnsupported; break;
	case CM_ERR_BAD_HANDLE: return cudaErrorInvalidResourceHandle;
	default: err = cudaErrorUnknown; break;
	}
	cm_lib_raise(err);
	return err;
}

cm_stream cm_lib_stream(CUstream s, bool ptsz)
{
	if (s == NULL)
		return ptsz ? CM_STREAM_PER_THREAD : CM_STREAM_LEGACY;
	if (s == CU_STREAM_LEGACY)
		return CM_STREAM_LEGACY;
	return (cm_stream)s; /* CU_STREAM_PER_THREAD is CM_STREAM_PER_THREAD */
}

cm_sync_token cm_lib_stream_sync_begin(cm_heap *h, CUstream s, bool ptsz)
{
	cm_stream cs = cm_lib_stream(s, ptsz);
	int slot = -1;
	if ((cs == CM_STREAM_LEGACY || cs == CM_STREAM_PER_THREAD) && !cm_lib_device(&slot))
		slot = -1;
	return cm_sync_begin(h, slot, cs);
}

bool cm_lib_device_sync_begin(cm_heap *h, cm_sync_token *tok)
{
	int slot;
	if (!cm_lib_device(&slot))
		return false;
	*tok = cm_sync_begin(h, slot, CM_SYNC_DEVICE);
	return true;
}

void cm_lib_sync_end(cm_heap *h, cm_sync_token tok, bool ok)
{
	cm_in_cuda++;
	cm_sync_end(h, tok, ok ? CM_OK : CM_ERR_BACKEND);
	cm_in_cuda--;
}

static cm_status cm_lib_free_async_guarded(cm_heap *h, uintptr_t p, CUstream s, bool ptsz)
{
	if (!cm_lib_capturing(s)) {
		if (cm_capture_watching())
			return cm_lib_free_in_era(h, p, true, cm_lib_stream(s, ptsz));
		if (cm_nvtx_active())
			cm_nvtx_block_freeing(h, p);
		return cm_free_async(h, p, cm_lib_stream(s, ptsz));
	}
	/* A free node of a graph frees only memory the graph allocated: CUDA
	 * refuses any other pointer (cudaErrorInvalidValue, the capture goes
	 * on; probe-h200.txt, freeasync-outside-allocation), and the block
	 * stays the program's. */
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	return info.ours ? CM_ERR_INVALID : CM_ERR_NOT_OURS;
}

cm_status cm_lib_free_async(cm_heap *h, uintptr_t p, CUstream s, bool ptsz)
{
	cm_in_cuda++;
	cm_status st = cm_lib_free_async_guarded(h, p, s, ptsz);
	cm_in_cuda--;
	return st;
}

/* ---- graph capture (docs/design.md, rule 7): facts for the core ---- */

/* The calling thread's capture mode, read by exchanging it twice. */
static cm_capture_mode cm_lib_thread_capture_mode(void)
{
	CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
	if (!cm_real.cuThreadExchangeStreamCaptureMode ||
	    cm_real.cuThreadExchangeStreamCaptureMode(&m) != CUDA_SUCCESS)
		return CM_CAPTURE_GLOBAL; /* CUDA's default */
	CUstreamCaptureMode back = m;
	cm_real.cuThreadExchangeStreamCaptureMode(&back);
	_Static_assert(CU_STREAM_CAPTURE_MODE_GLOBAL == (int)CM_CAPTURE_GLOBAL &&
			       CU_STREAM_CAPTURE_MODE_THREAD_LOCAL == (int)CM_CAPTURE_THREAD_LOCAL &&
			       CU_STREAM_CAPTURE_MODE_RELAXED == (int)CM_CAPTURE_RELAXED,
		       "the core's capture modes are CUDA's");
	return (cm_capture_mode)m;
}

bool cm_lib_capture_forbidden(cm_heap *h)
{
	return cm_capture_in_progress(h) && cm_capture_forbids(h, cm_lib_thread_capture_mode());
}

/* A free CUDA forbids: the driver is made to refuse an allocation of one
 * byte in the caller's mode, with the error and the invalidation a free
 * gets (the same rule refuses both). True when it refused; if it did not
 * (a capture ended meanwhile), the byte goes back and the free is served. */
static bool cm_lib_refused_by_cuda(void)
{
	CUdeviceptr d = 0;
	if (!cm_real.cuMemAlloc_v2)
		return false;
	if (cm_real.cuMemAlloc_v2(&d, 1) != CUDA_SUCCESS)
		return true;
	cm_real.cuMemFree_v2(d);
	return false;
}

/* The free's answer where CUDA would refuse it: CM_ERR_CAPTURING for a
 * block the program holds (CUDA refused the stand-in), else CM_OK: serve
 * it (a pointer not the cache's goes to CUDA, which judges it). */
static cm_status cm_lib_free_allowed(cm_heap *h, uintptr_t p)
{
	cm_ptr_info info;
	cm_pointer_info(h, p, &info);
	if (info.live && info.base == p && cm_lib_capture_forbidden(h) && cm_lib_refused_by_cuda())
		return CM_ERR_CAPTURING;
	return CM_OK;
}

cm_status cm_lib_malloc_in_era(cm_heap *h, int slot, size_t n, bool async, cm_stream s,
			       uintptr_t *out)
{
	*out = 0;
	cm_in_cuda++;
	cm_status st = CM_ERR_NOT_OURS; /* CUDA refuses it itself */
	if (!cm_lib_capture_forbidden(h)) {
		st = async ? cm_malloc_async(h, slot, n, s, out) : cm_malloc(h, slot, n, out);
		if (st == CM_OK && *out) {
			cm_capture_block_born(h, *out);
			if (cm_nvtx_active())
				cm_nvtx_block_added(*out, n);
		}
	}
	cm_in_cuda--;
	return st;
}

cm_status cm_lib_free_in_era(cm_heap *h, uintptr_t p, bool async, cm_stream s)
{
	cm_in_cuda++;
	cm_status st = cm_lib_free_allowed(h, p);
	if (st == CM_OK) {
		if (cm_nvtx_active())
			cm_nvtx_block_freeing(h, p);
		st = cm_capture_free(h, p, async, s);
	}
	cm_in_cuda--;
	return st;
}

cm_status cm_lib_host_free(cm_heap *h, uintptr_t p)
{
	unsigned flags;
	if (cm_capture_watching() && cm_host_flags_of(h, p, &flags) && cm_lib_capture_forbidden(h) &&
	    cm_lib_refused_by_cuda())
		return CM_ERR_CAPTURING;
	return cm_host_free(h, p);
}

void cm_lib_capture_began(CUstream s, bool ptsz, CUstreamCaptureMode m)
{
	cm_heap *h = cm_lib_heap();
	atomic_fetch_add(&cm_lib_captures, 1);
	if (h)
		cm_capture_begin(h, cm_lib_stream(s, ptsz), (cm_capture_mode)m);
}

void cm_lib_capture_ended(CUstream s, bool ptsz)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	cm_in_cuda++; /* an era that ends frees its held blocks: the core's own calls */
	bool known = !h || cm_capture_end(h, cm_lib_stream(s, ptsz));
	cm_in_cuda--;
	if (!known)
		return; /* not a capture the library counted */
	int n = atomic_load(&cm_lib_captures);
	while (n > 0 && !atomic_compare_exchange_weak(&cm_lib_captures, &n, n - 1))
		;
}

void cm_lib_graph_made(uintptr_t graph)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	if (h) /* the core keeps it only in a capture's era */
		cm_capture_graph_made(h, graph);
}

void cm_lib_graph_gone(uintptr_t graph)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	if (h) {
		cm_in_cuda++; /* held blocks go back: the core's own calls */
		cm_capture_graph_gone(h, graph);
		cm_in_cuda--;
	}
}

CUresult cm_lib_cu_fail(cm_status st)
{
	switch (st) {
	case CM_OK: return CUDA_SUCCESS;
	case CM_ERR_OOM: return CUDA_ERROR_OUT_OF_MEMORY;
	case CM_ERR_INVALID:
	case CM_ERR_NOT_OURS: return CUDA_ERROR_INVALID_VALUE;
	case CM_ERR_UNLOADING: return CUDA_SUCCESS; /* shutting down: nothing to do */
	case CM_ERR_CAPTURING: return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	case CM_ERR_BAD_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
	default: return CUDA_ERROR_UNKNOWN;
	}
}

bool cm_lib_capturing(CUstream s)
{
	if (atomic_load_explicit(&cm_lib_captures, memory_order_acquire) <= 0 ||
	    !cm_real.cuStreamIsCapturing)
		return false;
	CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
	cm_in_cuda++;
	CUresult r = cm_real.cuStreamIsCapturing(s, &cs);
	cm_in_cuda--;
	/* An error here (the legacy stream during a global capture) means
	 * capture is in the way: leave the call to CUDA. */
	return r != CUDA_SUCCESS || cs != CU_STREAM_CAPTURE_STATUS_NONE;
}

bool cm_lib_capture_active(void)
{
	return atomic_load_explicit(&cm_lib_captures, memory_order_acquire) > 0;
}

bool cm_lib_relax(CUstreamCaptureMode *saved)
{
	*saved = CU_STREAM_CAPTURE_MODE_RELAXED;
	return cm_lib_capture_active() && cm_real.cuThreadExchangeStreamCaptureMode &&
	       cm_real.cuThreadExchangeStreamCaptureMode(saved) == CUDA_SUCCESS;
}

void cm_lib_unrelax(bool relaxed, CUstreamCaptureMode saved)
{
	if (relaxed)
		cm_real.cuThreadExchangeStreamCaptureMode(&saved);
}

/* ---- statistics at exit: no CUDA call here, the runtime may be gone ---- */

atomic_uint cm_lib_levels;

static void cm_lib_print_levels(FILE *out, bool json)
{
	static const char *names[] = {"runtime", "driver", "lookups"};
	unsigned levels = atomic_load(&cm_lib_levels);
	const char *sep = "";
	for (unsigned i = 0; i < 3; i++) {
		if (levels & (1u << i)) {
			fprintf(out, json ? "%s\"%s\"" : "%s%s", sep, names[i]);
			sep = ", ";
		}
	}
	if (!json && !levels)
		fputs("none", out);
}

/* Whether PyTorch is in the process: an object named libtorch* or libc10*
 * (libtorch_cuda.so, libc10_cuda.so) is loaded. cachemalloc check hints at
 * PYTORCH_NO_CUDA_MEMORY_CACHING=1 only then. */
static int cm_lib_torch_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
	const char *base = slash ? slash + 1 : info->dlpi_name;
	return base && (strncmp(base, "libtorch", 8) == 0 || strncmp(base, "libc10", 6) == 0);
}

/* The report, written whole (cm_outfile_write: a temporary file renamed
 * over the path, so that a full disk never leaves it empty or cut). A
 * process that used no device writes its report only where none is
 * (O_EXCL), so that a shell or a tool started beside the program does not
 * overwrite the program's statistics at a shared path. */
static void cm_lib_write_json(cm_heap *h, const cm_stats *st, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		cm_log(cm_config_get(), CM_LOG_ERRORS, "cachemalloc: cannot write statistics to %s: %s\n",
		       path, strerror(errno));
		return;
	}
	fprintf(f, "{\"pid\": %ld, \"loaded\": true, \"device_used\": %s, \"torch\": %s, "
		"\"levels\": [", (long)getpid(), h ? "true" : "false",
		dl_iterate_phdr(cm_lib_torch_object, NULL) ? "true" : "false");
	cm_lib_print_levels(f, true);
	fputs("], ", f);
	cm_stats_print_json_fields(st, f);
	fputs("}\n", f);
	if (fclose(f) != 0) {
		cm_log(cm_config_get(), CM_LOG_ERRORS,
		       "cachemalloc: cannot write statistics to %s: out of memory\n", path);
		free(buf);
		return;
	}
	int fd = h ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (!h && fd < 0) {
		if (errno != EEXIST)
			cm_log(cm_config_get(), CM_LOG_ERRORS,
			       "cachemalloc: cannot write statistics to %s: %s\n", path, strerror(errno));
	} else {
		if (fd >= 0)
			close(fd); /* claimed: replaced whole below */
		cm_outfile_write(path, buf, len, "statistics to", cm_log_stream(cm_config_get(), CM_LOG_ERRORS));
	}
	free(buf);
}

static void cm_lib_print_summary(cm_heap *h, const cm_stats *st)
{
	flockfile(stderr);
	fprintf(stderr, "cachemalloc: pid %ld: ", (long)getpid());
	if (h) {
		cm_stats_print_summary(st, stderr);
		fputs("; levels: ", stderr);
		cm_lib_print_levels(stderr, false);
		fputc('\n', stderr);
	} else {
		fputs("loaded; no CUDA device was used (no allocation reached the library)\n", stderr);
	}
	funlockfile(stderr);
}

__attribute__((destructor)) static void cm_lib_fini(void)
{
	cm_heap *h = atomic_load(&cm_lib_heap_ptr);
	if (cm_lib_fork_child)
		return;
	const cm_config *cfg = cm_config_get();
	cm_stats st = {0};
	if (h)
		cm_stats_get(h, -1, &st);
	if (cfg->stats == CM_STATS_EXIT) {
		if (h)
			cm_stats_print_text(&st, stderr);
		else
			fprintf(stderr, "cachemalloc statistics: none (pid %ld used no CUDA device)\n",
				(long)getpid());
	} else if (cfg->stats == CM_STATS_EXIT_JSON) {
		cm_lib_write_json(h, &st, cfg->stats_path);
	}
	if (cfg->exit_summary)
		cm_lib_print_summary(h, &st);
	if (!h)
		return;
	if (cfg->metrics_path[0])
		cm_metrics_write(h, cfg->metrics_path, cm_log_stream(cfg, CM_LOG_ERRORS));
	cm_eventlog_flush(h);
	/* The heap is not destroyed: the driver frees device memory at exit,
	 * and CUDA must not be called once the runtime unloads. */
}

/* ---- submissions (docs/design.md, "Seeing every submission") ---- */

/* A user stream the heap has not met: made known through its context. A
 * stream of a context without a slot holds no block of the cache. */
static void cm_lib_submit_unknown(cm_heap *h, CUstream s, cm_stream cs)
{
	CUcontext ctx = NULL;
	int slot = -1;
	cm_in_cuda++;
	if (cm_real.cuStreamGetCtx && cm_real.cuStreamGetCtx(s, &ctx) == CUDA_SUCCESS &&
	    (slot = cm_ctx_find(ctx)) < 0 && !cm_lib_device(&slot))
		slot = -1;
	if (slot >= 0 && cm_ctx_handle(slot) == ctx && cm_stream_seen(h, slot, cs) == CM_OK)
		cm_submit_begin(h, cs);
	cm_in_cuda--;
}

void cm_lib_submit(CUstream s, bool ptsz)
{
	cm_heap *h = atomic_load_explicit(&cm_lib_heap_ptr, memory_order_acquire);
	if (!h || cm_in_cuda)
		return; /* no heap yet: no block for the work to touch */
	cm_stream cs = cm_lib_stream(s, ptsz);
	if (__builtin_expect(!cm_submit_begin(h, cs), 0))
		cm_lib_submit_unknown(h, s, cs);
}

void cm_lib_submitted(void)
{
	cm_submit_end();
}
