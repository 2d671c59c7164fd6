/* model.c - liblego's count of the same accesses as smem.cu: for each
 * line of the manifest, the wavefronts lego_tv_access_cost predicts (and
 * the ideal), to set beside ncu's counters (bench/synth/gpu/run.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lego.h"

static const lego_tv *tv_of(lego_ctx *ctx, const char *kind, int eb)
{
	if (!strncmp(kind, "st", 2))
		return lego_tv_builtin(ctx, LEGO_TV_COPY, atoi(kind + 2), eb);
	if (!strncmp(kind, "ldm", 3))
		return lego_tv_builtin(ctx, LEGO_TV_LDMATRIX, atoi(kind + 3),
				       2);
	lego_expr *d[2] = {lego_const(ctx, 32), lego_const(ctx, 1)};
	return lego_tv_new(ctx, "col", lego_row(ctx, 2, d), 32, 1, 4);
}

int main(int argc, char **argv)
{
	FILE *m = argc > 1 ? fopen(argv[1], "r") : NULL;
	char id[64], table[256], kind[16];
	int rows, cols, lcols, eb;
	if (!m)
		return 2;
	while (fscanf(m, "%63s %255s %d %d %d %d %15s", id, table, &rows, &cols,
		      &lcols, &eb, kind) == 7) {
		lego_ctx *ctx = lego_ctx_new();
		FILE *f = fopen(table, "r");
		long long v;
		int64_t *all = malloc(sizeof *all * 1 << 20), n = 0;
		while (f && fscanf(f, "%lld", &v) == 1)
			all[n++] = v;
		if (f)
			fclose(f);
		int64_t *off = malloc(sizeof *off * (size_t)(rows * cols));
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++)
				off[r * cols + c] = all[r * lcols + c];
		lego_smem s = {rows, cols, n, off};
		lego_access_cost cost;
		const lego_tv *tv = tv_of(ctx, kind, eb);
		if (!tv || lego_tv_access_cost(ctx, tv, &s, &cost) != LEGO_OK) {
			fprintf(stderr, "%s: %s\n", id, lego_ctx_error(ctx));
			return 1;
		}
		printf("%s %s %lld %lld\n", id, kind,
		       (long long)cost.wavefronts, (long long)cost.ideal);
		free(all);
		free(off);
		lego_ctx_free(ctx);
	}
	return 0;
}
