/* report.c - what inference found in a tile program, in words: each
 * register tile's TV layout and where it was fixed, each load's
 * instruction, each shared tile's synthesised layout and its cost. */
#include <string.h>

#include "expr/sbuf.h"
#include "synth/prog.h"

static const char *frag_name(prog_role r)
{
	return r == ROLE_A ? "A" : r == ROLE_B ? "B (read as N x K)" : "C";
}

static void reg_line(lego_sbuf *b, const prog_tensor *x)
{
	int64_t fr = x->role == ROLE_B ? x->frag->cols : x->frag->rows;
	int64_t fc = x->role == ROLE_B ? x->frag->rows : x->frag->cols;
	lego_sbuf_printf(b, "reg %s : %s [%lld, %lld]: a warp holds [%lld, "
			 "%lld], 32 lanes x %lld values: mma m16n8k16 %s "
			 "fragment, %lld x %lld times (fixed at %d:%d)\n",
			 x->name, x->type, (long long)x->rows,
			 (long long)x->cols, (long long)x->wrows,
			 (long long)x->wcols, (long long)x->values,
			 frag_name(x->role), (long long)(x->wrows / fr),
			 (long long)(x->wcols / fc), x->anchor_line,
			 x->anchor_col);
	if (x->op != OP_LOAD)
		return;
	const lego_tv *in = x->instr;
	int64_t nb = x->wrows / in->rows * (x->wcols / in->cols);
	lego_sbuf_printf(b, "  load: ldmatrix x%d%s, %lld a warp; registers",
			 in->ldmatrix, x->by_rows ? " (matrices by rows)" : "",
			 (long long)nb);
	for (int64_t k = 0; k < nb * in->values; k += 2)
		lego_sbuf_printf(b, " %lld", (long long)(x->reg[k] / 2));
	lego_sbuf_puts(b, "\n");
}

static void shared_line(lego_sbuf *b, const prog_tensor *s)
{
	const lego_synth_result *r = &s->synth;
	lego_sbuf_printf(b, "shared %s : %s [%lld, %lld]: %s; padding %lld "
			 "bytes; bijective: %s\n", s->name, s->type,
			 (long long)s->rows, (long long)s->cols, r->desc,
			 (long long)r->pad_bytes, r->bijective ? "yes" : "NO");
	for (int k = 0; k < 2; k++)
		lego_sbuf_printf(b, "  %s: %lld wavefronts (ideal %lld)\n",
				 k ? "load (ldmatrix)" : "copy (cp.async)",
				 (long long)r->cost[k].wavefronts,
				 (long long)r->cost[k].ideal);
	lego_sbuf_printf(b, "  copy from global (rows 128-byte aligned): %lld "
			 "sectors (ideal %lld)\n",
			 (long long)s->global.sectors,
			 (long long)s->global.ideal_sectors);
	/* cp.async serves a phase one global line at a time (cost.c) */
	int64_t row = s->cols * s->elem;
	if (r->cost[0].wavefronts > r->cost[0].ideal && row < 128)
		lego_sbuf_printf(b, "  copy: a phase of 128 bytes reads %lld "
				 "global rows of %lld bytes, one line each: "
				 "rows of 128 bytes would take one\n",
				 (long long)(128 / row), (long long)row);
}

char *synth_prog_report(lego_ctx *ctx, const synth_prog *p)
{
	if (!ctx || !p)
		return NULL;
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "kernel %s: block [%lld, %lld, %lld], warps "
			 "[%lld, %lld] (%lld threads), %lld stages\n",
			 p->kernel, (long long)p->block[0],
			 (long long)p->block[1], (long long)p->block[2],
			 (long long)p->warps[0], (long long)p->warps[1],
			 (long long)(32 * p->warps[0] * p->warps[1]),
			 (long long)p->stages);
	for (size_t k = 0; k < p->n; k++) {
		const prog_tensor *x = &p->t[k];
		if (x->kind == PT_REG)
			reg_line(&b, x);
		else if (x->kind == PT_SHARED)
			shared_line(&b, x);
	}
	char *s = lego_sbuf_take(&b);
	return s ? s : lego_fail_null(ctx, "out of memory");
}
