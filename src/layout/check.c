/* check.c - exhaustive bijectivity and inverse check for concrete sizes.
 * Every GenP is checked on its own domain first, so that a broken one is
 * reported by name; then the whole layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/inst.h"


/* What is enumerated: the whole layout (leaf == NULL) or one GenP. */
typedef struct target {
	layout_inst *in;
	const lego_layout *leaf;
	const int64_t *dims;
	size_t rank;
	int64_t size;
	const char *name;   /* "" for the layout, "GenP NAME: " for a leaf */
	int64_t idx[16];    /* leaf: scratch indices (rank <= 16 checked) */
} target;

static int apply_at(target *t, int64_t x, int64_t *f)
{
	if (!t->leaf)
		return inst_apply_flat(t->in, x, f);
	inst_unflatten(t->rank, t->dims, x, t->idx);
	return inst_genp_apply(t->in, t->leaf, t->dims, t->idx, INT64_MAX, f);
}

static int apply_next(target *t, int64_t x, int64_t *f)
{
	return t->leaf ? apply_at(t, x, f) : inst_next(t->in, x, f);
}

static int inv_at(target *t, int64_t f, int64_t *x)
{
	if (!t->leaf)
		return inst_inv_flat(t->in, f, x);
	int rc = inst_genp_inv(t->in, t->leaf, t->dims, f, t->idx);
	*x = 0;
	for (size_t k = 0; k < t->rank && rc == LEGO_OK; k++)
		*x = *x * t->dims[k] + t->idx[k];
	return rc;
}

static int fail_witness(target *t, lego_check_report *rep, int64_t x,
			int64_t f, int64_t other, const char *what)
{
	/* The enumeration is over: its scratch holds the witnesses. */
	int64_t *idx = t->in->scratch, *oidx = t->in->cursor;
	char a[512], b[512];
	inst_unflatten(t->rank, t->dims, x, idx);
	memcpy(rep->witness_idx, idx,
	       (t->rank < 16 ? t->rank : 16) * sizeof *idx);
	rep->witness_flat = f;
	rep->witness_other = other;
	inst_format_index(a, sizeof a, t->rank, idx);
	if (!strcmp(what, "range"))
		return lego_fail(t->in->ctx, LEGO_EBIJECT,
				 "%snot a bijection: %s maps to %lld, outside "
				 "[0, %lld)", t->name, a, (long long)f,
				 (long long)t->size);
	if (other < 0)
		return lego_fail(t->in->ctx, LEGO_EBIJECT,
				 "%sinverse mismatch: %s maps to %lld but "
				 "inv(%lld) is outside the dims", t->name, a,
				 (long long)f, (long long)f);
	inst_unflatten(t->rank, t->dims, other, oidx);
	inst_format_index(b, sizeof b, t->rank, oidx);
	if (!strcmp(what, "collision"))
		return lego_fail(t->in->ctx, LEGO_EBIJECT,
				 "%snot a bijection: %s and %s both map to "
				 "%lld", t->name, a, b, (long long)f);
	return lego_fail(t->in->ctx, LEGO_EBIJECT,
			 "%sinverse mismatch: %s maps to %lld but inv(%lld) "
			 "= %s", t->name, a, (long long)f, (long long)f, b);
}

/* The earlier x' < x with apply(x') == f. */
static int64_t find_earlier(target *t, int64_t x, int64_t f)
{
	int64_t g;
	for (int64_t y = 0; y < x; y++)
		if (apply_at(t, y, &g) == LEGO_OK && g == f)
			return y;
	return -1;
}

/* Not bijective: then inv(apply(i)) == i cannot hold everywhere either. */
static int fail_apply(target *t, lego_check_report *rep, int64_t x,
		      int64_t f, int64_t other, const char *what)
{
	rep->bijective = 0;
	rep->inverse_ok = 0;
	return fail_witness(t, rep, x, f, other, what);
}

/* The first x whose inverse is wrong: *bad is {x, f, inv(f) or -1}. */
static int check_inverse(target *t, int64_t x, int64_t f, int64_t *bad)
{
	int64_t y;
	int rc = inv_at(t, f, &y);
	if (rc == LEGO_EBIJECT || (rc == LEGO_OK && y != x)) {
		bad[0] = x;
		bad[1] = f;
		bad[2] = rc == LEGO_OK ? y : -1;
		return LEGO_OK;
	}
	return rc;
}

/* An apply failure (out of range, collision) is reported at once; a wrong
 * inverse only once the whole domain is known to be a bijection, so that
 * the report's `bijective` is exact. */
static int run_target(target *t, lego_check_report *rep)
{
	uint64_t *seen = calloc((size_t)(t->size + 63) / 64, sizeof *seen);
	int64_t bad[3] = {-1, 0, 0};
	if (!seen)
		return lego_fail(t->in->ctx, LEGO_ENOMEM, "out of memory");
	int rc = LEGO_OK;
	if (!t->leaf)
		inst_first(t->in);
	for (int64_t x = 0, f; x < t->size && rc == LEGO_OK; x++) {
		f = -1;
		rc = apply_next(t, x, &f);
		if (rc == LEGO_EBIJECT || (rc == LEGO_OK &&
					   (f < 0 || f >= t->size))) {
			rc = fail_apply(t, rep, x, f, f, "range");
		} else if (rc == LEGO_OK && (seen[f / 64] >> (f % 64)) & 1) {
			rc = fail_apply(t, rep, x, f, find_earlier(t, x, f),
					"collision");
		} else if (rc == LEGO_OK) {
			seen[f / 64] |= UINT64_C(1) << (f % 64);
			if (bad[0] < 0)
				rc = check_inverse(t, x, f, bad);
		}
	}
	free(seen);
	if (rc == LEGO_OK && bad[0] >= 0) {
		rep->inverse_ok = 0;
		rc = fail_witness(t, rep, bad[0], bad[1], bad[2], "inverse");
	}
	return rc;
}

static int check_leaf(layout_inst *in, const inst_stage *st,
		      const inst_part *p, lego_check_report *rep)
{
	char name[300];
	target t = {.in = in, .leaf = p->leaf, .dims = st->dims + p->off,
		    .rank = p->nd, .size = p->size, .name = name};
	if (p->nd > 16)
		return lego_fail(in->ctx, LEGO_ERR, "check: GenP %s has more "
				 "than 16 dims", p->leaf->genp->name);
	snprintf(name, sizeof name, "GenP %s: ", p->leaf->genp->name);
	return run_target(&t, rep);
}

static int check_genps(layout_inst *in, lego_check_report *rep)
{
	for (size_t s = 0; s < in->nstages; s++)
		for (size_t k = 0; k < in->stages[s].nparts; k++) {
			const inst_part *p = &in->stages[s].parts[k];
			int rc = p->is_gen ? check_leaf(in, &in->stages[s], p,
							rep)
					   : LEGO_OK;
			if (rc != LEGO_OK)
				return rc;
		}
	return LEGO_OK;
}

int layout_check_limit(lego_ctx *ctx, int64_t size)
{
	if (size <= LAYOUT_CHECK_LIMIT)
		return LEGO_OK;
	return lego_fail(ctx, LEGO_ERR, "check: the layout has %lld elements; "
			 "the check enumerates at most 2^31 = %lld "
			 "(docs/language.md, \"Limits\")", (long long)size,
			 (long long)LAYOUT_CHECK_LIMIT);
}

int lego_layout_check(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, lego_check_report *report)
{
	if (!ctx || !l)
		return lego_fail(ctx, LEGO_ERR, "check: no layout");
	if (l->real)
		return layout_padded_check(ctx, l, env, report);
	layout_inst in;
	lego_check_report rep = {.bijective = 1, .inverse_ok = 1};
	int rc = inst_init(&in, ctx, l, env);
	if (rc == LEGO_OK)
		rc = layout_check_limit(ctx, in.size);
	rep.size = in.size;
	if (rc == LEGO_OK)
		rc = check_genps(&in, &rep);
	if (rc == LEGO_OK) {
		target t = {.in = &in, .dims = in.dims, .rank = in.rank,
			    .size = in.size, .name = ""};
		rc = run_target(&t, &rep);
	}
	inst_free(&in);
	if (report)
		*report = rep;
	return rc;
}
