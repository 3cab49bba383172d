// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "boot_id.h"
#include "device_id.h"
#include "handle_query.h"
#include "import_tag.h"
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
	uint8_t boot[BLOB_BOOT_ID_LEN];
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
	ret = import_policy_decode(data, SIZE_MAX, kind, b);
	if (ret)
		return ret;
	ret = device_id_get(ctx, &dev);
	if (!ret)
		ret = blob_check_device(b, &dev);
	if (!ret)
		ret = boot_id_get(boot);
	return ret ? ret : blob_check_boot(b, boot);
}

/* The cookie of b's handle in fd's file, as an object of b's kind. */
static int query_cookie(int fd, const struct blob *b, uint64_t *cookie)
{
	int ret = handle_query(fd, b->handle,
			       handle_query_object_id(b->kind), cookie);

	return ret == EINVAL ? ENOENT : ret;	/* no such type: not there */
}

int share_judge_handle(int fd, const struct blob *b, uint64_t *cookie)
{
	int ret;

	ret = query_cookie(fd, b, cookie);
	if (ret == ENOENT && import_policy_no_cookie(b))
		return EPROTO;	/* the method is there: a downgrade first */
	if (ret)
		return ret;
	return import_policy_judge(b, *cookie);
}

int share_export_cookie(struct ibv_context *ctx, struct blob *b,
			uint64_t tag)
{
	uint64_t cookie;
	int ret;

	b->cookie = 0;
	if (ctx->cmd_fd < 0)
		return 0;	/* VFIO: no kernel, and import refuses it */
	ret = query_cookie(ctx->cmd_fd, b, &cookie);
	if (ret == HANDLE_QUERY_ABSENT)
		return 0;
	if (ret)
		return ret;
	/* An imported object exports only while it is still that object. */
	if (tag && !import_tag_matches(b->kind, tag, cookie))
		return ENOENT;
	b->cookie = cookie;
	return 0;
}

/*
 * What the kernel says of a decoded blob's handle in ctx's uverbs file;
 * *cookie gets the object's cookie when the core handle query vouched
 * for it, else stays 0.
 */
static int share_live(struct ibv_context *ctx, const struct blob *b,
		      uint64_t *cookie)
{
	int ret;

	*cookie = 0;
	if (ctx->cmd_fd >= 0) {
		ret = share_judge_handle(ctx->cmd_fd, b, cookie);
		if (ret != HANDLE_QUERY_ABSENT)
			return ret;
		*cookie = 0;
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
	uint64_t cookie;
	struct blob b;
	void *obj;

	ret = share_decode(ctx, data, kind, &b);
	if (!ret)
		ret = share_live(ctx, &b, &cookie);
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
	import_tag_set(kind, obj, cookie);
	errno = saved;	/* the kernel's answers along the way are not ours */
	return obj;
}
