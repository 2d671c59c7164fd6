/* spec.c - the spec block of the template: the low-level form's
 * parameters as `tune` declarations with the constraints of the system
 * model, and every index function as a LEGO layout.
 *
 * Dimension n of size S is de-composed in three layers: work-groups
 * (cdiv(S, P_n * L_n) of them), L_n work-items in a group and P_n
 * elements in a work-item's private tile.  O_n picks the iteration order
 * of the two inner layers: 1, a work-item's elements L_n apart (the
 * work-items of a group read neighbours); 2, a work-item's elements
 * adjacent; 3, runs of 4 adjacent elements, the runs 4 L_n apart (each
 * work-item reads vectors of 4, and the work-items of a group read
 * neighbouring vectors: no bank conflicts).  Each order is a padded TileBy of Row(S), so an index is
 * exact for any S and its mask says whether it lies in [0, S). */
#include <stdio.h>
#include <string.h>

#include "mdh/lower.h"


int mdh_has_red(const mdh_program *p)
{
	return p->red != MDH_CONCAT;
}

static int picked(const mdh_dim *d, mdh_which w)
{
	return w == MDH_ALL || (w == MDH_RED) == mdh_dim_is_red(d);
}

void mdh_put_each(lego_sbuf *b, const mdh_program *p, mdh_which w,
		  const char *fmt, const char *sep, const char *empty)
{
	mdh_put_each_of(b, p, w, NULL, fmt, sep, empty);
}

/* fmt for dim d: @ is its name and $ its size. */
static void put_fmt(lego_sbuf *b, const mdh_dim *d, const char *fmt)
{
	for (const char *c = fmt; *c; c++) {
		if (*c == '@')
			lego_sbuf_puts(b, d->name);
		else if (*c == '$')
			lego_sbuf_puts(b, d->size);
		else
			lego_sbuf_printf(b, "%c", *c);
	}
}

void mdh_put_each_of(lego_sbuf *b, const mdh_program *p, mdh_which w,
		     const mdh_buf *m, const char *fmt, const char *sep,
		     const char *empty)
{
	int n = 0;
	for (size_t k = 0; k < p->ndims; k++) {
		const mdh_dim *d = &p->dims[k];
		if (!picked(d, w) || (m && !mdh_buf_uses(m, k)))
			continue;
		if (n++)
			lego_sbuf_puts(b, sep);
		put_fmt(b, d, fmt);
	}
	if (!n)
		lego_sbuf_puts(b, empty);
}

void mdh_put_dims(lego_sbuf *b, const mdh_program *p, const size_t *dims,
		  size_t n, const char *fmt, const char *sep, const char *empty)
{
	for (size_t j = 0; j < n; j++) {
		if (j)
			lego_sbuf_puts(b, sep);
		put_fmt(b, &p->dims[dims[j]], fmt);
	}
	if (!n)
		lego_sbuf_puts(b, empty);
}

void mdh_put_staged_index(lego_sbuf *b, const mdh_program *p,
			  const mdh_buf *m, const char *fmt)
{
	size_t bo[64], ro[64];
	size_t n = mdh_staged_dims(p, m, 0, bo);
	mdh_staged_dims(p, m, 1, ro);
	const char *x = m->name;
	lego_sbuf_printf(b, "select(M_%s == 2, mdh_C_%s[", x, x);
	mdh_put_dims(b, p, bo, n, fmt, ", ", "0");
	lego_sbuf_printf(b, "], select(M_%s == 3, mdh_R_%s[", x, x);
	mdh_put_dims(b, p, ro, n, fmt, ", ", "0");
	lego_sbuf_printf(b, "], mdh_Q_%s[", x);
	mdh_put_dims(b, p, ro, n, fmt, ", ", "0");
	lego_sbuf_puts(b, "]))");
}

/* The tile of a work-group: its group index along a ++ dim; along a
 * reduced one, G groups take the tiles in turns (round t). */
static void put_tile_of(lego_sbuf *b, const mdh_dim *d, const char *fmt)
{
	const char *n = d->name;
	char g[96];
	if (mdh_dim_is_red(d))
		snprintf(g, sizeof g, "mdh_g_%s + G_%s * mdh_t_%s", n, n, n);
	else
		snprintf(g, sizeof g, "mdh_g_%s", n);
	lego_sbuf_printf(b, fmt, n, n, g, n, n, n, n, g, n, n, n, g, n, n, n);
}

void mdh_put_tile(lego_sbuf *b, const mdh_dim *d)
{
	put_tile_of(b, d, "select(O_%s == 1, mdh_T1_%s[%s, mdh_p_%s, "
		    "mdh_l_%s], select(O_%s == 2, mdh_T2_%s[%s, mdh_l_%s, "
		    "mdh_p_%s], mdh_T3_%s[%s, mdh_p_%s / 4, mdh_l_%s, "
		    "mdh_p_%s %% 4]))");
}

void mdh_put_tile_mask(lego_sbuf *b, const mdh_dim *d)
{
	/* a round past the last tile: the layout's mask takes its entries
	 * in range, so the tile count is checked apart */
	if (mdh_dim_is_red(d))
		lego_sbuf_printf(b, "mdh_g_%s + G_%s * mdh_t_%s < cdiv(%s, P_%s "
				 "* L_%s) && ", d->name, d->name, d->name,
				 d->size, d->name, d->name);
	put_tile_of(b, d, "select(O_%s == 1, mask(mdh_T1_%s[%s, mdh_p_%s, "
		    "mdh_l_%s]), select(O_%s == 2, mask(mdh_T2_%s[%s, mdh_l_%s, "
		    "mdh_p_%s]), mask(mdh_T3_%s[%s, mdh_p_%s / 4, mdh_l_%s, "
		    "mdh_p_%s %% 4])))");
}

void mdh_put_masks(lego_sbuf *b, const mdh_program *p, int par_only)
{
	int n = 0;
	for (size_t k = 0; k < p->ndims; k++) {
		if (par_only && mdh_dim_is_red(&p->dims[k]))
			continue;
		if (n++)
			lego_sbuf_puts(b, " && ");
		mdh_put_tile_mask(b, &p->dims[k]);
	}
	if (!n)
		lego_sbuf_puts(b, "1");
}

/* The extent of entry e of buffer b: one more than its largest index
 * over every access (each dim at its size - 1). */
void mdh_put_extent(lego_sbuf *s, const mdh_program *p, const mdh_buf *b,
		    size_t e)
{
	char text[64][80];
	const char *dimtext[64];
	for (size_t k = 0; k < p->ndims; k++) {
		snprintf(text[k], sizeof text[k], "%s - 1", p->dims[k].size);
		dimtext[k] = text[k];
	}
	for (size_t a = 0; a + 1 < b->nacc; a++)
		lego_sbuf_puts(s, "max(");
	for (size_t a = 0; a < b->nacc; a++) {
		if (a)
			lego_sbuf_puts(s, ", ");
		mdh_index_print(s, &b->acc[a].idx[e], dimtext);
		lego_sbuf_puts(s, " + 1");
		if (a)
			lego_sbuf_puts(s, ")");
	}
}

/* The work-groups along each dim: every tile of a ++ dim, G_d along a
 * reduced one. */
static void put_groups(lego_sbuf *b, const mdh_program *p, const char *sep)
{
	for (size_t k = 0; k < p->ndims; k++) {
		const mdh_dim *d = &p->dims[k];
		if (k)
			lego_sbuf_puts(b, sep);
		if (mdh_dim_is_red(d))
			lego_sbuf_printf(b, "G_%s", d->name);
		else
			lego_sbuf_printf(b, "cdiv(%s, P_%s * L_%s)", d->size,
					 d->name, d->name);
	}
	if (!p->ndims)
		lego_sbuf_puts(b, "1");
}

static void put_values(lego_sbuf *b, const char *name, const char *dim,
		       const int64_t *v, size_t n)
{
	lego_sbuf_printf(b, "tune %s_%s in {", name, dim);
	for (size_t i = 0; i < n; i++)
		lego_sbuf_printf(b, "%s%lld", i ? ", " : "", (long long)v[i]);
	lego_sbuf_puts(b, "}\n");
}

int mdh_vec_dim(const mdh_program *p, const mdh_buf *m)
{
	size_t ro[64];
	size_t n = mdh_staged_dims(p, m, 1, ro);
	return n && !mdh_dim_is_red(&p->dims[ro[n - 1]]) ? (int)ro[n - 1] : -1;
}

void mdh_put_vec_cond(lego_sbuf *b, const mdh_program *p, const mdh_buf *m)
{
	int d = mdh_vec_dim(p, m);
	if (d < 0) {
		lego_sbuf_puts(b, "0");
		return;
	}
	const char *n = p->dims[d].name;
	lego_sbuf_printf(b, "M_%s > 2 && M_%s < 5 && O_%s > 1 && P_%s %% 4 "
			 "== 0", m->name, m->name, n, n);
	/* the registers hold a reduction step: each reduced dim's loop runs
	 * outside the ++ tile's */
	mdh_put_each(b, p, MDH_RED, " && R_@ != 2", "", "");
}

/* The memory placement of each input that can be staged (M_X: 1 global;
 * 2, 3, 4 the work-group's tile copied to local memory each round, laid
 * out as the buffer (mdh_C_X, the copy's order), with the reduced dims
 * outermost (mdh_R_X), or so and its innermost extent padded by one
 * (mdh_Q_X: a copy that transposes then stores to different banks)), and
 * the bound of the box. */
static void put_placements(lego_sbuf *b, const mdh_program *p)
{
	static const int64_t mvals[] = {1, 2, 3, 4, 5};
	static const int64_t hvals[] = {1, 5};
	static const int64_t dvals[] = {1, 2};
	int any = 0;
	for (size_t i = 0; i < p->nbufs; i++)
		any += mdh_buf_stageable(&p->bufs[i]) ||
		       mdh_buf_halo(&p->bufs[i]);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		int halo = mdh_buf_halo(m);
		if (halo && !mdh_buf_stageable(m))
			put_values(b, "M", m->name, hvals, 2);
		if (halo)
			mdh_put_halo_spec(b, p, m);
		if (!mdh_buf_stageable(m))
			continue;
		size_t bo[64], ro[64];
		size_t n = mdh_staged_dims(p, m, 0, bo);
		mdh_staged_dims(p, m, 1, ro);
		put_values(b, "M", m->name, mvals, 4 + (size_t)halo);
		lego_sbuf_printf(b, "layout mdh_C_%s = OrderBy(Row(", m->name);
		mdh_put_dims(b, p, bo, n, "P_@ * L_@", ", ", "1");
		lego_sbuf_printf(b, "))\nlayout mdh_R_%s = OrderBy(Row(", m->name);
		mdh_put_dims(b, p, ro, n, "P_@ * L_@", ", ", "1");
		lego_sbuf_printf(b, "))\nlayout mdh_Q_%s = OrderBy(Row(", m->name);
		mdh_put_dims(b, p, ro, n, "P_@ * L_@", ", ", "1");
		lego_sbuf_printf(b, " + 4))\nlayout mdh_V_%s = OrderBy(Row(", m->name);
		mdh_put_each_of(b, p, MDH_PAR, m, "P_@", ", ", "1");
		lego_sbuf_printf(b, "))\nassume M_%s == 1 || M_%s == 5 || ",
				 m->name, m->name);
		mdh_put_each_of(b, p, MDH_ALL, m, "P_@ * L_@", " * ", "1");
		for (int e = 0; e < 2; e++) {
			lego_sbuf_printf(b, "%sindex mdh_x%s_%s in [0, ",
					 e ? "" : " <= 4096\n", e ? "e" : "",
					 m->name);
			mdh_put_each_of(b, p, MDH_ALL, m, "P_@ * L_@", " * ",
					"1");
			lego_sbuf_puts(b, ")\n");
		}
	}
	/* M_2: one or two buffers of each staged copy (a double buffer),
	 * two only when some input is staged (some M_X > 1) */
	if (any) {
		put_values(b, "M", "2", dvals, 2);
		lego_sbuf_puts(b, "assume M_2 == 1 || 0");
		for (size_t i = 0; i < p->nbufs; i++)
			if (mdh_buf_stageable(&p->bufs[i]) ||
			    mdh_buf_halo(&p->bufs[i]))
				lego_sbuf_printf(b, " + M_%s", p->bufs[i].name);
		lego_sbuf_printf(b, " > %d\n", any);
	}
	/* a halo box within 48 KiB, CUDA's static shared memory a block,
	 * both buffers of the double buffer counted */
	for (size_t i = 0; i < p->nbufs; i++) {
		if (!mdh_buf_halo(&p->bufs[i]))
			continue;
		lego_sbuf_printf(b, "assume M_%s != 5 || M_2 * ",
				 p->bufs[i].name);
		mdh_put_halo_size(b, p, &p->bufs[i]);
		lego_sbuf_puts(b, " <= 12288\n");
	}
}

/* The placement of each output of a program without reduced dims (M_Y:
 * 1, the work-item's ++ tile in private accumulators, stored after the
 * tile; 2, each point stored as soon as it is computed, so that a long
 * private tile (a stencil walking a dim) interleaves its stores with its
 * loads).  The vector variant (W_vd > 1) stores its vectors after the
 * tile. */
static void put_out_placements(lego_sbuf *b, const mdh_program *p, int vd)
{
	static const int64_t vals[] = {1, 2};
	for (size_t i = 0; !mdh_has_red(p) && i < p->nbufs; i++) {
		if (!p->bufs[i].is_out)
			continue;
		put_values(b, "M", p->bufs[i].name, vals, 2);
		if (vd >= 0)
			lego_sbuf_printf(b, "assume M_%s == 1 || W_%s == 1\n",
					 p->bufs[i].name, p->dims[vd].name);
	}
}

/* The private placement of each input read through windows in a program
 * without reduced dims (V_X: 1, each view read at each point; 2, the
 * views' values over the work-item's ++ tile loaded before its
 * arithmetic, kernel.c): read from global memory, held in at most 128
 * registers, with scalars (W_vd = 1). */
static void put_private(lego_sbuf *b, const mdh_program *p, int vd)
{
	static const int64_t vals[] = {1, 2};
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!mdh_buf_private(p, m))
			continue;
		put_values(b, "V", m->name, vals, 2);
		lego_sbuf_printf(b, "assume V_%s == 1 || M_%s == 1\n"
				 "assume V_%s == 1 || ", m->name, m->name,
				 m->name);
		mdh_put_each(b, p, MDH_PAR, "P_@", " * ", "1");
		lego_sbuf_printf(b, " * %zu <= 128\n", m->nacc);
		if (vd >= 0)
			lego_sbuf_printf(b, "assume V_%s == 1 || W_%s == 1\n",
					 m->name, p->dims[vd].name);
	}
}

/* S_d, how the outputs are stored along the store dim d (store.c): 1,
 * scalars; 2, runs of 4 adjacent points as vectors (a work-item's
 * points along d adjacent in runs of 4: O_d > 1, P_d a multiple of 4),
 * after the tile (M_Y = 1) and with scalars (W_vd = 1); where the
 * spelling has them, 3 and 4 as 1 and 2 with streaming stores. */
static void put_store_spec(lego_sbuf *b, const mdh_program *p, int vd,
			   const mdh_spelling *sp)
{
	static const int64_t svals[] = {1, 2, 3, 4};
	const int sd = mdh_store_dim(p);
	if (sd < 0)
		return;
	const char *n = p->dims[sd].name;
	put_values(b, "S", n, svals, sp->streaming ? 4 : 2);
	lego_sbuf_printf(b, "assume S_%s %% 2 == 1 || (O_%s > 1 && P_%s %% 4 "
			 "== 0)\n", n, n, n);
	/* a run's points, and its last (store.c) */
	lego_sbuf_printf(b, "index mdh_q_%s in [0, P_%s)\nindex mdh_q3_%s in "
			 "[0, P_%s)\n", n, n, n, n);
	for (size_t i = 0; !mdh_has_red(p) && i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			lego_sbuf_printf(b, "assume S_%s %% 2 == 1 || M_%s == "
					 "1\n", n, p->bufs[i].name);
	if (vd >= 0)
		lego_sbuf_printf(b, "assume S_%s == 1 || W_%s == 1\n", n,
				 p->dims[vd].name);
}

void mdh_put_spec(lego_sbuf *b, const mdh_program *p, int64_t maxwg,
		  const mdh_spelling *sp)
{
	static const int64_t pvals[] = {1, 2, 4, 8, 16};
	static const int64_t ovals[] = {1, 2, 3};
	static const int64_t gvals[] = {1, 2, 4, 8, 16, 32, 64};
	static const int64_t bvals[] = {1, 2, 3, 4};
	static const int64_t wvals[] = {1, 2, 4, 8, 16};
	const int vd = sp->vectors ? mdh_cpu_vec_dim(p) : -1;
	int64_t lvals[16];
	size_t nl = 0;
	for (int64_t v = 1; v <= maxwg && nl < 16; v *= 2)
		lvals[nl++] = v;
	lego_sbuf_puts(b, "// {% lego %}\n");
	if (p->nsizes) {
		lego_sbuf_puts(b, "sym ");
		for (size_t i = 0; i < p->nsizes; i++)
			lego_sbuf_printf(b, "%s%s", i ? ", " : "", p->sizes[i]);
		lego_sbuf_puts(b, "\n");
	}
	/* Per dim: the work-items along it (powers of two, so that a
	 * reduction's tree halves exactly), the private tile, the order. */
	for (size_t k = 0; k < p->ndims; k++) {
		const char *n = p->dims[k].name;
		put_values(b, "L", n, lvals, nl);
		put_values(b, "P", n, pvals, 5);
		put_values(b, "O", n, ovals, 3);
		if ((int)k == vd)
			put_values(b, "W", n, wvals, 5);
		if (mdh_dim_is_red(&p->dims[k])) {
			put_values(b, "G", n, gvals, 7);
			put_values(b, "R", n, ovals, 3);
		}
	}
	/* The constraints of the system model: no tile larger than its
	 * dimension, a work-group within the device's limit, the private
	 * accumulators of a work-item in registers (at most 64), and the
	 * local buffer of a reduction's tree in 32 KiB. */
	mdh_put_each(b, p, MDH_PAR, "assume L_@ * P_@ <= $\n", "", "");
	mdh_put_each(b, p, MDH_RED, "assume G_@ * L_@ * P_@ <= $\n", "", "");
	lego_sbuf_puts(b, "assume ");
	mdh_put_each(b, p, MDH_ALL, "L_@", " * ", "1");
	lego_sbuf_printf(b, " <= %lld\n", (long long)maxwg);
	/* (at most 64 vectors with W_v, vector.c) */
	lego_sbuf_puts(b, "assume ");
	mdh_put_each(b, p, MDH_PAR, "P_@", " * ", "1");
	lego_sbuf_puts(b, " <= 64");
	if (vd >= 0)
		lego_sbuf_printf(b, " * W_%s", p->dims[vd].name);
	lego_sbuf_puts(b, "\n");
	size_t nout = 0;
	for (size_t i = 0; i < p->nbufs; i++)
		nout += p->bufs[i].is_out;
	if (mdh_has_red(p)) {
		lego_sbuf_puts(b, "assume ");
		mdh_put_each(b, p, MDH_RED, "L_@", " * ", "1");
		lego_sbuf_puts(b, " == 1 || ");
		mdh_put_each(b, p, MDH_ALL, "L_@", " * ", "1");
		lego_sbuf_puts(b, " * ");
		mdh_put_each(b, p, MDH_PAR, "P_@", " * ", "1");
		lego_sbuf_printf(b, " * %zu <= 8192\n", nout);
	}
	/* The tiles of each dim in the three orders (the third: runs of 4
	 * adjacent elements, 4 L apart), and their indices. */
	mdh_put_each(b, p, MDH_ALL,
		 "layout mdh_T1_@ = OrderBy(Row($)).TileBy([cdiv($, P_@ * L_@)]"
		 ", [P_@], [L_@])\n"
		 "layout mdh_T2_@ = OrderBy(Row($)).TileBy([cdiv($, L_@ * P_@)]"
		 ", [L_@], [P_@])\n"
		 /* max(P, 4) / 4 * min(P, 4) is P for every P of the space,
		  * written so that the chain's sizes are exact as symbols */
		 "layout mdh_T3_@ = OrderBy(Row($)).TileBy([cdiv($, L_@ * "
		 "(max(4, P_@) / 4) * min(4, P_@))], [max(4, P_@) / 4], [L_@], "
		 "[min(4, P_@)])\n"
		 "assume O_@ < 3 || P_@ % 4 == 0\n"
		 "index mdh_p_@ in [0, P_@)\n"
		 "index mdh_l_@ in [0, L_@)\n"
		 "index mdh_c_@ in [0, P_@ * L_@)\n"
		 "index mdh_ce_@ in [0, P_@ * L_@)\n", "", "");
	put_placements(b, p);
	put_out_placements(b, p, vd);
	put_private(b, p, vd);
	put_store_spec(b, p, vd, sp);
	/* B_sm (CUDA): the blocks an SM that the kernel's registers must
	 * allow (__launch_bounds__): 2 caps them at half the SM's file
	 * over the block's threads, so that a second block fits. */
	if (sp->occupancy)
		put_values(b, "B", "sm", bvals, 4);
	if (mdh_warp_able(p, sp))
		mdh_put_warp_spec(b, p);
	if (vd >= 0)
		mdh_put_vec_spec(b, p, vd);
	mdh_put_each(b, p, MDH_PAR,
		 "index mdh_g_@ in [0, cdiv($, P_@ * L_@))\n", "", "");
	mdh_put_each(b, p, MDH_RED,
		 "index mdh_g_@ in [0, G_@)\n"
		 "index mdh_t_@ in [0, cdiv(cdiv($, P_@ * L_@), G_@))\n"
		 "index mdh_n_@ in [0, cdiv(cdiv($, P_@ * L_@), G_@))\n"
		 "index mdh_z_@ in [0, P_@)\n", "", "");
	/* The work-groups and the work-items of a group: a 1-D range
	 * split into the dims by these layouts. */
	lego_sbuf_puts(b, "layout mdh_GRID = OrderBy(Row(");
	put_groups(b, p, ", ");
	lego_sbuf_puts(b, "))\n");
	if (mdh_grid_orders(p, sp->vectors)) {
		/* B_ord: the same groups with the first dim's fastest */
		put_values(b, "B", "ord", ovals, 2);
		lego_sbuf_puts(b, "layout mdh_GRIDC = OrderBy(Col(");
		put_groups(b, p, ", ");
		lego_sbuf_puts(b, "))\n");
	}
	lego_sbuf_puts(b, "layout mdh_LOC = OrderBy(Row(");
	mdh_put_each(b, p, MDH_ALL, "L_@", ", ", "1");
	lego_sbuf_puts(b, "))\nindex mdh_grp in [0, ");
	put_groups(b, p, " * ");
	lego_sbuf_puts(b, ")\nindex mdh_lid in [0, ");
	mdh_put_each(b, p, MDH_ALL, "L_@", " * ", "1");
	/* A work-item's accumulators: one per point of its ++ tile. */
	lego_sbuf_puts(b, ")\nlayout mdh_ACC = OrderBy(Row(");
	mdh_put_each(b, p, MDH_PAR, "P_@", ", ", "1");
	lego_sbuf_puts(b, "))\nindex mdh_a in [0, ");
	mdh_put_each(b, p, MDH_PAR, "P_@", " * ", "1");
	lego_sbuf_puts(b, ")\n");
	if (mdh_has_red(p)) {
		/* The tree in local memory: the work-items of a group that
		 * share their ++ coordinates, by their reduction rank r. */
		lego_sbuf_puts(b, "layout mdh_RED = OrderBy(Row(");
		mdh_put_each(b, p, MDH_RED, "L_@", ", ", "1");
		lego_sbuf_puts(b, "))\nindex mdh_r in [0, ");
		mdh_put_each(b, p, MDH_RED, "L_@", " * ", "1");
		lego_sbuf_puts(b, ")\nindex mdh_s in [0, ");
		mdh_put_each(b, p, MDH_RED, "L_@", " * ", "1");
		lego_sbuf_puts(b, ")\nlayout mdh_SH = OrderBy(Row(");
		mdh_put_each(b, p, MDH_PAR, "L_@, ", "", "");
		mdh_put_each(b, p, MDH_RED, "L_@", " * ", "1");
		lego_sbuf_puts(b, ", ");
		mdh_put_each(b, p, MDH_PAR, "P_@", " * ", "1");
		/* The grid level: each group's partial results in scratch,
		 * combined by the second kernel over the ++ index space. */
		lego_sbuf_puts(b, "))\nlayout mdh_GR = OrderBy(Row(");
		mdh_put_each(b, p, MDH_RED, "G_@", ", ", "1");
		lego_sbuf_puts(b, "))\nindex mdh_q in [0, ");
		mdh_put_each(b, p, MDH_RED, "G_@", " * ", "1");
		lego_sbuf_puts(b, ")\nlayout mdh_PAR = OrderBy(Row(");
		mdh_put_each(b, p, MDH_PAR, "$", ", ", "1");
		lego_sbuf_puts(b, "))\nindex mdh_e in [0, ");
		mdh_put_each(b, p, MDH_PAR, "$", " * ", "1");
		lego_sbuf_puts(b, ")\nlayout mdh_SCR = OrderBy(Row(");
		mdh_put_each(b, p, MDH_RED, "G_@", " * ", "1");
		lego_sbuf_puts(b, ", ");
		mdh_put_each(b, p, MDH_PAR, "$", ", ", "1");
		lego_sbuf_puts(b, "))\n");
	}
	/* The buffers, row-major over the extents their index functions
	 * reach. */
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		lego_sbuf_printf(b, "layout mdh_B_%s = OrderBy(Row(", m->name);
		for (size_t e = 0; e < m->rank; e++) {
			if (e)
				lego_sbuf_puts(b, ", ");
			mdh_put_extent(b, p, m, e);
		}
		lego_sbuf_puts(b, m->rank ? "))\n" : "1))\n");
	}
	lego_sbuf_puts(b, "// {% end %}\n");
}
