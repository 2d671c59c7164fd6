/* cost.c - the shared-memory wavefronts of a TV access to a tile: the
 * footprint placed over the tile, each warp instruction resolved to byte
 * addresses and counted by the analysis room's bank model; for a copy from
 * global memory (cp.async), by global line too. */
#include <string.h>

#include "analysis/access.h"
#include "synth/synth.h"

/* Where an access stands: the tile, the TV layout and its table. */
typedef struct access_walk {
	const lego_tv *tv;
	const int64_t *table;
	const lego_smem *smem;
	int64_t vec;               /* elements a thread moves at once */
	int sectors;               /* count global memory's sectors too */
	const lego_smem *global;   /* a copy from global memory: where the
				      tile's elements lie there (NULL: not
				      one) */
} access_walk;

/* The tile element of footprint index f in placement p, as its
 * row-major index in the tile; -1 outside the tile. */
static int64_t tile_elem(const access_walk *a, int64_t p, int64_t f)
{
	const lego_tv *tv = a->tv;
	const lego_smem *s = a->smem;
	if (tv->flat) {
		int64_t e = p * tv->cols + f;
		return e < s->rows * s->cols ? e : -1;
	}
	int64_t across = (s->cols + tv->cols - 1) / tv->cols;
	int64_t r = p / across * tv->rows + f / tv->cols;
	int64_t c = p % across * tv->cols + f % tv->cols;
	return r < s->rows && c < s->cols ? r * s->cols + c : -1;
}

static int64_t placements(const access_walk *a)
{
	const lego_tv *tv = a->tv;
	const lego_smem *s = a->smem;
	if (tv->flat)
		return (s->rows * s->cols + tv->cols - 1) / tv->cols;
	return ((s->rows + tv->rows - 1) / tv->rows) *
	       ((s->cols + tv->cols - 1) / tv->cols);
}

/* The element offset of a thread's vector starting at value v (its first
 * tile element in *e), or -1 when the layout does not keep its elements
 * consecutive and aligned (the vector is impossible); -2 outside the
 * tile. */
static int64_t vector_offset(const access_walk *a, int64_t p, int64_t t,
			     int64_t v, int64_t *e_out)
{
	const int64_t *row = a->table + t * a->tv->values;
	int64_t e = tile_elem(a, p, row[v]);
	*e_out = e;
	if (e < 0)
		return -2;
	int64_t o = a->smem->offset[e];
	if (o % a->vec)
		return -1;
	/* The vector's elements follow each other in the footprint's row
	 * (synth_tv_vec), hence in the tile's. */
	for (int64_t i = 1; i < a->vec; i++)
		if (a->smem->offset[e + i] != o + i)
			return -1;
	return o;
}

/* The wavefronts of a copy from global memory, whose lane l reads global
 * line line[l]: the copy serves a phase one 128-byte global line at a
 * time, so a phase costs at least the lines its threads read.  ncu counts
 * 8 wavefronts for each LDGSTS of 32 x 16 bytes whose 8-thread phases
 * each read two 64-byte rows, on conflict-free shared addresses
 * (bench/synth/gemm/README.md). */
static int64_t by_lines(const warp_addrs *w, const int64_t *line)
{
	warp_addrs g = *w;
	uint32_t left = w->active;
	int64_t total = 0, ideal, ways;
	while (left) {
		int first = 0;
		while (!(left >> first & 1))
			first++;
		g.active = 0;
		for (int l = first; l < w->nthreads; l++)
			if (left >> l & 1 && line[l] == line[first])
				g.active |= (uint32_t)1 << l;
		left &= ~g.active;
		total += warp_addrs_wavefronts(&g, &ideal, &ways);
	}
	return total;
}

/* One warp instruction: its wavefronts in shared memory (line: for a
 * copy from global, each lane's global line, else NULL), and its sectors
 * were the tile in global memory. */
static void add_phase(const access_walk *a, const warp_addrs *w,
		      const int64_t *line, lego_access_cost *out)
{
	int64_t ideal, ways, bytes, sectors, lines;
	int64_t wf = warp_addrs_wavefronts(w, &ideal, &ways);
	out->wavefronts += line ? by_lines(w, line) : wf;
	out->ideal += ideal;
	if (a->sectors) {
		warp_addrs_units(w, &bytes, &sectors, &lines);
		out->sectors += sectors;
		out->ideal_sectors += (bytes + 31) / 32;
	}
	out->instructions++;
	if (ways > out->worst_ways)
		out->worst_ways = ways;
}

/* Ordinary loads and stores: per warp, one instruction per vector. */
static void vector_cost(const access_walk *a, int64_t limit,
			lego_access_cost *out)
{
	const lego_tv *tv = a->tv;
	int64_t np = placements(a), eb = tv->elem_bytes, e;
	int64_t line[LEGO_WARP];
	warp_addrs w;
	for (int64_t p = 0; p < np; p++)
		for (int64_t t0 = 0; t0 < tv->threads; t0 += LEGO_WARP)
			for (int64_t v = 0; v < tv->values; v += a->vec) {
				w.active = 0;
				w.nthreads = (int)(tv->threads - t0 < LEGO_WARP
						   ? tv->threads - t0
						   : LEGO_WARP);
				w.thread_bytes = a->vec * eb;
				for (int l = 0; l < w.nthreads; l++) {
					int64_t o = vector_offset(a, p, t0 + l,
								  v, &e);
					if (o == -1) {
						out->feasible = 0;
						return;
					}
					if (o < 0)
						continue;
					w.addr[l] = o * eb;
					w.active |= (uint32_t)1 << l;
					if (a->global)
						line[l] = a->global->offset[e] *
							  eb / 128;
				}
				add_phase(a, &w, a->global ? line : NULL, out);
				if (limit >= 0 && out->wavefronts - out->ideal > limit)
					return;
			}
}

/* The byte address of the memory row of matrix j that lane l reads
 * value 2j + b from: lane l gets elements 2 (l % 4) + b of row l / 4
 * (trans: element l / 4 of row 2 (l % 4) + b); each row 16 aligned,
 * consecutive bytes.  0 when the layout breaks a row. */
static int ldmatrix_rows(const access_walk *a, int64_t p, int j,
			 int64_t *addr)
{
	const lego_tv *tv = a->tv;
	int have = 0;
	for (int l = 0; l < LEGO_WARP; l++)
		for (int b = 0; b < 2; b++) {
			int row = tv->trans ? 2 * (l % 4) + b : l / 4;
			int pos = tv->trans ? l / 4 : 2 * (l % 4) + b;
			int64_t e = tile_elem(a, p, a->table[l * tv->values +
							     2 * j + b]);
			int64_t start = a->smem->offset[e] - pos;
			if (start % 8 || (have >> row & 1 &&
					  addr[row] != start * 2))
				return 0;
			addr[row] = start * 2;
			have |= 1 << row;
		}
	return 1;
}

/* ldmatrix: matrix j's eight rows are read by providers 8j .. 8j+7, a
 * phase of 16-byte accesses. */
static void ldmatrix_cost(const access_walk *a, int64_t limit,
			  lego_access_cost *out)
{
	int64_t np = placements(a);
	warp_addrs w;
	for (int64_t p = 0; p < np; p++) {
		w.active = 0;
		w.nthreads = 8 * a->tv->ldmatrix;
		w.thread_bytes = 16;
		for (int j = 0; j < a->tv->ldmatrix; j++) {
			if (!ldmatrix_rows(a, p, j, &w.addr[8 * j])) {
				out->feasible = 0;
				return;
			}
			w.active |= (uint32_t)0xff << (8 * j);
		}
		add_phase(a, &w, NULL, out);
		if (limit >= 0 && out->wavefronts - out->ideal > limit)
			return;
	}
}

int synth_access_cost(lego_ctx *ctx, const lego_tv *tv, const int64_t *table,
		      const lego_smem *smem, const lego_smem *global,
		      int64_t limit, int sectors, lego_access_cost *out)
{
	memset(out, 0, sizeof *out);
	if (tv->ldmatrix && (smem->rows % tv->rows || smem->cols % tv->cols))
		return lego_fail(ctx, LEGO_ERR, "tv %s: its %lld x %lld "
				 "ldmatrix footprint does not divide the %lld x "
				 "%lld tile (its rows must all lie in it)",
				 tv->name, (long long)tv->rows,
				 (long long)tv->cols, (long long)smem->rows,
				 (long long)smem->cols);
	if (smem->cols % tv->vec)
		return lego_fail(ctx, LEGO_ERR, "tv %s: its vectors of %lld "
				 "elements do not divide the tile's rows of "
				 "%lld (a vector may not cross a row)",
				 tv->name, (long long)tv->vec,
				 (long long)smem->cols);
	if (global && (tv->ldmatrix || global->rows != smem->rows ||
		       global->cols != smem->cols))
		return lego_fail(ctx, LEGO_ERR, "tv %s: a copy from global "
				 "memory is a vector access of the tile's "
				 "shape", tv->name);
	access_walk a = {tv, table, smem, tv->ldmatrix ? 8 : tv->vec, sectors,
			 global};
	out->feasible = 1;
	out->vec_bytes = a.vec * tv->elem_bytes;
	if (tv->ldmatrix)
		ldmatrix_cost(&a, limit, out);
	else
		vector_cost(&a, limit, out);
	return LEGO_OK;
}

int lego_tv_access_cost(lego_ctx *ctx, const lego_tv *tv,
			const lego_smem *smem, lego_access_cost *out)
{
	if (!ctx)
		return LEGO_ERR;
	if (!tv || !smem || !smem->offset || !out)
		return lego_fail(ctx, LEGO_ERR, "lego_tv_access_cost: NULL "
				 "argument");
	if (smem->rows < 1 || smem->cols < 1)
		return lego_fail(ctx, LEGO_ERR, "lego_tv_access_cost: a %lld x "
				 "%lld tile", (long long)smem->rows,
				 (long long)smem->cols);
	for (int64_t e = 0; e < smem->rows * smem->cols; e++)
		if (smem->offset[e] < 0 || smem->offset[e] >= smem->size)
			return lego_fail(ctx, LEGO_ERANGE, "lego_tv_access_"
					 "cost: offset %lld of element %lld "
					 "is outside [0, %lld)",
					 (long long)smem->offset[e],
					 (long long)e, (long long)smem->size);
	return synth_access_cost(ctx, tv, synth_tv_table(tv), smem, NULL, -1,
				 1, out);
}
