/* memo.c - node-keyed map for memoised traversals. */
#include <stdlib.h>

#include "expr/memo.h"

int lego_memo_init(lego_memo *m, size_t hint)
{
	size_t cap = 16;
	while (cap < hint * 2)
		cap *= 2;
	m->slots = calloc(cap, sizeof *m->slots);
	m->cap = m->slots ? cap : 0;
	m->count = 0;
	return m->slots ? LEGO_OK : LEGO_ENOMEM;
}

void lego_memo_free(lego_memo *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}

static size_t slot_of(const lego_memo_entry *slots, size_t cap,
		      const lego_expr *key)
{
	size_t j = (key->id * 2654435761u) & (cap - 1);
	while (slots[j].key && slots[j].key != key)
		j = (j + 1) & (cap - 1);
	return j;
}

lego_memo_entry *lego_memo_get(const lego_memo *m, const lego_expr *key)
{
	lego_memo_entry *s = &m->slots[slot_of(m->slots, m->cap, key)];
	return s->key ? s : NULL;
}

static int grow(lego_memo *m)
{
	size_t cap = m->cap * 2;
	lego_memo_entry *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return LEGO_ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			slots[slot_of(slots, cap, m->slots[i].key)] =
				m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return LEGO_OK;
}

lego_memo_entry *lego_memo_put(lego_memo *m, const lego_expr *key)
{
	if ((m->count + 1) * 2 > m->cap && grow(m) != LEGO_OK)
		return NULL;
	lego_memo_entry *s = &m->slots[slot_of(m->slots, m->cap, key)];
	if (!s->key) {
		s->key = key;
		m->count++;
	}
	return s;
}
