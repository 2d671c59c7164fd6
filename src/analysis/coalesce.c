/* coalesce.c - global-memory sectors touched by a warp request. */
#include <stdlib.h>
#include <string.h>

#include "analysis/access.h"

enum { SECTOR_BYTES = 32, LINE_BYTES = 128 };

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Distinct values of v[0..n) / unit (v sorted ascending). */
static int64_t distinct_units(const int64_t *v, size_t n, int64_t unit)
{
	int64_t count = 0;
	for (size_t k = 0; k < n; k++)
		count += k == 0 || v[k] / unit != v[k - 1] / unit;
	return count;
}

void warp_addrs_units(const warp_addrs *w, int64_t *bytes, int64_t *sectors,
		      int64_t *lines)
{
	/* Every byte requested, sorted: at most 32 threads * 16 bytes. */
	int64_t b[LEGO_WARP * 16];
	size_t n = 0;
	for (int t = 0; t < w->nthreads; t++)
		for (int64_t k = 0; (w->active >> t & 1) && k < w->thread_bytes;
		     k++)
			b[n++] = w->addr[t] + k;
	qsort(b, n, sizeof *b, cmp_i64);
	*bytes = distinct_units(b, n, 1);
	*sectors = distinct_units(b, n, SECTOR_BYTES);
	*lines = distinct_units(b, n, LINE_BYTES);
}

int lego_analyze_coalesce(lego_ctx *ctx, const lego_warp_access *access,
			  lego_coalesce_report *report)
{
	warp_addrs w;
	if (!report)
		return lego_fail(ctx, LEGO_ERR, "coalescing analysis: no "
				 "report");
	int rc = warp_addrs_eval(ctx, access, "coalescing analysis", &w);
	if (rc != LEGO_OK)
		return rc;
	memset(report, 0, sizeof *report);
	report->active = w.active;
	memcpy(report->offset, w.offset, sizeof w.offset);
	warp_addrs_units(&w, &report->bytes, &report->sectors, &report->lines);
	report->ideal = (report->bytes + SECTOR_BYTES - 1) / SECTOR_BYTES;
	return LEGO_OK;
}
