// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The export blob codec; blob.h has the layout and the checks. */
#include <endian.h>
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
	OFF_RESERVED = 28,
	OFF_BODY = BLOB_HEADER_SIZE,
	BODY_WORDS = (BLOB_MAX_SIZE - OFF_BODY) / 8,
};

/*
 * Whole little-endian words through memcpy: one load or store each on
 * the CPUs this is built for, where a loop over the bytes was several
 * instructions a byte on the import and export paths.
 */
static inline uint16_t ld16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t ld64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline void st16(unsigned char *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void st32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void st64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
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

/*
 * The checksum of an encoded blob of our own whose checksum field is
 * zero: one pass over whole words, where blob_checksum() must leave the
 * caller's field alone and so takes three.
 */
static uint32_t checksum_zeroed(const unsigned char *p, size_t len)
{
	return ~crc32c_update(~0u, p, len);
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

static inline void move32(unsigned char *p, uint32_t *v, bool store)
{
	if (store)
		st32(p, *v);
	else
		*v = ld32(p);
}

static inline void move64(unsigned char *p, uint64_t *v, bool store)
{
	if (store)
		st64(p, *v);
	else
		*v = ld64(p);
}

/*
 * The fields after the header's fixed part, between b and the bytes p,
 * stored or loaded: encode and decode share this one list of offsets.
 * Inline, so that each direction is compiled without the other.
 */
static inline void move_body(unsigned char *p, struct blob *b, bool store)
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

/* Writes b, checksum field zero, into p (len bytes, zeroed). */
static void encode_fields(const struct blob *b, unsigned char *p, size_t len)
{
	memcpy(p + OFF_MAGIC, BLOB_MAGIC, 4);
	st16(p + OFF_VERSION, b->version);
	st16(p + OFF_KIND, b->kind);
	st32(p + OFF_LENGTH, len);
	st64(p + OFF_GUID, b->node_guid);
	if (b->has_vhca_id) {
		st16(p + OFF_VHCA_ID, b->vhca_id);
		st16(p + OFF_FLAGS, BLOB_F_VHCA_ID);
	}
	/* A store only reads b. */
	move_body(p, (struct blob *)b, true);
}

size_t blob_encode(const struct blob *b, void *buf)
{
	unsigned char out[BLOB_MAX_SIZE] = { 0 };
	size_t len = blob_size(b->kind);

	if (!len || !blob_version_known(b->version))
		return 0;
	encode_fields(b, out, len);
	st32(out + OFF_CHECKSUM, checksum_zeroed(out, len));
	memcpy(buf, out, len);
	return len;
}

/*
 * The body's reserved bits, per kind and eight-byte word from OFF_BODY
 * (little-endian, as ld64 reads them): the bytes move_body() leaves
 * zero, which blob_body_reserved() derives from it (unit_blob checks
 * that the two agree bit for bit).
 */
static const uint64_t body_reserved[][BODY_WORDS] = {
	/* log_obj_range is byte 60; 61..63 reserved */
	[BLOB_KIND_DEVX_OBJ] = { 0, 0xffffff0000000000ull, 0, 0 },
	[BLOB_KIND_DEVX_UMEM] = { 0, 0, 0, 0 },
	/* length ends at byte 60; 60..63 reserved */
	[BLOB_KIND_VAR] = { 0, 0xffffffff00000000ull, 0, 0 },
};

/*
 * Does the blob of kind in p (len bytes, checksum checked) say only what
 * its fields say: no reserved bit, unknown flag or vhca_id without its
 * flag set?  Such a blob is the one that encoding its decoded fields
 * gives back, which is what decoding promises (blob.h).
 */
static bool canonical(const unsigned char *p, enum blob_kind kind,
		      size_t len)
{
	uint16_t flags = ld16(p + OFF_FLAGS);
	uint64_t stray = ld32(p + OFF_RESERVED);
	size_t i;

	stray |= flags & ~BLOB_F_VHCA_ID;
	if (!(flags & BLOB_F_VHCA_ID))
		stray |= ld16(p + OFF_VHCA_ID);
	for (i = 0; i < (len - OFF_BODY) / 8; i++)
		stray |= ld64(p + OFF_BODY + 8 * i) & body_reserved[kind][i];
	return !stray;
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
	unsigned char raw[BLOB_MAX_SIZE];
	const unsigned char *p = raw;
	uint16_t kind, version;
	uint32_t sum;
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
	version = ld16(p + OFF_VERSION);
	if (!blob_version_known(version))
		return EPROTO;
	kind = ld16(p + OFF_KIND);
	len = blob_size(kind);
	if (!len || (expect && kind != expect))
		return EINVAL;
	if (ld32(p + OFF_LENGTH) != len || avail < len)
		return EINVAL;
	memcpy(raw + PREFIX_SIZE, (const unsigned char *)buf + PREFIX_SIZE,
	       len - PREFIX_SIZE);
	/* raw is ours: its checksum field is zeroed for one whole pass. */
	sum = ld32(p + OFF_CHECKSUM);
	st32(raw + OFF_CHECKSUM, 0);
	if (sum != checksum_zeroed(raw, len) || !canonical(raw, kind, len))
		return EINVAL;
	DECODE_SEAM();

	memset(b, 0, sizeof(*b));
	b->version = version;
	b->kind = kind;
	b->node_guid = ld64(p + OFF_GUID);
	b->has_vhca_id = ld16(p + OFF_FLAGS) & BLOB_F_VHCA_ID;
	b->vhca_id = ld16(p + OFF_VHCA_ID);
	move_body(raw, b, false);
	return 0;
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
