// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The contexts flow table entries apply to a packet: packet reformat
 * (ALLOC/QUERY/DEALLOC_PACKET_REFORMAT_CONTEXT: an encapsulation header
 * to add, or the L2 header a decapsulation restores) and modify header
 * (ALLOC/DEALLOC_MODIFY_HEADER_CONTEXT: a list of set, add and copy
 * actions, for one table type).  Both are kept as allocated; an entry
 * that uses one holds a reference on it, so it cannot be freed first.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

struct modify_hdr_state {
	uint8_t table_type;
	uint8_t num;
	uint8_t actions[];
};

/* The reformat context and its data, from the allocation's byte 28. */
static size_t reformat_len(const uint8_t *in)
{
	return PRM_REFORMAT_DATA_BYTE - PRM_REFORMAT_CTX_BYTE +
	       prm_get(in, PRM_REFORMAT_DATA_SIZE);
}

/*
 * A context is stored as the allocation's first bytes up to the end of
 * its data, so its fields keep their mailbox offsets.
 */
static size_t obj_len(const struct fw_obj *obj)
{
	return reformat_len(obj->data);
}

bool fw_cmd_alloc_pkt_reformat(struct fw_cmd *cmd)
{
	uint32_t type = prm_get(cmd->in, PRM_REFORMAT_TYPE);
	uint32_t size = prm_get(cmd->in, PRM_REFORMAT_DATA_SIZE);
	struct fw_obj *obj;
	void *image;

	/* The five tunnel reformats, each with a header of data. */
	if (!fw_in_zero(cmd, 4, 6) ||
	    !fw_in_zero(cmd, 8, PRM_REFORMAT_CTX_BYTE) ||
	    !fw_check(cmd, type > PRM_REFORMAT_L2_TO_L3_TUNNEL || !size ||
			   size > FW_MAX_REFORMAT_DATA,
		      EMU_FW_SYND_BAD_FIELD) ||
	    !fw_in_len(cmd, PRM_REFORMAT_CTX_BYTE + reformat_len(cmd->in)))
		return false;
	image = fw_dup(cmd, cmd->in,
		       PRM_REFORMAT_CTX_BYTE + reformat_len(cmd->in));
	obj = fw_obj_create_data(cmd, FW_OBJ_PKT_REFORMAT, 1, UINT32_MAX,
				 1u << FW_LOG_MAX_PKT_REFORMAT, image);
	return fw_created(cmd, obj, PRM_REFORMAT_ID);
}

bool fw_cmd_query_pkt_reformat(struct fw_cmd *cmd)
{
	struct fw_obj *obj = fw_obj_named(cmd, FW_OBJ_PKT_REFORMAT,
					  prm_get(cmd->in, PRM_REFORMAT_ID));
	size_t len;

	if (!obj)
		return false;
	len = obj_len(obj);
	if (!fw_out_len(cmd, PRM_REFORMAT_CTX_BYTE + len))
		return false;
	memcpy(cmd->out + PRM_REFORMAT_CTX_BYTE,
	       (const uint8_t *)obj->data + PRM_REFORMAT_CTX_BYTE, len);
	return true;
}

bool fw_cmd_dealloc_pkt_reformat(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_PKT_REFORMAT,
				prm_get(cmd->in, PRM_REFORMAT_ID));
}

bool fw_cmd_alloc_modify_hdr(struct fw_cmd *cmd)
{
	uint32_t num = prm_get(cmd->in, PRM_MODHDR_NUM_ACTIONS);
	size_t len = (size_t)num * PRM_MODHDR_ACTION_LEN;
	struct modify_hdr_state *st;
	struct fw_obj *obj;
	uint32_t i, type;

	/* Reserved: bytes 4..5, 8..11 and 13..14 (around the type). */
	if (!fw_in_zero(cmd, 4, 6) || !fw_in_zero(cmd, 8, 12) ||
	    !fw_in_zero(cmd, 13, 15) ||
	    !fw_check(cmd,
		      !fw_table_type_ok(prm_get(cmd->in,
						PRM_MODHDR_TABLE_TYPE)),
		      EMU_FW_SYND_TABLE_TYPE) ||
	    !fw_check(cmd, !num || num > FW_MAX_MODIFY_HDR_ACTIONS,
		      EMU_FW_SYND_BAD_FIELD) ||
	    !fw_in_len(cmd, PRM_MODHDR_ACTIONS_BYTE + len))
		return false;
	for (i = 0; i < num; i++) {
		type = prm_get(cmd->in + PRM_MODHDR_ACTIONS_BYTE +
				       i * PRM_MODHDR_ACTION_LEN,
			       PRM_MODHDR_ACTION_TYPE);
		if (!fw_check(cmd, type < PRM_MODHDR_SET ||
					   type > PRM_MODHDR_COPY,
			      EMU_FW_SYND_BAD_FIELD))
			return false;
	}
	st = calloc(1, sizeof(*st) + len);
	obj = fw_obj_create_data(cmd, FW_OBJ_MODIFY_HDR, 1, UINT32_MAX,
				 1u << FW_LOG_MAX_MODIFY_HDR, st);
	if (!obj)
		return false;
	st->table_type = prm_get(cmd->in, PRM_MODHDR_TABLE_TYPE);
	st->num = num;
	memcpy(st->actions, cmd->in + PRM_MODHDR_ACTIONS_BYTE, len);
	return fw_created(cmd, obj, PRM_MODHDR_ID);
}

unsigned int fw_modify_hdr_table_type(const struct fw_obj *obj)
{
	return ((const struct modify_hdr_state *)obj->data)->table_type;
}

bool fw_cmd_dealloc_modify_hdr(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_MODIFY_HDR,
				prm_get(cmd->in, PRM_MODHDR_ID));
}
