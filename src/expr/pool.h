/* pool.h - the hash-consing table and the symbol table (internal to expr). */
#ifndef LEGO_EXPR_POOL_H
#define LEGO_EXPR_POOL_H

#include "expr/expr.h"

struct lego_expr_pool {
	/* Open addressing, linear probing; capacity a power of two. */
	lego_expr **slots;
	uint32_t cap;
	uint32_t count;
	uint32_t next_id;      /* ids of every node, symbols included */
	/* Symbols by dense index; names found through an open-addressed
	 * table of (index + 1), 0 meaning empty. */
	lego_expr **syms;
	uint32_t nsyms;
	uint32_t syms_cap;
	uint32_t *names;
	uint32_t names_cap;
};

#endif
