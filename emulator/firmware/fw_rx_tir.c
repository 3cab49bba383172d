// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A TIR's dispatch of a received frame: a direct TIR gives its
 * inline_rqn; an indirect one hashes the frame (fw_rx_hash()) and gives
 * the RQ at entry hash modulo the RQT's actual size.  For the
 * power-of-two sizes mlx5e makes, that is the hash's low bits, which is
 * what the hardware's indirection uses; the modulo keeps any other
 * size inside the table.  self_lb_block concerns frames the function
 * sent itself (loopback), which this path does not carry.
 */
#include "fw_internal.h"

uint32_t fw_rx_tir_rq(struct emu_fw *fw, const struct fw_obj *tir,
		      const uint8_t *match, uint32_t *hash)
{
	const uint8_t *ctx = tir->data;
	const uint8_t *rqt_ctx, *entry;
	struct fw_obj *rqt;
	uint32_t size;

	*hash = 0;
	if (fw_ctx_field(ctx, PRM_TIRC_DISP_TYPE) != PRM_TIRC_DISP_INDIRECT)
		return fw_ctx_field(ctx, PRM_TIRC_INLINE_RQN);
	rqt = fw_obj_find(fw, FW_OBJ_RQT,
			  fw_ctx_field(ctx, PRM_TIRC_INDIRECT_TABLE));
	if (!rqt)
		return 0;
	rqt_ctx = rqt->data;
	size = fw_ctx_field(rqt_ctx, PRM_RQTC_ACTUAL_SIZE);
	if (!size)
		return 0;
	*hash = fw_rx_hash(ctx, match);
	/* the list follows the context (fw_rqt.c keeps them together) */
	entry = rqt_ctx + PRM_RQT_LIST_BYTE - PRM_OBJ_CTX_BYTE +
		(size_t)(*hash % size) * PRM_RQT_ENTRY_LEN;
	return prm_get(entry, PRM_RQT_ENTRY_RQN);
}
