/* tests/fakecuda/fakecu_shared.c - one simulated device shared by processes.
 *
 * FAKECUDA_SHARED=NAME: processes started with the same NAME share the
 * memory budget of each device (CACHEMALLOC_SIM_MEMORY bytes), as
 * processes share a GPU: what one holds (its cache included) another
 * cannot allocate. The budget lives in /dev/shm/fakecuda-NAME (mode
 * 0600): a total per device, charged and uncharged with atomics (a CAS
 * refuses a charge that does not fit), and one slot per process with what
 * it holds, so that the share of a process that died (SIGKILL: its
 * memory went with it, as a GPU's does) is reclaimed when a charge does
 * not fit. Each process keeps its own simulated address space; its device
 * memory is a memfd that another process maps only through an IPC handle
 * (fakecu_mem.c).
 *
 * cuDeviceGetUuid answers, as on a GPU, one UUID per physical device:
 * under FAKECUDA_SHARED the same in every process of the NAME (derived
 * from it), otherwise one of this process alone (each process has a
 * device of its own).
 *
 * Without FAKECUDA_SHARED every function here is a no-op that accepts.
 */
#include "fakecu_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FK_SHARED_MAGIC 0x666b736861726564ull /* "fkshared" */
#define FK_SHARED_SLOTS 256

typedef struct fk_shared_slot {
	_Atomic int32_t pid;      /* 0: free */
	uint64_t start;           /* the process's start time (/proc), against pid reuse */
	_Atomic uint64_t used[FK_MAX_DEVICES];
} fk_shared_slot;

typedef struct fk_shared_file {
	_Atomic uint64_t magic; /* set last: the file is ready */
	_Atomic uint64_t used[FK_MAX_DEVICES];
	fk_shared_slot slots[FK_SHARED_SLOTS];
} fk_shared_file;

static fk_shared_file *fk_sh;      /* NULL: not shared */
static fk_shared_slot *fk_sh_mine; /* this process's slot */
static char fk_sh_name[64];
static pthread_once_t fk_sh_once = PTHREAD_ONCE_INIT;

/* Field 22 of /proc/PID/stat: the start time in clock ticks; 0 unknown. */
uint64_t fk_start_time(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the command may hold spaces */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

static bool fk_slot_dead(const fk_shared_slot *s, int pid)
{
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return true;
	uint64_t start = fk_start_time(pid);
	return start && s->start && start != s->start;
}

static void fk_shared_open(void)
{
	const char *name = secure_getenv("FAKECUDA_SHARED");
	if (!name || !*name)
		return;
	if (strlen(name) >= sizeof fk_sh_name - 1 || strchr(name, '/')) {
		fprintf(stderr, "fakecuda: FAKECUDA_SHARED=%s ignored (a name of 1 to 62 "
			"characters, no '/')\n", name);
		return;
	}
	strcpy(fk_sh_name, name);
	char path[128];
	snprintf(path, sizeof path, "/dev/shm/fakecuda-%s", name);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 ||
	    (st.st_size < (off_t)sizeof(fk_shared_file) && ftruncate(fd, sizeof(fk_shared_file)) != 0)) {
		fprintf(stderr, "fakecuda: FAKECUDA_SHARED: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	void *m = mmap(NULL, sizeof(fk_shared_file), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	fk_shared_file *f = m;
	/* A new file is zero: the first process makes it ready (the magic is
	 * only a marker; zero is a valid state). */
	uint64_t zero = 0;
	atomic_compare_exchange_strong(&f->magic, &zero, FK_SHARED_MAGIC);
	int32_t me = (int32_t)getpid();
	uint64_t start = fk_start_time(me);
	for (int i = 0; i < FK_SHARED_SLOTS && !fk_sh_mine; i++) {
		int32_t free_pid = 0;
		if (atomic_compare_exchange_strong(&f->slots[i].pid, &free_pid, me)) {
			f->slots[i].start = start;
			fk_sh_mine = &f->slots[i];
		}
	}
	if (!fk_sh_mine) {
		fprintf(stderr, "fakecuda: FAKECUDA_SHARED: no free slot in %s\n", path);
		munmap(m, sizeof(fk_shared_file));
		return;
	}
	fk_sh = f;
}

/* The slots of dead processes give their share back. */
static bool fk_shared_reclaim(void)
{
	bool any = false;
	for (int i = 0; i < FK_SHARED_SLOTS; i++) {
		fk_shared_slot *s = &fk_sh->slots[i];
		int32_t pid = atomic_load(&s->pid);
		if (pid <= 0 || s == fk_sh_mine || !fk_slot_dead(s, pid))
			continue;
		if (!atomic_compare_exchange_strong(&s->pid, &pid, -1))
			continue; /* another process reclaims it */
		for (int d = 0; d < FK_MAX_DEVICES; d++)
			atomic_fetch_sub(&fk_sh->used[d], atomic_exchange(&s->used[d], 0));
		atomic_store(&s->pid, 0);
		any = true;
	}
	return any;
}

bool fk_shared_on(void)
{
	const char *name = secure_getenv("FAKECUDA_SHARED");
	return name && *name;
}

void fk_shared_init(void)
{
	pthread_once(&fk_sh_once, fk_shared_open);
}

bool fk_shared_charge(int dev, size_t bytes)
{
	if (!fk_sh || !bytes)
		return true;
	for (int attempt = 0; attempt < 2; attempt++) {
		uint64_t cur = atomic_load(&fk_sh->used[dev]);
		while (cur <= fk.limit && bytes <= fk.limit - cur) {
			if (atomic_compare_exchange_weak(&fk_sh->used[dev], &cur, cur + bytes)) {
				atomic_fetch_add(&fk_sh_mine->used[dev], bytes);
				return true;
			}
		}
		if (!fk_shared_reclaim())
			break;
	}
	return false;
}

void fk_shared_uncharge(int dev, size_t bytes)
{
	if (!fk_sh || !bytes)
		return;
	atomic_fetch_sub(&fk_sh_mine->used[dev], bytes);
	atomic_fetch_sub(&fk_sh->used[dev], bytes);
}

size_t fk_shared_free(int dev, size_t own_free)
{
	if (!fk_sh)
		return own_free;
	fk_shared_reclaim(); /* as on a GPU: a dead process's memory is free at once */
	uint64_t used = atomic_load(&fk_sh->used[dev]);
	size_t left = used < fk.limit ? fk.limit - (size_t)used : 0;
	return left < own_free ? left : own_free;
}

static void fk_uuid(int dev, CUuuid *uuid)
{
	/* FNV-1a over the name (or the pid and its start time), then the device. */
	uint64_t h = 1469598103934665603ull;
	char key[128];
	int n = fk_sh ? snprintf(key, sizeof key, "shared:%s", fk_sh_name)
		      : snprintf(key, sizeof key, "pid:%d:%llu", (int)getpid(),
				 (unsigned long long)fk_start_time((int)getpid()));
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
	uint64_t a = h ^ (uint64_t)dev * 0x9e3779b97f4a7c15ull;
	uint64_t b = (a * 1099511628211ull) ^ 0x5bd1e995ull;
	memcpy(uuid->bytes, &a, 8);
	memcpy(uuid->bytes + 8, &b, 8);
	uuid->bytes[6] = (char)((uuid->bytes[6] & 0x0f) | 0x40); /* a version-4-looking UUID */
}

FK_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	CUresult r = fk_device_arg(uuid, dev);
	if (r == CUDA_SUCCESS)
		fk_uuid(dev, uuid);
	return r;
}

FK_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}
