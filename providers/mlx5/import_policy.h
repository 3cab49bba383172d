/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What import asks the kernel about a DEVX object blob, per libmlx5 object
 * type: one const table, read by the single and the batch import alike.
 * Portable on purpose (libc and prm/ only): rdma-core's mlx5 provider can
 * carry this file unchanged.
 *
 * What libmlx5 records.  set_devx_obj_info() (providers/mlx5/verbs.c,
 * v39..v64) sets a type and the firmware object id only for the objects
 * created by CREATE_FLOW_TABLE, CREATE_FLOW_GROUP, SET_FLOW_TABLE_ENTRY,
 * ALLOC_FLOW_COUNTER, CREATE_QP, CREATE_TIR, ALLOC_PACKET_REFORMAT_CONTEXT
 * and CREATE_GENERAL_OBJECT of obj_type flow meter, flow sampler, ASO
 * first hit, ASO flow meter and ASO CT.  Every other object (TIS, RQ, SQ,
 * RQT, modify header, CQ, mkey, any other general object...) has type 0:
 * neither exporter nor importer knows which query could address it (for
 * other general objects libmlx5 keeps the id but not the obj_type, which
 * the kernel's id check needs).  For them import can only ask whether the
 * handle is a live DEVX object of the importing ufile (INFO_HANDLES).
 *
 * What the kernel checks.  For DEVX_OBJ_QUERY the kernel (devx.c,
 * devx_is_valid_obj_id) compares the object behind the handle with the
 * query mailbox BEFORE the firmware runs: the creator's opcode (for
 * general objects also the obj_type) and the id field must both match,
 * else the ioctl fails with EINVAL.  Only then does the firmware run the
 * query.  Since Linux 5.18 a command the firmware failed comes back as
 * EREMOTEIO with the out mailbox copied; older kernels map the firmware
 * status to an errno, mostly EINVAL.
 *
 * So, per row:
 *   proves_devx    the query's creator opcode is one only a DEVX object
 *                  has, so a kernel-accepted query alone proves "a live
 *                  DEVX object of this ufile carrying this id".  Not for
 *                  QP and TIR: a verbs QP (or raw packet QP's TIR) passes
 *                  the same check, so INFO_HANDLES must say DEVX first.
 *   fw_may_fail    the firmware part may fail for a live object because
 *                  the blob cannot carry what it needs: flow table, flow
 *                  group and FTE queries need the table_type (and table_id)
 *                  the object was made with; a packet reformat query's
 *                  answer size depends on reformat data the blob lacks.
 *                  For these only the kernel's part counts: 0 or
 *                  EREMOTEIO confirms the id.
 *
 * The ambiguous EINVAL.  On a kernel older than 5.18, EINVAL from a
 * fw_may_fail query is either the kernel refusing the id or the firmware
 * failing a query of the right object.  Import asks once per process
 * whether the kernel reports firmware failures as EREMOTEIO (a
 * QUERY_HCA_CAP of a capability type no device has, which the firmware
 * must fail): if it does, EINVAL is the kernel's refusal (ENOENT); if not,
 * the query decides nothing (IMPORT_UNDECIDED) and import falls back to
 * INFO_HANDLES, proving liveness and DEVX type only.  A live object is
 * never refused for it.
 */
#ifndef MLX5_SHARE_IMPORT_POLICY_H
#define MLX5_SHARE_IMPORT_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blob.h"

/* libmlx5's enum mlx5_devx_obj_type (private mlx5.h, stable since v32). */
enum import_devx_type {
	IMPORT_DEVX_UNTYPED = 0,
	IMPORT_DEVX_FLOW_TABLE = 1,
	IMPORT_DEVX_FLOW_COUNTER = 2,
	IMPORT_DEVX_FLOW_METER = 3,
	IMPORT_DEVX_QP = 4,
	IMPORT_DEVX_PKT_REFORMAT_CTX = 5,
	IMPORT_DEVX_TIR = 6,
	IMPORT_DEVX_FLOW_GROUP = 7,
	IMPORT_DEVX_FLOW_TABLE_ENTRY = 8,
	IMPORT_DEVX_FLOW_SAMPLER = 9,
	IMPORT_DEVX_ASO_FIRST_HIT = 10,
	IMPORT_DEVX_ASO_FLOW_METER = 11,
	IMPORT_DEVX_ASO_CT = 12,
};

/* Bytes of the largest query mailbox in and out any row needs. */
enum {
	IMPORT_QUERY_IN_MAX = 64,
	IMPORT_QUERY_OUT_MAX = 1024,
};

struct import_policy {
	uint32_t devx_type;	/* enum import_devx_type */
	const char *name;
	uint16_t create_opcode;	/* what libmlx5 types by (0: row 0) */
	uint16_t opcode;	/* the id query, 0 when there is none */
	uint16_t obj_type;	/* general object type (create and query) */
	uint16_t id_off;	/* the id field in the query's in mailbox */
	uint16_t id_width;	/*   (prm_get/prm_set bit offset, width) */
	uint16_t in_len;	/* bytes of the query's in mailbox */
	uint16_t out_len;	/* bytes offered for its answer */
	bool proves_devx;
	bool fw_may_fail;
};

/*
 * The row for a libmlx5 type.  Never NULL: a type without a row (0, or
 * one a newer libmlx5 adds) gets the untyped row, which has no query.
 */
const struct import_policy *import_policy_find(uint32_t devx_type);

/* All rows, for tests and documentation tools; *n gets their number. */
const struct import_policy *import_policy_rows(size_t *n);

/* Can the id of this object be confirmed (a query, and the id fits)? */
bool import_policy_has_query(const struct import_policy *p,
			     uint32_t object_id);

/* Must INFO_HANDLES say "live DEVX object" before the query is trusted? */
bool import_policy_needs_list(const struct import_policy *p,
			      uint32_t object_id);

/*
 * Writes the query for object_id into in (IMPORT_QUERY_IN_MAX bytes) and
 * returns its length, or 0 when !import_policy_has_query().
 */
size_t import_policy_build_query(const struct import_policy *p,
				 uint32_t object_id, void *in);

/* The query could not decide: ask INFO_HANDLES instead. */
#define IMPORT_UNDECIDED (-1)

/*
 * Judges the query ioctl's result err (0 or a positive errno).
 * fw_errors_reported: the kernel reports firmware failures as EREMOTEIO.
 * Returns 0 (id confirmed), ENOENT (no such object with this id behind
 * the handle), IMPORT_UNDECIDED, or err itself (any other failure).
 */
int import_policy_verdict(const struct import_policy *p, int err,
			  bool fw_errors_reported);

/*
 * The libmlx5 type set_devx_obj_info() gives an object its creator made
 * with this opcode (and, for CREATE_GENERAL_OBJECT, this obj_type): a
 * row's devx_type, or IMPORT_DEVX_UNTYPED.
 */
uint32_t import_policy_type_of(uint16_t create_opcode, uint16_t obj_type);

/*
 * What the kernel's DEVX handle query (MLX5_IB_METHOD_DEVX_QUERY_HANDLES)
 * answers for one handle, with its kind given as the blob kind it is
 * (the caller maps the uapi's kinds: this file stays portable).
 */
struct import_handle_info {
	uint64_t serial;
	uint32_t kind;		/* enum blob_kind */
	uint32_t obj_id;	/* DEVX object id, umem id, VAR page index */
	uint16_t opcode;	/* DEVX object: the creator's opcode */
	uint16_t obj_type;	/*   and general object type */
};

/*
 * Judges a decoded blob against the kernel's word k on its handle, every
 * field the kernel vouches for: the kind; for a DEVX object the libmlx5
 * type its creator opcode and obj_type give (import_policy_type_of) and
 * the id libmlx5 records for it (a typed or general object's id, else 0);
 * for a UMEM its umem id; for a VAR its page index; and the serial when
 * the blob has one (format 3, not 0).
 *
 * Returns 0 (the blob names this object), ENOENT (the object the blob was
 * exported from is not the one at its handle: a serial that differs, or,
 * in a blob without a serial, any field that differs: the blob is stale,
 * which a rewritten blob cannot be told apart from), or EINVAL (the
 * serial matches, so the handle holds the very object exported, and
 * another field says otherwise: the blob was altered after export).  A
 * blob that claims less than the kernel says (type 0 for a flow counter)
 * disagrees like any other; it is never checked as what it claims.
 * Export uses it too, with serial 0: does the libmlx5 object still
 * describe the object at its handle?
 */
int import_policy_judge(const struct blob *b,
			const struct import_handle_info *k);

#endif
