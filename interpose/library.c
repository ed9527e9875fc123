/* interpose/library.c - the library's process state: the heap, made at
 * the first hook that needs it (bootstrap: the backend, the options'
 * start-up work, the report signal, fork), the stream names and the
 * synchronization and submission marks the hooks pass to the core. No
 * policy: that is the core's. Errors are errors.c's, graph capture
 * capture.c's and capture_state.c's, the exit's output exit_report.c's. */
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

static bool cm_lib_fork_child; /* reports nothing at exit: the parent does */

bool cm_lib_in_forked_child(void)
{
	return cm_lib_fork_child;
}

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
	pthread_setname_np(pthread_self(), "cm-report");
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

/* The levels seen (library.h), reported at exit (exit_report.c). */
atomic_uint cm_lib_levels;

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
