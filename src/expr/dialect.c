/* dialect.c - the spelling table of the printer's dialects and the helper
 * definitions their text relies on. */
#include "expr/print.h"

static const lego_dialect_info dialects[] = {
	[LEGO_DIALECT_C] = {1, 0, 1, "long long", "int", "LL", "lego_isqrt"},
	[LEGO_DIALECT_CUDA] = {1, 0, 1, "long long", "int", "LL", "lego_isqrt"},
	[LEGO_DIALECT_OPENCL] = {1, 0, 1, "long", "int", "L", "lego_isqrt"},
	[LEGO_DIALECT_PYTHON] = {0, 0, 0, NULL, NULL, "", "math.isqrt"},
	[LEGO_DIALECT_TRITON] = {0, 1, 1, NULL, NULL, "", NULL},
};

const lego_dialect_info *lego_dialect_get(lego_dialect d)
{
	return &dialects[d];
}

lego_dialect lego_dialect_of_lang(lego_lang lang)
{
	switch (lang) {
	case LEGO_LANG_C: return LEGO_DIALECT_C;
	case LEGO_LANG_CUDA: return LEGO_DIALECT_CUDA;
	case LEGO_LANG_OPENCL: return LEGO_DIALECT_OPENCL;
	case LEGO_LANG_TRITON: return LEGO_DIALECT_TRITON;
	case LEGO_LANG_PYTHON: break;
	}
	return LEGO_DIALECT_PYTHON;
}

int lego_dialect_supports(lego_dialect d, const lego_expr *e)
{
	if (e->kind == LEGO_ISQRT && !dialects[d].isqrt)
		return 0;
	for (uint32_t i = 0; i < e->nargs; i++)
		if (!lego_dialect_supports(d, e->args[i]))
			return 0;
	return 1;
}

/* Exact floor square root by the digit-by-digit method: integers only, so
 * it needs neither libm nor double support on the device.  The argument
 * is >= 0 wherever LEGO uses isqrt (SEMANTICS.md). */
#define ISQRT_BODY(U, ONE)                                                  \
	"{\n"                                                               \
	"\t" U " n = (" U ")x, r = 0, bit = " ONE " << 62;\n"                \
	"\twhile (bit > n)\n"                                               \
	"\t\tbit >>= 2;\n"                                                  \
	"\tfor (; bit; bit >>= 2) {\n"                                      \
	"\t\tif (n >= r + bit) {\n"                                         \
	"\t\t\tn -= r + bit;\n"                                             \
	"\t\t\tr = (r >> 1) + bit;\n"                                       \
	"\t\t} else {\n"                                                    \
	"\t\t\tr >>= 1;\n"                                                  \
	"\t\t}\n"                                                           \
	"\t}\n"                                                             \
	"\treturn r;\n"                                                     \
	"}\n"
#define GUARD_OPEN "#ifndef LEGO_ISQRT_DEFINED\n#define LEGO_ISQRT_DEFINED\n"
#define GUARD_CLOSE "#endif\n"

const char *lego_dialect_helpers(lego_dialect d)
{
	switch (d) {
	case LEGO_DIALECT_C:
		return GUARD_OPEN "static inline long long lego_isqrt(long long "
				  "x)\n" ISQRT_BODY("unsigned long long",
						    "1ULL") GUARD_CLOSE;
	case LEGO_DIALECT_CUDA:
		return GUARD_OPEN "static __host__ __device__ __forceinline__ "
				  "long long lego_isqrt(long long x)\n"
			ISQRT_BODY("unsigned long long", "1ULL") GUARD_CLOSE;
	case LEGO_DIALECT_OPENCL:
		return GUARD_OPEN "static inline long lego_isqrt(long x)\n"
			ISQRT_BODY("ulong", "1UL") GUARD_CLOSE;
	default:
		return "";
	}
}
