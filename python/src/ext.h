/* ext.h - the CPython extension lego._lego over include/lego.h: a parsed
 * spec (Spec) owning a context, and expressions (Expr) living in it. */
#ifndef LEGO_PY_EXT_H
#define LEGO_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "lego.h"

/* A parsed .lego text: its context owns every expression and layout. */
typedef struct {
	PyObject_HEAD
	lego_ctx *ctx;
	lego_spec *spec;
} lego_py_spec;

/* One expression of a Spec's context; keeps the Spec alive. */
typedef struct {
	PyObject_HEAD
	lego_py_spec *owner;
	lego_expr *e;
} lego_py_expr;

extern PyTypeObject lego_py_spec_type;
extern PyTypeObject lego_py_expr_type;

/* Raises lego.LegoError with the context's message; returns NULL. */
PyObject *lego_py_raise(lego_ctx *ctx);
/* Raises lego.LegoError with a message of the binding's own. */
PyObject *lego_py_raise_msg(const char *msg);
/* A new Expr of spec (NULL e: raises the context's error). */
PyObject *lego_py_expr_new(lego_py_spec *owner, lego_expr *e);
/* An int or an Expr of owner's context as an expression; NULL (with a
 * Python error) for anything else. */
lego_expr *lego_py_expr_arg(lego_py_spec *owner, PyObject *o);
/* The printing language named by s ("python", "c", "cuda", "opencl",
 * "triton"); -1 with a Python error for another name. */
int lego_py_lang(const char *s, lego_lang *lang);
/* A C string owned by the caller turned into a Python str (freed). */
PyObject *lego_py_take_str(lego_ctx *ctx, char *s);
/* {name: int} (None: none) as lego_define entries pointing into the
 * dict's strings; *out freed with PyMem_Free. */
int lego_py_defines(PyObject *dict, lego_define **out, size_t *n);
/* Fills env with {name: int} bindings of symbols known to ctx (others are
 * ignored: they cannot occur in its expressions). */
int lego_py_env_fill(lego_ctx *ctx, lego_env *env, PyObject *dict);

#endif
