/* template.c - the hand-off of a (rewritten) Lift program to `lego tune`:
 * a template whose spec declares the numeric parameters the rewrites
 * introduced (split sizes and tile sides, SPLITk) and the work-group sizes
 * (LOCALd) with their constraints, and whose text is the kernel with every
 * size a macro.  The built-in runners pass only buffers, so the sizes are
 * compile-time constants of each candidate, which also lets the target's
 * compiler fold them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/sbuf.h"
#include "lift/lift.h"

/* What the target allows a work-group: OpenCL guarantees 32 KiB of local
 * memory, and 256 work-items is the common limit of GPUs (CPUs allow
 * more); CUDA blocks take 1024 threads and 48 KiB of static shared
 * memory.  A CUDA block below a warp wastes lanes, so it starts at 32. */
typedef struct wg_limits {
	int max_items, min_first;
	long long local_bytes;
} wg_limits;

static const wg_limits limits[] = {
	[LIFT_TARGET_OPENCL] = {256, 1, 32768},
	[LIFT_TARGET_CUDA] = {1024, 32, 49152},
};

/* The split sizes a SPLITk may take. */
static const char split_values[] = "{1, 2, 4, 8, 16, 32, 64, 128}";

/* e as C text without blanks (the runners' --args are blank-separated). */
static void put_expr(lego_ctx *ctx, lego_sbuf *b, lego_expr *e)
{
	char *s = lego_expr_print(ctx, e, LEGO_LANG_C);
	for (const char *c = s ? s : "?"; *c; c++)
		if (*c != ' ')
			lego_sbuf_printf(b, "%c", *c);
	free(s);
}

static void put_spec(lego_ctx *ctx, lego_sbuf *b, const lift_program *p,
		     const lift_kernel *k, const wg_limits *lim)
{
	size_t nsyms = p->nsizes - p->ntunes;
	for (size_t i = 0; i < nsyms; i++)
		lego_sbuf_printf(b, "%s%s", i ? ", " : "sym ", p->sizes[i]);
	lego_sbuf_puts(b, nsyms ? "\n" : "");
	for (size_t i = nsyms; i < p->nsizes; i++)
		lego_sbuf_printf(b, "tune %s in %s\n", p->sizes[i], split_values);
	for (int d = 0; d < k->ndims; d++) {
		if (p->local[0]) {  /* declared: the one size the kernel runs */
			lego_sbuf_printf(b, "tune LOCAL%d in {%d}\n", d,
					 p->local[d] ? p->local[d] : 1);
			continue;
		}
		lego_sbuf_printf(b, "tune LOCAL%d in {", d);
		for (int v = d ? 1 : lim->min_first; v <= lim->max_items; v *= 2)
			lego_sbuf_printf(b, "%s%d", v > (d ? 1 : lim->min_first)
						      ? ", " : "", v);
		lego_sbuf_puts(b, "}\n");
	}
	/* the divisibilities the splits need, one a line */
	for (const char *l = k->assumed; *l;) {
		size_t n = strcspn(l, "\n");
		lego_sbuf_printf(b, "assume %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
	if (k->ndims > 1) {
		lego_sbuf_puts(b, "assume LOCAL0");
		for (int d = 1; d < k->ndims; d++)
			lego_sbuf_printf(b, " * LOCAL%d", d);
		lego_sbuf_printf(b, " <= %d\n", lim->max_items);
	}
	lego_sbuf_puts(b, "# args:");
	for (size_t i = 0; i < p->nparams; i++) {
		lego_sbuf_printf(b, " %s:", p->params[i].name);
		put_expr(ctx, b, lift_type_scalars(ctx, p->params[i].type));
	}
	lego_sbuf_puts(b, " out:");
	put_expr(ctx, b, lift_type_scalars(ctx, k->result));
	lego_sbuf_puts(b, ":out\n# global:");
	/* a mapGlb covers its range once (rounded up to whole groups), a
	 * mapWrg has a group an element; a dimension of mapLcl alone is one
	 * group (no commas inside a size: they separate the dimensions) */
	for (int d = 0; d < k->ndims; d++) {
		const char *r = k->range[d];
		if (!r)
			lego_sbuf_printf(b, "%s LOCAL%d", d ? "," : "", d);
		else if (k->range_wrg[d])
			lego_sbuf_printf(b, "%s (%s) * LOCAL%d", d ? "," : "", r, d);
		else
			lego_sbuf_printf(b, "%s (%s + LOCAL%d - 1) / LOCAL%d * "
					 "LOCAL%d", d ? "," : "", r, d, d, d);
	}
	lego_sbuf_puts(b, "\n# local:");
	for (int d = 0; d < k->ndims; d++)
		lego_sbuf_printf(b, "%s LOCAL%d", d ? "," : "", d);
	lego_sbuf_printf(b, "\n# local memory: %lld bytes (at most %lld)\n",
			 k->local_bytes, lim->local_bytes);
}

char *lift_template(lego_ctx *ctx, const char *file, const char *text,
		    size_t len, const lift_step *steps, size_t nsteps,
		    lift_target_kind target)
{
	lift_program *p = lift_program_rewritten(ctx, file, text, len, steps,
						 nsteps, 1);
	if (!p)
		return NULL;
	for (size_t i = 0; i < p->nparams; i++)
		if (p->params[i].type->kind != LIFT_ARRAY) {
			lego_fail(ctx, LEGO_ERR, "%s: error: parameter %s is a "
				  "scalar: the tuner's runners pass only buffers",
				  file, p->params[i].name);
			return NULL;
		}
	lift_kernel k;
	if (lift_compile(ctx, p, target, &k))
		return NULL;
	const wg_limits *lim = &limits[target];
	if (k.local_bytes > lim->local_bytes) {
		lego_fail(ctx, LEGO_ERR, "%s: error: the kernel uses %lld bytes of "
			  "local memory, more than the %lld the target allows",
			  file, k.local_bytes, lim->local_bytes);
		lift_kernel_free(&k);
		return NULL;
	}
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "{%% lego %%}\n# lego lift --template%s of %s",
			 target == LIFT_TARGET_CUDA ? " --target cuda" : "", file);
	for (size_t i = 0; i < nsteps; i++) {
		lego_sbuf_printf(&b, "%s%s:%zu", i ? "," : " --rewrite ",
				 lift_rule_name(steps[i].rule), steps[i].site);
		if (lift_rule_takes_size(steps[i].rule) &&
		    !lift_rule_size_tunable(steps[i].rule))
			lego_sbuf_printf(&b, ":%lld", (long long)steps[i].n);
	}
	lego_sbuf_puts(&b, "\n");
	put_spec(ctx, &b, p, &k, lim);
	lego_sbuf_puts(&b, "{% end %}\n");
	for (size_t i = 0; i < p->nsizes; i++)
		lego_sbuf_printf(&b, "#define %s {{ %s }}\n", p->sizes[i],
				 p->sizes[i]);
	lego_sbuf_puts(&b, k.source);
	lift_kernel_free(&k);
	char *s = lego_sbuf_take(&b);
	if (!s)
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	return s;
}
