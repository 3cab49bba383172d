// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <endian.h>
#include <errno.h>
#include <stdint.h>

#include "layout.h"
#include "share.h"

int share_fail(int err)
{
	errno = err;
	return err;
}

int share_node_guid(struct ibv_context *ctx, uint64_t *guid)
{
	if (!ctx || !ctx->device)
		return EINVAL;
	*guid = be64toh(ibv_get_device_guid(ctx->device));
	return 0;
}

int share_encode(struct ibv_context *ctx, struct blob *b,
		 enum blob_kind kind, void *data)
{
	int ret;

	ret = share_node_guid(ctx, &b->node_guid);
	if (ret)
		return ret;
	b->version = BLOB_FORMAT_VERSION;
	b->kind = kind;
	return blob_encode(b, data) ? 0 : EINVAL;
}

int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b)
{
	uint64_t guid;
	int ret;

	if (!ctx || !data)
		return EINVAL;
	ret = layout_check();
	if (ret)
		return ret;
	ret = share_node_guid(ctx, &guid);
	if (ret)
		return ret;
	/* The public import has no length: the header's promise bounds it. */
	ret = blob_decode(data, SIZE_MAX, kind, b);
	if (ret)
		return ret;
	return blob_check_device(b, guid);
}
