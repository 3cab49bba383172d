// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Scenario 7: bad blobs through the real import path, each refused with
 * its errno, allocating nothing in the kernel, and every existing object
 * still working afterwards.  Blobs with a recomputed checksum reach the
 * later checks: wrong version, kind, length, reserved bytes, device,
 * another verbs file's id, and a forged handle or object id that only the
 * kernel can refuse on kernels without the verbs file id; with it they
 * import, and the handle's first command fails.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "import_policy.h"
#include "file_id_probe.h"

#define NAME "e2e_bad_blobs"

static size_t blob_len;

static void put16le(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32le(uint8_t *p, uint32_t v)
{
	put16le(p, v);
	put16le(p + 2, v >> 16);
}

/* Recomputes the checksum over the first len bytes (blob.h). */
static void reseal(uint8_t *b, size_t len)
{
	put32le(b + 12, 0);
	put32le(b + 12, blob_crc32c(b, len));
}

/* The errno blob.h's check order gives a damaged, unresealed blob. */
static int expected_errno(const uint8_t *b)
{
	if (memcmp(b, BLOB_MAGIC, 4))
		return EINVAL;
	if ((b[4] | b[5] << 8) != BLOB_FORMAT_VERSION)
		return EPROTO;
	return EINVAL;
}

static void check_refused(struct ibv_context *ctx, const uint8_t *b,
			  int want, const char *what, long i)
{
	struct mlx5dv_devx_obj *obj;

	errno = 0;
	obj = mlx5dv_devx_obj_import(ctx, (void *)b);
	if (obj || errno != want) {
		fprintf(stderr, "%s %ld: got %s errno %d, want %d\n", what, i,
			obj ? "an object," : "NULL,", errno, want);
		if (obj)
			mlx5dv_devx_obj_unimport(obj);
	}
	CHECK(!obj && errno == want);
}

/* A blob the import takes: the object, unimported at once. */
static void check_imports(struct ibv_context *ctx, const uint8_t *b,
			  const char *what, long i)
{
	struct mlx5dv_devx_obj *obj;

	obj = mlx5dv_devx_obj_import(ctx, (void *)b);
	if (!obj)
		fprintf(stderr, "%s %ld: refused, errno %d\n", what, i, errno);
	CHECK(obj != NULL);
	if (obj)
		mlx5dv_devx_obj_unimport(obj);
}

static void damaged(struct ibv_context *ctx, const uint8_t *good)
{
	uint8_t b[E2E_BLOB_MAX];
	size_t i;

	/* Every single-byte change. */
	for (i = 0; i < blob_len; i++) {
		memcpy(b, good, E2E_BLOB_MAX);
		b[i] ^= 0xff;
		check_refused(ctx, b, expected_errno(b), "flipped byte", i);
	}
	/*
	 * Every truncation (what is missing arrives as zeros), except those
	 * that only lose bytes that were zero anyway: those are the blob.
	 */
	for (i = 0; i < blob_len; i++) {
		memset(b, 0, sizeof(b));
		memcpy(b, good, i);
		if (!memcmp(b, good, blob_len))
			continue;
		check_refused(ctx, b, expected_errno(b), "truncated to", i);
	}
}

static void resealed(struct ibv_context *ctx, const uint8_t *good)
{
	uint8_t b[E2E_BLOB_MAX];
	bool file_ids;

	memcpy(b, good, E2E_BLOB_MAX);
	put16le(b + 4, BLOB_FORMAT_VERSION + 1);
	reseal(b, blob_len);
	check_refused(ctx, b, EPROTO, "version", 2);

	memcpy(b, good, E2E_BLOB_MAX);
	put16le(b + 6, BLOB_KIND_VAR);	/* same size, other kind */
	reseal(b, blob_len);
	check_refused(ctx, b, EINVAL, "kind", BLOB_KIND_VAR);

	memcpy(b, good, E2E_BLOB_MAX);
	put32le(b + 8, BLOB_HEADER_SIZE);
	reseal(b, BLOB_HEADER_SIZE);
	check_refused(ctx, b, EINVAL, "length", BLOB_HEADER_SIZE);

	memcpy(b, good, E2E_BLOB_MAX);
	b[61] = 1;			/* body reserved */
	reseal(b, blob_len);
	check_refused(ctx, b, EINVAL, "reserved byte", 61);

	/* Made in another boot of the kernel: ESTALE, in every mode. */
	memcpy(b, good, E2E_BLOB_MAX);
	b[BLOB_BOOT_ID_OFF + 3] ^= 0x10;	/* boot id */
	reseal(b, blob_len);
	check_refused(ctx, b, ESTALE, "boot id", BLOB_BOOT_ID_OFF + 3);

	/* Format 4, which had no boot id: EPROTO, whatever its bytes. */
	memcpy(b, good, E2E_BLOB_MAX);
	put16le(b + 4, BLOB_FORMAT_VERSION - 1);
	reseal(b, blob_len);
	check_refused(ctx, b, EPROTO, "version", BLOB_FORMAT_VERSION - 1);

	memcpy(b, good, E2E_BLOB_MAX);
	b[16] ^= 0x5a;			/* node GUID */
	reseal(b, blob_len);
	check_refused(ctx, b, EXDEV, "guid", 16);

	/*
	 * Well-formed, but the kernel has no such object: without the file
	 * id the kernel is asked and refuses it; with it nothing is asked
	 * (the handle names no object, now or ever: its first command
	 * fails).
	 */
	file_ids = file_id_expected(ctx->cmd_fd);
	memcpy(b, good, E2E_BLOB_MAX);
	put32le(b + 48, 4000);		/* handle */
	reseal(b, blob_len);
	if (file_ids)
		check_imports(ctx, b, "handle", 4000);
	else
		check_refused(ctx, b, ENOENT, "handle", 4000);

	/*
	 * Another object id: with the file id the id is the exporter's word
	 * (a counter's id has 32 bits: no bound), so it imports; without
	 * it, the id query finds no such object.
	 */
	memcpy(b, good, E2E_BLOB_MAX);
	put32le(b + 56, e2e_blob_object_id(good) + 7);	/* object id */
	reseal(b, blob_len);
	if (file_ids)
		check_imports(ctx, b, "object id", 7);
	else
		check_refused(ctx, b, ENOENT, "object id", 7);
	/* The same without a file id: a downgrade where there is one. */
	memset(b + 72, 0, 8);
	reseal(b, blob_len);
	check_refused(ctx, b, file_ids ? EPROTO : ENOENT,
		      "object id, no file id", 7);

	/* Another verbs file's id: EXDEV in both modes. */
	memcpy(b, good, E2E_BLOB_MAX);
	b[72] ^= 0x40;
	reseal(b, blob_len);
	check_refused(ctx, b, EXDEV, "file id", 72);

	/* Fields libmlx5 cannot have recorded: EINVAL in every mode. */
	memcpy(b, good, E2E_BLOB_MAX);
	b[60] = 32;			/* log_obj_range */
	reseal(b, blob_len);
	check_refused(ctx, b, EINVAL, "log_obj_range", 60);
	memcpy(b, good, E2E_BLOB_MAX);
	put32le(b + 52, 13);		/* type past libmlx5's enum */
	reseal(b, blob_len);
	check_refused(ctx, b, EINVAL, "type", 52);
	memcpy(b, good, E2E_BLOB_MAX);
	put32le(b + 52, IMPORT_DEVX_QP);	/* a QP number has 24 bits */
	put32le(b + 56, 1u << 24);
	reseal(b, blob_len);
	check_refused(ctx, b, EINVAL, "QP number", 40);
}

/* A real blob of another kind: a UMEM's. */
static void umem_blob(struct ibv_context *ctx)
{
	struct mlx5dv_devx_umem *umem;
	uint8_t b[E2E_BLOB_MAX] = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	void *buf;

	REQUIRE(posix_memalign(&buf, page, page) == 0);
	umem = mlx5dv_devx_umem_reg(ctx, buf, page, IBV_ACCESS_LOCAL_WRITE);
	if (!umem && e2e_on_hw()) {
		free(buf);
		return;
	}
	REQUIRE(umem);
	CHECK_EQ(mlx5dv_devx_umem_export(umem, b), 0);
	check_refused(ctx, b, EINVAL, "umem blob kind", BLOB_KIND_DEVX_UMEM);
	CHECK_EQ(mlx5dv_devx_umem_dereg(umem), 0);
	free(buf);
}

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc, *meter, *imp;
	uint8_t fc_blob[E2E_BLOB_MAX], meter_blob[E2E_BLOB_MAX], out[32];
	uint32_t fc_id, meter_id = 0;
	struct ibv_context *ctx;
	bool active;
	long live;

	ctx = e2e_start(argc, argv, NAME);
	blob_len = e2e_obj_blob_size();
	CHECK_EQ(blob_len, BLOB_DEVX_OBJ_SIZE);

	fc = fc_alloc(ctx, &fc_id);
	REQUIRE(fc);
	meter = meter_create(ctx, &meter_id);
	REQUIRE(meter || e2e_on_hw());
	e2e_export(fc, fc_blob);
	if (meter)
		e2e_export(meter, meter_blob);
	live = e2e_live_devx_objs(ctx);

	CHECK_ERRNO(!mlx5dv_devx_obj_import(NULL, fc_blob), EINVAL);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, NULL), EINVAL);

	damaged(ctx, fc_blob);
	resealed(ctx, fc_blob);
	if (meter) {
		damaged(ctx, meter_blob);
		resealed(ctx, meter_blob);
	}
	umem_blob(ctx);

	/* Nothing was created, everything still works. */
	CHECK_EQ(e2e_live_devx_objs(ctx), live);
	CHECK_EQ(fc_query(fc, fc_id, out), 0);
	imp = mlx5dv_devx_obj_import(ctx, fc_blob);
	CHECK(imp != NULL);
	if (imp) {
		CHECK_EQ(fc_query(imp, fc_id, out), 0);
		mlx5dv_devx_obj_unimport(imp);
	}
	if (meter) {
		CHECK_EQ(meter_query(meter, meter_id, &active), 0);
		CHECK_EQ(mlx5dv_devx_obj_destroy(meter), 0);
	}
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
