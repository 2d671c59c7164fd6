/* nw.c - Needleman-Wunsch scores computed in a buffer stored by
 * anti-diagonals, through the accessor `lego accessor ../nw.lego W` writes:
 * the loop body is the textbook one, only `buff(i, j)` is redirected.
 *
 *   lego accessor ../nw.lego W --target c -D n=NW -o W.h
 *   cc -DNW=17 -I. nw.c && ./a.out
 */
#include <stdio.h>

#include "W.h"

#define GAP 2

static long long base[NW * NW];
static long long ref[NW][NW];
#define buff(i, j) base[W_at(i, j)]

static long long max3(long long a, long long b, long long c)
{
	long long m = a > b ? a : b;
	return m > c ? m : c;
}

static long long sim(int i, int j)
{
	return (i * 7 + 3) % 4 == (j * 5 + 1) % 4 ? 3 : -1;
}

/* The same recurrence over a plain array and over the accessor. */
static void fill(void)
{
	for (int i = 0; i < NW; i++) {
		ref[i][0] = buff(i, 0) = -GAP * i;
		ref[0][i] = buff(0, i) = -GAP * i;
	}
	for (int i = 1; i < NW; i++)
		for (int j = 1; j < NW; j++) {
			ref[i][j] = max3(ref[i - 1][j - 1] + sim(i, j),
					 ref[i - 1][j] - GAP,
					 ref[i][j - 1] - GAP);
			buff(i, j) = max3(buff(i - 1, j - 1) + sim(i, j),
					  buff(i - 1, j) - GAP,
					  buff(i, j - 1) - GAP);
		}
}

/* The anti-diagonal order, checked from its definition (SEMANTICS.md):
 * offsets 0 .. n*n-1 visit (i, j) by increasing i + j, then increasing i;
 * W_inv inverts W_at. */
static int check_order(void)
{
	int bad = 0;
	long long pi = -1, pj = 0;
	for (long long x = 0; x < NW * NW; x++) {
		long long i, j;
		W_inv(x, &i, &j);
		long long d = i + j, pd = pi + pj;
		int next = pi < 0 ? i == 0 && j == 0
				  : (d == pd && i > pi) || (d == pd + 1);
		if (!next || i < 0 || j < 0 || i >= NW || j >= NW ||
		    W_at(i, j) != x) {
			fprintf(stderr, "FAIL: offset %lld -> (%lld, %lld)\n",
				x, i, j);
			bad = 1;
		}
		pi = i, pj = j;
	}
	return bad;
}

int main(void)
{
	int bad = check_order();
	fill();
	for (int i = 0; i < NW; i++)
		for (int j = 0; j < NW; j++)
			if (buff(i, j) != ref[i][j]) {
				fprintf(stderr, "FAIL: score (%d, %d)\n", i, j);
				bad = 1;
			}
	printf("nw (n = %d): %s\n", NW, bad ? "FAILED" : "ok");
	return bad;
}
