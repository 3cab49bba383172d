// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Traffic counts the data path reports: the vport's counters by
 * destination MAC class (QUERY_VPORT_COUNTER) and the out_of_buffer
 * drops of a receive queue's Q counter set (QUERY_Q_COUNTER).  Octets
 * are the frame's length as given (no FCS).
 */
#include "fw_frame.h"
#include "fw_internal.h"

void emu_fw_vport_count(struct emu_fw *fw, bool rx, const void *frame,
			size_t len)
{
	const uint8_t *dmac = frame;
	unsigned int i;

	/* A runt has no destination to class it by. */
	if (!fw || !frame || len < FRAME_ETH_HDR_LEN)
		return;
	if (!(dmac[0] & 1))
		i = PRM_VPORT_CNT_RX_ETH_UNICAST;
	else if ((dmac[0] & dmac[1] & dmac[2] & dmac[3] & dmac[4] &
		  dmac[5]) == 0xff)
		i = PRM_VPORT_CNT_RX_ETH_BROADCAST;
	else
		i = PRM_VPORT_CNT_RX_ETH_MULTICAST;
	if (!rx)
		i += PRM_VPORT_CNT_TX_OFFSET;
	pthread_mutex_lock(&fw->lock);
	fw->vport_counters[i][0]++;
	fw->vport_counters[i][1] += len;
	pthread_mutex_unlock(&fw->lock);
}

/*
 * The RQ's counter_set_id as CREATE_RQ or MODIFY_RQ last set it; a set
 * that is not allocated (0, or freed) counts nothing.
 */
void emu_fw_rq_out_of_buffer(struct emu_fw *fw, uint32_t rqn)
{
	struct fw_obj *rq;
	uint32_t set;

	if (!fw)
		return;
	pthread_mutex_lock(&fw->lock);
	rq = fw_obj_find(fw, FW_OBJ_RQ, rqn);
	set = rq ? fw_ctx_field(rq->data, PRM_RQC_COUNTER_SET_ID) : 0;
	if (set && fw_obj_find(fw, FW_OBJ_Q_COUNTER, set))
		fw->q_out_of_buffer[set]++;
	pthread_mutex_unlock(&fw->lock);
}
