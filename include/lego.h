/*
 * lego.h - liblego, the LEGO layout algebra in C.
 *
 * One public header.  Everything is created inside a lego_ctx and owned by
 * it: expressions, layouts and specs live until lego_ctx_free().  The only
 * objects a caller frees are the ones whose constructor says so (strings
 * returned by printers, envs).
 *
 * Errors: functions returning a pointer return NULL on error; functions
 * returning int return LEGO_OK (0) or a negative lego_status.  In both cases
 * lego_ctx_error() holds a one-line message.
 *
 * NULL arguments never crash (tests/unit/test_null.c calls every function
 * with them).  Where an argument is not marked optional (env, opts, a
 * report or counterexample "may be NULL"), NULL is an error:
 * - with ctx NULL a function returns NULL, LEGO_ERR, LEGO_UNKNOWN
 *   (lego_smt_prove) or 0 (the lego_prove_* predicates) and reports
 *   nothing, there being no context to report in;
 * - with another argument NULL it fails the same way with a message in
 *   ctx.  A NULL expression operand is usually the result of a failed
 *   call: the context keeps that call's message (and gets one naming the
 *   function when it holds none), so nested calls are checked once;
 * - functions without a ctx return a defined value: lego_expr_kind_of
 *   LEGO_CONST, lego_expr_nargs and lego_expr_value 0, lego_expr_arg and
 *   lego_expr_name NULL, lego_expr_is_const 0, lego_expr_ops 0,
 *   lego_env_bind and lego_env_lookup LEGO_ERR, lego_layout_rank 0,
 *   lego_layout_dim NULL, lego_layout_is_padded 0, the lego_spec_*
 *   accessors NULL or 0; lego_ctx_error returns "", and lego_ctx_free,
 *   lego_env_free and lego_validation_print do nothing.
 */
#ifndef LEGO_H
#define LEGO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What this header declares is the library's API, the only symbols the
 * shared library exports (it is built with -fvisibility=hidden). */
#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility push(default)
#endif

#define LEGO_VERSION "0.1.0"

typedef struct lego_ctx lego_ctx;
typedef struct lego_expr lego_expr;
typedef struct lego_layout lego_layout;
typedef struct lego_env lego_env;
typedef struct lego_spec lego_spec;

typedef enum lego_status {
	LEGO_OK = 0,
	LEGO_ERR = -1,        /* invalid argument or malformed input */
	LEGO_EOVERFLOW = -2,  /* a 64-bit intermediate overflowed */
	LEGO_EDIVZERO = -3,   /* division or modulo by zero */
	LEGO_EUNBOUND = -4,   /* a symbol has no value in the env */
	LEGO_ERANGE = -5,     /* an index outside its dimension */
	LEGO_ENOMEM = -6,
	LEGO_EBIJECT = -7     /* a layout or GenP is not a bijection */
} lego_status;

/* ---------------------------------------------------------------- context */

lego_ctx *lego_ctx_new(void);
void lego_ctx_free(lego_ctx *ctx);
/* Message of the last error, "" if none.  Owned by ctx. */
const char *lego_ctx_error(const lego_ctx *ctx);

/* ------------------------------------------------------------ expressions */

/*
 * Integer expressions.  Nodes are immutable and hash-consed: two calls that
 * build the same canonical expression return the same pointer, so pointer
 * equality is structural equality.  Constructors do only cheap, always-valid
 * canonicalisation (constant folding, flattening and sorting of + and *);
 * lego_simplify() does the range-based rewriting.
 *
 * Division and modulo are floor division and floor modulo (Python's // and
 * %): a == b*(a/b) + a%b and 0 <= a%b < b for b > 0.
 */
typedef enum lego_expr_kind {
	LEGO_CONST,
	LEGO_SYM,
	LEGO_ADD,    /* n-ary */
	LEGO_MUL,    /* n-ary */
	LEGO_DIV,    /* floor division */
	LEGO_MOD,    /* floor modulo */
	LEGO_MIN,
	LEGO_MAX,
	LEGO_EQ,     /* comparisons yield 0 or 1 */
	LEGO_NE,
	LEGO_LT,
	LEGO_LE,
	LEGO_AND,    /* logical, on 0/1 values */
	LEGO_OR,
	LEGO_NOT,
	LEGO_SELECT, /* args: cond, then, else */
	LEGO_BAND,   /* bitwise */
	LEGO_BOR,
	LEGO_BXOR,
	LEGO_SHL,
	LEGO_SHR,    /* arithmetic shift right */
	LEGO_ISQRT   /* floor(sqrt(x)), x >= 0 */
} lego_expr_kind;

lego_expr *lego_const(lego_ctx *ctx, int64_t value);

/*
 * Symbols.  lego_sym() returns the symbol of that name, declaring it on first
 * use as a positive integer (1 <= s).  lego_index() declares an index
 * variable lo <= s < hi (bounds may be symbolic; hi may be NULL for no upper
 * bound).  Declaring a name twice with different facts is an error.
 */
lego_expr *lego_sym(lego_ctx *ctx, const char *name);
lego_expr *lego_index(lego_ctx *ctx, const char *name, lego_expr *lo,
		      lego_expr *hi);
/* An index variable lo <= s < hi named base, or base_1, base_2, ... when
 * the name is taken with other bounds (lo NULL: 0). */
lego_expr *lego_index_fresh(lego_ctx *ctx, const char *base, lego_expr *lo,
			    lego_expr *hi);
/* Looks a symbol up without declaring it; NULL if unknown. */
lego_expr *lego_sym_find(lego_ctx *ctx, const char *name);

lego_expr *lego_add(lego_ctx *ctx, lego_expr *a, lego_expr *b);
lego_expr *lego_sub(lego_ctx *ctx, lego_expr *a, lego_expr *b);
lego_expr *lego_neg(lego_ctx *ctx, lego_expr *a);
lego_expr *lego_mul(lego_ctx *ctx, lego_expr *a, lego_expr *b);
lego_expr *lego_div(lego_ctx *ctx, lego_expr *a, lego_expr *b);
lego_expr *lego_mod(lego_ctx *ctx, lego_expr *a, lego_expr *b);
lego_expr *lego_min(lego_ctx *ctx, lego_expr *a, lego_expr *b);
lego_expr *lego_max(lego_ctx *ctx, lego_expr *a, lego_expr *b);
/* kind: LEGO_EQ LEGO_NE LEGO_LT LEGO_LE, or LEGO_AND LEGO_OR, or a bitwise
 * kind LEGO_BAND .. LEGO_SHR.  a > b is built as b < a. */
lego_expr *lego_binop(lego_ctx *ctx, lego_expr_kind kind, lego_expr *a,
		      lego_expr *b);
lego_expr *lego_not(lego_ctx *ctx, lego_expr *a);
lego_expr *lego_select(lego_ctx *ctx, lego_expr *cond, lego_expr *then_e,
		       lego_expr *else_e);
lego_expr *lego_isqrt(lego_ctx *ctx, lego_expr *a);
/* ceil(a / b) for b > 0, built as (a + b - 1) / b. */
lego_expr *lego_cdiv(lego_ctx *ctx, lego_expr *a, lego_expr *b);

/* Walking a tree. */
lego_expr_kind lego_expr_kind_of(const lego_expr *e);
size_t lego_expr_nargs(const lego_expr *e);
lego_expr *lego_expr_arg(const lego_expr *e, size_t i);
int64_t lego_expr_value(const lego_expr *e);          /* LEGO_CONST */
const char *lego_expr_name(const lego_expr *e);       /* LEGO_SYM */
int lego_expr_is_const(const lego_expr *e, int64_t *value);

/* Replace every occurrence of the symbols from[i] by to[i]. */
lego_expr *lego_expr_subst(lego_ctx *ctx, lego_expr *e, size_t n,
			   lego_expr *const *from, lego_expr *const *to);

/* Number of operations of a set of expressions, common subexpressions
 * counted once (the cost the printers emit). */
size_t lego_expr_ops(lego_expr *const *es, size_t n);

/* The distinct symbols e mentions (its free variables: sizes and index
 * variables alike), each once, in the order they were declared; found on
 * the DAG, in time linear in its distinct nodes.  *syms is a malloc'd
 * array of *n entries (NULL when there are none) that the caller frees
 * with free(); the symbols in it belong to ctx, like every node.  LEGO_OK,
 * or LEGO_ENOMEM with *syms NULL and *n 0. */
int lego_expr_symbols(lego_ctx *ctx, const lego_expr *e, lego_expr ***syms,
		      size_t *n);

/* ------------------------------------------------------------------ facts */

/* Assume d divides n (both positive).  M/BM in a tile count implies it. */
int lego_assume_divides(lego_ctx *ctx, lego_expr *d, lego_expr *n);
/* Assume a 0/1-valued condition: recognises a % b == 0, a <= b, a < b,
 * a == b (as an equation between symbols) and conjunctions of those. */
int lego_assume(lego_ctx *ctx, lego_expr *cond);
/*
 * Ask Z3 what the built-in range reasoning cannot decide (off by default:
 * each such question costs up to ~100 ms, cached).  LEGO_ERR, with a
 * message, in a build without Z3.
 */
int lego_ctx_use_smt(lego_ctx *ctx, int on);
/* 1 if e >= 0 is proved from the facts, 0 if not proved. */
int lego_prove_nonneg(lego_ctx *ctx, lego_expr *e);
/* 1 if a < b is proved from the facts. */
int lego_prove_lt(lego_ctx *ctx, lego_expr *a, lego_expr *b);

/* ------------------------------------------------------------- simplifier */

/* Range-aware simplification (paper, table 1, and its consequences), with a
 * cost model keeping the cheaper of expanded and factored forms.  Never
 * changes the value of e for any binding satisfying the facts. */
lego_expr *lego_simplify(lego_ctx *ctx, lego_expr *e);

/* --------------------------------------------------------------- printing */

typedef enum lego_lang {
	LEGO_LANG_C,
	LEGO_LANG_PYTHON,
	LEGO_LANG_CUDA,    /* C with CUDA's helper qualifiers */
	LEGO_LANG_OPENCL,  /* C with OpenCL's `long` */
	LEGO_LANG_TRITON   /* Python over tensors: exact // and % where
			      Triton's truncate, tl.where, tl.minimum; no
			      isqrt (an error) */
} lego_lang;

/*
 * One expression as a string in the language; caller frees with free().
 * Written as a tree, a node shared k times is written k times: an
 * expression of more than LEGO_PRINT_MAX_NODES nodes as a tree is refused
 * (NULL, with a message); lego_exprs_print writes it with temporaries.
 */
#define LEGO_PRINT_MAX_NODES ((size_t)1 << 20)
char *lego_expr_print(lego_ctx *ctx, lego_expr *e, lego_lang lang);

/* The nodes lego_expr_print writes for e (a shared node once per use, an
 * operand as often as its written form repeats it), at most cap: computed
 * on the DAG, in time linear in its distinct nodes. */
size_t lego_expr_print_size(lego_ctx *ctx, const lego_expr *e, lego_lang lang,
			    size_t cap);

/*
 * Several expressions with common subexpressions named once.  Writes
 * statements defining temporaries (named prefix0, prefix1, ...) followed by
 * `names[i] = <expr>` for each result, one per line.  C statements are
 * `const long long t = ...;`, Python ones `t = ...`.  Caller frees.
 */
char *lego_exprs_print(lego_ctx *ctx, size_t n, lego_expr *const *es,
		       const char *const *names, const char *prefix,
		       lego_lang lang);

/* --------------------------------------------------------------- envs */

/* Concrete values for symbols, for numeric evaluation. */
lego_env *lego_env_new(lego_ctx *ctx);
void lego_env_free(lego_env *env);
int lego_env_bind(lego_env *env, const lego_expr *sym, int64_t value);
int lego_env_lookup(const lego_env *env, const lego_expr *sym, int64_t *value);

/* Exact 64-bit evaluation; overflow and division by zero are errors.
 * env may be NULL when e has no symbols. */
int lego_expr_eval(lego_ctx *ctx, const lego_expr *e, const lego_env *env,
		   int64_t *out);

/* ---------------------------------------------------------------- layouts */

/*
 * Layout pieces, following SEMANTICS.md.  Dims are expressions; numeric
 * operations need every dim to evaluate under the env given.  Permutations
 * are 1-based as in the paper.  Constructors validate their arguments
 * (permutation, arity, matching total sizes where decidable) and return
 * NULL with a message otherwise.
 */

/* A user bijection for GenP.  apply/inv work on concrete values; apply_sym
 * and inv_sym (optional) build expressions.  dims has d entries. */
typedef struct lego_genp_fn {
	const char *name;
	void *user;
	int (*apply)(void *user, size_t d, const int64_t *dims,
		     const int64_t *idx, int64_t *flat);
	int (*inv)(void *user, size_t d, const int64_t *dims, int64_t flat,
		   int64_t *idx);
	lego_expr *(*apply_sym)(lego_ctx *ctx, void *user, size_t d,
				lego_expr *const *dims, lego_expr *const *idx);
	int (*inv_sym)(lego_ctx *ctx, void *user, size_t d,
		       lego_expr *const *dims, lego_expr *flat,
		       lego_expr **idx);
} lego_genp_fn;

lego_layout *lego_regp(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		       const int *perm);
lego_layout *lego_genp(lego_ctx *ctx, size_t d, lego_expr *const *dims,
		       const lego_genp_fn *fn);
/*
 * GenP from expressions: `params` are d index symbols, `apply_e` the flat
 * index in terms of them; `flat` a symbol and `inv_e` d expressions in it.
 */
lego_layout *lego_genp_exprs(lego_ctx *ctx, const char *name, size_t d,
			     lego_expr *const *dims, lego_expr *const *params,
			     lego_expr *apply_e, lego_expr *flat,
			     lego_expr *const *inv_e);

/* Built-in GenPs. */
lego_layout *lego_genp_antidiag(lego_ctx *ctx, lego_expr *n);  /* [n,n] */
/* Z-order over [rows, cols], both powers of two. */
lego_layout *lego_genp_morton(lego_ctx *ctx, lego_expr *rows,
			      lego_expr *cols);
/* CuTe Swizzle<B,M,S> on the row-major flat offset of `dims`:
 * o ^ ((o >> S) & (((1<<B)-1) << M)), which needs S >= B. */
lego_layout *lego_genp_swizzle(lego_ctx *ctx, int b, int m, int s, size_t d,
			       lego_expr *const *dims);

lego_layout *lego_orderby(lego_ctx *ctx, size_t q,
			  lego_layout *const *levels);
/* groups: ngroups lists of dims concatenated in `dims` (group_len[g] each);
 * chain: OrderBys, outermost first (apply runs the last one first). */
lego_layout *lego_groupby(lego_ctx *ctx, size_t ngroups,
			  const size_t *group_len, lego_expr *const *dims,
			  size_t nchain, lego_layout *const *chain);

/* Sugar. */
lego_layout *lego_row(lego_ctx *ctx, size_t d, lego_expr *const *dims);
lego_layout *lego_col(lego_ctx *ctx, size_t d, lego_expr *const *dims);
/* chain.TileBy(sizes[0..q-1]), each level d sizes, sizes row-major [q][d]. */
lego_layout *lego_tileby(lego_ctx *ctx, size_t nchain,
			 lego_layout *const *chain, size_t q, size_t d,
			 lego_expr *const *sizes);
lego_layout *lego_tile_orderby(lego_ctx *ctx, size_t q,
			       lego_layout *const *levels);

/* Logical dims. */
size_t lego_layout_rank(const lego_layout *l);
lego_expr *lego_layout_dim(const lego_layout *l, size_t k);
lego_expr *lego_layout_size(lego_ctx *ctx, const lego_layout *l);

/* Numeric apply/inv for concrete sizes (dims evaluated under env). */
int lego_layout_apply_num(lego_ctx *ctx, const lego_layout *l,
			  const lego_env *env, const int64_t *idx,
			  int64_t *flat);
int lego_layout_inv_num(lego_ctx *ctx, const lego_layout *l,
			const lego_env *env, int64_t flat, int64_t *idx);
/* The whole table: out[row-major logical index] = physical flat index.
 * out must hold the layout's size; *size receives it. */
int lego_layout_table(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, int64_t *out, size_t cap,
		      size_t *size);

/*
 * The table streamed: fn receives the physical indices of consecutive
 * logical indices (row-major; -1 in the padding) in chunks: vals[0] is the
 * value of logical index first, of total.  A non-zero return of fn stops
 * the walk and is returned.  Memory stays a fixed chunk, whatever the
 * size (lego_layout_table needs the whole table).
 */
typedef int (*lego_table_fn)(void *arg, int64_t total, int64_t first,
			     const int64_t *vals, size_t n);
int lego_layout_table_each(lego_ctx *ctx, const lego_layout *l,
			   const lego_env *env, lego_table_fn fn, void *arg);

/* Symbolic apply/inv, straight from the semantics (not simplified). */
lego_expr *lego_layout_apply(lego_ctx *ctx, const lego_layout *l,
			     lego_expr *const *idx);
int lego_layout_inv(lego_ctx *ctx, const lego_layout *l, lego_expr *flat,
		    lego_expr **idx);

/* ----------------------------------------------------------- partial tiles */
/*
 * A TileBy whose sizes pad the chain (tile counts cdiv(M, BM): per dim, the
 * product of the sizes is proved >= the chain's dim) is a padded layout
 * (docs/partial.md).  Its logical dims are the padded ones; apply maps an
 * index inside the real tensor to the chain's physical index of the real
 * sizes (Row(M, K): row stride K).  lego_layout_apply_num fails with
 * LEGO_ERANGE on a padding position; lego_layout_table writes -1 there.
 * The inverses map a physical index of the real tensor, in
 * [0, lego_layout_phys_size), to its logical (padded) index.
 */
/* 1 when l is padded. */
int lego_layout_is_padded(const lego_layout *l);
/* The number of physical indices, the domain of the inverse: the real
 * tensor's size for a padded layout, lego_layout_size otherwise. */
lego_expr *lego_layout_phys_size(lego_ctx *ctx, const lego_layout *l);
/* The 0/1 expression, simplified, true exactly when idx (rank entries,
 * each within its logical dim) lies inside the real tensor: one term per
 * padded dim, the constant 1 for a layout without padding. */
lego_expr *lego_layout_mask(lego_ctx *ctx, const lego_layout *l,
			    lego_expr *const *idx);

/* ----------------------------------------------------------------- checks */

typedef struct lego_check_report {
	int64_t size;         /* elements checked */
	int bijective;        /* every physical index hit exactly once */
	int inverse_ok;       /* inv(apply(i)) == i for every i */
	/* First failure, when one of the above is 0: */
	int64_t witness_idx[16];  /* logical index, rank entries */
	int64_t witness_flat;     /* its image */
	int64_t witness_other;    /* a colliding or out-of-range value */
} lego_check_report;

/* Enumerates the whole layout: LEGO_OK when bijective and inverse_ok,
 * LEGO_EBIJECT otherwise (report filled, message set). */
int lego_layout_check(lego_ctx *ctx, const lego_layout *l,
		      const lego_env *env, lego_check_report *report);

/* ------------------------------------------------------------- language */

/*
 * A parsed .lego file.  defs: NAME=VALUE pairs (as -D on the command line)
 * that turn declared symbols into constants.  Errors are reported as
 * "file:line:col: error: message" in lego_ctx_error().
 */
typedef struct lego_define {
	const char *name;
	int64_t value;
} lego_define;

/*
 * Inputs (a spec, a template) are at most LEGO_MAX_INPUT_BYTES long:
 * lego_spec_parse, lego_spec_load, lego_gen and lego_read_file refuse a
 * longer one with a message.  Parsing costs up to about 100 bytes of
 * memory per input byte (docs/limits.md).
 */
#define LEGO_MAX_INPUT_BYTES ((size_t)4 << 20)

/* The file at path whole, NUL-terminated (*len: its length without the
 * NUL), malloc'd; NULL with a message when it cannot be read or exceeds
 * LEGO_MAX_INPUT_BYTES (read no further than that: /dev/zero is safe). */
char *lego_read_file(lego_ctx *ctx, const char *path, size_t *len);

lego_spec *lego_spec_parse(lego_ctx *ctx, const char *filename,
			   const char *text, size_t len,
			   const lego_define *defs, size_t ndefs);
lego_spec *lego_spec_load(lego_ctx *ctx, const char *path,
			  const lego_define *defs, size_t ndefs);
/* As lego_spec_load, but a define that names no sym of the file is not
 * refused: used[i] (ndefs entries) is set to whether defs[i] named one,
 * so that a caller can give the others to names outside the file (the
 * index expressions of `lego analyze`). */
lego_spec *lego_spec_load_lenient(lego_ctx *ctx, const char *path,
				  const lego_define *defs, size_t ndefs,
				  int *used);
lego_layout *lego_spec_layout(const lego_spec *spec, const char *name);
/* A `let` binding, NULL if none. */
lego_expr *lego_spec_let(const lego_spec *spec, const char *name);
size_t lego_spec_nlayouts(const lego_spec *spec);
const char *lego_spec_layout_name(const lego_spec *spec, size_t i);
/* Parse an expression in the spec's scope (for command-line arguments);
 * names not declared become index variables ranging over [0, hi) when hi
 * is given, plain positive symbols otherwise. */
lego_expr *lego_spec_parse_expr(lego_spec *spec, const char *text,
				lego_expr *hi);

/*
 * Tunable parameters (docs/tuning.md): `tune NAME in {v1, ..}`,
 * `tune NAME in lo..hi` and `tune layout NAME in {L1, ..}`, in declaration
 * order.  A parameter given by -D is fixed to that value (a layout choice
 * by its 0-based position).  Constraints are the `assume`s that mention a
 * parameter and the divisibility facts its layouts need (M/BM in a tile
 * count: BM | M); each is a 0/1 expression over the parameters that are
 * not fixed, the other syms replaced by their -D values.
 */
typedef struct lego_tune_param {
	const char *name;
	size_t nvalues;
	const int64_t *values;       /* a layout choice: 0 .. nvalues-1 */
	const char *const *labels;   /* how each value is written */
	int is_layout;
	int64_t fixed;               /* -1: free; else the index given by -D */
	int line, col;               /* where it is declared */
} lego_tune_param;

size_t lego_spec_ntunes(const lego_spec *spec);
const lego_tune_param *lego_spec_tune(const lego_spec *spec, size_t i);
size_t lego_spec_nconstraints(const lego_spec *spec);
/* Constraint i; *line and *col (may be NULL) get where it was written. */
lego_expr *lego_spec_constraint(const lego_spec *spec, size_t i, int *line,
				int *col);
/* The file name the spec was read from, for messages. */
const char *lego_spec_filename(const lego_spec *spec);
/* Where name (a sym, let, index, layout or genp) is declared in the
 * spec's file: 1 with *line and *col (1-based) set, 0 when it is not. */
int lego_spec_where(const lego_spec *spec, const char *name, int *line,
		    int *col);

/* ------------------------------------------------- Analyses and pictures */

/*
 * One warp access: each thread 0..nthreads-1 reads or writes one element (or,
 * with access_bytes, a vector of consecutive ones) of a buffer whose
 * element offsets are given by `layout` (logical index -> offset in
 * elements).  The logical index of thread t is given by one of:
 * indices[t*rank .. t*rank+rank-1]; the `index` expressions evaluated with
 * the symbol `tid` replaced by t (other symbols from env); or a thread
 * layout, thread t taking threads.inv(t).  With layout NULL
 * the index has one coordinate, the element offset itself: that is how an
 * address function outside the algebra (a padded row stride) is analysed.
 * docs/analysis.md states the hardware model.
 */
typedef struct lego_warp_access {
	const lego_layout *layout;  /* NULL: the index is the offset */
	const lego_env *env;        /* sizes and other symbols; may be NULL */
	int64_t elem_bytes;         /* 1, 2, 4, 8 or 16 */
	int64_t base_bytes;         /* byte address of element 0; a multiple of
				       128 (0) is the aligned case */
	int nthreads;               /* 1..32; 0 means 32 */
	const int64_t *indices;     /* [nthreads][rank], or NULL */
	lego_expr *const *index;    /* rank expressions in tid, or NULL */
	lego_expr *tid;             /* the thread-id symbol of `index` */
	const lego_layout *threads; /* thread layout of the same rank, or
				       NULL */
	lego_expr *active;          /* NULL, or a 0/1 expression in tid:
				       thread t takes part when it is 1 */
	int64_t access_bytes;       /* bytes each thread accesses, from its
				       element on (a vector access: the
				       next access_bytes / elem_bytes
				       elements of memory): 1, 2, 4, 8 or
				       16, a multiple of elem_bytes, the
				       address aligned to it; 0: elem_bytes */
} lego_warp_access;

enum { LEGO_WARP = 32, LEGO_BANKS = 32 };

/* Shared memory: 32 banks of 4 bytes; a request is split into phases of
 * 128 bytes of thread requests (32 threads up to 4-byte elements, 16 for 8
 * bytes, 8 for 16); in a phase, threads touching the same 4-byte word are
 * served together (broadcast), distinct words in one bank serialise. */
typedef struct lego_bank_report {
	int64_t wavefronts;    /* shared-memory wavefronts of the request */
	int64_t ideal;         /* one per phase with an active thread */
	int64_t ways;          /* worst phase: most distinct words in a bank */
	int phases;            /* phases the warp is split into */
	int worst_phase;       /* where `ways` is reached first */
	int worst_bank;
	int ncolliders;        /* threads touching worst_bank in worst_phase */
	int colliders[LEGO_WARP];          /* their ids, ascending */
	int64_t collider_words[LEGO_WARP]; /* the word (byte address / 4) */
	uint32_t active;                   /* bit t: thread t took part */
	int64_t offset[LEGO_WARP];         /* element offset of each thread */
} lego_bank_report;

int lego_analyze_banks(lego_ctx *ctx, const lego_warp_access *access,
		       lego_bank_report *report);

/* Global memory: the 32-byte sectors a warp request touches, against the
 * ideal ceil(distinct bytes requested / 32). */
typedef struct lego_coalesce_report {
	int64_t sectors;       /* distinct 32-byte sectors */
	int64_t ideal;
	int64_t lines;         /* distinct 128-byte lines */
	int64_t bytes;         /* distinct bytes requested */
	uint32_t active;
	int64_t offset[LEGO_WARP];
} lego_coalesce_report;

int lego_analyze_coalesce(lego_ctx *ctx, const lego_warp_access *access,
			  lego_coalesce_report *report);

/*
 * Pictures of a layout with concrete sizes: a 2-D grid of its logical view,
 * each cell showing its physical index (inverse: each physical position,
 * row-major in the same grid, showing the view coordinates "r,c" of the
 * element it holds).  Cells of one tile share a colour; tile borders are
 * drawn.  The view and the tiles are defined in docs/analysis.md.
 */
typedef struct lego_show_opts {
	const lego_env *env;   /* values of size symbols; may be NULL */
	int inverse;
	int64_t tile;          /* > 0: tile = physical index / tile;
				  0: automatic; < 0: no tiles */
	int row_dims;          /* leading (untiled) dims forming the rows;
				  0: automatic */
	int ascii;             /* text: ASCII instead of box characters */
	int color;             /* text: tile colours as ANSI backgrounds */
	const char *title;     /* SVG caption; may be NULL */
	int64_t slice;         /* a view of more than 2 dims (row_dims 0)
				  whose grid would be over 32 columns wide
				  is drawn as 2-D slices, one per value of
				  the outer dims: 0 all of them; k > 0 only
				  slice k - 1 (outer dims row-major), at
				  any width */
} lego_show_opts;

/* Strings the caller frees; NULL on error.  opts may be NULL. */
char *lego_show_text(lego_ctx *ctx, const lego_layout *l,
		     const lego_show_opts *opts);
char *lego_show_svg(lego_ctx *ctx, const lego_layout *l,
		    const lego_show_opts *opts);

/* ------------------------------------- SMT and translation validation */

#include <stdio.h>

/*
 * Proofs with the Z3 solver (when liblego is built with it).  A condition
 * is a 0/1-valued expression; it is proved when it holds for every binding
 * of its symbols satisfying the facts: every plain symbol >= 1, index
 * variables within their ranges, the assumptions of lego_assume*().
 * Arithmetic is exact (unbounded integers, floor division and modulo for
 * any sign, 64-bit two's complement for the bitwise operations); where
 * lego_expr_eval() fails (division by zero, shift out of 0..62, isqrt of a
 * negative) the operation is left unconstrained, so a proof says what holds
 * wherever the expression is defined.  Conditions over index variables
 * with constant bounds only (at most 2^20 points) are decided by
 * enumeration, also without Z3.
 */
typedef enum lego_proof {
	LEGO_PROVED,
	LEGO_REFUTED,  /* with a counterexample checked by lego_expr_eval() */
	LEGO_UNKNOWN   /* time limit, undecidable fragment, or no Z3 */
} lego_proof;

/* 1 when Z3 can be used (built with it, and libz3 loads: it is loaded
 * now, at the first use of the solver, never at start-up), 0 otherwise. */
int lego_smt_available(void);

/* Proves cond (a 0/1 expression) within timeout_ms (0: no limit).  When
 * refuted and counterexample is not NULL, binds there every symbol of cond
 * (and of its index bounds) to the counterexample.  On LEGO_UNKNOWN,
 * lego_ctx_error() says why.  Answers are cached per ctx and facts. */
lego_proof lego_smt_prove(lego_ctx *ctx, lego_expr *cond, unsigned timeout_ms,
			  lego_env *counterexample);

/* 1 when e >= 0 is proved with a short time limit, 0 otherwise: the
 * fallback of the built-in prover for what it cannot decide.  Cached. */
int lego_smt_prove_nonneg(lego_ctx *ctx, lego_expr *e);

/* How many times Z3 has been asked to check a condition in ctx (answers
 * from the cache and by enumeration not counted): what a proof cost,
 * deterministically, where its wall-clock time depends on the load. */
uint64_t lego_smt_checks(const lego_ctx *ctx);

/*
 * Translation validation of a layout, for symbolic sizes under the facts.
 * Index variables over the layout's dims and over [0, size) are declared
 * with lego_index() (names "_v0", "_v1", ..., "_x", suffixed when taken).
 */
typedef enum lego_vprop {
	LEGO_VP_SIMPLIFY,   /* simplify(e) == e for apply and each inverse
			       coordinate, e straight from the semantics */
	LEGO_VP_INV_APPLY,  /* inv(apply(i)) == i over the logical space */
	LEGO_VP_APPLY_INV,  /* apply(inv(x)) == x for 0 <= x < size */
	LEGO_VP_RANGE,      /* 0 <= apply(i) < size */
	LEGO_VP_COUNT
} lego_vprop;

enum { LEGO_WITNESS_MAX = 24 };

typedef struct lego_vresult {
	lego_proof status;
	int nqueries;            /* conditions proved for the property */
	double seconds;          /* time spent on it */
	unsigned timeout_ms;     /* when LEGO_UNKNOWN: the time its query had
				    (the total when it was not tried) */
	char detail[160];        /* which query failed and how (or "") */
	/* When LEGO_REFUTED: the counterexample, printed ("M=4 _v0=1 ...")
	 * and as values of the symbols (names owned by the ctx). */
	char counterexample[256];
	size_t nwitness;
	const char *witness_names[LEGO_WITNESS_MAX];
	int64_t witness_values[LEGO_WITNESS_MAX];
} lego_vresult;

typedef struct lego_validation {
	lego_vresult prop[LEGO_VP_COUNT];
	lego_proof status;       /* refuted if any is, else unknown if any is */
	size_t napply_inv;       /* inverse coordinates (the rank) */
	double seconds;
} lego_validation;

/* Fills report.  LEGO_OK when the report is complete (its status says
 * the verdict); a negative status on an error building the expressions.
 * timeout_ms (0: an hour) bounds the whole validation: each query gets its
 * share of the time left, and a query the time no longer allows is
 * unknown, "not tried".  An unknown property's detail says what was tried
 * (enumeration, Z3 directly and after certified rewriting, with the time
 * each had). */
int lego_layout_validate(lego_ctx *ctx, const lego_layout *l,
			 unsigned timeout_ms, lego_validation *report);

/* One line per layout, e.g. "A: simplified == semantics: proved (apply,
 * 2 inverse coordinates); inv(apply(i)) == i: proved; ... (0.12 s)",
 * followed by one indented line per refuted or unknown property. */
void lego_validation_print(FILE *out, const char *name,
			   const lego_validation *report);

/*
 * Proofs by argument (docs/proof.md).  lego_layout_prove states, per
 * property of lego_vprop, whether it is proved and by which argument:
 * construction (the layout is built from bijections whose sizes agree,
 * so it is one and the composed inverse is its inverse: this proves
 * inv(apply(i)) == i, apply(inv(x)) == x and the range for the defining
 * expressions), exhaustive evaluation over a finite domain, or Z3.  The
 * emitted (simplified) expressions inherit those properties through
 * "simplified == semantics".  The assumptions are checked first: an
 * inconsistent set proves anything and is reported as refuted.
 */
typedef enum lego_argument {
	LEGO_BY_NONE,
	LEGO_BY_CONSTRUCTION,
	LEGO_BY_EXHAUSTIVE,
	LEGO_BY_Z3,
	LEGO_BY_CERTIFICATE,    /* the simplifier's certificate, replayed */
	LEGO_BY_COUNT
} lego_argument;

enum { LEGO_PROOF_WHY = 240 };

typedef struct lego_layout_proof {
	lego_proof assumptions;  /* proved: consistent; refuted: inconsistent */
	lego_proof status[LEGO_VP_COUNT];
	lego_argument by[LEGO_VP_COUNT];
	char why[LEGO_VP_COUNT][LEGO_PROOF_WHY]; /* the argument in words, or
						    what stopped it */
	lego_proof verdict;      /* refuted if any is, else unknown if any is */
	double seconds;
} lego_layout_proof;

/* Fills out; LEGO_OK when it is complete (its verdict says the rest), a
 * negative status on an error.  timeout_ms bounds the whole proof (each
 * stage gets what the earlier ones left). */
int lego_layout_prove(lego_ctx *ctx, const lego_layout *l,
		      unsigned timeout_ms, lego_layout_proof *out);

/* One line per property, "NAME: PROPERTY: STATUS (ARGUMENT): WHY", after
 * one for the assumptions and before "NAME: proved K of 4 (T s)". */
void lego_layout_proof_print(FILE *out, const char *name,
			     const lego_layout_proof *p);

/*
 * The simplifier's rewrite rules, by name, each with its schema in the
 * language's syntax: for all integers `vars` (comma-separated), `side`
 * implies lhs == rhs wherever both are defined.  Every rule is proved
 * once by lego_rule_prove in make check (docs/proof.md).
 */
typedef struct lego_rule {
	const char *name;
	const char *vars;
	const char *side;
	const char *lhs, *rhs;
	/* NULL, or instances of other rules its proof assumes, each
	 * `rule(arg, ..)` with args over this rule's vars, separated by ';'
	 * (valid for all integers once those rules are proved so). */
	const char *lemmas;
} lego_rule;

size_t lego_rule_count(void);
const lego_rule *lego_rule_at(size_t i);   /* NULL past the end */
/* How r is proved for all integers ("z3", "z3, with lemmas"), as the
 * table claims and make check confirms; NULL when it is not (the
 * certificate checker then refuses its steps). */
const char *lego_rule_proved_by(const lego_rule *r);
/* Switches the rule of that name on or off in ctx; the test-only rule
 * "planted-wrong" is off unless switched on.  LEGO_ERR for no such rule. */
int lego_rule_switch(lego_ctx *ctx, const char *name, int on);
/* Proves rule r's schema with Z3 over unbounded integers, in a ctx of its
 * own, within timeout_ms, assuming its lemmas (*by = LEGO_BY_Z3); where
 * Z3 does not decide it,
 * checks it at every point of a box [-B, B]^n of about 2^18 points
 * (*by = LEGO_BY_EXHAUSTIVE: bounded, not a proof for all integers; detail
 * says so).  detail (size bytes) gets what stopped a proof, or on
 * LEGO_REFUTED the variables' values and both sides evaluated there
 * ("x=1 d=1: lhs 0, rhs 1").  LEGO_UNKNOWN when an argument is NULL or
 * size is 0. */
lego_proof lego_rule_prove(const lego_rule *r, unsigned timeout_ms,
			   lego_argument *by, char *detail, size_t size);

/* ------------------------------------ Thread-value layouts and synthesis */
/*
 * A thread-value (TV) layout says which element of a tile each thread
 * holds in each of its values (registers): a layout whose logical dims are
 * [threads, values] and whose flat result is the row-major index of an
 * element of the footprint [rows, cols] (docs/synthesis.md).  `layout` is
 * an ordinary layout (composable, checkable, printable).  With flat set,
 * the footprint is cols consecutive elements of the row-major tile (a
 * copy that walks the tile as one array) and rows is 1.
 *
 * How a thread moves its values: `vec` consecutive values at consecutive
 * footprint elements per instruction (computed: the widest power of two
 * up to 16 bytes that the layout allows); an ldmatrix access instead
 * reads `ldmatrix` 8x8 matrices of 16-bit elements, matrix j being the
 * values 2j and 2j+1 of every thread, by its eight 16-byte rows: lane l
 * gets elements 2 (l % 4) and 2 (l % 4) + 1 of row l / 4 (trans: element
 * l / 4 of rows 2 (l % 4) and 2 (l % 4) + 1).
 */
typedef struct lego_tv {
	const char *name;
	lego_layout *layout;   /* [threads, values] -> footprint index */
	int64_t threads, values;
	int64_t rows, cols;    /* the footprint */
	int flat;
	int64_t elem_bytes;    /* 1, 2, 4 or 8 */
	int64_t vec;           /* values per instruction */
	int ldmatrix;          /* 0, or the matrices of one ldmatrix: 1 2 4 */
	int trans;             /* ldmatrix .trans */
} lego_tv;

typedef enum lego_tv_kind {
	LEGO_TV_MMA_A,      /* mma.sync A, B, C/D fragments; shape m16n8k16 */
	LEGO_TV_MMA_B,      /* (elem_bytes 2 for A/B: f16, bf16) or m16n8k32 */
	LEGO_TV_MMA_C,      /* (elem_bytes 1: s8, e4m3): param 16 or 32 */
	LEGO_TV_LDMATRIX,   /* param: matrices 1, 2, 4 (x1 x2 x4) */
	LEGO_TV_LDMATRIX_TRANS,
	LEGO_TV_WGMMA_C,    /* wgmma m64nNk16 accumulator: param N */
	LEGO_TV_COPY,       /* a warp's vector copy: param bytes 4, 8, 16 */
	LEGO_TV_WGMMA_A     /* wgmma m64nNk16 A from registers (f16, bf16);
			       param 16 */
} lego_tv_kind;

/*
 * A built-in TV layout.  elem_bytes: the element (2 for f16/bf16 A/B
 * fragments and ldmatrix, 1 for m16n8k32 A/B, 4 or 2 for accumulators,
 * any of 1..8 for copies).  Footprints: mma A 16 x K, B K x 8, C 16 x 8;
 * ldmatrix x1 8 x 8, x2 8 x 16 (matrix 0 left), x4 16 x 16 (matrices
 * 0 1 down the left half, 2 3 down the right, as mma's A); wgmma C
 * 64 x N and A 64 x 16 over 128 threads; copy: 32 threads, thread t
 * the t-th vector of a flat run of 32 vectors.
 */
const lego_tv *lego_tv_builtin(lego_ctx *ctx, lego_tv_kind kind,
			       int64_t param, int64_t elem_bytes);
/* A TV layout from a layout of rank 2 [threads, values] onto the row-major
 * footprint [rows, cols] (a bijection of threads * values == rows *
 * cols elements; checked). */
const lego_tv *lego_tv_new(lego_ctx *ctx, const char *name,
			   const lego_layout *layout, int64_t rows,
			   int64_t cols, int64_t elem_bytes);
/* The footprint element of (thread, value): *row and *col. */
int lego_tv_coord(lego_ctx *ctx, const lego_tv *tv, int64_t thread,
		  int64_t value, int64_t *row, int64_t *col);
/* The TV layouts a spec declares with `tv` (docs/synthesis.md). */
const lego_tv *lego_spec_tv(const lego_spec *spec, const char *name);

/*
 * A shared-memory layout of a rows x cols tile, as a function: the
 * element offset of (r, c).  Padded layouts give offsets in a larger
 * space (size elements).  offset(r, c) for every r < rows, c < cols.
 */
typedef struct lego_smem {
	int64_t rows, cols, size;
	const int64_t *offset;     /* [rows * cols], row-major */
} lego_smem;

/* The cost of one access to a tile stored as smem: the TV layout's
 * footprint placed at every multiple of its size over the tile (flat:
 * along the row-major tile; elements outside the tile left out), each
 * warp's instructions counted as the bank model of docs/analysis.md
 * counts them (ldmatrix: one 8-thread phase of 16-byte rows a matrix),
 * and the 32-byte sectors each instruction would touch were the offsets
 * those of global memory (lego analyze coalesce's count). */
typedef struct lego_access_cost {
	int feasible;          /* 0: the layout breaks a thread's vector (or
				  an ldmatrix row): the access is impossible */
	int64_t wavefronts;
	int64_t ideal;         /* one a phase with an active thread */
	int64_t instructions;  /* warp instructions */
	int64_t vec_bytes;     /* bytes a thread moves per instruction */
	int64_t worst_ways;    /* the worst phase's distinct words in a bank */
	int64_t sectors;       /* 32-byte sectors the instructions touch, as
				  global memory counts them (coalescing;
				  0 in lego_synth's results) */
	int64_t ideal_sectors; /* the fewest their bytes could touch */
} lego_access_cost;

int lego_tv_access_cost(lego_ctx *ctx, const lego_tv *tv,
			const lego_smem *smem, lego_access_cost *out);

enum { LEGO_SYNTH_MAX_ACCESSES = 16 };

/* The chosen layout of `lego synth`. */
typedef struct lego_synth_result {
	char *lego;            /* the .lego text declaring `name` (owned by
				  ctx) */
	char desc[128];        /* the candidate in words */
	lego_layout *layout;   /* parsed from that text */
	int64_t pad_bytes;     /* bytes beyond rows * cols * elem_bytes */
	int64_t expr_ops;      /* operations of the simplified apply */
	int64_t wavefronts, ideal;
	lego_access_cost cost[LEGO_SYNTH_MAX_ACCESSES];
	int64_t candidates;    /* layouts of the space evaluated */
	int bijective;         /* checked by enumeration */
} lego_synth_result;

/* The families of the space (or'ed; 0: all of them). */
enum {
	LEGO_SYNTH_PAD = 1,    /* row- and column-major, padded or not */
	LEGO_SYNTH_CUTE = 2,   /* CuTe Swizzle<B, M, S> */
	LEGO_SYNTH_XOR = 4,    /* XOR of chunks, any size */
	LEGO_SYNTH_ROT = 8     /* rotation of chunks, any size */
};

/*
 * Chooses the shared-memory layout of a rows x cols tile of elem_bytes
 * elements for the accesses: fewest wavefronts over all accesses, then
 * the least padding, then the cheapest index expression, among row- and
 * column-major orders, paddings, CuTe swizzles and XOR and rotation
 * swizzles of chunks at any size (docs/synthesis.md), or the families
 * given.  name names the layout in the .lego text.
 */
int lego_synth(lego_ctx *ctx, const char *name, int64_t rows, int64_t cols,
	       int64_t elem_bytes, size_t naccess,
	       const lego_tv *const *access, unsigned families,
	       lego_synth_result *out);

/* -------------------------------------------------------- Code generation */

/*
 * Templates: any text with {{ ... }} placeholders, each an expression of
 * the .lego language over the spec's names in which a layout L appears
 * as L[i1, .., id] (an index may be a slice `:`, `s:e` or `NAME = s:e`),
 * L.inv(e)[k] or L.size.  Each placeholder is replaced by its simplified
 * expression printed for the target; the subexpressions shared by the
 * placeholders of a line are defined once in statements inserted before
 * it.  The spec is a file (spec_path) or the template's block between
 * lines holding `{% lego %}` and `{% end %}`.  docs/templates.md is the
 * reference.  Errors are "file:line:col: error: ..." (positions in the
 * template or the spec).
 */
typedef struct lego_gen_opts {
	const char *target;        /* "c", "cuda", "opencl", "triton", "mlir" */
	const char *spec_path;     /* NULL: the template's {% lego %} block */
	const lego_define *defs;   /* -D NAME=VALUE for the spec's syms */
	size_t ndefs;
	FILE *warnings;            /* "file:line:col: warning: ..." lines
				    * (a '}}' outside a placeholder); NULL:
				    * not shown */
} lego_gen_opts;

/* The expanded text (caller frees with free()), or NULL on error. */
char *lego_gen(lego_ctx *ctx, const char *filename, const char *text,
	       size_t len, const lego_gen_opts *opts);
/* The spec a template is expanded with (its tunable parameters, for the
 * tuner); opts->target is not used. */
lego_spec *lego_gen_spec(lego_ctx *ctx, const char *filename,
			 const char *text, size_t len,
			 const lego_gen_opts *opts);

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
