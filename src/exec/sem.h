/* sem.h — what the semantic handlers share beyond exec.h. */
#ifndef WE_SEM_H
#define WE_SEM_H

#include <stdbool.h>
#include <stddef.h>

#include "exec/exec.h"

/* Load-time checks of one instruction that the encoding allows but the
 * executor must refuse (e.g. an immediate barrier count that is not a
 * multiple of 32, spec-reading decision 3).  false with a message in err. */
bool sem_check_static(const xinsn *i, we_dialect dialect, char *err, size_t errlen);

/* Warp x->w arrives at a CTA barrier (sem_bcu.c): a fault, or the warp
 * handed back to its engine to wait, or (lockstep groups) to go on with
 * the warps it released. */
struct bar_arrival;
void sem_bar_arrive(xctx *x, const struct bar_arrival *a);

/* spec-reading decision 11, intra-warp (sem_bru.c): after a BSYNC,
 * WARPSYNC or TBAR that left its executing lanes (was_active) parked;
 * state_changed: it changed what the syncs read (a B register, the
 * arrivals of a TBAR). */
void sem_sync_progress(xctx *x, uint32_t was_active, bool state_changed);

/* Loads, stores and atomics through generic addresses (sem_mem.c, for
 * sem_ptx.c's GEN_LD, GEN_ST, GEN_ATOM; exec.h xgeneric). */
void sem_generic_load(xctx *x, const xinsn *i);
void sem_generic_store(xctx *x, const xinsn *i);
void sem_generic_atom(xctx *x, const xinsn *i);

/* S2R of a register a lockstep group can read (not the clock). */
bool sem_s2r_lockstep(const xinsn *i);

/* IADD3's common case: a plain 32-bit three-way add, no carries. */
static inline bool iadd3_plain(const xinsn *i)
{
	const unsigned inv = XF_NEG | XF_BITNOT;
	return i->in->x != ISA_AddX_X &&
	       !((i->o[IADD3_ra].flags | i->o[IADD3_b].flags | i->o[IADD3_rc].flags) & inv) &&
	       i->o[IADD3_pu].row == 7 && i->o[IADD3_pv].row == 7;
}

/* Lane mask from per-lane 0/1 values. */
static inline uint32_t lanes_mask(const uint32_t v[XLANES])
{
	uint32_t m = 0;
	for_lanes(l) m |= (v[l] & 1u) << l;
	return m;
}

/* ISETP / FSETP: combine the comparison's lane mask t with {!}Pp by the
 * .bop and write Pu = t bop Pp, Pv = !t bop Pp of warp w on the lanes of
 * pmask. */
_Static_assert(FSETP_pu == ISETP_pu && FSETP_pv == ISETP_pv && FSETP_pp == ISETP_pp,
	       "ISETP and FSETP name the same positions");
static inline void sem_setp_warp(we_warp *w, const xinsn *i, uint32_t t, uint32_t pmask)
{
	uint32_t p = wpred(w, &i->o[ISETP_pp]);
	uint32_t vu, vv;
	switch (i->in->bop) {
	case ISA_BoolOp_OR: vu = t | p; vv = ~t | p; break;
	case ISA_BoolOp_XOR: vu = t ^ p; vv = ~t ^ p; break;
	default: vu = t & p; vv = ~t & p; break;
	}
	wset_pred(w, &i->o[ISETP_pu], vu, pmask);
	wset_pred(w, &i->o[ISETP_pv], vv, pmask);
}
static inline void sem_setp(xctx *x, const xinsn *i, uint32_t t)
{
	sem_setp_warp(x->w, i, t, x->pmask);
}

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
