// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export, import and unimport of DEVX objects.  An imported object is a
 * struct mlx5dv_devx_obj exactly as libmlx5's mlx5dv_devx_obj_create()
 * would have built it in this process, so libmlx5's own query, modify and
 * destroy (which use only context and handle, and free() the struct)
 * work on it.
 */
#include <errno.h>
#include <stdlib.h>

#include "layout.h"
#include "live_check.h"
#include "share.h"

MLX5_SHARE_EXPORT
int mlx5dv_devx_obj_export(struct mlx5dv_devx_obj *obj, void *data)
{
	struct blob b = { 0 };
	int ret;

	ret = share_export_check(obj, data);
	if (ret)
		return ret;
	b.obj.handle = obj->handle;
	b.obj.type = obj->type;
	b.obj.object_id = obj->object_id;
	b.obj.rx_icm_addr = obj->rx_icm_addr;
	b.obj.log_obj_range = obj->log_obj_range;
	return share_encode(obj->context, &b, BLOB_KIND_DEVX_OBJ, data);
}

struct mlx5dv_devx_obj *share_devx_obj_new(struct ibv_context *ctx,
					   const struct blob *b)
{
	struct mlx5dv_devx_obj *obj = calloc(1, sizeof(*obj));

	if (!obj)
		return NULL;
	obj->context = ctx;
	obj->handle = b->obj.handle;
	obj->type = b->obj.type;
	obj->object_id = b->obj.object_id;
	obj->rx_icm_addr = b->obj.rx_icm_addr;
	obj->log_obj_range = b->obj.log_obj_range;
	return obj;
}

MLX5_SHARE_EXPORT
struct mlx5dv_devx_obj *mlx5dv_devx_obj_import(struct ibv_context *context,
					       void *data)
{
	struct mlx5dv_devx_obj *obj;
	int ret, saved = errno;
	struct blob b;

	ret = share_decode(context, data, BLOB_KIND_DEVX_OBJ, &b);
	if (!ret)
		ret = live_check_devx_obj(context, b.obj.handle, b.obj.type,
					  b.obj.object_id);
	if (ret) {
		errno = ret;
		return NULL;
	}

	obj = share_devx_obj_new(context, &b);
	/* on success, the kernel's answers along the way are not ours */
	errno = obj ? saved : ENOMEM;
	return obj;
}

/*
 * Frees only this process's struct; the kernel object stays.  libmlx5
 * calloc()s the objects it creates too, so this also releases an object
 * this process created and another process destroyed.
 */
MLX5_SHARE_EXPORT
void mlx5dv_devx_obj_unimport(struct mlx5dv_devx_obj *obj)
{
	free(obj);
}
