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
#include <stddef.h>
#include <stdlib.h>

#include "layout.h"
#include "share.h"

/* Import returns the private struct as its first member, the public one. */
_Static_assert(offsetof(struct share_devx_umem, dv) == 0, "umem layout");

static struct ibv_context *to_blob(const void *obj, struct blob *b)
{
	const struct share_devx_umem *umem = obj;

	b->handle = umem->handle;
	b->umem.umem_id = umem->dv.umem_id;
	return umem->context;
}

/* addr and size stay NULL and 0: see the top of this file. */
static void from_blob(void *obj, struct ibv_context *ctx,
		      const struct blob *b)
{
	struct share_devx_umem *umem = obj;

	umem->context = ctx;
	umem->handle = b->handle;
	umem->dv.umem_id = b->umem.umem_id;
}

MLX5_SHARE_EXPORT int
mlx5dv_devx_umem_export(struct mlx5dv_devx_umem *obj, void *data)
{
	return share_export(obj, data, BLOB_KIND_DEVX_UMEM, to_blob);
}

MLX5_SHARE_EXPORT struct mlx5dv_devx_umem *
mlx5dv_devx_umem_import(struct ibv_context *context, void *data)
{
	return share_import(context, data, BLOB_KIND_DEVX_UMEM,
			    sizeof(struct share_devx_umem), from_blob);
}

/* Frees only this process's struct: the kernel object stays. */
MLX5_SHARE_EXPORT void
mlx5dv_devx_umem_unimport(struct mlx5dv_devx_umem *obj)
{
	free(obj);
}
