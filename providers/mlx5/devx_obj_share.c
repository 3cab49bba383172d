// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export, import and unimport of DEVX objects.  An imported object is a
 * struct mlx5dv_devx_obj exactly as libmlx5's mlx5dv_devx_obj_create()
 * would have built it in this process, so libmlx5's own query, modify and
 * destroy (which use only context and handle, and free() the struct)
 * work on it.
 */
#include <stdlib.h>

#include "layout.h"
#include "share.h"
#include "devx_obj_blob.h"

static struct ibv_context *to_blob(const void *obj, struct blob *b)
{
	return devx_obj_to_blob(obj, b);
}

static void from_blob(void *obj, struct ibv_context *ctx,
		      const struct blob *b)
{
	devx_obj_from_blob(obj, ctx, b);
}

struct mlx5dv_devx_obj *share_devx_obj_new(struct ibv_context *ctx,
					   const struct blob *b)
{
	struct mlx5dv_devx_obj *obj = calloc(1, sizeof(*obj));

	if (obj)
		devx_obj_from_blob(obj, ctx, b);
	return obj;
}

MLX5_SHARE_EXPORT int
mlx5dv_devx_obj_export(struct mlx5dv_devx_obj *obj, void *data)
{
	return share_export(obj, data, BLOB_KIND_DEVX_OBJ, to_blob);
}

MLX5_SHARE_EXPORT struct mlx5dv_devx_obj *
mlx5dv_devx_obj_import(struct ibv_context *context, void *data)
{
	return share_import(context, data, BLOB_KIND_DEVX_OBJ,
			    sizeof(struct mlx5dv_devx_obj), from_blob);
}

/*
 * Frees only this process's struct: the kernel object stays.  libmlx5
 * calloc()s the objects it creates too, so unimport also releases an
 * object this process created and another process destroyed.
 */
MLX5_SHARE_EXPORT void
mlx5dv_devx_obj_unimport(struct mlx5dv_devx_obj *obj)
{
	free(obj);
}
