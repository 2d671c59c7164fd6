/* fuzz_gen.c - libFuzzer target for templates and code generation.
 *
 * The input is a template with its spec in a {% lego %} block; it is
 * expanded for every target (C, CUDA, OpenCL, Triton, MLIR), which runs
 * the placeholder parser, the simplifier, the width analysis, the
 * emitters and the splicing of values into lines.  Errors are expected;
 * a crash, a leak, undefined behaviour or a timeout is a finding.
 *
 * The same bytes also drive a template built here from pieces random
 * bytes rarely spell: symbols named like keywords of the targets and like
 * the generators' own names, guards (select, &&, ||, the template's ?:)
 * around divisions, modulos, shifts, isqrt and cdiv by expressions that
 * can be zero or negative, several spec blocks, constant indices.  There
 * every error must carry the template's position (an error without one is
 * a finding too: abort). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lego.h"

#define MAX_INPUT 4096
#define MAX_BUILT 8192

/* Names from the keyword lists of C, C++/CUDA, OpenCL C and Python, the
 * generators' names, and plain ones. */
static const char *const names[] = {
	"for", "int", "long", "bool", "class", "template", "threadIdx",
	"kernel", "uint4", "half", "lambda", "None", "tl", "lego_x", "lego_i0",
	"t7_0", "tmp7_0", "i0", "i1", "base", "row", "a", "T", "A_at", "M",
	"N", "n", "x", "k"};

/* Expressions over the index k in [-4, 4) and the sym (named by the
 * input) s; %s places: the partial operation's operands. */
static const char *const partial[] = {
	"%s / %s", "%s %% %s", "%s << %s", "%s >> %s", "cdiv(%s, %s)",
	"isqrt(%s - %s)"};
static const char *const guard[] = {
	"select(%s != 0, %s, 7)", "(%s == 0 || %s > 1)",
	"(%s != 0 && %s < 2)", "(%s > 0 ? %s : 1)"};
static const char *const operand[] = {"k", "k - 1", "k + 4", "S", "S - 2",
				       "1 - k", "k * S", "3", "-5", "A[0, 1]",
				       "A[k + 4, 9]", "A[1, k + 4]"};

typedef struct bytes {
	const uint8_t *p;
	size_t n;
} bytes;

static unsigned pick(bytes *b, unsigned n)
{
	if (!b->n)
		return 0;
	b->n--;
	return *b->p++ % n;
}

#define PICK(b, a) (a)[pick(b, sizeof(a) / sizeof((a)[0]))]

/* One placeholder: a guarded partial operation, twice on the line so that
 * the temporaries of the line meet it. */
static void placeholder(bytes *b, char *out, size_t cap)
{
	char op[256], g[512];
	const char *d = PICK(b, operand);
	snprintf(op, sizeof op, PICK(b, partial), PICK(b, operand), d);
	snprintf(g, sizeof g, PICK(b, guard), d, op);
	snprintf(out, cap, "{{ %s }} + {{ %s + %s }}", g, g, PICK(b, operand));
}

static size_t build(bytes *b, char *out, size_t cap)
{
	const char *sym = PICK(b, names);
	size_t len = (size_t)snprintf(
		out, cap, "// {%% lego %%}\nsym %s\nlet S = %s\n"
			  "index k in [-4, 4)\n// {%% end %%}\n",
		sym, sym);
	len += (size_t)snprintf(out + len, cap - len,
				"/* {%% lego %%} */\nlayout A = Row(8, %s)\n"
				"/* {%% end %%} */\n",
				pick(b, 2) ? "S" : "8");
	for (unsigned lines = 1 + pick(b, 4); lines-- && len < cap;) {
		char ph[2048];
		placeholder(b, ph, sizeof ph);
		len += (size_t)snprintf(out + len, cap - len, "%s = %s;\n",
					PICK(b, names), ph);
	}
	return len < cap ? len : cap - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const targets[] = {"c", "cuda", "opencl", "triton",
					      "mlir"};
	if (size > MAX_INPUT)
		return 0;
	char built[MAX_BUILT];
	bytes b = {data, size};
	size_t blen = build(&b, built, sizeof built);
	for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
		for (int mode = 0; mode < 2; mode++) {
			lego_ctx *ctx = lego_ctx_new();
			if (!ctx)
				return 0;
			lego_gen_opts opts = {targets[t], NULL, NULL, 0, NULL};
			const char *text = mode ? built : (const char *)data;
			char *out = lego_gen(ctx, "fuzz.tpl", text,
					     mode ? blen : size, &opts);
			const char *err = lego_ctx_error(ctx);
			if (mode && !out && strncmp(err, "fuzz.tpl:", 9)) {
				fprintf(stderr, "error without a position: "
					"%s\n--- template:\n%s", err, built);
				abort();
			}
			free(out);
			lego_ctx_free(ctx);
		}
	}
	return 0;
}
