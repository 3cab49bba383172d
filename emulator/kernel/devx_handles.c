// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The linux/ series' DEVX handle query (kernel-headers/rdma_uapi_compat.h,
 * MLX5_IB_METHOD_DEVX_QUERY_HANDLES; linux/patches/0002 and 0003) and
 * the identity it answers: a serial from a per-device 64-bit counter that
 * starts at 1, stamped on every DEVX object, UMEM and VAR at create and
 * returned through the create methods' optional SERIAL outputs.  The
 * query answers from what the kernel keeps, with no firmware command.
 * With mlx5-emu run --query-handles=off neither exists (uverbs_ioctl.c).
 *
 * Also mlx5-emu's own counters method (emu_counters.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/mlx5_user_ioctl_cmds.h>
#include "rdma_uapi_compat.h"

#include "emu_counters.h"
#include "uverbs.h"

/* the series' mlx5_ib_new_obj_serial() and what the create stores */
void emu_handle_stamp(struct emu_bundle *b, struct emu_uobj *uo,
		      uint32_t fw_id, uint16_t opcode, uint16_t obj_type)
{
	uo->serial = ++b->dev->next_serial;
	uo->fw_id = fw_id;
	uo->fw_opcode = opcode;
	uo->fw_obj_type = obj_type;
}

/*
 * The series' "if (uverbs_attr_is_valid(attrs, ..._SERIAL))
 * uverbs_copy_to()": an attribute the kernel does not know (--query-
 * handles=off) is not in the bundle
 */
int emu_handle_copy_serial(struct emu_bundle *b, struct emu_uobj *uo,
			   uint16_t serial_attr)
{
	if (!emu_attr_is_valid(b, serial_attr))
		return 0;
	return emu_copy_to(b, serial_attr, &uo->serial, sizeof(uo->serial));
}

static uint32_t handle_kind(const struct emu_uobj *uo)
{
	switch (uo->type) {
	case MLX5_IB_OBJECT_DEVX_OBJ:
		return MLX5_IB_DEVX_HANDLE_KIND_OBJ;
	case MLX5_IB_OBJECT_DEVX_UMEM:
		return MLX5_IB_DEVX_HANDLE_KIND_UMEM;
	case MLX5_IB_OBJECT_VAR:
		return MLX5_IB_DEVX_HANDLE_KIND_VAR;
	default:
		return 0;
	}
}

/*
 * The series' UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_QUERY_HANDLES) with its
 * devx_handle_info() (linux/patches/0003): the
 * generic code has looked every handle up (a dead one: ENOENT) and holds
 * each shared; here a handle of another type -> EINVAL, an output that
 * cannot hold one answer per handle -> EINVAL, else the answers in the
 * handles' order, and the output flagged valid.
 */
int emu_h_devx_query_handles(struct emu_bundle *b)
{
	struct emu_battr *in = emu_attr(b, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN);
	ssize_t out_len = emu_attr_len(b, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT);
	struct mlx5_ib_devx_handle_info *info;
	size_t n = in->nobjs, i;
	int ret;

	if (out_len < 0 || (size_t)out_len < n * sizeof(*info))
		return -EINVAL;
	info = calloc(n, sizeof(*info));
	if (!info)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct emu_uobj *uo = in->uobjs[i];

		info[i].kind = handle_kind(uo);
		if (!info[i].kind) {
			free(info);
			return -EINVAL;
		}
		info[i].serial = uo->serial;
		info[i].obj_id = uo->fw_id;
		info[i].opcode = uo->fw_opcode;
		info[i].obj_type = uo->fw_obj_type;
	}
	ret = emu_copy_to(b, MLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT, info,
			  n * sizeof(*info));
	free(info);
	return ret;
}

/* EMU_METHOD_COUNTERS: the caller's ufile's counts, and its device's */
int emu_h_emu_counters(struct emu_bundle *b)
{
	struct emu_counters c = {
		.ioctls = b->uf->ioctls,
		.fw_cmds = b->uf->fw_cmds,
		.dev_fw_cmds = b->dev->fw_cmds,
	};
	uint32_t which;

	if (!emu_copy_from(b, EMU_ATTR_COUNTERS_METHOD, &which,
			   sizeof(which))) {
		const struct emu_method_spec *m =
			emu_find_method(which >> 16, which & 0xffff);

		if (m)
			c.method_ioctls =
				b->uf->method_ioctls[emu_method_index(m)];
	}
	return emu_copy_to(b, EMU_ATTR_COUNTERS_OUT, &c, sizeof(c));
}
