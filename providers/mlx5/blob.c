// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The export blob codec (layout and checks: blob.h).  Integers are stored
 * little-endian whatever the host (htole/letoh), so that the wire format
 * is the same on every host.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "blob.h"
#include "crc32c.h"

enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 4,
	OFF_KIND = 6,
	OFF_LENGTH = 8,
	OFF_CHECKSUM = 12,
	OFF_GUID = 16,
	OFF_VHCA_ID = 24,
	OFF_FLAGS = 26,
	OFF_HDR_RSVD = 28,
	OFF_HANDLE = 32,
};

/* blob_prefix_init() fills words: the header's fields pair up in them. */
_Static_assert(OFF_VERSION == 4 && OFF_KIND == 6 && OFF_CHECKSUM == 12 &&
	       OFF_FLAGS == 26 && BLOB_DEVX_OBJ_SIZE % 8 == 0 &&
	       BLOB_DEVX_UMEM_SIZE % 8 == 0 && BLOB_VAR_SIZE % 8 == 0,
	       "blob words");

uint32_t blob_crc32c(const void *buf, size_t len)
{
	return ~crc32c_update(~0u, buf, len);
}

uint32_t blob_checksum(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t w;
	uint32_t crc;

	if (len < BLOB_HEADER_SIZE)
		return blob_crc32c(buf, len);
	/*
	 * Bytes 0..7, then the word of length and checksum with the
	 * checksum taken as zero (one eight-byte store, read back whole),
	 * then the rest.
	 */
	_Static_assert(OFF_LENGTH == 8 && OFF_CHECKSUM == 12, "header words");
	crc = crc32c_update(~0u, p, OFF_LENGTH);
	memcpy(&w, p + OFF_LENGTH, sizeof(w));
	w &= htole64(0xffffffffull);
	crc = crc32c_update(crc, &w, sizeof(w));
	crc = crc32c_update(crc, p + 16, len - 16);
	return ~crc;
}

/* Little-endian on every host, one load each. */
static uint16_t get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

size_t blob_size(enum blob_kind kind)
{
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		return BLOB_DEVX_OBJ_SIZE;
	case BLOB_KIND_DEVX_UMEM:
		return BLOB_DEVX_UMEM_SIZE;
	case BLOB_KIND_VAR:
		return BLOB_VAR_SIZE;
	}
	return 0;
}

uint32_t blob_handle(const struct blob *b)
{
	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		return b->obj.handle;
	case BLOB_KIND_DEVX_UMEM:
		return b->umem.handle;
	case BLOB_KIND_VAR:
		return b->var.handle;
	}
	return 0;
}

bool blob_version_known(uint16_t version)
{
	return version == BLOB_FORMAT_V2 || version == BLOB_FORMAT_VERSION;
}

/* Where format 3 keeps the serial: each kind's last eight bytes. */
static size_t serial_off(enum blob_kind kind)
{
	return blob_size(kind) - 8;
}

/* Reserved runs of each kind's body; the header's are checked apart. */
const struct blob_span *blob_body_reserved(enum blob_kind kind,
					   uint16_t version, size_t *n)
{
	static const struct blob_span obj2[] = { { 44, 4 }, { 57, 7 } };
	static const struct blob_span umem2[] = { { 40, 8 } };
	static const struct blob_span var2[] = { { 44, 4 }, { 56, 8 } };
	static const struct blob_span obj3[] = { { 45, 3 } };
	static const struct blob_span var3[] = { { 44, 4 } };
	const struct blob_span *span = NULL;
	size_t count = 0;

#define SPANS(a) (span = (a), count = sizeof(a) / sizeof((a)[0]))
	if (version == BLOB_FORMAT_V2) {
		switch (kind) {
		case BLOB_KIND_DEVX_OBJ:
			SPANS(obj2);
			break;
		case BLOB_KIND_DEVX_UMEM:
			SPANS(umem2);
			break;
		case BLOB_KIND_VAR:
			SPANS(var2);
			break;
		}
	} else if (version == BLOB_FORMAT_VERSION) {
		switch (kind) {
		case BLOB_KIND_DEVX_OBJ:
			SPANS(obj3);
			break;
		case BLOB_KIND_DEVX_UMEM:
			break;	/* none: the serial fills 40..47 */
		case BLOB_KIND_VAR:
			SPANS(var3);
			break;
		}
	}
#undef SPANS
	*n = count;
	return span;
}

/* Two 32-bit fields as the little-endian 64-bit word they share. */
static uint64_t word(uint32_t lo, uint32_t hi)
{
	return htole64((uint64_t)hi << 32 | lo);
}

/*
 * The blob is written as eight-byte words (see blob.h for where each
 * field sits in them), each once, and the CRC read back from them: bytes
 * stored one field at a time and read eight at a time would stall the
 * CPU's store forwarding on every word, which costs more than the rest of
 * export.
 */
static const unsigned char zeros[BLOB_MAX_SIZE - BLOB_HEADER_SIZE];

static bool prefix_init(struct blob_prefix *pre, uint16_t version,
			enum blob_kind kind, const struct blob_device *dev)
{
	uint16_t flags = dev->has_vhca_id ? BLOB_F_VHCA_ID : 0;
	uint16_t vhca_id = dev->has_vhca_id ? dev->vhca_id : 0;
	size_t len = blob_size(kind);

	if (!len)
		return false;
	/* Every byte not set below is reserved, hence zero. */
	pre->header[OFF_MAGIC / 8] =
		word((uint32_t)'M' | (uint32_t)'5' << 8 |
		     (uint32_t)'S' << 16 | (uint32_t)'X' << 24,
		     version | (uint32_t)kind << 16);
	pre->header[OFF_LENGTH / 8] = word(len, 0);	/* checksum 0 */
	pre->header[OFF_GUID / 8] = htole64(dev->node_guid);
	pre->header[OFF_VHCA_ID / 8] =
		word(vhca_id | (uint32_t)flags << 16, 0);
	/*
	 * The CRC register is linear in (register, data): the register after
	 * header and body is the one after header and zeros, XOR the one
	 * after the body alone from zero.  Export's CRC then waits for no
	 * load of the device's prefix.
	 */
	pre->crc = crc32c_update(~0u, pre->header, sizeof(pre->header));
	pre->crc = crc32c_update(pre->crc, zeros, len - BLOB_HEADER_SIZE);
	pre->kind = kind;
	pre->version = version;
	return true;
}

bool blob_prefix_init(struct blob_prefix *pre, enum blob_kind kind,
		      const struct blob_device *dev)
{
	return prefix_init(pre, BLOB_FORMAT_VERSION, kind, dev);
}

static void put_word(unsigned char *p, size_t index, uint64_t w)
{
	memcpy(p + 8 * index, &w, sizeof(w));
}

size_t blob_encode_body(const struct blob_prefix *pre, const struct blob *b,
			void *buf)
{
	unsigned char *p = buf;
	size_t len = 0;
	uint32_t crc;

	bool v3 = pre->version == BLOB_FORMAT_VERSION;
	uint64_t serial = v3 ? htole64(b->serial) : 0;

	memcpy(p, pre->header, BLOB_HEADER_SIZE);
	switch (pre->kind) {
	case BLOB_KIND_DEVX_OBJ:
		put_word(p, 4, word(b->obj.handle, b->obj.type));
		put_word(p, 5, word(b->obj.object_id,
				    v3 ? b->obj.log_obj_range : 0));
		put_word(p, 6, htole64(b->obj.rx_icm_addr));
		put_word(p, 7, v3 ? serial : word(b->obj.log_obj_range, 0));
		len = BLOB_DEVX_OBJ_SIZE;
		break;
	case BLOB_KIND_DEVX_UMEM:
		put_word(p, 4, word(b->umem.handle, b->umem.umem_id));
		put_word(p, 5, serial);
		len = BLOB_DEVX_UMEM_SIZE;
		break;
	case BLOB_KIND_VAR:
		put_word(p, 4, word(b->var.handle, b->var.page_id));
		put_word(p, 5, word(b->var.length, 0));
		put_word(p, 6, htole64(b->var.mmap_off));
		put_word(p, 7, serial);
		len = BLOB_VAR_SIZE;
		break;
	}
	if (!len)
		return 0;	/* not a prefix blob_prefix_init() filled */

	/* The header's part, with its checksum zero, is pre's. */
	crc = ~(pre->crc ^ crc32c_update(0, p + BLOB_HEADER_SIZE,
					 len - BLOB_HEADER_SIZE));
	crc = htole32(crc);
	memcpy(p + OFF_CHECKSUM, &crc, sizeof(crc));
	return len;
}

size_t blob_encode(const struct blob *b, void *buf)
{
	struct blob_device dev = {
		.node_guid = b->node_guid,
		.vhca_id = b->vhca_id,
		.has_vhca_id = b->has_vhca_id,
	};
	struct blob_prefix pre;

	if (!blob_version_known(b->version) ||
	    !prefix_init(&pre, b->version, b->kind, &dev))
		return 0;
	return blob_encode_body(&pre, b, buf);
}

static int all_zero(const unsigned char *p, size_t len)
{
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

static int check_reserved(const unsigned char *p, uint16_t version,
			  enum blob_kind kind)
{
	const struct blob_span *span;
	size_t n, i;

	uint16_t flags = get16(p + OFF_FLAGS);

	if (!all_zero(p + OFF_HDR_RSVD, BLOB_HEADER_SIZE - OFF_HDR_RSVD))
		return EINVAL;
	if (flags & ~BLOB_F_VHCA_ID)
		return EINVAL;
	if (!(flags & BLOB_F_VHCA_ID) && get16(p + OFF_VHCA_ID))
		return EINVAL;
	span = blob_body_reserved(kind, version, &n);
	for (i = 0; i < n; i++)
		if (!all_zero(p + span[i].off, span[i].len))
			return EINVAL;
	return 0;
}

static void decode_body(const unsigned char *p, struct blob *b)
{
	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		b->obj.handle = get32(p + 32);
		b->obj.type = get32(p + 36);
		b->obj.object_id = get32(p + 40);
		b->obj.rx_icm_addr = get64(p + 48);
		b->obj.log_obj_range =
			p[b->version == BLOB_FORMAT_V2 ? 56 : 44];
		break;
	case BLOB_KIND_DEVX_UMEM:
		b->umem.handle = get32(p + 32);
		b->umem.umem_id = get32(p + 36);
		break;
	case BLOB_KIND_VAR:
		b->var.handle = get32(p + 32);
		b->var.page_id = get32(p + 36);
		b->var.length = get32(p + 40);
		b->var.mmap_off = get64(p + 48);
		break;
	}
	if (b->version == BLOB_FORMAT_VERSION)
		b->serial = get64(p + serial_off(b->kind));
}

int blob_decode(const void *buf, size_t avail, enum blob_kind expect,
		struct blob *b)
{
	const unsigned char *p = buf;
	uint16_t kind, version;
	size_t len;

	if (!buf || !b || avail < BLOB_HEADER_SIZE)
		return EINVAL;

	/* Only the header is read until its length has been checked. */
	if (memcmp(p + OFF_MAGIC, BLOB_MAGIC, 4))
		return EINVAL;
	version = get16(p + OFF_VERSION);
	if (!blob_version_known(version))
		return EPROTO;
	kind = get16(p + OFF_KIND);
	len = blob_size(kind);
	if (!len || (expect && kind != expect))
		return EINVAL;
	if (get32(p + OFF_LENGTH) != len || avail < len)
		return EINVAL;

	if (get32(p + OFF_CHECKSUM) != blob_checksum(p, len))
		return EINVAL;
	if (check_reserved(p, version, kind))
		return EINVAL;

	memset(b, 0, sizeof(*b));
	b->version = version;
	b->kind = kind;
	b->node_guid = get64(p + OFF_GUID);
	b->has_vhca_id = get16(p + OFF_FLAGS) & BLOB_F_VHCA_ID;
	b->vhca_id = get16(p + OFF_VHCA_ID);
	decode_body(p, b);
	return 0;
}

void blob_set_device(struct blob *b, const struct blob_device *dev)
{
	b->node_guid = dev->node_guid;
	b->has_vhca_id = dev->has_vhca_id;
	b->vhca_id = dev->has_vhca_id ? dev->vhca_id : 0;
}

int blob_check_device(const struct blob *b, const struct blob_device *dev)
{
	if (b->node_guid != dev->node_guid)
		return EXDEV;
	if (b->has_vhca_id && dev->has_vhca_id && b->vhca_id != dev->vhca_id)
		return EXDEV;
	return 0;
}
