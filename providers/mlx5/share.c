// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "device_id.h"
#include "handle_query.h"
#include "layout.h"
#include "live_check.h"
#include "rdma_uapi_compat.h"
#include "share.h"

int share_fail(int err)
{
	errno = err;
	return err;
}

int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b)
{
	struct blob_device dev;
	int ret;

	if (!ctx || !data)
		return EINVAL;
	ret = layout_check();
	if (ret)
		return ret;
	if (!ctx->device)
		return EINVAL;	/* no device to bind the blob to */
	/* The public import has no length: the header's promise bounds it. */
	ret = blob_decode(data, SIZE_MAX, kind, b);
	if (ret)
		return ret;
	ret = device_id_get(ctx, &dev);
	if (ret)
		return ret;
	return blob_check_device(b, &dev);
}

int share_judge_answer(const struct blob *b, int ret,
		       const struct mlx5_ib_devx_handle_info *k)
{
	if (!ret)
		return import_policy_judge(b, k);
	if (ret == EINVAL)
		return ENOENT;	/* a verbs object, say: not the blob's */
	return ret;
}

int share_judge_handle(int fd, const struct blob *b)
{
	struct mlx5_ib_devx_handle_info k;
	uint32_t handle = b->handle;

	return share_judge_answer(b, handle_query(fd, &handle, 1, &k), &k);
}

int share_export_serial(struct ibv_context *ctx, struct blob *b)
{
	struct mlx5_ib_devx_handle_info k;
	uint32_t handle = b->handle;
	int ret;

	b->serial = 0;	/* also what import_policy_judge() compares */
	if (ctx->cmd_fd < 0)
		return 0;	/* VFIO: no kernel, and import refuses it */
	ret = handle_query(ctx->cmd_fd, &handle, 1, &k);
	if (ret == HANDLE_QUERY_ABSENT)
		return 0;
	ret = share_judge_answer(b, ret, &k);
	if (!ret)
		b->serial = k.serial;
	return ret;
}

/* What the kernel says of a decoded blob's handle in ctx's uverbs file. */
static int share_live(struct ibv_context *ctx, const struct blob *b)
{
	int ret;

	if (ctx->cmd_fd >= 0) {
		ret = share_judge_handle(ctx->cmd_fd, b);
		if (ret != HANDLE_QUERY_ABSENT)
			return ret;
	}
	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		return live_check_devx_obj(ctx, b->handle, b->obj.type,
					   b->obj.object_id);
	case BLOB_KIND_DEVX_UMEM:
		return live_check_devx_umem(ctx, b->handle);
	case BLOB_KIND_VAR:
		return live_check_var(ctx, b->handle);
	}
	return EINVAL;
}

void *share_import(struct ibv_context *ctx, const void *data,
		   enum blob_kind kind, size_t size,
		   share_from_blob_fn from_blob)
{
	int ret, saved = errno;
	struct blob b;
	void *obj;

	ret = share_decode(ctx, data, kind, &b);
	if (!ret)
		ret = share_live(ctx, &b);
	if (ret) {
		errno = ret;
		return NULL;
	}
	obj = calloc(1, size);
	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	from_blob(obj, ctx, &b);
	errno = saved;	/* the kernel's answers along the way are not ours */
	return obj;
}
