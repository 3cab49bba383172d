/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The export blob, the one place its layout is written down.  Each kind
 * has a fixed size; integers are little-endian; reserved bytes are zero.
 *
 *  off len header, every kind
 *    0   4 magic, the bytes "M5SX"
 *    4   2 format version, BLOB_FORMAT_VERSION (the only one read)
 *    6   2 kind, enum blob_kind
 *    8   4 length of the whole blob
 *   12   4 checksum: CRC-32C of the blob, these four bytes taken as zero
 *   16   8 node GUID, be64toh(ibv_get_device_guid())
 *   24   2 vhca_id of the exporting function, if flags has BLOB_F_VHCA_ID
 *   26   2 flags
 *   28   4 reserved
 *   32  16 boot id: the kernel's /proc/sys/kernel/random/boot_id at
 *          export, its UUID's 16 bytes in the order the text gives them
 *
 *  off len DEVX object (80)   DEVX UMEM (64)   VAR (80)
 *   48   4 handle             handle           handle
 *   52   4 type               umem_id          page_id
 *   56   4 object_id          file_id (8)      length
 *   60   1 log_obj_range                       reserved (4)
 *   61   3 reserved
 *   64   8 rx_icm_addr                         mmap_off
 *   72   8 file_id                             file_id
 *
 * handle is the exporter's uverbs handle, type libmlx5's enum
 * mlx5_devx_obj_type.  file_id is the id of the verbs file the handle
 * belongs to, as the kernel reports it (file_id.h; kernel series v3):
 * unique in the boot, and such a kernel never gives a handle number of a
 * file to a second object; 0 when the kernel reports none (every released
 * kernel).  The boot id binds a blob to the boot of the kernel it was
 * made in: handles and file ids mean nothing after a reboot, so import
 * refuses another boot's blob (ESTALE, blob_check_boot()).
 *
 * Older formats are refused with EPROTO, like any unknown format.
 * Formats 2 to 4 had no boot id (a 32-byte header): nothing proves which
 * boot made them.  Format 5 held, where format 6 holds the file id, a
 * cookie from the uverbs core's handle query of kernel series v2, which
 * was withdrawn: no kernel will have the method, so a format 5 blob's
 * cookie proves nothing, and its 0 would read as "no file id".
 *
 * Decoding checks, in order, never reading past the header's length:
 * magic, format version (EPROTO), kind, length, checksum, reserved bytes
 * and flags (EINVAL).  blob_check_device() (EXDEV) wants equal node GUIDs
 * and, where both sides have one, equal vhca_ids: PCI functions may share
 * a node GUID (unconfigured VFs often report zero), never a vhca_id.
 * blob_check_boot() (ESTALE) wants the importer's boot id.
 */
#ifndef MLX5_SHARE_BLOB_H
#define MLX5_SHARE_BLOB_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BLOB_MAGIC "M5SX"
#define BLOB_FORMAT_VERSION 6
#define BLOB_BOOT_ID_OFF 32
#define BLOB_BOOT_ID_LEN 16
#define BLOB_HEADER_SIZE (BLOB_BOOT_ID_OFF + BLOB_BOOT_ID_LEN)
#define BLOB_F_VHCA_ID 0x0001	/* header flag */

enum blob_kind {
	BLOB_KIND_DEVX_OBJ = 1,
	BLOB_KIND_DEVX_UMEM = 2,
	BLOB_KIND_VAR = 3,
};

enum {
	BLOB_DEVX_OBJ_SIZE = BLOB_HEADER_SIZE + 32,
	BLOB_DEVX_UMEM_SIZE = BLOB_HEADER_SIZE + 16,
	BLOB_VAR_SIZE = BLOB_HEADER_SIZE + 32,
	BLOB_MAX_SIZE = BLOB_HEADER_SIZE + 32,
};

/* Who exported a blob, or who imports it. */
struct blob_device {
	uint64_t node_guid;
	uint16_t vhca_id;
	bool has_vhca_id;
};

/* A decoded blob; file_id 0 when the exporter's kernel reported none. */
struct blob {
	uint16_t version;
	uint64_t file_id;
	uint8_t boot_id[BLOB_BOOT_ID_LEN];
	enum blob_kind kind;
	uint64_t node_guid;
	uint16_t vhca_id;
	bool has_vhca_id;
	uint32_t handle;
	union {
		struct {
			uint32_t type;
			uint32_t object_id;
			uint64_t rx_icm_addr;
			uint8_t log_obj_range;
		} obj;
		struct {
			uint32_t umem_id;
		} umem;
		struct {
			uint32_t page_id;
			uint32_t length;
			uint64_t mmap_off;
		} var;
	};
};

/* Bytes a blob of this kind occupies; 0 for an unknown kind. */
size_t blob_size(enum blob_kind kind);

/* Is version a format this library reads (BLOB_FORMAT_VERSION only)? */
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

/*
 * The three below are inline: export and import call them on every
 * object.
 */

/* Fills b's device fields (node GUID, vhca_id) from dev. */
static inline void blob_set_device(struct blob *b,
				   const struct blob_device *dev)
{
	b->node_guid = dev->node_guid;
	b->has_vhca_id = dev->has_vhca_id;
	b->vhca_id = dev->has_vhca_id ? dev->vhca_id : 0;
}

/* 0 when dev may have exported b (the rule above), else EXDEV. */
static inline int blob_check_device(const struct blob *b,
				    const struct blob_device *dev)
{
	if (b->node_guid != dev->node_guid)
		return EXDEV;
	if (b->has_vhca_id && dev->has_vhca_id && b->vhca_id != dev->vhca_id)
		return EXDEV;
	return 0;
}

/* 0 when b was made in the boot whose id is boot, else ESTALE. */
static inline int blob_check_boot(const struct blob *b,
				  const uint8_t boot[BLOB_BOOT_ID_LEN])
{
	return memcmp(b->boot_id, boot, BLOB_BOOT_ID_LEN) ? ESTALE : 0;
}

#ifdef MLX5_SHARE_TEST_HOOKS
/*
 * Test builds only: fn runs inside blob_decode() after the checks and
 * before the fields are decoded (NULL: nothing), so that a test can
 * rewrite the caller's buffer there.
 */
void blob_test_set_decode_seam(void (*fn)(void));
#endif

#endif
