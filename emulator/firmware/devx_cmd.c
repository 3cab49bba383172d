// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The kernel's DEVX command classification (drivers/infiniband/hw/mlx5/
 * devx.c), as tables: which opcodes each method takes, where a command
 * keeps the number of the object it addresses, and how the destroy of a
 * created object is built.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "devx_cmd.h"
#include "opcode_table.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

/* The command's opcode; 0, which no command has, when it has none. */
static uint16_t opcode_of(const void *in, size_t inlen)
{
	if (!in || !prm_fits(inlen, PRM_HDR_OPCODE))
		return 0;
	return prm_get(in, PRM_HDR_OPCODE);
}

static bool op_in(uint16_t opcode, const uint16_t *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] == opcode)
			return true;
	return false;
}

#define OP_IN(op, list) op_in(op, list, sizeof(list) / sizeof(list[0]))

/* devx_is_general_cmd() */
static const uint16_t general_ops[] = {
	PRM_OP_QUERY_HCA_CAP,		PRM_OP_QUERY_HCA_VPORT_CONTEXT,
	PRM_OP_QUERY_ESW_VPORT_CONTEXT, PRM_OP_QUERY_VPORT_STATE,
	PRM_OP_QUERY_ADAPTER,		PRM_OP_QUERY_ISSI,
	PRM_OP_QUERY_NIC_VPORT_CONTEXT, PRM_OP_QUERY_ROCE_ADDRESS,
	PRM_OP_QUERY_VNIC_ENV,		PRM_OP_QUERY_VPORT_COUNTER,
	PRM_OP_GET_DROPPED_PACKET_LOG,	PRM_OP_NOP,
	PRM_OP_QUERY_CONG_STATUS,	PRM_OP_QUERY_CONG_PARAMS,
	PRM_OP_QUERY_CONG_STATISTICS,	PRM_OP_QUERY_LAG,
};

bool devx_cmd_is_general(const void *in, size_t inlen)
{
	uint16_t opcode = opcode_of(in, inlen);

	return (opcode >= PRM_OP_GENERAL_START &&
		opcode < PRM_OP_GENERAL_END) ||
	       OP_IN(opcode, general_ops);
}

/* devx_is_obj_create_cmd(), without its two conditional cases. */
static const uint16_t create_ops[] = {
	PRM_OP_CREATE_GENERAL_OBJECT,	PRM_OP_CREATE_MKEY,
	PRM_OP_CREATE_CQ,		PRM_OP_ALLOC_PD,
	PRM_OP_ALLOC_TRANSPORT_DOMAIN,	PRM_OP_CREATE_RMP,
	PRM_OP_CREATE_SQ,		PRM_OP_CREATE_RQ,
	PRM_OP_CREATE_RQT,		PRM_OP_CREATE_TIR,
	PRM_OP_CREATE_TIS,		PRM_OP_ALLOC_Q_COUNTER,
	PRM_OP_CREATE_FLOW_TABLE,	PRM_OP_CREATE_FLOW_GROUP,
	PRM_OP_ALLOC_FLOW_COUNTER,	PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT,
	PRM_OP_ALLOC_MODIFY_HEADER_CONTEXT,
	PRM_OP_CREATE_SCHEDULING_ELEMENT,
	PRM_OP_ADD_VXLAN_UDP_DPORT,	PRM_OP_SET_L2_TABLE_ENTRY,
	PRM_OP_CREATE_QP,		PRM_OP_CREATE_SRQ,
	PRM_OP_CREATE_XRC_SRQ,		PRM_OP_CREATE_DCT,
	PRM_OP_CREATE_XRQ,		PRM_OP_ATTACH_TO_MCG,
	PRM_OP_ALLOC_XRCD,
};

/* SET_FLOW_TABLE_ENTRY: op_mod 0 creates an entry, 1 modifies it. */
#define PRM_SET_FTE_OP_MOD PRM_HDR_OP_MOD
static bool is_set_fte(const void *in, size_t inlen, unsigned int op_mod)
{
	return opcode_of(in, inlen) == PRM_OP_SET_FLOW_TABLE_ENTRY &&
	       prm_fits(inlen, PRM_SET_FTE_OP_MOD) &&
	       prm_get(in, PRM_SET_FTE_OP_MOD) == op_mod;
}

bool devx_cmd_is_obj_create(const void *in, size_t inlen)
{
	uint16_t opcode = opcode_of(in, inlen);

	/* CREATE_PSV makes one object only when it asks for one PSV. */
	if (opcode == PRM_OP_CREATE_PSV)
		return prm_fits(inlen, PRM_CREATE_PSV_NUM) &&
		       prm_get(in, PRM_CREATE_PSV_NUM) == 1;
	return is_set_fte(in, inlen, 0) || OP_IN(opcode, create_ops);
}

/* devx_is_obj_modify_cmd(), without SET_FLOW_TABLE_ENTRY. */
static const uint16_t modify_ops[] = {
	PRM_OP_MODIFY_GENERAL_OBJECT,	PRM_OP_MODIFY_CQ,
	PRM_OP_MODIFY_RMP,		PRM_OP_MODIFY_SQ,
	PRM_OP_MODIFY_RQ,		PRM_OP_MODIFY_RQT,
	PRM_OP_MODIFY_TIR,		PRM_OP_MODIFY_TIS,
	PRM_OP_MODIFY_FLOW_TABLE,	PRM_OP_MODIFY_SCHEDULING_ELEMENT,
	PRM_OP_ADD_VXLAN_UDP_DPORT,	PRM_OP_SET_L2_TABLE_ENTRY,
	PRM_OP_RST2INIT_QP,		PRM_OP_INIT2RTR_QP,
	PRM_OP_INIT2INIT_QP,		PRM_OP_RTR2RTS_QP,
	PRM_OP_RTS2RTS_QP,		PRM_OP_SQERR2RTS_QP,
	PRM_OP_2ERR_QP,			PRM_OP_2RST_QP,
	PRM_OP_ARM_XRC_SRQ,		PRM_OP_ARM_RQ,
	PRM_OP_ARM_DCT_FOR_KEY_VIOLATION, PRM_OP_ARM_XRQ,
	PRM_OP_SET_XRQ_DC_PARAMS_ENTRY, PRM_OP_RELEASE_XRQ_ERROR,
	PRM_OP_MODIFY_XRQ,
};

bool devx_cmd_is_obj_modify(const void *in, size_t inlen)
{
	return is_set_fte(in, inlen, 1) ||
	       OP_IN(opcode_of(in, inlen), modify_ops);
}

/* devx_is_obj_query_cmd() */
static const uint16_t query_ops[] = {
	PRM_OP_QUERY_GENERAL_OBJECT,	PRM_OP_QUERY_MKEY,
	PRM_OP_QUERY_CQ,		PRM_OP_QUERY_RMP,
	PRM_OP_QUERY_SQ,		PRM_OP_QUERY_RQ,
	PRM_OP_QUERY_RQT,		PRM_OP_QUERY_TIR,
	PRM_OP_QUERY_TIS,		PRM_OP_QUERY_Q_COUNTER,
	PRM_OP_QUERY_FLOW_TABLE,	PRM_OP_QUERY_FLOW_GROUP,
	PRM_OP_QUERY_FLOW_TABLE_ENTRY,	PRM_OP_QUERY_FLOW_COUNTER,
	PRM_OP_QUERY_MODIFY_HEADER_CONTEXT,
	PRM_OP_QUERY_SCHEDULING_ELEMENT,
	PRM_OP_QUERY_L2_TABLE_ENTRY,	PRM_OP_QUERY_QP,
	PRM_OP_QUERY_SRQ,		PRM_OP_QUERY_XRC_SRQ,
	PRM_OP_QUERY_DCT,		PRM_OP_QUERY_XRQ,
	PRM_OP_QUERY_XRQ_DC_PARAMS_ENTRY, PRM_OP_QUERY_XRQ_ERROR_PARAMS,
	PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT,
};

bool devx_cmd_is_obj_query(const void *in, size_t inlen)
{
	return OP_IN(opcode_of(in, inlen), query_ops);
}

/*
 * Where a query or modify command names its object, and which create
 * made that object (devx_get_obj_id()).
 */
struct obj_ref {
	uint16_t opcode;
	uint16_t creator;
	uint16_t off;
	uint8_t width;
};

#define REF(op, cr, field) { PRM_OP_##op, PRM_OP_##cr, field }
/* Short names for the table below (prm_layout.h has the fields). */
#define OBJN PRM_IN_OBJN
#define TABLE_ID PRM_FS_TABLE_ID
#define ID32_AT_40 PRM_ID32_AT_40
#define GROUP_ID PRM_FS_GROUP_ID
#define FTE_INDEX PRM_FS_FTE_INDEX
#define Q_COUNTER_QUERY_ID PRM_Q_COUNTER_QUERY_ID
#define Q_COUNTER_ID PRM_Q_COUNTER_ID
#define SCHED_ID PRM_SCHED_ELEM_ID
#define SCHED_OUT_ID PRM_SCHED_ELEM_OUT_ID
#define VXLAN_PORT PRM_VXLAN_UDP_PORT
#define PSV0_INDEX PRM_CREATE_PSV_OUT_PSV0

static const struct obj_ref obj_refs[] = {
	REF(QUERY_MKEY, CREATE_MKEY, OBJN),
	REF(QUERY_CQ, CREATE_CQ, OBJN),
	REF(MODIFY_CQ, CREATE_CQ, OBJN),
	REF(QUERY_SQ, CREATE_SQ, OBJN),
	REF(MODIFY_SQ, CREATE_SQ, OBJN),
	REF(QUERY_RQ, CREATE_RQ, OBJN),
	REF(MODIFY_RQ, CREATE_RQ, OBJN),
	REF(QUERY_RMP, CREATE_RMP, OBJN),
	REF(MODIFY_RMP, CREATE_RMP, OBJN),
	REF(QUERY_RQT, CREATE_RQT, OBJN),
	REF(MODIFY_RQT, CREATE_RQT, OBJN),
	REF(QUERY_TIR, CREATE_TIR, OBJN),
	REF(MODIFY_TIR, CREATE_TIR, OBJN),
	REF(QUERY_TIS, CREATE_TIS, OBJN),
	REF(MODIFY_TIS, CREATE_TIS, OBJN),
	REF(QUERY_FLOW_TABLE, CREATE_FLOW_TABLE, TABLE_ID),
	REF(MODIFY_FLOW_TABLE, CREATE_FLOW_TABLE, TABLE_ID),
	REF(QUERY_FLOW_GROUP, CREATE_FLOW_GROUP, GROUP_ID),
	REF(QUERY_FLOW_TABLE_ENTRY, SET_FLOW_TABLE_ENTRY, FTE_INDEX),
	REF(SET_FLOW_TABLE_ENTRY, SET_FLOW_TABLE_ENTRY, FTE_INDEX),
	REF(QUERY_Q_COUNTER, ALLOC_Q_COUNTER, Q_COUNTER_QUERY_ID),
	REF(QUERY_FLOW_COUNTER, ALLOC_FLOW_COUNTER, PRM_QUERY_FC_ID),
	REF(QUERY_SCHEDULING_ELEMENT, CREATE_SCHEDULING_ELEMENT, SCHED_ID),
	REF(MODIFY_SCHEDULING_ELEMENT, CREATE_SCHEDULING_ELEMENT, SCHED_ID),
	REF(ADD_VXLAN_UDP_DPORT, ADD_VXLAN_UDP_DPORT, VXLAN_PORT),
	REF(QUERY_L2_TABLE_ENTRY, SET_L2_TABLE_ENTRY, TABLE_ID),
	REF(SET_L2_TABLE_ENTRY, SET_L2_TABLE_ENTRY, TABLE_ID),
	REF(QUERY_QP, CREATE_QP, OBJN),
	REF(RST2INIT_QP, CREATE_QP, OBJN),
	REF(INIT2INIT_QP, CREATE_QP, OBJN),
	REF(INIT2RTR_QP, CREATE_QP, OBJN),
	REF(RTR2RTS_QP, CREATE_QP, OBJN),
	REF(RTS2RTS_QP, CREATE_QP, OBJN),
	REF(SQERR2RTS_QP, CREATE_QP, OBJN),
	REF(2ERR_QP, CREATE_QP, OBJN),
	REF(2RST_QP, CREATE_QP, OBJN),
	REF(QUERY_DCT, CREATE_DCT, OBJN),
	REF(QUERY_XRQ, CREATE_XRQ, OBJN),
	REF(QUERY_XRQ_DC_PARAMS_ENTRY, CREATE_XRQ, OBJN),
	REF(QUERY_XRQ_ERROR_PARAMS, CREATE_XRQ, OBJN),
	REF(QUERY_XRC_SRQ, CREATE_XRC_SRQ, OBJN),
	REF(ARM_XRC_SRQ, CREATE_XRC_SRQ, OBJN),
	REF(QUERY_SRQ, CREATE_SRQ, OBJN),
	REF(ARM_RQ, CREATE_RQ, OBJN),
	REF(ARM_DCT_FOR_KEY_VIOLATION, CREATE_DCT, OBJN),
	REF(ARM_XRQ, CREATE_XRQ, OBJN),
	REF(SET_XRQ_DC_PARAMS_ENTRY, CREATE_XRQ, OBJN),
	REF(RELEASE_XRQ_ERROR, CREATE_XRQ, OBJN),
	REF(MODIFY_XRQ, CREATE_XRQ, OBJN),
	REF(QUERY_MODIFY_HEADER_CONTEXT, ALLOC_MODIFY_HEADER_CONTEXT,
	    ID32_AT_40),
	REF(QUERY_PACKET_REFORMAT_CONTEXT, ALLOC_PACKET_REFORMAT_CONTEXT,
	    ID32_AT_40),
};

uint64_t devx_cmd_obj_id(const void *in, size_t inlen)
{
	uint16_t opcode = opcode_of(in, inlen);
	size_t i;

	if (opcode == PRM_OP_MODIFY_GENERAL_OBJECT ||
	    opcode == PRM_OP_QUERY_GENERAL_OBJECT) {
		if (!prm_fits(inlen, PRM_GOBJ_ID))
			return 0;
		return devx_cmd_enc_obj_id(PRM_OP_CREATE_GENERAL_OBJECT |
					   prm_get(in, PRM_GOBJ_TYPE) << 16,
					   prm_get(in, PRM_GOBJ_ID));
	}
	for (i = 0; i < sizeof(obj_refs) / sizeof(obj_refs[0]); i++) {
		const struct obj_ref *r = &obj_refs[i];

		if (r->opcode != opcode)
			continue;
		if (!prm_fits(inlen, r->off, r->width))
			return 0;
		return devx_cmd_enc_obj_id(r->creator,
					   prm_get(in, r->off, r->width));
	}
	return 0;
}

/*
 * A create command's object number (devx_get_created_obj_id()) and its
 * destroy command (devx_obj_build_destroy_cmd()).  from_in marks the
 * creates whose number is chosen by the caller and so read from the
 * input.  A destroy that needs more than the opcode and the number
 * (flow steering, scheduling elements, multicast) is finished by
 * build_destroy_extra().
 */
struct create_desc {
	uint16_t opcode;
	uint16_t destroy;
	uint16_t id_off;
	uint8_t id_width;
	bool from_in;
	uint16_t din_off;
	uint8_t din_width;
	uint8_t dinlen;
};

#define CR(op, dop, idf, dinf, len)                                         \
	{ PRM_OP_##op, PRM_OP_##dop, idf, false, dinf, len }
#define CR_IN(op, dop, idf, dinf, len)                                      \
	{ PRM_OP_##op, PRM_OP_##dop, idf, true, dinf, len }

static const struct create_desc create_descs[] = {
	CR(CREATE_GENERAL_OBJECT, DESTROY_GENERAL_OBJECT, PRM_GOBJ_OUT_ID,
	   PRM_GOBJ_ID, 16),
	CR(CREATE_UMEM, DESTROY_UMEM, OBJN, OBJN, 16),
	CR(CREATE_MKEY, DESTROY_MKEY, OBJN, OBJN, 16),
	CR(CREATE_CQ, DESTROY_CQ, OBJN, OBJN, 16),
	CR(ALLOC_PD, DEALLOC_PD, OBJN, OBJN, 16),
	CR(ALLOC_TRANSPORT_DOMAIN, DEALLOC_TRANSPORT_DOMAIN, OBJN, OBJN, 16),
	CR(CREATE_RMP, DESTROY_RMP, OBJN, OBJN, 16),
	CR(CREATE_SQ, DESTROY_SQ, OBJN, OBJN, 16),
	CR(CREATE_RQ, DESTROY_RQ, OBJN, OBJN, 16),
	CR(CREATE_RQT, DESTROY_RQT, OBJN, OBJN, 16),
	CR(CREATE_TIR, DESTROY_TIR, OBJN, OBJN, 16),
	CR(CREATE_TIS, DESTROY_TIS, OBJN, OBJN, 16),
	CR(ALLOC_Q_COUNTER, DEALLOC_Q_COUNTER, Q_COUNTER_ID, Q_COUNTER_ID, 16),
	CR(CREATE_FLOW_TABLE, DESTROY_FLOW_TABLE, OBJN, TABLE_ID, 64),
	CR(CREATE_FLOW_GROUP, DESTROY_FLOW_GROUP, OBJN, GROUP_ID, 64),
	CR_IN(SET_FLOW_TABLE_ENTRY, DELETE_FLOW_TABLE_ENTRY, FTE_INDEX,
	      FTE_INDEX, 64),
	CR(ALLOC_FLOW_COUNTER, DEALLOC_FLOW_COUNTER, PRM_ALLOC_FC_OUT_ID,
	   PRM_DEALLOC_FC_ID, 16),
	CR(ALLOC_PACKET_REFORMAT_CONTEXT, DEALLOC_PACKET_REFORMAT_CONTEXT,
	   ID32_AT_40, ID32_AT_40, 16),
	CR(ALLOC_MODIFY_HEADER_CONTEXT, DEALLOC_MODIFY_HEADER_CONTEXT,
	   ID32_AT_40, ID32_AT_40, 16),
	CR(CREATE_SCHEDULING_ELEMENT, DESTROY_SCHEDULING_ELEMENT,
	   SCHED_OUT_ID, SCHED_ID, 64),
	CR_IN(ADD_VXLAN_UDP_DPORT, DELETE_VXLAN_UDP_DPORT, VXLAN_PORT,
	      VXLAN_PORT, 16),
	CR_IN(SET_L2_TABLE_ENTRY, DELETE_L2_TABLE_ENTRY, TABLE_ID, TABLE_ID,
	      64),
	CR(CREATE_QP, DESTROY_QP, OBJN, OBJN, 16),
	CR(CREATE_SRQ, DESTROY_SRQ, OBJN, OBJN, 16),
	CR(CREATE_XRC_SRQ, DESTROY_XRC_SRQ, OBJN, OBJN, 16),
	CR(CREATE_DCT, DESTROY_DCT, OBJN, OBJN, 16),
	CR(CREATE_XRQ, DESTROY_XRQ, OBJN, OBJN, 16),
	CR_IN(ATTACH_TO_MCG, DETACH_FROM_MCG, OBJN, OBJN, 32),
	CR(ALLOC_XRCD, DEALLOC_XRCD, OBJN, OBJN, 16),
	CR(CREATE_PSV, DESTROY_PSV, PSV0_INDEX, OBJN, 16),
};

static_assert(offsetof(struct create_desc, opcode) == 0, "keyed by opcode");

static const struct create_desc *find_create(uint16_t opcode)
{
	return OPCODE_TABLE_FIND(create_descs, opcode);
}

static uint32_t created_number(const struct create_desc *d, const void *in,
			       const void *out)
{
	return prm_get(d->from_in ? in : out, d->id_off, d->id_width);
}

uint64_t devx_cmd_created_obj_id(const void *in, const void *out)
{
	const struct create_desc *d;
	uint16_t opcode;
	uint32_t type = 0;

	if (!in || !out)
		return 0;
	opcode = prm_get(in, PRM_HDR_OPCODE);
	d = find_create(opcode);
	if (!d)
		return 0;
	if (opcode == PRM_OP_CREATE_GENERAL_OBJECT)
		type = prm_get(in, PRM_GOBJ_TYPE);
	return devx_cmd_enc_obj_id(opcode | type << 16,
				   created_number(d, in, out));
}

/* Fields the flow steering destroys repeat from their create. */
#define FS_OTHER_VPORT PRM_FS_OTHER_VPORT
#define FS_VPORT_NUMBER PRM_FS_VPORT_NUMBER
#define FS_TABLE_TYPE PRM_FS_TABLE_TYPE
#define SCHED_HIERARCHY PRM_SCHED_HIERARCHY
#define MCG_GID_BYTE PRM_MCG_GID_BYTE
#define MCG_GID_LEN PRM_MCG_GID_LEN

static void copy_field(void *din, const void *in, unsigned int off,
		       unsigned int width)
{
	prm_set(din, off, width, prm_get(in, off, width));
}

static void build_destroy_extra(uint16_t opcode, const void *in, void *din)
{
	switch (opcode) {
	case PRM_OP_CREATE_FLOW_GROUP:
	case PRM_OP_SET_FLOW_TABLE_ENTRY:
		copy_field(din, in, TABLE_ID);
		/* fall through */
	case PRM_OP_CREATE_FLOW_TABLE:
		copy_field(din, in, FS_OTHER_VPORT);
		copy_field(din, in, FS_VPORT_NUMBER);
		copy_field(din, in, FS_TABLE_TYPE);
		break;
	case PRM_OP_CREATE_SCHEDULING_ELEMENT:
		copy_field(din, in, SCHED_HIERARCHY);
		break;
	case PRM_OP_ATTACH_TO_MCG:
		memcpy((uint8_t *)din + MCG_GID_BYTE,
		       (const uint8_t *)in + MCG_GID_BYTE, MCG_GID_LEN);
		break;
	case PRM_OP_CREATE_GENERAL_OBJECT:
		copy_field(din, in, PRM_GOBJ_TYPE);
		break;
	default:
		break;
	}
}

int devx_cmd_build_destroy(const void *create_in, const void *create_out,
			   void *din, uint32_t *dinlen)
{
	const struct create_desc *d;
	uint16_t opcode;

	if (!create_in || !create_out || !din || !dinlen)
		return -EINVAL;
	opcode = prm_get(create_in, PRM_HDR_OPCODE);
	d = find_create(opcode);
	if (!d)
		return -EINVAL;

	memset(din, 0, d->dinlen);
	prm_set(din, PRM_HDR_OPCODE, d->destroy);
	copy_field(din, create_in, PRM_HDR_UID);
	prm_set(din, d->din_off, d->din_width,
		created_number(d, create_in, create_out));
	build_destroy_extra(opcode, create_in, din);
	*dinlen = d->dinlen;
	return 0;
}
