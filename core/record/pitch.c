/* core/record/pitch.c - the pitch of a pitched allocation (cudaMallocPitch,
 * cuMemAllocPitch, cudaMalloc3D), so that the cache can serve one from the
 * device pools with the pitch the driver itself would return
 * (docs/design.md, "Pinned host memory and pitch").
 *
 * The rule, as measured on an H200 (CUDA 13.0): the pitch is the width
 * rounded up to a multiple of 512 bytes (width 1 -> 512, 513 -> 1024,
 * 4097 -> 4608, 65537 -> 66048), whatever the element size. The device's
 * texture pitch alignment attribute (32) is not what the driver uses.
 * tests/fakecuda/fakecu_pitch.c holds the measured table and
 * scripts/gpu/probe_pitch.c compares the rule with a driver.
 *
 * Owns nothing; pure functions.
 * Wing: record. Calls no other file of the core.
 */
#include "record.h"

#define CM_PITCH_QUANTUM ((size_t)512)

bool cm_pitch_element_ok(unsigned element_bytes)
{
	return element_bytes == 4 || element_bytes == 8 || element_bytes == 16;
}

bool cm_pitch_size(size_t width, size_t height, size_t depth, size_t *pitch, size_t *bytes)
{
	if (width == 0 || height == 0 || depth == 0 || width > SIZE_MAX / 2)
		return false; /* CUDA's own answer: the caller passes the call on */
	size_t p = (width + CM_PITCH_QUANTUM - 1) & ~(CM_PITCH_QUANTUM - 1);
	if (height > SIZE_MAX / 2 / p || depth > SIZE_MAX / 2 / (p * height))
		return false;
	*pitch = p;
	*bytes = p * height * depth;
	return true;
}
