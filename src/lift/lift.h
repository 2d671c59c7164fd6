/* lift.h - the Lift front end (internal): textual Lift programs, their
 * symbolic-size types, views compiled to index expressions through LEGO
 * layouts, and OpenCL and CUDA code generation.  The door of src/lift.
 *
 * Pipeline: lift_parse (text -> syntax tree) then lift_compile (type check
 * with symbolic sizes, views to accesses, loops, memory, OpenCL or CUDA).
 * Errors are "file:line:col: error: ..." in the context; functions return
 * NULL or -1 after setting one. */
#ifndef LEGO_LIFT_H
#define LEGO_LIFT_H

#include <stddef.h>

#include "core/core.h"

typedef enum { LIFT_TARGET_OPENCL, LIFT_TARGET_CUDA } lift_target_kind;

/* ------------------------------------------------------------ syntax tree */

typedef enum lift_ast_kind {
	LIFT_VAR,     /* name: a parameter, lambda variable, size or function */
	LIFT_NUM,     /* text: a literal as written (3, 0.0f) */
	LIFT_CALL,    /* name(args): a pattern, a user function */
	LIFT_APPLY,   /* args[0] $ args[1] */
	LIFT_COMPOSE, /* args[0] o args[1] */
	LIFT_LAMBDA   /* \params -> args[0] */
} lift_ast_kind;

typedef struct lift_ast {
	lift_ast_kind kind;
	int line, col;
	const char *name;          /* VAR, CALL; NUM: the literal text */
	int is_float;              /* NUM */
	struct lift_ast **args;
	size_t nargs;
	const char **params;       /* LAMBDA */
	size_t nparams;
} lift_ast;

/* Types: scalars, tuples and arrays whose length is a liblego expression
 * over the size symbols. */
typedef enum lift_type_kind { LIFT_FLOAT, LIFT_INT, LIFT_TUPLE, LIFT_ARRAY }
	lift_type_kind;

typedef struct lift_type {
	lift_type_kind kind;
	int width;                 /* FLOAT, INT: a vector of width > 1 */
	struct lift_type **elems;  /* TUPLE: nelems; ARRAY: elems[0] */
	size_t nelems;
	lego_expr *len;            /* ARRAY */
} lift_type;

typedef struct lift_param {
	const char *name;
	lift_type *type;
} lift_param;

/* A user function: C text, scalar parameters and result. */
typedef struct lift_ufun {
	const char *name;
	lift_type_kind result;
	lift_type_kind *ptypes;
	size_t nparams;
	const char *text;          /* the whole C definition */
	int line, col;
} lift_ufun;

typedef struct lift_program {
	const char *file;
	const char **sizes;        /* size symbols, in order */
	size_t nsizes;
	lift_ufun *funs;
	size_t nfuns;
	const char *kernel;        /* the kernel's name */
	lift_param *params;
	size_t nparams;
	lift_ast *body;
	/* `local X, Y, Z;`: the work-group's size, fixed when the kernel is
	 * compiled (0: not declared), so that private memory written under
	 * mapLcl holds only the work-item's own elements (write.c). */
	int local[3];
	/* A tune template (template.c): the sizes are macros, not kernel
	 * arguments, and a divisibility split needs that cannot be proved
	 * becomes a constraint of the tuner rather than an error. */
	int as_template;
	size_t ntunes;             /* the last ntunes sizes: tune parameters */
} lift_program;

/* Parses a .lift program; size symbols become liblego symbols of ctx and
 * `assume D | N;` a fact.  Everything lives in the context's arena. */
lift_program *lift_parse(lego_ctx *ctx, const char *file, const char *text,
			 size_t len);

/* Types */
lift_type *lift_type_scalar(lego_ctx *ctx, lift_type_kind kind);
/* float2, int4, ...: width 2, 4, 8 or 16 (1: the scalar). */
lift_type *lift_type_vector(lego_ctx *ctx, lift_type_kind kind, int width);
lift_type *lift_type_array(lego_ctx *ctx, lift_type *elem, lego_expr *len);
lift_type *lift_type_tuple(lego_ctx *ctx, lift_type **elems, size_t n);
/* Equal up to the simplifier's proof that lengths agree. */
int lift_type_equal(lego_ctx *ctx, const lift_type *a, const lift_type *b);
/* The number of scalars a value of type t holds (arrays of scalars or
 * vectors), simplified. */
lego_expr *lift_type_scalars(lego_ctx *ctx, const lift_type *t);
/* "[[float]N]M", caller frees. */
char *lift_type_print(lego_ctx *ctx, const lift_type *t);

/* The index functions of gather and scatter: reverse (i -> n - 1 - i) and
 * stride(s) (i -> (i % s) * (n / s) + i / s, Lift's reorderStride, for
 * s | n), as GenP layouts over [n] with their inverses. */
enum { LIFT_INDEX_REVERSE, LIFT_INDEX_STRIDE };
lego_layout *lift_index_function(lego_ctx *ctx, int kind, lego_expr *s,
				 lego_expr *n);

/* The body as text that lift_parse reads back (fully parenthesised),
 * caller frees. */
char *lift_ast_print(const lift_ast *a);

/* ------------------------------------------------------------- rewriting */

/* The rewrite rules (rewrite.c has their definitions). */
typedef enum {
	LIFT_RULE_FUSION, LIFT_RULE_SPLIT_JOIN, LIFT_RULE_REDUCE_SPLIT,
	LIFT_RULE_TO_SEQ, LIFT_RULE_TO_GLB, LIFT_RULE_TO_WRG, LIFT_RULE_TO_LCL,
	LIFT_RULE_TILING, LIFT_RULE_VECTORIZE, LIFT_RULE_UNROLL, LIFT_NRULES
} lift_rule;

const char *lift_rule_name(lift_rule r);
/* The rule of that name, or -1. */
int lift_rule_find(const char *name);
/* Whether the rule takes a size (split-join, reduce-split, tiling: a
 * split size; vectorize: a vector width), and whether that size may be a
 * tune parameter (not the width: vector types need a constant). */
int lift_rule_takes_size(lift_rule r);
int lift_rule_size_tunable(lift_rule r);
/* How many sites of the body the rule applies at (pre-order). */
size_t lift_rewrite_sites(lego_ctx *ctx, const lift_program *p,
			  lift_rule rule);
/* p with the rule applied at one site; n is the split size of split-join
 * and reduce-split, the tile side of tiling, the width of vectorize, or,
 * when param is not NULL and the size is tunable, that new size symbol
 * (a tune parameter, appended to p's sizes).  The
 * result may not type check: compile it. */
lift_program *lift_rewrite(lego_ctx *ctx, const lift_program *p,
			   lift_rule rule, size_t site, int64_t n,
			   const char *param);

/* One rewrite: a rule at a site, with its split size. */
typedef struct lift_step {
	lift_rule rule;
	size_t site;
	int64_t n;
} lift_step;

/* Parses text into ctx and applies the steps in order.  as_template:
 * the program of a tune template, the size of each step that takes one
 * a tune parameter SPLIT1, SPLIT2, ... (in the order of the steps). */
lift_program *lift_program_rewritten(lego_ctx *ctx, const char *file,
				     const char *text, size_t len,
				     const lift_step *steps, size_t nsteps,
				     int as_template);

typedef void (*lift_explore_fn)(void *user, const lift_step *path, size_t n,
				const char *body);
/* Every sequence of at most depth rewrites (split sizes 2 and 4; with
 * as_template, one tune parameter each) whose program compiles, each
 * distinct program reported once with its path (the original is not
 * reported); returns how many were compiled. */
size_t lift_explore(const char *file, const char *text, size_t len,
		    int depth, lift_target_kind target, int as_template,
		    lift_explore_fn fn, void *user);

/* ------------------------------------------------------------ compilation */

/* The generated code's own names: the result `out` and a prefix followed
 * by a number: loop indices (i_3, and i_3n in a double-buffered copy),
 * accumulators, vectors taken apart, private and local buffers.  The
 * emitters name them with these prefixes, and the parser refuses a user's
 * name (size, parameter, function) that starts with one
 * (lift_name_reserved), so no user name can clash with a generated one. */
#define LIFT_NAME_INDEX "i_"
#define LIFT_NAME_ACC "acc_"
#define LIFT_NAME_VEC "v_"
#define LIFT_NAME_PRIVATE "p_"
#define LIFT_NAME_LOCAL "l_"
#define LIFT_NAME_PREFIXES {LIFT_NAME_INDEX, LIFT_NAME_ACC, LIFT_NAME_VEC, \
			    LIFT_NAME_PRIVATE, LIFT_NAME_LOCAL}

/* 1 when name is `out` or starts with a prefix of LIFT_NAME_PREFIXES. */
int lift_name_reserved(const char *name);

typedef struct lift_kernel {
	char *source;       /* the kernel source (user functions and kernel) */
	char *host;         /* a header: NAME_launch and NAME_out_len */
	lift_type *result;  /* the kernel's result type */
	int ndims;          /* NDRange dimensions used by mapGlb/mapWrg/mapLcl */
	/* For tune templates: the divisibilities assumed ("(N) % (SPLIT1)
	 * == 0", one a line), per dimension the length of the first mapGlb
	 * or mapWrg (C text; NULL: none) and which, the local bytes. */
	char *assumed;
	const char *range[3];
	int range_wrg[3];
	long long local_bytes;
} lift_kernel;

/* Type checks and compiles the program to OpenCL or CUDA (one lowering,
 * two printers); malloc'ed strings. */
int lift_compile(lego_ctx *ctx, const lift_program *p,
		 lift_target_kind target, lift_kernel *out);
void lift_kernel_free(lift_kernel *k);

/* ------------------------------------------------------ tune hand-off */

/* A template for `lego tune` (docs/tuning.md) of the program after the
 * steps: their split sizes and the work-group sizes are tune parameters
 * (SPLITk, LOCALd) with their constraints (the divisibilities the splits
 * need, the work-group limit of the target), the sizes macros filled by
 * the tuner, the kernel's arguments, global and local sizes for its
 * built-in runners in `# args:`, `# global:`, `# local:` lines; the
 * local memory used is checked against the target's limit.  Malloc'ed,
 * or NULL after an error in ctx. */
char *lift_template(lego_ctx *ctx, const char *file, const char *text,
		    size_t len, const lift_step *steps, size_t nsteps,
		    lift_target_kind target);

#endif
