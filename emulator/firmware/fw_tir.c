// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Transport interface receive and send objects (TIR, TIS).  A TIR
 * dispatches to one RQ (disp_type direct, inline_rqn) or spreads over
 * an RQT (indirect, indirect_table), in a transport domain; a TIS lives
 * in a transport domain and SQs send through it.  The model keeps the
 * context as created and holds a reference on every object it names,
 * so neither the RQ, the RQT nor the transport domain can be destroyed
 * first.  CREATE_TIR answers the TIR's ICM address, which libmlx5
 * records for steering rules that forward to it.
 */
#include <string.h>

#include "fw_internal.h"

/* Where the TIR dispatches to: its RQ or its RQT. */
static bool tir_target(struct fw_cmd *cmd, const uint8_t *ctx_in,
		       struct fw_holds *holds)
{
	switch (prm_get(ctx_in, PRM_TIRC_DISP_TYPE)) {
	case PRM_TIRC_DISP_DIRECT:
		return fw_obj_ref(cmd, FW_OBJ_RQ,
				  prm_get(ctx_in, PRM_TIRC_INLINE_RQN), holds);
	case PRM_TIRC_DISP_INDIRECT:
		/* none, XOR8 and Toeplitz */
		if (!fw_check(cmd, prm_get(ctx_in, PRM_TIRC_RX_HASH_FN) > 2,
			      EMU_FW_SYND_BAD_FIELD))
			return false;
		return fw_obj_ref(cmd, FW_OBJ_RQT,
				  prm_get(ctx_in, PRM_TIRC_INDIRECT_TABLE),
				  holds);
	default:
		return fw_check(cmd, true, EMU_FW_SYND_BAD_FIELD);
	}
}

bool fw_cmd_create_tir(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;
	uint64_t icm;

	if (!fw_ctx_create_reserved_clear(cmd) ||
	    !fw_obj_ref(cmd, FW_OBJ_TD,
			prm_get(cmd->in, PRM_TIRC_TRANSPORT_DOMAIN), &holds) ||
	    !tir_target(cmd, cmd->in, &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	obj = fw_obj_create_ctx(cmd, FW_OBJ_TIR, 1u << FW_LOG_MAX_TIR,
				PRM_OBJ_CTX_BYTE, PRM_OBJ_CTX_LEN, &holds);
	if (!fw_created(cmd, obj, PRM_OUT_OBJN))
		return false;
	/* Where the TIR's steering action lives in device memory. */
	icm = (uint64_t)cmd->fw->vhca_id << 40 | 1ull << 39 |
	      (uint64_t)obj->id << 12;
	prm_set(cmd->out, PRM_TIR_OUT_ICM_63_40, icm >> 40);
	prm_set(cmd->out, PRM_TIR_OUT_ICM_39_32, icm >> 32);
	prm_set(cmd->out, PRM_TIR_OUT_ICM_31_0, (uint32_t)icm);
	return true;
}

bool fw_cmd_query_tir(struct fw_cmd *cmd)
{
	return fw_query_state(cmd, FW_OBJ_TIR, 0, PRM_OBJ_CTX_BYTE,
			      PRM_OBJ_CTX_LEN);
}

/*
 * What MODIFY_TIR changes: bit 0 the packet merge (LRO) settings, bit 1
 * the indirection table of an indirect TIR, bit 2 the hash, bit 4 the
 * self loopback block; other bits are refused.
 */
static const uint32_t tir_modifiable = PRM_MODIFY_TIR_PACKET_MERGE |
				       PRM_MODIFY_TIR_INDIRECT |
				       PRM_MODIFY_TIR_HASH |
				       PRM_MODIFY_TIR_SELF_LB;

bool fw_cmd_modify_tir(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;
	uint8_t *ctx;
	uint32_t mask;

	obj = fw_modify_target(cmd, FW_OBJ_TIR, tir_modifiable, &mask);
	if (!obj)
		return false;
	ctx = obj->data;
	if (mask & PRM_MODIFY_TIR_INDIRECT) {
		if (!fw_check(cmd, fw_ctx_field(ctx, PRM_TIRC_DISP_TYPE) !=
				   PRM_TIRC_DISP_INDIRECT,
			      EMU_FW_SYND_BAD_FIELD) ||
		    !fw_obj_ref(cmd, FW_OBJ_TD,
				fw_ctx_field(ctx, PRM_TIRC_TRANSPORT_DOMAIN),
				&holds) ||
		    !fw_obj_ref(cmd, FW_OBJ_RQT,
				prm_get(cmd->in, PRM_TIRC_INDIRECT_TABLE),
				&holds)) {
			fw_holds_free(&holds);
			return false;
		}
		fw_ctx_take(ctx, cmd->in, PRM_TIRC_INDIRECT_TABLE);
		fw_obj_take_holds(cmd->fw, obj, &holds);
	}
	if (mask & PRM_MODIFY_TIR_PACKET_MERGE)
		memcpy(ctx + PRM_TIRC_LRO_BYTE - PRM_OBJ_CTX_BYTE,
		       cmd->in + PRM_TIRC_LRO_BYTE, PRM_TIRC_LRO_LEN);
	if (mask & PRM_MODIFY_TIR_HASH) {
		fw_ctx_take(ctx, cmd->in, PRM_TIRC_RX_HASH_FN);
		fw_ctx_take(ctx, cmd->in, PRM_TIRC_RX_HASH_SYMMETRIC);
		memcpy(ctx + PRM_TIRC_HASH_BYTE - PRM_OBJ_CTX_BYTE,
		       cmd->in + PRM_TIRC_HASH_BYTE, PRM_TIRC_HASH_LEN);
	}
	if (mask & PRM_MODIFY_TIR_SELF_LB)
		fw_ctx_take(ctx, cmd->in, PRM_TIRC_SELF_LB_BLOCK);
	return true;
}

bool fw_cmd_destroy_tir(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_TIR,
				prm_get(cmd->in, PRM_IN_OBJN));
}

bool fw_cmd_create_tis(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;

	/* One port: affinity 0 (any) or 1. */
	if (!fw_ctx_create_reserved_clear(cmd) ||
	    !fw_check(cmd, prm_get(cmd->in, PRM_TISC_LAG_TX_PORT_AFFINITY) > 1,
		      EMU_FW_SYND_BAD_FIELD) ||
	    !fw_obj_ref(cmd, FW_OBJ_TD,
			prm_get(cmd->in, PRM_TISC_TRANSPORT_DOMAIN), &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	obj = fw_obj_create_ctx(cmd, FW_OBJ_TIS, 1u << FW_LOG_MAX_TIS,
				PRM_OBJ_CTX_BYTE, PRM_TIS_CTX_LEN, &holds);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

bool fw_cmd_query_tis(struct fw_cmd *cmd)
{
	return fw_query_state(cmd, FW_OBJ_TIS, 0, PRM_QUERY_TIS_CTX_BYTE,
			      PRM_TIS_CTX_LEN);
}

/* What MODIFY_TIS changes: bit 0 prio, 1 strict affinity, 2 affinity. */
static const uint32_t tis_modifiable = PRM_MODIFY_TIS_PRIO |
				       PRM_MODIFY_TIS_STRICT_LAG |
				       PRM_MODIFY_TIS_LAG_AFFINITY;

bool fw_cmd_modify_tis(struct fw_cmd *cmd)
{
	struct fw_obj *obj;
	uint32_t mask;

	obj = fw_modify_target(cmd, FW_OBJ_TIS, tis_modifiable, &mask);
	if (!obj ||
	    !fw_check(cmd, mask & PRM_MODIFY_TIS_LAG_AFFINITY &&
			   prm_get(cmd->in, PRM_TISC_LAG_TX_PORT_AFFINITY) > 1,
		      EMU_FW_SYND_BAD_FIELD))
		return false;
	if (mask & PRM_MODIFY_TIS_PRIO)
		fw_ctx_take(obj->data, cmd->in, PRM_TISC_PRIO);
	if (mask & PRM_MODIFY_TIS_STRICT_LAG)
		fw_ctx_take(obj->data, cmd->in, PRM_TISC_STRICT_LAG);
	if (mask & PRM_MODIFY_TIS_LAG_AFFINITY)
		fw_ctx_take(obj->data, cmd->in, PRM_TISC_LAG_TX_PORT_AFFINITY);
	return true;
}

bool fw_cmd_destroy_tis(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_TIS,
				prm_get(cmd->in, PRM_IN_OBJN));
}
