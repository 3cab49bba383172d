// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * What RoCE on an Ethernet port needs of the firmware beyond the verbs
 * objects: the GID table (SET_ROCE_ADDRESS writes an entry the kernel's
 * GID cache made from the netdev's addresses, QUERY_ROCE_ADDRESS reads
 * it back; an all-zero entry is an empty one).  An InfiniBand port has
 * no RoCE addresses.
 */
#include <string.h>

#include "fw_internal.h"

static uint8_t *roce_entry(struct fw_cmd *cmd)
{
	uint32_t index = prm_get(cmd->in, PRM_ROCE_ADDR_INDEX);

	if (!fw_check(cmd, !cmd->fw->port_eth, EMU_FW_SYND_BAD_OP_MOD) ||
	    !fw_check(cmd, index >= FW_ROCE_ADDR_TABLE_SIZE,
		      EMU_FW_SYND_RANGE))
		return NULL;
	return cmd->fw->roce_addr[index];
}

bool fw_cmd_set_roce_address(struct fw_cmd *cmd)
{
	uint8_t *entry = roce_entry(cmd);

	if (!entry)
		return false;
	memcpy(entry, cmd->in + PRM_ROCE_ADDR_BYTE, PRM_ROCE_ADDR_LEN);
	return true;
}

bool fw_cmd_query_roce_address(struct fw_cmd *cmd)
{
	uint8_t *entry = roce_entry(cmd);

	if (!entry)
		return false;
	memcpy(cmd->out + PRM_ROCE_ADDR_BYTE, entry, PRM_ROCE_ADDR_LEN);
	return true;
}
