/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The PRM query commands import uses to confirm a DEVX object's id, with
 * the few opcodes and offsets they need (big-endian mailboxes, from the
 * PRM / the kernel's include/linux/mlx5/mlx5_ifc.h).
 *
 * The kernel runs a DEVX_OBJ_QUERY only when the object the mailbox
 * addresses is the object behind the handle (devx.c, devx_is_valid_obj_id:
 * the creator's opcode, for general objects also the obj_type, and the
 * id must all match), else it fails with EINVAL before the firmware sees
 * the command.  A successful query therefore proves "this handle is a live
 * DEVX object of this ufile and carries this object id".
 *
 * Which of libmlx5's recorded types (enum mlx5_devx_obj_type, set by
 * set_devx_obj_info() in providers/mlx5/verbs.c) have such a query:
 *
 *   FLOW_COUNTER     QUERY_FLOW_COUNTER        flow_counter_id
 *   QP               QUERY_QP                  qpn
 *   TIR              QUERY_TIR                 tirn
 *   FLOW_METER       QUERY_GENERAL_OBJECT      obj_type 0x000a, obj_id
 *   FLOW_SAMPLER     QUERY_GENERAL_OBJECT      obj_type 0x0020, obj_id
 *   ASO_FLOW_METER   QUERY_GENERAL_OBJECT      obj_type 0x0024, obj_id
 *   ASO_FIRST_HIT    QUERY_GENERAL_OBJECT      obj_type 0x0025, obj_id
 *   ASO_CT           QUERY_GENERAL_OBJECT      obj_type 0x0031, obj_id
 *
 * and which do not, so that import checks only liveness and type:
 *
 *   FLOW_TABLE, FLOW_GROUP, FLOW_TABLE_ENTRY  the query also needs the
 *       table type (and table id) which the exported object does not
 *       carry; a wrong one would fail in firmware with the same EINVAL as
 *       a wrong id, so a live object could be refused;
 *   PKT_REFORMAT_CTX  the answer's size depends on the reformat data,
 *       unknown at import, and a short mailbox would fail the same way;
 *   0 (any other object libmlx5 does not record a type for).
 */
#ifndef MLX5_SHARE_PRM_QUERY_H
#define MLX5_SHARE_PRM_QUERY_H

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* libmlx5's enum mlx5_devx_obj_type (private mlx5.h, stable since v32). */
enum {
	PRM_DEVX_FLOW_TABLE = 1,
	PRM_DEVX_FLOW_COUNTER = 2,
	PRM_DEVX_FLOW_METER = 3,
	PRM_DEVX_QP = 4,
	PRM_DEVX_PKT_REFORMAT_CTX = 5,
	PRM_DEVX_TIR = 6,
	PRM_DEVX_FLOW_GROUP = 7,
	PRM_DEVX_FLOW_TABLE_ENTRY = 8,
	PRM_DEVX_FLOW_SAMPLER = 9,
	PRM_DEVX_ASO_FIRST_HIT = 10,
	PRM_DEVX_ASO_FLOW_METER = 11,
	PRM_DEVX_ASO_CT = 12,
};

enum {
	PRM_OP_QUERY_QP = 0x50b,
	PRM_OP_QUERY_TIR = 0x903,
	PRM_OP_QUERY_FLOW_COUNTER = 0x93b,
	PRM_OP_QUERY_GENERAL_OBJECT = 0xa02,
};

enum {
	PRM_OBJ_TYPE_FLOW_METER = 0x000a,
	PRM_OBJ_TYPE_FLOW_SAMPLER = 0x0020,
	PRM_OBJ_TYPE_ASO_FLOW_METER = 0x0024,
	PRM_OBJ_TYPE_ASO_FIRST_HIT = 0x0025,
	PRM_OBJ_TYPE_ASO_CT = 0x0031,
};

/*
 * Mailbox sizes.  Inputs are exact.  Outputs only need to be at least
 * what the firmware answers (it stops at the mailbox): QUERY_FLOW_COUNTER
 * with num_of_counters 0 answers one 16-byte traffic counter after the
 * 16-byte header; QUERY_QP's fixed part (without the page list) is 272
 * bytes; QUERY_TIR and QUERY_GENERAL_OBJECT answers are a 16-byte header
 * and an object context of at most a few hundred bytes.
 */
enum {
	PRM_QUERY_IN_MAX = 32,
	PRM_QUERY_OUT_MAX = 1024,
	PRM_QUERY_FLOW_COUNTER_IN = 32,
	PRM_QUERY_FLOW_COUNTER_OUT = 32,
	PRM_QUERY_QP_IN = 16,
	PRM_QUERY_QP_OUT = 512,
	PRM_QUERY_TIR_IN = 16,
	PRM_QUERY_TIR_OUT = 512,
	PRM_QUERY_GENERAL_OBJECT_IN = 16,
	PRM_QUERY_GENERAL_OBJECT_OUT = 1024,
};

static inline void prm_set16(uint8_t *mbox, unsigned int off, uint16_t v)
{
	v = htobe16(v);
	memcpy(mbox + off, &v, sizeof(v));
}

static inline void prm_set32(uint8_t *mbox, unsigned int off, uint32_t v)
{
	v = htobe32(v);
	memcpy(mbox + off, &v, sizeof(v));
}

/* General object types behind libmlx5's recorded general-object types. */
static inline uint16_t prm_general_obj_type(uint32_t devx_type)
{
	switch (devx_type) {
	case PRM_DEVX_FLOW_METER:
		return PRM_OBJ_TYPE_FLOW_METER;
	case PRM_DEVX_FLOW_SAMPLER:
		return PRM_OBJ_TYPE_FLOW_SAMPLER;
	case PRM_DEVX_ASO_FLOW_METER:
		return PRM_OBJ_TYPE_ASO_FLOW_METER;
	case PRM_DEVX_ASO_FIRST_HIT:
		return PRM_OBJ_TYPE_ASO_FIRST_HIT;
	case PRM_DEVX_ASO_CT:
		return PRM_OBJ_TYPE_ASO_CT;
	default:
		return 0;
	}
}

/*
 * Writes into in[PRM_QUERY_IN_MAX] the query that reads the object of
 * libmlx5 type devx_type with id object_id.  Returns false when the type
 * has no usable query.  *inlen and *outlen get the mailbox sizes.
 */
static inline bool prm_query_build(uint32_t devx_type, uint32_t object_id,
				   uint8_t *in, size_t *inlen, size_t *outlen)
{
	uint16_t obj_type;

	memset(in, 0, PRM_QUERY_IN_MAX);
	switch (devx_type) {
	case PRM_DEVX_FLOW_COUNTER:
		/* opcode @0, num_of_counters 0 (one counter), id @28 */
		prm_set16(in, 0, PRM_OP_QUERY_FLOW_COUNTER);
		prm_set32(in, 28, object_id);
		*inlen = PRM_QUERY_FLOW_COUNTER_IN;
		*outlen = PRM_QUERY_FLOW_COUNTER_OUT;
		return true;
	case PRM_DEVX_QP:
		/* opcode @0, qpn[23:0] @8 */
		prm_set16(in, 0, PRM_OP_QUERY_QP);
		prm_set32(in, 8, object_id & 0xffffff);
		*inlen = PRM_QUERY_QP_IN;
		*outlen = PRM_QUERY_QP_OUT;
		return (object_id & ~0xffffffU) == 0;
	case PRM_DEVX_TIR:
		/* opcode @0, tirn[23:0] @8 */
		prm_set16(in, 0, PRM_OP_QUERY_TIR);
		prm_set32(in, 8, object_id & 0xffffff);
		*inlen = PRM_QUERY_TIR_IN;
		*outlen = PRM_QUERY_TIR_OUT;
		return (object_id & ~0xffffffU) == 0;
	default:
		obj_type = prm_general_obj_type(devx_type);
		if (!obj_type)
			return false;
		/* general_obj_in_cmd_hdr: opcode @0, obj_type @6, obj_id @8 */
		prm_set16(in, 0, PRM_OP_QUERY_GENERAL_OBJECT);
		prm_set16(in, 6, obj_type);
		prm_set32(in, 8, object_id);
		*inlen = PRM_QUERY_GENERAL_OBJECT_IN;
		*outlen = PRM_QUERY_GENERAL_OBJECT_OUT;
		return true;
	}
}

/*
 * Types whose query proves by itself that the handle is a DEVX object:
 * the kernel's id check can match a verbs QP (its QP, RQ, SQ, TIR, TIS)
 * but never a flow counter's or a general object's creator opcode.
 */
static inline bool prm_query_proves_devx(uint32_t devx_type)
{
	return devx_type == PRM_DEVX_FLOW_COUNTER ||
	       prm_general_obj_type(devx_type) != 0;
}

#endif
