/* sem_mem.c — loads, stores and atomics (mem.isa).
 *
 * Every handler first translates the address of every executing lane
 * (xglobal/xshared/xlocal check range and alignment and record the
 * fault); on the first failure it returns without touching a register or
 * a byte of memory.  Only then does it access memory, lane by lane in
 * lane order, and write its destination registers last.
 *
 * Global and shared memory may be accessed by other warps on other host
 * threads at the same time, so every access of 1, 2, 4 or 8 bytes is a
 * single relaxed host atomic (a 128-bit access is two 8-byte ones); a
 * program orders them with MEMBAR.  The one exception is the shared
 * memory of a CTA that a single host thread runs (the scheduler engine):
 * 32-bit accesses at consecutive words are plain block copies there.
 * Device memory is little-endian, like the host this is built for.
 */
#include "device/device.h"
#include "exec/red.h"
#include "exec/sem.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sem_mem.c assumes a little-endian host"
#endif

typedef uint8_t *(*xlate_fn)(xctx *x, uint64_t addr, unsigned size, uint32_t lane);

/* SP_GENERIC: per lane (sem_ptx.c), a store or atomic; SP_GENERIC_LOAD: a
 * load, which may also read the constant window (xgeneric_load) */
enum space { SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_GENERIC, SP_GENERIC_LOAD };

/* Bytes and registers of a MemSize. */
static inline unsigned msize_bytes(int size)
{
	switch (size) {
	case ISA_MemSize_U8:
	case ISA_MemSize_S8: return 1;
	case ISA_MemSize_U16:
	case ISA_MemSize_S16: return 2;
	case ISA_MemSize_64: return 8;
	case ISA_MemSize_128: return 16;
	default: return 4;
	}
}

static inline unsigned msize_regs(unsigned bytes) { return bytes <= 4 ? 1u : bytes / 4u; }

/* Translate [Ra + off] for every lane of pmask into ptr[].  false after a
 * fault.  Global addresses are the 64-bit pair R[a:a+1]; shared and
 * local ones the 32-bit Ra (unsigned) plus the signed offset — a negative
 * sum is out of range, not wrapped.  *apart (when not NULL): the bytes
 * from the lowest lane's address to the highest's, where the lanes are
 * in one window, else UINT64_MAX. */
static inline __attribute__((always_inline)) bool translate_span(xctx *x, const xopd *om, enum space sp,
								      unsigned size, uint8_t *ptr[XLANES],
								      uint64_t *apart)
{
	const uint32_t pm = x->pmask;
	const uint32_t *lo = xrow(x, om, 0);
	xlate_fn fn = sp == SP_GLOBAL ? xglobal
		      : sp == SP_SHARED ? xshared
		      : sp == SP_LOCAL	? xlocal
		      : sp == SP_GENERIC ? xgeneric
					 : xgeneric_load;
	const bool wide = sp == SP_GLOBAL || sp >= SP_GENERIC; /* 64-bit addresses */
	if (!(pm & (pm - 1u))) {
		/* one lane (a thread alone, as at the end of a reduction): its
		 * address only */
		const unsigned l = xffs(pm);
		const uint64_t a = wide ? ((((uint64_t)xrow(x, om, 1)[l] << 32) | lo[l]) + (uint64_t)om->imm)
						   : (uint64_t)((int64_t)lo[l] + om->imm);
		zero_small(ptr, sizeof(ptr[0]) * XLANES);
		ptr[l] = fn(x, a, size, l);
		if (apart)
			*apart = 0;
		return ptr[l] != NULL;
	}
	uint64_t addr[XLANES];
	if (wide) {
		const uint32_t *hi = xrow(x, om, 1);
		for_lanes(l) addr[l] = (((uint64_t)hi[l] << 32) | lo[l]) + (uint64_t)om->imm;
	} else {
		for_lanes(l) addr[l] = (uint64_t)((int64_t)lo[l] + om->imm);
	}
	/* the usual case: every lane aligned and inside one window (one
	 * allocation, the CTA's shared memory, the threads' local memory):
	 * one check for the warp instead of one per lane */
	uint64_t amin = UINT64_MAX, amax = 0, anyb = 0;
	for_lanes(l) {
		const uint64_t a = LANE_ON(pm, l) ? addr[l] : addr[xffs(pm)];
		amin = a < amin ? a : amin;
		amax = a > amax ? a : amax;
		anyb |= a;
	}
	if (sp < SP_GENERIC && !(anyb & (size - 1u)) && amax - amin <= UINT32_MAX) {
		const uint64_t span = amax - amin + size;
		uint8_t *base = NULL;
		if (sp == SP_GLOBAL) {
			base = xglobal_span(x, amin, span);
		} else {
			const uint64_t limit = sp == SP_SHARED ? x->L->shared_bytes : x->L->local_bytes;
			if (xfits(amin, span, limit))
				base = sp == SP_SHARED ? x->cta->shared + amin : x->w->local + amin;
		}
		if (base) {
			const uint64_t stride = sp == SP_LOCAL ? x->L->local_bytes : 0;
			for_lanes(l) ptr[l] = LANE_ON(pm, l) ? base + (addr[l] - amin) + stride * l : NULL;
			if (apart)
				*apart = amax - amin;
			return true;
		}
	}
	if (apart)
		*apart = UINT64_MAX;
	bool ok = true;
	for_lanes(l) {
		ptr[l] = NULL;
		if (!LANE_ON(pm, l))
			continue;
		/* every lane is checked so that the report names all faulting
		 * lanes (xfault merges them) */
		ptr[l] = fn(x, addr[l], size, l);
		ok = ok && ptr[l];
	}
	return ok;
}

static inline __attribute__((always_inline)) bool translate(xctx *x, const xopd *om, enum space sp, unsigned size,
								 uint8_t *ptr[XLANES])
{
	return translate_span(x, om, sp, size, ptr, NULL);
}

/* Read `bytes` at p into up to 4 words, zero- or sign-extended. */
static inline void mem_read(const uint8_t *p, int size, uint32_t w[4])
{
	switch (size) {
	case ISA_MemSize_U8: w[0] = __atomic_load_n(p, __ATOMIC_RELAXED); break;
	case ISA_MemSize_S8: w[0] = (uint32_t)(int32_t)(int8_t)__atomic_load_n(p, __ATOMIC_RELAXED); break;
	case ISA_MemSize_U16: w[0] = __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED); break;
	case ISA_MemSize_S16:
		w[0] = (uint32_t)(int32_t)(int16_t)__atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
		break;
	case ISA_MemSize_64: {
		uint64_t v = __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
		w[0] = (uint32_t)v;
		w[1] = (uint32_t)(v >> 32);
		break;
	}
	case ISA_MemSize_128: {
		uint64_t v0 = __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
		uint64_t v1 = __atomic_load_n((const uint64_t *)(p + 8), __ATOMIC_RELAXED);
		w[0] = (uint32_t)v0;
		w[1] = (uint32_t)(v0 >> 32);
		w[2] = (uint32_t)v1;
		w[3] = (uint32_t)(v1 >> 32);
		break;
	}
	default: w[0] = __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED); break;
	}
}

static inline void mem_write(uint8_t *p, unsigned bytes, const uint32_t w[4])
{
	switch (bytes) {
	case 1: __atomic_store_n(p, (uint8_t)w[0], __ATOMIC_RELAXED); break;
	case 2: __atomic_store_n((uint16_t *)p, (uint16_t)w[0], __ATOMIC_RELAXED); break;
	case 8:
		__atomic_store_n((uint64_t *)p, ((uint64_t)w[1] << 32) | w[0], __ATOMIC_RELAXED);
		break;
	case 16:
		__atomic_store_n((uint64_t *)p, ((uint64_t)w[1] << 32) | w[0], __ATOMIC_RELAXED);
		__atomic_store_n((uint64_t *)(p + 8), ((uint64_t)w[3] << 32) | w[2], __ATOMIC_RELAXED);
		break;
	default: __atomic_store_n((uint32_t *)p, w[0], __ATOMIC_RELAXED); break;
	}
}

/* The usual 32-bit access, every lane of a warp or of a lockstep group
 * active (nl lanes), aligned, and in one window: global memory when the
 * address pairs R[a:a+1] share their high word and fall in one
 * allocation; shared memory when every Ra + off is inside
 * the CTA's.  Then the host address of lane l is base + (lo[l] - mn);
 * else false, and a group is declined (x->declined: its warps then run
 * one by one, like a single warp here, lane by lane through translate(),
 * which checks and reports).  Accesses stay single relaxed atomics:
 * other host threads may touch the same global words. */
typedef struct run32 {
	uint8_t *base;
	const uint32_t *lo;
	uint32_t mn;
	size_t nl;
} run32;
XV_INLINE bool run32_of(xctx *x, const xinsn *i, const xopd *om, enum space sp, run32 *r)
{
	if (x->pmask != 0xffffffffu || i->in->size != ISA_MemSize_32 || sp == SP_LOCAL || sp >= SP_GENERIC)
		return false;
	r->nl = XLANES * ((size_t)x->group + 1u);
	r->lo = xrow(x, om, 0);
	uint32_t lmin = UINT32_MAX, lmax = 0, any = (uint32_t)om->imm;
	for (size_t l = 0; l < r->nl; l++) {
		const uint32_t v = r->lo[l];
		lmin = v < lmin ? v : lmin;
		lmax = v > lmax ? v : lmax;
		any |= v;
	}
	r->mn = lmin;
	r->base = NULL;
	if (!(any & 3u)) {
		if (sp == SP_GLOBAL) {
			const uint32_t *h32 = xrow(x, om, 1);
			uint32_t hd = 0;
			for (size_t l = 0; l < r->nl; l++)
				hd |= h32[l] ^ h32[0];
			if (!hd)
				r->base = xglobal_span(x, (((uint64_t)h32[0] << 32) | lmin) + (uint64_t)om->imm,
						       (uint64_t)(lmax - lmin) + 4u);
		} else if ((int64_t)lmin + om->imm >= 0 &&
			   (int64_t)lmax + om->imm <= (int64_t)x->L->shared_bytes - 4) {
			r->base = x->cta->shared + lmin + om->imm;
		}
	}
	if (!r->base && x->group)
		x->declined = true;
	return r->base != NULL;
}

/* The nl addresses are consecutive words: lo[l] = lo[0] + 4l (thread i
 * at word i, the usual layout). */
XV_INLINE bool words_consecutive(const uint32_t *lo, size_t nl)
{
	/* (nl a multiple of 32; in vectors: GCC leaves the plain loop scalar) */
	const xvec step = { 0, 4, 8, 12, 16, 20, 24, 28 }, inc = xv_splat(4u * XV_W);
	xvec want = xv_splat(lo[0]) + step, bad = xv_splat(0);
	for (size_t c = 0; c < nl / XV_W; c++) {
		bad |= xv_ld(lo, c) ^ want;
		want += inc;
	}
	return !xv_or_lanes(bad);
}
/* Shared memory of a CTA that one host thread runs (cta->sync NULL: the
 * scheduler engine), where no other thread touches it: the lanes of a
 * 32-bit access at consecutive words are one plain copy.  The address of
 * every one of the nl lanes counts, active or not. */
XV_INLINE bool shared_consecutive(const xctx *x, const uint32_t *lo, size_t nl)
{
	return !x->cta->sync && words_consecutive(lo, nl);
}

/* The host address of the nl consecutive words (shared_consecutive) that
 * the lanes of x's warp or group address through om, active or not, when
 * they are all inside the CTA's shared memory and aligned; else NULL. */
XV_INLINE uint8_t *shared_block(xctx *x, const xopd *om, size_t nl)
{
	const uint32_t *lo = xrow(x, om, 0);
	if (!shared_consecutive(x, lo, nl))
		return NULL;
	const int64_t a = (int64_t)lo[0] + om->imm;
	if (a < 0 || (a & 3) || a + 4 * (int64_t)nl > (int64_t)x->L->shared_bytes)
		return NULL;
	return x->cta->shared + a;
}

/* shared_block of one warp under a partial mask pm: the active lanes at
 * consecutive words by lane (lane l at base + 4l, whatever the inactive
 * lanes hold: a tree reduction's guarded lanes keep stale addresses), and
 * the 32 words from base inside the CTA's shared memory; else NULL. */
XV_INLINE uint8_t *shared_block_masked(xctx *x, const xopd *om, uint32_t pm)
{
	if (x->cta->sync)
		return NULL;
	const uint32_t *lo = xrow(x, om, 0);
	const unsigned f = xffs(pm);
	const uint32_t b0 = lo[f] - 4u * f;
	const xvec step = { 0, 4, 8, 12, 16, 20, 24, 28 }, inc = xv_splat(4u * XV_W);
	xvec want = xv_splat(b0) + step, bad = xv_splat(0);
	for (unsigned c = 0; c < XV_N; c++) {
		bad |= (xv_ld(lo, c) ^ want) & xv_lanes(pm, c);
		want += inc;
	}
	if (xv_or_lanes(bad))
		return NULL;
	/* (b0 "below zero" wraps to a large value and fails the range) */
	const int64_t a = (int64_t)b0 + om->imm;
	if (a < 0 || (a & 3) || a + 4 * (int64_t)XLANES > (int64_t)x->L->shared_bytes)
		return NULL;
	return x->cta->shared + a;
}

/* shared_block of a full warp's or group's 32-bit access. */
XV_INLINE uint8_t *shared_run_span(xctx *x, const xinsn *i, const xopd *om)
{
	if (x->pmask != 0xffffffffu || i->in->size != ISA_MemSize_32)
		return NULL;
	return shared_block(x, om, XLANES * ((size_t)x->group + 1u));
}

/* A 32-bit shared-memory access of one warp under a partial mask (the
 * tail of a tree reduction: a few lanes): the lanes one by one, each
 * checked, no per-warp window.  The offset of each lane of pm into *off;
 * false when one is out of range or unaligned (translate() then finds
 * and reports it). */
XV_INLINE bool shared32_lanes(xctx *x, const xinsn *i, const xopd *om, uint32_t off[XLANES])
{
	if (i->in->size != ISA_MemSize_32 || x->group || x->pmask == 0xffffffffu)
		return false;
	const uint32_t *lo = xrow(x, om, 0);
	const int64_t top = (int64_t)x->L->shared_bytes - 4;
	bool ok = true;
	for (uint32_t m = x->pmask; m; m &= m - 1) {
		const unsigned l = (unsigned)__builtin_ctz(m);
		const int64_t a = (int64_t)lo[l] + om->imm;
		ok = ok && a >= 0 && a <= top && !(a & 3);
		off[l] = (uint32_t)a;
	}
	return ok;
}

/* A full warp's or group's 32-bit global access at consecutive words of
 * one allocation (thread i at word i: a streaming kernel's loads and
 * stores), found in two passes over the address rows instead of
 * run32_of's four: its host address, or NULL (the other paths decide). */
XV_INLINE uint32_t *global_words(xctx *x, const xinsn *i, const xopd *om)
{
	if (x->pmask != 0xffffffffu || i->in->size != ISA_MemSize_32)
		return NULL;
	const size_t nl = XLANES * ((size_t)x->group + 1u);
	const uint32_t *lo = xrow(x, om, 0), *hi = xrow(x, om, 1);
	/* (no wrap of the low words inside the run) */
	if (lo[0] > UINT32_MAX - 4u * (uint32_t)(nl - 1) || !words_consecutive(lo, nl))
		return NULL;
	const xvec h0 = xv_splat(hi[0]);
	xvec hd = xv_splat(0);
	for (size_t c = 0; c < nl / XV_W; c++)
		hd |= xv_ld(hi, c) ^ h0;
	const uint64_t a = (((uint64_t)hi[0] << 32) | lo[0]) + (uint64_t)om->imm;
	if (xv_or_lanes(hd) || (a & 3u))
		return NULL;
	return (uint32_t *)(void *)xglobal_span(x, a, 4u * (uint64_t)nl);
}

/* nl (a multiple of 32) consecutive words from src into d: still one
 * relaxed load each (other host threads may write global memory), the
 * span's lines prefetched first, four loads per trip (GCC keeps atomic
 * loads scalar). */
XV_INLINE void load_words(uint32_t *d, const uint32_t *src, size_t nl)
{
	for (size_t l = 0; l < nl; l += 16)
		__builtin_prefetch(src + l);
	for (size_t l = 0; l < nl; l += 4) {
		d[l] = __atomic_load_n(src + l, __ATOMIC_RELAXED);
		d[l + 1] = __atomic_load_n(src + l + 1, __ATOMIC_RELAXED);
		d[l + 2] = __atomic_load_n(src + l + 2, __ATOMIC_RELAXED);
		d[l + 3] = __atomic_load_n(src + l + 3, __ATOMIC_RELAXED);
	}
}

/* nl (a multiple of 32) words of v to the consecutive words at d, in
 * warp and lane order as the warps one by one would, one relaxed store
 * each, four per trip. */
XV_INLINE void store_words(uint32_t *d, const uint32_t *v, size_t nl)
{
	for (size_t l = 0; l < nl; l += 4) {
		__atomic_store_n(d + l, v[l], __ATOMIC_RELAXED);
		__atomic_store_n(d + l + 1, v[l + 1], __ATOMIC_RELAXED);
		__atomic_store_n(d + l + 2, v[l + 2], __ATOMIC_RELAXED);
		__atomic_store_n(d + l + 3, v[l + 3], __ATOMIC_RELAXED);
	}
}

/* LDG, LDS, LDL: Rd(..) = [Ra + off] */
static inline __attribute__((always_inline)) void do_load(xctx *x, const xinsn *i, enum space sp)
{
	run32 r;
	uint32_t off[XLANES];
	if (sp == SP_SHARED && i->in->size == ISA_MemSize_32 && !x->group && x->pmask != 0xffffffffu) {
		/* a partial warp at consecutive words: the words of every lane,
		 * kept where the lane is active (the addresses were read
		 * already: Rd may be Ra) */
		const uint8_t *src = shared_block_masked(x, &i->o[LD_addr], x->pmask);
		if (src) {
			uint32_t *d = xrow(x, &i->o[LD_rd], 0);
			for (unsigned c = 0; c < XV_N; c++) {
				const xvec m = xv_lanes(x->pmask, c);
				xv_st(d, c, (xv_ld((const uint32_t *)(const void *)src, c) & m) | (xv_ld(d, c) & ~m));
			}
			return;
		}
	}
	uint8_t *span;
	if (sp == SP_SHARED && (span = shared_run_span(x, i, &i->o[LD_addr]))) {
		/* (every address was read: Rd may be Ra) */
		memcpy(xrow(x, &i->o[LD_rd], 0), span, XLANES * ((size_t)x->group + 1u) * 4u);
		return;
	}
	if (sp == SP_SHARED && shared32_lanes(x, i, &i->o[LD_addr], off)) {
		/* (the offsets were read already: Rd may be Ra) */
		uint32_t *d = xrow(x, &i->o[LD_rd], 0);
		for (uint32_t m = x->pmask; m; m &= m - 1) {
			const unsigned l = (unsigned)__builtin_ctz(m);
			d[l] = __atomic_load_n((const uint32_t *)(x->cta->shared + off[l]), __ATOMIC_RELAXED);
		}
		return;
	}
	const uint32_t *words;
	if (sp == SP_GLOBAL && (words = global_words(x, i, &i->o[LD_addr]))) {
		load_words(xrow(x, &i->o[LD_rd], 0), words, XLANES * ((size_t)x->group + 1u));
		return;
	}
	if (run32_of(x, i, &i->o[LD_addr], sp, &r)) {
		/* (Rd may be Ra: each lane reads its address first) */
		uint32_t *d = xrow(x, &i->o[LD_rd], 0);
		if (r.lo[r.nl - 1] - r.mn == 4u * (uint32_t)(r.nl - 1) && words_consecutive(r.lo, r.nl)) {
			load_words(d, (const uint32_t *)(const void *)r.base, r.nl);
			return;
		}
		for (size_t l = 0; l < r.nl; l++)
			d[l] = __atomic_load_n((const uint32_t *)(r.base + (r.lo[l] - r.mn)), __ATOMIC_RELAXED);
		return;
	}
	if (x->declined)
		return;
	const int size = i->in->size;
	const unsigned bytes = msize_bytes(size), nr = msize_regs(bytes);
	uint8_t *ptr[XLANES];
	if (!translate(x, &i->o[LD_addr], sp, bytes, ptr))
		return;
	if (size == ISA_MemSize_32) {
		/* the usual load: straight into the destination row (the
		 * addresses were read already, so Rd may be Ra); the lanes
		 * outside pmask have no pointer and keep their value */
		uint32_t *d = xrow(x, &i->o[LD_rd], 0);
		if (x->pmask == 0xffffffffu) {
			for_lanes(l) d[l] = __atomic_load_n((const uint32_t *)ptr[l], __ATOMIC_RELAXED);
		} else {
			for_lanes(l) if (ptr[l]) d[l] = __atomic_load_n((const uint32_t *)ptr[l], __ATOMIC_RELAXED);
		}
		return;
	}
	uint32_t res[4][XLANES];
	memset(res, 0, sizeof res);
	if (nr == 1) {
		/* bytes and halves (a histogram's input): mem_read's cases, a
		 * loop each */
		uint32_t *r0 = res[0];
		switch (size) {
		case ISA_MemSize_U8:
			for_lanes(l) if (ptr[l]) r0[l] = __atomic_load_n(ptr[l], __ATOMIC_RELAXED);
			break;
		case ISA_MemSize_S8:
			for_lanes(l) if (ptr[l]) r0[l] = (uint32_t)(int32_t)(int8_t)__atomic_load_n(ptr[l],
												    __ATOMIC_RELAXED);
			break;
		default:
			for_lanes(l) if (ptr[l]) mem_read(ptr[l], size, &r0[l]);
			break;
		}
		xwrite(x, &i->o[LD_rd], 0, r0, x->pmask);
		return;
	}
	for_lanes(l) {
		if (!ptr[l])
			continue;
		uint32_t w[4];
		mem_read(ptr[l], size, w);
		for (unsigned k = 0; k < nr; k++)
			res[k][l] = w[k];
	}
	for (unsigned k = 0; k < nr; k++)
		xwrite(x, &i->o[LD_rd], k, res[k], x->pmask);
}

/* STG, STS, STL: [Ra + off] = Rb(..) */
static inline __attribute__((always_inline)) void do_store(xctx *x, const xinsn *i, enum space sp)
{
	run32 r;
	uint32_t off[XLANES];
	if (sp == SP_SHARED && i->in->size == ISA_MemSize_32 && i->o[ST_rb].kind == XO_REG && !x->group &&
	    x->pmask != 0xffffffffu) {
		uint8_t *dst = shared_block_masked(x, &i->o[ST_addr], x->pmask);
		if (dst) {
			/* (the inactive lanes' words written back as they were:
			 * no other host thread runs this CTA) */
			const uint32_t *v = xrow(x, &i->o[ST_rb], 0);
			uint32_t *w = (uint32_t *)(void *)dst;
			for (unsigned c = 0; c < XV_N; c++) {
				const xvec m = xv_lanes(x->pmask, c);
				xv_st(w, c, (xv_ld(v, c) & m) | (xv_ld(w, c) & ~m));
			}
			return;
		}
	}
	uint8_t *span;
	if (sp == SP_SHARED && i->o[ST_rb].kind == XO_REG && (span = shared_run_span(x, i, &i->o[ST_addr]))) {
		memcpy(span, xrow(x, &i->o[ST_rb], 0), XLANES * ((size_t)x->group + 1u) * 4u);
		return;
	}
	if (sp == SP_SHARED && i->o[ST_rb].kind == XO_REG && shared32_lanes(x, i, &i->o[ST_addr], off)) {
		const uint32_t *v = xrow(x, &i->o[ST_rb], 0);
		for (uint32_t m = x->pmask; m; m &= m - 1) {
			const unsigned l = (unsigned)__builtin_ctz(m);
			__atomic_store_n((uint32_t *)(x->cta->shared + off[l]), v[l], __ATOMIC_RELAXED);
		}
		return;
	}
	uint32_t *words;
	if (sp == SP_GLOBAL && i->o[ST_rb].kind == XO_REG && (words = global_words(x, i, &i->o[ST_addr]))) {
		store_words(words, xrow(x, &i->o[ST_rb], 0), XLANES * ((size_t)x->group + 1u));
		return;
	}
	if (i->o[ST_rb].kind == XO_REG && run32_of(x, i, &i->o[ST_addr], sp, &r)) {
		/* in warp and lane order, as the warps one by one would */
		const uint32_t *v = xrow(x, &i->o[ST_rb], 0);
		for (size_t l = 0; l < r.nl; l++)
			__atomic_store_n((uint32_t *)(r.base + (r.lo[l] - r.mn)), v[l], __ATOMIC_RELAXED);
		return;
	}
	if (x->declined)
		return;
	const unsigned bytes = msize_bytes(i->in->size), nr = msize_regs(bytes);
	uint8_t *ptr[XLANES];
	if (!translate(x, &i->o[ST_addr], sp, bytes, ptr))
		return;
	uint32_t tmp[4][XLANES];
	const uint32_t *src[4];
	for (unsigned k = 0; k < nr && k < 4; k++)
		src[k] = xsrc(x, &i->o[ST_rb], k, tmp[k], false);
	if (bytes == 4 && x->pmask == 0xffffffffu) {
		for_lanes(l) __atomic_store_n((uint32_t *)ptr[l], src[0][l], __ATOMIC_RELAXED);
		return;
	}
	for_lanes(l) {
		if (!ptr[l])
			continue;
		uint32_t w[4] = { 0, 0, 0, 0 };
		for (unsigned k = 0; k < nr; k++)
			w[k] = src[k][l];
		mem_write(ptr[l], bytes, w);
	}
}

XSEM(LDG) { do_load(x, i, SP_GLOBAL); }
XSEM(STG) { do_store(x, i, SP_GLOBAL); }
XSEM(LDS) { do_load(x, i, SP_SHARED); }
XSEM(STS) { do_store(x, i, SP_SHARED); }
XSEM(LDL) { do_load(x, i, SP_LOCAL); }
XSEM(STL) { do_store(x, i, SP_LOCAL); }

/* Rd(..) = c[bank][Ra + off] */
XSEM(LDC)
{
	const xopd *om = &i->o[LDC_addr];
	const int size = i->in->size;
	const unsigned bytes = msize_bytes(size), nr = msize_regs(bytes);
	const uint32_t *idx = xrow(x, om, 0);
	uint32_t res[4][XLANES];
	memset(res, 0, sizeof res);
	for_lanes(l) {
		if (!LANE_ON(x->pmask, l))
			continue;
		uint64_t buf[2];
		if (!xconst_read(x, om->bank, (int64_t)idx[l] + om->imm, bytes, buf))
			return;
		uint32_t w[4];
		mem_read((const uint8_t *)buf, size, w);
		for (unsigned k = 0; k < nr; k++)
			res[k][l] = w[k];
	}
	for (unsigned k = 0; k < nr; k++)
		xwrite(x, &i->o[LDC_rd], k, res[k], x->pmask);
}

/* ---------------------------------------------------------------- atomics */
/* atom32 / atom64: one atomic on a 4- or 8-byte word, returning the old
 * value (MIN/MAX by compare-and-swap; sgn: signed). */
#define DEF_ATOM(NAME, U, S)                                                                        \
	static U NAME(uint8_t *pb, int op, bool sgn, U v, U c)                                      \
	{                                                                                           \
		U *p = (U *)pb;                                                                     \
		switch (op) {                                                                       \
		case ISA_AtomOp_ADD: return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);             \
		case ISA_AtomOp_AND: return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);             \
		case ISA_AtomOp_OR: return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);               \
		case ISA_AtomOp_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);             \
		case ISA_AtomOp_EXCH: return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);           \
		case ISA_AtomOp_CAS: {                                                              \
			U old = v;                                                                  \
			__atomic_compare_exchange_n(p, &old, c, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
			return old;                                                                 \
		}                                                                                   \
		default: { /* MIN, MAX */                                                           \
			const bool want_min = op == ISA_AtomOp_MIN;                                 \
			U old = __atomic_load_n(p, __ATOMIC_RELAXED);                               \
			for (;;) {                                                                  \
				bool lt = sgn ? (S)v < (S)old : v < old;                            \
				bool gt = sgn ? (S)v > (S)old : v > old;                            \
				if (want_min ? !lt : !gt)                                           \
					return old;                                                 \
				if (__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, \
								__ATOMIC_RELAXED))                  \
					return old;                                                 \
			}                                                                           \
		}                                                                                   \
		}                                                                                   \
	}
DEF_ATOM(atom32, uint32_t, int32_t)
DEF_ATOM(atom64, uint64_t, int64_t)
#undef DEF_ATOM

/* ATOM.ADD of 32 bits on words other host threads may touch, lane by
 * lane in lane order; when every active lane adds to one word (a
 * counter), one host atomic of the lanes' sum, each lane getting the old
 * value plus the values of the active lanes below it: what the lanes one
 * after the other in lane order get when no other thread comes between
 * them (doc/spec-reading.md, "A warp's atomics").  (Lanes that share a
 * word among others are not looked for: finding them cost a histogram
 * more than the atomics it saved, bench/README.md.) */
static void atom_add_lanes(uint8_t *const ptr[XLANES], const uint32_t v[XLANES], uint32_t old[XLANES])
{
	unsigned f = 0;
	while (f < XLANES && !ptr[f])
		f++;
	if (f == XLANES)
		return;
	/* (a histogram's lanes leave at the second lane) */
	for (unsigned l = f + 1; l < XLANES; l++)
		if (ptr[l] && ptr[l] != ptr[f]) {
			for_lanes(k) if (ptr[k]) old[k] = __atomic_fetch_add((uint32_t *)(void *)ptr[k], v[k],
									     __ATOMIC_RELAXED);
			return;
		}
	uint32_t below[XLANES], sum = 0;
	for_lanes(l) {
		below[l] = sum;
		sum += ptr[l] ? v[l] : 0;
	}
	const uint32_t base = __atomic_fetch_add((uint32_t *)(void *)ptr[f], sum, __ATOMIC_RELAXED);
	for_lanes(l) old[l] = base + below[l];
}

/* we_atomic_map's codes are the ISA's fields (warpemu.h) */
_Static_assert(ISA_AtomOp_ADD == (int)WE_ATOM_ADD && ISA_AtomOp_MIN == (int)WE_ATOM_MIN &&
	       ISA_AtomOp_MAX == (int)WE_ATOM_MAX && ISA_AtomOp_AND == (int)WE_ATOM_AND &&
	       ISA_AtomOp_OR == (int)WE_ATOM_OR && ISA_AtomOp_XOR == (int)WE_ATOM_XOR &&
	       ISA_AtomOp_EXCH == (int)WE_ATOM_EXCH && ISA_AtomOp_CAS == (int)WE_ATOM_CAS &&
	       ISA_AtomType_U32 == (int)WE_ATOM_U32 && ISA_AtomType_S32 == (int)WE_ATOM_S32 &&
	       ISA_AtomType_U64 == (int)WE_ATOM_U64 && ISA_AtomType_S64 == (int)WE_ATOM_S64,
	       "atomic codes follow the ISA's AtomOp and AtomType");

/* A launch that merges grid parts (we_launch_part) notes its global
 * atomics per word (device/atomics.c); others skip this. */
static void note_atomics(const we_launch_ctx *L, uint8_t *const ptr[XLANES], int op, int type, bool w64,
			 bool fetched)
{
	const uint8_t code = WE_ATOMIC_CODE(op, type) | (fetched ? WE_ATOMIC_FETCHED : 0u);
	for_lanes(l) if (ptr[l]) dev_note_atomic(L->dev, ptr[l], w64 ? 8u : 4u, code);
}

/* (red.h) */
void xred_lanes(const we_launch_ctx *L, xred *r, uint8_t *const ptr[XLANES], const uint32_t v[XLANES], uint64_t apart,
		int type)
{
	if (xred_hold(r, ptr, v, apart))
		return;
	if (L->track_atomics)
		note_atomics(L, ptr, ISA_AtomOp_ADD, type, false, false);
	uint32_t old[XLANES];
	atom_add_lanes(ptr, v, old);
}

/* od: destination (NULL for RED), om: [ra+off], ob: value / compare,
 * oc: CAS new value (NULL for RED). */
static inline __attribute__((always_inline)) void do_atom(xctx *x, const xinsn *i, enum space sp, const xopd *od, const xopd *om,
		    const xopd *ob, const xopd *oc)
{
	const int op = i->in->op, type = i->in->type;
	const bool w64 = type == ISA_AtomType_U64 || type == ISA_AtomType_S64;
	const bool sgn = type == ISA_AtomType_S32 || type == ISA_AtomType_S64;
	if (op == ISA_AtomOp_CAS && !oc) {
		xfault(x, WE_FAULT_ILLEGAL_INSTR, x->pmask, x->pc, "RED has no .CAS form");
		return;
	}
	uint8_t *ptr[XLANES];
	/* the old value goes to a register (not RZ, and not RED's nowhere) */
	const bool fetched = od && !(od->kind == XO_REG && od->reg == 255);
	/* a 32-bit global ADD whose old value nothing reads: the turn holds
	 * it back (exec/red.h), when it holds reductions at all and the
	 * lanes' words are close together; its own translation applies
	 * nothing the turn holds */
	xred *const red = sp == SP_GLOBAL && !w64 && op == ISA_AtomOp_ADD && !fetched ? x->w->red : NULL;
	if (red)
		x->w->red = NULL;
	uint64_t apart;
	const bool ok = translate_span(x, om, sp, w64 ? 8u : 4u, ptr, &apart);
	if (red) {
		x->w->red = red;
		uint32_t tb[XLANES];
		if (!ok || xred_hold(red, ptr, xsrc(x, ob, 0, tb, false), apart))
			return;
	}
	if (!ok)
		return;
	if (sp == SP_GLOBAL && x->L->track_atomics)
		note_atomics(x->L, ptr, op, type, w64, fetched);
	uint32_t tb0[XLANES], tb1[XLANES], tc0[XLANES], tc1[XLANES];
	const uint32_t *b0 = xsrc(x, ob, 0, tb0, false);
	const uint32_t *b1 = w64 ? xsrc(x, ob, 1, tb1, false) : b0;
	const uint32_t *c0 = b0, *c1 = b0;
	if (op == ISA_AtomOp_CAS) {
		c0 = xsrc(x, oc, 0, tc0, false);
		c1 = w64 ? xsrc(x, oc, 1, tc1, false) : c0;
	}
	uint32_t lo[XLANES], hi[XLANES];
	memset(lo, 0, sizeof lo);
	memset(hi, 0, sizeof hi);
	if (!w64 && op == ISA_AtomOp_ADD) {
		/* the common atomic (histograms, counters) in a loop of its own,
		 * lanes in the same order; shared memory of a CTA that one host
		 * thread runs (the scheduler engine: no cta->sync) is seen by
		 * no other thread, so a plain add is as atomic there */
		if (sp == SP_SHARED && !x->cta->sync) {
			for_lanes(l) if (ptr[l]) {
				uint32_t v;
				memcpy(&v, ptr[l], 4);
				lo[l] = v;
				v += b0[l];
				memcpy(ptr[l], &v, 4);
			}
		} else {
			atom_add_lanes(ptr, b0, lo);
		}
		goto done;
	}
	for_lanes(l) {
		if (!ptr[l])
			continue;
		if (w64) {
			uint64_t r = atom64(ptr[l], op, sgn, ((uint64_t)b1[l] << 32) | b0[l],
					    ((uint64_t)c1[l] << 32) | c0[l]);
			lo[l] = (uint32_t)r;
			hi[l] = (uint32_t)(r >> 32);
		} else {
			lo[l] = atom32(ptr[l], op, sgn, b0[l], c0[l]);
		}
	}
done:
	if (!od)
		return;
	xwrite(x, od, 0, lo, x->pmask);
	if (w64)
		xwrite(x, od, 1, hi, x->pmask);
}

/* generic addresses (the PTX dialect's GEN_LD/GEN_ST/GEN_ATOM, sem_ptx.c):
 * lane by lane through translate() */
void sem_generic_load(xctx *x, const xinsn *i) { do_load(x, i, SP_GENERIC_LOAD); }
void sem_generic_store(xctx *x, const xinsn *i) { do_store(x, i, SP_GENERIC); }
void sem_generic_atom(xctx *x, const xinsn *i)
{
	/* (GEN_ATOM's operands are the ATOM group's: ATOM_rd, ...) */
	do_atom(x, i, SP_GENERIC, &i->o[ATOM_rd], &i->o[ATOM_addr], &i->o[ATOM_rb], &i->o[ATOM_rc]);
}

XSEM(ATOMG) { do_atom(x, i, SP_GLOBAL, &i->o[ATOM_rd], &i->o[ATOM_addr], &i->o[ATOM_rb], &i->o[ATOM_rc]); }
XSEM(ATOMS) { do_atom(x, i, SP_SHARED, &i->o[ATOM_rd], &i->o[ATOM_addr], &i->o[ATOM_rb], &i->o[ATOM_rc]); }
XSEM(RED) { do_atom(x, i, SP_GLOBAL, NULL, &i->o[RED_addr], &i->o[RED_rb], NULL); }
