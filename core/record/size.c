/* core/record/size.c - request rounding and segment sizes (docs/design.md,
 * "Sizes and pools").
 *
 * The one place requests are rounded: every request becomes a multiple of
 * 512 bytes, further rounded by roundup_power2_divisions exactly as
 * PyTorch does (the interval lookup included; config/ only parses the
 * list), so that replayed traces are comparable. Requests up to 1 MiB are
 * small and carved from 2 MiB segments; up to 10 MiB from 20 MiB segments;
 * larger ones get a segment of their own rounded up to 2 MiB.
 * Wing: record. Calls no other file of the core.
 */
#include "record.h"

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

/* Interval floor(log2(size)) - 20, clamped to [0, CM_ROUNDUP_INTERVALS-1],
 * as PyTorch's roundup_power2_divisions(size): interval 0 starts at 1 MiB
 * and covers everything below 2 MiB. Size 0 maps to interval 0 (PyTorch
 * never asks for it). */
unsigned cm_size_divisions(const cm_config *cfg, size_t size)
{
	size_t index = 0;
	if (size >= 2 * CM_MiB)
		index = (size_t)(63 - __builtin_clzll((unsigned long long)size)) - 20;
	if (index > CM_ROUNDUP_INTERVALS - 1)
		index = CM_ROUNDUP_INTERVALS - 1;
	return cfg->roundup_divisions[index];
}

/* Whether no interval has divisions: every request then rounds with
 * cm_size_round_plain, which the per-thread caches inline. */
bool cm_size_rounds_plain(const cm_config *cfg)
{
	for (int i = 0; i < CM_ROUNDUP_INTERVALS; i++)
		if (cfg->roundup_divisions[i] > 1)
			return false;
	return true;
}

size_t cm_round_size(const cm_config *cfg, size_t size)
{
	if (size > SIZE_MAX / 2)
		return SIZE_MAX; /* never satisfiable; the caller reports OOM */
	unsigned div = cm_size_divisions(cfg, size);
	if (div > 1 && size > CM_MIN_BLOCK * div)
		return cm_size_next_division(size, div);
	return cm_size_round_plain(size);
}

bool cm_size_is_small(size_t rounded)
{
	return rounded <= CM_SMALL_REQUEST;
}

/* The smallest segment that serves a request: its size rounded to 2 MiB
 * (a mid request's, when its 20 MiB segment cannot be had: heap.c). */
size_t cm_size_least_segment(size_t rounded)
{
	return (rounded + CM_LARGE_ROUND - 1) & ~(CM_LARGE_ROUND - 1);
}

size_t cm_size_segment(size_t rounded)
{
	if (rounded <= CM_SMALL_REQUEST)
		return CM_SMALL_SEGMENT;
	if (rounded <= CM_MID_REQUEST)
		return CM_MID_SEGMENT;
	return cm_size_least_segment(rounded);
}
