/* cache.c - node-keyed caches of the simplifier (open addressing on the
 * node id, malloc'd, owned by the facts). */
#include <stdlib.h>
#include <string.h>

#include "simplify/facts.h"

static size_t slot_of(uint32_t key, size_t cap)
{
	return (size_t)(key * 2654435761u) & (cap - 1);
}

int lego_cache_get(const lego_cache *c, const lego_expr *key,
		   const void **val)
{
	if (!c->cap)
		return 0;
	uint32_t k = key->id + 1;
	for (size_t i = slot_of(k, c->cap);; i = (i + 1) & (c->cap - 1)) {
		if (c->keys[i] == k) {
			*val = c->vals[i];
			return 1;
		}
		if (!c->keys[i])
			return 0;
	}
}

static void insert(lego_cache *c, uint32_t k, const void *val)
{
	size_t i = slot_of(k, c->cap);
	while (c->keys[i] && c->keys[i] != k)
		i = (i + 1) & (c->cap - 1);
	if (!c->keys[i])
		c->count++;
	c->keys[i] = k;
	c->vals[i] = val;
}

static int grow(lego_cache *c)
{
	size_t cap = c->cap ? c->cap * 2 : 256;
	uint32_t *keys = calloc(cap, sizeof *keys);
	const void **vals = malloc(cap * sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return LEGO_ENOMEM;
	}
	lego_cache old = *c;
	c->keys = keys;
	c->vals = vals;
	c->cap = cap;
	c->count = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			insert(c, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
	return LEGO_OK;
}

int lego_cache_put(lego_cache *c, const lego_expr *key, const void *val)
{
	if ((c->count + 1) * 2 > c->cap && grow(c) != LEGO_OK)
		return LEGO_ENOMEM;
	insert(c, key->id + 1, val);
	return LEGO_OK;
}

void lego_cache_clear(lego_cache *c)
{
	if (c->cap)
		memset(c->keys, 0, c->cap * sizeof *c->keys);
	c->count = 0;
}

void lego_cache_free(lego_cache *c)
{
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof *c);
}
