// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Makes good blobs and damaged copies of them for the inspector tests,
 * including the damage a shell cannot do: a field changed and the
 * checksum sealed again, so that the check behind the checksum is the one
 * that fails.
 *
 *   blob-tool make KIND OUT [FORMAT] KIND: devx_obj, devx_umem or var,
 *                                    made in this boot; FORMAT: the
 *                                    version field (default 5, the
 *                                    format; another labels its bytes)
 *   blob-tool flip OFF IN OUT        byte OFF xor 0xff
 *   blob-tool truncate LEN IN OUT
 *   blob-tool append N IN OUT        N zero bytes after the blob
 *   blob-tool set16 OFF VAL IN OUT   little-endian u16, then reseal
 *   blob-tool set8 OFF VAL IN OUT    one byte, then reseal
 *   blob-tool every IN DIR           DIR/trunc-N for every shorter length
 *                                    N and DIR/flip-N for every byte N
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "boot_id.h"

#define MAX_FILE 4096

static unsigned char buf[MAX_FILE + 1];

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "blob-tool: %s %s: %s\n", what, arg,
		errno ? strerror(errno) : "bad argument");
	exit(2);
}

static size_t load(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		die("cannot open", path);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n > MAX_FILE)
		die("too large", path);
	return n;
}

static void store(const char *path, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, n, f) != n || fclose(f))
		die("cannot write", path);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s)
		die("not a number:", s);
	return v;
}

/* The checksum over the blob's own length, with its field as zero. */
static void reseal(size_t n)
{
	size_t len = buf[8] | buf[9] << 8 | buf[10] << 16 |
		     (size_t)buf[11] << 24;
	uint32_t crc;

	if (n < 16)
		return;
	if (len > n)
		len = n;
	memset(buf + 12, 0, 4);
	crc = blob_crc32c(buf, len);
	for (int i = 0; i < 4; i++)
		buf[12 + i] = (unsigned char)(crc >> (8 * i));
}

static int make(const char *kind, const char *out, const char *format)
{
	struct blob b = {
		.version = BLOB_FORMAT_VERSION,
		.file_id = 0x2a,
		.node_guid = 0x0002c90300a1b2c3ull,
		.vhca_id = 5,
		.has_vhca_id = true,
	};
	size_t n;
	int err = boot_id_get(b.boot_id);

	if (err) {
		errno = err;
		die("no boot id in", BOOT_ID_PATH);
	}
	if (!strcmp(kind, "devx_obj")) {
		b.kind = BLOB_KIND_DEVX_OBJ;
		b.handle = 3;
		b.obj.type = 2;		/* flow counter */
		b.obj.object_id = 0x800012;
		b.obj.rx_icm_addr = 0x1234000;
		b.obj.log_obj_range = 2;
	} else if (!strcmp(kind, "devx_umem")) {
		b.kind = BLOB_KIND_DEVX_UMEM;
		b.handle = 4;
		b.umem.umem_id = 0x21;
	} else if (!strcmp(kind, "var")) {
		b.kind = BLOB_KIND_VAR;
		b.handle = 5;
		b.var.page_id = 7;
		b.var.length = 4096;
		b.var.mmap_off = 0x70000;
	} else {
		die("unknown kind", kind);
	}
	n = blob_encode(&b, buf);
	if (!n)
		die("cannot encode", kind);
	if (format) {
		unsigned long v = number(format);

		buf[4] = (unsigned char)v;
		buf[5] = (unsigned char)(v >> 8);
		reseal(n);
	}
	store(out, n);
	return 0;
}

/* Every truncation and every single flipped byte of one blob. */
static int every(const char *in, const char *dir)
{
	char path[4096];
	size_t n = load(in);

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/trunc-%zu", dir, i);
		store(path, i);
	}
	for (size_t i = 0; i < n; i++) {
		buf[i] ^= 0xff;
		snprintf(path, sizeof(path), "%s/flip-%zu", dir, i);
		store(path, n);
		buf[i] ^= 0xff;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	size_t n;

	if (!strcmp(op, "make") && (argc == 4 || argc == 5))
		return make(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (!strcmp(op, "every") && argc == 4)
		return every(argv[2], argv[3]);
	if ((!strcmp(op, "flip") || !strcmp(op, "truncate") ||
	     !strcmp(op, "append")) && argc == 5) {
		unsigned long v = number(argv[2]);

		n = load(argv[3]);
		if (!strcmp(op, "flip")) {
			if (v >= n)
				die("offset past the end:", argv[2]);
			buf[v] ^= 0xff;
		} else if (!strcmp(op, "truncate")) {
			if (v > n)
				die("longer than the file:", argv[2]);
			n = v;
		} else {
			if (v > MAX_FILE - n)
				die("too much to append:", argv[2]);
			memset(buf + n, 0, v);
			n += v;
		}
		store(argv[4], n);
		return 0;
	}
	if ((!strcmp(op, "set16") || !strcmp(op, "set8")) && argc == 6) {
		unsigned long off = number(argv[2]), val = number(argv[3]);
		size_t width = op[3] == '1' ? 2 : 1;

		n = load(argv[4]);
		if (off + width > n)
			die("offset past the end:", argv[2]);
		buf[off] = (unsigned char)val;
		if (width == 2)
			buf[off + 1] = (unsigned char)(val >> 8);
		reseal(n);
		store(argv[5], n);
		return 0;
	}
	fprintf(stderr, "usage: blob-tool make KIND OUT [FORMAT] | flip OFF "
		"IN OUT | truncate LEN IN OUT | append N IN OUT | set16 OFF "
		"VAL IN OUT | set8 OFF VAL IN OUT | every IN DIR\n");
	return 2;
}
