// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * blob_decode() reads the caller's buffer once: what it checks is what it
 * decodes.  The caller's buffer may be shared with another process or
 * thread that rewrites it at any time; a decode that checked the CRC over
 * the caller's bytes and then read them again could return fields no
 * check ever saw.  Made deterministic with the codec's test seam
 * (blob_test_set_decode_seam(), a build of blob.c with
 * MLX5_SHARE_TEST_HOOKS): between the checks and the decoding of the
 * fields, the seam rewrites the caller's buffer, and the answer must be
 * the blob as it was when the call read it:
 *
 *   - into another well-formed blob (another handle, node GUID, vhca_id
 *     and serial, checksum redone): the answer is still the first one;
 *   - into bytes that fail the checks (a changed handle, old checksum):
 *     the answer is still the first blob, not EINVAL;
 *   - each kind, each format read.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "blob.h"
#include "check.h"

static unsigned char shared[BLOB_MAX_SIZE];	/* the caller's buffer */
static unsigned char rewrite[BLOB_MAX_SIZE];	/* what the seam puts there */
static size_t rewrite_len;
static unsigned int seam_runs;

static void seam(void)
{
	memcpy(shared, rewrite, rewrite_len);
	seam_runs++;
}

static struct blob sample(enum blob_kind kind, uint16_t version,
			  uint32_t salt)
{
	struct blob b;

	memset(&b, 0, sizeof(b));
	b.version = version;
	b.kind = kind;
	b.node_guid = 0x1122334455667700ull + salt;
	b.vhca_id = 0x40 + salt;
	b.has_vhca_id = true;
	b.file_id = 0x900 + salt;
	memset(b.boot_id, 0x30 + salt, sizeof(b.boot_id));
	b.handle = 0x100 + salt;
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		b.obj.type = 3 + salt;
		b.obj.object_id = 0xabc00 + salt;
		b.obj.rx_icm_addr = 0x7000000000ull + salt;
		b.obj.log_obj_range = 2 + salt;
		break;
	case BLOB_KIND_DEVX_UMEM:
		b.umem.umem_id = 0x5500 + salt;
		break;
	case BLOB_KIND_VAR:
		b.var.page_id = 0x60 + salt;
		b.var.length = 4096 << salt;
		b.var.mmap_off = 0x8000000ull + salt;
		break;
	}
	return b;
}

/* Every field decode fills, compared. */
static int same_blob(const struct blob *x, const struct blob *y)
{
	if (x->version != y->version || x->kind != y->kind ||
	    x->file_id != y->file_id || x->node_guid != y->node_guid ||
	    x->has_vhca_id != y->has_vhca_id || x->vhca_id != y->vhca_id ||
	    x->handle != y->handle ||
	    memcmp(x->boot_id, y->boot_id, sizeof(x->boot_id)))
		return 0;
	switch (x->kind) {
	case BLOB_KIND_DEVX_OBJ:
		return x->obj.type == y->obj.type &&
		       x->obj.object_id == y->obj.object_id &&
		       x->obj.rx_icm_addr == y->obj.rx_icm_addr &&
		       x->obj.log_obj_range == y->obj.log_obj_range;
	case BLOB_KIND_DEVX_UMEM:
		return x->umem.umem_id == y->umem.umem_id;
	case BLOB_KIND_VAR:
		return x->var.page_id == y->var.page_id &&
		       x->var.length == y->var.length &&
		       x->var.mmap_off == y->var.mmap_off;
	}
	return 0;
}

/*
 * Decodes blob a from the shared buffer while the seam replaces it with
 * the len bytes at with: the answer must be a, exactly.
 */
static void decode_rewritten(const struct blob *a, const unsigned char *with,
			     const char *what)
{
	size_t len = blob_size(a->kind);
	struct blob out;
	int ret;

	REQUIRE(blob_encode(a, shared) == len);
	memcpy(rewrite, with, len);
	rewrite_len = len;
	seam_runs = 0;
	ret = blob_decode(shared, len, a->kind, &out);
	CHECK_EQ(seam_runs, 1);
	CHECK_EQ(ret, 0);
	if (ret || !same_blob(&out, a))
		fprintf(stderr, "kind %d format %u, rewritten to %s: %s\n",
			a->kind, a->version, what,
			ret ? strerror(ret) : "decoded the rewritten bytes");
	CHECK(!ret && same_blob(&out, a));
}

static void test_kind(enum blob_kind kind, uint16_t version)
{
	struct blob a = sample(kind, version, 0);
	struct blob b = sample(kind, version, 1);
	unsigned char other[BLOB_MAX_SIZE];
	size_t len = blob_size(kind);

	/* Another well-formed blob: checksum, reserved bytes all right. */
	REQUIRE(blob_encode(&b, other) == len);
	decode_rewritten(&a, other, "another blob");

	/* The same blob with its handle changed and the old checksum. */
	REQUIRE(blob_encode(&a, other) == len);
	other[BLOB_HEADER_SIZE] ^= 0x5a;
	decode_rewritten(&a, other, "a corrupted blob");
}

int main(void)
{
	static const enum blob_kind kinds[] = {
		BLOB_KIND_DEVX_OBJ, BLOB_KIND_DEVX_UMEM, BLOB_KIND_VAR,
	};
	struct blob a = sample(BLOB_KIND_DEVX_OBJ, BLOB_FORMAT_VERSION, 0);
	struct blob out;
	size_t i;

	blob_test_set_decode_seam(seam);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		test_kind(kinds[i], BLOB_FORMAT_VERSION);

	/* A blob the checks refuse never reaches the seam. */
	REQUIRE(blob_encode(&a, shared) == BLOB_DEVX_OBJ_SIZE);
	shared[33] ^= 1;
	seam_runs = 0;
	CHECK_EQ(blob_decode(shared, BLOB_DEVX_OBJ_SIZE, 0, &out), EINVAL);
	CHECK_EQ(seam_runs, 0);

	blob_test_set_decode_seam(NULL);
	return check_done("unit_blob_reread");
}
