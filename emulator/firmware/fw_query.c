// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device queries: capabilities, ISSI, the e-switch and HCA vport
 * contexts (the NIC vport is fw_nic_vport.c's), LAG, NOP.
 * These are the commands DEVX lets any user context run
 * (MLX5_IB_METHOD_DEVX_OTHER) and that libmlx5 issues while it opens a
 * device and answers mlx5dv_query_device() and ibv_query_device_ex().
 */
#include <string.h>

#include "emu_ibdev.h"
#include "fw_internal.h"


bool fw_cmd_query_hca_cap(struct fw_cmd *cmd)
{
	unsigned int type = cmd->op_mod >> 1;
	bool cur = cmd->op_mod & 1;
	uint8_t area[PRM_CAP_AREA_LEN] = { 0 };
	size_t room = cmd->outlen - PRM_CAP_AREA_BYTE;

	/* The device has no other function (VF, SF) to ask about. */
	if (prm_get(cmd->in, PRM_QUERY_CAP_OTHER_FUNCTION))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_VPORT);
	if (!fw_caps_fill(cmd->fw, type, cur, area))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_CAP_TYPE);
	/* a shorter output mailbox gets the area cut to its size */
	memcpy(cmd->out + PRM_CAP_AREA_BYTE, area,
	       room < sizeof(area) ? room : sizeof(area));
	return true;
}

bool fw_cmd_query_issi(struct fw_cmd *cmd)
{
	prm_set(cmd->out, PRM_ISSI_CURRENT, 1);
	/* ISSI 0 and 1 */
	prm_set(cmd->out, PRM_ISSI_SUPPORTED_DW0, 0x3);
	return true;
}

bool fw_cmd_nop(struct fw_cmd *cmd)
{
	return true;
}

bool fw_cmd_query_esw_vport_context(struct fw_cmd *cmd)
{
	/* No VLAN strip/insert and no SW steering ICM: all zero. */
	return fw_vport_exists(cmd);
}

/*
 * The InfiniBand port of emu_ibdev.h (the facts sysfs and RDMA netlink
 * show too): its link is down, the node GUID is the port GUID.
 */

bool fw_cmd_query_hca_vport_context(struct fw_cmd *cmd)
{
	const struct emu_fw *fw = cmd->fw;
	struct emu_port_facts p;

	if (!fw_vport_exists(cmd))
		return false;
	/* Port 0 means "the function's port"; there is only port 1. */
	if (prm_get(cmd->in, PRM_HCA_VPORT_PORT_NUM) > 1)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_VPORT);
	emu_ibdev_port(emu_device_index(fw->node_guid), 1, &p);
	prm_set(cmd->out, PRM_HCA_VPORT_HAS_SMI, 1);
	prm_set(cmd->out, PRM_HCA_VPORT_PHYS_STATE, p.phys_state);
	prm_set(cmd->out, PRM_HCA_VPORT_PORT_STATE, p.state);
	prm_set(cmd->out, PRM_HCA_VPORT_VPORT_STATE, p.state);
	prm_set64(cmd->out, PRM_HCA_VPORT_SYS_IMAGE_GUID, fw->node_guid);
	prm_set64(cmd->out, PRM_HCA_VPORT_PORT_GUID, fw->node_guid);
	prm_set64(cmd->out, PRM_HCA_VPORT_NODE_GUID, fw->node_guid);
	prm_set(cmd->out, PRM_HCA_VPORT_CAP_MASK1, p.cap_flags);
	prm_set(cmd->out, PRM_HCA_VPORT_LID, p.lid);
	prm_set(cmd->out, PRM_HCA_VPORT_LMC, p.lmc);
	prm_set(cmd->out, PRM_HCA_VPORT_SUBNET_TIMEOUT, p.subnet_timeout);
	prm_set(cmd->out, PRM_HCA_VPORT_SM_LID, p.sm_lid);
	prm_set(cmd->out, PRM_HCA_VPORT_SM_SL, 0);
	return true;
}

/*
 * The port's GID table (gid_table_size 0: 8 entries) holds the link-local
 * GID of the port GUID at index 0, its P_Key table (128 entries) the
 * default full-member P_Key at index 0; the other entries are empty.
 * Index 0xffff asks for the whole table, as much as the output holds.
 */
#define FW_GID_TABLE_LEN 8
#define FW_PKEY_TABLE_LEN 128

static bool table_query(struct fw_cmd *cmd, unsigned int len,
			unsigned int *first, unsigned int *count)
{
	unsigned int idx = prm_get(cmd->in, PRM_HCA_VPORT_TABLE_INDEX);

	if (!fw_vport_exists(cmd))
		return false;
	if (prm_get(cmd->in, PRM_HCA_VPORT_PORT_NUM) > 1 ||
	    (idx != PRM_HCA_VPORT_TABLE_ALL && idx >= len))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_VPORT);
	*first = idx == PRM_HCA_VPORT_TABLE_ALL ? 0 : idx;
	*count = idx == PRM_HCA_VPORT_TABLE_ALL ? len : 1;
	return true;
}

bool fw_cmd_query_hca_vport_gid(struct fw_cmd *cmd)
{
	unsigned int first, count, i;

	if (!table_query(cmd, FW_GID_TABLE_LEN, &first, &count))
		return false;
	prm_set(cmd->out, PRM_HCA_VPORT_GIDS_NUM, count);
	for (i = 0; i < count; i++) {
		size_t at = PRM_HCA_VPORT_GID_BYTE + (size_t)i * 16;

		if (at + 16 > cmd->outlen)
			break;
		if (first + i != 0)
			continue;
		prm_set(cmd->out + at, 0, 16, 0xfe80);
		prm_set64(cmd->out + at, 64, 64, cmd->fw->node_guid);
	}
	return true;
}

bool fw_cmd_query_hca_vport_pkey(struct fw_cmd *cmd)
{
	unsigned int first, count, i;

	if (!table_query(cmd, FW_PKEY_TABLE_LEN, &first, &count))
		return false;
	for (i = 0; i < count; i++) {
		size_t at = PRM_HCA_VPORT_PKEY_BYTE + (size_t)i * 4;

		if (at + 4 > cmd->outlen)
			break;
		if (first + i == 0)
			prm_set(cmd->out + at, 16, 16, 0xffff);
	}
	return true;
}

bool fw_cmd_query_lag(struct fw_cmd *cmd)
{
	/* A single port function is never in a LAG: lag_state 0. */
	return true;
}
