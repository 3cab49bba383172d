// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow steering: tables, groups and entries, the packet reformat and
 * modify header contexts entries use, the flow sampler and the ASO
 * general objects.  Each is made, queried as made, modified where the
 * PRM lets it change, refused with the status and syndrome of each
 * failed check, and kept alive (RES_BUSY) while something points at it.
 */
#include <stdio.h>

#include "check.h"
#include "fw_test_objs.h"

#define RX PRM_FT_TYPE_NIC_RX
#define TX PRM_FT_TYPE_NIC_TX
/* The largest header a reformat may add (the model's FW_MAX_REFORMAT_DATA). */
#define FW_TEST_MAX_REFORMAT 128

static uint32_t make_fg(struct emu_fw *fw, struct mbox *m, uint16_t uid,
			unsigned int type, uint32_t ft, uint32_t start,
			uint32_t end)
{
	fs_cmd(m, PRM_OP_CREATE_FLOW_GROUP, uid, type, ft);
	prm_set(m->in, PRM_FG_START, start);
	prm_set(m->in, PRM_FG_END, end);
	/* match on the outer headers: every DMAC bit */
	prm_set(m->in, PRM_FG_MATCH_CRITERIA_ENABLE, 1);
	memset(m->in + PRM_FG_MATCH_CRITERIA_BYTE, 0xff, 6);
	if (run(fw, m, PRM_FG_IN_LEN, 16))
		return 0;
	return prm_get(m->out, PRM_FG_OUT_ID);
}

static int fg_op(struct emu_fw *fw, struct mbox *m, uint16_t opcode,
		 uint16_t uid, unsigned int type, uint32_t ft, uint32_t fg)
{
	fs_cmd(m, opcode, uid, type, ft);
	prm_set(m->in, PRM_FG_ID, fg);
	return run(fw, m, PRM_FS_IN_LEN,
		   opcode == PRM_OP_QUERY_FLOW_GROUP ? PRM_FG_IN_LEN : 16);
}

/*
 * SET_FLOW_TABLE_ENTRY at index of group fg in table ft: action, the
 * destinations (type, id pairs) and counters; returns the input length.
 */
static size_t fte_cmd(struct mbox *m, uint16_t uid, uint16_t op_mod,
		      unsigned int type, uint32_t ft, uint32_t fg,
		      uint32_t index, uint32_t action, const uint32_t *dests,
		      unsigned int ndest, const uint32_t *cnts,
		      unsigned int ncnt)
{
	uint8_t *list = m->in + PRM_FTE_LEN;
	unsigned int i;

	fs_cmd(m, PRM_OP_SET_FLOW_TABLE_ENTRY, uid, type, ft);
	prm_set(m->in, PRM_HDR_OP_MOD, op_mod);
	prm_set(m->in, PRM_FTE_INDEX, index);
	prm_set(m->in, PRM_FTE_GROUP_ID, fg);
	prm_set(m->in, PRM_FTE_ACTION, action);
	prm_set(m->in, PRM_FTE_DEST_LIST_SIZE, ndest);
	prm_set(m->in, PRM_FTE_COUNTER_LIST_SIZE, ncnt);
	for (i = 0; i < ndest; i++, list += PRM_FTE_DEST_LEN) {
		prm_set(list, PRM_FTE_DEST_TYPE, dests[2 * i]);
		prm_set(list, PRM_FTE_DEST_ID, dests[2 * i + 1]);
	}
	for (i = 0; i < ncnt; i++, list += PRM_FTE_DEST_LEN)
		prm_set(list, PRM_FTE_COUNTER_ID, cnts[i]);
	return list - m->in;
}

static int fte_op(struct emu_fw *fw, struct mbox *m, uint16_t opcode,
		  uint16_t uid, unsigned int type, uint32_t ft,
		  uint32_t index)
{
	fs_cmd(m, opcode, uid, type, ft);
	prm_set(m->in, PRM_FTE_INDEX, index);
	return run(fw, m, PRM_FS_IN_LEN,
		   opcode == PRM_OP_QUERY_FLOW_TABLE_ENTRY ?
			   PRM_FTE_LEN + 64 : 16);
}

/* A TIR (on an RQ, on a CQ, ...) to forward to; *b gets the rest. */
static uint32_t make_tir(struct emu_fw *fw, uint16_t uid, uint32_t b[6])
{
	struct mbox m;

	b[0] = make_umem(fw, uid, 2);
	b[1] = make_simple(fw, uid, PRM_OP_ALLOC_PD);
	b[2] = make_simple(fw, uid, PRM_OP_ALLOC_TRANSPORT_DOMAIN);
	b[3] = make_cq(fw, uid, b[0], 0);
	wq_cmd(&m, PRM_OP_CREATE_RQ, uid, b[3], b[1], 0, b[0], 4096);
	b[4] = created(fw, &m, PRM_OBJ_IN_LEN);
	tir_cmd(&m, uid, b[2], b[4], 0);
	b[5] = created(fw, &m, PRM_OBJ_IN_LEN);
	return b[5];
}

static void drop_tir(struct emu_fw *fw, uint16_t uid, const uint32_t b[6])
{
	struct mbox m;

	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIR, uid, b[5], 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_RQ, uid, b[4], 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_CQ, uid, b[3], 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_TRANSPORT_DOMAIN, uid, b[2],
			 16),
		 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_PD, uid, b[1], 16), 0);
	CHECK_EQ(destroy_umem(fw, uid, b[0], NULL), 0);
}

static void test_tables(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t ft = make_ft(fw, uid, RX, 0), ft2 = make_ft(fw, uid, RX, 1);
	struct mbox m;
	uint32_t fg, fg2;

	REQUIRE(ft && ft2);
	/* Query by the right type only. */
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_FTC_LEVEL), 1);
	CHECK_EQ(prm_get(m.out, PRM_FTC_LOG_SIZE), 4);
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE, uid, TX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_NO_OBJECT);
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE, other, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);

	/* The miss goes to the deeper table, never back up. */
	fs_cmd(&m, PRM_OP_MODIFY_FLOW_TABLE, uid, RX, ft);
	prm_set(m.in, PRM_MODIFY_FT_SELECT, PRM_MODIFY_FT_MISS_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ID, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_MODIFY_FLOW_TABLE, uid, RX, ft2);
	prm_set(m.in, PRM_MODIFY_FT_SELECT, PRM_MODIFY_FT_MISS_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ACTION, PRM_FT_MISS_GOTO_TABLE);
	prm_set(m.in, PRM_FTC_MISS_ID, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_FT_LEVEL);
	fs_cmd(&m, PRM_OP_QUERY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, PRM_FS_IN_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_FTC_MISS_ID), ft2);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BUSY);
	fs_cmd(&m, PRM_OP_MODIFY_FLOW_TABLE, uid, RX, ft);
	prm_set(m.in, PRM_MODIFY_FT_SELECT, PRM_MODIFY_FT_MISS_TABLE);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	/* A select bit the model does not change. */
	prm_set(m.in, PRM_MODIFY_FT_SELECT, 1 << 15);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);

	/* Groups: disjoint ranges inside the table. */
	fg = make_fg(fw, &m, uid, RX, ft, 0, 7);
	REQUIRE(fg);
	CHECK_EQ(make_fg(fw, &m, uid, RX, ft, 4, 9), 0);
	CHECK_EQ(prm_get(m.out, PRM_OUT_STATUS), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_FG_OVERLAP);
	CHECK_EQ(make_fg(fw, &m, uid, RX, ft, 8, 16), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	CHECK_EQ(make_fg(fw, &m, other, RX, ft, 8, 15), 0);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
	fs_cmd(&m, PRM_OP_CREATE_FLOW_GROUP, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FG_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	fg2 = make_fg(fw, &m, uid, RX, ft, 8, 15);
	REQUIRE(fg2);
	CHECK_EQ(fg_op(fw, &m, PRM_OP_QUERY_FLOW_GROUP, uid, RX, ft, fg2), 0);
	CHECK_EQ(prm_get(m.out, PRM_FG_START), 8);
	CHECK_EQ(prm_get(m.out, PRM_FG_END), 15);
	CHECK_EQ(prm_get(m.out, PRM_FG_MATCH_CRITERIA_ENABLE), 1);
	CHECK_EQ(m.out[PRM_FG_MATCH_CRITERIA_BYTE], 0xff);
	/* A group is known in its own table only. */
	CHECK_EQ(fg_op(fw, &m, PRM_OP_QUERY_FLOW_GROUP, uid, RX, ft2, fg2),
		 EMU_FW_STATUS_BAD_RES_STATE);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(fg_op(fw, &m, PRM_OP_DESTROY_FLOW_GROUP, uid, RX, ft, fg), 0);
	CHECK_EQ(fg_op(fw, &m, PRM_OP_DESTROY_FLOW_GROUP, uid, RX, ft, fg2),
		 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);

	/* Tables the device has not: FDB, SW owned, too deep, too big. */
	mbox_init(&m, PRM_OP_CREATE_FLOW_TABLE, uid, 0);
	prm_set(m.in, PRM_FS_TABLE_TYPE, 4);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_TABLE_TYPE);
	prm_set(m.in, PRM_FS_TABLE_TYPE, RX);
	prm_set(m.in, PRM_FTC_SW_OWNER, 1);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	prm_set(m.in, PRM_FTC_SW_OWNER, 0);
	/* one past the caps' max_ft_level */
	prm_set(m.in, PRM_FTC_LEVEL, 128);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	prm_set(m.in, PRM_FTC_LEVEL, 0);
	prm_set(m.in, PRM_FTC_LOG_SIZE, 24);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
}

static void test_entries(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t ft = make_ft(fw, uid, RX, 0), ft2 = make_ft(fw, uid, RX, 1);
	uint32_t fg, cnt, reformat, modhdr, tir, tb[6], dests[4];
	struct mbox m;
	size_t len;

	REQUIRE(ft && ft2);
	fg = make_fg(fw, &m, uid, RX, ft, 0, 7);
	tir = make_tir(fw, uid, tb);
	mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, uid, 0);
	cnt = alloc_id(fw, &m, PRM_ALLOC_FC_IN_LEN, PRM_ALLOC_FC_OUT_ID);
	reformat_cmd(&m, uid, 50);
	reformat = alloc_id(fw, &m, PRM_REFORMAT_DATA_BYTE + 50,
			    PRM_REFORMAT_ID);
	modhdr = alloc_id(fw, &m, modhdr_cmd(&m, uid, RX, 2), PRM_MODHDR_ID);
	REQUIRE(fg && tir && cnt && reformat && modhdr);

	/* Forward to the deeper table and the TIR, counted, reformatted. */
	dests[0] = PRM_FTE_DEST_FLOW_TABLE;
	dests[1] = ft2;
	dests[2] = PRM_FTE_DEST_TIR;
	dests[3] = tir;
	len = fte_cmd(&m, uid, 0, RX, ft, fg, 3,
		      PRM_FTE_ACTION_FWD_DEST | PRM_FTE_ACTION_COUNT |
			      PRM_FTE_ACTION_PACKET_REFORMAT |
			      PRM_FTE_ACTION_MOD_HDR,
		      dests, 2, &cnt, 1);
	prm_set(m.in, PRM_FTE_REFORMAT_ID, reformat);
	prm_set(m.in, PRM_FTE_MODIFY_HDR_ID, modhdr);
	prm_set(m.in, PRM_FTE_FLOW_TAG, 0x1234);
	CHECK_EQ(run(fw, &m, len - 1, 16), EMU_FW_STATUS_BAD_INPUT_LEN);
	CHECK_EQ(run(fw, &m, len, 16), 0);
	/* The same index again; an index outside the group. */
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_FTE_EXISTS);
	prm_set(m.in, PRM_FTE_INDEX, 8);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_FTE_INDEX);

	CHECK_EQ(fte_op(fw, &m, PRM_OP_QUERY_FLOW_TABLE_ENTRY, uid, RX, ft, 3),
		 0);
	CHECK_EQ(prm_get(m.out, PRM_FTE_GROUP_ID), fg);
	CHECK_EQ(prm_get(m.out, PRM_FTE_FLOW_TAG), 0x1234);
	CHECK_EQ(prm_get(m.out, PRM_FTE_DEST_LIST_SIZE), 2);
	CHECK_EQ(prm_get(m.out + PRM_FTE_LEN + PRM_FTE_DEST_LEN,
			 PRM_FTE_DEST_ID),
		 tir);
	CHECK_EQ(prm_get(m.out + PRM_FTE_LEN + 2 * PRM_FTE_DEST_LEN,
			 PRM_FTE_COUNTER_ID),
		 cnt);
	CHECK_EQ(fte_op(fw, &m, PRM_OP_QUERY_FLOW_TABLE_ENTRY, other, RX, ft,
			3),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(fte_op(fw, &m, PRM_OP_QUERY_FLOW_TABLE_ENTRY, uid, RX, ft, 4),
		 EMU_FW_STATUS_BAD_RES_STATE);

	/* Everything the entry names is busy, and so is its group. */
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DESTROY_TIR, uid, tir, 16),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BUSY);
	CHECK_EQ(dealloc_counter(fw, uid, cnt, NULL), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(dealloc_reformat(fw, uid, reformat, NULL),
		 EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(dealloc_modhdr(fw, uid, modhdr, NULL), EMU_FW_STATUS_RES_BUSY);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(fg_op(fw, &m, PRM_OP_DESTROY_FLOW_GROUP, uid, RX, ft, fg),
		 EMU_FW_STATUS_RES_BUSY);

	/* op_mod 1, destinations only: the table alone; the TIR is free. */
	len = fte_cmd(&m, uid, 1, RX, ft, fg, 3, 0, dests, 1, NULL, 0);
	prm_set(m.in, PRM_FTE_MODIFY_MASK, PRM_FTE_MODIFY_DESTS);
	CHECK_EQ(run(fw, &m, len, 16), 0);
	CHECK_EQ(fte_op(fw, &m, PRM_OP_QUERY_FLOW_TABLE_ENTRY, uid, RX, ft, 3),
		 0);
	CHECK_FIELDS(m.out, FIELD(PRM_FTE_DEST_LIST_SIZE, 1),
		     FIELD(PRM_FTE_COUNTER_LIST_SIZE, 1),
		     FIELD_AT(PRM_FTE_LEN + PRM_FTE_DEST_LEN,
			      PRM_FTE_COUNTER_ID, cnt));
	CHECK(prm_get(m.out, PRM_FTE_ACTION) & PRM_FTE_ACTION_MOD_HDR);
	drop_tir(fw, uid, tb);
	/* Modifying an entry that is not there. */
	len = fte_cmd(&m, uid, 1, RX, ft, fg, 5, 0, dests, 1, NULL, 0);
	prm_set(m.in, PRM_FTE_MODIFY_MASK, PRM_FTE_MODIFY_DESTS);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_RES_STATE);

	/* Refused entries: a table of the same level, another uid's
	 * counter, a missing reformat, a TIR from a transmit table. */
	dests[1] = ft;
	len = fte_cmd(&m, uid, 0, RX, ft, fg, 4, PRM_FTE_ACTION_FWD_DEST,
		      dests, 1, NULL, 0);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_FT_LEVEL);
	len = fte_cmd(&m, uid, 0, RX, ft, fg, 4, PRM_FTE_ACTION_FWD_DEST,
		      dests, 0, NULL, 0);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	/* More destinations than log_max_destination allows. */
	prm_set(m.in, PRM_FTE_DEST_LIST_SIZE, 257);
	CHECK_EQ(run(fw, &m, PRM_FTE_LEN + 257 * PRM_FTE_DEST_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	{
		uint32_t theirs;

		mbox_init(&m, PRM_OP_ALLOC_FLOW_COUNTER, other, 0);
		theirs = alloc_id(fw, &m, PRM_ALLOC_FC_IN_LEN,
				  PRM_ALLOC_FC_OUT_ID);
		REQUIRE(theirs);
		len = fte_cmd(&m, uid, 0, RX, ft, fg, 4, PRM_FTE_ACTION_COUNT,
			      NULL, 0, &theirs, 1);
		CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
		CHECK_EQ(dealloc_counter(fw, other, theirs, NULL), 0);
	}
	len = fte_cmd(&m, uid, 0, RX, ft, fg, 4,
		      PRM_FTE_ACTION_PACKET_REFORMAT | PRM_FTE_ACTION_ALLOW,
		      NULL, 0, NULL, 0);
	prm_set(m.in, PRM_FTE_REFORMAT_ID, reformat + 100);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);
	/* A modify header made for transmit tables. */
	{
		uint32_t txhdr = alloc_id(fw, &m, modhdr_cmd(&m, uid, TX, 1),
					  PRM_MODHDR_ID);

		REQUIRE(txhdr);
		len = fte_cmd(&m, uid, 0, RX, ft, fg, 4,
			      PRM_FTE_ACTION_MOD_HDR | PRM_FTE_ACTION_ALLOW,
			      NULL, 0, NULL, 0);
		prm_set(m.in, PRM_FTE_MODIFY_HDR_ID, txhdr);
		CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_TABLE_TYPE);
		CHECK_EQ(dealloc_modhdr(fw, uid, txhdr, NULL), 0);
	}
	/* An op_mod past modify. */
	len = fte_cmd(&m, uid, 2, RX, ft, fg, 4, PRM_FTE_ACTION_DROP, NULL, 0,
		      NULL, 0);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_OP_MOD);

	/* Delete the entry: everything it named goes, in any order. */
	CHECK_EQ(fte_op(fw, &m, PRM_OP_DELETE_FLOW_TABLE_ENTRY, other, RX, ft,
			3),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(fte_op(fw, &m, PRM_OP_DELETE_FLOW_TABLE_ENTRY, uid, RX, ft, 3),
		 0);
	CHECK_EQ(fte_op(fw, &m, PRM_OP_DELETE_FLOW_TABLE_ENTRY, uid, RX, ft, 3),
		 EMU_FW_STATUS_BAD_RES_STATE);
	CHECK_EQ(dealloc_modhdr(fw, uid, modhdr, NULL), 0);
	CHECK_EQ(dealloc_reformat(fw, uid, reformat, NULL), 0);
	CHECK_EQ(dealloc_counter(fw, uid, cnt, NULL), 0);
	CHECK_EQ(fg_op(fw, &m, PRM_OP_DESTROY_FLOW_GROUP, uid, RX, ft, fg), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
}

static void test_contexts(struct emu_fw *fw, uint16_t uid)
{
	struct mbox m;
	uint32_t id;

	reformat_cmd(&m, uid, 50);
	id = alloc_id(fw, &m, PRM_REFORMAT_DATA_BYTE + 50, PRM_REFORMAT_ID);
	REQUIRE(id);
	mbox_init(&m, PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT, uid, 0);
	prm_set(m.in, PRM_REFORMAT_ID, id);
	CHECK_EQ(run(fw, &m, PRM_QUERY_REFORMAT_IN_LEN,
		     PRM_REFORMAT_DATA_BYTE + 50),
		 0);
	CHECK_EQ(prm_get(m.out, PRM_REFORMAT_DATA_SIZE), 50);
	CHECK_EQ(m.out[PRM_REFORMAT_DATA_BYTE + 49], 0x5a);
	CHECK_EQ(run(fw, &m, PRM_QUERY_REFORMAT_IN_LEN,
		     PRM_REFORMAT_DATA_BYTE + 49),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);
	mbox_init(&m, PRM_OP_DEALLOC_PACKET_REFORMAT_CONTEXT, uid, 0);
	prm_set(m.in, PRM_REFORMAT_ID, id);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_RES_STATE);

	/* Data beyond the mailbox, none, too much, type 5, reserved. */
	reformat_cmd(&m, uid, 50);
	CHECK_EQ(run(fw, &m, PRM_REFORMAT_DATA_BYTE + 49, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	reformat_cmd(&m, uid, 0);
	CHECK_EQ(run(fw, &m, PRM_ALLOC_REFORMAT_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	reformat_cmd(&m, uid, FW_TEST_MAX_REFORMAT + 1);
	CHECK_EQ(run(fw, &m, PRM_REFORMAT_DATA_BYTE + FW_TEST_MAX_REFORMAT + 1,
		     16),
		 EMU_FW_STATUS_BAD_PARAM);
	reformat_cmd(&m, uid, 14);
	prm_set(m.in, PRM_REFORMAT_TYPE, 5);
	CHECK_EQ(run(fw, &m, PRM_REFORMAT_DATA_BYTE + 14, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	reformat_cmd(&m, uid, 14);
	m.in[12] = 1;
	CHECK_EQ(run(fw, &m, PRM_REFORMAT_DATA_BYTE + 14, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_RESERVED);

	/* Modify header: an action type 0, none, a table type 2, short. */
	modhdr_cmd(&m, uid, RX, 2);
	prm_set(m.in + PRM_MODHDR_ACTIONS_BYTE + PRM_MODHDR_ACTION_LEN,
		PRM_MODHDR_ACTION_TYPE, 0);
	CHECK_EQ(run(fw, &m, PRM_MODHDR_ACTIONS_BYTE +
				     2 * PRM_MODHDR_ACTION_LEN,
		     16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	CHECK_EQ(run(fw, &m, modhdr_cmd(&m, uid, RX, 0), 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(run(fw, &m, modhdr_cmd(&m, uid, 2, 1), 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_TABLE_TYPE);
	CHECK_EQ(run(fw, &m, modhdr_cmd(&m, uid, RX, 3) - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
}

/* CREATE_GENERAL_OBJECT of type, log_obj_range range, fields set. */
static void gobj_cmd(struct mbox *m, uint16_t opcode, uint16_t uid,
		     uint16_t type, uint32_t id, unsigned int range)
{
	mbox_init(m, opcode, uid, 0);
	prm_set(m->in, PRM_GOBJ_TYPE, type);
	prm_set(m->in, PRM_GOBJ_ID, id);
	prm_set(m->in, PRM_GOBJ_LOG_RANGE, range);
}

static void test_general_objects(struct emu_fw *fw, uint16_t uid,
				 uint16_t other)
{
	static const uint16_t aso[] = { PRM_OBJ_TYPE_ASO_FLOW_METER,
					PRM_OBJ_TYPE_ASO_FIRST_HIT,
					PRM_OBJ_TYPE_ASO_CT };
	uint32_t ft = make_ft(fw, uid, RX, 0), ft2 = make_ft(fw, uid, RX, 1);
	uint32_t pd = make_simple(fw, uid, PRM_OP_ALLOC_PD);
	uint32_t sampler, ids[3], fg, dest[2];
	struct mbox m;
	unsigned int i;
	size_t len;

	REQUIRE(ft && ft2 && pd);
	/* A sampler between two receive tables. */
	gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, 0, 0);
	prm_set(m.in, PRM_SAMPLER_TABLE_TYPE, RX);
	prm_set(m.in, PRM_SAMPLER_SAMPLE_TABLE, ft2);
	prm_set(m.in, PRM_SAMPLER_DEFAULT_TABLE, ft);
	CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN - 1, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	sampler = alloc_id(fw, &m, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN,
			   PRM_GOBJ_OUT_ID);
	REQUIRE(sampler);
	gobj_cmd(&m, PRM_OP_QUERY_GENERAL_OBJECT, uid,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, sampler, 0);
	CHECK_EQ(run(fw, &m, 16, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_SAMPLER_SAMPLE_TABLE), ft2);
	CHECK(prm_get64(m.out, PRM_SAMPLER_ICM_RX) != 0);
	/* No modify for a sampler. */
	gobj_cmd(&m, PRM_OP_MODIFY_GENERAL_OBJECT, uid,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, sampler, 0);
	CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_OBJ_TYPE);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_RES_BUSY);
	/* An entry forwarding to the sampler keeps it. */
	fg = make_fg(fw, &m, uid, RX, ft, 0, 3);
	REQUIRE(fg);
	dest[0] = PRM_FTE_DEST_FLOW_SAMPLER;
	dest[1] = sampler;
	len = fte_cmd(&m, uid, 0, RX, ft, fg, 0, PRM_FTE_ACTION_FWD_DEST, dest,
		      1, NULL, 0);
	CHECK_EQ(run(fw, &m, len, 16), 0);
	gobj_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, sampler, 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_RES_BUSY);
	/* A sampler number that names no sampler. */
	dest[1] = sampler + 1;
	len = fte_cmd(&m, uid, 0, RX, ft, fg, 1, PRM_FTE_ACTION_FWD_DEST, dest,
		      1, NULL, 0);
	CHECK_EQ(run(fw, &m, len, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);
	CHECK_EQ(fte_op(fw, &m, PRM_OP_DELETE_FLOW_TABLE_ENTRY, uid, RX, ft, 0),
		 0);
	CHECK_EQ(fg_op(fw, &m, PRM_OP_DESTROY_FLOW_GROUP, uid, RX, ft, fg), 0);
	/* Another uid's table, a transmit sampler on receive tables. */
	gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, other,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, 0, 0);
	prm_set(m.in, PRM_SAMPLER_SAMPLE_TABLE, ft2);
	CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, 0, 0);
	prm_set(m.in, PRM_SAMPLER_TABLE_TYPE, TX);
	prm_set(m.in, PRM_SAMPLER_SAMPLE_TABLE, ft2);
	prm_set(m.in, PRM_SAMPLER_DEFAULT_TABLE, ft);
	CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_SAMPLER_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_TABLE_TYPE);

	/* ASO objects: ranges, the access PD. */
	for (i = 0; i < 3; i++) {
		gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid, aso[i], 0, 3);
		prm_set(m.in, PRM_ASO_ACCESS_PD, pd);
		CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_ASO_LEN - 1, 16),
			 EMU_FW_STATUS_BAD_INPUT_LEN);
		ids[i] = alloc_id(fw, &m, PRM_GOBJ_BYTE + PRM_ASO_LEN,
				  PRM_GOBJ_OUT_ID);
		REQUIRE(ids[i]);
		CHECK_EQ(ids[i] % 8, 0);
		gobj_cmd(&m, PRM_OP_QUERY_GENERAL_OBJECT, uid, aso[i], ids[i],
			 0);
		CHECK_EQ(run(fw, &m, 16, PRM_GOBJ_BYTE + PRM_ASO_LEN), 0);
		CHECK_EQ(prm_get(m.out, PRM_ASO_ACCESS_PD), pd);
		gobj_cmd(&m, PRM_OP_QUERY_GENERAL_OBJECT, other, aso[i],
			 ids[i], 0);
		CHECK_EQ(run(fw, &m, 16, PRM_GOBJ_BYTE + PRM_ASO_LEN),
			 EMU_FW_STATUS_BAD_PARAM);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_UID_MISMATCH);
		/* A range past the cap; no PD; another uid's PD. */
		gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid, aso[i], 0, 9);
		prm_set(m.in, PRM_ASO_ACCESS_PD, pd);
		CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_ASO_LEN, 16),
			 EMU_FW_STATUS_BAD_PARAM);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
		gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, uid, aso[i], 0, 0);
		CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_ASO_LEN, 16),
			 EMU_FW_STATUS_BAD_PARAM);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_MISSING);
		gobj_cmd(&m, PRM_OP_CREATE_GENERAL_OBJECT, other, aso[i], 0,
			 0);
		prm_set(m.in, PRM_ASO_ACCESS_PD, pd);
		CHECK_EQ(run(fw, &m, PRM_GOBJ_BYTE + PRM_ASO_LEN, 16),
			 EMU_FW_STATUS_BAD_PARAM);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_REF_UID);
	}
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_PD, uid, pd, 16),
		 EMU_FW_STATUS_RES_BUSY);
	for (i = 0; i < 3; i++) {
		gobj_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid, aso[i],
			 ids[i], 0);
		CHECK_EQ(run(fw, &m, 16, 16), 0);
	}
	gobj_cmd(&m, PRM_OP_DESTROY_GENERAL_OBJECT, uid,
		 PRM_OBJ_TYPE_FLOW_SAMPLER, sampler, 0);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	CHECK_EQ(obj_cmd(fw, &m, PRM_OP_DEALLOC_PD, uid, pd, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft2);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
}

/*
 * SET_FLOW_TABLE_ROOT: a live table of the type, the uid's own; the
 * root cannot be destroyed until disconnected; no underlay QP, no other
 * op_mod.
 */
static void test_root(struct emu_fw *fw, uint16_t uid, uint16_t other)
{
	uint32_t ft = make_ft(fw, uid, RX, 0), tx = make_ft(fw, uid, TX, 0);
	struct mbox m;

	REQUIRE(ft && tx);
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, uid, RX, tx);
	CHECK_EQ(run(fw, &m, PRM_FT_ROOT_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_RES_STATE);
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, other, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FT_ROOT_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, uid, RX, ft);
	prm_set(m.in, PRM_FT_ROOT_UNDERLAY_QPN, 0x100);
	CHECK_EQ(run(fw, &m, PRM_FT_ROOT_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_FIELD);
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, uid, RX, ft);
	prm_set(m.in, PRM_HDR_OP_MOD, 2);
	CHECK_EQ(run(fw, &m, PRM_FT_ROOT_IN_LEN, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_OP_MOD);
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FT_ROOT_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), EMU_FW_STATUS_RES_BUSY);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BUSY);
	/* (the TX table is not RX's root: it goes) */
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, TX, tx);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_SET_FLOW_TABLE_ROOT, uid, RX, 0);
	prm_set(m.in, PRM_HDR_OP_MOD, PRM_FT_ROOT_DISCONNECT);
	CHECK_EQ(run(fw, &m, PRM_FT_ROOT_IN_LEN, 16), 0);
	fs_cmd(&m, PRM_OP_DESTROY_FLOW_TABLE, uid, RX, ft);
	CHECK_EQ(run(fw, &m, PRM_FS_IN_LEN, 16), 0);
}

int main(void)
{
	uint16_t uid, other;
	struct emu_fw *fw = fw_two_uctx(&uid, &other);

	test_root(fw, uid, other);
	test_tables(fw, uid, other);
	test_entries(fw, uid, other);
	test_contexts(fw, uid);
	test_general_objects(fw, uid, other);
	CHECK_EQ(emu_fw_object_count(fw, uid), 0);
	CHECK_EQ(emu_fw_object_count(fw, other), 0);
	CHECK_EQ(destroy_uctx(fw, other), 0);
	/* Steering left behind is freed with the device (valgrind sees). */
	{
		uint32_t ft = make_ft(fw, uid, RX, 0), ft2;
		struct mbox m;
		uint32_t fg, dest[2];
		size_t len;

		ft2 = make_ft(fw, uid, RX, 2);
		fg = make_fg(fw, &m, uid, RX, ft, 0, 3);
		dest[0] = PRM_FTE_DEST_FLOW_TABLE;
		dest[1] = ft2;
		len = fte_cmd(&m, uid, 0, RX, ft, fg, 1,
			      PRM_FTE_ACTION_FWD_DEST, dest, 1, NULL, 0);
		CHECK_EQ(run(fw, &m, len, 16), 0);
	}
	emu_fw_free(fw);
	return check_done("firmware_flow");
}
