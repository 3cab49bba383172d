// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The DEVX command classification against the kernel's devx.c rules,
 * and with the firmware model: the id a create makes is the id its
 * query and modify address, and the destroy built from a create is one
 * the firmware accepts.
 */
#include "check.h"
#include "devx_cmd.h"
#include "fw_test_util.h"

static uint8_t in[512], out[512];

/* What get_enc_obj_id() makes: the creator (and obj_type) above the id. */
#define ENC(creator, id) ((uint64_t)(creator) << 32 | (id))

static const uint8_t *cmd(uint16_t opcode, uint16_t op_mod)
{
	memset(in, 0, sizeof(in));
	prm_set(in, PRM_HDR_OPCODE, opcode);
	prm_set(in, PRM_HDR_OP_MOD, op_mod);
	return in;
}

static void test_classes(void)
{
	/* MLX5_IB_METHOD_DEVX_OTHER */
	CHECK(devx_cmd_is_general(cmd(PRM_OP_QUERY_HCA_CAP, 1), 16));
	CHECK(devx_cmd_is_general(cmd(PRM_OP_QUERY_NIC_VPORT_CONTEXT, 0), 16));
	CHECK(devx_cmd_is_general(cmd(PRM_OP_QUERY_LAG, 0), 16));
	CHECK(devx_cmd_is_general(cmd(PRM_OP_NOP, 0), 16));
	CHECK(devx_cmd_is_general(cmd(0xb00, 0), 16));
	CHECK(devx_cmd_is_general(cmd(0xcff, 0), 16));
	CHECK(!devx_cmd_is_general(cmd(0xd00, 0), 16));
	CHECK(!devx_cmd_is_general(cmd(PRM_OP_CREATE_GENERAL_OBJECT, 0), 16));
	CHECK(!devx_cmd_is_general(cmd(PRM_OP_CREATE_UCTX, 0), 16));
	CHECK(!devx_cmd_is_general(cmd(PRM_OP_QUERY_HCA_CAP, 0), 1));
	CHECK(!devx_cmd_is_general(NULL, 16));

	/* MLX5_IB_METHOD_DEVX_OBJ_CREATE */
	CHECK(devx_cmd_is_obj_create(cmd(PRM_OP_ALLOC_FLOW_COUNTER, 0), 16));
	CHECK(devx_cmd_is_obj_create(cmd(PRM_OP_CREATE_GENERAL_OBJECT, 0xa),
				     16));
	CHECK(devx_cmd_is_obj_create(cmd(PRM_OP_CREATE_QP, 0), 16));
	CHECK(devx_cmd_is_obj_create(cmd(PRM_OP_ALLOC_PD, 0), 16));
	CHECK(!devx_cmd_is_obj_create(cmd(PRM_OP_CREATE_UMEM, 0), 16));
	CHECK(!devx_cmd_is_obj_create(cmd(PRM_OP_QUERY_HCA_CAP, 0), 16));
	CHECK(devx_cmd_is_obj_create(cmd(PRM_OP_SET_FLOW_TABLE_ENTRY, 0),
				     16));
	CHECK(!devx_cmd_is_obj_create(cmd(PRM_OP_SET_FLOW_TABLE_ENTRY, 1),
				      16));
	cmd(PRM_OP_CREATE_PSV, 0);
	prm_set(in, PRM_CREATE_PSV_NUM, 1);
	CHECK(devx_cmd_is_obj_create(in, 16));
	prm_set(in, PRM_CREATE_PSV_NUM, 2);
	CHECK(!devx_cmd_is_obj_create(in, 16));
	CHECK(!devx_cmd_is_obj_create(in, 1));

	/* MLX5_IB_METHOD_DEVX_OBJ_MODIFY */
	CHECK(devx_cmd_is_obj_modify(cmd(PRM_OP_MODIFY_GENERAL_OBJECT, 0),
				     16));
	CHECK(devx_cmd_is_obj_modify(cmd(PRM_OP_RST2INIT_QP, 0), 16));
	CHECK(devx_cmd_is_obj_modify(cmd(PRM_OP_SET_FLOW_TABLE_ENTRY, 1),
				     16));
	CHECK(!devx_cmd_is_obj_modify(cmd(PRM_OP_SET_FLOW_TABLE_ENTRY, 0),
				      16));
	CHECK(!devx_cmd_is_obj_modify(cmd(PRM_OP_QUERY_FLOW_COUNTER, 0), 16));

	/* MLX5_IB_METHOD_DEVX_OBJ_QUERY */
	CHECK(devx_cmd_is_obj_query(cmd(PRM_OP_QUERY_FLOW_COUNTER, 0), 16));
	CHECK(devx_cmd_is_obj_query(cmd(PRM_OP_QUERY_GENERAL_OBJECT, 0), 16));
	CHECK(devx_cmd_is_obj_query(cmd(PRM_OP_QUERY_QP, 0), 16));
	CHECK(!devx_cmd_is_obj_query(cmd(PRM_OP_MODIFY_GENERAL_OBJECT, 0),
				     16));
	CHECK(!devx_cmd_is_obj_query(cmd(PRM_OP_QUERY_HCA_CAP, 0), 16));
	CHECK(!devx_cmd_is_obj_query(NULL, 16));
}

static void test_obj_ids(void)
{
	/*
	 * get_enc_obj_id(): creator opcode (and obj_type) above the id, and
	 * 0 when the id's field lies beyond the input (short_len).
	 */
	static const struct {
		uint16_t opcode, op_mod, creator;
		unsigned int off, width;
		uint32_t id;
		size_t len, short_len;
	} ids[] = {
		{ PRM_OP_QUERY_QP, 0, PRM_OP_CREATE_QP,
		  PRM_IN_OBJN, 0x123, 16, 0 },
		{ PRM_OP_RTS2RTS_QP, 0, PRM_OP_CREATE_QP,
		  PRM_IN_OBJN, 0x123, 16, 0 },
		{ PRM_OP_QUERY_FLOW_TABLE, 0, PRM_OP_CREATE_FLOW_TABLE,
		  PRM_FS_TABLE_ID, 0x77, 32, 16 },
		{ PRM_OP_QUERY_FLOW_GROUP, 0, PRM_OP_CREATE_FLOW_GROUP,
		  PRM_FS_GROUP_ID, 0x88, 32, 0 },
		{ PRM_OP_SET_FLOW_TABLE_ENTRY, 1, PRM_OP_SET_FLOW_TABLE_ENTRY,
		  PRM_FS_FTE_INDEX, 9, 64, 0 },
		{ PRM_OP_QUERY_FLOW_COUNTER, 0, PRM_OP_ALLOC_FLOW_COUNTER,
		  PRM_QUERY_FC_ID, 0x800001, 32, 16 },
	};
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		cmd(ids[i].opcode, ids[i].op_mod);
		prm_set(in, ids[i].off, ids[i].width, ids[i].id);
		CHECK(devx_cmd_obj_id(in, ids[i].len) ==
		      ENC(ids[i].creator, ids[i].id));
		if (ids[i].short_len)
			CHECK(devx_cmd_obj_id(in, ids[i].short_len) == 0);
	}

	cmd(PRM_OP_QUERY_GENERAL_OBJECT, 0);
	prm_set(in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(in, PRM_GOBJ_ID, 5);
	CHECK(devx_cmd_obj_id(in, 16) ==
	      ENC(PRM_OP_CREATE_GENERAL_OBJECT |
		  PRM_OBJ_TYPE_FLOW_METER << 16, 5));

	cmd(PRM_OP_QUERY_HCA_CAP, 0);
	CHECK(devx_cmd_obj_id(in, 16) == 0);
	CHECK(devx_cmd_obj_id(NULL, 16) == 0);
	CHECK(devx_cmd_enc_obj_id(PRM_OP_ALLOC_FLOW_COUNTER, 7) ==
	      ENC(PRM_OP_ALLOC_FLOW_COUNTER, 7));
}

/* Creates through the model; the id, query/modify ids, the destroy. */
static void test_with_model(void)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);
	uint8_t din[DEVX_CMD_DESTROY_INBOX_MAX], dout[16];
	uint8_t q[PRM_METER_IN_LEN];
	uint64_t created;
	uint32_t dinlen;
	uint16_t uid;
	uint32_t id;

	REQUIRE(fw);
	uid = make_uctx(fw);
	REQUIRE(uid);

	/* Flow counter. */
	cmd(PRM_OP_ALLOC_FLOW_COUNTER, 0);
	prm_set(in, PRM_HDR_UID, uid);
	REQUIRE(!emu_fw_exec(fw, in, 16, out, 16));
	CHECK_EQ(out[0], 0);
	id = prm_get(out, PRM_ALLOC_FC_OUT_ID);
	created = devx_cmd_created_obj_id(in, out);
	CHECK(created == devx_cmd_enc_obj_id(PRM_OP_ALLOC_FLOW_COUNTER, id));
	memset(q, 0, sizeof(q));
	prm_set(q, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(q, PRM_QUERY_FC_ID, id);
	CHECK(devx_cmd_obj_id(q, PRM_QUERY_FC_IN_LEN) == created);

	memset(din, 0xee, sizeof(din));
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(dinlen, 16);
	CHECK_EQ(prm_get(din, PRM_HDR_OPCODE), PRM_OP_DEALLOC_FLOW_COUNTER);
	CHECK_EQ(prm_get(din, PRM_HDR_UID), uid);
	CHECK_EQ(prm_get(din, PRM_DEALLOC_FC_ID), id);
	CHECK_EQ(emu_fw_object_count(fw, uid), 1);
	REQUIRE(!emu_fw_exec(fw, din, dinlen, dout, sizeof(dout)));
	CHECK_EQ(dout[0], EMU_FW_STATUS_OK);
	CHECK_EQ(emu_fw_object_count(fw, uid), 0);
	/* The same destroy again: the object is gone. */
	REQUIRE(!emu_fw_exec(fw, din, dinlen, dout, sizeof(dout)));
	CHECK_EQ(dout[0], EMU_FW_STATUS_BAD_RES_STATE);

	/* Flow meter. */
	cmd(PRM_OP_CREATE_GENERAL_OBJECT, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(in, PRM_HDR_UID, uid);
	REQUIRE(!emu_fw_exec(fw, in, PRM_METER_IN_LEN, out, 16));
	CHECK_EQ(out[0], 0);
	id = prm_get(out, PRM_GOBJ_OUT_ID);
	created = devx_cmd_created_obj_id(in, out);
	CHECK(created == devx_cmd_enc_obj_id(PRM_OP_CREATE_GENERAL_OBJECT |
					     PRM_OBJ_TYPE_FLOW_METER << 16,
					     id));
	memset(q, 0, sizeof(q));
	prm_set(q, PRM_HDR_OPCODE, PRM_OP_MODIFY_GENERAL_OBJECT);
	prm_set(q, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(q, PRM_GOBJ_ID, id);
	CHECK(devx_cmd_obj_id(q, sizeof(q)) == created);
	prm_set(q, PRM_HDR_OPCODE, PRM_OP_QUERY_GENERAL_OBJECT);
	CHECK(devx_cmd_obj_id(q, 16) == created);
	prm_set(q, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_SAMPLER);
	CHECK(devx_cmd_obj_id(q, 16) != created);

	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(dinlen, 16);
	CHECK_EQ(prm_get(din, PRM_HDR_OPCODE), PRM_OP_DESTROY_GENERAL_OBJECT);
	CHECK_EQ(prm_get(din, PRM_GOBJ_TYPE), PRM_OBJ_TYPE_FLOW_METER);
	REQUIRE(!emu_fw_exec(fw, din, dinlen, dout, sizeof(dout)));
	CHECK_EQ(dout[0], EMU_FW_STATUS_OK);

	/* UMEM, which the kernel registers itself (uid of the context). */
	cmd(PRM_OP_CREATE_UMEM, 0);
	prm_set(in, PRM_HDR_UID, uid);
	prm_set64(in, PRM_UMEM_NUM_MTT, 1);
	REQUIRE(!emu_fw_exec(fw, in, PRM_UMEM_MTT_BYTE + 8, out, 16));
	CHECK_EQ(out[0], 0);
	id = prm_get(out, PRM_UMEM_OUT_ID);
	CHECK(devx_cmd_created_obj_id(in, out) ==
	      devx_cmd_enc_obj_id(PRM_OP_CREATE_UMEM, id));
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(prm_get(din, PRM_DESTROY_UMEM_ID), id);
	REQUIRE(!emu_fw_exec(fw, din, dinlen, dout, sizeof(dout)));
	CHECK_EQ(dout[0], EMU_FW_STATUS_OK);

	/* PD. */
	cmd(PRM_OP_ALLOC_PD, 0);
	prm_set(in, PRM_HDR_UID, uid);
	REQUIRE(!emu_fw_exec(fw, in, 16, out, 16));
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(prm_get(din, PRM_HDR_OPCODE), PRM_OP_DEALLOC_PD);
	REQUIRE(!emu_fw_exec(fw, din, dinlen, dout, sizeof(dout)));
	CHECK_EQ(dout[0], EMU_FW_STATUS_OK);

	CHECK_EQ(emu_fw_object_count(fw, uid), 0);
	CHECK_EQ(destroy_uctx(fw, uid), 0);
	emu_fw_free(fw);
}

/* Destroys that carry more than the number (devx_obj_build_destroy_cmd) */
static void test_destroy_shapes(void)
{
	uint8_t din[DEVX_CMD_DESTROY_INBOX_MAX];
	uint32_t dinlen = 0;
	int i;

	/* Flow group: vport, table type and table id come along. */
	cmd(PRM_OP_CREATE_FLOW_GROUP, 0);
	prm_set(in, PRM_HDR_UID, 3);
	prm_set(in, PRM_FS_OTHER_VPORT, 1);
	prm_set(in, PRM_FS_VPORT_NUMBER, 0x21);
	prm_set(in, PRM_FS_TABLE_TYPE, 2);
	prm_set(in, PRM_FS_TABLE_ID, 0x4455);
	memset(out, 0, sizeof(out));
	prm_set(out, PRM_OUT_OBJN, 0x66);
	CHECK(devx_cmd_created_obj_id(in, out) ==
	      ENC(PRM_OP_CREATE_FLOW_GROUP, 0x66));
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(dinlen, 64);
	CHECK_FIELDS(din, FIELD(PRM_HDR_OPCODE, PRM_OP_DESTROY_FLOW_GROUP),
		     FIELD(PRM_HDR_UID, 3), FIELD(PRM_FS_OTHER_VPORT, 1),
		     FIELD(PRM_FS_VPORT_NUMBER, 0x21),
		     FIELD(PRM_FS_TABLE_TYPE, 2),
		     FIELD(PRM_FS_TABLE_ID, 0x4455),
		     FIELD(PRM_FS_GROUP_ID, 0x66));

	/* Flow table entry: its number is chosen by the caller (input). */
	cmd(PRM_OP_SET_FLOW_TABLE_ENTRY, 0);
	prm_set(in, PRM_FS_TABLE_ID, 0x10);
	prm_set(in, PRM_FS_FTE_INDEX, 42);
	memset(out, 0, sizeof(out));
	CHECK(devx_cmd_created_obj_id(in, out) ==
	      ENC(PRM_OP_SET_FLOW_TABLE_ENTRY, 42));
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(prm_get(din, PRM_HDR_OPCODE),
		 PRM_OP_DELETE_FLOW_TABLE_ENTRY);
	CHECK_EQ(prm_get(din, PRM_FS_FTE_INDEX), 42);
	CHECK_EQ(prm_get(din, PRM_FS_TABLE_ID), 0x10);

	/* Multicast attach: detach with the same QP and GID. */
	cmd(PRM_OP_ATTACH_TO_MCG, 0);
	prm_set(in, PRM_IN_OBJN, 0x99);
	for (i = 0; i < 16; i++)
		in[16 + i] = (uint8_t)(0xf0 + i);
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), 0);
	CHECK_EQ(dinlen, 32);
	CHECK_EQ(prm_get(din, PRM_HDR_OPCODE), PRM_OP_DETACH_FROM_MCG);
	CHECK_EQ(prm_get(din, PRM_IN_OBJN), 0x99);
	CHECK(!memcmp(din + 16, in + 16, 16));

	/* CREATE_PSV's object is its first PSV. */
	cmd(PRM_OP_CREATE_PSV, 0);
	memset(out, 0, sizeof(out));
	prm_set(out, PRM_CREATE_PSV_OUT_PSV0, 0x3b);
	CHECK(devx_cmd_created_obj_id(in, out) ==
	      ENC(PRM_OP_CREATE_PSV, 0x3b));

	/* Not a create, or no buffers. */
	cmd(PRM_OP_QUERY_HCA_CAP, 0);
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, &dinlen), -EINVAL);
	CHECK(devx_cmd_created_obj_id(in, out) == 0);
	CHECK_EQ(devx_cmd_build_destroy(NULL, out, din, &dinlen), -EINVAL);
	CHECK_EQ(devx_cmd_build_destroy(in, out, NULL, &dinlen), -EINVAL);
	CHECK_EQ(devx_cmd_build_destroy(in, out, din, NULL), -EINVAL);
	CHECK(devx_cmd_created_obj_id(NULL, out) == 0);
}

/* How many bits of in are set. */
static unsigned int bits_set(void)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < sizeof(in); i++)
		n += (unsigned int)__builtin_popcount(in[i]);
	return n;
}

/* After devx_cmd_set_umem_valid(), exactly the two bits given are set. */
static void check_umem_valid(uint16_t opcode, unsigned int a,
			     unsigned int b)
{
	unsigned int hdr;

	cmd(opcode, 0);
	hdr = bits_set();
	devx_cmd_set_umem_valid(in, sizeof(in));
	CHECK_EQ(prm_get(in, a, 1), 1);
	CHECK_EQ(prm_get(in, b, 1), 1);
	CHECK_EQ(bits_set(), hdr + (a == b ? 1 : 2));
}

static void test_umem_valid(void)
{
	unsigned int hdr;

	check_umem_valid(PRM_OP_CREATE_CQ, PRM_OFF(PRM_CQ_UMEM_VALID),
			 PRM_OFF(PRM_CQC_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_CREATE_QP, PRM_OFF(PRM_QP_WQ_UMEM_VALID),
			 PRM_OFF(PRM_QPC_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_CREATE_RQ, PRM_OFF(PRM_WQ_UMEM_VALID),
			 PRM_OFF(PRM_WQ_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_CREATE_SQ, PRM_OFF(PRM_WQ_UMEM_VALID),
			 PRM_OFF(PRM_WQ_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_CREATE_RMP, PRM_OFF(PRM_WQ_UMEM_VALID),
			 PRM_OFF(PRM_WQ_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_CREATE_XRQ, PRM_OFF(PRM_XRQ_WQ_UMEM_VALID),
			 PRM_OFF(PRM_XRQ_WQ_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_CREATE_XRC_SRQ,
			 PRM_OFF(PRM_XRC_SRQ_UMEM_VALID),
			 PRM_OFF(PRM_XRC_SRQC_DBR_UMEM_VALID));
	check_umem_valid(PRM_OP_MODIFY_CQ, PRM_OFF(PRM_MODIFY_CQ_UMEM_VALID),
			 PRM_OFF(PRM_MODIFY_CQ_UMEM_VALID));

	/* other commands, a short one and no command at all: untouched */
	cmd(PRM_OP_CREATE_TIS, 0);
	hdr = bits_set();
	devx_cmd_set_umem_valid(in, sizeof(in));
	CHECK_EQ(bits_set(), hdr);
	cmd(PRM_OP_CREATE_QP, 0);
	hdr = bits_set();
	devx_cmd_set_umem_valid(in, PRM_BYTE(PRM_QP_WQ_UMEM_VALID));
	CHECK_EQ(bits_set(), hdr + 1);	/* the doorbell's bit fits, not wq's */
	CHECK_EQ(prm_get(in, PRM_QPC_DBR_UMEM_VALID), 1);
	devx_cmd_set_umem_valid(NULL, sizeof(in));

	/* CREATE_MKEY: the whole key context, and only direct keys */
	cmd(PRM_OP_CREATE_MKEY, 0);
	CHECK_EQ(devx_cmd_mkey_create(in, PRM_MKC_BYTE + PRM_MKC_LEN - 1),
		 -EINVAL);
	CHECK_EQ(prm_get(in, PRM_MKEY_UMEM_VALID), 0);
	CHECK_EQ(devx_cmd_mkey_create(NULL, sizeof(in)), -EINVAL);
	CHECK_EQ(devx_cmd_mkey_create(in, PRM_MKC_BYTE + PRM_MKC_LEN), 0);
	CHECK_EQ(prm_get(in, PRM_MKEY_UMEM_VALID), 1);
	cmd(PRM_OP_CREATE_MKEY, 0);
	prm_set(in, PRM_MKC_ACCESS_MODE_1_0, PRM_MKC_ACCESS_MODE_KLMS);
	CHECK_EQ(devx_cmd_mkey_create(in, sizeof(in)), 0);
	CHECK_EQ(prm_get(in, PRM_MKEY_UMEM_VALID), 0);
	prm_set(in, PRM_MKC_ACCESS_MODE_1_0, PRM_MKC_ACCESS_MODE_KSM);
	CHECK_EQ(devx_cmd_mkey_create(in, sizeof(in)), 0);
	CHECK_EQ(prm_get(in, PRM_MKEY_UMEM_VALID), 0);
	/* mode 6 (4_2 = 1, 1_0 = 2) is not KLMS: the high bits count */
	prm_set(in, PRM_MKC_ACCESS_MODE_1_0, PRM_MKC_ACCESS_MODE_KLMS);
	prm_set(in, PRM_MKC_ACCESS_MODE_4_2, 1);
	CHECK_EQ(devx_cmd_mkey_create(in, sizeof(in)), 0);
	CHECK_EQ(prm_get(in, PRM_MKEY_UMEM_VALID), 1);
}

static void test_names(void)
{
	CHECK(!strcmp(devx_cmd_opcode_name(PRM_OP_QUERY_HCA_CAP),
		     "QUERY_HCA_CAP"));
	CHECK(!strcmp(devx_cmd_opcode_name(PRM_OP_ALLOC_FLOW_COUNTER),
		     "ALLOC_FLOW_COUNTER"));
	CHECK(!strcmp(devx_cmd_opcode_name(PRM_OP_CREATE_GENERAL_OBJECT),
		     "CREATE_GENERAL_OBJECT"));
	CHECK(!strcmp(devx_cmd_opcode_name(0xffff), "UNKNOWN"));
}

int main(void)
{
	test_classes();
	test_obj_ids();
	test_with_model();
	test_destroy_shapes();
	test_umem_valid();
	test_names();
	return check_done("firmware_devx_cmd");
}
