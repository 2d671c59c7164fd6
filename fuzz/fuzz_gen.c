/* fuzz_gen.c - libFuzzer target for templates and code generation.
 *
 * The input is a template with its spec in a {% lego %} block; it is
 * expanded for every target (C, CUDA, OpenCL, Triton, MLIR), which runs
 * the placeholder parser, the simplifier, the width analysis, the
 * emitters and the splicing of values into lines.  Errors are expected;
 * a crash, a leak, undefined behaviour or a timeout is a finding. */
#include <stdint.h>
#include <stdlib.h>

#include "lego.h"

#define MAX_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const targets[] = {"c", "cuda", "opencl", "triton",
					      "mlir"};
	if (size > MAX_INPUT)
		return 0;
	for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
		lego_ctx *ctx = lego_ctx_new();
		if (!ctx)
			return 0;
		lego_gen_opts opts = {targets[t], NULL, NULL, 0, NULL};
		free(lego_gen(ctx, "fuzz.tpl", (const char *)data, size, &opts));
		lego_ctx_free(ctx);
	}
	return 0;
}
