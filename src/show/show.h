/* show.h - the 2-D picture of a layout, shared by the renderers
 * (internal).  docs/analysis.md defines the view and the tiles. */
#ifndef LEGO_SHOW_H
#define LEGO_SHOW_H

#include "core/core.h"

enum { SHOW_PALETTE = 12, SHOW_LABEL = 48, SHOW_MAX_CELLS = 1 << 16,
       SHOW_MAX_OUTER = 16,
       SHOW_MAX_COLS = 32 };  /* wider automatic views are sliced */

/* A grid of rows x cols cells, row-major. */
typedef struct show_grid {
	int64_t rows, cols;
	int64_t *num;       /* the number a cell shows; -1: padding */
	int64_t *num2;      /* inverse view: num is the row, num2 the column
			       of the logical cell held; NULL otherwise */
	int64_t *tile;      /* compact tile ids, first appearance order */
	int64_t ntiles;     /* 1 and tile all 0 when there are no tiles */
	int *colour;        /* palette index of each tile */
	int width;          /* widest label, in characters */
	/* A view of more than 2 dims: the rows in nslices runs of
	 * rows / nslices, one per value of the outer view dims. */
	int64_t nslices;
	size_t nouter;
	int64_t outer[SHOW_MAX_OUTER];
} show_grid;

/* view.c: the logical view of l with its tiles, or its inverse. */
int show_grid_build(lego_ctx *ctx, const lego_layout *l,
		    const lego_show_opts *opts, show_grid *g);

/* grid.c */
/* Renumbers tile keys (each < nkeys) by first appearance; colours them. */
int show_grid_finish(lego_ctx *ctx, show_grid *g, int64_t nkeys);
/* The text of cell k into buf (SHOW_LABEL bytes); returns its length. */
int show_grid_label(const show_grid *g, int64_t k, char *buf);
/* 1 when cells a and b (both in the grid) are in different tiles. */
int show_grid_split(const show_grid *g, int64_t a, int64_t b);
/* The slices to draw per opts->slice: [*first, *end); LEGO_ERR for a
 * slice the view does not have. */
int show_grid_slices(lego_ctx *ctx, const show_grid *g,
		     const lego_show_opts *o, int64_t *first, int64_t *end);
/* What every picture begins with: *o the options (opts or the defaults),
 * g the grid of l and [*first, *end) the slices to draw; LEGO_OK, or
 * LEGO_ERR with a message (ctx or l NULL included). */
int show_grid_open(lego_ctx *ctx, const lego_layout *l,
		   const lego_show_opts *opts, const lego_show_opts **o,
		   show_grid *g, int64_t *first, int64_t *end);
/* Slice s as a grid of its own (sharing g's arrays), and its caption
 * "TITLE[i, j, :, :]" into buf (SHOW_LABEL * 2 bytes). */
show_grid show_grid_slice(const show_grid *g, int64_t s, const char *title,
			  char *buf);

#endif
