/* svg.c - a layout picture as an SVG document: cells coloured by tile,
 * thick tile borders, row and column numbers in the margins. */
#include <stdio.h>
#include <string.h>

#include "expr/sbuf.h"
#include "show/show.h"

/* ColorBrewer Set3: light, distinct, readable under dark text. */
static const char *const palette[SHOW_PALETTE] = {
	"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
	"#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
static const char *const untiled_fill = "#e8eef6";

typedef struct svg_geom {
	int cell_w, cell_h, left, top, font;
	long long width, height;  /* the whole picture */
} svg_geom;

static svg_geom geometry(const show_grid *g, const char *title)
{
	svg_geom s;
	s.font = 14;
	s.cell_h = 34;
	s.cell_w = 14 + g->width * 9 > s.cell_h ? 14 + g->width * 9
						 : s.cell_h;
	s.left = 40;
	s.top = 34 + (title ? 30 : 0);
	s.width = s.left + g->cols * s.cell_w + 16;
	s.height = s.top + g->rows * s.cell_h + 16;
	/* A bold 16px monospace character is under 10px wide. */
	long long title_w = title ? 24 + 10 * (long long)strlen(title) : 0;
	if (title_w > s.width)
		s.width = title_w;
	return s;
}

static void header(lego_sbuf *b, const svg_geom *s,
		   const char *title)
{
	long long w = s->width, h = s->height;
	lego_sbuf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			    "viewBox=\"0 0 %lld %lld\" width=\"%lld\" "
			    "height=\"%lld\" font-family=\"DejaVu Sans Mono, "
			    "Menlo, Consolas, monospace\">\n", w, h, w, h);
	lego_sbuf_printf(b, "<rect width=\"%lld\" height=\"%lld\" "
			    "fill=\"#ffffff\"/>\n", w, h);
	if (!title)
		return;
	lego_sbuf_puts(b, "<text x=\"12\" y=\"22\" font-size=\"16\" "
			  "font-weight=\"bold\" fill=\"#222222\">");
	for (const char *p = title; *p; p++) {  /* XML-escape */
		char c[2] = {*p, 0};
		lego_sbuf_puts(b, *p == '<' ? "&lt;" : *p == '>' ? "&gt;"
				  : *p == '&' ? "&amp;" : c);
	}
	lego_sbuf_puts(b, "</text>\n");
}

/* Baseline of text centred vertically on y (0.35 em below the middle). */
static void text_at(lego_sbuf *b, long long x, long long y, int size,
		    const char *fill, const char *s)
{
	lego_sbuf_printf(b, "<text x=\"%lld\" y=\"%lld\" font-size=\"%d\" "
			    "text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
			 x, y + size * 35 / 100, size, fill, s);
}

static void axis_numbers(lego_sbuf *b, const show_grid *g,
			 const svg_geom *s)
{
	char n[SHOW_LABEL];
	for (int64_t c = 0; g->rows > 0 && c < g->cols; c++) {
		snprintf(n, sizeof n, "%lld", (long long)c);
		text_at(b, s->left + c * s->cell_w + s->cell_w / 2,
			s->top - 12, 11, "#8a8f98", n);
	}
	for (int64_t r = 0; r < g->rows; r++) {
		snprintf(n, sizeof n, "%lld", (long long)r);
		text_at(b, s->left / 2, s->top + r * s->cell_h + s->cell_h / 2,
			11, "#8a8f98", n);
	}
}

static void cells(lego_sbuf *b, const show_grid *g, const svg_geom *s)
{
	char label[SHOW_LABEL];
	for (int64_t k = 0; k < g->rows * g->cols; k++) {
		long long x = s->left + (k % g->cols) * s->cell_w;
		long long y = s->top + (k / g->cols) * s->cell_h;
		const char *fill = g->ntiles > 1 ? palette[g->colour[g->tile[k]]]
						 : untiled_fill;
		lego_sbuf_printf(b, "<rect x=\"%lld\" y=\"%lld\" width=\"%d\" "
				    "height=\"%d\" fill=\"%s\" "
				    "stroke=\"#ffffff\" stroke-width=\"1\"/>\n",
				 x, y, s->cell_w, s->cell_h, fill);
		show_grid_label(g, k, label);
		text_at(b, x + s->cell_w / 2, y + s->cell_h / 2, s->font,
			"#1b1b1b", label);
	}
}

/* Tile borders as one path: segments between cells of different tiles,
 * and the outline. */
static void borders(lego_sbuf *b, const show_grid *g, const svg_geom *s)
{
	lego_sbuf_puts(b, "<path fill=\"none\" stroke=\"#262626\" "
			  "stroke-width=\"2.5\" stroke-linecap=\"square\" d=\"");
	for (int64_t r = 0; r <= g->rows; r++)
		for (int64_t c = 0; c < g->cols; c++)
			if (r == 0 || r == g->rows ||
			    show_grid_split(g, (r - 1) * g->cols + c,
					    r * g->cols + c))
				lego_sbuf_printf(b, "M%lld %lldh%d",
						 (long long)(s->left + c * s->cell_w),
						 (long long)(s->top + r * s->cell_h),
						 s->cell_w);
	for (int64_t r = 0; r < g->rows; r++)
		for (int64_t c = 0; c <= g->cols; c++)
			if (c == 0 || c == g->cols ||
			    show_grid_split(g, r * g->cols + c - 1,
					    r * g->cols + c))
				lego_sbuf_printf(b, "M%lld %lldv%d",
						 (long long)(s->left + c * s->cell_w),
						 (long long)(s->top + r * s->cell_h),
						 s->cell_h);
	lego_sbuf_puts(b, "\"/>\n");
}

/* One grid as an SVG element (nested <svg> elements place slices). */
static void picture(lego_sbuf *b, const show_grid *g, const char *title)
{
	svg_geom s = geometry(g, title);
	header(b, &s, title);
	axis_numbers(b, g, &s);
	cells(b, g, &s);
	borders(b, g, &s);
	lego_sbuf_puts(b, "</svg>\n");
}

/* Slices [first, end), each a picture captioned with its coordinates,
 * about as many across as down, in one document. */
static void slices(lego_sbuf *b, const show_grid *g, const char *title,
		   int64_t first, int64_t end)
{
	char caption[SHOW_LABEL * 2];
	int64_t n = end - first, across = 1;
	while (across * across < n)
		across++;
	show_grid one = show_grid_slice(g, first, title, caption);
	svg_geom s = geometry(&one, caption);
	long long w = s.width, h = s.height;
	long long width = w * (n < across ? n : across);
	long long height = h * ((n + across - 1) / across);
	lego_sbuf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			    "viewBox=\"0 0 %lld %lld\" width=\"%lld\" "
			    "height=\"%lld\">\n", width, height, width, height);
	for (int64_t k = 0; k < n; k++) {
		one = show_grid_slice(g, first + k, title, caption);
		lego_sbuf_printf(b, "<g transform=\"translate(%lld %lld)\">\n",
				 (long long)(k % across) * w,
				 (long long)(k / across) * h);
		picture(b, &one, caption);
		lego_sbuf_puts(b, "</g>\n");
	}
	lego_sbuf_puts(b, "</svg>\n");
}

char *lego_show_svg(lego_ctx *ctx, const lego_layout *l,
		    const lego_show_opts *opts)
{
	const lego_show_opts *o;
	show_grid g;
	int64_t first, end;
	if (show_grid_open(ctx, l, opts, &o, &g, &first, &end) != LEGO_OK)
		return NULL;
	lego_sbuf b = {0};
	if (g.nslices == 1)
		picture(&b, &g, o->title);
	else
		slices(&b, &g, o->title, first, end);
	char *str = lego_sbuf_take(&b);
	return str ? str : lego_fail_null(ctx, "out of memory");
}
