/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The PCI function's side of the PRM: the initialization segment at the
 * start of BAR0, the command queue entry and mailbox layouts, event queue
 * entries, and the fields of the device-level commands (CREATE_EQ,
 * ALLOC_UAR, QUERY_PAGES, QUERY_ADAPTER) that only a driver of the whole
 * function sends.  Byte offsets for memory the device reads or writes by
 * DMA; PRM bit fields (prm_bits.h) for mailboxes.
 */
#ifndef MLX5_PRM_DEVICE_H
#define MLX5_PRM_DEVICE_H

#include "prm_bits.h"

/* Initialization segment (BAR0 offset 0), big-endian 32-bit registers. */
enum {
	PRM_ISEG_FW_REV = 0x0000,	/* minor << 16 | major */
	PRM_ISEG_CMDIF_REV_FW_SUB = 0x0004, /* cmdif_rev << 16 | subminor */
	PRM_ISEG_CMDQ_ADDR_H = 0x0010,
	PRM_ISEG_CMDQ_ADDR_L_SZ = 0x0014, /* addr | nic_ifc << 8 | sizes */
	PRM_ISEG_CMD_DBELL = 0x0018,	/* bit i: entry i is posted */
	PRM_ISEG_INITIALIZING = 0x01fc,	/* bit 31: firmware not ready */
	PRM_ISEG_HEALTH = 0x0200,	/* health buffer, 64 bytes */
	PRM_ISEG_HEALTH_LEN = 0x40,
	PRM_ISEG_CMD_EXEC_TO = 0x0ff8,
	PRM_ISEG_CMD_Q_INIT_TO = 0x0ffc,
	PRM_ISEG_INTERNAL_TIMER_H = 0x1000,
	PRM_ISEG_INTERNAL_TIMER_L = 0x1004,
	PRM_ISEG_HEALTH_COUNTER = 0x1010, /* must move between polls */
	PRM_ISEG_REAL_TIME_H = 0x1040,
	PRM_ISEG_REAL_TIME_L = 0x1044,
	PRM_ISEG_LEN = 0x2000,
};

/* cmdq_addr_l_sz: the low byte sizes the queue, bits 8..10 NIC state. */
#define PRM_CMDQ_ADDR_MASK 0xfffff000u
#define PRM_CMDQ_NIC_IFC_SHIFT 8
#define PRM_CMDQ_NIC_IFC_MASK 0x7
enum {
	PRM_NIC_IFC_FULL_DRIVER = 0,
	PRM_NIC_IFC_DISABLED = 1,
};
#define PRM_CMDIF_REV 5

/* A command queue entry (struct mlx5_cmd_layout), 64 bytes. */
enum {
	PRM_CMD_TYPE = 0,		/* 7: PCI transport */
	PRM_CMD_INLEN = 4,		/* be32 */
	PRM_CMD_IN_PTR = 8,		/* be64: first input mailbox */
	PRM_CMD_IN_INLINE = 16,		/* first 16 input bytes */
	PRM_CMD_OUT_INLINE = 32,	/* first 16 output bytes */
	PRM_CMD_OUT_PTR = 48,		/* be64: first output mailbox */
	PRM_CMD_OUTLEN = 56,		/* be32 */
	PRM_CMD_TOKEN = 60,
	PRM_CMD_STATUS_OWN = 63,	/* delivery status << 1 | owner */
	PRM_CMD_INLINE_LEN = 16,
};
#define PRM_CMD_TYPE_PCI 7
#define PRM_CMD_OWNER_HW 0x1

/* A command mailbox block (struct mlx5_cmd_prot_block), 576 bytes. */
enum {
	PRM_MBOX_DATA_LEN = 512,
	PRM_MBOX_NEXT = 560,		/* be64 */
	PRM_MBOX_BLOCK_NUM = 568,	/* be32 */
	PRM_MBOX_TOKEN = 573,
	PRM_MBOX_LEN = 576,
};

/* An event queue entry (struct mlx5_eqe), 64 bytes. */
enum {
	PRM_EQE_TYPE = 1,
	PRM_EQE_SUB_TYPE = 3,
	PRM_EQE_DATA = 32,		/* 28 bytes, per event type */
	PRM_EQE_OWNER = 63,		/* producer pass parity, bit 0 */
	PRM_EQE_LEN = 64,
};
enum {
	PRM_EVENT_TYPE_COMP = 0x00,	/* data: PRM_EQE_COMP_CQN */
	PRM_EVENT_TYPE_PORT_CHANGE = 0x09,	/* data: PRM_EQE_PORT_BYTE */
	PRM_EVENT_TYPE_CMD = 0x0a,	/* data: be32 vector of entries */
};
enum {
	PRM_PORT_CHANGE_DOWN = 1,	/* sub types of PORT_CHANGE */
	PRM_PORT_CHANGE_ACTIVE = 4,
	PRM_EQE_PORT_BYTE = 8,		/* in the data */
	PRM_EQE_PORT_SHIFT = 4,
};

/*
 * The data path's doorbells in a UAR page: a CQ's (arm request: be32
 * arm sequence << 28 | command << 24 | consumer index, then be32 CQ
 * number), and the send doorbells, the first 8 bytes of the last WQE's
 * control segment written at the start of a BlueFlame buffer (256
 * bytes each from 0x800).
 */
enum {
	PRM_UAR_CQ_DB = 0x20,
	PRM_UAR_BF_FIRST = 0x800,
	PRM_UAR_BF_LEN = 0x100,
	PRM_CQ_DB_CI_MASK = 0xffffff,
};

/* A send WQE's control segment, in basic blocks of 64 bytes. */
enum {
	PRM_WQE_BB = 64,
	PRM_WQE_CTRL_OPCODE = 3,	/* low byte of opmod_idx_opcode */
	PRM_WQE_CTRL_DS = 7,		/* low 6 bits: 16-byte segments */
	PRM_WQE_CTRL_DS_MASK = 0x3f,
	PRM_WQE_CTRL_FM_CE_SE = 11,
	PRM_WQE_CTRL_CQ_UPDATE = 0x08,	/* in fm_ce_se: write a CQE */
	PRM_WQE_DS_LEN = 16,
	PRM_SQ_DBR_SEND = 4,		/* the send counter's record */
	PRM_RQ_DBR_RECV = 0,		/* the receive counter's record */
	PRM_WQE_OP_SEND = 0x0a,
	PRM_WQE_OP_LSO = 0x0e,		/* a TCP send cut at the MSS */
};

/*
 * An Ethernet send WQE's segment after the control segment: checksum
 * offloads, then (be16 at 12) the inline header's length and its bytes
 * from byte 14 on, or a VLAN tag to insert (type flag, TCI at 14).
 */
enum {
	PRM_ESEG_CS_FLAGS = 4,
	PRM_ESEG_MSS = 6,		/* be16, an LSO WQE's */
	PRM_ESEG_CS_L3 = 1 << 6,
	PRM_ESEG_CS_L4 = 1 << 7,
	PRM_ESEG_INLINE_SZ = 12,
	PRM_ESEG_INLINE_START = 14,
	PRM_ESEG_INSERT_VLAN = 1 << 15,	/* in the be16 at 12 */
	PRM_ESEG_INSERT_SVLAN = 1 << 0,	/* an 802.1ad tag instead */
	PRM_ESEG_VLAN_TCI = 14,
};

/*
 * A data segment (be32 length, be32 memory key, be64 address) and an
 * inline one (be32 flag and length, the bytes after it); a receive WQE
 * of a cyclic RQ is a list of data segments.
 */
enum {
	PRM_DSEG_ADDR = 8,
	PRM_DSEG_INLINE = 1u << 31,
	PRM_DSEG_INLINE_LEN_MASK = 0x3ff,
	PRM_DSEG_INLINE_DATA = 4,	/* an inline segment's bytes */
};

/* A 64-byte CQE, and the completion EQE that tells of one. */
enum {
	PRM_CQE_LEN = 64,
	PRM_CQE_SOP_QPN = 56,		/* be32, the queue's number */
	PRM_CQE_WQE_COUNTER = 60,	/* be16 */
	PRM_CQE_OP_OWN = 63,		/* opcode << 4 | owner */
	PRM_CQE_OPCODE_SHIFT = 4,
	PRM_CQE_REQ = 0x0,		/* a send WQE completed */
	PRM_CQE_RESP_SEND = 0x2,	/* a receive WQE filled */
	/* a receive CQE's fields */
	PRM_CQE_RSS_HASH = 12,		/* be32 */
	PRM_CQE_RSS_HASH_TYPE = 16,
	PRM_CQE_RSS_IPV4 = 1 << 2,
	PRM_CQE_RSS_IPV6 = 2 << 2,
	PRM_CQE_RSS_TCP = 1 << 6,
	PRM_CQE_RSS_UDP = 2 << 6,
	PRM_CQE_CHECK_SUM = 20,		/* be16, from the IP header on */
	PRM_CQE_HDS_IP_EXT = 28,
	PRM_CQE_L2_OK = 1 << 0,
	PRM_CQE_L3_OK = 1 << 1,
	PRM_CQE_L4_OK = 1 << 2,
	PRM_CQE_L4_L3_HDR_TYPE = 29,	/* l4 << 4 | l3 << 2 | stripped */
	PRM_CQE_L4_SHIFT = 4,
	PRM_CQE_L3_SHIFT = 2,
	PRM_CQE_L4_TCP = 1,
	PRM_CQE_L4_UDP = 2,
	PRM_CQE_L3_IPV6 = 1,
	PRM_CQE_L3_IPV4 = 2,
	PRM_CQE_VLAN_STRIPPED = 1 << 0,
	PRM_CQE_VLAN_INFO = 30,		/* be16, the stripped tag's TCI */
	PRM_CQE_FLOW_TAG = 56,		/* be32 sop_drop_qpn, low 24 bits */
	PRM_CQE_BYTE_CNT = 44,		/* be32 */
	PRM_EQE_COMP_CQN = 24,		/* in a COMP event's data, be32 */
};

/* CREATE_EQ: the EQ context at byte 16, event mask, page list. */
#define PRM_CREATE_EQ_PAGE_OFFSET 0xd4, 6
#define PRM_CREATE_EQ_LOG_SIZE 0xe3, 5
#define PRM_CREATE_EQ_UAR_PAGE 0xe8, 24
#define PRM_CREATE_EQ_INTR 0x134, 12
#define PRM_CREATE_EQ_LOG_PAGE_SIZE 0x143, 5
#define PRM_CREATE_EQ_EVENT_MASK_BYTE 88 /* 4 be64 words, events 0..63 first */
#define PRM_CREATE_EQ_PAS_BYTE 272	/* be64 page addresses */
#define PRM_CREATE_EQ_OUT_EQN 0x58, 8
#define PRM_DESTROY_EQ_EQN 0x58, 8

/* Device-level commands' answers. */
#define PRM_ALLOC_UAR_OUT_UAR 0x48, 24
#define PRM_DEALLOC_UAR_IN_UAR 0x48, 24
#define PRM_QUERY_PAGES_OUT_NUM_PAGES 0x60, 32
#define PRM_QUERY_ADAPTER_OUT_LEN 0x110
#define PRM_QUERY_ADAPTER_VENDOR_ID 0x148, 24	/* ieee_vendor_id */
#define PRM_QUERY_ADAPTER_PSID_BYTE 0x100	/* vsd_contd_psid, 16 chars */
/* ACCESS_REG: the register's data at byte 16 of input and output. */
#define PRM_ACCESS_REG_ID 0x50, 16
enum {	/* its op_mod */
	PRM_ACCESS_REG_WRITE = 0,
	PRM_ACCESS_REG_READ = 1,
};
#define PRM_ACCESS_REG_IN_DATA_BYTE 16
#define PRM_ACCESS_REG_OUT_DATA_BYTE 16
enum {
	PRM_REG_PMTU = 0x5003,
	PRM_REG_PTYS = 0x5004,
	PRM_REG_PAOS = 0x5006,
	PRM_REG_PVLC = 0x500f,
};
/* PAOS: the port's administrative and operational status. */
#define PRM_PAOS_ADMIN_STATUS 0x14, 4
#define PRM_PAOS_OPER_STATUS 0x1c, 4
#define PRM_PAOS_ASE 0x20, 1		/* a write sets admin_status */
enum {
	PRM_PORT_STATUS_UP = 1,
	PRM_PORT_STATUS_DOWN = 2,
};
/* Fields of those registers, from the start of the register data. */
#define PRM_PTYS_PROTO_MASK 0x1d, 3	/* bit 0: InfiniBand */
#define PRM_PTYS_PROTO_ETH 0x4		/* in proto_mask */
#define PRM_PTYS_ETH_PROTO_CAP 0x60, 32
#define PRM_PTYS_ETH_PROTO_ADMIN 0xc0, 32
#define PRM_PTYS_ETH_PROTO_OPER 0x120, 32
#define PRM_PTYS_ETH_100GBASE_CR4 (1u << 20)	/* legacy eth_proto bit */
#define PRM_PTYS_IB_WIDTH_CAP 0x80, 16
#define PRM_PTYS_IB_PROTO_CAP 0x90, 16
#define PRM_PTYS_IB_WIDTH_OPER 0x140, 16
#define PRM_PTYS_IB_PROTO_OPER 0x150, 16
#define PRM_PMTU_MAX_MTU 0x20, 16	/* bytes */
#define PRM_PMTU_ADMIN_MTU 0x40, 16
#define PRM_PMTU_OPER_MTU 0x60, 16
#define PRM_PVLC_VL_HW_CAP 0x3c, 4
#define PRM_PVLC_VL_OPER 0x7c, 4
#define PRM_QUERY_SPECIAL_CONTEXTS_OUT_LEN 0x20
#define PRM_SPECIAL_RESD_LKEY 0x60, 32
#define PRM_SPECIAL_NULL_MKEY 0x80, 32

#endif
