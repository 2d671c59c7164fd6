/* z3load.h - the Z3 entry points, resolved from libz3 at first use
 * (internal; included by smt.h when LEGO_HAVE_Z3).
 *
 * No binary links libz3: most commands never call the solver, and loading
 * and relocating libz3 and libstdc++ at every start cost 3 ms (issue 21).
 * Each Z3_* function the room calls is listed here once; the macros below
 * turn a call Z3_f(...) into a call through the resolved table, so the
 * code of the room reads as plain Z3.  A function not listed here fails
 * to link: add it to the list. */
#ifndef LEGO_SMT_Z3LOAD_H
#define LEGO_SMT_Z3LOAD_H

#include <z3.h>

/* X(return type, name without "Z3_", parameter types) */
#define SMT_Z3_API(X) \
	X(void, del_config, (Z3_config)) \
	X(void, del_context, (Z3_context)) \
	X(bool, get_numeral_int64, (Z3_context, Z3_ast, int64_t *)) \
	X(Z3_ast, mk_add, (Z3_context, unsigned, Z3_ast const *)) \
	X(Z3_ast, mk_and, (Z3_context, unsigned, Z3_ast const *)) \
	X(Z3_sort, mk_bool_sort, (Z3_context)) \
	X(Z3_ast, mk_bv2int, (Z3_context, Z3_ast, bool)) \
	X(Z3_sort, mk_bv_sort, (Z3_context, unsigned)) \
	X(Z3_ast, mk_bvadd, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvmul, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvsdiv, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvsrem, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvsmod, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvashr, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvsle, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvslt, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_sign_ext, (Z3_context, unsigned, Z3_ast)) \
	X(Z3_ast, mk_bvand, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvor, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvshl, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_bvxor, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_config, mk_config, (void)) \
	X(Z3_ast, mk_const, (Z3_context, Z3_symbol, Z3_sort)) \
	X(Z3_context, mk_context, (Z3_config)) \
	X(Z3_ast, mk_div, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_eq, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_fresh_const, (Z3_context, Z3_string, Z3_sort)) \
	X(Z3_ast, mk_ge, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_gt, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_implies, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_int2bv, (Z3_context, unsigned, Z3_ast)) \
	X(Z3_ast, mk_int64, (Z3_context, int64_t, Z3_sort)) \
	X(Z3_sort, mk_int_sort, (Z3_context)) \
	X(Z3_ast, mk_ite, (Z3_context, Z3_ast, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_le, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_lt, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_mod, (Z3_context, Z3_ast, Z3_ast)) \
	X(Z3_ast, mk_mul, (Z3_context, unsigned, Z3_ast const *)) \
	X(Z3_ast, mk_not, (Z3_context, Z3_ast)) \
	X(Z3_ast, mk_or, (Z3_context, unsigned, Z3_ast const *)) \
	X(Z3_params, mk_params, (Z3_context)) \
	X(Z3_solver, mk_solver, (Z3_context)) \
	X(Z3_solver, mk_solver_for_logic, (Z3_context, Z3_symbol)) \
	X(Z3_symbol, mk_string_symbol, (Z3_context, Z3_string)) \
	X(Z3_ast, mk_unary_minus, (Z3_context, Z3_ast)) \
	X(void, model_dec_ref, (Z3_context, Z3_model)) \
	X(Z3_bool_opt, model_eval, \
	  (Z3_context, Z3_model, Z3_ast, bool, Z3_ast *)) \
	X(void, model_inc_ref, (Z3_context, Z3_model)) \
	X(void, params_dec_ref, (Z3_context, Z3_params)) \
	X(void, params_inc_ref, (Z3_context, Z3_params)) \
	X(void, params_set_uint, \
	  (Z3_context, Z3_params, Z3_symbol, unsigned)) \
	X(void, set_error_handler, (Z3_context, Z3_error_handler)) \
	X(void, solver_assert, (Z3_context, Z3_solver, Z3_ast)) \
	X(Z3_lbool, solver_check, (Z3_context, Z3_solver)) \
	X(Z3_lbool, solver_check_assumptions, \
	  (Z3_context, Z3_solver, unsigned, Z3_ast const *)) \
	X(void, solver_dec_ref, (Z3_context, Z3_solver)) \
	X(Z3_model, solver_get_model, (Z3_context, Z3_solver)) \
	X(void, solver_inc_ref, (Z3_context, Z3_solver)) \
	X(void, solver_set_params, (Z3_context, Z3_solver, Z3_params)) \
	X(Z3_stats, solver_get_statistics, (Z3_context, Z3_solver)) \
	X(void, stats_inc_ref, (Z3_context, Z3_stats)) \
	X(void, stats_dec_ref, (Z3_context, Z3_stats)) \
	X(unsigned, stats_size, (Z3_context, Z3_stats)) \
	X(Z3_string, stats_get_key, (Z3_context, Z3_stats, unsigned)) \
	X(bool, stats_is_uint, (Z3_context, Z3_stats, unsigned)) \
	X(unsigned, stats_get_uint_value, (Z3_context, Z3_stats, unsigned)) \
	X(double, stats_get_double_value, (Z3_context, Z3_stats, unsigned))

typedef struct smt_z3_api {
#define SMT_Z3_FIELD(ret, name, params) ret (*name) params;
	SMT_Z3_API(SMT_Z3_FIELD)
#undef SMT_Z3_FIELD
} smt_z3_api;

/* Loads libz3 and resolves the table, once per process.  0 on success;
 * otherwise -1, and smt_z3_error() says why in one line. */
int smt_z3_load(void);
const char *smt_z3_error(void);
/* The resolved table; only valid after smt_z3_load() succeeded. */
const smt_z3_api *smt_z3(void);

#define Z3_del_config (smt_z3()->del_config)
#define Z3_del_context (smt_z3()->del_context)
#define Z3_get_numeral_int64 (smt_z3()->get_numeral_int64)
#define Z3_mk_add (smt_z3()->mk_add)
#define Z3_mk_and (smt_z3()->mk_and)
#define Z3_mk_bool_sort (smt_z3()->mk_bool_sort)
#define Z3_mk_bv2int (smt_z3()->mk_bv2int)
#define Z3_mk_bv_sort (smt_z3()->mk_bv_sort)
#define Z3_mk_bvadd (smt_z3()->mk_bvadd)
#define Z3_mk_bvmul (smt_z3()->mk_bvmul)
#define Z3_mk_bvsdiv (smt_z3()->mk_bvsdiv)
#define Z3_mk_bvsrem (smt_z3()->mk_bvsrem)
#define Z3_mk_bvsmod (smt_z3()->mk_bvsmod)
#define Z3_mk_bvashr (smt_z3()->mk_bvashr)
#define Z3_mk_bvsle (smt_z3()->mk_bvsle)
#define Z3_mk_bvslt (smt_z3()->mk_bvslt)
#define Z3_mk_sign_ext (smt_z3()->mk_sign_ext)
#define Z3_mk_bvand (smt_z3()->mk_bvand)
#define Z3_mk_bvor (smt_z3()->mk_bvor)
#define Z3_mk_bvshl (smt_z3()->mk_bvshl)
#define Z3_mk_bvxor (smt_z3()->mk_bvxor)
#define Z3_mk_config (smt_z3()->mk_config)
#define Z3_mk_const (smt_z3()->mk_const)
#define Z3_mk_context (smt_z3()->mk_context)
#define Z3_mk_div (smt_z3()->mk_div)
#define Z3_mk_eq (smt_z3()->mk_eq)
#define Z3_mk_fresh_const (smt_z3()->mk_fresh_const)
#define Z3_mk_ge (smt_z3()->mk_ge)
#define Z3_mk_gt (smt_z3()->mk_gt)
#define Z3_mk_implies (smt_z3()->mk_implies)
#define Z3_mk_int2bv (smt_z3()->mk_int2bv)
#define Z3_mk_int64 (smt_z3()->mk_int64)
#define Z3_mk_int_sort (smt_z3()->mk_int_sort)
#define Z3_mk_ite (smt_z3()->mk_ite)
#define Z3_mk_le (smt_z3()->mk_le)
#define Z3_mk_lt (smt_z3()->mk_lt)
#define Z3_mk_mod (smt_z3()->mk_mod)
#define Z3_mk_mul (smt_z3()->mk_mul)
#define Z3_mk_not (smt_z3()->mk_not)
#define Z3_mk_or (smt_z3()->mk_or)
#define Z3_mk_params (smt_z3()->mk_params)
#define Z3_mk_solver (smt_z3()->mk_solver)
#define Z3_mk_solver_for_logic (smt_z3()->mk_solver_for_logic)
#define Z3_mk_string_symbol (smt_z3()->mk_string_symbol)
#define Z3_mk_unary_minus (smt_z3()->mk_unary_minus)
#define Z3_model_dec_ref (smt_z3()->model_dec_ref)
#define Z3_model_eval (smt_z3()->model_eval)
#define Z3_model_inc_ref (smt_z3()->model_inc_ref)
#define Z3_params_dec_ref (smt_z3()->params_dec_ref)
#define Z3_params_inc_ref (smt_z3()->params_inc_ref)
#define Z3_params_set_uint (smt_z3()->params_set_uint)
#define Z3_set_error_handler (smt_z3()->set_error_handler)
#define Z3_solver_assert (smt_z3()->solver_assert)
#define Z3_solver_check (smt_z3()->solver_check)
#define Z3_solver_check_assumptions (smt_z3()->solver_check_assumptions)
#define Z3_solver_dec_ref (smt_z3()->solver_dec_ref)
#define Z3_solver_get_model (smt_z3()->solver_get_model)
#define Z3_solver_inc_ref (smt_z3()->solver_inc_ref)
#define Z3_solver_set_params (smt_z3()->solver_set_params)
#define Z3_solver_get_statistics (smt_z3()->solver_get_statistics)
#define Z3_stats_inc_ref (smt_z3()->stats_inc_ref)
#define Z3_stats_dec_ref (smt_z3()->stats_dec_ref)
#define Z3_stats_size (smt_z3()->stats_size)
#define Z3_stats_get_key (smt_z3()->stats_get_key)
#define Z3_stats_is_uint (smt_z3()->stats_is_uint)
#define Z3_stats_get_uint_value (smt_z3()->stats_get_uint_value)
#define Z3_stats_get_double_value (smt_z3()->stats_get_double_value)

#endif
