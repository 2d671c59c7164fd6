/* cache.c - answers per condition node and facts version. */
#include <stdlib.h>
#include <string.h>

#include "smt/smt.h"

static size_t slot_of(const smt_cache *c, const lego_expr *cond,
		      uint64_t version)
{
	size_t mask = c->cap - 1;
	size_t j = (size_t)((cond->id ^ version * 0x9e3779b97f4a7c15ull) *
			    2654435761u) & mask;
	while (c->slots[j].cond && (c->slots[j].cond != cond ||
				    c->slots[j].facts_version != version))
		j = (j + 1) & mask;
	return j;
}

/* An unknown answer stands for the limits it was reached under. */
const smt_answer *smt_cache_get(const smt_cache *c, const lego_expr *cond,
				uint64_t version, unsigned timeout_ms)
{
	if (!c->cap)
		return NULL;
	const smt_answer *a = &c->slots[slot_of(c, cond, version)];
	if (!a->cond)
		return NULL;
	if (a->proof == LEGO_UNKNOWN && a->timeout_ms < timeout_ms)
		return NULL;
	return a;
}

static int grow(smt_cache *c)
{
	smt_cache bigger = {calloc(c->cap ? 2 * c->cap : 64,
				   sizeof *c->slots),
			    c->cap ? 2 * c->cap : 64, 0};
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < c->cap; i++) {
		smt_answer *a = &c->slots[i];
		if (a->cond) {
			bigger.slots[slot_of(&bigger, a->cond,
					     a->facts_version)] = *a;
			bigger.count++;
		}
	}
	free(c->slots);
	*c = bigger;
	return 0;
}

static void answer_clear(smt_answer *a)
{
	free(a->syms);
	free(a->values);
	memset(a, 0, sizeof *a);
}

int smt_cache_put(smt_cache *c, const smt_answer *a)
{
	if ((c->count + 1) * 2 > c->cap && grow(c))
		return LEGO_ENOMEM;
	smt_answer *slot = &c->slots[slot_of(c, a->cond, a->facts_version)];
	if (slot->cond)
		answer_clear(slot);
	else
		c->count++;
	*slot = *a;
	slot->syms = NULL;
	slot->values = NULL;
	if (a->proof != LEGO_REFUTED || !a->n)
		return LEGO_OK; /* only refutations carry values */
	slot->syms = malloc(a->n * sizeof *slot->syms);
	slot->values = malloc(a->n * sizeof *slot->values);
	if (!slot->syms || !slot->values) {
		answer_clear(slot);
		c->count--;
		return LEGO_ENOMEM;
	}
	memcpy(slot->syms, a->syms, a->n * sizeof *slot->syms);
	memcpy(slot->values, a->values, a->n * sizeof *slot->values);
	return LEGO_OK;
}

void smt_cache_free(smt_cache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].cond)
			answer_clear(&c->slots[i]);
	free(c->slots);
	*c = (smt_cache){0};
}
