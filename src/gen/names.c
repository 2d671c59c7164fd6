/* names.c - names that generated code cannot use: the keywords of each
 * target language and the names the generators introduce.  A symbol of
 * the spec is printed as it is named, so one called `for` would give C
 * that does not compile; such names are refused (with the placeholder's
 * position) rather than mangled, so that the generated code keeps the
 * user's names. */
#include <string.h>

#include "core/core.h"
#include "expr/print.h"
#include "gen/emit.h"

static const char *const c_words[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
	"_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
	"_Static_assert", "_Thread_local",
	/* C23 keywords and the macros of <stdbool.h>, <stddef.h> */
	"bool", "true", "false", "alignas", "alignof", "constexpr", "nullptr",
	"static_assert", "thread_local", "typeof", "typeof_unqual", "NULL",
	NULL};

static const char *const cpp_words[] = {
	"and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t",
	"char16_t", "char32_t", "class", "compl", "concept", "consteval",
	"constinit", "const_cast", "co_await", "co_return", "co_yield",
	"decltype", "delete", "dynamic_cast", "explicit", "export", "friend",
	"mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator",
	"or", "or_eq", "private", "protected", "public", "reinterpret_cast",
	"requires", "static_cast", "template", "this", "throw", "try",
	"typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
	/* CUDA's built-in variables */
	"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", NULL};

static const char *const opencl_words[] = {
	"kernel", "global", "local", "constant", "private", "read_only",
	"write_only", "read_write", "uniform", "pipe", "half", "uchar",
	"ushort", "uint", "ulong", "size_t", "ptrdiff_t", "intptr_t",
	"uintptr_t", "sampler_t", "event_t", "image1d_t", "image2d_t",
	"image3d_t", "image1d_array_t", "image1d_buffer_t", "image2d_array_t",
	NULL};

/* Python keywords, and the modules generated Triton refers to. */
static const char *const python_words[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	"while", "with", "yield", "tl", "triton", NULL};

static int listed(const char *const *words, const char *name)
{
	for (; *words; words++)
		if (!strcmp(*words, name))
			return 1;
	return 0;
}

/* OpenCL's vector types: char2 .. double16. */
static int opencl_vector(const char *name)
{
	static const char *const base[] = {
		"char", "uchar", "short", "ushort", "int", "uint", "long",
		"ulong", "float", "double", "half", "bool", NULL};
	for (size_t i = 0; base[i]; i++) {
		size_t n = strlen(base[i]);
		if (!strncmp(name, base[i], n) &&
		    (!strcmp(name + n, "2") || !strcmp(name + n, "3") ||
		     !strcmp(name + n, "4") || !strcmp(name + n, "8") ||
		     !strcmp(name + n, "16")))
			return 1;
	}
	return 0;
}

const char *gen_name_clash(lego_target target, const char *name)
{
	if (!strncmp(name, "lego_", 5))
		return "reserved for the code liblego generates";
	switch (target) {
	case LEGO_TARGET_C:
		return listed(c_words, name) ? "a keyword of C" : NULL;
	case LEGO_TARGET_CUDA:
		return listed(c_words, name) || listed(cpp_words, name)
			       ? "a keyword or built-in of CUDA C++"
			       : NULL;
	case LEGO_TARGET_OPENCL:
		return listed(c_words, name) || listed(opencl_words, name) ||
				       opencl_vector(name)
			       ? "a keyword or type of OpenCL C"
			       : NULL;
	case LEGO_TARGET_TRITON:
		return listed(python_words, name)
			       ? "a keyword of Python or a module generated "
				 "Triton uses"
			       : NULL;
	case LEGO_TARGET_MLIR:
		return NULL; /* %names: check_symbols of emit_mlir.c */
	}
	return NULL;
}

static int check(lego_ctx *ctx, lego_target target, const lego_expr *e,
		 lego_memo *seen)
{
	if (lego_memo_get(seen, e))
		return LEGO_OK;
	if (!lego_memo_put(seen, e))
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	const char *why;
	if (e->kind == LEGO_SYM &&
	    (why = gen_name_clash(target, e->sym->name)))
		return lego_fail(ctx, LEGO_ERR, "the name '%s' is %s: rename "
				 "it in the spec", e->sym->name, why);
	for (uint32_t i = 0; i < e->nargs; i++)
		if (check(ctx, target, e->args[i], seen) != LEGO_OK)
			return LEGO_ERR;
	return LEGO_OK;
}

int gen_check_names(lego_ctx *ctx, lego_target target, size_t n,
		    lego_expr *const *es)
{
	lego_memo seen;
	if (lego_memo_init(&seen, 64) != LEGO_OK)
		return lego_fail(ctx, LEGO_ENOMEM, "out of memory");
	int rc = LEGO_OK;
	for (size_t i = 0; i < n && rc == LEGO_OK; i++)
		rc = check(ctx, target, es[i], &seen);
	lego_memo_free(&seen);
	return rc;
}
