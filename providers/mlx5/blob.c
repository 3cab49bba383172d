// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The export blob codec; blob.h has the layout and the checks. */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "blob.h"
#include "crc32c.h"

/*
 * The header as eight-byte little-endian words (blob.h has the table):
 *   0  magic (bits 0..31), version (32..47), kind (48..63)
 *   1  length (0..31), checksum (32..63)
 *   2  node GUID
 *   3  vhca_id (0..15), flags (16..31), reserved (32..63)
 *   4  boot id, bytes 0..7; 5: bytes 8..15
 */
enum {
	OFF_LENGTH = 8,
	OFF_CHECKSUM = 12,
	OFF_BODY = BLOB_HEADER_SIZE,
	BODY_WORDS = (BLOB_MAX_SIZE - OFF_BODY) / 8,
};

/*
 * Whole little-endian words through memcpy: one load or store each on
 * the CPUs this is built for.
 */
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

/*
 * The body's fields, one list per kind for encode, decode and the
 * reserved bits alike: X(arg, word, bit, bits, field of struct blob), the
 * field held in bits bit.. of the blob's little-endian eight-byte word
 * number word (byte offset 8 * word; blob.h has the table).  Bits that no
 * field holds are reserved.
 */
#define DEVX_OBJ_BODY(X, a)						\
	X(a, 6, 0, 32, handle) X(a, 6, 32, 32, obj.type)		\
	X(a, 7, 0, 32, obj.object_id) X(a, 7, 32, 8, obj.log_obj_range)	\
	X(a, 8, 0, 64, obj.rx_icm_addr) X(a, 9, 0, 64, file_id)
#define DEVX_UMEM_BODY(X, a)						\
	X(a, 6, 0, 32, handle) X(a, 6, 32, 32, umem.umem_id)		\
	X(a, 7, 0, 64, file_id)
#define VAR_BODY(X, a)							\
	X(a, 6, 0, 32, handle) X(a, 6, 32, 32, var.page_id)		\
	X(a, 7, 0, 32, var.length)					\
	X(a, 8, 0, 64, var.mmap_off) X(a, 9, 0, 64, file_id)

#define BITS(n) (~0ull >> (64 - (n)))

#define PACK(w, word, bit, bits, f) (w)[word] |= (uint64_t)b->f << (bit);
#define UNPACK(w, word, bit, bits, f) b->f = (w)[word] >> (bit) & BITS(bits);
#define USED(at, word, bit, bits, f) \
	| ((word) == (at) ? BITS(bits) << (bit) : 0)
#define RESERVED(list, at) (~(0 list(USED, at)))
#define RESERVED_WORDS(list) \
	{ RESERVED(list, 6), RESERVED(list, 7), RESERVED(list, 8), \
	  RESERVED(list, 9) }

enum {
	W_BOOT = BLOB_BOOT_ID_OFF / 8,
	W_BODY = OFF_BODY / 8,
	MAX_WORDS = BLOB_MAX_SIZE / 8,
};

/* Per kind, the body words' reserved bits (past a kind's end: unread). */
static const uint64_t body_reserved[][BODY_WORDS] = {
	[BLOB_KIND_DEVX_OBJ] = RESERVED_WORDS(DEVX_OBJ_BODY),
	[BLOB_KIND_DEVX_UMEM] = RESERVED_WORDS(DEVX_UMEM_BODY),
	[BLOB_KIND_VAR] = RESERVED_WORDS(VAR_BODY),
};

/* Header word 3: vhca_id, flags, reserved. */
#define W3_VHCA_ID 0xffffull
#define W3_FLAG_VHCA_ID ((uint64_t)BLOB_F_VHCA_ID << 16)

/*
 * The blob of kind as words held in registers, not bytes laid out and
 * read back (narrow stores read back as whole words stall the CPU's
 * store forwarding), checksummed and stored.  Inlined once per kind, as
 * decode_kind() is.
 */
static inline __attribute__((always_inline)) size_t
encode_kind(const struct blob *b, enum blob_kind kind, unsigned char *p)
{
	const size_t len = blob_size(kind);
	uint64_t w[MAX_WORDS] = { 0 };
	size_t i;

	w[0] = ld32((const unsigned char *)BLOB_MAGIC) |
	       (uint64_t)b->version << 32 | (uint64_t)kind << 48;
	w[1] = len;
	w[2] = b->node_guid;
	if (b->has_vhca_id)
		w[3] = b->vhca_id | W3_FLAG_VHCA_ID;
	w[W_BOOT] = ld64(b->boot_id);
	w[W_BOOT + 1] = ld64(b->boot_id + 8);
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		DEVX_OBJ_BODY(PACK, w)
		break;
	case BLOB_KIND_DEVX_UMEM:
		DEVX_UMEM_BODY(PACK, w)
		break;
	case BLOB_KIND_VAR:
		VAR_BODY(PACK, w)
		break;
	}
	w[1] |= (uint64_t)~crc32c_words_inline(~0u, w, len / 8) << 32;
	for (i = 0; i < len / 8; i++)
		st64(p + 8 * i, w[i]);
	return len;
}

size_t blob_encode(const struct blob *b, void *buf)
{
	if (!blob_version_known(b->version))
		return 0;
	switch (b->kind) {
	case BLOB_KIND_DEVX_OBJ:
		return encode_kind(b, BLOB_KIND_DEVX_OBJ, buf);
	case BLOB_KIND_DEVX_UMEM:
		return encode_kind(b, BLOB_KIND_DEVX_UMEM, buf);
	case BLOB_KIND_VAR:
		return encode_kind(b, BLOB_KIND_VAR, buf);
	}
	return 0;
}

/*
 * Does the blob of kind in w (checksum checked) say only what its fields
 * say: no reserved bit, unknown flag or vhca_id without its flag set?
 * Such a blob is the one that encoding its decoded fields gives back,
 * which is what decoding promises (blob.h).
 */
static inline bool canonical(const uint64_t *w, enum blob_kind kind,
			     size_t len)
{
	uint64_t stray = w[3] & ~(W3_VHCA_ID | W3_FLAG_VHCA_ID);
	size_t i;

	if (!(w[3] & W3_FLAG_VHCA_ID))
		stray |= w[3] & W3_VHCA_ID;
	for (i = W_BODY; i < len / 8; i++)
		stray |= w[i] & body_reserved[kind][i - W_BODY];
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

/*
 * blob_decode() past the prefix, for one kind: inlined once per kind,
 * so that its length, reserved bits and fields are constants and its
 * loops unrolled.  w[0..1] hold the prefix read, sum the checksum field.
 */
static inline __attribute__((always_inline)) int
decode_kind(const unsigned char *p, uint64_t *w, uint32_t sum,
	    enum blob_kind kind, struct blob *b)
{
	const size_t len = blob_size(kind);
	size_t i;

	for (i = 2; i < len / 8; i++)
		w[i] = ld64(p + 8 * i);
	/* w[1] holds the checksum field as zero, which it is summed as. */
	if (sum != (uint32_t)~crc32c_words_inline(~0u, w, len / 8) ||
	    !canonical(w, kind, len))
		return EINVAL;
	DECODE_SEAM();

	memset(b, 0, sizeof(*b));
	b->version = w[0] >> 32;
	b->kind = kind;
	b->node_guid = w[2];
	b->has_vhca_id = w[3] & W3_FLAG_VHCA_ID;
	b->vhca_id = w[3] & W3_VHCA_ID;
	st64(b->boot_id, w[W_BOOT]);
	st64(b->boot_id + 8, w[W_BOOT + 1]);
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		DEVX_OBJ_BODY(UNPACK, w)
		break;
	case BLOB_KIND_DEVX_UMEM:
		DEVX_UMEM_BODY(UNPACK, w)
		break;
	case BLOB_KIND_VAR:
		VAR_BODY(UNPACK, w)
		break;
	}
	return 0;
}

int blob_decode(const void *buf, size_t avail, enum blob_kind expect,
		struct blob *b)
{
	const unsigned char *p = buf;
	uint64_t w[MAX_WORDS];
	uint16_t kind, version;
	size_t len;

	if (!buf || !b || avail < BLOB_HEADER_SIZE)
		return EINVAL;

	/*
	 * The caller's bytes may be rewritten by another thread or process
	 * at any time: each is read once, into w, and only w is checked and
	 * decoded.  Magic, version, kind and length first: a caller that
	 * passes no size (avail SIZE_MAX) owns only what a record of that
	 * kind and length holds, so nothing past them is read until they
	 * agree.
	 */
	w[0] = ld64(p);
	w[1] = ld32(p + OFF_LENGTH);
	if ((uint32_t)w[0] != ld32((const unsigned char *)BLOB_MAGIC))
		return EINVAL;
	version = w[0] >> 32;
	if (!blob_version_known(version))
		return EPROTO;
	kind = w[0] >> 48;
	len = blob_size(kind);
	if (!len || (expect && kind != expect))
		return EINVAL;
	if (w[1] != len || avail < len)
		return EINVAL;
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		return decode_kind(p, w, ld32(p + OFF_CHECKSUM),
				   BLOB_KIND_DEVX_OBJ, b);
	case BLOB_KIND_DEVX_UMEM:
		return decode_kind(p, w, ld32(p + OFF_CHECKSUM),
				   BLOB_KIND_DEVX_UMEM, b);
	default:
		return decode_kind(p, w, ld32(p + OFF_CHECKSUM),
				   BLOB_KIND_VAR, b);
	}
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
