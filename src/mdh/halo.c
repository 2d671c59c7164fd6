/* halo.c - the memory placement M_X = 5 of an input read through
 * windows (a stencil's several views, or a view whose index adds dims:
 * `x : (i, r) -> (i + r)`): the work-group copies the box of X's
 * elements its tile reads, its footprint in the buffer's own
 * coordinates, once a round into local memory, and every view reads the
 * copy.  Along buffer entry e, which adds the dims D_e (coefficient 1)
 * and a constant c_e that differs between views, the box starts at the
 * sum of the dims' tile origins plus the least c_e and spans
 * sum(P_d * L_d - 1) + max c_e - min c_e + 1 elements: the tile and its
 * halo, as the views' offsets give it.  The copy is the layout
 * mdh_H_X = OrderBy(Row(extents..)), read in its order (neighbouring
 * work-items read neighbours) and masked by the buffer's extents, so it
 * is exact at the domain's edges. */
#include <stdio.h>
#include <stdlib.h>

#include "mdh/lower.h"

/* The constant part of an index entry. */
static int64_t entry_const(const mdh_index *ix)
{
	int64_t c = 0;
	for (size_t t = 0; t < ix->nterms; t++)
		if (ix->terms[t].dim < 0)
			c += ix->terms[t].coef;
	return c;
}

/* Whether dim d appears in entry ix. */
static int entry_has(const mdh_index *ix, int d)
{
	for (size_t t = 0; t < ix->nterms; t++)
		if (ix->terms[t].dim == d)
			return 1;
	return 0;
}

/* Entry ix adds distinct dims with coefficient 1 to constants. */
static int entry_window(const mdh_index *ix, size_t *ndims)
{
	*ndims = 0;
	for (size_t t = 0; t < ix->nterms; t++) {
		const mdh_term *m = &ix->terms[t];
		if (m->nsyms || (m->dim >= 0 && m->coef != 1))
			return 0;
		for (size_t u = 0; m->dim >= 0 && u < t; u++)
			if (ix->terms[u].dim == m->dim)
				return 0;
		*ndims += m->dim >= 0;
	}
	return 1;
}

int mdh_buf_halo(const mdh_buf *m)
{
	if (m->is_out || !m->rank)
		return 0;
	/* with one view whose entries are single dims (and constants) the
	 * box is M_X = 2's */
	int window = m->nacc > 1;
	for (size_t e = 0; e < m->rank; e++) {
		const mdh_index *first = &m->acc[0].idx[e];
		size_t n0;
		if (!entry_window(first, &n0))
			return 0;
		window |= n0 > 1;
		for (size_t a = 1; a < m->nacc; a++) {
			const mdh_index *ix = &m->acc[a].idx[e];
			size_t n;
			if (!entry_window(ix, &n) || n != n0)
				return 0;
			for (size_t t = 0; t < ix->nterms; t++)
				if (ix->terms[t].dim >= 0 &&
				    !entry_has(first, ix->terms[t].dim))
					return 0;
		}
	}
	return window;
}

/* The least and the largest constant of entry e over the views. */
static void entry_span(const mdh_buf *m, size_t e, int64_t *lo, int64_t *hi)
{
	*lo = *hi = entry_const(&m->acc[0].idx[e]);
	for (size_t a = 1; a < m->nacc; a++) {
		int64_t c = entry_const(&m->acc[a].idx[e]);
		*lo = c < *lo ? c : *lo;
		*hi = c > *hi ? c : *hi;
	}
}

/* The box's extent along entry e. */
static void put_extent(lego_sbuf *b, const mdh_program *p,
		       const mdh_buf *m, size_t e)
{
	const mdh_index *ix = &m->acc[0].idx[e];
	int64_t lo, hi, n = 0;
	entry_span(m, e, &lo, &hi);
	for (size_t t = 0; t < ix->nterms; t++) {
		const char *d = ix->terms[t].dim >= 0 ?
			p->dims[ix->terms[t].dim].name : NULL;
		if (d)
			lego_sbuf_printf(b, "%sP_%s * L_%s", n++ ? " + " : "",
					 d, d);
	}
	if (n)
		lego_sbuf_printf(b, " + %lld", (long long)(hi - lo + 1 - n));
	else
		lego_sbuf_printf(b, "%lld", (long long)(hi - lo + 1));
}

void mdh_put_halo_size(lego_sbuf *b, const mdh_program *p, const mdh_buf *m)
{
	for (size_t e = 0; e < m->rank; e++) {
		lego_sbuf_puts(b, e ? " * (" : "(");
		put_extent(b, p, m, e);
		lego_sbuf_puts(b, ")");
	}
}

void mdh_put_halo_spec(lego_sbuf *b, const mdh_program *p, const mdh_buf *m)
{
	const char *x = m->name;
	lego_sbuf_printf(b, "layout mdh_H_%s = OrderBy(Row(", x);
	for (size_t e = 0; e < m->rank; e++) {
		lego_sbuf_puts(b, e ? ", " : "");
		put_extent(b, p, m, e);
	}
	lego_sbuf_printf(b, "))\nindex mdh_h_%s in [0, ", x);
	mdh_put_halo_size(b, p, m);
	lego_sbuf_puts(b, ")\n");
	for (size_t e = 0; e < m->rank; e++) {
		lego_sbuf_printf(b, "index mdh_h%zu_%s in [0, ", e, x);
		put_extent(b, p, m, e);
		lego_sbuf_puts(b, ")\n");
	}
}

void mdh_put_st_size(lego_sbuf *b, const mdh_buf *m)
{
	const char *x = m->name;
	if (!mdh_buf_stageable(m)) {
		lego_sbuf_printf(b, "mdh_H_%s.size", x);
		return;
	}
	if (mdh_buf_halo(m))
		lego_sbuf_printf(b, "select(M_%s == 5, mdh_H_%s.size, ", x, x);
	lego_sbuf_printf(b, "select(M_%s == 4, mdh_Q_%s.size, mdh_C_%s.size)",
			 x, x, x);
	if (mdh_buf_halo(m))
		lego_sbuf_puts(b, ")");
}

/* The box's origin along entry e: its dims' tile origins (a reduced
 * dim's tile is the round's) plus the least constant. */
static void put_origin(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		       size_t e)
{
	const mdh_index *ix = &m->acc[0].idx[e];
	int64_t lo, hi;
	entry_span(m, e, &lo, &hi);
	for (size_t t = 0; t < ix->nterms; t++) {
		const mdh_dim *d = ix->terms[t].dim >= 0 ?
			&p->dims[ix->terms[t].dim] : NULL;
		if (!d)
			continue;
		const char *n = d->name;
		if (mdh_dim_is_red(d))
			lego_sbuf_printf(b, "(mdh_g_%s + G_%s * mdh_t_%s) * P_%s "
					 "* L_%s + ", n, n, n, n, n);
		else
			lego_sbuf_printf(b, "mdh_g_%s * P_%s * L_%s + ", n, n, n);
	}
	lego_sbuf_printf(b, "%lld", (long long)lo);
}

void mdh_put_halo_copy(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		       const char *buf, int depth)
{
	const char *x = m->name;
	const char *tabs = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	lego_sbuf_printf(b, "%.*sif ({{ M_%s == 5 }}) {\n", depth, tabs, x);
	/* unrolled, so that a work-item's loads are in flight together;
	 * a trip count the same for every work-item (see put_copy) */
	lego_sbuf_printf(b, "#pragma unroll 4\n%.*sfor (int mdh_y = 0; mdh_y < "
			 "{{ mdh_H_%s.size }}; mdh_y += {{ mdh_LOC.size }}) {\n",
			 depth + 1, tabs, x);
	lego_sbuf_printf(b, "%.*sconst int mdh_h_%s = mdh_y + mdh_lid;\n",
			 depth + 2, tabs, x);
	lego_sbuf_printf(b, "%.*sif (mdh_h_%s < {{ mdh_H_%s.size }}) {\n",
			 depth + 2, tabs, x, x);
	for (size_t e = 0; e < m->rank; e++)
		lego_sbuf_printf(b, "%.*sconst int mdh_h%zu_%s = {{ mdh_H_%s.inv("
				 "mdh_h_%s)[%zu] }};\n", depth + 3, tabs, e, x,
				 x, x, e);
	lego_sbuf_printf(b, "%.*sif ({{ ", depth + 3, tabs);
	for (size_t e = 0; e < m->rank; e++) {
		lego_sbuf_puts(b, e ? " && " : "");
		put_origin(b, p, m, e);
		lego_sbuf_printf(b, " + mdh_h%zu_%s < ", e, x);
		mdh_put_extent(b, p, m, e);
	}
	lego_sbuf_printf(b, " }}) {\n%.*smdh_st_%s[{{ mdh_H_%s.size }} * %s + "
			 "mdh_h_%s] = mdh_in_%s[{{ mdh_B_%s[", depth + 4, tabs,
			 x, x, buf, x, x, x);
	for (size_t e = 0; e < m->rank; e++) {
		lego_sbuf_puts(b, e ? ", " : "");
		put_origin(b, p, m, e);
		lego_sbuf_printf(b, " + mdh_h%zu_%s", e, x);
	}
	lego_sbuf_puts(b, "] }}];\n");
	for (int d = depth + 3; d >= depth; d--)
		lego_sbuf_printf(b, "%.*s}\n", d, tabs);
}

void mdh_put_halo_read(lego_sbuf *b, const mdh_program *p, const mdh_buf *m,
		       size_t a)
{
	const char *x = m->name;
	char *coord[64] = {0};
	const char *text[64];
	for (size_t k = 0; k < p->ndims && k < 64; k++) {
		lego_sbuf s = {0};
		for (const char *c = MDH_BOX_COORD; *c; c++)
			if (*c == '@')
				lego_sbuf_puts(&s, p->dims[k].name);
			else
				lego_sbuf_printf(&s, "%c", *c);
		coord[k] = lego_sbuf_take(&s);
		text[k] = coord[k] ? coord[k] : "?";
	}
	lego_sbuf_printf(b, "mdh_st_%s[{{ ", x);
	mdh_put_st_size(b, m);
	lego_sbuf_printf(b, " }} * mdh_b + {{ mdh_H_%s[", x);
	for (size_t e = 0; e < m->rank; e++) {
		int64_t lo, hi;
		entry_span(m, e, &lo, &hi);
		lego_sbuf_puts(b, e ? ", " : "");
		mdh_index_print(b, &m->acc[a].idx[e], text);
		lego_sbuf_printf(b, " - %lld", (long long)lo);
	}
	lego_sbuf_puts(b, "] }}]");
	for (size_t k = 0; k < p->ndims && k < 64; k++)
		free(coord[k]);
}

int mdh_buf_private(const mdh_program *p, const mdh_buf *m)
{
	/* with reduced dims the tile's loads are a reduction step's, which
	 * the staged placements already serve */
	return !mdh_has_red(p) && mdh_buf_halo(m);
}

void mdh_put_private_slot(lego_sbuf *b, const mdh_program *p,
			  const mdh_buf *m, size_t a)
{
	lego_sbuf_printf(b, "mdh_w_%s[{{ mdh_ACC[", m->name);
	mdh_put_each(b, p, MDH_PAR, "mdh_p_@", ", ", "0");
	lego_sbuf_printf(b, "] }} * %zu + %zu]", m->nacc, a);
}
