/* views.c - differential test of Lift views: a random chain of split,
 * join, transpose, slide and pad (at random depths, through map) applied
 * to a 2-D array, compiled by `lego lift` and run as plain C, against a
 * direct interpreter of the patterns' semantics that materialises every
 * intermediate array.  gather and scatter (by reverse and stride(s),
 * computed here from their definitions) permute the outer dimension on
 * either side.  A chain may also copy its array into private
 * memory (toPrivate: the same values, read back through the views after
 * it) and regroup the written side one level down (map(join)).
 *
 *   views gen SEED        prints the .lift program of chain SEED
 *   views run SEED        (built with -DKERNEL="k.cl") runs the kernel and
 *                         the interpreter; exit 0 when they agree */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXR = 6, MAXE = 1 << 14, MAXOPS = 5 };

/* An explicit array: row-major data of a shape. */
typedef struct arr {
	int rank, dim[MAXR];
	float v[MAXE];
} arr;

typedef enum {
	SPLIT, JOIN, TRANSPOSE, SLIDE, PAD, PADCLAMP, COPY, GATHER, SCATTER
} op_kind;
typedef struct op {
	op_kind k;
	int depth, a, b;           /* GATHER, SCATTER: a = 0 reverse, else stride(a) */
} op;

/* The index function of gather and scatter over [n]. */
static int index_fn(const op *o, int i, int n)
{
	if (!o->a)
		return n - 1 - i;
	return (i % o->a) * (n / o->a) + i / o->a;
}

static unsigned seed;

static int rnd(int n)
{
	seed = seed * 1103515245u + 12345u;
	return (int)((seed >> 8) % (unsigned)n);
}

static int size_of(const int *dim, int rank)
{
	int n = 1;
	for (int i = 0; i < rank; i++)
		n *= dim[i];
	return n;
}

/* Applies op at depth 0 to the sub-array of shape dim[0..rank) at src,
 * writing dst; returns the new shape through ndim/nrank. */
static void apply0(const op *o, const float *src, const int *dim, int rank,
		   float *dst, int *ndim, int *nrank)
{
	int inner = size_of(dim + 1, rank - 1);
	memcpy(ndim, dim, sizeof *dim * (size_t)rank);
	*nrank = rank;
	switch (o->k) {
	case COPY:
		memcpy(dst, src, sizeof *src * (size_t)(dim[0] * inner));
		return;
	case GATHER:
	case SCATTER:
		for (int i = 0; i < dim[0]; i++) {
			int j = index_fn(o, i, dim[0]);
			memcpy(dst + (o->k == GATHER ? i : j) * inner,
			       src + (o->k == GATHER ? j : i) * inner,
			       sizeof *src * (size_t)inner);
		}
		return;
	case SPLIT:
		memmove(ndim + 2, dim + 1, sizeof *dim * (size_t)(rank - 1));
		ndim[0] = dim[0] / o->a;
		ndim[1] = o->a;
		*nrank = rank + 1;
		memcpy(dst, src, sizeof *src * (size_t)(dim[0] * inner));
		return;
	case JOIN:
		ndim[0] = dim[0] * dim[1];
		memmove(ndim + 1, dim + 2, sizeof *dim * (size_t)(rank - 2));
		*nrank = rank - 1;
		memcpy(dst, src, sizeof *src * (size_t)(dim[0] * inner));
		return;
	case TRANSPOSE: {
		int rest = size_of(dim + 2, rank - 2);
		ndim[0] = dim[1];
		ndim[1] = dim[0];
		for (int i = 0; i < dim[0]; i++)
			for (int j = 0; j < dim[1]; j++)
				memcpy(dst + (j * dim[0] + i) * rest,
				       src + (i * dim[1] + j) * rest,
				       sizeof *src * (size_t)rest);
		return;
	}
	case SLIDE: {
		int n = (dim[0] - o->a) / o->b + 1;
		memmove(ndim + 2, dim + 1, sizeof *dim * (size_t)(rank - 1));
		ndim[0] = n;
		ndim[1] = o->a;
		*nrank = rank + 1;
		for (int w = 0; w < n; w++)
			for (int j = 0; j < o->a; j++)
				memcpy(dst + (w * o->a + j) * inner,
				       src + (w * o->b + j) * inner,
				       sizeof *src * (size_t)inner);
		return;
	}
	case PAD:
	case PADCLAMP:
		ndim[0] = dim[0] + o->a + o->b;
		for (int i = 0; i < ndim[0]; i++) {
			int j = i - o->a;
			if (o->k == PADCLAMP || (j >= 0 && j < dim[0])) {
				j = j < 0 ? 0 : j >= dim[0] ? dim[0] - 1 : j;
				memcpy(dst + i * inner, src + j * inner,
				       sizeof *src * (size_t)inner);
			} else {
				for (int e = 0; e < inner; e++)
					dst[i * inner + e] = 0.0f;
			}
		}
		return;
	}
}

/* op at its depth: once per element of the outer o->depth dimensions. */
static void apply(const op *o, arr *x)
{
	static arr y;
	int outer = size_of(x->dim, o->depth);
	int in = size_of(x->dim + o->depth, x->rank - o->depth);
	int ndim[MAXR], nrank = 0, nsize = 0;
	for (int i = 0; i < outer; i++) {
		apply0(o, x->v + i * in, x->dim + o->depth, x->rank - o->depth,
		       y.v + i * nsize, ndim, &nrank);
		nsize = size_of(ndim, nrank);
	}
	memcpy(x->dim + o->depth, ndim, sizeof *ndim * (size_t)nrank);
	x->rank = o->depth + nrank;
	memcpy(x->v, y.v, sizeof *y.v * (size_t)size_of(x->dim, x->rank));
}

/* A random op valid on shape x (and small enough), or -1. */
static int pick(const arr *x, op *o)
{
	for (int tries = 0; tries < 50; tries++) {
		o->depth = rnd(x->rank);
		o->k = (op_kind)rnd(9);
		if (o->k == COPY) {
			o->depth = 0;
			o->a = x->rank;
			return 0;
		}
		int r = x->rank - o->depth, n = x->dim[o->depth];
		int size = size_of(x->dim, x->rank);
		if (o->k == SPLIT && x->rank < MAXR) {
			o->a = 1 + rnd(n);
			if (n % o->a == 0)
				return 0;
		} else if ((o->k == JOIN || o->k == TRANSPOSE) && r >= 2) {
			return 0;
		} else if (o->k == SLIDE && x->rank < MAXR) {
			o->a = 1 + rnd(n);
			o->b = 1 + rnd(3);
			int w = (n - o->a) / o->b + 1;
			if ((n - o->a) % o->b == 0 && size / n * w * o->a < 2048)
				return 0;
		} else if (o->k == GATHER || o->k == SCATTER) {
			o->a = rnd(2) ? 0 : 1 + rnd(n);
			if (!o->a || n % o->a == 0)
				return 0;
		} else if (o->k == PAD || o->k == PADCLAMP) {
			o->a = rnd(3);
			o->b = rnd(3);
			if (size / n * (n + o->a + o->b) < 2048)
				return 0;
		}
	}
	return -1;
}

static void print_op(const op *o)
{
	for (int i = 0; i < o->depth; i++)
		printf("map(");
	switch (o->k) {
	case COPY:
		printf("toPrivate(");
		for (int i = 0; i < o->a; i++)
			printf("mapSeq(");
		printf("id");
		for (int i = 0; i <= o->a; i++)
			printf(")");
		break;
	case GATHER:
	case SCATTER:
		printf("%s(", o->k == GATHER ? "gather" : "scatter");
		if (o->a)
			printf("stride(%d))", o->a);
		else
			printf("reverse)");
		break;
	case SPLIT: printf("split(%d)", o->a); break;
	case JOIN: printf("join"); break;
	case TRANSPOSE: printf("transpose"); break;
	case SLIDE: printf("slide(%d, %d)", o->a, o->b); break;
	case PAD: printf("pad(%d, %d, 0.0f)", o->a, o->b); break;
	case PADCLAMP: printf("pad(%d, %d, clamp)", o->a, o->b); break;
	}
	for (int i = 0; i < o->depth; i++)
		printf(")");
}

/* The chain of SEED: x's shape, the read-side ops, and a write-side
 * regrouping (join, transpose or none) of the stored result. */
static int chain(unsigned s, arr *x, op *ops, op *wr)
{
	seed = s;
	x->rank = 2;
	x->dim[0] = 2 + rnd(5);
	x->dim[1] = 2 + rnd(5);
	int n = 1 + rnd(MAXOPS), k = 0;
	arr *t = calloc(1, sizeof *t);
	t->rank = x->rank;
	memcpy(t->dim, x->dim, sizeof x->dim);
	for (int i = 0; i < n; i++)
		if (!pick(t, &ops[k]))
			apply(&ops[k++], t);  /* for the shape */
	static const op_kind wk[] = {JOIN, TRANSPOSE, GATHER, SCATTER};
	wr->k = rnd(2) ? wk[rnd(4)] : SPLIT;
	if ((wr->k == JOIN || wr->k == TRANSPOSE) && t->rank < 2)
		wr->k = SPLIT;
	int rmin = wr->k == JOIN || wr->k == TRANSPOSE ? 2 : 1;
	wr->depth = wr->k != SPLIT && t->rank > rmin ? rnd(2) : 0;
	wr->a = 1;
	if (wr->k == GATHER || wr->k == SCATTER) {
		int n = t->dim[wr->depth];
		wr->a = rnd(2) ? 0 : 1 + rnd(n);
		if (wr->a && n % wr->a)
			wr->a = 0;
	}
	free(t);
	return k;
}

#ifdef KERNEL
#define __kernel
#define __global
static int get_global_id(int d) { (void)d; return 0; }
static int get_global_size(int d) { (void)d; return 1; }
#include KERNEL
#endif

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	static arr x;
	op ops[MAXOPS], wr;
	int n = chain((unsigned)atoi(argv[2]), &x, ops, &wr);
	if (!strcmp(argv[1], "gen")) {
		printf("kernel k(x : [[float]%d]%d) =\n  ", x.dim[1], x.dim[0]);
		if (wr.k != SPLIT) {
			print_op(&wr);
			printf(" o ");
		}
		printf("mapSeq(id)");
		for (int i = n - 1; i >= 0; i--) {
			printf(" $ ");
			print_op(&ops[i]);
		}
		printf(" $ x;\n");
		return 0;
	}
#ifdef KERNEL
	static float in[MAXE], out[MAXE];
	for (int i = 0; i < size_of(x.dim, x.rank); i++)
		x.v[i] = in[i] = (float)(i + 1);
	for (int i = 0; i < n; i++)
		apply(&ops[i], &x);
	if (wr.k != SPLIT)
		apply(&wr, &x);
	k(in, out);
	for (int i = 0; i < size_of(x.dim, x.rank); i++)
		if (out[i] != x.v[i]) {
			fprintf(stderr, "element %d: got %g, want %g\n", i,
				out[i], x.v[i]);
			return 1;
		}
	return 0;
#else
	return 2;
#endif
}
