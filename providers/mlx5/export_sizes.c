// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
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

/* Where each size goes in the caller's struct, and which blob it is. */
static const struct {
	size_t off;
	enum blob_kind kind;
} export_sizes[] = {
	{ offsetof(struct mlx5dv_export_sizes, var_attrs_size), BLOB_KIND_VAR },
	{ offsetof(struct mlx5dv_export_sizes, devx_umem_attrs_size),
	  BLOB_KIND_DEVX_UMEM },
	{ offsetof(struct mlx5dv_export_sizes, devx_obj_attrs_size),
	  BLOB_KIND_DEVX_OBJ },
};

MLX5_SHARE_EXPORT
void _mlx5dv_get_export_sizes(struct mlx5dv_export_sizes *sizes,
			      size_t sizes_len)
{
	uint32_t size;
	size_t i;

	if (!sizes) {
		errno = EINVAL;
		return;
	}
	memset(sizes, 0, sizes_len);
	for (i = 0; i < sizeof(export_sizes) / sizeof(export_sizes[0]); i++) {
		if (export_sizes[i].off + sizeof(size) > sizes_len)
			continue;
		size = blob_size(export_sizes[i].kind);
		memcpy((char *)sizes + export_sizes[i].off, &size,
		       sizeof(size));
	}
}
