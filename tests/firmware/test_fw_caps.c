// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's device queries and command checks: capabilities
 * as libmlx5 44 reads them at open time and in mlx5dv_query_device()
 * and ibv_query_device_ex(), vport queries, mailbox length checks, the
 * bad-opcode answer, the trace switch and the status helpers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "emu_ibdev.h"
#include "fw_test_util.h"

#define CUR 1
#define MAX 0
#define CAP_OP_MOD(type, cur) ((type) << 1 | (cur))

static const uint8_t *cap_area(const struct mbox *m)
{
	return m->out + PRM_CAP_AREA_BYTE;
}

static int query_cap(struct emu_fw *fw, struct mbox *m, unsigned int type,
		     int cur)
{
	mbox_init(m, PRM_OP_QUERY_HCA_CAP, 0, CAP_OP_MOD(type, cur));
	return run(fw, m, 16, PRM_QUERY_HCA_CAP_OUT_LEN);
}

static void test_exec_arguments(struct emu_fw *fw)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_NOP, 0, 0);
	CHECK_EQ(emu_fw_exec(NULL, m.in, 16, m.out, 16), -EINVAL);
	CHECK_EQ(emu_fw_exec(fw, NULL, 16, m.out, 16), -EINVAL);
	CHECK_EQ(emu_fw_exec(fw, m.in, 16, NULL, 16), -EINVAL);
	CHECK_EQ(emu_fw_exec(fw, m.in, 15, m.out, 16), -EINVAL);
	CHECK_EQ(emu_fw_exec(fw, m.in, 16, m.out, 15), -EINVAL);
	/* The command layer refused it: the output is untouched. */
	CHECK_EQ(m.out[0], 0xa5);
	CHECK_EQ(emu_fw_exec(fw, m.in, 16, m.out, 16), 0);
	CHECK_EQ(prm_get(m.out, PRM_OUT_STATUS), EMU_FW_STATUS_OK);
	CHECK_EQ(m.out[8], 0);
}

static void test_general_caps(void)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);
	struct emu_fw *other = emu_fw_new(TEST_GUID + 1);
	struct mbox m, mx;
	const uint8_t *c;

	REQUIRE(fw && other);
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_GENERAL, CUR), 0);
	CHECK_EQ(syndrome(&m), 0);
	c = cap_area(&m);
	CHECK_EQ(prm_get(c, PRM_CAP_VHCA_ID), emu_fw_vhca_id(fw));
	CHECK(emu_fw_vhca_id(fw) != emu_fw_vhca_id(other));
	CHECK_EQ(emu_fw_node_guid(fw), TEST_GUID);
	/* What the model implements, and only that. */
	CHECK(prm_get64(c, PRM_CAP_GENERAL_OBJ_TYPES) ==
	      (1ull << PRM_OBJ_TYPE_FLOW_METER |
	       1ull << PRM_OBJ_TYPE_FLOW_SAMPLER |
	       1ull << PRM_OBJ_TYPE_ASO_FLOW_METER |
	       1ull << PRM_OBJ_TYPE_ASO_FIRST_HIT |
	       1ull << PRM_OBJ_TYPE_ASO_CT));
	CHECK(prm_get(c, PRM_CAP_LOG_MAX_UMEM) > 0);
	CHECK_EQ(prm_get(c, PRM_CAP_MAX_FLOW_COUNTER_HI) << 16 |
		 prm_get(c, PRM_CAP_MAX_FLOW_COUNTER_LO), 1 << 18);
	CHECK_FIELDS(c, FIELD(PRM_CAP_LOG_MAX_TIR, 16),
		     FIELD(PRM_CAP_LOG_MAX_RQT_SIZE, 11),
		     FIELD(PRM_CAP_LOG_FLOW_HIT_ASO_MAX_ALLOC, 8),
		     FIELD(PRM_CAP_LOG_MAX_UCTX, 10),
		     FIELD(PRM_CAP_FLOW_COUNTER_BULK_ALLOC, 0xff),
		     FIELD(PRM_CAP_PORT_TYPE, 0),	/* InfiniBand */
		     FIELD(PRM_CAP_LOG_MAX_QP, 18),
		     FIELD(PRM_CAP_DEVICE_FREQ_KHZ, 156250),
		     FIELD(PRM_CAP_NUM_PORTS, 1),
		     FIELD(PRM_CAP_CQE_VERSION, 1),
		     FIELD(PRM_CAP_HCA_CAP_2, 1),
		     FIELD(PRM_CAP_CRYPTO, 0),
		     FIELD(PRM_CAP_DEVICE_MEMORY, 0),
		     FIELD(PRM_CAP_UCTX_CAP, 1));
	/* The 0xa5 garbage was replaced, reserved words included. */
	CHECK_EQ(m.out[8], 0);
	CHECK_EQ(c[PRM_CAP_AREA_LEN - 1], 0);

	/* op_mod bit 0: maximum and current differ where a driver sets. */
	CHECK_EQ(query_cap(fw, &mx, PRM_CAP_TYPE_GENERAL, MAX), 0);
	CHECK_EQ(prm_get(cap_area(&mx), PRM_CAP_CMDIF_CHECKSUM), 3);
	CHECK_EQ(prm_get(c, PRM_CAP_CMDIF_CHECKSUM), 0);
	CHECK_EQ(prm_get(cap_area(&mx), PRM_CAP_LOG_MAX_QP),
		 prm_get(c, PRM_CAP_LOG_MAX_QP));

	emu_fw_free(fw);
	emu_fw_free(other);
}

/* The capability types libmlx5 44 asks for, and two it must not get. */
static void test_other_caps(struct emu_fw *fw)
{
	struct mbox m;

	/* get_hca_general_caps_2() */
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_GENERAL_2, CUR), 0);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP2_LOG_CONN_TRACK_MAX_ALLOC), 8);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP2_LOG_MAX_CONN_TRACK), 16);
	/* get_dc_odp_caps(): no ODP on this device, so no DC ODP bits */
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_ODP, CUR), 0);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_ODP_DC), 0);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_ODP_RC), 0);
	/* get_pci_atomic_caps() */
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_ATOMIC, CUR), 0);
	CHECK(prm_get(cap_area(&m), PRM_CAP_FETCH_ADD_PCI_ATOMIC) != 0);
	/* get_qos_caps(), asked because the general caps say qos */
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_QOS, CUR), 0);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_QOS_LOG_MAX_NUM_METER_ASO), 16);
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_ROCE, CUR), 0);
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_FLOW_TABLE, MAX), 0);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_FT_NIC_RX_FT_SUPPORT), 1);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_FT_NIC_RX_MAX_FT_LEVEL), 127);
	/* The transmit block says the same at its own offset. */
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_FT_NIC_TX_PROPS +
					       PRM_FT_PROP_FT_SUPPORT),
		 1);
	CHECK_EQ(prm_get(cap_area(&m), PRM_CAP_FT_NIC_TX_PROPS +
					       PRM_FT_PROP_LOG_MAX_FT_SIZE),
		 23);
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_ESWITCH, CUR), 0);

	/* Absent in the general caps, so absent here. */
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_CRYPTO, CUR),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_CAP_TYPE);
	/* Device memory: the page is there, without MEMIC */
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_DEV_MEM, CUR), 0);
	CHECK_EQ(prm_get(cap_area(&m), 0, 32), 0);
	CHECK_EQ(query_cap(fw, &m, PRM_CAP_TYPE_CRYPTO, CUR),
		 EMU_FW_STATUS_BAD_PARAM);
	/* A failed command returns only its status and syndrome. */
	CHECK_EQ(m.out[8], 0);
	CHECK_EQ(m.out[PRM_CAP_AREA_BYTE], 0);

	/* No other function to ask about. */
	mbox_init(&m, PRM_OP_QUERY_HCA_CAP, 0, CAP_OP_MOD(0, CUR));
	prm_set(m.in, PRM_QUERY_CAP_OTHER_FUNCTION, 1);
	CHECK_EQ(run(fw, &m, 16, PRM_QUERY_HCA_CAP_OUT_LEN),
		 EMU_FW_STATUS_BAD_PARAM);
}

static void test_lengths(struct emu_fw *fw)
{
	struct mbox m;

	/* room for cmd_hca_cap is enough: the same caps, cut there */
	mbox_init(&m, PRM_OP_QUERY_HCA_CAP, 0, CAP_OP_MOD(0, CUR));
	CHECK_EQ(run(fw, &m, 16, PRM_QUERY_HCA_CAP_OUT_LEN), 0);
	{
		struct mbox s;

		mbox_init(&s, PRM_OP_QUERY_HCA_CAP, 0, CAP_OP_MOD(0, CUR));
		CHECK_EQ(run(fw, &s, 16, PRM_QUERY_HCA_CAP_MIN_OUT_LEN), 0);
		CHECK(!memcmp(s.out, m.out, PRM_QUERY_HCA_CAP_MIN_OUT_LEN));
	}
	mbox_init(&m, PRM_OP_QUERY_HCA_CAP, 0, CAP_OP_MOD(0, CUR));
	CHECK_EQ(run(fw, &m, 16, PRM_QUERY_HCA_CAP_MIN_OUT_LEN - 1),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_OUTPUT_LEN);
	CHECK_EQ(m.out[PRM_CAP_AREA_BYTE], 0);

	mbox_init(&m, PRM_OP_CREATE_UCTX, 0, 0);
	CHECK_EQ(run(fw, &m, PRM_CREATE_UCTX_IN_LEN - 4, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_INPUT_LEN);

	mbox_init(&m, PRM_OP_QUERY_NIC_VPORT_CONTEXT, 0, 0);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_OUTPUT_LEN);
}

static void test_bad_opcode(struct emu_fw *fw)
{
	static const uint16_t not_modelled[] = {
		0x7ff, 0xffff, PRM_OP_CREATE_DCT, PRM_OP_CREATE_PSV,
		PRM_OP_QUERY_VNIC_ENV, PRM_OP_SYNC_STEERING,
	};
	struct mbox m;
	size_t i;

	for (i = 0; i < sizeof(not_modelled) / sizeof(not_modelled[0]); i++) {
		mbox_init(&m, not_modelled[i], 0, 0);
		CHECK_EQ(run(fw, &m, 64, 64), EMU_FW_STATUS_BAD_OP);
		CHECK_EQ(syndrome(&m), EMU_FW_SYND_UNKNOWN_OPCODE);
		CHECK_EQ(m.out[8], 0);
	}
}

static void test_vport_queries(struct emu_fw *fw)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_QUERY_ISSI, 0, 0);
	CHECK_EQ(run(fw, &m, 16, PRM_QUERY_ISSI_OUT_LEN), 0);
	CHECK_EQ(prm_get(m.out, PRM_ISSI_CURRENT), 1);
	CHECK_EQ(prm_get(m.out, PRM_ISSI_SUPPORTED_DW0), 3);

	mbox_init(&m, PRM_OP_NOP, 0, 0);
	CHECK_EQ(run(fw, &m, 16, 16), 0);

	mbox_init(&m, PRM_OP_QUERY_VPORT_STATE, 0, 0);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	CHECK_EQ(prm_get(m.out, PRM_VPORT_STATE_OPER), 1);
	mbox_init(&m, PRM_OP_QUERY_VPORT_STATE, 0, 3);
	CHECK_EQ(run(fw, &m, 16, 16), EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_BAD_OP_MOD);

	mbox_init(&m, PRM_OP_QUERY_NIC_VPORT_CONTEXT, 0, 0);
	CHECK_EQ(run(fw, &m, 16, PRM_NIC_VPORT_OUT_LEN), 0);
	CHECK(prm_get64(m.out, PRM_NIC_VPORT_NODE_GUID) == TEST_GUID);
	CHECK(prm_get64(m.out, PRM_NIC_VPORT_SYS_IMAGE_GUID) == TEST_GUID);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_ROCE_EN), 1);
	/* MAC from the EUI-64 GUID 24:8a:07:03:00:5e:1a:2b. */
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_MAC_HI), 0x268a);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_MAC_LO), 0x075e1a2b);

	mbox_init(&m, PRM_OP_QUERY_NIC_VPORT_CONTEXT, 0, 0);
	prm_set(m.in, PRM_VPORT_OTHER, 1);
	prm_set(m.in, PRM_VPORT_NUMBER, 1);
	CHECK_EQ(run(fw, &m, 16, PRM_NIC_VPORT_OUT_LEN),
		 EMU_FW_STATUS_BAD_PARAM);
	CHECK_EQ(syndrome(&m), EMU_FW_SYND_VPORT);

	mbox_init(&m, PRM_OP_QUERY_ESW_VPORT_CONTEXT, 0, 0);
	CHECK_EQ(run(fw, &m, 16, PRM_ESW_VPORT_OUT_LEN), 0);

	mbox_init(&m, PRM_OP_QUERY_HCA_VPORT_CONTEXT, 0, 0);
	CHECK_EQ(run(fw, &m, 16, PRM_HCA_VPORT_OUT_LEN), 0);
	CHECK(prm_get64(m.out, PRM_HCA_VPORT_NODE_GUID) == TEST_GUID);
	CHECK(prm_get64(m.out, PRM_HCA_VPORT_PORT_GUID) == TEST_GUID);
	CHECK_EQ(prm_get(m.out, PRM_HCA_VPORT_PORT_STATE), 1);	/* DOWN */
	{
		/* the port facts of the device this GUID names */
		struct emu_port_facts p;

		REQUIRE(emu_ibdev_port(emu_device_index(TEST_GUID), 1,
				       &p) == 0);
		CHECK_EQ(prm_get(m.out, PRM_HCA_VPORT_LID), p.lid);
		CHECK_EQ(prm_get(m.out, PRM_HCA_VPORT_CAP_MASK1),
			 p.cap_flags);
	}
	CHECK_EQ(prm_get(m.out, PRM_HCA_VPORT_SM_LID), 1);
	CHECK_EQ(run(fw, &m, 16, PRM_HCA_VPORT_OUT_LEN - 1),
		 EMU_FW_STATUS_BAD_OUTPUT_LEN);
	mbox_init(&m, PRM_OP_QUERY_HCA_VPORT_CONTEXT, 0, 0);
	prm_set(m.in, PRM_HCA_VPORT_PORT_NUM, 2);
	CHECK_EQ(run(fw, &m, 16, PRM_HCA_VPORT_OUT_LEN),
		 EMU_FW_STATUS_BAD_PARAM);

	mbox_init(&m, PRM_OP_QUERY_LAG, 0, 0);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	CHECK_EQ(prm_get(m.out, PRM_LAG_STATE), 0);
}

static void test_trace(struct emu_fw *fw)
{
	char *text = NULL;
	size_t len = 0;
	struct mbox m;
	FILE *f;

	f = open_memstream(&text, &len);
	REQUIRE(f);
	emu_fw_set_trace(fw, f);
	mbox_init(&m, PRM_OP_QUERY_HCA_CAP, 0, CAP_OP_MOD(0, CUR));
	run(fw, &m, 16, PRM_QUERY_HCA_CAP_OUT_LEN);
	mbox_init(&m, 0x7ff, 0, 0);
	run(fw, &m, 16, 16);
	emu_fw_set_trace(fw, NULL);
	mbox_init(&m, PRM_OP_NOP, 0, 0);
	run(fw, &m, 16, 16);
	fclose(f);

	CHECK(strstr(text, "QUERY_HCA_CAP(0x100) op_mod 0x1 uid 0 -> OK\n"));
	CHECK(strstr(text, "UNKNOWN(0x7ff) op_mod 0x0 uid 0 -> "
			   "BAD_OP(0x2) syndrome 0x5e000001\n"));
	CHECK(!strstr(text, "NOP"));
	free(text);
}

static void test_status_helpers(void)
{
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_OK), 0);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_BAD_OP), -EINVAL);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_BAD_RES_STATE), -EINVAL);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_RES_BUSY), -EBUSY);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_EXCEED_LIM), -ENOMEM);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_NO_RESOURCES), -EAGAIN);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_BAD_INPUT_LEN), -EIO);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_INT_ERR), -EIO);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_BAD_SYS_STATE), -EIO);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_BAD_QP_STATE), -EINVAL);
	/* the kernel's bad packet status is 0x30 (0x11 is not a status) */
	CHECK_EQ(emu_fw_status_errno(0x30), -EINVAL);
	CHECK_EQ(emu_fw_status_errno(0x11), -EIO);
	CHECK_EQ(emu_fw_status_errno(EMU_FW_STATUS_BAD_SIZE_OUTS_CQES),
		 -EINVAL);
	CHECK_EQ(emu_fw_status_errno(0x77), -EIO);
	CHECK(!strcmp(emu_fw_status_name(EMU_FW_STATUS_BAD_PARAM),
		      "BAD_PARAM"));
	CHECK(!strcmp(emu_fw_status_name(0x77), "UNKNOWN"));
}

int main(void)
{
	struct emu_fw *fw = emu_fw_new(TEST_GUID);

	REQUIRE(fw);
	test_exec_arguments(fw);
	test_general_caps();
	test_other_caps(fw);
	test_lengths(fw);
	test_bad_opcode(fw);
	test_vport_queries(fw);
	test_trace(fw);
	test_status_helpers();
	emu_fw_free(fw);
	emu_fw_free(NULL);
	return check_done("firmware_caps");
}
