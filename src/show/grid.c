/* grid.c - tile numbering, tile colours and cell labels of a picture. */
#include <stdio.h>
#include <string.h>

#include "show/show.h"

static int renumber_tiles(lego_ctx *ctx, show_grid *g, int64_t nkeys)
{
	int64_t *id = lego_xalloc(ctx, (size_t)nkeys * sizeof *id);
	if (!id)
		return LEGO_ENOMEM;
	memset(id, 0xff, (size_t)nkeys * sizeof *id);  /* all -1 */
	g->ntiles = 0;
	for (int64_t k = 0; k < g->rows * g->cols; k++) {
		int64_t key = g->tile[k];
		if (id[key] < 0)
			id[key] = g->ntiles++;
		g->tile[k] = id[key];
	}
	return LEGO_OK;
}

/* Palette colours used by already coloured tiles next to cell k. */
static unsigned neighbour_colours(const show_grid *g, int64_t k)
{
	static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
	int64_t r = k / g->cols, c = k % g->cols;
	unsigned used = 0;
	for (int n = 0; n < 4; n++) {
		int64_t nr = r + dr[n], nc = c + dc[n];
		if (nr < 0 || nr >= g->rows || nc < 0 || nc >= g->cols)
			continue;
		int64_t t = g->tile[nr * g->cols + nc];
		if (t < g->tile[k])
			used |= 1u << g->colour[t];
	}
	return used;
}

/* Tile t gets colour t mod SHOW_PALETTE unless a neighbour has it; then
 * the first colour no neighbour has (greedy, by tile number). */
static int colour_tiles(lego_ctx *ctx, show_grid *g)
{
	int64_t cells = g->rows * g->cols;
	int64_t *start = lego_xalloc(ctx, (size_t)(g->ntiles + 1) *
					       sizeof *start);
	int64_t *order = lego_xalloc(ctx, (size_t)cells * sizeof *order);
	g->colour = lego_xalloc(ctx, (size_t)g->ntiles * sizeof *g->colour);
	if (!start || !order || !g->colour)
		return LEGO_ENOMEM;
	for (int64_t k = 0; k < cells; k++)   /* cells grouped by tile */
		start[g->tile[k] + 1]++;
	for (int64_t t = 0; t < g->ntiles; t++)
		start[t + 1] += start[t];
	for (int64_t k = 0; k < cells; k++)
		order[start[g->tile[k]]++] = k;
	for (int64_t t = 0, k = 0; t < g->ntiles; t++) {
		unsigned used = 0;
		for (; k < cells && g->tile[order[k]] == t; k++)
			used |= neighbour_colours(g, order[k]);
		int pick = (int)(t % SHOW_PALETTE);
		for (int c = 0; (used >> pick & 1) && c < SHOW_PALETTE; c++)
			pick = c;
		g->colour[t] = pick;
	}
	return LEGO_OK;
}

int show_grid_label(const show_grid *g, int64_t k, char *buf)
{
	if (g->num2)
		return snprintf(buf, SHOW_LABEL, "%lld,%lld",
				(long long)g->num[k], (long long)g->num2[k]);
	if (g->num[k] < 0)
		return snprintf(buf, SHOW_LABEL, "."); /* padding */
	return snprintf(buf, SHOW_LABEL, "%lld", (long long)g->num[k]);
}

int show_grid_split(const show_grid *g, int64_t a, int64_t b)
{
	return g->tile[a] != g->tile[b];
}

int show_grid_finish(lego_ctx *ctx, show_grid *g, int64_t nkeys)
{
	int rc = renumber_tiles(ctx, g, nkeys);
	if (rc != LEGO_OK || (rc = colour_tiles(ctx, g)) != LEGO_OK)
		return rc;
	char buf[SHOW_LABEL];
	g->width = 1;
	for (int64_t k = 0; k < g->rows * g->cols; k++) {
		int n = show_grid_label(g, k, buf);
		if (n > g->width)
			g->width = n;
	}
	return LEGO_OK;
}

int show_grid_slices(lego_ctx *ctx, const show_grid *g,
		     const lego_show_opts *o, int64_t *first, int64_t *end)
{
	*first = 0;
	*end = g->nslices;
	if (o->slice == 0)
		return LEGO_OK;
	if (o->slice < 0 || o->slice > g->nslices)
		return lego_fail(ctx, LEGO_ERR, "show: slice %lld: the view has "
				 "%lld slice%s (0..%lld)",
				 (long long)o->slice - 1, (long long)g->nslices,
				 g->nslices == 1 ? "" : "s",
				 (long long)g->nslices - 1);
	*first = o->slice - 1;
	*end = o->slice;
	return LEGO_OK;
}

show_grid show_grid_slice(const show_grid *g, int64_t s, const char *title,
			  char *buf)
{
	show_grid one = *g;
	one.rows = g->rows / g->nslices;
	one.nslices = 1;
	int64_t off = s * one.rows * g->cols;
	one.num += off;
	one.tile += off;
	if (one.num2)
		one.num2 += off;
	int64_t coord[SHOW_MAX_OUTER];
	for (size_t k = g->nouter; k-- > 0;) {
		coord[k] = s % g->outer[k];
		s /= g->outer[k];
	}
	size_t n = (size_t)snprintf(buf, SHOW_LABEL * 2, "%.40s[",
				    title ? title : "");
	for (size_t k = 0; k < g->nouter && n < SHOW_LABEL * 2; k++)
		n += (size_t)snprintf(buf + n, SHOW_LABEL * 2 - n, "%lld, ",
				      (long long)coord[k]);
	if (n < SHOW_LABEL * 2)
		snprintf(buf + n, SHOW_LABEL * 2 - n, ":, :]");
	return one;
}

int show_grid_open(lego_ctx *ctx, const lego_layout *l,
		   const lego_show_opts *opts, const lego_show_opts **o,
		   show_grid *g, int64_t *first, int64_t *end)
{
	static const lego_show_opts defaults;
	*o = opts ? opts : &defaults;
	if (!ctx || !l)
		return ctx ? lego_fail(ctx, LEGO_ERR, "show: no layout")
			   : LEGO_ERR;
	if (show_grid_build(ctx, l, *o, g) != LEGO_OK ||
	    show_grid_slices(ctx, g, *o, first, end) != LEGO_OK)
		return LEGO_ERR;
	return LEGO_OK;
}
