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

/* The spec block: sizes, tuning parameters and constraints, the tiles
 * and buffers as layouts, the index variables with their ranges. */
void mdh_put_spec(lego_sbuf *b, const mdh_program *p, int64_t maxwg);

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
} mdh_spelling;

const mdh_spelling *mdh_spelling_of(mdh_target t);

void mdh_put_kernel(lego_ctx *ctx, lego_sbuf *b, const mdh_program *p,
		    const mdh_spelling *sp);
/* OpenCL: the host header.  CUDA: the launch function, which goes with
 * the kernels. */
void mdh_put_host(lego_sbuf *b, const mdh_program *p);
void mdh_put_cuda_launch(lego_sbuf *b, const mdh_program *p);

/* Copies C text into a template: `{{` and `}}` escaped. */
void mdh_put_c(lego_sbuf *b, const char *c);

#endif
