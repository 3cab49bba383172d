// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel side of import: see live_check.h for the contract and
 * prm_query.h for which object types get their id confirmed.
 *
 * ioctls per import:
 *   flow counter, flow meter, sampler, ASO objects  1 (the id query alone
 *       proves a live DEVX object of this ufile with this id)
 *   QP, TIR                                         2 (INFO_HANDLES, then
 *       the id query: a verbs QP could answer a QP/TIR query too)
 *   every other DEVX type, UMEM, VAR                1 (INFO_HANDLES)
 */
#include <errno.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "info_handles.h"
#include "live_check.h"
#include "prm_query.h"
#include "uverbs_ioctl.h"

_Static_assert(MLX5_IB_OBJECT_DEVX_OBJ & UVERBS_ID_DRIVER_NS,
	       "mlx5 object ids live in the driver namespace");

/*
 * libmlx5's VFIO mode builds its context with cmd_fd -1: there is no
 * kernel to ask, and no ufile whose handles a blob could name.
 */
static int ctx_fd(struct ibv_context *ctx, int *fd)
{
	if (!ctx)
		return EINVAL;
	if (ctx->cmd_fd < 0)
		return EOPNOTSUPP;
	*fd = ctx->cmd_fd;
	return 0;
}

/* 0 if live (or the kernel cannot tell us), ENOENT if not, else errno. */
static int handle_is_live(int fd, uint16_t object_id, uint32_t handle)
{
	bool present = false;
	int ret;

	ret = info_handles_contains(fd, RDMA_DRIVER_MLX5, object_id, handle,
				    &present);
	switch (ret) {
	case 0:
		return present ? 0 : ENOENT;
	case EOPNOTSUPP:	/* old kernel: the blob checks stand alone */
	case ERANGE:		/* too many objects to list: cannot tell */
		return 0;
	default:
		return ret;
	}
}

/* Asks the kernel to run the type's PRM query on handle. */
static int query_object_id(int fd, uint32_t handle, uint32_t type,
			   uint32_t object_id)
{
	UVERBS_DECLARE_CMD(cmd, MLX5_IB_OBJECT_DEVX_OBJ,
			   MLX5_IB_METHOD_DEVX_OBJ_QUERY, 3);
	uint8_t in[PRM_QUERY_IN_MAX];
	uint8_t out[PRM_QUERY_OUT_MAX];
	size_t inlen, outlen;
	int ret;

	if (!prm_query_build(type, object_id, in, &inlen, &outlen))
		return 0;

	fill_in_idr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, handle);
	fill_in_ptr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, in, inlen);
	fill_out_ptr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, out, outlen);

	ret = uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
	switch (ret) {
	case 0:
	/*
	 * Kernels whose devx.c runs commands with mlx5_cmd_do() report a
	 * command the firmware failed as EREMOTEIO, which can only come
	 * after devx_is_valid_obj_id() passed: the id is confirmed.
	 */
	case EREMOTEIO:
		return 0;
	case EINVAL:	/* devx_is_valid_obj_id: another object's id */
	case ENOENT:	/* no such handle in this ufile */
		return ENOENT;
	default:
		return ret;
	}
}

int live_check_devx_obj(struct ibv_context *ctx, uint32_t handle,
			uint32_t type, uint32_t object_id)
{
	uint8_t in[PRM_QUERY_IN_MAX];
	size_t inlen, outlen;
	int fd, ret;

	ret = ctx_fd(ctx, &fd);
	if (ret)
		return ret;

	if (!prm_query_build(type, object_id, in, &inlen, &outlen) ||
	    !prm_query_proves_devx(type)) {
		ret = handle_is_live(fd, MLX5_IB_OBJECT_DEVX_OBJ, handle);
		if (ret)
			return ret;
	}
	return query_object_id(fd, handle, type, object_id);
}

int live_check_devx_umem(struct ibv_context *ctx, uint32_t handle)
{
	int fd, ret;

	ret = ctx_fd(ctx, &fd);
	if (ret)
		return ret;
	return handle_is_live(fd, MLX5_IB_OBJECT_DEVX_UMEM, handle);
}

int live_check_var(struct ibv_context *ctx, uint32_t handle)
{
	int fd, ret;

	ret = ctx_fd(ctx, &fd);
	if (ret)
		return ret;
	return handle_is_live(fd, MLX5_IB_OBJECT_VAR, handle);
}
