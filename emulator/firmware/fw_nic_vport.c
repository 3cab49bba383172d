// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The function's NIC vport: its context (QUERY/MODIFY_NIC_VPORT_CONTEXT),
 * its state (QUERY_VPORT_STATE), its traffic counters
 * (QUERY_VPORT_COUNTER) and the Q counters (ALLOC/DEALLOC/QUERY_Q_COUNTER)
 * an Ethernet driver allocates for its receive queues.  The context
 * keeps what a modify sets (MTU, promiscuous modes, permanent address,
 * the UC, MC and VLAN lists, RoCE), the vport's operational state follows the
 * port's link (emu_fw_set_link(); an InfiniBand port's is always up),
 * and the counters count what the device's data path reports passing
 * (emu_fw_vport_count(), emu_fw_rq_out_of_buffer(): fw_traffic.c).
 */
#include <string.h>

#include "fw_internal.h"

/*
 * The vport commands may name a vport other than the caller's own; the
 * function is the e-switch manager, but there are no VFs or SFs, so the
 * only vport that exists is 0.
 */
bool fw_vport_exists(struct fw_cmd *cmd)
{
	if (prm_get(cmd->in, PRM_VPORT_OTHER) &&
	    prm_get(cmd->in, PRM_VPORT_NUMBER) != 0)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_VPORT);
	return true;
}

enum {
	VPORT_STATE_OP_MOD_VNIC = 0,
	VPORT_STATE_OP_MOD_ESW = 1,
	VPORT_STATE_OP_MOD_UPLINK = 2,
	VPORT_ADMIN_STATE_AUTO = 2,
	VPORT_STATE_DOWN = 0,
	VPORT_STATE_UP = 1,
};

bool fw_cmd_query_vport_state(struct fw_cmd *cmd)
{
	bool up = !cmd->fw->port_eth || cmd->fw->link_up;

	if (cmd->op_mod > VPORT_STATE_OP_MOD_UPLINK)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_OP_MOD);
	if (!fw_vport_exists(cmd))
		return false;
	prm_set(cmd->out, PRM_VPORT_STATE_ADMIN, VPORT_ADMIN_STATE_AUTO);
	prm_set(cmd->out, PRM_VPORT_STATE_OPER,
		up ? VPORT_STATE_UP : VPORT_STATE_DOWN);
	return true;
}

void fw_nic_vport_init(struct emu_fw *fw)
{
	fw->nic_vport.mtu = FW_VPORT_DEFAULT_MTU;
	fw->nic_vport.roce_en = true;
	fw_port_mac(fw, fw->nic_vport.mac);
}

/* The list the query names, as much of it as the output holds. */
static bool query_list(struct fw_cmd *cmd, const struct fw_nic_vport *v)
{
	unsigned int type = prm_get(cmd->in, PRM_NIC_VPORT_QUERY_LIST_TYPE);
	unsigned int i;

	if (!fw_check(cmd, type >= PRM_VPORT_LISTS, EMU_FW_SYND_BAD_FIELD))
		return false;
	prm_set(cmd->out, PRM_NIC_VPORT_LIST_TYPE, type);
	prm_set(cmd->out, PRM_NIC_VPORT_LIST_SIZE, v->list_len[type]);
	for (i = 0; i < v->list_len[type]; i++) {
		size_t at = PRM_NIC_VPORT_LIST_BYTE +
			    (size_t)i * PRM_NIC_VPORT_LIST_ENTRY_LEN;

		if (at + PRM_NIC_VPORT_LIST_ENTRY_LEN > cmd->outlen)
			break;
		memcpy(cmd->out + at, v->list[type][i],
		       PRM_NIC_VPORT_LIST_ENTRY_LEN);
	}
	return true;
}

bool fw_cmd_query_nic_vport_context(struct fw_cmd *cmd)
{
	const struct emu_fw *fw = cmd->fw;
	const struct fw_nic_vport *v = &fw->nic_vport;

	if (!fw_vport_exists(cmd))
		return false;
	prm_set(cmd->out, PRM_NIC_VPORT_ROCE_EN, v->roce_en);
	prm_set(cmd->out, PRM_NIC_VPORT_MTU, v->mtu);
	prm_set64(cmd->out, PRM_NIC_VPORT_SYS_IMAGE_GUID, fw->node_guid);
	prm_set64(cmd->out, PRM_NIC_VPORT_PORT_GUID, fw->node_guid);
	prm_set64(cmd->out, PRM_NIC_VPORT_NODE_GUID, fw->node_guid);
	prm_set(cmd->out, PRM_NIC_VPORT_PROMISC_UC, v->promisc_uc);
	prm_set(cmd->out, PRM_NIC_VPORT_PROMISC_MC, v->promisc_mc);
	prm_set(cmd->out, PRM_NIC_VPORT_PROMISC_ALL, v->promisc_all);
	prm_set(cmd->out, PRM_NIC_VPORT_MAC_HI, v->mac[0] << 8 | v->mac[1]);
	prm_set(cmd->out, PRM_NIC_VPORT_MAC_LO,
		(uint32_t)v->mac[2] << 24 | v->mac[3] << 16 | v->mac[4] << 8 |
		v->mac[5]);
	return query_list(cmd, v);
}

/* A context field of the modify's input, named by its query offset. */
#define MODIFIED(cmd, field) modified((cmd)->in, field)
static uint32_t modified(const uint8_t *in, unsigned int off,
			 unsigned int width)
{
	return prm_get(in, off + PRM_NIC_VPORT_MODIFY_SHIFT, width);
}

/*
 * A new UC, MC or VLAN list (the addresses the vport receives): at most
 * 2^FW_LOG_MAX_VPORT_LIST entries (the caps' log_max_current_*_list),
 * else BAD_PARAM, EMU_FW_SYND_LIMIT.
 */
static bool modify_list(struct fw_cmd *cmd, struct fw_nic_vport *v)
{
	unsigned int type = MODIFIED(cmd, PRM_NIC_VPORT_LIST_TYPE);
	unsigned int n = MODIFIED(cmd, PRM_NIC_VPORT_LIST_SIZE);
	size_t from = PRM_NIC_VPORT_LIST_BYTE +
		      PRM_NIC_VPORT_MODIFY_SHIFT / 8;

	if (!fw_check(cmd, type >= PRM_VPORT_LISTS, EMU_FW_SYND_BAD_FIELD) ||
	    !fw_check(cmd, n > 1u << FW_LOG_MAX_VPORT_LIST, EMU_FW_SYND_LIMIT))
		return false;
	if (!fw_in_len(cmd, from + (size_t)n * PRM_NIC_VPORT_LIST_ENTRY_LEN))
		return false;
	memcpy(v->list[type], cmd->in + from,
	       (size_t)n * PRM_NIC_VPORT_LIST_ENTRY_LEN);
	v->list_len[type] = n;
	return true;
}

/* The fields a modify may select; the GUIDs are not among them
 * (BAD_PARAM). */
#define NIC_VPORT_SETTABLE                                                   \
	(PRM_NIC_VPORT_SEL_ROCE_EN | PRM_NIC_VPORT_SEL_PERMANENT_ADDRESS |   \
	 PRM_NIC_VPORT_SEL_ADDRESSES_LIST |                                  \
	 PRM_NIC_VPORT_SEL_PROMISC | PRM_NIC_VPORT_SEL_CHANGE_EVENT |        \
	 PRM_NIC_VPORT_SEL_MTU | PRM_NIC_VPORT_SEL_MIN_INLINE |              \
	 PRM_NIC_VPORT_SEL_DISABLE_MC_LOCAL_LB |                             \
	 PRM_NIC_VPORT_SEL_DISABLE_UC_LOCAL_LB)

bool fw_cmd_modify_nic_vport_context(struct fw_cmd *cmd)
{
	struct fw_nic_vport *v = &cmd->fw->nic_vport;
	uint32_t sel = prm_get(cmd->in, PRM_NIC_VPORT_FIELD_SELECT);
	uint32_t lo;

	if (!fw_vport_exists(cmd) ||
	    !fw_check(cmd, sel & ~NIC_VPORT_SETTABLE, EMU_FW_SYND_BAD_FIELD))
		return false;
	if ((sel & PRM_NIC_VPORT_SEL_ADDRESSES_LIST) && !modify_list(cmd, v))
		return false;
	if (sel & PRM_NIC_VPORT_SEL_MTU)
		v->mtu = MODIFIED(cmd, PRM_NIC_VPORT_MTU);
	if (sel & PRM_NIC_VPORT_SEL_ROCE_EN)
		v->roce_en = MODIFIED(cmd, PRM_NIC_VPORT_ROCE_EN);
	if (sel & PRM_NIC_VPORT_SEL_PROMISC) {
		v->promisc_uc = MODIFIED(cmd, PRM_NIC_VPORT_PROMISC_UC);
		v->promisc_mc = MODIFIED(cmd, PRM_NIC_VPORT_PROMISC_MC);
		v->promisc_all = MODIFIED(cmd, PRM_NIC_VPORT_PROMISC_ALL);
	}
	if (sel & PRM_NIC_VPORT_SEL_PERMANENT_ADDRESS) {
		v->mac[0] = MODIFIED(cmd, PRM_NIC_VPORT_MAC_HI) >> 8;
		v->mac[1] = MODIFIED(cmd, PRM_NIC_VPORT_MAC_HI);
		lo = MODIFIED(cmd, PRM_NIC_VPORT_MAC_LO);
		v->mac[2] = lo >> 24;
		v->mac[3] = lo >> 16;
		v->mac[4] = lo >> 8;
		v->mac[5] = lo;
	}
	/* (change events, the inline mode and local loopback: kept by no
	 * field the model answers with) */
	return true;
}

bool fw_cmd_query_vport_counter(struct fw_cmd *cmd)
{
	const struct emu_fw *fw = cmd->fw;
	unsigned int i;

	if (!fw_vport_exists(cmd))
		return false;
	for (i = 0; i < PRM_VPORT_COUNTERS; i++) {
		unsigned int bit = (PRM_VPORT_COUNTER_BYTE + i * 16) * 8;

		prm_set64(cmd->out, bit, 64, fw->vport_counters[i][0]);
		prm_set64(cmd->out, bit + 64, 64, fw->vport_counters[i][1]);
	}
	return true;
}

/* Q counter sets 1..255 on an Ethernet port (max_qp_cnt), none on an
 * InfiniBand port (max_qp_cnt 0: EXCEED_LIM). */
bool fw_cmd_alloc_q_counter(struct fw_cmd *cmd)
{
	struct fw_obj *obj;

	if (!cmd->fw->port_eth)
		return fw_fail(cmd, EMU_FW_STATUS_EXCEED_LIM,
			       EMU_FW_SYND_LIMIT);
	obj = fw_obj_create(cmd, FW_OBJ_Q_COUNTER, 1, FW_MAX_Q_COUNTERS,
			    FW_MAX_Q_COUNTERS);
	/* a new set counts from 0, whatever a freed one of its number had */
	if (obj)
		cmd->fw->q_out_of_buffer[obj->id] = 0;
	return fw_created(cmd, obj, PRM_Q_COUNTER_ID);
}

bool fw_cmd_dealloc_q_counter(struct fw_cmd *cmd)
{
	return fw_destroy_named(cmd, FW_OBJ_Q_COUNTER,
				prm_get(cmd->in, PRM_Q_COUNTER_ID));
}

/*
 * A Q counter set counts its receive queues' drops: out_of_buffer (the
 * frames an RQ had no receive WQE for), into an output long enough to
 * hold it; the clear bit zeroes it after the read, as on hardware.  The
 * other counters (RDMA requests, sequence errors) stay 0.
 */
bool fw_cmd_query_q_counter(struct fw_cmd *cmd)
{
	struct fw_obj *obj;

	obj = fw_obj_named(cmd, FW_OBJ_Q_COUNTER,
			   prm_get(cmd->in, PRM_Q_COUNTER_QUERY_ID));
	if (!obj)
		return false;
	if (prm_fits(cmd->outlen, PRM_Q_COUNTER_OUT_OF_BUFFER))
		prm_set(cmd->out, PRM_Q_COUNTER_OUT_OF_BUFFER,
			cmd->fw->q_out_of_buffer[obj->id]);
	if (prm_get(cmd->in, PRM_Q_COUNTER_QUERY_CLEAR))
		cmd->fw->q_out_of_buffer[obj->id] = 0;
	return true;
}
