// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive and send queues (CREATE/MODIFY/QUERY/DESTROY_RQ and _SQ), the
 * Ethernet work queues DEVX applications build under TIRs and TISes and
 * mlx5e builds for its channels.  The ring lies in a UMEM
 * (wq_umem_valid) or in the pages of the list that follows the context
 * (a kernel's queue), which must cover it.  An RQ or SQ holds a
 * reference on its CQ, its PD, its UMEMs and (SQ) its TIS, so none of
 * them can be destroyed first.  Nothing is ever posted: MODIFY moves
 * the queue through its states (RST, RDY, ERR) and QUERY returns the
 * context as created with the current state.
 */
#include <string.h>

#include "fw_internal.h"

static enum fw_obj_kind kind_of(uint16_t opcode)
{
	switch (opcode) {
	case PRM_OP_CREATE_SQ:
	case PRM_OP_MODIFY_SQ:
	case PRM_OP_QUERY_SQ:
	case PRM_OP_DESTROY_SQ:
		return FW_OBJ_SQ;
	default:
		return FW_OBJ_RQ;
	}
}

/* The fields of the context whose value the model supports. */
static bool wq_fields_ok(struct fw_cmd *cmd, bool sq)
{
	const uint8_t *in = cmd->in;
	uint32_t type = prm_get(in, PRM_WQ_TYPE);
	bool bad;

	/* Cyclic for an SQ; linked list or cyclic for an RQ (striding
	 * RQs and hairpin queues are capabilities the device lacks). */
	bad = prm_get(in, PRM_WQC_STATE) != PRM_WQ_STATE_RST ||
	      prm_get(in, PRM_WQC_HAIRPIN) ||
	      prm_get(in, PRM_WQ_LOG_SZ) > FW_LOG_MAX_WQ_SZ ||
	      (sq ? type != 1 || prm_get(in, PRM_SQC_TIS_LST_SZ) > 1
		  : type > 1 || prm_get(in, PRM_RQC_MEM_RQ_TYPE));
	return fw_check(cmd, bad, EMU_FW_SYND_BAD_FIELD);
}

/* The objects the queue points at, in the order firmware checks them. */
static bool wq_refs(struct fw_cmd *cmd, bool sq, struct fw_holds *holds)
{
	const uint8_t *in = cmd->in;
	uint64_t ring = (1ull << prm_get(in, PRM_WQ_LOG_SZ))
			<< prm_get(in, PRM_WQ_LOG_STRIDE);

	if (!fw_obj_ref(cmd, FW_OBJ_CQ, prm_get(in, PRM_WQC_CQN), holds))
		return false;
	/* (an SQ without a TIS, as mlx5e's internal ones, sends nothing
	 * out of the port: UMR and NOP WQEs) */
	if (sq && prm_get(in, PRM_SQC_TIS_LST_SZ) &&
	    !fw_obj_ref(cmd, FW_OBJ_TIS, prm_get(in, PRM_SQC_TIS_NUM_0),
			holds))
		return false;
	/*
	 * PD 0 names none: mlx5e's drop RQ, which never gets a WQE, sets
	 * no PD (mlx5e_build_drop_rq_param()) and firmware takes it.
	 */
	if (prm_get(in, PRM_WQ_PD) &&
	    !fw_obj_ref(cmd, FW_OBJ_PD, prm_get(in, PRM_WQ_PD), holds))
		return false;
	if (!prm_get(in, PRM_WQ_UMEM_VALID)) {
		if (!fw_pas_covers(cmd, PRM_WQ_PAS_BYTE,
				   prm_get(in, PRM_WQ_LOG_PG_SZ),
				   prm_get(in, PRM_WQ_PAGE_OFFSET), ring))
			return false;
	} else if (!fw_umem_ref(cmd, prm_get(in, PRM_WQ_UMEM_ID),
				prm_get64(in, PRM_WQ_UMEM_OFFSET), ring,
				holds)) {
		return false;
	}
	/* The doorbell record: two big-endian dwords at dbr_addr. */
	return !prm_get(in, PRM_WQ_DBR_UMEM_VALID) ||
	       fw_umem_ref(cmd, prm_get(in, PRM_WQ_DBR_UMEM_ID),
			   prm_get64(in, PRM_WQ_DBR_ADDR), 8, holds);
}

bool fw_cmd_create_wq(struct fw_cmd *cmd)
{
	enum fw_obj_kind kind = kind_of(cmd->opcode);
	bool sq = kind == FW_OBJ_SQ;
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;

	if (!fw_ctx_create_reserved_clear(cmd) ||
	    !wq_fields_ok(cmd, sq) || !wq_refs(cmd, sq, &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	obj = fw_obj_create_ctx(cmd, kind,
				1u << (sq ? FW_LOG_MAX_SQ : FW_LOG_MAX_RQ),
				PRM_OBJ_CTX_BYTE, PRM_OBJ_CTX_LEN, &holds);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

bool fw_cmd_query_wq(struct fw_cmd *cmd)
{
	return fw_query_state(cmd, kind_of(cmd->opcode), 0, PRM_OBJ_CTX_BYTE,
			      PRM_OBJ_CTX_LEN);
}

/*
 * The transitions of the PRM's RQ and SQ state machines: RST to RDY,
 * RDY to ERR or back to RST, ERR to RST, and RST or RDY to itself (a
 * modify of other fields).
 */
static bool transition_ok(uint32_t from, uint32_t to)
{
	switch (from) {
	case PRM_WQ_STATE_RST:
		return to == PRM_WQ_STATE_RST || to == PRM_WQ_STATE_RDY;
	case PRM_WQ_STATE_RDY:
		return true;
	default:
		return to == PRM_WQ_STATE_RST;
	}
}

bool fw_cmd_modify_wq(struct fw_cmd *cmd)
{
	enum fw_obj_kind kind = kind_of(cmd->opcode);
	const uint32_t rq_known = PRM_MODIFY_RQ_VSD |
				  PRM_MODIFY_RQ_SCATTER_FCS |
				  PRM_MODIFY_RQ_COUNTER_SET_ID;
	uint32_t to = prm_get(cmd->in, PRM_WQC_STATE);
	struct fw_obj *obj;
	uint32_t mask;
	uint8_t *ctx;

	obj = fw_modify_target(cmd, kind, kind == FW_OBJ_RQ ? rq_known : 0,
			       &mask);
	if (!obj ||
	    !fw_check(cmd, to != PRM_WQ_STATE_RST && to != PRM_WQ_STATE_RDY &&
			   to != PRM_WQ_STATE_ERR, EMU_FW_SYND_BAD_FIELD))
		return false;
	ctx = obj->data;
	/* The state the caller believes the queue in must be its state. */
	if (prm_get(cmd->in, PRM_MODIFY_WQ_CUR_STATE) !=
		    fw_ctx_field(ctx, PRM_WQC_STATE) ||
	    !transition_ok(fw_ctx_field(ctx, PRM_WQC_STATE), to))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_RES_STATE,
			       EMU_FW_SYND_STATE);
	fw_ctx_take(ctx, cmd->in, PRM_WQC_STATE);
	if (mask & PRM_MODIFY_RQ_VSD)
		fw_ctx_take(ctx, cmd->in, PRM_RQC_VSD);
	if (mask & PRM_MODIFY_RQ_SCATTER_FCS)
		fw_ctx_take(ctx, cmd->in, PRM_RQC_SCATTER_FCS);
	if (mask & PRM_MODIFY_RQ_COUNTER_SET_ID)
		fw_ctx_take(ctx, cmd->in, PRM_RQC_COUNTER_SET_ID);
	return true;
}

bool fw_cmd_destroy_wq(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, kind_of(cmd->opcode),
				prm_get(cmd->in, PRM_IN_OBJN));
}
