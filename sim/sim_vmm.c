/* sim/sim_vmm.c - virtual memory management (cuMemAddressReserve,
 * cuMemCreate, cuMemMap, cuMemSetAccess, cuMemUnmap, cuMemRelease,
 * cuMemAddressFree), with a 2 MiB granularity.
 *
 * A reservation is a PROT_NONE, MAP_NORESERVE range aligned to the
 * granularity. Physical memory is a range of offsets in one sparse memfd
 * per device (one file rather than one per handle, so thousands of chunks
 * cost no file descriptors); creating it charges the device's capacity.
 * Mapping maps those pages MAP_SHARED over the reservation, still
 * PROT_NONE until access is set, so the bytes survive unmap and remap as
 * they do on a GPU. Unmapping puts a PROT_NONE reservation back. A destroyed
 * handle's memory is released (hole punched, capacity uncharged) when its
 * last mapping goes, as in CUDA.
 *
 * Another process's device memory mapped here (sim_map_import, for the
 * fake driver's IPC) is accepted by copies and sets as mapped memory is.
 *
 * Invariants, under vmm_lock: mappings never overlap and each lies inside
 * one reservation; a reservation's "mapped" is the bytes mapped inside it;
 * a handle's "maps" counts its mappings; s->phys holds exactly the handles
 * not yet destroyed; a device's vmm_bytes is the size of its handles not
 * yet released (in s->phys, or destroyed and still mapped).
 */
#include "sim_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct sim_resv {
	sim_tnode node; /* first: key (va, 0) */
	uintptr_t va;
	size_t size;
	size_t mapped;
} sim_resv;

typedef struct sim_phys {
	sim_tnode node; /* first: key (id, 0) */
	uint64_t id;
	sim_dev *dev;
	size_t size;
	uintptr_t off; /* in dev->memfd */
	size_t maps;
	bool destroyed;
} sim_phys;

typedef struct sim_map {
	sim_tnode node; /* first: key (va, 0) */
	uintptr_t va;
	size_t size;
	sim_phys *ph;
	sim_resv *rv;
	bool access;
} sim_map;

static bool sim_vmm_aligned(uintptr_t va, size_t size)
{
	return size > 0 && (va % SIM_GRAN) == 0 && (size % SIM_GRAN) == 0 &&
	       va + size > va;
}

static sim_resv *sim_vmm_resv_of(sim *s, uintptr_t va, size_t size)
{
	sim_resv *rv = (sim_resv *)sim_treap_floor(&s->resv, va, 0);
	if (!rv || va - rv->va >= rv->size || size > rv->size - (va - rv->va))
		return NULL;
	return rv;
}

static bool sim_vmm_overlaps(sim *s, uintptr_t va, size_t size)
{
	sim_map *m = (sim_map *)sim_treap_floor(&s->maps, va + size - 1, 0);
	return m && m->va + m->size > va;
}

/* The mapping that starts where m ends, if any. */
static sim_map *sim_vmm_next(sim *s, const sim_map *m)
{
	return (sim_map *)sim_treap_find(&s->maps, m->va + m->size, 0);
}

/* The first of the mappings that exactly tile [va, va + size), or NULL. */
static sim_map *sim_vmm_tiles(sim *s, uintptr_t va, size_t size)
{
	sim_map *first = (sim_map *)sim_treap_find(&s->maps, va, 0), *m = first;
	while (m && m->va + m->size < va + size)
		m = sim_vmm_next(s, m);
	return m && m->va + m->size == va + size ? first : NULL;
}

/* A mapping of another process's device memory (sim_map_import). */
typedef struct sim_import {
	struct sim_import *next;
	uintptr_t addr; /* what the caller got */
	size_t n;
	void *map;      /* the page-aligned mapping around it */
	size_t map_len;
} sim_import;

static bool sim_import_covers_locked(const sim *s, uintptr_t va, size_t n)
{
	for (const sim_import *i = s->imports; i; i = i->next)
		if (va >= i->addr && n <= i->n && va - i->addr <= i->n - n)
			return true;
	return false;
}

cm_status sim_map_import(sim *s, int fd, uint64_t offset, size_t n, uintptr_t *out)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t start = offset & ~(uint64_t)(pg - 1);
	size_t len = (size_t)(offset - start) + n;
	sim_import *i = calloc(1, sizeof(*i));
	void *m = i && n ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)start)
			 : MAP_FAILED;
	if (m == MAP_FAILED) {
		free(i);
		return CM_ERR_INVALID;
	}
	*i = (sim_import){ .addr = (uintptr_t)m + (size_t)(offset - start), .n = n, .map = m,
			   .map_len = len };
	pthread_mutex_lock(&s->vmm_lock);
	i->next = s->imports;
	s->imports = i;
	pthread_mutex_unlock(&s->vmm_lock);
	*out = i->addr;
	return CM_OK;
}

cm_status sim_unmap_import(sim *s, uintptr_t p)
{
	sim_import *found = NULL;
	pthread_mutex_lock(&s->vmm_lock);
	for (sim_import **pp = &s->imports; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr == p) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	pthread_mutex_unlock(&s->vmm_lock);
	if (!found)
		return CM_ERR_INVALID;
	munmap(found->map, found->map_len);
	free(found);
	return CM_OK;
}

bool sim_vmm_accessible_locked(sim *s, uintptr_t va, size_t n)
{
	if (va + n < va)
		return false;
	if (sim_import_covers_locked(s, va, n))
		return true;
	sim_map *m = (sim_map *)sim_treap_floor(&s->maps, va, 0);
	if (m && m->va + m->size <= va)
		m = NULL;
	while (m && m->access) {
		if (m->va + m->size >= va + n)
			return true;
		m = sim_vmm_next(s, m);
	}
	return false;
}

bool sim_vmm_accessible(sim *s, uintptr_t va, size_t n)
{
	pthread_mutex_lock(&s->vmm_lock);
	bool ok = sim_vmm_accessible_locked(s, va, n);
	pthread_mutex_unlock(&s->vmm_lock);
	return ok;
}

int sim_vmm_device(sim *s, uintptr_t va)
{
	int dev = -1;
	pthread_mutex_lock(&s->vmm_lock);
	sim_map *m = (sim_map *)sim_treap_floor(&s->maps, va, 0);
	if (m && va < m->va + m->size)
		dev = m->ph->dev->index;
	pthread_mutex_unlock(&s->vmm_lock);
	return dev;
}

cm_status sim_vmm_granularity(sim *s, int dev, size_t *out)
{
	if (!sim_dev_at(s, dev) || !out)
		return CM_ERR_INVALID;
	*out = SIM_GRAN;
	return CM_OK;
}

cm_status sim_vmm_reserve(sim *s, int dev, size_t size, uintptr_t *va_out)
{
	if (!sim_dev_at(s, dev) || !va_out || !sim_vmm_aligned(0, size) ||
	    size > SIZE_MAX - SIM_GRAN)
		return CM_ERR_INVALID;
	/* Over-reserve by one granule, then trim, to align the start. */
	size_t len = size + SIM_GRAN;
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (p == MAP_FAILED)
		return CM_ERR_OOM;
	uintptr_t base = (uintptr_t)p, va = (base + SIM_GRAN - 1) & ~(SIM_GRAN - 1);
	if (va > base)
		munmap(p, va - base);
	if (base + len > va + size)
		munmap((void *)(va + size), base + len - (va + size));

	sim_resv *rv = calloc(1, sizeof(*rv));
	if (!rv) {
		munmap((void *)va, size);
		return CM_ERR_OOM;
	}
	rv->va = va;
	rv->size = size;
	pthread_mutex_lock(&s->vmm_lock);
	sim_treap_insert(&s->resv, &rv->node, va, 0);
	pthread_mutex_unlock(&s->vmm_lock);
	*va_out = va;
	return CM_OK;
}

cm_status sim_vmm_release(sim *s, int dev, uintptr_t va, size_t size)
{
	sim_resv *rv;

	if (!sim_dev_at(s, dev))
		return CM_ERR_INVALID;
	pthread_mutex_lock(&s->vmm_lock);
	rv = (sim_resv *)sim_treap_find(&s->resv, va, 0);
	if (rv && rv->size == size && rv->mapped == 0)
		sim_treap_remove(&s->resv, &rv->node);
	else
		rv = NULL;
	pthread_mutex_unlock(&s->vmm_lock);
	if (!rv)
		return CM_ERR_INVALID;
	munmap((void *)va, size);
	free(rv);
	return CM_OK;
}

/* Under vmm_lock: creates the device's physical-memory file on first use.
 * Twice the capacity of offsets, so that fragmentation of the offsets never
 * refuses what the capacity allows; the file is sparse. */
static bool sim_vmm_phys_ready(sim_dev *d)
{
	if (d->memfd >= 0)
		return true;
	size_t len = (d->capacity & ~(SIM_GRAN - 1)) * 2;
	int fd = memfd_create("cachemalloc-sim", MFD_CLOEXEC);
	if (fd < 0)
		return false;
	if (ftruncate(fd, (off_t)len) != 0 || !sim_range_init(&d->phys, 0, len, SIM_GRAN)) {
		close(fd);
		return false;
	}
	d->memfd = fd;
	return true;
}

/* Under vmm_lock: gives a physical handle's memory back. */
static void sim_vmm_phys_release(sim_phys *ph)
{
	sim_dev *d = ph->dev;
	size_t size;
	uintptr_t lo, hi;

	fallocate(d->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		  (off_t)ph->off, (off_t)ph->size);
	sim_range_free(&d->phys, ph->off, &size, &lo, &hi);
	sim_mem_uncharge(d, ph->size);
	d->vmm_bytes -= ph->size;
	free(ph);
}

cm_status sim_vmm_create(sim *s, int dev, size_t size, cm_mem_handle *out)
{
	sim_dev *d = sim_dev_at(s, dev);
	sim_phys *ph;
	cm_status r = CM_OK;

	if (!d || !out || !sim_vmm_aligned(0, size))
		return CM_ERR_INVALID;
	if (!sim_mem_charge(d, size))
		return CM_ERR_OOM;
	pthread_mutex_lock(&s->vmm_lock);
	ph = calloc(1, sizeof(*ph));
	if (!ph || !sim_vmm_phys_ready(d) ||
	    !sim_range_alloc(&d->phys, size, SIM_GRAN, &ph->off)) {
		r = CM_ERR_OOM;
	} else {
		ph->id = ++s->next_phys;
		ph->dev = d;
		ph->size = size;
		sim_treap_insert(&s->phys, &ph->node, ph->id, 0);
		d->vmm_bytes += size;
		*out = (cm_mem_handle)ph->id;
	}
	pthread_mutex_unlock(&s->vmm_lock);
	if (r != CM_OK) {
		free(ph);
		sim_mem_uncharge(d, size);
	}
	return r;
}

cm_status sim_vmm_destroy(sim *s, int dev, cm_mem_handle h)
{
	sim_dev *d = sim_dev_at(s, dev);
	sim_phys *ph;

	if (!d)
		return CM_ERR_INVALID;
	pthread_mutex_lock(&s->vmm_lock);
	ph = (sim_phys *)sim_treap_find(&s->phys, h, 0);
	if (ph && ph->dev == d) {
		sim_treap_remove(&s->phys, &ph->node);
		ph->destroyed = true;
		if (ph->maps == 0)
			sim_vmm_phys_release(ph);
	} else {
		ph = NULL;
	}
	pthread_mutex_unlock(&s->vmm_lock);
	return ph ? CM_OK : CM_ERR_INVALID;
}

size_t sim_vmm_physical_bytes(sim *s, int dev)
{
	sim_dev *d = sim_dev_at(s, dev);
	if (!d)
		return 0;
	pthread_mutex_lock(&s->vmm_lock);
	size_t n = d->vmm_bytes;
	pthread_mutex_unlock(&s->vmm_lock);
	return n;
}

/* Under vmm_lock, arguments checked. */
static cm_status sim_vmm_map_locked(sim *s, uintptr_t va, size_t size,
				    sim_phys *ph, sim_resv *rv)
{
	sim_map *m = calloc(1, sizeof(*m));
	if (!m)
		return CM_ERR_BACKEND;
	void *p = mmap((void *)va, size, PROT_NONE, MAP_FIXED | MAP_SHARED,
		       ph->dev->memfd, (off_t)ph->off);
	if (p == MAP_FAILED) {
		free(m);
		return CM_ERR_BACKEND;
	}
	*m = (sim_map){ .va = va, .size = size, .ph = ph, .rv = rv };
	sim_treap_insert(&s->maps, &m->node, va, 0);
	ph->maps++;
	rv->mapped += size;
	return CM_OK;
}

cm_status sim_vmm_map(sim *s, int dev, uintptr_t va, size_t size, cm_mem_handle h)
{
	cm_status r = CM_ERR_INVALID;

	if (!sim_dev_at(s, dev) || !sim_vmm_aligned(va, size))
		return CM_ERR_INVALID;
	pthread_mutex_lock(&s->vmm_lock);
	sim_phys *ph = (sim_phys *)sim_treap_find(&s->phys, h, 0);
	sim_resv *rv = sim_vmm_resv_of(s, va, size);
	if (ph && ph->size == size && rv && !sim_vmm_overlaps(s, va, size))
		r = sim_vmm_map_locked(s, va, size, ph, rv);
	pthread_mutex_unlock(&s->vmm_lock);
	return r;
}

/* Under vmm_lock: puts the reservation back under m and forgets m. */
static bool sim_vmm_unmap_one(sim *s, sim_map *m)
{
	void *p = mmap((void *)m->va, m->size, PROT_NONE,
		       MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return false;
	sim_treap_remove(&s->maps, &m->node);
	m->rv->mapped -= m->size;
	if (--m->ph->maps == 0 && m->ph->destroyed)
		sim_vmm_phys_release(m->ph);
	free(m);
	return true;
}

/* Unmaps (unmap) or gives access to the maps that tile [va, va + size)
 * exactly: CM_ERR_INVALID for bad arguments or a range they do not tile. */
static cm_status sim_vmm_tiled(sim *s, int dev, uintptr_t va, size_t size, bool unmap)
{
	if (!sim_dev_at(s, dev) || !sim_vmm_aligned(va, size))
		return CM_ERR_INVALID;
	pthread_mutex_lock(&s->vmm_lock);
	sim_map *m = sim_vmm_tiles(s, va, size);
	cm_status r = m ? CM_OK : CM_ERR_INVALID;
	if (m && !unmap && mprotect((void *)va, size, PROT_READ | PROT_WRITE) != 0)
		r = CM_ERR_BACKEND;
	while (m && r == CM_OK) {
		sim_map *next = m->va + m->size < va + size ? sim_vmm_next(s, m) : NULL;
		if (!unmap)
			m->access = true;
		else if (!sim_vmm_unmap_one(s, m)) /* frees m: next taken first */
			r = CM_ERR_BACKEND;
		m = next;
	}
	pthread_mutex_unlock(&s->vmm_lock);
	return r;
}

cm_status sim_vmm_unmap(sim *s, int dev, uintptr_t va, size_t size)
{
	return sim_vmm_tiled(s, dev, va, size, true);
}

cm_status sim_vmm_set_access(sim *s, int dev, uintptr_t va, size_t size)
{
	return sim_vmm_tiled(s, dev, va, size, false);
}

/* Post-order walk that hands every node to fn (which may free it). */
static void sim_vmm_drain(sim *s, sim_tnode *n, void (*fn)(sim *, sim_tnode *))
{
	if (!n)
		return;
	sim_vmm_drain(s, n->l, fn);
	sim_vmm_drain(s, n->r, fn);
	fn(s, n);
}

static void sim_vmm_drop_map(sim *s, sim_tnode *n)
{
	sim_map *m = (sim_map *)n;
	(void)s;
	if (--m->ph->maps == 0 && m->ph->destroyed)
		free(m->ph); /* no longer in s->phys */
	free(m);
}

static void sim_vmm_drop_phys(sim *s, sim_tnode *n)
{
	(void)s;
	free(n);
}

static void sim_vmm_drop_resv(sim *s, sim_tnode *n)
{
	sim_resv *rv = (sim_resv *)n;
	(void)s;
	munmap((void *)rv->va, rv->size); /* takes its mappings with it */
	free(rv);
}

/* sim_destroy: everything goes, nothing is uncharged. */
void sim_vmm_fini(sim *s)
{
	while (s->imports)
		sim_unmap_import(s, s->imports->addr);
	sim_vmm_drain(s, s->maps.root, sim_vmm_drop_map);
	sim_vmm_drain(s, s->phys.root, sim_vmm_drop_phys);
	sim_vmm_drain(s, s->resv.root, sim_vmm_drop_resv);
	s->maps = s->phys = s->resv = (sim_treap){ 0 };
	for (int i = 0; i < s->ndev; i++) {
		sim_dev *d = &s->devs[i];
		if (d->memfd >= 0) {
			close(d->memfd);
			sim_range_fini(&d->phys);
			d->memfd = -1;
		}
	}
}
