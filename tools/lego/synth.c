/* synth.c - `lego synth`: the shared-memory layout of a tile chosen for
 * the TV accesses that read and write it, written as a .lego file whose
 * comments are the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_synth.h"
#include "commands_extra.h"
#include "expr/sbuf.h"

static const char synth_help[] =
	"Usage: lego synth FILE TV... --tile ROWSxCOLS [--space F,..] [--name NAME]\n"
	"                  [-o OUT] [-D SYM=VALUE]...\n\n"
	"Choose the shared-memory layout of a ROWS x COLS tile for the accesses\n"
	"TV... (`tv` layouts of FILE: the writers and the readers of the tile,\n"
	"each placed at every multiple of its footprint): the fewest\n"
	"wavefronts over all accesses, then the least padding, then the\n"
	"cheapest index expression, among row- and column-major orders,\n"
	"paddings, CuTe swizzles and XOR and rotation swizzles of chunks at\n"
	"any size (docs/synthesis.md).  Every access keeps its vectors.\n\n"
	"Prints a .lego file declaring layout NAME (default S), which every\n"
	"other command takes, after its report in comments: the layout chosen,\n"
	"its padding, the operations of its index expression, its bijectivity\n"
	"(checked on every element) and, per access, the bytes a thread moves\n"
	"per instruction, the instructions, the wavefronts against the ideal\n"
	"and the worst phase's conflict.\n\n"
	"Options:\n"
	"  --tile RxC      the tile: R rows of C elements (the TVs' type)\n"
	"  --space F,..    only these families: pad (row- and column-major,\n"
	"                  padded or not), cute, xor, rot (default: all)\n"
	"  --name NAME     the layout's name (default S)\n"
	"  -o OUT          write the file to OUT\n"
	"  -D NAME=VALUE   give the declared sym NAME a value (repeatable)\n"
	"  -h, --help      show this help\n";

static int parse_tile(const char *text, int64_t *rows, int64_t *cols)
{
	char *end;
	long long r = text ? strtoll(text, &end, 10) : 0;
	if (!text || end == text || (*end != 'x' && *end != 'X'))
		return cli_usage("synth", "--tile expects ROWSxCOLS (64x64)");
	const char *c_text = end + 1;
	long long c = strtoll(c_text, &end, 10);
	if (end == c_text || *end || r < 1 || c < 1 || r > 1 << 20 ||
	    c > 1 << 20)
		return cli_usage("synth", "--tile expects ROWSxCOLS of "
				 "positive sizes, got '%s'", text);
	*rows = r;
	*cols = c;
	return CLI_OK;
}

static int parse_space(const char *text, unsigned *families)
{
	static const char *const names[] = {"pad", "cute", "xor", "rot"};
	*families = 0;
	for (const char *p = text; p && *p;) {
		size_t n = strcspn(p, ","), k;
		for (k = 0; k < 4; k++)
			if (strlen(names[k]) == n && !strncmp(p, names[k], n))
				break;
		if (k == 4)
			return cli_usage("synth", "--space expects families "
					 "pad, cute, xor, rot separated by "
					 "commas, got '%s'", text);
		*families |= 1u << k;
		p += n + (p[n] == ',');
	}
	return CLI_OK;
}

static void put_access(lego_sbuf *b, const lego_tv *tv,
		       const lego_access_cost *c)
{
	char vec[32];
	if (tv->ldmatrix)
		snprintf(vec, sizeof vec, "ldmatrix x%d", tv->ldmatrix);
	else
		snprintf(vec, sizeof vec, "%lld B", (long long)c->vec_bytes);
	lego_sbuf_printf(b, "#   %-10s %-12s %12lld %10lld %6lld %6lld-way\n",
			 tv->name, vec, (long long)c->instructions,
			 (long long)c->wavefronts, (long long)c->ideal,
			 (long long)c->worst_ways);
}

static char *report(const lego_synth_result *r, const lego_tv *const *tvs,
		    size_t n, int64_t rows, int64_t cols)
{
	lego_sbuf b = {0};
	lego_sbuf_printf(&b, "# lego synth: a %lld x %lld tile of %lld-byte "
			 "elements, %zu access%s, %lld layouts considered\n",
			 (long long)rows, (long long)cols,
			 (long long)tvs[0]->elem_bytes, n, n == 1 ? "" : "es",
			 (long long)r->candidates);
	lego_sbuf_printf(&b, "# chosen: %s\n", r->desc);
	lego_sbuf_printf(&b, "# padding: %lld bytes; index expression: %lld "
			 "operations; bijective: %s\n",
			 (long long)r->pad_bytes, (long long)r->expr_ops,
			 r->bijective ? "yes (checked on every element)"
				      : "NO");
	lego_sbuf_printf(&b, "#   %-10s %-12s %12s %10s %6s %10s\n", "access",
			 "per thread", "instructions", "wavefronts", "ideal",
			 "worst");
	for (size_t k = 0; k < n; k++)
		put_access(&b, tvs[k], &r->cost[k]);
	lego_sbuf_printf(&b, "# total: %lld wavefronts (ideal %lld)\n%s",
			 (long long)r->wavefronts, (long long)r->ideal,
			 r->lego);
	return lego_sbuf_take(&b);
}

static int run_synth(const cli_args *a, const char *name, const char *out,
		     int64_t rows, int64_t cols, unsigned families)
{
	cli_session s;
	int rc = cli_open(&s, a, NULL);
	const lego_tv *tvs[LEGO_SYNTH_MAX_ACCESSES];
	size_t n = a->npos - 1;
	if (rc == CLI_OK && n > LEGO_SYNTH_MAX_ACCESSES)
		rc = cli_fail("%zu accesses; at most %d", n,
			      LEGO_SYNTH_MAX_ACCESSES);
	for (size_t k = 0; rc == CLI_OK && k < n; k++)
		if (!(tvs[k] = lego_spec_tv(s.spec, a->pos[k + 1])))
			rc = cli_fail("%s: no tv layout named '%s'", s.file,
				      a->pos[k + 1]);
	lego_synth_result r;
	if (rc == CLI_OK && lego_synth(s.ctx, name, rows, cols,
				       tvs[0]->elem_bytes, n, tvs, families,
				       &r))
		rc = cli_ctx_fail(s.ctx);
	if (rc == CLI_OK) {
		char *text = report(&r, tvs, n, rows, cols);
		rc = text ? cli_write_output(out, text, a->pos, 1)
			  : cli_fail("out of memory");
		free(text);
	}
	if (s.ctx)
		cli_close(&s);
	return rc;
}

int lego_cmd_synth(int argc, char **argv)
{
	const char *tile = NULL, *name = NULL, *out = NULL, *space = NULL;
	const extra_opt opts[] = {
		{"--tile", &tile, NULL}, {"--name", &name, NULL},
		{"-o", &out, NULL}, {"--space", &space, NULL},
	};
	unsigned families = 0;
	cli_args a;
	int64_t rows = 0, cols = 0;
	int rc = extra_take_opts("synth", &argc, argv, opts,
				 sizeof opts / sizeof opts[0]);
	if (rc != CLI_OK)
		return rc;
	rc = cli_args_parse(&a, "synth", argc, argv);
	if (rc == CLI_OK && a.help)
		fputs(synth_help, stdout);
	else if (rc == CLI_OK && a.npos < 2)
		rc = cli_usage("synth", "expected FILE TV..., got %zu "
			       "arguments", a.npos);
	else if (rc == CLI_OK && (rc = parse_tile(tile, &rows, &cols)) ==
		 CLI_OK && (rc = parse_space(space, &families)) == CLI_OK)
		rc = run_synth(&a, name ? name : "S", out, rows, cols,
			       families);
	cli_args_free(&a);
	return rc;
}
