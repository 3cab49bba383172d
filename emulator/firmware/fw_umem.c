// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * DEVX UMEMs: the kernel pins the user's buffer and registers its pages
 * with firmware by CREATE_UMEM (devx_umem_reg_cmd_alloc() builds the MTT
 * list), and unregisters it by DESTROY_UMEM.  The model checks the
 * command's geometry and remembers it.  A CQ whose ring or doorbell
 * lies in a UMEM holds a reference on it (fw_cq.c), as does an RQ or SQ
 * whose ring or doorbell does (fw_wq.c), and the UMEM cannot
 * be destroyed while one does.
 */
#include <stdlib.h>

#include "fw_internal.h"

struct umem_state {
	uint64_t num_mtt;
	uint32_t page_offset;
	uint8_t log_page_size;	/* log2(page size) - 12 */
};

/* The largest page the MTTs may describe: 2^(12 + 18) = 1 GiB. */
#define UMEM_MAX_LOG_PAGE 18

bool fw_cmd_create_umem(struct fw_cmd *cmd)
{
	uint64_t num = prm_get64(cmd->in, PRM_UMEM_NUM_MTT);
	uint32_t log_page = prm_get(cmd->in, PRM_UMEM_LOG_PAGE);
	uint32_t offset = prm_get(cmd->in, PRM_UMEM_PAGE_OFFSET);
	struct umem_state *st;
	struct fw_obj *obj;

	if (!num || log_page > UMEM_MAX_LOG_PAGE ||
	    offset >= 4096ull << log_page)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	if (num > (cmd->inlen - PRM_UMEM_MTT_BYTE) / 8)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_INPUT_LEN,
			       EMU_FW_SYND_INPUT_LEN);
	st = calloc(1, sizeof(*st));
	obj = fw_obj_create_with(cmd, FW_OBJ_UMEM, 1u << FW_LOG_MAX_UMEM, st,
				 NULL);
	if (!obj)
		return false;
	st->num_mtt = num;
	st->page_offset = offset;
	st->log_page_size = log_page;
	return fw_created(cmd, obj, PRM_UMEM_OUT_ID);
}

bool fw_cmd_destroy_umem(struct fw_cmd *cmd)
{
	struct fw_obj *obj;

	obj = fw_obj_find(cmd->fw, FW_OBJ_UMEM,
			  prm_get(cmd->in, PRM_DESTROY_UMEM_ID));
	if (!fw_obj_usable(cmd, obj))
		return false;
	if (obj->refs)
		return fw_fail(cmd, EMU_FW_STATUS_RES_BUSY, EMU_FW_SYND_BUSY);
	fw_obj_destroy(cmd->fw, obj);
	return true;
}

/*
 * Firmware knows a UMEM only by its MTTs: whole pages, the first one
 * entered page_offset bytes in.
 */
uint64_t fw_umem_bytes(const struct fw_obj *umem)
{
	const struct umem_state *st = umem->data;

	return (st->num_mtt << (12 + st->log_page_size)) - st->page_offset;
}

struct fw_obj *fw_umem_ref(struct fw_cmd *cmd, uint32_t id, uint64_t offset,
			   uint64_t len, struct fw_holds *holds)
{
	struct fw_obj *umem = fw_obj_find(cmd->fw, FW_OBJ_UMEM, id);
	uint64_t bytes;

	if (!umem) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			EMU_FW_SYND_UMEM_MISSING);
		return NULL;
	}
	if (umem->uid != cmd->uid) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM, EMU_FW_SYND_UMEM_UID);
		return NULL;
	}
	bytes = fw_umem_bytes(umem);
	if (offset > bytes || len > bytes - offset) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM, EMU_FW_SYND_UMEM_SIZE);
		return NULL;
	}
	if (holds && !fw_ref_ok(cmd, umem, holds))
		return NULL;
	return umem;
}
