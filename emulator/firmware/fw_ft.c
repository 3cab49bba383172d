// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Flow tables and flow groups of the NIC receive and transmit steering
 * (table_type 0 and 1; the e-switch tables need an e-switch the device
 * does not manage).  A table is known by its type and number: a command
 * naming a live table with another type finds nothing.  A group covers
 * a range of its table's flow indexes, disjoint from the other groups';
 * it holds a reference on its table, and a table whose miss goes to
 * another table holds one on that table, so a table with groups, or
 * that another table misses to, cannot be destroyed first.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

struct ft_state {
	uint8_t type;
	uint8_t ctx[PRM_FT_CTX_LEN];	/* flow_table_context as created */
};

struct fg_state {
	uint32_t table_id;
	uint32_t start, end;
	/* start_flow_index .. match_criteria, as query returns them */
	uint8_t body[PRM_FG_IN_LEN - PRM_FG_BODY_BYTE];
};

static uint32_t ft_field(const struct ft_state *st, unsigned int off,
			 unsigned int width)
{
	return prm_get(st->ctx, off - PRM_FT_CTX_BYTE * 8, width);
}

/* A group's field, named by its offset in the create's input. */
static uint32_t fg_field(const struct fg_state *st, unsigned int off,
			 unsigned int width)
{
	return prm_get(st->body, off - PRM_FG_BODY_BYTE * 8, width);
}

static void ft_take(struct ft_state *st, const uint8_t *in, unsigned int off,
		    unsigned int width)
{
	prm_set(st->ctx, off - PRM_FT_CTX_BYTE * 8, width,
		prm_get(in, off, width));
}

bool fw_table_type_ok(unsigned int type)
{
	return type == PRM_FT_TYPE_NIC_RX || type == PRM_FT_TYPE_NIC_TX;
}

unsigned int fw_flow_table_type(const struct fw_obj *ft)
{
	return ((const struct ft_state *)ft->data)->type;
}

unsigned int fw_flow_table_level(const struct fw_obj *ft)
{
	return ft_field(ft->data, PRM_FTC_LEVEL);
}

struct fw_obj *fw_named_flow_table(struct fw_cmd *cmd)
{
	struct fw_obj *obj = fw_obj_find(cmd->fw, FW_OBJ_FLOW_TABLE,
					 prm_get(cmd->in, PRM_FS_TABLE_ID));

	if (obj && fw_flow_table_type(obj) !=
			   prm_get(cmd->in, PRM_FS_TABLE_TYPE))
		obj = NULL;
	return fw_obj_usable(cmd, obj) ? obj : NULL;
}

/* The common fields: a table type the device has, no other vport. */
static bool fs_common_ok(struct fw_cmd *cmd)
{
	return fw_check(cmd, prm_get(cmd->in, PRM_FS_OTHER_VPORT),
			EMU_FW_SYND_BAD_FIELD) &&
	       fw_check(cmd,
			!fw_table_type_ok(prm_get(cmd->in, PRM_FS_TABLE_TYPE)),
			EMU_FW_SYND_TABLE_TYPE);
}

/*
 * The miss behaviour of a table of type at level: the default, or a
 * table of the same type at a deeper level (the only direction a lookup
 * may go).
 */
static bool miss_ok(struct fw_cmd *cmd, uint32_t type, uint32_t level,
		    struct fw_holds *holds)
{
	struct fw_obj *next;

	switch (prm_get(cmd->in, PRM_FTC_MISS_ACTION)) {
	case PRM_FT_MISS_DEFAULT:
		return true;
	case PRM_FT_MISS_GOTO_TABLE:
		next = fw_obj_ref(cmd, FW_OBJ_FLOW_TABLE,
				  prm_get(cmd->in, PRM_FTC_MISS_ID), holds);
		if (!next)
			return false;
		return fw_check(cmd, fw_flow_table_type(next) != type,
				EMU_FW_SYND_TABLE_TYPE) &&
		       fw_check(cmd, fw_flow_table_level(next) <= level,
				EMU_FW_SYND_FT_LEVEL);
	default:
		return fw_check(cmd, true, EMU_FW_SYND_BAD_FIELD);
	}
}

bool fw_cmd_create_flow_table(struct fw_cmd *cmd)
{
	uint32_t type = prm_get(cmd->in, PRM_FS_TABLE_TYPE);
	uint32_t level = prm_get(cmd->in, PRM_FTC_LEVEL);
	struct fw_holds holds = { 0 };
	struct ft_state *st;
	struct fw_obj *obj;

	/* No SW steering ownership, no termination tables. */
	if (!fs_common_ok(cmd) ||
	    !fw_check(cmd, prm_get(cmd->in, PRM_FTC_SW_OWNER) ||
			   prm_get(cmd->in, PRM_FTC_TERMINATION) ||
			   level > FW_MAX_FT_LEVEL ||
			   prm_get(cmd->in, PRM_FTC_LOG_SIZE) >
				   FW_LOG_MAX_FT_SIZE,
		      EMU_FW_SYND_BAD_FIELD) ||
	    !miss_ok(cmd, type, level, &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	st = calloc(1, sizeof(*st));
	if (st) {
		st->type = type;
		memcpy(st->ctx, cmd->in + PRM_FT_CTX_BYTE, PRM_FT_CTX_LEN);
	}
	obj = fw_obj_create_with(cmd, FW_OBJ_FLOW_TABLE,
				 1u << FW_LOG_MAX_FT_NUM, st, &holds);
	return fw_created(cmd, obj, PRM_FT_OUT_ID);
}

bool fw_cmd_query_flow_table(struct fw_cmd *cmd)
{
	struct fw_obj *obj = fw_named_flow_table(cmd);
	const struct ft_state *st = obj ? obj->data : NULL;

	if (!st)
		return false;
	memcpy(cmd->out + PRM_FT_CTX_BYTE, st->ctx, PRM_FT_CTX_LEN);
	return true;
}

/* MODIFY_FLOW_TABLE: only the miss (modify_field_select bit 0). */
bool fw_cmd_modify_flow_table(struct fw_cmd *cmd)
{
	struct fw_holds holds = { 0 };
	struct ft_state *st;
	struct fw_obj *obj;

	obj = fw_named_flow_table(cmd);
	if (!obj)
		return false;
	st = obj->data;
	if (!fw_check(cmd, prm_get(cmd->in, PRM_FS_OTHER_VPORT) ||
			   prm_get(cmd->in, PRM_MODIFY_FT_SELECT) !=
				   PRM_MODIFY_FT_MISS_TABLE,
		      EMU_FW_SYND_BAD_FIELD) ||
	    !miss_ok(cmd, st->type, ft_field(st, PRM_FTC_LEVEL), &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	ft_take(st, cmd->in, PRM_FTC_MISS_ACTION);
	ft_take(st, cmd->in, PRM_FTC_MISS_ID);
	fw_obj_take_holds(cmd->fw, obj, &holds);
	return true;
}

/*
 * The root of a table type: the table its lookups start at, one of
 * the uid's own; op_mod 1 leaves the type without one.  No underlay QP
 * (an InfiniBand port's IPoIB steering).
 */
bool fw_cmd_set_flow_table_root(struct fw_cmd *cmd)
{
	uint32_t type = prm_get(cmd->in, PRM_FS_TABLE_TYPE);
	struct fw_obj *obj;

	if (!fw_check(cmd, cmd->op_mod > PRM_FT_ROOT_DISCONNECT,
		      EMU_FW_SYND_BAD_OP_MOD) ||
	    !fs_common_ok(cmd) ||
	    !fw_check(cmd, prm_get(cmd->in, PRM_FT_ROOT_UNDERLAY_QPN),
		      EMU_FW_SYND_BAD_FIELD))
		return false;
	if (cmd->op_mod == PRM_FT_ROOT_DISCONNECT) {
		cmd->fw->ft_root[type] = 0;
		return true;
	}
	obj = fw_named_flow_table(cmd);
	if (!obj)
		return false;
	cmd->fw->ft_root[type] = obj->id;
	return true;
}

bool fw_cmd_destroy_flow_table(struct fw_cmd *cmd)
{
	struct fw_obj *obj = fw_named_flow_table(cmd);

	if (!obj || !fw_obj_idle(cmd, obj))
		return false;
	/* (the root is disconnected or moved first) */
	if (cmd->fw->ft_root[fw_flow_table_type(obj)] == obj->id)
		return fw_fail(cmd, EMU_FW_STATUS_RES_BUSY, EMU_FW_SYND_BUSY);
	fw_obj_destroy(cmd->fw, obj);
	return true;
}

/* Whether a group of the table already covers part of [start, end]. */
static bool overlaps(struct emu_fw *fw, uint32_t table_id, uint32_t start,
		     uint32_t end)
{
	const struct fg_state *st;
	struct fw_obj *fg;

	for (fg = fw->objs[FW_OBJ_FLOW_GROUP]; fg; fg = fg->next) {
		st = fg->data;
		if (st->table_id == table_id && start <= st->end &&
		    st->start <= end)
			return true;
	}
	return false;
}

bool fw_cmd_create_flow_group(struct fw_cmd *cmd)
{
	uint32_t start = prm_get(cmd->in, PRM_FG_START);
	uint32_t end = prm_get(cmd->in, PRM_FG_END);
	struct fw_holds holds = { 0 };
	struct fw_obj *ft, *obj;
	struct fg_state *st;

	ft = fw_named_flow_table(cmd);
	if (!ft)
		return false;
	/* Match definers are not offered: groups match by criteria. */
	if (!fw_check(cmd, prm_get(cmd->in, PRM_FG_GROUP_TYPE) ||
			   start > end ||
			   end >> ft_field(ft->data, PRM_FTC_LOG_SIZE),
		      EMU_FW_SYND_BAD_FIELD) ||
	    !fw_check(cmd, overlaps(cmd->fw, ft->id, start, end),
		      EMU_FW_SYND_FG_OVERLAP) ||
	    !fw_ref_ok(cmd, ft, &holds)) {
		fw_holds_free(&holds);
		return false;
	}
	st = calloc(1, sizeof(*st));
	if (st) {
		st->table_id = ft->id;
		st->start = start;
		st->end = end;
		memcpy(st->body, cmd->in + PRM_FG_BODY_BYTE,
		       sizeof(st->body));
	}
	obj = fw_obj_create_with(cmd, FW_OBJ_FLOW_GROUP,
				 1u << FW_LOG_MAX_FLOW, st, &holds);
	return fw_created(cmd, obj, PRM_FG_OUT_ID);
}

struct fw_obj *fw_named_flow_group(struct fw_cmd *cmd, const struct fw_obj *ft,
				   uint32_t group_id)
{
	struct fw_obj *obj = fw_obj_find(cmd->fw, FW_OBJ_FLOW_GROUP, group_id);

	if (obj && ((struct fg_state *)obj->data)->table_id != ft->id)
		obj = NULL;
	return fw_obj_usable(cmd, obj) ? obj : NULL;
}

bool fw_flow_group_covers(const struct fw_obj *fg, uint32_t index)
{
	const struct fg_state *st = fg->data;

	return st->start <= index && index <= st->end;
}

unsigned int fw_flow_table_miss(const struct fw_obj *ft, uint32_t *miss_id)
{
	*miss_id = ft_field(ft->data, PRM_FTC_MISS_ID);
	return ft_field(ft->data, PRM_FTC_MISS_ACTION);
}

uint32_t fw_flow_group_table(const struct fw_obj *fg)
{
	return ((const struct fg_state *)fg->data)->table_id;
}

unsigned int fw_flow_group_criteria_enable(const struct fw_obj *fg)
{
	return fg_field(fg->data, PRM_FG_MATCH_CRITERIA_ENABLE);
}

const uint8_t *fw_flow_group_criteria(const struct fw_obj *fg)
{
	const struct fg_state *st = fg->data;

	return st->body + PRM_FG_MATCH_CRITERIA_BYTE - PRM_FG_BODY_BYTE;
}

bool fw_cmd_query_flow_group(struct fw_cmd *cmd)
{
	struct fw_obj *ft = fw_named_flow_table(cmd);
	struct fw_obj *fg;

	fg = ft ? fw_named_flow_group(cmd, ft, prm_get(cmd->in, PRM_FG_ID))
		: NULL;
	if (!fg)
		return false;
	memcpy(cmd->out + PRM_FG_BODY_BYTE,
	       ((struct fg_state *)fg->data)->body,
	       PRM_FG_IN_LEN - PRM_FG_BODY_BYTE);
	return true;
}

bool fw_cmd_destroy_flow_group(struct fw_cmd *cmd)
{
	struct fw_obj *ft = fw_named_flow_table(cmd);
	struct fw_obj *fg;

	fg = ft ? fw_named_flow_group(cmd, ft, prm_get(cmd->in, PRM_FG_ID))
		: NULL;
	if (!fg || !fw_obj_idle(cmd, fg))
		return false;
	fw_obj_destroy(cmd->fw, fg);
	return true;
}
