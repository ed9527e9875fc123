/* tests/fnptr.h - a function's address to and from void *, as dlsym and
 * cuGetProcAddress hand it out. ISO C defines no conversion between the two
 * (-Wpedantic says so at warning level 3); POSIX gives them one
 * representation, so the bits are copied. fn_of's result is cast to the
 * function's own type: a conversion between function pointer types, which
 * C allows.
 */
#ifndef TESTS_FNPTR_H
#define TESTS_FNPTR_H

#include <string.h>

typedef void (*any_fn)(void);

static inline any_fn fn_of(void *p)
{
	any_fn f;
	memcpy(&f, &p, sizeof(f));
	return f;
}

static inline void *ptr_of(any_fn f)
{
	void *p;
	memcpy(&p, &f, sizeof(p));
	return p;
}

#define PTR_OF(fn) ptr_of((any_fn)(fn))

#endif
