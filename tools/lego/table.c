/* table.c - `lego table`: the physical index of every logical index. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Beyond this the table is not worth printing (and may not fit). */
#define TABLE_MAX ((int64_t)1 << 28)

static int print_table(cli_session *s, const char *name)
{
	int64_t size;
	char needs[512];
	switch (cli_concrete_size(s, s->layout, &size, needs, sizeof needs)) {
	case SIZE_ERROR:
		return cli_ctx_fail(s->ctx);
	case SIZE_SYMBOLIC:
		return cli_fail("layout %s has symbolic sizes: give values with%s",
				name, needs);
	case SIZE_OVERFLOW:
		return cli_fail("the size of layout %s does not fit in 64 bits",
				name);
	case SIZE_CONCRETE:
		break;
	}
	if (size > TABLE_MAX)
		return cli_fail("layout %s has %lld elements, more than a table "
				"shows (at most 2^28 = %lld; docs/language.md, "
				"\"Limits\")", name, (long long)size,
				(long long)TABLE_MAX);
	int64_t *out = malloc((size_t)size * sizeof *out);
	size_t n = 0;
	if (!out)
		return cli_fail("out of memory");
	if (lego_layout_table(s->ctx, s->layout, NULL, out, (size_t)size, &n)) {
		free(out);
		return cli_ctx_fail(s->ctx);
	}
	for (size_t i = 0; i < n; i++)
		printf(i ? " %lld" : "%lld", (long long)out[i]);
	putchar('\n');
	free(out);
	return CLI_OK;
}

int cmd_table(const cli_args *a)
{
	cli_session s;
	int rc = cli_open(&s, a, a->pos[1]);
	if (!rc)
		rc = print_table(&s, a->pos[1]);
	cli_close(&s);
	return rc;
}
