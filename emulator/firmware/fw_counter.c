// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow counters: ALLOC/QUERY/DEALLOC_FLOW_COUNTER, single or in bulks.
 * A bulk of n counters (flow_counter_bulk = n / 128, one bit of the
 * flow_counter_bulk_alloc capability, or 1 << flow_counter_bulk_log_size)
 * gets n consecutive ids starting at an n-aligned base; QUERY reads any
 * run of counters inside one allocation, DEALLOC takes the base id.
 *
 * A received frame counts in the counters of every flow table entry it
 * matches (emu_fw_rx_steer()), and tests may add to any counter with
 * emu_fw_flow_counter_add(); QUERY's clear bit zeroes them after the
 * read, as on hardware.
 */
#include <errno.h>
#include <stdlib.h>

#include "fw_internal.h"

struct fc_value {
	uint64_t packets;
	uint64_t octets;
};

static bool bulk_size(struct fw_cmd *cmd, uint32_t *count)
{
	uint32_t bulk = prm_get(cmd->in, PRM_ALLOC_FC_BULK);
	uint32_t log = prm_get(cmd->in, PRM_ALLOC_FC_BULK_LOG);

	if (bulk && log)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM, EMU_FW_SYND_BULK);
	if (bulk) {
		if (bulk & (bulk - 1) || !(bulk & FW_FLOW_COUNTER_BULK_ALLOC))
			return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
				       EMU_FW_SYND_BULK);
		*count = 128 * bulk;
	} else if (log) {
		if (log > FW_LOG_MAX_FLOW_COUNTER_BULK)
			return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
				       EMU_FW_SYND_BULK);
		*count = 1u << log;
	} else {
		*count = 1;
	}
	return true;
}

bool fw_cmd_alloc_flow_counter(struct fw_cmd *cmd)
{
	struct fw_obj *obj;
	uint32_t count;
	void *values;

	if (!bulk_size(cmd, &count))
		return false;
	values = calloc(count, sizeof(struct fc_value));
	obj = fw_obj_create_data(cmd, FW_OBJ_FLOW_COUNTER, count, UINT32_MAX,
				 FW_MAX_FLOW_COUNTERS, values);
	return fw_created(cmd, obj, PRM_ALLOC_FC_OUT_ID);
}

bool fw_cmd_dealloc_flow_counter(struct fw_cmd *cmd)
{
	uint32_t id = prm_get(cmd->in, PRM_DEALLOC_FC_ID);
	struct fw_obj *obj;

	obj = fw_obj_find_containing(cmd->fw, FW_OBJ_FLOW_COUNTER, id);
	if (!fw_obj_usable(cmd, obj))
		return false;
	/* A bulk is freed as a whole, by its base id; flow table entries
	 * count into it. */
	if (!fw_check(cmd, obj->id != id, EMU_FW_SYND_RANGE) ||
	    !fw_obj_idle(cmd, obj))
		return false;
	fw_obj_destroy(cmd->fw, obj);
	return true;
}

bool fw_cmd_query_flow_counter(struct fw_cmd *cmd)
{
	uint32_t id = prm_get(cmd->in, PRM_QUERY_FC_ID);
	uint32_t num = prm_get(cmd->in, PRM_QUERY_FC_NUM);
	bool clear = prm_get(cmd->in, PRM_QUERY_FC_CLEAR);
	struct fc_value *v;
	struct fw_obj *obj;
	uint32_t i;

	/* Dumping to host memory through an mkey is not modelled. */
	if (prm_get(cmd->in, PRM_QUERY_FC_DUMP))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	if (!num)
		num = 1;
	obj = fw_obj_find_containing(cmd->fw, FW_OBJ_FLOW_COUNTER, id);
	if (!fw_obj_usable(cmd, obj))
		return false;
	if (num > obj->count - (id - obj->id))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_RANGE);
	if ((cmd->outlen - PRM_QUERY_FC_STATS_BYTE) / PRM_TRAFFIC_COUNTER_LEN <
	    num)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_OUTPUT_LEN,
			       EMU_FW_SYND_OUTPUT_LEN);

	v = (struct fc_value *)obj->data + (id - obj->id);
	for (i = 0; i < num; i++) {
		unsigned int bit = (PRM_QUERY_FC_STATS_BYTE +
				    i * PRM_TRAFFIC_COUNTER_LEN) * 8;

		prm_set64(cmd->out, bit, 64, v[i].packets);
		prm_set64(cmd->out, bit + 64, 64, v[i].octets);
		if (clear)
			v[i].packets = v[i].octets = 0;
	}
	return true;
}

bool fw_flow_counter_count(struct emu_fw *fw, uint32_t id, uint64_t packets,
			   uint64_t octets)
{
	struct fw_obj *obj;
	struct fc_value *v;

	obj = fw_obj_find_containing(fw, FW_OBJ_FLOW_COUNTER, id);
	if (!obj)
		return false;
	v = (struct fc_value *)obj->data + (id - obj->id);
	v->packets += packets;
	v->octets += octets;
	return true;
}

int emu_fw_flow_counter_add(struct emu_fw *fw, uint32_t id, uint64_t packets,
			    uint64_t octets)
{
	bool found;

	if (!fw)
		return -EINVAL;
	pthread_mutex_lock(&fw->lock);
	found = fw_flow_counter_count(fw, id, packets, octets);
	pthread_mutex_unlock(&fw->lock);
	return found ? 0 : -ENOENT;
}
