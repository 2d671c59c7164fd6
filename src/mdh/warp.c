/* warp.c - the warp layer of CUDA: the reduction's work-items of a block
 * that share their ++ coordinates combine their accumulators by warp
 * shuffles (B_red = 2) in place of the tree in shared memory (B_red = 1,
 * kernel.c).
 *
 * mdh_LOC orders a block's work-items row-major over the dims, so when
 * every reduced dim follows every ++ dim, the work-items of one ++ point
 * are mdh_RED.size consecutive ids, the first a multiple of that size
 * (mdh_lid = ++ rank * mdh_RED.size + mdh_r).  Each L_d is a power of
 * two, so a group of at most 32 lies within one warp: lanes lane - mdh_r
 * to lane - mdh_r + mdh_RED.size - 1.  Groups of more than 32 (a tree
 * over warps after the shuffles) are not built: the constraint keeps
 * B_red = 2 to 2..32 work-items.
 *
 * The butterfly exchanges with lane ^ s for s = mdh_RED.size / 2 down to
 * 1, and each lane combines (its value, the other's): lane r < s meets r
 * + s, so rank 0 combines exactly as the tree does (the same operands in
 * the same order, the same result bit for bit).  Only the group's lanes
 * are named in the mask, so a block smaller than a warp is exact too.
 * A value is shuffled as its scalars: a tuple field by field, then the
 * operator (built-in or the user's) applied to the whole. */
#include <stdio.h>
#include <string.h>

#include "mdh/lower.h"

int mdh_warp_able(const mdh_program *p, const mdh_spelling *sp)
{
	if (!sp->shuffles || !mdh_has_red(p))
		return 0;
	int red = 0;
	for (size_t k = 0; k < p->ndims; k++) {
		if (mdh_dim_is_red(&p->dims[k]))
			red = 1;
		else if (red)
			return 0;
	}
	return 1;
}

void mdh_put_warp_spec(lego_sbuf *b, const mdh_program *p)
{
	lego_sbuf_puts(b, "tune B_red in {1, 2}\nassume B_red == 1 || (");
	mdh_put_each(b, p, MDH_RED, "L_@", " * ", "1");
	lego_sbuf_puts(b, " > 1 && ");
	mdh_put_each(b, p, MDH_RED, "L_@", " * ", "1");
	lego_sbuf_puts(b, " <= 32)\n");
}

/* mdh_o_X = __shfl_xor_sync(..) of output m's accumulator mdh_a, each
 * field of a tuple apart. */
static void put_shuffle(lego_sbuf *b, const mdh_program *p, const mdh_buf *m)
{
	const mdh_tuple *t = mdh_tuple_find(p, m->type);
	lego_sbuf_printf(b, "\t\t\t\t%s mdh_o_%s = mdh_acc_%s[mdh_a];\n",
			 m->type, m->name, m->name);
	for (size_t f = 0; f < (t ? t->nfields : 1); f++) {
		char v[96];
		snprintf(v, sizeof v, "mdh_o_%s%s%s", m->name, t ? "." : "",
			 t ? t->fnames[f] : "");
		lego_sbuf_printf(b, "\t\t\t\t%s = __shfl_xor_sync(mdh_wm, %s, "
				 "mdh_s);\n", v, v);
	}
}

void mdh_put_warp_combine(lego_sbuf *b, const mdh_program *p)
{
	lego_sbuf_puts(b, "\tif ({{ mdh_RED.size }} > 1) {\n"
		       "\t\tconst unsigned mdh_wm = (0xffffffffu >> (32 - "
		       "{{ mdh_RED.size }})) << (mdh_lid % 32 - mdh_r);\n"
		       "\t\tfor (int mdh_s = {{ mdh_RED.size }} / 2; mdh_s > 0; "
		       "mdh_s /= 2) {\n\t\t\tfor (int mdh_a = 0; mdh_a < "
		       "{{ mdh_ACC.size }}; mdh_a++) {\n");
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		char x[96], y[96];
		snprintf(x, sizeof x, "mdh_acc_%s[mdh_a]", m->name);
		snprintf(y, sizeof y, "mdh_o_%s", m->name);
		put_shuffle(b, p, m);
		lego_sbuf_printf(b, "\t\t\t\t%s = ", x);
		mdh_put_combine(b, p, m->type, x, y);
		lego_sbuf_puts(b, ";\n");
	}
	lego_sbuf_puts(b, "\t\t\t}\n\t\t}\n\t}\n");
}
