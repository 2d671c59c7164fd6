/* infer.c - layout inference for tile programs (Hexcute, seed 002,
 * section 5).  The mma is the anchor: it fixes the TV layouts of its
 * operands and accumulator (its fragments tiled over each warp's slice).
 * Casts carry a layout both ways until nothing changes; two anchors that
 * meet on one tensor are a conflict, reported at both places.  Each
 * load then gets the widest ldmatrix whose lanes, placed at every multiple
 * of its footprint, hold elements of the registers the layout gives them,
 * and each shared tile the layout `lego synth` chooses for its copy and
 * its load. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "synth/prog.h"

static int fail_at(lego_ctx *ctx, const synth_prog *p, int line, int col,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail_at(lego_ctx *ctx, const synth_prog *p, int line, int col,
		   const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return lego_fail(ctx, LEGO_ERR, "%s:%d:%d: error: %s", p->file, line,
			 col, msg);
}

static const char *role_name(prog_role r)
{
	return r == ROLE_A ? "the mma's A operand"
	     : r == ROLE_B ? "the mma's B operand" : "the mma's accumulator";
}

/* Types and shapes, forward in program order (a tensor is declared
 * before it is read). */
static int shapes(lego_ctx *ctx, synth_prog *p)
{
	const int64_t *blk = p->block;
	for (size_t k = 0; k < p->n; k++) {
		prog_tensor *x = &p->t[k];
		prog_tensor *s = x->src >= 0 ? &p->t[x->src] : NULL;
		if (x->op == OP_COPY && strcmp(x->type, s->type))
			return fail_at(ctx, p, x->op_line, x->op_col, "copy of "
				       "%s '%s' into %s '%s'", s->type,
				       s->name, x->type, x->name);
		if (x->op == OP_LOAD || x->op == OP_CAST) {
			if (x->op == OP_LOAD && x->type &&
			    strcmp(x->type, s->type))
				return fail_at(ctx, p, x->op_line, x->op_col,
					       "load of %s '%s' into %s '%s'"
					       " (cast after loading)",
					       s->type, s->name, x->type,
					       x->name);
			if (x->op == OP_CAST && !x->type)
				return fail_at(ctx, p, x->line, x->col, "a cast "
					       "needs the type: reg %s : TYPE"
					       " = cast(..)", x->name);
			if (!x->type)
				x->type = s->type;
			x->rows = s->rows;
			x->cols = s->cols;
		}
		if (x->op == OP_MMA) {
			prog_tensor *a = s, *b = &p->t[x->src2];
			if (a->op != OP_LOAD || b->op != OP_LOAD)
				return fail_at(ctx, p, x->op_line, x->op_col,
					       "the mma's operands are loads "
					       "from shared tiles");
			if (x->type && strcmp(x->type, "f32"))
				return fail_at(ctx, p, x->line, x->col, "mma "
					       "m16n8k16 accumulates f32, not "
					       "%s", x->type);
			x->type = "f32";
			if (strcmp(a->type, b->type) ||
			    !strcmp(a->type, "f32"))
				return fail_at(ctx, p, x->op_line, x->op_col,
					       "mma m16n8k16 multiplies f16 or"
					       " bf16 operands of one type, "
					       "not %s and %s", a->type,
					       b->type);
			if (a->rows != blk[0] || a->cols != blk[2] ||
			    b->rows != blk[1] || b->cols != blk[2])
				return fail_at(ctx, p, x->op_line, x->op_col,
					       "mma of a %lld x %lld and a "
					       "%lld x %lld tile; the block "
					       "needs [BM, BK] = [%lld, %lld] "
					       "and [BN, BK] = [%lld, %lld]",
					       (long long)a->rows,
					       (long long)a->cols,
					       (long long)b->rows,
					       (long long)b->cols,
					       (long long)blk[0],
					       (long long)blk[2],
					       (long long)blk[1],
					       (long long)blk[2]);
			if (blk[0] % (16 * p->warps[0]) ||
			    blk[1] % (8 * p->warps[1]) || blk[2] % 16)
				return fail_at(ctx, p, x->op_line, x->op_col,
					       "block [%lld, %lld, %lld] does "
					       "not split into m16n8k16 tiles "
					       "over warps [%lld, %lld]",
					       (long long)blk[0],
					       (long long)blk[1],
					       (long long)blk[2],
					       (long long)p->warps[0],
					       (long long)p->warps[1]);
			x->rows = blk[0];
			x->cols = blk[1];
		}
		x->elem = synth_type_bytes(x->type);
	}
	return 0;
}

/* The anchor: x must have role r, fixed at line:col. */
static int anchor(lego_ctx *ctx, synth_prog *p, prog_tensor *x, prog_role r,
		  int line, int col)
{
	if (x->role == ROLE_NONE) {
		x->role = r;
		x->anchor_line = line;
		x->anchor_col = col;
		return 0;
	}
	if (x->role == r)
		return 0;
	return fail_at(ctx, p, line, col, "conflicting layouts for '%s': %s "
		       "needs its fragment layout here, but %s fixed another "
		       "at %d:%d", x->name, role_name(r), role_name(x->role),
		       x->anchor_line, x->anchor_col);
}

/* Anchors from the mma, then casts both ways until a fixpoint. */
static int propagate(lego_ctx *ctx, synth_prog *p)
{
	prog_tensor *m = &p->t[p->mma];
	if (anchor(ctx, p, m, ROLE_C, m->op_line, m->op_col) ||
	    anchor(ctx, p, &p->t[m->src], ROLE_A, m->op_line, m->op_col) ||
	    anchor(ctx, p, &p->t[m->src2], ROLE_B, m->op_line, m->op_col))
		return -1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t k = 0; k < p->n; k++) {
			prog_tensor *x = &p->t[k];
			if (x->op != OP_CAST)
				continue;
			prog_tensor *s = &p->t[x->src];
			prog_tensor *from = x->role ? x : s, *to = x->role ? s : x;
			if (!from->role || (to->role == from->role))
				continue;
			if (anchor(ctx, p, to, from->role, x->op_line, x->op_col))
				return -1;
			changed = 1;
		}
	}
	for (size_t k = 0; k < p->n; k++)
		if (p->t[k].kind == PT_REG && !p->t[k].role)
			return fail_at(ctx, p, p->t[k].line, p->t[k].col,
				       "cannot infer the layout of '%s': no "
				       "mma fixes it, directly or through "
				       "casts", p->t[k].name);
	return 0;
}

/* x's TV layout: its role's fragment tiled over its warp's slice, value
 * v = fragment value + fragment values * (row rep * col reps + col rep). */
static int tile_fragment(lego_ctx *ctx, synth_prog *p, prog_tensor *x)
{
	static const lego_tv_kind kinds[] = {0, LEGO_TV_MMA_A, LEGO_TV_MMA_B,
					     LEGO_TV_MMA_C};
	x->frag = lego_tv_builtin(ctx, kinds[x->role], 16,
				  x->role == ROLE_C ? x->elem : 2);
	if (!x->frag)
		return -1;
	int tr = x->role == ROLE_B;     /* B's K x N fragment, read as N x K */
	int64_t fr = tr ? x->frag->cols : x->frag->rows;
	int64_t fc = tr ? x->frag->rows : x->frag->cols;
	x->wrows = x->rows / p->warps[x->role == ROLE_B];
	x->wcols = x->role == ROLE_C ? x->cols / p->warps[1] : x->cols;
	int64_t reps_c = x->wcols / fc, fv = x->frag->values;
	x->values = fv * (x->wrows / fr) * reps_c;
	x->table = lego_xalloc(ctx, (size_t)(32 * x->values) *
			       sizeof *x->table);
	if (!x->table)
		return -1;
	for (int64_t l = 0; l < 32; l++)
		for (int64_t v = 0; v < x->values; v++) {
			int64_t rep = v / fv, r, c;
			if (lego_tv_coord(ctx, x->frag, l, v % fv, &r, &c))
				return -1;
			if (tr) {
				int64_t t = r;
				r = c;
				c = t;
			}
			r += rep / reps_c * fr;
			c += rep % reps_c * fc;
			x->table[l * x->values + v] = r * x->wcols + c;
		}
	return 0;
}

/* The built-in ldmatrix's matrix holding matrix j of an x4 whose
 * matrices go by rows (0 1 across the top half) instead of down the
 * columns (0 1 down the left half): the lanes choose the order, by the
 * row addresses they give. */
int64_t synth_ldm_matrix(int by_rows, int64_t j)
{
	return by_rows ? j / 2 + 2 * (j % 2) : j;
}

/* Does instr, its matrices in the order by_rows says, at every block of
 * the slice, write each value j of lane l to an element that lane l holds
 * as one register value reg[j] for all lanes, pairs of 16-bit values into
 * one 32-bit register?  *in_order: and matrices 2q and 2q + 1 fill an
 * aligned pair of 32-bit registers, the unit in which the mma reads its
 * fragments: ldmatrix writes four consecutive registers, so any other
 * order makes the compiler move them. */
static int fits(lego_ctx *ctx, const prog_tensor *x, const lego_tv *in,
		int by_rows, int64_t *reg, const int64_t *owner, int *in_order)
{
	if (x->wrows % in->rows || x->wcols % in->cols)
		return 0;
	int64_t bc = x->wcols / in->cols, nb = x->wrows / in->rows * bc;
	*in_order = 1;
	for (int64_t b = 0; b < nb; b++)
		for (int64_t j = 0; j < in->values; j++) {
			int64_t *to = &reg[b * in->values + j];
			int64_t v = 2 * synth_ldm_matrix(by_rows, j / 2) + j % 2;
			for (int64_t l = 0; l < 32; l++) {
				int64_t r, c;
				if (lego_tv_coord(ctx, in, l, v, &r, &c))
					return -1;
				r += b / bc * in->rows;
				c += b % bc * in->cols;
				int64_t o = owner[r * x->wcols + c];
				if (o / x->values != l ||
				    (l && o % x->values != *to))
					return 0;
				*to = o % x->values;
			}
			if (j % 2 ? *to != to[-1] + 1 : *to % 2)
				return 0;
			/* matrices 2q, 2q+1: an aligned pair of 32-bit
			 * registers, as the fragments are read */
			if (j % 4 == 2 && (to[-2] % 4 || *to != to[-2] + 2))
				*in_order = 0;
		}
	return 1;
}

/* The widest ldmatrix that gives the load's registers their layout,
 * preferring the matrix order that writes them in order. */
static int select_load(lego_ctx *ctx, synth_prog *p, prog_tensor *x)
{
	static const int cand[][2] = {{4, 0}, {4, 1}, {2, 0}, {1, 0}};
	int64_t n = 32 * x->values;
	int64_t *owner = lego_xalloc(ctx, (size_t)n * sizeof *owner);
	int64_t *reg = lego_xalloc(ctx, (size_t)x->values * sizeof *reg);
	x->reg = lego_xalloc(ctx, (size_t)x->values * sizeof *x->reg);
	if (!owner || !reg || !x->reg)
		return -1;
	for (int64_t k = 0; k < n; k++)
		owner[x->table[k]] = k;
	for (size_t k = 0; k < 4 && x->elem == 2; k++) {
		const lego_tv *in = lego_tv_builtin(ctx, LEGO_TV_LDMATRIX,
						    cand[k][0], 2);
		int in_order, ok = in ? fits(ctx, x, in, cand[k][1], reg, owner,
					     &in_order) : -1;
		if (ok < 0)
			return -1;
		if (!ok || (x->instr && !in_order))
			continue;
		x->instr = in;
		x->by_rows = cand[k][1];
		memcpy(x->reg, reg, (size_t)x->values * sizeof *reg);
		if (in_order)
			return 0;
	}
	if (x->instr)
		return 0;
	return fail_at(ctx, p, x->op_line, x->op_col, "no ldmatrix gives '%s' "
		       "the layout %s fixed at %d:%d", x->name,
		       role_name(x->role), x->anchor_line, x->anchor_col);
}

/* The copy in global memory: its coalescing, and its wavefronts as
 * cp.async runs them (a phase one global line at a time), for the tile's
 * rows in a row-major global whose rows start 128-byte aligned (the sizes
 * are symbols; any such pitch gives the same sectors and lines when the
 * tile's rows are whole sectors). */
static int global_cost(lego_ctx *ctx, prog_tensor *s)
{
	int64_t n = s->rows * s->cols;
	int64_t pitch = (s->cols * s->elem + 127) / 128 * 128 / s->elem;
	int64_t *off = lego_xalloc(ctx, (size_t)(2 * n) * sizeof *off);
	if (!off)
		return -1;
	int64_t *shared = off + n;
	for (int64_t e = 0; e < n; e++) {
		int64_t idx[2] = {e / s->cols, e % s->cols};
		off[e] = idx[0] * pitch + idx[1];
		if (lego_layout_apply_num(ctx, s->synth.layout, NULL, idx,
					  &shared[e]))
			return -1;
	}
	lego_smem g = {s->rows, s->cols, s->rows * pitch, off};
	lego_smem sm = {s->rows, s->cols, n + s->synth.pad_bytes / s->elem,
			shared};
	lego_access_cost *copy = &s->synth.cost[0];
	int64_t before = copy->wavefronts;
	if (lego_tv_access_cost(ctx, s->access[0], &g, &s->global) ||
	    synth_access_cost(ctx, s->access[0], synth_tv_table(s->access[0]),
			      &sm, &g, -1, 0, copy))
		return -1;
	s->synth.wavefronts += copy->wavefronts - before;
	return 0;
}

/* Each shared tile's layout, by lego synth from its copy and its load. */
static int choose_shared(lego_ctx *ctx, synth_prog *p, prog_tensor *s)
{
	int64_t threads = 32 * p->warps[0] * p->warps[1];
	int64_t idx = s - p->t;
	const prog_tensor *load = NULL;
	for (size_t k = 0; k < p->n; k++)
		if (p->t[k].op == OP_LOAD && p->t[k].src == idx) {
			if (load)
				return fail_at(ctx, p, p->t[k].op_line,
					       p->t[k].op_col, "a second load "
					       "of '%s' (the first at %d:%d)",
					       s->name, load->op_line,
					       load->op_col);
			load = &p->t[k];
		}
	if (!load)
		return fail_at(ctx, p, s->line, s->col, "'%s' is never loaded",
			       s->name);
	if ((s->bytes != 4 && s->bytes != 8 && s->bytes != 16) ||
	    (s->rows * s->cols * s->elem) % (threads * s->bytes) ||
	    (s->cols * s->elem) % s->bytes)
		return fail_at(ctx, p, s->op_line, s->op_col, "a copy of %lld "
			       "threads x %lld bytes (4, 8 or 16) must tile "
			       "the %lld x %lld tile by whole rows",
			       (long long)threads, (long long)s->bytes,
			       (long long)s->rows, (long long)s->cols);
	s->access[0] = lego_tv_builtin(ctx, LEGO_TV_COPY, s->bytes, s->elem);
	s->access[1] = load->instr;
	if (!s->access[0] || lego_synth(ctx, s->name, s->rows, s->cols, s->elem,
					2, s->access, 0, &s->synth) ||
	    global_cost(ctx, s))
		return fail_at(ctx, p, s->line, s->col, "%s",
			       lego_ctx_error(ctx));
	return 0;
}

enum { SMEM_MAX = 227 * 1024, THREADS_MAX = 1024 };

/* What the kernel's pipeline and a block allow. */
static int pipeline_limits(lego_ctx *ctx, const synth_prog *p)
{
	int64_t threads = 32 * p->warps[0] * p->warps[1];
	if (p->stages < 2)
		return fail_at(ctx, p, p->at[2][0], p->at[2][1], "stages %lld: "
			       "the pipeline needs 2 or more",
			       (long long)p->stages);
	if (threads > THREADS_MAX)
		return fail_at(ctx, p, p->at[1][0], p->at[1][1], "warps [%lld, "
			       "%lld]: %lld threads, over %d",
			       (long long)p->warps[0], (long long)p->warps[1],
			       (long long)threads, THREADS_MAX);
	return 0;
}

/* The stages of the shared tiles, padding included, in a block's shared
 * memory. */
static int smem_limit(lego_ctx *ctx, const synth_prog *p)
{
	int64_t bytes = 0;
	for (size_t k = 0; k < p->n; k++)
		if (p->t[k].kind == PT_SHARED)
			bytes += p->stages * (p->t[k].rows * p->t[k].cols *
					      p->t[k].elem +
					      p->t[k].synth.pad_bytes);
	if (bytes > SMEM_MAX)
		return fail_at(ctx, p, p->at[2][0], p->at[2][1], "%lld stages "
			       "of the shared tiles take %lld bytes, over the "
			       "%d of a block", (long long)p->stages,
			       (long long)bytes, SMEM_MAX);
	return 0;
}

/* The globals' sizes agree with the mma: A [M, K], B [N, K], C [M, N]. */
static int sizes(lego_ctx *ctx, const synth_prog *p)
{
	const prog_tensor *m = &p->t[p->mma];
	const prog_tensor *ga = &p->t[p->t[p->t[m->src].src].src];
	const prog_tensor *gb = &p->t[p->t[p->t[m->src2].src].src];
	const prog_tensor *gc = &p->t[p->store];
	const prog_tensor *bad = strcmp(ga->dim[1], gb->dim[1]) ? gb
			       : strcmp(gc->dim[0], ga->dim[0]) ||
				 strcmp(gc->dim[1], gb->dim[0]) ? gc : NULL;
	if (bad)
		return fail_at(ctx, p, bad->line, bad->col, "'%s' [%s, %s]: the"
			       " mma reads A [M, K] = %s [%s, %s] and B [N, K],"
			       " and the store writes C [M, N]", bad->name,
			       bad->dim[0], bad->dim[1], ga->name, ga->dim[0],
			       ga->dim[1]);
	return 0;
}

int synth_prog_infer(lego_ctx *ctx, synth_prog *p)
{
	if (!ctx || !p)
		return -1;
	if (pipeline_limits(ctx, p) || shapes(ctx, p) || propagate(ctx, p))
		return -1;
	prog_tensor *st = &p->t[p->store], *sv = &p->t[p->store_src];
	if (sv->role != ROLE_C || strcmp(st->type, sv->type))
		return fail_at(ctx, p, p->store_line, p->store_col, "store of "
			       "%s '%s' (%s) into %s '%s': a store writes the "
			       "mma's result, of the global's type (cast it)",
			       sv->type, sv->name, role_name(sv->role),
			       st->type, st->name);
	if (sizes(ctx, p))
		return -1;
	for (size_t k = 0; k < p->n; k++)
		if (p->t[k].kind == PT_REG && tile_fragment(ctx, p, &p->t[k]))
			return -1;
	for (size_t k = 0; k < p->n; k++)
		if (p->t[k].op == OP_LOAD && select_load(ctx, p, &p->t[k]))
			return -1;
	for (size_t k = 0; k < p->n; k++)
		if (p->t[k].kind == PT_SHARED &&
		    choose_shared(ctx, p, &p->t[k]))
			return -1;
	return smem_limit(ctx, p);
}
