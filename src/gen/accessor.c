/* accessor.c - a layout as a C/CUDA/OpenCL accessor header (the paper's
 * Arr2D).  Index arithmetic is done in 32-bit int when every value it
 * meets is proved to fit (lego_exprs_fit_int32: concrete sizes small
 * enough), else in the dialect's 64-bit type, parameters included, so no
 * product of a kernel's ints can overflow. */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "expr/print.h"
#include "expr/sbuf.h"
#include "gen/accessor.h"
#include "gen/emit.h"

typedef struct acc {
	lego_ctx *ctx;
	const char *name;
	lego_dialect d;
	const char *ty;      /* int when 32 bits suffice, else 64-bit */
	const char *fn;      /* qualifiers of the functions */
	size_t rank;
	lego_expr **idx;     /* lego_i0.. */
	lego_expr *flat;     /* lego_x */
	lego_expr *apply;
	lego_expr *mask;     /* padded layouts: in the real tensor; else NULL */
	lego_expr **inv;
	lego_expr **sizes;   /* symbolic sizes, sorted by name */
	size_t nsizes, cap;
	int isqrt;
	lego_sbuf *out;
} acc;

static int is_param(const acc *a, const lego_expr *e)
{
	if (e == a->flat)
		return 1;
	for (size_t k = 0; k < a->rank; k++)
		if (e == a->idx[k])
			return 1;
	return 0;
}

/* Records e when it is a size: a symbol that is not a parameter. */
static int add_size(acc *a, lego_expr *e)
{
	if (lego_expr_kind_of(e) != LEGO_SYM || is_param(a, e))
		return LEGO_OK;
	const char *s = lego_expr_name(e);
	size_t at = 0;
	while (at < a->nsizes && strcmp(lego_expr_name(a->sizes[at]), s) < 0)
		at++;
	if (at < a->nsizes && a->sizes[at] == e)
		return LEGO_OK;
	if (a->nsizes == a->cap)
		return lego_fail(a->ctx, LEGO_ERR, "accessor: too many sizes");
	memmove(a->sizes + at + 1, a->sizes + at,
		(a->nsizes - at) * sizeof *a->sizes);
	a->sizes[at] = e;
	a->nsizes++;
	return LEGO_OK;
}

/* Collects the free symbols (sizes) of e and whether it uses isqrt, each
 * node of the DAG once (walked as a tree, a nested layout's expression
 * is exponential). */
static int scan(acc *a, lego_expr *e)
{
	lego_expr **order;
	size_t n;
	if (!lego_expr_nargs(e))
		return add_size(a, e);
	if (lego_expr_topo(e, NULL, NULL, &order, &n) != LEGO_OK)
		return lego_fail(a->ctx, LEGO_ENOMEM, "out of memory");
	int rc = LEGO_OK;
	for (size_t i = 0; i < n && rc == LEGO_OK; i++) {
		a->isqrt |= lego_expr_kind_of(order[i]) == LEGO_ISQRT;
		for (size_t k = 0; k < lego_expr_nargs(order[i]) && !rc; k++)
			rc = add_size(a, lego_expr_arg(order[i], k));
	}
	free(order);
	return rc;
}

/* Why a size named s cannot be a parameter of the accessor's functions
 * (or a member of NAME_arr): the accessor's own names, i0.. (outputs of
 * NAME_inv), t0.. (temporaries), the functions, and in CUDA the members
 * and names of the wrapper; NULL when it can. */
static const char *accessor_clash(const acc *a, const char *s)
{
	static const char *const cuda_names[] = {"base", "row", "a", "T"};
	static const char *const fns[] = {"at", "inv", "mask", "arr"};
	size_t n = strlen(a->name);
	if ((s[0] == 'i' || s[0] == 't') && s[1] &&
	    strspn(s + 1, "0123456789") == strlen(s + 1))
		return s[0] == 'i' ? "an output parameter of NAME_inv"
				   : "a temporary of the accessor";
	if (!strncmp(s, a->name, n) && s[n] == '_')
		for (size_t i = 0; i < 4; i++)
			if (!strcmp(s + n + 1, fns[i]))
				return "a function of the accessor";
	for (size_t i = 0; a->d == LEGO_DIALECT_CUDA && i < 4; i++)
		if (!strcmp(s, cuda_names[i]))
			return "a name of the NAME_arr wrapper";
	return NULL;
}

static int check_names(const acc *a, lego_target target)
{
	for (size_t i = 0; i < a->nsizes; i++) {
		const char *s = lego_expr_name(a->sizes[i]);
		const char *why = gen_name_clash(target, s);
		const lego_symbol *sym = a->sizes[i]->sym;
		if (!why && !(why = accessor_clash(a, s)))
			continue;
		if (sym->file)
			return lego_fail(a->ctx, LEGO_ERR, "%s:%d:%d: error: "
					 "accessor of '%s': the size '%s' is "
					 "%s: rename it", sym->file, sym->line,
					 sym->col, a->name, s, why);
		return lego_fail(a->ctx, LEGO_ERR, "accessor of '%s': the size "
				 "'%s' is %s: rename it in the spec", a->name,
				 s, why);
	}
	return LEGO_OK;
}

/* The parameters are bounded by the layout's dims and size: with the
 * expressions, they decide the width. */
static void pick_type(acc *a)
{
	size_t n = 2 * a->rank + 3, k = 0;
	lego_expr **all = lego_xalloc(a->ctx, n * sizeof *all);
	const lego_dialect_info *info = lego_dialect_get(a->d);
	a->ty = info->int_type;
	if (!all)
		return;
	all[k++] = a->apply;
	all[k++] = a->flat;
	if (a->mask)
		all[k++] = a->mask;
	for (size_t i = 0; i < a->rank; i++) {
		all[k++] = a->inv[i];
		all[k++] = a->idx[i];
	}
	if (lego_exprs_fit_int32(k, all))
		a->ty = info->int32_type;
}

static int build(acc *a, const lego_layout *l)
{
	lego_ctx *ctx = a->ctx;
	a->rank = lego_layout_rank(l);
	a->idx = lego_xalloc(ctx, (a->rank + 1) * sizeof *a->idx);
	a->inv = lego_xalloc(ctx, (a->rank + 1) * sizeof *a->inv);
	a->cap = 64;
	a->sizes = lego_xalloc(ctx, a->cap * sizeof *a->sizes);
	if (!a->idx || !a->inv || !a->sizes)
		return LEGO_ENOMEM;
	for (size_t k = 0; k < a->rank; k++) {
		char nm[32];
		snprintf(nm, sizeof nm, "lego_i%zu", k);
		a->idx[k] = lego_index(ctx, nm, lego_const(ctx, 0),
				       lego_layout_dim(l, k));
		if (!a->idx[k])
			return LEGO_ERR;
	}
	a->flat = lego_index(ctx, "lego_x", lego_const(ctx, 0),
			     lego_layout_phys_size(ctx, l));
	lego_expr *ap = lego_layout_apply(ctx, l, a->idx);
	if (!a->flat || !ap || !(a->apply = lego_simplify(ctx, ap)) ||
	    lego_layout_inv(ctx, l, a->flat, a->inv) != LEGO_OK)
		return LEGO_ERR;
	for (size_t k = 0; k < a->rank; k++)
		if (!(a->inv[k] = lego_simplify(ctx, a->inv[k])))
			return LEGO_ERR;
	if (lego_layout_is_padded(l) &&
	    (!(a->mask = lego_layout_mask(ctx, l, a->idx)) ||
	     scan(a, a->mask) != LEGO_OK))
		return LEGO_ERR;
	if (scan(a, a->apply) != LEGO_OK)
		return LEGO_ERR;
	for (size_t k = 0; k < a->rank; k++)
		if (scan(a, a->inv[k]) != LEGO_OK)
			return LEGO_ERR;
	pick_type(a);
	return LEGO_OK;
}

/* ", long long n, long long m" (the type is a->ty) */
static void size_params(acc *a)
{
	for (size_t i = 0; i < a->nsizes; i++)
		lego_sbuf_printf(a->out, ", %s %s", a->ty,
				 lego_expr_name(a->sizes[i]));
}

/* The statements computing es, then `lhs[k]` = value k. */
static int body(acc *a, size_t n, lego_expr *const *es, const char *fmt)
{
	char **v = lego_xalloc(a->ctx, (n + 1) * sizeof *v);
	char *pre = NULL;
	if (!v)
		return LEGO_ENOMEM;
	int rc = lego_print_shared(a->ctx, n, es, "t", "\t", a->d, &pre, v);
	if (rc != LEGO_OK)
		return rc;
	lego_sbuf_puts(a->out, pre);
	for (size_t k = 0; k < n; k++) {
		lego_sbuf_printf(a->out, fmt, k, v[k]);
		free(v[k]);
	}
	free(pre);
	return LEGO_OK;
}

/* `(void)S;` for each size parameter none of es uses. */
static void unused_sizes(acc *a, size_t n, lego_expr *const *es)
{
	for (size_t i = 0; i < a->nsizes; i++) {
		int used = 0;
		for (size_t k = 0; k < n && !used; k++)
			used = lego_expr_mentions(es[k], &a->sizes[i], 1);
		if (!used)
			lego_sbuf_printf(a->out, "\t(void)%s;\n",
					 lego_expr_name(a->sizes[i]));
	}
}

/* A function of the logical index returning e: NAME_at, NAME_mask. */
static int print_index_fn(acc *a, const char *comment, const char *type,
			  const char *suffix, lego_expr *e)
{
	lego_sbuf_printf(a->out, "/* %s */\n%s%s %s_%s(", comment, a->fn, type,
			 a->name, suffix);
	for (size_t k = 0; k < a->rank; k++)
		lego_sbuf_printf(a->out, "%s%s lego_i%zu", k ? ", " : "",
				 a->ty, k);
	size_params(a);
	lego_sbuf_puts(a->out, ")\n{\n");
	for (size_t k = 0; k < a->rank; k++)
		if (!lego_expr_mentions(e, &a->idx[k], 1))
			lego_sbuf_printf(a->out, "\t(void)lego_i%zu;\n", k);
	unused_sizes(a, 1, &e);
	int rc = body(a, 1, &e, "\treturn %.0zu%s;\n");
	lego_sbuf_puts(a->out, "}\n\n");
	return rc;
}

static int print_at(acc *a)
{
	int rc = print_index_fn(a, "Physical offset of the logical index "
				   "(i0, ..).", a->ty, "at", a->apply);
	if (rc == LEGO_OK && a->mask)
		rc = print_index_fn(a, "1 when the logical index (i0, ..) lies "
				       "in the real tensor, 0 in the padding "
				       "(where _at means nothing).",
				    "int", "mask", a->mask);
	return rc;
}

/* The outputs keep the 64-bit type whatever the width of the arithmetic,
 * so that callers' pointers do not depend on the sizes. */
static int print_inv(acc *a)
{
	lego_sbuf_printf(a->out,
			 "/* The logical index of the physical offset x. */\n"
			 "%svoid %s_inv(%s lego_x",
			 a->fn, a->name, a->ty);
	size_params(a);
	for (size_t k = 0; k < a->rank; k++)
		lego_sbuf_printf(a->out, ", %s *i%zu",
				 lego_dialect_get(a->d)->int_type, k);
	lego_sbuf_puts(a->out, ")\n{\n");
	size_t uses_x = 0; /* none when the layout has a single element */
	for (size_t k = 0; k < a->rank; k++)
		uses_x += lego_expr_mentions(a->inv[k], &a->flat, 1);
	if (!uses_x)
		lego_sbuf_puts(a->out, "\t(void)lego_x;\n");
	unused_sizes(a, a->rank, a->inv);
	int rc = body(a, a->rank, a->inv, "\t*i%zu = %s;\n");
	lego_sbuf_puts(a->out, "}\n\n");
	return rc;
}

/* " + sizes" as arguments: ", n, m". */
static void size_args(acc *a)
{
	for (size_t i = 0; i < a->nsizes; i++)
		lego_sbuf_printf(a->out, ", %s", lego_expr_name(a->sizes[i]));
}

/* CUDA (C++): NAME_arr<T>, a[i][j] -> base[NAME_at(i, j, sizes)]. */
static void print_wrapper(acc *a)
{
	const char *hd = "__host__ __device__ __forceinline__ ";
	lego_sbuf *o = a->out;
	lego_sbuf_printf(o, "#ifdef __cplusplus\ntemplate <typename T> "
			    "struct %s_arr {\n\tT *base;\n", a->name);
	for (size_t i = 0; i < a->nsizes; i++)
		lego_sbuf_printf(o, "\t%s %s;\n", a->ty,
				 lego_expr_name(a->sizes[i]));
	lego_sbuf_printf(o, "\t%sT &operator()(", hd);
	for (size_t k = 0; k < a->rank; k++)
		lego_sbuf_printf(o, "%s%s i%zu", k ? ", " : "", a->ty, k);
	lego_sbuf_printf(o, ") const\n\t{\n\t\treturn base[%s_at(", a->name);
	for (size_t k = 0; k < a->rank; k++)
		lego_sbuf_printf(o, "%si%zu", k ? ", " : "", k);
	size_args(a);
	lego_sbuf_puts(o, ")];\n\t}\n");
	if (a->rank == 1)
		lego_sbuf_printf(o, "\t%sT &operator[](%s i0) const\n"
				    "\t{\n\t\treturn (*this)(i0);\n\t}\n",
				 hd, a->ty);
	if (a->rank == 2)
		lego_sbuf_printf(o,
				 "\t/* a[i] is a row; a[i][j] the element. */\n"
				 "\tstruct row {\n\t\tconst %s_arr *a;\n"
				 "\t\t%s i0;\n"
				 "\t\t%sT &operator[](%s i1) const\n"
				 "\t\t{\n\t\t\treturn (*a)(i0, i1);\n\t\t}\n"
				 "\t};\n"
				 "\t%srow operator[](%s i0) const\n"
				 "\t{\n\t\treturn row{this, i0};\n\t}\n",
				 a->name, a->ty, hd, a->ty, hd, a->ty);
	lego_sbuf_puts(o, "};\n#endif\n\n");
}

static int print_header(acc *a)
{
	lego_sbuf_printf(a->out,
			 "/* Accessor of layout %s, generated by liblego "
			 "(`lego accessor`): do not edit. */\n"
			 "#ifndef LEGO_ACCESSOR_%s_H\n"
			 "#define LEGO_ACCESSOR_%s_H\n\n",
			 a->name, a->name, a->name);
	if (a->isqrt)
		lego_sbuf_printf(a->out, "%s\n", lego_dialect_helpers(a->d));
	if (print_at(a) != LEGO_OK || print_inv(a) != LEGO_OK)
		return LEGO_ERR;
	if (a->d == LEGO_DIALECT_CUDA)
		print_wrapper(a);
	lego_sbuf_puts(a->out, "#endif\n");
	return LEGO_OK;
}

char *lego_accessor_header(lego_ctx *ctx, const lego_layout *l,
			   const char *name, lego_target target)
{
	static const char *const fns[] = {
		[LEGO_DIALECT_C] = "static inline ",
		[LEGO_DIALECT_CUDA] = "static __host__ __device__ "
				      "__forceinline__ ",
		[LEGO_DIALECT_OPENCL] = "static inline "};
	if (target != LEGO_TARGET_C && target != LEGO_TARGET_CUDA &&
	    target != LEGO_TARGET_OPENCL)
		return lego_fail_null(ctx, "accessor: the target is C, CUDA "
					   "or OpenCL");
	lego_dialect d = target == LEGO_TARGET_C      ? LEGO_DIALECT_C
			 : target == LEGO_TARGET_CUDA ? LEGO_DIALECT_CUDA
						      : LEGO_DIALECT_OPENCL;
	lego_sbuf b = {0};
	acc a = {.ctx = ctx, .name = name, .d = d, .out = &b, .fn = fns[d]};
	int rc = build(&a, l);
	if (rc == LEGO_OK)
		rc = check_names(&a, target);
	if (rc == LEGO_OK)
		rc = print_header(&a);
	char *s = lego_sbuf_take(&b);
	if (rc != LEGO_OK || !s) {
		free(s);
		return rc == LEGO_OK ? lego_fail_null(ctx, "out of memory")
				     : NULL;
	}
	return s;
}
