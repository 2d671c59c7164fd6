/* test_null.c - every public function of lego.h called with NULL for each
 * pointer argument (issue 12): the documented result, never a crash.  With
 * a context the message says what was missing. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "lego.h"

/* Objects of a fresh context, which holds no message yet. */
typedef struct fix {
	lego_ctx *ctx;
	lego_expr *a, *one, *dims[1], *out[2];
	lego_layout *l;
	lego_spec *spec;
	int64_t v, idx[2];
	size_t n;
} fix;

static void fix_new(fix *f)
{
	memset(f, 0, sizeof *f);
	f->ctx = lego_ctx_new();
	f->a = lego_sym(f->ctx, "a");
	f->one = lego_const(f->ctx, 1);
	f->dims[0] = f->one;
	f->l = lego_row(f->ctx, 1, f->dims);
	f->spec = lego_spec_parse(f->ctx, "s", "layout A = Row(2)\n", 18,
				  NULL, 0);
}

/* call (in terms of f) fails as `failed` says, with a message. */
#define NULL_CHECK(t, failed, call)                                        \
	do {                                                               \
		fix f;                                                     \
		fix_new(&f);                                               \
		CHECKF(t, !*lego_ctx_error(f.ctx), "fixture: %s",          \
		       lego_ctx_error(f.ctx));                             \
		CHECKF(t, failed(call), "%s accepted NULL", #call);        \
		CHECKF(t, *lego_ctx_error(f.ctx), "%s: no message", #call); \
		lego_ctx_free(f.ctx);                                      \
	} while (0)
#define IS_NULL(x) ((x) == NULL)
#define IS_ERR(x) ((x) == LEGO_ERR)
#define IS_UNKNOWN(x) ((x) == LEGO_UNKNOWN)

static void null_ctx(lego_test *t)
{
	test_case(t, "null_ctx");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_sym(ctx, "a"), *one = lego_const(ctx, 1);
	lego_expr *dims[1] = {one};
	int perm[1] = {1};
	lego_layout *l = lego_row(ctx, 1, dims);
	int64_t v = 0, idx[1] = {0};
	size_t n = 0;
	/* Everything taking a context fails without one. */
	lego_ctx_free(NULL);
	CHECK(t, !strcmp(lego_ctx_error(NULL), ""));
	CHECK(t, !lego_const(NULL, 1));
	CHECK(t, !lego_sym(NULL, "a") && !lego_sym_find(NULL, "a"));
	CHECK(t, !lego_index(NULL, "i", NULL, NULL));
	CHECK(t, !lego_add(NULL, a, a) && !lego_sub(NULL, a, a) &&
			 !lego_mul(NULL, a, a) && !lego_div(NULL, a, a) &&
			 !lego_mod(NULL, a, a) && !lego_min(NULL, a, a) &&
			 !lego_max(NULL, a, a) && !lego_neg(NULL, a) &&
			 !lego_not(NULL, a) && !lego_isqrt(NULL, a) &&
			 !lego_cdiv(NULL, a, a) &&
			 !lego_binop(NULL, LEGO_LT, a, a) &&
			 !lego_select(NULL, a, a, a));
	CHECK(t, !lego_expr_subst(NULL, a, 1, &a, &one));
	CHECK(t, lego_expr_symbols(NULL, a, NULL, &n) == LEGO_ERR);
	CHECK(t, lego_assume_divides(NULL, a, a) == LEGO_ERR);
	CHECK(t, lego_assume(NULL, a) == LEGO_ERR);
	CHECK(t, lego_ctx_use_smt(NULL, 1) == LEGO_ERR);
	CHECK(t, lego_prove_nonneg(NULL, a) == 0);
	CHECK(t, lego_prove_lt(NULL, one, a) == 0);
	CHECK(t, !lego_simplify(NULL, a));
	CHECK(t, !lego_expr_print(NULL, a, LEGO_LANG_C));
	CHECK(t, !lego_exprs_print(NULL, 1, &a, NULL, "t", LEGO_LANG_C));
	CHECK(t, !lego_env_new(NULL));
	CHECK(t, lego_expr_eval(NULL, one, NULL, &v) == LEGO_ERR);
	CHECK(t, !lego_regp(NULL, 1, dims, perm) && !lego_row(NULL, 1, dims) &&
			 !lego_col(NULL, 1, dims));
	CHECK(t, !lego_genp(NULL, 1, dims, NULL));
	CHECK(t, !lego_genp_exprs(NULL, "g", 1, dims, &a, a, a, &a));
	CHECK(t, !lego_genp_antidiag(NULL, one) &&
			 !lego_genp_morton(NULL, one, one) &&
			 !lego_genp_swizzle(NULL, 1, 0, 1, 1, dims));
	CHECK(t, !lego_orderby(NULL, 1, &l) &&
			 !lego_groupby(NULL, 1, &n, dims, 1, &l) &&
			 !lego_tileby(NULL, 1, &l, 1, 1, dims) &&
			 !lego_tile_orderby(NULL, 1, &l));
	CHECK(t, !lego_layout_size(NULL, l) && !lego_layout_phys_size(NULL, l));
	CHECK(t, lego_layout_apply_num(NULL, l, NULL, idx, &v) == LEGO_ERR);
	CHECK(t, lego_layout_inv_num(NULL, l, NULL, 0, idx) == LEGO_ERR);
	CHECK(t, lego_layout_table(NULL, l, NULL, idx, 1, &n) == LEGO_ERR);
	CHECK(t, !lego_layout_apply(NULL, l, &a));
	lego_expr *out[1];
	CHECK(t, lego_layout_inv(NULL, l, a, out) == LEGO_ERR);
	CHECK(t, !lego_layout_mask(NULL, l, &a));
	CHECK(t, lego_layout_check(NULL, l, NULL, NULL) == LEGO_ERR);
	CHECK(t, !lego_spec_parse(NULL, "f", "", 0, NULL, 0));
	CHECK(t, !lego_spec_load(NULL, "f", NULL, 0));
	CHECK(t, !lego_spec_load_lenient(NULL, "f", NULL, 0, NULL));
	lego_warp_access acc = {0};
	lego_bank_report br;
	lego_coalesce_report cr;
	CHECK(t, lego_analyze_banks(NULL, &acc, &br) == LEGO_ERR);
	CHECK(t, lego_analyze_coalesce(NULL, &acc, &cr) == LEGO_ERR);
	CHECK(t, !lego_show_text(NULL, l, NULL) && !lego_show_svg(NULL, l, NULL));
	CHECK(t, lego_smt_prove(NULL, a, 10, NULL) == LEGO_UNKNOWN);
	CHECK(t, lego_smt_prove_nonneg(NULL, a) == 0);
	CHECK(t, lego_smt_checks(NULL) == 0);
	lego_validation val;
	CHECK(t, lego_layout_validate(NULL, l, 10, &val) == LEGO_ERR);
	CHECK(t, !lego_gen(NULL, "t", "x", 1, NULL));
	lego_ctx_free(ctx);
}

static void null_args(lego_test *t)
{
	test_case(t, "null_args");
	/* Constructors: NULL operands give NULL and a message. */
	NULL_CHECK(t, IS_NULL, lego_sym(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_index(f.ctx, NULL, NULL, NULL));
	NULL_CHECK(t, IS_NULL, lego_add(f.ctx, NULL, f.a));
	NULL_CHECK(t, IS_NULL, lego_add(f.ctx, f.a, NULL));
	NULL_CHECK(t, IS_NULL, lego_sub(f.ctx, NULL, f.a));
	NULL_CHECK(t, IS_NULL, lego_mul(f.ctx, f.a, NULL));
	NULL_CHECK(t, IS_NULL, lego_div(f.ctx, NULL, f.a));
	NULL_CHECK(t, IS_NULL, lego_mod(f.ctx, f.a, NULL));
	NULL_CHECK(t, IS_NULL, lego_min(f.ctx, NULL, f.a));
	NULL_CHECK(t, IS_NULL, lego_max(f.ctx, f.a, NULL));
	NULL_CHECK(t, IS_NULL, lego_neg(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_not(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_isqrt(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_cdiv(f.ctx, NULL, f.a));
	NULL_CHECK(t, IS_NULL, lego_binop(f.ctx, LEGO_LT, NULL, f.a));
	NULL_CHECK(t, IS_NULL, lego_select(f.ctx, NULL, f.a, f.a));
	NULL_CHECK(t, IS_NULL, lego_select(f.ctx, f.a, f.a, NULL));
	NULL_CHECK(t, IS_NULL, lego_expr_subst(f.ctx, NULL, 1, &f.a, &f.one));
	NULL_CHECK(t, IS_NULL, lego_expr_subst(f.ctx, f.a, 1, NULL, &f.one));
	NULL_CHECK(t, IS_ERR, lego_expr_symbols(f.ctx, NULL, NULL, &f.n));
	NULL_CHECK(t, IS_ERR, lego_expr_symbols(f.ctx, f.a, NULL, &f.n));
	NULL_CHECK(t, IS_ERR, lego_expr_symbols(f.ctx, f.a, NULL, NULL));
	NULL_CHECK(t, IS_NULL, lego_simplify(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_expr_print(f.ctx, NULL, LEGO_LANG_C));
	NULL_CHECK(t, IS_NULL, lego_exprs_print(f.ctx, 1, NULL, NULL, "t",
						LEGO_LANG_C));
	NULL_CHECK(t, IS_NULL, lego_regp(f.ctx, 1, f.dims, NULL));
	NULL_CHECK(t, IS_NULL, lego_regp(f.ctx, 1, NULL, NULL));
	NULL_CHECK(t, IS_NULL, lego_row(f.ctx, 1, NULL));
	NULL_CHECK(t, IS_NULL, lego_genp(f.ctx, 1, f.dims, NULL));
	NULL_CHECK(t, IS_NULL, lego_genp_exprs(f.ctx, "g", 1, f.dims, NULL,
					       f.a, f.a, &f.a));
	NULL_CHECK(t, IS_NULL, lego_genp_antidiag(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_genp_morton(f.ctx, NULL, f.one));
	NULL_CHECK(t, IS_NULL, lego_genp_swizzle(f.ctx, 1, 0, 1, 1, NULL));
	NULL_CHECK(t, IS_NULL, lego_orderby(f.ctx, 1, NULL));
	NULL_CHECK(t, IS_NULL, lego_groupby(f.ctx, 1, NULL, f.dims, 1, &f.l));
	NULL_CHECK(t, IS_NULL, lego_groupby(f.ctx, 1, &f.n, f.dims, 1, NULL));
	NULL_CHECK(t, IS_NULL, lego_tileby(f.ctx, 1, NULL, 1, 1, f.dims));
	NULL_CHECK(t, IS_NULL, lego_tileby(f.ctx, 1, &f.l, 1, 1, NULL));
	NULL_CHECK(t, IS_NULL, lego_tile_orderby(f.ctx, 1, NULL));
	NULL_CHECK(t, IS_NULL, lego_layout_size(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_layout_phys_size(f.ctx, NULL));
	NULL_CHECK(t, IS_NULL, lego_layout_apply(f.ctx, NULL, &f.a));
	NULL_CHECK(t, IS_NULL, lego_layout_apply(f.ctx, f.l, NULL));
	NULL_CHECK(t, IS_NULL, lego_layout_mask(f.ctx, NULL, &f.a));
	NULL_CHECK(t, IS_NULL, lego_spec_parse(f.ctx, "f", NULL, 3, NULL, 0));
	NULL_CHECK(t, IS_NULL, lego_spec_load(f.ctx, NULL, NULL, 0));
	NULL_CHECK(t, IS_NULL, lego_spec_load_lenient(f.ctx, NULL, NULL, 0,
						      NULL));
	NULL_CHECK(t, IS_NULL, lego_spec_load_lenient(
				       f.ctx, "f", &(lego_define){"a", 1}, 1,
				       NULL));
	NULL_CHECK(t, IS_NULL, lego_spec_parse_expr(f.spec, NULL, NULL));
	NULL_CHECK(t, IS_NULL, lego_show_text(f.ctx, NULL, NULL));
	NULL_CHECK(t, IS_NULL, lego_show_svg(f.ctx, NULL, NULL));
	NULL_CHECK(t, IS_NULL, lego_gen(f.ctx, "t", NULL, 1, NULL));
	/* Status-returning functions: LEGO_ERR and a message. */
	NULL_CHECK(t, IS_ERR, lego_assume_divides(f.ctx, NULL, f.a));
	NULL_CHECK(t, IS_ERR, lego_assume(f.ctx, NULL));
	NULL_CHECK(t, IS_ERR, lego_expr_eval(f.ctx, NULL, NULL, &f.v));
	NULL_CHECK(t, IS_ERR, lego_expr_eval(f.ctx, f.one, NULL, NULL));
	NULL_CHECK(t, IS_ERR, lego_layout_apply_num(f.ctx, NULL, NULL, f.idx,
						    &f.v));
	NULL_CHECK(t, IS_ERR, lego_layout_apply_num(f.ctx, f.l, NULL, f.idx,
						    NULL));
	NULL_CHECK(t, IS_ERR, lego_layout_inv_num(f.ctx, NULL, NULL, 0,
						  f.idx));
	NULL_CHECK(t, IS_ERR, lego_layout_inv_num(f.ctx, f.l, NULL, 0, NULL));
	NULL_CHECK(t, IS_ERR, lego_layout_table(f.ctx, NULL, NULL, f.idx, 2,
						&f.n));
	NULL_CHECK(t, IS_ERR, lego_layout_table(f.ctx, f.l, NULL, NULL, 2,
						&f.n));
	NULL_CHECK(t, IS_ERR, lego_layout_inv(f.ctx, NULL, f.a, f.out));
	NULL_CHECK(t, IS_ERR, lego_layout_inv(f.ctx, f.l, NULL, f.out));
	NULL_CHECK(t, IS_ERR, lego_layout_inv(f.ctx, f.l, f.a, NULL));
	NULL_CHECK(t, IS_ERR, lego_layout_check(f.ctx, NULL, NULL, NULL));
	NULL_CHECK(t, IS_ERR, lego_analyze_banks(f.ctx, NULL, NULL));
	NULL_CHECK(t, IS_ERR, lego_analyze_coalesce(f.ctx, NULL, NULL));
	NULL_CHECK(t, IS_ERR, lego_layout_validate(f.ctx, NULL, 10, NULL));
	NULL_CHECK(t, IS_UNKNOWN, lego_smt_prove(f.ctx, NULL, 10, NULL));
	/* Predicates: not proved. */
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *a = lego_sym(ctx, "a");
	int64_t v = 0;
	CHECK(t, lego_prove_nonneg(ctx, NULL) == 0);
	CHECK(t, lego_prove_lt(ctx, NULL, a) == 0);
	CHECK(t, lego_smt_prove_nonneg(ctx, NULL) == 0);
	/* Functions without a context: the documented value. */
	CHECK(t, lego_expr_kind_of(NULL) == LEGO_CONST);
	CHECK(t, lego_expr_nargs(NULL) == 0 && !lego_expr_arg(NULL, 0));
	CHECK(t, lego_expr_value(NULL) == 0 && !lego_expr_name(NULL));
	CHECK(t, !lego_expr_is_const(NULL, &v));
	CHECK(t, lego_expr_ops(NULL, 3) == 0);
	lego_env_free(NULL);
	lego_env *env = lego_env_new(ctx);
	CHECK(t, lego_env_bind(NULL, a, 1) == LEGO_ERR);
	CHECK(t, lego_env_bind(env, NULL, 1) == LEGO_ERR);
	CHECK(t, lego_env_lookup(NULL, a, &v) == LEGO_ERR);
	CHECK(t, lego_env_lookup(env, NULL, &v) == LEGO_ERR);
	CHECK(t, lego_env_bind(env, a, 3) == LEGO_OK);
	CHECK(t, lego_env_lookup(env, a, NULL) == LEGO_ERR);
	lego_env_free(env);
	CHECK(t, lego_layout_rank(NULL) == 0 && !lego_layout_dim(NULL, 0));
	CHECK(t, lego_layout_is_padded(NULL) == 0);
	CHECK(t, !lego_spec_layout(NULL, "A") && !lego_spec_let(NULL, "x"));
	CHECK(t, lego_spec_nlayouts(NULL) == 0);
	CHECK(t, !lego_spec_layout_name(NULL, 0));
	CHECK(t, !lego_spec_parse_expr(NULL, "x", NULL));
	lego_spec *spec = lego_spec_parse(ctx, "s", "layout A = Row(2)\n", 18,
					  NULL, 0);
	CHECK(t, spec && !lego_spec_layout(spec, NULL) &&
			 !lego_spec_let(spec, NULL));
	int wl = 0, wc = 0;
	CHECK(t, !lego_spec_where(NULL, "A", &wl, &wc) &&
			 !lego_spec_where(spec, NULL, &wl, &wc) &&
			 !lego_spec_where(spec, "A", NULL, &wc) &&
			 !lego_spec_where(spec, "A", &wl, NULL));
	/* Where it is declared: line 1, column 8 of "layout A = ...". */
	CHECK(t, lego_spec_where(spec, "A", &wl, &wc) && wl == 1 && wc == 8);
	lego_validation_print(NULL, "A", NULL);
	lego_validation_print(stdout, "A", NULL);
	lego_ctx_free(ctx);
}

/* The functions added with the tuner, the proofs, streaming tables and
 * bounded input (after the audit above). */
static void null_later(lego_test *t)
{
	test_case(t, "null_later");
	lego_ctx *ctx = lego_ctx_new();
	lego_expr *one = lego_const(ctx, 1), *dims[1] = {one};
	lego_layout *l = lego_row(ctx, 1, dims);
	lego_layout_proof p;
	lego_argument by;
	char detail[64];
	size_t n;
	CHECK(t, !lego_index_fresh(NULL, "x", NULL, one) &&
			 !lego_index_fresh(ctx, NULL, NULL, one));
	CHECK(t, lego_expr_print_size(ctx, NULL, LEGO_LANG_C, 10) == 0);
	CHECK(t, lego_layout_table_each(NULL, l, NULL, NULL, NULL) == LEGO_ERR &&
			 lego_layout_table_each(ctx, NULL, NULL, NULL, NULL) ==
				 LEGO_ERR);
	CHECK(t, !lego_read_file(NULL, "f", &n) &&
			 !lego_read_file(ctx, NULL, &n) &&
			 !lego_read_file(ctx, "f", NULL));
	CHECK(t, lego_spec_ntunes(NULL) == 0 && !lego_spec_tune(NULL, 0) &&
			 lego_spec_nconstraints(NULL) == 0 &&
			 !lego_spec_constraint(NULL, 0, NULL, NULL) &&
			 !lego_spec_filename(NULL));
	CHECK(t, lego_layout_prove(NULL, l, 10, &p) == LEGO_ERR &&
			 lego_layout_prove(ctx, NULL, 10, &p) == LEGO_ERR &&
			 lego_layout_prove(ctx, l, 10, NULL) == LEGO_ERR);
	lego_layout_proof_print(stdout, "A", NULL);
	CHECK(t, !lego_rule_at(lego_rule_count()));
	CHECK(t, lego_rule_switch(NULL, "div-in-range", 1) == LEGO_ERR &&
			 lego_rule_switch(ctx, NULL, 1) == LEGO_ERR);
	CHECK(t, lego_rule_prove(NULL, 10, &by, detail, sizeof detail) ==
			 LEGO_UNKNOWN &&
		 lego_rule_prove(lego_rule_at(0), 10, NULL, detail,
				 sizeof detail) == LEGO_UNKNOWN);
	CHECK(t, !lego_gen_spec(NULL, "t", "x", 1, NULL) &&
			 !lego_gen_spec(ctx, "t", NULL, 1, NULL));
	lego_ctx_free(ctx);
}

void suite_null(lego_test *t)
{
	null_ctx(t);
	null_args(t);
	null_later(t);
}
