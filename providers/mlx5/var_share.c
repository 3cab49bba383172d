// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export, import and unimport of VARs (virtio doorbell pages).
 *
 * libmlx5 never maps a VAR itself: the application mmap()s mmap_off on
 * the context's command fd, and mlx5dv_free_var() only destroys the
 * handle and free()s the struct.  An imported VAR carries the exporter's
 * page_id, length and mmap_off; the importer maps it on its own command
 * fd, which reaches the same kernel object.
 */
#include <stddef.h>
#include <stdlib.h>

#include "layout.h"
#include "share.h"

/* Import returns the private struct as its first member, the public one. */
_Static_assert(offsetof(struct share_var_obj, dv) == 0, "VAR layout");

static struct ibv_context *to_blob(const void *obj, struct blob *b)
{
	const struct share_var_obj *var = obj;

	b->handle = var->handle;
	b->var.page_id = var->dv.page_id;
	b->var.length = var->dv.length;
	b->var.mmap_off = var->dv.mmap_off;
	return var->context;
}

static void from_blob(void *obj, struct ibv_context *ctx,
		      const struct blob *b)
{
	struct share_var_obj *var = obj;

	var->dv.page_id = b->var.page_id;
	var->dv.length = b->var.length;
	var->dv.mmap_off = b->var.mmap_off;
	var->context = ctx;
	var->handle = b->handle;
}

MLX5_SHARE_EXPORT int
mlx5dv_var_export(struct mlx5dv_var *obj, void *data)
{
	return share_export(obj, data, BLOB_KIND_VAR, to_blob);
}

MLX5_SHARE_EXPORT struct mlx5dv_var *
mlx5dv_var_import(struct ibv_context *context, void *data)
{
	return share_import(context, data, BLOB_KIND_VAR,
			    sizeof(struct share_var_obj), from_blob);
}

/* Frees only this process's struct: the kernel object stays. */
MLX5_SHARE_EXPORT void
mlx5dv_var_unimport(struct mlx5dv_var *obj)
{
	free(obj);
}
