/* copies.c - the global and shared addresses of the copies `lego infer
 * --cuda` writes, run on the host: run.sh cuts copy_S_from and copy_S out
 * of the generated kernel (each cp.async turned into a call of rec) into
 * copies.inc.  For a few block rows and K, every thread starts from
 * copy_S_from and calls copy_S once a k step, as the kernel does; each
 * copy must read the element the step's tile holds there, computed here
 * from the row-major global (row bm * ROWS + f / COLS, column kt * COLS +
 * f % COLS for the f-th element of the tile, f = (it * THREADS + tid) *
 * VEC), and a stage's shared vectors must be distinct and aligned.
 * Prints "N copies checked" or the first wrong one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned short half;
#define __device__
#define __forceinline__

static half *g0, *s0;
static long long got_g[1 << 12], got_s[1 << 12];
static int nrec;

static void rec(half *s, const half *g)
{
	got_s[nrec] = s - s0;
	got_g[nrec++] = g - g0;
}

#include "copies.inc"

int main(void)
{
	static half tile[ROWS * COLS];
	static char seen[ROWS * COLS];
	const int bms[] = {0, 1, 5}, ks[] = {COLS, 3 * COLS, 8 * COLS};
	const int its = ROWS * COLS / (VEC * THREADS);
	long long n = 0;
	s0 = tile;
	for (size_t a = 0; a < 3; a++)
		for (size_t b = 0; b < 3; b++) {
			int bm = bms[a], K = ks[b], M = (bm + 1) * ROWS;
			half *g = calloc((size_t)M * K, sizeof *g);
			g0 = g;
			for (int tid = 0; tid < THREADS; tid++) {
				const half *p[64];
				copy_S_from(p, g, tid, bm, M, K);
				for (int kt = 0; kt < K / COLS; kt++) {
					nrec = 0;
					copy_S(tile, p, tid);
					if (nrec != its) {
						printf("%d copies a step, not %d\n",
						       nrec, its);
						return 1;
					}
					for (int it = 0; it < its; it++, n++) {
						long long f = (long long)(it * THREADS + tid) * VEC;
						long long want = (bm * (long long)ROWS + f / COLS) * K +
								 (long long)kt * COLS + f % COLS;
						if (got_g[it] != want) {
							printf("bm %d K %d tid %d kt %d it %d: "
							       "global %lld, not %lld\n",
							       bm, K, tid, kt, it,
							       got_g[it], want);
							return 1;
						}
					}
					if (kt || a || b)
						continue;
					for (int it = 0; it < its; it++) {
						long long o = got_s[it];
						if (o < 0 || o >= ROWS * COLS ||
						    o % VEC || seen[o]) {
							printf("tid %d it %d: shared "
							       "%lld\n", tid, it, o);
							return 1;
						}
						seen[o] = 1;
					}
				}
			}
			free(g);
		}
	printf("%lld copies checked\n", n);
	return 0;
}
