/* lower.h - what the files of src/mdh share while lowering (private to
 * the room; other rooms use mdh.h).  The template has a spec block
 * (spec.c), the OpenCL kernels (kernel.c) and the host header (host.c);
 * names generated into them start with mdh_ (reserved in programs). */
#ifndef LEGO_MDH_LOWER_H
#define LEGO_MDH_LOWER_H

#include "expr/sbuf.h"
#include "mdh/mdh.h"

/* An index entry in the .lego language, each dim k replaced by
 * dimtext[k] (index.c). */
void mdh_index_print(lego_sbuf *b, const mdh_index *ix,
		     const char *const *dimtext);

/* The sizes of a program as C parameters: "const int I, const int K"
 * (nothing when it has none). */
void mdh_put_size_params(lego_sbuf *b, const mdh_program *p, int leading);

/* fmt for each dim that w picks (all, the ++ ones, the reduced ones),
 * joined by sep; empty is written when none is.  In fmt, @ is the dim's
 * name and $ its size. */
typedef enum mdh_which { MDH_ALL, MDH_PAR, MDH_RED } mdh_which;
void mdh_put_each(lego_sbuf *b, const mdh_program *p, mdh_which w,
		  const char *fmt, const char *sep, const char *empty);

/* As mdh_put_each, over the dims that buffer m's views use (all when m is
 * NULL). */
void mdh_put_each_of(lego_sbuf *b, const mdh_program *p, mdh_which w,
		     const mdh_buf *m, const char *fmt, const char *sep,
		     const char *empty);

/* Whether an index function of m uses dim; whether m has a memory
 * placement to tune (an input read through one view: its tile is a box
 * the work-group copies). */
int mdh_buf_uses(const mdh_buf *m, size_t dim);
int mdh_buf_stageable(const mdh_buf *m);

/* Whether m has the placement M_X = 5 (halo.c): an input read through
 * windows, each buffer entry a sum of distinct dims (coefficient 1, the
 * same in every view) and a constant, with several views or several
 * dims in an entry (else the box is M_X = 2's). */
int mdh_buf_halo(const mdh_buf *m);

/* Whether input m has the private placement V_M (an input read through
 * windows in a program without reduced dims): with V_M = 2 every view's
 * value at every point of the work-item's ++ tile is loaded into private
 * memory before the tile's arithmetic (kernel.c). */
int mdh_buf_private(const mdh_program *p, const mdh_buf *m);
/* Its private slot for view a at the tile point mdh_p_..:
 * mdh_w_M[{{ mdh_ACC[mdh_p_..] }} * nviews + a]. */
void mdh_put_private_slot(lego_sbuf *b, const mdh_program *p,
			  const mdh_buf *m, size_t a);

/* Its spec: the box of the tile and its halo in buffer coordinates
 * (layout mdh_H_X), its indices, its bound in local memory. */
void mdh_put_halo_spec(lego_sbuf *b, const mdh_program *p, const mdh_buf *m);
/* The number of elements of the box. */
void mdh_put_halo_size(lego_sbuf *b, const mdh_program *p, const mdh_buf *m);

/* The copy of X's box to the staged buffer buf (0 or 1) under
 * {{ M_X == 5 }}, at indentation depth; the read of view a from the
 * copy (mdh_b the round's buffer). */
void mdh_put_halo_copy(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		       const char *buf, int depth);
void mdh_put_halo_read(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		       size_t a);

/* The length of one buffer of X's staged copy, a select over its
 * placements (without the braces of a placeholder). */
void mdh_put_st_size(lego_sbuf *b, const mdh_buf *m);

/* The dims a staged input's views use (an input read through one view),
 * in the order of a staged layout, into out (ndims entries); their count.
 * red_outer 0: the order of the buffer's index entries, so that the copy
 * reads neighbours in global memory; 1: the reduced dims first, so that
 * the work-items of a group, which differ in ++ coordinates, read
 * neighbours (or the same element) in local memory. */
size_t mdh_staged_dims(const mdh_program *p, const mdh_buf *m, int red_outer,
		       size_t *out);

/* fmt (@ the dim's name, $ its size) for each of the n dims, joined by
 * sep; empty when n is 0. */
void mdh_put_dims(lego_sbuf *b, const mdh_program *p, const size_t *dims,
		  size_t n, const char *fmt, const char *sep, const char *empty);

/* The ++ dim innermost in X's staged layout R (M_X = 3), or -1: when a
 * work-item's elements along it are adjacent (O = 2) and P is a multiple
 * of 4, each reduction step reads them from local memory as vectors of 4
 * into registers (mdh_v_X over the layout mdh_V_X). */
int mdh_vec_dim(const mdh_program *p, const mdh_buf *m);

/* The condition of that: {{ M_X == 3 && O_d == 2 && P_d % 4 == 0 }}'s
 * text, "0" when X has no such dim. */
void mdh_put_vec_cond(lego_sbuf *b, const mdh_program *p, const mdh_buf *m);

/* The coordinate of element mdh_p_@ of work-item mdh_l_@ in the
 * work-group's box along a dim, in the three orders: a format for
 * mdh_put_each_of and mdh_put_staged_index. */
#define MDH_BOX_COORD "select(O_@ == 1, mdh_p_@ * L_@ + mdh_l_@, " \
	"select(O_@ == 2, mdh_l_@ * P_@ + mdh_p_@, mdh_p_@ / 4 * 4 * L_@ " \
	"+ mdh_l_@ * min(P_@, 4) + mdh_p_@ % 4))"

/* The index in X's staged copy of the element at coordinates fmt (@ the
 * dim's name) of the box: a select over the placements M_X = 2, 3, 4. */
void mdh_put_staged_index(lego_sbuf *b, const mdh_program *p,
			  const mdh_buf *m, const char *fmt);

/* The extent of entry e of buffer b: one more than its largest index
 * over its index functions. */
void mdh_put_extent(lego_sbuf *s, const mdh_program *p, const mdh_buf *b,
		    size_t e);


/* The text of dim k's MDA index in the tile (a select over the two
 * iteration orders) and of its mask. */
void mdh_put_tile(lego_sbuf *b, const mdh_dim *d);
void mdh_put_tile_mask(lego_sbuf *b, const mdh_dim *d);

/* The conjunction of the masks of the dims (all, or the ++ ones only):
 * "1" when there are none. */
void mdh_put_masks(lego_sbuf *b, const mdh_program *p, int par_only);

/* C of the reduction operator: its identity, and a combination. */
const char *mdh_red_identity(const mdh_program *p, const char *type);
void mdh_put_combine(lego_sbuf *b, const mdh_program *p, const char *type,
		     const char *x, const char *y);

int mdh_has_red(const mdh_program *p);

/* How the kernels spell the system model in each target. */
typedef struct mdh_spelling {
	const char *prologue;       /* lines before everything */
	const char *kernel;         /* "__kernel void" */
	const char *global;         /* the address space of a buffer */
	const char *restrict_;
	const char *local;          /* of the tree's buffer */
	const char *group_id, *local_id, *global_id, *global_size;
	const char *barrier;
	const char *fn;             /* a user operator's qualifiers */
	const char *align;          /* of a staged copy: vectors read it */
	const char *vload;          /* a vector of 4 at a local address
				       that follows: a printf format of
				       the element type */
	const char *bounds;         /* the kernel's qualifier that gives
				       the compiler its work-group size
				       (and in CUDA B_sm, the blocks an
				       SM its registers must allow) */
	int occupancy;              /* whether B_sm is a parameter */
	int vectors;                /* whether W_v is (vector.c) */
	int streaming;              /* whether S_d has the streaming
				       stores 3, 4 (store.c) */
	int shuffles;               /* whether B_red has the warp
				       shuffles (warp.c) */
} mdh_spelling;

const mdh_spelling *mdh_spelling_of(mdh_target t);

/* The spec block: sizes, tuning parameters and constraints, the tiles
 * and buffers as layouts, the index variables with their ranges (sp: B_sm or
 * not). */
void mdh_put_spec(lego_sbuf *b, const mdh_program *p, int64_t maxwg,
		  const mdh_spelling *sp);

void mdh_put_kernel(lego_ctx *ctx, lego_sbuf *b, const mdh_program *p,
		    const mdh_spelling *sp);
/* OpenCL: the host header.  CUDA: the launch function, which goes with
 * the kernels. */
void mdh_put_host(lego_sbuf *b, const mdh_program *p);
void mdh_put_cuda_launch(lego_sbuf *b, const mdh_program *p);

/* BUF's flat index through access a: {{ mdh_B_BUF[e1, ..] }}, each dim
 * k as dimtext[k]; mdh_put_index: the same without the braces. */
void mdh_put_access(lego_sbuf *b, const mdh_buf *m, const mdh_access *a,
		    const char *const *dimtext);
void mdh_put_index(lego_sbuf *b, const mdh_buf *m, const mdh_access *a,
		   const char *const *dimtext);

/* Output m's accumulator; with vectors along dim v (v >= 0), the
 * vector's.  The scalar function then each output folded into its
 * accumulator, closing the masks' block at depth. */
void mdh_put_acc(lego_sbuf *b, const mdh_program *p, const mdh_buf *m, int v);
void mdh_put_fold(lego_sbuf *b, const mdh_program *p, int v, int depth);

/* The declaration of input m's value at the point of the tiles, read
 * through its views (global, staged or registers), at depth. */
void mdh_put_input(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		   const char *const *tiles, int depth);

/* Whether m reads or writes consecutive elements along d through its
 * views (its last entry is unit in d, no other entry uses d), or does
 * not use d at all (vector.c). */
int mdh_buf_contiguous(const mdh_buf *m, size_t d);

/* The store dim (store.c): a ++ dim that is the last index entry, alone,
 * of every output, each a float written through one view, so that a
 * work-item's adjacent points along it are adjacent elements; -1 when
 * there is none.  S_d (1, 2; CUDA also 3, 4) picks how the outputs are
 * stored after the tile: 2, runs of 4 adjacent points as one vector
 * store where the run lies inside the output and is 16-byte aligned (a
 * scalar loop elsewhere); CUDA's 3 and 4 are 1 and 2 with streaming
 * stores (__stcs: evict-first, so that writing a large output does not
 * push the inputs out of L2). */
int mdh_store_dim(const mdh_program *p);
/* One output element's write, lhs = val; under {{ S_sd > 2 }} a
 * streaming store to addr (NULL: &lhs) where the spelling has them (sd
 * -1: plain). */
void mdh_put_out_write(lego_sbuf *b, const mdh_program *p,
		       const mdh_spelling *sp, int sd, const char *lhs,
		       const char *addr, const char *val, int depth);
/* depth tabs (rename.c). */
void mdh_put_indent(lego_sbuf *b, int depth);
/* Appends text, each line but the preprocessor's indented by depth tabs
 * more, with every identifier from spelled to (from NULL: none)
 * (rename.c). */
void mdh_put_renamed(lego_sbuf *b, const char *text, const char *from,
		     const char *to, int depth);
/* text at depth with dim d's point mdh_p_d spelled prefix + d: a point
 * of its own (a run's, a vector element's) named afresh rather than a
 * redeclared mdh_p_d, which would shadow the loop's. */
void mdh_put_at_point(lego_sbuf *b, const char *text, const char *d,
		      const char *prefix, int depth);
/* The same with each reduced dim's from spelled to (@ in both: the dim's
 * name). */
void mdh_put_renamed_dims(lego_sbuf *b, const mdh_program *p,
			  const char *text, const char *from, const char *to,
			  int depth);
/* Drops the groups of text's `#if 0` and keeps those of its `#if 1`
 * without their directives (fold.c): the conditions the parameters
 * decided; other directives stay. */
void mdh_fold_if(char *text);
/* The stores of the point mdh_p_sd of the ++ tile (a multiple of 4 when
 * S_sd is even), at depth: scalar is the point's scalar stores (at depth
 * 0), alone under an odd S_sd; under an even one the run's vector stores,
 * or scalar at each of the run's 4 points where they cannot be made. */
void mdh_put_stores(lego_sbuf *b, const mdh_program *p,
		    const mdh_spelling *sp, const char *const *tiles, int sd,
		    const char *scalar, int depth);

/* The vector variant (vector.c).  The vector dim: a ++ dim that is the
 * last index entry, alone, of every output, and that every input either
 * does not use or uses in its last entry only, with coefficient 1 and
 * one view (so consecutive points are consecutive elements); -1 when
 * there is none, or when a tuple or a user operator is involved. */
int mdh_cpu_vec_dim(const mdh_program *p);
/* Whether the work-groups' order is a parameter (B_ord: where the
 * spelling has vectors, OpenCL, and two ++ dims or more): 1, the last
 * dim's groups run fastest (mdh_GRID, Row); 2, the first dim's
 * (mdh_GRIDC, Col).  A CPU driver runs the groups in the order of their
 * ids; MatMul's groups along i share B's panel. */
int mdh_grid_orders(const mdh_program *p, int vectors);
/* The constraints of W_v (declared with v's other parameters). */
void mdh_put_vec_spec(lego_sbuf *b, const mdh_program *p, int v);
/* The vector accumulators; the scalar phase over vectors (inside the
 * loops of the tiles, mdh_p_v stepping by W_v, at depth); the store. */
void mdh_put_vec_acc(lego_sbuf *b, const mdh_program *p, int v);
void mdh_put_vec_scalar(lego_sbuf *b, const mdh_program *p,
			const char *const *tiles, int v, int depth);
void mdh_put_vec_store(lego_sbuf *b, const mdh_program *p,
		       const char *const *tiles, int v, int depth);

/* The warp layer (warp.c): whether B_red is a parameter (the spelling
 * has shuffles, the program reduced dims, all after its ++ dims); its
 * declaration and constraint; the combine by shuffles of the
 * accumulators of the work-items that share a ++ point (mdh_r, mdh_lid
 * declared). */
int mdh_warp_able(const mdh_program *p, const mdh_spelling *sp);
void mdh_put_warp_spec(lego_sbuf *b, const mdh_program *p);
void mdh_put_warp_combine(lego_sbuf *b, const mdh_program *p);

/* Copies C text into a template: `{{` and `}}` escaped. */
void mdh_put_c(lego_sbuf *b, const char *c);

/* The tuples' typedefs (kernels and host code share their layout). */
void mdh_put_tuples(lego_sbuf *b, const mdh_program *p);

#endif
