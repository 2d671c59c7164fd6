/* construct.c - bijectivity by construction.
 *
 * SEMANTICS.md builds every layout from bijections: a RegP is a
 * permutation (its constructor checks perm), a built-in GenP is one:
 * of symbolic dims by its certificate (swizzle.c, antidiag.c: for every
 * size), of concrete dims by evaluating its formulas at every point, as
 * proof_genp does a user GenP's; a user GenP is one once proof_genp proves
 * its inverse (a `genp` declaration's once for all dims); an OrderBy of
 * bijections is a bijection onto the product of their sizes; a GroupBy
 * chain is one when its pieces' sizes agree,
 * which its constructor proved (layout_sizes_agree) or it would not
 * exist.  lego_layout_inv composes the pieces' inverses in reverse, so
 * it is the inverse.  A padded TileBy is the bijection of its real chain
 * on the elements its mask keeps (docs/partial.md). */
#include "layout/layout.h"
#include "proof/proof.h"

typedef struct tally {
	unsigned regp, orderby, groupby, builtin, padded, templates, swizzles,
		antidiags;
	unsigned user[LEGO_BY_COUNT]; /* by the argument proving each */
} tally;

static int walk(lego_ctx *ctx, const lego_layout *l, unsigned ms, tally *t,
		proof_arg *a)
{
	int rc = LEGO_OK;
	switch (l->kind) {
	case LAYOUT_REGP:
		t->regp++;
		return LEGO_OK;
	case LAYOUT_GENP: {
		int builtin = l->genp->check_dims != NULL;
		/* A built-in of symbolic dims is one by its certificate;
		 * of concrete dims, by evaluation at them, as a user's. */
		if (builtin && proof_genp_points(l) < 0) {
			int sw = proof_swizzle(ctx, l, a);
			int ad = sw ? 0 : proof_antidiag(ctx, l, a);
			if (sw < 0 || ad < 0)
				return LEGO_ERR;
			t->swizzles += sw == 1;
			t->antidiags += ad == 1;
			if (!sw && !ad) {
				a->status = LEGO_UNKNOWN;
				proof_say(a, "built-in GenP %s of symbolic "
					  "dims: no certificate",
					  l->genp->name);
			}
			return LEGO_OK;
		}
		lego_argument by = LEGO_BY_NONE;
		int by_template = 0;
		rc = proof_genp(ctx, l, ms, a, &by, &by_template);
		if (builtin)
			t->builtin++;
		else if (by_template)
			t->templates++;
		else
			t->user[by]++;
		return rc;
	}
	case LAYOUT_ORDERBY:
		t->orderby++;
		for (size_t k = 0; !rc && k < l->nlevels &&
				   a->status == LEGO_PROVED; k++)
			rc = walk(ctx, l->levels[k], ms, t, a);
		return rc;
	case LAYOUT_GROUPBY:
		t->groupby++;
		t->padded += l->real != NULL;
		for (size_t k = 0; !rc && k < l->nchain &&
				   a->status == LEGO_PROVED; k++)
			rc = walk(ctx, l->chain[k], ms, t, a);
		if (!rc && l->real && a->status == LEGO_PROVED)
			rc = walk(ctx, l->real, ms, t, a);
		return rc;
	}
	return lego_fail(ctx, LEGO_ERR, "proof: unknown layout kind");
}

int proof_construct(lego_ctx *ctx, const lego_layout *l, unsigned timeout_ms,
		    proof_arg *a)
{
	tally t = {0};
	a->status = LEGO_PROVED;
	a->by = LEGO_BY_CONSTRUCTION;
	a->why[0] = 0;
	if (!l)
		return lego_fail(ctx, LEGO_ERR, "proof: no layout");
	int rc = walk(ctx, l, timeout_ms, &t, a);
	if (rc || a->status != LEGO_PROVED)
		return rc;
	a->why[0] = 0;
	const struct {
		unsigned n;
		const char *what;
	} part[] = {
		{t.regp, "RegP"},
		{t.builtin, "built-in GenP (inverse: exhaustive)"},
		{t.swizzles, "swizzle by its certificate (involution on "
			     "aligned blocks, 64-bit)"},
		{t.antidiags, "antidiag by its certificate (every n)"},
		{t.user[LEGO_BY_EXHAUSTIVE], "GenP (inverse: exhaustive)"},
		{t.user[LEGO_BY_Z3], "GenP (inverse: z3)"},
		{t.templates, "GenP by its genp for all dims (inverse: z3)"},
		{t.orderby, "OrderBy"},
		{t.groupby, "GroupBy (sizes agree)"},
		{t.padded, "padded (real elements by the mask)"},
	};
	for (size_t k = 0; k < sizeof part / sizeof part[0]; k++)
		if (part[k].n)
			proof_say(a, "%s%s x%u", a->why[0] ? ", " : "",
				  part[k].what, part[k].n);
	return LEGO_OK;
}
