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
