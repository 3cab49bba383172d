// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Two PCI functions with one node GUID (mlx5-emu run --same-guid, as
 * unconfigured SR-IOV VFs report): a flow counter blob of device 0 is
 * refused on device 1 with EXDEV, by the vhca_id the blob carries.
 *
 * Without that check (a device that refuses the vhca_id query: the
 * GUID-only binding) it would alias: device 1 has a flow counter with the
 * same handle and the same id, so the same blob with device 1's vhca_id
 * written in (and resealed) stands for that case.  With the verbs file id
 * (series v3: unique in the boot, whatever the device) the blob names
 * device 0's verbs file: EXDEV (issue 30 item 4).  Without it (every
 * released kernel) it imports there and answers for the wrong counter:
 * the binding's documented limit (mlx5-share(7)).  The test shows both;
 * registered with --handles=unique and --handles=lowest-free.
 */
#include <string.h>

#include "blob.h"
#include "check.h"
#include "e2e.h"
#include "file_id_probe.h"

#define NAME "e2e_same_guid"

int main(int argc, char **argv)
{
	struct mlx5dv_devx_obj *fc0, *fc1, *imp;
	uint8_t blob0[E2E_BLOB_MAX], blob1[E2E_BLOB_MAX];
	struct ibv_context *ctx0, *ctx1;
	struct blob b0, b1;
	uint32_t id0, id1;

	e2e_init(argc, argv, NAME);
	if (e2e_num_devices() < 2)
		check_skip(NAME, "needs two mlx5 devices");
	e2e_open_same_guid(&ctx0, &ctx1);

	fc0 = e2e_fc_exported(ctx0, &id0, blob0);
	fc1 = e2e_fc_exported(ctx1, &id1, blob1);
	REQUIRE(blob_decode(blob0, BLOB_MAX_SIZE, BLOB_KIND_DEVX_OBJ,
			    &b0) == 0);
	REQUIRE(blob_decode(blob1, BLOB_MAX_SIZE, BLOB_KIND_DEVX_OBJ,
			    &b1) == 0);

	/* One GUID, two functions, each with its vhca_id. */
	CHECK_EQ(b0.node_guid, b1.node_guid);
	CHECK(b0.has_vhca_id && b1.has_vhca_id);
	CHECK(b0.vhca_id != b1.vhca_id);
	/* The alias: same handle, same counter id, another function. */
	CHECK_EQ(b0.handle, b1.handle);
	CHECK_EQ(b0.obj.object_id, b1.obj.object_id);

	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx1, blob0), EXDEV);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx0, blob1), EXDEV);

	/* What the check prevents: device 0's blob, device 1's vhca_id. */
	b0.vhca_id = b1.vhca_id;
	REQUIRE(blob_encode(&b0, blob0) == BLOB_DEVX_OBJ_SIZE);
	if (file_id_expected(ctx1->cmd_fd)) {
		/* Device 0's verbs file, not device 1's. */
		CHECK(b0.file_id != 0 && b0.file_id != b1.file_id);
		CHECK_EQ(b1.file_id, file_id_of(ctx1->cmd_fd));
		CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx1, blob0), EXDEV);
	} else {
		/* It answers for device 1's counter, not device 0's. */
		CHECK_EQ(b0.file_id, 0);
		e2e_check_fc_import(ctx1, blob0, id1);
	}

	/* Each blob still imports where it belongs. */
	imp = mlx5dv_devx_obj_import(ctx1, blob1);
	CHECK(imp != NULL);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);

	CHECK_EQ(mlx5dv_devx_obj_destroy(fc0), 0);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc1), 0);

	/*
	 * The vhca_id is cached, but not by context address: a context of
	 * device 0 closed and one of device 1 opened (malloc hands out the
	 * same address more often than not) exports with device 1's.
	 */
	CHECK_EQ(ibv_close_device(ctx0), 0);
	ctx0 = e2e_open(1);
	fc0 = e2e_fc_exported(ctx0, &id0, blob0);
	REQUIRE(blob_decode(blob0, BLOB_MAX_SIZE, BLOB_KIND_DEVX_OBJ,
			    &b0) == 0);
	CHECK(b0.has_vhca_id);
	CHECK_EQ(b0.vhca_id, b1.vhca_id);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc0), 0);

	CHECK_EQ(ibv_close_device(ctx1), 0);
	CHECK_EQ(ibv_close_device(ctx0), 0);
	return check_done(NAME);
}
