/* mdh.h - the MDH front end (internal): programs of multi-dimensional
 * homomorphisms (seed 003: inp_view, md_hom, out_view) lowered to a
 * LEGO template over the OpenCL (or CUDA) system model.  The door of
 * src/mdh.
 *
 * Pipeline: mdh_parse (text -> program) then mdh_lower (program -> a
 * kernel template and a host template whose spec holds the tunable
 * de-/re-composition parameters, every index a LEGO layout), then
 * mdh_instantiate (a template and -D values -> code, through lego_gen).
 * Errors are "file:line:col: error: ..." in the context; functions return
 * NULL or -1 after setting one.  Everything lives in the context's arena
 * unless said otherwise.  docs/mdh.md is the reference. */
#ifndef LEGO_MDH_H
#define LEGO_MDH_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* ---------------------------------------------------------------- program */

/* The combine operator of a dimension. */
typedef enum mdh_op_kind {
	MDH_CONCAT,   /* ++: the dimension indexes the output */
	MDH_ADD,
	MDH_MUL,
	MDH_MAX,
	MDH_MIN,
	MDH_USER      /* `op NAME(a, b) { C } identity { C }` */
} mdh_op_kind;

/* `tuple NAME { TYPE FIELD; .. }`: a value of several scalars (PRL's
 * (weight, id) pairs), a C struct in the kernels and the host code. */
typedef struct mdh_tuple {
	const char *name;
	const char **ftypes, **fnames;   /* "float" or "int"; names */
	size_t nfields;
	int line, col;
} mdh_tuple;

typedef struct mdh_user_op {
	const char *name, *type;   /* its C name and operand type */
	const char *a, *b;         /* parameter names */
	const char *body;          /* the C body, braces included */
	const char *identity;      /* a C expression */
	const char *init;          /* over a tuple: the identity's
				      initializer, and identity calls
				      mdh_id_NAME() that returns it */
	int line, col;
} mdh_user_op;

typedef struct mdh_dim {
	const char *name;
	const char *size;          /* a size symbol or a decimal literal */
	mdh_op_kind op;
	const mdh_user_op *user;   /* MDH_USER */
	int line, col;
} mdh_dim;

/* One term of an affine index: coef * syms[0] * .. * dims[dim] (dim -1:
 * a constant term). */
typedef struct mdh_term {
	int64_t coef;
	const char **syms;
	size_t nsyms;
	int dim;
} mdh_term;

typedef struct mdh_index {
	mdh_term *terms;
	size_t nterms;
} mdh_index;

/* One index function `(i, k) -> (e1, .., er)` of a buffer. */
typedef struct mdh_access {
	mdh_index *idx;            /* rank entries */
	int line, col;
} mdh_access;

typedef struct mdh_buf {
	const char *name, *type;   /* type: "float" or "int" */
	int is_out;
	size_t rank;               /* 0: one element */
	mdh_access *acc;
	size_t nacc;
	int line, col;
} mdh_buf;

typedef struct mdh_program {
	const char *file;
	const char *name;          /* the kernel's name */
	const char **sizes;
	size_t nsizes;
	mdh_dim *dims;
	size_t ndims;
	mdh_buf *bufs;             /* inputs and outputs, in order */
	size_t nbufs;
	mdh_user_op *ops;
	size_t nops;
	mdh_tuple *tuples;
	size_t ntuples;
	const char *scalar;        /* the scalar function's body, braces
				      included */
	mdh_op_kind red;           /* the reduction dims' operator, or
				      MDH_CONCAT when every dim is ++ */
	const mdh_user_op *red_user;
} mdh_program;

/* Parses and checks a .mdh program. */
mdh_program *mdh_parse(lego_ctx *ctx, const char *file, const char *text,
		       size_t len);

/* ------------------------------------------------------------- lowering */

/* MDH_NVRTC: the CUDA kernels alone, extern "C", with no includes and
 * no launch function: what NVRTC compiles (lego tune --runner cuda). */
typedef enum mdh_target { MDH_OPENCL, MDH_CUDA, MDH_NVRTC } mdh_target;

typedef struct mdh_templates {
	char *kernel;   /* the kernels, {% lego %} spec block first; for
			   CUDA also their launch function */
	char *host;     /* OpenCL: a C header with the same spec block;
			   CUDA: NULL */
} mdh_templates;

/* The templates of p (malloc'ed strings; mdh_templates_free).  maxwg
 * bounds the work-group size, a constraint of the space. */
int mdh_lower(lego_ctx *ctx, const mdh_program *p, mdh_target target,
	      int64_t maxwg, mdh_templates *out);
void mdh_templates_free(mdh_templates *t);

/* A template expanded for gen's target ("opencl", "cuda", "c") with defs; every
 * tuning parameter defs leaves out gets its default (docs/mdh.md).
 * Malloc'ed, NULL on error. */
char *mdh_instantiate(lego_ctx *ctx, const mdh_program *p,
		      const char *template_text, const char *target,
		      const lego_define *defs, size_t ndefs);

/* The tuple named type, or NULL (a scalar type). */
const mdh_tuple *mdh_tuple_find(const mdh_program *p, const char *type);

/* Whether dimension d is reduced (its operator is not ++). */
int mdh_dim_is_red(const mdh_dim *d);

#endif
