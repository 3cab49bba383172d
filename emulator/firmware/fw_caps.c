// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The device's capabilities, as QUERY_HCA_CAP reports them: a single
 * port ConnectX-6-like function whose port is InfiniBand (as the kernel
 * model's ibv_query_port() reports it) or, when the device says so
 * (emu_fw_set_port()), Ethernet with the offloads below, with DEVX
 * (user contexts, UMEM), flow counters, NIC flow steering and the general
 * object types of fw_genobj.c.  Numbers the kernel derives its device
 * attributes from (max_qp = 1 <<
 * log_max_qp, max_sge from max_wqe_sz_sq, hca_core_clock, ...) match
 * what the kernel model reports.  The limits come from fw_internal.h,
 * which the object store enforces.  "Maximum" and "current" differ where
 * a driver changes a setting at init (SET_HCA_CAP): the command
 * interface checksum is supported but not enabled.
 */
#include <string.h>

#include "fw_internal.h"

#define PRM_CAP_PG 0x227, 1

struct cap_val {
	uint16_t off;
	uint8_t width;
	uint32_t max;
	uint32_t cur;
};

/* A value the same in the maximum and the current capabilities. */
#define V(field, v) { field, v, v }
#define V2(field, max, cur) { field, max, cur }

static const struct cap_val general_caps[] = {
	V(PRM_CAP_HCA_CAP_2, 1),
	V(PRM_CAP_LOG_MAX_SRQ_SZ, FW_LOG_MAX_SRQ_SZ),
	V(PRM_CAP_LOG_MAX_QP_SZ, FW_LOG_MAX_QP_SZ),
	V(PRM_CAP_LOG_MAX_QP, FW_LOG_MAX_QP),
	V(PRM_CAP_LOG_MAX_SRQ, FW_LOG_MAX_SRQ),
	V(PRM_CAP_LOG_MAX_CQ_SZ, FW_LOG_MAX_CQ_SZ),
	V(PRM_CAP_LOG_MAX_CQ, FW_LOG_MAX_CQ),
	V(PRM_CAP_LOG_MAX_EQ_SZ, 22),
	V(PRM_CAP_LOG_MAX_MKEY, FW_LOG_MAX_MKEY),
	V(PRM_CAP_LOG_MAX_EQ, 8),
	V(PRM_CAP_MAX_INDIRECTION, 4),
	V(PRM_CAP_LOG_MAX_MRW_SZ, 64),
	V(PRM_CAP_LOG_MAX_KLM_LIST, 16),
	V(PRM_CAP_LOG_MAX_RA_REQ_DC, 4),
	V(PRM_CAP_LOG_MAX_RA_RES_DC, 4),
	V(PRM_CAP_LOG_MAX_RA_REQ_QP, 4),
	V(PRM_CAP_LOG_MAX_RA_RES_QP, 4),
	V(PRM_CAP_CC_QUERY_ALLOWED, 1),
	V(PRM_CAP_CC_MODIFY_ALLOWED, 1),
	V(PRM_CAP_GID_TABLE_SIZE, 0),	/* 8 GIDs */
	V(PRM_CAP_OUT_OF_SEQ_CNT, 1),
	V(PRM_CAP_VPORT_COUNTERS, 1),
	V(PRM_CAP_RETRANSMISSION_Q_CNT, 1),
	V(PRM_CAP_MAX_QP_CNT, 0),
	V(PRM_CAP_PKEY_TABLE_SIZE, 0),	/* 128 P_Keys */
	V(PRM_CAP_VPORT_GROUP_MANAGER, 1),
	V(PRM_CAP_NIC_FLOW_TABLE, 1),
	V(PRM_CAP_ESWITCH_MANAGER, 1),
	V(PRM_CAP_DEVICE_MEMORY, 0),
	V(PRM_CAP_LOCAL_CA_ACK_DELAY, 16),
	/* (port_type: InfiniBand here, fw->port_eth decides) */
	V(PRM_CAP_NUM_PORTS, 1),
	V(PRM_CAP_LOG_MAX_MSG, 30),
	V(PRM_CAP_MAX_TC, 8),
	V(PRM_CAP_STAT_RATE_SUPPORT, 0xffff),
	V(PRM_CAP_CQE_VERSION, 1),
	V2(PRM_CAP_CMDIF_CHECKSUM, 3, 0),
	V(PRM_CAP_DCT, 0),	/* no DCTs: CREATE_DCT is not modelled */
	V(PRM_CAP_QOS, 1),
	V(PRM_CAP_ETH_NET_OFFLOADS, 1),
	V(PRM_CAP_ROCE, 1),
	V(PRM_CAP_ATOMIC, 1),
	V(PRM_CAP_CQ_OI, 1),
	/* no resize: the model cannot write the resize CQE it needs */
	V(PRM_CAP_CQ_RESIZE, 0),
	V(PRM_CAP_CQ_MODERATION, 1),
	V(PRM_CAP_PG, 0),	/* no ODP */
	/*
	 * No XRC: the model has no XRC SRQs or QPs (nor the kernel's XRC
	 * domains), so the device does not claim them (the kernel's
	 * IB_DEVICE_XRC follows this bit).
	 */
	V(PRM_CAP_XRC, 0),
	V(PRM_CAP_UD, 1),
	V(PRM_CAP_UC, 1),
	V(PRM_CAP_RC, 1),
	V(PRM_CAP_UAR_4K, 1),
	V(PRM_CAP_UMEM_UID_0, 1),
	V(PRM_CAP_LOG_PG_SZ, 12),
	V(PRM_CAP_BF, 1),
	V(PRM_CAP_LOG_BF_REG_SIZE, 9),
	V(PRM_CAP_MAX_WQE_SZ_SQ, 512),
	V(PRM_CAP_MAX_WQE_SZ_RQ, 512),
	V(PRM_CAP_MAX_FLOW_COUNTER_HI, FW_MAX_FLOW_COUNTERS >> 16),
	V(PRM_CAP_MAX_FLOW_COUNTER_LO, FW_MAX_FLOW_COUNTERS & 0xffff),
	V(PRM_CAP_MAX_WQE_SZ_SQ_DC, 512),
	V(PRM_CAP_MAX_QP_MCG, 240),
	V(PRM_CAP_FLOW_COUNTER_BULK_ALLOC, FW_FLOW_COUNTER_BULK_ALLOC),
	V(PRM_CAP_LOG_MAX_MCG, 21),
	V(PRM_CAP_LOG_MAX_TD, FW_LOG_MAX_TD),
	V(PRM_CAP_LOG_MAX_PD, FW_LOG_MAX_PD),
	V(PRM_CAP_LOG_MAX_XRCD, FW_LOG_MAX_XRCD),
	V(PRM_CAP_LOG_MAX_FLOW_COUNTER_BULK, FW_LOG_MAX_FLOW_COUNTER_BULK),
	V(PRM_CAP_LOG_MAX_RQ, FW_LOG_MAX_RQ),
	V(PRM_CAP_LOG_MAX_SQ, FW_LOG_MAX_SQ),
	V(PRM_CAP_LOG_MAX_TIR, FW_LOG_MAX_TIR),
	V(PRM_CAP_LOG_MAX_TIS, FW_LOG_MAX_TIS),
	V(PRM_CAP_LOG_MAX_RMP, 17),
	V(PRM_CAP_LOG_MAX_RQT, FW_LOG_MAX_RQT),
	V(PRM_CAP_LOG_MAX_RQT_SIZE, FW_LOG_MAX_RQT_SIZE),
	V(PRM_CAP_LOG_MAX_WQ_SZ, FW_LOG_MAX_WQ_SZ),
	V(PRM_CAP_STEERING_FORMAT, 1),	/* ConnectX-6 Dx */
	V(PRM_CAP_LOG_MAX_UCTX, FW_LOG_MAX_UCTX),
	V(PRM_CAP_CRYPTO, 0),
	V(PRM_CAP_LOG_MAX_UMEM, FW_LOG_MAX_UMEM),
	V(PRM_CAP_MAX_NUM_EQS, 256),
	V(PRM_CAP_LOG_UAR_PAGE_SZ, 0),
	V(PRM_CAP_DEVICE_FREQ_MHZ, 156),
	V(PRM_CAP_DEVICE_FREQ_KHZ, 156250),
	V(PRM_CAP_NUM_UARS_PER_PAGE, 1),
	V(PRM_CAP_LOG_MAX_ATOMIC_QP, 3),
	V(PRM_CAP_CQE_COMPRESSION, 1),
	V(PRM_CAP_CQE_COMP_MAX_NUM, 64),
	V(PRM_CAP_NATIVE_PORT_NUM, 1),
	V(PRM_CAP_NUM_VHCA_PORTS, 1),
	V(PRM_CAP_UCTX_CAP, 0x1),	/* raw TX */
	/* ASO first hit: 2^9 flags an object, ranges of up to 2^8. */
	V(PRM_CAP_LOG_FLOW_HIT_ASO_GRAN, 9),
	V(PRM_CAP_LOG_FLOW_HIT_ASO_MAX_ALLOC, FW_LOG_MAX_ASO_ALLOC),
	V(PRM_CAP_LOG_MAX_NUM_FLOW_HIT_ASO, FW_LOG_MAX_NUM_ASO),
};

static const struct cap_val general2_caps[] = {
	V(PRM_CAP2_LOG_RESERVED_QPN_GRAN, 0),
	/* ASO connection tracking: one connection an object. */
	V(PRM_CAP2_LOG_CONN_TRACK_GRAN, 0),
	V(PRM_CAP2_LOG_CONN_TRACK_MAX_ALLOC, FW_LOG_MAX_ASO_ALLOC),
	V(PRM_CAP2_LOG_MAX_CONN_TRACK, FW_LOG_MAX_NUM_ASO),
};

static const struct cap_val atomic_caps[] = {
	V(PRM_CAP_ATOMIC_OPERATIONS, 0x3),	/* CAS and fetch-add */
	V(PRM_CAP_ATOMIC_SIZE_QP, 0x8),		/* 8 bytes */
	V(PRM_CAP_ATOMIC_SIZE_DC, 0x8),
	V(PRM_CAP_FETCH_ADD_PCI_ATOMIC, 0x4),	/* 8 byte PCIe atomics */
	V(PRM_CAP_SWAP_PCI_ATOMIC, 0x4),
	V(PRM_CAP_CAS_PCI_ATOMIC, 0x4),
};

static const struct cap_val roce_caps[] = {
	V(PRM_CAP_ROCE_SW_SRC_UDP, 1),
	/* RoCE v1 and v2 over IPv4 and IPv6, as Linux needs them to give
	 * an Ethernet port its RoCE capabilities */
	V(PRM_CAP_ROCE_L3_TYPE, 0x6),
	V(PRM_CAP_ROCE_VERSION, 0x5),
	V(PRM_CAP_ROCE_ADDR_TABLE_SIZE, FW_ROCE_ADDR_TABLE_SIZE),
};

static const struct cap_val qos_caps[] = {
	V(PRM_CAP_QOS_PACKET_PACING, 1),
	V(PRM_CAP_QOS_NIC_SQ_SCHED, 0),
	/* ASO flow meter: two meters an object. */
	V(PRM_CAP_QOS_LOG_METER_ASO_GRAN, 1),
	V(PRM_CAP_QOS_LOG_METER_ASO_MAX_ALLOC, FW_LOG_MAX_ASO_ALLOC),
	V(PRM_CAP_QOS_LOG_MAX_NUM_METER_ASO, FW_LOG_MAX_NUM_ASO),
};

/*
 * An Ethernet port's offloads: what mlx5_core's Ethernet probe requires
 * (checksums, VLAN, LSO up to 64 KB, RSS through indirection tables as
 * large as an RQT; mlx5_eth_supported() in dev.c), loopback prevention
 * per TIR/TIS, L2 headers inline in the send WQE.
 */
static const struct cap_val eth_caps[] = {
	V(PRM_CAP_ETH_CSUM, 1),
	V(PRM_CAP_ETH_VLAN, 1),
	V(PRM_CAP_ETH_SELF_LB_EN_MODIFIABLE, 1),
	V(PRM_CAP_ETH_MAX_LSO, 16),
	V(PRM_CAP_ETH_WQE_INLINE_MODE, 0),
	V(PRM_CAP_ETH_RSS_IND_TBL, FW_LOG_MAX_RQT_SIZE),
};

/*
 * The NIC receive and transmit table properties (flow_table_prop_layout),
 * each at its block's offset: what fw_ft.c, fw_fte.c and fw_fs_ctx.c
 * accept.
 */
static const struct cap_val ft_props[] = {
	V(PRM_FT_PROP_FT_SUPPORT, 1),
	V(PRM_FT_PROP_FLOW_COUNTER, 1),
	/* entries changed in place (SET_FLOW_TABLE_ENTRY op_mod 1) */
	V(PRM_FT_PROP_FLOW_MODIFY_EN, 1),
	/* SET_FLOW_TABLE_ROOT: without it Linux never sets a root, and no
	 * received frame would reach its tables */
	V(PRM_FT_PROP_MODIFY_ROOT, 1),
	V(PRM_FT_PROP_MISS_TABLE_MODE, 1),
	V(PRM_FT_PROP_TABLE_MODIFY, 1),
	V(PRM_FT_PROP_REFORMAT, 1),
	V(PRM_FT_PROP_DECAP, 1),
	V(PRM_FT_PROP_LOG_MAX_FT_SIZE, FW_LOG_MAX_FT_SIZE),
	V(PRM_FT_PROP_LOG_MAX_MODHDR, FW_LOG_MAX_MODIFY_HDR),
	V(PRM_FT_PROP_MAX_MODHDR_ACTIONS, FW_MAX_MODIFY_HDR_ACTIONS),
	V(PRM_FT_PROP_MAX_FT_LEVEL, FW_MAX_FT_LEVEL),
	V(PRM_FT_PROP_LOG_MAX_FT_NUM, FW_LOG_MAX_FT_NUM),
	V(PRM_FT_PROP_LOG_MAX_FLOW_COUNTER, FW_LOG_MAX_FT_FLOW_COUNTER),
	V(PRM_FT_PROP_LOG_MAX_DESTINATION, FW_LOG_MAX_DESTINATION),
	V(PRM_FT_PROP_LOG_MAX_FLOW, FW_LOG_MAX_FLOW),
};

/* Sets each value of a table in area, its offsets counted from block. */
static void put(uint8_t *area, unsigned int block, const struct cap_val *v,
		size_t n, bool cur)
{
	size_t i;

	for (i = 0; i < n; i++)
		prm_set(area, block + v[i].off, v[i].width,
			cur ? v[i].cur : v[i].max);
}

#define PUT(area, block, table, cur)                                        \
	put(area, block, table, sizeof(table) / sizeof(table[0]), cur)

/* The capability types whose area is one table of values and no more. */
#define TABLE_AREA(type, table)                                             \
	{ type, table, sizeof(table) / sizeof(table[0]) }
static const struct table_area {
	unsigned int type;
	const struct cap_val *v;
	size_t n;
} table_areas[] = {
	TABLE_AREA(PRM_CAP_TYPE_GENERAL_2, general2_caps),
	TABLE_AREA(PRM_CAP_TYPE_ATOMIC, atomic_caps),
	TABLE_AREA(PRM_CAP_TYPE_ROCE, roce_caps),
	TABLE_AREA(PRM_CAP_TYPE_QOS, qos_caps),
};

/* Fills a table area of type; false when type has none. */
static bool put_table_area(uint8_t *area, unsigned int type, bool cur)
{
	size_t i;

	for (i = 0; i < sizeof(table_areas) / sizeof(table_areas[0]); i++)
		if (table_areas[i].type == type) {
			put(area, 0, table_areas[i].v, table_areas[i].n, cur);
			return true;
		}
	return false;
}

/*
 * Fills the 4096-byte capability area of one type; false when the
 * device does not have that capability type (its general capabilities
 * say which it has).
 */
bool fw_caps_fill(const struct emu_fw *fw, unsigned int type, bool cur,
		  uint8_t *area)
{
	memset(area, 0, PRM_CAP_AREA_LEN);
	switch (type) {
	case PRM_CAP_TYPE_GENERAL:
		PUT(area, 0, general_caps, cur);
		prm_set(area, PRM_CAP_VHCA_ID, fw->vhca_id);
		prm_set(area, PRM_CAP_PORT_TYPE, fw->port_eth ?
			PRM_PORT_TYPE_ETH : PRM_PORT_TYPE_IB);
		/*
		 * mlx5e sizes its send WQEs for 16 basic blocks of 64
		 * bytes and refuses a device whose SQ WQEs are smaller
		 * (mlx5e_attach_netdev()); the InfiniBand port keeps the
		 * 512 bytes its max_sge is derived from.
		 */
		if (fw->port_eth) {
			prm_set(area, PRM_CAP_MAX_WQE_SZ_SQ,
				FW_ETH_MAX_WQE_SZ_SQ);
			/* (Q counters and the vport's lists: fw_nic_vport.c) */
			prm_set(area, PRM_CAP_MAX_QP_CNT, FW_MAX_Q_COUNTERS);
			prm_set(area, PRM_CAP_LOG_MAX_VLAN_LIST,
				FW_LOG_MAX_VPORT_LIST);
			prm_set(area, PRM_CAP_LOG_MAX_CURRENT_MC_LIST,
				FW_LOG_MAX_VPORT_LIST);
			prm_set(area, PRM_CAP_LOG_MAX_CURRENT_UC_LIST,
				FW_LOG_MAX_VPORT_LIST);
		}
		prm_set64(area, PRM_CAP_GENERAL_OBJ_TYPES,
			  fw_general_obj_types());
		return true;
	case PRM_CAP_TYPE_ETHERNET_OFFLOADS:
		/* (present on an InfiniBand port too, every offload off) */
		if (fw->port_eth)
			PUT(area, 0, eth_caps, cur);
		return true;
	case PRM_CAP_TYPE_ESWITCH_FLOW_TABLE:
	case PRM_CAP_TYPE_ESWITCH:
	case PRM_CAP_TYPE_DEV_MEM:
		/*
		 * Present, with every optional feature off: for device
		 * memory, no MEMIC BAR and no MEMIC operations.
		 */
		return true;
	case PRM_CAP_TYPE_ODP:
		/* Without page faults (pg = 0) every ODP bit is clear. */
		return true;
	case PRM_CAP_TYPE_FLOW_TABLE:
		PUT(area, PRM_CAP_FT_NIC_RX_PROPS, ft_props, cur);
		PUT(area, PRM_CAP_FT_NIC_TX_PROPS, ft_props, cur);
		return true;
	default:
		/* Crypto, off in the general caps, is not among them. */
		return put_table_area(area, type, cur);
	}
}

void fw_port_mac(const struct emu_fw *fw, uint8_t mac[6])
{
	uint64_t g = fw->node_guid;

	/* EUI-64 xx:xx:xx:ff:fe:xx:xx:xx -> MAC xx:xx:xx:xx:xx:xx */
	mac[0] = (uint8_t)(g >> 56) ^ 0x02;
	mac[1] = g >> 48;
	mac[2] = g >> 40;
	mac[3] = g >> 16;
	mac[4] = g >> 8;
	mac[5] = g;
}
