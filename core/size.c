/* core/size.c - request rounding and segment sizes (DESIGN 3).
 *
 * Every request becomes a multiple of 512 bytes, further rounded by
 * roundup_power2_divisions exactly as PyTorch does, so that replayed traces
 * are comparable. Requests up to 1 MiB are small and carved from 2 MiB
 * segments; up to 10 MiB from 20 MiB segments; larger ones get a segment of
 * their own rounded up to 2 MiB.
 */
#include "internal.h"

static size_t cm_size_pow2_floor(size_t x)
{
	return (size_t)1 << (63 - __builtin_clzll((unsigned long long)x));
}

/* PyTorch's roundup_power2_next_division. */
static size_t cm_size_next_division(size_t size, unsigned divisions)
{
	if ((size & (size - 1)) == 0)
		return size;
	size_t floor = cm_size_pow2_floor(size);
	size_t step = floor >> (63 - __builtin_clzll((unsigned long long)divisions));
	if (step == 0)
		return floor << 1;
	size_t down = size & ~(step - 1);
	return down == size ? size : down + step;
}

size_t cm_round_size(const cm_config *cfg, size_t size)
{
	if (size > SIZE_MAX / 2)
		return SIZE_MAX; /* never satisfiable; the caller reports OOM */
	unsigned div = cm_config_divisions(cfg, size);
	if (div > 1 && size > CM_MIN_BLOCK * div)
		return cm_size_next_division(size, div);
	return cm_size_round_plain(size);
}

bool cm_size_is_small(size_t rounded)
{
	return rounded <= CM_SMALL_REQUEST;
}

size_t cm_size_segment(size_t rounded)
{
	if (rounded <= CM_SMALL_REQUEST)
		return CM_SMALL_SEGMENT;
	if (rounded <= CM_MID_REQUEST)
		return CM_MID_SEGMENT;
	return (rounded + CM_LARGE_ROUND - 1) & ~(CM_LARGE_ROUND - 1);
}
