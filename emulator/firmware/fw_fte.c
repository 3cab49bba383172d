// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow table entries: SET_FLOW_TABLE_ENTRY (op_mod 0 makes an entry at
 * a free flow index of one of the table's groups, op_mod 1 changes the
 * fields modify_enable_mask names), QUERY_FLOW_TABLE_ENTRY and
 * DELETE_FLOW_TABLE_ENTRY.  An entry is known by its table and flow
 * index.  It holds a reference on its group and on everything its
 * action names: the TIRs, tables and samplers it forwards to, its flow
 * counters, its packet reformat and modify header contexts; none of them
 * can be destroyed while the entry lives.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

struct fte_state {
	uint32_t table_id;
	uint32_t index;
	size_t len;
	/* the flow context and its destination and counter lists */
	uint8_t image[];
};

/* Fields of an image, which starts at PRM_FTE_CTX_BYTE of the command. */
static void img_set(uint8_t *img, unsigned int off, unsigned int width,
		    uint32_t v)
{
	prm_set(img, off - PRM_FTE_CTX_BYTE * 8, width, v);
}

uint32_t fw_fte_table(const struct fw_obj *fte)
{
	return ((const struct fte_state *)fte->data)->table_id;
}

uint32_t fw_fte_index(const struct fw_obj *fte)
{
	return ((const struct fte_state *)fte->data)->index;
}

/* (holds[0] is always the entry's group: fw_cmd_set_fte()) */
uint32_t fw_fte_group(const struct fw_obj *fte)
{
	return fte->holds[0].id;
}

const uint8_t *fw_fte_image(const struct fw_obj *fte)
{
	return ((const struct fte_state *)fte->data)->image;
}

static struct fw_obj *find_fte(struct emu_fw *fw, uint32_t table_id,
			       uint32_t index)
{
	const struct fte_state *st;
	struct fw_obj *obj;

	for (obj = fw->objs[FW_OBJ_FTE]; obj; obj = obj->next) {
		st = obj->data;
		if (st->table_id == table_id && st->index == index)
			return obj;
	}
	return NULL;
}

/* The entry the command names by table and flow_index. */
static struct fw_obj *named_fte(struct fw_cmd *cmd)
{
	struct fw_obj *ft = fw_named_flow_table(cmd), *fte;

	if (!ft)
		return NULL;
	fte = find_fte(cmd->fw, ft->id, prm_get(cmd->in, PRM_FTE_INDEX));
	return fw_obj_usable(cmd, fte) ? fte : NULL;
}

static bool dest_ok(struct fw_cmd *cmd, const struct fw_obj *ft,
		    const uint8_t *dest, struct fw_holds *holds)
{
	uint32_t id = prm_get(dest, PRM_FTE_DEST_ID);
	struct fw_obj *to;

	switch (prm_get(dest, PRM_FTE_DEST_TYPE)) {
	case PRM_FTE_DEST_FLOW_TABLE:
		to = fw_obj_ref(cmd, FW_OBJ_FLOW_TABLE, id, holds);
		return to &&
		       fw_check(cmd, fw_flow_table_type(to) !=
					     fw_flow_table_type(ft),
				EMU_FW_SYND_TABLE_TYPE) &&
		       fw_check(cmd, fw_flow_table_level(to) <=
					     fw_flow_table_level(ft),
				EMU_FW_SYND_FT_LEVEL);
	case PRM_FTE_DEST_TIR:
		/* A TIR receives: only from a receive table. */
		return fw_check(cmd, fw_flow_table_type(ft) !=
					     PRM_FT_TYPE_NIC_RX,
				EMU_FW_SYND_TABLE_TYPE) &&
		       fw_obj_ref(cmd, FW_OBJ_TIR, id, holds);
	case PRM_FTE_DEST_FLOW_SAMPLER:
		to = fw_obj_find(cmd->fw, FW_OBJ_GENERAL, id);
		if (to && to->type != PRM_OBJ_TYPE_FLOW_SAMPLER)
			to = NULL;
		return fw_ref_ok(cmd, to, holds) &&
		       fw_check(cmd, fw_sampler_table_type(to) !=
					     fw_flow_table_type(ft),
				EMU_FW_SYND_TABLE_TYPE);
	default:
		/* vports, uplink: no e-switch to reach them */
		return fw_check(cmd, true, EMU_FW_SYND_BAD_FIELD);
	}
}

/* Everything the entry's image names, checked and added to holds. */
static bool image_ok(struct fw_cmd *cmd, const struct fw_obj *ft,
		     const uint8_t *img, struct fw_holds *holds)
{
	const uint32_t known = PRM_FTE_ACTION_ALLOW | PRM_FTE_ACTION_DROP |
			       PRM_FTE_ACTION_FWD_DEST |
			       PRM_FTE_ACTION_COUNT |
			       PRM_FTE_ACTION_PACKET_REFORMAT |
			       PRM_FTE_ACTION_MOD_HDR;
	uint32_t action = fw_fte_field(img, PRM_FTE_ACTION);
	uint32_t ndest = fw_fte_field(img, PRM_FTE_DEST_LIST_SIZE);
	uint32_t ncnt = fw_fte_field(img, PRM_FTE_COUNTER_LIST_SIZE);
	const uint8_t *list = img + PRM_FTE_CTX_LEN;
	struct fw_obj *obj;
	uint32_t i;

	if (!fw_check(cmd, action & ~known ||
			   ndest > 1u << FW_LOG_MAX_DESTINATION ||
			   ncnt > 1u << FW_LOG_MAX_FT_FLOW_COUNTER ||
			   fw_fte_field(img, PRM_FTE_EXTENDED_DEST) ||
			   !(action & PRM_FTE_ACTION_FWD_DEST) != !ndest ||
			   !(action & PRM_FTE_ACTION_COUNT) != !ncnt,
		      EMU_FW_SYND_BAD_FIELD))
		return false;
	for (i = 0; i < ndest; i++, list += PRM_FTE_DEST_LEN)
		if (!dest_ok(cmd, ft, list, holds))
			return false;
	for (i = 0; i < ncnt; i++, list += PRM_FTE_DEST_LEN) {
		obj = fw_obj_find_containing(cmd->fw, FW_OBJ_FLOW_COUNTER,
					     prm_get(list, PRM_FTE_COUNTER_ID));
		if (!fw_ref_ok(cmd, obj, holds))
			return false;
	}
	if (action & PRM_FTE_ACTION_PACKET_REFORMAT &&
	    !fw_obj_ref(cmd, FW_OBJ_PKT_REFORMAT,
			fw_fte_field(img, PRM_FTE_REFORMAT_ID), holds))
		return false;
	if (action & PRM_FTE_ACTION_MOD_HDR) {
		obj = fw_obj_ref(cmd, FW_OBJ_MODIFY_HDR,
				 fw_fte_field(img, PRM_FTE_MODIFY_HDR_ID),
				 holds);
		if (!obj)
			return false;
		if (!fw_check(cmd, fw_modify_hdr_table_type(obj) !=
					   fw_flow_table_type(ft),
			      EMU_FW_SYND_TABLE_TYPE))
			return false;
	}
	return true;
}

static size_t lists_len(const uint8_t *img)
{
	return ((size_t)fw_fte_field(img, PRM_FTE_DEST_LIST_SIZE) +
		fw_fte_field(img, PRM_FTE_COUNTER_LIST_SIZE)) *
	       PRM_FTE_DEST_LEN;
}

/*
 * The image an op_mod 1 SET_FLOW_TABLE_ENTRY makes of the entry's: the
 * action, the flow tag, the destination list and the counter list each
 * from the command when its mask bit is set, else as they were.
 */
static struct fte_state *modified(struct fw_cmd *cmd,
				  const struct fte_state *old)
{
	const uint8_t *in = cmd->in + PRM_FTE_CTX_BYTE;
	uint32_t mask = prm_get(cmd->in, PRM_FTE_MODIFY_MASK);
	bool dests = mask & PRM_FTE_MODIFY_DESTS;
	bool cnts = mask & PRM_FTE_MODIFY_COUNTERS;
	const uint8_t *dsrc = dests ? in : old->image;
	const uint8_t *csrc = cnts ? in : old->image;
	uint32_t nd = fw_fte_field(dsrc, PRM_FTE_DEST_LIST_SIZE);
	uint32_t nc = fw_fte_field(csrc, PRM_FTE_COUNTER_LIST_SIZE);
	size_t dlen = (size_t)nd * PRM_FTE_DEST_LEN;
	size_t clen = (size_t)nc * PRM_FTE_DEST_LEN;
	struct fte_state *st;

	if (!fw_check(cmd, mask & ~(PRM_FTE_MODIFY_ACTION |
				    PRM_FTE_MODIFY_FLOW_TAG |
				    PRM_FTE_MODIFY_DESTS |
				    PRM_FTE_MODIFY_COUNTERS),
		      EMU_FW_SYND_BAD_FIELD) ||
	    ((dests || cnts) && !fw_in_len(cmd, PRM_FTE_LEN + lists_len(in))))
		return NULL;
	st = calloc(1, sizeof(*st) + PRM_FTE_CTX_LEN + dlen + clen);
	if (!st) {
		fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES, EMU_FW_SYND_NO_MEMORY);
		return NULL;
	}
	*st = *old;
	st->len = PRM_FTE_CTX_LEN + dlen + clen;
	memcpy(st->image, old->image, PRM_FTE_CTX_LEN);
	if (mask & PRM_FTE_MODIFY_ACTION)
		img_set(st->image, PRM_FTE_ACTION,
			fw_fte_field(in, PRM_FTE_ACTION));
	if (mask & PRM_FTE_MODIFY_FLOW_TAG)
		img_set(st->image, PRM_FTE_FLOW_TAG,
			fw_fte_field(in, PRM_FTE_FLOW_TAG));
	img_set(st->image, PRM_FTE_DEST_LIST_SIZE, nd);
	img_set(st->image, PRM_FTE_COUNTER_LIST_SIZE, nc);
	memcpy(st->image + PRM_FTE_CTX_LEN, dsrc + PRM_FTE_CTX_LEN, dlen);
	memcpy(st->image + PRM_FTE_CTX_LEN + dlen,
	       csrc + PRM_FTE_CTX_LEN +
		       (size_t)fw_fte_field(csrc, PRM_FTE_DEST_LIST_SIZE) *
			       PRM_FTE_DEST_LEN,
	       clen);
	return st;
}

static struct fte_state *created(struct fw_cmd *cmd, uint32_t table_id)
{
	const uint8_t *in = cmd->in + PRM_FTE_CTX_BYTE;
	size_t len = PRM_FTE_CTX_LEN + lists_len(in);
	struct fte_state *st;

	if (!fw_in_len(cmd, PRM_FTE_CTX_BYTE + len))
		return NULL;
	st = calloc(1, sizeof(*st) + len);
	if (!st) {
		fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES, EMU_FW_SYND_NO_MEMORY);
		return NULL;
	}
	st->table_id = table_id;
	st->index = prm_get(cmd->in, PRM_FTE_INDEX);
	st->len = len;
	memcpy(st->image, in, len);
	return st;
}

bool fw_cmd_set_fte(struct fw_cmd *cmd)
{
	uint32_t index = prm_get(cmd->in, PRM_FTE_INDEX);
	struct fw_obj *ft, *fg, *fte;
	struct fw_holds holds = { 0 };
	struct fte_state *st = NULL;
	bool create = cmd->op_mod == PRM_FTE_OP_MOD_CREATE;

	if (!fw_check(cmd, cmd->op_mod > PRM_FTE_OP_MOD_MODIFY,
		      EMU_FW_SYND_BAD_OP_MOD) ||
	    !fw_check(cmd, prm_get(cmd->in, PRM_FS_OTHER_VPORT),
		      EMU_FW_SYND_BAD_FIELD))
		return false;
	ft = fw_named_flow_table(cmd);
	if (!ft)
		return false;
	fg = fw_named_flow_group(cmd, ft,
				 prm_get(cmd->in, PRM_FTE_GROUP_ID));
	if (!fg || !fw_check(cmd, !fw_flow_group_covers(fg, index),
			     EMU_FW_SYND_FTE_INDEX))
		return false;
	fte = find_fte(cmd->fw, ft->id, index);
	if (create) {
		if (!fw_check(cmd, fte, EMU_FW_SYND_FTE_EXISTS))
			return false;
		st = created(cmd, ft->id);
	} else if (fw_obj_usable(cmd, fte)) {
		/* An entry stays in its group. */
		if (!fw_check(cmd, fte->holds[0].id != fg->id,
			      EMU_FW_SYND_FTE_INDEX))
			return false;
		st = modified(cmd, fte->data);
	}
	if (!st)
		return false;
	/* The group first: holds[0] is always the entry's group. */
	if (!fw_ref_ok(cmd, fg, &holds) ||
	    !image_ok(cmd, ft, st->image, &holds))
		goto fail;
	if (create) {
		fte = fw_obj_create(cmd, FW_OBJ_FTE, 1, UINT32_MAX,
				    1u << FW_LOG_MAX_FLOW);
		if (!fte)
			goto fail;
	} else {
		free(fte->data);
	}
	fte->data = st;
	fw_obj_take_holds(cmd->fw, fte, &holds);
	return true;
fail:
	free(st);
	fw_holds_free(&holds);
	return false;
}

bool fw_cmd_query_fte(struct fw_cmd *cmd)
{
	struct fw_obj *fte = named_fte(cmd);
	struct fte_state *st;

	if (!fte)
		return false;
	st = fte->data;
	if (!fw_out_len(cmd, PRM_FTE_CTX_BYTE + st->len))
		return false;
	memcpy(cmd->out + PRM_FTE_CTX_BYTE, st->image, st->len);
	return true;
}

bool fw_cmd_delete_fte(struct fw_cmd *cmd)
{
	struct fw_obj *fte = named_fte(cmd);

	if (!fte)
		return false;
	fw_obj_destroy(cmd->fw, fte);
	return true;
}
