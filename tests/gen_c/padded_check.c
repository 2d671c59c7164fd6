/* padded_check.c - prints NAME_at over every logical index of a rank-4
 * padded layout, row-major, -1 where NAME_mask is 0 (the format of
 * `lego table`), and checks that NAME_inv of every physical index of the
 * real tensor lands inside the mask and NAME_at maps it back.  Built by
 * tests/gen_c/run.sh with
 *   -DHDR='"X.h"' -DAT=X_at -DINV=X_inv -DMASK=X_mask -DD0..D3=dims
 *   -DREAL=size */
#include <stdio.h>

#include HDR

int main(void)
{
	int bad = 0, first = 1;
	for (long long i = 0; i < D0; i++)
		for (long long j = 0; j < D1; j++)
			for (long long a = 0; a < D2; a++)
				for (long long b = 0; b < D3; b++) {
					long long x = MASK(i, j, a, b) ? AT(i, j, a, b) : -1;
					printf("%s%lld", first ? "" : " ", x);
					first = 0;
				}
	printf("\n");
	for (long long x = 0; x < REAL; x++) {
		long long i, j, a, b;
		INV(x, &i, &j, &a, &b);
		bad |= !MASK(i, j, a, b) || AT(i, j, a, b) != x;
	}
	if (bad)
		fprintf(stderr, "inverse mismatch\n");
	return bad;
}
