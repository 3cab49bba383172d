/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * <infiniband/mlx5dv.h> as mlx5-share installs it: the system's header,
 * then the DEVX export/import family that rdma-core added in release 63
 * (libmlx5 version node MLX5_1.27), with the same names, types and
 * signatures, so that code written for the newer API builds unchanged.
 *
 * rdma-core 63 turned mlx5dv_create_flow() into a macro in the same
 * release that added this family, so a system header that defines it
 * already declares everything below; then nothing is added here.
 */
#include_next <infiniband/mlx5dv.h>

#ifndef MLX5_SHARE_MLX5DV_H
#define MLX5_SHARE_MLX5DV_H

#if !defined(mlx5dv_create_flow)

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

int mlx5dv_devx_obj_export(struct mlx5dv_devx_obj *obj, void *data);
struct mlx5dv_devx_obj *mlx5dv_devx_obj_import(struct ibv_context *context,
					       void *data);
void mlx5dv_devx_obj_unimport(struct mlx5dv_devx_obj *obj);

int mlx5dv_devx_umem_export(struct mlx5dv_devx_umem *umem, void *data);
struct mlx5dv_devx_umem *
mlx5dv_devx_umem_import(struct ibv_context *context, void *data);
void mlx5dv_devx_umem_unimport(struct mlx5dv_devx_umem *umem);

int mlx5dv_var_export(struct mlx5dv_var *dv_var, void *data);
struct mlx5dv_var *mlx5dv_var_import(struct ibv_context *context,
				     void *data);
void mlx5dv_var_unimport(struct mlx5dv_var *dv_var);

/* Bytes of the buffer each export function fills. */
struct mlx5dv_export_sizes {
	uint32_t var_attrs_size;
	uint32_t devx_umem_attrs_size;
	uint32_t devx_obj_attrs_size;
};

void _mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes,
			      size_t sizes_len);

static inline void
mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes)
{
	_mlx5dv_get_export_sizes(sizes, sizeof(*sizes));
}

#ifdef __cplusplus
}
#endif

#endif /* !mlx5dv_create_flow */
#endif /* MLX5_SHARE_MLX5DV_H */
