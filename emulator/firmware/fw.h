/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-emu firmware model: the PRM command interface of one emulated
 * mlx5 device.  The kernel model hands it command mailboxes exactly as
 * the kernel's mlx5_cmd_exec() hands them to real firmware (big-endian
 * PRM layouts, opcode at in[0..1], uid at in[2..3]), and it answers with
 * an output mailbox whose status (out[0]) and syndrome (out[4..7]) are
 * set as real firmware sets them.
 */
#ifndef MLX5_EMU_FW_H
#define MLX5_EMU_FW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "prm_opcodes.h"

struct emu_fw;

/*
 * One device's firmware; node_guid seeds its identity (caps, vport), its
 * vhca_id is its own (creation order), whatever the GUID.
 */
struct emu_fw *emu_fw_new(uint64_t node_guid);
void emu_fw_free(struct emu_fw *fw);

/*
 * Runs one command.  Returns 0 when the command reached the firmware (the
 * PRM status in out may still be non-zero: that is the firmware's answer,
 * which the kernel passes back to user space as it is), or a negative
 * errno for what the kernel's command layer itself rejects (an input
 * shorter than the command header: -EINVAL; an output shorter than 16
 * bytes: -EINVAL).  Thread-safe: serialises on a lock of its own.
 */
int emu_fw_exec(struct emu_fw *fw, const void *in, size_t inlen,
		void *out, size_t outlen);

/*
 * PRM command status values (prm_opcodes.h) under the model's names.  The
 * model sets a few of them; the kernel model maps all of them to an errno
 * (emu_fw_status_errno()).
 */
enum {
	EMU_FW_STATUS_OK = PRM_STATUS_OK,
	EMU_FW_STATUS_INT_ERR = PRM_STATUS_INT_ERR,
	EMU_FW_STATUS_BAD_OP = PRM_STATUS_BAD_OP,
	EMU_FW_STATUS_BAD_PARAM = PRM_STATUS_BAD_PARAM,
	EMU_FW_STATUS_BAD_SYS_STATE = PRM_STATUS_BAD_SYS_STATE,
	EMU_FW_STATUS_BAD_RES = PRM_STATUS_BAD_RES,
	EMU_FW_STATUS_RES_BUSY = PRM_STATUS_RES_BUSY,
	EMU_FW_STATUS_EXCEED_LIM = PRM_STATUS_EXCEED_LIM,
	EMU_FW_STATUS_BAD_RES_STATE = PRM_STATUS_BAD_RES_STATE,
	EMU_FW_STATUS_BAD_INDEX = PRM_STATUS_BAD_INDEX,
	EMU_FW_STATUS_NO_RESOURCES = PRM_STATUS_NO_RESOURCES,
	EMU_FW_STATUS_BAD_QP_STATE = PRM_STATUS_BAD_QP_STATE,
	EMU_FW_STATUS_BAD_PKT = PRM_STATUS_BAD_PKT,
	EMU_FW_STATUS_BAD_SIZE_OUTS_CQES = PRM_STATUS_BAD_SIZE_OUTS_CQES,
	EMU_FW_STATUS_BAD_INPUT_LEN = PRM_STATUS_BAD_INPUT_LEN,
	EMU_FW_STATUS_BAD_OUTPUT_LEN = PRM_STATUS_BAD_OUTPUT_LEN,
};

/*
 * Additions to the first interface (below): everything here is optional
 * for the kernel model; the prototypes above are unchanged.
 */

/*
 * Syndromes the model sets with a non-zero status.  Real firmware's
 * syndromes are opaque 32-bit numbers; these are distinct per cause so a
 * trace or a test can tell which check refused a command.
 */
enum emu_fw_syndrome {
	EMU_FW_SYND_NONE = 0,
	EMU_FW_SYND_UNKNOWN_OPCODE = 0x5e000001, /* BAD_OP */
	EMU_FW_SYND_INPUT_LEN = 0x5e000002,	 /* BAD_INPUT_LEN */
	EMU_FW_SYND_OUTPUT_LEN = 0x5e000003,	 /* BAD_OUTPUT_LEN */
	EMU_FW_SYND_BAD_OP_MOD = 0x5e000004,	 /* BAD_PARAM */
	EMU_FW_SYND_UNKNOWN_UID = 0x5e000005,	 /* BAD_PARAM */
	EMU_FW_SYND_UID_MISMATCH = 0x5e000006,	 /* BAD_PARAM */
	EMU_FW_SYND_NO_OBJECT = 0x5e000007,	 /* BAD_RES_STATE */
	EMU_FW_SYND_BAD_OBJ_TYPE = 0x5e000008,	 /* BAD_PARAM */
	EMU_FW_SYND_LIMIT = 0x5e000009,		 /* EXCEED_LIM */
	EMU_FW_SYND_NO_IDS = 0x5e00000a,	 /* NO_RESOURCES */
	EMU_FW_SYND_BAD_FIELD = 0x5e00000b,	 /* BAD_PARAM */
	EMU_FW_SYND_BUSY = 0x5e00000c,		 /* RES_BUSY */
	EMU_FW_SYND_NO_MEMORY = 0x5e00000d,	 /* NO_RESOURCES */
	EMU_FW_SYND_CAP_TYPE = 0x5e00000e,	 /* BAD_PARAM */
	EMU_FW_SYND_VPORT = 0x5e00000f,		 /* BAD_PARAM */
	EMU_FW_SYND_BULK = 0x5e000010,		 /* BAD_PARAM */
	EMU_FW_SYND_RANGE = 0x5e000011,		 /* BAD_PARAM */
	/* A UMEM that CREATE_CQ names (ring or doorbell) is ... */
	EMU_FW_SYND_UMEM_MISSING = 0x5e000012, /* BAD_PARAM: not live */
	EMU_FW_SYND_UMEM_UID = 0x5e000013,	 /* BAD_PARAM: another uid's */
	EMU_FW_SYND_UMEM_SIZE = 0x5e000014,	 /* BAD_PARAM: too small */
	/* An object a command points its object at (a CQ, TIS, RQ, ...) */
	EMU_FW_SYND_REF_MISSING = 0x5e000015,	 /* BAD_PARAM: not live */
	EMU_FW_SYND_REF_UID = 0x5e000016,	 /* BAD_PARAM: another uid's */
	EMU_FW_SYND_RESERVED = 0x5e000017,	 /* BAD_PARAM: reserved set */
	EMU_FW_SYND_STATE = 0x5e000018,		 /* BAD_RES_STATE: transition */
	EMU_FW_SYND_TABLE_TYPE = 0x5e000019,	 /* BAD_PARAM */
	EMU_FW_SYND_FG_OVERLAP = 0x5e00001a,	 /* BAD_PARAM: index ranges */
	EMU_FW_SYND_FTE_INDEX = 0x5e00001b,	 /* BAD_PARAM: not in group */
	EMU_FW_SYND_FTE_EXISTS = 0x5e00001c,	 /* BAD_PARAM: index in use */
	EMU_FW_SYND_FT_LEVEL = 0x5e00001d,	 /* BAD_PARAM: not deeper */
	/* QPs, SRQs and verbs CQs (fw_qp.c, fw_srq.c, fw_cq.c) */
	EMU_FW_SYND_PAS_SHORT = 0x5e000040, /* BAD_PARAM: page list short */
	EMU_FW_SYND_QP_STATE = 0x5e000041,  /* BAD_QP_STATE: transition */
	EMU_FW_SYND_QP_OPTPAR = 0x5e000042, /* BAD_PARAM: opt_param_mask */
};

/*
 * The negative errno the kernel's command layer makes of a PRM status
 * when it does not pass the output through (cmd_status_to_err() in
 * drivers/net/ethernet/mellanox/mlx5/core/cmd.c); 0 for OK.
 */
int emu_fw_status_errno(uint8_t status);

/* "OK", "BAD_OP", ... for traces. */
const char *emu_fw_status_name(uint8_t status);

/*
 * Trace switch: when out is not NULL, every command is printed to it as
 * one line (device, opcode name, op_mod, uid, status, syndrome).  NULL
 * turns tracing off.
 */
void emu_fw_set_trace(struct emu_fw *fw, FILE *out);

/*
 * How object numbers are handed out, per number space (fw_objects.c):
 * FRESH (the default) goes on upwards and reuses a number only after
 * the space wraps; LOWEST_FREE hands out the lowest free number, so a
 * destroyed object's number goes to the next create at once (mlx5-emu
 * run --fw-ids=lowest-free).  Real firmware promises neither; lowest
 * free is the worst case for a client holding a stale number.
 */
enum emu_fw_ids {
	EMU_FW_IDS_FRESH,
	EMU_FW_IDS_LOWEST_FREE,
};
void emu_fw_set_ids(struct emu_fw *fw, enum emu_fw_ids mode);

/*
 * What the function's port is: InfiniBand (the default, what mlx5-emu's
 * kernel model reports) or Ethernet, for the QEMU device, whose
 * Ethernet function Debian's mlx5_core drives as an mlx5e netdev.  The
 * capabilities follow (port_type, the Ethernet offloads); set it before
 * the first command.
 */
enum emu_fw_port {
	EMU_FW_PORT_IB,
	EMU_FW_PORT_ETH,
};
void emu_fw_set_port(struct emu_fw *fw, enum emu_fw_port port);
/*
 * Whether an Ethernet port's link is up (false at first): the device's
 * cable says so, and the NIC vport's operational state follows.
 */
void emu_fw_set_link(struct emu_fw *fw, bool up);

/* The device identity the caps report. */
uint64_t emu_fw_node_guid(const struct emu_fw *fw);
uint16_t emu_fw_vhca_id(const struct emu_fw *fw);

/*
 * Live firmware objects (user contexts, PDs, transport domains, XRCDs,
 * flow counter allocations, general objects, UMEMs, CQs, TIRs, TISes,
 * RQs, SQs, RQTs, flow tables, groups and entries, packet reformat and
 * modify header contexts, QPs, SRQs) created with
 * uid, or of every uid when uid is negative: lets tests check that a
 * teardown destroyed everything.
 */
unsigned int emu_fw_object_count(struct emu_fw *fw, int uid);

/*
 * Test hook: adds to the packets and octets of the flow counter id (any
 * counter of an allocated bulk), as frames that emu_fw_rx_steer() steers
 * through an entry counting in it do.  0, or -ENOENT
 * when no such counter is allocated, -EINVAL for a NULL fw.
 */
int emu_fw_flow_counter_add(struct emu_fw *fw, uint32_t id, uint64_t packets,
			    uint64_t octets);

/*
 * The receive data path (fw_rx*.c, fw_traffic.c).  What a received frame
 * reaches: the RQ, the RSS hash an indirect TIR made of it (else 0) and
 * the flow_tag of the entry that forwarded it to the TIR.
 */
struct emu_fw_rx {
	uint32_t rqn;
	uint32_t hash;
	uint32_t flow_tag;
};
/*
 * A frame (Ethernet header first, no FCS) the port received: looked up
 * from the NIC RX root table, counted by every flow counter of every
 * entry it matched, and dispatched by the TIR it reached.  true with *rx
 * filled when an RQ (in RDY) receives it; false when it is dropped (a
 * runt, no root, a drop action, a table miss with no miss table, a
 * destination that is not modelled, an RQ not ready), and the reason
 * traced (emu_fw_set_trace()) as one line.
 */
bool emu_fw_rx_steer(struct emu_fw *fw, const void *frame, size_t len,
		     struct emu_fw_rx *rx);
/*
 * The vport's traffic counters (QUERY_VPORT_COUNTER): a frame received
 * (rx true) or sent, by destination MAC class (unicast, multicast,
 * broadcast), packets and octets (len).  Frames shorter than an
 * Ethernet header are not counted.
 */
void emu_fw_vport_count(struct emu_fw *fw, bool rx, const void *frame,
			size_t len);
/*
 * A frame the RQ rqn had no receive WQE for: counted in out_of_buffer
 * of the Q counter set the RQ names (its counter_set_id; 0 or a set not
 * allocated counts nothing), which QUERY_Q_COUNTER answers.
 */
void emu_fw_rq_out_of_buffer(struct emu_fw *fw, uint32_t rqn);

#endif
