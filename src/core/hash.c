/* hash.c - the string hash of every name table (symbols, declarations). */
#include "core/core.h"

uint32_t lego_hash_name(const char *name)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}
