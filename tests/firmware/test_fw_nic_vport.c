// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's Ethernet port (emu_fw_set_port(ETH)): the caps
 * mlx5_core's Ethernet probe reads, the NIC vport context as modified
 * (MTU, promiscuous modes, address lists) and its refusals, the vport
 * state that follows the link (emu_fw_set_link()), the vport counters
 * and the Q counters; and that an InfiniBand port keeps what it had.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fw_test_util.h"

static int query_cap(struct emu_fw *fw, struct mbox *m, unsigned int type)
{
	mbox_init(m, PRM_OP_QUERY_HCA_CAP, 0, type << 1 | 1);
	return run(fw, m, 16, PRM_QUERY_HCA_CAP_OUT_LEN);
}

static void test_caps(struct emu_fw *ib, struct emu_fw *eth)
{
	const uint8_t *cap;
	struct mbox m;

	CHECK_EQ(query_cap(ib, &m, PRM_CAP_TYPE_GENERAL), 0);
	cap = m.out + PRM_CAP_AREA_BYTE;
	CHECK_EQ(prm_get(cap, PRM_CAP_PORT_TYPE), PRM_PORT_TYPE_IB);
	CHECK_EQ(prm_get(cap, PRM_CAP_MAX_WQE_SZ_SQ), 512);
	CHECK_EQ(prm_get(cap, PRM_CAP_MAX_QP_CNT), 0);
	CHECK_EQ(query_cap(ib, &m, PRM_CAP_TYPE_ETHERNET_OFFLOADS), 0);
	CHECK_EQ(prm_get(cap, PRM_CAP_ETH_CSUM), 0);

	CHECK_EQ(query_cap(eth, &m, PRM_CAP_TYPE_GENERAL), 0);
	CHECK_EQ(prm_get(cap, PRM_CAP_PORT_TYPE), PRM_PORT_TYPE_ETH);
	CHECK_EQ(prm_get(cap, PRM_CAP_ETH_NET_OFFLOADS), 1);
	CHECK_EQ(prm_get(cap, PRM_CAP_NIC_FLOW_TABLE), 1);
	/* mlx5e needs 16 send WQE basic blocks of 64 bytes */
	CHECK_EQ(prm_get(cap, PRM_CAP_MAX_WQE_SZ_SQ), 1024);
	CHECK_EQ(prm_get(cap, PRM_CAP_MAX_QP_CNT), 255);
	CHECK_EQ(prm_get(cap, PRM_CAP_LOG_MAX_CURRENT_UC_LIST), 4);
	CHECK_EQ(query_cap(eth, &m, PRM_CAP_TYPE_ETHERNET_OFFLOADS), 0);
	CHECK_EQ(prm_get(cap, PRM_CAP_ETH_CSUM), 1);
	CHECK_EQ(prm_get(cap, PRM_CAP_ETH_VLAN), 1);
	CHECK_EQ(prm_get(cap, PRM_CAP_ETH_MAX_LSO), 16);
	CHECK(prm_get(cap, PRM_CAP_ETH_RSS_IND_TBL) != 0);
}

static int query_vport(struct emu_fw *fw, struct mbox *m,
		       unsigned int list)
{
	mbox_init(m, PRM_OP_QUERY_NIC_VPORT_CONTEXT, 0, 0);
	prm_set(m->in, PRM_NIC_VPORT_QUERY_LIST_TYPE, list);
	return run(fw, m, 16, PRM_NIC_VPORT_OUT_LEN + 16 * 8);
}

/* A modify's context field, named by its offset in the query output. */
#define SET_CTX(m, field, v) set_ctx((m)->in, field, v)
static void set_ctx(uint8_t *in, unsigned int off, unsigned int width,
		    uint32_t v)
{
	prm_set(in, off + PRM_NIC_VPORT_MODIFY_SHIFT, width, v);
}

static void modify_init(struct mbox *m, uint32_t select)
{
	mbox_init(m, PRM_OP_MODIFY_NIC_VPORT_CONTEXT, 0, 0);
	prm_set(m->in, PRM_NIC_VPORT_FIELD_SELECT, select);
}

static void test_nic_vport_context(struct emu_fw *fw)
{
	size_t list_in = PRM_NIC_VPORT_LIST_BYTE +
			 PRM_NIC_VPORT_MODIFY_SHIFT / 8;
	struct mbox m;

	/* As created: MTU 1500, not promiscuous, the GUID's MAC. */
	CHECK_EQ(query_vport(fw, &m, PRM_VPORT_LIST_UC), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_MTU), 1500);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_PROMISC_ALL), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_MAC_HI),
		 (uint32_t)(((TEST_GUID >> 56) ^ 2) << 8 |
			    (TEST_GUID >> 48 & 0xff)));
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_LIST_SIZE), 0);

	/* The MTU and promiscuous modes change only when selected. */
	modify_init(&m, PRM_NIC_VPORT_SEL_MTU);
	SET_CTX(&m, PRM_NIC_VPORT_MTU, 9000);
	SET_CTX(&m, PRM_NIC_VPORT_PROMISC_ALL, 1);
	CHECK_EQ(run(fw, &m, PRM_NIC_VPORT_MODIFY_IN_LEN, 16), 0);
	CHECK_EQ(query_vport(fw, &m, PRM_VPORT_LIST_UC), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_MTU), 9000);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_PROMISC_ALL), 0);
	modify_init(&m, PRM_NIC_VPORT_SEL_PROMISC);
	SET_CTX(&m, PRM_NIC_VPORT_PROMISC_MC, 1);
	CHECK_EQ(run(fw, &m, PRM_NIC_VPORT_MODIFY_IN_LEN, 16), 0);
	CHECK_EQ(query_vport(fw, &m, PRM_VPORT_LIST_UC), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_PROMISC_MC), 1);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_PROMISC_UC), 0);

	/* A multicast list of two, read back; the UC list stays empty. */
	modify_init(&m, PRM_NIC_VPORT_SEL_ADDRESSES_LIST);
	SET_CTX(&m, PRM_NIC_VPORT_LIST_TYPE, PRM_VPORT_LIST_MC);
	SET_CTX(&m, PRM_NIC_VPORT_LIST_SIZE, 2);
	memset(m.in + list_in, 0x33, 16);
	m.in[list_in + 15] = 0x01;
	CHECK_EQ(run(fw, &m, list_in + 16, 16), 0);
	CHECK_EQ(query_vport(fw, &m, PRM_VPORT_LIST_MC), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_LIST_TYPE), PRM_VPORT_LIST_MC);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_LIST_SIZE), 2);
	CHECK_EQ(m.out[PRM_NIC_VPORT_LIST_BYTE + 8], 0x33);
	CHECK_EQ(m.out[PRM_NIC_VPORT_LIST_BYTE + 15], 0x01);
	CHECK_EQ(query_vport(fw, &m, PRM_VPORT_LIST_UC), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_LIST_SIZE), 0);

	/* Refused: a list longer than the caps allow, one the mailbox does
	 * not hold, a list type that does not exist, the GUIDs. */
	modify_init(&m, PRM_NIC_VPORT_SEL_ADDRESSES_LIST);
	SET_CTX(&m, PRM_NIC_VPORT_LIST_SIZE, 17);
	CHECK_EQ(run(fw, &m, list_in + 17 * 8, 16), EMU_FW_STATUS_BAD_PARAM);
	SET_CTX(&m, PRM_NIC_VPORT_LIST_SIZE, 4);
	CHECK_EQ(run(fw, &m, list_in + 3 * 8, 16),
		 EMU_FW_STATUS_BAD_INPUT_LEN);
	SET_CTX(&m, PRM_NIC_VPORT_LIST_TYPE, 3);
	CHECK_EQ(run(fw, &m, list_in + 4 * 8, 16), EMU_FW_STATUS_BAD_PARAM);
	modify_init(&m, 1u << 9);	/* node_guid */
	CHECK_EQ(run(fw, &m, PRM_NIC_VPORT_MODIFY_IN_LEN, 16),
		 EMU_FW_STATUS_BAD_PARAM);
	/* (the refused multicast list is still the one set above) */
	CHECK_EQ(query_vport(fw, &m, PRM_VPORT_LIST_MC), 0);
	CHECK_EQ(prm_get(m.out, PRM_NIC_VPORT_LIST_SIZE), 2);
}

static unsigned int vport_oper(struct emu_fw *fw)
{
	struct mbox m;

	mbox_init(&m, PRM_OP_QUERY_VPORT_STATE, 0, 0);
	CHECK_EQ(run(fw, &m, 16, 16), 0);
	return prm_get(m.out, PRM_VPORT_STATE_OPER);
}

static void test_vport_state(struct emu_fw *ib, struct emu_fw *eth)
{
	CHECK_EQ(vport_oper(ib), 1);	/* InfiniBand: mlx5-emu's, up */
	CHECK_EQ(vport_oper(eth), 0);	/* no link yet */
	emu_fw_set_link(eth, true);
	CHECK_EQ(vport_oper(eth), 1);
	emu_fw_set_link(eth, false);
	CHECK_EQ(vport_oper(eth), 0);
	emu_fw_set_link(NULL, true);	/* no crash */
}

static void test_counters(struct emu_fw *ib, struct emu_fw *eth)
{
	struct mbox m;
	uint32_t id;
	size_t i;

	/* Nothing has passed: every vport counter reads 0. */
	mbox_init(&m, PRM_OP_QUERY_VPORT_COUNTER, 0, 0);
	memset(m.out, 0xff, sizeof(m.out));
	CHECK_EQ(run(eth, &m, 16, PRM_VPORT_COUNTER_OUT_LEN), 0);
	for (i = PRM_VPORT_COUNTER_BYTE; i < PRM_VPORT_COUNTER_OUT_LEN; i++)
		CHECK_EQ(m.out[i], 0);

	/* Q counters: none on an InfiniBand port (max_qp_cnt 0). */
	mbox_init(&m, PRM_OP_ALLOC_Q_COUNTER, 0, 0);
	CHECK_EQ(run(ib, &m, 16, 16), EMU_FW_STATUS_EXCEED_LIM);
	CHECK_EQ(run(eth, &m, 16, 16), 0);
	id = prm_get(m.out, PRM_Q_COUNTER_ID);
	CHECK(id >= 1 && id <= 255);
	mbox_init(&m, PRM_OP_QUERY_Q_COUNTER, 0, 0);
	prm_set(m.in, PRM_Q_COUNTER_QUERY_ID, id);
	CHECK_EQ(run(eth, &m, 16, 16), 0);
	mbox_init(&m, PRM_OP_DEALLOC_Q_COUNTER, 0, 0);
	prm_set(m.in, PRM_Q_COUNTER_ID, id);
	CHECK_EQ(run(eth, &m, 16, 16), 0);
	CHECK_EQ(run(eth, &m, 16, 16), EMU_FW_STATUS_BAD_RES_STATE);
	mbox_init(&m, PRM_OP_QUERY_Q_COUNTER, 0, 0);
	prm_set(m.in, PRM_Q_COUNTER_QUERY_ID, id);
	CHECK_EQ(run(eth, &m, 16, 16), EMU_FW_STATUS_BAD_RES_STATE);
	/* 255 sets, not one more */
	for (i = 0; i < 255; i++) {
		mbox_init(&m, PRM_OP_ALLOC_Q_COUNTER, 0, 0);
		CHECK_EQ(run(eth, &m, 16, 16), 0);
	}
	CHECK_EQ(run(eth, &m, 16, 16), EMU_FW_STATUS_EXCEED_LIM);
}

int main(void)
{
	struct emu_fw *ib = emu_fw_new(TEST_GUID);
	struct emu_fw *eth = emu_fw_new(TEST_GUID);

	REQUIRE(ib && eth);
	emu_fw_set_port(eth, EMU_FW_PORT_ETH);
	emu_fw_set_port(NULL, EMU_FW_PORT_ETH);	/* no crash */
	test_caps(ib, eth);
	test_nic_vport_context(eth);
	test_vport_state(ib, eth);
	test_counters(ib, eth);
	emu_fw_free(ib);
	emu_fw_free(eth);
	return check_done("firmware_fw_nic_vport");
}
