/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * _mlx5dv_get_export_sizes(): the one place the blob sizes reach users.
 * sizes_len is the caller's sizeof(struct mlx5dv_export_sizes), which may
 * be an older, shorter struct or a newer, longer one: all sizes_len bytes
 * are zeroed (a field this library does not know reads 0, never garbage),
 * then the whole fields that fit are written; never a byte past
 * sizes_len.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "share.h"

static void put_field(struct mlx5dv_export_sizes *sizes, size_t sizes_len,
		      size_t off, uint32_t value)
{
	if (off + sizeof(uint32_t) <= sizes_len)
		*(uint32_t *)((char *)sizes + off) = value;
}

MLX5_SHARE_EXPORT
void _mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes,
			      size_t sizes_len)
{
	if (!sizes) {
		errno = EINVAL;
		return;
	}
	memset(sizes, 0, sizes_len);
	put_field(sizes, sizes_len,
		  offsetof(struct mlx5dv_export_sizes, var_attrs_size),
		  blob_size(BLOB_KIND_VAR));
	put_field(sizes, sizes_len,
		  offsetof(struct mlx5dv_export_sizes, devx_umem_attrs_size),
		  blob_size(BLOB_KIND_DEVX_UMEM));
	put_field(sizes, sizes_len,
		  offsetof(struct mlx5dv_export_sizes, devx_obj_attrs_size),
		  blob_size(BLOB_KIND_DEVX_OBJ));
}
