// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libFuzzer target over blob_decode(), the first thing import does with
 * bytes another process handed over.  Besides "no crash" (ASan, UBSan) it
 * checks what the codec promises:
 *
 *  - it never reads past avail: every decode runs on a heap copy of exactly
 *    avail bytes, so one byte too far is an ASan report;
 *  - with avail unknown (SIZE_MAX) it reads no byte past what the header
 *    promised: that copy is cut at the promise;
 *  - a success means encode(decode(x)) gives the same bytes as x, the kind
 *    is the one asked for and the bytes were all available;
 *  - the answer for "any kind" agrees with the answer for each kind;
 *  - only the errno values of the contract come out.
 *
 * Most random inputs stop at the checksum, so each input is also decoded
 * with its checksum made right ("structure-aware"), which lets the fuzzer
 * reach the reserved-byte and kind checks behind it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...)                                                          \
	do {                                                               \
		fprintf(stderr, "fuzz_blob: invariant broken: " __VA_ARGS__); \
		fputc('\n', stderr);                                       \
		abort();                                                   \
	} while (0)

static const enum blob_kind all_kinds[] = {
	0, BLOB_KIND_DEVX_OBJ, BLOB_KIND_DEVX_UMEM, BLOB_KIND_VAR,
	(enum blob_kind)4, (enum blob_kind)0xffff,
};

#define N_KINDS (sizeof(all_kinds) / sizeof(all_kinds[0]))

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t get_le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

/* A heap copy of exactly len bytes (at least one byte is allocated). */
static uint8_t *exact_copy(const uint8_t *data, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	if (!p)
		abort();
	memcpy(p, data, len);
	/* A zero-length buffer must not be readable at all. */
	return len ? p : p + 1;
}

static void exact_free(uint8_t *p, size_t len)
{
	free(len ? p : p - 1);
}

static void check_success(const uint8_t *buf, size_t avail,
			  enum blob_kind expect, const struct blob *b)
{
	uint8_t re[BLOB_MAX_SIZE];
	size_t sz = blob_size(b->kind);

	if (!sz)
		FAIL("decode accepted unknown kind %d", b->kind);
	if (expect && b->kind != expect)
		FAIL("asked for kind %d, got %d", expect, b->kind);
	if (avail != SIZE_MAX && avail < sz)
		FAIL("accepted a %zu-byte blob from %zu bytes", sz, avail);
	if (!blob_version_known(b->version))
		FAIL("accepted version %u", b->version);
	if (blob_encode(b, re) != sz)
		FAIL("re-encode size differs");
	if (memcmp(re, buf, sz))
		FAIL("re-encode differs from the accepted bytes");
}

/*
 * Bytes the decoder may read when it is told nothing about the length:
 * the fixed fields up to `length`, and the whole blob only once `length`
 * names exactly the size of a known kind.
 */
static size_t promised_size(const uint8_t *data, size_t size)
{
	uint8_t hdr[12] = { 0 };
	size_t want;

	/* A short input is read as zero-filled up to the length field. */
	memcpy(hdr, data, size < sizeof(hdr) ? size : sizeof(hdr));
	want = blob_size((enum blob_kind)get_le16(hdr + 6));
	if (want && get_le32(hdr + 8) == want)
		return want;
	return sizeof(hdr);
}

static int decode_exact(const uint8_t *data, size_t size, size_t avail,
			enum blob_kind expect, struct blob *b)
{
	size_t len = avail == SIZE_MAX ? promised_size(data, size) : avail;
	uint8_t tmp[BLOB_MAX_SIZE] = { 0 };
	const uint8_t *src = data;
	uint8_t *buf;
	int ret;

	if (len > size) {
		/* Unknown avail on a short input: zero-fill the promise. */
		memcpy(tmp, data, size);
		src = tmp;
	}
	buf = exact_copy(src, len);
	ret = blob_decode(buf, avail, expect, b);
	if (ret == 0)
		check_success(buf, avail, expect, b);
	else if (ret != EINVAL && ret != EPROTO)
		FAIL("errno %d outside the contract", ret);
	exact_free(buf, len);
	return ret;
}

static void check_input(const uint8_t *data, size_t size)
{
	const size_t avails[] = { 0, 1, BLOB_HEADER_SIZE, size / 2,
				  size ? size - 1 : 0, size, SIZE_MAX };
	struct blob b, b_any;
	size_t i, k;

	for (i = 0; i < sizeof(avails) / sizeof(avails[0]); i++) {
		size_t avail = avails[i];
		int any;

		if (avail != SIZE_MAX && avail > size)
			continue;
		memset(&b_any, 0, sizeof(b_any));
		any = decode_exact(data, size, avail, 0, &b_any);
		for (k = 1; k < N_KINDS; k++) {
			enum blob_kind kind = all_kinds[k];
			int ret;

			memset(&b, 0, sizeof(b));
			ret = decode_exact(data, size, avail, kind, &b);
			/* A blob is accepted for its own kind only. */
			if (!any && kind == b_any.kind && ret)
				FAIL("kind %d: any ok, exact %d", kind, ret);
			if (!any && kind != b_any.kind && ret != EINVAL)
				FAIL("kind %d blob as %d gave %d", b_any.kind,
				     kind, ret);
			if (!ret && any)
				FAIL("kind %d ok, any gave %d", kind, any);
		}
	}
}

/* The same bytes with a checksum that matches them. */
static void check_with_good_crc(const uint8_t *data, size_t size)
{
	uint8_t buf[BLOB_MAX_SIZE];
	uint32_t len, crc;

	if (size < 16 || size > BLOB_MAX_SIZE)
		return;
	memcpy(buf, data, size);
	len = get_le32(buf + 8);
	if (len > size)
		len = size;
	memset(buf + 12, 0, 4);
	crc = blob_crc32c(buf, len);
	buf[12] = crc;
	buf[13] = crc >> 8;
	buf[14] = crc >> 16;
	buf[15] = crc >> 24;
	check_input(buf, size);
}

/* Any field values survive encode then decode unchanged. */
static void check_round_trip(const uint8_t *data, size_t size)
{
	uint8_t buf[BLOB_MAX_SIZE];
	struct blob in = { 0 }, out;
	size_t sz;
	int ret;

	if (size < 1 + 8 + 21 + 8 + BLOB_BOOT_ID_LEN)
		return;
	in.kind = (enum blob_kind)(1 + data[0] % 3);
	in.version = BLOB_FORMAT_VERSION;
	memcpy(&in.file_id, data + 1 + 8 + 21, 8);
	memcpy(in.boot_id, data + 1 + 8 + 21 + 8, BLOB_BOOT_ID_LEN);
	memcpy(&in.node_guid, data + 1, 8);
	in.has_vhca_id = data[0] & 0x80;
	in.vhca_id = data[1] | data[2] << 8;
	data += 9;
	memcpy(&in.handle, data, 4);
	switch (in.kind) {
	case BLOB_KIND_DEVX_OBJ:
		memcpy(&in.obj.type, data + 4, 4);
		memcpy(&in.obj.object_id, data + 8, 4);
		memcpy(&in.obj.rx_icm_addr, data + 12, 8);
		in.obj.log_obj_range = data[20];
		break;
	case BLOB_KIND_DEVX_UMEM:
		memcpy(&in.umem.umem_id, data + 4, 4);
		break;
	default:
		memcpy(&in.var.page_id, data + 4, 4);
		memcpy(&in.var.length, data + 8, 4);
		memcpy(&in.var.mmap_off, data + 12, 8);
		break;
	}
	sz = blob_encode(&in, buf);
	if (sz != blob_size(in.kind))
		FAIL("encode of kind %d wrote %zu bytes", in.kind, sz);
	memset(&out, 0, sizeof(out));
	ret = decode_exact(buf, sz, sz, in.kind, &out);
	if (ret)
		FAIL("own encoding of kind %d rejected: %d", in.kind, ret);
	if (out.node_guid != in.node_guid)
		FAIL("node_guid changed");
	if (out.version != in.version || out.file_id != in.file_id)
		FAIL("version or file id changed");
	if (memcmp(out.boot_id, in.boot_id, BLOB_BOOT_ID_LEN))
		FAIL("boot id changed");
	if (out.has_vhca_id != in.has_vhca_id ||
	    (in.has_vhca_id && out.vhca_id != in.vhca_id))
		FAIL("vhca_id changed");
	if (in.kind == BLOB_KIND_DEVX_OBJ &&
	    (out.handle != in.handle || out.obj.type != in.obj.type ||
	     out.obj.object_id != in.obj.object_id ||
	     out.obj.rx_icm_addr != in.obj.rx_icm_addr ||
	     out.obj.log_obj_range != in.obj.log_obj_range))
		FAIL("devx obj fields changed");
	if (in.kind == BLOB_KIND_DEVX_UMEM &&
	    (out.handle != in.handle ||
	     out.umem.umem_id != in.umem.umem_id))
		FAIL("umem fields changed");
	if (in.kind == BLOB_KIND_VAR &&
	    (out.handle != in.handle ||
	     out.var.page_id != in.var.page_id ||
	     out.var.length != in.var.length ||
	     out.var.mmap_off != in.var.mmap_off))
		FAIL("var fields changed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_input(data, size);
	check_with_good_crc(data, size);
	check_round_trip(data, size);
	return 0;
}
