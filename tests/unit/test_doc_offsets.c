// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The per-field tables of README.md and mlx5-share(7) state each field's
 * bytes in a record; the encoder is where they are defined (blob.h).  A
 * field's bytes are found by encoding a record with that field all ones
 * and another with it zero and seeing which bytes differ; each table
 * must have the row "| KIND | FIELD | BYTES |" with those bytes.
 *
 *   test_doc_offsets FILE...
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "check.h"

#define NAME "unit_doc_offsets"

#define MEMBER(m) offsetof(struct blob, m), sizeof(((struct blob *)0)->m)

static const struct field {
	const char *kind;	/* the tables' words */
	const char *name;
	enum blob_kind bk;
	size_t off, size;	/* the member of struct blob */
} fields[] = {
	{ "every kind", "node GUID", BLOB_KIND_VAR, MEMBER(node_guid) },
	{ "every kind", "vhca_id", BLOB_KIND_VAR, MEMBER(vhca_id) },
	{ "every kind", "boot id", BLOB_KIND_VAR, MEMBER(boot_id) },
	{ "every kind", "handle", BLOB_KIND_VAR, MEMBER(handle) },
	{ "DEVX object", "type", BLOB_KIND_DEVX_OBJ, MEMBER(obj.type) },
	{ "DEVX object", "object_id", BLOB_KIND_DEVX_OBJ,
	  MEMBER(obj.object_id) },
	{ "DEVX object", "log_obj_range", BLOB_KIND_DEVX_OBJ,
	  MEMBER(obj.log_obj_range) },
	{ "DEVX object", "rx_icm_addr", BLOB_KIND_DEVX_OBJ,
	  MEMBER(obj.rx_icm_addr) },
	{ "UMEM", "umem_id", BLOB_KIND_DEVX_UMEM, MEMBER(umem.umem_id) },
	{ "VAR", "page_id", BLOB_KIND_VAR, MEMBER(var.page_id) },
	{ "VAR", "length", BLOB_KIND_VAR, MEMBER(var.length) },
	{ "VAR", "mmap_off", BLOB_KIND_VAR, MEMBER(var.mmap_off) },
	{ "DEVX object", "file id", BLOB_KIND_DEVX_OBJ, MEMBER(file_id) },
	{ "UMEM", "file id", BLOB_KIND_DEVX_UMEM, MEMBER(file_id) },
	{ "VAR", "file id", BLOB_KIND_VAR, MEMBER(file_id) },
};

static char *pages[8];
static size_t npages;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	buf = calloc(1, (size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return buf;
}

/* Every page has the row "| kind | name | bytes |". */
static void check_row(const char *kind, const char *name, const char *bytes)
{
	char row[128];
	size_t i;

	snprintf(row, sizeof(row), "| %s | %s | %s |", kind, name, bytes);
	for (i = 0; i < npages; i++) {
		if (strstr(pages[i], row)) {
			check_passed++;
			continue;
		}
		check_failed++;
		fprintf(stderr, "%s: no row \"%s\" in page %zu\n", NAME, row,
			i + 1);
	}
}

/* "A-B" (or "A" for one byte): the bytes where two encodings differ. */
static void differing(const unsigned char *a, const unsigned char *b,
		      size_t len, char *out, size_t outlen)
{
	size_t i, first = len, last = 0;

	for (i = 0; i < len; i++) {
		if (i >= 12 && i < 16)
			continue;	/* the checksum */
		if (a[i] != b[i]) {
			first = first < i ? first : i;
			last = i;
		}
	}
	if (first == len)
		snprintf(out, outlen, "none");
	else if (first == last)
		snprintf(out, outlen, "%zu", first);
	else
		snprintf(out, outlen, "%zu-%zu", first, last);
}

/* A u16 header field whose low byte alone differs between a and b. */
static void check_u16_row(const char *name, const unsigned char *a,
			  const unsigned char *b)
{
	char one[32], bytes[32];
	unsigned long at;
	char *end;

	differing(a, b, BLOB_MAX_SIZE, one, sizeof(one));
	at = strtoul(one, &end, 10);
	CHECK(end != one && !*end);
	snprintf(bytes, sizeof(bytes), "%lu-%lu", at, at + 1);
	check_row("every kind", name, bytes);
}

/* The bytes of one field of a record of kind bk, in format version. */
static void field_bytes(const struct field *f, uint16_t version, char *out,
			size_t outlen)
{
	unsigned char zero[BLOB_MAX_SIZE], ones[BLOB_MAX_SIZE];
	struct blob b = { .version = version, .kind = f->bk,
			  .has_vhca_id = true };
	size_t len;

	len = blob_encode(&b, zero);
	memset((unsigned char *)&b + f->off, 0xff, f->size);
	CHECK_EQ(blob_encode(&b, ones), len);
	differing(zero, ones, len, out, outlen);
}

int main(int argc, char **argv)
{
	unsigned char zero[BLOB_MAX_SIZE], buf[BLOB_MAX_SIZE];
	struct blob b = { .version = BLOB_FORMAT_VERSION,
			  .has_vhca_id = true };
	char bytes[32];
	size_t i;

	if (argc < 2 || argc - 1 > (int)(sizeof(pages) / sizeof(pages[0]))) {
		fprintf(stderr, "usage: test_doc_offsets FILE...\n");
		return 2;
	}
	for (i = 1; i < (size_t)argc; i++)
		pages[npages++] = slurp(argv[i]);

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		field_bytes(&fields[i], BLOB_FORMAT_VERSION, bytes,
			    sizeof(bytes));
		check_row(fields[i].kind, fields[i].name, bytes);
	}

	/*
	 * kind and flags are u16s (blob.h) whose values differ in their low
	 * byte only: the tables give that byte and the next.
	 */
	b.kind = BLOB_KIND_DEVX_OBJ;	/* as long as a VAR's */
	blob_encode(&b, zero);
	b.kind = BLOB_KIND_VAR;
	blob_encode(&b, buf);
	check_u16_row("kind", zero, buf);
	b.has_vhca_id = false;
	blob_encode(&b, zero);
	check_u16_row("flags", zero, buf);

	for (i = 0; i < npages; i++)
		free(pages[i]);
	return check_done(NAME);
}
