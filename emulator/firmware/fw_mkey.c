// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory keys: CREATE_MKEY and DESTROY_MKEY, as a kernel driver sends
 * them for its DMA MRs and registered user memory when UMR is off.  The
 * model checks the PD the key's context names (live, same uid) and keeps
 * the key as a number: no translation is walked, no packet uses it.  The
 * answer is the key's index (bits 8..31 of the key; the low byte is the
 * caller's own variant, mkc.mkey_7_0).
 */
#include "fw_internal.h"

bool fw_cmd_create_mkey(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct fw_obj *obj;

	if (prm_get(cmd->in, PRM_MKEY_UMEM_VALID))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	if (!fw_obj_ref(cmd, FW_OBJ_PD, prm_get(cmd->in, PRM_MKC_PD), &holds))
		return false;
	obj = fw_obj_create_ctx(cmd, FW_OBJ_MKEY, 1u << FW_LOG_MAX_MKEY,
				PRM_MKC_BYTE, PRM_MKC_LEN, &holds);
	return fw_created(cmd, obj, PRM_MKEY_OUT_INDEX);
}

bool fw_cmd_destroy_mkey(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_MKEY,
				prm_get(cmd->in, PRM_MKEY_IN_INDEX));
}
