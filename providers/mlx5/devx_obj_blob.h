/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fields of a DEVX object that its blob carries, copied both ways
 * (the rdma-core series writes the same copy in its obj_export.c).
 * Include it where struct mlx5dv_devx_obj is complete (layout.h) and
 * after blob.h.
 */
#ifndef MLX5_SHARE_DEVX_OBJ_BLOB_H
#define MLX5_SHARE_DEVX_OBJ_BLOB_H

/* Fills b's DEVX object fields from obj; returns obj's context. */
static inline struct ibv_context *
devx_obj_to_blob(const struct mlx5dv_devx_obj *obj, struct blob *b)
{
	b->handle = obj->handle;
	b->obj.type = obj->type;
	b->obj.object_id = obj->object_id;
	b->obj.rx_icm_addr = obj->rx_icm_addr;
	b->obj.log_obj_range = obj->log_obj_range;
	return obj->context;
}

/*
 * Fills obj of ctx from a decoded DEVX object blob, as
 * mlx5dv_devx_obj_create() would have.
 */
static inline void devx_obj_from_blob(struct mlx5dv_devx_obj *obj,
				      struct ibv_context *ctx,
				      const struct blob *b)
{
	obj->context = ctx;
	obj->handle = b->handle;
	obj->type = b->obj.type;
	obj->object_id = b->obj.object_id;
	obj->rx_icm_addr = b->obj.rx_icm_addr;
	obj->log_obj_range = b->obj.log_obj_range;
}

#endif
