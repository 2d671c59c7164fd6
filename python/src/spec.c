/* spec.c - lego._lego.Spec: a parsed .lego text and the questions asked
 * of its layouts (apply, inverse, table, check, stride, pictures). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ext.h"

static void spec_dealloc(lego_py_spec *self)
{
	lego_ctx_free(self->ctx);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int spec_init(lego_py_spec *self, PyObject *args, PyObject *kw)
{
	static char *names[] = {"text", "filename", "defines", NULL};
	const char *text, *filename = "<python>";
	Py_ssize_t len;
	PyObject *defines = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|sO", names, &text, &len,
					 &filename, &defines))
		return -1;
	if (self->ctx) {
		PyErr_SetString(PyExc_RuntimeError, "Spec is initialised once");
		return -1;
	}
	lego_define *defs;
	size_t ndefs;
	if (lego_py_defines(defines, &defs, &ndefs))
		return -1;
	self->ctx = lego_ctx_new();
	if (!self->ctx) {
		PyMem_Free(defs);
		PyErr_NoMemory();
		return -1;
	}
	self->spec = lego_spec_parse(self->ctx, filename, text, (size_t)len,
				     defs, ndefs);
	PyMem_Free(defs);
	if (!self->spec) {
		lego_py_raise(self->ctx);
		return -1;
	}
	return 0;
}

static lego_layout *layout_of(lego_py_spec *self, const char *name)
{
	lego_layout *l = self->spec ? lego_spec_layout(self->spec, name) : NULL;
	if (!l) {
		char msg[256];
		snprintf(msg, sizeof msg, "no layout named '%s'", name);
		lego_py_raise_msg(msg);
	}
	return l;
}

/* The layout named by the one string argument of a method. */
static lego_layout *layout_arg(lego_py_spec *self, PyObject *args)
{
	const char *name;
	return PyArg_ParseTuple(args, "s", &name) ? layout_of(self, name) : NULL;
}

/* A tuple of new Exprs of es[0..n), simplified when asked. */
static PyObject *expr_tuple(lego_py_spec *self, size_t n, lego_expr *const *es,
			    int simplify)
{
	PyObject *r = PyTuple_New((Py_ssize_t)n);
	for (size_t k = 0; r && k < n; k++) {
		lego_expr *e = simplify ? lego_simplify(self->ctx, es[k]) : es[k];
		PyObject *o = lego_py_expr_new(self, e);
		if (!o) {
			Py_CLEAR(r);
			break;
		}
		PyTuple_SET_ITEM(r, (Py_ssize_t)k, o);
	}
	return r;
}

/*
 * An index given as text: names the spec does not declare become index
 * variables over [0, hi).  They are declared first and the text parsed
 * with no bound, so that a name used before (by an earlier call, over
 * another dim) is the same variable rather than a conflicting declaration.
 */
static lego_expr *parse_index(lego_py_spec *self, const char *text,
			      lego_expr *hi)
{
	/* A name seen before (the common case, L["i", "j"] again) skips the
	 * parser. */
	static const char ident[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
	if (strspn(text, ident) == strlen(text) &&
	    !lego_spec_let(self->spec, text) && !lego_spec_layout(self->spec, text)) {
		lego_expr *e = lego_sym_find(self->ctx, text);
		if (e)
			return e;
	}
	for (const char *p = text; *p;) {
		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			p += isdigit((unsigned char)*p) ? strspn(p, "0123456789xXabcdefABCDEF") : 1;
			continue;
		}
		size_t n = strspn(p, ident);
		char name[128];
		if (n < sizeof name) {
			memcpy(name, p, n);
			name[n] = 0;
			/* A word of the language declared here is never read:
			 * the parser takes it as the word. */
			if (!lego_sym_find(self->ctx, name) &&
			    !lego_spec_let(self->spec, name) &&
			    !lego_spec_layout(self->spec, name))
				lego_index(self->ctx, name, NULL, hi);
		}
		p += n;
	}
	lego_expr *e = lego_spec_parse_expr(self->spec, text, NULL);
	if (!e)
		lego_py_raise(self->ctx);
	return e;
}

/* An index argument: an int, an Expr of this spec, or text. */
static lego_expr *index_arg(lego_py_spec *self, PyObject *o, lego_expr *hi)
{
	if (PyUnicode_Check(o))
		return parse_index(self, PyUnicode_AsUTF8(o), hi);
	return lego_py_expr_arg(self, o);
}

static PyObject *spec_layouts(lego_py_spec *self, PyObject *unused)
{
	size_t n = lego_spec_nlayouts(self->spec);
	PyObject *r = PyList_New((Py_ssize_t)n);
	for (size_t i = 0; r && i < n; i++) {
		PyObject *s = PyUnicode_FromString(lego_spec_layout_name(self->spec, i));
		if (!s) {
			Py_CLEAR(r);
			break;
		}
		PyList_SET_ITEM(r, (Py_ssize_t)i, s);
	}
	return r;
}

static PyObject *spec_dims(lego_py_spec *self, PyObject *args)
{
	lego_layout *l = layout_arg(self, args);
	if (!l)
		return NULL;
	size_t d = lego_layout_rank(l);
	lego_expr *dims[64];
	for (size_t k = 0; k < d; k++)
		dims[k] = lego_layout_dim(l, k);
	return expr_tuple(self, d, dims, 0);
}

static PyObject *spec_size(lego_py_spec *self, PyObject *args)
{
	lego_layout *l = layout_arg(self, args);
	return l ? lego_py_expr_new(self, lego_layout_size(self->ctx, l)) : NULL;
}

static PyObject *spec_apply(lego_py_spec *self, PyObject *args)
{
	const char *name;
	PyObject *seq;
	int simplify = 1;
	if (!PyArg_ParseTuple(args, "sO|p", &name, &seq, &simplify))
		return NULL;
	lego_layout *l = layout_of(self, name);
	PyObject *fast = l ? PySequence_Fast(seq, "indices must be a sequence") : NULL;
	if (!fast)
		return NULL;
	size_t d = lego_layout_rank(l);
	Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
	lego_expr *idx[64];
	PyObject *r = NULL;
	if ((size_t)n != d) {
		char msg[128];
		snprintf(msg, sizeof msg, "layout '%s' has rank %zu, got %zd indices",
			 name, d, n);
		lego_py_raise_msg(msg);
		goto out;
	}
	for (size_t k = 0; k < d; k++)
		if (!(idx[k] = index_arg(self, PySequence_Fast_GET_ITEM(fast, k),
					 lego_layout_dim(l, k))))
			goto out;
	lego_expr *e = lego_layout_apply(self->ctx, l, idx);
	if (e && simplify)
		e = lego_simplify(self->ctx, e);
	r = lego_py_expr_new(self, e);
out:
	Py_DECREF(fast);
	return r;
}

static PyObject *spec_inv(lego_py_spec *self, PyObject *args)
{
	const char *name;
	PyObject *flat_o;
	int simplify = 1;
	if (!PyArg_ParseTuple(args, "sO|p", &name, &flat_o, &simplify))
		return NULL;
	lego_layout *l = layout_of(self, name);
	if (!l)
		return NULL;
	lego_expr *flat = index_arg(self, flat_o, lego_layout_phys_size(self->ctx, l));
	if (!flat)
		return NULL;
	lego_expr *idx[64];
	if (lego_layout_inv(self->ctx, l, flat, idx) != LEGO_OK)
		return lego_py_raise(self->ctx);
	return expr_tuple(self, lego_layout_rank(l), idx, simplify);
}

/* The whole table as native int64 bytes (concrete sizes only). */
static PyObject *spec_table(lego_py_spec *self, PyObject *args)
{
	lego_layout *l = layout_arg(self, args);
	if (!l)
		return NULL;
	int64_t size;
	if (lego_expr_eval(self->ctx, lego_layout_size(self->ctx, l), NULL, &size))
		return lego_py_raise(self->ctx);
	if (size < 0 || size > ((int64_t)1 << 31))
		return lego_py_raise_msg("table: the layout has more than 2^31 elements");
	PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size * 8);
	if (!bytes)
		return NULL;
	size_t got;
	if (lego_layout_table(self->ctx, l, NULL,
			      (int64_t *)(void *)PyBytes_AS_STRING(bytes),
			      (size_t)size, &got) != LEGO_OK) {
		Py_DECREF(bytes);
		return lego_py_raise(self->ctx);
	}
	return bytes;
}

static PyObject *spec_check(lego_py_spec *self, PyObject *args)
{
	lego_layout *l = layout_arg(self, args);
	if (!l)
		return NULL;
	lego_check_report rep;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = lego_layout_check(self->ctx, l, NULL, &rep);
	Py_END_ALLOW_THREADS
	if (rc != LEGO_OK)
		return lego_py_raise(self->ctx);
	return PyLong_FromLongLong(rep.size);
}

/* Whether e mentions one of the n symbols: 1, 0, or -1 when out of
 * memory (message in ctx). */
static int mentions(lego_ctx *ctx, const lego_expr *e, lego_expr *const *syms,
		    size_t n)
{
	lego_expr **free_syms;
	size_t nfree;
	if (lego_expr_symbols(ctx, e, &free_syms, &nfree) != LEGO_OK)
		return -1;
	int found = 0;
	for (size_t k = 0; k < nfree; k++)
		for (size_t i = 0; i < n; i++)
			found |= free_syms[k] == syms[i];
	free(free_syms);
	return found;
}

/* L.stride(k): L[.., x_k + 1, ..] - L[.., x_k, ..] simplified over fresh
 * index variables; an error unless it mentions none of them (the step is
 * the same everywhere), as the template engine's L.stride(k). */
static PyObject *spec_stride(lego_py_spec *self, PyObject *args)
{
	const char *name;
	Py_ssize_t k;
	if (!PyArg_ParseTuple(args, "sn", &name, &k))
		return NULL;
	lego_layout *l = layout_of(self, name);
	if (!l)
		return NULL;
	size_t d = lego_layout_rank(l);
	if (k < 0 || (size_t)k >= d) {
		char msg[128];
		snprintf(msg, sizeof msg, "expected a dim 0..%zu of '%s'", d - 1, name);
		return lego_py_raise_msg(msg);
	}
	lego_expr *x[64], *next[64], *one = lego_const(self->ctx, 1);
	for (size_t i = 0; i < d; i++) {
		lego_expr *hi = lego_layout_dim(l, i);
		int64_t n;
		char buf[32];
		if (i == (size_t)k && lego_expr_is_const(hi, &n) && n <= 2) {
			x[i] = next[i] = lego_const(self->ctx, 0);
			continue;
		}
		if (i == (size_t)k)
			hi = lego_sub(self->ctx, hi, one);
		for (size_t j = 0;; j++) {
			snprintf(buf, sizeof buf, "_s%zu", j);
			if (!lego_sym_find(self->ctx, buf))
				break;
		}
		if (!(x[i] = next[i] = lego_index(self->ctx, buf, NULL, hi)))
			return lego_py_raise(self->ctx);
	}
	next[k] = lego_add(self->ctx, x[k], one);
	lego_expr *a = lego_layout_apply(self->ctx, l, x);
	lego_expr *b = lego_layout_apply(self->ctx, l, next);
	lego_expr *diff = a && b ? lego_simplify(self->ctx, lego_sub(self->ctx, b, a))
				 : NULL;
	int varies = diff ? mentions(self->ctx, diff, x, d) : -1;
	if (varies < 0)
		return lego_py_raise(self->ctx);
	if (varies) {
		char *s = lego_expr_print(self->ctx, diff, LEGO_LANG_PYTHON);
		char msg[512];
		snprintf(msg, sizeof msg,
			 "'%s' is not strided along dim %zd: the step %s depends "
			 "on the index", name, k, s ? s : "?");
		free(s);
		return lego_py_raise_msg(msg);
	}
	return lego_py_expr_new(self, diff);
}

static PyObject *spec_show(lego_py_spec *self, PyObject *args, PyObject *kw)
{
	static char *names[] = {"name", "svg", "inverse", "tile", "ascii",
				"title", NULL};
	const char *name, *title = NULL;
	int svg = 0, inverse = 0, ascii = 0;
	long long tile = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|ppLpz", names, &name, &svg,
					 &inverse, &tile, &ascii, &title))
		return NULL;
	lego_layout *l = layout_of(self, name);
	if (!l)
		return NULL;
	lego_show_opts o = {NULL, inverse, tile, 0, ascii, 0, title};
	return lego_py_take_str(self->ctx, svg ? lego_show_svg(self->ctx, l, &o)
					      : lego_show_text(self->ctx, l, &o));
}

static PyObject *spec_assume(lego_py_spec *self, PyObject *args)
{
	PyObject *o;
	if (!PyArg_ParseTuple(args, "O", &o))
		return NULL;
	lego_expr *c = PyUnicode_Check(o)
			       ? lego_spec_parse_expr(self->spec, PyUnicode_AsUTF8(o), NULL)
			       : lego_py_expr_arg(self, o);
	if (!c)
		return PyErr_Occurred() ? NULL : lego_py_raise(self->ctx);
	if (lego_assume(self->ctx, c) != LEGO_OK)
		return lego_py_raise(self->ctx);
	Py_RETURN_NONE;
}

static PyObject *spec_expr(lego_py_spec *self, PyObject *args)
{
	const char *text;
	if (!PyArg_ParseTuple(args, "s", &text))
		return NULL;
	return lego_py_expr_new(self, lego_spec_parse_expr(self->spec, text, NULL));
}

static PyMethodDef spec_methods[] = {
	{"layouts", (PyCFunction)spec_layouts, METH_NOARGS,
	 "layouts() -> list[str]: the layout names, in order."},
	{"dims", (PyCFunction)spec_dims, METH_VARARGS,
	 "dims(name) -> tuple[Expr]: the logical dims."},
	{"size", (PyCFunction)spec_size, METH_VARARGS,
	 "size(name) -> Expr: the number of elements."},
	{"apply", (PyCFunction)spec_apply, METH_VARARGS,
	 "apply(name, indices, simplify=True) -> Expr: the physical index.\n"
	 "An index is an int, an Expr or text; names the spec does not declare\n"
	 "are index variables over their dim."},
	{"inv", (PyCFunction)spec_inv, METH_VARARGS,
	 "inv(name, flat, simplify=True) -> tuple[Expr]: the logical index."},
	{"table", (PyCFunction)spec_table, METH_VARARGS,
	 "table(name) -> bytes: every physical index as native int64."},
	{"check", (PyCFunction)spec_check, METH_VARARGS,
	 "check(name) -> int: enumerates the layout; raises LegoError unless\n"
	 "it is a bijection whose inverse inverts it; returns its size."},
	{"stride", (PyCFunction)spec_stride, METH_VARARGS,
	 "stride(name, k) -> Expr: the step along dim k, proved the same\n"
	 "everywhere (LegoError otherwise)."},
	{"show", (PyCFunction)(void (*)(void))spec_show, METH_VARARGS | METH_KEYWORDS,
	 "show(name, svg=False, inverse=False, tile=0, ascii=False, title=None)\n"
	 "-> str: the layout drawn as a grid (concrete sizes)."},
	{"assume", (PyCFunction)spec_assume, METH_VARARGS,
	 "assume(cond): adds a fact (text or Expr) to the context."},
	{"expr", (PyCFunction)spec_expr, METH_VARARGS,
	 "expr(text) -> Expr: an expression over the spec's names."},
	{NULL, NULL, 0, NULL}};

PyTypeObject lego_py_spec_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "lego._lego.Spec",
	.tp_basicsize = sizeof(lego_py_spec),
	.tp_dealloc = (destructor)spec_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Spec(text, filename='<python>', defines=None): a parsed .lego\n"
		  "text (lego_spec_parse); defines turn syms into constants.",
	.tp_methods = spec_methods,
	.tp_init = (initproc)spec_init,
	.tp_new = PyType_GenericNew,
};
