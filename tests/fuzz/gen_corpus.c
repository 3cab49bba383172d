// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Writes the fuzzers' seed corpus: one valid blob of each kind and, for
 * each, the near misses that stop at each check of the decoder (bad magic,
 * newer version, other kind, wrong length, truncated, bad checksum,
 * non-zero reserved byte, bad flags, another function's vhca_id).  Near
 * misses other than the checksum one carry a correct checksum, so that
 * they reach the check they are about.
 *
 *   gen_corpus DIR [NODE_GUID]
 *
 * NODE_GUID (hex, default 0) is written into the blobs, with vhca_id 0
 * (mlx5-emu's first device's), so that the whole-import fuzzer can start
 * from blobs its device accepts.  The output is committed in
 * tests/fuzz/corpus/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"

static const char *out_dir;

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void fix_crc(uint8_t *buf, size_t len)
{
	put_le32(buf + 12, 0);
	put_le32(buf + 12, blob_crc32c(buf, len));
}

static void write_seed(const char *name, const uint8_t *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* good (len bytes) with byte at set to v, its CRC redone, as seed name. */
static void seed_byte(const char *name, const uint8_t *good, size_t len,
		      size_t at, uint8_t v)
{
	uint8_t buf[BLOB_MAX_SIZE];

	memcpy(buf, good, len);
	buf[at] = v;
	fix_crc(buf, len);
	write_seed(name, buf, len);
}

/* The valid blob, then one near miss per decoder check. */
static void write_family(const char *tag, const struct blob *b)
{
	uint8_t good[BLOB_MAX_SIZE], buf[BLOB_MAX_SIZE + 1];
	size_t len = blob_encode(b, good);
	char name[64];

#define SEED(what, n)                                                      \
	do {                                                               \
		snprintf(name, sizeof(name), "%s-%s", tag, what);          \
		write_seed(name, buf, n);                                  \
	} while (0)
#define BYTE(what, at, v)                                                  \
	do {                                                               \
		snprintf(name, sizeof(name), "%s-%s", tag, what);          \
		seed_byte(name, good, len, at, v);                         \
	} while (0)

	struct blob_span rsv[BLOB_MAX_SIZE / 2];
	size_t nrsv, tail;

	memcpy(buf, good, len);
	SEED("valid", len);

	BYTE("bad-magic", 0, good[0] ^ 0x20);
	BYTE("version-newer", 4, BLOB_FORMAT_VERSION + 1);
	BYTE("version-older", 4, BLOB_FORMAT_VERSION - 1);
	BYTE("version-refused", 4, 1);
	BYTE("other-kind", 6, b->kind % 3 + 1);

	memcpy(buf, good, len);
	put_le32(buf + 8, len - 8);
	fix_crc(buf, len - 8);
	SEED("short-length", len - 8);

	memcpy(buf, good, len);
	buf[len] = 0;
	put_le32(buf + 8, len + 1);
	fix_crc(buf, len + 1);
	SEED("long-length", len + 1);

	memcpy(buf, good, len);
	SEED("truncated", len - 1);

	memcpy(buf, good, len);
	buf[len - 9] ^= 0x01;
	SEED("bad-crc", len);

	BYTE("reserved-hdr", 28, 1);
	BYTE("unknown-flag", 26, good[26] | 0x02);

	memcpy(buf, good, len);
	buf[24] = 3;
	buf[26] = 0;
	fix_crc(buf, len);
	SEED("vhca-without-flag", len);

	BYTE("other-vhca", 24, good[24] ^ 0x01);
	/* The body's last reserved byte (a UMEM's body has none). */
	nrsv = blob_body_reserved(b->kind, BLOB_FORMAT_VERSION, rsv,
				  sizeof(rsv) / sizeof(rsv[0]));
	tail = nrsv ? rsv[nrsv - 1].off + rsv[nrsv - 1].len - 1U :
		      31U;	/* the header's last reserved byte */
	BYTE("reserved-tail", tail, 0x80);
	BYTE("other-guid", 16, good[16] ^ 0xff);
	BYTE("other-boot", BLOB_BOOT_ID_OFF, good[BLOB_BOOT_ID_OFF] ^ 0xff);
#undef SEED
#undef BYTE
}

/* A blob of this kind from the device of this node GUID, all else 0. */
static void start(struct blob *b, enum blob_kind kind, uint64_t guid)
{
	memset(b, 0, sizeof(*b));
	b->version = BLOB_FORMAT_VERSION;
	b->kind = kind;
	b->node_guid = guid;
	b->has_vhca_id = true;
}

int main(int argc, char **argv)
{
	uint64_t guid = 0;
	struct blob b;
	char tag[32];
	unsigned int i;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s DIR [NODE_GUID]\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	if (argc == 3)
		guid = strtoull(argv[2], NULL, 16);

	/* Flow counters, the objects the tests and the bench create. */
	for (i = 0; i < 4; i++) {
		start(&b, BLOB_KIND_DEVX_OBJ, guid);
		b.handle = i;
		b.obj.type = 2;	/* libmlx5's MLX5_DEVX_FLOW_COUNTER */
		b.obj.object_id = 0x10 + i;
		b.file_id = 1 + i;
		snprintf(tag, sizeof(tag), "obj%u", i);
		write_family(tag, &b);
	}
	/* An object whose type libmlx5 does not record. */
	start(&b, BLOB_KIND_DEVX_OBJ, guid);
	b.handle = 1;
	b.obj.rx_icm_addr = 0x1122334455667788ULL;
	b.obj.log_obj_range = 3;
	write_family("obj-untyped", &b);

	start(&b, BLOB_KIND_DEVX_UMEM, guid);
	b.handle = 0;
	b.umem.umem_id = 7;
	write_family("umem", &b);

	start(&b, BLOB_KIND_VAR, guid);
	b.handle = 0;
	b.var.page_id = 1;
	b.var.length = 4096;
	b.var.mmap_off = 0x300000000ULL;
	write_family("var", &b);
	return 0;
}
