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

static void indent(lego_sbuf *b, int n)
{
	for (int i = 0; i < n; i++)
		lego_sbuf_puts(b, "\t");
}

void mdh_put_out_write(lego_sbuf *b, const mdh_program *p,
		       const mdh_spelling *sp, int sd, const char *lhs,
		       const char *val, int depth)
{
	if (sd >= 0 && sp->streaming) {
		lego_sbuf_printf(b, "#if {{ S_%s }} > 2\n", p->dims[sd].name);
		indent(b, depth);
		lego_sbuf_printf(b, "__stcs(&%s, %s);\n#else\n", lhs, val);
	}
	indent(b, depth);
	lego_sbuf_printf(b, "%s = %s;\n", lhs, val);
	if (sd >= 0 && sp->streaming)
		lego_sbuf_puts(b, "#endif\n");
}

/* Opens "{ const int mdh_p_D = mdh_p_D + off; " in a block of its own
 * (the point off along d of the run), at depth; the depth inside. */
static int open_point(lego_sbuf *b, const char *d, const char *off,
		      int depth)
{
	indent(b, depth);
	lego_sbuf_printf(b, "const int mdh_z = mdh_p_%s + %s;\n", d, off);
	indent(b, depth);
	lego_sbuf_puts(b, "{\n");
	indent(b, depth + 1);
	lego_sbuf_printf(b, "const int mdh_p_%s = mdh_z;\n", d);
	return depth + 1;
}

static void close_block(lego_sbuf *b, int depth)
{
	indent(b, depth);
	lego_sbuf_puts(b, "}\n");
}

/* mdh_vs: whether the run stores as vectors: S_d even, no grid level,
 * its last point inside the tile's masks (the points of a run are
 * adjacent, so the others are too), each output's first element
 * 16-byte aligned (the buffers are). */
static void put_vec_ok(lego_sbuf *b, const mdh_program *p,
		       const char *const *tiles, const char *d, int depth)
{
	indent(b, depth);
	lego_sbuf_printf(b, "int mdh_vs = {{ S_%s %% 2 == 0", d);
	if (mdh_has_red(p))
		lego_sbuf_puts(b, " && mdh_GR.size == 1");
	lego_sbuf_puts(b, " }};\n");
	indent(b, depth);
	lego_sbuf_puts(b, "if (mdh_vs) {\n");
	int in = open_point(b, d, "3", depth + 1);
	indent(b, in);
	lego_sbuf_puts(b, "mdh_vs = {{ ");
	mdh_put_masks(b, p, 1);
	lego_sbuf_puts(b, " }};\n");
	close_block(b, depth + 1);
	for (size_t i = 0; i < p->nbufs; i++) {
		if (!p->bufs[i].is_out)
			continue;
		indent(b, depth + 1);
		lego_sbuf_puts(b, "mdh_vs = mdh_vs && (");
		mdh_put_access(b, &p->bufs[i], &p->bufs[i].acc[0], tiles);
		lego_sbuf_puts(b, ") % 4 == 0;\n");
	}
	close_block(b, depth);
}

/* Output m's run: its 4 accumulators gathered, then one vector store. */
static void put_vec_write(lego_sbuf *b, const mdh_program *p,
			  const mdh_spelling *sp, const mdh_buf *m,
			  const char *const *tiles, int sd, int depth)
{
	const char *d = p->dims[sd].name;
	indent(b, depth);
	lego_sbuf_printf(b, "float mdh_h_%s[4];\n", m->name);
	indent(b, depth);
	lego_sbuf_puts(b, "for (int mdh_e = 0; mdh_e < 4; mdh_e++) {\n");
	int in = open_point(b, d, "mdh_e", depth + 1);
	indent(b, in);
	lego_sbuf_printf(b, "mdh_h_%s[mdh_e] = ", m->name);
	mdh_put_acc(b, p, m, -1);
	lego_sbuf_puts(b, ";\n");
	close_block(b, depth + 1);
	close_block(b, depth);
	lego_sbuf s = {0};
	lego_sbuf_printf(&s, "mdh_out_%s[", m->name);
	mdh_put_access(&s, m, &m->acc[0], tiles);
	lego_sbuf_puts(&s, "]");
	char *at = lego_sbuf_take(&s);
	const char *a = at ? at : "?";
	const char *n = m->name;
	if (!sp->streaming) {
		indent(b, depth);
		lego_sbuf_printf(b, "vstore4((float4)(mdh_h_%s[0], mdh_h_%s[1], "
				 "mdh_h_%s[2], mdh_h_%s[3]), 0, &%s);\n",
				 n, n, n, n, a);
		free(at);
		return;
	}
	lego_sbuf_printf(&s, "make_float4(mdh_h_%s[0], mdh_h_%s[1], "
			 "mdh_h_%s[2], mdh_h_%s[3])", n, n, n, n);
	char *val = lego_sbuf_take(&s);
	lego_sbuf_printf(&s, "*(float4 *)&%s", a);
	char *lhs = lego_sbuf_take(&s);
	mdh_put_out_write(b, p, sp, sd, lhs ? lhs : "?", val ? val : "?",
			  depth);
	free(at);
	free(val);
	free(lhs);
}

int mdh_put_store_vec(lego_sbuf *b, const mdh_program *p,
		      const mdh_spelling *sp, const char *const *tiles,
		      int sd, int depth)
{
	const char *d = p->dims[sd].name;
	indent(b, depth);
	lego_sbuf_puts(b, "{\n");
	put_vec_ok(b, p, tiles, d, depth + 1);
	indent(b, depth + 1);
	lego_sbuf_puts(b, "if (mdh_vs) {\n");
	for (size_t i = 0; i < p->nbufs; i++)
		if (p->bufs[i].is_out)
			put_vec_write(b, p, sp, &p->bufs[i], tiles, sd,
				      depth + 2);
	indent(b, depth + 1);
	lego_sbuf_puts(b, "} else {\n");
	indent(b, depth + 2);
	lego_sbuf_printf(b, "for (int mdh_e = 0; mdh_e < {{ select(S_%s %% 2 "
			 "== 0, 4, 1) }}; mdh_e++) {\n", d);
	return open_point(b, d, "mdh_e", depth + 3);
}
