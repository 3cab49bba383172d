// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Issue 37 item 4: a blob is bound to the boot of the kernel it was made
 * in.  run-reboot.sh runs this program twice, each time under a fresh
 * mlx5-emu (a fresh boot: the emulator's own boot id):
 *
 * On a real device (--hw first) tests/vm/cx/cx_reboot.sh runs it in two
 * boots of the VM instead.
 *
 *   e2e_reboot save FILE   exports a flow counter, checks that its blob
 *                          imports in this boot, and saves it to FILE;
 *   e2e_reboot load FILE   makes the same object again (a fresh emulator
 *                          allocates the same handle and number, which
 *                          without the boot id would let the saved blob
 *                          import with full proof), then: the saved blob
 *                          is refused with ESTALE, single and batch, with
 *                          nothing allocated or left behind, and the new
 *                          object's own blob still imports.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5_share_batch.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"

#define NAME "e2e_reboot"

/* Refused imports of one blob, so that a leak of a few bytes shows. */
#define ROUNDS 200

static void save(struct ibv_context *ctx, const char *path)
{
	uint8_t blob[E2E_BLOB_MAX] = { 0 };
	struct mlx5dv_devx_obj *fc;
	size_t len = e2e_obj_blob_size();
	uint32_t id;
	FILE *f;

	fc = e2e_fc_exported(ctx, &id, blob);
	e2e_check_fc_import(ctx, blob, id);
	f = fopen(path, "wb");
	REQUIRE(f && fwrite(blob, 1, len, f) == len && !fclose(f));
	printf("%s: saved handle %u, counter %#x\n", NAME,
	       e2e_blob_handle(blob), id);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

static void load(struct ibv_context *ctx, const char *path)
{
	uint8_t old[E2E_BLOB_MAX] = { 0 }, blob[E2E_BLOB_MAX] = { 0 };
	struct mlx5dv_devx_obj *fc, *obj, *objs[1];
	size_t len = e2e_obj_blob_size(), heap;
	void *blobs[1] = { old };
	long live;
	int i, errs[1];
	uint32_t id;
	FILE *f;

	f = fopen(path, "rb");
	REQUIRE(f && fread(old, 1, len, f) == len);
	fclose(f);
	fc = e2e_fc_exported(ctx, &id, blob);
	/* The replay this guards against: the same handle and number. */
	CHECK_EQ(e2e_blob_handle(old), e2e_blob_handle(blob));
	CHECK_EQ(e2e_blob_object_id(old), e2e_blob_object_id(blob));
	/* and nothing but the boot id (and so the checksum) tells them apart */
	CHECK(memcmp(old + BLOB_BOOT_ID_OFF, blob + BLOB_BOOT_ID_OFF,
		     BLOB_BOOT_ID_LEN));

	live = e2e_live_devx_objs(ctx);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, old), ESTALE);
	heap = mallinfo2().uordblks;
	for (i = 0; i < ROUNDS; i++) {
		obj = mlx5dv_devx_obj_import(ctx, old);
		CHECK(!obj && errno == ESTALE);
	}
	CHECK_EQ(mallinfo2().uordblks, heap);
	CHECK_EQ(mlx5share_devx_obj_import_batch(ctx, blobs, 1, objs, errs),
		 0);
	CHECK_EQ(errs[0], ESTALE);
	CHECK(objs[0] == NULL);
	CHECK_EQ(e2e_live_devx_objs(ctx), live);

	/* The object of this boot still imports and answers. */
	e2e_check_fc_import(ctx, blob, id);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
}

int main(int argc, char **argv)
{
	const char *mode, *path;
	struct ibv_context *ctx;
	int a = 1;

	e2e_init(argc, argv, NAME);
	/* --hw (a real device: the VM's reboot, tests/vm/cx) comes first */
	if (a < argc && !strcmp(argv[a], "--hw"))
		a++;
	REQUIRE(argc - a == 2 &&
		(!strcmp(argv[a], "save") || !strcmp(argv[a], "load")));
	mode = argv[a];
	path = argv[a + 1];
	ctx = e2e_open(0);
	if (!strcmp(mode, "save"))
		save(ctx, path);
	else
		load(ctx, path);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
