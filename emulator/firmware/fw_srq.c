// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Basic shared receive queues: CREATE_SRQ, QUERY_SRQ, DESTROY_SRQ.  The
 * queue is user memory described by a page list (2^log_srq_size WQEs of
 * 16 << log_rq_stride bytes); the SRQ holds a reference on its PD.  No
 * QP is ever attached (the model's QPs have their own receive queues or
 * none), and nothing is ever received: QUERY_SRQ returns the context as
 * created, in state GOOD (0).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

bool fw_cmd_create_srq(struct fw_cmd *cmd)
{
	uint32_t log_size = prm_get(cmd->in, PRM_SRQC_LOG_SRQ_SIZE);
	uint64_t bytes = (1ull << log_size)
			 << (prm_get(cmd->in, PRM_SRQC_LOG_RQ_STRIDE) + 4);
	struct fw_holds holds = { 0 };
	struct fw_obj *pd, *obj;

	if (log_size > FW_LOG_MAX_SRQ_SZ)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	pd = fw_obj_find(cmd->fw, FW_OBJ_PD, prm_get(cmd->in, PRM_SRQC_PD));
	if (!fw_obj_usable(cmd, pd) ||
	    !fw_pas_covers(cmd, PRM_SRQ_PAS_BYTE,
			   prm_get(cmd->in, PRM_SRQC_LOG_PAGE_SIZE),
			   prm_get(cmd->in, PRM_SRQC_PAGE_OFFSET), bytes) ||
	    !fw_hold(cmd, &holds, pd))
		return false;
	/* The SRQ's state: create_srq_in as created. */
	obj = fw_obj_create_ctx(cmd, FW_OBJ_SRQ, 1u << FW_LOG_MAX_SRQ, 0,
				PRM_SRQ_IN_LEN, &holds);
	if (!obj)
		return false;
	/* the state is the firmware's: GOOD */
	prm_set(obj->data, PRM_SRQC_STATE, 0);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

bool fw_cmd_query_srq(struct fw_cmd *cmd)
{
	return fw_query_state(cmd, FW_OBJ_SRQ, PRM_SRQ_CTX_BYTE,
			      PRM_SRQ_CTX_BYTE, PRM_SRQ_CTX_LEN);
}

bool fw_cmd_destroy_srq(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_SRQ, prm_get(cmd->in, PRM_IN_OBJN));
}

/*
 * XRC SRQs (CREATE_XRC_SRQ, DESTROY_XRC_SRQ), as a kernel driver makes
 * one for its own use: the PD and XRC domain the context names must be
 * live and usable by the uid; the SRQ holds its PD and is numbered with
 * the basic SRQs (one number space, as on a device).  Its memory is not
 * checked; it is never queried.
 */
bool fw_cmd_create_xrc_srq(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct fw_obj *pd, *xrcd, *obj;

	pd = fw_obj_find(cmd->fw, FW_OBJ_PD, prm_get(cmd->in, PRM_XRC_SRQC_PD));
	xrcd = fw_obj_find(cmd->fw, FW_OBJ_XRCD,
			   prm_get(cmd->in, PRM_XRC_SRQC_XRCD));
	if (!fw_obj_usable(cmd, pd) || !fw_obj_usable(cmd, xrcd) ||
	    !fw_hold(cmd, &holds, pd) || !fw_hold(cmd, &holds, xrcd)) {
		fw_holds_free(&holds);
		return false;
	}
	obj = fw_obj_create_ctx(cmd, FW_OBJ_SRQ, 1u << FW_LOG_MAX_SRQ, 0,
				PRM_XRC_SRQ_IN_LEN, &holds);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

/*
 * RMPs (CREATE_RMP, DESTROY_RMP): the form a kernel driver gives a basic
 * SRQ at ISSI 1.  The PD of the RMP's work queue must be live and usable
 * by the uid; numbered with the SRQs; its memory is not checked.
 */
bool fw_cmd_create_rmp(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct fw_obj *pd, *obj;

	pd = fw_obj_find(cmd->fw, FW_OBJ_PD, prm_get(cmd->in, PRM_RMP_WQ_PD));
	if (!fw_obj_usable(cmd, pd) || !fw_hold(cmd, &holds, pd)) {
		fw_holds_free(&holds);
		return false;
	}
	obj = fw_obj_create_ctx(cmd, FW_OBJ_SRQ, 1u << FW_LOG_MAX_SRQ, 0,
				PRM_RMP_IN_LEN, &holds);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}
