/* table_check.c - prints NAME_at over every logical index of a rank-2
 * layout, row-major (the format of `lego table`), and checks that NAME_inv
 * inverts it.  Built by tests/gen_c/run.sh with
 *   -DHDR='"X.h"' -DAT=X_at -DINV=X_inv -DD0=rows -DD1=cols */
#include <stdio.h>

#include HDR

int main(void)
{
	int bad = 0;
	for (long long i = 0; i < D0; i++)
		for (long long j = 0; j < D1; j++) {
			long long x = AT(i, j), a = -1, b = -1;
			INV(x, &a, &b);
			bad |= a != i || b != j;
			printf("%s%lld", i || j ? " " : "", x);
		}
	printf("\n");
	if (bad)
		fprintf(stderr, "inverse mismatch\n");
	return bad;
}
