/* kernel.c - the OpenCL kernels of the low-level form, as a template:
 * every index a placeholder over the layouts of the spec block.
 *
 * One work-item folds, for each point of its ++ tile, the scalar
 * function over its reduction tile into a private accumulator
 * (registers); the work-items of a group that share their ++
 * coordinates combine theirs by a tree in local memory when the
 * reduction dims have more than one work-item (L > 1); when they span
 * several work-groups, each group writes its partial results to scratch
 * and a second kernel (NAME_grid) combines them.  Which strategy runs
 * follows from the parameters: the conditions are placeholders, constant
 * once the sizes and parameters are given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdh/lower.h"

/* CUDA's spelling after the prologue and the kernel qualifier, shared
 * by the kernels for nvcc and for NVRTC */
#define CUDA_SPELLING "", "__restrict__", "__shared__", "(int)blockIdx.x", \
	"(int)threadIdx.x", "(int)(blockIdx.x * blockDim.x + threadIdx.x)", \
	"(int)(gridDim.x * blockDim.x)", "__syncthreads()", \
	"static __device__", "__align__(16) ", "*(const %s4 *)(", \
	"__launch_bounds__({{ mdh_LOC.size }}, {{ B_sm }}) ", 1, 0, 1, 1

static const mdh_spelling spellings[] = {
	/* OpenCL C contracts a * b + c into an FMA only within one
	 * expression, and the scalar function and its fold into the
	 * accumulator are two statements; clang (PoCL's compiler) then
	 * contracts across them, as nvcc does by default */
	[MDH_OPENCL] = {"#ifdef __clang__\n#pragma clang fp contract(fast)\n"
			"#endif\n",
			"__kernel void", "__global ", "restrict", "__local",
			"(int)get_group_id(0)", "(int)get_local_id(0)",
			"(int)get_global_id(0)", "(int)get_global_size(0)",
			"barrier(CLK_LOCAL_MEM_FENCE)", "static", "",
			"vload4(0, ",
			"__attribute__((reqd_work_group_size("
			"{{ mdh_LOC.size }}, 1, 1))) ", 0, 1, 0, 0},
	[MDH_CUDA] = {"#include <limits.h>\n#include <math.h>\n",
		      "__global__ void", CUDA_SPELLING},
	/* NVRTC has no C library headers: the constants the built-in
	 * operators' identities use */
	[MDH_NVRTC] = {"#ifndef INFINITY\n#define INFINITY __int_as_float("
		       "0x7f800000)\n#endif\n#ifndef INT_MAX\n#define INT_MAX "
		       "2147483647\n#define INT_MIN (-INT_MAX - 1)\n#endif\n",
		       "extern \"C\" __global__ void", CUDA_SPELLING},
};

const mdh_spelling *mdh_spelling_of(mdh_target t)
{
	return &spellings[t];
}

void mdh_put_c(lego_sbuf *b, const char *c)
{
	for (; *c; c++) {
		if ((c[0] == '{' || c[0] == '}') && c[1] == c[0])
			lego_sbuf_puts(b, "\\");
		lego_sbuf_printf(b, "%c", *c);
		if ((c[0] == '{' || c[0] == '}') && c[1] == c[0])
			lego_sbuf_printf(b, "%c", *++c);
	}
}

const char *mdh_red_identity(const mdh_program *p, const char *type)
{
	int f = !strcmp(type, "float");
	switch (p->red) {
	case MDH_MUL:
		return f ? "1.0f" : "1";
	case MDH_MAX:
		return f ? "-INFINITY" : "INT_MIN";
	case MDH_MIN:
		return f ? "INFINITY" : "INT_MAX";
	case MDH_USER:
		return p->red_user->identity;
	default:
		return f ? "0.0f" : "0";
	}
}

void mdh_put_combine(lego_sbuf *b, const mdh_program *p, const char *type,
		     const char *x, const char *y)
{
	int f = !strcmp(type, "float");
	switch (p->red) {
	case MDH_CONCAT:    /* no reduction: one value per accumulator */
		lego_sbuf_puts(b, y);
		break;
	case MDH_ADD:
		lego_sbuf_printf(b, "%s + %s", x, y);
		break;
	case MDH_MUL:
		lego_sbuf_printf(b, "%s * %s", x, y);
		break;
	case MDH_MAX:
		lego_sbuf_printf(b, "%s(%s, %s)", f ? "fmax" : "max", x, y);
		break;
	case MDH_MIN:
		lego_sbuf_printf(b, "%s(%s, %s)", f ? "fmin" : "min", x, y);
		break;
	case MDH_USER:
		lego_sbuf_printf(b, "%s(%s, %s)", p->red_user->name, x, y);
		break;
	}
}

void mdh_put_size_params(lego_sbuf *b, const mdh_program *p, int leading)
{
	for (size_t i = 0; i < p->nsizes; i++)
		lego_sbuf_printf(b, "%sconst int %s", leading || i ? ", " : "",
				 p->sizes[i]);
}

/* The dims' tile indices, for an index function. */
static const char **tile_texts(lego_ctx *ctx, const mdh_program *p)
{
	const char **t = lego_arena_alloc(&ctx->arena,
					  (p->ndims + 1) * sizeof *t);
	for (size_t k = 0; t && k < p->ndims; k++) {
		lego_sbuf s = {0};
		mdh_put_tile(&s, &p->dims[k]);
		char *x = lego_sbuf_take(&s);
		t[k] = x ? lego_arena_strdup(&ctx->arena, x) : "?";
		free(x);
	}
	return t;
}

void mdh_put_index(lego_sbuf *b, const mdh_buf *m, const mdh_access *a,
		   const char *const *dimtext)
{
	lego_sbuf_printf(b, "mdh_B_%s[", m->name);
	for (size_t e = 0; e < m->rank; e++) {
		if (e)
			lego_sbuf_puts(b, ", ");
		mdh_index_print(b, &a->idx[e], dimtext);
	}
	lego_sbuf_puts(b, m->rank ? "]" : "0]");
}

void mdh_put_access(lego_sbuf *b, const mdh_buf *m, const mdh_access *a,
		    const char *const *dimtext)
{
	lego_sbuf_puts(b, "{{ ");
	mdh_put_index(b, m, a, dimtext);
	lego_sbuf_puts(b, " }}");
}

static void put_signature(lego_sbuf *b, const mdh_program *p,
			  const mdh_spelling *sp)
{
	lego_sbuf_printf(b, "%s %s%s(", sp->kernel, sp->bounds, p->name);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		lego_sbuf_printf(b, "%s%s%s%s *%s mdh_%s_%s", i ? ", " : "",
				 sp->global, m->is_out ? "" : "const ", m->type,
				 sp->restrict_, m->is_out ? "out" : "in",
				 m->name);
	}
	for (size_t i = 0; mdh_has_red(p) && i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			lego_sbuf_printf(b, ", %s%s *%s mdh_scr_%s", sp->global,
					 p->bufs[i].type, sp->restrict_,
					 p->bufs[i].name);
	mdh_put_size_params(b, p, 1);
	lego_sbuf_puts(b, ")\n{\n");
}

/* The ++ part of an accumulator's index: {{ mdh_ACC[mdh_p_i, ..] }}. */
static void put_acc_index(lego_sbuf *b, const mdh_program *p)
{
	lego_sbuf_puts(b, "{{ mdh_ACC[");
	mdh_put_each(b, p, MDH_PAR, "mdh_p_@", ", ", "0");
	lego_sbuf_puts(b, "] }}");
}

/* `#pragma unroll` when some output is stored at once (M_Y = 2) or some
 * input is loaded ahead (V_X = 2: the private array is then registers). */
static void put_unroll_now(lego_sbuf *b, const mdh_program *p)
{
	lego_sbuf_puts(b, "#if {{ 0");
	for (size_t i = 0; i < p->nbufs; i++)
		if (p->bufs[i].is_out || mdh_buf_private(p, &p->bufs[i]))
			lego_sbuf_printf(b, " || %c_%s == 2",
					 p->bufs[i].is_out ? 'M' : 'V',
					 p->bufs[i].name);
	lego_sbuf_puts(b, " }}\n#pragma unroll\n#endif\n");
}

/* The loop over dim d's private tile, mdh_p_d stepped by step, at depth. */
static void open_tile(lego_sbuf *b, const mdh_dim *d, const char *step,
		      int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "for (int mdh_p_%s = 0; mdh_p_%s < {{ ", d->name,
			 d->name);
	if (mdh_dim_is_red(d))
		lego_sbuf_printf(b, "select(R_%s == 2, 1, P_%s)", d->name,
				 d->name);
	else
		lego_sbuf_printf(b, "P_%s", d->name);
	lego_sbuf_printf(b, " }}; mdh_p_%s%s) {\n", d->name, step);
}

/* Opens a loop over each picked dim's private tile (vd's by W_vd, sd's
 * by 4 when S_sd is even: store.c); the depth reached.
 * Every body is braced: lego gen may put a temporary before any line
 * with a placeholder. */
static int open_tiles(lego_sbuf *b, const mdh_program *p, mdh_which w,
		      int vd, int sd, int depth)
{
	/* the reduced dims outermost (R_d = 2: open_inner_red): each of
	 * their steps reads a row of operands once for the whole ++ tile
	 * (an outer product in registers), and every accumulator still sums
	 * in the same order */
	for (size_t j = 0; j < 2 * p->ndims; j++) {
		const mdh_dim *d = &p->dims[j % p->ndims];
		if ((j < p->ndims) != mdh_dim_is_red(d) ||
		    (w != MDH_ALL && (w == MDH_RED) != mdh_dim_is_red(d)))
			continue;
		/* R_d = 3: the loop unrolled, so that the compiler can load
		 * the next step's operands during this step's arithmetic */
		if (mdh_dim_is_red(d))
			lego_sbuf_printf(b, "#if {{ R_%s == 3 }}\n#pragma unroll\n"
					 "#endif\n", d->name);
		/* and the ++ tile's loops with vectors, so that the
		 * accumulators are registers and a vector read once */
		else if (vd >= 0)
			lego_sbuf_printf(b, "#if {{ W_%s > 1 }}\n#pragma unroll\n"
					 "#endif\n", p->dims[vd].name);
		/* and when each point is stored at once (M_Y = 2), so that
		 * the points of a stencil's walk share the loads of the
		 * views one step apart (a window rotating in registers);
		 * not with W_vd > 1 (the spec's constraint) */
		if (!mdh_has_red(p))
			put_unroll_now(b, p);
		/* sd, the store dim (store.c): a step a run of stores when
		 * S_sd is even (sd is given under W_vd = 1 only); vd, the
		 * vector dim (vector.c): a step a vector */
		char step[80] = "++";
		if ((int)(j % p->ndims) == vd && vd != sd)
			snprintf(step, sizeof step, " += {{ W_%s }}", d->name);
		if ((int)(j % p->ndims) == sd) {
			lego_sbuf_printf(b, "#if {{ S_%s %% 2 == 0 }}\n",
					 d->name);
			open_tile(b, d, " += 4", depth);
			lego_sbuf_puts(b, "#else\n");
		}
		open_tile(b, d, step, depth);
		if ((int)(j % p->ndims) == sd)
			lego_sbuf_puts(b, "#endif\n");
		depth++;
	}
	return depth;
}

/* The reduced dims' private loops inside the ++ tile's, for those with
 * R_d = 2 (the outer loop then runs once, at 0, and the inner one P_d
 * times; R_d = 1 or 3 the other way round): mdh_z_d is their sum, which
 * the body names in place of mdh_p_d (put_body).  The depth reached. */
static int open_inner_red(lego_sbuf *b, const mdh_program *p, int depth)
{
	for (size_t k = 0; k < p->ndims; k++) {
		const char *n = p->dims[k].name;
		if (!mdh_dim_is_red(&p->dims[k]))
			continue;
		mdh_put_indent(b, depth++);
		lego_sbuf_printf(b, "for (int mdh_u_%s = 0; mdh_u_%s < {{ select("
				 "R_%s == 2, P_%s, 1) }}; mdh_u_%s++) {\n", n, n,
				 n, n, n);
		mdh_put_indent(b, depth);
		lego_sbuf_printf(b, "const int mdh_z_%s = mdh_p_%s + mdh_u_%s;\n",
				 n, n, n);
	}
	return depth;
}

/* Closes the blocks opened from depth to, down to depth from. */
static void close_blocks(lego_sbuf *b, int to, int from)
{
	while (to > from) {
		mdh_put_indent(b, --to);
		lego_sbuf_puts(b, "}\n");
	}
}

/* The coordinates of copy element mdh_x_X in the box, in the buffer's
 * order, mdh_c_d; with e "e" those of a vector's element mdh_xe_X,
 * mdh_ce_d. */
static void put_copy_coords(lego_sbuf *b, const mdh_program *p,
			    const mdh_buf *m, const char *e, int depth)
{
	size_t order[64];
	size_t n = mdh_staged_dims(p, m, 0, order);
	for (size_t j = 0; j < n; j++) {
		mdh_put_indent(b, depth);
		lego_sbuf_printf(b, "const int mdh_c%s_%s = {{ mdh_C_%s.inv("
				 "mdh_x%s_%s)[%zu] }};\n", e,
				 p->dims[order[j]].name, m->name, e, m->name,
				 j);
	}
}

/* Opens `if (COND) {` when X's copy can read vectors of 4 from global
 * memory: its buffer's last index is one of its dims, alone (so the
 * copy's innermost dim, contiguous), and 4 divides that dim's box and
 * the buffer's row (each vector aligned, in or out of the tile whole).
 * Returns 0, writing nothing, when X's view does not allow it. */
static int put_copy_vec_cond(lego_sbuf *b, const mdh_program *p,
			     const mdh_buf *m, int depth)
{
	size_t order[64];
	size_t n = mdh_staged_dims(p, m, 0, order);
	const mdh_index *last = &m->acc[0].idx[m->rank - 1];
	if (!n || last->nterms != 1 || last->terms[0].coef != 1 ||
	    last->terms[0].nsyms || last->terms[0].dim != (int)order[n - 1])
		return 0;
	const char *d = p->dims[order[n - 1]].name;
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "if ({{ P_%s * L_%s %% 4 == 0 && (", d, d);
	mdh_put_extent(b, p, m, m->rank - 1);
	lego_sbuf_puts(b, ") % 4 == 0 }}) {\n");
	return 1;
}

/* The opening of an element of X's staged copy in the buffer buf (0 or 1:
 * with M_2 = 2 the copy of the next round goes to the other one); the
 * caller puts the index in the buffer and closes " }}]". */
static void put_st_open(lego_sbuf *b, const mdh_buf *m, const char *buf)
{
	const char *x = m->name;
	lego_sbuf_printf(b, "mdh_st_%s[{{ ", x);
	mdh_put_st_size(b, m);
	lego_sbuf_printf(b, " }} * %s + {{ ", buf);
}

/* The copy of X's box to local memory, w elements (1 or 4: a vector)
 * a work-item a step, in the buffer's order (neighbouring work-items read
 * neighbours), each element stored at its place in the staged layout. */
static void put_copy(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		     const mdh_spelling *sp, const char *const *at, int w,
		     const char *buf, int depth)
{
	size_t order[64];
	size_t n = mdh_staged_dims(p, m, 0, order);
	const char *x = m->name;
	mdh_put_indent(b, depth);
	/* a trip count the same for every work-item: PoCL miscompiled
	 * the barrier after a loop begun at the work-item's id */
	lego_sbuf_printf(b, "for (int mdh_y = 0; mdh_y < {{ mdh_C_%s.size }};"
			 " mdh_y += {{ %d * mdh_LOC.size }}) {\n", x, w);
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "const int mdh_x_%s = mdh_y + %d * mdh_lid;\n", x, w);
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "if (mdh_x_%s < {{ mdh_C_%s.size }}) {\n", x, x);
	put_copy_coords(b, p, m, "", depth + 2);
	mdh_put_indent(b, depth + 2);
	lego_sbuf_puts(b, "if ({{ ");
	for (size_t j = 0; j < n; j++)
		lego_sbuf_printf(b, "%s%s < %s", j ? " && " : "", at[order[j]],
				 p->dims[order[j]].size);
	lego_sbuf_puts(b, " }}) {\n");
	mdh_put_indent(b, depth + 3);
	if (w == 1) {
		put_st_open(b, m, buf);
		mdh_put_staged_index(b, p, m, "mdh_c_@");
		lego_sbuf_printf(b, " }}] = mdh_in_%s[", x);
		mdh_put_access(b, m, &m->acc[0], at);
		lego_sbuf_puts(b, "];\n");
		close_blocks(b, depth + 3, depth);
		return;
	}
	lego_sbuf_printf(b, "const %s4 mdh_f = ", m->type);
	lego_sbuf_printf(b, sp->vload, m->type);
	lego_sbuf_printf(b, "&mdh_in_%s[", x);
	mdh_put_access(b, m, &m->acc[0], at);
	lego_sbuf_puts(b, "]);\n");
	mdh_put_indent(b, depth + 3);
	lego_sbuf_printf(b, "const %s mdh_h[4] = { mdh_f.x, mdh_f.y, mdh_f.z, "
			 "mdh_f.w };\n", m->type);
	mdh_put_indent(b, depth + 3);
	/* each element's place: its coordinates again, from its number */
	lego_sbuf_printf(b, "for (int mdh_e = 0; mdh_e < 4; mdh_e++) {\n");
	mdh_put_indent(b, depth + 4);
	lego_sbuf_printf(b, "const int mdh_xe_%s = mdh_x_%s + mdh_e;\n", x,
			 x);
	put_copy_coords(b, p, m, "e", depth + 4);
	mdh_put_indent(b, depth + 4);
	put_st_open(b, m, buf);
	mdh_put_staged_index(b, p, m, "mdh_ce_@");
	lego_sbuf_puts(b, " }}] = mdh_h[mdh_e];\n");
	close_blocks(b, depth + 4, depth);
}

/* The condition that some input is staged: the sum of the M_X exceeds
 * their count (each is at least 1). */
static int put_any_staged(lego_sbuf *b, const mdh_program *p)
{
	int n = 0;
	for (size_t i = 0; i < p->nbufs; i++)
		if (mdh_buf_stageable(&p->bufs[i]) || mdh_buf_halo(&p->bufs[i]))
			lego_sbuf_printf(b, "%sM_%s", n++ ? " + " : "",
					 p->bufs[i].name);
	lego_sbuf_printf(b, " > %d", n);
	return n;
}

/* Each staged input's copy of the round whose coordinates the names
 * mdh_t_d hold, into the buffer buf. */
static void put_copies(lego_sbuf *b, const mdh_program *p,
		       const mdh_spelling *sp, const char *const *at,
		       const char *buf, int depth)
{
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (mdh_buf_halo(m))
			mdh_put_halo_copy(b, p, m, buf, depth);
		if (!mdh_buf_stageable(m))
			continue;
		mdh_put_indent(b, depth);
		lego_sbuf_printf(b, "if ({{ M_%s > 1 && M_%s < 5 }}) {\n", m->name,
				 m->name);
		if (put_copy_vec_cond(b, p, m, depth + 1)) {
			put_copy(b, p, m, sp, at, 4, buf, depth + 2);
			mdh_put_indent(b, depth + 1);
			lego_sbuf_puts(b, "} else {\n");
			put_copy(b, p, m, sp, at, 1, buf, depth + 2);
			mdh_put_indent(b, depth + 1);
			lego_sbuf_puts(b, "}\n");
		} else {
			put_copy(b, p, m, sp, at, 1, buf, depth + 1);
		}
		mdh_put_indent(b, depth);
		lego_sbuf_puts(b, "}\n");
	}
}

/* The rounds of a work-group along reduced dim n. */
static void put_rounds(lego_sbuf *b, const mdh_dim *d)
{
	const char *n = d->name;
	lego_sbuf_printf(b, "{{ cdiv(cdiv(%s, P_%s * L_%s), G_%s) }}", d->size,
			 n, n, n);
}

/* The staging of each input placed in local memory (M_X > 1): the
 * work-group's tile of a round, over the dims X's view uses, copied by
 * all its work-items in the buffer's order (neighbouring work-items read
 * neighbours), stored at its place in the staged layout.  M_2 = 1: one
 * buffer, a barrier before every copy (the last round's reads finish)
 * and one after.  M_2 = 2 (double buffer): the first round copied
 * before the loop's first barrier, then each round, after its one
 * barrier, copies the next round (the reduced dims' odometer a step on)
 * into the other buffer before its reads, so the copy's loads overlap
 * the round's arithmetic; mdh_b is the round's buffer. */
static void put_staging(lego_ctx *ctx, lego_sbuf *b, const mdh_program *p,
			const mdh_spelling *sp, int depth)
{
	const char **at = lego_arena_alloc(&ctx->arena,
					   (p->ndims + 1) * sizeof *at);
	for (size_t k = 0; at && k < p->ndims; k++) {
		const char *n = p->dims[k].name;
		lego_sbuf t = {0};
		if (mdh_dim_is_red(&p->dims[k]))
			lego_sbuf_printf(&t, "(mdh_g_%s + G_%s * mdh_t_%s) * "
					 "P_%s * L_%s + mdh_c_%s", n, n, n, n,
					 n, n);
		else
			lego_sbuf_printf(&t, "mdh_g_%s * P_%s * L_%s + mdh_c_%s",
					 n, n, n, n);
		char *c = lego_sbuf_take(&t);
		at[k] = c ? lego_arena_strdup(&ctx->arena, c) : "?";
		free(c);
	}
	lego_sbuf any = {0};
	if (!at || !put_any_staged(&any, p)) {
		free(lego_sbuf_take(&any));
		return;
	}
	char *cond = lego_sbuf_take(&any);
	/* the round's number, from the reduced dims' rounds */
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "const int mdh_rnd = ");
	for (size_t k = 0; k < p->ndims; k++) {
		if (!mdh_dim_is_red(&p->dims[k]))
			continue;
		lego_sbuf_puts(b, "(");
	}
	lego_sbuf_puts(b, "0");
	for (size_t k = 0; k < p->ndims; k++) {
		if (!mdh_dim_is_red(&p->dims[k]))
			continue;
		lego_sbuf_puts(b, " * ");
		put_rounds(b, &p->dims[k]);
		lego_sbuf_printf(b, " + mdh_t_%s)", p->dims[k].name);
	}
	lego_sbuf_puts(b, ";\n");
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "const int mdh_b = mdh_rnd % {{ M_2 }};\n");
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "if ({{ M_2 }} == 1 || mdh_rnd == 0) {\n");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "if ({{ M_2 == 1 && %s }}) {\n",
			 cond ? cond : "1");
	mdh_put_indent(b, depth + 2);
	lego_sbuf_printf(b, "%s;\n", sp->barrier);
	mdh_put_indent(b, depth + 1);
	lego_sbuf_puts(b, "}\n");
	put_copies(b, p, sp, at, "mdh_b", depth + 1);
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "}\n");
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "if ({{ %s }}) {\n", cond ? cond : "1");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "%s;\n", sp->barrier);
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "}\n");
	free(cond);
	/* the next round: the innermost reduced dim a step on, carried */
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "if ({{ M_2 }} == 2) {\n");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_puts(b, "int mdh_more = 1;\n");
	for (size_t k = 0; k < p->ndims; k++) {
		if (!mdh_dim_is_red(&p->dims[k]))
			continue;
		mdh_put_indent(b, depth + 1);
		lego_sbuf_printf(b, "int mdh_n_%s = mdh_t_%s;\n",
				 p->dims[k].name, p->dims[k].name);
	}
	for (size_t k = p->ndims; k-- > 0;) {
		if (!mdh_dim_is_red(&p->dims[k]))
			continue;
		const char *n = p->dims[k].name;
		mdh_put_indent(b, depth + 1);
		lego_sbuf_printf(b, "if (mdh_more) {\n");
		mdh_put_indent(b, depth + 2);
		lego_sbuf_printf(b, "mdh_n_%s = mdh_n_%s + 1 < ", n, n);
		put_rounds(b, &p->dims[k]);
		lego_sbuf_printf(b, " ? mdh_n_%s + 1 : 0;\n", n);
		mdh_put_indent(b, depth + 2);
		lego_sbuf_printf(b, "mdh_more = mdh_n_%s == 0;\n", n);
		mdh_put_indent(b, depth + 1);
		lego_sbuf_puts(b, "}\n");
	}
	mdh_put_indent(b, depth + 1);
	lego_sbuf_puts(b, "if (!mdh_more) {\n");
	/* the copies of round mdh_n_d, named so in place of mdh_t_d */
	lego_sbuf c = {0};
	put_copies(&c, p, sp, at, "(1 - mdh_b)", 0);
	char *t = lego_sbuf_take(&c);
	mdh_put_renamed_dims(b, p, t ? t : "?", "mdh_t_@", "mdh_n_@",
			     depth + 2);
	free(t);
	close_blocks(b, depth + 2, depth);
}

/* The registers of each staged input read as vectors (mdh_vec_dim), loaded
 * at a reduction step before the loops over the ++ tile. */
static void put_vec_loads(lego_sbuf *b, const mdh_program *p,
			  const mdh_spelling *sp, int depth)
{
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		int v = mdh_buf_stageable(m) ? mdh_vec_dim(p, m) : -1;
		if (v < 0)
			continue;
		const char *x = m->name;
		mdh_put_indent(b, depth);
		lego_sbuf_puts(b, "if ({{ ");
		mdh_put_vec_cond(b, p, m);
		lego_sbuf_puts(b, " }}) {\n");
		int d = depth + 1;
		for (size_t k = 0; k < p->ndims; k++) {
			const char *n = p->dims[k].name;
			if (mdh_dim_is_red(&p->dims[k]) || !mdh_buf_uses(m, k))
				continue;
			mdh_put_indent(b, d++);
			lego_sbuf_printf(b, "for (int mdh_p_%s = 0; mdh_p_%s < "
					 "{{ P_%s }}; mdh_p_%s += %d) {\n", n, n,
					 n, n, (int)k == v ? 4 : 1);
		}
		mdh_put_indent(b, d);
		lego_sbuf_printf(b, "const %s4 mdh_f = ", m->type);
		lego_sbuf_printf(b, sp->vload, m->type);
		lego_sbuf_puts(b, "&");
		put_st_open(b, m, "mdh_b");
		mdh_put_staged_index(b, p, m, MDH_BOX_COORD);
		lego_sbuf_printf(b, " }}]);\n");
		mdh_put_indent(b, d);
		lego_sbuf_printf(b, "const int mdh_w = {{ mdh_V_%s[", x);
		mdh_put_each_of(b, p, MDH_PAR, m, "mdh_p_@", ", ", "0");
		lego_sbuf_puts(b, "] }};\n");
		for (int c = 0; c < 4; c++) {
			mdh_put_indent(b, d);
			lego_sbuf_printf(b, "mdh_v_%s[mdh_w + %d] = mdh_f.%c;\n", x,
					 c, "xyzw"[c]);
		}
		close_blocks(b, d, depth);
	}
}

/* View a of input m from its private slot, when loaded ahead (V_M = 2). */
static void put_private_read(lego_sbuf *b, const mdh_program *p,
			     const mdh_buf *m, size_t a)
{
	if (!mdh_buf_private(p, m))
		return;
	lego_sbuf_printf(b, "{{ V_%s == 2 }} ? ", m->name);
	mdh_put_private_slot(b, p, m, a);
	lego_sbuf_puts(b, " : ");
}

/* The private placement (V_X = 2): every view's value at every point of
 * the work-item's ++ tile loaded before the tile's arithmetic, under the
 * scalar phase's masks, so that the tile's loads are in flight together
 * (a stencil walking a dim: the planes ahead of the one computed); the
 * loops unrolled (put_unroll_now), so the compiler shares the loads of
 * views that meet. */
static void put_private_loads(lego_sbuf *b, const mdh_program *p,
			      const char *const *tiles, int vd, int depth)
{
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!mdh_buf_private(p, m))
			continue;
		mdh_put_indent(b, depth);
		lego_sbuf_printf(b, "if ({{ V_%s == 2 }}) {\n", m->name);
		int d = open_tiles(b, p, MDH_PAR, vd, -1, depth + 1);
		mdh_put_indent(b, d);
		lego_sbuf_puts(b, "if ({{ ");
		mdh_put_masks(b, p, 0);
		lego_sbuf_puts(b, " }}) {\n");
		for (size_t a = 0; a < m->nacc; a++) {
			mdh_put_indent(b, d + 1);
			mdh_put_private_slot(b, p, m, a);
			lego_sbuf_printf(b, " = mdh_in_%s[", m->name);
			mdh_put_access(b, m, &m->acc[a], tiles);
			lego_sbuf_puts(b, "];\n");
		}
		close_blocks(b, d + 1, depth);
	}
}

void mdh_put_input(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		   const char *const *tiles, int depth)
{
	mdh_put_indent(b, depth);
	if (mdh_buf_stageable(m)) {
		lego_sbuf_printf(b, "const %s %s = ", m->type, m->name);
		put_private_read(b, p, m, 0);
		if (mdh_buf_halo(m)) {
			lego_sbuf_printf(b, "{{ M_%s == 5 }} ? ", m->name);
			mdh_put_halo_read(b, p, m, 0);
			lego_sbuf_puts(b, " : ");
		}
		if (mdh_vec_dim(p, m) >= 0) {
			lego_sbuf_puts(b, "{{ ");
			mdh_put_vec_cond(b, p, m);
			lego_sbuf_printf(b, " }} ? mdh_v_%s[{{ mdh_V_%s[",
					 m->name, m->name);
			mdh_put_each_of(b, p, MDH_PAR, m, "mdh_p_@", ", ",
					"0");
			lego_sbuf_puts(b, "] }}] : ");
		}
		lego_sbuf_printf(b, "{{ M_%s }} > 1 ? ", m->name);
		put_st_open(b, m, "mdh_b");
		mdh_put_staged_index(b, p, m, MDH_BOX_COORD);
		lego_sbuf_printf(b, " }}] : mdh_in_%s[", m->name);
		mdh_put_access(b, m, &m->acc[0], tiles);
		lego_sbuf_puts(b, "];\n");
		return;
	}
	if (m->nacc == 1) {
		lego_sbuf_printf(b, "const %s %s = mdh_in_%s[", m->type,
				 m->name, m->name);
		mdh_put_access(b, m, &m->acc[0], tiles);
		lego_sbuf_puts(b, "];\n");
		return;
	}
	lego_sbuf_printf(b, "const %s %s[%zu] = { ", m->type, m->name,
			 m->nacc);
	for (size_t a = 0; a < m->nacc; a++) {
		lego_sbuf_puts(b, a ? ", " : "");
		put_private_read(b, p, m, a);
		if (mdh_buf_halo(m)) {
			lego_sbuf_printf(b, "{{ M_%s == 5 }} ? ", m->name);
			mdh_put_halo_read(b, p, m, a);
			lego_sbuf_puts(b, " : ");
		}
		lego_sbuf_printf(b, "mdh_in_%s[", m->name);
		mdh_put_access(b, m, &m->acc[a], tiles);
		lego_sbuf_puts(b, "]");
	}
	lego_sbuf_puts(b, " };\n");
}

/* An output's accumulator, mdh_acc_X[{{ mdh_ACC[mdh_p_i, ..] }}]; with
 * vectors along dim v (v >= 0) the vector's: its first element's index
 * over W_v (mdh_p_v a multiple of W_v). */
void mdh_put_acc(lego_sbuf *b, const mdh_program *p, const mdh_buf *m, int v)
{
	lego_sbuf_printf(b, "mdh_acc_%s[{{ mdh_ACC[", m->name);
	mdh_put_each(b, p, MDH_PAR, "mdh_p_@", ", ", "0");
	lego_sbuf_puts(b, "]");
	if (v >= 0)
		lego_sbuf_printf(b, " / W_%s", p->dims[v].name);
	lego_sbuf_puts(b, " }}]");
}

/* The scalar function, then each output folded into its accumulator
 * (v as for mdh_put_acc); closes the block the masks opened at depth. */
void mdh_put_fold(lego_sbuf *b, const mdh_program *p, int v, int depth)
{
	mdh_put_indent(b, depth + 1);
	mdh_put_c(b, p->scalar);
	lego_sbuf_puts(b, "\n");
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		lego_sbuf s = {0};
		mdh_put_acc(&s, p, m, v);
		char *acc = lego_sbuf_take(&s);
		mdh_put_indent(b, depth + 1);
		lego_sbuf_printf(b, "%s = ", acc ? acc : "?");
		mdh_put_combine(b, p, m->type, acc ? acc : "?", m->name);
		lego_sbuf_puts(b, ";\n");
		free(acc);
	}
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "}\n");
}

static void put_store(lego_sbuf *b, const mdh_program *p,
		      const mdh_spelling *sp, const char *const *tiles,
		      int now, int depth);

/* The scalar phase: inputs read through their views, the scalar
 * function, each output folded into its accumulator (and with M_Y = 2
 * stored at once). */
static void put_scalar(lego_sbuf *b, const mdh_program *p,
		       const mdh_spelling *sp, const char *const *tiles,
		       int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "if ({{ ");
	mdh_put_masks(b, p, 0);
	lego_sbuf_puts(b, " }}) {\n");
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out) {
			mdh_put_input(b, p, m, tiles, depth + 1);
			continue;
		}
		mdh_put_indent(b, depth + 1);
		lego_sbuf_printf(b, "%s %s;\n", m->type, m->name);
	}
	mdh_put_fold(b, p, -1, depth);
	if (!mdh_has_red(p))
		put_store(b, p, sp, tiles, 1, depth);
}

static int has_par(const mdh_program *p)
{
	for (size_t k = 0; k < p->ndims; k++)
		if (!mdh_dim_is_red(&p->dims[k]))
			return 1;
	return 0;
}

/* The local-memory tree over the work-items of the reduction dims. */
static void put_tree(lego_sbuf *b, const mdh_program *p,
		     const mdh_spelling *sp)
{
	lego_sbuf sh = {0};
	mdh_put_each(&sh, p, MDH_PAR, "mdh_l_@, ", "", "");
	char *lpar = lego_sbuf_take(&sh);
	const char *lp = lpar ? lpar : "";
	lego_sbuf_puts(b, "\tconst int mdh_r = {{ mdh_RED[");
	mdh_put_each(b, p, MDH_RED, "mdh_l_@", ", ", "0");
	lego_sbuf_puts(b, "] }};\n");
	const int warp = mdh_warp_able(p, sp);
	if (warp) {
		lego_sbuf_puts(b, "#if {{ B_red == 2 }}\n");
		mdh_put_warp_combine(b, p);
		lego_sbuf_puts(b, "#else\n");
	}
	lego_sbuf_puts(b, "\tif ({{ mdh_RED.size }} > 1) {\n");
	for (size_t i = 0; i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			lego_sbuf_printf(b, "\t\tfor (int mdh_a = 0; mdh_a < "
					 "{{ mdh_ACC.size }}; mdh_a++) {\n\t\t\t"
					 "mdh_sh_%s[{{ mdh_SH[%smdh_r, mdh_a] }}]"
					 " = mdh_acc_%s[mdh_a];\n\t\t}\n",
					 p->bufs[i].name, lp, p->bufs[i].name);
	lego_sbuf_printf(b, "\t\t%s;\n"
			 "\t\tfor (int mdh_s = {{ mdh_RED.size }} / 2; mdh_s > 0; "
			 "mdh_s /= 2) {\n\t\t\tif (mdh_r < mdh_s) {\n"
			 "\t\t\t\tfor (int mdh_a = 0; mdh_a < {{ mdh_ACC.size }}; "
			 "mdh_a++) {\n", sp->barrier);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		char x[160], y[160];
		snprintf(x, sizeof x, "mdh_sh_%s[{{ mdh_SH[%smdh_r, mdh_a] }}]",
			 m->name, lp);
		snprintf(y, sizeof y, "mdh_sh_%s[{{ mdh_SH[%smdh_r + mdh_s, "
			 "mdh_a] }}]", m->name, lp);
		lego_sbuf_printf(b, "\t\t\t\t\t%s = ", x);
		mdh_put_combine(b, p, m->type, x, y);
		lego_sbuf_puts(b, ";\n");
	}
	lego_sbuf_printf(b, "\t\t\t\t}\n\t\t\t}\n\t\t\t%s;\n\t\t}\n",
			 sp->barrier);
	for (size_t i = 0; i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			lego_sbuf_printf(b, "\t\tfor (int mdh_a = 0; mdh_a < "
					 "{{ mdh_ACC.size }}; mdh_a++) {\n\t\t\t"
					 "mdh_acc_%s[mdh_a] = mdh_sh_%s[{{ "
					 "mdh_SH[%s0, mdh_a] }}];\n\t\t}\n",
					 p->bufs[i].name, p->bufs[i].name, lp);
	lego_sbuf_puts(b, warp ? "\t}\n#endif\n" : "\t}\n");
	free(lpar);
}

/* Each output's value at one point of the ++ tile: to scratch when the
 * reduction spans work-groups, else through the output view.  Without
 * reduced dims, under its placement: M_Y = 2 when now (in the scalar
 * phase), else 1 (after the tile). */
static void put_store(lego_sbuf *b, const mdh_program *p,
		      const mdh_spelling *sp, const char *const *tiles,
		      int now, int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "if ({{ ");
	mdh_put_masks(b, p, 1);
	lego_sbuf_puts(b, " }}) {\n");
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		if (mdh_has_red(p)) {
			mdh_put_indent(b, depth + 1);
			lego_sbuf_printf(b, "if ({{ mdh_GR.size }} > 1) {\n");
			mdh_put_indent(b, depth + 2);
			lego_sbuf_printf(b, "mdh_scr_%s[{{ mdh_SCR[mdh_GR[",
					 m->name);
			mdh_put_each(b, p, MDH_RED, "mdh_g_@", ", ", "0");
			lego_sbuf_puts(b, "]");
			for (size_t k = 0; k < p->ndims; k++)
				if (!mdh_dim_is_red(&p->dims[k]))
					lego_sbuf_printf(b, ", %s", tiles[k]);
			lego_sbuf_printf(b, "%s] }}] = mdh_acc_%s[",
					 has_par(p) ? "" : ", 0", m->name);
			put_acc_index(b, p);
			lego_sbuf_puts(b, "];\n");
			mdh_put_indent(b, depth + 1);
			lego_sbuf_puts(b, "} else {\n");
		}
		if (!mdh_has_red(p)) {
			mdh_put_indent(b, depth + 1);
			lego_sbuf_printf(b, "if ({{ M_%s == %d }}) {\n", m->name,
					 now ? 2 : 1);
		}
		lego_sbuf s = {0};
		lego_sbuf_printf(&s, "mdh_out_%s[", m->name);
		mdh_put_access(&s, m, &m->acc[0], tiles);
		lego_sbuf_puts(&s, "]");
		char *lhs = lego_sbuf_take(&s);
		mdh_put_acc(&s, p, m, -1);
		char *val = lego_sbuf_take(&s);
		mdh_put_out_write(b, p, sp, mdh_store_dim(p), lhs ? lhs : "?",
				  NULL, val ? val : "?", depth + 2);
		free(lhs);
		free(val);
		mdh_put_indent(b, depth + 1);
		lego_sbuf_puts(b, "}\n");
	}
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "}\n");
}

/* NAME_grid: the grid level, one work-item per point of the ++ space. */
static void put_grid_kernel(lego_sbuf *b, const mdh_program *p,
			    const mdh_spelling *sp)
{
	const char *dimtext[64];
	char text[64][48];
	size_t j = 0;
	for (size_t k = 0; k < p->ndims; k++) {
		if (mdh_dim_is_red(&p->dims[k])) {
			dimtext[k] = "0";
			continue;
		}
		snprintf(text[k], sizeof text[k], "mdh_PAR.inv(mdh_e)[%zu]", j++);
		dimtext[k] = text[k];
	}
	lego_sbuf_printf(b, "\n%s %s_grid(", sp->kernel, p->name);
	int n = 0;
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (m->is_out)
			lego_sbuf_printf(b, "%s%sconst %s *%s mdh_scr_%s, %s%s "
					 "*%s mdh_out_%s", n++ ? ", " : "",
					 sp->global, m->type, sp->restrict_,
					 m->name, sp->global, m->type,
					 sp->restrict_, m->name);
	}
	mdh_put_size_params(b, p, 1);
	lego_sbuf_printf(b, ")\n{\n\tfor (int mdh_e = %s; mdh_e < "
			 "{{ mdh_PAR.size }}; mdh_e += %s) {\n", sp->global_id,
			 sp->global_size);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		lego_sbuf_printf(b, "\t\t%s mdh_acc_%s = %s;\n\t\tfor (int mdh_q = 0; "
				 "mdh_q < {{ mdh_GR.size }}; mdh_q++) {\n"
				 "\t\t\tmdh_acc_%s = ", m->type, m->name,
				 mdh_red_identity(p, m->type), m->name);
		char x[64];
		snprintf(x, sizeof x, "mdh_acc_%s", m->name);
		lego_sbuf s = {0};
		lego_sbuf_printf(&s, "mdh_scr_%s[{{ mdh_SCR[mdh_q", m->name);
		for (size_t k = 0; k < p->ndims; k++)
			if (!mdh_dim_is_red(&p->dims[k]))
				lego_sbuf_printf(&s, ", %s", dimtext[k]);
		lego_sbuf_puts(&s, j ? "] }}]" : ", 0] }}]");
		char *y = lego_sbuf_take(&s);
		mdh_put_combine(b, p, m->type, x, y ? y : "?");
		free(y);
		lego_sbuf_printf(b, ";\n\t\t}\n\t\tmdh_out_%s[", m->name);
		mdh_put_access(b, m, &m->acc[0], dimtext);
		lego_sbuf_printf(b, "] = mdh_acc_%s;\n", m->name);
	}
	lego_sbuf_puts(b, "\t}\n}\n");
}

void mdh_put_tuples(lego_sbuf *b, const mdh_program *p)
{
	for (size_t i = 0; i < p->ntuples; i++) {
		const mdh_tuple *t = &p->tuples[i];
		lego_sbuf_puts(b, "\ntypedef struct {");
		for (size_t f = 0; f < t->nfields; f++)
			lego_sbuf_printf(b, " %s %s;", t->ftypes[f],
					 t->fnames[f]);
		lego_sbuf_printf(b, " } %s;\n", t->name);
	}
}

/* The vector variant (vector.c) and the scalar one as the two branches
 * of `#if {{ W_vd > 1 }}`, when the program has a vector dim vd. */
static void put_vec_if(lego_sbuf *b, const mdh_program *p, int vd)
{
	if (vd >= 0)
		lego_sbuf_printf(b, "#if {{ W_%s > 1 }}\n", p->dims[vd].name);
}

static void put_vec_else(lego_sbuf *b, int vd)
{
	if (vd >= 0)
		lego_sbuf_puts(b, "#else\n");
}

static void put_vec_endif(lego_sbuf *b, int vd)
{
	if (vd >= 0)
		lego_sbuf_puts(b, "#endif\n");
}

/* The tile's body at one point, at depth: with vectors along vd or
 * scalars, each reduced dim's point the sum of its loops, mdh_z_d. */
static void put_body(lego_sbuf *b, const mdh_program *p,
		     const mdh_spelling *sp, const char *const *tiles, int vd,
		     int depth)
{
	lego_sbuf s = {0};
	put_vec_if(&s, p, vd);
	if (vd >= 0)
		mdh_put_vec_scalar(&s, p, tiles, vd, 0);
	put_vec_else(&s, vd);
	put_scalar(&s, p, sp, tiles, 0);
	put_vec_endif(&s, vd);
	char *t = lego_sbuf_take(&s);
	mdh_put_renamed_dims(b, p, t ? t : "?", "mdh_p_@", "mdh_z_@", depth);
	free(t);
}

void mdh_put_kernel(lego_ctx *ctx, lego_sbuf *b, const mdh_program *p,
		    const mdh_spelling *sp)
{
	const char **tiles = tile_texts(ctx, p);
	lego_sbuf_printf(b, "/* Generated by lego mdh from %s: MDH program "
			 "%s (docs/mdh.md). */\n%s", p->file, p->name,
			 sp->prologue);
	mdh_put_tuples(b, p);
	for (size_t i = 0; i < p->nops; i++) {
		const mdh_user_op *o = &p->ops[i];
		lego_sbuf_printf(b, "\n%s %s %s(%s %s, %s %s)\n", sp->fn,
				 o->type, o->name, o->type, o->a, o->type, o->b);
		mdh_put_c(b, o->body);
		lego_sbuf_puts(b, "\n");
		if (!o->init)
			continue;
		/* a tuple's identity is an initializer: a function makes it
		 * an expression in OpenCL C and CUDA alike */
		lego_sbuf_printf(b, "%s %s mdh_id_%s(void)\n{\n\t%s mdh_v = { ",
				 sp->fn, o->type, o->name, o->type);
		mdh_put_c(b, o->init);
		lego_sbuf_puts(b, " };\n\treturn mdh_v;\n}\n");
	}
	lego_sbuf_puts(b, "\n");
	put_signature(b, p, sp);
	/* no tree's buffer with the shuffles */
	const int warp = mdh_warp_able(p, sp);
	if (warp)
		lego_sbuf_puts(b, "#if {{ B_red == 1 }}\n");
	for (size_t i = 0; mdh_has_red(p) && i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			/* one element when there is no tree to hold */
			lego_sbuf_printf(b, "\t%s %s mdh_sh_%s[{{ select(mdh_RED.size "
					 "> 1, mdh_SH.size, 1) }}];\n",
					 sp->local, p->bufs[i].type,
					 p->bufs[i].name);
	if (warp)
		lego_sbuf_puts(b, "#endif\n");
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!mdh_buf_stageable(m) && !mdh_buf_halo(m))
			continue;
		lego_sbuf_printf(b, "\t%s %s%s mdh_st_%s[{{ select(M_%s == 1, "
				 "1, M_2 * ", sp->local, sp->align, m->type,
				 m->name, m->name);
		mdh_put_st_size(b, m);
		lego_sbuf_puts(b, ") }}];\n");
	}
	lego_sbuf_printf(b, "\tconst int mdh_grp = %s, mdh_lid = %s;\n",
			 sp->group_id, sp->local_id);
	size_t k;
	const int orders = mdh_grid_orders(p, sp->vectors);
	for (k = 0; k < p->ndims; k++) {
		lego_sbuf_printf(b, "\tconst int mdh_g_%s = {{ ",
				 p->dims[k].name);
		if (orders)
			lego_sbuf_printf(b, "select(B_ord == 1, mdh_GRID.inv("
					 "mdh_grp)[%zu], mdh_GRIDC.inv(mdh_grp)"
					 "[%zu])", k, k);
		else
			lego_sbuf_printf(b, "mdh_GRID.inv(mdh_grp)[%zu]", k);
		lego_sbuf_puts(b, " }};\n");
	}
	for (k = 0; k < p->ndims; k++)
		lego_sbuf_printf(b, "\tconst int mdh_l_%s = {{ mdh_LOC.inv(mdh_lid)"
				 "[%zu] }};\n", p->dims[k].name, k);
	const int vd = sp->vectors ? mdh_cpu_vec_dim(p) : -1;
	put_vec_if(b, p, vd);
	if (vd >= 0)
		mdh_put_vec_acc(b, p, vd);
	put_vec_else(b, vd);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (m->is_out)
			lego_sbuf_printf(b, "\t%s mdh_acc_%s[{{ mdh_ACC.size }}];\n"
					 "\tfor (int mdh_a = 0; mdh_a < {{ mdh_ACC.size }}; "
					 "mdh_a++) {\n\t\tmdh_acc_%s[mdh_a] = %s;\n\t}\n",
					 m->type, m->name, m->name,
					 mdh_red_identity(p, m->type));
	}
	put_vec_endif(b, vd);
	for (size_t i = 0; i < p->nbufs; i++)
		if (mdh_buf_private(p, &p->bufs[i]))
			lego_sbuf_printf(b, "\t%s mdh_w_%s[{{ select(V_%s == 2, "
					 "mdh_ACC.size * %zu, 1) }}];\n",
					 p->bufs[i].type, p->bufs[i].name,
					 p->bufs[i].name, p->bufs[i].nacc);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!mdh_buf_stageable(m) || mdh_vec_dim(p, m) < 0)
			continue;
		lego_sbuf_printf(b, "\t%s mdh_v_%s[{{ select(", m->type, m->name);
		mdh_put_vec_cond(b, p, m);
		/* dead code reads past the tile when the condition fails:
		 * sized for it, so that no compiler warns */
		lego_sbuf_printf(b, ", mdh_V_%s.size, mdh_V_%s.size + 3) }}];\n",
				 m->name, m->name);
	}
	int depth = 1;
	for (size_t r = 0; r < p->ndims; r++) {
		const char *n = p->dims[r].name;
		if (!mdh_dim_is_red(&p->dims[r]))
			continue;
		mdh_put_indent(b, depth++);
		lego_sbuf_printf(b, "for (int mdh_t_%s = 0; mdh_t_%s < {{ cdiv("
				 "cdiv(%s, P_%s * L_%s), G_%s) }}; mdh_t_%s++) {\n",
				 n, n, p->dims[r].size, n, n, n, n);
	}
	put_staging(ctx, b, p, sp, depth);
	int inner = open_tiles(b, p, MDH_RED, -1, -1, depth);
	put_vec_loads(b, p, sp, inner);
	put_private_loads(b, p, tiles, vd, inner);
	inner = open_tiles(b, p, MDH_PAR, vd, -1, inner);
	inner = open_inner_red(b, p, inner);
	put_body(b, p, sp, tiles, vd, inner);
	close_blocks(b, inner, 1);
	put_vec_if(b, p, vd);
	if (vd >= 0) {
		/* W_vd > 1: no tree, no grid level (the spec's constraints) */
		inner = open_tiles(b, p, MDH_PAR, vd, -1, 1);
		mdh_put_vec_store(b, p, tiles, vd, inner);
		close_blocks(b, inner, 1);
	}
	put_vec_else(b, vd);
	depth = 1;
	if (mdh_has_red(p)) {
		put_tree(b, p, sp);
		lego_sbuf_puts(b, "\tif (mdh_r == 0) {\n");
		depth = 2;
	}
	const int sd = mdh_store_dim(p);
	inner = open_tiles(b, p, MDH_PAR, vd, sd, depth);
	if (sd >= 0) {
		lego_sbuf s = {0};
		put_store(&s, p, sp, tiles, 0, 0);
		char *one = lego_sbuf_take(&s);
		mdh_put_stores(b, p, sp, tiles, sd, one ? one : "?", inner);
		free(one);
	} else {
		put_store(b, p, sp, tiles, 0, inner);
	}
	close_blocks(b, inner, 1);
	put_vec_endif(b, vd);
	lego_sbuf_puts(b, "}\n");
	if (mdh_has_red(p))
		put_grid_kernel(b, p, sp);
}
