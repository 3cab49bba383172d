/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Writes the fuzzers' seed corpus: one valid blob of each kind and, for
 * each, the near misses that stop at each check of the decoder (bad magic,
 * newer version, other kind, wrong length, truncated, bad checksum,
 * non-zero reserved byte, bad flags, another function's vhca_id).  Near misses other than the checksum one carry
 * a correct checksum, so that they reach the check they are about.
 *
 *   gen_corpus DIR [NODE_GUID]
 *
 * NODE_GUID (hex, default 0) is written into the blobs, with vhca_id 0
 * (mlx5-emu's first device's), so that the whole-import fuzzer can start
 * from blobs its device accepts.  The output is committed in tests/fuzz/corpus/.
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

	memcpy(buf, good, len);
	SEED("valid", len);

	memcpy(buf, good, len);
	buf[0] ^= 0x20;
	fix_crc(buf, len);
	SEED("bad-magic", len);

	memcpy(buf, good, len);
	buf[4] = BLOB_FORMAT_VERSION + 1;
	fix_crc(buf, len);
	SEED("version-newer", len);

	memcpy(buf, good, len);
	buf[4] = BLOB_FORMAT_VERSION - 1;
	fix_crc(buf, len);
	SEED("version-older", len);

	memcpy(buf, good, len);
	buf[6] = b->kind % 3 + 1;
	fix_crc(buf, len);
	SEED("other-kind", len);

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

	memcpy(buf, good, len);
	buf[28] = 1;
	fix_crc(buf, len);
	SEED("reserved-hdr", len);

	memcpy(buf, good, len);
	buf[26] |= 0x02;
	fix_crc(buf, len);
	SEED("unknown-flag", len);

	memcpy(buf, good, len);
	buf[24] = 3;
	buf[26] = 0;
	fix_crc(buf, len);
	SEED("vhca-without-flag", len);

	memcpy(buf, good, len);
	buf[24] ^= 0x01;
	fix_crc(buf, len);
	SEED("other-vhca", len);

	memcpy(buf, good, len);
	buf[len - 1] = 0x80;
	fix_crc(buf, len);
	SEED("reserved-tail", len);

	memcpy(buf, good, len);
	buf[16] ^= 0xff;
	fix_crc(buf, len);
	SEED("other-guid", len);
#undef SEED
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
		memset(&b, 0, sizeof(b));
		b.kind = BLOB_KIND_DEVX_OBJ;
		b.node_guid = guid;
		b.has_vhca_id = true;
		b.obj.handle = i;
		b.obj.type = 2;	/* libmlx5's MLX5_DEVX_FLOW_COUNTER */
		b.obj.object_id = 0x10 + i;
		snprintf(tag, sizeof(tag), "obj%u", i);
		write_family(tag, &b);
	}
	/* An object whose type libmlx5 does not record. */
	memset(&b, 0, sizeof(b));
	b.kind = BLOB_KIND_DEVX_OBJ;
	b.node_guid = guid;
	b.has_vhca_id = true;
	b.obj.handle = 1;
	b.obj.rx_icm_addr = 0x1122334455667788ULL;
	b.obj.log_obj_range = 3;
	write_family("obj-untyped", &b);

	memset(&b, 0, sizeof(b));
	b.kind = BLOB_KIND_DEVX_UMEM;
	b.node_guid = guid;
	b.has_vhca_id = true;
	b.umem.handle = 0;
	b.umem.umem_id = 7;
	write_family("umem", &b);

	memset(&b, 0, sizeof(b));
	b.kind = BLOB_KIND_VAR;
	b.node_guid = guid;
	b.has_vhca_id = true;
	b.var.handle = 0;
	b.var.page_id = 1;
	b.var.length = 4096;
	b.var.mmap_off = 0x300000000ULL;
	write_family("var", &b);
	return 0;
}
