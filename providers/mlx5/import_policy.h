/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What import asks the kernel about a DEVX object blob, per libmlx5 object
 * type: one const table, read by the single and the batch import alike.
 * Portable on purpose (libc and prm/ only): rdma-core's mlx5 provider can
 * carry this file unchanged.
 *
 * On a kernel that reports the verbs file's id (file_id.h, kernel series
 * v3) none of the table is asked: a blob of this boot whose file id is the
 * importing context's names, by the kernel's rule that a file never gives
 * a handle number twice, the exported object or nothing
 * (import_policy_file()).  Nothing is asked of the kernel at import; the
 * first command through the imported struct fails with the kernel's errno
 * if the object is gone.  type, object_id, log_obj_range and rx_icm_addr,
 * a UMEM's umem_id and a VAR's page_id, length and mmap_off are then the
 * exporter's word (CRC-protected only), within import_policy_bounds().
 * On a kernel without it (every released kernel) the table below decides.
 *
 * libmlx5 (set_devx_obj_info()) records a type and firmware id only for
 * the rows below; of any other DEVX object import can only ask whether
 * its handle is a live DEVX object of the ufile (INFO_HANDLES).
 *
 * Before the firmware runs a DEVX_OBJ_QUERY, the kernel
 * (devx_is_valid_obj_id()) fails it with EINVAL unless the handle's
 * object has the query's creator opcode (and obj_type) and id.  A command
 * the firmware fails is EREMOTEIO since Linux 5.18; older kernels map its
 * status, mostly to EINVAL.  Per row:
 *   proves_devx  an accepted query proves a live DEVX object with this
 *                id (not for QP and TIR, which a verbs QP also passes).
 *   fw_may_fail  the firmware may fail the query of a live object (flow
 *                table, group and FTE need the table_type the blob lacks;
 *                a reformat context's answer size is unknown).  Its
 *                EINVAL disproves the id only where the kernel is known
 *                to report firmware failures as EREMOTEIO; elsewhere
 *                import falls back to INFO_HANDLES.
 */
#ifndef MLX5_SHARE_IMPORT_POLICY_H
#define MLX5_SHARE_IMPORT_POLICY_H

#include <errno.h>
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

/* The row for a libmlx5 type; an unknown type gets row 0 (no query). */
const struct import_policy *import_policy_find(uint32_t devx_type);

/* All rows, for tests and documentation tools; *n gets their number. */
const struct import_policy *import_policy_rows(size_t *n);

/* Can the id of this object be confirmed (a query, and the id fits)? */
bool import_policy_has_query(const struct import_policy *p,
			     uint32_t object_id);

/* Must INFO_HANDLES say "live DEVX object" before the query is trusted? */
bool import_policy_needs_list(const struct import_policy *p,
			      uint32_t object_id);

/* Writes the query into in; its length, 0 when there is none. */
size_t import_policy_build_query(const struct import_policy *p,
				 uint32_t object_id, void *in);

/* The query could not decide: ask INFO_HANDLES instead. */
#define IMPORT_UNDECIDED (-1)

/*
 * The query ioctl's result err judged: 0 (id confirmed), ENOENT,
 * IMPORT_UNDECIDED or err.  fw_errors_reported: the kernel reports
 * firmware failures as EREMOTEIO.
 */
int import_policy_verdict(const struct import_policy *p, int err,
			  bool fw_errors_reported);

/* The libmlx5 type of an object made by this opcode (and obj_type). */
uint32_t import_policy_type_of(uint16_t create_opcode, uint16_t obj_type);

/*
 * Does b carry no verbs file id (0)?  What export writes on a kernel
 * without file ids; import on a kernel with them refuses it with EPROTO
 * (import_policy_file()).  A reader without the kernel
 * (mlx5-share-inspect) can only say which.
 */
static inline bool import_policy_no_file_id(const struct blob *b)
{
	return !b->file_id;
}

/*
 * Judges a decoded blob of this boot by the verbs file id of the
 * importing context (file_id, 0 when its kernel reports none):
 *   file_id set   the blob's is 0: EPROTO (the exporter, on this very
 *                 kernel, had one to write: an older writer or a forgery);
 *                 another: EXDEV (another verbs file, hence possibly
 *                 another device or function); equal: 0, nothing to ask
 *   file_id 0     the blob's is set: EXDEV (made through a file of a
 *                 kernel that reports ids, which this file is not);
 *                 else IMPORT_UNDECIDED: the table's checks decide.
 * The other fields are not the kernel's to vouch for: see
 * import_policy_bounds() and mlx5-share(7), WHAT IMPORT PROVES.  Inline:
 * every import asks it.
 */
static inline int import_policy_file(const struct blob *b, uint64_t file_id)
{
	if (!file_id)
		return import_policy_no_file_id(b) ? IMPORT_UNDECIDED : EXDEV;
	/* Same boot, same kernel: its exporter had an id to write. */
	if (import_policy_no_file_id(b))
		return EPROTO;
	return b->file_id == file_id ? 0 : EXDEV;
}

/*
 * log_obj_range is a 5-bit field of the general object create command
 * (general_obj_in_cmd_hdr's op_param.create.log_obj_range), which is
 * where libmlx5 reads it.
 */
#define IMPORT_LOG_OBJ_RANGE_MAX 31

/*
 * The bounds a DEVX object blob's fields keep whatever the kernel, since
 * libmlx5 could not have recorded anything else: a type in its enum
 * (import_devx_type), log_obj_range at most IMPORT_LOG_OBJ_RANGE_MAX,
 * and an object_id that fits its type's id field (24 bits for QPs and
 * TIRs...).  0, or EINVAL.  UMEM and VAR fields have no such bound.
 */
int import_policy_bounds(const struct blob *b);

/*
 * The first field of b that breaks its bound above ("type",
 * "log_obj_range" or "object_id", in the order import checks them), or
 * NULL: what import_policy_bounds() refuses, by name.
 */
const char *import_policy_out_of_bounds(const struct blob *b);

/*
 * Everything import judges of a blob without a device or a kernel:
 * blob_decode() (avail, expect and b as there), then
 * import_policy_bounds().  0, or the errno import fails with.  The
 * library's import and mlx5-share-inspect both judge by this; inline,
 * as import runs it on every blob.
 */
static inline int import_policy_decode(const void *buf, size_t avail,
				       enum blob_kind expect, struct blob *b)
{
	int ret = blob_decode(buf, avail, expect, b);

	return ret ? ret : import_policy_bounds(b);
}

#endif
