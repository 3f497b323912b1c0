/* resolve.c — from definitions to opcodes: __Amend, inheritance (fields
 * and operand info from every ancestor), the field types and values, and
 * the checks of an opcode's fields and operands.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "isagen.h"

static int lookup_kind(gen *g, const char *type, int width, int *bft, const char *file, int line)
{
	*bft = -1;
	if (!strcmp(type, "Optype") || !strcmp(type, "SType")) {
		*bft = find_bft(g, type);
		if (*bft < 0) {
			err(g, file, line, "no '__DefBitFieldType %s' assigns its values", type);
			return -1;
		}
		return !strcmp(type, "Optype") ? K_OPTYPE : K_STYPE;
	}
	static const struct { const char *name; int kind; } fixed[] = {
		{ "Reg", K_REG }, { "UReg", K_UREG }, { "Pred", K_PRED }, { "UPred", K_UPRED },
		{ "PModi", K_NOT }, { "SignModi", K_BITNOT }, { "NegModi", K_NEG }, { "AbsModi", K_ABS },
		{ "CMem", K_CMEM }, { "F32Imm", K_FIMM },
	};
	for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
		if (!strcmp(type, fixed[k].name))
			return fixed[k].kind;
	int64_t n;
	if (!strncmp(type, "UImm", 4) && parse_int(type + 4, &n)) {
		if (n != width)
			err(g, file, line, "%s in a %d-bit field", type, width);
		return K_UIMM;
	}
	if (!strncmp(type, "SImm", 4) && parse_int(type + 4, &n)) {
		if (n != width)
			err(g, file, line, "%s in a %d-bit field", type, width);
		return K_SIMM;
	}
	*bft = find_bft(g, type);
	if (*bft >= 0)
		return K_ENUM;
	err(g, file, line, "unknown field type '%s'", type);
	return -1;
}

static int expect_width(int kind)
{
	switch (kind) {
	case K_REG: return 8;
	case K_UREG: return 6;
	case K_PRED: case K_UPRED: return 3;
	case K_NOT: case K_BITNOT: case K_NEG: case K_ABS: return 1;
	case K_CMEM: return 22;
	case K_FIMM: return 32;
	default: return 0;
	}
}


static bool resolve_value(gen *g, struct field *f)
{
	const char *v = f->valtext;
	int64_t n;
	switch (f->kind) {
	case K_OPTYPE: case K_STYPE: case K_ENUM: {
		int i = enum_index(&g->bfts[f->bft], v);
		if (i < 0) {
			err(g, f->file, f->line, "'%s' is not a value of %s", v, g->bfts[f->bft].name);
			return false;
		}
		f->value = i;
		return true;
	}
	case K_PRED: case K_UPRED:
		if (!strcmp(v, "PT") || !strcmp(v, "UPT")) {
			f->value = 7;
			return true;
		}
		if ((v[0] == 'P' && v[1] >= '0' && v[1] <= '6' && !v[2]) ||
		    (v[0] == 'U' && v[1] == 'P' && v[2] >= '0' && v[2] <= '6' && !v[3])) {
			f->value = v[strlen(v) - 1] - '0';
			return true;
		}
		break;
	case K_REG:
		if (!strcmp(v, "RZ")) {
			f->value = 255;
			return true;
		}
		break;
	case K_UREG:
		if (!strcmp(v, "URZ")) {
			f->value = 63;
			return true;
		}
		break;
	case K_NOT: case K_BITNOT: case K_NEG: case K_ABS:
		if (!strcmp(v, "False") || !strcmp(v, "false")) {
			f->value = 0;
			return true;
		}
		if (!strcmp(v, "True") || !strcmp(v, "true")) {
			f->value = 1;
			return true;
		}
		break;
	default:
		if (parse_int(v, &n)) {
			int64_t lo, hi;
			if (f->kind == K_SIMM) {
				hi = f->width >= 64 ? INT64_MAX : ((int64_t)1 << (f->width - 1)) - 1;
				lo = -hi - 1;
			} else {
				lo = 0;
				hi = f->width >= 63 ? INT64_MAX : ((int64_t)1 << f->width) - 1;
			}
			if (n < lo || n > hi) {
				err(g, f->file, f->line, "value %s does not fit field '%s'", v, f->name);
				return false;
			}
			f->value = n;
			return true;
		}
		break;
	}
	err(g, f->file, f->line, "bad value '%s' for field '%s' of type %s", v, f->name, f->type);
	return false;
}

static bool check_field(gen *g, struct field *f)
{
	f->kind = lookup_kind(g, f->type, f->width, &f->bft, f->file, f->line);
	if (f->kind < 0)
		return false;
	int ew = expect_width(f->kind);
	if (ew && ew != f->width) {
		err(g, f->file, f->line, "field '%s' of type %s must be %d bits wide, not %d",
		    f->name, f->type, ew, f->width);
		return false;
	}
	if (f->bft >= 0) {
		g->bfts[f->bft].used = true;
		if (g->bfts[f->bft].width != f->width) {
			err(g, f->file, f->line, "field '%s' is %d bits but %s is %d bits",
			    f->name, f->width, f->type, g->bfts[f->bft].width);
			return false;
		}
	}
	if (!strcmp(f->name, "opcode")) {
		err(g, f->file, f->line, "'opcode' is reserved and cannot name a field");
		return false;
	}
	bool dotted = strchr(f->name, '.') != NULL;
	bool modi = f->kind == K_NOT || f->kind == K_BITNOT || f->kind == K_NEG || f->kind == K_ABS;
	if (dotted != modi) {
		err(g, f->file, f->line, modi ? "modifier field '%s' must be named 'operand.modifier'"
					       : "field name '%s' may not contain '.'", f->name);
		return false;
	}
	if ((f->kind == K_OPTYPE || f->kind == K_STYPE) && !f->fixed) {
		err(g, f->file, f->line, "%s field must be fixed with '=='", f->type);
		return false;
	}
	if (f->fixed && f->kind != K_OPTYPE && f->kind != K_STYPE) {
		err(g, f->file, f->line, "only Optype and SType fields may be fixed with '=='");
		return false;
	}
	if (f->valtext && !resolve_value(g, f))
		return false;
	return true;
}


/* Operand info of src over dst: its lists replace dst's, its Bitwidth<>
 * and AsmFormat<> entries add to them (a later one wins). */
static void merge_opinfo(struct opinfo *dst, const struct opinfo *src)
{
	if (src->has_in) {
		memcpy(dst->in, src->in, sizeof dst->in);
		dst->nin = src->nin;
		dst->has_in = true;
	}
	if (src->has_out) {
		memcpy(dst->out, src->out, sizeof dst->out);
		dst->nout = src->nout;
		dst->has_out = true;
	}
	if (src->has_order) {
		memcpy(dst->order, src->order, sizeof dst->order);
		dst->norder = src->norder;
		dst->has_order = true;
		dst->norder_file = src->norder_file;
		dst->norder_line = src->norder_line;
	}
	for (int i = 0; i < src->nbitwidth && dst->nbitwidth < MAXN; i++)
		dst->bitwidth[dst->nbitwidth++] = src->bitwidth[i];
	for (int i = 0; i < src->nasmfmt && dst->nasmfmt < MAXN; i++)
		dst->asmfmt[dst->nasmfmt++] = src->asmfmt[i];
	if (src->has_roles) {
		memcpy(dst->roles, src->roles, sizeof dst->roles);
		dst->nroles = src->nroles;
		dst->has_roles = true;
		dst->roles_file = src->roles_file;
		dst->roles_line = src->roles_line;
	}
}

/* An __Amend's field over d's: restated (only its default may change), or
 * added. */
static void amend_field(gen *g, struct def *d, const struct field *nf)
{
	for (int j = 0; j < d->nfields; j++) {
		struct field *of = &d->fields[j];
		if (strcmp(of->name, nf->name))
			continue;
		if (of->pos != nf->pos || of->width != nf->width || strcmp(of->type, nf->type))
			err(g, nf->file, nf->line,
			    "__Amend may change only the default of field '%s' (declared at %s:%d)",
			    nf->name, of->file, of->line);
		else
			*of = *nf;
		return;
	}
	GROW(d->fields, d->nfields, d->capfields);
	d->fields[d->nfields++] = *nf;
}

void apply_amends(gen *g)
{
	for (int a = 0; a < g->namend; a++) {
		struct amend *am = &g->amends[a];
		struct def *d = get_def(g, am->target);
		if (!d) {
			err(g, am->d.file, am->d.line, "__Amend of unknown definition '%s'", am->target);
			continue;
		}
		for (int i = 0; i < am->d.nparents; i++) {
			if (d->nparents == MAXN) {
				err(g, am->d.file, am->d.line, "too many parents");
				break;
			}
			d->parents[d->nparents++] = am->d.parents[i];
		}
		for (int i = 0; i < am->d.nfields; i++)
			amend_field(g, d, &am->d.fields[i]);
		merge_opinfo(&d->oi, &am->d.oi);
		d->flags |= am->d.flags;
		for (int i = 0; i < am->d.nexc && d->nexc < 8; i++)
			d->excs[d->nexc++] = am->d.excs[i];
		if (am->d.syntax && !d->syntax)
			d->syntax = am->d.syntax;
	}
}

/* Collect ancestors (parents first, depth first, each once). */
static void collect(gen *g, struct def *d, struct def **out, int *n, int depth, bool *bad)
{
	if (depth > 32) {
		err(g, d->file, d->line, "inheritance cycle through '%s'", d->name);
		*bad = true;
		return;
	}
	for (int i = 0; i < d->nparents; i++) {
		if (!strcmp(d->parents[i], "ALL"))
			continue;
		struct def *p = get_def(g, d->parents[i]);
		if (!p) {
			err(g, d->file, d->line, "'%s' has unknown parent '%s'", d->name, d->parents[i]);
			*bad = true;
			continue;
		}
		if (p->kind == D_OPCODE) {
			err(g, d->file, d->line, "'%s' cannot derive from opcode '%s'", d->name, p->name);
			*bad = true;
			continue;
		}
		collect(g, p, out, n, depth + 1, bad);
	}
	for (int i = 0; i < *n; i++)
		if (out[i] == d)
			return;
	if (*n < MAXN)
		out[(*n)++] = d;
}

static const struct def *root_unit(gen *g, const struct def *d, int depth)
{
	if (depth > 32)
		return d;
	for (int i = 0; i < d->nparents; i++) {
		if (!strcmp(d->parents[i], "ALL"))
			return d;
		const struct def *p = get_def(g, d->parents[i]);
		if (p) {
			const struct def *u = root_unit(g, p, depth + 1);
			if (u)
				return u;
		}
	}
	return NULL;
}


/* Add one ancestor's fields to o: a field declared again must be declared
 * identically (the more derived declaration's default wins). */
static bool merge_fields(gen *g, const struct def *d, struct opc *o, const struct def *x)
{
	for (int i = 0; i < x->nfields; i++) {
		const struct field *f = &x->fields[i];
		int j = rf_find(o, f->name);
		if (j >= 0) {
			struct field *e = &o->fl[j].f;
			if (e->pos != f->pos || e->width != f->width || strcmp(e->type, f->type)) {
				err(g, f->file, f->line,
				    "field '%s' of '%s' conflicts with its declaration at %s:%d",
				    f->name, d->name, e->file, e->line);
				return false;
			}
			o->fl[j].f = *f; /* later (more derived) wins */
			continue;
		}
		if (o->nf == MAXN) {
			err(g, d->file, d->line, "too many fields");
			return false;
		}
		memset(&o->fl[o->nf], 0, sizeof o->fl[o->nf]);
		o->fl[o->nf].f = *f;
		o->nf++;
	}
	return true;
}

/* Merge d's ancestors (parents first, depth first, d last) into o and oi:
 * fields, operand info, exceptions, the optype and the dialect. */
static bool merge_ancestors(gen *g, struct def *d, struct opc *o, struct opinfo *oi)
{
	struct def *anc[MAXN];
	int na = 0;
	bool bad = false;
	collect(g, d, anc, &na, 0, &bad);
	if (bad)
		return false;
	for (int a = 0; a < na; a++) {
		struct def *x = anc[a];
		x->used = true;
		if (x->kind == D_OPTYPE) {
			if (o->optype && o->optype != x) {
				err(g, d->file, d->line, "opcode '%s' has two optypes (%s, %s)",
				    d->name, o->optype->name, x->name);
				return false;
			}
			o->optype = x;
		}
		if (!merge_fields(g, d, o, x))
			return false;
		merge_opinfo(oi, &x->oi);
		if (x->oi.has_roles)
			o->roles_owner = x;
		o->flags |= x->flags;
		for (int i = 0; i < x->nexc && o->nexc < 16; i++)
			o->excs[o->nexc++] = &x->excs[i];
		if (x->dialect) {
			if (o->dialect && strcmp(o->dialect, x->dialect)) {
				err(g, d->file, d->line, "'%s' inherits two dialects (%s, %s)", d->name,
				    o->dialect, x->dialect);
				return false;
			}
			o->dialect = x->dialect;
		}
	}
	if (!o->optype) {
		err(g, d->file, d->line, "opcode '%s' has no __DefOptype ancestor", d->name);
		return false;
	}
	return true;
}

/* Check every field's type and value; find the Optype and SType fields. */
static bool check_fields(gen *g, const struct def *d, struct opc *o)
{
	int optf = -1, stf = -1;
	for (int i = 0; i < o->nf; i++) {
		struct rfield *r = &o->fl[i];
		if (!check_field(g, &r->f))
			return false;
		r->bitwidth = 32;
		r->base = -1;
		r->mem_off = -1;
		r->cmem_bank = -1;
		r->pcrel_if_field = -1;
		r->span_by = -1;
		if (r->f.kind == K_OPTYPE)
			optf = i;
		if (r->f.kind == K_STYPE)
			stf = i;
	}
	if (optf < 0 || stf < 0) {
		err(g, d->file, d->line, "opcode '%s' needs both an Optype and an SType field", d->name);
		return false;
	}
	const struct field *of = &o->fl[optf].f;
	if (strcmp(g->bfts[of->bft].values[of->value], o->optype->name)) {
		err(g, of->file, of->line, "optype field of '%s' names '%s'", o->optype->name,
		    g->bfts[of->bft].values[of->value]);
		return false;
	}
	o->optype_val = (int)of->value;
	o->stype_val = (int)o->fl[stf].f.value;
	return true;
}

/* No two fields of an opcode share a bit. */
static bool check_overlaps(gen *g, const struct def *d, struct opc *o)
{
	for (int i = 0; i < o->nf; i++) {
		const struct field *a = &o->fl[i].f;
		for (int b = a->pos; b < a->pos + a->width; b++) {
			uint64_t bit = UINT64_C(1) << (b & 63);
			uint64_t *word = b < 64 ? &o->used_lo : &o->used_hi;
			if (*word & bit) {
				int j;
				for (j = 0; j < i; j++) {
					const struct field *c = &o->fl[j].f;
					if (b >= c->pos && b < c->pos + c->width)
						break;
				}
				err(g, a->file, a->line,
				    "field '%s' overlaps field '%s' (%s:%d) at bit %d in opcode '%s'",
				    a->name, o->fl[j].f.name, o->fl[j].f.file, o->fl[j].f.line, b, d->name);
				return false;
			}
			*word |= bit;
		}
	}
	return true;
}

/* Modifier fields (operand.modifier) belong to their operand. */
static bool link_modifiers(gen *g, const struct def *d, struct opc *o)
{
	for (int i = 0; i < o->nf; i++) {
		struct rfield *r = &o->fl[i];
		char *dot = strchr(r->f.name, '.');
		if (!dot)
			continue;
		char *bname = xstrndup(r->f.name, (size_t)(dot - r->f.name));
		r->base = rf_find(o, bname);
		if (r->base < 0) {
			err(g, r->f.file, r->f.line, "modifier '%s' of unknown operand '%s' in '%s'",
			    r->f.name, bname, d->name);
			free(bname);
			return false;
		}
		free(bname);
	}
	return true;
}

/* Order<>, InList<> and OutList<> name fields of the opcode. */
static bool resolve_lists(gen *g, const struct def *d, struct opc *o, const struct opinfo *oi)
{
	if (!oi->has_order) {
		err(g, d->file, d->line, "opcode '%s' has no Order<>", d->name);
		return false;
	}
	for (int i = 0; i < oi->norder; i++) {
		int j = rf_find(o, oi->order[i]);
		if (j < 0) {
			err(g, oi->norder_file, oi->norder_line,
			    "Order<> of '%s' names unknown field '%s'", d->name, oi->order[i]);
			return false;
		}
		for (int k = 0; k < i; k++)
			if (o->order[k] == j) {
				err(g, oi->norder_file, oi->norder_line, "Order<> of '%s' names '%s' twice",
				    d->name, oi->order[i]);
				return false;
			}
		o->order[o->norder++] = j;
	}
	for (int i = 0; i < oi->nin; i++) {
		int j = rf_find(o, oi->in[i]);
		if (j < 0) {
			err(g, d->file, d->line, "InList<> of '%s' names unknown field '%s'", d->name, oi->in[i]);
			return false;
		}
		o->fl[j].is_in = true;
	}
	for (int i = 0; i < oi->nout; i++) {
		int j = rf_find(o, oi->out[i]);
		if (j < 0) {
			err(g, d->file, d->line, "OutList<> of '%s' names unknown field '%s'", d->name, oi->out[i]);
			return false;
		}
		o->fl[j].is_out = true;
	}
	return true;
}

/* The bit width a value of a sized enum names: the number its name ends
 * with (MemSize .64, AtomType .U64); 0 when it has none. */
int value_width(const char *v)
{
	size_t n = strlen(v), k = n;
	while (k && isdigit((unsigned char)v[k - 1]))
		k--;
	if (k == n || n - k > 3)
		return 0;
	int w = atoi(v + k);
	return w == 8 || w == 16 || w == 32 || w == 64 || w == 128 ? w : 0;
}

/* Bitwidth<x> = field: register x spans as many registers as the value of
 * the enumerated field names bits (a load's .64, an atomic's .U64). */
static bool bitwidth_by(gen *g, const struct def *d, struct opc *o, int j, const struct kv *kv)
{
	int s = rf_find(o, kv->val);
	if (s < 0 || o->fl[s].f.kind != K_ENUM) {
		err(g, kv->file, kv->line, "bad Bitwidth '%s' (a number, or an enumerated field of '%s')",
		    kv->val, d->name);
		return false;
	}
	if (o->fl[j].f.kind != K_REG && o->fl[j].f.kind != K_UREG) {
		err(g, kv->file, kv->line, "Bitwidth<%s> = %s: only a register's width may follow a modifier",
		    kv->key, kv->val);
		return false;
	}
	struct bft *b = &g->bfts[o->fl[s].f.bft];
	for (int v = 0; v < b->nvalues; v++)
		if (b->values[v] && !value_width(b->values[v])) {
			err(g, kv->file, kv->line,
			    "Bitwidth<%s> = %s: value '%s' of %s names no width (8, 16, 32, 64 or 128 at its end)",
			    kv->key, kv->val, b->values[v], b->name);
			return false;
		}
	b->sized = true;
	o->fl[j].span_by = s;
	o->fl[j].bitwidth = 32;
	return true;
}

static bool resolve_bitwidths(gen *g, const struct def *d, struct opc *o, const struct opinfo *oi)
{
	for (int i = 0; i < oi->nbitwidth; i++) {
		const struct kv *kv = &oi->bitwidth[i];
		int j = rf_find(o, kv->key);
		int64_t w;
		if (j < 0) {
			err(g, kv->file, kv->line, "Bitwidth<> names unknown field '%s' in '%s'", kv->key, d->name);
			return false;
		}
		if (!parse_int(kv->val, &w)) {
			if (!bitwidth_by(g, d, o, j, kv))
				return false;
			continue;
		}
		if (w != 1 && w != 4 && w != 8 && w != 12 && w != 16 && w != 32 && w != 64 && w != 128) {
			err(g, kv->file, kv->line, "bad Bitwidth '%s'", kv->val);
			return false;
		}
		o->fl[j].bitwidth = (int)w;
		o->fl[j].span_by = -1;
	}
	return true;
}

bool role_name_ok(const char *r)
{
	bool ok = islower((unsigned char)r[0]);
	for (const char *c = r; ok && *c; c++)
		ok = islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_';
	return ok;
}

/* The names of the operands after the guard: Roles<> where an ancestor
 * gives it (its count checked), else Order<>'s field names. */
static bool resolve_roles(gen *g, const struct def *d, struct opc *o, struct opinfo *oi)
{
	int nopd = 0;
	for (int k = 0; k < o->norder; k++)
		nopd += strcmp(o->fl[o->order[k]].f.name, "pg") != 0;
	if (!oi->has_roles) {
		o->roles = xrealloc(NULL, sizeof(char *) * (size_t)(nopd ? nopd : 1));
		o->roles_owner = o->optype;
		o->roles_from_order = true;
		o->roles_file = oi->norder_file;
		o->roles_line = oi->norder_line;
		for (int k = 0; k < o->norder; k++) {
			char *name = o->fl[o->order[k]].f.name;
			if (!strcmp(name, "pg"))
				continue;
			if (!role_name_ok(name)) {
				err(g, o->roles_file, o->roles_line,
				    "operand '%s' of '%s' cannot name a role (a lower-case letter first): give "
				    "'%s' a Roles<>", name, d->name, o->optype->name);
				return false;
			}
			o->roles[o->nroles++] = name;
		}
		return true;
	}
	o->roles = xrealloc(NULL, sizeof(char *) * (size_t)(oi->nroles ? oi->nroles : 1));
	memcpy(o->roles, oi->roles, sizeof(char *) * (size_t)oi->nroles);
	o->nroles = oi->nroles;
	o->roles_file = oi->roles_file;
	o->roles_line = oi->roles_line;
	if (o->nroles != nopd) {
		err(g, oi->norder_file, oi->norder_line,
		    "'%s' has %d operand%s after the guard, but Roles<> of '%s' (%s:%d) names %d",
		    d->name, nopd, nopd == 1 ? "" : "s", o->roles_owner->name, o->roles_file, o->roles_line,
		    o->nroles);
		return false;
	}
	return true;
}

/* WritesPred from OutList<>: an output of kind Pred. */
static void derive_flags(struct opc *o)
{
	for (int i = 0; i < o->nf; i++)
		if (o->fl[i].is_out && o->fl[i].f.kind == K_PRED)
			o->flags |= 1u << flag_index("WritesPred");
}

static bool same_roles(const struct opc *a, const struct opc *b)
{
	if (a->nroles != b->nroles)
		return false;
	for (int k = 0; k < a->nroles; k++)
		if (strcmp(a->roles[k], b->roles[k]))
			return false;
	return true;
}

static void roles_text(const struct opc *o, char *buf, size_t n)
{
	buf[0] = 0;
	for (int k = 0; k < o->nroles; k++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", k ? ", " : "", o->roles[k]);
}

/* Opcodes that take their names from Order<> (their owner: the optype)
 * name their operands alike. */
static bool roles_agree(gen *g, const struct opc *ops, int nops)
{
	for (int i = 0; i < nops; i++)
		for (int j = 0; j < i; j++) {
			const struct opc *a = &ops[j], *b = &ops[i];
			if (a->roles_owner != b->roles_owner || same_roles(a, b))
				continue;
			char ra[200], rb[200];
			roles_text(a, ra, sizeof ra);
			roles_text(b, rb, sizeof rb);
			err(g, b->roles_file, b->roles_line,
			    "'%s' and '%s' (%s:%d) of optype '%s' name their operands differently (%s / %s): "
			    "give '%s' a Roles<>",
			    b->d->name, a->d->name, a->roles_file, a->roles_line, b->optype->name, rb, ra,
			    b->optype->name);
			return false;
		}
	return true;
}

/* The constants OWNER_role are unique (owner A_B with role c and owner A
 * with role b_c would not be): each owner's, once. */
static void role_constants_unique(gen *g, const struct opc *ops, int nops)
{
	char **names = xrealloc(NULL, sizeof(char *) * (size_t)(nops * MAXN + 1));
	const struct opc **from = xrealloc(NULL, sizeof(*from) * (size_t)(nops * MAXN + 1));
	int n = 0;
	for (int i = 0; i < nops; i++) {
		bool seen = false;
		for (int j = 0; j < i && !seen; j++)
			seen = ops[j].roles_owner == ops[i].roles_owner;
		for (int k = 0; !seen && k < ops[i].nroles; k++) {
			size_t len = strlen(ops[i].roles_owner->name) + strlen(ops[i].roles[k]) + 2;
			names[n] = xrealloc(NULL, len);
			snprintf(names[n], len, "%s_%s", ops[i].roles_owner->name, ops[i].roles[k]);
			from[n++] = &ops[i];
		}
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]) && from[i]->roles_owner != from[j]->roles_owner) {
				err(g, from[i]->roles_file, from[i]->roles_line,
				    "role constant %s of '%s' is also one of '%s' (%s:%d)", names[i],
				    from[i]->roles_owner->name, from[j]->roles_owner->name, from[j]->roles_file,
				    from[j]->roles_line);
				i = n;
				break;
			}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(from);
}

void check_roles(gen *g, const struct opc *ops, int nops)
{
	if (roles_agree(g, ops, nops))
		role_constants_unique(g, ops, nops);
}

/* CvtPCRelIf(x, shift, field == VALUE): args[1], args[2] */
static bool asmfmt_pcrel_if(gen *g, struct opc *o, struct rfield *r, char **args, int k)
{
	char *eq = k == 3 ? strstr(args[2], "==") : NULL;
	int64_t sh = 0;
	bool ok = eq && parse_int(args[1], &sh) && sh >= 0 && sh < 16;
	if (ok) {
		char *fname = xstrndup(args[2], (size_t)(eq - args[2]));
		size_t fl = strlen(fname);
		while (fl && fname[fl - 1] == ' ')
			fname[--fl] = 0;
		int cf = rf_find(o, fname);
		const char *vv = skipws(eq + 2);
		ok = cf >= 0 && o->fl[cf].f.kind == K_ENUM;
		if (ok) {
			int v = enum_index(&g->bfts[o->fl[cf].f.bft], vv);
			ok = v >= 0;
			r->pcrel_if_field = cf;
			r->pcrel_if_value = v;
		}
		free(fname);
	}
	r->asm_shift = (int)sh;
	return ok;
}

/* Mem(ra, off): [Ra+off];  CMemInd(ra, bank, off): c[bank][Ra+off] */
static bool asmfmt_mem(struct opc *o, struct rfield *r, char **args, int k, bool cmem)
{
	int bank = cmem && k == 3 ? rf_find(o, args[1]) : -1;
	int off = k == (cmem ? 3 : 2) ? rf_find(o, args[cmem ? 2 : 1]) : -1;
	bool ok = off >= 0 && r->f.kind == K_REG &&
		  (o->fl[off].f.kind == K_SIMM || o->fl[off].f.kind == K_UIMM) &&
		  (!cmem || (bank >= 0 && o->fl[bank].f.kind == K_UIMM));
	r->mem_off = off;
	if (cmem)
		r->cmem_bank = bank;
	if (ok) {
		o->fl[off].consumed = true;
		if (cmem)
			o->fl[bank].consumed = true;
	}
	return ok;
}

/* AsmFormat<x> = Cvt...(x, ...): how the assembler writes field x. */
static bool resolve_asmfmt(gen *g, const struct def *d, struct opc *o, const struct kv *kv)
{
	int j = rf_find(o, kv->key);
	if (j < 0) {
		err(g, kv->file, kv->line, "AsmFormat<> names unknown field '%s' in '%s'", kv->key, d->name);
		return false;
	}
	char fn[32];
	char *args[4] = { 0 };
	int k = parse_call(kv->val, fn, sizeof fn, args, 4);
	bool ok = k >= 1 && !strcmp(args[0], kv->key);
	struct rfield *r = &o->fl[j];
	int64_t sh = 0;
	if (ok && (!strcmp(fn, "CvtIShift") || !strcmp(fn, "CvtPCRel"))) {
		ok = k == 2 && parse_int(args[1], &sh) && sh >= 0 && sh < 16;
		r->asm_shift = (int)sh;
		r->pcrel = !strcmp(fn, "CvtPCRel");
	} else if (ok && !strcmp(fn, "CvtPCRelIf")) {
		ok = asmfmt_pcrel_if(g, o, r, args, k);
	} else if (ok && (!strcmp(fn, "Mem") || !strcmp(fn, "CMemInd"))) {
		ok = asmfmt_mem(o, r, args, k, !strcmp(fn, "CMemInd"));
	} else {
		ok = false;
	}
	for (int q = 0; q < 4; q++)
		free(args[q]);
	if (!ok)
		err(g, kv->file, kv->line, "bad AsmFormat '%s' for '%s'", kv->val, kv->key);
	return ok;
}

static bool in_order(const struct opc *o, int field)
{
	for (int k = 0; k < o->norder; k++)
		if (o->order[k] == field)
			return true;
	return false;
}

/* The modifiers: enumerated fields neither in Order nor consumed, whose
 * value names must not be ambiguous within the opcode. */
static bool find_modifiers(gen *g, const struct def *d, struct opc *o)
{
	for (int i = 0; i < o->nf; i++) {
		const struct rfield *r = &o->fl[i];
		if (r->f.kind == K_ENUM && !r->consumed && !in_order(o, i))
			o->mods[o->nmods++] = i;
	}
	for (int a = 0; a < o->nmods; a++)
		for (int b = a + 1; b < o->nmods; b++) {
			const struct bft *x = &g->bfts[o->fl[o->mods[a]].f.bft];
			const struct bft *y = &g->bfts[o->fl[o->mods[b]].f.bft];
			for (int i = 0; i < x->nvalues; i++)
				if (x->values[i] && enum_index(y, x->values[i]) >= 0) {
					err(g, d->file, d->line,
					    "modifier value '%s' is ambiguous in '%s' (%s and %s)",
					    x->values[i], d->name, x->name, y->name);
					return false;
				}
		}
	return true;
}

/* Every operand field appears in Order, or is a modifier or consumed. */
static bool check_all_placed(gen *g, const struct def *d, const struct opc *o)
{
	for (int i = 0; i < o->nf; i++) {
		const struct rfield *r = &o->fl[i];
		if (r->f.kind == K_OPTYPE || r->f.kind == K_STYPE || r->base >= 0 ||
		    r->consumed || r->f.kind == K_ENUM)
			continue;
		if (!in_order(o, i)) {
			err(g, r->f.file, r->f.line, "field '%s' of '%s' is in no Order<>",
			    r->f.name, d->name);
			return false;
		}
	}
	return true;
}

bool resolve_opcode(gen *g, struct def *d, struct opc *o)
{
	memset(o, 0, sizeof *o);
	o->d = d;
	struct opinfo oi;
	memset(&oi, 0, sizeof oi);
	if (!merge_ancestors(g, d, o, &oi))
		return false;
	o->unit_def = root_unit(g, d, 0);
	o->unit = o->unit_def ? o->unit_def->name : "ALL";
	if (!check_fields(g, d, o) || !check_overlaps(g, d, o) || !link_modifiers(g, d, o) ||
	    !resolve_lists(g, d, o, &oi) || !resolve_bitwidths(g, d, o, &oi) ||
	    !resolve_roles(g, d, o, &oi))
		return false;
	derive_flags(o);
	for (int i = 0; i < oi.nasmfmt; i++)
		if (!resolve_asmfmt(g, d, o, &oi.asmfmt[i]))
			return false;
	return find_modifiers(g, d, o) && check_all_placed(g, d, o);
}

/* mnemonic: __Syntax's first word with modifier placeholders/values
 * removed; the name-derived spelling ('_' -> '.') is the alternative. */
void set_mnemonics(gen *g, struct opc *o)
{
	char *byname = xstrdup(o->optype->name);
	for (char *p = byname; *p; p++)
		if (*p == '_')
			*p = '.';
	char *bysyn = NULL;
	const char *syn = o->optype->syntax;
	if (syn) {
		const char *s = skipws(syn);
		while (*s == '\n')
			s = skipws(s + 1);
		const char *e = s;
		while (*e && !isspace((unsigned char)*e))
			e++;
		char *w = xstrndup(s, (size_t)(e - s));
		/* drop optional groups: IADD3{.X} -> IADD3 */
		for (char *ob = strchr(w, '{'); ob; ob = strchr(w, '{')) {
			char *cb = strchr(ob, '}');
			if (!cb) {
				*ob = 0;
				break;
			}
			memmove(ob, cb + 1, strlen(cb + 1) + 1);
		}
		char out[256] = "";
		char *save = NULL;
		for (char *part = strtok_r(w, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
			/* a placeholder names a field (.redop, .mode); a value of a
			 * modifier (.SYNC) is no part of the mnemonic either */
			bool drop = rf_find(o, part) >= 0;
			for (int m = 0; m < o->nmods && !drop; m++)
				if (enum_index(&g->bfts[o->fl[o->mods[m]].f.bft], part) >= 0)
					drop = true;
			if (drop || strlen(out) + strlen(part) + 2 > sizeof out)
				continue;
			if (out[0])
				strcat(out, ".");
			strcat(out, part);
		}
		free(w);
		if (out[0])
			bysyn = xstrdup(out);
	}
	if (bysyn && strcmp(bysyn, byname)) {
		o->mnemonic = bysyn;
		o->alt = byname;
	} else {
		free(bysyn);
		o->mnemonic = byname;
		o->alt = NULL;
	}
}

/* ------------------------------------------------------------------ */
