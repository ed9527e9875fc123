/* tests/fakecuda/fakecu_pitch.h - the pitch of cudaMallocPitch and
 * cuMemAllocPitch as measured on an H200 (CUDA 13.0, issue 17): a multiple
 * of 512 bytes, whatever the element size (4, 8 or 16); the device's
 * texture pitch alignment attribute is 32 and is not what they use. The
 * fake driver answers with fk_pitch; prog_pitch checks both the fake and
 * the library (core/record/pitch.c) against the table, and scripts/gpu/probe_pitch.c
 * checks the rule against a real driver over many more widths.
 */
#ifndef FAKECU_PITCH_H
#define FAKECU_PITCH_H

#include <stddef.h>

static const struct {
	size_t width, pitch;
} fk_pitch_h200[] = {
	{ 1, 512 }, { 512, 512 }, { 513, 1024 }, { 4096, 4096 }, { 4097, 4608 },
	{ 65536, 65536 }, { 65537, 66048 },
};

static inline size_t fk_pitch(size_t width)
{
	return (width + 511) & ~(size_t)511;
}

#endif
