/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * <infiniband/mlx5_share_batch.h>: mlx5-share's own extension, not part
 * of rdma-core's API.  Its names start with mlx5share_ so that they can
 * never collide with a future upstream mlx5dv_ symbol, and they live in
 * their own version node (MLX5_SHARE_1.0) of libmlx5-share.so.1.
 *
 * Importing N objects one by one asks the kernel N times.  With the
 * kernel's core handle query the batch import asks it once per object
 * too (the query takes one handle); without it, for object types checked with
 * UVERBS_METHOD_INFO_HANDLES each single answer lists every live object
 * of the ufile (N imports cost O(N * live objects)), and the batch asks
 * INFO_HANDLES once for the whole batch and looks each handle up in the
 * sorted answer.  Either way it gives the same objects and the same
 * errors that N calls of mlx5dv_devx_obj_import() would.
 */
#ifndef MLX5_SHARE_BATCH_H
#define MLX5_SHARE_BATCH_H

#include <stddef.h>
#include <infiniband/mlx5dv.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Imports the n DEVX object blobs blobs[0..n-1] into context.  For each
 * i, objs[i] receives the imported object (or NULL) and errs[i] 0 (or
 * the errno that mlx5dv_devx_obj_import(context, blobs[i]) would have
 * set).  Every object imported is released with
 * mlx5dv_devx_obj_unimport().
 *
 * Returns how many were imported (0 to n), or -1 with errno EINVAL when
 * context is NULL, n is larger than INT32_MAX, or n is not 0 and blobs,
 * objs or errs is NULL; then nothing is written.
 */
int mlx5share_devx_obj_import_batch(struct ibv_context *context,
				    void *const *blobs, size_t n,
				    struct mlx5dv_devx_obj **objs, int *errs);

#ifdef __cplusplus
}
#endif

#endif /* MLX5_SHARE_BATCH_H */
