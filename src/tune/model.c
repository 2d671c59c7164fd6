/* model.c - the cost model: a configuration's time estimated from its
 * occupancy, its waves and the bank conflicts of its shared layouts
 * (src/analysis), before anything is measured (tune.h says how). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tune/tune.h"

lego_tune_gpu lego_tune_gpu_h100(void)
{
	return (lego_tune_gpu){.sms = 132, .smem_per_sm = 233472,
			       .smem_per_block = 232448,
			       .threads_per_sm = 2048, .regs_per_sm = 65536,
			       .blocks_per_sm = 32, .saturate = 256};
}

/* The `let` name of spec as a constant, or dflt when there is none. */
static int let_value(lego_ctx *ctx, lego_spec *spec, const char *name,
		     int64_t dflt, int64_t *out)
{
	lego_expr *e = lego_spec_let(spec, name);
	*out = dflt;
	if (!e)
		return LEGO_OK;
	lego_env *env = lego_env_new(ctx);
	int rc = env ? lego_expr_eval(ctx, e, env, out) : LEGO_ERR;
	lego_env_free(env);
	if (rc)
		return lego_fail(ctx, LEGO_ERR, "model: cannot evaluate '%s' "
				 "(every parameter and size needs a value): %s",
				 name, lego_ctx_error(ctx));
	return LEGO_OK;
}

/* Wavefronts per ideal of a warp reading a row, then a column, of the
 * 2-D layout l, averaged. */
static int conflicts(lego_ctx *ctx, const lego_layout *l, const char *name,
		     double *out)
{
	int64_t dims[2];
	if (lego_layout_rank(l) != 2)
		return lego_fail(ctx, LEGO_ERR, "model: layout '%s' is not "
				 "2-D", name);
	for (int k = 0; k < 2; k++) {
		lego_env *env = lego_env_new(ctx);
		int rc = env ? lego_expr_eval(ctx, lego_layout_dim(l, (size_t)k),
					      env, &dims[k]) : LEGO_ERR;
		lego_env_free(env);
		if (rc)
			return lego_fail(ctx, LEGO_ERR, "model: the sizes of "
					 "'%s' are not constant", name);
	}
	double sum = 0;
	for (int along = 0; along < 2; along++) {
		int64_t idx[LEGO_WARP * 2] = {0};
		int n = dims[along] < LEGO_WARP ? (int)dims[along] : LEGO_WARP;
		for (int t = 0; t < n; t++)
			idx[2 * t + along] = t;
		lego_warp_access a = {.layout = l, .elem_bytes = 4,
				      .nthreads = n, .indices = idx};
		lego_bank_report r;
		if (lego_analyze_banks(ctx, &a, &r))
			return LEGO_ERR;
		sum += r.ideal ? (double)r.wavefronts / (double)r.ideal : 1;
	}
	*out = sum / 2;
	return LEGO_OK;
}

/* The mean conflicts of the layouts named in banks ("S,T"). */
static int bank_factor(lego_ctx *ctx, lego_spec *spec, const char *banks,
		       double *out)
{
	double sum = 0;
	int n = 0;
	*out = 1;
	for (const char *s = banks; s && *s;) {
		size_t len = strcspn(s, ",");
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)len, s);
		const lego_layout *l = lego_spec_layout(spec, name);
		double c = 1;
		if (!l)
			return lego_fail(ctx, LEGO_ERR, "model: no layout "
					 "'%s'", name);
		if (conflicts(ctx, l, name, &c))
			return LEGO_ERR;
		sum += c;
		n++;
		s += len + (s[len] == ',');
	}
	if (n)
		*out = sum / n;
	return LEGO_OK;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The estimate for one spec (one configuration). */
static int predict_one(lego_ctx *ctx, lego_spec *spec, const lego_tune_gpu *g,
		       const char *banks, double *pred)
{
	int64_t smem, threads, regs, blocks, work;
	double banked;
	if (let_value(ctx, spec, "model_smem", 0, &smem) ||
	    let_value(ctx, spec, "model_threads", 128, &threads) ||
	    let_value(ctx, spec, "model_regs", 32, &regs) ||
	    let_value(ctx, spec, "model_blocks", 1, &blocks) ||
	    let_value(ctx, spec, "model_work", 1, &work) ||
	    bank_factor(ctx, spec, banks, &banked))
		return LEGO_ERR;
	double spill = regs > 255 ? 2 : 1;
	regs = regs > 255 ? 255 : regs < 1 ? 1 : regs;
	threads = threads < 1 ? 1 : threads;
	int64_t resident = min64(g->threads_per_sm / threads,
				 g->regs_per_sm / (regs * threads));
	resident = min64(resident, g->blocks_per_sm);
	if (smem > 0)
		resident = min64(resident, g->smem_per_sm / smem);
	if (resident < 1 || smem > g->smem_per_block) {
		*pred = INFINITY;
		return LEGO_OK;
	}
	double waves = ceil((double)blocks / ((double)g->sms * (double)resident));
	double busy = (double)(resident * threads) / g->saturate;
	*pred = waves * (double)resident * (double)work /
		(busy < 1 ? busy : 1) * spill * banked;
	return LEGO_OK;
}

int lego_tune_model_predict(lego_ctx *ctx, const lego_tune_space *s,
			    const lego_tune_gpu *gpu, const char *banks,
			    const lego_define *fixed, size_t nfixed,
			    lego_tune_spec_of spec_of, void *user,
			    double *pred)
{
	size_t ndefs = nfixed + s->nparams;
	lego_define *defs = malloc((ndefs + 1) * sizeof *defs);
	if (!defs)
		return lego_fail(ctx, LEGO_ERR, "out of memory");
	if (nfixed)
		memcpy(defs, fixed, nfixed * sizeof *defs);
	int rc = LEGO_OK;
	for (size_t i = 0; i < s->nconfigs && !rc; i++) {
		for (size_t p = 0; p < s->nparams; p++)
			defs[nfixed + p] = (lego_define){
				s->params[p]->name, lego_tune_space_value(s, i, p)};
		/* a context per configuration: each spec declares the same
		 * names with other values */
		lego_ctx *c = lego_ctx_new();
		lego_spec *spec = c ? spec_of(user, c, defs, ndefs) : NULL;
		if (!spec || predict_one(c, spec, gpu, banks, &pred[i])) {
			char *cfg = lego_tune_space_describe(s, i, 0);
			rc = lego_fail(ctx, LEGO_ERR, "%s (configuration %s)",
				       c ? lego_ctx_error(c) : "out of memory",
				       cfg ? cfg : "?");
			free(cfg);
		}
		lego_ctx_free(c);
	}
	free(defs);
	return rc;
}
