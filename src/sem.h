/* sem.h — what the semantic handlers share beyond exec.h. */
#ifndef WE_SEM_H
#define WE_SEM_H

#include <stdbool.h>
#include <stddef.h>

#include "exec.h"

/* Load-time checks of one instruction that the encoding allows but the
 * executor must refuse (e.g. an immediate barrier count that is not a
 * multiple of 32, SPEC-NOTES decision 3).  false with a message in err. */
bool sem_check_static(const xinsn *i, we_dialect dialect, char *err, size_t errlen);

/* LOP3.LUT / ULOP3.LUT: bit i of the result is bit (a_i*4 + b_i*2 + c_i)
 * of lut; m[k] is all ones when bit k of lut is set (branch-free, so the
 * lane loop vectorizes). */
static inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, const uint32_t m[8])
{
	return (~a & ~b & ~c & m[0]) | (~a & ~b & c & m[1]) | (~a & b & ~c & m[2]) |
	       (~a & b & c & m[3]) | (a & ~b & ~c & m[4]) | (a & ~b & c & m[5]) |
	       (a & b & ~c & m[6]) | (a & b & c & m[7]);
}

static inline void lut_masks(unsigned lut, uint32_t m[8])
{
	for (unsigned k = 0; k < 8; k++)
		m[k] = 0u - ((lut >> k) & 1u);
}

#endif
