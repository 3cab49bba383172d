// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export, import and unimport of DEVX UMEMs.
 *
 * libmlx5's mlx5dv_devx_umem_dereg() deregisters the handle, then calls
 * ibv_dofork_range(addr, size) to undo the MADV_DONTFORK that umem_reg
 * put on the registered pages, then free()s the struct.  The importer
 * does not own those pages (they live in the exporter's address space),
 * so an imported UMEM holds addr NULL and size 0: libibverbs' range code
 * returns at once for an empty range, and no page of the importer is
 * touched.
 */
#include <errno.h>
#include <stdlib.h>

#include "layout.h"
#include "live_check.h"
#include "share.h"

MLX5_SHARE_EXPORT
int mlx5dv_devx_umem_export(struct mlx5dv_devx_umem *dv_umem, void *data)
{
	struct share_devx_umem *umem = (struct share_devx_umem *)dv_umem;
	struct blob b = { 0 };
	int ret;

	ret = share_export_check(dv_umem, data);
	if (ret)
		return ret;
	b.umem.handle = umem->handle;
	b.umem.umem_id = umem->dv.umem_id;
	return share_encode(umem->context, &b, BLOB_KIND_DEVX_UMEM, data);
}

MLX5_SHARE_EXPORT
struct mlx5dv_devx_umem *mlx5dv_devx_umem_import(struct ibv_context *context,
						 void *data)
{
	struct share_devx_umem *umem;
	int ret, saved = errno;
	struct blob b;

	ret = share_decode(context, data, BLOB_KIND_DEVX_UMEM, &b);
	if (!ret)
		ret = live_check_devx_umem(context, b.umem.handle);
	umem = share_import_alloc(ret, sizeof(*umem));
	if (!umem)
		return NULL;
	umem->dv.umem_id = b.umem.umem_id;
	umem->context = context;
	umem->handle = b.umem.handle;
	umem->addr = NULL;
	umem->size = 0;
	errno = saved;	/* the kernel's answers along the way are not ours */
	return &umem->dv;
}

/* Frees only this process's struct; the registration stays. */
MLX5_SHARE_EXPORT
void mlx5dv_devx_umem_unimport(struct mlx5dv_devx_umem *dv_umem)
{
	free(dv_umem);
}
