/* expr.c - lego._lego.Expr: an expression of a Spec's context, printed,
 * evaluated (one binding or many) and combined with ints and Exprs. */
#include <stdlib.h>
#include <string.h>

#include "ext.h"

PyObject *lego_py_expr_new(lego_py_spec *owner, lego_expr *e)
{
	if (!e)
		return lego_py_raise(owner->ctx);
	lego_py_expr *self = PyObject_New(lego_py_expr, &lego_py_expr_type);
	if (!self)
		return NULL;
	Py_INCREF(owner);
	self->owner = owner;
	self->e = e;
	return (PyObject *)self;
}

lego_expr *lego_py_expr_arg(lego_py_spec *owner, PyObject *o)
{
	if (PyObject_TypeCheck(o, &lego_py_expr_type)) {
		lego_py_expr *x = (lego_py_expr *)o;
		if (x->owner != owner) {
			lego_py_raise_msg("expressions of two different specs "
					  "cannot be combined");
			return NULL;
		}
		return x->e;
	}
	if (PyLong_Check(o)) {
		long long v = PyLong_AsLongLong(o);
		if (v == -1 && PyErr_Occurred())
			return NULL;
		return lego_const(owner->ctx, (int64_t)v);
	}
	PyErr_Format(PyExc_TypeError, "expected an int or a lego Expr, got %s",
		     Py_TYPE(o)->tp_name);
	return NULL;
}

static void expr_dealloc(lego_py_expr *self)
{
	Py_DECREF(self->owner);
	PyObject_Free(self);
}

static PyObject *print_lang(lego_py_expr *self, lego_lang lang)
{
	return lego_py_take_str(self->owner->ctx,
				lego_expr_print(self->owner->ctx, self->e, lang));
}

static PyObject *expr_str(lego_py_expr *self)
{
	return print_lang(self, LEGO_LANG_PYTHON);
}

static PyObject *expr_repr(lego_py_expr *self)
{
	PyObject *s = expr_str(self);
	if (!s)
		return NULL;
	PyObject *r = PyUnicode_FromFormat("Expr(%U)", s);
	Py_DECREF(s);
	return r;
}

static PyObject *expr_print(lego_py_expr *self, PyObject *args)
{
	const char *name = "python";
	lego_lang lang;
	if (!PyArg_ParseTuple(args, "|s", &name) || lego_py_lang(name, &lang))
		return NULL;
	return print_lang(self, lang);
}

static PyObject *expr_simplify(lego_py_expr *self, PyObject *unused)
{
	return lego_py_expr_new(self->owner, lego_simplify(self->owner->ctx, self->e));
}

/* eval(env) -> int: exact 64-bit evaluation under {name: int}. */
static PyObject *expr_eval(lego_py_expr *self, PyObject *args)
{
	PyObject *dict = NULL;
	if (!PyArg_ParseTuple(args, "|O!", &PyDict_Type, &dict))
		return NULL;
	lego_ctx *ctx = self->owner->ctx;
	lego_env *env = lego_env_new(ctx);
	if (!env)
		return lego_py_raise(ctx);
	int64_t v;
	PyObject *r = NULL;
	if (dict && lego_py_env_fill(ctx, env, dict))
		goto out;
	if (lego_expr_eval(ctx, self->e, env, &v) != LEGO_OK)
		lego_py_raise(ctx);
	else
		r = PyLong_FromLongLong(v);
out:
	lego_env_free(env);
	return r;
}

/*
 * eval_many(names, columns, n) -> bytes: the expression at n bindings;
 * columns[i] holds n native int64 values of names[i] (bytes-like).  Each
 * point is evaluated exactly, so an overflow is an error, not a wrapped
 * value.
 */
static PyObject *expr_eval_many(lego_py_expr *self, PyObject *args)
{
	PyObject *names, *cols;
	Py_ssize_t n;
	if (!PyArg_ParseTuple(args, "O!O!n", &PyTuple_Type, &names, &PyTuple_Type,
			      &cols, &n))
		return NULL;
	Py_ssize_t k = PyTuple_GET_SIZE(names);
	if (PyTuple_GET_SIZE(cols) != k || n < 0 || k > 64) {
		PyErr_SetString(PyExc_ValueError, "eval_many: mismatched columns");
		return NULL;
	}
	lego_ctx *ctx = self->owner->ctx;
	Py_buffer bufs[64];
	const lego_expr *syms[64];
	Py_ssize_t got = 0;
	PyObject *out = NULL;
	lego_env *env = lego_env_new(ctx);
	if (!env)
		return lego_py_raise(ctx);
	for (; got < k; got++) {
		PyObject *c = PyTuple_GET_ITEM(cols, got);
		const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, got));
		if (!name || PyObject_GetBuffer(c, &bufs[got], PyBUF_SIMPLE))
			goto out;
		if (bufs[got].len != n * 8) {
			PyBuffer_Release(&bufs[got]);
			PyErr_SetString(PyExc_ValueError, "eval_many: column length");
			goto out;
		}
		syms[got] = lego_sym_find(ctx, name);
	}
	out = PyBytes_FromStringAndSize(NULL, n * 8);
	if (!out)
		goto out;
	int64_t *res = (int64_t *)(void *)PyBytes_AS_STRING(out);
	for (Py_ssize_t i = 0; i < n; i++) {
		for (Py_ssize_t j = 0; j < k; j++)
			if (syms[j])
				lego_env_bind(env, syms[j],
					      ((const int64_t *)bufs[j].buf)[i]);
		if (lego_expr_eval(ctx, self->e, env, &res[i]) != LEGO_OK) {
			Py_CLEAR(out);
			lego_py_raise(ctx);
			break;
		}
	}
out:
	for (Py_ssize_t j = 0; j < got; j++)
		PyBuffer_Release(&bufs[j]);
	lego_env_free(env);
	return out;
}

static PyObject *expr_symbols(lego_py_expr *self, PyObject *unused)
{
	lego_expr **syms;
	size_t n;
	if (lego_expr_symbols(self->owner->ctx, self->e, &syms, &n) != LEGO_OK)
		return lego_py_raise(self->owner->ctx);
	PyObject *set = PySet_New(NULL);
	for (size_t k = 0; set && k < n; k++) {
		PyObject *s = PyUnicode_FromString(lego_expr_name(syms[k]));
		if (!s || PySet_Add(set, s))
			Py_CLEAR(set);
		Py_XDECREF(s);
	}
	free(syms);
	return set;
}

static PyObject *expr_ops(lego_py_expr *self, PyObject *unused)
{
	return PyLong_FromSize_t(lego_expr_ops(&self->e, 1));
}

static PyObject *expr_subs(lego_py_expr *self, PyObject *args)
{
	PyObject *dict;
	if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &dict))
		return NULL;
	lego_ctx *ctx = self->owner->ctx;
	Py_ssize_t pos = 0, n = 0;
	PyObject *k, *v;
	lego_expr *from[64], *to[64];
	while (PyDict_Next(dict, &pos, &k, &v)) {
		const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
		if (!name || n == 64) {
			PyErr_SetString(PyExc_TypeError, "subs: up to 64 str keys");
			return NULL;
		}
		lego_expr *sym = lego_sym_find(ctx, name);
		if (!sym)
			continue;
		if (!(to[n] = lego_py_expr_arg(self->owner, v)))
			return NULL;
		from[n++] = sym;
	}
	return lego_py_expr_new(self->owner,
				lego_expr_subst(ctx, self->e, (size_t)n, from, to));
}

/* e(**env): ints give an int, numpy arrays a vectorised evaluation
 * (lego/_numeric.py broadcasts them and calls eval_many). */
static PyObject *expr_call(lego_py_expr *self, PyObject *args, PyObject *kw)
{
	if (PyTuple_GET_SIZE(args)) {
		PyErr_SetString(PyExc_TypeError,
				"give the values by name: e(i=1, j=2)");
		return NULL;
	}
	PyObject *mod = PyImport_ImportModule("lego._numeric");
	if (!mod)
		return NULL;
	PyObject *env = kw ? kw : PyDict_New();
	PyObject *r = env ? PyObject_CallMethod(mod, "evaluate", "OO", self, env)
			  : NULL;
	if (!kw)
		Py_XDECREF(env);
	Py_DECREF(mod);
	return r;
}

static PyMethodDef expr_methods[] = {
	{"print", (PyCFunction)expr_print, METH_VARARGS,
	 "print(lang='python') -> str: the expression in 'python', 'c',\n"
	 "'cuda', 'opencl' or 'triton'."},
	{"simplify", (PyCFunction)expr_simplify, METH_NOARGS,
	 "simplify() -> Expr: range-aware simplification under the facts."},
	{"eval", (PyCFunction)expr_eval, METH_VARARGS,
	 "eval(env={}) -> int: exact evaluation with {name: int}."},
	{"eval_many", (PyCFunction)expr_eval_many, METH_VARARGS,
	 "eval_many(names, columns, n) -> bytes: n evaluations, int64 columns."},
	{"symbols", (PyCFunction)expr_symbols, METH_NOARGS,
	 "symbols() -> set[str]: the names the expression mentions."},
	{"ops", (PyCFunction)expr_ops, METH_NOARGS,
	 "ops() -> int: operations, shared subexpressions counted once."},
	{"subs", (PyCFunction)expr_subs, METH_VARARGS,
	 "subs({name: int | Expr}) -> Expr: symbols replaced."},
	{NULL, NULL, 0, NULL}};

typedef lego_expr *(*binop_fn)(lego_ctx *, lego_expr *, lego_expr *);

/* a OP b with either side an int; the Expr side names the context. */
static PyObject *binop(PyObject *a, PyObject *b, binop_fn fn)
{
	lego_py_spec *owner = PyObject_TypeCheck(a, &lego_py_expr_type)
				      ? ((lego_py_expr *)a)->owner
				      : ((lego_py_expr *)b)->owner;
	if (!(PyLong_Check(a) || PyObject_TypeCheck(a, &lego_py_expr_type)) ||
	    !(PyLong_Check(b) || PyObject_TypeCheck(b, &lego_py_expr_type)))
		Py_RETURN_NOTIMPLEMENTED;
	lego_expr *x = lego_py_expr_arg(owner, a);
	lego_expr *y = x ? lego_py_expr_arg(owner, b) : NULL;
	if (!y)
		return NULL;
	return lego_py_expr_new(owner, fn(owner->ctx, x, y));
}

static PyObject *nb_add(PyObject *a, PyObject *b) { return binop(a, b, lego_add); }
static PyObject *nb_sub(PyObject *a, PyObject *b) { return binop(a, b, lego_sub); }
static PyObject *nb_mul(PyObject *a, PyObject *b) { return binop(a, b, lego_mul); }
static PyObject *nb_div(PyObject *a, PyObject *b) { return binop(a, b, lego_div); }
static PyObject *nb_mod(PyObject *a, PyObject *b) { return binop(a, b, lego_mod); }

static PyObject *nb_neg(PyObject *a)
{
	lego_py_expr *x = (lego_py_expr *)a;
	return lego_py_expr_new(x->owner, lego_neg(x->owner->ctx, x->e));
}

/* int(e) for a constant expression. */
static PyObject *nb_int(PyObject *a)
{
	lego_py_expr *x = (lego_py_expr *)a;
	int64_t v;
	if (!lego_expr_is_const(x->e, &v)) {
		PyErr_SetString(PyExc_TypeError,
				"not a constant: use eval() with values");
		return NULL;
	}
	return PyLong_FromLongLong(v);
}

static PyNumberMethods expr_number = {
	.nb_add = nb_add,
	.nb_subtract = nb_sub,
	.nb_multiply = nb_mul,
	.nb_floor_divide = nb_div,
	.nb_remainder = nb_mod,
	.nb_negative = nb_neg,
	.nb_int = nb_int,
	.nb_index = nb_int,
};

/* == and != are structural (nodes are hash-consed); ints compare with
 * constants. */
static PyObject *expr_richcompare(PyObject *a, PyObject *b, int op)
{
	if ((op != Py_EQ && op != Py_NE) ||
	    !PyObject_TypeCheck(a, &lego_py_expr_type))
		Py_RETURN_NOTIMPLEMENTED;
	lego_py_expr *x = (lego_py_expr *)a;
	int eq;
	if (PyObject_TypeCheck(b, &lego_py_expr_type)) {
		eq = x->e == ((lego_py_expr *)b)->e;
	} else if (PyLong_Check(b)) {
		int64_t v;
		long long w = PyLong_AsLongLong(b);
		if (w == -1 && PyErr_Occurred()) {
			PyErr_Clear();
			eq = 0;
		} else {
			eq = lego_expr_is_const(x->e, &v) && v == w;
		}
	} else {
		Py_RETURN_NOTIMPLEMENTED;
	}
	return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t expr_hash(lego_py_expr *self)
{
	int64_t v;
	if (lego_expr_is_const(self->e, &v)) {
		PyObject *i = PyLong_FromLongLong(v);
		Py_hash_t h = i ? PyObject_Hash(i) : -1;
		Py_XDECREF(i);
		return h;
	}
	/* Nodes are hash-consed: the address is the identity. */
	Py_hash_t h = (Py_hash_t)((uintptr_t)self->e >> 4);
	return h == -1 ? -2 : h;
}

PyTypeObject lego_py_expr_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "lego._lego.Expr",
	.tp_basicsize = sizeof(lego_py_expr),
	.tp_dealloc = (destructor)expr_dealloc,
	.tp_repr = (reprfunc)expr_repr,
	.tp_str = (reprfunc)expr_str,
	.tp_hash = (hashfunc)expr_hash,
	.tp_call = (ternaryfunc)expr_call,
	.tp_as_number = &expr_number,
	.tp_richcompare = expr_richcompare,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "An integer expression of liblego (made by a Spec). str() is\n"
		  "Python; print(lang) any target; + - * // % with ints and Exprs\n"
		  "of the same spec; == is structural.",
	.tp_methods = expr_methods,
};
