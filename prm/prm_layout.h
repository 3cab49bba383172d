/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * PRM mailbox fields, the one copy shared by the library, the emulator, the
 * tools and the tests: "bit offset, width" pairs for prm_get()/prm_set().
 * Offsets are from the start of the mailbox (or, for PRM_CAP_*, from the
 * start of the capability area), as the PRM and mlx5_ifc.h lay them out.
 */
#ifndef MLX5_PRM_LAYOUT_H
#define MLX5_PRM_LAYOUT_H

/* Every command's first 16 bytes in and out. */
#define PRM_HDR_LEN 16
#define PRM_HDR_OPCODE 0x00, 16
#define PRM_HDR_UID 0x10, 16
#define PRM_HDR_OP_MOD 0x30, 16
#define PRM_OUT_STATUS 0x00, 8
#define PRM_OUT_SYNDROME 0x20, 32

/* Most object commands: the object number in the low 24 bits of dword 2. */
#define PRM_IN_OBJN 0x48, 24
#define PRM_OUT_OBJN 0x48, 24

/* General object command header (in) and output header. */
#define PRM_GOBJ_VHCA_TUNNEL_ID 0x20, 16
#define PRM_GOBJ_TYPE 0x30, 16
#define PRM_GOBJ_ID 0x40, 32
#define PRM_GOBJ_LOG_RANGE 0x63, 5
#define PRM_GOBJ_OUT_ID 0x40, 32

/* Flow meter object (general object type 0xa), after the 16-byte header. */
#define PRM_METER_OBJ_BYTE 16
#define PRM_METER_OBJ_LEN 128
#define PRM_METER_IN_LEN (PRM_HDR_LEN + PRM_METER_OBJ_LEN)
#define PRM_METER_SELECT_HI 0x80, 32
#define PRM_METER_SELECT_LO 0xa0, 32
#define PRM_METER_ACTIVE 0xc0, 1
#define PRM_METER_RETURN_REG 0xc4, 4
#define PRM_METER_TABLE_TYPE 0xc8, 8
#define PRM_METER_DEST_TABLE 0xe8, 24
#define PRM_METER_PARAMS_BYTE 48
#define PRM_METER_PARAMS_LEN 32
#define PRM_METER_VALID 0x180, 1
#define PRM_METER_CBS_EXP 0x1c3, 5
#define PRM_METER_CBS_MAN 0x1c8, 8
#define PRM_METER_CIR_EXP 0x1d3, 5
#define PRM_METER_CIR_MAN 0x1d8, 8
#define PRM_METER_EBS_EXP 0x203, 5
#define PRM_METER_EBS_MAN 0x208, 8
#define PRM_METER_EIR_EXP 0x213, 5
#define PRM_METER_EIR_MAN 0x218, 8
#define PRM_METER_ICM_RX 0x400, 64
#define PRM_METER_ICM_TX 0x440, 64

enum {
	PRM_METER_SEL_ACTIVE = 1 << 0,
	PRM_METER_SEL_CBS = 1 << 1,
	PRM_METER_SEL_CIR = 1 << 2,
	PRM_METER_SEL_EBS = 1 << 3,
	PRM_METER_SEL_EIR = 1 << 4,
};

/* Flow counters. */
#define PRM_ALLOC_FC_IN_LEN 16
#define PRM_ALLOC_FC_BULK_LOG 0x73, 5
#define PRM_ALLOC_FC_BULK 0x78, 8
#define PRM_ALLOC_FC_OUT_ID 0x40, 32
#define PRM_DEALLOC_FC_ID 0x40, 32
#define PRM_QUERY_FC_IN_LEN 32
#define PRM_QUERY_FC_CLEAR 0xc0, 1
#define PRM_QUERY_FC_DUMP 0xc1, 1
#define PRM_QUERY_FC_NUM 0xc2, 30
#define PRM_QUERY_FC_ID 0xe0, 32
#define PRM_QUERY_FC_STATS_BYTE 16
#define PRM_TRAFFIC_COUNTER_LEN 16

/*
 * The object queries import uses to confirm an id (query_*_in): the id
 * field each names, and the bytes of their in mailboxes.
 */
#define PRM_QUERY_QP_IN_LEN 16
#define PRM_QUERY_QP_IN_QPN 0x48, 24
#define PRM_QUERY_QP_OUT_LEN 512	/* qpc and more; the pas list stops */
#define PRM_QUERY_TIR_IN_LEN 16
#define PRM_QUERY_TIR_IN_TIRN 0x48, 24
#define PRM_QUERY_TIR_OUT_LEN 512
#define PRM_QUERY_FT_IN_LEN 64
#define PRM_QUERY_FT_IN_TABLE_TYPE 0x80, 8
#define PRM_QUERY_FT_IN_TABLE_ID 0xa8, 24
#define PRM_QUERY_FG_IN_LEN 64
#define PRM_QUERY_FG_IN_TABLE_ID 0xa8, 24
#define PRM_QUERY_FG_IN_GROUP_ID 0xc0, 32
#define PRM_QUERY_FTE_IN_LEN 64
#define PRM_QUERY_FTE_IN_TABLE_ID 0xa8, 24
#define PRM_QUERY_FTE_IN_FLOW_INDEX 0x100, 32
#define PRM_QUERY_PKT_REFORMAT_IN_LEN 32
#define PRM_QUERY_PKT_REFORMAT_IN_ID 0x40, 32
#define PRM_QUERY_GOBJ_IN_LEN PRM_HDR_LEN
#define PRM_QUERY_OBJ_OUT_MAX 1024	/* any object context answered */

/* UMEM: the umem context starts at byte 16 of CREATE_UMEM. */
#define PRM_UMEM_LOG_PAGE 0x11b, 5
#define PRM_UMEM_PAGE_OFFSET 0x120, 32
#define PRM_UMEM_NUM_MTT 0x140, 64
#define PRM_UMEM_MTT_BYTE 48
#define PRM_UMEM_OUT_ID 0x48, 24
#define PRM_DESTROY_UMEM_ID 0x48, 24

/*
 * CQs (create_cq_in, query_cq_out): the 64-byte CQ context (cqc) at
 * byte 16 of both, then in create_cq_in the UMEM holding the CQE ring.
 */
#define PRM_CQ_CTX_BYTE 16
#define PRM_CQ_CTX_LEN 64
#define PRM_CQ_IN_LEN 272
#define PRM_QUERY_CQ_OUT_LEN 272
#define PRM_CQC_STATUS 0x80, 4
#define PRM_CQC_DBR_UMEM_VALID 0x86, 1
#define PRM_CQC_CQE_SZ 0x88, 3
#define PRM_CQC_DBR_UMEM_ID 0xa0, 32
#define PRM_CQC_LOG_CQ_SIZE 0xe3, 5
#define PRM_CQC_UAR_PAGE 0xe8, 24
#define PRM_CQC_C_EQN 0x138, 8
#define PRM_CQC_COUNTERS_BYTE 48	/* last_notified_index .. producer */
#define PRM_CQC_COUNTERS_LEN 16
#define PRM_CQC_DBR_ADDR 0x240, 64
#define PRM_CQ_UMEM_OFFSET 0x280, 64
#define PRM_CQ_UMEM_ID 0x2c0, 32
#define PRM_CQ_UMEM_VALID 0x2e0, 1

/* User contexts (the DEVX uid). */
#define PRM_CREATE_UCTX_IN_LEN 64
#define PRM_UCTX_CAP 0x80, 32
#define PRM_UCTX_OUT_UID 0x50, 16
#define PRM_DESTROY_UCTX_UID 0x50, 16

/* QUERY_HCA_CAP: op_mod = cap type << 1 | current. */
#define PRM_CAP_AREA_BYTE 16
#define PRM_CAP_AREA_LEN 4096
#define PRM_QUERY_HCA_CAP_IN_LEN PRM_HDR_LEN
#define PRM_QUERY_HCA_CAP_OUT_LEN (PRM_CAP_AREA_BYTE + PRM_CAP_AREA_LEN)

enum prm_cap_type {
	PRM_CAP_TYPE_GENERAL = 0x0,
	PRM_CAP_TYPE_ETHERNET_OFFLOADS = 0x1,
	PRM_CAP_TYPE_ODP = 0x2,
	PRM_CAP_TYPE_ATOMIC = 0x3,
	PRM_CAP_TYPE_ROCE = 0x4,
	PRM_CAP_TYPE_FLOW_TABLE = 0x7,
	PRM_CAP_TYPE_ESWITCH_FLOW_TABLE = 0x8,
	PRM_CAP_TYPE_ESWITCH = 0x9,
	PRM_CAP_TYPE_QOS = 0xc,
	PRM_CAP_TYPE_DEV_MEM = 0xf,
	PRM_CAP_TYPE_CRYPTO = 0x1a,
	PRM_CAP_TYPE_GENERAL_2 = 0x20,
	/* The largest type op_mod can name; no firmware defines it. */
	PRM_CAP_TYPE_UNDEFINED = 0x7fff,
};

/* General device capabilities (cmd_hca_cap). */
#define PRM_CAP_HCA_CAP_2 0x20, 1
#define PRM_CAP_VHCA_ID 0x30, 16
#define PRM_CAP_LOG_MAX_SRQ_SZ 0x80, 8
#define PRM_CAP_LOG_MAX_QP_SZ 0x88, 8
#define PRM_CAP_EVENT_CAP 0x90, 1
#define PRM_CAP_LOG_MAX_QP 0x9b, 5
#define PRM_CAP_LOG_MAX_SRQ 0xab, 5
#define PRM_CAP_LOG_MAX_CQ_SZ 0xc8, 8
#define PRM_CAP_LOG_MAX_CQ 0xdb, 5
#define PRM_CAP_LOG_MAX_EQ_SZ 0xe0, 8
#define PRM_CAP_LOG_MAX_MKEY 0xea, 6
#define PRM_CAP_LOG_MAX_EQ 0xfc, 4
#define PRM_CAP_MAX_INDIRECTION 0x100, 8
#define PRM_CAP_LOG_MAX_MRW_SZ 0x109, 7
#define PRM_CAP_LOG_MAX_KLM_LIST 0x11a, 6
#define PRM_CAP_LOG_MAX_RA_REQ_DC 0x12a, 6
#define PRM_CAP_LOG_MAX_RA_RES_DC 0x13a, 6
#define PRM_CAP_LOG_MAX_RA_REQ_QP 0x14a, 6
#define PRM_CAP_LOG_MAX_RA_RES_QP 0x15a, 6
#define PRM_CAP_CC_QUERY_ALLOWED 0x161, 1
#define PRM_CAP_CC_MODIFY_ALLOWED 0x162, 1
#define PRM_CAP_GID_TABLE_SIZE 0x170, 16
#define PRM_CAP_OUT_OF_SEQ_CNT 0x180, 1
#define PRM_CAP_VPORT_COUNTERS 0x181, 1
#define PRM_CAP_RETRANSMISSION_Q_CNT 0x182, 1
#define PRM_CAP_MAX_QP_CNT 0x186, 10
#define PRM_CAP_PKEY_TABLE_SIZE 0x190, 16
#define PRM_CAP_VPORT_GROUP_MANAGER 0x1a0, 1
#define PRM_CAP_NIC_FLOW_TABLE 0x1a6, 1
#define PRM_CAP_ESWITCH_MANAGER 0x1a7, 1
#define PRM_CAP_DEVICE_MEMORY 0x1a8, 1
#define PRM_CAP_LOCAL_CA_ACK_DELAY 0x1ab, 5
#define PRM_CAP_PORT_TYPE 0x1b6, 2
#define PRM_CAP_NUM_PORTS 0x1b8, 8
#define PRM_CAP_LOG_MAX_MSG 0x1c3, 5
#define PRM_CAP_MAX_TC 0x1cc, 4
#define PRM_CAP_STAT_RATE_SUPPORT 0x1e0, 16
#define PRM_CAP_CQE_VERSION 0x1fc, 4
#define PRM_CAP_CMDIF_CHECKSUM 0x210, 2
#define PRM_CAP_DCT 0x21a, 1
#define PRM_CAP_QOS 0x21b, 1
#define PRM_CAP_ETH_NET_OFFLOADS 0x21c, 1
#define PRM_CAP_ROCE 0x21d, 1
#define PRM_CAP_ATOMIC 0x21e, 1
#define PRM_CAP_CQ_OI 0x220, 1
#define PRM_CAP_CQ_RESIZE 0x221, 1
#define PRM_CAP_CQ_MODERATION 0x222, 1
#define PRM_CAP_XRC 0x23c, 1
#define PRM_CAP_UD 0x23d, 1
#define PRM_CAP_UC 0x23e, 1
#define PRM_CAP_RC 0x23f, 1
#define PRM_CAP_UAR_4K 0x240, 1
#define PRM_CAP_UMEM_UID_0 0x252, 1
#define PRM_CAP_LOG_PG_SZ 0x258, 8
#define PRM_CAP_BF 0x260, 1
#define PRM_CAP_LOG_BF_REG_SIZE 0x26b, 5
#define PRM_CAP_MAX_WQE_SZ_SQ 0x290, 16
#define PRM_CAP_MAX_WQE_SZ_RQ 0x2b0, 16
#define PRM_CAP_MAX_FLOW_COUNTER_HI 0x2c0, 16
#define PRM_CAP_MAX_WQE_SZ_SQ_DC 0x2d0, 16
#define PRM_CAP_MAX_QP_MCG 0x2e7, 25
#define PRM_CAP_FLOW_COUNTER_BULK_ALLOC 0x310, 8
#define PRM_CAP_LOG_MAX_MCG 0x318, 8
#define PRM_CAP_LOG_MAX_TD 0x323, 5
#define PRM_CAP_LOG_MAX_PD 0x32b, 5
#define PRM_CAP_LOG_MAX_XRCD 0x33b, 5
#define PRM_CAP_LOG_MAX_FLOW_COUNTER_BULK 0x348, 8
#define PRM_CAP_MAX_FLOW_COUNTER_LO 0x350, 16
#define PRM_CAP_LOG_MAX_RQ 0x363, 5
#define PRM_CAP_LOG_MAX_SQ 0x36b, 5
#define PRM_CAP_LOG_MAX_TIR 0x373, 5
#define PRM_CAP_LOG_MAX_TIS 0x37b, 5
#define PRM_CAP_LOG_MAX_RMP 0x383, 5
#define PRM_CAP_LOG_MAX_RQT 0x38b, 5
#define PRM_CAP_LOG_MAX_RQT_SIZE 0x393, 5
#define PRM_CAP_LOG_MAX_WQ_SZ 0x3db, 5
#define PRM_CAP_GENERAL_OBJ_TYPES 0x400, 64
#define PRM_CAP_STEERING_FORMAT 0x444, 4
#define PRM_CAP_LOG_MAX_UCTX 0x463, 5
#define PRM_CAP_CRYPTO 0x469, 1
#define PRM_CAP_LOG_MAX_UMEM 0x46b, 5
#define PRM_CAP_MAX_NUM_EQS 0x470, 16
#define PRM_CAP_LOG_UAR_PAGE_SZ 0x490, 16
#define PRM_CAP_DEVICE_FREQ_MHZ 0x4c0, 32
#define PRM_CAP_DEVICE_FREQ_KHZ 0x4e0, 32
#define PRM_CAP_NUM_UARS_PER_PAGE 0x520, 32
#define PRM_CAP_LOG_MAX_ATOMIC_QP 0x580, 8
#define PRM_CAP_CQE_COMPRESSION 0x5bf, 1
#define PRM_CAP_CQE_COMP_MAX_NUM 0x5d0, 16
#define PRM_CAP_NATIVE_PORT_NUM 0x608, 8
#define PRM_CAP_NUM_VHCA_PORTS 0x610, 8
#define PRM_CAP_UCTX_CAP 0x6a0, 32

/* General device capabilities 2. */
#define PRM_CAP2_LOG_RESERVED_QPN_GRAN 0x93, 5

/* ODP: per transport service bits send..srq_receive (6 bits). */
#define PRM_CAP_ODP_RC 0x80, 6
#define PRM_CAP_ODP_UC 0xa0, 6
#define PRM_CAP_ODP_UD 0xc0, 6
#define PRM_CAP_ODP_XRC 0xe0, 6
#define PRM_CAP_ODP_DC 0x100, 6

/* Atomic. */
#define PRM_CAP_ATOMIC_OPERATIONS 0x90, 16
#define PRM_CAP_ATOMIC_SIZE_QP 0xb0, 16
#define PRM_CAP_ATOMIC_SIZE_DC 0xd0, 16
#define PRM_CAP_FETCH_ADD_PCI_ATOMIC 0x280, 16
#define PRM_CAP_SWAP_PCI_ATOMIC 0x290, 16
#define PRM_CAP_CAS_PCI_ATOMIC 0x2a0, 16

/* RoCE. */
#define PRM_CAP_ROCE_SW_SRC_UDP 0x4, 1
#define PRM_CAP_ROCE_QP_TS_FORMAT 0x1e, 2

/* QoS. */
#define PRM_CAP_QOS_PACKET_PACING 0x0, 1
#define PRM_CAP_QOS_NIC_SQ_SCHED 0x8, 1
#define PRM_CAP_QOS_NIC_BW_SHARE 0x9, 1
#define PRM_CAP_QOS_NIC_RATE_LIMIT 0xa, 1

/* NIC flow table: the NIC receive properties start at bit 0x200. */
#define PRM_CAP_FT_NIC_RX_FT_SUPPORT 0x200, 1
#define PRM_CAP_FT_NIC_RX_FLOW_COUNTER 0x202, 1
#define PRM_CAP_FT_NIC_RX_LOG_MAX_FT_SIZE 0x222, 6
#define PRM_CAP_FT_NIC_RX_MAX_FT_LEVEL 0x238, 8

/* Device memory. */
#define PRM_CAP_DM_MEMIC 0x0, 1

/* QUERY_ISSI. */
#define PRM_QUERY_ISSI_OUT_LEN 112
#define PRM_ISSI_CURRENT 0x50, 16
#define PRM_ISSI_SUPPORTED_DW0 0x360, 32

/* Vport commands. */
#define PRM_VPORT_OTHER 0x40, 1
#define PRM_VPORT_NUMBER 0x50, 16
#define PRM_VPORT_STATE_ADMIN 0x78, 4
#define PRM_VPORT_STATE_OPER 0x7c, 4

/* NIC vport context, at byte 16 of QUERY_NIC_VPORT_CONTEXT's output. */
#define PRM_NIC_VPORT_OUT_LEN (16 + 256)
#define PRM_NIC_VPORT_ROCE_EN 0x9f, 1
#define PRM_NIC_VPORT_MTU 0x1b0, 16
#define PRM_NIC_VPORT_SYS_IMAGE_GUID 0x1c0, 64
#define PRM_NIC_VPORT_PORT_GUID 0x200, 64
#define PRM_NIC_VPORT_NODE_GUID 0x240, 64
#define PRM_NIC_VPORT_MAC_HI 0x830, 16
#define PRM_NIC_VPORT_MAC_LO 0x840, 32

/* HCA vport context (InfiniBand ports), at byte 16 of the output. */
#define PRM_HCA_VPORT_OUT_LEN (16 + 256)
#define PRM_HCA_VPORT_PORT_NUM 0x4c, 4
#define PRM_HCA_VPORT_HAS_SMI 0x181, 1
#define PRM_HCA_VPORT_PHYS_STATE 0x190, 4
#define PRM_HCA_VPORT_PORT_STATE 0x198, 4
#define PRM_HCA_VPORT_VPORT_STATE 0x19c, 4
#define PRM_HCA_VPORT_SYS_IMAGE_GUID 0x1c0, 64
#define PRM_HCA_VPORT_PORT_GUID 0x200, 64
#define PRM_HCA_VPORT_NODE_GUID 0x240, 64
#define PRM_HCA_VPORT_CAP_MASK1 0x280, 32
#define PRM_HCA_VPORT_LID 0x380, 16
#define PRM_HCA_VPORT_LMC 0x398, 3
#define PRM_HCA_VPORT_SUBNET_TIMEOUT 0x39b, 5
#define PRM_HCA_VPORT_SM_LID 0x3a0, 16
#define PRM_HCA_VPORT_SM_SL 0x3b0, 4

/* E-switch vport context output (ICM addresses stay zero). */
#define PRM_ESW_VPORT_OUT_LEN (16 + 256)

/* QUERY_LAG: 16 bytes in and out, lag state at dword 2. */
#define PRM_LAG_STATE 0x5d, 3

/* Objects with a 24-bit number in dword 2 (PD, TD, XRCD). */
#define PRM_PD_OUT 0x48, 24

#endif
