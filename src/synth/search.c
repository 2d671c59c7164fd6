/* search.c - `lego synth`: every candidate of the space costed on every
 * access; the best by wavefronts, then padding, then index cost. */
#include <stdlib.h>
#include <string.h>

#include "synth/space.h"

enum { MAX_TIES = 8 };

typedef struct ranked {
	synth_cand cand;
	int64_t excess, pad;
} ranked;

typedef struct search {
	lego_ctx *ctx;
	synth_tile tile;
	size_t naccess;
	const lego_tv *const *access;
	const int64_t **tables;
	/* The accesses in the order they are costed: the one that last
	 * ruled a candidate out first, as it likely rules out the next. */
	size_t order[LEGO_SYNTH_MAX_ACCESSES];
	int64_t *offset;          /* scratch: one candidate's offsets */
	int64_t candidates;
	int have;                 /* best[] holds something */
	ranked best[MAX_TIES];    /* equal (excess, pad), in walk order */
	size_t nbest;
	int status;
} search;

/* Excess wavefronts (over the ideal) of every access, counting stopped
 * once over limit (-1: no limit); -1 when the candidate is infeasible. */
static int64_t excess_of(search *s, const synth_cand *c, int64_t limit,
			 lego_access_cost *costs)
{
	synth_cand_offsets(&s->tile, c, s->offset);
	lego_smem smem = {s->tile.rows, s->tile.cols,
			  synth_cand_size(&s->tile, c), s->offset};
	int64_t total = 0;
	for (size_t i = 0; i < s->naccess; i++) {
		size_t k = s->order[i];
		lego_access_cost *a = &costs[k];
		/* The excess never falls: the bound carries over. */
		if (synth_access_cost(s->ctx, s->access[k], s->tables[k],
				      &smem, NULL, limit < 0 ? -1 :
				      limit - total, 0, a) != LEGO_OK)
			return s->status = LEGO_ERR, -1;
		total += a->wavefronts - a->ideal;
		if (!a->feasible || (limit >= 0 && total > limit)) {
			memmove(s->order + 1, s->order, i * sizeof *s->order);
			s->order[0] = k;
			return a->feasible ? total : -1;
		}
	}
	return total;
}

static int visit(void *arg, const synth_cand *c)
{
	search *s = arg;
	lego_access_cost costs[LEGO_SYNTH_MAX_ACCESSES];
	int64_t pad = synth_cand_size(&s->tile, c) -
		      s->tile.rows * s->tile.cols;
	s->candidates++;
	/* Worse padding than the best cannot win unless it has fewer
	 * wavefronts. */
	int64_t limit = s->have ? s->best[0].excess : -1;
	if (s->have && pad > s->best[0].pad)
		limit--;
	if (s->have && limit < 0)
		return 0;
	int64_t ex = excess_of(s, c, limit, costs);
	if (s->status)
		return s->status;
	if (ex < 0 || (s->have && (ex > s->best[0].excess ||
				   (ex == s->best[0].excess &&
				    pad > s->best[0].pad))))
		return 0;
	if (!s->have || ex < s->best[0].excess || pad < s->best[0].pad)
		s->nbest = 0;
	s->have = 1;
	if (s->nbest < MAX_TIES)
		s->best[s->nbest++] = (ranked){*c, ex, pad};
	/* Conflict-free without padding, MAX_TIES times: the walk goes on
	 * only to dearer index expressions. */
	return ex == 0 && pad == 0 && s->nbest == MAX_TIES;
}

/* Operations of the simplified apply of the candidate's layout, in a
 * context of its own (each text declares the same names). */
static int64_t index_ops(const synth_tile *t, const synth_cand *c)
{
	lego_ctx *ctx = lego_ctx_new();
	char *text = synth_cand_lego(t, c, "S");
	int64_t ops = -1;
	lego_spec *spec = ctx && text ? lego_spec_parse(ctx, "synth",
							text, strlen(text),
							NULL, 0) : NULL;
	lego_layout *l = spec ? lego_spec_layout(spec, "S") : NULL;
	if (l) {
		lego_expr *idx[2] = {
			lego_index(ctx, "_r", lego_const(ctx, 0),
				   lego_const(ctx, t->rows)),
			lego_index(ctx, "_c", lego_const(ctx, 0),
				   lego_const(ctx, t->cols))};
		lego_expr *e = lego_simplify(ctx, lego_layout_apply(ctx, l,
								    idx));
		if (e)
			ops = (int64_t)lego_expr_ops(&e, 1);
	}
	free(text);
	lego_ctx_free(ctx);
	return ops;
}

/* The chosen candidate as the caller's layout, checked: bijective, and
 * its table equal to the offsets the cost was computed on. */
static int finish(search *s, const synth_cand *c, const char *name,
		  lego_synth_result *out)
{
	lego_ctx *ctx = s->ctx;
	char *text = synth_cand_lego(&s->tile, c, name);
	if (!text)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	out->lego = lego_arena_strdup(&ctx->arena, text);
	free(text);
	lego_spec *spec = out->lego ? lego_spec_parse(ctx, "synth", out->lego,
						      strlen(out->lego), NULL,
						      0) : NULL;
	out->layout = spec ? lego_spec_layout(spec, name) : NULL;
	if (!out->layout)
		return LEGO_ERR;
	lego_check_report rep;
	if (lego_layout_check(ctx, out->layout, NULL, &rep) != LEGO_OK)
		return LEGO_ERR;
	out->bijective = rep.bijective && rep.inverse_ok;
	synth_cand_offsets(&s->tile, c, s->offset);
	for (int64_t r = 0; r < s->tile.rows; r++)
		for (int64_t k = 0; k < s->tile.cols; k++) {
			int64_t idx[2] = {r, k}, o;
			int rc = lego_layout_apply_num(ctx, out->layout, NULL,
						       idx, &o);
			if (rc != LEGO_OK)
				return rc;
			if (o != s->offset[r * s->tile.cols + k])
				return lego_fail(ctx, LEGO_ERR, "synth: "
						 "internal error: the text of "
						 "%s disagrees with its "
						 "offsets at (%lld, %lld)",
						 name, (long long)r,
						 (long long)k);
		}
	synth_cand_describe(&s->tile, c, out->desc, sizeof out->desc);
	out->pad_bytes = (synth_cand_size(&s->tile, c) -
			  s->tile.rows * s->tile.cols) * s->tile.elem_bytes;
	excess_of(s, c, -1, out->cost);
	for (size_t k = 0; k < s->naccess; k++) {
		out->wavefronts += out->cost[k].wavefronts;
		out->ideal += out->cost[k].ideal;
	}
	out->candidates = s->candidates;
	return s->status;
}

static int check_args(lego_ctx *ctx, const char *name, int64_t rows,
		      int64_t cols, int64_t elem_bytes, size_t naccess,
		      const lego_tv *const *access, lego_synth_result *out)
{
	if (!name || !access || !out)
		return lego_fail(ctx, LEGO_ERR, "lego_synth: NULL argument");
	if (rows < 1 || cols < 1 || rows * cols > 1 << 20 || rows > 1 << 20
	    || cols > 1 << 20)
		return lego_fail(ctx, LEGO_ERR, "synth: a %lld x %lld tile; "
				 "expected 1 to 2^20 elements",
				 (long long)rows, (long long)cols);
	if (naccess < 1 || naccess > LEGO_SYNTH_MAX_ACCESSES)
		return lego_fail(ctx, LEGO_ERR, "synth: %zu accesses; expected "
				 "1 to %d", naccess, LEGO_SYNTH_MAX_ACCESSES);
	for (size_t k = 0; k < naccess; k++) {
		if (!access[k])
			return lego_fail(ctx, LEGO_ERR, "lego_synth: access "
					 "%zu is NULL", k);
		if (access[k]->elem_bytes != elem_bytes)
			return lego_fail(ctx, LEGO_ERR, "synth: tv %s moves "
					 "%lld-byte elements, the tile holds "
					 "%lld-byte ones", access[k]->name,
					 (long long)access[k]->elem_bytes,
					 (long long)elem_bytes);
	}
	return LEGO_OK;
}

int lego_synth(lego_ctx *ctx, const char *name, int64_t rows, int64_t cols,
	       int64_t elem_bytes, size_t naccess,
	       const lego_tv *const *access, unsigned families,
	       lego_synth_result *out)
{
	if (!ctx)
		return LEGO_ERR;
	int rc = check_args(ctx, name, rows, cols, elem_bytes, naccess, access,
			    out);
	if (rc)
		return rc;
	memset(out, 0, sizeof *out);
	search s = {.ctx = ctx, .tile = {rows, cols, elem_bytes, 1,
				       families ? families : ~0u},
		    .naccess = naccess, .access = access};
	const int64_t *tables[LEGO_SYNTH_MAX_ACCESSES];
	for (size_t k = 0; k < naccess; k++) {
		int64_t u = access[k]->ldmatrix ? 8 : access[k]->vec;
		if (u > s.tile.unit)
			s.tile.unit = u;
		tables[k] = synth_tv_table(access[k]);
		s.order[k] = k;
	}
	s.tables = tables;
	/* The largest space: every line padded by under 128 bytes. */
	s.offset = lego_xalloc(ctx, (size_t)(rows * cols) * sizeof *s.offset);
	if (!s.offset)
		return LEGO_ENOMEM;
	rc = synth_space_each(&s.tile, visit, &s);
	if (rc < 0)
		return rc;
	if (!s.have)
		return lego_fail(ctx, LEGO_ERR, "synth: no layout of the space "
				 "keeps every access's vectors (the %lld x "
				 "%lld tile of %lld-byte elements)",
				 (long long)rows, (long long)cols,
				 (long long)elem_bytes);
	size_t pick = 0;
	int64_t best_ops = -1;
	for (size_t k = 0; k < s.nbest; k++) {
		int64_t ops = index_ops(&s.tile, &s.best[k].cand);
		if (ops >= 0 && (best_ops < 0 || ops < best_ops)) {
			best_ops = ops;
			pick = k;
		}
	}
	rc = finish(&s, &s.best[pick].cand, name, out);
	out->expr_ops = best_ops;
	return rc;
}
