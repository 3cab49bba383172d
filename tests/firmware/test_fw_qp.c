// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * QPs in the firmware model: CREATE_QP's checks (transport, PD, CQs, the
 * queues' memory as a page list or a UMEM), the state machine of the
 * transition commands with their required and optional context fields,
 * QUERY_QP returning what the commands set, the references a QP holds on
 * its PD, CQs and UMEM, and ownership by uid.  Verbs CQs (a page list,
 * no UMEM) and basic SRQs are made here too.
 */
#include <stdio.h>

#include "check.h"
#include "fw_test_util.h"

static uint32_t alloc_pd(struct emu_fw *fw, uint16_t uid)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_ALLOC_PD, uid, 0);
	if (run(fw, &m, 16, 16))
		return 0;
	return prm_get(m.out, PRM_OUT_OBJN);
}

static int simple_op(struct emu_fw *fw, uint16_t opcode, uint16_t uid,
		     uint32_t objn, uint32_t *synd)
{
	struct mbox m;
	int st;

	mbox_init(&m, opcode, uid, 0);
	prm_set(m.in, PRM_IN_OBJN, objn);
	st = run(fw, &m, 16, 16);
	if (synd)
		*synd = syndrome(&m);
	return st;
}

/* Destroys the QP, then the CQ and PD under it: each must go. */
static void drop_qp(struct emu_fw *fw, const char *what, uint16_t uid,
		    uint32_t qpn, uint32_t cqn, uint32_t pdn)
{
	static const uint16_t ops[] = {
		PRM_OP_DESTROY_QP, PRM_OP_DESTROY_CQ, PRM_OP_DEALLOC_PD,
	};
	const uint32_t ids[] = { qpn, cqn, pdn };
	unsigned int i;
	int st;

	for (i = 0; i < 3; i++) {
		st = simple_op(fw, ops[i], uid, ids[i], NULL);
		if (st)
			fprintf(stderr, "%s: opcode 0x%x on 0x%x\n", what,
				ops[i], ids[i]);
		CHECK_EQ(st, 0);
	}
}

/* A verbs CQ of 64 CQEs described by npas page list entries. */
static int make_cq(struct emu_fw *fw, uint16_t uid, unsigned int npas,
		   uint32_t *cqn)
{
	struct mbox m;
	unsigned int i;
	int st;

	mbox_init(&m, PRM_OP_CREATE_CQ, uid, 0);
	prm_set(m.in, PRM_CQC_LOG_CQ_SIZE, 6);
	for (i = 0; i < npas; i++)
		prm_set64(m.in + PRM_CQ_PAS_BYTE + PRM_PAS_ENTRY_LEN * i,
			  PRM_PAS_ADDR, 0x100000000ull + i * 4096);
	st = run(fw, &m, PRM_CQ_PAS_BYTE + PRM_PAS_ENTRY_LEN * npas, 16);
	*cqn = st ? 0 : prm_get(m.out, PRM_OUT_OBJN);
	if (st)
		*cqn = syndrome(&m);
	return st;
}

/* An RC QP of 8 send and 8 receive WQEs of 64 bytes: 1 KiB, one page. */
static void qp_cmd(struct mbox *m, uint16_t uid, uint32_t pdn, uint32_t cqn)
{
	mbox_init(m, PRM_OP_CREATE_QP, uid, 0);
	SET_FIELDS(m->in, FIELD(PRM_QPC_ST, PRM_QP_ST_RC),
		   FIELD(PRM_QPC_PM_STATE, PRM_QP_PM_MIGRATED),
		   FIELD(PRM_QPC_PD, pdn), FIELD(PRM_QPC_LOG_SQ_SIZE, 3),
		   FIELD(PRM_QPC_LOG_RQ_SIZE, 3),
		   FIELD(PRM_QPC_LOG_RQ_STRIDE, 2),
		   FIELD(PRM_QPC_CQN_SND, cqn), FIELD(PRM_QPC_CQN_RCV, cqn));
	prm_set64(m->in + PRM_QP_PAS_BYTE, PRM_PAS_ADDR, 0x100000000ull);
}

static int create_qp(struct emu_fw *fw, struct mbox *m, unsigned int npas,
		     uint32_t *qpn)
{
	int st = run(fw, m, PRM_QP_PAS_BYTE + PRM_PAS_ENTRY_LEN * npas, 16);

	*qpn = st ? 0 : prm_get(m->out, PRM_OUT_OBJN);
	return st;
}

static int query_qp(struct emu_fw *fw, uint16_t uid, uint32_t qpn,
		    struct mbox *m)
{
	mbox_init(m, PRM_OP_QUERY_QP, uid, 0);
	prm_set(m->in, PRM_IN_OBJN, qpn);
	return run(fw, m, 16, PRM_QUERY_QP_OUT_LEN);
}

static uint32_t state_of(struct emu_fw *fw, uint16_t uid, uint32_t qpn)
{
	struct mbox m;

	if (query_qp(fw, uid, qpn, &m))
		return 0xff;
	return prm_get(m.out, PRM_QPC_STATE);
}

/* A transition command with its context fields set in m->in already. */
static int transition(struct emu_fw *fw, struct mbox *m, uint16_t opcode,
		      uint16_t uid, uint32_t qpn, uint32_t optpar)
{
	prm_set(m->in, PRM_HDR_OPCODE, opcode);
	prm_set(m->in, PRM_HDR_UID, uid);
	prm_set(m->in, PRM_IN_OBJN, qpn);
	prm_set(m->in, PRM_QP_OPT_PARAM_MASK, optpar);
	return run(fw, m, PRM_QP_MODIFY_IN_LEN, 16);
}

static void test_verbs_cq(struct emu_fw *fw)
{
	uint32_t cqn;

	struct mbox m;

	/* 64 CQEs of 64 bytes: one 4 KiB page */
	CHECK_EQ(make_cq(fw, 0, 1, &cqn), 0);
	CHECK(cqn != 0);
	/* moderation: only the fields the select names */
	mbox_init(&m, PRM_OP_MODIFY_CQ, 0, PRM_MODIFY_CQ_OP_MODIFY);
	prm_set(m.in, PRM_IN_OBJN, cqn);
	prm_set(m.in, PRM_MODIFY_CQ_FIELD_SELECT, PRM_MODIFY_CQ_PERIOD);
	prm_set(m.in, PRM_CQC_CQ_PERIOD, 100);
	prm_set(m.in, PRM_CQC_CQ_MAX_COUNT, 16);
	CHECK_EQ(run(fw, &m, PRM_MODIFY_CQ_IN_LEN, 16), 0);
	/* resizing is not offered */
	prm_set(m.in, PRM_HDR_OP_MOD, PRM_MODIFY_CQ_OP_RESIZE);
	CHECK_EQ(run(fw, &m, PRM_MODIFY_CQ_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	mbox_init(&m, PRM_OP_QUERY_CQ, 0, 0);
	prm_set(m.in, PRM_IN_OBJN, cqn);
	CHECK_EQ(run(fw, &m, 16, PRM_QUERY_CQ_OUT_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_CQC_CQ_PERIOD), 100);
	CHECK_EQ(prm_get(m.out, PRM_CQC_CQ_MAX_COUNT), 0);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_CQ, 0, cqn, NULL), 0);
	CHECK_EQ(make_cq(fw, 0, 0, &cqn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(cqn, EMU_FW_SYND_PAS_SHORT);
}

static void test_lifecycle(struct emu_fw *fw, uint16_t uid)
{
	uint32_t pdn = alloc_pd(fw, uid), cqn, qpn, synd;
	struct mbox m;

	REQUIRE(pdn);
	REQUIRE(make_cq(fw, uid, 1, &cqn) == 0);
	qp_cmd(&m, uid, pdn, cqn);
	/* the mailbox says INIT: a new QP is in RESET all the same */
	prm_set(m.in, PRM_QPC_STATE, PRM_QP_STATE_INIT);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), 0);
	CHECK(qpn >= 0x100);
	CHECK_EQ(state_of(fw, uid, qpn), PRM_QP_STATE_RST);
	CHECK_EQ(query_qp(fw, uid, qpn, &m), 0);
	CHECK_EQ(prm_get(m.out, PRM_QPC_PD), pdn);
	CHECK_EQ(prm_get(m.out, PRM_QPC_CQN_SND), cqn);

	/* INIT2RTR from RESET: the wrong state */
	mbox_init(&m, 0, 0, 0);
	CHECK_EQ(transition(fw, &m, PRM_OP_INIT2RTR_QP, uid, qpn, 0),
		 EMU_FW_STATUS_BAD_QP_STATE);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_QP_STATE);
	/* RST2INIT takes port, P_Key index, rights, no optional ones */
	mbox_init(&m, 0, 0, 0);
	SET_FIELDS(m.in, FIELD(PRM_QPC_PRI_VHCA_PORT_NUM, 1),
		   FIELD(PRM_QPC_PRI_PKEY_INDEX, 3), FIELD(PRM_QPC_RRE, 1),
		   FIELD(PRM_QPC_REMOTE_QPN, 0x55));	/* not RST2INIT's */
	CHECK_EQ(transition(fw, &m, PRM_OP_RST2INIT_QP, uid, qpn,
			    PRM_QP_OPTPAR_Q_KEY), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_QP_OPTPAR);
	CHECK_EQ(run(fw, &m, PRM_QP_MODIFY_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	CHECK_EQ(transition(fw, &m, PRM_OP_RST2INIT_QP, uid, qpn, 0), 0);
	CHECK_EQ(query_qp(fw, uid, qpn, &m), 0);
	CHECK_FIELDS(m.out, FIELD(PRM_QPC_STATE, PRM_QP_STATE_INIT),
		     FIELD(PRM_QPC_PRI_VHCA_PORT_NUM, 1),
		     FIELD(PRM_QPC_PRI_PKEY_INDEX, 3), FIELD(PRM_QPC_RRE, 1),
		     FIELD(PRM_QPC_REMOTE_QPN, 0));
	/* INIT2INIT: only what opt_param_mask names */
	mbox_init(&m, 0, 0, 0);
	prm_set(m.in, PRM_QPC_PRI_PKEY_INDEX, 5);
	prm_set(m.in, PRM_QPC_RRE, 0);
	CHECK_EQ(transition(fw, &m, PRM_OP_INIT2INIT_QP, uid, qpn,
			    PRM_QP_OPTPAR_PKEY_INDEX), 0);
	CHECK_EQ(query_qp(fw, uid, qpn, &m), 0);
	CHECK_EQ(prm_get(m.out, PRM_QPC_PRI_PKEY_INDEX), 5);
	CHECK_EQ(prm_get(m.out, PRM_QPC_RRE), 1);
	/* INIT2RTR: the remote side, path and receive PSN */
	mbox_init(&m, 0, 0, 0);
	SET_FIELDS(m.in, FIELD(PRM_QPC_REMOTE_QPN, 0x1234),
		   FIELD(PRM_QPC_NEXT_RCV_PSN, 0x777), FIELD(PRM_QPC_MTU, 3),
		   FIELD(PRM_QPC_PRI_RLID, 9));
	CHECK_EQ(transition(fw, &m, PRM_OP_INIT2RTR_QP, uid, qpn, 0), 0);
	CHECK_EQ(state_of(fw, uid, qpn), PRM_QP_STATE_RTR);
	/* RTS2RTS from RTR: the wrong state; RTR2RTS */
	mbox_init(&m, 0, 0, 0);
	prm_set(m.in, PRM_QPC_NEXT_SEND_PSN, 0x999);
	prm_set(m.in, PRM_QPC_RETRY_COUNT, 7);
	CHECK_EQ(transition(fw, &m, PRM_OP_RTS2RTS_QP, uid, qpn, 0),
		 EMU_FW_STATUS_BAD_QP_STATE);
	CHECK_EQ(transition(fw, &m, PRM_OP_RTR2RTS_QP, uid, qpn, 0), 0);
	CHECK_EQ(query_qp(fw, uid, qpn, &m), 0);
	CHECK_FIELDS(m.out, FIELD(PRM_QPC_STATE, PRM_QP_STATE_RTS),
		     FIELD(PRM_QPC_REMOTE_QPN, 0x1234),
		     FIELD(PRM_QPC_NEXT_RCV_PSN, 0x777),
		     FIELD(PRM_QPC_NEXT_SEND_PSN, 0x999),
		     FIELD(PRM_QPC_RETRY_COUNT, 7), FIELD(PRM_QPC_MTU, 3),
		     FIELD(PRM_QPC_PRI_RLID, 9));
	/* SQERR2RTS: the QP never is in SQER */
	mbox_init(&m, 0, 0, 0);
	CHECK_EQ(transition(fw, &m, PRM_OP_SQERR2RTS_QP, uid, qpn, 0),
		 EMU_FW_STATUS_BAD_QP_STATE);
	/* the CQ, PD under the QP stay */
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_CQ, uid, cqn, &synd),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(synd, EMU_FW_SYND_BUSY);
	CHECK_EQ(simple_op(fw, PRM_OP_DEALLOC_PD, uid, pdn, &synd),
		 EMU_FW_STATUS_RES_BUSY);
	/* 2ERR, 2RST from anywhere */
	CHECK_EQ(simple_op(fw, PRM_OP_2ERR_QP, uid, qpn, NULL), 0);
	CHECK_EQ(state_of(fw, uid, qpn), PRM_QP_STATE_ERR);
	CHECK_EQ(simple_op(fw, PRM_OP_2ERR_QP, uid, qpn, NULL), 0);
	CHECK_EQ(simple_op(fw, PRM_OP_2RST_QP, uid, qpn, NULL), 0);
	CHECK_EQ(state_of(fw, uid, qpn), PRM_QP_STATE_RST);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_QP, uid, qpn, NULL), 0);
	CHECK_EQ(state_of(fw, uid, qpn), 0xff);
	CHECK_EQ(simple_op(fw, PRM_OP_2RST_QP, uid, qpn, &synd),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_CQ, uid, cqn, NULL), 0);
	CHECK_EQ(simple_op(fw, PRM_OP_DEALLOC_PD, uid, pdn, NULL), 0);
}

static void test_refused(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t pdn = alloc_pd(fw, uid), theirs = alloc_pd(fw, other);
	uint32_t cqn, their_cq, qpn;
	struct mbox m;

	REQUIRE(pdn && theirs);
	REQUIRE(make_cq(fw, uid, 1, &cqn) == 0);
	REQUIRE(make_cq(fw, other, 1, &their_cq) == 0);
	/* a transport the model does not have (DCI) */
	qp_cmd(&m, uid, pdn, cqn);
	prm_set(m.in, PRM_QPC_ST, 5);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	/* a UMR QP is the kernel's only (uid 0: test_umr_qp) */
	qp_cmd(&m, uid, pdn, cqn);
	prm_set(m.in, PRM_QPC_ST, PRM_QP_ST_REG_UMR);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	/* an RQ type the model has no object for (an SRQ) */
	qp_cmd(&m, uid, pdn, cqn);
	prm_set(m.in, PRM_QPC_RQ_TYPE, PRM_QP_RQ_SRQ);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), EMU_FW_STATUS_BAD_PARAM);
	/* another uid's PD, CQ; a dead PD */
	qp_cmd(&m, uid, theirs, cqn);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	qp_cmd(&m, uid, pdn, their_cq);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	qp_cmd(&m, uid, 0xfffff, cqn);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), EMU_FW_STATUS_BAD_RES_STATE);
	/* no page list for the queues */
	qp_cmd(&m, uid, pdn, cqn);
	CHECK_EQ(create_qp(fw, &m, 0, &qpn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_PAS_SHORT);
	/* no send queue, no receive queue: no CQ needed, no memory either */
	qp_cmd(&m, uid, pdn, 0);
	prm_set(m.in, PRM_QPC_NO_SQ, 1);
	prm_set(m.in, PRM_QPC_RQ_TYPE, PRM_QP_RQ_ZERO_LEN);
	CHECK_EQ(create_qp(fw, &m, 0, &qpn), 0);
	/* another uid may not touch the QP */
	CHECK_EQ(state_of(fw, other, qpn), 0xff);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_QP, other, qpn, NULL),
		 EMU_FW_STATUS_BAD_PARAM);
	/* refused creates took no reference */
	drop_qp(fw, "create", uid, qpn, cqn, pdn);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_CQ, other, their_cq, NULL), 0);
	CHECK_EQ(simple_op(fw, PRM_OP_DEALLOC_PD, other, theirs, NULL), 0);
}

/*
 * mlx5_ib's UMR QP (send queue only, made at the first memory
 * registration, PD 0): created and destroyed by the kernel's uid 0.
 */
static void test_umr_qp(struct emu_fw *fw)
{
	uint32_t pdn = alloc_pd(fw, 0), cqn, qpn;
	struct mbox m;

	REQUIRE(pdn && make_cq(fw, 0, 1, &cqn) == 0);
	qp_cmd(&m, 0, pdn, cqn);
	prm_set(m.in, PRM_QPC_ST, PRM_QP_ST_REG_UMR);
	prm_set(m.in, PRM_QPC_RQ_TYPE, PRM_QP_RQ_ZERO_LEN);
	prm_set(m.in, PRM_QPC_PD, 0);
	CHECK_EQ(create_qp(fw, &m, 1, &qpn), 0);
	CHECK_EQ(state_of(fw, 0, qpn), PRM_QP_STATE_RST);
	drop_qp(fw, "UMR", 0, qpn, cqn, pdn);
}

/* A QP whose queues are in a UMEM holds it. */
static void test_umem_qp(struct emu_fw *fw, uint16_t uid)
{
	uint32_t pdn = alloc_pd(fw, uid), cqn, qpn, umem;
	struct mbox m;

	REQUIRE(pdn);
	REQUIRE(make_cq(fw, uid, 1, &cqn) == 0);
	mbox_init(&m, PRM_OP_CREATE_UMEM, uid, 0);
	prm_set64(m.in, PRM_UMEM_NUM_MTT, 1);
	prm_set64(m.in + PRM_UMEM_MTT_BYTE, PRM_PAS_ADDR, 0x7f0000000000ull);
	REQUIRE(run(fw, &m, PRM_UMEM_MTT_BYTE + PRM_PAS_ENTRY_LEN, 16) == 0);
	umem = prm_get(m.out, PRM_UMEM_OUT_ID);
	qp_cmd(&m, uid, pdn, cqn);
	prm_set(m.in, PRM_QP_WQ_UMEM_VALID, 1);
	prm_set(m.in, PRM_QP_WQ_UMEM_ID, umem);
	/* 4 KiB of UMEM cannot hold 128 send WQEs (8 KiB) */
	prm_set(m.in, PRM_QPC_LOG_SQ_SIZE, 7);
	CHECK_EQ(create_qp(fw, &m, 0, &qpn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UMEM_SIZE);
	prm_set(m.in, PRM_QPC_LOG_SQ_SIZE, 3);
	CHECK_EQ(create_qp(fw, &m, 0, &qpn), 0);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_UMEM, uid, umem, NULL),
		 EMU_FW_STATUS_RES_BUSY);
	drop_qp(fw, "UMEM QP", uid, qpn, cqn, pdn);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_UMEM, uid, umem, NULL), 0);
}

/* Basic SRQs on a page list hold their PD. */
static void test_srq(struct emu_fw *fw, uint16_t uid)
{
	uint32_t pdn = alloc_pd(fw, uid), srqn, synd;
	struct mbox m;

	REQUIRE(pdn);
	/* 64 WQEs of 32 bytes: 2 KiB, one page */
	mbox_init(&m, PRM_OP_CREATE_SRQ, uid, 0);
	prm_set(m.in, PRM_SRQC_STATE, 1);	/* the firmware's to set */
	prm_set(m.in, PRM_SRQC_LOG_SRQ_SIZE, 6);
	prm_set(m.in, PRM_SRQC_LOG_RQ_STRIDE, 1);
	prm_set(m.in, PRM_SRQC_PD, pdn);
	CHECK_EQ(run(fw, &m, PRM_SRQ_PAS_BYTE, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_PAS_SHORT);
	prm_set64(m.in + PRM_SRQ_PAS_BYTE, PRM_PAS_ADDR, 0x100000000ull);
	CHECK_EQ(run(fw, &m, PRM_SRQ_PAS_BYTE + PRM_PAS_ENTRY_LEN, 16), 0);
	srqn = prm_get(m.out, PRM_OUT_OBJN);
	CHECK(srqn != 0);
	mbox_init(&m, PRM_OP_QUERY_SRQ, uid, 0);
	prm_set(m.in, PRM_IN_OBJN, srqn);
	CHECK_EQ(run(fw, &m, 16, PRM_QUERY_SRQ_OUT_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_SRQC_STATE), 0);
	CHECK_EQ(prm_get(m.out, PRM_SRQC_LOG_SRQ_SIZE), 6);
	CHECK_EQ(prm_get(m.out, PRM_SRQC_PD), pdn);
	CHECK_EQ(simple_op(fw, PRM_OP_DEALLOC_PD, uid, pdn, &synd),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_SRQ, uid, srqn, NULL), 0);
	CHECK_EQ(simple_op(fw, PRM_OP_DESTROY_SRQ, uid, srqn, NULL),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(simple_op(fw, PRM_OP_DEALLOC_PD, uid, pdn, NULL), 0);
}

int main(void)
{
	uint16_t uid, other;
	struct emu_fw *fw = fw_two_uctx(&uid, &other);

	test_verbs_cq(fw);
	test_lifecycle(fw, uid);
	test_lifecycle(fw, 0);	/* the kernel's own verbs QPs */
	test_refused(fw, uid, other);
	test_umr_qp(fw);
	test_umem_qp(fw, uid);
	test_srq(fw, uid);
	CHECK_EQ(emu_fw_object_count(fw, -1), 2);	/* the two contexts */
	CHECK_EQ(destroy_uctx(fw, uid), 0);
	CHECK_EQ(destroy_uctx(fw, other), 0);
	emu_fw_free(fw);
	return check_done("firmware_qp");
}
