/* lower.c - a program to its templates, and a template to code: the
 * low-level form is a LEGO template whose spec holds the parameters, so
 * that lego gen prints and simplifies it and lego tune searches it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdh/lower.h"

static char *take(lego_ctx *ctx, lego_sbuf *b)
{
	char *s = lego_sbuf_take(b);
	if (!s)
		lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	return s;
}

int mdh_lower(lego_ctx *ctx, const mdh_program *p, mdh_target target,
	      int64_t maxwg, mdh_templates *out)
{
	lego_sbuf k = {0}, h = {0};
	mdh_put_spec(&k, p, maxwg, mdh_spelling_of(target));
	mdh_put_kernel(ctx, &k, p, mdh_spelling_of(target));
	out->host = NULL;
	if (target == MDH_CUDA) {
		mdh_put_cuda_launch(&k, p);
	} else if (target == MDH_OPENCL) {
		mdh_put_spec(&h, p, maxwg, mdh_spelling_of(target));
		mdh_put_host(&h, p);
		out->host = take(ctx, &h);
	}
	out->kernel = take(ctx, &k);
	if (out->kernel && (out->host || target != MDH_OPENCL))
		return 0;
	mdh_templates_free(out);
	return -1;
}

void mdh_templates_free(mdh_templates *t)
{
	free(t->kernel);
	free(t->host);
	t->kernel = t->host = NULL;
}

static const lego_define *find_def(const lego_define *d, size_t n,
				   const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return &d[i];
	return NULL;
}

/* A dim's size when known: a literal or a -D value; 0 otherwise. */
static int64_t known_size(const mdh_dim *d, const lego_define *defs,
			  size_t n)
{
	if (d->size[0] >= '0' && d->size[0] <= '9')
		return strtoll(d->size, NULL, 10);
	const lego_define *v = find_def(defs, n, d->size);
	return v ? v->value : 0;
}

/* "T.tpl:16:8: error: assumption is false" names a line of a template
 * the user has not seen: the message quotes the constraint. */
static void explain_constraint(lego_ctx *ctx, const char *file,
			       const char *tpl)
{
	size_t n = strlen(file);
	const char *m = ctx->error;
	if (strncmp(m, file, n) || m[n] != ':' ||
	    !strstr(m, "error: assumption is false"))
		return;
	long line = strtol(m + n + 1, NULL, 10);
	for (long i = 1; i < line && tpl; i++) {
		tpl = strchr(tpl, '\n');
		tpl = tpl ? tpl + 1 : NULL;
	}
	if (!tpl)
		return;
	int len = (int)strcspn(tpl, "\n");
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "%s: `%.*s` (a constraint of the parameters; "
			 "lego mdh --template shows them)", m, len, tpl);
	char *msg = lego_sbuf_take(&b);
	if (msg)
		lego_fail(ctx, LEGO_ERR, "%s", msg);
	free(msg);
}

/* Adds C_DIM = 1 (dim's name) to all[n] unless defs gives it (or dim is
 * -1), in name (80 chars); the new count. */
static size_t default_one(lego_define *all, size_t n, const lego_define *defs,
			  size_t ndefs, const mdh_program *p, char c, int dim,
			  char *name)
{
	if (dim < 0)
		return n;
	snprintf(name, 80, "%c_%s", c, p->dims[dim].name);
	if (find_def(defs, ndefs, name))
		return n;
	all[n].name = name;
	all[n].value = 1;
	return n + 1;
}

/* The defaults: one element per work-item, one work-group along a
 * reduced dim, 32 work-items (fewer for a smaller known size) along
 * the last ++ dim, the one the outputs are usually contiguous in,
 * every input read from global memory at each point, every output stored after the
 * tile, the reduced dims' private loops outside the ++ tile's. */
char *mdh_instantiate(lego_ctx *ctx, const mdh_program *p,
		      const char *template_text, const char *target,
		      const lego_define *defs, size_t ndefs)
{
	size_t n = ndefs;
	size_t slots = 5 * p->ndims + 2 * p->nbufs + 6;
	lego_define *all = calloc(ndefs + slots, sizeof *all);
	char *names = calloc(slots, 80);
	if (!all || !names) {
		free(all);
		free(names);
		return lego_fail_null(ctx, "out of memory");
	}
	if (ndefs)
		memcpy(all, defs, ndefs * sizeof *all);
	size_t last_par = p->ndims;
	for (size_t k = 0; k < p->ndims; k++)
		if (!mdh_dim_is_red(&p->dims[k]))
			last_par = k;
	for (size_t k = 0; k < p->ndims; k++) {
		const mdh_dim *d = &p->dims[k];
		for (int w = 0; w < 3 + 2 * mdh_dim_is_red(d); w++) {
			char *name = names + 80 * (5 * k + (size_t)w);
			snprintf(name, 80, "%c_%s", "LPOGR"[w], d->name);
			if (find_def(defs, ndefs, name))
				continue;
			int64_t v = 1, s = known_size(d, all, n);
			if (w == 0 && k == last_par)
				for (v = 32; s && v > s; v /= 2)
					;
			all[n].name = name;
			all[n++].value = v;
		}
	}
	for (size_t i = 0; i < p->nbufs; i++) {
		char *name = names + 80 * (5 * p->ndims + i);
		snprintf(name, 80, "M_%s", p->bufs[i].name);
		/* an input that can be staged, an output of a program
		 * without reduced dims (stored after the tile) */
		if (!(mdh_buf_stageable(&p->bufs[i]) ||
		      mdh_buf_halo(&p->bufs[i]) ||
		      (p->bufs[i].is_out && !mdh_has_red(p))) ||
		    find_def(defs, ndefs, name))
			continue;
		all[n].name = name;
		all[n++].value = 1;
	}
	for (size_t i = 0; i < p->nbufs; i++) {
		char *name = names + 80 * (5 * p->ndims + p->nbufs + i);
		snprintf(name, 80, "V_%s", p->bufs[i].name);
		if (!mdh_buf_private(p, &p->bufs[i]) ||
		    find_def(defs, ndefs, name))
			continue;
		all[n].name = name;
		all[n++].value = 1;
	}
	int staged = 0;
	for (size_t i = 0; i < p->nbufs; i++)
		staged |= mdh_buf_stageable(&p->bufs[i]) ||
			  mdh_buf_halo(&p->bufs[i]);
	if (staged && !find_def(defs, ndefs, "M_2")) {
		all[n].name = "M_2";
		all[n++].value = 1;
	}
	/* the defaults follow the spelling the spec was written from:
	 * OpenCL's for "opencl" and its host code ("c") */
	const mdh_spelling *sp = mdh_spelling_of(strcmp(target, "cuda")
						 ? MDH_OPENCL : MDH_CUDA);
	if (sp->occupancy && !find_def(defs, ndefs, "B_sm")) {
		all[n].name = "B_sm";
		all[n++].value = 1;
	}
	/* W_v: the OpenCL template's kernels and host code ("c"); S_d:
	 * the outputs stored as scalars */
	char wname[80], sname[80];
	n = default_one(all, n, defs, ndefs, p, 'W',
			sp->vectors ? mdh_cpu_vec_dim(p) : -1, wname);
	n = default_one(all, n, defs, ndefs, p, 'S', mdh_store_dim(p), sname);
	if (mdh_warp_able(p, sp) && !find_def(defs, ndefs, "B_red")) {
		all[n].name = "B_red";
		all[n++].value = 1;
	}
	if (mdh_grid_orders(p, sp->vectors) &&
	    !find_def(defs, ndefs, "B_ord")) {
		all[n].name = "B_ord";
		all[n++].value = 1;
	}
	lego_gen_opts o = {.target = target, .defs = all, .ndefs = n};
	char file[512];
	snprintf(file, sizeof file, "%s.tpl", p->file);
	char *text = lego_gen(ctx, file, template_text, strlen(template_text),
			      &o);
	if (!text)
		explain_constraint(ctx, file, template_text);
	else
		mdh_fold_if(text);
	free(all);
	free(names);
	return text;
}
