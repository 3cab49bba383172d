// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "device_id.h"
#include "layout.h"
#include "share.h"

int share_fail(int err)
{
	errno = err;
	return err;
}

int share_export_check(const void *obj, const void *data)
{
	int ret;

	if (!obj || !data)
		return share_fail(EINVAL);
	ret = layout_check();
	return ret ? share_fail(ret) : 0;
}

int share_encode(struct ibv_context *ctx, struct blob *b,
		 enum blob_kind kind, void *data)
{
	struct blob_device dev;
	int ret;

	ret = device_id_get(ctx, &dev);
	if (ret)
		return share_fail(ret);
	blob_set_device(b, &dev);
	b->version = BLOB_FORMAT_VERSION;
	b->kind = kind;
	return blob_encode(b, data) ? 0 : share_fail(EINVAL);
}

void *share_import_alloc(int ret, size_t size)
{
	void *p;

	if (ret) {
		errno = ret;
		return NULL;
	}
	p = calloc(1, size);
	if (!p)
		errno = ENOMEM;
	return p;
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
