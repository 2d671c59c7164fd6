/* space.c - the candidate layouts: their offsets (numeric, for the cost)
 * and their .lego text (for everything else). */
#include <stdio.h>
#include <stdlib.h>

#include "expr/sbuf.h"
#include "synth/space.h"

/* A line of line + pad elements; lines of the major dim. */
static void line_dims(const synth_tile *t, const synth_cand *c,
		      int64_t *line, int64_t *nlines)
{
	*line = (c->col ? t->rows : t->cols) + c->pad;
	*nlines = c->col ? t->cols : t->rows;
}

static int64_t pow2_floor(int64_t n)
{
	int64_t p = 1;
	while (p * 2 <= n)
		p *= 2;
	return p;
}

int64_t synth_cand_size(const synth_tile *t, const synth_cand *c)
{
	int64_t line, nlines;
	line_dims(t, c, &line, &nlines);
	return line * nlines;
}

void synth_cand_offsets(const synth_tile *t, const synth_cand *c,
			int64_t *offset)
{
	int64_t line, nlines;
	line_dims(t, c, &line, &nlines);
	int64_t mask = ((INT64_C(1) << c->b) - 1) << c->m;
	int64_t n = c->kind == CAND_XOR || c->kind == CAND_ROT ? line / c->unit
							       : 0;
	int64_t p = n ? pow2_floor(n) : 0;
	/* Line by line: the swizzle's argument is the line's. */
	for (int64_t i = 0; i < nlines; i++) {
		int64_t x = n ? i / c->div * c->arg : 0;
		if (c->kind == CAND_XOR)
			x = i / c->div % c->arg;
		else if (c->kind == CAND_ROT)
			x %= n;
		int64_t *at = offset + (c->col ? i : i * t->cols);
		int64_t step = c->col ? t->cols : 1;
		for (int64_t m = 0; m < (c->col ? t->rows : t->cols); m++) {
			int64_t o = i * line + m, j = m / c->unit;
			if (c->kind == CAND_CUTE)
				o ^= (o >> c->s) & mask;
			else if (c->kind == CAND_XOR && j < p)
				o = i * line + (j ^ x) * c->unit +
				    m % c->unit;
			else if (c->kind == CAND_ROT)
				o = i * line + (j + x) % n * c->unit +
				    m % c->unit;
			at[m * step] = o;
		}
	}
}

/* The swizzle's driver, (i / div) * arg for ROT, i / div for XOR, in the
 * genp's names (i the line index), trivial factors left out. */
static void put_driver(char *buf, size_t size, const synth_cand *c,
		       const char *i)
{
	char d[64];
	if (c->div > 1)
		snprintf(d, sizeof d, "%s / %lld", i, (long long)c->div);
	else
		snprintf(d, sizeof d, "%s", i);
	if (c->kind == CAND_ROT && c->arg > 1)
		snprintf(buf, size, "%s * %lld", d, (long long)c->arg);
	else
		snprintf(buf, size, "%s", d);
}

/* Position m of line i moved by the candidate's swizzle (inverse: back),
 * written in the genp's names. */
static void put_chunk(lego_sbuf *b, const synth_tile *t, const synth_cand *c,
		      const char *i, const char *m, int inverse)
{
	int64_t line = (c->col ? t->rows : t->cols) + c->pad;
	int64_t n = line / c->unit, p = pow2_floor(n), u = c->unit;
	char drv[96];
	put_driver(drv, sizeof drv, c, i);
	if (c->kind == CAND_XOR) {
		/* (j ^ x) * unit + m % unit == m ^ (x * unit), unit being a
		 * power of two; an involution on each line. */
		if (p < n)
			lego_sbuf_printf(b, "select(%s < %lld, ", m,
					 (long long)(p * u));
		lego_sbuf_printf(b, "%s ^ (%s %% %lld", m, drv,
				 (long long)c->arg);
		lego_sbuf_printf(b, u > 1 ? " * %lld)" : ")", (long long)u);
		if (p < n)
			lego_sbuf_printf(b, ", %s)", m);
		return;
	}
	if (u > 1)
		lego_sbuf_printf(b, "(%s / %lld", m, (long long)u);
	else
		lego_sbuf_printf(b, "(%s", m);
	if (inverse)
		lego_sbuf_printf(b, " + %lld - %s %% %lld) %% %lld",
				 (long long)n, drv, (long long)n, (long long)n);
	else
		lego_sbuf_printf(b, " + %s) %% %lld", drv, (long long)n);
	if (u > 1)
		lego_sbuf_printf(b, " * %lld + %s %% %lld", (long long)u, m,
				 (long long)u);
}

char *synth_cand_lego(const synth_tile *t, const synth_cand *c,
		      const char *name)
{
	lego_sbuf b = {0};
	int64_t line, nlines;
	line_dims(t, c, &line, &nlines);
	int64_t R = c->col ? line : t->rows, C = c->col ? t->cols : line;
	switch (c->kind) {
	case CAND_PLAIN:
		lego_sbuf_printf(&b, "layout %s = %s(%lld, %lld)\n", name,
				 c->col ? "Col" : "Row", (long long)R,
				 (long long)C);
		break;
	case CAND_CUTE:
		lego_sbuf_printf(&b, "layout %s = GenP([%lld, %lld], "
				 "swizzle(%d, %d, %d))\n", name, (long long)R,
				 (long long)C, c->b, c->m, c->s);
		break;
	default:
		/* Line i = r (c when col) of `line` elements; m the position
		 * in it. */
		lego_sbuf_printf(&b, "genp %s_f[nr, nc](r, c) = ", name);
		lego_sbuf_printf(&b, c->col ? "c * nr + (" : "r * nc + (");
		put_chunk(&b, t, c, c->col ? "c" : "r", c->col ? "r" : "c",
			  0);
		lego_sbuf_printf(&b, ")\n    inverse (x) = (");
		if (c->col) {
			put_chunk(&b, t, c, "(x / nr)", "(x % nr)", 1);
			lego_sbuf_printf(&b, ", x / nr)\n");
		} else {
			lego_sbuf_printf(&b, "x / nc, ");
			put_chunk(&b, t, c, "(x / nc)", "(x % nc)", 1);
			lego_sbuf_printf(&b, ")\n");
		}
		lego_sbuf_printf(&b, "layout %s = GenP([%lld, %lld], %s_f)\n",
				 name, (long long)R, (long long)C, name);
		break;
	}
	return lego_sbuf_take(&b);
}

void synth_cand_describe(const synth_tile *t, const synth_cand *c,
			 char *buf, size_t size)
{
	static const char *const kinds[] = {"plain", "CuTe swizzle",
		"XOR swizzle", "rotation swizzle"};
	const char *order = c->col ? "column-major" : "row-major";
	if (c->kind == CAND_CUTE)
		snprintf(buf, size, "%s Swizzle<%d,%d,%d>", order, c->b, c->m,
			 c->s);
	else if (c->kind == CAND_PLAIN)
		snprintf(buf, size, "%s, lines padded by %lld element%s",
			 order, (long long)c->pad, c->pad == 1 ? "" : "s");
	else
		snprintf(buf, size, "%s %s of %lld-element chunks by line / "
			 "%lld %s %lld, lines padded by %lld element%s", order,
			 kinds[c->kind], (long long)c->unit, (long long)c->div,
			 c->kind == CAND_XOR ? "mod" : "times",
			 (long long)c->arg, (long long)c->pad,
			 c->pad == 1 ? "" : "s");
	(void)t;
}

/* The walk over the space: a family at a time, in order of cost. */
typedef struct walk {
	const synth_tile *t;
	int (*fn)(void *arg, const synth_cand *c);
	void *arg;
} walk;

static int walk_plain(const walk *w, int col)
{
	const synth_tile *t = w->t;
	for (int64_t pad = 0; pad * t->elem_bytes < 128; pad += t->unit) {
		synth_cand c = {CAND_PLAIN, col, pad, 1, 1, 0, 0, 0, 0};
		int rc = w->fn(w->arg, &c);
		if (rc)
			return rc;
	}
	return 0;
}

static int walk_cute(const walk *w)
{
	const synth_tile *t = w->t;
	for (int b = 1; b <= 5; b++)
		for (int m = 0; m <= 4; m++)
			for (int s = b; s <= 10; s++) {
				int64_t block = INT64_C(1) << (m + b);
				if ((t->rows * t->cols) % block)
					continue;
				synth_cand c = {CAND_CUTE, 0, 0, 1, 1, 0, b, m,
						s};
				int rc = w->fn(w->arg, &c);
				if (rc)
					return rc;
			}
	return 0;
}

/* XOR and rotations of chunks, with the line as it is and padded to a
 * power of two of chunks (when that costs under 128 bytes). */
static int walk_chunks(const walk *w, int col, cand_kind kind)
{
	const synth_tile *t = w->t;
	int64_t line0 = col ? t->rows : t->cols, nlines = col ? t->cols
							      : t->rows;
	for (int64_t unit = t->unit; unit * t->elem_bytes <= 64; unit *= 2)
		for (int padded = 0; padded < 2; padded++) {
			int64_t n = (line0 + unit - 1) / unit;
			int64_t pad = padded ? (pow2_floor(n) == n ? 0 :
				      2 * pow2_floor(n) * unit - line0)
					     : 0;
			if ((padded && (!pad || pad * t->elem_bytes > 128)) ||
			    (line0 + pad) % unit)
				continue;
			n = (line0 + pad) / unit;
			for (int64_t div = 1; div <= 8 && div < nlines;
			     div *= 2) {
				int64_t hi = kind == CAND_XOR ? pow2_floor(n)
							      : n - 1;
				for (int64_t a = kind == CAND_XOR ? 2 : 1;
				     a <= hi && a <= 64;
				     a = kind == CAND_XOR ? 2 * a : a + 1) {
					synth_cand c = {kind, col, pad, unit,
							div, a, 0, 0, 0};
					int rc = w->fn(w->arg, &c);
					if (rc)
						return rc;
				}
			}
		}
	return 0;
}

int synth_space_each(const synth_tile *t, int (*fn)(void *arg,
		     const synth_cand *c), void *arg)
{
	walk w = {t, fn, arg};
	unsigned f = t->families;
	int rc = 0;
	/* Column-major keeps no vector of a row: only for scalar access. */
	for (int col = 0; col <= (t->unit == 1) && !rc; col++) {
		if (f & LEGO_SYNTH_PAD)
			rc = walk_plain(&w, col);
		if (!rc && !col && (f & LEGO_SYNTH_CUTE))
			rc = walk_cute(&w);
		if (!rc && (f & LEGO_SYNTH_XOR))
			rc = walk_chunks(&w, col, CAND_XOR);
		if (!rc && (f & LEGO_SYNTH_ROT))
			rc = walk_chunks(&w, col, CAND_ROT);
	}
	return rc;
}
