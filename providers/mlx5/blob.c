// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The export blob codec; blob.h has the layout and the checks. */
#include <errno.h>
#include <string.h>

#include "blob.h"
#include "crc32c.h"

enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 4,
	OFF_KIND = 6,
	OFF_LENGTH = 8,
	PREFIX_SIZE = OFF_LENGTH + 4,	/* what says how long the rest is */
	OFF_CHECKSUM = 12,
	OFF_GUID = 16,
	OFF_VHCA_ID = 24,
	OFF_FLAGS = 26,
	OFF_BODY = BLOB_HEADER_SIZE,
};

static uint64_t get_le(const unsigned char *p, unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

static void put_le(unsigned char *p, uint64_t v, unsigned int bytes)
{
	for (; bytes; bytes--, v >>= 8)
		*p++ = v;
}

uint32_t blob_crc32c(const void *buf, size_t len)
{
	return ~crc32c_update(~0u, buf, len);
}

uint32_t blob_checksum(const void *buf, size_t len)
{
	static const unsigned char zero[4];
	const unsigned char *p = buf;
	uint32_t crc;

	if (len < OFF_CHECKSUM + sizeof(zero))
		return blob_crc32c(buf, len);
	crc = crc32c_update(~0u, p, OFF_CHECKSUM);
	crc = crc32c_update(crc, zero, sizeof(zero));
	crc = crc32c_update(crc, p + OFF_CHECKSUM + sizeof(zero),
			    len - OFF_CHECKSUM - sizeof(zero));
	return ~crc;
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

bool blob_version_known(uint16_t version)
{
	return version == BLOB_FORMAT_VERSION;
}

static void move32(unsigned char *p, uint32_t *v, bool store)
{
	if (store)
		put_le(p, *v, 4);
	else
		*v = get_le(p, 4);
}

static void move64(unsigned char *p, uint64_t *v, bool store)
{
	if (store)
		put_le(p, *v, 8);
	else
		*v = get_le(p, 8);
}

/*
 * The fields after the header's fixed part, between b and the bytes p,
 * stored or loaded: encode and decode share this one list of offsets.
 */
static void move_body(unsigned char *p, struct blob *b, bool store)
{
	unsigned char *body = p + OFF_BODY;

	if (store)
		memcpy(p + BLOB_BOOT_ID_OFF, b->boot_id, BLOB_BOOT_ID_LEN);
	else
		memcpy(b->boot_id, p + BLOB_BOOT_ID_OFF, BLOB_BOOT_ID_LEN);
	move32(body, &b->handle, store);
	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		move32(body + 4, &b->obj.type, store);
		move32(body + 8, &b->obj.object_id, store);
		move64(body + 16, &b->obj.rx_icm_addr, store);
		if (store)
			body[12] = b->obj.log_obj_range;
		else
			b->obj.log_obj_range = body[12];
		break;
	case BLOB_KIND_DEVX_UMEM:
		move32(body + 4, &b->umem.umem_id, store);
		break;
	case BLOB_KIND_VAR:
		move32(body + 4, &b->var.page_id, store);
		move32(body + 8, &b->var.length, store);
		move64(body + 16, &b->var.mmap_off, store);
		break;
	}
	/* each kind's last eight bytes */
	move64(p + blob_size(b->kind) - 8, &b->file_id, store);
}

size_t blob_encode(const struct blob *b, void *buf)
{
	size_t len = blob_size(b->kind);
	struct blob body = *b;
	unsigned char *p = buf;

	if (!len || !blob_version_known(b->version))
		return 0;
	memset(p, 0, len);
	memcpy(p + OFF_MAGIC, BLOB_MAGIC, 4);
	put_le(p + OFF_VERSION, b->version, 2);
	put_le(p + OFF_KIND, b->kind, 2);
	put_le(p + OFF_LENGTH, len, 4);
	put_le(p + OFF_GUID, b->node_guid, 8);
	if (b->has_vhca_id) {
		put_le(p + OFF_VHCA_ID, b->vhca_id, 2);
		put_le(p + OFF_FLAGS, BLOB_F_VHCA_ID, 2);
	}
	move_body(p, &body, true);
	put_le(p + OFF_CHECKSUM, blob_checksum(p, len), 4);
	return len;
}

#ifdef MLX5_SHARE_TEST_HOOKS
static void (*decode_seam)(void);

void blob_test_set_decode_seam(void (*fn)(void))
{
	decode_seam = fn;
}
#define DECODE_SEAM() (decode_seam ? decode_seam() : (void)0)
#else
#define DECODE_SEAM() ((void)0)
#endif

int blob_decode(const void *buf, size_t avail, enum blob_kind expect,
		struct blob *b)
{
	unsigned char raw[BLOB_MAX_SIZE], canon[BLOB_MAX_SIZE];
	const unsigned char *p = raw;
	uint16_t kind, version;
	size_t len;

	if (!buf || !b || avail < BLOB_HEADER_SIZE)
		return EINVAL;

	/*
	 * The caller's bytes may be rewritten by another thread or process
	 * at any time: each is read once, into raw, and only raw is checked
	 * and decoded.  Magic, version, kind and length first: a caller
	 * that passes no size (avail SIZE_MAX) owns only what a record of
	 * that kind and length holds, so nothing past them is read until
	 * they agree.
	 */
	memcpy(raw, buf, PREFIX_SIZE);
	if (memcmp(p + OFF_MAGIC, BLOB_MAGIC, 4))
		return EINVAL;
	version = get_le(p + OFF_VERSION, 2);
	if (!blob_version_known(version))
		return EPROTO;
	kind = get_le(p + OFF_KIND, 2);
	len = blob_size(kind);
	if (!len || (expect && kind != expect))
		return EINVAL;
	if (get_le(p + OFF_LENGTH, 4) != len || avail < len)
		return EINVAL;
	memcpy(raw + PREFIX_SIZE, (const unsigned char *)buf + PREFIX_SIZE,
	       len - PREFIX_SIZE);
	if (get_le(p + OFF_CHECKSUM, 4) != blob_checksum(p, len))
		return EINVAL;
	DECODE_SEAM();

	memset(b, 0, sizeof(*b));
	b->version = version;
	b->kind = kind;
	b->node_guid = get_le(p + OFF_GUID, 8);
	b->has_vhca_id = get_le(p + OFF_FLAGS, 2) & BLOB_F_VHCA_ID;
	b->vhca_id = get_le(p + OFF_VHCA_ID, 2);
	move_body(raw, b, false);
	/*
	 * A reserved byte or flag that is not zero, or a vhca_id without
	 * its flag, is lost in decoding: the blob is not what encoding
	 * what it says gives back.
	 */
	blob_encode(b, canon);
	return memcmp(canon, raw, len) ? EINVAL : 0;
}

size_t blob_body_reserved(enum blob_kind kind, uint16_t version,
			  struct blob_span *span, size_t max)
{
	unsigned char ones[BLOB_MAX_SIZE];
	struct blob b;
	size_t len, i, n = 0;

	/* Every field all ones: the body's bytes left zero are reserved. */
	memset(&b, 0xff, sizeof(b));
	b.kind = kind;
	b.version = version;
	b.has_vhca_id = true;
	len = blob_encode(&b, ones);
	for (i = OFF_BODY; i < len; i++) {
		if (ones[i])
			continue;
		if (n && span[n - 1].off + span[n - 1].len == i)
			span[n - 1].len++;
		else if (n < max)
			span[n++] = (struct blob_span){ i, 1 };
	}
	return n;
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

int blob_check_boot(const struct blob *b,
		    const uint8_t boot[BLOB_BOOT_ID_LEN])
{
	return memcmp(b->boot_id, boot, BLOB_BOOT_ID_LEN) ? ESTALE : 0;
}
