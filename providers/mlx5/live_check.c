// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel side of import: see live_check.h for the contract and
 * import_policy.h for which object types get their id confirmed and why.
 *
 * ioctls per DEVX object import, from the policy row:
 *   query proves a DEVX object (flow counter, general objects, flow
 *       table/group/entry, packet reformat)      1: the id query
 *   query needs INFO_HANDLES first (QP, TIR)    2
 *   no query (untyped, or an id wider than its field)   1: INFO_HANDLES
 * plus, once per process and only for a flow table/group/entry or packet
 * reformat query that failed other than with ENOENT, the probe below and
 * possibly INFO_HANDLES (the old kernels' ambiguous answer).
 */
#include <errno.h>
#include <stdatomic.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>

#include "import_policy.h"
#include "info_handles.h"
#include "live_check.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
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

static int devx_obj_is_live(void *arg, int fd, uint32_t handle)
{
	(void)arg;
	return handle_is_live(fd, MLX5_IB_OBJECT_DEVX_OBJ, handle);
}

/* Runs a DEVX_OBJ_QUERY; 0 or the kernel's positive errno. */
static int run_query(int fd, uint32_t handle, const void *in, size_t inlen,
		     size_t outlen)
{
	UVERBS_DECLARE_CMD(cmd, MLX5_IB_OBJECT_DEVX_OBJ,
			   MLX5_IB_METHOD_DEVX_OBJ_QUERY, 3);
	uint8_t out[IMPORT_QUERY_OUT_MAX];

	fill_in_idr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, handle);
	fill_in_ptr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, in, inlen);
	fill_out_ptr(cmd, MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, out, outlen);
	/* The object is held shared: EBUSY while a modify or destroy runs. */
	return uverbs_cmd_execute_busy(fd, RDMA_DRIVER_MLX5, cmd);
}

/*
 * Does this kernel report a command the firmware failed as EREMOTEIO
 * (Linux >= 5.18) rather than as a mapped errno?  Asked with a
 * QUERY_HCA_CAP of a capability type no firmware defines, which the
 * firmware fails with a bad-parameter status; a whitelisted command, so
 * a context without a DEVX uid may send it too.  Only a clear answer is
 * kept for the process.
 */
enum { PROBE_UNKNOWN, PROBE_REPORTED, PROBE_MAPPED };
static _Atomic int fw_errors;

static bool fw_errors_reported(int fd)
{
	UVERBS_DECLARE_CMD(cmd, MLX5_IB_OBJECT_DEVX, MLX5_IB_METHOD_DEVX_OTHER,
			   2);
	uint8_t in[PRM_QUERY_HCA_CAP_IN_LEN] = { 0 }, out[PRM_HDR_LEN];
	int state = atomic_load_explicit(&fw_errors, memory_order_relaxed);
	int ret;

	if (state != PROBE_UNKNOWN)
		return state == PROBE_REPORTED;
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_CAP);
	prm_set(in, PRM_HDR_OP_MOD, PRM_CAP_TYPE_UNDEFINED << 1 | 1);
	fill_in_ptr(cmd, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, in, sizeof(in));
	fill_out_ptr(cmd, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, out, sizeof(out));
	ret = uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
	if (ret == EREMOTEIO)
		state = PROBE_REPORTED;
	else if (ret == EINVAL)
		state = PROBE_MAPPED;	/* mlx5_cmd_exec's BAD_PARAM */
	else
		return false;		/* no answer: ask again next time */
	atomic_store_explicit(&fw_errors, state, memory_order_relaxed);
	return state == PROBE_REPORTED;
}

int live_check_devx_obj_via(struct ibv_context *ctx, uint32_t handle,
			    uint32_t type, uint32_t object_id,
			    live_lookup_fn lookup, void *arg)
{
	const struct import_policy *p = import_policy_find(type);
	uint8_t in[IMPORT_QUERY_IN_MAX];
	bool listed = false, reported = false;
	size_t inlen;
	int fd, ret;

	ret = ctx_fd(ctx, &fd);
	if (ret)
		return ret;
	if (!lookup)
		lookup = devx_obj_is_live;

	if (import_policy_needs_list(p, object_id)) {
		ret = lookup(arg, fd, handle);
		if (ret)
			return ret;
		listed = true;
	}
	inlen = import_policy_build_query(p, object_id, in);
	if (!inlen)
		return 0;

	ret = run_query(fd, handle, in, inlen, p->out_len);
	if (p->fw_may_fail && ret && ret != EREMOTEIO && ret != ENOENT)
		reported = fw_errors_reported(fd);
	ret = import_policy_verdict(p, ret, reported);
	if (ret != IMPORT_UNDECIDED)
		return ret;
	/* Old kernel, ambiguous answer: liveness and DEVX type only. */
	return listed ? 0 : lookup(arg, fd, handle);
}

int live_check_devx_obj(struct ibv_context *ctx, uint32_t handle,
			uint32_t type, uint32_t object_id)
{
	return live_check_devx_obj_via(ctx, handle, type, object_id, NULL,
				       NULL);
}

/* Whether handle names a live object of the uverbs object type object. */
static int live_handle(struct ibv_context *ctx, uint16_t object,
		       uint32_t handle)
{
	int fd, ret;

	ret = ctx_fd(ctx, &fd);
	if (ret)
		return ret;
	return handle_is_live(fd, object, handle);
}

int live_check_devx_umem(struct ibv_context *ctx, uint32_t handle)
{
	return live_handle(ctx, MLX5_IB_OBJECT_DEVX_UMEM, handle);
}

int live_check_var(struct ibv_context *ctx, uint32_t handle)
{
	return live_handle(ctx, MLX5_IB_OBJECT_VAR, handle);
}
