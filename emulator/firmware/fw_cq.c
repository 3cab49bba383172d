// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Completion queues.  A DEVX CQ's CQE ring lies in a UMEM
 * (cq_umem_valid): the object through which the model sees a UMEM in
 * use.  Such a CQ holds a reference on the UMEM of its ring, and on the
 * UMEM of its doorbell record when dbr_umem_valid is set, so
 * DESTROY_UMEM fails (RES_BUSY) while the CQ lives.  A verbs CQ's ring
 * is user memory the kernel pinned and describes with a page list (PAS)
 * after the fixed mailbox; the model checks that the list covers the
 * ring.  QPs hold references on their CQs: DESTROY_CQ of a CQ a QP uses
 * fails (RES_BUSY).  No completions are ever written: the model keeps
 * the context as created and returns it from QUERY_CQ.  c_eqn and
 * uar_page are stored, not checked (the model has no EQs or UARs).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

/* Bit offset of a cqc field in the stored context. */
#define CQC_BIT(off_width) cqc_bit(off_width)
static unsigned int cqc_bit(unsigned int off, unsigned int width)
{
	(void)width;
	return off - PRM_CQ_CTX_BYTE * 8;
}

struct fw_obj *fw_usable_umem(struct fw_cmd *cmd, uint32_t id,
			      uint64_t offset, uint64_t len)
{
	return fw_umem_ref(cmd, id, offset, len, NULL);
}

bool fw_cmd_create_cq(struct fw_cmd *cmd)
{
	uint32_t log_size = prm_get(cmd->in, PRM_CQC_LOG_CQ_SIZE);
	uint32_t cqe_sz = prm_get(cmd->in, PRM_CQC_CQE_SZ);
	struct fw_obj *ring, *dbr = NULL, *obj;
	struct fw_holds holds = { 0 };
	uint64_t ring_len;
	uint8_t *cqc;

	if (cqe_sz > 1 || log_size > FW_LOG_MAX_CQ_SZ)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	/* 64-byte CQEs, or 128 with cqe_sz 1. */
	ring_len = (64ull << cqe_sz) << log_size;
	if (prm_get(cmd->in, PRM_CQ_UMEM_VALID)) {
		ring = fw_usable_umem(cmd, prm_get(cmd->in, PRM_CQ_UMEM_ID),
				      prm_get64(cmd->in, PRM_CQ_UMEM_OFFSET),
				      ring_len);
		if (!ring)
			return false;
	} else {
		ring = NULL;
		if (!fw_pas_covers(cmd, PRM_CQ_PAS_BYTE,
				   prm_get(cmd->in, PRM_CQC_LOG_PAGE_SIZE),
				   prm_get(cmd->in, PRM_CQC_PAGE_OFFSET),
				   ring_len))
			return false;
	}
	/* The doorbell record: two big-endian dwords at dbr_addr. */
	if (prm_get(cmd->in, PRM_CQC_DBR_UMEM_VALID)) {
		dbr = fw_usable_umem(cmd,
				     prm_get(cmd->in, PRM_CQC_DBR_UMEM_ID),
				     prm_get64(cmd->in, PRM_CQC_DBR_ADDR), 8);
		if (!dbr)
			return false;
	}
	/* A referenced UMEM outlives its CQs: DESTROY_UMEM refuses it. */
	if (!fw_hold(cmd, &holds, ring) || !fw_hold(cmd, &holds, dbr)) {
		fw_holds_free(&holds);
		return false;
	}
	/* The CQ's state: its cqc as created, then as modified. */
	obj = fw_obj_create_ctx(cmd, FW_OBJ_CQ, 1u << FW_LOG_MAX_CQ,
				PRM_CQ_CTX_BYTE, PRM_CQ_CTX_LEN, &holds);
	if (!obj)
		return false;
	cqc = obj->data;
	/* Status (OK) and the consumer/producer indexes are firmware's. */
	prm_set(cqc, CQC_BIT(PRM_CQC_STATUS), 4, 0);
	memset(cqc + PRM_CQC_COUNTERS_BYTE - PRM_CQ_CTX_BYTE, 0,
	       PRM_CQC_COUNTERS_LEN);
	return fw_created(cmd, obj, PRM_OUT_OBJN);
}

bool fw_cmd_query_cq(struct fw_cmd *cmd)
{
	return fw_query_state(cmd, FW_OBJ_CQ, 0, PRM_CQ_CTX_BYTE,
			      PRM_CQ_CTX_LEN);
}

bool fw_cmd_destroy_cq(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_CQ, prm_get(cmd->in, PRM_IN_OBJN));
}

bool fw_pas_covers(struct fw_cmd *cmd, size_t pas_byte, unsigned int log_page,
		   unsigned int page_offset, uint64_t len)
{
	uint64_t page = 4096ull << log_page;
	uint64_t npages = (page_offset * 64ull + len + page - 1) / page;

	if (cmd->inlen < pas_byte ||
	    npages > (cmd->inlen - pas_byte) / PRM_PAS_ENTRY_LEN)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_PAS_SHORT);
	return true;
}

/* A cqc field from a mailbox (cqc at byte 16) to the stored context. */
static void copy_cqc_field(uint8_t *cqc, const uint8_t *in, unsigned int off,
			   unsigned int width)
{
	prm_set(cqc, off - PRM_CQ_CTX_BYTE * 8, width,
		prm_get(in, off, width));
}

/*
 * MODIFY_CQ changes the moderation (cq_period, cq_max_count) the field
 * select names; resizing is a capability the device does not report
 * (cq_resize 0), other fields or op_mods are refused (BAD_PARAM).
 */
bool fw_cmd_modify_cq(struct fw_cmd *cmd)
{
	uint32_t select = prm_get(cmd->in, PRM_MODIFY_CQ_FIELD_SELECT);
	struct fw_obj *obj = fw_obj_named_in(cmd, FW_OBJ_CQ);
	uint8_t *cqc;

	if (!obj)
		return false;
	if (cmd->op_mod != PRM_MODIFY_CQ_OP_MODIFY ||
	    select & ~(PRM_MODIFY_CQ_PERIOD | PRM_MODIFY_CQ_COUNT))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	cqc = obj->data;
	if (select & PRM_MODIFY_CQ_PERIOD)
		copy_cqc_field(cqc, cmd->in, PRM_CQC_CQ_PERIOD);
	if (select & PRM_MODIFY_CQ_COUNT)
		copy_cqc_field(cqc, cmd->in, PRM_CQC_CQ_MAX_COUNT);
	return true;
}
