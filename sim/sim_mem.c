/* sim/sim_mem.c - plain device memory (cudaMalloc / cudaFree) and the
 * per-device capacity count.
 *
 * Each device owns one region of twice its capacity, reserved with
 * mmap(MAP_NORESERVE) and aligned to 2 MiB; a device pointer is the host address of its bytes, so untouched
 * capacity costs nothing. Allocations are carved from the region by a
 * sim_range (best fit, O(log n)): 512-byte aligned below 2 MiB, otherwise
 * 2 MiB aligned, sizes rounded up to the alignment. d->used counts those
 * rounded sizes plus the VMM's physical memory, and never exceeds capacity.
 * All of it is under d->mem_lock. Frees give whole pages back to the kernel
 * so that the resident size follows what is allocated. A shareable device's
 * region is a memfd mapped shared (sim_mem_file: another process maps an
 * allocation from it); its frees punch the pages out of the file.
 */
#include "sim_internal.h"

#include <sys/mman.h>
#include <unistd.h>

#include <fcntl.h>

/* Frees smaller than this keep their pages: a syscall per small free would
 * cost more than the memory. */
#define SIM_DISCARD_MIN ((size_t)64 << 10)

static uintptr_t sim_mem_up(uintptr_t x, size_t a)
{
	return (x + a - 1) & ~(uintptr_t)(a - 1);
}

static uintptr_t sim_mem_down(uintptr_t x, size_t a)
{
	return x & ~(uintptr_t)(a - 1);
}

/* The region's mapping: private anonymous, or a memfd of its length. */
static void *sim_mem_map(sim_dev *d, bool shareable)
{
	d->map_fd = -1;
	if (!shareable)
		return mmap(NULL, d->map_len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int fd = memfd_create("sim-device", MFD_CLOEXEC);
	if (fd < 0)
		return MAP_FAILED;
	void *m = ftruncate(fd, (off_t)d->map_len) == 0
			  ? mmap(NULL, d->map_len, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_NORESERVE, fd, 0)
			  : MAP_FAILED;
	if (m == MAP_FAILED)
		close(fd);
	else
		d->map_fd = fd;
	return m;
}

bool sim_mem_init(sim_dev *d, bool shareable)
{
	/* Twice the capacity in addresses, as a GPU pages its memory: free
	 * bytes are usable whatever the holes between allocations. */
	size_t len = (2 * d->capacity) & ~(SIM_QUANTUM - 1);

	if (pthread_mutex_init(&d->mem_lock, NULL) != 0)
		return false;
	/* The slack lets the base be 2 MiB aligned, as large blocks need. */
	d->map_len = sim_mem_up(len, SIM_GRAN) + SIM_GRAN;
	d->map = sim_mem_map(d, shareable);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		pthread_mutex_destroy(&d->mem_lock);
		return false;
	}
	if (!sim_range_init(&d->mem, sim_mem_up((uintptr_t)d->map, SIM_GRAN),
			    len, SIM_QUANTUM)) {
		munmap(d->map, d->map_len);
		if (d->map_fd >= 0)
			close(d->map_fd);
		pthread_mutex_destroy(&d->mem_lock);
		return false;
	}
	d->mem_ready = true;
	return true;
}

void sim_mem_fini(sim_dev *d)
{
	if (!d->mem_ready)
		return;
	sim_range_fini(&d->mem);
	munmap(d->map, d->map_len);
	if (d->map_fd >= 0)
		close(d->map_fd);
	pthread_mutex_destroy(&d->mem_lock);
	d->mem_ready = false;
}

bool sim_mem_file(sim *s, int dev, uintptr_t p, int *fd, uint64_t *offset)
{
	sim_dev *d = sim_dev_at(s, dev);
	if (!d || d->map_fd < 0 || !sim_mem_in_region(d, p, 0))
		return false;
	*fd = d->map_fd;
	*offset = p - (uintptr_t)d->map;
	return true;
}

bool sim_mem_in_region(const sim_dev *d, uintptr_t p, size_t n)
{
	const sim_range *r = &d->mem;
	return p >= r->base && n <= r->len && p - r->base <= r->len - n;
}

bool sim_mem_charge(sim_dev *d, size_t n)
{
	bool ok;
	pthread_mutex_lock(&d->mem_lock);
	ok = n <= d->capacity - d->used;
	if (ok)
		d->used += n;
	pthread_mutex_unlock(&d->mem_lock);
	return ok;
}

void sim_mem_uncharge(sim_dev *d, size_t n)
{
	pthread_mutex_lock(&d->mem_lock);
	d->used -= n;
	pthread_mutex_unlock(&d->mem_lock);
}

cm_status sim_mem_alloc(sim *s, int dev, size_t size, uintptr_t *out)
{
	sim_dev *d = sim_dev_at(s, dev);
	uintptr_t p = 0;
	cm_status st = CM_OK;

	if (!d || !out)
		return CM_ERR_INVALID;
	if (size == 0) { /* cudaMalloc(0): success, a null pointer */
		*out = 0;
		return CM_OK;
	}
	if (size > d->capacity)
		return CM_ERR_OOM;
	size_t align = size >= SIM_GRAN ? SIM_GRAN : SIM_QUANTUM;
	size = sim_mem_up(size, align);

	pthread_mutex_lock(&d->mem_lock);
	if (size > d->capacity - d->used || !sim_range_alloc(&d->mem, size, align, &p))
		st = CM_ERR_OOM;
	else
		d->used += size;
	pthread_mutex_unlock(&d->mem_lock);
	if (st == CM_OK)
		*out = p;
	return st;
}

/* Drops the whole pages of the freed block [p, p + n) that lie inside its
 * merged free range [lo, hi): pages shared with a live neighbour stay. */
static void sim_mem_discard(const sim_dev *d, uintptr_t p, size_t n, uintptr_t lo, uintptr_t hi)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE); /* no syscall in glibc */

	uintptr_t a = sim_mem_up(lo, pg), b = sim_mem_down(hi, pg);
	uintptr_t pa = sim_mem_down(p, pg), pb = sim_mem_up(p + n, pg);
	if (pa > a)
		a = pa;
	if (pb < b)
		b = pb;
	if (b > a && b - a >= SIM_DISCARD_MIN)
		madvise((void *)a, b - a, d->map_fd >= 0 ? MADV_REMOVE : MADV_DONTNEED);
}

cm_status sim_mem_free(sim *s, int dev, uintptr_t ptr)
{
	sim_dev *d = sim_dev_at(s, dev);
	uintptr_t lo, hi;
	size_t size;
	bool known;

	if (!d)
		return CM_ERR_INVALID;
	if (ptr == 0)
		return CM_OK;
	/* Refuse bad pointers before waiting: misuse must not block. */
	pthread_mutex_lock(&d->mem_lock);
	known = sim_range_lookup(&d->mem, ptr, NULL);
	pthread_mutex_unlock(&d->mem_lock);
	if (!known)
		return CM_ERR_INVALID;

	sim_dev_sync(d); /* cudaFree waits for all work on the device */

	pthread_mutex_lock(&d->mem_lock);
	known = sim_range_free(&d->mem, ptr, &size, &lo, &hi);
	if (known) {
		d->used -= size;
		/* Under the lock: once unlocked the range may be reused. */
		sim_mem_discard(d, ptr, size, lo, hi);
	}
	pthread_mutex_unlock(&d->mem_lock);
	return known ? CM_OK : CM_ERR_INVALID; /* a racing double free */
}

cm_status sim_mem_get_info(sim *s, int dev, size_t *free_bytes, size_t *total)
{
	sim_dev *d = sim_dev_at(s, dev);

	if (!d || !free_bytes || !total)
		return CM_ERR_INVALID;
	pthread_mutex_lock(&d->mem_lock);
	*free_bytes = d->capacity - d->used;
	*total = d->capacity;
	pthread_mutex_unlock(&d->mem_lock);
	return CM_OK;
}
