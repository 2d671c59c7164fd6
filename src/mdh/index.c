/* index.c - affine index functions printed as expressions of the .lego
 * language, for the placeholders and the spec of the generated template:
 * the simplifier of the gen room does the rest. */
#include <stdio.h>

#include "expr/sbuf.h"
#include "mdh/lower.h"

void mdh_index_print(lego_sbuf *b, const mdh_index *ix,
		     const char *const *dimtext)
{
	if (!ix->nterms)
		lego_sbuf_puts(b, "0");
	for (size_t t = 0; t < ix->nterms; t++) {
		const mdh_term *m = &ix->terms[t];
		int64_t c = m->coef;
		if (t)
			lego_sbuf_puts(b, c < 0 ? " - " : " + ");
		else if (c < 0)
			lego_sbuf_puts(b, "-");
		if (c < 0)
			c = -c;
		int first = 1;
		if (c != 1 || (!m->nsyms && m->dim < 0)) {
			lego_sbuf_printf(b, "%lld", (long long)c);
			first = 0;
		}
		for (size_t s = 0; s < m->nsyms; s++) {
			lego_sbuf_printf(b, "%s%s", first ? "" : " * ",
					 m->syms[s]);
			first = 0;
		}
		if (m->dim >= 0)
			lego_sbuf_printf(b, "%s(%s)", first ? "" : " * ",
					 dimtext[m->dim]);
	}
}

int mdh_buf_uses(const mdh_buf *m, size_t dim)
{
	for (size_t a = 0; a < m->nacc; a++)
		for (size_t e = 0; e < m->rank; e++)
			for (size_t t = 0; t < m->acc[a].idx[e].nterms; t++)
				if (m->acc[a].idx[e].terms[t].dim == (int)dim)
					return 1;
	return 0;
}

int mdh_buf_stageable(const mdh_buf *m)
{
	return !m->is_out && m->nacc == 1 && m->rank > 0;
}

size_t mdh_staged_dims(const mdh_program *p, const mdh_buf *m, int red_outer,
		       size_t *out)
{
	size_t n = 0;
	if (red_outer) {
		for (int pass = 1; pass >= 0; pass--)
			for (size_t k = 0; k < p->ndims; k++)
				if (mdh_buf_uses(m, k) &&
				    mdh_dim_is_red(&p->dims[k]) == pass)
					out[n++] = k;
		return n;
	}
	for (size_t e = 0; e < m->rank; e++)
		for (size_t t = 0; t < m->acc[0].idx[e].nterms; t++) {
			int d = m->acc[0].idx[e].terms[t].dim;
			size_t j = 0;
			while (d >= 0 && j < n && out[j] != (size_t)d)
				j++;
			if (d >= 0 && j == n)
				out[n++] = (size_t)d;
		}
	return n;
}
