// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * User contexts: the uid the kernel puts in every DEVX command.  The
 * kernel creates one per DEVX ucontext (mlx5_ib_devx_create()) and one
 * for itself at device init (its "whitelist" uid); commands naming a uid
 * that is not a live context are refused.
 */
#include "fw_internal.h"

static bool from_kernel(struct fw_cmd *cmd)
{
	return fw_check(cmd, cmd->uid, EMU_FW_SYND_BAD_FIELD);
}

bool fw_cmd_create_uctx(struct fw_cmd *cmd)
{
	uint32_t caps = prm_get(cmd->in, PRM_UCTX_CAP);
	struct fw_obj *obj;

	/* Only the capabilities the device offers (uctx_cap: raw TX). */
	if (!from_kernel(cmd) ||
	    !fw_check(cmd, caps & ~0x1u, EMU_FW_SYND_BAD_FIELD))
		return false;
	obj = fw_obj_create(cmd, FW_OBJ_UCTX, 1, PRM_SHARED_RESOURCE_UID - 1,
			    1u << FW_LOG_MAX_UCTX);
	return fw_created(cmd, obj, PRM_UCTX_OUT_UID);
}

static bool uid_in_use(struct emu_fw *fw, uint16_t uid)
{
	struct fw_obj *obj;
	int kind;

	for (kind = 0; kind < FW_OBJ_KINDS; kind++)
		for (obj = fw->objs[kind]; obj; obj = obj->next)
			if (obj->uid == uid)
				return true;
	return false;
}

bool fw_cmd_destroy_uctx(struct fw_cmd *cmd)
{
	uint16_t uid = prm_get(cmd->in, PRM_DESTROY_UCTX_UID);
	struct fw_obj *obj;

	if (!from_kernel(cmd))
		return false;
	obj = fw_obj_find(cmd->fw, FW_OBJ_UCTX, uid);
	if (!obj)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_RES_STATE,
			       EMU_FW_SYND_NO_OBJECT);
	/* Its objects must go first, as they do on a real device. */
	if (uid_in_use(cmd->fw, uid))
		return fw_fail(cmd, EMU_FW_STATUS_RES_BUSY, EMU_FW_SYND_BUSY);
	fw_obj_destroy(cmd->fw, obj);
	return true;
}
