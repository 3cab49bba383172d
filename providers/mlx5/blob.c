/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The export blob codec (layout and checks: blob.h).  Integers are moved
 * byte by byte so that the wire format is the same on every host.
 */
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

uint32_t blob_crc32c(const void *buf, size_t len)
{
	return ~crc32c_update(~0u, buf, len);
}

uint32_t blob_checksum(const void *buf, size_t len)
{
	static const unsigned char zero[4];
	unsigned char copy[BLOB_MAX_SIZE];
	const unsigned char *p = buf;
	uint32_t crc = ~0u;

	if (len < BLOB_HEADER_SIZE)
		return blob_crc32c(buf, len);
	/* A blob: one pass over a copy whose checksum field is zero. */
	if (len <= sizeof(copy)) {
		memcpy(copy, p, len);
		memset(copy + OFF_CHECKSUM, 0, 4);
		return blob_crc32c(copy, len);
	}
	crc = crc32c_update(crc, p, OFF_CHECKSUM);
	crc = crc32c_update(crc, zero, sizeof(zero));
	crc = crc32c_update(crc, p + OFF_CHECKSUM + 4,
			    len - OFF_CHECKSUM - 4);
	return ~crc;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static uint16_t get16(const unsigned char *p)
{
	return p[0] | (uint16_t)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
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

/* Reserved runs of each kind's body; the header's are checked apart. */
const struct blob_span *blob_body_reserved(enum blob_kind kind, size_t *n)
{
	static const struct blob_span obj[] = { { 44, 4 }, { 57, 7 } };
	static const struct blob_span umem[] = { { 40, 8 } };
	static const struct blob_span var[] = { { 44, 4 }, { 56, 8 } };

	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		*n = sizeof(obj) / sizeof(obj[0]);
		return obj;
	case BLOB_KIND_DEVX_UMEM:
		*n = sizeof(umem) / sizeof(umem[0]);
		return umem;
	case BLOB_KIND_VAR:
		*n = sizeof(var) / sizeof(var[0]);
		return var;
	}
	*n = 0;
	return NULL;
}

size_t blob_encode(const struct blob *b, void *buf)
{
	size_t len = blob_size(b->kind);
	unsigned char *p = buf;

	if (!len)
		return 0;

	/* Every byte not written below is reserved, hence zero. */
	memset(p, 0, len);
	memcpy(p + OFF_MAGIC, BLOB_MAGIC, 4);
	put16(p + OFF_VERSION, BLOB_FORMAT_VERSION);
	put16(p + OFF_KIND, b->kind);
	put32(p + OFF_LENGTH, len);
	put64(p + OFF_GUID, b->node_guid);
	if (b->has_vhca_id) {
		put16(p + OFF_VHCA_ID, b->vhca_id);
		put16(p + OFF_FLAGS, BLOB_F_VHCA_ID);
	}

	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		put32(p + 32, b->obj.handle);
		put32(p + 36, b->obj.type);
		put32(p + 40, b->obj.object_id);
		put64(p + 48, b->obj.rx_icm_addr);
		p[56] = b->obj.log_obj_range;
		break;
	case BLOB_KIND_DEVX_UMEM:
		put32(p + 32, b->umem.handle);
		put32(p + 36, b->umem.umem_id);
		break;
	case BLOB_KIND_VAR:
		put32(p + 32, b->var.handle);
		put32(p + 36, b->var.page_id);
		put32(p + 40, b->var.length);
		put64(p + 48, b->var.mmap_off);
		break;
	}

	/* The checksum field is still zero: the CRC of the whole blob. */
	put32(p + OFF_CHECKSUM, blob_crc32c(p, len));
	return len;
}

static int all_zero(const unsigned char *p, size_t len)
{
	while (len--)
		if (*p++)
			return 0;
	return 1;
}

static int check_reserved(const unsigned char *p, enum blob_kind kind)
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
	span = blob_body_reserved(kind, &n);
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
		b->obj.log_obj_range = p[56];
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
}

int blob_decode(const void *buf, size_t avail, enum blob_kind expect,
		struct blob *b)
{
	const unsigned char *p = buf;
	uint16_t kind;
	size_t len;

	if (!buf || !b || avail < BLOB_HEADER_SIZE)
		return EINVAL;

	/* Only the header is read until its length has been checked. */
	if (memcmp(p + OFF_MAGIC, BLOB_MAGIC, 4))
		return EINVAL;
	if (get16(p + OFF_VERSION) != BLOB_FORMAT_VERSION)
		return EPROTO;
	kind = get16(p + OFF_KIND);
	len = blob_size(kind);
	if (!len || (expect && kind != expect))
		return EINVAL;
	if (get32(p + OFF_LENGTH) != len || avail < len)
		return EINVAL;

	if (get32(p + OFF_CHECKSUM) != blob_checksum(p, len))
		return EINVAL;
	if (check_reserved(p, kind))
		return EINVAL;

	memset(b, 0, sizeof(*b));
	b->version = BLOB_FORMAT_VERSION;
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
