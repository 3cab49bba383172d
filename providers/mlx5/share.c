// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot_id.h"
#include "ctx_cache.h"
#include "device_id.h"
#include "file_id.h"
#include "import_policy.h"
#include "layout.h"
#include "live_check.h"
#include "share.h"

int share_fail(int err)
{
	errno = err;
	return err;
}

/*
 * Keeps ctx's whole identity in its cache entry once its file id is kept
 * there (file_id.h) and dev is one device_id.h keeps too (a device that
 * refuses the vhca_id query is asked again on every call): from then on
 * export and import look up that one entry.
 */
static void share_bind(struct ibv_context *ctx, const struct blob_device *dev,
		       const uint8_t boot[BLOB_BOOT_ID_LEN])
{
	const struct ctx_ident *known = ctx_cache_find(ctx);
	struct ctx_ident ident;

	if (!known || known->bound || !dev->has_vhca_id)
		return;
	ident.file_id = known->file_id;
	ident.bound = true;
	ident.dev = *dev;
	memcpy(ident.boot_id, boot, sizeof(ident.boot_id));
	ctx_cache_keep(ctx, &ident);
}

int share_export_identity(struct ibv_context *ctx, struct blob_device *dev,
			  uint8_t boot[BLOB_BOOT_ID_LEN], uint64_t *file_id)
{
	int ret = device_id_get(ctx, dev);

	if (!ret)
		ret = boot_id_get(boot);
	if (!ret)
		ret = share_file_id(ctx, file_id);
	if (!ret)
		share_bind(ctx, dev, boot);
	return ret;
}

/*
 * share_decode() past the blob's own checks, before ctx's identities are
 * all known: each asked as device_id.h, boot_id.h and file_id.h say, and
 * kept together once they may be (share_bind()).  Apart, so that the
 * common path keeps no buffers on its stack.
 */
__attribute__((noinline))
static int share_decode_unbound(struct ibv_context *ctx, const struct blob *b)
{
	uint8_t boot[BLOB_BOOT_ID_LEN];
	struct blob_device dev;
	uint64_t id;
	int ret;

	ret = device_id_get(ctx, &dev);
	if (ret)
		return ret;
	ret = blob_check_device(b, &dev);
	if (!ret)
		ret = boot_id_get(boot);
	if (ret)
		return ret;
	ret = blob_check_boot(b, boot);
	if (ret)
		return ret;
	ret = file_id_get(ctx, &id);
	if (ret)
		return ret;
	share_bind(ctx, &dev, boot);
	return import_policy_file(b, id);
}

int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b)
{
	const struct ctx_ident *known;
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
	/* The checks below, each identity read from the one entry. */
	known = ctx_cache_find(ctx);
	if (!known || !known->bound)
		return share_decode_unbound(ctx, b);
	ret = blob_check_device(b, &known->dev);
	if (!ret)
		ret = blob_check_boot(b, known->boot_id);
	return ret ? ret : import_policy_file(b, known->file_id);
}

int share_file_id(struct ibv_context *ctx, uint64_t *id)
{
	int ret = file_id_get(ctx, id);

	if (ret == EOPNOTSUPP) {
		*id = 0;	/* VFIO: no verbs file, and import refuses it */
		return 0;
	}
	return ret;
}

int share_live(struct ibv_context *ctx, const struct blob *b)
{
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
