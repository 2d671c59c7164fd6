/* text.c - a layout picture as a terminal grid; tile borders drawn with
 * box characters (or ASCII). */
#include <stdio.h>
#include <string.h>

#include "expr/sbuf.h"
#include "show/show.h"

enum { ARM_UP = 1, ARM_DOWN = 2, ARM_LEFT = 4, ARM_RIGHT = 8 };

typedef struct text_style {
	const char *vbar, *hbar;
	const char *junction[16];   /* by arms */
} text_style;

static const text_style box_style = {
	"\u2502", "\u2500",
	{" ", "\u2502", "\u2502", "\u2502", "\u2500", "\u2518", "\u2510",
	 "\u2524", "\u2500", "\u2514", "\u250c", "\u251c", "\u2500", "\u2534",
	 "\u252c", "\u253c"}};
static const text_style ascii_style = {
	"|", "-",
	{" ", "|", "|", "|", "-", "+", "+", "+", "-", "+", "+", "+", "-", "+",
	 "+", "+"}};

/* A border left of column c (0..cols) in row r. */
static int vborder(const show_grid *g, int64_t r, int64_t c)
{
	if (r < 0 || r >= g->rows)
		return 0;
	return c == 0 || c == g->cols ||
	       show_grid_split(g, r * g->cols + c - 1, r * g->cols + c);
}

/* A border above row r (0..rows) in column c. */
static int hborder(const show_grid *g, int64_t r, int64_t c)
{
	if (c < 0 || c >= g->cols)
		return 0;
	return r == 0 || r == g->rows ||
	       show_grid_split(g, (r - 1) * g->cols + c, r * g->cols + c);
}

/* xterm-256 approximations of the SVG palette (ColorBrewer Set3). */
static const int ansi_palette[SHOW_PALETTE] = {116, 229, 146, 210, 110, 215,
					       149, 218, 253, 139, 194, 227};

/* The ANSI colour of cell (r, c)'s tile, or -1 (no colours, no tiles). */
static int cell_colour(const show_grid *g, int64_t r, int64_t c, int color)
{
	if (!color || g->ntiles < 2 || r < 0 || r >= g->rows || c < 0 ||
	    c >= g->cols)
		return -1;
	return ansi_palette[g->colour[g->tile[r * g->cols + c]]];
}

/* text n times, on the background colour (-1: none). */
static void put_n(lego_sbuf *b, const char *text, int n, int colour)
{
	if (colour >= 0)
		lego_sbuf_printf(b, "\x1b[30;48;5;%dm", colour);
	for (int k = 0; k < n; k++)
		lego_sbuf_puts(b, text);
	if (colour >= 0)
		lego_sbuf_puts(b, "\x1b[0m");
}

/* The line above row r; blanks inside a tile take the tile's colour. */
static void border_line(lego_sbuf *b, const show_grid *g, int64_t r,
			const text_style *st, int color)
{
	for (int64_t c = 0; c <= g->cols; c++) {
		int arms = vborder(g, r - 1, c) * ARM_UP |
			   vborder(g, r, c) * ARM_DOWN |
			   hborder(g, r, c - 1) * ARM_LEFT |
			   hborder(g, r, c) * ARM_RIGHT;
		put_n(b, st->junction[arms], 1,
		      arms ? -1 : cell_colour(g, r, c, color));
		if (c == g->cols)
			break;
		if (hborder(g, r, c))
			put_n(b, st->hbar, g->width + 2, -1);
		else
			put_n(b, " ", g->width + 2, cell_colour(g, r, c, color));
	}
	lego_sbuf_puts(b, "\n");
}

static void cell_line(lego_sbuf *b, const show_grid *g, int64_t r,
		      const text_style *st, int color)
{
	char label[SHOW_LABEL], cell[SHOW_LABEL + 8];
	for (int64_t c = 0; c <= g->cols; c++) {
		if (vborder(g, r, c))
			put_n(b, st->vbar, 1, -1);
		else
			put_n(b, " ", 1, cell_colour(g, r, c, color));
		if (c == g->cols)
			break;
		show_grid_label(g, r * g->cols + c, label);
		snprintf(cell, sizeof cell, " %*s ", g->width, label);
		put_n(b, cell, 1, cell_colour(g, r, c, color));
	}
	lego_sbuf_puts(b, "\n");
}

char *lego_show_text(lego_ctx *ctx, const lego_layout *l,
		     const lego_show_opts *opts)
{
	const lego_show_opts *o;
	show_grid g;
	int64_t first, end;
	if (show_grid_open(ctx, l, opts, &o, &g, &first, &end) != LEGO_OK)
		return NULL;
	const text_style *st = o->ascii ? &ascii_style : &box_style;
	lego_sbuf b = {0};
	for (int64_t s = first; s < end; s++) {
		char caption[SHOW_LABEL * 2];
		show_grid one = g;
		if (g.nslices > 1) {
			one = show_grid_slice(&g, s, o->title, caption);
			lego_sbuf_printf(&b, "%s%s\n", s > first ? "\n" : "",
					 caption);
		}
		for (int64_t r = 0; r < one.rows; r++) {
			border_line(&b, &one, r, st, o->color);
			cell_line(&b, &one, r, st, o->color);
		}
		border_line(&b, &one, one.rows, st, o->color);
	}
	char *s = lego_sbuf_take(&b);
	return s ? s : lego_fail_null(ctx, "out of memory");
}
