// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The per-context cache (ctx_cache.h): chunks of entries, no lock. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "ctx_cache.h"

#ifdef LAYOUT_LP64
_Static_assert(offsetof(struct ibv_context, mutex) - CTX_CACHE_SLOT_OFF ==
	       sizeof(uint32_t) && CTX_CACHE_SLOT_OFF % sizeof(uint32_t) == 0,
	       "four bytes of padding before ibv_context's mutex");

_Atomic(struct ctx_cache_entry *) ctx_cache_chunks[CTX_CACHE_NCHUNKS];
static atomic_uint used;	/* entries claimed */

/* A chunk for index, allocated by whichever thread gets there first. */
static struct ctx_cache_entry *chunk_for(uint32_t index)
{
	_Atomic(struct ctx_cache_entry *) *at =
		&ctx_cache_chunks[index / CTX_CACHE_CHUNK_ENTRIES];
	struct ctx_cache_entry *c, *none = NULL;

	c = atomic_load_explicit(at, memory_order_acquire);
	if (c)
		return c;
	c = calloc(CTX_CACHE_CHUNK_ENTRIES, sizeof(*c));
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
	struct ctx_cache_entry *c;

	if (index >= CTX_CACHE_MAX_ENTRIES) {
		atomic_store_explicit(&used, CTX_CACHE_MAX_ENTRIES,
				      memory_order_relaxed);
		return;
	}
	c = chunk_for(index);
	if (!c)
		return;
	c[index % CTX_CACHE_CHUNK_ENTRIES] =
		(struct ctx_cache_entry){ ctx, *ident };
	__atomic_store_n(ctx_cache_slot(ctx), index + 1, __ATOMIC_RELEASE);
}

/* The chunks go with the library (dlclose, process exit). */
__attribute__((destructor)) static void ctx_cache_free(void)
{
	size_t i;

	for (i = 0; i < CTX_CACHE_NCHUNKS; i++)
		free(atomic_exchange(&ctx_cache_chunks[i], NULL));
}
#else
void ctx_cache_keep(struct ibv_context *ctx, const struct ctx_ident *ident)
{
	(void)ctx;
	(void)ident;
}
#endif
