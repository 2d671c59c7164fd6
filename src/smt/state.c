/* state.c - the solver state of a ctx: created on first use, freed with
 * the ctx. */
#include <stdlib.h>

#include "simplify/facts.h"
#include "smt/smt.h"

int lego_smt_available(void)
{
#ifdef LEGO_HAVE_Z3
	return smt_z3_load() == 0;
#else
	return 0;
#endif
}

static void smt_free(lego_ctx *ctx)
{
	struct lego_smt *st = ctx->smt;
	if (!st)
		return;
	smt_cache_free(&st->cache);
#ifdef LEGO_HAVE_Z3
	if (st->z3)
		Z3_del_context(st->z3);
#endif
	free(st);
	ctx->smt = NULL;
}

#ifdef LEGO_HAVE_Z3
/* Z3 reports API misuse through this handler; the default one exits. */
static void z3_error(Z3_context z3, Z3_error_code code)
{
	(void)z3;
	(void)code;
}

static int z3_open(lego_ctx *ctx, struct lego_smt *st)
{
	Z3_config cfg = Z3_mk_config();
	if (!cfg)
		return lego_fail(ctx, LEGO_ENOMEM, "cannot configure Z3");
	st->z3 = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	if (!st->z3)
		return lego_fail(ctx, LEGO_ENOMEM, "cannot start Z3");
	Z3_set_error_handler(st->z3, z3_error);
	return LEGO_OK;
}
#endif

struct lego_smt *smt_state(lego_ctx *ctx)
{
	if (ctx->smt)
		return ctx->smt;
	struct lego_smt *st = calloc(1, sizeof *st);
	if (!st)
		return lego_fail_null(ctx, "out of memory");
	if (lego_ctx_on_free(ctx, smt_free) != LEGO_OK) {
		free(st);
		return NULL;
	}
	ctx->smt = st;
#ifdef LEGO_HAVE_Z3
	/* Without a loadable libz3 the state still caches and enumerates,
	 * as in a build without Z3; prove.c says why it cannot solve. */
	if (lego_smt_available() && z3_open(ctx, st) != LEGO_OK)
		return NULL; /* st is freed with the ctx */
#endif
	return st;
}

double smt_clock(lego_ctx *ctx)
{
	const struct lego_smt *st = ctx->smt;
	return st ? st->spent / SMT_RLIMIT_PER_MS / 1000.0 : 0.0;
}

uint64_t lego_smt_checks(const lego_ctx *ctx)
{
	return ctx && ctx->smt ? ctx->smt->checks : 0;
}

/* Facts are only ever added, so their count identifies the set. */
uint64_t smt_facts_version(lego_ctx *ctx)
{
	const struct lego_facts *f = ctx->facts;
	return f ? (uint64_t)f->nsubst + f->nnonneg : 0;
}
