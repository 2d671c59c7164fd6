/* tv.c - thread-value layouts: the built-ins of the hardware and the ones
 * a user writes as any layout of rank 2.
 *
 * Every built-in fragment is a permutation of mixed-radix digits: a digit
 * of the thread or value number is a digit of the row or column of the
 * footprint.  So each is given below as a list of digits, and its layout
 * is a GenP whose apply sums the digits at their weights and whose inverse
 * reads them back: bijective by construction, and checked on the table. */
#include <string.h>

#include "synth/synth.h"

/* lego_tv and what synthesis reads from it often. */
typedef struct synth_tv {
	lego_tv pub;
	int64_t *table;        /* [threads * values] footprint indices */
} synth_tv;

/* A digit: of the thread (src 't') or value ('v') number, taken in list
 * order from the lowest; it becomes `weight` times a digit of the row
 * ('r') or column ('c'). */
typedef struct tv_digit {
	char src;
	int64_t radix;
	char dst;
	int64_t weight;
} tv_digit;

enum { MAX_DIGITS = 8 };

typedef struct tv_shape {
	int64_t threads, values, rows, cols;
	size_t n;
	tv_digit d[MAX_DIGITS];
} tv_shape;

static lego_expr *K(lego_ctx *ctx, int64_t v)
{
	return lego_const(ctx, v);
}

/* digit = (x / below) % radix */
static lego_expr *digit_of(lego_ctx *ctx, lego_expr *x, int64_t below,
			   int64_t radix)
{
	return lego_mod(ctx, lego_div(ctx, x, K(ctx, below)), K(ctx, radix));
}

static lego_layout *digits_layout(lego_ctx *ctx, const char *name,
				  const tv_shape *s)
{
	lego_expr *t = lego_index_fresh(ctx, "tv_t", NULL,
					K(ctx, s->threads));
	lego_expr *v = lego_index_fresh(ctx, "tv_v", NULL, K(ctx, s->values));
	lego_expr *x = lego_index_fresh(ctx, "tv_x", NULL,
					K(ctx, s->rows * s->cols));
	if (!t || !v || !x)
		return NULL;
	lego_expr *row = lego_div(ctx, x, K(ctx, s->cols));
	lego_expr *col = lego_mod(ctx, x, K(ctx, s->cols));
	lego_expr *apply = K(ctx, 0), *inv[2] = {K(ctx, 0), K(ctx, 0)};
	int64_t below_t = 1, below_v = 1;
	for (size_t k = 0; k < s->n; k++) {
		const tv_digit *d = &s->d[k];
		int is_t = d->src == 't';
		int64_t *below = is_t ? &below_t : &below_v;
		lego_expr *dig = digit_of(ctx, is_t ? t : v, *below, d->radix);
		int64_t w = d->dst == 'r' ? d->weight * s->cols : d->weight;
		apply = lego_add(ctx, apply, lego_mul(ctx, dig, K(ctx, w)));
		lego_expr *back = digit_of(ctx, d->dst == 'r' ? row : col,
					   d->weight, d->radix);
		inv[!is_t] = lego_add(ctx, inv[!is_t],
				      lego_mul(ctx, back, K(ctx, *below)));
		*below *= d->radix;
	}
	lego_expr *dims[2] = {K(ctx, s->threads), K(ctx, s->values)};
	lego_expr *params[2] = {t, v};
	return lego_genp_exprs(ctx, name, 2, dims, params, apply, x, inv);
}

/* A register of 32-bit lanes: quad q = lane % 4 and group g = lane / 4
 * (the ISA's threadID_in_group and groupID). */
#define LANE_QG(qdst, qw, gdst, gw) {'t', 4, qdst, qw}, {'t', 8, gdst, gw}

static int mma_shape(lego_ctx *ctx, int64_t k, char frag, tv_shape *s)
{
	/* k16 (16-bit A/B) and k32 (8-bit A/B): a register holds 2 or 4
	 * consecutive k; C/D is the same for both. */
	int64_t per = k / 8;
	static const tv_shape c = {32, 4, 16, 8, 4, {LANE_QG('c', 2, 'r', 1),
		{'v', 2, 'c', 1}, {'v', 2, 'r', 8}}};
	if (k != 16 && k != 32)
		return lego_fail(ctx, LEGO_ERR, "mma: shape m16n8k%lld; "
				 "expected m16n8k16 or m16n8k32",
				 (long long)k);
	if (frag == 'c') {
		*s = c;
		return LEGO_OK;
	}
	if (frag == 'a') {
		*s = (tv_shape){32, 4 * per, 16, k, 5, {
			LANE_QG('c', per, 'r', 1), {'v', per, 'c', 1},
			{'v', 2, 'r', 8}, {'v', 2, 'c', k / 2}}};
		return LEGO_OK;
	}
	*s = (tv_shape){32, 2 * per, k, 8, 4, {LANE_QG('r', per, 'c', 1),
		{'v', per, 'r', 1}, {'v', 2, 'r', k / 2}}};
	return LEGO_OK;
}

static void ldmatrix_shape(int64_t n, int trans, tv_shape *s)
{
	/* Matrix j of the x4 is (j % 2, j / 2) in the 2 x 2 grid of 8 x 8
	 * matrices (mma's A order); the x2's two are side by side. */
	*s = (tv_shape){32, 2 * n, n == 4 ? 16 : 8, n == 1 ? 8 : 16, 3, {
		LANE_QG(trans ? 'r' : 'c', 2, trans ? 'c' : 'r', 1),
		{'v', 2, trans ? 'r' : 'c', 1}}};
	if (n == 4)
		s->d[s->n++] = (tv_digit){'v', 2, 'r', 8};
	if (n >= 2)
		s->d[s->n++] = (tv_digit){'v', 2, 'c', 8};
}

static void wgmma_shape(int64_t n, tv_shape *s)
{
	/* Warp w of the warpgroup owns rows 16w .. 16w+15, each as an mma C
	 * fragment repeated every 8 columns. */
	*s = (tv_shape){128, n / 2, 64, n, 6, {LANE_QG('c', 2, 'r', 1),
		{'t', 4, 'r', 16}, {'v', 2, 'c', 1}, {'v', 2, 'r', 8},
		{'v', n / 8, 'c', 8}}};
}

/* wgmma's A from registers: warp w holds rows 16w .. 16w+15 as mma's
 * m16n8k16 A fragment. */
static void wgmma_a_shape(tv_shape *s)
{
	*s = (tv_shape){128, 8, 64, 16, 6, {LANE_QG('c', 2, 'r', 1),
		{'t', 4, 'r', 16}, {'v', 2, 'c', 1}, {'v', 2, 'r', 8},
		{'v', 2, 'c', 8}}};
}

static void copy_shape(int64_t vec, tv_shape *s)
{
	*s = (tv_shape){32, vec, 1, 32 * vec, 2, {{'v', vec, 'c', 1},
		{'t', 32, 'c', vec}}};
}

static int valid_elem(int64_t eb)
{
	return eb == 1 || eb == 2 || eb == 4 || eb == 8;
}

int64_t synth_tv_vec(const lego_tv *tv, const int64_t *table)
{
	int64_t best = 1;
	for (int64_t g = 2; g * tv->elem_bytes <= 16; g *= 2) {
		if (tv->values % g || tv->cols % g)
			break;
		for (int64_t t = 0; t < tv->threads; t++)
			for (int64_t v = 0; v < tv->values; v++) {
				int64_t f = table[t * tv->values + v];
				int64_t first = table[t * tv->values +
						      v - v % g];
				if (first % g || f != first + v % g)
					return best;
			}
		best = g;
	}
	return best;
}

const int64_t *synth_tv_table(const lego_tv *tv)
{
	return ((const synth_tv *)tv)->table;
}

static const lego_tv *tv_make(lego_ctx *ctx, const char *name,
			      const lego_layout *l, int64_t rows,
			      int64_t cols, int flat, int64_t elem_bytes,
			      int ldmatrix, int trans)
{
	if (!ctx)
		return NULL;
	if (!l)
		return lego_fail_arg(ctx, "lego_tv_new");
	if (!valid_elem(elem_bytes))
		return lego_fail_null(ctx, "tv %s: element size %lld; expected "
				      "1, 2, 4 or 8", name,
				      (long long)elem_bytes);
	int64_t tv_dims[2];
	if (lego_layout_rank(l) != 2 ||
	    lego_expr_eval(ctx, lego_layout_dim(l, 0), NULL, &tv_dims[0]) ||
	    lego_expr_eval(ctx, lego_layout_dim(l, 1), NULL, &tv_dims[1]))
		return lego_fail_null(ctx, "tv %s: the layout must have two "
				      "concrete dims [threads, values]", name);
	/* Each at most 2^20 first: the products cannot overflow. */
	if (rows < 1 || cols < 1 || rows > 1 << 20 || cols > 1 << 20 ||
	    tv_dims[0] > 1024 || tv_dims[1] > 1 << 20 ||
	    tv_dims[0] * tv_dims[1] != rows * cols || rows * cols > 1 << 20)
		return lego_fail_null(ctx, "tv %s: %lld threads x %lld values "
				      "do not cover the %lld x %lld footprint "
				      "(or over 1024 threads)", name,
				      (long long)tv_dims[0],
				      (long long)tv_dims[1], (long long)rows,
				      (long long)cols);
	synth_tv *s = lego_xalloc(ctx, sizeof *s);
	int64_t *table = lego_xalloc(ctx, (size_t)(rows * cols) *
				     sizeof *table);
	size_t size;
	if (!s || !table ||
	    lego_layout_table(ctx, l, NULL, table, (size_t)(rows * cols),
			      &size) != LEGO_OK)
		return NULL;
	/* Bijective onto the footprint: each index hit once. */
	unsigned char *seen = lego_xalloc(ctx, (size_t)(rows * cols));
	if (!seen)
		return NULL;
	for (size_t k = 0; k < size; k++) {
		if (table[k] < 0 || table[k] >= rows * cols || seen[table[k]])
			return lego_fail_null(ctx, "tv %s: not a bijection "
					      "onto the footprint (thread "
					      "%lld, value %lld)", name,
					      (long long)(k / tv_dims[1]),
					      (long long)(k % tv_dims[1]));
		seen[table[k]] = 1;
	}
	s->table = table;
	s->pub = (lego_tv){lego_arena_strdup(&ctx->arena, name),
			   (lego_layout *)l, tv_dims[0], tv_dims[1], rows,
			   cols, flat, elem_bytes, 1, ldmatrix, trans};
	if (ldmatrix && elem_bytes != 2)
		return lego_fail_null(ctx, "tv %s: ldmatrix moves 16-bit "
				      "elements, not %lld-byte ones", name,
				      (long long)elem_bytes);
	s->pub.vec = synth_tv_vec(&s->pub, table);
	return &s->pub;
}

const lego_tv *lego_tv_new(lego_ctx *ctx, const char *name,
			   const lego_layout *layout, int64_t rows,
			   int64_t cols, int64_t elem_bytes)
{
	if (ctx && !name)
		return lego_fail_arg(ctx, "lego_tv_new");
	return tv_make(ctx, name, layout, rows, cols, 0, elem_bytes, 0, 0);
}

static const char *kind_name(lego_tv_kind kind)
{
	static const char *const names[] = {"mma_a", "mma_b", "mma_c",
		"ldmatrix", "ldmatrix_trans", "wgmma_c", "copy", "wgmma_a"};
	return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind]
							       : NULL;
}

/* The built-in `kind` named `name` (its kind's name in messages). */
static const lego_tv *builtin(lego_ctx *ctx, const char *tv_name,
			      lego_tv_kind kind, int64_t param,
			      int64_t elem_bytes)
{
	tv_shape s = {0};
	const char *name = kind_name(kind);
	if (!name)
		return lego_fail_null(ctx, "lego_tv_builtin: unknown kind %d",
				      (int)kind);
	if (!valid_elem(elem_bytes))
		return lego_fail_null(ctx, "%s: element size %lld; expected "
				      "1, 2, 4 or 8", name,
				      (long long)elem_bytes);
	switch (kind) {
	case LEGO_TV_MMA_A:
	case LEGO_TV_MMA_B:
	case LEGO_TV_MMA_C:
		if (mma_shape(ctx, param, "abc"[kind - LEGO_TV_MMA_A], &s))
			return NULL;
		if (kind != LEGO_TV_MMA_C && elem_bytes != 32 / param)
			return lego_fail_null(ctx, "mma m16n8k%lld: A and B "
					      "hold %lld-byte elements",
					      (long long)param,
					      (long long)(32 / param));
		break;
	case LEGO_TV_LDMATRIX:
	case LEGO_TV_LDMATRIX_TRANS:
		if (param != 1 && param != 2 && param != 4)
			return lego_fail_null(ctx, "ldmatrix: x%lld; expected "
					      "x1, x2 or x4", (long long)param);
		ldmatrix_shape(param, kind == LEGO_TV_LDMATRIX_TRANS, &s);
		break;
	case LEGO_TV_WGMMA_C:
		if (param < 8 || param > 256 || param % 8)
			return lego_fail_null(ctx, "wgmma: m64n%lldk16; N is a "
					      "multiple of 8 from 8 to 256",
					      (long long)param);
		wgmma_shape(param, &s);
		break;
	case LEGO_TV_WGMMA_A:
		if (param != 16 || elem_bytes != 2)
			return lego_fail_null(ctx, "wgmma: A from registers "
					      "is m64nNk16 of 2-byte elements "
					      "(f16, bf16)");
		wgmma_a_shape(&s);
		break;
	default:
		if ((param != 4 && param != 8 && param != 16) ||
		    param % elem_bytes)
			return lego_fail_null(ctx, "copy: %lld bytes a thread; "
					      "expected 4, 8 or 16, a multiple "
					      "of the %lld-byte element",
					      (long long)param,
					      (long long)elem_bytes);
		copy_shape(param / elem_bytes, &s);
		break;
	}
	lego_layout *l = digits_layout(ctx, tv_name, &s);
	int ldm = kind == LEGO_TV_LDMATRIX || kind == LEGO_TV_LDMATRIX_TRANS;
	return l ? tv_make(ctx, tv_name, l, s.rows, s.cols,
			   kind == LEGO_TV_COPY, elem_bytes,
			   ldm ? (int)param : 0,
			   kind == LEGO_TV_LDMATRIX_TRANS) : NULL;
}

const lego_tv *lego_tv_builtin(lego_ctx *ctx, lego_tv_kind kind,
			       int64_t param, int64_t elem_bytes)
{
	const char *name = kind_name(kind);
	return ctx ? builtin(ctx, name ? name : "?", kind, param, elem_bytes)
		   : NULL;
}

int64_t synth_type_bytes(const char *type)
{
	static const struct {
		const char *name;
		int64_t bytes;
	} types[] = {
		{"s8", 1}, {"u8", 1}, {"e4m3", 1}, {"e5m2", 1}, {"b8", 1},
		{"f16", 2}, {"bf16", 2}, {"s16", 2}, {"u16", 2}, {"b16", 2},
		{"f32", 4}, {"tf32", 4}, {"s32", 4}, {"u32", 4}, {"b32", 4},
		{"f64", 8}, {"s64", 8}, {"u64", 8}, {"b64", 8},
	};
	for (size_t k = 0; type && k < sizeof types / sizeof types[0]; k++)
		if (!strcmp(type, types[k].name))
			return types[k].bytes;
	return 0;
}

/* "m16n8k16" -> 16 (the k of m16n8kK), "m64n128k16" -> 128 (the n). */
static int64_t shape_num(const char *shape, const char *prefix,
			 const char *suffix)
{
	size_t lp = strlen(prefix), ls = strlen(suffix), n = strlen(shape);
	if (n <= lp + ls || strncmp(shape, prefix, lp) ||
	    strcmp(shape + n - ls, suffix))
		return 0;
	int64_t v = 0;
	for (size_t k = lp; k < n - ls; k++) {
		if (shape[k] < '0' || shape[k] > '9' || v > 1000)
			return 0;
		v = v * 10 + (shape[k] - '0');
	}
	return v;
}

static int is_type_of(const char *type, const char *const *ok)
{
	for (; *ok; ok++)
		if (!strcmp(type, *ok))
			return 1;
	return 0;
}

static const lego_tv *named_mma(lego_ctx *ctx, const char *name,
				size_t n, const char *const *a)
{
	static const char *const ab16[] = {"f16", "bf16", NULL};
	static const char *const ab8[] = {"s8", "u8", "e4m3", "e5m2", NULL};
	static const char *const c16[] = {"f32", "f16", NULL};
	static const char *const c8[] = {"s32", "f32", "f16", NULL};
	int64_t k = n == 3 ? shape_num(a[0], "m16n8k", "") : 0;
	char frag = n == 3 && strlen(a[1]) == 1 ? a[1][0] : 0;
	if ((k != 16 && k != 32) || !strchr("abc", frag) || !frag)
		return lego_fail_null(ctx, "mma(SHAPE, FRAGMENT, TYPE): "
				      "SHAPE m16n8k16 or m16n8k32, FRAGMENT "
				      "a, b or c");
	const char *const *ok = frag == 'c' ? (k == 16 ? c16 : c8)
					    : (k == 16 ? ab16 : ab8);
	if (!is_type_of(a[2], ok))
		return lego_fail_null(ctx, "mma m16n8k%lld %c: no type %s",
				      (long long)k, frag, a[2]);
	return builtin(ctx, name, LEGO_TV_MMA_A + (frag - 'a'), k,
		       synth_type_bytes(a[2]));
}

const lego_tv *synth_tv_named(lego_ctx *ctx, const char *name,
			      const char *op, size_t n,
			      const char *const *a)
{
	if (!strcmp(op, "mma"))
		return named_mma(ctx, name, n, a);
	if (!strcmp(op, "ldmatrix")) {
		int64_t x = n >= 1 ? shape_num(a[0], "x", "") : 0;
		int trans = n == 2 && !strcmp(a[1], "trans");
		if (!x || n > 2 || (n == 2 && !trans))
			return lego_fail_null(ctx, "ldmatrix(xN[, trans]): N "
					      "1, 2 or 4");
		return builtin(ctx, name, trans ? LEGO_TV_LDMATRIX_TRANS
						: LEGO_TV_LDMATRIX, x, 2);
	}
	if (!strcmp(op, "wgmma")) {
		int64_t nn = n == 3 ? shape_num(a[0], "m64n", "k16") : 0;
		static const char *const acc[] = {"f32", "f16", "s32", NULL};
		static const char *const ab[] = {"f16", "bf16", NULL};
		int is_a = nn && !strcmp(a[1], "a") && is_type_of(a[2], ab);
		if (!is_a && (!nn || strcmp(a[1], "c") ||
			      !is_type_of(a[2], acc)))
			return lego_fail_null(ctx, "wgmma(m64nNk16, a|c, TYPE): "
					      "A from registers (f16, bf16) or "
					      "the accumulator (f32, f16, s32)");
		return is_a ? builtin(ctx, name, LEGO_TV_WGMMA_A, 16, 2)
			    : builtin(ctx, name, LEGO_TV_WGMMA_C, nn,
				      synth_type_bytes(a[2]));
	}
	if (!strcmp(op, "copy")) {
		int64_t bytes = n == 2 ? shape_num(a[0], "", "") : 0;
		if (!bytes || !synth_type_bytes(a[1]))
			return lego_fail_null(ctx, "copy(BYTES, TYPE): BYTES 4, "
					      "8 or 16, TYPE an element type "
					      "(f16, f32, s8, ...)");
		return builtin(ctx, name, LEGO_TV_COPY, bytes,
			       synth_type_bytes(a[1]));
	}
	return lego_fail_null(ctx, "unknown TV layout %s (expected mma, "
			      "ldmatrix, wgmma, copy or tile)", op);
}

int lego_tv_coord(lego_ctx *ctx, const lego_tv *tv, int64_t thread,
		  int64_t value, int64_t *row, int64_t *col)
{
	if (!ctx)
		return LEGO_ERR;
	if (!tv || !row || !col)
		return lego_fail(ctx, LEGO_ERR, "lego_tv_coord: NULL argument");
	if (thread < 0 || thread >= tv->threads || value < 0 ||
	    value >= tv->values)
		return lego_fail(ctx, LEGO_ERANGE, "tv %s: (%lld, %lld) is "
				 "outside [%lld, %lld]", tv->name,
				 (long long)thread, (long long)value,
				 (long long)tv->threads,
				 (long long)tv->values);
	int64_t f = synth_tv_table(tv)[thread * tv->values + value];
	*row = f / tv->cols;
	*col = f % tv->cols;
	return LEGO_OK;
}
