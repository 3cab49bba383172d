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
#include <errno.h>
#include <stdlib.h>

#include "layout.h"
#include "live_check.h"
#include "share.h"

MLX5_SHARE_EXPORT
int mlx5dv_var_export(struct mlx5dv_var *dv_var, void *data)
{
	struct share_var_obj *var = (struct share_var_obj *)dv_var;
	struct blob b = { 0 };
	int ret;

	ret = share_export_check(dv_var, data);
	if (ret)
		return ret;
	b.var.handle = var->handle;
	b.var.page_id = var->dv.page_id;
	b.var.length = var->dv.length;
	b.var.mmap_off = var->dv.mmap_off;
	return share_encode(var->context, &b, BLOB_KIND_VAR, data);
}

MLX5_SHARE_EXPORT
struct mlx5dv_var *mlx5dv_var_import(struct ibv_context *context, void *data)
{
	struct share_var_obj *var;
	int ret, saved = errno;
	struct blob b;

	ret = share_decode(context, data, BLOB_KIND_VAR, &b);
	if (!ret)
		ret = live_check_var(context, b.var.handle);
	var = share_import_alloc(ret, sizeof(*var));
	if (!var)
		return NULL;
	var->dv.page_id = b.var.page_id;
	var->dv.length = b.var.length;
	var->dv.mmap_off = b.var.mmap_off;
	var->context = context;
	var->handle = b.var.handle;
	errno = saved;	/* the kernel's answers along the way are not ours */
	return &var->dv;
}

/* Frees only this process's struct; the kernel VAR (and maps) stay. */
MLX5_SHARE_EXPORT
void mlx5dv_var_unimport(struct mlx5dv_var *dv_var)
{
	free(dv_var);
}
