// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Protection domains, transport domains and XRC domains: objects that
 * are only a number, allocated and freed (the kernel allocates them for
 * ibv_alloc_pd() and friends; DEVX may allocate them too).
 */
#include "fw_internal.h"

#define PRM_DEALLOC_OBJN PRM_IN_OBJN

static enum fw_obj_kind kind_of(uint16_t opcode)
{
	switch (opcode) {
	case PRM_OP_ALLOC_PD:
	case PRM_OP_DEALLOC_PD:
		return FW_OBJ_PD;
	case PRM_OP_ALLOC_TRANSPORT_DOMAIN:
	case PRM_OP_DEALLOC_TRANSPORT_DOMAIN:
		return FW_OBJ_TD;
	default:
		return FW_OBJ_XRCD;
	}
}

static uint32_t limit_of(enum fw_obj_kind kind)
{
	switch (kind) {
	case FW_OBJ_PD:
		return 1u << FW_LOG_MAX_PD;
	case FW_OBJ_TD:
		return 1u << FW_LOG_MAX_TD;
	default:
		return 1u << FW_LOG_MAX_XRCD;
	}
}

bool fw_cmd_alloc_simple(struct fw_cmd *cmd)
{
	enum fw_obj_kind kind = kind_of(cmd->opcode);
	struct fw_obj *obj;

	obj = fw_obj_create(cmd, kind, 1, 0xffffff, limit_of(kind));
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

bool fw_cmd_dealloc_simple(struct fw_cmd *cmd)
{
	struct fw_obj *obj;

	obj = fw_obj_find(cmd->fw, kind_of(cmd->opcode),
			  prm_get(cmd->in, PRM_DEALLOC_OBJN));
	/* A PD under a QP, RQ, SQ or ASO object, a TD under a TIR or TIS. */
	if (!fw_obj_usable(cmd, obj) || !fw_obj_idle(cmd, obj))
		return false;
	fw_obj_destroy(cmd->fw, obj);
	return true;
}
