/* core/barrier.c - the asymmetric barrier: a slow thread makes the plain
 * stores of every other thread of the process visible, so that a fast
 * path pairs a store and a load with only a compiler barrier.
 *
 * Owns the choice between Linux's membarrier(MEMBARRIER_CMD_PRIVATE_
 * EXPEDITED), which runs a full memory barrier on every CPU running a
 * thread of this process before it returns (registered once), and, where
 * the kernel refuses it (an old kernel, a seccomp filter), a real fence on
 * the fast path (cm_barrier_light_fences). The rule, as for Dekker's
 * algorithm: the fast side stores its flag, calls cm_barrier_light(), then
 * loads the slow side's flag; the slow side stores its flag (an atomic
 * read-modify-write), calls cm_barrier_heavy(), then loads the fast side's.
 * At least one of them sees the other's store.
 */
#include <errno.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/membarrier.h>
#include <sys/syscall.h>
#endif

#include "internal.h"

_Atomic bool cm_barrier_light_fences = true;
static pthread_once_t cm_barrier_once = PTHREAD_ONCE_INIT;

static long cm_membarrier(int cmd)
{
#if defined(__linux__) && defined(SYS_membarrier)
	return syscall(SYS_membarrier, cmd, 0, 0);
#else
	(void)cmd;
	errno = ENOSYS;
	return -1;
#endif
}

static void cm_barrier_register(void)
{
#ifdef __linux__
	bool expedited = cm_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
	atomic_store(&cm_barrier_light_fences, !expedited);
#endif
}

void cm_barrier_init(void)
{
	pthread_once(&cm_barrier_once, cm_barrier_register);
}

bool cm_barrier_heavy(void)
{
	if (atomic_load_explicit(&cm_barrier_light_fences, memory_order_relaxed)) {
		atomic_thread_fence(memory_order_seq_cst); /* the fast side fences too */
		return true;
	}
#ifdef __linux__
	return cm_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
#else
	return false;
#endif
}

/* For tests of the fallback: no thread may be in a fast path. */
void cm_barrier_force_fences(void)
{
	cm_barrier_init();
	atomic_store(&cm_barrier_light_fences, true);
}
