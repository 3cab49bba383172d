// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The verbs file's id, once per context (file_id.h, ctx_cache.h). */
#include <errno.h>
#include <stdatomic.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "ctx_cache.h"
#include "file_id.h"
#include "rdma_uapi_compat.h"
#include "uverbs_ioctl.h"
#include "uverbs_no_method.h"

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

int file_id_get(struct ibv_context *ctx, uint64_t *id)
{
	struct ctx_ident learnt = { 0 };
	const struct ctx_ident *known;
	int saved, ret;

	if (ctx->cmd_fd < 0)
		return EOPNOTSUPP;
	known = ctx_cache_find(ctx);
	if (known) {
		*id = known->file_id;	/* every entry has it */
		return 0;
	}
	saved = errno;	/* only the query may change it */
	ret = query_file_id(ctx->cmd_fd, &learnt.file_id);
	errno = saved;
	if (ret)
		return ret;
	ctx_cache_keep(ctx, &learnt);
	*id = learnt.file_id;
	return 0;
}
