// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RQ tables (CREATE/MODIFY/QUERY/DESTROY_RQT): the list of RQs an
 * indirect TIR spreads received packets over.  The table holds a
 * reference on every RQ of its list (one per entry), so an RQ in a
 * table cannot be destroyed first; MODIFY_RQT (bitmask rqn_list)
 * replaces the list, within the rqt_max_size the table was made with.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

static size_t rqt_len(uint32_t entries)
{
	return PRM_OBJ_CTX_LEN + (size_t)entries * PRM_RQT_ENTRY_LEN;
}

/* The input's list of actual RQs: each live and the command's uid's. */
static bool rqt_list(struct fw_cmd *cmd, uint32_t actual,
		     struct fw_holds *holds)
{
	const uint8_t *entry;
	uint32_t i;

	if (!fw_in_len(cmd, PRM_OBJ_CTX_BYTE + rqt_len(actual)))
		return false;
	for (i = 0; i < actual; i++) {
		entry = cmd->in + PRM_RQT_LIST_BYTE + i * PRM_RQT_ENTRY_LEN;
		if (!fw_obj_ref(cmd, FW_OBJ_RQ,
				prm_get(entry, PRM_RQT_ENTRY_RQN), holds))
			return false;
	}
	return true;
}

bool fw_cmd_create_rqt(struct fw_cmd *cmd)
{
	uint32_t max = prm_get(cmd->in, PRM_RQTC_MAX_SIZE);
	uint32_t actual = prm_get(cmd->in, PRM_RQTC_ACTUAL_SIZE);
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;

	if (!fw_ctx_create_reserved_clear(cmd) ||
	    !fw_check(cmd, prm_get(cmd->in, PRM_RQTC_LIST_Q_TYPE) ||
			   !max || max > 1u << FW_LOG_MAX_RQT_SIZE ||
			   !actual || actual > max,
		      EMU_FW_SYND_BAD_FIELD) ||
	    !rqt_list(cmd, actual, &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	obj = fw_obj_create_ctx(cmd, FW_OBJ_RQT, 1u << FW_LOG_MAX_RQT,
				PRM_OBJ_CTX_BYTE, rqt_len(actual), &holds);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

bool fw_cmd_query_rqt(struct fw_cmd *cmd)
{
	struct fw_obj *obj = fw_obj_named_in(cmd, FW_OBJ_RQT);
	size_t len;

	if (!obj)
		return false;
	len = rqt_len(fw_ctx_field(obj->data, PRM_RQTC_ACTUAL_SIZE));
	if (!fw_out_len(cmd, PRM_OBJ_CTX_BYTE + len))
		return false;
	memcpy(cmd->out + PRM_OBJ_CTX_BYTE, obj->data, len);
	return true;
}

bool fw_cmd_modify_rqt(struct fw_cmd *cmd)
{
	uint32_t actual = prm_get(cmd->in, PRM_RQTC_ACTUAL_SIZE);
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;
	uint32_t mask;
	uint8_t *ctx;

	/* The list is the one thing a MODIFY_RQT changes. */
	obj = fw_modify_target(cmd, FW_OBJ_RQT, PRM_MODIFY_RQT_LIST, &mask);
	if (!obj)
		return false;
	if (!fw_check(cmd, !mask || !actual ||
			   actual > fw_ctx_field(obj->data,
						 PRM_RQTC_MAX_SIZE),
		      EMU_FW_SYND_BAD_FIELD) ||
	    !rqt_list(cmd, actual, &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	ctx = malloc(rqt_len(actual));
	if (!ctx) {
		fw_holds_free(&holds);
		return fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES,
			       EMU_FW_SYND_NO_MEMORY);
	}
	memcpy(ctx, obj->data, PRM_OBJ_CTX_LEN);
	fw_ctx_take(ctx, cmd->in, PRM_RQTC_ACTUAL_SIZE);
	memcpy(ctx + PRM_OBJ_CTX_LEN, cmd->in + PRM_RQT_LIST_BYTE,
	       (size_t)actual * PRM_RQT_ENTRY_LEN);
	free(obj->data);
	obj->data = ctx;
	fw_obj_take_holds(cmd->fw, obj, &holds);
	return true;
}

bool fw_cmd_destroy_rqt(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_RQT,
				prm_get(cmd->in, PRM_IN_OBJN));
}
