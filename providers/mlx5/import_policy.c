// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The import policy table; import_policy.h explains its columns. */
#include <errno.h>
#include <string.h>

#include "import_policy.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

/* A named PRM field's bit offset and width, apart. */
#define FIELD_OFF(...) FIELD_OFF_(__VA_ARGS__)
#define FIELD_OFF_(off, width) (off)
#define FIELD_WIDTH(...) FIELD_WIDTH_(__VA_ARGS__)
#define FIELD_WIDTH_(off, width) (width)

#define QUERY(op, field, in, out)                                            \
	.opcode = (op), .id_off = FIELD_OFF(field),                          \
	.id_width = FIELD_WIDTH(field), .in_len = (in), .out_len = (out)

#define GENERAL(type)                                                        \
	QUERY(PRM_OP_QUERY_GENERAL_OBJECT, PRM_GOBJ_ID,                      \
	      PRM_QUERY_GOBJ_IN_LEN, PRM_QUERY_OBJ_OUT_MAX),                 \
	.create_opcode = PRM_OP_CREATE_GENERAL_OBJECT,                       \
	.obj_type = (type), .proves_devx = true

/* A row, at the index of its devx_type: name, then its query if any. */
#define ROW(type, label, ...) \
	[type] = { .devx_type = (type), .name = (label), __VA_ARGS__ }

/* Indexed by enum import_devx_type. */
static const struct import_policy rows[] = {
	ROW(IMPORT_DEVX_UNTYPED, "untyped"),
	ROW(IMPORT_DEVX_FLOW_TABLE, "flow table",
	    .create_opcode = PRM_OP_CREATE_FLOW_TABLE,
	    QUERY(PRM_OP_QUERY_FLOW_TABLE, PRM_QUERY_FT_IN_TABLE_ID,
		  PRM_QUERY_FT_IN_LEN, PRM_QUERY_OBJ_OUT_MAX),
	    .proves_devx = true, .fw_may_fail = true),
	/* num_of_counters 0: one counter's statistics */
	ROW(IMPORT_DEVX_FLOW_COUNTER, "flow counter",
	    .create_opcode = PRM_OP_ALLOC_FLOW_COUNTER,
	    QUERY(PRM_OP_QUERY_FLOW_COUNTER, PRM_QUERY_FC_ID,
		  PRM_QUERY_FC_IN_LEN,
		  PRM_QUERY_FC_STATS_BYTE + PRM_TRAFFIC_COUNTER_LEN),
	    .proves_devx = true),
	ROW(IMPORT_DEVX_FLOW_METER, "flow meter",
	    GENERAL(PRM_OBJ_TYPE_FLOW_METER)),
	ROW(IMPORT_DEVX_QP, "QP", .create_opcode = PRM_OP_CREATE_QP,
	    QUERY(PRM_OP_QUERY_QP, PRM_QUERY_QP_IN_QPN,
		  PRM_QUERY_QP_IN_LEN, PRM_QUERY_QP_OUT_LEN)),
	ROW(IMPORT_DEVX_PKT_REFORMAT_CTX, "packet reformat context",
	    .create_opcode = PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT,
	    QUERY(PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT,
		  PRM_QUERY_PKT_REFORMAT_IN_ID,
		  PRM_QUERY_PKT_REFORMAT_IN_LEN, PRM_QUERY_OBJ_OUT_MAX),
	    .proves_devx = true, .fw_may_fail = true),
	ROW(IMPORT_DEVX_TIR, "TIR", .create_opcode = PRM_OP_CREATE_TIR,
	    QUERY(PRM_OP_QUERY_TIR, PRM_QUERY_TIR_IN_TIRN,
		  PRM_QUERY_TIR_IN_LEN, PRM_OBJ_OUT_LEN)),
	ROW(IMPORT_DEVX_FLOW_GROUP, "flow group",
	    .create_opcode = PRM_OP_CREATE_FLOW_GROUP,
	    QUERY(PRM_OP_QUERY_FLOW_GROUP, PRM_QUERY_FG_IN_GROUP_ID,
		  PRM_QUERY_FG_IN_LEN, PRM_QUERY_OBJ_OUT_MAX),
	    .proves_devx = true, .fw_may_fail = true),
	ROW(IMPORT_DEVX_FLOW_TABLE_ENTRY, "flow table entry",
	    .create_opcode = PRM_OP_SET_FLOW_TABLE_ENTRY,
	    QUERY(PRM_OP_QUERY_FLOW_TABLE_ENTRY,
		  PRM_QUERY_FTE_IN_FLOW_INDEX,
		  PRM_QUERY_FTE_IN_LEN, PRM_QUERY_OBJ_OUT_MAX),
	    .proves_devx = true, .fw_may_fail = true),
	ROW(IMPORT_DEVX_FLOW_SAMPLER, "flow sampler",
	    GENERAL(PRM_OBJ_TYPE_FLOW_SAMPLER)),
	ROW(IMPORT_DEVX_ASO_FIRST_HIT, "ASO first hit",
	    GENERAL(PRM_OBJ_TYPE_ASO_FIRST_HIT)),
	ROW(IMPORT_DEVX_ASO_FLOW_METER, "ASO flow meter",
	    GENERAL(PRM_OBJ_TYPE_ASO_FLOW_METER)),
	ROW(IMPORT_DEVX_ASO_CT, "ASO CT", GENERAL(PRM_OBJ_TYPE_ASO_CT)),
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

_Static_assert(PRM_QUERY_FT_IN_LEN <= IMPORT_QUERY_IN_MAX &&
	       PRM_QUERY_FG_IN_LEN <= IMPORT_QUERY_IN_MAX &&
	       PRM_QUERY_FTE_IN_LEN <= IMPORT_QUERY_IN_MAX &&
	       PRM_QUERY_FC_IN_LEN <= IMPORT_QUERY_IN_MAX,
	       "query mailbox in");
_Static_assert(PRM_QUERY_OBJ_OUT_MAX <= IMPORT_QUERY_OUT_MAX &&
	       PRM_QUERY_QP_OUT_LEN <= IMPORT_QUERY_OUT_MAX,
	       "query mailbox out");

const struct import_policy *import_policy_find(uint32_t devx_type)
{
	if (devx_type >= NROWS || rows[devx_type].devx_type != devx_type)
		devx_type = IMPORT_DEVX_UNTYPED;
	return &rows[devx_type];
}

const struct import_policy *import_policy_rows(size_t *n)
{
	*n = NROWS;
	return rows;
}

bool import_policy_has_query(const struct import_policy *p,
			     uint32_t object_id)
{
	/* An id wider than its field cannot be the exported object's. */
	return p->opcode && (uint64_t)object_id >> p->id_width == 0;
}

bool import_policy_needs_list(const struct import_policy *p,
			      uint32_t object_id)
{
	return !import_policy_has_query(p, object_id) || !p->proves_devx;
}

size_t import_policy_build_query(const struct import_policy *p,
				 uint32_t object_id, void *in)
{
	memset(in, 0, IMPORT_QUERY_IN_MAX);
	if (!import_policy_has_query(p, object_id))
		return 0;
	prm_set(in, PRM_HDR_OPCODE, p->opcode);
	if (p->obj_type)
		prm_set(in, PRM_GOBJ_TYPE, p->obj_type);
	prm_set(in, p->id_off, p->id_width, object_id);
	return p->in_len;
}

int import_policy_verdict(const struct import_policy *p, int err,
			  bool fw_errors_reported)
{
	if (!err || err == EREMOTEIO)
		return 0;	/* only a query the kernel accepted runs */
	if (err == ENOENT)
		return ENOENT;	/* no such handle in this ufile */
	/*
	 * Before 5.18 the firmware's failure of a live object's query is
	 * an errno too (EINVAL, EIO...), the same as the kernel's refusal.
	 */
	if (p->fw_may_fail && !fw_errors_reported)
		return IMPORT_UNDECIDED;
	if (err == EINVAL)
		return ENOENT;	/* devx_is_valid_obj_id(): another object */
	return err;
}

uint32_t import_policy_type_of(uint16_t create_opcode, uint16_t obj_type)
{
	bool general = create_opcode == PRM_OP_CREATE_GENERAL_OBJECT;
	size_t i;

	for (i = 1; i < NROWS; i++)
		if (rows[i].create_opcode == create_opcode &&
		    rows[i].obj_type == (general ? obj_type : 0))
			return rows[i].devx_type;
	return IMPORT_DEVX_UNTYPED;
}

const char *import_policy_out_of_bounds(const struct blob *b)
{
	const struct import_policy *p;

	if (b->kind != BLOB_KIND_DEVX_OBJ)
		return NULL;
	if (b->obj.type >= NROWS)
		return "type";
	if (b->obj.log_obj_range > IMPORT_LOG_OBJ_RANGE_MAX)
		return "log_obj_range";
	p = import_policy_find(b->obj.type);
	if (p->opcode && (uint64_t)b->obj.object_id >> p->id_width)
		return "object_id";
	return NULL;
}

int import_policy_bounds(const struct blob *b)
{
	return import_policy_out_of_bounds(b) ? EINVAL : 0;
}
