/* run.c - per-element numeric apply and inverse of an instantiated
 * layout.  No allocation here: this is the inner loop of table and check. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "layout/inst.h"

void inst_format_index(char *buf, size_t cap, size_t n, const int64_t *idx)
{
	size_t used = 0;
	int w = snprintf(buf, cap, "(");
	for (size_t k = 0; k < n && w >= 0 && (used += (size_t)w) < cap; k++)
		w = snprintf(buf + used, cap - used, "%s%lld", k ? ", " : "",
			     (long long)idx[k]);
	if (w >= 0 && (used += (size_t)w) < cap)
		snprintf(buf + used, cap - used, ")");
}

void inst_unflatten(size_t n, const int64_t *dims, int64_t x, int64_t *idx)
{
	for (size_t k = n; k-- > 0;) {
		idx[k] = x % dims[k];
		x /= dims[k];
	}
}

void inst_odometer_next(size_t nd, const int64_t *dims, int64_t *digits)
{
	for (size_t k = nd; k-- > 0;) {
		if (++digits[k] < dims[k])
			return;
		digits[k] = 0;
	}
}

/* x / d and x % d for x >= 0; shift >= 0 when d == 2^shift. */
static inline int64_t divmod(int64_t x, int64_t d, int shift, int64_t *rem)
{
	if (shift >= 0) {
		*rem = x & (d - 1);
		return x >> shift;
	}
	*rem = x % d;
	return x / d;
}

/* The evaluator's message names the failing operation in Python with the
 * genp's template names ("division by zero in g.i // 0"): said again in the
 * language's terms ("i / 0"), at the formula's place in the spec. */
static int expr_fail(layout_inst *in, const layout_genp *g, int rc,
		     const char *where, const char *at)
{
	char detail[1024];
	const char *m = lego_ctx_error(in->ctx);
	size_t nlen = strlen(g->name), w = 0;
	for (size_t r = 0; m[r] && w + 1 < sizeof detail;) {
		if (m[r] == '/' && m[r + 1] == '/')
			r++;
		else if (!strncmp(m + r, "math.", 5))
			r += 5;
		else if (!strncmp(m + r, g->name, nlen) && m[r + nlen] == '.' &&
			 (r == 0 || !(isalnum((unsigned char)m[r - 1]) ||
				      m[r - 1] == '_')))
			r += nlen + 1;
		else
			detail[w++] = m[r++];
	}
	detail[w] = 0;
	if (where)
		return lego_fail(in->ctx, rc, "%s: error: genp '%s' at %s: %s",
				 where, g->name, at, detail);
	return lego_fail(in->ctx, rc, "GenP %s at %s: %s", g->name, at,
			 detail);
}

static int expr_apply(layout_inst *in, const layout_genp *g, size_t d,
		      const int64_t *idx, int64_t *flat)
{
	for (size_t k = 0; k < d; k++) {
		int rc = lego_env_bind(in->env, g->params[k], idx[k]);
		if (rc != LEGO_OK)
			return rc;
	}
	int rc = lego_expr_eval(in->ctx, g->apply_e, in->env, flat);
	if (rc != LEGO_OK) {
		char at[512];
		inst_format_index(at, sizeof at, d, idx);
		return expr_fail(in, g, rc, g->where_apply, at);
	}
	return LEGO_OK;
}

static int expr_inv(layout_inst *in, const layout_genp *g, size_t d,
		    int64_t flat, int64_t *idx)
{
	int rc = lego_env_bind(in->env, g->flat, flat);
	for (size_t k = 0; k < d && rc == LEGO_OK; k++)
		rc = lego_expr_eval(in->ctx, g->inv_e[k], in->env, &idx[k]);
	if (rc != LEGO_OK) {
		char at[64];
		snprintf(at, sizeof at, "inverse(%lld)", (long long)flat);
		return expr_fail(in, g, rc, g->where_inv, at);
	}
	return LEGO_OK;
}

int inst_genp_apply(layout_inst *in, const lego_layout *leaf,
		    const int64_t *dims, const int64_t *idx, int64_t size,
		    int64_t *flat)
{
	const layout_genp *g = leaf->genp;
	size_t d = leaf->rank;
	int rc = g->fn.apply ? g->fn.apply(g->fn.user, d, dims, idx, flat)
			     : expr_apply(in, g, d, idx, flat);
	if (rc != LEGO_OK) {
		char at[512];
		inst_format_index(at, sizeof at, d, idx);
		return g->fn.apply ? lego_fail(in->ctx, rc,
					       "GenP %s failed at %s",
					       g->name, at)
				   : rc;
	}
	if (*flat < 0 || *flat >= size) {
		char at[512];
		inst_format_index(at, sizeof at, d, idx);
		return lego_fail(in->ctx, LEGO_EBIJECT,
				 "GenP %s maps %s to %lld, outside [0, %lld)",
				 g->name, at, (long long)*flat,
				 (long long)size);
	}
	return LEGO_OK;
}

int inst_genp_inv(layout_inst *in, const lego_layout *leaf,
		  const int64_t *dims, int64_t flat, int64_t *idx)
{
	const layout_genp *g = leaf->genp;
	size_t d = leaf->rank;
	int rc = g->fn.inv ? g->fn.inv(g->fn.user, d, dims, flat, idx)
			   : expr_inv(in, g, d, flat, idx);
	if (rc != LEGO_OK)
		return g->fn.inv ? lego_fail(in->ctx, rc,
					     "GenP %s: inverse failed at %lld",
					     g->name, (long long)flat)
				 : rc;
	for (size_t k = 0; k < d; k++)
		if (idx[k] < 0 || idx[k] >= dims[k]) {
			char at[512];
			inst_format_index(at, sizeof at, d, idx);
			return lego_fail(in->ctx, LEGO_EBIJECT,
					 "GenP %s: inv(%lld) = %s is outside "
					 "its dims", g->name, (long long)flat,
					 at);
		}
	return LEGO_OK;
}

static int stage_apply(layout_inst *in, const inst_stage *st,
		       const int64_t *dg, int64_t *f)
{
	int64_t acc = 0;
	for (size_t k = 0; k < st->nparts; k++) {
		const inst_part *p = &st->parts[k];
		const int64_t *pd = dg + p->off;
		if (!p->is_gen) {
			for (size_t j = 0; j < p->nd; j++)
				acc += pd[j] * p->stride[j];
			continue;
		}
		int64_t g;
		int rc = inst_genp_apply(in, p->leaf, st->dims + p->off, pd,
					 p->size, &g);
		if (rc != LEGO_OK)
			return rc;
		acc += g * p->weight;
	}
	*f = acc;
	return LEGO_OK;
}

static void stage_digits(const inst_stage *st, int64_t x, int64_t *dg)
{
	for (size_t k = st->nd; k-- > 0;)
		x = divmod(x, st->dims[k], st->shift[k], &dg[k]);
}

int inst_apply_digits(layout_inst *in, const int64_t *digits, int64_t *f)
{
	int rc = stage_apply(in, &in->stages[0], digits, f);
	for (size_t s = 1; s < in->nstages && rc == LEGO_OK; s++) {
		stage_digits(&in->stages[s], *f, in->digits);
		rc = stage_apply(in, &in->stages[s], in->digits, f);
	}
	return rc;
}

int inst_apply_flat(layout_inst *in, int64_t x, int64_t *f)
{
	if (in->nstages == 0) {
		*f = x;
		return LEGO_OK;
	}
	stage_digits(&in->stages[0], x, in->digits);
	return inst_apply_digits(in, in->digits, f);
}

/* Inverse of one stage: peel the parts from the innermost, invert each,
 * and flatten the digits row-major over the stage dims. */
static int stage_inv(layout_inst *in, const inst_stage *st, int64_t g,
		     int64_t *x)
{
	int64_t acc = 0;
	for (size_t k = st->nparts; k-- > 0;) {
		const inst_part *p = &st->parts[k];
		int64_t r = g;
		if (st->nparts > 1) {
			r = g % p->size;
			g /= p->size;
		}
		if (!p->is_gen) {
			for (size_t j = 0; j < p->nd; j++) {
				size_t c = p->off + p->order[j];
				int64_t digit;
				r = divmod(r, st->dims[c], st->shift[c], &digit);
				acc += digit * st->rowstride[c];
			}
			continue;
		}
		int rc = inst_genp_inv(in, p->leaf, st->dims + p->off, r,
				       in->scratch);
		if (rc != LEGO_OK)
			return rc;
		for (size_t j = 0; j < p->nd; j++)
			acc += in->scratch[j] * st->rowstride[p->off + j];
	}
	*x = acc;
	return LEGO_OK;
}

int inst_inv_flat(layout_inst *in, int64_t f, int64_t *x)
{
	int rc = LEGO_OK;
	for (size_t s = in->nstages; s-- > 0 && rc == LEGO_OK;)
		rc = stage_inv(in, &in->stages[s], f, &f);
	*x = f;
	return rc;
}

void inst_first(layout_inst *in)
{
	size_t nd = in->nstages ? in->stages[0].nd : 0;
	for (size_t k = 0; k < nd; k++)
		in->cursor[k] = 0;
}

int inst_next(layout_inst *in, int64_t x, int64_t *f)
{
	if (in->nstages == 0) {
		*f = x;
		return LEGO_OK;
	}
	int rc = inst_apply_digits(in, in->cursor, f);
	inst_odometer_next(in->stages[0].nd, in->stages[0].dims, in->cursor);
	return rc;
}
