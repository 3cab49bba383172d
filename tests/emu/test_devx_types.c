// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every DEVX object type the import treats specially, through the real
 * libmlx5 under mlx5-emu: TIS, RQ, SQ, TIR, RQT, flow table, flow group,
 * flow table entry, packet reformat, modify header, flow sampler and the
 * ASO objects.  Each is created, queried, modified where the PRM allows;
 * bad input fails with EREMOTEIO and the firmware's status and syndrome
 * in the output mailbox (the kernel copies it out since Linux 5.18); an
 * object something else uses refuses mlx5dv_devx_obj_destroy() with
 * EBUSY and stays usable, and the right order destroys everything.
 */
#include <stdio.h>

#include "devx_types_util.h"

#define NAME "emu_devx_types"

/* Runs the create m describes, which must fail: true when it did. */
static bool create_fails(struct ibv_context *ctx, struct mbox *m,
			 size_t inlen)
{
	struct mlx5dv_devx_obj *obj = dx_create(ctx, m, inlen, NULL, 0, 0);

	if (!obj)
		return true;
	mlx5dv_devx_obj_destroy(obj);
	return false;
}

/* The create failed in firmware with status and syndrome. */
#define CHECK_FW_FAIL(ctx, m, inlen, status, synd)                          \
	do {                                                                \
		CHECK_ERRNO(create_fails(ctx, m, inlen), EREMOTEIO);        \
		CHECK_EQ(prm_get((m)->out, PRM_OUT_STATUS), status);        \
		CHECK_EQ(prm_get((m)->out, PRM_OUT_SYNDROME), synd);        \
	} while (0)

static int wq_modify(struct mlx5dv_devx_obj *obj, struct mbox *m,
		     uint16_t opcode, uint32_t n, unsigned int cur,
		     unsigned int to)
{
	mbox_init(m, opcode, 0, 0);
	prm_set(m->in, PRM_IN_OBJN, n);
	prm_set(m->in, PRM_MODIFY_WQ_CUR_STATE, cur);
	prm_set(m->in, PRM_WQC_STATE, to);
	return dx_modify(obj, m, PRM_OBJ_IN_LEN);
}

static int obj_query(struct mlx5dv_devx_obj *obj, struct mbox *m,
		     uint16_t opcode, uint32_t n, size_t outlen)
{
	mbox_init(m, opcode, 0, 0);
	prm_set(m->in, PRM_IN_OBJN, n);
	return dx_query(obj, m, 16, outlen);
}

/* TIS, RQ, SQ, TIR, RQT: the receive and send side. */
static void test_transport(struct ibv_context *ctx, struct ibv_context *other)
{
	struct mlx5dv_devx_obj *tis, *rq, *rq2, *sq, *tir, *rqt, *tir2;
	uint32_t tisn, rqn, rqn2, sqn, tirn, rqtn, tirn2, rqs[2];
	struct dx_base b, ob;
	struct mbox m;

	dx_base_make(ctx, &b);
	tis_cmd(&m, 0, b.tdn);
	prm_set(m.in, PRM_TISC_PRIO, 4);
	tis = dx_create(ctx, &m, PRM_TIS_IN_LEN, &tisn, PRM_OUT_OBJN);
	rq = dx_wq(ctx, &b, PRM_OP_CREATE_RQ, 0, 0, &rqn);
	rq2 = dx_wq(ctx, &b, PRM_OP_CREATE_RQ, 0, 1, &rqn2);
	REQUIRE(tis && rq && rq2);
	sq = dx_wq(ctx, &b, PRM_OP_CREATE_SQ, tisn, 2, &sqn);
	REQUIRE(sq);

	/* Query as made; the queues move RST -> RDY. */
	CHECK_EQ(obj_query(tis, &m, PRM_OP_QUERY_TIS, tisn,
			   PRM_QUERY_TIS_OUT_LEN),
		 0);
	CHECK_EQ(prm_get(m.out + PRM_QUERY_TIS_CTX_BYTE - PRM_OBJ_CTX_BYTE,
			 PRM_TISC_PRIO),
		 4);
	CHECK_EQ(obj_query(rq, &m, PRM_OP_QUERY_RQ, rqn, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_WQC_CQN), b.cqn);
	CHECK_EQ(prm_get(m.out, PRM_WQC_STATE), PRM_WQ_STATE_RST);
	CHECK_EQ(wq_modify(rq, &m, PRM_OP_MODIFY_RQ, rqn, 0, 1), 0);
	CHECK_EQ(obj_query(rq, &m, PRM_OP_QUERY_RQ, rqn, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_WQC_STATE), PRM_WQ_STATE_RDY);
	CHECK_EQ(wq_modify(sq, &m, PRM_OP_MODIFY_SQ, sqn, 0, 1), 0);
	/* A modify from a state the queue is not in. */
	CHECK_EQ(wq_modify(sq, &m, PRM_OP_MODIFY_SQ, sqn, 0, 1), EREMOTEIO);
	CHECK_EQ(prm_get(m.out, PRM_OUT_STATUS), EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(prm_get(m.out, PRM_OUT_SYNDROME), EMU_FW_SYND_STATE);
	CHECK_EQ(obj_query(sq, &m, PRM_OP_QUERY_SQ, sqn, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_SQC_TIS_NUM_0), tisn);
	CHECK_EQ(prm_get(m.out, PRM_WQC_STATE), PRM_WQ_STATE_RDY);

	/* A direct TIR: libmlx5 reads its ICM address from the answer. */
	tir_cmd(&m, 0, b.tdn, rqn, 0);
	tir = dx_create(ctx, &m, PRM_OBJ_IN_LEN, &tirn, PRM_OUT_OBJN);
	REQUIRE(tir);
	CHECK(prm_get(m.out, PRM_TIR_OUT_ICM_63_40) ||
	      prm_get(m.out, PRM_TIR_OUT_ICM_39_32) ||
	      prm_get(m.out, PRM_TIR_OUT_ICM_31_0));
	CHECK_EQ(obj_query(tir, &m, PRM_OP_QUERY_TIR, tirn,
			   PRM_OBJ_OUT_LEN),
		 0);
	CHECK_EQ(prm_get(m.out, PRM_TIRC_INLINE_RQN), rqn);
	/* An RQT of both RQs, an indirect TIR over it. */
	rqs[0] = rqn;
	rqs[1] = rqn2;
	rqt = dx_create(ctx, &m, rqt_cmd(&m, PRM_OP_CREATE_RQT, 0, 2, rqs, 2),
			&rqtn, PRM_OUT_OBJN);
	REQUIRE(rqt);
	tir_cmd(&m, 0, b.tdn, 0, rqtn);
	tir2 = dx_create(ctx, &m, PRM_OBJ_IN_LEN, &tirn2, PRM_OUT_OBJN);
	REQUIRE(tir2);
	CHECK_EQ(obj_query(rqt, &m, PRM_OP_QUERY_RQT, rqtn,
			   PRM_RQT_LIST_BYTE + 2 * PRM_RQT_ENTRY_LEN),
		 0);
	CHECK_EQ(prm_get(m.out + PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN,
			 PRM_RQT_ENTRY_RQN),
		 rqn2);
	/* MODIFY_RQT down to rq2; MODIFY_TIR's hash. */
	rqt_cmd(&m, PRM_OP_MODIFY_RQT, 0, 0, &rqn2, 1);
	prm_set(m.in, PRM_IN_OBJN, rqtn);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_RQT_LIST);
	CHECK_EQ(dx_modify(rqt, &m, PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN), 0);
	tir_cmd(&m, 0, 0, 0, 0);
	prm_set(m.in, PRM_HDR_OPCODE, PRM_OP_MODIFY_TIR);
	prm_set(m.in, PRM_IN_OBJN, tirn2);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_TIR_HASH);
	prm_set(m.in, PRM_TIRC_RX_HASH_FN, 1);
	CHECK_EQ(dx_modify(tir2, &m, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(obj_query(tir2, &m, PRM_OP_QUERY_TIR, tirn2,
			   PRM_OBJ_OUT_LEN),
		 0);
	CHECK_EQ(prm_get(m.out, PRM_TIRC_RX_HASH_FN), 1);
	CHECK_EQ(prm_get(m.out, PRM_TIRC_INDIRECT_TABLE), rqtn);

	/* Bad input: short, reserved bits, a missing CQ, another's CQ. */
	wq_cmd(&m, PRM_OP_CREATE_RQ, 0, b.cqn, b.pdn, 0, b.umem->umem_id,
	       4096 * 3);
	CHECK_FW_FAIL(ctx, &m, PRM_OBJ_IN_LEN - 4, EMU_FW_STATUS_BAD_INPUT_LEN,
		      EMU_FW_SYND_INPUT_LEN);
	m.in[16] = 0x80;
	CHECK_FW_FAIL(ctx, &m, PRM_OBJ_IN_LEN, EMU_FW_STATUS_BAD_PARAM,
		      EMU_FW_SYND_RESERVED);
	wq_cmd(&m, PRM_OP_CREATE_RQ, 0, b.cqn + 1000, b.pdn, 0,
	       b.umem->umem_id, 4096 * 3);
	CHECK_FW_FAIL(ctx, &m, PRM_OBJ_IN_LEN, EMU_FW_STATUS_BAD_PARAM,
		      EMU_FW_SYND_REF_MISSING);
	dx_base_make(other, &ob);
	wq_cmd(&m, PRM_OP_CREATE_RQ, 0, b.cqn, ob.pdn, 0, ob.umem->umem_id,
	       4096);
	CHECK_FW_FAIL(other, &m, PRM_OBJ_IN_LEN, EMU_FW_STATUS_BAD_PARAM,
		      EMU_FW_SYND_REF_UID);
	tir_cmd(&m, 0, ob.tdn, rqn, 0);
	CHECK_FW_FAIL(other, &m, PRM_OBJ_IN_LEN, EMU_FW_STATUS_BAD_PARAM,
		      EMU_FW_SYND_REF_UID);
	dx_base_drop(&ob);

	/* Nothing under another object goes first, and it stays usable. */
	CHECK_EQ(mlx5dv_devx_obj_destroy(b.cq), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(rq2), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(rqt), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(tis), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(b.td), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(b.pd), EBUSY);
	CHECK_EQ(mlx5dv_devx_umem_dereg(b.umem), EBUSY);
	CHECK_EQ(obj_query(rq2, &m, PRM_OP_QUERY_RQ, rqn2, PRM_OBJ_IN_LEN), 0);
	CHECK_EQ(obj_query(tis, &m, PRM_OP_QUERY_TIS, tisn,
			   PRM_QUERY_TIS_OUT_LEN),
		 0);
	/* The right order. */
	DX_DESTROY(tir, rq, tir2, rqt, rq2, sq, tis);
	dx_base_drop(&b);
}

/* Flow table, group, entry, reformat, modify header. */
static void test_steering(struct ibv_context *ctx)
{
	struct mlx5dv_devx_obj *ft, *ft2, *fg, *fte, *cnt, *rf, *mh, *rq, *tir;
	uint32_t ftn, ftn2, fgn, cntn, rfn, mhn, rqn, tirn, none;
	struct dx_base b;
	struct mbox m;
	size_t len;

	dx_base_make(ctx, &b);
	rq = dx_wq(ctx, &b, PRM_OP_CREATE_RQ, 0, 0, &rqn);
	REQUIRE(rq);
	tir_cmd(&m, 0, b.tdn, rqn, 0);
	tir = dx_create(ctx, &m, PRM_OBJ_IN_LEN, &tirn, PRM_OUT_OBJN);
	ft = dx_ft(ctx, 0, &ftn);
	ft2 = dx_ft(ctx, 1, &ftn2);
	REQUIRE(tir && ft && ft2);
	fg = dx_fg(ctx, ftn, 0, 7, &fgn);
	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, 0, 0);
	cnt = dx_create(ctx, &m, PRM_ALLOC_FC_IN_LEN, &cntn,
			PRM_ALLOC_FC_OUT_ID);
	rf = dx_reformat(ctx, &rfn);
	mh = dx_modhdr(ctx, &mhn);
	REQUIRE(fg && cnt && rf && mh);

	len = dx_fte_cmd(&m, 0, ftn, fgn, 2, tirn, cntn);
	prm_set(m.in, PRM_FTE_ACTION,
		prm_get(m.in, PRM_FTE_ACTION) |
			PRM_FTE_ACTION_PACKET_REFORMAT |
			PRM_FTE_ACTION_MOD_HDR);
	prm_set(m.in, PRM_FTE_REFORMAT_ID, rfn);
	prm_set(m.in, PRM_FTE_MODIFY_HDR_ID, mhn);
	fte = dx_create(ctx, &m, len, NULL, PRM_OUT_OBJN);
	REQUIRE(fte);
	/* The same index twice. */
	CHECK_FW_FAIL(ctx, &m, len, EMU_FW_STATUS_BAD_PARAM,
		      EMU_FW_SYND_FTE_EXISTS);

	/* Query each; the kernel checks the id each query names. */
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE, 0, PRM_FT_TYPE_NIC_RX, ftn2);
	CHECK_EQ(dx_query(ft2, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_FTC_LEVEL), 1);
	CHECK_EQ(dx_query(ft, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN), EINVAL);
	fs_cmd(&m, PRM_OP_QUERY_FLOW_GROUP, 0, PRM_FT_TYPE_NIC_RX, ftn);
	prm_set(m.in, PRM_FG_ID, fgn);
	CHECK_EQ(dx_query(fg, &m, PRM_FS_IN_LEN, PRM_FG_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_FG_END), 7);
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE_ENTRY, 0, PRM_FT_TYPE_NIC_RX, ftn);
	prm_set(m.in, PRM_FTE_INDEX, 2);
	CHECK_EQ(dx_query(fte, &m, PRM_FS_IN_LEN, PRM_FTE_LEN + 16), 0);
	CHECK_EQ(prm_get(m.out + PRM_FTE_LEN, PRM_FTE_DEST_ID), tirn);
	CHECK_EQ(prm_get(m.out, PRM_FTE_REFORMAT_ID), rfn);
	mbox_init(&m, PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT, 0, 0);
	prm_set(m.in, PRM_REFORMAT_ID, rfn);
	CHECK_EQ(dx_query(rf, &m, PRM_QUERY_REFORMAT_IN_LEN,
			  PRM_REFORMAT_DATA_BYTE + 50),
		 0);
	CHECK_EQ(prm_get(m.out, PRM_REFORMAT_DATA_SIZE), 50);
	/* The table's type is part of its name: EREMOTEIO, not EINVAL. */
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE, 0, PRM_FT_TYPE_NIC_TX, ftn2);
	CHECK_EQ(dx_query(ft2, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN), EREMOTEIO);
	CHECK_EQ(prm_get(m.out, PRM_OUT_STATUS), EMU_FW_STATUS_BAD_RES_STATE);

	/* Modify: the table's miss, the entry's destination. */
	fs_cmd(&m, PRM_OP_MODIFY_FLOW_TABLE, 0, PRM_FT_TYPE_NIC_RX, ftn);
	prm_set(m.in, PRM_MODIFY_FT_SELECT, PRM_MODIFY_FT_MISS_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ID, ftn2);
	CHECK_EQ(dx_modify(ft, &m, PRM_FS_IN_LEN), 0);
	len = dx_fte_cmd(&m, 1, ftn, fgn, 2, 0, 0);
	prm_set(m.in, PRM_FTE_ACTION, PRM_FTE_ACTION_FWD_DEST);
	prm_set(m.in, PRM_FTE_DEST_LIST_SIZE, 1);
	prm_set(m.in + PRM_FTE_LEN, PRM_FTE_DEST_TYPE,
		PRM_FTE_DEST_FLOW_TABLE);
	prm_set(m.in + PRM_FTE_LEN, PRM_FTE_DEST_ID, ftn2);
	len = PRM_FTE_LEN + PRM_FTE_DEST_LEN;
	prm_set(m.in, PRM_FTE_MODIFY_MASK, PRM_FTE_MODIFY_DESTS);
	CHECK_EQ(dx_modify(fte, &m, len), 0);
	/* The TIR is free now; the rest is still in use. */
	CHECK_EQ(mlx5dv_devx_obj_destroy(tir), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(ft2), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fg), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(ft), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(cnt), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(rf), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(mh), EBUSY);

	/* Bad input: a table type the device lacks, an empty reformat. */
	mbox_init(&m, PRM_OP_CREATE_FLOW_TABLE, 0, 0);
	prm_set(m.in, PRM_FS_TABLE_TYPE, 4);
	CHECK_FW_FAIL(ctx, &m, PRM_FS_IN_LEN, EMU_FW_STATUS_BAD_PARAM,
		      EMU_FW_SYND_TABLE_TYPE);
	mbox_init(&m, PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT, 0, 0);
	CHECK_FW_FAIL(ctx, &m, PRM_ALLOC_REFORMAT_IN_LEN,
		      EMU_FW_STATUS_BAD_PARAM, EMU_FW_SYND_BAD_FIELD);
	CHECK_ERRNO(!dx_fg(ctx, ftn, 4, 9, &none), EREMOTEIO);

	/* The right order. */
	DX_DESTROY(fte, fg, ft, ft2, cnt, rf, mh, rq);
	dx_base_drop(&b);
}

/* The flow sampler and the three ASO objects. */
static void test_general(struct ibv_context *ctx)
{
	static const uint16_t types[] = { PRM_OBJ_TYPE_FLOW_SAMPLER,
					  PRM_OBJ_TYPE_ASO_FLOW_METER,
					  PRM_OBJ_TYPE_ASO_FIRST_HIT,
					  PRM_OBJ_TYPE_ASO_CT };
	struct mlx5dv_devx_obj *ft, *ft2, *pd, *objs[4];
	uint32_t ftn, ftn2, pdn, ids[4], none;
	struct mbox m;
	unsigned int i;

	ft = dx_ft(ctx, 0, &ftn);
	ft2 = dx_ft(ctx, 1, &ftn2);
	mbox_init(&m, PRM_OP_ALLOC_PD, 0, 0);
	pd = dx_create(ctx, &m, 16, &pdn, PRM_OUT_OBJN);
	REQUIRE(ft && ft2 && pd);
	for (i = 0; i < 4; i++) {
		objs[i] = dx_gobj(ctx, types[i], pdn, ftn, ftn2, &ids[i]);
		REQUIRE(objs[i]);
		mbox_init(&m, PRM_OP_QUERY_GENERAL_OBJECT, 0, 0);
		prm_set(m.in, PRM_GOBJ_TYPE, types[i]);
		prm_set(m.in, PRM_GOBJ_ID, ids[i]);
		CHECK_EQ(dx_query(objs[i], &m, 16, PRM_GOBJ_BYTE + PRM_ASO_LEN),
			 0);
		if (i)
			CHECK_EQ(prm_get(m.out, PRM_ASO_ACCESS_PD), pdn);
		else
			CHECK_EQ(prm_get(m.out, PRM_SAMPLER_SAMPLE_TABLE),
				 ftn2);
		/* Only the flow meter changes by command. */
		prm_set(m.in, PRM_HDR_OPCODE, PRM_OP_MODIFY_GENERAL_OBJECT);
		CHECK_EQ(dx_modify(objs[i], &m, PRM_GOBJ_BYTE + PRM_ASO_LEN),
			 EREMOTEIO);
		CHECK_EQ(prm_get(m.out, PRM_OUT_SYNDROME),
			 EMU_FW_SYND_BAD_OBJ_TYPE);
	}
	/* An ASO object without its PD. */
	CHECK_ERRNO(!dx_gobj(ctx, PRM_OBJ_TYPE_ASO_CT, pdn + 100, 0, 0, &none),
		    EREMOTEIO);
	CHECK_EQ(mlx5dv_devx_obj_destroy(pd), EBUSY);
	CHECK_EQ(mlx5dv_devx_obj_destroy(ft2), EBUSY);
	for (i = 0; i < 4; i++)
		CHECK_EQ(mlx5dv_devx_obj_destroy(objs[i]), 0);
	DX_DESTROY(pd, ft2, ft);
}

int main(void)
{
	struct ibv_context *ctx, *other;

	if (!getenv("MLX5_EMU_DIR"))
		check_skip(NAME, "not running under mlx5-emu");
	ctx = dx_open(0);
	other = dx_open(0);
	REQUIRE(ctx && other);
	test_transport(ctx, other);
	test_steering(ctx);
	test_general(ctx);
	CHECK_EQ(ibv_close_device(other), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
