// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * CQs on UMEMs: CREATE_CQ checks the UMEM of its ring (and of its
 * doorbell) for life, uid and size, QUERY_CQ returns the context as
 * created, and a UMEM a CQ uses cannot be destroyed until the CQ is.
 */
#include <stdio.h>

#include "check.h"
#include "fw_test_objs.h"

/* CREATE_CQ of 2^log_size 64-byte CQEs at offset in umem, no doorbell. */
static void cq_cmd(struct mbox *m, uint16_t uid, uint32_t umem,
		   uint64_t offset, unsigned int log_size)
{
	mbox_init(m, PRM_OP_CREATE_CQ, uid, 0);
	prm_set(m->in, PRM_CQC_LOG_CQ_SIZE, log_size);
	prm_set(m->in, PRM_CQC_UAR_PAGE, 0x21);
	prm_set(m->in, PRM_CQC_C_EQN, 7);
	prm_set64(m->in, PRM_CQ_UMEM_OFFSET, offset);
	prm_set(m->in, PRM_CQ_UMEM_ID, umem);
	prm_set(m->in, PRM_CQ_UMEM_VALID, 1);
}

static int create_cq(struct emu_fw *fw, struct mbox *m, uint32_t *cqn)
{
	int st = run(fw, m, PRM_CQ_IN_LEN, 16);

	*cqn = st ? 0 : prm_get(m->out, PRM_OUT_OBJN);
	return st;
}

/* CREATE_CQ of m is refused (BAD_PARAM) with this syndrome. */
static void check_refused(struct emu_fw *fw, struct mbox *m, uint32_t synd)
{
	uint32_t cqn;

	CHECK_EQ(create_cq(fw, m, &cqn), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(m), synd);
}

static int cq_op(struct emu_fw *fw, struct mbox *m, uint16_t opcode,
		 uint16_t uid, uint32_t cqn)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_IN_OBJN, cqn);
	return run(fw, m, 16, opcode == PRM_OP_QUERY_CQ ?
			       PRM_QUERY_CQ_OUT_LEN : 16);
}

static void test_cq_on_umem(struct emu_fw *fw, uint16_t uid)
{
	uint32_t umem = make_umem(fw, uid, 2), cqn, cqn2, synd;
	struct mbox m;

	REQUIRE(umem);
	/* 64 CQEs of 64 bytes: the first page; a doorbell at 4096 + 64. */
	cq_cmd(&m, uid, umem, 0, 6);
	prm_set(m.in, PRM_CQC_DBR_UMEM_VALID, 1);
	prm_set(m.in, PRM_CQC_DBR_UMEM_ID, umem);
	prm_set64(m.in, PRM_CQC_DBR_ADDR, 4096 + 64);
	/* Firmware's own fields: whatever the creator wrote is reset. */
	prm_set(m.in, PRM_CQC_STATUS, 0xf);
	CHECK_EQ(create_cq(fw, &m, &cqn), 0);
	CHECK(cqn != 0);

	CHECK_EQ(cq_op(fw, &m, PRM_OP_QUERY_CQ, uid, cqn), 0);
	CHECK_EQ(prm_get(m.out, PRM_CQC_LOG_CQ_SIZE), 6);
	CHECK_EQ(prm_get(m.out, PRM_CQC_UAR_PAGE), 0x21);
	CHECK_EQ(prm_get(m.out, PRM_CQC_C_EQN), 7);
	CHECK_EQ(prm_get(m.out, PRM_CQC_DBR_UMEM_VALID), 1);
	CHECK_EQ(prm_get(m.out, PRM_CQC_DBR_UMEM_ID), umem);
	CHECK_EQ(prm_get64(m.out, PRM_CQC_DBR_ADDR), 4096 + 64);
	CHECK_EQ(prm_get(m.out, PRM_CQC_STATUS), 0);
	/* An output too short for the context. */
	mbox_init(&m, PRM_OP_QUERY_CQ, uid, 0);
	prm_set(m.in, PRM_IN_OBJN, cqn);
	CHECK_EQ(run(fw, &m, 16, 16 + PRM_CQ_CTX_LEN - 1),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);

	/* A second CQ in the second page of the same UMEM. */
	cq_cmd(&m, uid, umem, 4096, 6);
	CHECK_EQ(create_cq(fw, &m, &cqn2), 0);
	CHECK(cqn2 != 0 && cqn2 != cqn);

	/* The UMEM is busy while either CQ lives. */
	CHECK_EQ(destroy_umem(fw, uid, umem, &synd), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(synd, EMU_FW_SYND_BUSY);
	CHECK_EQ(cq_op(fw, &m, PRM_OP_DESTROY_CQ, uid, cqn), 0);
	CHECK_EQ(destroy_umem(fw, uid, umem, NULL), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(cq_op(fw, &m, PRM_OP_DESTROY_CQ, uid, cqn2), 0);
	/* Gone CQs: query and destroy find nothing. */
	CHECK_EQ(cq_op(fw, &m, PRM_OP_QUERY_CQ, uid, cqn),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(cq_op(fw, &m, PRM_OP_DESTROY_CQ, uid, cqn2),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(destroy_umem(fw, uid, umem, NULL), 0);
	CHECK_EQ(emu_fw_object_count(fw, uid), 0);
}

static void test_cq_refused(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t umem = make_umem(fw, uid, 1), mine, cqn;
	struct mbox m;

	REQUIRE(umem);
	/* A UMEM that is no live object. */
	cq_cmd(&m, uid, umem + 1000, 0, 6);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_MISSING);
	/* Another uid's UMEM, and a kernel CQ on a user's UMEM. */
	cq_cmd(&m, other, umem, 0, 6);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_UID);
	cq_cmd(&m, 0, umem, 0, 6);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_UID);
	/* 128 CQEs of 64 bytes need 8K; 64 of 128 bytes too. */
	cq_cmd(&m, uid, umem, 0, 7);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_SIZE);
	cq_cmd(&m, uid, umem, 0, 6);
	prm_set(m.in, PRM_CQC_CQE_SZ, 1);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_SIZE);
	/* Fits at 0, not 64 bytes in; an offset past the end. */
	cq_cmd(&m, uid, umem, 64, 6);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_SIZE);
	cq_cmd(&m, uid, umem, ~0ull, 0);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_SIZE);
	/* A doorbell past the end of its UMEM, a foreign doorbell UMEM. */
	cq_cmd(&m, uid, umem, 0, 6);
	prm_set(m.in, PRM_CQC_DBR_UMEM_VALID, 1);
	prm_set(m.in, PRM_CQC_DBR_UMEM_ID, umem);
	prm_set64(m.in, PRM_CQC_DBR_ADDR, 4096 - 4);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_SIZE);
	mine = make_umem(fw, other, 1);
	REQUIRE(mine);
	prm_set(m.in, PRM_CQC_DBR_UMEM_ID, mine);
	prm_set64(m.in, PRM_CQC_DBR_ADDR, 0);
	check_refused(fw, &m, EMU_FW_SYND_UMEM_UID);
	/* No UMEM, and no physical address list after the mailbox. */
	cq_cmd(&m, uid, umem, 0, 6);
	prm_set(m.in, PRM_CQ_UMEM_VALID, 0);
	check_refused(fw, &m, EMU_FW_SYND_PAS_SHORT);
	/* A CQE size of 3. */
	cq_cmd(&m, uid, umem, 0, 0);
	prm_set(m.in, PRM_CQC_CQE_SZ, 3);
	CHECK_EQ(create_cq(fw, &m, &cqn), EMU_FW_STATUS_BAD_PARAM);
	/* A mailbox shorter than create_cq_in. */
	cq_cmd(&m, uid, umem, 0, 6);
	CHECK_EQ(run(fw, &m, PRM_CQ_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);

	/* Refused commands took no reference: the UMEMs go at once. */
	CHECK_EQ(destroy_umem(fw, uid, umem, NULL), 0);
	CHECK_EQ(destroy_umem(fw, other, mine, NULL), 0);
}

/* Another uid can neither query nor destroy a CQ. */
static void test_cq_owner(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t umem = make_umem(fw, uid, 1), cqn;
	struct mbox m;

	REQUIRE(umem);
	cq_cmd(&m, uid, umem, 0, 6);
	REQUIRE(create_cq(fw, &m, &cqn) == 0);
	CHECK_EQ(cq_op(fw, &m, PRM_OP_QUERY_CQ, other, cqn),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	CHECK_EQ(cq_op(fw, &m, PRM_OP_DESTROY_CQ, other, cqn),
		 EMU_FW_STATUS_BAD_PARAM);
	/* The user context that owns the CQ and the UMEM is busy. */
	CHECK_EQ(destroy_uctx(fw, uid), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(emu_fw_object_count(fw, uid), 2);
	CHECK_EQ(cq_op(fw, &m, PRM_OP_DESTROY_CQ, uid, cqn), 0);
	CHECK_EQ(destroy_umem(fw, uid, umem, NULL), 0);
}

int main(void)
{
	uint16_t uid, other;
	struct emu_fw *fw = fw_two_uctx(&uid, &other);

	test_cq_on_umem(fw, uid);
	test_cq_refused(fw, uid, other);
	test_cq_owner(fw, uid, other);
	CHECK_EQ(emu_fw_object_count(fw, uid), 0);
	CHECK_EQ(emu_fw_object_count(fw, other), 0);
	CHECK_EQ(destroy_uctx(fw, uid), 0);
	CHECK_EQ(destroy_uctx(fw, other), 0);
	/* A CQ left behind is freed with the device (valgrind sees). */
	uid = make_uctx(fw);
	REQUIRE(uid);
	{
		uint32_t umem = make_umem(fw, uid, 1), cqn;
		struct mbox m;

		cq_cmd(&m, uid, umem, 0, 6);
		CHECK_EQ(create_cq(fw, &m, &cqn), 0);
	}
	emu_fw_free(fw);
	return check_done("firmware_cq");
}
