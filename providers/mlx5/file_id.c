// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The verbs file's id, once per context (file_id.h).  Entries sit in
 * chunks allocated as needed and published once written; a context keeps
 * its entry's index plus one in its padding, so a lookup is two loads
 * and a compare, without a lock.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "file_id.h"
#include "layout.h"
#include "rdma_uapi_compat.h"
#include "uverbs_ioctl.h"
#include "uverbs_no_method.h"

#ifdef LAYOUT_LP64
/* The padding the index goes into (file_id.h). */
#define SLOT_OFF (offsetof(struct ibv_context, num_comp_vectors) + sizeof(int))
_Static_assert(offsetof(struct ibv_context, mutex) - SLOT_OFF ==
	       sizeof(uint32_t) && SLOT_OFF % sizeof(uint32_t) == 0,
	       "four bytes of padding before ibv_context's mutex");
#endif

enum {
	CHUNK_ENTRIES = 4096,
	NCHUNKS = FILE_ID_MAX_ENTRIES / CHUNK_ENTRIES,
};

struct file_id_entry {
	const struct ibv_context *ctx;	/* whose (a check, not the key) */
	uint64_t id;
};

static _Atomic(struct file_id_entry *) chunks[NCHUNKS];
static atomic_uint used;	/* entries claimed */

#ifdef MLX5_SHARE_TEST_HOOKS
static atomic_ulong queries;

unsigned long file_id_test_queries(void)
{
	return atomic_load(&queries);
}
#define COUNT_QUERY() atomic_fetch_add(&queries, 1)
#else
#define COUNT_QUERY() ((void)0)
#endif

/*
 * QUERY_CONTEXT with the optional FILE_ID.  mlx5's query_ucontext makes
 * its own output attribute mandatory, so the command offers it room.
 */
static int query_file_id(int fd, uint64_t *id)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_CONTEXT, 2);
	struct mlx5_ib_alloc_ucontext_resp uctx;
	struct ib_uverbs_attr *out;
	uint64_t got = 0;
	int ret;

	COUNT_QUERY();
	fill_out_ptr(cmd, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, &uctx,
		     sizeof(uctx));
	out = fill_out_ptr(cmd, UVERBS_ATTR_QUERY_CONTEXT_FILE_ID, &got,
			   sizeof(got));
	uverbs_attr_optional(out);
	ret = uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
	if (uverbs_no_method(ret)) {
		*id = 0;	/* no QUERY_CONTEXT: surely no file id */
		return 0;
	}
	if (ret)
		return ret;
	if (!uverbs_attr_written(out))
		got = 0;	/* a kernel before series v3 */
	else if (!got)
		return EPROTO;
	*id = got;
	return 0;
}

#ifdef LAYOUT_LP64
static uint32_t *slot_of(struct ibv_context *ctx)
{
	return (uint32_t *)((unsigned char *)ctx + SLOT_OFF);
}

static struct file_id_entry *entry_at(uint32_t index)
{
	struct file_id_entry *c;

	c = atomic_load_explicit(&chunks[index / CHUNK_ENTRIES],
				 memory_order_acquire);
	return c ? &c[index % CHUNK_ENTRIES] : NULL;
}

static bool lookup(struct ibv_context *ctx, uint64_t *id)
{
	uint32_t slot = __atomic_load_n(slot_of(ctx), __ATOMIC_ACQUIRE);
	struct file_id_entry *e;

	if (!slot || slot > FILE_ID_MAX_ENTRIES)
		return false;
	e = entry_at(slot - 1);
	if (!e || e->ctx != ctx)
		return false;
	*id = e->id;
	return true;
}

/* A chunk for index, allocated by whichever thread gets there first. */
static struct file_id_entry *chunk_for(uint32_t index)
{
	_Atomic(struct file_id_entry *) *at = &chunks[index / CHUNK_ENTRIES];
	struct file_id_entry *c, *none = NULL;

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
 * Keeps id for ctx; out of entries or memory, nothing is kept (the next
 * call asks again).  Two threads that both missed keep one entry each;
 * the slot names the last, and both hold the same answer.
 */
static void keep(struct ibv_context *ctx, uint64_t id)
{
	uint32_t index = atomic_fetch_add_explicit(&used, 1,
						   memory_order_relaxed);
	struct file_id_entry *c;

	if (index >= FILE_ID_MAX_ENTRIES) {
		atomic_store_explicit(&used, FILE_ID_MAX_ENTRIES,
				      memory_order_relaxed);
		return;
	}
	c = chunk_for(index);
	if (!c)
		return;
	c[index % CHUNK_ENTRIES] = (struct file_id_entry){ ctx, id };
	__atomic_store_n(slot_of(ctx), index + 1, __ATOMIC_RELEASE);
}
#else
static bool lookup(struct ibv_context *ctx, uint64_t *id)
{
	(void)ctx;
	(void)id;
	return false;
}

static void keep(struct ibv_context *ctx, uint64_t id)
{
	(void)ctx;
	(void)id;
}
#endif

int file_id_get(struct ibv_context *ctx, uint64_t *id)
{
	uint64_t got;
	int saved, ret;

	if (ctx->cmd_fd < 0)
		return EOPNOTSUPP;
	if (lookup(ctx, id))
		return 0;
	saved = errno;	/* only the query may change it */
	ret = query_file_id(ctx->cmd_fd, &got);
	errno = saved;
	if (ret)
		return ret;
	keep(ctx, got);
	*id = got;
	return 0;
}

/* The chunks go with the library (dlclose, process exit). */
__attribute__((destructor)) static void file_id_free(void)
{
	size_t i;

	for (i = 0; i < NCHUNKS; i++)
		free(atomic_exchange(&chunks[i], NULL));
}
