/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The export blob, the one place its layout is written down.  Each kind
 * has a fixed size; integers are little-endian; reserved bytes are zero.
 *
 * Header (all kinds)
 *   off size field
 *     0    4 magic            the bytes 'M' '5' 'S' 'X'
 *     4    2 format_version   3 (BLOB_FORMAT_VERSION); 2 is read
 *     6    2 kind             1 DEVX object, 2 DEVX UMEM, 3 VAR
 *     8    4 length           total bytes of this blob, header included
 *    12    4 checksum         CRC-32C of the blob, these bytes as zero
 *    16    8 node_guid        be64toh(ibv_get_device_guid())
 *    24    2 vhca_id          the exporting function's, if BLOB_F_VHCA_ID
 *    26    2 flags            bit 0 BLOB_F_VHCA_ID; every other bit zero
 *    28    4 reserved
 *
 * Format 3 bodies.  Every kind ends with the object's serial: the 64-bit
 * identity the kernel's DEVX handle query (MLX5_IB_METHOD_DEVX_QUERY_HANDLES)
 * gave for the handle at export, which no later object of the uverbs file
 * shares; 0 when the exporter's kernel has no such query.
 *
 * DEVX object (kind 1, 64 bytes)
 *    32    4 handle           uverbs handle in the exporter's ufile
 *    36    4 type             libmlx5's enum mlx5_devx_obj_type
 *    40    4 object_id        firmware object id
 *    44    1 log_obj_range
 *    45    3 reserved
 *    48    8 rx_icm_addr
 *    56    8 serial
 *
 * DEVX UMEM (kind 2, 48 bytes)
 *    32    4 handle
 *    36    4 umem_id
 *    40    8 serial
 *
 * VAR (kind 3, 64 bytes)
 *    32    4 handle
 *    36    4 page_id
 *    40    4 length           bytes of the VAR page
 *    44    4 reserved
 *    48    8 mmap_off         offset to mmap() on the command fd
 *    56    8 serial
 *
 * Format 2 has the same header and sizes and no serial (it decodes with
 * serial 0, and import proves of it what it proved before format 3): the
 * DEVX object's log_obj_range is at 56 and its bytes 44..47 and 57..63
 * are reserved, the UMEM's 40..47 and the VAR's 56..63 are reserved.
 * Formats 0 and 1 (1 had no vhca_id, bytes 24..31 reserved) and any
 * newer one are refused with EPROTO.
 *
 * Decoding checks, in order, so that no byte past the header's length is
 * read: magic, format_version (EPROTO), kind, length, checksum, reserved
 * bytes and flags (all EINVAL).  The device check (blob_check_device(),
 * EXDEV) wants equal node GUIDs and, where both sides have one, equal
 * vhca_ids: PCI functions may share a node GUID (unconfigured VFs often
 * report zero), never a vhca_id.
 */
#ifndef MLX5_SHARE_BLOB_H
#define MLX5_SHARE_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLOB_MAGIC "M5SX"
#define BLOB_FORMAT_VERSION 3
/* The oldest format still read: no serial. */
#define BLOB_FORMAT_V2 2
#define BLOB_HEADER_SIZE 32

/* Header flags. */
#define BLOB_F_VHCA_ID 0x0001

enum blob_kind {
	BLOB_KIND_DEVX_OBJ = 1,
	BLOB_KIND_DEVX_UMEM = 2,
	BLOB_KIND_VAR = 3,
};

enum {
	BLOB_DEVX_OBJ_SIZE = 64,
	BLOB_DEVX_UMEM_SIZE = 48,
	BLOB_VAR_SIZE = 64,
	BLOB_MAX_SIZE = 64,
};

struct blob_devx_obj {
	uint32_t handle;
	uint32_t type;
	uint32_t object_id;
	uint64_t rx_icm_addr;
	uint8_t log_obj_range;
};

struct blob_devx_umem {
	uint32_t handle;
	uint32_t umem_id;
};

struct blob_var {
	uint32_t handle;
	uint32_t page_id;
	uint32_t length;
	uint64_t mmap_off;
};

/* Who exported a blob, or who imports it. */
struct blob_device {
	uint64_t node_guid;
	uint16_t vhca_id;
	bool has_vhca_id;
};

/* A decoded blob; serial 0 when unknown (always in format 2). */
struct blob {
	uint16_t version;
	uint64_t serial;
	enum blob_kind kind;
	uint64_t node_guid;
	uint16_t vhca_id;
	bool has_vhca_id;
	union {
		struct blob_devx_obj obj;
		struct blob_devx_umem umem;
		struct blob_var var;
	};
};

/* The uverbs handle a decoded blob names, whatever its kind. */
uint32_t blob_handle(const struct blob *b);

/* Bytes a blob of this kind occupies; 0 for an unknown kind. */
size_t blob_size(enum blob_kind kind);

/* Is version a format this library reads (2 or 3)? */
bool blob_version_known(uint16_t version);

/*
 * Writes b in format b->version into buf (blob_size(b->kind) bytes);
 * returns the bytes written, 0 for an unknown kind or version.
 */
size_t blob_encode(const struct blob *b, void *buf);

/*
 * Decodes and checks the blob in buf, of which avail bytes are readable
 * (SIZE_MAX when unknown).  expect: the kind wanted, 0 for any.  Returns
 * 0 and fills *b, or a positive errno (the order above).
 */
int blob_decode(const void *buf, size_t avail, enum blob_kind expect,
		struct blob *b);

/* A run of reserved bytes in an encoded blob. */
struct blob_span {
	unsigned char off;
	unsigned char len;
};

/*
 * Fills span (up to max runs) with the reserved runs of kind's body in
 * format version, in offset order, and returns how many there are (0 for
 * an unknown kind or version).  The header's are bytes 28..31.  Lets a
 * reader such as mlx5-share-inspect say which byte decoding refused.
 */
size_t blob_body_reserved(enum blob_kind kind, uint16_t version,
			  struct blob_span *span, size_t max);

/* CRC-32C (Castagnoli), as used for the checksum field. */
uint32_t blob_crc32c(const void *buf, size_t len);

/*
 * The checksum field's value for the len bytes of an encoded blob: the
 * CRC-32C of those bytes with the checksum field taken as zero.  Lets a
 * test or a fuzzer re-seal a blob it has altered on purpose.
 */
uint32_t blob_checksum(const void *buf, size_t len);

/* Fills b's device fields (node GUID, vhca_id) from dev. */
void blob_set_device(struct blob *b, const struct blob_device *dev);

/* 0 when dev may have exported b (the rule above), else EXDEV. */
int blob_check_device(const struct blob *b, const struct blob_device *dev);

#endif
