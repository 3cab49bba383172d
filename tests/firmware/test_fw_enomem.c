// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory running out in the firmware model: every create and modify of
 * the objects that point at others is run with its first, second, ...
 * allocation failed until it succeeds.  Each failed run answers
 * NO_RESOURCES, leaves no allocation behind and no object made, and the
 * objects it named keep no reference (they are destroyed at the end, in
 * order, which a leaked reference would refuse).
 */
#include <stdio.h>

#include "alloc_track.h"
#include "check.h"
#include "fw_test_objs.h"

#define NAME "firmware_enomem"

/*
 * Runs the command in m until no allocation fails; returns the field
 * (off, width) of the successful answer.
 */
static uint32_t faulty(struct emu_fw *fw, struct mbox *m, size_t inlen,
		       size_t outlen, unsigned int off, unsigned int width)
{
	static uint8_t in[sizeof(m->in)];
	unsigned int before = emu_fw_object_count(fw, -1);
	unsigned long k;
	bool failed;
	size_t live;
	int st;

	memcpy(in, m->in, sizeof(in));
	for (k = 1; k < 64; k++) {
		memcpy(m->in, in, sizeof(in));
		alloc_track_start(k);
		st = run(fw, m, inlen, outlen);
		alloc_track_stop(&live, &failed);
		if (!failed)
			break;
		CHECK_EQ(st, EMU_FW_STATUS_NO_RESOURCES);
		CHECK_EQ(syndrome(m), EMU_FW_SYND_NO_MEMORY);
		CHECK_EQ(live, 0);
		CHECK_EQ(emu_fw_object_count(fw, -1), before);
	}
	/* Every command here allocates, so at least one run failed. */
	CHECK(k > 1);
	REQUIRE(st == 0);
	return prm_get(m->out, off, width);
}

static uint32_t fw_ret0(struct emu_fw *fw, struct mbox *m, size_t inlen)
{
	return faulty(fw, m, inlen, 16, PRM_OUT_OBJN);
}

int main(void)
{
	uint32_t umem, pd, td, cq, rq, rq2, sq, tis, tir, tir2, rqt, rqs[2];
	uint32_t ft, ft2, fg, cnt, rf, mh, objs[4], i;
	struct emu_fw *fw;
	static struct mbox m;
	uint16_t uid;
	uint8_t *list;

	if (!alloc_track_available())
		check_skip(NAME, "the allocator is the sanitizer's");
	fw = emu_fw_new(TEST_GUID);
	REQUIRE(fw);
	uid = make_uctx(fw);
	umem = make_umem(fw, uid, 8);
	pd = make_simple(fw, uid, PRM_OP_ALLOC_PD);
	td = make_simple(fw, uid, PRM_OP_ALLOC_TRANSPORT_DOMAIN);
	cq = make_cq(fw, uid, umem, 0);
	REQUIRE(uid && umem && pd && td && cq);

	/* The receive and send side. */
	tis_cmd(&m, uid, td);
	tis = fw_ret0(fw, &m, PRM_TIS_IN_LEN);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, cq, pd, 0, umem, 4096);
	prm_set(m.in, PRM_WQ_DBR_UMEM_VALID, 1);
	prm_set(m.in, PRM_WQ_DBR_UMEM_ID, umem);
	prm_set64(m.in, PRM_WQ_DBR_ADDR, 7 * 4096);
	rq = fw_ret0(fw, &m, PRM_OBJ_IN_LEN);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, cq, pd, 0, umem, 5120);
	rq2 = fw_ret0(fw, &m, PRM_OBJ_IN_LEN);
	wq_cmd(&m, PRM_OP_CREATE_SQ, uid, cq, pd, tis, umem, 6144);
	sq = fw_ret0(fw, &m, PRM_OBJ_IN_LEN);
	tir_cmd(&m, uid, td, rq, 0);
	tir = fw_ret0(fw, &m, PRM_OBJ_IN_LEN);
	rqs[0] = rq;
	rqs[1] = rq2;
	rqt = fw_ret0(fw, &m, rqt_cmd(&m, PRM_OP_CREATE_RQT, uid, 2, rqs, 2));
	tir_cmd(&m, uid, td, 0, rqt);
	tir2 = fw_ret0(fw, &m, PRM_OBJ_IN_LEN);
	rqt_cmd(&m, PRM_OP_MODIFY_RQT, uid, 0, &rq2, 1);
	prm_set(m.in, PRM_IN_OBJN, rqt);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_RQT_LIST);
	faulty(fw, &m, PRM_RQT_LIST_BYTE + PRM_RQT_ENTRY_LEN, 16,
	       PRM_OUT_STATUS);
	tir_cmd(&m, uid, 0, 0, rqt);
	prm_set(m.in, PRM_HDR_OPCODE, PRM_OP_MODIFY_TIR);
	prm_set(m.in, PRM_IN_OBJN, tir2);
	prm_set(m.in, PRM_OBJ_MODIFY_BITMASK_LO, PRM_MODIFY_TIR_INDIRECT);
	faulty(fw, &m, PRM_OBJ_IN_LEN, 16, PRM_OUT_STATUS);

	/* Steering. */
	mbox_init(&m, PRM_OP_CREATE_FLOW_TABLE, uid, 0);
	prm_set(m.in, PRM_FS_TABLE_TYPE, PRM_FT_TYPE_NIC_RX);
	prm_set(m.in, PRM_FTC_LEVEL, 1);
	prm_set(m.in, PRM_FTC_LOG_SIZE, 4);
	ft2 = faulty(fw, &m, PRM_FS_IN_LEN, 16, PRM_FT_OUT_ID);
	prm_set(m.in, PRM_FTC_LEVEL, 0);
	prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ID, ft2);
	ft = faulty(fw, &m, PRM_FS_IN_LEN, 16, PRM_FT_OUT_ID);
	fs_cmd(&m, PRM_OP_MODIFY_FLOW_TABLE, uid, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m.in, PRM_MODIFY_FT_SELECT, PRM_MODIFY_FT_MISS_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ID, ft2);
	faulty(fw, &m, PRM_FS_IN_LEN, 16, PRM_OUT_STATUS);
	fs_cmd(&m, PRM_OP_CREATE_FLOW_GROUP, uid, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m.in, PRM_FG_END, 7);
	fg = faulty(fw, &m, PRM_FG_IN_LEN, 16, PRM_FG_OUT_ID);
	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, uid, 0);
	cnt = faulty(fw, &m, PRM_ALLOC_FC_IN_LEN, 16, PRM_ALLOC_FC_OUT_ID);
	mbox_init(&m, PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT, uid, 0);
	prm_set(m.in, PRM_REFORMAT_DATA_SIZE, 20);
	rf = faulty(fw, &m, PRM_REFORMAT_DATA_BYTE + 20, 16, PRM_REFORMAT_ID);
	mbox_init(&m, PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT, uid, 0);
	prm_set(m.in, PRM_MODHDR_NUM_ACTIONS, 1);
	prm_set(m.in + PRM_MODHDR_ACTIONS_BYTE, PRM_MODHDR_ACTION_TYPE,
		PRM_MODHDR_SET);
	mh = faulty(fw, &m, PRM_MODHDR_ACTIONS_BYTE + PRM_MODHDR_ACTION_LEN,
		    16, PRM_MODHDR_ID);
	/* An entry naming all of them: several references to take. */
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ENTRY, uid, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m.in, PRM_FTE_INDEX, 3);
	prm_set(m.in, PRM_FTE_GROUP_ID, fg);
	prm_set(m.in, PRM_FTE_ACTION,
		PRM_FTE_ACTION_FWD_DEST | PRM_FTE_ACTION_COUNT |
			PRM_FTE_ACTION_PACKET_REFORMAT |
			PRM_FTE_ACTION_MOD_HDR);
	prm_set(m.in, PRM_FTE_REFORMAT_ID, rf);
	prm_set(m.in, PRM_FTE_MODIFY_HDR_ID, mh);
	prm_set(m.in, PRM_FTE_DEST_LIST_SIZE, 2);
	prm_set(m.in, PRM_FTE_COUNTER_LIST_SIZE, 1);
	list = m.in + PRM_FTE_LEN;
	prm_set(list, PRM_FTE_DEST_TYPE, PRM_FTE_DEST_TIR);
	prm_set(list, PRM_FTE_DEST_ID, tir);
	prm_set(list + PRM_FTE_DEST_LEN, PRM_FTE_DEST_TYPE,
		PRM_FTE_DEST_FLOW_TABLE);
	prm_set(list + PRM_FTE_DEST_LEN, PRM_FTE_DEST_ID, ft2);
	prm_set(list + 2 * PRM_FTE_DEST_LEN, PRM_FTE_COUNTER_ID, cnt);
	faulty(fw, &m, PRM_FTE_LEN + 3 * PRM_FTE_DEST_LEN, 16, PRM_OUT_STATUS);
	/* Modify: the destinations, down to the table. */
	prm_set(m.in, PRM_HDR_OP_MOD, PRM_FTE_OP_MOD_MODIFY);
	prm_set(m.in, PRM_FTE_MODIFY_MASK, PRM_FTE_MODIFY_DESTS);
	prm_set(m.in, PRM_FTE_DEST_LIST_SIZE, 1);
	prm_set(m.in, PRM_FTE_COUNTER_LIST_SIZE, 0);
	memmove(list, list + PRM_FTE_DEST_LEN, PRM_FTE_DEST_LEN);
	faulty(fw, &m, PRM_FTE_LEN + PRM_FTE_DEST_LEN, 16, PRM_OUT_STATUS);

	/* General objects: a sampler, the ASO objects. */
	mbox_init(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid, 0);
	prm_set(m.in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_SAMPLER);
	prm_set(m.in, PRM_SAMPLER_SAMPLE_TABLE, ft2);
	prm_set(m.in, PRM_SAMPLER_DEFAULT_TABLE, ft);
	objs[0] = faulty(fw, &m, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN, 16,
			 PRM_GOBJ_OUT_ID);
	for (i = 1; i < 4; i++) {
		static const uint16_t aso[] = { 0, PRM_OBJ_TYPE_ASO_FLOW_METER,
						PRM_OBJ_TYPE_ASO_FIRST_HIT,
						PRM_OBJ_TYPE_ASO_CT };

		mbox_init(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid, 0);
		prm_set(m.in, PRM_GOBJ_TYPE, aso[i]);
		prm_set(m.in, PRM_ASO_ACCESS_PD, pd);
		objs[i] = faulty(fw, &m, PRM_GOBJ_BYTE + PRM_ASO_LEN, 16,
				 PRM_GOBJ_OUT_ID);
		mbox_init(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid, 0);
		prm_set(m.in, PRM_GOBJ_TYPE, aso[i]);
		prm_set(m.in, PRM_GOBJ_ID, objs[i]);
		CHECK_EQ(run(fw, &m, 16, 16), 0);
	}
	mbox_init(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid, 0);
	prm_set(m.in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_SAMPLER);
	prm_set(m.in, PRM_GOBJ_ID, objs[0]);
	CHECK_EQ(run(fw, &m, 16, 16), 0);

	/* Everything goes, in order: no failed run kept a reference. */
	fs_cmd(&m, PRM_OP_DELETE_FLOW_TABLE_ENTRY, uid, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m.in, PRM_FTE_INDEX, 3);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_GROUP, uid, PRM_FT_TYPE_NIC_RX, ft);
	prm_set(m.in, PRM_FG_ID, fg);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, PRM_FT_TYPE_NIC_RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, PRM_FT_TYPE_NIC_RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	CHECK_EQ(dealloc_counter(fw, uid, cnt, NULL), 0);
	CHECK_EQ(dealloc_reformat(fw, uid, rf, NULL), 0);
	CHECK_EQ(dealloc_modhdr(fw, uid, mh, NULL), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIR, uid, tir2, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIR, uid, tir, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQT, uid, rqt, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, rq2, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_SQ, uid, sq, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIS, uid, tis, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_CQ, uid, cq, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_PD, uid, pd, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_TRANSPORT_DOMAIN, uid, td, 16),
		 0);
	CHECK_EQ(destroy_umem(fw, uid, umem, NULL), 0);
	CHECK_EQ(destroy_uctx(fw, uid), 0);
	CHECK_EQ(emu_fw_object_count(fw, -1), 0);
	emu_fw_free(fw);
	return check_done(NAME);
}
