/* vector.c - the OpenCL vector variant (W_v > 1): a work-item's ++ tile
 * along one dim v held in vectors of W_v elements, the form that a CPU
 * driver such as PoCL turns into SIMD arithmetic.  PoCL vectorises a
 * kernel across its work-items, which here read strided elements; the
 * register tile of one work-item, written as scalars, became gathers
 * and masked stores of accumulators kept in memory (bench/mdh/README.md).
 * With vectors each reduction step is an outer product: a scalar of
 * each input that does not use v broadcast, a vector of each input that
 * does, read contiguously (vload).
 *
 * Every index still comes from the layouts of the spec: the flat index
 * of the vector's first element, and per element of a vector that
 * crosses the dim's end its own mask and index (a scalar path into a
 * private array). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdh/lower.h"

/* Whether entry ix of an index function is dim d alone with coefficient
 * 1, plus terms without d (the entry in which consecutive values of d
 * are consecutive elements); -1 when ix does not use d, 0 otherwise. */
static int unit_entry(const mdh_index *ix, size_t d)
{
	int n = 0;
	for (size_t t = 0; t < ix->nterms; t++) {
		const mdh_term *m = &ix->terms[t];
		if (m->dim != (int)d)
			continue;
		if (m->coef != 1 || m->nsyms || n++)
			return 0;
	}
	return n ? 1 : -1;
}

int mdh_buf_contiguous(const mdh_buf *m, size_t d)
{
	if (!mdh_buf_uses(m, d))
		return 1;
	if (m->nacc != 1 || !m->rank)
		return 0;
	for (size_t e = 0; e + 1 < m->rank; e++)
		if (unit_entry(&m->acc[0].idx[e], d) != -1)
			return 0;
	return unit_entry(&m->acc[0].idx[m->rank - 1], d) == 1;
}

int mdh_cpu_vec_dim(const mdh_program *p)
{
	/* a user operator and a tuple are functions of scalars */
	if (p->red == MDH_USER)
		return -1;
	int v = -1;
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (mdh_tuple_find(p, m->type))
			return -1;
		if (!m->is_out)
			continue;
		if (!m->rank || m->acc[0].idx[m->rank - 1].nterms != 1)
			return -1;
		int d = m->acc[0].idx[m->rank - 1].terms[0].dim;
		if (d < 0 || (v >= 0 && d != v))
			return -1;
		v = d;
	}
	if (v < 0 || mdh_dim_is_red(&p->dims[v]))
		return -1;
	for (size_t i = 0; i < p->nbufs; i++)
		if (!mdh_buf_contiguous(&p->bufs[i], (size_t)v))
			return -1;
	return v;
}

int mdh_grid_orders(const mdh_program *p, int vectors)
{
	size_t n = 0;
	for (size_t k = 0; k < p->ndims; k++)
		n += !mdh_dim_is_red(&p->dims[k]);
	return vectors && n >= 2;
}

void mdh_put_vec_spec(lego_sbuf *b, const mdh_program *p, int v)
{
	/* W_v itself is among the dim's parameters (spec.c) */
	const char *n = p->dims[v].name;
	/* a work-item's elements along v adjacent (O = 2), in whole
	 * vectors; no tree and no grid level, whose combinations are of
	 * scalars */
	lego_sbuf_printf(b, "assume P_%s %% W_%s == 0\n"
			 "assume W_%s == 1 || O_%s == 2\n", n, n, n, n);
	/* a vector's element (open_element) */
	lego_sbuf_printf(b, "index mdh_z_%s in [0, P_%s)\n", n, n);
	/* the inputs read along v as vectors come from global memory */
	for (size_t i = 0; i < p->nbufs; i++)
		if (mdh_buf_stageable(&p->bufs[i]) &&
		    mdh_buf_uses(&p->bufs[i], (size_t)v))
			lego_sbuf_printf(b, "assume W_%s == 1 || M_%s == 1\n",
					 n, p->bufs[i].name);
	lego_sbuf_printf(b, "assume W_%s == 1 || ", n);
	mdh_put_each(b, p, MDH_RED, "L_@ * G_@", " * ", "1");
	lego_sbuf_puts(b, " == 1\n");
}

void mdh_put_vec_acc(lego_sbuf *b, const mdh_program *p, int v)
{
	const char *n = p->dims[v].name;
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (m->is_out)
			lego_sbuf_printf(b, "\t%s{{ W_%s }} mdh_acc_%s[{{ mdh_ACC.size "
					 "/ W_%s }}];\n\tfor (int mdh_a = 0; mdh_a < "
					 "{{ mdh_ACC.size / W_%s }}; mdh_a++) {\n"
					 "\t\tmdh_acc_%s[mdh_a] = (%s{{ W_%s }})(%s);\n"
					 "\t}\n", m->type, n, m->name, n, n,
					 m->name, m->type, n,
					 mdh_red_identity(p, m->type));
	}
}

/* Opens the loop over element mdh_e of the vector at mdh_p_v, whose
 * point is mdh_z_v.  The depth reached. */
static int open_element(lego_sbuf *b, const char *n, int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "for (int mdh_e = 0; mdh_e < {{ W_%s }}; mdh_e++) {\n",
			 n);
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "const int mdh_z_%s = mdh_p_%s + mdh_e;\n", n, n);
	return depth + 1;
}

/* s's text, written at mdh_p_v, at the point mdh_z_v instead, at depth
 * (its placeholders then give that point's mask and index; mdh_p_v
 * declared again would shadow the loop's); s emptied. */
static void put_at_z(lego_sbuf *b, lego_sbuf *s, const char *n, int depth)
{
	char *t = lego_sbuf_take(s);
	mdh_put_at_point(b, t ? t : "?", n, "mdh_z_", depth);
	free(t);
}

static void close_to(lego_sbuf *b, int to, int from)
{
	while (to > from) {
		mdh_put_indent(b, --to);
		lego_sbuf_puts(b, "}\n");
	}
}

/* `if (MASKS) {` over the dims but v that m uses (all when m is NULL;
 * only the ++ ones: par_only). */
static void open_masks(lego_sbuf *b, const mdh_program *p, int v,
		       const mdh_buf *m, int par_only, int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "if ({{ 1");
	for (size_t k = 0; k < p->ndims; k++) {
		if ((int)k == v || (par_only && mdh_dim_is_red(&p->dims[k])) ||
		    (m && !mdh_buf_uses(m, k)))
			continue;
		lego_sbuf_puts(b, " && ");
		mdh_put_tile_mask(b, &p->dims[k]);
	}
	lego_sbuf_puts(b, " }}) {\n");
}

/* mdh_full: whether the vector's last element is inside v's range (then
 * all are: the work-item's elements are adjacent, O_v = 2). */
static void put_full(lego_sbuf *b, const mdh_dim *d, int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "int mdh_full = 0;\n");
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "{\n");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "const int mdh_z_%s = mdh_p_%s + {{ W_%s - 1 }};\n",
			 d->name, d->name, d->name);
	lego_sbuf s = {0};
	lego_sbuf_puts(&s, "mdh_full = {{ ");
	mdh_put_tile_mask(&s, d);
	lego_sbuf_puts(&s, " }};\n");
	put_at_z(b, &s, d->name, depth + 1);
	close_to(b, depth + 1, depth);
}

/* Input m, which uses v, as the vector X at mdh_p_v: one vload when it
 * is whole, else element by element (the identity past the end). */
static void put_vec_input(lego_sbuf *b, const mdh_program *p,
			  const mdh_buf *m, const char *const *tiles, int v,
			  int depth)
{
	const char *n = p->dims[v].name, *x = m->name, *t = m->type;
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "%s{{ W_%s }} %s = (%s{{ W_%s }})(0);\n", t, n, x,
			 t, n);
	open_masks(b, p, v, m, 0, depth);
	depth++;
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "if (mdh_full) {\n");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "%s = vload{{ W_%s }}(0, &mdh_in_%s[", x, n, x);
	mdh_put_access(b, m, &m->acc[0], tiles);
	lego_sbuf_puts(b, "]);\n");
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "} else {\n");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "%s mdh_h[{{ W_%s }}];\n", t, n);
	int d = open_element(b, n, depth + 1);
	lego_sbuf s = {0};
	lego_sbuf_puts(&s, "mdh_h[mdh_e] = {{ ");
	mdh_put_tile_mask(&s, &p->dims[v]);
	lego_sbuf_printf(&s, " }} ? mdh_in_%s[", x);
	mdh_put_access(&s, m, &m->acc[0], tiles);
	lego_sbuf_printf(&s, "] : (%s)0;\n", t);
	put_at_z(b, &s, n, d);
	close_to(b, d, depth + 1);
	mdh_put_indent(b, depth + 1);
	lego_sbuf_printf(b, "%s = vload{{ W_%s }}(0, mdh_h);\n", x, n);
	close_to(b, depth + 1, depth - 1);
}

void mdh_put_vec_scalar(lego_sbuf *b, const mdh_program *p,
			const char *const *tiles, int v, int depth)
{
	const char *n = p->dims[v].name;
	/* the vectors first, each under the masks of its own dims: a
	 * vector that the points of other dims share is then read once for
	 * all of them, the loops unrolled */
	put_full(b, &p->dims[v], depth);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out && mdh_buf_uses(m, (size_t)v))
			put_vec_input(b, p, m, tiles, v, depth);
	}
	open_masks(b, p, v, NULL, 0, depth);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out && !mdh_buf_uses(m, (size_t)v)) {
			mdh_put_input(b, p, m, tiles, depth + 1);
		} else if (m->is_out) {
			mdh_put_indent(b, depth + 1);
			lego_sbuf_printf(b, "%s{{ W_%s }} %s;\n", m->type, n,
					 m->name);
		}
	}
	/* the scalar function over vectors: OpenCL C's operators and
	 * built-ins act per element, a scalar operand broadcast */
	mdh_put_fold(b, p, v, depth);
}

void mdh_put_vec_store(lego_sbuf *b, const mdh_program *p,
		       const char *const *tiles, int v, int depth)
{
	const char *n = p->dims[v].name;
	open_masks(b, p, v, NULL, 1, depth);
	put_full(b, &p->dims[v], depth + 1);
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		mdh_put_indent(b, depth + 1);
		lego_sbuf_puts(b, "if (mdh_full) {\n");
		mdh_put_indent(b, depth + 2);
		lego_sbuf_printf(b, "vstore{{ W_%s }}(", n);
		mdh_put_acc(b, p, m, v);
		lego_sbuf_printf(b, ", 0, &mdh_out_%s[", m->name);
		mdh_put_access(b, m, &m->acc[0], tiles);
		lego_sbuf_puts(b, "]);\n");
		mdh_put_indent(b, depth + 1);
		lego_sbuf_puts(b, "} else {\n");
		mdh_put_indent(b, depth + 2);
		lego_sbuf_printf(b, "%s mdh_h[{{ W_%s }}];\n", m->type, n);
		mdh_put_indent(b, depth + 2);
		lego_sbuf_printf(b, "vstore{{ W_%s }}(", n);
		mdh_put_acc(b, p, m, v);
		lego_sbuf_puts(b, ", 0, mdh_h);\n");
		int d = open_element(b, n, depth + 2);
		lego_sbuf s = {0};
		lego_sbuf_puts(&s, "if ({{ ");
		mdh_put_tile_mask(&s, &p->dims[v]);
		lego_sbuf_printf(&s, " }}) {\n\tmdh_out_%s[", m->name);
		mdh_put_access(&s, m, &m->acc[0], tiles);
		lego_sbuf_puts(&s, "] = mdh_h[mdh_e];\n}\n");
		put_at_z(b, &s, n, d);
		close_to(b, d, depth + 1);
	}
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "}\n");
}
