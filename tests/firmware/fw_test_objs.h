/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Builders for the firmware tests of objects that point at others: the
 * UMEMs, PDs, transport domains and CQs under them, and the commands
 * that make RQs, SQs, TISes, TIRs, RQTs and flow tables.  Each make_*
 * returns the new object's number, or 0 when the firmware refused it.
 */
#ifndef MLX5_EMU_FW_TEST_OBJS_H
#define MLX5_EMU_FW_TEST_OBJS_H

#include "fw_test_util.h"

/* Runs a create or alloc command; its answer's (off, width), 0 if refused. */
static inline uint32_t alloc_id(struct emu_fw *fw, struct mbox *m,
				size_t inlen, unsigned int off,
				unsigned int width)
{
	if (run(fw, m, inlen, 16))
		return 0;
	return prm_get(m->out, off, width);
}

static inline uint32_t created(struct emu_fw *fw, struct mbox *m,
			       size_t inlen)
{
	return alloc_id(fw, m, inlen, PRM_OUT_OBJN);
}

/* A UMEM of pages 4K pages. */
static inline uint32_t make_umem(struct emu_fw *fw, uint16_t uid,
				 uint32_t pages)
{
	struct mbox m;
	uint32_t i;

	mbox_init(&m, PRM_OP_CREATE_UMEM, uid, 0);
	prm_set64(m.in, PRM_UMEM_NUM_MTT, pages);
	for (i = 0; i < pages; i++)
		prm_set64(m.in, (PRM_UMEM_MTT_BYTE + 8 * i) * 8, 64,
			  0x7f0000000000ull + i * 4096);
	return alloc_id(fw, &m, PRM_UMEM_MTT_BYTE + 8 * pages,
			PRM_UMEM_OUT_ID);
}

/* ALLOC_PD, ALLOC_TRANSPORT_DOMAIN. */
static inline uint32_t make_simple(struct emu_fw *fw, uint16_t uid,
				   uint16_t opcode)
{
	struct mbox m;

	mbox_init(&m, opcode, uid, 0);
	return created(fw, &m, 16);
}

/* A CQ of 64 64-byte CQEs at offset in umem. */
static inline uint32_t make_cq(struct emu_fw *fw, uint16_t uid,
			       uint32_t umem, uint64_t offset)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_CQ, uid, 0);
	prm_set(m.in, PRM_CQC_LOG_CQ_SIZE, 6);
	prm_set64(m.in, PRM_CQ_UMEM_OFFSET, offset);
	prm_set(m.in, PRM_CQ_UMEM_ID, umem);
	prm_set(m.in, PRM_CQ_UMEM_VALID, 1);
	return created(fw, &m, PRM_CQ_IN_LEN);
}

/* Any command that names one object in PRM_IN_OBJN (16 bytes in). */
static inline int obj_cmd(struct emu_fw *fw, struct mbox *m, uint16_t opcode,
			  uint16_t uid, uint32_t id, size_t outlen)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_IN_OBJN, id);
	return run(fw, m, 16, outlen);
}

/*
 * CREATE_RQ or CREATE_SQ of 16 64-byte WQEs at offset in umem, on cq
 * and pd (and, for an SQ, tis): a queue that fits in one page.
 */
static inline void wq_cmd(struct mbox *m, uint16_t opcode, uint16_t uid,
			  uint32_t cq, uint32_t pd, uint32_t tis,
			  uint32_t umem, uint64_t offset)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_WQC_CQN, cq);
	if (opcode == PRM_OP_CREATE_SQ) {
		prm_set(m->in, PRM_SQC_TIS_LST_SZ, 1);
		prm_set(m->in, PRM_SQC_TIS_NUM_0, tis);
	}
	prm_set(m->in, PRM_WQ_TYPE, 1);
	prm_set(m->in, PRM_WQ_PD, pd);
	prm_set(m->in, PRM_WQ_LOG_STRIDE, 6);
	prm_set(m->in, PRM_WQ_LOG_SZ, 4);
	prm_set(m->in, PRM_WQ_UMEM_VALID, 1);
	prm_set(m->in, PRM_WQ_UMEM_ID, umem);
	prm_set64(m->in, PRM_WQ_UMEM_OFFSET, offset);
}

static inline void tis_cmd(struct mbox *m, uint16_t uid, uint32_t td)
{
	mbox_init(m, PRM_OP_CREATE_TIS, uid, 0);
	prm_set(m->in, PRM_TISC_TRANSPORT_DOMAIN, td);
}

/* A direct TIR on rq, or (rqt not 0) an indirect one over rqt. */
static inline void tir_cmd(struct mbox *m, uint16_t uid, uint32_t td,
			   uint32_t rq, uint32_t rqt)
{
	mbox_init(m, PRM_OP_CREATE_TIR, uid, 0);
	prm_set(m->in, PRM_TIRC_TRANSPORT_DOMAIN, td);
	if (rqt) {
		prm_set(m->in, PRM_TIRC_DISP_TYPE, PRM_TIRC_DISP_INDIRECT);
		prm_set(m->in, PRM_TIRC_RX_HASH_FN, 2);
		prm_set(m->in, PRM_TIRC_INDIRECT_TABLE, rqt);
	} else {
		prm_set(m->in, PRM_TIRC_INLINE_RQN, rq);
	}
}

/* An RQT of n RQs (max_size max); returns the input's length. */
static inline size_t rqt_cmd(struct mbox *m, uint16_t opcode, uint16_t uid,
			     uint32_t max, const uint32_t *rqs, uint32_t n)
{
	uint32_t i;

	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_RQTC_MAX_SIZE, max);
	prm_set(m->in, PRM_RQTC_ACTUAL_SIZE, n);
	for (i = 0; i < n; i++)
		prm_set(m->in + PRM_RQT_LIST_BYTE + i * PRM_RQT_ENTRY_LEN,
			PRM_RQT_ENTRY_RQN, rqs[i]);
	return PRM_RQT_LIST_BYTE + n * PRM_RQT_ENTRY_LEN;
}

/*
 * The objects with a destroy of their own, each naming its object in its
 * own field: the status, and the syndrome in *synd when synd is not NULL.
 */
static inline int destroy_umem(struct emu_fw *fw, uint16_t uid, uint32_t id,
			       uint32_t *synd)
{
	return run_on_id(fw, PRM_OP_DESTROY_UMEM, uid, PRM_DESTROY_UMEM_ID,
			 id, synd);
}

static inline int dealloc_counter(struct emu_fw *fw, uint16_t uid,
				  uint32_t id, uint32_t *synd)
{
	return run_on_id(fw, PRM_OP_DEALLOC_FLOW_COUNTER, uid,
			 PRM_DEALLOC_FC_ID, id, synd);
}

static inline int dealloc_reformat(struct emu_fw *fw, uint16_t uid,
				   uint32_t id, uint32_t *synd)
{
	return run_on_id(fw, PRM_OP_DEALLOC_PACKET_REFORMAT_CONTEXT, uid,
			 PRM_REFORMAT_ID, id, synd);
}

static inline int dealloc_modhdr(struct emu_fw *fw, uint16_t uid,
				 uint32_t id, uint32_t *synd)
{
	return run_on_id(fw, PRM_OP_DEALLOC_MODIFY_HEADER_CONTEXT, uid,
			 PRM_MODHDR_ID, id, synd);
}

/* A VXLAN encapsulation with a size-byte header of 0x5a. */
static inline void reformat_cmd(struct mbox *m, uint16_t uid,
				unsigned int size)
{
	mbox_init(m, PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT, uid, 0);
	prm_set(m->in, PRM_REFORMAT_TYPE, PRM_REFORMAT_L2_TO_VXLAN);
	prm_set(m->in, PRM_REFORMAT_DATA_SIZE, size);
	memset(m->in + PRM_REFORMAT_DATA_BYTE, 0x5a, size);
}

/* n set actions for tables of type; returns the input's length. */
static inline size_t modhdr_cmd(struct mbox *m, uint16_t uid,
				unsigned int type, unsigned int n)
{
	unsigned int i;

	mbox_init(m, PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT, uid, 0);
	prm_set(m->in, PRM_MODHDR_TABLE_TYPE, type);
	prm_set(m->in, PRM_MODHDR_NUM_ACTIONS, n);
	for (i = 0; i < n; i++)
		prm_set(m->in + PRM_MODHDR_ACTIONS_BYTE +
				i * PRM_MODHDR_ACTION_LEN,
			PRM_MODHDR_ACTION_TYPE, PRM_MODHDR_SET);
	return PRM_MODHDR_ACTIONS_BYTE + n * PRM_MODHDR_ACTION_LEN;
}

/* A NIC flow table of type at level, 2^4 entries. */
static inline uint32_t make_ft(struct emu_fw *fw, uint16_t uid,
			       unsigned int type, unsigned int level)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_CREATE_FLOW_TABLE, uid, 0);
	prm_set(m.in, PRM_FS_TABLE_TYPE, type);
	prm_set(m.in, PRM_FTC_LEVEL, level);
	prm_set(m.in, PRM_FTC_LOG_SIZE, 4);
	return alloc_id(fw, &m, PRM_FS_IN_LEN, PRM_FT_OUT_ID);
}

/* A command on the table (type, id): destroy, query, create a group. */
static inline void fs_cmd(struct mbox *m, uint16_t opcode, uint16_t uid,
			  unsigned int type, uint32_t table)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_FS_TABLE_TYPE, type);
	prm_set(m->in, PRM_FS_TABLE_ID, table);
}

#endif
