/* arena.c - bump allocation in chunks; everything freed at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

enum { ARENA_CHUNK = 64 * 1024, ARENA_ALIGN = 16 };

struct lego_arena_chunk {
	lego_arena_chunk *next;
	size_t cap;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

static size_t align_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

void *lego_arena_alloc(lego_arena *a, size_t size)
{
	size = align_up(size ? size : 1);
	if (!a->head || a->used + size > a->head->cap) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		lego_arena_chunk *c = malloc(sizeof *c + cap);
		if (!c)
			return NULL;
		c->next = a->head;
		c->cap = cap;
		a->head = c;
		a->used = 0;
	}
	void *p = a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

char *lego_arena_strndup(lego_arena *a, const char *s, size_t n)
{
	char *p = lego_arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *lego_arena_strdup(lego_arena *a, const char *s)
{
	return lego_arena_strndup(a, s, strlen(s));
}

void lego_arena_free(lego_arena *a)
{
	lego_arena_chunk *c = a->head;
	while (c) {
		lego_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->used = 0;
}
