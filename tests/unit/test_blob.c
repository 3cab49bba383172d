// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The blob codec against its contract (providers/mlx5/blob.h): round trips
 * for every kind, the exact byte layout, and a table of bad blobs (every
 * single-byte change, every truncation, wrong kind, version, reserved
 * bytes and device), each rejected with the errno the decode order gives;
 * the boot id carried and judged (ESTALE), and the formats before it
 * (2 to 4 without a boot id, 5 with v2's cookie) refused (EPROTO).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "blob.h"
#include "boot_id.h"
#include "check.h"

static const enum blob_kind kinds[] = {
	BLOB_KIND_DEVX_OBJ, BLOB_KIND_DEVX_UMEM, BLOB_KIND_VAR,
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* A blob of kind with every field set to a distinct, non-zero value. */
static struct blob sample(enum blob_kind kind)
{
	struct blob b;

	memset(&b, 0, sizeof(b));
	b.version = BLOB_FORMAT_VERSION;
	b.kind = kind;
	b.node_guid = 0x0102030405060708ull;
	b.vhca_id = 0x2b1c;
	b.has_vhca_id = true;
	b.file_id = 0x0a0b0c0d0e0f1011ull;
	for (size_t i = 0; i < BLOB_BOOT_ID_LEN; i++)
		b.boot_id[i] = (uint8_t)(0xb0 + i);
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		b.handle = 0x11223344;
		b.obj.type = 7;
		b.obj.object_id = 0xa1b2c3d4;
		b.obj.rx_icm_addr = 0xf0e0d0c0b0a09080ull;
		b.obj.log_obj_range = 0x5a;
		break;
	case BLOB_KIND_DEVX_UMEM:
		b.handle = 0x55667788;
		b.umem.umem_id = 0x99aabbcc;
		break;
	case BLOB_KIND_VAR:
		b.handle = 3;
		b.var.page_id = 0x1234;
		b.var.length = 4096;
		b.var.mmap_off = 0x7766554433221100ull;
		break;
	}
	return b;
}

/* A little-endian field of an encoded blob: offset, bytes, value. */
struct le_field {
	unsigned int off, len;
	uint64_t value;
};

static uint64_t rd_le(const unsigned char *p, unsigned int len)
{
	uint64_t v = 0;

	while (len--)
		v = v << 8 | p[len];
	return v;
}

/* A check of each field; a failure says which kind's field it was. */
static void check_le(const char *what, const unsigned char *buf,
		     const struct le_field *f, size_t n)
{
	uint64_t got;
	size_t i;

	for (i = 0; i < n; i++) {
		got = rd_le(buf + f[i].off, f[i].len);
		if (got != f[i].value)
			fprintf(stderr, "%s: %u bytes at offset %u\n", what,
				f[i].len, f[i].off);
		CHECK_EQ(got, f[i].value);
	}
}

static void wr32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void reseal(unsigned char *p, size_t len)
{
	wr32(p + 12, blob_checksum(p, len));
}

/*
 * blob_decode() of the DEVX_OBJ blob buf with its byte at set to
 * v and the checksum redone; buf is restored before returning.
 */
static int decode_changed(unsigned char *buf, size_t at, unsigned char v)
{
	unsigned char was = buf[at];
	struct blob out;
	int ret;

	buf[at] = v;
	reseal(buf, BLOB_DEVX_OBJ_SIZE);
	ret = blob_decode(buf, BLOB_DEVX_OBJ_SIZE, BLOB_KIND_DEVX_OBJ, &out);
	buf[at] = was;
	reseal(buf, BLOB_DEVX_OBJ_SIZE);
	return ret;
}

/* Is byte off of a blob of this kind reserved by the layout? */
static int is_reserved(enum blob_kind kind, size_t off)
{
	if (off >= 28 && off < 32)
		return 1;
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		return off >= 61 && off < 64;
	case BLOB_KIND_DEVX_UMEM:
		return 0;
	case BLOB_KIND_VAR:
		return off >= 60 && off < 64;
	}
	return 0;
}

/*
 * The boot id's text: parsed in the order written, printed back the same,
 * anything else EIO; a file that cannot be read gives its errno; this
 * process's id is read once and is the same every time.
 */
static void test_boot_id_text(void)
{
	static const char text[] = "0123abcd-4567-89ef-ABCD-0f1e2d3c4b5a\n";
	uint8_t id[BLOB_BOOT_ID_LEN], again[BLOB_BOOT_ID_LEN];
	char out[BOOT_ID_TEXT_LEN + 1], bad[sizeof(text)];
	size_t i;

	CHECK_EQ(boot_id_parse(text, sizeof(text) - 1, id), 0);
	CHECK_EQ(id[0], 0x01);
	CHECK_EQ(id[3], 0xcd);
	CHECK_EQ(id[8], 0xab);
	CHECK_EQ(id[15], 0x5a);
	boot_id_format(id, out);
	CHECK(!strcmp(out, "0123abcd-4567-89ef-abcd-0f1e2d3c4b5a"));
	/* without its newline too, and no more */
	CHECK_EQ(boot_id_parse(text, sizeof(text) - 2, again), 0);
	CHECK(!memcmp(id, again, sizeof(id)));
	CHECK_EQ(boot_id_parse(text, sizeof(text) - 3, again), EIO);
	CHECK_EQ(boot_id_parse(text, 0, again), EIO);
	for (i = 0; i < BOOT_ID_TEXT_LEN; i++) {
		memcpy(bad, text, sizeof(text));
		bad[i] = bad[i] == '-' ? '0' : 'g';
		CHECK_EQ(boot_id_parse(bad, sizeof(text) - 1, again), EIO);
	}
	CHECK_EQ(boot_id_read("/nonexistent/boot_id", again), ENOENT);
	CHECK_EQ(boot_id_read("/", again), EISDIR);
	/* This machine's, as the kernel shows it, and kept. */
	CHECK_EQ(boot_id_get(id), 0);
	CHECK_EQ(boot_id_read(BOOT_ID_PATH, again), 0);
	CHECK(!memcmp(id, again, sizeof(id)));
	errno = 4242;
	CHECK_EQ(boot_id_get(again), 0);
	CHECK_EQ(errno, 4242);
	CHECK(!memcmp(id, again, sizeof(id)));
}

static void test_crc(void)
{
	/* The standard check value of CRC-32C. */
	CHECK_EQ(blob_crc32c("123456789", 9), 0xe3069283u);
	CHECK_EQ(blob_crc32c("", 0), 0);
}

static void test_sizes(void)
{
	CHECK_EQ(blob_size(BLOB_KIND_DEVX_OBJ), 80);
	CHECK_EQ(blob_size(BLOB_KIND_DEVX_UMEM), 64);
	CHECK_EQ(blob_size(BLOB_KIND_VAR), 80);
	CHECK_EQ(blob_size(0), 0);
	CHECK_EQ(blob_size(4), 0);
}

/* The bytes at their documented offsets, little-endian. */
static void test_layout(void)
{
	static const struct le_field obj[] = {
		{ 4, 1, 6 }, { 5, 1, 0 }, { 6, 1, 1 }, { 7, 1, 0 },
		{ 8, 4, 80 }, { 16, 1, 0x08 }, { 23, 1, 0x01 },
		{ 24, 1, 0x1c }, { 25, 1, 0x2b },	/* vhca_id */
		{ 26, 1, BLOB_F_VHCA_ID }, { 27, 1, 0 },
		{ 32, 8, 0xb7b6b5b4b3b2b1b0ull },	/* boot id */
		{ 40, 8, 0xbfbebdbcbbbab9b8ull },
		{ 48, 4, 0x11223344 }, { 52, 4, 7 }, { 56, 4, 0xa1b2c3d4 },
		{ 60, 1, 0x5a }, { 64, 8, 0xf0e0d0c0b0a09080ull },
		{ 72, 8, 0x0a0b0c0d0e0f1011ull },
	};
	static const struct le_field umem[] = {
		{ 6, 1, 2 }, { 8, 4, 64 }, { 32, 1, 0xb0 }, { 47, 1, 0xbf },
		{ 48, 4, 0x55667788 }, { 52, 4, 0x99aabbcc },
		{ 56, 8, 0x0a0b0c0d0e0f1011ull },
	};
	static const struct le_field var[] = {
		{ 6, 1, 3 }, { 32, 1, 0xb0 }, { 47, 1, 0xbf },
		{ 48, 4, 3 }, { 52, 4, 0x1234 }, { 56, 4, 4096 },
		{ 64, 8, 0x7766554433221100ull },
		{ 72, 8, 0x0a0b0c0d0e0f1011ull },
	};
	unsigned char buf[BLOB_MAX_SIZE];
	struct blob b = sample(BLOB_KIND_DEVX_OBJ);

	CHECK_EQ(blob_encode(&b, buf), 80);
	CHECK(!memcmp(buf, "M5SX", 4));
	check_le("DEVX object", buf, obj, sizeof(obj) / sizeof(obj[0]));
	CHECK_EQ(rd_le(buf + 12, 4), blob_checksum(buf, 80));

	/* The checksum is the CRC of the blob with that field zeroed. */
	wr32(buf + 12, 0);
	CHECK_EQ(blob_crc32c(buf, 80), blob_checksum(buf, 80));

	b = sample(BLOB_KIND_DEVX_UMEM);
	CHECK_EQ(blob_encode(&b, buf), 64);
	check_le("UMEM", buf, umem, sizeof(umem) / sizeof(umem[0]));

	b = sample(BLOB_KIND_VAR);
	CHECK_EQ(blob_encode(&b, buf), 80);
	check_le("VAR", buf, var, sizeof(var) / sizeof(var[0]));

	b.kind = 9;
	CHECK_EQ(blob_encode(&b, buf), 0);

	/* Formats this library does not read are not written either. */
	b = sample(BLOB_KIND_VAR);
	for (b.version = 1; b.version < BLOB_FORMAT_VERSION; b.version++)
		CHECK_EQ(blob_encode(&b, buf), 0);
	b.version = BLOB_FORMAT_VERSION + 1;
	CHECK_EQ(blob_encode(&b, buf), 0);
}

/*
 * Formats 2 to 4 had no boot id: whatever their bytes, nothing proves
 * which boot made them; format 5 carried, where format 6 has the file
 * id, a cookie of kernel series v2's withdrawn handle query.  Decoding
 * refuses them all with EPROTO before it reads their length.  Here a
 * format 6 blob relabelled 2 to 5 (format 5's layout was this one, its
 * cookie non-zero like the sample's file id), and a format 4 blob as it
 * was written (a 32-byte header, the DEVX object 64 bytes).
 */
static void test_old_formats(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	struct blob in, out;
	size_t i, len;
	uint16_t v;

	for (i = 0; i < NKINDS; i++) {
		in = sample(kinds[i]);
		len = blob_encode(&in, buf);
		for (v = 2; v < BLOB_FORMAT_VERSION; v++) {
			buf[4] = v;
			reseal(buf, len);
			CHECK_EQ(blob_decode(buf, len, kinds[i], &out), EPROTO);
			CHECK_EQ(blob_decode(buf, SIZE_MAX, 0, &out), EPROTO);
		}
	}
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "M5SX", 4);
	buf[4] = 4;
	buf[6] = BLOB_KIND_DEVX_OBJ;
	buf[8] = 64;
	buf[32] = 3;	/* its handle */
	reseal(buf, 64);
	CHECK_EQ(blob_decode(buf, 64, BLOB_KIND_DEVX_OBJ, &out), EPROTO);
	CHECK_EQ(blob_decode(buf, SIZE_MAX, 0, &out), EPROTO);
}

/* The boot id round trips and binds: any other boot's is ESTALE. */
static void test_boot(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	uint8_t boot[BLOB_BOOT_ID_LEN];
	struct blob in, out;
	size_t i, j, len;

	for (i = 0; i < NKINDS; i++) {
		in = sample(kinds[i]);
		len = blob_encode(&in, buf);
		CHECK(!memcmp(buf + BLOB_BOOT_ID_OFF, in.boot_id,
			      BLOB_BOOT_ID_LEN));
		memset(&out, 0xcc, sizeof(out));
		CHECK_EQ(blob_decode(buf, len, kinds[i], &out), 0);
		CHECK(!memcmp(out.boot_id, in.boot_id, BLOB_BOOT_ID_LEN));
		memcpy(boot, in.boot_id, sizeof(boot));
		CHECK_EQ(blob_check_boot(&out, boot), 0);
		for (j = 0; j < BLOB_BOOT_ID_LEN; j++) {
			boot[j] ^= 0x01;
			CHECK_EQ(blob_check_boot(&out, boot), ESTALE);
			boot[j] ^= 0x01;
		}
		memset(boot, 0, sizeof(boot));
		CHECK_EQ(blob_check_boot(&out, boot), ESTALE);
		/* Another boot's id, resealed: the codec takes it, as data. */
		buf[BLOB_BOOT_ID_OFF + 5] ^= 0xff;
		reseal(buf, len);
		CHECK_EQ(blob_decode(buf, len, kinds[i], &out), 0);
		CHECK_EQ(blob_check_boot(&out, in.boot_id), ESTALE);
	}
}

static void test_round_trip(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	size_t i, len, off;
	struct blob in, out;

	for (i = 0; i < NKINDS; i++) {
		in = sample(kinds[i]);
		memset(buf, 0xee, sizeof(buf));
		len = blob_encode(&in, buf);
		CHECK_EQ(len, blob_size(kinds[i]));
		for (off = 0; off < len; off++)
			if (is_reserved(kinds[i], off) && buf[off])
				CHECK(!"reserved byte written non-zero");
		memset(&out, 0xcc, sizeof(out));
		CHECK_EQ(blob_decode(buf, len, kinds[i], &out), 0);
		CHECK_EQ(out.version, BLOB_FORMAT_VERSION);
		CHECK_EQ(out.kind, kinds[i]);
		CHECK_EQ(out.node_guid, in.node_guid);
		CHECK_EQ(out.vhca_id, in.vhca_id);
		CHECK(out.has_vhca_id);
		CHECK_EQ(out.file_id, in.file_id);
		CHECK_EQ(out.handle, in.handle);
		switch (kinds[i]) {
		case BLOB_KIND_DEVX_OBJ:
			CHECK_EQ(out.obj.type, in.obj.type);
			CHECK_EQ(out.obj.object_id, in.obj.object_id);
			CHECK_EQ(out.obj.rx_icm_addr, in.obj.rx_icm_addr);
			CHECK_EQ(out.obj.log_obj_range, in.obj.log_obj_range);
			break;
		case BLOB_KIND_DEVX_UMEM:
			CHECK_EQ(out.umem.umem_id, in.umem.umem_id);
			break;
		case BLOB_KIND_VAR:
			CHECK_EQ(out.var.page_id, in.var.page_id);
			CHECK_EQ(out.var.length, in.var.length);
			CHECK_EQ(out.var.mmap_off, in.var.mmap_off);
			break;
		}
		/* Any kind accepted, and no length known. */
		CHECK_EQ(blob_decode(buf, SIZE_MAX, 0, &out), 0);
		CHECK_EQ(out.kind, kinds[i]);
		/* Extreme field values survive too. */
		memset(&in.obj, 0xff, sizeof(in.obj));
		in.node_guid = UINT64_MAX;
		len = blob_encode(&in, buf);
		CHECK_EQ(blob_decode(buf, len, kinds[i], &out), 0);
		CHECK_EQ(out.node_guid, UINT64_MAX);
	}
}

/*
 * The errno blob_decode must give for byte off of a blob changed: the
 * version's bytes EPROTO (one format is read), any other EINVAL.
 */
static int errno_for_change_at(size_t off)
{
	return off == 4 || off == 5 ? EPROTO : EINVAL;
}

static void test_single_byte_changes(void)
{
	unsigned char good[BLOB_MAX_SIZE], bad[BLOB_MAX_SIZE];
	size_t i, len, off;
	struct blob b;
	int v, wrong = 0, tried = 0;

	for (i = 0; i < NKINDS; i++) {
		b = sample(kinds[i]);
		len = blob_encode(&b, good);
		for (off = 0; off < len; off++) {
			for (v = 0; v < 256; v++) {
				if (v == good[off])
					continue;
				memcpy(bad, good, len);
				bad[off] = v;
				tried++;
				/* Both with a length and without one. */
				if (blob_decode(bad, len, kinds[i], &b) !=
					    errno_for_change_at(off) ||
				    blob_decode(bad, SIZE_MAX, 0, &b) !=
					    errno_for_change_at(off)) {
					if (!wrong++)
						fprintf(stderr,
							"kind %d off %zu "
							"value %d accepted "
							"or wrong errno\n",
							kinds[i], off, v);
				}
			}
		}
	}
	CHECK_EQ(tried, (80 + 64 + 80) * 255);
	CHECK_EQ(wrong, 0);
}

static void test_truncation(void)
{
	unsigned char good[BLOB_MAX_SIZE], pad[BLOB_MAX_SIZE];
	size_t i, len, cut;
	struct blob b;
	int wrong = 0, want, lossless = 0;

	for (i = 0; i < NKINDS; i++) {
		b = sample(kinds[i]);
		len = blob_encode(&b, good);
		for (cut = 0; cut < len; cut++) {
			if (blob_decode(good, cut, kinds[i], &b) != EINVAL)
				wrong++;
			/*
			 * What a short copy into a zeroed buffer looks like.
			 * Cut at 4, the version reads 0: an unknown version.
			 */
			memset(pad, 0, sizeof(pad));
			memcpy(pad, good, cut);
			want = cut == 4 ? EPROTO : EINVAL;
			/* Cutting only trailing zero bytes loses nothing. */
			if (!memcmp(pad, good, len)) {
				want = 0;
				lossless++;
			}
			if (blob_decode(pad, len, kinds[i], &b) != want ||
			    blob_decode(pad, SIZE_MAX, 0, &b) != want) {
				if (!wrong++)
					fprintf(stderr, "kind %d cut %zu\n",
						kinds[i], cut);
			}
		}
		CHECK_EQ(blob_decode(good, len, kinds[i], &b), 0);
	}
	/* Every kind ends with its file id, whose last byte is not 0. */
	CHECK_EQ(lossless, 0);
	CHECK_EQ(wrong, 0);
}

static void test_wrong_kind(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	size_t i, j, len;
	struct blob b;

	for (i = 0; i < NKINDS; i++) {
		b = sample(kinds[i]);
		len = blob_encode(&b, buf);
		for (j = 0; j < NKINDS; j++)
			if (i != j)
				CHECK_EQ(blob_decode(buf, len, kinds[j], &b),
					 EINVAL);
	}

	/* An unknown kind, even with a matching length and checksum. */
	b = sample(BLOB_KIND_VAR);
	len = blob_encode(&b, buf);
	buf[6] = 4;
	reseal(buf, len);
	CHECK_EQ(blob_decode(buf, len, 0, &b), EINVAL);
	buf[6] = 0;
	reseal(buf, len);
	CHECK_EQ(blob_decode(buf, len, 0, &b), EINVAL);

	/* A resealed kind change to a kind of the same size decodes as it. */
	buf[6] = BLOB_KIND_DEVX_OBJ;
	reseal(buf, len);
	CHECK_EQ(blob_decode(buf, len, BLOB_KIND_VAR, &b), EINVAL);
}

static void test_wrong_version(void)
{
	static const uint16_t versions[] = {
		0, 1, 2, 3, 4, 5, 7, 0x106, 0x206, 0xffff,
	};
	unsigned char buf[BLOB_MAX_SIZE];
	size_t i, v, len;
	struct blob b;

	for (i = 0; i < NKINDS; i++) {
		for (v = 0; v < sizeof(versions) / sizeof(versions[0]); v++) {
			b = sample(kinds[i]);
			len = blob_encode(&b, buf);
			buf[4] = versions[v];
			buf[5] = versions[v] >> 8;
			reseal(buf, len);
			CHECK_EQ(blob_decode(buf, len, kinds[i], &b), EPROTO);
			/* A newer version is told apart before its length. */
			wr32(buf + 8, 4096);
			CHECK_EQ(blob_decode(buf, SIZE_MAX, 0, &b), EPROTO);
		}
	}
}

static void test_reserved(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	size_t i, len, off;
	struct blob b;
	int wrong = 0, n = 0;

	for (i = 0; i < NKINDS; i++) {
		b = sample(kinds[i]);
		len = blob_encode(&b, buf);
		for (off = 0; off < len; off++) {
			if (!is_reserved(kinds[i], off))
				continue;
			buf[off] = 0x80;
			reseal(buf, len);
			n++;
			if (blob_decode(buf, len, kinds[i], &b) != EINVAL)
				wrong++;
			buf[off] = 0;
			reseal(buf, len);
			if (blob_decode(buf, len, kinds[i], &b) != 0)
				wrong++;
		}
	}
	CHECK_EQ(n, (4 + 3) + 4 + (4 + 4));
	CHECK_EQ(wrong, 0);
}

/* Is body byte off of kind inside one of blob_body_reserved()'s runs? */
static int in_spans(enum blob_kind kind, size_t off)
{
	struct blob_span span[8];
	size_t n = blob_body_reserved(kind, BLOB_FORMAT_VERSION, span, 8), i;

	for (i = 0; i < n; i++)
		if (off >= span[i].off && off < span[i].off + span[i].len)
			return 1;
	return 0;
}

/*
 * This test's list of reserved bytes against the encoder's
 * (blob_body_reserved()) and the decoder's, bit for bit: every bit of a
 * reserved body byte refused, every other body byte at 0xff decoded and
 * encoded back to the same bytes.
 */
static void test_reserved_bits(void)
{
	unsigned char buf[BLOB_MAX_SIZE], again[BLOB_MAX_SIZE];
	size_t i, len, off, bit;
	struct blob b, out;
	int wrong = 0;

	for (i = 0; i < NKINDS; i++) {
		b = sample(kinds[i]);
		len = blob_encode(&b, buf);
		for (off = BLOB_HEADER_SIZE; off < len; off++) {
			unsigned char was = buf[off];

			CHECK_EQ(in_spans(kinds[i], off),
				 is_reserved(kinds[i], off));
			for (bit = 0; bit < 8 && is_reserved(kinds[i], off);
			     bit++) {
				buf[off] = 1u << bit;
				reseal(buf, len);
				if (blob_decode(buf, len, kinds[i], &out) !=
				    EINVAL)
					wrong++;
			}
			if (!is_reserved(kinds[i], off)) {
				buf[off] = 0xff;
				reseal(buf, len);
				if (blob_decode(buf, len, kinds[i], &out) ||
				    blob_encode(&out, again) != len ||
				    memcmp(buf, again, len))
					wrong++;
			}
			buf[off] = was;
			reseal(buf, len);
		}
	}
	CHECK_EQ(wrong, 0);
}

static void test_length_field(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	struct blob b = sample(BLOB_KIND_DEVX_UMEM);
	size_t len = blob_encode(&b, buf);

	/* A resealed blob that claims another length is refused. */
	wr32(buf + 8, 80);
	reseal(buf, 80);
	CHECK_EQ(blob_decode(buf, sizeof(buf), 0, &b), EINVAL);
	wr32(buf + 8, 48);
	reseal(buf, 48);
	CHECK_EQ(blob_decode(buf, sizeof(buf), 0, &b), EINVAL);
	wr32(buf + 8, len);
	reseal(buf, len);
	CHECK_EQ(blob_decode(buf, len, 0, &b), 0);
}

static void test_device(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	struct blob b = sample(BLOB_KIND_DEVX_OBJ), out;
	struct blob_device dev = { 0xaaaa, 7, true };
	struct blob_device no_vhca = { 0xaaaa, 0, false };

	blob_set_device(&b, &dev);
	blob_encode(&b, buf);
	CHECK_EQ(blob_decode(buf, BLOB_DEVX_OBJ_SIZE, BLOB_KIND_DEVX_OBJ,
				 &out), 0);
	CHECK_EQ(blob_check_device(&out, &dev), 0);
	/* Another GUID, or the same GUID on another function: EXDEV. */
	dev.node_guid = 0xaaab;
	CHECK_EQ(blob_check_device(&out, &dev), EXDEV);
	dev.node_guid = 0;
	CHECK_EQ(blob_check_device(&out, &dev), EXDEV);
	dev.node_guid = 0xaaaa;
	dev.vhca_id = 8;
	CHECK_EQ(blob_check_device(&out, &dev), EXDEV);
	/* An importer without a vhca_id checks the node GUID only. */
	CHECK_EQ(blob_check_device(&out, &no_vhca), 0);
	no_vhca.node_guid = 0xaaab;
	CHECK_EQ(blob_check_device(&out, &no_vhca), EXDEV);

	/* A blob without one: zero bytes, no flag, the GUID only. */
	no_vhca.node_guid = 0xaaaa;
	blob_set_device(&b, &no_vhca);
	blob_encode(&b, buf);
	CHECK_EQ(buf[24] | buf[25] | buf[26] | buf[27], 0);
	CHECK_EQ(blob_decode(buf, BLOB_DEVX_OBJ_SIZE, BLOB_KIND_DEVX_OBJ,
				 &out), 0);
	CHECK(!out.has_vhca_id);
	dev.vhca_id = 7;
	CHECK_EQ(blob_check_device(&out, &dev), 0);
	dev.vhca_id = 8;
	CHECK_EQ(blob_check_device(&out, &dev), 0);

	/* A vhca_id without its flag, or an unknown flag: EINVAL. */
	CHECK_EQ(decode_changed(buf, 24, 7), EINVAL);
	CHECK_EQ(decode_changed(buf, 26, 2), EINVAL);
	CHECK_EQ(decode_changed(buf, 27, 0x80), EINVAL);
	/* Format 1, which had no vhca_id, is another format. */
	CHECK_EQ(decode_changed(buf, 4, 1), EPROTO);
}

static void test_null(void)
{
	unsigned char buf[BLOB_MAX_SIZE];
	struct blob b = sample(BLOB_KIND_VAR);

	blob_encode(&b, buf);
	CHECK_EQ(blob_decode(NULL, 64, 0, &b), EINVAL);
	CHECK_EQ(blob_decode(buf, 64, 0, NULL), EINVAL);
}

int main(void)
{
	test_crc();
	test_boot_id_text();
	test_sizes();
	test_layout();
	test_old_formats();
	test_boot();
	test_round_trip();
	test_single_byte_changes();
	test_truncation();
	test_wrong_kind();
	test_wrong_version();
	test_reserved();
	test_reserved_bits();
	test_length_field();
	test_device();
	test_null();
	return check_done("test_blob");
}
