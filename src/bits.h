/* bits.h — bit counting on lane and warp masks without libgcc calls. */
#ifndef WE_BITS_H
#define WE_BITS_H

#include <stdint.h>

/* Population count without a libgcc call when the baseline ISA has no
 * POPCNT instruction (it is on the per-instruction and barrier paths). */
static inline uint32_t popc32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

#endif
