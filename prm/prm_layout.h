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
/* The uid of a resource the kernel shares with every user context (a
 * Q counter mlx5_ib allocates per port): never a user context's. */
#define PRM_SHARED_RESOURCE_UID 0xffff
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
#define PRM_METER_OUT_LEN (PRM_HDR_LEN + PRM_METER_OBJ_LEN)
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

/*
 * Transport objects: each create_*_in has its context at byte 32; the
 * query output has it at the same byte (TIS: byte 16).  Field offsets
 * below are from the start of the mailbox.
 */
#define PRM_OBJ_CTX_BYTE 32
#define PRM_OBJ_CTX_LEN 240
#define PRM_OBJ_IN_LEN (PRM_OBJ_CTX_BYTE + PRM_OBJ_CTX_LEN)	/* 272 */
#define PRM_OBJ_OUT_LEN PRM_OBJ_IN_LEN	/* query_{tir,rq,sq,rqt}_out */
#define PRM_OBJ_MODIFY_BITMASK_LO 0xa0, 32	/* low dword of the 64 */
#define PRM_OBJ_MODIFY_BITMASK_HI 0x80, 32

/* TIR (create_tir_in, tirc at byte 32; create_tir_out). */
#define PRM_TIRC_DISP_TYPE 0x120, 4
#define PRM_TIRC_INLINE_RQN 0x1e8, 24
#define PRM_TIRC_INDIRECT_TABLE 0x208, 24
#define PRM_TIRC_RX_HASH_FN 0x220, 4
#define PRM_TIRC_TRANSPORT_DOMAIN 0x228, 24
#define PRM_TIRC_RX_HASH_SYMMETRIC 0x200, 1
#define PRM_TIRC_HASH_BYTE 72	/* Toeplitz key, outer and inner fields */
#define PRM_TIRC_HASH_LEN 48
#define PRM_TIRC_LRO_BYTE 48	/* lro timeout, merge mask, payload */
#define PRM_TIRC_LRO_LEN 4
#define PRM_TIRC_SELF_LB_BLOCK 0x226, 2
/* The hash: the Toeplitz key, then the outer headers' field selector. */
#define PRM_TIRC_TOEPLITZ_KEY_BYTE PRM_TIRC_HASH_BYTE	/* the key first */
#define PRM_TIRC_TOEPLITZ_KEY_LEN 40
#define PRM_TIRC_HASH_OUTER_L3_IPV6 0x380, 1	/* l3_prot_type */
#define PRM_TIRC_HASH_OUTER_L4_UDP 0x381, 1	/* l4_prot_type */
#define PRM_TIRC_HASH_OUTER_FIELDS 0x382, 30	/* selected_fields */
#define PRM_TIR_OUT_ICM_63_40 0x08, 24
#define PRM_TIR_OUT_ICM_39_32 0x40, 8
#define PRM_TIR_OUT_ICM_31_0 0x60, 32

enum {
	PRM_TIRC_DISP_DIRECT = 0,
	PRM_TIRC_DISP_INDIRECT = 1,
	/* rx_hash_fn */
	PRM_RX_HASH_FN_NONE = 0,
	PRM_RX_HASH_FN_INVERTED_XOR8 = 1,
	PRM_RX_HASH_FN_TOEPLITZ = 2,
	/* selected_fields, in the order the hash input takes them */
	PRM_HASH_FIELD_SRC_IP = 1 << 0,
	PRM_HASH_FIELD_DST_IP = 1 << 1,
	PRM_HASH_FIELD_L4_SPORT = 1 << 2,
	PRM_HASH_FIELD_L4_DPORT = 1 << 3,
	/* modify_tir_bitmask, low dword */
	PRM_MODIFY_TIR_PACKET_MERGE = 1 << 0,
	/* MLX5_MODIFY_TIR_BITMASK_INDIRECT_TABLE */
	PRM_MODIFY_TIR_INDIRECT = 1 << 1,
	PRM_MODIFY_TIR_HASH = 1 << 2,
	PRM_MODIFY_TIR_SELF_LB = 1 << 4,
};

/* TIS (create_tis_in: tisc at byte 32, 160 bytes; query at byte 16). */
#define PRM_TIS_CTX_LEN 160
#define PRM_TIS_IN_LEN (PRM_OBJ_CTX_BYTE + PRM_TIS_CTX_LEN)	/* 192 */
#define PRM_QUERY_TIS_CTX_BYTE 16
#define PRM_QUERY_TIS_OUT_LEN (PRM_QUERY_TIS_CTX_BYTE + PRM_TIS_CTX_LEN)
#define PRM_TISC_STRICT_LAG 0x100, 1
#define PRM_TISC_LAG_TX_PORT_AFFINITY 0x104, 4
#define PRM_TISC_PRIO 0x10c, 4
#define PRM_TISC_TRANSPORT_DOMAIN 0x228, 24

enum {
	/* modify_tis_bitmask, low dword */
	PRM_MODIFY_TIS_PRIO = 1 << 0,
	PRM_MODIFY_TIS_STRICT_LAG = 1 << 1,
	PRM_MODIFY_TIS_LAG_AFFINITY = 1 << 2,
};

/* RQ and SQ (rqc/sqc at byte 32, their wq at byte 80). */
#define PRM_RQC_VSD 0x103, 1
#define PRM_RQC_SCATTER_FCS 0x102, 1
#define PRM_RQC_MEM_RQ_TYPE 0x104, 4
#define PRM_WQC_STATE 0x108, 4	/* rqc.state and sqc.state */
#define PRM_WQC_HAIRPIN 0x10e, 1
#define PRM_WQC_CQN 0x148, 24
#define PRM_RQC_COUNTER_SET_ID 0x160, 8
#define PRM_SQC_TIS_LST_SZ 0x200, 16
#define PRM_SQC_TIS_NUM_0 0x268, 24
#define PRM_WQ_TYPE 0x280, 4
#define PRM_WQ_PAGE_OFFSET 0x2ab, 5	/* in 64-byte units */
#define PRM_WQ_PD 0x2c8, 24
#define PRM_WQ_DBR_ADDR 0x300, 64
#define PRM_WQ_LOG_STRIDE 0x38c, 4
#define PRM_WQ_LOG_PG_SZ 0x393, 5	/* log of pages of 4 KB */
#define PRM_WQ_LOG_SZ 0x39b, 5
#define PRM_WQ_DBR_UMEM_VALID 0x3a0, 1
#define PRM_WQ_UMEM_VALID 0x3a1, 1
#define PRM_WQ_DBR_UMEM_ID 0x3c0, 32
#define PRM_WQ_UMEM_ID 0x3e0, 32
#define PRM_WQ_UMEM_OFFSET 0x400, 64
/* The ring's page list, when not in a UMEM: after the context. */
#define PRM_WQ_PAS_BYTE PRM_OBJ_IN_LEN
/* modify_rq_in / modify_sq_in: the current state, then the object. */
#define PRM_MODIFY_WQ_CUR_STATE 0x40, 4

enum {
	PRM_WQ_STATE_RST = 0,
	PRM_WQ_STATE_RDY = 1,
	PRM_WQ_STATE_ERR = 3,
	/* modify_rq_in.modify_bitmask, low dword */
	PRM_MODIFY_RQ_VSD = 1 << 1,
	PRM_MODIFY_RQ_SCATTER_FCS = 1 << 2,
	PRM_MODIFY_RQ_COUNTER_SET_ID = 1 << 3,
};

/* RQT (rqtc at byte 32, its rq_num list at byte 272, 4 bytes each). */
#define PRM_RQTC_LIST_Q_TYPE 0x1a5, 3
#define PRM_RQTC_MAX_SIZE 0x1b0, 16
#define PRM_RQTC_ACTUAL_SIZE 0x1d0, 16
#define PRM_RQT_LIST_BYTE 272
#define PRM_RQT_ENTRY_LEN 4
#define PRM_RQT_ENTRY_RQN 0x08, 24	/* within an entry */

enum {
	PRM_MODIFY_RQT_LIST = 1 << 0,	/* rqt_bitmask, low dword */
};

/*
 * Flow steering.  The commands that name a table share other_vport,
 * table_type and table_id at these offsets.
 */
#define PRM_FS_OTHER_VPORT 0x40, 1
#define PRM_FS_TABLE_TYPE 0x80, 8
#define PRM_FS_TABLE_ID 0xa8, 24
#define PRM_FS_IN_LEN 64

enum {
	PRM_FT_TYPE_NIC_RX = 0,
	PRM_FT_TYPE_NIC_TX = 1,
	PRM_FT_TYPES = 2,	/* the NIC types the device has */
};

/*
 * SET_FLOW_TABLE_ROOT: the table a type's lookups start at (table_type
 * and table_id above); op_mod 1 disconnects the type's root.
 */
#define PRM_FT_ROOT_UNDERLAY_QPN 0xc8, 24
#define PRM_FT_ROOT_IN_LEN 64
enum {
	PRM_FT_ROOT_CONNECT = 0,
	PRM_FT_ROOT_DISCONNECT = 1,
};

/* Flow table: create_flow_table_in, flow_table_context at byte 24. */
#define PRM_FT_CTX_BYTE 24
#define PRM_FT_CTX_LEN 40
#define PRM_FTC_REFORMAT_EN 0xc0, 1
#define PRM_FTC_DECAP_EN 0xc1, 1
#define PRM_FTC_SW_OWNER 0xc2, 1
#define PRM_FTC_TERMINATION 0xc3, 1
#define PRM_FTC_MISS_ACTION 0xc4, 4
#define PRM_FTC_LEVEL 0xc8, 8
#define PRM_FTC_LOG_SIZE 0xd8, 8
#define PRM_FTC_MISS_ID 0xe8, 24
#define PRM_FTC_LAG_NEXT_ID 0x108, 24
#define PRM_FT_OUT_ID 0x48, 24
#define PRM_MODIFY_FT_SELECT 0x70, 16

enum {
	PRM_FT_MISS_DEFAULT = 0,
	PRM_FT_MISS_GOTO_TABLE = 1,
	PRM_MODIFY_FT_MISS_TABLE = 1 << 0,
};

/* Flow group: create_flow_group_in (1024 bytes) and query's output. */
#define PRM_FG_IN_LEN 1024
#define PRM_FG_GROUP_TYPE 0x8c, 4
#define PRM_FG_START 0xe0, 32
#define PRM_FG_END 0x120, 32
#define PRM_FG_MATCH_CRITERIA_ENABLE 0x1f8, 8
#define PRM_FG_MATCH_CRITERIA_BYTE 64	/* 512 bytes: outer headers first */
#define PRM_FG_BODY_BYTE 28	/* start_flow_index .. match_criteria */
#define PRM_FG_OUT_ID 0x48, 24
#define PRM_FG_ID 0xc0, 32	/* destroy and query inputs */

/*
 * fte_match_param: the 512 bytes a group's match_criteria and an
 * entry's match_value share.  Bit i of match_criteria_enable names the
 * 64-byte section i (outer headers, misc, inner headers, misc 2..5).
 */
#define PRM_MATCH_PARAM_LEN 512
#define PRM_MATCH_SECTION_LEN 64
#define PRM_MATCH_SECTIONS 8
#define PRM_MATCH_OUTER_BYTE 0	/* fte_match_set_lyr_2_4 */

/* fte_match_set_lyr_2_4, offsets within its section. */
#define PRM_L24_SMAC_47_16 0x00, 32
#define PRM_L24_SMAC_15_0 0x20, 16
#define PRM_L24_ETHERTYPE 0x30, 16
#define PRM_L24_DMAC_47_16 0x40, 32
#define PRM_L24_DMAC_15_0 0x60, 16
#define PRM_L24_FIRST_PRIO 0x70, 3
#define PRM_L24_FIRST_CFI 0x73, 1
#define PRM_L24_FIRST_VID 0x74, 12
#define PRM_L24_IP_PROTOCOL 0x80, 8
#define PRM_L24_IP_DSCP 0x88, 6
#define PRM_L24_IP_ECN 0x8e, 2
#define PRM_L24_CVLAN_TAG 0x90, 1
#define PRM_L24_SVLAN_TAG 0x91, 1
#define PRM_L24_FRAG 0x92, 1
#define PRM_L24_IP_VERSION 0x93, 4
#define PRM_L24_TCP_FLAGS 0x97, 9
#define PRM_L24_TCP_SPORT 0xa0, 16
#define PRM_L24_TCP_DPORT 0xb0, 16
#define PRM_L24_IPV4_IHL 0xd0, 4
#define PRM_L24_TTL_HOPLIMIT 0xd8, 8
#define PRM_L24_UDP_SPORT 0xe0, 16
#define PRM_L24_UDP_DPORT 0xf0, 16
#define PRM_L24_SRC_IP_BYTE 32	/* 16 bytes: IPv6, or IPv4 in the last 4 */
#define PRM_L24_DST_IP_BYTE 48
#define PRM_L24_IP_LEN 16
#define PRM_L24_IPV4_AT 12	/* where an IPv4 address sits in the 16 */

/*
 * Flow table entry: set_fte_in, the flow_context at byte 64 (768
 * bytes), then the destination list and the counter list.
 */
#define PRM_FTE_MODIFY_MASK 0xd8, 8
#define PRM_FTE_INDEX 0x100, 32
#define PRM_FTE_CTX_BYTE 64
#define PRM_FTE_CTX_LEN 768
#define PRM_FTE_LEN (PRM_FTE_CTX_BYTE + PRM_FTE_CTX_LEN)	/* 832 */
#define PRM_FTE_GROUP_ID 0x220, 32
#define PRM_FTE_FLOW_TAG 0x248, 24
#define PRM_FTE_ACTION 0x270, 16
#define PRM_FTE_EXTENDED_DEST 0x280, 1
#define PRM_FTE_DEST_LIST_SIZE 0x288, 24
#define PRM_FTE_COUNTER_LIST_SIZE 0x2a8, 24
#define PRM_FTE_REFORMAT_ID 0x2c0, 32
#define PRM_FTE_MODIFY_HDR_ID 0x2e0, 32
#define PRM_FTE_DEST_LEN 8
#define PRM_FTE_DEST_TYPE 0x00, 8	/* within a destination entry */
#define PRM_FTE_DEST_ID 0x08, 24
#define PRM_FTE_COUNTER_ID 0x00, 32	/* within a counter entry */
/* The entry's match_value (fte_match_param) in the flow context. */
#define PRM_FTE_MATCH_VALUE_BYTE (PRM_FTE_CTX_BYTE + 64)

enum {
	PRM_FTE_ACTION_ALLOW = 0x1,
	PRM_FTE_ACTION_DROP = 0x2,
	PRM_FTE_ACTION_FWD_DEST = 0x4,
	PRM_FTE_ACTION_COUNT = 0x8,
	PRM_FTE_ACTION_PACKET_REFORMAT = 0x10,
	PRM_FTE_ACTION_MOD_HDR = 0x40,
	PRM_FTE_DEST_FLOW_TABLE = 0x1,
	PRM_FTE_DEST_TIR = 0x2,
	PRM_FTE_DEST_FLOW_SAMPLER = 0x6,
	/* modify_enable_mask of SET_FLOW_TABLE_ENTRY with op_mod 1 */
	PRM_FTE_MODIFY_ACTION = 1 << 0,
	PRM_FTE_MODIFY_FLOW_TAG = 1 << 1,
	PRM_FTE_MODIFY_DESTS = 1 << 2,
	PRM_FTE_MODIFY_COUNTERS = 1 << 3,
	PRM_FTE_OP_MOD_CREATE = 0,
	PRM_FTE_OP_MOD_MODIFY = 1,
};

/*
 * Packet reformat context: the 8-byte context at byte 28 of the alloc
 * input and of the query output, its data running on from byte 34.
 */
#define PRM_REFORMAT_CTX_BYTE 28
#define PRM_REFORMAT_DATA_BYTE 34
#define PRM_REFORMAT_TYPE 0xe0, 8
#define PRM_REFORMAT_DATA_SIZE 0xf6, 10
#define PRM_REFORMAT_ID 0x40, 32	/* alloc out, dealloc and query in */
#define PRM_ALLOC_REFORMAT_IN_LEN 36
#define PRM_QUERY_REFORMAT_IN_LEN 32

enum {
	PRM_REFORMAT_L2_TO_VXLAN = 0x0,
	PRM_REFORMAT_L2_TO_NVGRE = 0x1,
	PRM_REFORMAT_L2_TO_L2_TUNNEL = 0x2,
	PRM_REFORMAT_L3_TUNNEL_TO_L2 = 0x3,
	PRM_REFORMAT_L2_TO_L3_TUNNEL = 0x4,
};

/* Modify header context: 8-byte actions from byte 16 of the input. */
#define PRM_MODHDR_TABLE_TYPE 0x60, 8
#define PRM_MODHDR_NUM_ACTIONS 0x78, 8
#define PRM_MODHDR_ACTIONS_BYTE 16
#define PRM_MODHDR_IN_LEN PRM_MODHDR_ACTIONS_BYTE
#define PRM_MODHDR_ACTION_LEN 8
#define PRM_MODHDR_ACTION_TYPE 0x00, 4	/* within an action */
#define PRM_MODHDR_ID 0x40, 32	/* alloc out and dealloc in */

enum {
	PRM_MODHDR_SET = 1,
	PRM_MODHDR_ADD = 2,
	PRM_MODHDR_COPY = 3,
};

/*
 * General objects after the flow meter, each after the 16-byte header:
 * the flow sampler (40 bytes) and the ASO objects (128 bytes: a 64-byte
 * head with the access PD, then the ASO data).
 */
#define PRM_GOBJ_BYTE 16
#define PRM_SAMPLER_LEN 40
#define PRM_SAMPLER_SELECT_HI 0x80, 32
#define PRM_SAMPLER_SELECT_LO 0xa0, 32
#define PRM_SAMPLER_ICM_RX 0x140, 64
#define PRM_SAMPLER_ICM_TX 0x180, 64
#define PRM_SAMPLER_TABLE_TYPE 0xc0, 8
#define PRM_SAMPLER_LEVEL 0xc8, 8
#define PRM_SAMPLER_SAMPLE_TABLE 0x108, 24
#define PRM_SAMPLER_DEFAULT_TABLE 0x128, 24
#define PRM_ASO_LEN 128
#define PRM_ASO_ACCESS_PD 0x108, 24

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
/* The first counter's traffic_counter: packets, then octets. */
#define PRM_QUERY_FC_OUT_LEN (PRM_QUERY_FC_STATS_BYTE + PRM_TRAFFIC_COUNTER_LEN)
#define PRM_QUERY_FC_PACKETS 0x80, 64
#define PRM_QUERY_FC_OCTETS 0xc0, 64

/*
 * The object queries import uses to confirm an id (query_*_in): the id
 * field each names, and the bytes of their in mailboxes.
 */
#define PRM_QUERY_QP_IN_LEN 16
#define PRM_QUERY_QP_IN_QPN 0x48, 24
#define PRM_QUERY_TIR_IN_LEN 16
#define PRM_QUERY_TIR_IN_TIRN 0x48, 24
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
/* One MTT entry: the page address with read/write enable in its low bits. */
#define PRM_MTT_LEN 8
#define PRM_MTT_PTAG 0x00, 64
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

/*
 * CQs whose ring the kernel describes with a physical address list (a
 * verbs CQ: user memory, no UMEM): cq_umem_valid 0, the list at byte 272
 * of create_cq_in, one 64-bit entry per page of 4 KiB << log_page_size;
 * page_offset counts 64-byte quanta into the first page.
 */
#define PRM_CQ_PAS_BYTE 272
#define PRM_PAS_ENTRY_LEN 8
#define PRM_PAS_ADDR 0x00, 64	/* in each entry: the page's bus address */
#define PRM_CQC_OI 0x8e, 1
#define PRM_CQC_CQE_COMP_EN 0x91, 1
#define PRM_CQC_MINI_CQE_RES_FORMAT 0x92, 2
#define PRM_CQC_PAGE_OFFSET 0xd4, 6
#define PRM_CQC_LOG_PAGE_SIZE 0x143, 5
#define PRM_CQC_CQ_PERIOD 0x104, 12
#define PRM_CQC_CQ_MAX_COUNT 0x110, 16

/*
 * MODIFY_CQ (modify_cq_in): the cqn, which fields count, and the cqc at
 * byte 16 as in create_cq_in.  op_mod 0 changes moderation, 1 resizes.
 */
#define PRM_MODIFY_CQ_IN_LEN 272
#define PRM_MODIFY_CQ_FIELD_SELECT 0x60, 32
#define PRM_MODIFY_CQ_UMEM_VALID 0x2e0, 1
enum {
	PRM_MODIFY_CQ_OP_MODIFY = 0,
	PRM_MODIFY_CQ_OP_RESIZE = 1,
	PRM_MODIFY_CQ_PERIOD = 1 << 0,
	PRM_MODIFY_CQ_COUNT = 1 << 1,
};

/*
 * QPs: create_qp_in, the state transition commands (rst2init_qp_in ...
 * rts2rts_qp_in) and query_qp_out all hold the qpc (232 bytes) at byte
 * 24, so its fields are named here once at their offsets in those
 * mailboxes.  2ERR_QP and 2RST_QP are 16 bytes: opcode, uid, op_mod and
 * the qpn (PRM_IN_OBJN), which every transition and QUERY_QP also carry.
 */
#define PRM_QP_CTX_BYTE 24
#define PRM_QP_CTX_LEN 232
#define PRM_QP_IN_LEN 272		/* without the page list */
#define PRM_QP_PAS_BYTE 272
#define PRM_QP_MODIFY_IN_LEN 272	/* rst2init .. rts2rts, fixed part */
#define PRM_QUERY_QP_OUT_LEN 272	/* fixed part; the pas list stops */
#define PRM_QP_OPT_PARAM_MASK 0x80, 32
#define PRM_QPC_STATE 0xc0, 4
#define PRM_QPC_ST 0xc8, 8
#define PRM_QPC_PM_STATE 0xd3, 2
#define PRM_QPC_WQ_SIGNATURE 0xe0, 1
#define PRM_QPC_PD 0xe8, 24
#define PRM_QPC_MTU 0x100, 3
#define PRM_QPC_LOG_MSG_MAX 0x103, 5
#define PRM_QPC_LOG_RQ_SIZE 0x109, 4
#define PRM_QPC_LOG_RQ_STRIDE 0x10d, 3
#define PRM_QPC_NO_SQ 0x110, 1
#define PRM_QPC_LOG_SQ_SIZE 0x111, 4
#define PRM_QPC_UAR_PAGE 0x128, 24
#define PRM_QPC_USER_INDEX 0x148, 24
#define PRM_QPC_LOG_PAGE_SIZE 0x163, 5
#define PRM_QPC_REMOTE_QPN 0x168, 24
/* primary_address_path (ads) at bit 0x180 */
#define PRM_QPC_PRI_PKEY_INDEX 0x190, 16
#define PRM_QPC_PRI_GRH 0x1a8, 1
#define PRM_QPC_PRI_MLID 0x1a9, 7
#define PRM_QPC_PRI_RLID 0x1b0, 16
#define PRM_QPC_PRI_ACK_TIMEOUT 0x1c0, 5
#define PRM_QPC_PRI_SRC_ADDR_INDEX 0x1c8, 8
#define PRM_QPC_PRI_STAT_RATE 0x1d4, 4
#define PRM_QPC_PRI_HOP_LIMIT 0x1d8, 8
#define PRM_QPC_PRI_TCLASS 0x1e4, 8
#define PRM_QPC_PRI_FLOW_LABEL 0x1ec, 20
#define PRM_QPC_PRI_RGID_BYTE 64	/* 16 bytes */
#define PRM_QPC_PRI_SL 0x2a4, 4
#define PRM_QPC_PRI_VHCA_PORT_NUM 0x2a8, 8
/* secondary_address_path: 44 bytes at byte 92 */
#define PRM_QPC_ALT_PATH_BYTE 92
#define PRM_QPC_ADS_LEN 44
#define PRM_QPC_LOG_SRA_MAX 0x448, 3
#define PRM_QPC_RETRY_COUNT 0x44d, 3
#define PRM_QPC_RNR_RETRY 0x450, 3
#define PRM_QPC_NEXT_SEND_PSN 0x488, 24
#define PRM_QPC_CQN_SND 0x4a8, 24
#define PRM_QPC_LOG_RRA_MAX 0x548, 3
#define PRM_QPC_RRE 0x550, 1
#define PRM_QPC_RWE 0x551, 1
#define PRM_QPC_RAE 0x552, 1
#define PRM_QPC_PAGE_OFFSET 0x554, 6
#define PRM_QPC_MIN_RNR_NAK 0x563, 5
#define PRM_QPC_NEXT_RCV_PSN 0x568, 24
#define PRM_QPC_CQN_RCV 0x5a8, 24
#define PRM_QPC_DBR_ADDR 0x5c0, 64
#define PRM_QPC_Q_KEY 0x600, 32
#define PRM_QPC_RQ_TYPE 0x625, 3
#define PRM_QPC_SRQN 0x628, 24
#define PRM_QPC_DBR_UMEM_VALID 0x743, 1
#define PRM_QPC_DBR_UMEM_ID 0x7e0, 32
#define PRM_QP_WQ_UMEM_OFFSET 0x800, 64
#define PRM_QP_WQ_UMEM_ID 0x840, 32
#define PRM_QP_WQ_UMEM_VALID 0x860, 1

/* qpc.state */
enum prm_qp_state {
	PRM_QP_STATE_RST = 0x0,
	PRM_QP_STATE_INIT = 0x1,
	PRM_QP_STATE_RTR = 0x2,
	PRM_QP_STATE_RTS = 0x3,
	PRM_QP_STATE_SQER = 0x4,
	PRM_QP_STATE_SQD = 0x5,
	PRM_QP_STATE_ERR = 0x6,
};

/* qpc.st: the transport service */
enum prm_qp_st {
	PRM_QP_ST_RC = 0x0,
	PRM_QP_ST_UC = 0x1,
	PRM_QP_ST_UD = 0x2,
	PRM_QP_ST_XRC = 0x3,
	PRM_QP_ST_QP0 = 0x7,	/* the port's SMI QP */
	PRM_QP_ST_QP1 = 0x8,	/* the port's GSI QP */
	PRM_QP_ST_REG_UMR = 0xc,	/* a kernel driver's UMR QP */
};

/* qpc.pm_state */
#define PRM_QP_PM_MIGRATED 0x3

/* qpc.rq_type */
enum prm_qp_rq_type {
	PRM_QP_RQ_REGULAR = 0x0,
	PRM_QP_RQ_SRQ = 0x1,
	PRM_QP_RQ_ZERO_LEN = 0x3,
};

/* opt_param_mask of the transition commands: which optional fields count */
enum prm_qp_optpar {
	PRM_QP_OPTPAR_ALT_ADDR_PATH = 1 << 0,
	PRM_QP_OPTPAR_RRE = 1 << 1,
	PRM_QP_OPTPAR_RAE = 1 << 2,
	PRM_QP_OPTPAR_RWE = 1 << 3,
	PRM_QP_OPTPAR_PKEY_INDEX = 1 << 4,
	PRM_QP_OPTPAR_Q_KEY = 1 << 5,
	PRM_QP_OPTPAR_RNR_TIMEOUT = 1 << 6,
	PRM_QP_OPTPAR_PRIMARY_ADDR_PATH = 1 << 7,
	PRM_QP_OPTPAR_SRA_MAX = 1 << 8,
	PRM_QP_OPTPAR_RRA_MAX = 1 << 9,
	PRM_QP_OPTPAR_PM_STATE = 1 << 10,
	PRM_QP_OPTPAR_RETRY_COUNT = 1 << 12,
	PRM_QP_OPTPAR_RNR_RETRY = 1 << 13,
	PRM_QP_OPTPAR_ACK_TIMEOUT = 1 << 14,
	PRM_QP_OPTPAR_PRI_PORT = 1 << 16,
};

/*
 * SRQs (create_srq_in, query_srq_out): the 64-byte srqc at byte 16, the
 * page list at byte 272 of create_srq_in.
 */
#define PRM_SRQ_CTX_BYTE 16
#define PRM_SRQ_CTX_LEN 64
#define PRM_SRQ_IN_LEN 272
#define PRM_SRQ_PAS_BYTE 272
#define PRM_QUERY_SRQ_OUT_LEN 272
#define PRM_SRQC_STATE 0x80, 4
#define PRM_SRQC_LOG_SRQ_SIZE 0x84, 4
#define PRM_SRQC_WQ_SIGNATURE 0xa0, 1
#define PRM_SRQC_LOG_RQ_STRIDE 0xa5, 3
#define PRM_SRQC_PAGE_OFFSET 0xc0, 6
#define PRM_SRQC_CQN 0xc8, 24
#define PRM_SRQC_LOG_PAGE_SIZE 0x102, 6
#define PRM_SRQC_PD 0x148, 24
#define PRM_SRQC_LWM 0x160, 16
#define PRM_SRQC_DBR_ADDR 0x1c0, 64

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
/*
 * The shortest output firmware answers: room for cmd_hca_cap (0x4000
 * bits); the rest of the union is cut off.  rdma-core's own pyverbs tests
 * query with exactly this length (QueryCmdHcaCapOut).
 */
#define PRM_QUERY_HCA_CAP_MIN_OUT_LEN (PRM_CAP_AREA_BYTE + 2048)

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
	PRM_CAP_TYPE_VDPA_EMULATION = 0x13,
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
#define PRM_CAP_IB_VIRT 0x1a2, 1
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
#define PRM_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED 0x207, 1
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
#define PRM_CAP_LOG_MAX_VLAN_LIST 0x3eb, 5
#define PRM_CAP_LOG_MAX_CURRENT_MC_LIST 0x3f3, 5
#define PRM_CAP_LOG_MAX_CURRENT_UC_LIST 0x3fb, 5
#define PRM_CAP_GENERAL_OBJ_TYPES 0x400, 64

/*
 * The virtio emulation capabilities (type VDPA_EMULATION): where the
 * virtio queue doorbells (the pages mlx5 hands out as VARs) lie in BAR0.
 */
#define PRM_CAP_VDPA_LOG_DOORBELL_STRIDE 0x33, 5
#define PRM_CAP_VDPA_LOG_DOORBELL_BAR_SIZE 0x3b, 5	/* in 4 KB pages */
#define PRM_CAP_VDPA_DOORBELL_BAR_OFFSET 0x40, 64
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
#define PRM_CAP_LOG_FLOW_HIT_ASO_GRAN 0x723, 5
#define PRM_CAP_LOG_FLOW_HIT_ASO_MAX_ALLOC 0x72b, 5
#define PRM_CAP_LOG_MAX_NUM_FLOW_HIT_ASO 0x743, 5

/* What the port is (PRM_CAP_PORT_TYPE). */
enum prm_port_type {
	PRM_PORT_TYPE_IB = 0x0,
	PRM_PORT_TYPE_ETH = 0x1,
};

/*
 * Ethernet offload capabilities (type ETHERNET_OFFLOADS,
 * per_protocol_networking_offload_caps).  wqe_inline_mode 0: the driver
 * copies the L2 headers into the send WQE's Ethernet segment.
 */
#define PRM_CAP_ETH_CSUM 0x00, 1
#define PRM_CAP_ETH_VLAN 0x01, 1
#define PRM_CAP_ETH_SELF_LB_EN_MODIFIABLE 0x08, 1
#define PRM_CAP_ETH_MAX_LSO 0x0b, 5
#define PRM_CAP_ETH_WQE_INLINE_MODE 0x12, 2
#define PRM_CAP_ETH_RSS_IND_TBL 0x14, 4

/* General device capabilities 2. */
#define PRM_CAP2_LOG_RESERVED_QPN_GRAN 0x93, 5
#define PRM_CAP2_LOG_CONN_TRACK_GRAN 0xcb, 5
#define PRM_CAP2_LOG_CONN_TRACK_MAX_ALLOC 0xd3, 5
#define PRM_CAP2_LOG_MAX_CONN_TRACK 0xdb, 5

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
#define PRM_CAP_ROCE_L3_TYPE 0x8c, 4	/* bit 1 IPv4, bit 2 IPv6 */
#define PRM_CAP_ROCE_VERSION 0x98, 8	/* bit 0 v1, bit 2 v2 */
#define PRM_CAP_ROCE_ADDR_TABLE_SIZE 0xf0, 16

/* QoS. */
#define PRM_CAP_QOS_PACKET_PACING 0x0, 1
#define PRM_CAP_QOS_NIC_SQ_SCHED 0x8, 1
#define PRM_CAP_QOS_NIC_BW_SHARE 0x9, 1
#define PRM_CAP_QOS_NIC_RATE_LIMIT 0xa, 1
#define PRM_CAP_QOS_LOG_METER_ASO_GRAN 0x123, 5
#define PRM_CAP_QOS_LOG_METER_ASO_MAX_ALLOC 0x12b, 5
#define PRM_CAP_QOS_LOG_MAX_NUM_METER_ASO 0x133, 5

/* NIC flow table: the NIC receive properties start at bit 0x200. */
#define PRM_CAP_FT_NIC_RX_FT_SUPPORT 0x200, 1
#define PRM_CAP_FT_NIC_RX_FLOW_COUNTER 0x202, 1
#define PRM_CAP_FT_NIC_RX_LOG_MAX_FT_SIZE 0x222, 6
#define PRM_CAP_FT_NIC_RX_MAX_FT_LEVEL 0x238, 8
/*
 * The same properties (flow_table_prop_layout) as offsets inside one
 * table type's block; the NIC receive block starts at bit 0x200, the
 * NIC transmit block at 0x800.
 */
#define PRM_CAP_FT_NIC_RX_PROPS 0x200
#define PRM_CAP_FT_NIC_TX_PROPS 0x800
#define PRM_FT_PROP_FT_SUPPORT 0x0, 1
#define PRM_FT_PROP_FLOW_COUNTER 0x2, 1
#define PRM_FT_PROP_FLOW_MODIFY_EN 0x3, 1
#define PRM_FT_PROP_MODIFY_ROOT 0x4, 1
#define PRM_FT_PROP_MISS_TABLE_MODE 0x5, 1
#define PRM_FT_PROP_TABLE_MODIFY 0x6, 1
#define PRM_FT_PROP_REFORMAT 0x7, 1
#define PRM_FT_PROP_DECAP 0x8, 1
#define PRM_FT_PROP_LOG_MAX_FT_SIZE 0x22, 6
#define PRM_FT_PROP_LOG_MAX_MODHDR 0x28, 8
#define PRM_FT_PROP_MAX_MODHDR_ACTIONS 0x30, 8
#define PRM_FT_PROP_MAX_FT_LEVEL 0x38, 8
#define PRM_FT_PROP_LOG_MAX_FT_NUM 0x78, 8
#define PRM_FT_PROP_LOG_MAX_FLOW_COUNTER 0x90, 8
#define PRM_FT_PROP_LOG_MAX_DESTINATION 0x98, 8
#define PRM_FT_PROP_LOG_MAX_FLOW 0xb8, 8

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
#define PRM_NIC_VPORT_PROMISC_UC 0x800, 1
#define PRM_NIC_VPORT_PROMISC_MC 0x801, 1
#define PRM_NIC_VPORT_PROMISC_ALL 0x802, 1
#define PRM_NIC_VPORT_LIST_TYPE 0x805, 3	/* enum prm_vport_list */
#define PRM_NIC_VPORT_LIST_SIZE 0x814, 12
#define PRM_NIC_VPORT_MAC_HI 0x830, 16
#define PRM_NIC_VPORT_MAC_LO 0x840, 32
/* The list's 8-byte entries (a MAC in the low 6 bytes, or a VLAN). */
#define PRM_NIC_VPORT_LIST_BYTE 272
#define PRM_NIC_VPORT_LIST_ENTRY_LEN 8
/* QUERY_NIC_VPORT_CONTEXT's input: which list to report. */
#define PRM_NIC_VPORT_QUERY_LIST_TYPE 0x65, 3

enum prm_vport_list {
	PRM_VPORT_LIST_UC = 0x0,
	PRM_VPORT_LIST_MC = 0x1,
	PRM_VPORT_LIST_VLAN = 0x2,
	PRM_VPORT_LISTS
};
/*
 * MODIFY_NIC_VPORT_CONTEXT: which fields change (field_select), then the
 * context at byte 256, each field PRM_NIC_VPORT_MODIFY_SHIFT bits later
 * than in the query's output.
 */
#define PRM_NIC_VPORT_MODIFY_IN_LEN (256 + 256)
#define PRM_NIC_VPORT_FIELD_SELECT 0x60, 32
#define PRM_NIC_VPORT_MODIFY_SHIFT (0x800 - 0x80)

enum {
	PRM_NIC_VPORT_SEL_ROCE_EN = 1 << 1,
	PRM_NIC_VPORT_SEL_ADDRESSES_LIST = 1 << 2,
	PRM_NIC_VPORT_SEL_PERMANENT_ADDRESS = 1 << 3,
	PRM_NIC_VPORT_SEL_PROMISC = 1 << 4,
	PRM_NIC_VPORT_SEL_CHANGE_EVENT = 1 << 5,
	PRM_NIC_VPORT_SEL_MTU = 1 << 6,
	PRM_NIC_VPORT_SEL_MIN_INLINE = 1 << 7,
	PRM_NIC_VPORT_SEL_DISABLE_MC_LOCAL_LB = 1 << 10,
	PRM_NIC_VPORT_SEL_DISABLE_UC_LOCAL_LB = 1 << 11,
};

/*
 * QUERY_VPORT_COUNTER's output: from byte 16, twelve traffic counters
 * (received_errors, transmit_errors, the IB and Ethernet unicast,
 * multicast and broadcast of each direction), each 64-bit packets then
 * 64-bit octets.
 */
#define PRM_VPORT_COUNTER_BYTE 16
#define PRM_VPORT_COUNTERS 12
#define PRM_VPORT_COUNTER_OUT_LEN (PRM_VPORT_COUNTER_BYTE + 12 * 16)

/*
 * SET_ROCE_ADDRESS and QUERY_ROCE_ADDRESS: a GID table entry
 * (roce_addr_layout, 32 bytes: the L3 address, VLAN, source MAC, L3
 * type, RoCE version), named by index, at byte 16 of the set's input
 * and of the query's output.
 */
#define PRM_ROCE_ADDR_INDEX 0x40, 16
#define PRM_ROCE_ADDR_BYTE 16
#define PRM_ROCE_ADDR_LEN 32
enum {
	/* the Ethernet counters' indexes; transmitted is received + 1 */
	PRM_VPORT_CNT_RX_ETH_BROADCAST = 6,
	PRM_VPORT_CNT_RX_ETH_UNICAST = 8,
	PRM_VPORT_CNT_RX_ETH_MULTICAST = 10,
	PRM_VPORT_CNT_TX_OFFSET = 1,
};

/* Q counters: the counter set number, 8 bits, in and out. */
#define PRM_Q_COUNTER_OUT_LEN 256
/* QUERY_Q_COUNTER: clear after the read; the out_of_buffer count. */
#define PRM_Q_COUNTER_QUERY_CLEAR 0xc0, 1
#define PRM_Q_COUNTER_OUT_OF_BUFFER 0x180, 32

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

/* CREATE_XRC_SRQ: the XRC SRQ context at byte 16. */
#define PRM_XRC_SRQ_IN_LEN 272
#define PRM_XRC_SRQC_XRCD 0xa8, 24
#define PRM_XRC_SRQC_PD 0x148, 24
#define PRM_XRC_SRQC_DBR_UMEM_VALID 0xc7, 1
#define PRM_XRC_SRQ_UMEM_VALID 0x2e0, 1

/* CREATE_XRQ: the XRQ context at byte 16, its work queue at byte 144. */
#define PRM_XRQ_WQ_DBR_UMEM_VALID 0x5a0, 1
#define PRM_XRQ_WQ_UMEM_VALID 0x5a1, 1

/* CREATE_RMP: the RMP context at byte 32, its work queue's PD. */
#define PRM_RMP_IN_LEN 280
#define PRM_RMP_WQ_PD 0x2c8, 24

/* CREATE_MKEY (the mkc at byte 16) and DESTROY_MKEY. */
#define PRM_MKEY_IN_LEN 0x110
#define PRM_MKEY_UMEM_VALID 0x61, 1
#define PRM_MKC_BYTE 16
#define PRM_MKC_LEN 64
#define PRM_MKC_PD 0xe8, 24
/* mkc.access_mode_4_2 and access_mode_1_0: the mode is their join. */
#define PRM_MKC_ACCESS_MODE_4_2 0x83, 3
#define PRM_MKC_ACCESS_MODE_1_0 0x96, 2
enum {
	PRM_MKC_ACCESS_MODE_MTT = 1,
	PRM_MKC_ACCESS_MODE_KLMS = 2,
	PRM_MKC_ACCESS_MODE_KSM = 3,
};
/*
 * What a kernel driver's user MR sets in the mkc (mkey_7_0: the key's
 * low byte, its "variant"; the access bits: umr_en, a, rw, rr, lw, lr)
 */
#define PRM_MKC_UMR_EN 0x90, 1
#define PRM_MKC_A 0x91, 1
#define PRM_MKC_RW 0x92, 1
#define PRM_MKC_RR 0x93, 1
#define PRM_MKC_LW 0x94, 1
#define PRM_MKC_LR 0x95, 1
#define PRM_MKC_QPN 0xa0, 24
#define PRM_MKC_MKEY_7_0 0xb8, 8
#define PRM_MKC_START_ADDR 0x100, 64
#define PRM_MKC_LEN64 0x140, 64
#define PRM_MKC_LOG_PAGE_SIZE 0x25a, 6
#define PRM_MKEY_OUT_INDEX 0x48, 24
#define PRM_MKEY_IN_INDEX 0x48, 24

/* QUERY_HCA_VPORT_GID and _PKEY: one entry, or the table (index 0xffff). */
#define PRM_HCA_VPORT_TABLE_INDEX 0x70, 16
#define PRM_HCA_VPORT_TABLE_ALL 0xffff
#define PRM_HCA_VPORT_GIDS_NUM 0x60, 16
#define PRM_HCA_VPORT_GID_BYTE 16	/* 16 bytes per GID */
#define PRM_HCA_VPORT_PKEY_BYTE 16	/* 4 bytes per entry, P_Key low 16 */

/* E-switch vport context output (ICM addresses stay zero). */
#define PRM_ESW_VPORT_OUT_LEN (16 + 256)

/* QUERY_LAG: 16 bytes in and out, lag state at dword 2. */
#define PRM_LAG_STATE 0x5d, 3

/* Objects with a 24-bit number in dword 2 (PD, TD, XRCD). */
#define PRM_PD_OUT 0x48, 24

/* QUERY_HCA_CAP of another function (function_id follows). */
#define PRM_QUERY_CAP_OTHER_FUNCTION 0x40, 1

/*
 * Flow steering: the vport and table type every flow table, group and
 * entry command carries, and the ids that name them.
 */
#define PRM_FS_OTHER_VPORT 0x40, 1
#define PRM_FS_VPORT_NUMBER 0x50, 16
#define PRM_FS_TABLE_TYPE 0x80, 8
#define PRM_FS_TABLE_ID 0xa8, 24
#define PRM_FS_GROUP_ID 0xc0, 32
#define PRM_FS_FTE_INDEX 0x100, 32

/* CREATE_PSV: how many PSVs it makes, and the first one's number. */
#define PRM_CREATE_PSV_NUM 0x40, 4
#define PRM_CREATE_PSV_OUT_PSV0 0x88, 24

/* Other DEVX objects whose id is not at PRM_IN_OBJN. */
#define PRM_ID32_AT_40 0x40, 32
#define PRM_Q_COUNTER_QUERY_ID 0xf8, 8
#define PRM_Q_COUNTER_ID 0x58, 8
#define PRM_SCHED_ELEM_ID 0x60, 32
#define PRM_SCHED_ELEM_OUT_ID 0x80, 32
#define PRM_SCHED_HIERARCHY 0x40, 8
#define PRM_VXLAN_UDP_PORT 0x70, 16
#define PRM_MCG_GID_BYTE 16
#define PRM_MCG_GID_LEN 16

#endif
