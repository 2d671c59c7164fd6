/* module.c - lego._lego: the error type, shared helpers and lego_gen. */
#include <stdlib.h>
#include <string.h>

#include "ext.h"

/* Set once when the module is imported, read-only afterwards. */
static PyObject *lego_error_type;

/* "file:line:col: error: ..." gives the exception filename, line and col
 * (None when the message carries no position). */
static void set_location(PyObject *exc, const char *msg)
{
	const char *tag = strstr(msg, ": error: ");
	PyObject *file = Py_None, *line = Py_None, *col = Py_None;
	Py_INCREF(file), Py_INCREF(line), Py_INCREF(col);
	long l, c;
	char tail[2];
	if (tag) {
		/* Walk back over ":col" and ":line". */
		const char *p = tag;
		const char *colon2 = NULL, *colon1 = NULL;
		for (const char *q = msg; q < p; q++)
			if (*q == ':')
				colon1 = colon2, colon2 = q;
		if (colon1 && sscanf(colon1, ":%ld:%ld%1[:]", &l, &c, tail) == 3) {
			Py_SETREF(file, PyUnicode_FromStringAndSize(msg, colon1 - msg));
			Py_SETREF(line, PyLong_FromLong(l));
			Py_SETREF(col, PyLong_FromLong(c));
		} else {
			Py_SETREF(file, PyUnicode_FromStringAndSize(msg, tag - msg));
		}
	}
	if (file && line && col) {
		PyObject_SetAttrString(exc, "filename", file);
		PyObject_SetAttrString(exc, "line", line);
		PyObject_SetAttrString(exc, "col", col);
	}
	Py_XDECREF(file), Py_XDECREF(line), Py_XDECREF(col);
}

PyObject *lego_py_raise_msg(const char *msg)
{
	PyObject *exc = PyObject_CallFunction(lego_error_type, "s", msg);
	if (!exc)
		return NULL;
	set_location(exc, msg);
	PyErr_Clear();
	PyErr_SetObject(lego_error_type, exc);
	Py_DECREF(exc);
	return NULL;
}

PyObject *lego_py_raise(lego_ctx *ctx)
{
	const char *msg = ctx ? lego_ctx_error(ctx) : "";
	return lego_py_raise_msg(*msg ? msg : "liblego failed without a message");
}

PyObject *lego_py_take_str(lego_ctx *ctx, char *s)
{
	if (!s)
		return lego_py_raise(ctx);
	PyObject *r = PyUnicode_FromString(s);
	free(s);
	return r;
}

int lego_py_lang(const char *s, lego_lang *lang)
{
	static const struct {
		const char *name;
		lego_lang lang;
	} langs[] = {{"python", LEGO_LANG_PYTHON}, {"c", LEGO_LANG_C},
		     {"cuda", LEGO_LANG_CUDA},     {"opencl", LEGO_LANG_OPENCL},
		     {"triton", LEGO_LANG_TRITON}};
	for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++)
		if (!strcmp(s, langs[i].name)) {
			*lang = langs[i].lang;
			return 0;
		}
	PyErr_Format(PyExc_ValueError,
		     "unknown language '%s' (python, c, cuda, opencl, triton)", s);
	return -1;
}

/* {name: int} as lego_define entries pointing into the dict's strings
 * (valid while the dict lives). */
int lego_py_defines(PyObject *dict, lego_define **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!dict || dict == Py_None)
		return 0;
	if (!PyDict_Check(dict)) {
		PyErr_SetString(PyExc_TypeError, "defines must be a dict");
		return -1;
	}
	Py_ssize_t size = PyDict_Size(dict), pos = 0;
	lego_define *defs = PyMem_Calloc(size ? (size_t)size : 1, sizeof *defs);
	if (!defs) {
		PyErr_NoMemory();
		return -1;
	}
	PyObject *k, *v;
	size_t i = 0;
	while (PyDict_Next(dict, &pos, &k, &v)) {
		const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
		long long value = name ? PyLong_AsLongLong(v) : -1;
		if (!name || (value == -1 && PyErr_Occurred())) {
			if (!PyErr_Occurred())
				PyErr_SetString(PyExc_TypeError,
						"defines: str keys, int values");
			PyMem_Free(defs);
			return -1;
		}
		defs[i++] = (lego_define){name, (int64_t)value};
	}
	*out = defs;
	*n = i;
	return 0;
}

int lego_py_env_fill(lego_ctx *ctx, lego_env *env, PyObject *dict)
{
	Py_ssize_t pos = 0;
	PyObject *k, *v;
	while (PyDict_Next(dict, &pos, &k, &v)) {
		const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
		if (!name) {
			PyErr_SetString(PyExc_TypeError, "env: str keys");
			return -1;
		}
		lego_expr *sym = lego_sym_find(ctx, name);
		if (!sym)
			continue;
		long long value = PyLong_AsLongLong(v);
		if (value == -1 && PyErr_Occurred())
			return -1;
		if (lego_env_bind(env, sym, (int64_t)value) != LEGO_OK) {
			lego_py_raise(ctx);
			return -1;
		}
	}
	return 0;
}

PyDoc_STRVAR(gen_doc,
"gen(text, filename, target, defines=None) -> str\n\n"
"Expands a template's {{ }} placeholders (lego_gen) for target 'c',\n"
"'cuda', 'opencl', 'triton' or 'mlir'; the spec is the template's\n"
"{% lego %} block.  Raises LegoError with the file:line:col message.");

static PyObject *py_gen(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *names[] = {"text", "filename", "target", "defines", NULL};
	const char *text, *filename, *target;
	Py_ssize_t len;
	PyObject *defines = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "s#ss|O", names, &text, &len,
					 &filename, &target, &defines))
		return NULL;
	lego_define *defs;
	size_t ndefs;
	if (lego_py_defines(defines, &defs, &ndefs))
		return NULL;
	lego_ctx *ctx = lego_ctx_new();
	if (!ctx) {
		PyMem_Free(defs);
		return PyErr_NoMemory();
	}
	lego_gen_opts opts = {target, NULL, defs, ndefs};
	char *out;
	Py_BEGIN_ALLOW_THREADS
	out = lego_gen(ctx, filename, text, (size_t)len, &opts);
	Py_END_ALLOW_THREADS
	PyObject *r = lego_py_take_str(ctx, out);
	lego_ctx_free(ctx);
	PyMem_Free(defs);
	return r;
}

static PyObject *py_smt_available(PyObject *self, PyObject *unused)
{
	return PyBool_FromLong(lego_smt_available());
}

static PyMethodDef methods[] = {
	{"gen", (PyCFunction)(void (*)(void))py_gen, METH_VARARGS | METH_KEYWORDS,
	 gen_doc},
	{"smt_available", py_smt_available, METH_NOARGS,
	 "smt_available() -> bool: whether liblego was built with Z3."},
	{NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "lego._lego",
	"liblego, the LEGO layout algebra, through include/lego.h.", -1,
	methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__lego(void);
PyMODINIT_FUNC PyInit__lego(void)
{
	if (PyType_Ready(&lego_py_spec_type) < 0 ||
	    PyType_Ready(&lego_py_expr_type) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&module);
	if (!m)
		return NULL;
	if (!lego_error_type)
		lego_error_type = PyErr_NewExceptionWithDoc(
			"lego.LegoError",
			"An error of liblego: the C library's message, with "
			"filename, line and col when it names a position.",
			PyExc_ValueError, NULL);
	if (!lego_error_type ||
	    PyModule_AddObjectRef(m, "LegoError", lego_error_type) < 0 ||
	    PyModule_AddObjectRef(m, "Spec", (PyObject *)&lego_py_spec_type) < 0 ||
	    PyModule_AddObjectRef(m, "Expr", (PyObject *)&lego_py_expr_type) < 0 ||
	    PyModule_AddStringConstant(m, "version", LEGO_VERSION) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
