/* value.h - the values of the Lift compiler (private to src/lift): what an
 * expression evaluates to while its kernel is generated.  Scalars are C
 * expressions, arrays are views (lazily indexed; every index expression
 * is a liblego expression, simplified at the access), functions are user
 * functions, closures, patterns with their static arguments, or
 * compositions. */
#ifndef LEGO_LIFT_VALUE_H
#define LEGO_LIFT_VALUE_H

#include "expr/sbuf.h"
#include "lift/lift.h"

typedef struct lift_val lift_val;
typedef struct lift_view lift_view;
typedef struct lift_fun lift_fun;
typedef struct lift_env lift_env;

typedef enum { VAL_SCALAR, VAL_TUPLE, VAL_ARRAY, VAL_FUN } lift_val_kind;

struct lift_val {
	lift_val_kind kind;
	lift_type *type;           /* NULL for a function */
	const char *text;          /* SCALAR: a C expression */
	const char **comps;        /* SCALAR vector built of components */
	/* SCALAR read of a kernel parameter (global memory): the buffer and
	 * the flat index, so that asVector can merge a run of w of them
	 * into one vector load (vector.c); NULL otherwise. */
	const char *mem;
	lego_expr *flat;
	lift_val **elems;          /* TUPLE */
	size_t nelems;
	lift_view *view;           /* ARRAY */
	lift_fun *fun;             /* FUN */
};

typedef enum {
	PAT_MAP, PAT_MAPSEQ, PAT_MAPGLB, PAT_MAPWRG, PAT_MAPLCL, PAT_MAPVEC,
	PAT_REDUCESEQ, PAT_REDUCE, PAT_ITERATE, PAT_SPLIT, PAT_JOIN, PAT_ZIP,
	PAT_GET, PAT_TRANSPOSE, PAT_GATHER, PAT_SCATTER, PAT_SLIDE, PAT_PAD,
	PAT_ASVECTOR, PAT_ASSCALAR, PAT_TOGLOBAL, PAT_TOLOCAL, PAT_TOPRIVATE,
	PAT_ID, PAT_VALUE, PAT_TUPLE, PAT_AT
} lift_pat;

typedef enum { FUN_USER, FUN_LAMBDA, FUN_PATTERN, FUN_COMPOSE } lift_fun_kind;

struct lift_fun {
	lift_fun_kind kind;
	const lift_ast *at;        /* where it was written, for messages */
	const lift_ufun *ufun;     /* USER */
	lift_env *env;             /* LAMBDA: the closure */
	lift_pat pat;              /* PATTERN and its static arguments: */
	int dim;                   /*   mapGlb/mapWrg/mapLcl dimension */
	int clamp;                 /*   pad: clamp at the borders */
	int64_t k;                 /*   get; iterate: the count */
	int index;                 /*   gather, scatter: LIFT_INDEX_* */
	lego_expr *sz[2];          /*   split n; slide size, step; pad l, r */
	lift_fun *f, *g;           /*   the function argument; COMPOSE f o g */
	lift_val *init;            /*   reduceSeq: initial value; pad: value */
	int unroll;                /*   reduceSeqUnroll: rounds unrolled */
	int pipe;                  /*   reduceSeqPipe: local copies
				      double-buffered (pipe.c) */
	size_t ndata;              /*   data arguments it takes */
};

struct lift_env {
	const char *name;
	lift_val *val;
	lift_env *next;
};

/* Address spaces (seed 004, Algorithm 1): the kernel's parameters and
 * result are global; toLocal and toPrivate make the writes of their
 * function go to a buffer of that space. */
typedef enum { SPACE_GLOBAL, SPACE_LOCAL, SPACE_PRIVATE } lift_space;

enum {
	LIFT_MAX_COORDS = 16,
	LIFT_MAX_LOOPS = 32,
	/* Which work-item touches a coordinate of a buffer: a mapLcl
	 * dimension (0, 1, 2) or one of these. */
	THREAD_UNSET = -3,  /* not touched yet */
	THREAD_MIXED = -2,  /* by different mappings, or through a regrouping */
	THREAD_SEQ = -1     /* by a sequential loop: every value, same thread */
};

/* A buffer the kernel allocates for toLocal or toPrivate, with how its
 * coordinates are written and read: a barrier after a local write is
 * needed only if some work-item reads what another wrote. */
typedef struct lift_buf {
	const char *name;
	lift_space space;
	size_t ncoords;
	int wr[LIFT_MAX_COORDS], rd[LIFT_MAX_COORDS];
	int regrouped;             /* written through join, split, transpose */
	int in_place;              /* a reduction's accumulator, updated in place */
	/* Private memory: coordinate c is written by the mapLcl of dimension
	 * own[c] - 1 (each work-item keeps its own elements; mem.c), -1 by
	 * another loop, 0 not written yet. */
	int own[LIFT_MAX_COORDS];
	const lift_ast *at;
	struct lift_buf *next;
} lift_buf;

/* A barrier emitted at an offset of the kernel body, for a buffer. */
typedef struct lift_barrier {
	size_t at;
	lift_buf *buf;
	struct lift_barrier *next; /* the one emitted before */
} lift_barrier;

/* An open loop: its index and the pattern that opened it. */
typedef struct lift_loop {
	lego_expr *i;
	lift_pat pat;
	int dim;
} lift_loop;

/* How the lowering spells what depends on the target (kernel.c): the
 * work-item ids and strides of mapGlb, mapWrg, mapLcl (formats taking
 * the dimension's letter from dims), the barrier, local arrays. */
typedef struct lift_target {
	lego_lang lang;            /* of index expressions */
	const char *dims;
	const char *id[3], *step[3];
	const char *barrier;
	const char *local;
	const char *vec_open;      /* "(float4)(": printf of type, width */
	const char *global;        /* "__global ": global pointers' space */
	const char *comps;         /* component k's name: comps[k] */
	int max_width;
} lift_target;

const lift_target *lift_target_get(lift_target_kind t);

/* The compiler's state for one kernel. */
typedef struct lift_cc {
	lego_ctx *ctx;
	const lift_program *p;
	lift_target_kind target;
	const lift_target *tgt;
	lego_sbuf out;             /* the kernel body */
	lego_sbuf decls;           /* local and private buffers, at its top */
	int indent;
	int nvars;                 /* fresh names */
	int ndims;                 /* NDRange dimensions used */
	lift_loop loops[LIFT_MAX_LOOPS];
	int nloops;
	int probing;               /* > 0: the code emitted is thrown away */
	long stores;               /* stores emitted so far */
	lift_buf *bufs;
	lift_barrier *barriers;    /* the last emitted first */
	struct lift_pipe *pipe;    /* the reduceSeqPipe whose round is open */
	/* The last vector load's variable (vector.c): the same load right
	 * after it (asScalar's components) is not emitted again. */
	const char *load_name;
	/* What a tune template needs (lift_kernel has their meaning). */
	lego_sbuf assumed;
	const char *range[3];
	int range_wrg[3];
	long long local_bytes;
} lift_cc;

/* Proves a | b (a divides b) from the facts. */
int lift_divides(lego_ctx *ctx, lego_expr *a, lego_expr *b);
/* "file:line:col: error: ..." at a; returns NULL. */
void *lift_err(lift_cc *cc, const lift_ast *a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* cc's indentation, as tabs appended to b. */
void lift_indent(const lift_cc *cc, lego_sbuf *b);
/* One line of the kernel body at the current indentation. */
void lift_emit(lift_cc *cc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

lift_val *lift_val_scalar(lift_cc *cc, lift_type_kind kind, const char *text);
/* A scalar or vector value of type t. */
lift_val *lift_val_typed(lift_cc *cc, lift_type *t, const char *text);
/* Vectors (vector.c): component k of a vector value's text, a vector
 * built of w scalar texts, mapVec(f) applied to vector arguments. */
const char *lift_vec_comp(lift_cc *cc, const lift_val *v, int k);
lift_val *lift_vec_make(lift_cc *cc, lift_type_kind kind, int w,
			const char **comps);
lift_val *lift_map_vec(lift_cc *cc, const lift_fun *f, lift_val **args,
		       size_t n);
/* The components of a vector value as scalar values (a function of w
 * parameters applied to one vector of w takes them), or NULL. */
lift_val **lift_vec_components(lift_cc *cc, const lift_val *v);
/* Whether w scalars of buffers bufs at flat indices flats are one vector
 * of global memory: 1 when they are the same buffer at f, f + 1, ..,
 * f + w - 1 with w | f proved (one aligned vector access), 0 when they
 * are not such a run, -1 with an error located at `at` when they are a
 * run whose start cannot be proved a multiple of w. */
int lift_vec_run(lift_cc *cc, const char **bufs, lego_expr **flats, int w,
		 const lift_ast *at);
/* The vector of w reads xs (asVector over a view): one aligned vector
 * load into a fresh variable when they are a run of global memory, else
 * the vector of their texts; NULL after an error. */
lift_val *lift_vec_load(lift_cc *cc, lift_type_kind kind, lift_val **xs,
			int w, const lift_ast *at);
/* The vector v stored at flat index f of the kernel's result. */
void lift_vec_store(lift_cc *cc, const lift_val *v, const char *f);
/* A tuple of the values (scalars, vectors, tuples), not arrays. */
lift_val *lift_val_tuple(lift_cc *cc, lift_val **elems, size_t n);
/* An array value over a view of that type. */
lift_val *lift_val_array(lift_cc *cc, lift_type *type, lift_view *view);

/* Views. */
lift_view *lift_view_mem(lift_cc *cc, const char *buf);
/* The whole of an allocated buffer, its reads recorded in b. */
lift_view *lift_view_buf(lift_cc *cc, lift_buf *b);
/* The buffer a view is a part of (the whole, or a sub-array of it at
 * the indices *idx[0..*nidx), *root the buffer's type), or NULL. */
lift_buf *lift_view_is_buf(const lift_view *v, lego_expr ***idx, size_t *nidx,
			   lift_type **root);
/* Whether every buffer a view reads is a kernel parameter (global memory
 * that the kernel does not write), not one it allocated. */
int lift_view_reads_params(const lift_view *v);
/* at(a, i) (at.c): element i of a, i a scalar int computed from data,
 * read only when 0 <= i < len(a) (else zero). */
lift_val *lift_at(lift_cc *cc, const lift_fun *f, lift_val *a, lift_val *i);
/* The data-layout patterns applied to array values; `at` locates their
 * type errors. */
lift_val *lift_view_pattern(lift_cc *cc, const lift_fun *pat,
			    lift_val **args, const lift_ast *at);
/* 0 when split's (or asVector's) size is proved to divide len; else -1
 * with the located error (the read side and the written side report
 * alike). */
int lift_split_check(lift_cc *cc, const lift_fun *split, lego_expr *len);
/* The type of split(n) over t, once n | len(t) is proved. */
lift_type *lift_split_type(lift_cc *cc, const lift_fun *split, lift_type *t);
/* A lazy map: element i is f applied to element i of a. */
lift_val *lift_view_map(lift_cc *cc, lift_fun *f, lift_val *a,
			const lift_ast *at);
/* A one-element array holding a scalar (a reduction's result). */
lift_val *lift_view_single(lift_cc *cc, lift_val *scalar);
/* An array of n copies of a value (Lift's Value). */
lift_val *lift_view_const(lift_cc *cc, lift_val *v, lego_expr *n);
/* Element i of an array (a scalar, a tuple or an array view). */
lift_val *lift_view_get(lift_cc *cc, lift_val *a, lego_expr *i);

/* A fresh loop index over [0, len). */
lego_expr *lift_fresh_index(lift_cc *cc, lego_expr *len, char *name,
			    size_t cap);
/* The simplified expression as OpenCL text, in the arena. */
const char *lift_print_index(lift_cc *cc, lego_expr *e);

/* Applies a function to values (pull: views stay lazy; a reduction emits
 * its accumulator loop here). */
lift_val *lift_apply(lift_cc *cc, lift_fun *f, lift_val **args, size_t n);
/* The function a call names, built from its first *used arguments (a
 * pattern's static ones); the rest are its data. */
lift_fun *lift_callee(lift_cc *cc, const lift_ast *call, lift_env *env,
		      size_t *used);
/* The value of an expression in an environment. */
lift_val *lift_eval(lift_cc *cc, const lift_ast *a, lift_env *env);
lift_env *lift_env_bind(lift_cc *cc, lift_env *env, const char *name,
			lift_val *v);
/* A lambda's environment with its parameters bound to args (one tuple
 * argument spreads over several parameters). */
lift_env *lift_bind_lambda(lift_cc *cc, const lift_fun *f, lift_val **args,
			   size_t n);
/* gather's or scatter's index function over [n] as a GenP layout (NULL
 * after a located error); lift_index_map applies it or its inverse. */
lego_layout *lift_index_layout(lift_cc *cc, const lift_fun *g, lego_expr *n);
lego_expr *lift_index_map(lift_cc *cc, lego_layout *l, lego_expr *i,
			  int inverse);

/* Memory (mem.c).  toLocal(f), toPrivate(f), toGlobal(f) applied to
 * values that are read: f's writes go to a new buffer of that space
 * (allocated only if f writes), bracketed by barriers if local. */
lift_val *lift_materialise(lift_cc *cc, const lift_fun *to, lift_val **args,
			   size_t n);
lift_space lift_space_of(lift_pat to);
/* 0 where local memory may be written (outside mapLcl and mapGlb), else
 * -1 with a located error about `what`. */
int lift_local_site(lift_cc *cc, const char *what, const lift_ast *at);
/* A new buffer l_N or p_N, and its declaration at the kernel's top. */
lift_buf *lift_buf_new(lift_cc *cc, lift_space sp, const lift_ast *at);
void lift_buf_declare(lift_cc *cc, const lift_buf *b, lift_type_kind k,
		      long long size);
/* Whether applying f writes (computes or copies) rather than only
 * viewing its data. */
int lift_fun_writes(const lift_fun *f);
/* The number of scalars of t as b holds it (private: the work-item's
 * part), a constant, or -1 with an error located at `to`. */
long long lift_buf_size(lift_cc *cc, const lift_fun *to, const lift_buf *b,
			const lift_type *t);
/* Inserts text into the kernel body at offset mark (the barriers after
 * it move with their code). */
void lift_out_insert(lift_cc *cc, size_t mark, const char *text);
/* Inserts a barrier for b's writes there (kept only if b's data is
 * shared, as lift_barrier_emit's). */
int lift_barrier_insert(lift_cc *cc, size_t mark, lift_buf *b);

/* Double buffering (pipe.c): the rounds of a reduceSeqPipe over a.
 * lift_pipe_open opens round loop i (name, len its text), after the
 * reduction's accumulator acc (its buffer's name, or NULL: scalar
 * variables acc_N) is set up; lift_pipe_close ends the round with the
 * next round's stores and the one barrier, closes the loop and puts the
 * first round's copies before it.  In between, a toLocal of the round's
 * level is lift_pipe_copy's: two slots, the next round's copy loaded
 * into private memory before this round's work.  -1 / NULL after an
 * error. */
int lift_pipe_open(lift_cc *cc, const lift_fun *f, lego_expr *i,
		   const char *name, const char *len, const char *acc);
int lift_pipe_close(lift_cc *cc);
/* Frees what an open round holds (after an error inside it). */
void lift_pipe_drop(lift_cc *cc);
/* Whether a toLocal applied here is double-buffered. */
int lift_pipe_here(const lift_cc *cc);
lift_val *lift_pipe_copy(lift_cc *cc, const lift_fun *to, lift_val **args,
			 size_t n);
/* reduce(f, init) $ a (reduce.c): a tree in local memory. */
lift_val *lift_reduce_par(lift_cc *cc, const lift_fun *f, lift_val *a);
/* Emits a barrier for b's writes; kept only if b's data is shared. */
void lift_barrier_emit(lift_cc *cc, lift_buf *b);
/* Which work-item a coordinate of b is touched by, merged with what was
 * recorded. */
void lift_buf_touch(lift_buf *b, int *rec, size_t c, int thread);
/* The mapLcl dimension whose index e is, or THREAD_SEQ. */
int lift_loop_thread(lift_cc *cc, lego_expr *e);
/* A private buffer's coordinates ix (lengths ln, n of them) as the
 * work-item holds them (write.c, view.c): a coordinate of a mapLcl of a
 * declared size L is its iteration, ix / L, of ceil(ln / L); th gives the
 * work-items writing them (writing), or NULL (reading: a coordinate a
 * mapLcl wrote must be read at that mapLcl's index, the work-item's own). */
int lift_buf_private(lift_cc *cc, lift_buf *b, lego_expr **ix, lego_expr **ln,
		     size_t n, const int *th, const lift_ast *at);
/* The kernel body with the barriers that are not needed removed;
 * malloc'ed, or NULL after an error. */
char *lift_body_finish(lift_cc *cc);
/* Throws away the code emitted after mark (and its barriers). */
void lift_out_truncate(lift_cc *cc, size_t mark);
/* Opens and closes a loop of a map over [0, len) with index i. */
int lift_loop_open(lift_cc *cc, lift_pat pat, int dim, lego_expr *i,
		   const char *name, const char *len);
void lift_loop_close(lift_cc *cc);

/* Lowers the kernel's body into cc->out; returns its result type. */
lift_type *lift_lower(lift_cc *cc, lift_env *env);
/* Stores f(args) into b (the push side); returns the type stored. */
lift_type *lift_store(lift_cc *cc, lift_fun *f, lift_val **args, size_t n,
		      lift_buf *b, const lift_ast *at);
/* The same into the sub-array of b (of type root) at idx[0..nidx). */
lift_type *lift_store_at(lift_cc *cc, lift_fun *f, lift_val **args, size_t n,
			 lift_buf *b, lego_expr **idx, size_t nidx,
			 const lift_type *root, const lift_ast *at);
/* reduceSeq(f, init) $ a: emits the accumulator and its loop, returns
 * the one-element array holding it. */
lift_val *lift_reduce_seq(lift_cc *cc, const lift_fun *f, lift_val *a);

#endif
