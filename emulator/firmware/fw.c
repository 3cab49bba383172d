// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's entry point: the device, and the command
 * dispatcher that checks what real firmware checks before a command's
 * own handler runs (a known opcode, long enough mailboxes, a live uid).
 */
#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "devx_cmd.h"
#include "fw_internal.h"
#include "opcode_table.h"

struct fw_op {
	uint16_t opcode;
	uint16_t min_in;
	uint16_t min_out;
	bool (*handler)(struct fw_cmd *cmd);
};

/*
 * The four commands of an object kept as a context: create and modify
 * carry the context in (in_len), query gives it back (out_len).
 */
#define CTX_OBJ_OPS(obj, fn, in_len, out_len)                               \
	{ PRM_OP_CREATE_##obj, in_len, 16, fw_cmd_create_##fn },            \
	{ PRM_OP_MODIFY_##obj, in_len, 16, fw_cmd_modify_##fn },            \
	{ PRM_OP_QUERY_##obj, 16, out_len, fw_cmd_query_##fn },             \
	{ PRM_OP_DESTROY_##obj, 16, 16, fw_cmd_destroy_##fn }

static const struct fw_op fw_ops[] = {
	{ PRM_OP_QUERY_HCA_CAP, 16, PRM_QUERY_HCA_CAP_MIN_OUT_LEN,
	  fw_cmd_query_hca_cap },
	{ PRM_OP_QUERY_ISSI, 16, PRM_QUERY_ISSI_OUT_LEN, fw_cmd_query_issi },
	{ PRM_OP_NOP, 16, 16, fw_cmd_nop },
	{ PRM_OP_QUERY_VPORT_STATE, 16, 16, fw_cmd_query_vport_state },
	{ PRM_OP_QUERY_NIC_VPORT_CONTEXT, 16, PRM_NIC_VPORT_OUT_LEN,
	  fw_cmd_query_nic_vport_context },
	{ PRM_OP_MODIFY_NIC_VPORT_CONTEXT, PRM_NIC_VPORT_MODIFY_IN_LEN, 16,
	  fw_cmd_modify_nic_vport_context },
	{ PRM_OP_QUERY_VPORT_COUNTER, 16, PRM_VPORT_COUNTER_OUT_LEN,
	  fw_cmd_query_vport_counter },
	{ PRM_OP_ALLOC_Q_COUNTER, 16, 16, fw_cmd_alloc_q_counter },
	{ PRM_OP_DEALLOC_Q_COUNTER, 16, 16, fw_cmd_dealloc_q_counter },
	{ PRM_OP_QUERY_Q_COUNTER, 16, 16, fw_cmd_query_q_counter },
	{ PRM_OP_SET_ROCE_ADDRESS, PRM_ROCE_ADDR_BYTE + PRM_ROCE_ADDR_LEN, 16,
	  fw_cmd_set_roce_address },
	{ PRM_OP_QUERY_ROCE_ADDRESS, 16, PRM_ROCE_ADDR_BYTE + PRM_ROCE_ADDR_LEN,
	  fw_cmd_query_roce_address },
	/* no congestion notification is sent or received: all 0 */
	{ PRM_OP_QUERY_CONG_STATISTICS, 16, 16, fw_cmd_nop },
	{ PRM_OP_QUERY_ESW_VPORT_CONTEXT, 16, PRM_ESW_VPORT_OUT_LEN,
	  fw_cmd_query_esw_vport_context },
	{ PRM_OP_QUERY_HCA_VPORT_CONTEXT, 16, PRM_HCA_VPORT_OUT_LEN,
	  fw_cmd_query_hca_vport_context },
	{ PRM_OP_QUERY_HCA_VPORT_GID, 16, PRM_HCA_VPORT_GID_BYTE + 16,
	  fw_cmd_query_hca_vport_gid },
	{ PRM_OP_QUERY_HCA_VPORT_PKEY, 16, PRM_HCA_VPORT_PKEY_BYTE + 4,
	  fw_cmd_query_hca_vport_pkey },
	{ PRM_OP_QUERY_LAG, 16, 16, fw_cmd_query_lag },
	{ PRM_OP_CREATE_UCTX, PRM_CREATE_UCTX_IN_LEN, 16, fw_cmd_create_uctx },
	{ PRM_OP_DESTROY_UCTX, 16, 16, fw_cmd_destroy_uctx },
	{ PRM_OP_ALLOC_PD, 16, 16, fw_cmd_alloc_simple },
	{ PRM_OP_DEALLOC_PD, 16, 16, fw_cmd_dealloc_simple },
	{ PRM_OP_ALLOC_TRANSPORT_DOMAIN, 16, 16, fw_cmd_alloc_simple },
	{ PRM_OP_DEALLOC_TRANSPORT_DOMAIN, 16, 16, fw_cmd_dealloc_simple },
	{ PRM_OP_ALLOC_XRCD, 16, 16, fw_cmd_alloc_simple },
	{ PRM_OP_DEALLOC_XRCD, 16, 16, fw_cmd_dealloc_simple },
	{ PRM_OP_ALLOC_FLOW_COUNTER, PRM_ALLOC_FC_IN_LEN, 16,
	  fw_cmd_alloc_flow_counter },
	{ PRM_OP_DEALLOC_FLOW_COUNTER, 16, 16, fw_cmd_dealloc_flow_counter },
	{ PRM_OP_QUERY_FLOW_COUNTER, PRM_QUERY_FC_IN_LEN,
	  PRM_QUERY_FC_STATS_BYTE + PRM_TRAFFIC_COUNTER_LEN,
	  fw_cmd_query_flow_counter },
	{ PRM_OP_CREATE_GENERAL_OBJECT, 16, 16,
	  fw_cmd_create_general_object },
	{ PRM_OP_MODIFY_GENERAL_OBJECT, 16, 16,
	  fw_cmd_modify_general_object },
	{ PRM_OP_QUERY_GENERAL_OBJECT, 16, 16, fw_cmd_query_general_object },
	{ PRM_OP_DESTROY_GENERAL_OBJECT, 16, 16,
	  fw_cmd_destroy_general_object },
	{ PRM_OP_CREATE_UMEM, PRM_UMEM_MTT_BYTE, 16, fw_cmd_create_umem },
	{ PRM_OP_DESTROY_UMEM, 16, 16, fw_cmd_destroy_umem },
	{ PRM_OP_CREATE_CQ, PRM_CQ_IN_LEN, 16, fw_cmd_create_cq },
	{ PRM_OP_QUERY_CQ, 16, PRM_QUERY_CQ_OUT_LEN, fw_cmd_query_cq },
	{ PRM_OP_DESTROY_CQ, 16, 16, fw_cmd_destroy_cq },
	CTX_OBJ_OPS(TIR, tir, PRM_OBJ_IN_LEN, PRM_OBJ_OUT_LEN),
	CTX_OBJ_OPS(TIS, tis, PRM_TIS_IN_LEN, PRM_QUERY_TIS_OUT_LEN),
	CTX_OBJ_OPS(RQ, wq, PRM_OBJ_IN_LEN, PRM_OBJ_OUT_LEN),
	CTX_OBJ_OPS(SQ, wq, PRM_OBJ_IN_LEN, PRM_OBJ_OUT_LEN),
	CTX_OBJ_OPS(RQT, rqt, PRM_OBJ_IN_LEN, PRM_OBJ_OUT_LEN),
	{ PRM_OP_CREATE_FLOW_TABLE, PRM_FS_IN_LEN, 16,
	  fw_cmd_create_flow_table },
	{ PRM_OP_MODIFY_FLOW_TABLE, PRM_FS_IN_LEN, 16,
	  fw_cmd_modify_flow_table },
	{ PRM_OP_QUERY_FLOW_TABLE, PRM_FS_IN_LEN, PRM_FS_IN_LEN,
	  fw_cmd_query_flow_table },
	{ PRM_OP_DESTROY_FLOW_TABLE, PRM_FS_IN_LEN, 16,
	  fw_cmd_destroy_flow_table },
	{ PRM_OP_SET_FLOW_TABLE_ROOT, PRM_FT_ROOT_IN_LEN, 16,
	  fw_cmd_set_flow_table_root },
	{ PRM_OP_CREATE_FLOW_GROUP, PRM_FG_IN_LEN, 16,
	  fw_cmd_create_flow_group },
	{ PRM_OP_QUERY_FLOW_GROUP, PRM_FS_IN_LEN, PRM_FG_IN_LEN,
	  fw_cmd_query_flow_group },
	{ PRM_OP_DESTROY_FLOW_GROUP, PRM_FS_IN_LEN, 16,
	  fw_cmd_destroy_flow_group },
	{ PRM_OP_SET_FLOW_TABLE_ENTRY, PRM_FTE_LEN, 16, fw_cmd_set_fte },
	{ PRM_OP_QUERY_FLOW_TABLE_ENTRY, PRM_FS_IN_LEN, PRM_FTE_LEN,
	  fw_cmd_query_fte },
	{ PRM_OP_DELETE_FLOW_TABLE_ENTRY, PRM_FS_IN_LEN, 16,
	  fw_cmd_delete_fte },
	{ PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT, PRM_ALLOC_REFORMAT_IN_LEN, 16,
	  fw_cmd_alloc_pkt_reformat },
	{ PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT, PRM_QUERY_REFORMAT_IN_LEN, 16,
	  fw_cmd_query_pkt_reformat },
	{ PRM_OP_DEALLOC_PACKET_REFORMAT_CONTEXT, 16, 16,
	  fw_cmd_dealloc_pkt_reformat },
	{ PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT, PRM_MODHDR_IN_LEN, 16,
	  fw_cmd_alloc_modify_hdr },
	{ PRM_OP_DEALLOC_MODIFY_HEADER_CONTEXT, 16, 16,
	  fw_cmd_dealloc_modify_hdr },
	{ PRM_OP_MODIFY_CQ, PRM_MODIFY_CQ_IN_LEN, 16, fw_cmd_modify_cq },
	{ PRM_OP_CREATE_QP, PRM_QP_IN_LEN, 16, fw_cmd_create_qp },
	{ PRM_OP_RST2INIT_QP, PRM_QP_MODIFY_IN_LEN, 16, fw_cmd_modify_qp },
	{ PRM_OP_INIT2INIT_QP, PRM_QP_MODIFY_IN_LEN, 16, fw_cmd_modify_qp },
	{ PRM_OP_INIT2RTR_QP, PRM_QP_MODIFY_IN_LEN, 16, fw_cmd_modify_qp },
	{ PRM_OP_RTR2RTS_QP, PRM_QP_MODIFY_IN_LEN, 16, fw_cmd_modify_qp },
	{ PRM_OP_RTS2RTS_QP, PRM_QP_MODIFY_IN_LEN, 16, fw_cmd_modify_qp },
	{ PRM_OP_SQERR2RTS_QP, PRM_QP_MODIFY_IN_LEN, 16, fw_cmd_modify_qp },
	{ PRM_OP_2ERR_QP, 16, 16, fw_cmd_modify_qp },
	{ PRM_OP_2RST_QP, 16, 16, fw_cmd_modify_qp },
	{ PRM_OP_QUERY_QP, 16, PRM_QUERY_QP_OUT_LEN, fw_cmd_query_qp },
	{ PRM_OP_DESTROY_QP, 16, 16, fw_cmd_destroy_qp },
	{ PRM_OP_CREATE_SRQ, PRM_SRQ_IN_LEN, 16, fw_cmd_create_srq },
	{ PRM_OP_QUERY_SRQ, 16, PRM_QUERY_SRQ_OUT_LEN, fw_cmd_query_srq },
	{ PRM_OP_DESTROY_SRQ, 16, 16, fw_cmd_destroy_srq },
	{ PRM_OP_CREATE_XRC_SRQ, PRM_XRC_SRQ_IN_LEN, 16,
	  fw_cmd_create_xrc_srq },
	{ PRM_OP_DESTROY_XRC_SRQ, 16, 16, fw_cmd_destroy_srq },
	{ PRM_OP_CREATE_RMP, PRM_RMP_IN_LEN, 16, fw_cmd_create_rmp },
	{ PRM_OP_DESTROY_RMP, 16, 16, fw_cmd_destroy_srq },
	{ PRM_OP_CREATE_MKEY, PRM_MKEY_IN_LEN, 16, fw_cmd_create_mkey },
	{ PRM_OP_DESTROY_MKEY, 16, 16, fw_cmd_destroy_mkey },
};

static_assert(offsetof(struct fw_op, opcode) == 0, "keyed by opcode");

static const struct fw_op *find_op(uint16_t opcode)
{
	return OPCODE_TABLE_FIND(fw_ops, opcode);
}

static atomic_uint next_vhca_id;

struct emu_fw *emu_fw_new(uint64_t node_guid)
{
	struct emu_fw *fw = calloc(1, sizeof(*fw));

	if (!fw)
		return NULL;
	if (pthread_mutex_init(&fw->lock, NULL)) {
		free(fw);
		errno = ENOMEM;
		return NULL;
	}
	fw->node_guid = node_guid;
	/*
	 * Each PCI function has its own vhca_id whatever its node GUID (two
	 * functions may report one GUID, as unconfigured VFs do): numbered
	 * in creation order, as a PF's functions are, from 0.
	 */
	fw->vhca_id = (uint16_t)atomic_fetch_add(&next_vhca_id, 1);
	fw_nic_vport_init(fw);
	return fw;
}

void emu_fw_free(struct emu_fw *fw)
{
	if (!fw)
		return;
	fw_obj_destroy_all(fw);
	pthread_mutex_destroy(&fw->lock);
	free(fw);
}

static void run(struct fw_cmd *cmd)
{
	const struct fw_op *op = find_op(cmd->opcode);

	if (!op) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_OP, EMU_FW_SYND_UNKNOWN_OPCODE);
		return;
	}
	if (cmd->inlen < op->min_in) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_INPUT_LEN,
			EMU_FW_SYND_INPUT_LEN);
		return;
	}
	if (cmd->outlen < op->min_out) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_OUTPUT_LEN,
			EMU_FW_SYND_OUTPUT_LEN);
		return;
	}
	if (!fw_uid_valid(cmd->fw, cmd->uid)) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM, EMU_FW_SYND_UNKNOWN_UID);
		return;
	}
	op->handler(cmd);
}

static void trace(const struct fw_cmd *cmd)
{
	FILE *out = cmd->fw->trace;

	if (!out)
		return;
	fprintf(out, "mlx5-emu fw %04x: %s(0x%x) op_mod 0x%x uid %u -> %s",
		cmd->fw->vhca_id, devx_cmd_opcode_name(cmd->opcode),
		cmd->opcode, cmd->op_mod, cmd->uid,
		emu_fw_status_name(cmd->status));
	if (cmd->status)
		fprintf(out, "(0x%x) syndrome 0x%08x", cmd->status,
			cmd->syndrome);
	fputc('\n', out);
	fflush(out);
}

int emu_fw_exec(struct emu_fw *fw, const void *in, size_t inlen,
		void *out, size_t outlen)
{
	struct fw_cmd cmd = {
		.fw = fw,
		.in = in,
		.inlen = inlen,
		.out = out,
		.outlen = outlen,
	};

	if (!fw || !in || !out || inlen < PRM_HDR_LEN ||
	    outlen < PRM_HDR_LEN)
		return -EINVAL;

	/* The output never carries anything of a previous command. */
	memset(out, 0, outlen);
	cmd.opcode = prm_get(in, PRM_HDR_OPCODE);
	cmd.uid = prm_get(in, PRM_HDR_UID);
	/* (the kernel's own, for the model's ownership checks) */
	if (cmd.uid == PRM_SHARED_RESOURCE_UID)
		cmd.uid = 0;
	cmd.op_mod = prm_get(in, PRM_HDR_OP_MOD);

	pthread_mutex_lock(&fw->lock);
	run(&cmd);
	if (cmd.status) {
		/* A failed command returns nothing but its status. */
		memset(out, 0, outlen);
		prm_set(out, PRM_OUT_STATUS, cmd.status);
		prm_set(out, PRM_OUT_SYNDROME, cmd.syndrome);
	}
	trace(&cmd);
	pthread_mutex_unlock(&fw->lock);
	return 0;
}

void emu_fw_set_trace(struct emu_fw *fw, FILE *out)
{
	if (!fw)
		return;
	pthread_mutex_lock(&fw->lock);
	fw->trace = out;
	pthread_mutex_unlock(&fw->lock);
}

void emu_fw_set_ids(struct emu_fw *fw, enum emu_fw_ids mode)
{
	if (!fw)
		return;
	pthread_mutex_lock(&fw->lock);
	fw->lowest_free = mode == EMU_FW_IDS_LOWEST_FREE;
	pthread_mutex_unlock(&fw->lock);
}

void emu_fw_set_port(struct emu_fw *fw, enum emu_fw_port port)
{
	if (!fw)
		return;
	pthread_mutex_lock(&fw->lock);
	fw->port_eth = port == EMU_FW_PORT_ETH;
	pthread_mutex_unlock(&fw->lock);
}

void emu_fw_set_link(struct emu_fw *fw, bool up)
{
	if (!fw)
		return;
	pthread_mutex_lock(&fw->lock);
	fw->link_up = up;
	pthread_mutex_unlock(&fw->lock);
}

uint64_t emu_fw_node_guid(const struct emu_fw *fw)
{
	return fw ? fw->node_guid : 0;
}

uint16_t emu_fw_vhca_id(const struct emu_fw *fw)
{
	return fw ? fw->vhca_id : 0;
}

unsigned int emu_fw_object_count(struct emu_fw *fw, int uid)
{
	unsigned int n = 0;
	struct fw_obj *obj;
	int kind;

	if (!fw)
		return 0;
	pthread_mutex_lock(&fw->lock);
	for (kind = 0; kind < FW_OBJ_KINDS; kind++)
		for (obj = fw->objs[kind]; obj; obj = obj->next)
			if (uid < 0 || obj->uid == uid)
				n++;
	pthread_mutex_unlock(&fw->lock);
	return n;
}

/*
 * The one status -> errno table of the emulator: the kernel's
 * cmd_status_to_err() (drivers/net/ethernet/mellanox/mlx5/core/cmd.c).
 */
int emu_fw_status_errno(uint8_t status)
{
	switch (status) {
	case EMU_FW_STATUS_OK:
		return 0;
	case EMU_FW_STATUS_BAD_OP:
	case EMU_FW_STATUS_BAD_PARAM:
	case EMU_FW_STATUS_BAD_RES:
	case EMU_FW_STATUS_BAD_RES_STATE:
	case EMU_FW_STATUS_BAD_INDEX:
	case EMU_FW_STATUS_BAD_QP_STATE:
	case EMU_FW_STATUS_BAD_PKT:
	case EMU_FW_STATUS_BAD_SIZE_OUTS_CQES:
		return -EINVAL;
	case EMU_FW_STATUS_RES_BUSY:
		return -EBUSY;
	case EMU_FW_STATUS_EXCEED_LIM:
		return -ENOMEM;
	case EMU_FW_STATUS_NO_RESOURCES:
		return -EAGAIN;
	default: /* internal error, bad system state, lengths, unknown */
		return -EIO;
	}
}

const char *emu_fw_status_name(uint8_t status)
{
	switch (status) {
	case EMU_FW_STATUS_OK:
		return "OK";
	case EMU_FW_STATUS_INT_ERR:
		return "INT_ERR";
	case EMU_FW_STATUS_BAD_OP:
		return "BAD_OP";
	case EMU_FW_STATUS_BAD_PARAM:
		return "BAD_PARAM";
	case EMU_FW_STATUS_BAD_SYS_STATE:
		return "BAD_SYS_STATE";
	case EMU_FW_STATUS_BAD_RES:
		return "BAD_RES";
	case EMU_FW_STATUS_RES_BUSY:
		return "RES_BUSY";
	case EMU_FW_STATUS_EXCEED_LIM:
		return "EXCEED_LIM";
	case EMU_FW_STATUS_BAD_RES_STATE:
		return "BAD_RES_STATE";
	case EMU_FW_STATUS_BAD_INDEX:
		return "BAD_INDEX";
	case EMU_FW_STATUS_NO_RESOURCES:
		return "NO_RESOURCES";
	case EMU_FW_STATUS_BAD_QP_STATE:
		return "BAD_QP_STATE";
	case EMU_FW_STATUS_BAD_PKT:
		return "BAD_PKT";
	case EMU_FW_STATUS_BAD_SIZE_OUTS_CQES:
		return "BAD_SIZE_OUTS_CQES";
	case EMU_FW_STATUS_BAD_INPUT_LEN:
		return "BAD_INPUT_LEN";
	case EMU_FW_STATUS_BAD_OUTPUT_LEN:
		return "BAD_OUTPUT_LEN";
	default:
		return "UNKNOWN";
	}
}
