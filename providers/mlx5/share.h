/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the export/import functions of every object kind have in common:
 * the argument, layout and device checks that come before any field of a
 * private object is read or any memory is allocated.
 */
#ifndef MLX5_SHARE_SHARE_H
#define MLX5_SHARE_SHARE_H

#include <infiniband/verbs.h>

#include "blob.h"

/* Marks the functions the version script exports (-fvisibility=hidden). */
#define MLX5_SHARE_EXPORT __attribute__((visibility("default")))

/* Sets errno to err and returns it: export's convention. */
int share_fail(int err);

/*
 * Export's checks before any field of the private object obj is read:
 * arguments (EINVAL) and the loaded layout.  0, or share_fail()'s errno.
 */
int share_export_check(const void *obj, const void *data);

/*
 * Fills b's header fields (device_id.h's identity of ctx's device) for an
 * object of kind owned by ctx and writes the encoded blob to data.
 * Returns 0, or share_fail()'s errno.
 */
int share_encode(struct ibv_context *ctx, struct blob *b,
		 enum blob_kind kind, void *data);

/*
 * Import's checks, in order: arguments (EINVAL), loaded layout
 * (EOPNOTSUPP), the blob itself (blob_decode's errno), and the device
 * (EXDEV).  Returns 0 and fills *b, or a positive errno.
 */
int share_decode(struct ibv_context *ctx, const void *data,
		 enum blob_kind kind, struct blob *b);

/*
 * The zeroed struct (size bytes) of an import whose checks returned ret:
 * NULL with errno ret when they failed, or ENOMEM.
 */
void *share_import_alloc(int ret, size_t size);

struct mlx5dv_devx_obj;

/*
 * A new struct mlx5dv_devx_obj of ctx with the fields a decoded DEVX_OBJ
 * blob carries, as mlx5dv_devx_obj_create() would have built it.  Returns
 * NULL when out of memory.
 */
struct mlx5dv_devx_obj *share_devx_obj_new(struct ibv_context *ctx,
					   const struct blob *b);

#endif
