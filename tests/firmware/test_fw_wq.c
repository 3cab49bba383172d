// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * RQs, SQs, TISes, TIRs and RQTs: each made on the objects it names,
 * queried as made, modified where the PRM lets it change (queue states,
 * TIS and TIR fields, the RQT's list), refused with the status and
 * syndrome of each failed check, and the objects under another refused
 * destruction (RES_BUSY) until what uses them is gone.
 */
#include <stdio.h>

#include "check.h"
#include "fw_test_objs.h"

/* The objects every test here builds on, made by uid. */
struct base {
	uint32_t umem, pd, td, cq;
};

static void make_base(struct emu_fw *fw, uint16_t uid, struct base *b)
{
	b->umem = make_umem(fw, uid, 4);
	b->pd = make_simple(fw, uid, PRM_OP_ALLOC_PD);
	b->td = make_simple(fw, uid, PRM_OP_ALLOC_TRANSPORT_DOMAIN);
	b->cq = make_cq(fw, uid, b->umem, 0);
	REQUIRE(b->umem && b->pd && b->td && b->cq);
}

static void drop_base(struct emu_fw *fw, uint16_t uid, const struct base *b)
{
	struct mbox m;

	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_CQ, uid, b->cq, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_PD, uid, b->pd, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_TRANSPORT_DOMAIN, uid, b->td,
			 16),
		 0);
	CHECK_EQ(destroy_umem(fw, uid, b->umem, NULL), 0);
}

/* Runs MODIFY_RQ or MODIFY_SQ from state cur to state to. */
static int modify_wq(struct emu_fw *fw, struct mbox *m, uint16_t opcode,
		     uint16_t uid, uint32_t id, unsigned int cur,
		     unsigned int to)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_IN_OBJN, id);
	prm_set(m->in, PRM_MODIFY_WQ_CUR_STATE, cur);
	prm_set(m->in, PRM_WQC_STATE, to);
	return run(fw, m, PRM_OBJ_IN_LEN, 16);
}

static unsigned int wq_state(struct emu_fw *fw, uint16_t opcode,
			     uint16_t uid, uint32_t id)
{
	struct mbox m;

	if (obj_cmd(fw, &m, opcode, uid, id, PRM_OBJ_IN_LEN))
		return 0xff;
	return prm_get(m.out, PRM_WQC_STATE);
}

static void test_rq_states(struct emu_fw *fw, uint16_t uid,
			   const struct base *b)
{
	struct mbox m;
	uint32_t rq;

	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	prm_set(m.in, PRM_RQC_COUNTER_SET_ID, 3);
	rq = created(fw, &m, PRM_OBJ_IN_LEN);
	REQUIRE(rq);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_RQ, uid, rq, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_WQC_CQN), b->cq);
	CHECK_EQ(prm_get(m.out, PRM_WQ_PD), b->pd);
	CHECK_EQ(prm_get(m.out, PRM_WQ_UMEM_ID), b->umem);
	CHECK_EQ(prm_get(m.out, PRM_RQC_COUNTER_SET_ID), 3);
	CHECK_EQ(prm_get(m.out, PRM_WQC_STATE), PRM_WQ_STATE_RST);

	/* RST -> RDY, RDY -> ERR, ERR -> RST, RST -> RDY. */
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 0, 1), 0);
	CHECK_EQ(wq_state(fw, PRM_OP_QUERY_RQ, uid, rq), PRM_WQ_STATE_RDY);
	/* The caller's idea of the current state must be right. */
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 0, 1),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_STATE);
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 1, 3), 0);
	/* No way from ERR but back to RST; 2 is no state. */
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 3, 1),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 3, 2),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	CHECK_EQ(wq_state(fw, PRM_OP_QUERY_RQ, uid, rq), PRM_WQ_STATE_ERR);
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 3, 0), 0);
	/* With the bitmask: the counter set changes with the state. */
	mbox_init(&m, PRM_OP_MODIFY_RQ, uid, 0);
	prm_set(m.in, PRM_IN_OBJN, rq);
	prm_set(m.in, PRM_MODIFY_WQ_CUR_STATE, 0);
	prm_set(m.in, PRM_WQC_STATE, 1);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_RQ_COUNTER_SET_ID);
	prm_set(m.in, PRM_RQC_COUNTER_SET_ID, 9);
	CHECK_EQ(run(fw, &m, PRM_OBJ_IN_LEN, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_RQ, uid, rq, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_RQC_COUNTER_SET_ID), 9);
	CHECK_EQ(prm_get(m.out, PRM_WQC_STATE), PRM_WQ_STATE_RDY);
	/* An unknown bitmask bit; a short mailbox. */
	modify_wq(fw, &m, PRM_OP_MODIFY_RQ, uid, rq, 1, 1);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, 1 << 7);
	CHECK_EQ(run(fw, &m, PRM_OBJ_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(run(fw, &m, PRM_OBJ_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq, 16), 0);
}

/*
 * The whole receive and send side, then every destroy that would leave
 * a user without its object, then the right order.
 */
static void test_chain(struct emu_fw *fw, uint16_t uid, const struct base *b)
{
	uint32_t rq, rq2, sq, tis, tir, tir2, rqt, rqs[2];
	struct mbox m;
	uint64_t icm;

	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	rq = created(fw, &m, PRM_OBJ_IN_LEN);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 5120);
	rq2 = created(fw, &m, PRM_OBJ_IN_LEN);
	tis_cmd(&m, uid, b->td);
	prm_set(m.in, PRM_TISC_PRIO, 5);
	tis = created(fw, &m, PRM_TIS_IN_LEN);
	REQUIRE(rq && rq2 && tis);
	wq_cmd(&m, PRM_OP_CREATE_SQ, uid, b->cq, b->pd, tis, b->umem, 8192);
	/* Doorbell record in the last page. */
	prm_set(m.in, PRM_WQ_DBR_UMEM_VALID, 1);
	prm_set(m.in, PRM_WQ_DBR_UMEM_ID, b->umem);
	prm_set64(m.in, PRM_WQ_DBR_ADDR, 3 * 4096);
	sq = created(fw, &m, PRM_OBJ_IN_LEN);
	REQUIRE(sq);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_SQ, uid, sq, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_SQC_TIS_NUM_0), tis);
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_SQ, uid, sq, 0, 1), 0);
	CHECK_EQ(wq_state(fw, PRM_OP_QUERY_SQ, uid, sq), PRM_WQ_STATE_RDY);

	/* TIS: query, modify the priority. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_TIS, uid, tis,
			 PRM_QUERY_TIS_OUT_LEN),
		 0);
	CHECK_EQ(prm_get(m.out + PRM_QUERY_TIS_CTX_BYTE - PRM_OBJ_CTX_BYTE,
			 PRM_TISC_TRANSPORT_DOMAIN),
		 b->td);
	CHECK_EQ(prm_get(m.out + PRM_QUERY_TIS_CTX_BYTE - PRM_OBJ_CTX_BYTE,
			 PRM_TISC_PRIO),
		 5);
	tis_cmd(&m, uid, 0);
	prm_set(m.in, PRM_HDR_OPCODE, PRM_OP_MODIFY_TIS);
	prm_set(m.in, PRM_IN_OBJN, tis);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_TIS_PRIO);
	prm_set(m.in, PRM_TISC_PRIO, 2);
	CHECK_EQ(run(fw, &m, PRM_TIS_IN_LEN, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_TIS, uid, tis,
			 PRM_QUERY_TIS_OUT_LEN),
		 0);
	CHECK_EQ(prm_get(m.out + PRM_QUERY_TIS_CTX_BYTE - PRM_OBJ_CTX_BYTE,
			 PRM_TISC_PRIO),
		 2);
	CHECK_EQ(prm_get(m.out + PRM_QUERY_TIS_CTX_BYTE - PRM_OBJ_CTX_BYTE,
			 PRM_TISC_TRANSPORT_DOMAIN),
		 b->td);

	/* A direct TIR answers its ICM address; query shows its RQ. */
	tir_cmd(&m, uid, b->td, rq, 0);
	REQUIRE(run(fw, &m, PRM_OBJ_IN_LEN, 16) == 0);
	tir = prm_get(m.out, PRM_OUT_OBJN);
	icm = (uint64_t)prm_get(m.out, PRM_TIR_OUT_ICM_63_40) << 40 |
	      (uint64_t)prm_get(m.out, PRM_TIR_OUT_ICM_39_32) << 32 |
	      prm_get(m.out, PRM_TIR_OUT_ICM_31_0);
	CHECK(tir != 0);
	CHECK(icm != 0);
	CHECK_EQ(icm >> 40, emu_fw_vhca_id(fw));
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_TIR, uid, tir,
			 PRM_OBJ_OUT_LEN),
		 0);
	CHECK_EQ(prm_get(m.out, PRM_TIRC_INLINE_RQN), rq);
	CHECK_EQ(prm_get(m.out, PRM_TIRC_TRANSPORT_DOMAIN), b->td);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_TIR, uid, tir,
			 PRM_OBJ_OUT_LEN - 1),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);

	/* An RQT of both RQs, an indirect TIR over it. */
	rqs[0] = rq;
	rqs[1] = rq2;
	rqt = created(fw, &m, rqt_cmd(&m, PRM_OP_CREATE_RQT, uid, 4, rqs, 2));
	REQUIRE(rqt);
	tir_cmd(&m, uid, b->td, 0, rqt);
	tir2 = created(fw, &m, PRM_OBJ_IN_LEN);
	REQUIRE(tir2);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_RQT, uid, rqt,
			 PRM_RQT_LIST_BYTE + 2 * PRM_RQT_ENTRY_LEN),
		 0);
	CHECK_FIELDS(m.out, FIELD(PRM_RQTC_ACTUAL_SIZE, 2),
		     FIELD(PRM_RQTC_MAX_SIZE, 4),
		     FIELD_AT(PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN,
			      PRM_RQT_ENTRY_RQN, rq2));
	/* The output must hold the list. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_RQT, uid, rqt,
			 PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);

	/* Nothing under another object goes first. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_CQ, uid, b->cq, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BUSY);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq2, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQT, uid, rqt, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIS, uid, tis, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_PD, uid, b->pd, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_TRANSPORT_DOMAIN, uid, b->td,
			 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(destroy_umem(fw, uid, b->umem, NULL), EMU_FW_STATUS_RES_BUSY);

	/* MODIFY_RQT to rq2 alone lets rq go once the direct TIR has. */
	rqt_cmd(&m, PRM_OP_MODIFY_RQT, uid, 0, &rq2, 1);
	prm_set(m.in, PRM_IN_OBJN, rqt);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_RQT_LIST);
	CHECK_EQ(run(fw, &m, PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN, 16), 0);
	/* More than the table was made for. */
	rqt_cmd(&m, PRM_OP_MODIFY_RQT, uid, 0, rqs, 2);
	prm_set(m.in, PRM_IN_OBJN, rqt);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_RQT_LIST);
	prm_set(m.in, PRM_RQTC_ACTUAL_SIZE, 5);
	CHECK_EQ(run(fw, &m, PRM_RQT_LIST_BYTE + 5 * PRM_RQT_ENTRY_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIR, uid, tir, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq2, 16),
		 EMU_FW_STATUS_RES_BUSY);

	/* The right order. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIR, uid, tir2, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQT, uid, rqt, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq2, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_SQ, uid, sq, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIS, uid, tis, 16), 0);
	/* Gone: query and destroy find nothing. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_TIR, uid, tir,
			 PRM_OBJ_OUT_LEN),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_NO_OBJECT);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_SQ, uid, sq, 16),
		 EMU_FW_STATUS_BAD_RES_STATE);
}

/* Each check of the creates, with its status and syndrome. */
static void test_refused(struct emu_fw *fw, uint16_t uid, uint16_t other,
			 const struct base *b)
{
	struct base ob;
	struct mbox m;
	uint32_t rq, rqt, dead = 0xfff0;

	make_base(fw, other, &ob);
	/* A CQ that is not live, another uid's CQ, PD, UMEM, TD. */
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, dead, b->pd, 0, b->umem, 4096);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_OUT_STATUS), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, ob.cq, b->pd, 0, b->umem, 4096);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, ob.pd, 0, b->umem, 4096);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, ob.umem, 4096);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UMEM_UID);
	/* A ring past the UMEM's end. */
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem,
	       4 * 4096 - 512);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UMEM_SIZE);
	/* Reserved bytes, a state other than RST, a hairpin. */
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	m.in[20] = 1;
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_OUT_STATUS), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_RESERVED);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	prm_set(m.in, PRM_WQC_STATE, PRM_WQ_STATE_RDY);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	/*
	 * No UMEM: the ring (64 WQEs of 64 bytes, 64 bytes into its first
	 * page) is in the pages listed after the context, two of 4 KB;
	 * one entry is too short a list, two make the RQ.
	 */
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	prm_set(m.in, PRM_WQ_UMEM_VALID, 0);
	prm_set(m.in, PRM_WQ_LOG_SZ, 6);
	prm_set(m.in, PRM_WQ_PAGE_OFFSET, 1);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_PAS_SHORT);
	CHECK_EQ(created(fw, &m, PRM_WQ_PAS_BYTE + PRM_PAS_ENTRY_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_PAS_SHORT);
	rq = created(fw, &m, PRM_WQ_PAS_BYTE + 2 * PRM_PAS_ENTRY_LEN);
	CHECK(rq != 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq, 16), 0);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	prm_set(m.in, PRM_WQC_HAIRPIN, 1);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	/* A mailbox shorter than create_rq_in. */
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	CHECK_EQ(run(fw, &m, PRM_OBJ_IN_LEN - 4, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	/* An SQ without its TIS, with two. */
	wq_cmd(&m, PRM_OP_CREATE_SQ, uid, b->cq, b->pd, dead, b->umem, 4096);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);
	prm_set(m.in, PRM_SQC_TIS_LST_SZ, 2);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	/* A TIS in another uid's transport domain. */
	tis_cmd(&m, uid, ob.td);
	CHECK_EQ(created(fw, &m, PRM_TIS_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	tis_cmd(&m, uid, b->td);
	CHECK_EQ(run(fw, &m, PRM_TIS_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);

	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b->cq, b->pd, 0, b->umem, 4096);
	rq = created(fw, &m, PRM_OBJ_IN_LEN);
	REQUIRE(rq);
	/* TIRs: on no RQ, a dispatch type 2, another uid's. */
	tir_cmd(&m, uid, b->td, dead, 0);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);
	tir_cmd(&m, uid, b->td, rq, 0);
	prm_set(m.in, PRM_TIRC_DISP_TYPE, 2);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	tir_cmd(&m, other, ob.td, rq, 0);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	/* An indirect TIR on an RQ number (no such RQT). */
	tir_cmd(&m, uid, b->td, 0, rq);
	CHECK_EQ(created(fw, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);

	/* RQTs: a list beyond the mailbox, larger than max, empty. */
	rqt_cmd(&m, PRM_OP_CREATE_RQT, uid, 4, &rq, 1);
	prm_set(m.in, PRM_RQTC_ACTUAL_SIZE, 3);
	CHECK_EQ(run(fw, &m, PRM_RQT_LIST_BYTE + 2 * PRM_RQT_ENTRY_LEN, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	rqt_cmd(&m, PRM_OP_CREATE_RQT, uid, 1, &rq, 1);
	prm_set(m.in, PRM_RQTC_ACTUAL_SIZE, 2);
	CHECK_EQ(run(fw, &m, PRM_RQT_LIST_BYTE + 2 * PRM_RQT_ENTRY_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	rqt_cmd(&m, PRM_OP_CREATE_RQT, uid, 1 << 12, &rq, 1);
	CHECK_EQ(run(fw, &m, PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	/* Another uid's RQ in the list. */
	rqt_cmd(&m, PRM_OP_CREATE_RQT, other, 1, &rq, 1);
	CHECK_EQ(run(fw, &m, PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	rqt = created(fw, &m, rqt_cmd(&m, PRM_OP_CREATE_RQT, uid, 1, &rq, 1));
	REQUIRE(rqt);
	/* Another uid can neither query, modify nor destroy. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_QUERY_RQ, other, rq, PRM_OBJ_IN_LEN),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	CHECK_EQ(modify_wq(fw, &m, PRM_OP_MODIFY_RQ, other, rq, 0, 1),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQT, other, rqt, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQT, uid, rqt, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq, 16), 0);
	drop_base(fw, other, &ob);
}

int main(void)
{
	uint16_t uid, other;
	struct emu_fw *fw = fw_two_uctx(&uid, &other);
	struct base b;

	make_base(fw, uid, &b);
	test_rq_states(fw, uid, &b);
	test_chain(fw, uid, &b);
	test_refused(fw, uid, other, &b);
	/* Refused creates took no reference: the base goes at once. */
	drop_base(fw, uid, &b);
	CHECK_EQ(emu_fw_object_count(fw, uid), 0);
	CHECK_EQ(emu_fw_object_count(fw, other), 0);
	CHECK_EQ(destroy_uctx(fw, other), 0);
	/* A chain left behind is freed with the device (valgrind sees). */
	make_base(fw, uid, &b);
	{
		struct mbox m;

		wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b.cq, b.pd, 0, b.umem, 4096);
		tir_cmd(&m, uid, b.td, created(fw, &m, PRM_OBJ_IN_LEN), 0);
		CHECK(created(fw, &m, PRM_OBJ_IN_LEN) != 0);
	}
	emu_fw_free(fw);
	return check_done("firmware_wq");
}
