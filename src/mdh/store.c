/* store.c - how a work-item stores its ++ tile's outputs (S_d): scalar
 * stores, or runs of 4 adjacent points along the store dim d as one
 * vector store (OpenCL vstore4, CUDA float4), and in CUDA either as
 * streaming stores.  A program such as the CCSD(T) contraction is bound
 * by writing its output (bench/mdh/README.md, run 11): a vector store
 * issues a quarter of the store instructions and writes whole 16-byte
 * pieces.
 *
 * Every index still comes from the layouts of the spec: the vector's
 * first element's flat index, and per element of a run that crosses the
 * output's end or is not 16-byte aligned (odd sizes) the scalar path,
 * with its own mask and index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdh/lower.h"

int mdh_store_dim(const mdh_program *p)
{
	int v = -1;
	for (size_t i = 0; i < p->nbufs; i++) {
		const mdh_buf *m = &p->bufs[i];
		if (!m->is_out)
			continue;
		/* float4: the vector type of the element type */
		if (strcmp(m->type, "float") || !m->rank ||
		    m->acc[0].idx[m->rank - 1].nterms != 1)
			return -1;
		int d = m->acc[0].idx[m->rank - 1].terms[0].dim;
		if (d < 0 || (v >= 0 && d != v) ||
		    !mdh_buf_contiguous(m, (size_t)d))
			return -1;
		v = d;
	}
	return v >= 0 && !mdh_dim_is_red(&p->dims[v]) ? v : -1;
}

void mdh_put_out_write(lego_sbuf *b, const mdh_program *p,
		       const mdh_spelling *sp, int sd, const char *lhs,
		       const char *addr, const char *val, int depth)
{
	if (sd >= 0 && sp->streaming) {
		lego_sbuf_printf(b, "#if {{ S_%s > 2 }}\n", p->dims[sd].name);
		mdh_put_indent(b, depth);
		lego_sbuf_printf(b, "__stcs(%s%s, %s);\n#else\n",
				 addr ? "" : "&", addr ? addr : lhs, val);
	}
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "%s = %s;\n", lhs, val);
	if (sd >= 0 && sp->streaming)
		lego_sbuf_puts(b, "#endif\n");
}

/* text at the run's point mdh_e, mdh_q_D, at depth. */
static void put_run_point(lego_sbuf *b, const char *text, const char *d,
			  int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "const int mdh_q_%s = mdh_p_%s + mdh_e;\n", d, d);
	mdh_put_at_point(b, text, d, "mdh_q_", depth);
}

static void close_block(lego_sbuf *b, int depth)
{
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "}\n");
}

/* mdh_vs: whether the run stores as vectors: no grid level, its last
 * point inside the tile's masks (the points of a run are adjacent, so
 * the others are too), each output's first element 16-byte aligned
 * (the buffers are).  mdh_p_d is a multiple of 4 (the loop's step) and
 * the flat index moves by a multiple of 4 with it (d is the last entry,
 * stride 1; its tile's order adds mdh_p_d (O_d = 2) or 4 L_d
 * (mdh_p_d / 4) (O_d = 3)), so the run is aligned where the point 0
 * would be: with constant sizes lego gen then often proves it, and no
 * test is left in the kernel. */
static void put_vec_ok(lego_sbuf *b, const mdh_program *p,
		       const char *const *tiles, const char *d, int depth)
{
	char from[80];
	snprintf(from, sizeof from, "mdh_p_%s", d);
	lego_sbuf s = {0};
	lego_sbuf_puts(&s, "const int mdh_vs = {{ ");
	if (mdh_has_red(p))
		lego_sbuf_puts(&s, "mdh_GR.size == 1 && ");
	mdh_put_masks(&s, p, 1);
	char *last = lego_sbuf_take(&s);
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "const int mdh_q3_%s = mdh_p_%s + 3;\n", d, d);
	/* mdh_p_d + 3 in place of a redeclared mdh_p_d (checked against P_d
	 * in the dead group of an odd S_d otherwise) */
	mdh_put_at_point(b, last ? last : "?", d, "mdh_q3_", depth);
	free(last);
	for (size_t i = 0; i < p->nbufs; i++) {
		if (!p->bufs[i].is_out)
			continue;
		mdh_put_index(&s, &p->bufs[i], &p->bufs[i].acc[0], tiles);
		char *at = lego_sbuf_take(&s);
		lego_sbuf_puts(b, " && (");
		mdh_put_renamed(b, at ? at : "?", from, "0", 0);
		lego_sbuf_puts(b, ") % 4 == 0");
		free(at);
	}
	lego_sbuf_puts(b, " }};\n");
}

/* Output m's run: its 4 accumulators gathered, then one vector store. */
static void put_vec_write(lego_sbuf *b, const mdh_program *p,
			  const mdh_spelling *sp, const mdh_buf *m,
			  const char *const *tiles, int sd, int depth)
{
	const char *d = p->dims[sd].name;
	mdh_put_indent(b, depth);
	lego_sbuf_printf(b, "float mdh_h_%s[4];\n", m->name);
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "for (int mdh_e = 0; mdh_e < 4; mdh_e++) {\n");
	lego_sbuf s = {0};
	lego_sbuf_printf(&s, "mdh_h_%s[mdh_e] = ", m->name);
	mdh_put_acc(&s, p, m, -1);
	lego_sbuf_puts(&s, ";\n");
	char *h = lego_sbuf_take(&s);
	put_run_point(b, h ? h : "?", d, depth + 1);
	free(h);
	close_block(b, depth);
	lego_sbuf_printf(&s, "mdh_out_%s[", m->name);
	mdh_put_access(&s, m, &m->acc[0], tiles);
	lego_sbuf_puts(&s, "]");
	char *at = lego_sbuf_take(&s);
	const char *a = at ? at : "?";
	const char *n = m->name;
	if (!sp->streaming) {
		mdh_put_indent(b, depth);
		lego_sbuf_printf(b, "vstore4((float4)(mdh_h_%s[0], mdh_h_%s[1], "
				 "mdh_h_%s[2], mdh_h_%s[3]), 0, &%s);\n",
				 n, n, n, n, a);
		free(at);
		return;
	}
	lego_sbuf_printf(&s, "make_float4(mdh_h_%s[0], mdh_h_%s[1], "
			 "mdh_h_%s[2], mdh_h_%s[3])", n, n, n, n);
	char *val = lego_sbuf_take(&s);
	lego_sbuf_printf(&s, "(float4 *)&%s", a);
	char *addr = lego_sbuf_take(&s);
	lego_sbuf_printf(&s, "*%s", addr ? addr : "?");
	char *lhs = lego_sbuf_take(&s);
	mdh_put_out_write(b, p, sp, sd, lhs ? lhs : "?", addr ? addr : "?",
			  val ? val : "?", depth);
	free(at);
	free(val);
	free(addr);
	free(lhs);
}

void mdh_put_stores(lego_sbuf *b, const mdh_program *p,
		    const mdh_spelling *sp, const char *const *tiles, int sd,
		    const char *scalar, int depth)
{
	const char *d = p->dims[sd].name;
	/* S_d odd: the scalar stores alone, as without a store dim */
	lego_sbuf_printf(b, "#if {{ S_%s %% 2 == 0 }}\n", d);
	put_vec_ok(b, p, tiles, d, depth);
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "if (mdh_vs) {\n");
	for (size_t i = 0; i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			put_vec_write(b, p, sp, &p->bufs[i], tiles, sd,
				      depth + 1);
	mdh_put_indent(b, depth);
	lego_sbuf_puts(b, "} else {\n");
	mdh_put_indent(b, depth + 1);
	lego_sbuf_puts(b, "for (int mdh_e = 0; mdh_e < 4; mdh_e++) {\n");
	put_run_point(b, scalar, d, depth + 2);
	close_block(b, depth + 1);
	close_block(b, depth);
	lego_sbuf_puts(b, "#else\n");
	mdh_put_renamed(b, scalar, NULL, NULL, depth);
	lego_sbuf_puts(b, "#endif\n");
}
