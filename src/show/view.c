/* view.c - the 2-D logical view of a layout and its tiles.
 *
 * Logical dims in q >= 2 groups of d dims each (TileBy, or a GroupBy with
 * several equal groups) are read as a q-level tiling of a d-dim space: the
 * view shows that untiled space and a tile is one value of the outer
 * groups.  Otherwise the view is the logical space itself.  The view's dims
 * are then split: leading ones make the rows, trailing ones the columns. */
#include <string.h>

#include "layout/layout.h"
#include "show/show.h"

enum { MAX_DIMS = 64 };

typedef struct view_shape {
	size_t rank;               /* logical */
	int64_t dims[MAX_DIMS];
	size_t levels, d;          /* tiled: q groups of d dims; else 1, rank */
	int64_t untiled[MAX_DIMS]; /* d dims of the space shown */
	size_t row_dims;           /* leading untiled dims forming rows */
	size_t nouter;             /* leading untiled dims giving slices */
	int64_t last_group;        /* size of the innermost group (tiles) */
	int64_t size;
} view_shape;

static int eval_dims(lego_ctx *ctx, const lego_layout *l,
		     const lego_env *env, view_shape *v)
{
	v->rank = lego_layout_rank(l);
	if (v->rank == 0 || v->rank > MAX_DIMS)
		return lego_fail(ctx, LEGO_ERR, "show: rank %zu is not drawable",
				 v->rank);
	v->size = 1;
	for (size_t k = 0; k < v->rank; k++) {
		int rc = lego_expr_eval(ctx, lego_layout_dim(l, k), env,
					&v->dims[k]);
		if (rc != LEGO_OK)
			return rc;
		v->size *= v->dims[k];
		if (v->dims[k] <= 0 || v->size > SHOW_MAX_CELLS)
			return lego_fail(ctx, LEGO_ERR, "show: the layout has "
					 "more than %d elements; too large to "
					 "draw", SHOW_MAX_CELLS);
	}
	return LEGO_OK;
}

/* Several groups of one length: a tiling. */
static void find_levels(const lego_layout *l, view_shape *v)
{
	v->levels = 1;
	v->d = v->rank;
	v->last_group = 0;
	if (l->kind != LAYOUT_GROUPBY || l->ngroups < 2)
		return;
	size_t last = l->group_len[l->ngroups - 1];
	v->last_group = 1;
	for (size_t k = v->rank - last; k < v->rank; k++)
		v->last_group *= v->dims[k];
	for (size_t g = 0; g < l->ngroups; g++)
		if (l->group_len[g] != last)
			return;
	v->levels = l->ngroups;
	v->d = last;
}

/* Rows: the most leading dims whose product stays <= the columns'. */
static size_t auto_row_dims(const view_shape *v)
{
	if (v->d == 1)
		return 0;
	size_t best = 1;
	int64_t rows = 1;
	for (size_t k = 0; k + 1 < v->d; k++) {
		rows *= v->untiled[k];
		if (rows * rows <= v->size)
			best = k + 1;
	}
	return best;
}

static int64_t grid_rows(const view_shape *v)
{
	int64_t rows = 1;
	for (size_t k = 0; k < v->row_dims; k++)
		rows *= v->untiled[k];
	return rows;
}

static int shape_view(lego_ctx *ctx, const lego_layout *l,
		      const lego_show_opts *o, view_shape *v)
{
	int rc = eval_dims(ctx, l, o->env, v);
	if (rc != LEGO_OK)
		return rc;
	find_levels(l, v);
	for (size_t k = 0; k < v->d; k++) {
		v->untiled[k] = 1;
		for (size_t h = 0; h < v->levels; h++)
			v->untiled[k] *= v->dims[h * v->d + k];
	}
	if (o->row_dims < 0 || (size_t)o->row_dims >= v->d + (v->d == 1))
		return lego_fail(ctx, LEGO_ERR, "show: %d row dims; the view "
				 "has %zu dims", o->row_dims, v->d);
	v->row_dims = o->row_dims ? (size_t)o->row_dims : auto_row_dims(v);
	/* More than two dims, asked for or too wide for one grid: 2-D slices
	 * of the last two dims, one per value of the others (Row(16,16,16)
	 * is otherwise a grid 256 cells wide). */
	v->nouter = 0;
	if (!o->row_dims && v->d > 2 && v->d - 2 <= SHOW_MAX_OUTER &&
	    (o->slice || v->size / grid_rows(v) > SHOW_MAX_COLS)) {
		v->nouter = v->d - 2;
		v->row_dims = v->d - 1;
	}
	return LEGO_OK;
}

/* The view cell of the logical index with row-major number `flat`. */
static int64_t view_cell(const view_shape *v, int64_t flat)
{
	int64_t idx[MAX_DIMS], x[MAX_DIMS];
	for (size_t k = v->rank; k-- > 0;) {
		idx[k] = flat % v->dims[k];
		flat /= v->dims[k];
	}
	for (size_t k = 0; k < v->d; k++) {
		x[k] = 0;
		for (size_t h = 0; h < v->levels; h++)
			x[k] = x[k] * v->dims[h * v->d + k] +
			       idx[h * v->d + k];
	}
	int64_t cell = 0;  /* row-major over the untiled dims */
	for (size_t k = 0; k < v->d; k++)
		cell = cell * v->untiled[k] + x[k];
	return cell;
}

/* Physical tile size from the outermost reordering: the inner levels of
 * a multi-level OrderBy (0: none). */
static int64_t auto_physical_tile(lego_ctx *ctx, const lego_layout *l,
				  const lego_env *env)
{
	const lego_layout *o = l->kind == LAYOUT_GROUPBY ? l->chain[0] : l;
	if (o->kind != LAYOUT_ORDERBY || o->nlevels < 2)
		return 0;
	int64_t inner = 1, dim;
	for (size_t k = 1; k < o->nlevels; k++)
		for (size_t j = 0; j < o->levels[k]->rank; j++) {
			if (lego_expr_eval(ctx, o->levels[k]->dims[j], env,
					   &dim) != LEGO_OK)
				return 0;
			inner *= dim;
		}
	return inner;
}

/* Tile key of the logical index `flat` with physical index `phys`. */
static int64_t tile_key(const view_shape *v, int64_t phys_tile,
			int64_t flat, int64_t phys)
{
	if (phys_tile > 0)
		return phys / phys_tile;
	if (phys_tile == 0 && v->last_group)
		return flat / v->last_group;
	return 0;
}

static int64_t tile_mode(lego_ctx *ctx, const lego_layout *l,
			 const lego_show_opts *o, const view_shape *v)
{
	if (o->tile != 0 || v->last_group)
		return o->tile;
	int64_t t = auto_physical_tile(ctx, l, o->env);
	return t > 0 ? t : -1;
}

static int alloc_grid(lego_ctx *ctx, const view_shape *v, int inverse,
		      show_grid *g)
{
	int64_t rows = grid_rows(v);
	memset(g, 0, sizeof *g);
	g->rows = rows;
	g->cols = v->size / rows;
	g->nslices = 1;
	g->nouter = v->nouter;
	for (size_t k = 0; k < v->nouter; k++) {
		g->outer[k] = v->untiled[k];
		g->nslices *= v->untiled[k];
	}
	size_t bytes = (size_t)v->size * sizeof(int64_t);
	g->num = lego_xalloc(ctx, bytes);
	g->tile = lego_xalloc(ctx, bytes);
	g->num2 = inverse ? lego_xalloc(ctx, bytes) : NULL;
	return g->num && g->tile && (g->num2 || !inverse) ? LEGO_OK
							  : LEGO_ENOMEM;
}

/* Every physical index in range and hit once, as the grid needs. */
static int check_phys(lego_ctx *ctx, int64_t phys, int64_t size,
		      unsigned char *seen)
{
	if (phys >= 0 && phys < size && !seen[phys]++)
		return LEGO_OK;
	return lego_fail(ctx, LEGO_EBIJECT, "show: physical index %lld is "
			 "%s; the layout is not a bijection (see lego check)",
			 (long long)phys, phys < 0 || phys >= size
						  ? "out of range" : "hit twice");
}

/* Normal view: the cell shows its physical index.  Inverse view: the
 * physical position shows the view cell (row, column) it holds. */
static void place(show_grid *g, int64_t cell, int64_t phys, int64_t key)
{
	int64_t at = g->num2 ? phys : cell;
	g->num[at] = g->num2 ? cell / g->cols : phys;
	if (g->num2)
		g->num2[at] = cell % g->cols;
	g->tile[at] = key;
}

int show_grid_build(lego_ctx *ctx, const lego_layout *l,
		    const lego_show_opts *o, show_grid *g)
{
	view_shape v;
	int padded = lego_layout_is_padded(l);
	if (padded && o->inverse)
		return lego_fail(ctx, LEGO_ERR, "show: no inverse view of a "
				 "padded layout (its physical side is the real "
				 "tensor, not the padded grid)");
	int rc = shape_view(ctx, l, o, &v);
	if (rc != LEGO_OK || (rc = alloc_grid(ctx, &v, o->inverse, g)))
		return rc;
	size_t n;
	int64_t *table = lego_xalloc(ctx, (size_t)v.size * sizeof *table);
	unsigned char *seen = lego_xalloc(ctx, (size_t)v.size);
	if (!table || !seen)
		return LEGO_ENOMEM;
	rc = lego_layout_table(ctx, l, o->env, table, (size_t)v.size, &n);
	if (rc != LEGO_OK)
		return rc;
	int64_t mode = tile_mode(ctx, l, o, &v);
	for (int64_t f = 0; f < v.size; f++) {
		if (padded && table[f] < 0) {
			/* Its logical tile; with physical tiles, a tile of
			 * its own (keys of real cells are < the real size,
			 * itself < v.size). */
			place(g, view_cell(&v, f), -1,
			      mode > 0 ? v.size - 1 : tile_key(&v, mode, f, 0));
			continue;
		}
		if ((rc = check_phys(ctx, table[f], v.size, seen)) != LEGO_OK)
			return rc;
		place(g, view_cell(&v, f), table[f],
		      tile_key(&v, mode, f, table[f]));
	}
	return show_grid_finish(ctx, g, v.size);
}
