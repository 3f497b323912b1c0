/* bits.h — bit counting on lane and warp masks without libgcc calls, and
 * zeroing of small records without REP STOS. */
#ifndef WE_BITS_H
#define WE_BITS_H

#include <stddef.h>
#include <stdint.h>

/* Population count without a libgcc call when the baseline ISA has no
 * POPCNT instruction (it is on the per-instruction and barrier paths). */
static inline uint32_t popc32(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* n bytes at p to zero, as 16-byte stores: GCC makes a memset of a few
 * hundred bytes of known size (a warp's or a barrier's state, at every CTA
 * start) one REP STOSQ, whose start-up costs more than the stores (most
 * of cta_init_regs' time on reduce, before this). */
static inline void zero_small(void *p, size_t n)
{
	typedef uint64_t z16 __attribute__((vector_size(16), aligned(1), may_alias));
	char *b = p;
	size_t k = 0;
	for (; k + 64 <= n; k += 64) {
		*(z16 *)(void *)(b + k) = (z16){ 0, 0 };
		*(z16 *)(void *)(b + k + 16) = (z16){ 0, 0 };
		*(z16 *)(void *)(b + k + 32) = (z16){ 0, 0 };
		*(z16 *)(void *)(b + k + 48) = (z16){ 0, 0 };
#ifdef __GNUC__
		/* (k opaque: GCC would turn the loop back into that memset) */
		__asm__("" : "+r"(k));
#endif
	}
	for (; k + 16 <= n; k += 16) {
		*(z16 *)(void *)(b + k) = (z16){ 0, 0 };
#ifdef __GNUC__
		__asm__("" : "+r"(k));
#endif
	}
	for (; k < n; k++) {
		b[k] = 0;
#ifdef __GNUC__
		__asm__("" : "+r"(k));
#endif
	}
}

/* n bytes at p to zero where n is a constant: unrolled into 16-byte
 * stores (zero_small's loop, whose opaque counter keeps GCC from a REP
 * STOSQ, costs more than the stores for a hundred bytes). */
static inline void zero_const(void *p, size_t n)
{
	typedef uint64_t z16 __attribute__((vector_size(16), aligned(1), may_alias));
	char *b = p;
	size_t k = 0;
#ifdef __GNUC__
#pragma GCC unroll 16
#endif
	for (; k + 16 <= n; k += 16)
		*(z16 *)(void *)(b + k) = (z16){ 0, 0 };
	for (; k < n; k++)
		b[k] = 0;
}

#endif
