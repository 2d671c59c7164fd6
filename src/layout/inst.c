/* inst.c - instantiating a layout for concrete sizes (see inst.h). */
#include <string.h>

#include "expr/expr.h"
#include "layout/inst.h"

static void *ialloc(layout_inst *in, size_t n, size_t size)
{
	void *p = lego_arena_alloc(&in->arena, (n ? n : 1) * size);
	if (!p)
		lego_fail(in->ctx, LEGO_ENOMEM, "out of memory");
	return p;
}

static int eval_dims(layout_inst *in, size_t n, lego_expr *const *dims,
		     int64_t *out, int64_t *size)
{
	int64_t p = 1;
	for (size_t k = 0; k < n; k++) {
		int rc = lego_expr_eval(in->ctx, dims[k], in->outer, &out[k]);
		if (rc != LEGO_OK)
			return rc;
		if (out[k] <= 0)
			return lego_fail(in->ctx, LEGO_ERR,
					 "layout dim %zu evaluates to %lld; "
					 "dims must be positive",
					 k + 1, (long long)out[k]);
		if (__builtin_mul_overflow(p, out[k], &p))
			return lego_fail(in->ctx, LEGO_EOVERFLOW,
					 "layout size overflows 64 bits");
	}
	*size = p;
	return LEGO_OK;
}

/* Raw (uncoalesced) view of one stage: per dim its value and weighted
 * stride (0 for GenP dims), per level its size and weight. */
typedef struct raw_stage {
	size_t nlev, nd;
	const lego_layout *const *levels;
	int64_t *dims, *stride, *lsize, *lweight;
} raw_stage;

static void regp_strides(const lego_layout *p, const int64_t *dims,
			 int64_t weight, int64_t *stride)
{
	/* apply(i) = B_{sigma(n)}(sigma(i)): dim sigma[k] gets the row-major
	 * weight of position k among the permuted dims. */
	int64_t w = weight;
	for (size_t k = p->rank; k-- > 0;) {
		size_t src = (size_t)p->perm[k] - 1;
		stride[src] = w;
		w *= dims[src];
	}
}

static int raw_init(layout_inst *in, const lego_layout *elem,
		    const lego_layout *const *single, raw_stage *r)
{
	int64_t size;
	r->levels = elem->kind == LAYOUT_ORDERBY
			    ? (const lego_layout *const *)elem->levels
			    : single;
	r->nlev = elem->kind == LAYOUT_ORDERBY ? elem->nlevels : 1;
	r->nd = elem->rank;
	r->dims = ialloc(in, r->nd, sizeof *r->dims);
	r->stride = ialloc(in, r->nd, sizeof *r->stride);
	r->lsize = ialloc(in, r->nlev, sizeof *r->lsize);
	r->lweight = ialloc(in, r->nlev, sizeof *r->lweight);
	if (!r->dims || !r->stride || !r->lsize || !r->lweight)
		return LEGO_ENOMEM;
	int rc = eval_dims(in, r->nd, elem->dims, r->dims, &size);
	if (rc != LEGO_OK)
		return rc;
	if (size != in->size)
		return lego_fail(in->ctx, LEGO_ERR,
				 "for these values a piece of the chain has "
				 "size %lld but the layout %lld (is an "
				 "assumed divisibility violated?)",
				 (long long)size, (long long)in->size);
	const int64_t *d = r->dims;
	for (size_t k = 0; k < r->nlev; k++) {
		r->lsize[k] = 1;
		for (size_t j = 0; j < r->levels[k]->rank; j++)
			r->lsize[k] *= *d++;
	}
	int64_t w = 1;
	for (size_t k = r->nlev; k-- > 0;) {
		r->lweight[k] = w;
		w *= r->lsize[k];
	}
	return LEGO_OK;
}

static int check_genp_dims(layout_inst *in, const lego_layout *leaf,
			   const int64_t *dims)
{
	const layout_genp *g = leaf->genp;
	return g->check_dims ? g->check_dims(in->ctx, g, leaf->rank, dims)
			     : LEGO_OK;
}

/* Appends dims of a run of RegP levels, merging neighbours that stay
 * contiguous (stride[k] == stride[k+1] * dims[k+1]) and dropping dims of
 * size 1. */
static void coalesce(inst_stage *st, inst_part *p, const int64_t *dims,
		     const int64_t *stride, size_t n)
{
	p->off = st->nd;
	for (size_t k = 0; k < n; k++) {
		if (dims[k] == 1)
			continue;
		if (p->nd && p->stride[p->nd - 1] == stride[k] * dims[k]) {
			st->dims[st->nd - 1] *= dims[k];
			p->stride[p->nd - 1] = stride[k];
			continue;
		}
		st->dims[st->nd++] = dims[k];
		p->stride[p->nd++] = stride[k];
	}
	p->size = 1;
	for (size_t k = 0; k < p->nd; k++)
		p->size *= st->dims[p->off + k];
	for (size_t k = 0; k < p->nd; k++) { /* insertion sort by stride */
		size_t j = k;
		for (; j > 0 && p->stride[p->order[j - 1]] > p->stride[k]; j--)
			p->order[j] = p->order[j - 1];
		p->order[j] = k;
	}
}

/* Level *k is a GenP: one part, its dims as they are. */
static int add_genp_part(layout_inst *in, const raw_stage *r,
			 inst_stage *st, size_t *k, size_t *off)
{
	const lego_layout *lv = r->levels[*k];
	int rc = check_genp_dims(in, lv, r->dims + *off);
	if (rc != LEGO_OK)
		return rc;
	inst_part *p = &st->parts[st->nparts++];
	p->is_gen = 1;
	p->leaf = lv;
	p->off = st->nd;
	p->nd = lv->rank;
	p->size = r->lsize[*k];
	p->weight = r->lweight[*k];
	memcpy(st->dims + st->nd, r->dims + *off, lv->rank * sizeof *st->dims);
	st->nd += lv->rank;
	*off += lv->rank;
	++*k;
	return LEGO_OK;
}

/* Levels *k.. up to the next GenP are RegPs: one linear part. */
static int add_regp_run(layout_inst *in, const raw_stage *r,
			inst_stage *st, size_t *k, size_t *off)
{
	size_t start = *off;
	for (; *k < r->nlev && r->levels[*k]->kind == LAYOUT_REGP; ++*k) {
		regp_strides(r->levels[*k], r->dims + *off, r->lweight[*k],
			     r->stride + *off);
		*off += r->levels[*k]->rank;
	}
	inst_part *p = &st->parts[st->nparts++];
	p->weight = r->lweight[*k - 1];
	p->stride = ialloc(in, *off - start, sizeof *p->stride);
	p->order = ialloc(in, *off - start, sizeof *p->order);
	if (!p->stride || !p->order)
		return LEGO_ENOMEM;
	coalesce(st, p, r->dims + start, r->stride + start, *off - start);
	return LEGO_OK;
}

static int add_parts(layout_inst *in, const raw_stage *r, inst_stage *st)
{
	size_t off = 0;
	for (size_t k = 0; k < r->nlev;) {
		int rc = r->levels[k]->kind == LAYOUT_GENP
				 ? add_genp_part(in, r, st, &k, &off)
				 : add_regp_run(in, r, st, &k, &off);
		if (rc != LEGO_OK)
			return rc;
	}
	return LEGO_OK;
}

static int finish_stage(layout_inst *in, inst_stage *st)
{
	st->shift = ialloc(in, st->nd, sizeof *st->shift);
	st->rowstride = ialloc(in, st->nd, sizeof *st->rowstride);
	if (!st->shift || !st->rowstride)
		return LEGO_ENOMEM;
	int64_t w = 1;
	for (size_t k = st->nd; k-- > 0;) {
		int64_t d = st->dims[k];
		st->rowstride[k] = w;
		w *= d;
		st->shift[k] = (d & (d - 1)) ? -1 : __builtin_ctzll((uint64_t)d);
	}
	return LEGO_OK;
}

static int is_identity(const inst_stage *st)
{
	const inst_part *p = &st->parts[0];
	return st->nparts == 1 && !p->is_gen &&
	       (p->nd == 0 || (p->nd == 1 && p->stride[0] == 1));
}

/* Builds the stage of one chain element; *kept = 0 when it is the
 * identity on flat indices. */
static int build_stage(layout_inst *in, const lego_layout *elem,
		       inst_stage *st, int *kept)
{
	raw_stage r;
	const lego_layout *single[1] = {elem};
	memset(st, 0, sizeof *st); /* the slot of a dropped stage is reused */
	int rc = raw_init(in, elem, single, &r);
	if (rc != LEGO_OK)
		return rc;
	st->dims = ialloc(in, r.nd, sizeof *st->dims);
	st->parts = ialloc(in, r.nlev, sizeof *st->parts);
	if (!st->dims || !st->parts)
		return LEGO_ENOMEM;
	if ((rc = add_parts(in, &r, st)) != LEGO_OK)
		return rc;
	*kept = !is_identity(st);
	return *kept ? finish_stage(in, st) : LEGO_OK;
}

static int build_stages(layout_inst *in, const lego_layout *l)
{
	size_t n = l->kind == LAYOUT_GROUPBY ? l->nchain : 1;
	in->stages = ialloc(in, n, sizeof *in->stages);
	if (!in->stages)
		return LEGO_ENOMEM;
	for (size_t k = n; k-- > 0;) {
		const lego_layout *e = l->kind == LAYOUT_GROUPBY ? l->chain[k]
								 : l;
		int kept, rc = build_stage(in, e, &in->stages[in->nstages],
					   &kept);
		if (rc != LEGO_OK)
			return rc;
		in->nstages += (size_t)kept;
	}
	return LEGO_OK;
}

static int uses_expr_genp(const layout_inst *in)
{
	for (size_t s = 0; s < in->nstages; s++)
		for (size_t k = 0; k < in->stages[s].nparts; k++) {
			const inst_part *p = &in->stages[s].parts[k];
			if (p->is_gen && !p->leaf->genp->fn.apply)
				return 1;
		}
	return 0;
}

/* The values of the caller's env, to which expression GenPs add their
 * parameters.  Unbound symbols are skipped (their lookup is no error
 * here, so the message is restored). */
static int copy_env(layout_inst *in)
{
	lego_ctx *ctx = in->ctx;
	char saved[sizeof ctx->error];
	in->env = lego_env_new(ctx);
	if (!in->env)
		return LEGO_ENOMEM;
	if (!in->outer)
		return LEGO_OK;
	memcpy(saved, ctx->error, sizeof saved);
	for (uint32_t i = 0, n = lego_expr_nsyms(ctx); i < n; i++) {
		lego_expr *sym = lego_expr_sym_at(ctx, i);
		int64_t v;
		if (lego_env_lookup(in->outer, sym, &v) == LEGO_OK &&
		    lego_env_bind(in->env, sym, v) != LEGO_OK)
			return LEGO_ENOMEM;
	}
	memcpy(ctx->error, saved, sizeof saved);
	return LEGO_OK;
}

static int alloc_scratch(layout_inst *in, const lego_layout *l)
{
	size_t n = l->rank;
	for (size_t s = 0; s < in->nstages; s++)
		n = in->stages[s].nd > n ? in->stages[s].nd : n;
	in->digits = ialloc(in, n, sizeof *in->digits);
	in->scratch = ialloc(in, n, sizeof *in->scratch);
	in->cursor = ialloc(in, n, sizeof *in->cursor);
	return in->digits && in->scratch && in->cursor ? LEGO_OK
						       : LEGO_ENOMEM;
}

int inst_init(layout_inst *in, lego_ctx *ctx, const lego_layout *l,
	      const lego_env *env)
{
	memset(in, 0, sizeof *in);
	in->ctx = ctx;
	in->outer = env;
	if (!l)
		return lego_fail(ctx, LEGO_ERR, "layout is NULL");
	in->rank = l->rank;
	in->dims = ialloc(in, l->rank, sizeof *in->dims);
	if (!in->dims)
		return LEGO_ENOMEM;
	int rc = eval_dims(in, l->rank, l->dims, in->dims, &in->size);
	if (rc == LEGO_OK)
		rc = build_stages(in, l);
	if (rc == LEGO_OK)
		rc = alloc_scratch(in, l);
	if (rc == LEGO_OK && uses_expr_genp(in))
		rc = copy_env(in);
	return rc;
}

void inst_free(layout_inst *in)
{
	lego_env_free(in->env);
	lego_arena_free(&in->arena);
	memset(in, 0, sizeof *in);
}
