/* Prints the offset of every element of the synthesised layout S,
 * row-major, from the expression lego gen writes. */
#include <stdio.h>

int main(void)
{
	for (int r = 0; r < ROWS; r++) {
		for (int c = 0; c < COLS; c++) {
			long long o = {{ S[r, c] }};
			printf("%s%lld", r || c ? " " : "", o);
		}
	}
	printf("\n");
	return 0;
}
