/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What this library has learnt about a context, kept per context so that
 * export and import ask nothing twice: the id of its verbs file
 * (file_id.h) and, once every part is known, the whole identity its
 * blobs are bound to (the device's, device_id.h, and the boot's,
 * boot_id.h), so that the hot paths look up one entry where they looked
 * up three.
 *
 * Entries sit in chunks allocated as needed and are immutable once
 * published; a context keeps its entry's index plus one in the four
 * bytes of struct ibv_context's padding between num_comp_vectors and
 * mutex (LP64; ctx_cache.c asserts them), which no rdma-core release
 * writes and which every context starts with zero (libibverbs calloc()s
 * each provider's context, verbs_init_and_alloc_context()).  So a
 * lookup is two loads and a compare, without a lock, and a context
 * freed and another allocated at the same address reads 0 there: no
 * entry.  An entry is replaced, never changed: a context that learns
 * more gets a new one (two in its life, file id then whole identity,
 * and one more for each thread that raced another to keep the same).
 * Entries are never freed: 56 bytes each (struct ctx_cache_entry), kept
 * until unload; past CTX_CACHE_MAX_ENTRIES in all nothing new is kept
 * (each call asks again).  On other ABIs nothing is kept.
 */
#ifndef MLX5_SHARE_CTX_CACHE_H
#define MLX5_SHARE_CTX_CACHE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "blob.h"
#include "layout.h"

/* Entries the process keeps, in all. */
#define CTX_CACHE_MAX_ENTRIES (1U << 24)

struct ctx_ident {
	uint64_t file_id;	/* 0: the kernel reports none */
	bool bound;		/* dev and boot_id below are known too */
	struct blob_device dev;
	uint8_t boot_id[BLOB_BOOT_ID_LEN];
};

#ifdef LAYOUT_LP64
/*
 * The store, visible only for the inline lookup below: export and
 * import look up on every call.  ctx_cache.c alone writes it.
 */
enum {
	CTX_CACHE_CHUNK_ENTRIES = 4096,
	CTX_CACHE_NCHUNKS = CTX_CACHE_MAX_ENTRIES / CTX_CACHE_CHUNK_ENTRIES,
};

struct ctx_cache_entry {
	const struct ibv_context *ctx;	/* whose (a check, not the key) */
	struct ctx_ident ident;
};

extern _Atomic(struct ctx_cache_entry *) ctx_cache_chunks[];

/* The padding the index goes into (asserted in ctx_cache.c). */
#define CTX_CACHE_SLOT_OFF \
	(offsetof(struct ibv_context, num_comp_vectors) + sizeof(int))

/* Where ctx keeps its entry's index plus one. */
static inline uint32_t *ctx_cache_slot(struct ibv_context *ctx)
{
	return (uint32_t *)((unsigned char *)ctx + CTX_CACHE_SLOT_OFF);
}

/* ctx's entry (read-only, valid until unload), or NULL: none kept. */
static inline const struct ctx_ident *
ctx_cache_find(struct ibv_context *ctx)
{
	uint32_t slot = __atomic_load_n(ctx_cache_slot(ctx), __ATOMIC_ACQUIRE);
	struct ctx_cache_entry *c, *e;

	if (!slot || slot > CTX_CACHE_MAX_ENTRIES)
		return NULL;
	slot--;
	c = atomic_load_explicit(&ctx_cache_chunks[slot /
						   CTX_CACHE_CHUNK_ENTRIES],
				 memory_order_acquire);
	if (!c)
		return NULL;
	e = &c[slot % CTX_CACHE_CHUNK_ENTRIES];
	return e->ctx == ctx ? &e->ident : NULL;
}
#else
static inline const struct ctx_ident *
ctx_cache_find(struct ibv_context *ctx)
{
	(void)ctx;
	return NULL;
}
#endif

/*
 * Keeps a copy of *ident as ctx's entry, in place of any before it; out
 * of entries or memory, nothing is kept (the next call asks again).
 */
void ctx_cache_keep(struct ibv_context *ctx, const struct ctx_ident *ident);

#endif
