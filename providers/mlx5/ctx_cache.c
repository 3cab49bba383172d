// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The per-context cache (ctx_cache.h): chunks of entries, no lock. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "ctx_cache.h"
#include "layout.h"

#ifdef LAYOUT_LP64
/* The padding the index goes into (ctx_cache.h). */
#define SLOT_OFF (offsetof(struct ibv_context, num_comp_vectors) + sizeof(int))
_Static_assert(offsetof(struct ibv_context, mutex) - SLOT_OFF ==
	       sizeof(uint32_t) && SLOT_OFF % sizeof(uint32_t) == 0,
	       "four bytes of padding before ibv_context's mutex");

enum {
	CHUNK_ENTRIES = 4096,
	NCHUNKS = CTX_CACHE_MAX_ENTRIES / CHUNK_ENTRIES,
};

struct ctx_entry {
	const struct ibv_context *ctx;	/* whose (a check, not the key) */
	struct ctx_ident ident;
};

static _Atomic(struct ctx_entry *) chunks[NCHUNKS];
static atomic_uint used;	/* entries claimed */

static uint32_t *slot_of(struct ibv_context *ctx)
{
	return (uint32_t *)((unsigned char *)ctx + SLOT_OFF);
}

const struct ctx_ident *ctx_cache_find(struct ibv_context *ctx)
{
	uint32_t slot = __atomic_load_n(slot_of(ctx), __ATOMIC_ACQUIRE);
	struct ctx_entry *c, *e;

	if (!slot || slot > CTX_CACHE_MAX_ENTRIES)
		return NULL;
	slot--;
	c = atomic_load_explicit(&chunks[slot / CHUNK_ENTRIES],
				 memory_order_acquire);
	if (!c)
		return NULL;
	e = &c[slot % CHUNK_ENTRIES];
	return e->ctx == ctx ? &e->ident : NULL;
}

/* A chunk for index, allocated by whichever thread gets there first. */
static struct ctx_entry *chunk_for(uint32_t index)
{
	_Atomic(struct ctx_entry *) *at = &chunks[index / CHUNK_ENTRIES];
	struct ctx_entry *c, *none = NULL;

	c = atomic_load_explicit(at, memory_order_acquire);
	if (c)
		return c;
	c = calloc(CHUNK_ENTRIES, sizeof(*c));
	if (!c)
		return NULL;
	if (!atomic_compare_exchange_strong_explicit(at, &none, c,
						     memory_order_acq_rel,
						     memory_order_acquire)) {
		free(c);
		c = none;
	}
	return c;
}

/*
 * Two threads that both keep an entry for one context claim one each;
 * the slot names the last, and both hold answers about the same context.
 */
void ctx_cache_keep(struct ibv_context *ctx, const struct ctx_ident *ident)
{
	uint32_t index = atomic_fetch_add_explicit(&used, 1,
						   memory_order_relaxed);
	struct ctx_entry *c;

	if (index >= CTX_CACHE_MAX_ENTRIES) {
		atomic_store_explicit(&used, CTX_CACHE_MAX_ENTRIES,
				      memory_order_relaxed);
		return;
	}
	c = chunk_for(index);
	if (!c)
		return;
	c[index % CHUNK_ENTRIES] = (struct ctx_entry){ ctx, *ident };
	__atomic_store_n(slot_of(ctx), index + 1, __ATOMIC_RELEASE);
}

/* The chunks go with the library (dlclose, process exit). */
__attribute__((destructor)) static void ctx_cache_free(void)
{
	size_t i;

	for (i = 0; i < NCHUNKS; i++)
		free(atomic_exchange(&chunks[i], NULL));
}
#else
const struct ctx_ident *ctx_cache_find(struct ibv_context *ctx)
{
	(void)ctx;
	return NULL;
}

void ctx_cache_keep(struct ibv_context *ctx, const struct ctx_ident *ident)
{
	(void)ctx;
	(void)ident;
}
#endif
