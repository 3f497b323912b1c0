/* operand.c — what the semantic handlers use beyond the inline helpers
 * of exec.h: faults, operands that are not a plain register, constant
 * banks, and the translation of global, shared and local addresses.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "device/device.h"
#include "exec/exec.h"
#include "exec/red.h"

void xfault(xctx *x, we_fault_kind kind, uint32_t lanes, uint64_t addr, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	x->stop = true;
	x->why = WE_STOP_FAULT;
	cta_fault(x->cta, x->w, kind, lanes, x->pc, addr, msg);
}

static inline uint32_t int_mod(uint32_t v, uint8_t flags)
{
	if (flags & XF_ABS)
		v = (int32_t)v < 0 ? 0u - v : v;
	if (flags & XF_NEG)
		v = 0u - v;
	if (flags & XF_BITNOT)
		v = ~v;
	return v;
}

/* [off, off + size) of constant bank `bank`, or NULL after a fault of
 * `lanes`. */
static const uint8_t *xconst_at(xctx *x, unsigned bank, int64_t off, unsigned size, uint32_t lanes)
{
	const uint8_t *base;
	uint64_t limit;
	if (bank == 0) {
		base = x->L->params;
		limit = x->L->param_bytes;
	} else if (bank < WE_NUM_CBANKS) {
		base = x->L->mod->cbank[bank].data;
		limit = x->L->mod->cbank[bank].size;
	} else {
		base = NULL;
		limit = 0;
	}
	if (off < 0 || (uint64_t)off + size > limit) {
		xfault(x, WE_FAULT_MEM_RANGE, lanes, (uint64_t)off,
		       "constant read c[0x%x][0x%llx] of %u bytes outside the bank (%llu bytes)", bank,
		       (unsigned long long)off, size, (unsigned long long)limit);
		return NULL;
	}
	if (off % (size > 8 ? 8 : size)) {
		xfault(x, WE_FAULT_MEM_ALIGN, lanes, (uint64_t)off,
		       "misaligned constant read c[0x%x][0x%llx] of %u bytes", bank,
		       (unsigned long long)off, size);
		return NULL;
	}
	return base + off;
}

bool xconst_read(xctx *x, unsigned bank, int64_t off, unsigned size, void *out)
{
	const uint8_t *p = xconst_at(x, bank, off, size, x->pmask);
	if (p)
		memcpy(out, p, size);
	return p != NULL;
}

uint32_t xsrc_scalar(xctx *x, const xopd *o, unsigned k, bool int_mods)
{
	uint32_t v;
	switch (o->kind) {
	case XO_IMM:
	case XO_FIMM:
		v = ximm_word(o, k);
		break;
	case XO_UREG:
		v = xureg(x, o->row == ISA_UREG_URZ ? ISA_UREG_URZ : o->row + k);
		break;
	case XO_CMEM:
		if (!xconst_read(x, o->bank, o->imm + 4 * (int64_t)k, 4, &v))
			v = 0;
		break;
	default:
		v = 0;
		break;
	}
	return int_mods ? int_mod(v, o->flags) : v;
}

const uint32_t *xsrc_slow(xctx *x, const xopd *o, unsigned k, uint32_t tmp[XLANES], bool int_mods)
{
	if (o->kind == XO_REG) {
		const uint32_t *src = xrow(x, o, k);
		if (!int_mods || !(o->flags & XF_INT_MODS))
			return src;
		for_lanes(l) tmp[l] = int_mod(src[l], o->flags);
		return tmp;
	}
	uint32_t v = xsrc_scalar(x, o, k, int_mods);
	for_lanes(l) tmp[l] = v;
	return tmp;
}

uint32_t xscalar_slow(xctx *x, const xopd *o, unsigned k)
{
	if (o->kind == XO_REG) {
		uint32_t m = x->pmask ? x->pmask : x->w->active;
		return int_mod(xrow(x, o, k)[m ? xffs(m) : 0], o->flags);
	}
	return xsrc_scalar(x, o, k, true);
}

static bool aligned(uint64_t addr, unsigned size)
{
	return (addr & (uint64_t)(size - 1)) == 0;
}

/* Alignment, then bounds of a window [0, limit) of a memory space; the
 * fault names the space, the access, the limit and the first lane. */
static bool in_window(xctx *x, const char *space, const char *whose, uint64_t limit,
		      uint64_t addr, unsigned size, uint32_t lane)
{
	if (!aligned(addr, size)) {
		xfault(x, WE_FAULT_MEM_ALIGN, 1u << lane, addr,
		       "%s access of %u bytes at 0x%llx is not %u-byte aligned (first at lane %u)", space,
		       size, (unsigned long long)addr, size, lane);
		return false;
	}
	if (whose && !xfits(addr, size, limit)) {
		xfault(x, WE_FAULT_MEM_RANGE, 1u << lane, addr,
		       "%s access of %u bytes at 0x%llx is outside %s %llu bytes (first at lane %u)", space,
		       size, (unsigned long long)addr, whose, (unsigned long long)limit, lane);
		return false;
	}
	return true;
}

/* The kernel parameter whose pointer lies in allocation a (one pointing
 * at its start first), or NULL; *at: where in a it points. */
static const we_param_info *param_into(const xctx *x, const galloc *a, uint64_t *at)
{
	const we_param_info *best = NULL;
	for (unsigned i = 0; x->L->k && i < x->L->k->info.nparams; i++) {
		const we_param_info *p = &x->L->k->params[i];
		uint64_t v;
		if (p->type != WE_PARAM_PTR || p->offset + 8u > x->L->param_bytes)
			continue;
		memcpy(&v, x->L->params + p->offset, 8);
		if (v >= a->base && v - a->base < a->size && (!best || v == a->base)) {
			best = p;
			*at = v - a->base;
			if (v == a->base)
				break;
		}
	}
	return best;
}

/* A global access outside every allocation, told the way a memory
 * checker tells it: where it lies against the nearest allocation (bytes
 * before its start or past its end, its offset in it) and which kernel
 * parameter points into that allocation.  Allocations far from the
 * address (more than the gap after each, or than the allocation's size)
 * are not named: a wild pointer is not an index off by some elements. */
static void global_fault(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	uint64_t dist = 0;
	const galloc *a = dev_nearest_alloc(x->L->dev, addr, &dist);
	if (!a || dist > (a->size > WE_GMEM_GAP ? a->size : WE_GMEM_GAP)) {
		xfault(x, WE_FAULT_MEM_RANGE, 1u << lane, addr,
		       "global access of %u bytes at 0x%llx is outside every allocation (first at lane %u)", size,
		       (unsigned long long)addr, lane);
		return;
	}
	const uint64_t end = a->base + a->size;
	char where[96], what[256];
	if (addr < a->base)
		snprintf(where, sizeof where, "%llu bytes before the start", (unsigned long long)(a->base - addr));
	else if (addr >= end)
		snprintf(where, sizeof where, "%llu bytes past the end", (unsigned long long)(addr - end));
	else /* it starts inside and runs over the end */
		snprintf(where, sizeof where, "its last %llu bytes past the end",
			 (unsigned long long)(addr + size - end));
	uint64_t at = 0;
	const we_param_info *p = param_into(x, a, &at);
	const size_t nl = p ? strlen(p->name) : 0;
	char points[64] = "";
	if (p && at)
		snprintf(points, sizeof points, ", pointing at its offset %llu", (unsigned long long)at);
	if (p)
		snprintf(what, sizeof what, "parameter '%.64s%s'%s, a buffer of %llu bytes", p->name,
			 nl > 64 ? "..." : "", points, (unsigned long long)a->size);
	else
		snprintf(what, sizeof what, "an allocation of %llu bytes that no parameter points into",
			 (unsigned long long)a->size);
	const long long off = addr < a->base ? -(long long)(a->base - addr) : (long long)(addr - a->base);
	xfault(x, WE_FAULT_MEM_RANGE, 1u << lane, addr,
	       "global access of %u bytes at 0x%llx is %s (first at lane %u): %s of %s at [0x%llx, 0x%llx) (offset %lld)",
	       size, (unsigned long long)addr,
	       addr >= a->base && addr < end ? "not inside one allocation" : "outside every allocation", lane, where,
	       what, (unsigned long long)a->base, (unsigned long long)end, off);
}

uint8_t *xglobal(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (!in_window(x, "global", NULL, 0, addr, size, lane))
		return NULL;
	uint8_t *h = xglobal_span(x, addr, size);
	if (!h)
		global_fault(x, addr, size, lane);
	return h;
}

uint8_t *xglobal_span(xctx *x, uint64_t addr, uint64_t span)
{
	/* the allocation table does not change during a launch: remember the
	 * warp's last allocation (lanes of a warp mostly hit the same one) */
	const galloc *a = x->w->gcache;
	uint8_t *h;
	if (a && addr >= a->base && xfits(addr - a->base, span, a->size)) {
		h = a->host + (addr - a->base);
	} else {
		h = dev_translate_alloc(x->L->dev, addr, span, &a);
		if (h)
			x->w->gcache = a;
	}
	/* every global access of a turn comes here first: what the turn
	 * holds back of these bytes goes to memory before it (exec/red.h) */
	if (h)
		xred_touch(x->w->red, h, span);
	return h;
}

uint8_t *xshared(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (!in_window(x, "shared", "the CTA's", x->L->shared_bytes, addr, size, lane))
		return NULL;
	return x->cta->shared + addr;
}

uint8_t *xlocal(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (!in_window(x, "local", "the thread's", x->L->local_bytes, addr, size, lane))
		return NULL;
	return x->w->local + (uint64_t)lane * x->L->local_bytes + addr;
}

/* A generic address: the shared or local window (isa.h) or global.  A
 * store or an atomic into the constant window faults. */
uint8_t *xgeneric(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (addr - WE_GENERIC_SHARED < WE_GENERIC_WINDOW)
		return xshared(x, addr - WE_GENERIC_SHARED, size, lane);
	if (addr - WE_GENERIC_LOCAL < WE_GENERIC_WINDOW)
		return xlocal(x, addr - WE_GENERIC_LOCAL, size, lane);
	if (addr - WE_GENERIC_CONST < WE_GENERIC_WINDOW) {
		const uint64_t o = addr - WE_GENERIC_CONST;
		xfault(x, WE_FAULT_MEM_RANGE, 1u << lane, addr,
		       "write to constant memory: generic address 0x%llx is c[0x%llx][0x%llx], which is read-only",
		       (unsigned long long)addr, (unsigned long long)(o / WE_GENERIC_CBANK_STRIDE),
		       (unsigned long long)(o % WE_GENERIC_CBANK_STRIDE));
		return NULL;
	}
	return xglobal(x, addr, size, lane);
}

/* xgeneric for a load: the constant window too (its banks read-only:
 * the caller only reads through the pointer). */
uint8_t *xgeneric_load(xctx *x, uint64_t addr, unsigned size, uint32_t lane)
{
	if (addr - WE_GENERIC_CONST < WE_GENERIC_WINDOW) {
		const uint64_t o = addr - WE_GENERIC_CONST;
		return (uint8_t *)(uintptr_t)xconst_at(x, (unsigned)(o / WE_GENERIC_CBANK_STRIDE),
						       (int64_t)(o % WE_GENERIC_CBANK_STRIDE), size, 1u << lane);
	}
	return xgeneric(x, addr, size, lane);
}
