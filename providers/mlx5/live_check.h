/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What import asks a kernel that does not report the verbs file's id
 * (file_id.h, asked first): is the blob's handle a live object of the
 * right type in the importing context's ufile (uverbs INFO_HANDLES on
 * context->cmd_fd), and, where import_policy.h gives the object's type a
 * PRM query, does the object behind that handle carry the exported id?
 *
 * Each returns 0 when the object may be imported, or a positive errno:
 *   ENOENT      not a live object of that type in this ufile, or the id
 *               behind the handle is not the exported one
 *   EOPNOTSUPP  the context has no kernel command fd (VFIO mode)
 *   ENOMEM      no memory for the handle list
 *   other       the kernel's error
 * A kernel without INFO_HANDLES is not an error: the liveness check is
 * skipped and 0 is returned (the blob's own checks still hold).
 */
#ifndef MLX5_SHARE_LIVE_CHECK_H
#define MLX5_SHARE_LIVE_CHECK_H

#include <stdint.h>
#include <infiniband/verbs.h>

int live_check_devx_obj(struct ibv_context *ctx, uint32_t handle,
			uint32_t type, uint32_t object_id);
int live_check_devx_umem(struct ibv_context *ctx, uint32_t handle);
int live_check_var(struct ibv_context *ctx, uint32_t handle);

/*
 * "Is handle a live DEVX object of the ufile behind fd?": 0, ENOENT, or
 * an errno, as live_check_devx_obj() returns them.
 */
typedef int (*live_lookup_fn)(void *arg, int fd, uint32_t handle);

/*
 * live_check_devx_obj() with the liveness question answered by lookup
 * (the batch import's one list) instead of an INFO_HANDLES per call.
 */
int live_check_devx_obj_via(struct ibv_context *ctx, uint32_t handle,
			    uint32_t type, uint32_t object_id,
			    live_lookup_fn lookup, void *arg);

#endif
