/* table.c - `lego table`: the physical index of every logical index. */
#include <stdio.h>

#include "cli.h"

/* Beyond this the table is not worth printing (2^31 numbers are over
 * 20 GB of text); memory does not grow with the size: rows stream. */
#define TABLE_MAX ((int64_t)1 << 31)

/* Prints a chunk; stops the walk at the first failed write (a full disk
 * or a closed pipe would otherwise go on for every element). */
static int print_chunk(void *arg, int64_t total, int64_t first,
		       const int64_t *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf(first + (int64_t)i ? " %lld" : "%lld",
		       (long long)vals[i]);
	return ferror(stdout) ? LEGO_ERR : LEGO_OK;
}

static int print_table(cli_session *s, const char *name)
{
	int64_t size;
	char needs[512];
	switch (cli_concrete_size(s, s->layout, &size, needs, sizeof needs)) {
	case SIZE_ERROR:
		return cli_ctx_fail(s->ctx);
	case SIZE_SYMBOLIC:
		return cli_fail_at(s, name, "layout %s has symbolic sizes: "
				   "give values with%s", name, needs);
	case SIZE_OVERFLOW:
		return cli_fail_at(s, name, "the size of layout %s does not "
				   "fit in 64 bits", name);
	case SIZE_CONCRETE:
		break;
	}
	if (size > TABLE_MAX)
		return cli_fail_at(s, name, "layout %s has %lld elements, more "
				   "than a table shows (at most 2^31 = %lld; "
				   "docs/language.md, \"Limits\")", name,
				   (long long)size, (long long)TABLE_MAX);
	int rc = lego_layout_table_each(s->ctx, s->layout, NULL, print_chunk,
					NULL);
	if (rc != LEGO_OK && ferror(stdout))
		return cli_fail("standard output: cannot write");
	if (rc != LEGO_OK)
		return cli_ctx_fail(s->ctx);
	putchar('\n');
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
