/* bank.c - shared-memory bank conflicts of a warp access: the wavefronts
 * of one request under the model of docs/analysis.md. */
#include <string.h>

#include "analysis/access.h"

enum { BANK_BYTES = 4, PHASE_BYTES = LEGO_BANKS * BANK_BYTES };

/* Distinct words per bank within one phase. */
typedef struct phase_banks {
	int nwords[LEGO_BANKS];
	/* A phase requests 128 bytes at most: 32 words in all. */
	int64_t words[LEGO_BANKS][LEGO_WARP];
} phase_banks;

static void add_word(phase_banks *pb, int64_t word)
{
	int b = (int)(word % LEGO_BANKS);
	for (int k = 0; k < pb->nwords[b]; k++)
		if (pb->words[b][k] == word)
			return;  /* same word: broadcast */
	pb->words[b][pb->nwords[b]++] = word;
}

/* The 4-byte words [*lo, *hi] thread t accesses. */
static void words_of(const warp_addrs *w, int t, int64_t *lo, int64_t *hi)
{
	*lo = w->addr[t] / BANK_BYTES;
	*hi = (w->addr[t] + w->thread_bytes - 1) / BANK_BYTES;
}

/* Fills pb for threads [first, first+n); returns its wavefronts. */
static int64_t phase_cost(const warp_addrs *w, int first, int n,
			  phase_banks *pb)
{
	memset(pb->nwords, 0, sizeof pb->nwords);
	for (int t = first; t < first + n; t++) {
		if (!(w->active >> t & 1))
			continue;
		int64_t lo, hi;
		words_of(w, t, &lo, &hi);
		for (int64_t word = lo; word <= hi; word++)
			add_word(pb, word);
	}
	int64_t worst = 0;
	for (int b = 0; b < LEGO_BANKS; b++)
		if (pb->nwords[b] > worst)
			worst = pb->nwords[b];
	return worst;
}

static int worst_bank_of(const phase_banks *pb, int64_t ways)
{
	for (int b = 0; b < LEGO_BANKS; b++)
		if (pb->nwords[b] == ways)
			return b;
	return 0;
}

/* The threads of the phase touching `bank`, with the word they touch. */
static void list_colliders(const warp_addrs *w, int first, int n, int bank,
			   lego_bank_report *r)
{
	r->ncolliders = 0;
	for (int t = first; t < first + n; t++) {
		if (!(w->active >> t & 1))
			continue;
		int64_t lo, hi;
		words_of(w, t, &lo, &hi);
		for (int64_t word = lo; word <= hi; word++)
			if (word % LEGO_BANKS == bank) {
				r->colliders[r->ncolliders] = t;
				r->collider_words[r->ncolliders++] = word;
				break;
			}
	}
}

/* Threads served by one phase: 128 bytes of requests. */
static int phase_threads(const warp_addrs *w)
{
	int n = (int)(PHASE_BYTES / (w->thread_bytes < BANK_BYTES
				     ? BANK_BYTES : w->thread_bytes));
	return n > LEGO_WARP ? LEGO_WARP : n;
}

int64_t warp_addrs_wavefronts(const warp_addrs *w, int64_t *ideal,
			      int64_t *ways)
{
	int per_phase = phase_threads(w);
	int64_t total = 0;
	phase_banks pb;
	*ideal = *ways = 0;
	for (int first = 0; first < w->nthreads; first += per_phase) {
		int n = w->nthreads - first < per_phase ? w->nthreads - first
							: per_phase;
		int64_t cost = phase_cost(w, first, n, &pb);
		total += cost;
		*ideal += cost > 0;
		if (cost > *ways)
			*ways = cost;
	}
	return total;
}

int lego_analyze_banks(lego_ctx *ctx, const lego_warp_access *access,
		       lego_bank_report *report)
{
	warp_addrs w;
	if (!report)
		return lego_fail(ctx, LEGO_ERR, "bank analysis: no report");
	int rc = warp_addrs_eval(ctx, access, "bank analysis", &w);
	if (rc != LEGO_OK)
		return rc;
	memset(report, 0, sizeof *report);
	report->active = w.active;
	memcpy(report->offset, w.offset, sizeof w.offset);
	int per_phase = phase_threads(&w);
	report->phases = (w.nthreads + per_phase - 1) / per_phase;
	phase_banks pb;
	for (int p = 0; p < report->phases; p++) {
		int first = p * per_phase;
		int n = w.nthreads - first < per_phase ? w.nthreads - first
						       : per_phase;
		int64_t cost = phase_cost(&w, first, n, &pb);
		report->wavefronts += cost;
		report->ideal += cost > 0;
		if (cost > report->ways) {
			report->ways = cost;
			report->worst_phase = p;
			report->worst_bank = worst_bank_of(&pb, cost);
			list_colliders(&w, first, n, report->worst_bank,
				       report);
		}
	}
	return LEGO_OK;
}
