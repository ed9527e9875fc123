/* core/record/stacks.c - the call stack of every live block, for snapshots
 * (snapshot_stacks:true, with oom_snapshot).
 *
 * At each allocation trace.c records the return addresses glibc's
 * backtrace() gives (CM_STACK_DEPTH of them, the library's own frames
 * included); at the free they are dropped. Names are resolved only when a
 * snapshot is written (dladdr: the exported function, else "+0xOFFSET" in
 * the object file for addr2line, and the object file), and the
 * library's own leading frames are left out there, so that the cost on
 * the allocation path is the unwinding alone.
 *
 * One open-addressing table per device, keyed by block address, under the
 * device lock; it grows by doubling up to CM_STACK_MAX entries. Beyond
 * that, new blocks get no stack (one line on stderr says so): memory for
 * stacks is bounded whatever the program holds.
 * Wing: record. Calls no other file of the core.
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define CM_STACK_DEPTH 24
#define CM_STACK_MAX ((size_t)1 << 20)

typedef struct cm_stack {
	uintptr_t addr; /* 0: empty slot */
	int depth;
	void *pc[CM_STACK_DEPTH];
} cm_stack;

struct cm_stacks {
	cm_stack *slots;
	size_t cap, count;
	bool full_reported;
};

static size_t cm_stacks_slot(const cm_stacks *t, uintptr_t addr)
{
	return (size_t)((addr >> 9) * 0x9e3779b97f4a7c15ull) & (t->cap - 1);
}

static cm_stack *cm_stacks_find(const cm_stacks *t, uintptr_t addr)
{
	if (!t || !t->cap)
		return NULL;
	for (size_t i = cm_stacks_slot(t, addr); t->slots[i].addr; i = (i + 1) & (t->cap - 1))
		if (t->slots[i].addr == addr)
			return &t->slots[i];
	return NULL;
}

static void cm_stacks_put(cm_stacks *t, const cm_stack *s)
{
	size_t i = cm_stacks_slot(t, s->addr);
	while (t->slots[i].addr)
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = *s;
	t->count++;
}

static bool cm_stacks_grow(cm_stacks *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	if (cap > 2 * CM_STACK_MAX)
		return false;
	cm_stack *old = t->slots;
	size_t oldcap = t->cap;
	t->slots = calloc(cap, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return false;
	}
	t->cap = cap;
	t->count = 0;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].addr)
			cm_stacks_put(t, &old[i]);
	free(old);
	return true;
}

bool cm_stacks_init(cm_device *d)
{
	d->stacks = calloc(1, sizeof(*d->stacks));
	return d->stacks != NULL;
}

void cm_stacks_fini(cm_device *d)
{
	if (d->stacks)
		free(d->stacks->slots);
	free(d->stacks);
	d->stacks = NULL;
}

void cm_stacks_record(cm_device *d, uintptr_t addr)
{
	cm_stacks *t = d->stacks;
	if (!t)
		return;
	cm_stack s = {.addr = addr};
	s.depth = backtrace(s.pc, CM_STACK_DEPTH);
	cm_stack *old = cm_stacks_find(t, addr);
	if (old) {
		*old = s;
		return;
	}
	if ((t->count + 1) * 2 > t->cap && (t->count >= CM_STACK_MAX || !cm_stacks_grow(t))) {
		if (!t->full_reported)
			fprintf(stderr, "cachemalloc: snapshot_stacks: %zu live blocks have stacks; newer "
				"blocks get none\n", t->count);
		t->full_reported = true;
		return;
	}
	cm_stacks_put(t, &s);
}

/* Backward-shift deletion keeps every probe chain whole. */
void cm_stacks_forget(cm_device *d, uintptr_t addr)
{
	cm_stacks *t = d->stacks;
	cm_stack *s = cm_stacks_find(t, addr);
	if (!s)
		return;
	size_t hole = (size_t)(s - t->slots);
	for (size_t i = (hole + 1) & (t->cap - 1); t->slots[i].addr; i = (i + 1) & (t->cap - 1)) {
		size_t home = cm_stacks_slot(t, t->slots[i].addr);
		/* Moves into the hole when its home is not in (hole, i]. */
		if (((i - home) & (t->cap - 1)) >= ((i - hole) & (t->cap - 1))) {
			t->slots[hole] = t->slots[i];
			hole = i;
		}
	}
	t->slots[hole].addr = 0;
	t->count--;
}

/* An object of the library itself: dladdr of its address names the
 * library's base (ISO C has no function pointer to void * conversion). */
static const char cm_stacks_self_anchor;

/* The frames of the block at addr, innermost first, less the library's
 * own: fn(name, object file) per frame. Returns how many were given. */
int cm_stacks_frames(const cm_device *d, uintptr_t addr,
		     void (*fn)(void *arg, const char *name, const char *file), void *arg)
{
	const cm_stack *s = cm_stacks_find(d->stacks, addr);
	Dl_info self, info;
	int n = 0;
	if (!s || !dladdr(&cm_stacks_self_anchor, &self))
		return 0;
	bool ours = true;
	for (int i = 0; i < s->depth; i++) {
		if (!dladdr(s->pc[i], &info)) {
			info.dli_fname = "??";
			info.dli_sname = NULL;
			info.dli_fbase = NULL;
		}
		if (ours && info.dli_fbase == self.dli_fbase)
			continue; /* the library's own frames, before the program's */
		ours = false;
		/* No exported name: the offset in the object, for addr2line -e FILE. */
		char off[32];
		snprintf(off, sizeof(off), "+%#lx", (unsigned long)((uintptr_t)s->pc[i] -
							      (uintptr_t)info.dli_fbase));
		fn(arg, info.dli_sname ? info.dli_sname : off, info.dli_fname ? info.dli_fname : "??");
		n++;
	}
	return n;
}
